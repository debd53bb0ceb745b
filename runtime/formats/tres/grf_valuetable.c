/* grf_valuetable.c — the GRF value table (content flag 0x2000): reading,
 * validating and writing its unaligned byte stream of NUL-terminated names,
 * object-handle records, the symbol table and typed records. The schema
 * language has no NUL-terminated strings, so this section is hand-written.
 * Layout: Trespasser source, Lib/Groff/GroffIO.cpp "Value table" (ValueTable.cpp 327–370,
 * 1493–1525, 1760–1856; SymbolTable.cpp 264–305, 528–570; ObjectHandle.cpp
 * 283–330, 560–620; EasyString.cpp 955–995); Trespasser file formats, ".valuetable". */
#include <string.h>

#include "relic_gen.h"
#include "relic_grf.h"

/* Fixed parts (Trespasser source, Lib/Groff/GroffIO.cpp): object-handle record after its class name =
 * base, next, count (u32 each) + in-use byte; a symbol after its name = one
 * 8-byte handle; a record = type, scope, reference bytes, value, symbol and
 * target handles, payload, key handle. */
#define HANDLE_SIZE 8u
#define HANDLES_FIXED 13u
#define SYMBOL_MIN (1u + HANDLE_SIZE)
#define RECORD_HEAD (3u + 3u * HANDLE_SIZE)
#define RECORD_MIN (RECORD_HEAD + 1u + HANDLE_SIZE)

typedef struct cursor {
    const uint8_t *p;
    size_t n, pos;
    relic_arena *a; /* NULL: validate only */
    relic_error *err;
} cursor;

static relic_status need(cursor *c, size_t k, const char *path)
{
    if (c->n - c->pos < k)
        return relic_fail(c->err, RELIC_E_TRUNCATED, c->pos, path, "%zu bytes needed, %zu left", k, c->n - c->pos);
    return RELIC_OK;
}

static relic_status get_u32(cursor *c, const char *path, uint32_t *v)
{
    relic_status st = need(c, 4, path);
    if (st) return st;
    *v = relic_load_u32le(c->p + c->pos);
    c->pos += 4;
    return RELIC_OK;
}

static relic_status get_u8(cursor *c, const char *path, uint8_t *v)
{
    relic_status st = need(c, 1, path);
    if (st) return st;
    *v = c->p[c->pos++];
    return RELIC_OK;
}

static relic_status get_handle(cursor *c, const char *path, relic_grf_vt_handle *h)
{
    relic_status st = need(c, HANDLE_SIZE, path);
    if (st) return st;
    h->id = relic_load_u32le(c->p + c->pos);
    h->references = relic_load_u32le(c->p + c->pos + 4);
    c->pos += HANDLE_SIZE;
    return RELIC_OK;
}

/* A NUL-terminated string; *s (when c->a) an arena copy. */
static relic_status get_string(cursor *c, const char *path, char **s)
{
    /* an empty section has no bytes (c->p may be NULL): no pointer arithmetic then */
    if (c->pos >= c->n)
        return relic_fail(c->err, RELIC_E_TRUNCATED, c->pos, path, "string without NUL before the end of the section");
    const uint8_t *start = c->p + c->pos;
    const uint8_t *nul = memchr(start, 0, c->n - c->pos);
    if (!nul) return relic_fail(c->err, RELIC_E_TRUNCATED, c->pos, path, "string without NUL before the end of the section");
    size_t len = (size_t)(nul - start);
    if (c->a) {
        char *d = relic_arena_alloc(c->a, len + 1, 1);
        if (!d) return relic_fail(c->err, RELIC_E_NOMEM, c->pos, path, "out of memory");
        memcpy(d, start, len + 1);
        *s = d;
    }
    c->pos += len + 1;
    return RELIC_OK;
}

static relic_status get_handles(cursor *c, const char *path, relic_grf_vt_handles *h)
{
    char p[64];
    relic_status st;
    snprintf(p, sizeof p, "%s.class_name", path);
    if ((st = get_string(c, p, &h->class_name))) return st;
    snprintf(p, sizeof p, "%s", path);
    if ((st = need(c, HANDLES_FIXED, p))) return st;
    h->base = relic_load_u32le(c->p + c->pos);
    h->next = relic_load_u32le(c->p + c->pos + 4);
    h->count = relic_load_u32le(c->p + c->pos + 8);
    h->in_use = c->p[c->pos + 12];
    c->pos += HANDLES_FIXED;
    return RELIC_OK;
}

/* A count of elements of at least min bytes each: checked against what is left. */
static relic_status get_count(cursor *c, const char *path, size_t min, uint32_t *count)
{
    relic_status st = get_u32(c, path, count);
    if (st) return st;
    if (*count > (c->n - c->pos) / min)
        return relic_fail(c->err, RELIC_E_TRUNCATED, c->pos - 4, path,
                          "%u entries of at least %zu bytes do not fit in the %zu bytes left", *count, min,
                          c->n - c->pos);
    return RELIC_OK;
}

static void *alloc_array(cursor *c, size_t count, size_t elem)
{
    if (!c->a || !count) return NULL;
    void *p = relic_arena_array(c->a, count, elem, 8);
    if (p) memset(p, 0, count * elem);
    return p;
}

static relic_status get_record(cursor *c, size_t i, relic_grf_vt_record *r)
{
    char path[64];
    relic_status st;
    relic_grf_vt_record tmp;
    if (!r) r = &tmp;
    memset(r, 0, sizeof *r);
    snprintf(path, sizeof path, "records[%zu]", i);
    if ((st = need(c, RECORD_HEAD, path))) return st;
    r->type = c->p[c->pos];
    if (r->type < RELIC_GRF_VALUE_BOOL || r->type > RELIC_GRF_VALUE_OBJECT) {
        snprintf(path, sizeof path, "records[%zu].type", i);
        return relic_fail(c->err, RELIC_E_RANGE, c->pos, path, "%u is not a value type (1 bool .. 6 object)", r->type);
    }
    r->scope = c->p[c->pos + 1];
    r->reference = c->p[c->pos + 2];
    c->pos += 3;
    get_handle(c, path, &r->value);
    get_handle(c, path, &r->symbol);
    get_handle(c, path, &r->target);
    snprintf(path, sizeof path, "records[%zu].payload", i);
    switch (r->type) {
    case RELIC_GRF_VALUE_BOOL:
    case RELIC_GRF_VALUE_CHAR:
        if ((st = get_u8(c, path, &r->b))) return st;
        break;
    case RELIC_GRF_VALUE_INT:
    case RELIC_GRF_VALUE_FLOAT: {
        uint32_t u;
        if ((st = get_u32(c, path, &u))) return st;
        r->i = (int32_t)u;
        memcpy(&r->f, &u, 4);
        break;
    }
    case RELIC_GRF_VALUE_STRING:
        if ((st = get_string(c, path, &r->s))) return st;
        break;
    default: {
        uint32_t k;
        if ((st = get_count(c, path, HANDLE_SIZE, &k))) return st;
        r->items_count = k;
        if (c->a && k && !(r->items = alloc_array(c, k, sizeof *r->items)))
            return relic_fail(c->err, RELIC_E_NOMEM, c->pos, path, "out of memory");
        for (uint32_t j = 0; j < k; j++) {
            relic_grf_vt_handle h;
            get_handle(c, path, &h);
            if (r->items) r->items[j] = h;
        }
    }
    }
    snprintf(path, sizeof path, "records[%zu].key", i);
    return get_handle(c, path, &r->key);
}

relic_status relic_grf_value_table_parse(const uint8_t *p, size_t n, relic_arena *a, relic_grf_value_table *out,
                                         relic_error *err)
{
    cursor c = {p, n, 0, out ? a : NULL, err};
    relic_grf_value_table tmp;
    relic_grf_vt_handles scratch;
    relic_status st;
    uint32_t count;
    relic_grf_value_table *vt = out ? out : &tmp;
    memset(vt, 0, sizeof *vt);
    if ((st = get_string(&c, "name", &vt->name))) return st;
    if ((st = get_handles(&c, "symbol_handles", out ? &vt->symbol_handles : &scratch))) return st;
    if ((st = get_string(&c, "symbol_table_name", &vt->symbol_table_name))) return st;
    if ((st = get_count(&c, "symbols_count", SYMBOL_MIN, &count))) return st;
    vt->symbols_count = count;
    if (out && count && !(vt->symbols = alloc_array(&c, count, sizeof *vt->symbols)))
        return relic_fail(err, RELIC_E_NOMEM, c.pos, "symbols", "out of memory");
    for (uint32_t i = 0; i < count; i++) {
        char path[48];
        relic_grf_vt_symbol s, *d = vt->symbols ? &vt->symbols[i] : &s;
        snprintf(path, sizeof path, "symbols[%u]", i);
        if ((st = get_string(&c, path, &d->name)) || (st = get_handle(&c, path, &d->handle))) return st;
    }
    if ((st = get_handles(&c, "value_handles", out ? &vt->value_handles : &scratch))) return st;
    if ((st = get_count(&c, "records_count", RECORD_MIN, &count))) return st;
    vt->records_count = count;
    if (out && count && !(vt->records = alloc_array(&c, count, sizeof *vt->records)))
        return relic_fail(err, RELIC_E_NOMEM, c.pos, "records", "out of memory");
    for (uint32_t i = 0; i < count; i++)
        if ((st = get_record(&c, i, vt->records ? &vt->records[i] : NULL))) return st;
    if (c.pos != n)
        return relic_fail(err, RELIC_E_LAYOUT, c.pos, "records", "%zu bytes after the last record", n - c.pos);
    if (!out) memset(vt, 0, sizeof *vt);
    return RELIC_OK;
}

/* ---- writing ---- */

static void put_u32(relic_buf *o, uint32_t v)
{
    uint8_t *p = relic_buf_extend(o, 4);
    if (p) relic_store_u32le(p, v);
}

static void put_handle(relic_buf *o, relic_grf_vt_handle h)
{
    put_u32(o, h.id);
    put_u32(o, h.references);
}

static void put_string(relic_buf *o, const char *s)
{
    relic_buf_append(o, s ? s : "", s ? strlen(s) + 1 : 1);
}

static void put_handles(relic_buf *o, const relic_grf_vt_handles *h)
{
    put_string(o, h->class_name);
    put_u32(o, h->base);
    put_u32(o, h->next);
    put_u32(o, h->count);
    relic_buf_append(o, &h->in_use, 1);
}

relic_status relic_grf_value_table_write(const relic_grf_value_table *vt, relic_buf *out, relic_error *err)
{
    if (vt->symbols_count > UINT32_MAX || vt->records_count > UINT32_MAX)
        return relic_fail(err, RELIC_E_LIMIT, 0, "records", "more than 2^32 - 1 entries");
    put_string(out, vt->name);
    put_handles(out, &vt->symbol_handles);
    put_string(out, vt->symbol_table_name);
    put_u32(out, (uint32_t)vt->symbols_count);
    for (size_t i = 0; i < vt->symbols_count; i++) {
        put_string(out, vt->symbols[i].name);
        put_handle(out, vt->symbols[i].handle);
    }
    put_handles(out, &vt->value_handles);
    put_u32(out, (uint32_t)vt->records_count);
    for (size_t i = 0; i < vt->records_count; i++) {
        const relic_grf_vt_record *r = &vt->records[i];
        uint8_t head[3] = {r->type, r->scope, r->reference};
        relic_buf_append(out, head, 3);
        put_handle(out, r->value);
        put_handle(out, r->symbol);
        put_handle(out, r->target);
        switch (r->type) {
        case RELIC_GRF_VALUE_BOOL:
        case RELIC_GRF_VALUE_CHAR: relic_buf_append(out, &r->b, 1); break;
        case RELIC_GRF_VALUE_INT: put_u32(out, (uint32_t)r->i); break;
        case RELIC_GRF_VALUE_FLOAT: {
            uint32_t u;
            memcpy(&u, &r->f, 4);
            put_u32(out, u);
            break;
        }
        case RELIC_GRF_VALUE_STRING: put_string(out, r->s); break;
        case RELIC_GRF_VALUE_OBJECT:
            if (r->items_count > UINT32_MAX)
                return relic_gen_fail_at(err, RELIC_E_LIMIT, 0, "records", (int64_t)i, "more than 2^32 - 1 items");
            put_u32(out, (uint32_t)r->items_count);
            for (size_t k = 0; k < r->items_count; k++) put_handle(out, r->items[k]);
            break;
        default:
            return relic_gen_fail_at(err, RELIC_E_ARGUMENT, 0, "records", (int64_t)i,
                                     "type %u is not a value type (1 bool .. 6 object)", r->type);
        }
        put_handle(out, r->key);
    }
    if (out->failed) return relic_fail(err, RELIC_E_NOMEM, 0, "", "output buffer could not grow");
    return RELIC_OK;
}

/* ---- lookups ---- */

long relic_grf_value_table_find(const relic_grf_value_table *vt, uint32_t id)
{
    size_t n = vt->records_count;
    if (n && vt->records[0].value.id <= vt->records[n - 1].value.id) {
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (vt->records[mid].value.id < id) lo = mid + 1;
            else hi = mid;
        }
        if (lo < n && vt->records[lo].value.id == id) return (long)lo;
    }
    for (size_t i = 0; i < n; i++)
        if (vt->records[i].value.id == id) return (long)i;
    return -1;
}

const char *relic_grf_value_table_symbol(const relic_grf_value_table *vt, uint32_t id)
{
    /* the handle id is the index in every known file: try that first */
    if (id < vt->symbols_count && vt->symbols[id].handle.id == id) return vt->symbols[id].name;
    for (size_t i = 0; i < vt->symbols_count; i++)
        if (vt->symbols[i].handle.id == id) return vt->symbols[i].name;
    return NULL;
}
