/* gen_support.c — out-of-line helpers of relic_gen.h used by the generated
 * validators: error-path prefixing and overflow-safe span checks. */
#include <stdarg.h>

#include "relic_gen.h"

/* (name): the functions stay defined under RELIC_NO_ERRMSG, which makes the
 * calls macros (relic_gen.h) */
void (relic_gen_path_prefix)(relic_error *err, const char *name, int64_t index)
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

relic_status (relic_gen_fail_at)(relic_error *err, relic_status code, uint64_t offset, const char *name,
                               int64_t index, const char *fmt, ...)
{
    char msg[RELIC_ERROR_MESSAGE_MAX], path[RELIC_ERROR_PATH_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (index >= 0) snprintf(path, sizeof path, "%s[%lld]", name, (long long)index);
    else snprintf(path, sizeof path, "%s", name);
    return (relic_fail)(err, code, offset, path, "%s", msg);
}
