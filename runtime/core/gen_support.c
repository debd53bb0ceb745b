/* gen_support.c — out-of-line helpers of relic_gen.h used by the generated
 * validators: error-path prefixing and overflow-safe span checks. */
#include <stdarg.h>
#include <string.h>

#include "relic_gen.h"

/* (name): the functions stay defined under RELIC_NO_ERRMSG, which makes the
 * calls macros (relic_gen.h) */
void(relic_gen_path_prefix)(relic_error *err, const char *name, int64_t index)
{
    char joined[2 * RELIC_ERROR_PATH_MAX + 32];
    if (!err) return;
    int n = index >= 0 ? snprintf(joined, sizeof joined, "%s[%lld]", name, (long long)index)
                       : snprintf(joined, sizeof joined, "%s", name);
    if (n < 0) return;
    size_t k = (size_t)n < sizeof joined ? (size_t)n : sizeof joined - 1;
    if (err->path[0] != 0 && err->path[0] != '[' && k + 1 < sizeof joined) joined[k++] = '.';
    size_t rest = strlen(err->path);
    if (k + rest >= sizeof joined) rest = sizeof joined - 1 - k;
    memcpy(joined + k, err->path, rest);
    joined[k + rest] = 0;
    /* keep the innermost part when the whole path does not fit */
    size_t len = k + rest;
    const char *from = len < RELIC_ERROR_PATH_MAX ? joined : joined + (len - (RELIC_ERROR_PATH_MAX - 1));
    memmove(err->path, from, strlen(from) + 1);
}

int relic_gen_span_ok(uint64_t pos, uint64_t count, uint64_t elem, uint64_t size, uint64_t *bytes)
{
    uint64_t b, end;
    if (!relic_mul_ok(count, elem, &b) || !relic_add_ok(pos, b, &end) || end > size) return 0;
    *bytes = b;
    return 1;
}

relic_status(relic_gen_fail_at)(relic_error *err, relic_status code, uint64_t offset, const char *name,
                                int64_t index, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    relic_status st = relic_vfail(err, code, offset, NULL, fmt, ap);
    va_end(ap);
    relic_gen_path_prefix(err, name, index); /* one path formatter: smaller embedded */
    return st;
}

relic_status(relic_gen_place)(relic_error *err, uint64_t cur, int64_t at, int64_t count, uint64_t per,
                              uint64_t elem, uint64_t size, const char *name, uint64_t *pos, uint64_t *n,
                              uint64_t *bytes)
{
    *pos = *n = *bytes = 0;
    if (at < 0 || (uint64_t)at > size)
        return relic_gen_fail_at(err, RELIC_E_LAYOUT, cur, name, -1, "offset %lld is outside the %llu-byte input",
                                 (long long)at, (unsigned long long)size);
    const uint64_t p = (uint64_t)at;
    if (count < 0)
        return relic_gen_fail_at(err, RELIC_E_RANGE, p, name, -1, "negative element count %lld", (long long)count);
    const uint64_t k = (uint64_t)count * per;
    if (!relic_gen_span_ok(p, k, elem, size, bytes))
        return relic_fail(err, RELIC_E_TRUNCATED, p, name, "%llu elements of %llu bytes, %llu bytes remain",
                          (unsigned long long)k, (unsigned long long)elem, (unsigned long long)(size - p));
    *pos = p;
    *n = k;
    return RELIC_OK;
}

relic_status(relic_gen_short)(relic_error *err, uint64_t pos, uint64_t total, const char *path, const char *what,
                              uint64_t n)
{
    return relic_fail(err, RELIC_E_TRUNCATED, pos, path, "%s needs %llu bytes, %llu remain", what,
                      (unsigned long long)n, (unsigned long long)(pos < total ? total - pos : 0));
}

relic_status relic_gen_span(relic_error *err, uint64_t pos, int64_t count, uint64_t per, uint64_t elem,
                            uint64_t size, const char *name, uint64_t *n, uint64_t *bytes)
{
    *n = *bytes = 0;
    if (count < 0)
        return relic_gen_fail_at(err, RELIC_E_RANGE, pos, name, -1, "negative element count %lld", (long long)count);
    const uint64_t k = (uint64_t)count * per;
    if (!relic_gen_span_ok(pos, k, elem, size, bytes))
        return relic_gen_fail_at(err, RELIC_E_TRUNCATED, pos, name, -1,
                                 "%llu elements of %llu bytes need %llu bytes from 0x%llx, %llu remain",
                                 (unsigned long long)k, (unsigned long long)elem, (unsigned long long)(k * elem),
                                 (unsigned long long)pos, (unsigned long long)(pos < size ? size - pos : 0));
    *n = k;
    return RELIC_OK;
}

void *relic_gen_alloc(relic_arena *a, relic_error *err, uint64_t n, size_t size, size_t align, uint64_t pos,
                      const char *name)
{
    if (n == 0) return NULL;
    void *p = n <= SIZE_MAX ? relic_arena_array(a, (size_t)n, size, align) : NULL;
    if (!p) relic_fail(err, RELIC_E_NOMEM, pos, name, "out of memory for %llu elements", (unsigned long long)n);
    return p;
}

const char *relic_gen_enum_name(const relic_gen_enum_item *t, size_t n, int64_t value)
{
    if (n == 0) return NULL;
    /* most tables are dense from their first value: one look */
    uint64_t i = (uint64_t)value - (uint64_t)t[0].value;
    if (i < n && t[i].value == value) return t[i].name;
    for (size_t k = 0; k < n; k++)
        if (t[k].value == value) return t[k].name;
    return NULL;
}

int relic_gen_enum_value(const relic_gen_enum_item *t, size_t n, const char *name, int64_t *value)
{
    for (size_t k = 0; k < n; k++)
        if (strcmp(t[k].name, name) == 0) {
            *value = t[k].value;
            return 1;
        }
    return 0;
}

relic_status relic_gen_fits(relic_error *err, uint64_t v, uint64_t max, const char *name, const char *type)
{
    if (v <= max) return RELIC_OK;
    return relic_fail(err, RELIC_E_LIMIT, 0, name, "%llu does not fit %s", (unsigned long long)v, type);
}

relic_status relic_gen_count(relic_error *err, uint64_t pos, const char *name, const char *expr, int64_t value,
                             size_t count)
{
    if (value >= 0 && (uint64_t)value == (uint64_t)count) return RELIC_OK;
    return relic_fail(err, RELIC_E_ARGUMENT, pos, name, "has %llu elements but %s = %lld", (unsigned long long)count,
                      expr, (long long)value);
}

relic_status relic_gen_layout(relic_error *err, uint64_t seq, size_t n, const uint64_t *held, const uint64_t *size,
                              uint64_t *at, uint64_t *end)
{
    uint64_t cur = seq, last = seq;
    int keep = 1;
    for (size_t i = 0; i < n; i++) {
        at[i] = cur;
        if (cur + size[i] < cur) return relic_fail(err, RELIC_E_LIMIT, 0, "", "placed member %zu: too large", i);
        cur += size[i];
        if (!size[i]) continue;
        if (held[i] == RELIC_GEN_NOT_HELD || held[i] < seq || held[i] + size[i] < held[i]) {
            keep = 0;
            continue;
        }
        if (held[i] + size[i] > last) last = held[i] + size[i];
        for (size_t k = 0; k < i; k++)
            if (size[k] && held[i] < held[k] + size[k] && held[k] < held[i] + size[i]) keep = 0;
    }
    if (keep) {
        for (size_t i = 0; i < n; i++) at[i] = size[i] ? held[i] : last;
        cur = last;
    }
    *end = cur;
    return RELIC_OK;
}

void *relic_gen_copy(relic_arena *a, relic_error *err, const uint8_t *src, uint64_t n, size_t size, size_t align,
                     uint64_t pos, const char *name)
{
    void *p = relic_gen_alloc(a, err, n, size, align, pos, name);
    if (p && RELIC_GEN_LE) memcpy(p, src, (size_t)n * size);
    return p;
}

void *relic_gen_dup(relic_arena *a, relic_error *err, const uint8_t *src, uint64_t n, uint64_t pos, const char *name)
{
    char *p = n < SIZE_MAX ? relic_arena_alloc(a, (size_t)n + 1, 1) : NULL;
    if (!p) {
        relic_fail(err, RELIC_E_NOMEM, pos, name, "out of memory for %llu bytes", (unsigned long long)n);
        return NULL;
    }
    memcpy(p, src, (size_t)n);
    p[n] = 0;
    return p;
}

relic_status(relic_gen_fail_check)(relic_error *err, relic_status code, uint64_t offset, const char *name,
                                   int64_t index, int64_t value, const char *what)
{
    return relic_gen_fail_at(err, code, offset, name, index, "%lld %s", (long long)value, what);
}

/* Room for one view or model of ops's format in a (16-aligned, as arenas give). */
static void *ops_alloc(relic_arena *a, size_t size, relic_error *err, const char *what)
{
    void *p = a ? relic_arena_alloc(a, size ? size : 1, 16) : NULL;
    if (!p) relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the %s", what);
    return p;
}

relic_status relic_gen_ops_load(const relic_gen_ops *ops, const uint8_t *data, size_t size, relic_arena *a, void **model,
                                relic_error *err)
{
    void *v = ops_alloc(a, ops->view_size, err, "view"), *m = v ? ops_alloc(a, ops->model_size, err, "model") : NULL;
    if (!m) return RELIC_E_NOMEM;
    relic_status st = ops->validate(data, size, v, err);
    if (st == RELIC_OK) st = ops->decode(v, a, m, err);
    if (st == RELIC_OK) *model = m;
    return st;
}

relic_status relic_gen_ops_check(const relic_gen_ops *ops, const uint8_t *data, size_t size, relic_arena *scratch,
                                 relic_error *err)
{
    void *v = ops_alloc(scratch, ops->view_size, err, "view");
    return v ? ops->validate(data, size, v, err) : RELIC_E_NOMEM;
}

uint8_t *relic_gen_extend(relic_buf *out, uint64_t n, relic_error *err)
{
    uint8_t *p = NULL;
    if (n > (uint64_t)SIZE_MAX) relic_fail(err, RELIC_E_LIMIT, 0, "", "output too large");
    else if (!(p = relic_buf_extend(out, (size_t)n)))
        relic_fail(err, RELIC_E_NOMEM, 0, "", "cannot grow the output to %llu bytes", (unsigned long long)n);
    return p;
}
