/* grf_valuetable_json.c — the JSON form of a GRF value table (every field, so
 * that JSON -> value table -> bytes reproduces the section): records print
 * their type by name and their payload under the type's name. Layout facts:
 * Trespasser source, Lib/Groff/GroffIO.cpp "Value table"; Trespasser file formats, ".valuetable". */
#include <string.h>

#include "relic_gen.h"
#include "relic_grf.h"
#include "relic_json.h"
#include "grf_sections_json.h"

static const char *const type_names[] = {NULL, "bool", "char", "int", "float", "string", "object"};
#define TYPE_COUNT ((int)(sizeof type_names / sizeof type_names[0]))

static void handle(relic_buf *o, relic_grf_vt_handle h)
{
    relic_buf_printf(o, "[%u, %u]", h.id, h.references);
}

static void str(relic_buf *o, const char *s)
{
    relic_json_string(o, s ? s : "", s ? strlen(s) : 0);
}

static void handles(relic_buf *o, const relic_grf_vt_handles *h)
{
    relic_buf_puts(o, "{\"class_name\": ");
    str(o, h->class_name);
    relic_buf_printf(o, ", \"base\": %u, \"next\": %u, \"count\": %u, \"in_use\": %u}", h->base, h->next, h->count,
                     h->in_use);
}

relic_status relic_grf_value_table_json_print(const relic_grf_value_table *vt, relic_buf *o, relic_error *err)
{
    relic_buf_puts(o, "{\"format\": \"grf_value_table\", \"name\": ");
    str(o, vt->name);
    relic_buf_puts(o, ",\n \"symbol_handles\": ");
    handles(o, &vt->symbol_handles);
    relic_buf_puts(o, ",\n \"symbol_table_name\": ");
    str(o, vt->symbol_table_name);
    relic_buf_puts(o, ",\n \"symbols\": [");
    for (size_t i = 0; i < vt->symbols_count; i++) {
        relic_buf_puts(o, i ? ",\n  [" : "\n  [");
        str(o, vt->symbols[i].name);
        relic_buf_printf(o, ", %u, %u]", vt->symbols[i].handle.id, vt->symbols[i].handle.references);
    }
    relic_buf_puts(o, "],\n \"value_handles\": ");
    handles(o, &vt->value_handles);
    relic_buf_puts(o, ",\n \"records\": [");
    for (size_t i = 0; i < vt->records_count; i++) {
        const relic_grf_vt_record *r = &vt->records[i];
        if (r->type < 1 || r->type >= TYPE_COUNT)
            return relic_gen_fail_at(err, RELIC_E_ARGUMENT, 0, "records", (int64_t)i, "type %u", r->type);
        relic_buf_printf(o, "%s\n  {\"type\": \"%s\", \"scope\": %u, \"reference\": %u, \"value\": ", i ? "," : "",
                         type_names[r->type], r->scope, r->reference);
        handle(o, r->value);
        relic_buf_puts(o, ", \"symbol\": ");
        handle(o, r->symbol);
        relic_buf_puts(o, ", \"target\": ");
        handle(o, r->target);
        relic_buf_printf(o, ", \"%s\": ", type_names[r->type]);
        switch (r->type) {
        case RELIC_GRF_VALUE_BOOL:
        case RELIC_GRF_VALUE_CHAR: relic_buf_printf(o, "%u", r->b); break;
        case RELIC_GRF_VALUE_INT: relic_json_i64(o, r->i); break;
        case RELIC_GRF_VALUE_FLOAT: relic_json_f32(o, r->f); break;
        case RELIC_GRF_VALUE_STRING: str(o, r->s); break;
        default:
            relic_buf_puts(o, "[");
            for (size_t k = 0; k < r->items_count; k++) {
                if (k) relic_buf_puts(o, ", ");
                handle(o, r->items[k]);
            }
            relic_buf_puts(o, "]");
        }
        relic_buf_puts(o, ", \"key\": ");
        handle(o, r->key);
        relic_buf_puts(o, "}");
    }
    relic_buf_puts(o, "]}");
    if (o->failed) return relic_fail(err, RELIC_E_NOMEM, 0, "", "output buffer could not grow");
    return RELIC_OK;
}

/* ---- printing from the validated bytes (no decoded copy) ---- */

/* Fixed parts (Trespasser source, Lib/Groff/GroffIO.cpp "Value table"): an
 * object-handle record after its class name is base, next, count (u32 each)
 * and an in-use byte; a symbol after its name one 8-byte handle; a record
 * type, scope and reference bytes, then value, symbol and target handles,
 * its payload and its key handle. */
#define VT_HANDLE 8u
#define VT_HANDLES_FIXED 13u
#define VT_RECORD_PAYLOAD (3u + 3u * VT_HANDLE)

/* The offset after the NUL-terminated string at pos (validated: it has one). */
static size_t vt_skip(const relic_grf_vt_view *v, size_t pos)
{
    const uint8_t *nul = memchr(v->p + pos, 0, v->n - pos);
    return (size_t)(nul - v->p) + 1;
}

static const char *vt_str(const relic_grf_vt_view *v, size_t pos) { return (const char *)v->p + pos; }

static relic_grf_vt_handle vt_handle_at(const uint8_t *p)
{
    relic_grf_vt_handle h = {relic_load_u32le(p), relic_load_u32le(p + 4)};
    return h;
}

relic_status relic_grf_value_table_view(const uint8_t *p, size_t n, relic_arena *a, relic_grf_vt_view *out,
                                        relic_error *err)
{
    relic_status st = relic_grf_value_table_parse(p, n, NULL, NULL, err);
    if (st) return st;
    memset(out, 0, sizeof *out);
    out->p = p;
    out->n = n;
    size_t pos = vt_skip(out, 0);
    out->symbol_handles = pos;
    pos = vt_skip(out, pos) + VT_HANDLES_FIXED;
    out->symbol_table_name = pos;
    pos = vt_skip(out, pos);
    out->symbols_count = relic_load_u32le(p + pos);
    pos += 4;
    uint32_t *sym = out->symbols_count ? relic_arena_array(a, out->symbols_count, sizeof *sym, 4) : NULL;
    if (out->symbols_count && !sym) return relic_fail(err, RELIC_E_NOMEM, pos, "symbols", "out of memory");
    for (size_t i = 0; i < out->symbols_count; i++) {
        sym[i] = (uint32_t)pos;
        pos = vt_skip(out, pos) + VT_HANDLE;
    }
    out->symbols = sym;
    out->value_handles = pos;
    pos = vt_skip(out, pos) + VT_HANDLES_FIXED;
    out->records_count = relic_load_u32le(p + pos);
    pos += 4;
    uint32_t *rec = out->records_count ? relic_arena_array(a, out->records_count, sizeof *rec, 4) : NULL;
    if (out->records_count && !rec) return relic_fail(err, RELIC_E_NOMEM, pos, "records", "out of memory");
    for (size_t i = 0; i < out->records_count; i++) {
        rec[i] = (uint32_t)pos;
        size_t q = pos + VT_RECORD_PAYLOAD;
        switch (p[pos]) {
        case RELIC_GRF_VALUE_BOOL:
        case RELIC_GRF_VALUE_CHAR: q += 1; break;
        case RELIC_GRF_VALUE_INT:
        case RELIC_GRF_VALUE_FLOAT: q += 4; break;
        case RELIC_GRF_VALUE_STRING: q = vt_skip(out, q); break;
        default: q += 4 + (size_t)VT_HANDLE * relic_load_u32le(p + q);
        }
        pos = q + VT_HANDLE;
    }
    out->records = rec;
    return RELIC_OK;
}

void relic_grf_vt_view_record(const relic_grf_vt_view *v, size_t i, relic_grf_vt_record_view *r)
{
    const uint8_t *p = v->p + v->records[i];
    r->type = p[0];
    r->scope = p[1];
    r->reference = p[2];
    r->value = vt_handle_at(p + 3);
    r->symbol = vt_handle_at(p + 3 + VT_HANDLE);
    r->target = vt_handle_at(p + 3 + 2 * VT_HANDLE);
    p += VT_RECORD_PAYLOAD;
    r->payload = p;
    r->items_count = 0;
    switch (r->type) {
    case RELIC_GRF_VALUE_BOOL:
    case RELIC_GRF_VALUE_CHAR: p += 1; break;
    case RELIC_GRF_VALUE_INT:
    case RELIC_GRF_VALUE_FLOAT: p += 4; break;
    case RELIC_GRF_VALUE_STRING: p += strlen((const char *)p) + 1; break;
    default:
        r->items_count = relic_load_u32le(p);
        p += 4 + (size_t)VT_HANDLE * r->items_count;
    }
    r->key = vt_handle_at(p);
}

relic_grf_vt_handle relic_grf_vt_record_item(const relic_grf_vt_record_view *r, size_t k)
{
    return vt_handle_at(r->payload + 4 + (size_t)VT_HANDLE * k);
}

long relic_grf_vt_view_find(const relic_grf_vt_view *v, uint32_t id)
{
    size_t n = v->records_count;
#define ID(i) relic_load_u32le(v->p + v->records[i] + 3)
    if (n && ID(0) <= ID(n - 1)) {
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (ID(mid) < id) lo = mid + 1;
            else hi = mid;
        }
        if (lo < n && ID(lo) == id) return (long)lo;
    }
    for (size_t i = 0; i < n; i++)
        if (ID(i) == id) return (long)i;
#undef ID
    return -1;
}

const char *relic_grf_vt_view_symbol(const relic_grf_vt_view *v, uint32_t id)
{
#define SYM_ID(i) relic_load_u32le(v->p + vt_skip(v, v->symbols[i]))
    /* the handle id is the index in every known file: try that first */
    if (id < v->symbols_count && SYM_ID(id) == id) return vt_str(v, v->symbols[id]);
    for (size_t i = 0; i < v->symbols_count; i++)
        if (SYM_ID(i) == id) return vt_str(v, v->symbols[i]);
#undef SYM_ID
    return NULL;
}

static void handles_at(relic_buf *o, const relic_grf_vt_view *v, size_t pos)
{
    relic_buf_puts(o, "{\"class_name\": ");
    str(o, vt_str(v, pos));
    const uint8_t *q = v->p + vt_skip(v, pos);
    relic_buf_printf(o, ", \"base\": %u, \"next\": %u, \"count\": %u, \"in_use\": %u}", relic_load_u32le(q),
                     relic_load_u32le(q + 4), relic_load_u32le(q + 8), q[12]);
}

relic_status relic_grf_value_table_json_print_view(const relic_grf_vt_view *v, relic_buf *o, relic_error *err)
{
    relic_buf_puts(o, "{\"format\": \"grf_value_table\", \"name\": ");
    str(o, vt_str(v, 0));
    relic_buf_puts(o, ",\n \"symbol_handles\": ");
    handles_at(o, v, v->symbol_handles);
    relic_buf_puts(o, ",\n \"symbol_table_name\": ");
    str(o, vt_str(v, v->symbol_table_name));
    relic_buf_puts(o, ",\n \"symbols\": [");
    for (size_t i = 0; i < v->symbols_count; i++) {
        relic_grf_vt_handle h = vt_handle_at(v->p + vt_skip(v, v->symbols[i]));
        relic_buf_puts(o, i ? ",\n  [" : "\n  [");
        str(o, vt_str(v, v->symbols[i]));
        relic_buf_printf(o, ", %u, %u]", h.id, h.references);
    }
    relic_buf_puts(o, "],\n \"value_handles\": ");
    handles_at(o, v, v->value_handles);
    relic_buf_puts(o, ",\n \"records\": [");
    for (size_t i = 0; i < v->records_count; i++) {
        relic_grf_vt_record_view r;
        relic_grf_vt_view_record(v, i, &r);
        relic_buf_printf(o, "%s\n  {\"type\": \"%s\", \"scope\": %u, \"reference\": %u, \"value\": ", i ? "," : "",
                         type_names[r.type], r.scope, r.reference);
        handle(o, r.value);
        relic_buf_puts(o, ", \"symbol\": ");
        handle(o, r.symbol);
        relic_buf_puts(o, ", \"target\": ");
        handle(o, r.target);
        relic_buf_printf(o, ", \"%s\": ", type_names[r.type]);
        switch (r.type) {
        case RELIC_GRF_VALUE_BOOL:
        case RELIC_GRF_VALUE_CHAR: relic_buf_printf(o, "%u", r.payload[0]); break;
        case RELIC_GRF_VALUE_INT: relic_json_i64(o, (int32_t)relic_load_u32le(r.payload)); break;
        case RELIC_GRF_VALUE_FLOAT: relic_json_f32(o, relic_load_f32le(r.payload)); break;
        case RELIC_GRF_VALUE_STRING: str(o, (const char *)r.payload); break;
        default:
            relic_buf_puts(o, "[");
            for (size_t k = 0; k < r.items_count; k++) {
                if (k) relic_buf_puts(o, ", ");
                handle(o, relic_grf_vt_record_item(&r, k));
            }
            relic_buf_puts(o, "]");
        }
        relic_buf_puts(o, ", \"key\": ");
        handle(o, r.key);
        relic_buf_puts(o, "}");
    }
    relic_buf_puts(o, "]}");
    if (o->failed) return relic_fail(err, RELIC_E_NOMEM, 0, "", "output buffer could not grow");
    return RELIC_OK;
}

/* ---- reading ---- */

static relic_status rd_u32(relic_jr *r, const relic_jv *obj, const char *key, uint32_t *out)
{
    const relic_jv *v;
    int64_t x;
    relic_status st;
    relic_jr_push(r, key, -1);
    if ((st = relic_jr_member(r, obj, key, 1, &v)) || (st = relic_jr_int(r, v, 0, UINT32_MAX, &x))) return st;
    relic_jr_pop(r);
    *out = (uint32_t)x;
    return RELIC_OK;
}

static relic_status rd_u8(relic_jr *r, const relic_jv *obj, const char *key, uint8_t *out)
{
    uint32_t x;
    relic_status st = rd_u32(r, obj, key, &x);
    if (st) return st;
    if (x > UINT8_MAX) return relic_jr_fail(r, RELIC_E_RANGE, "%s: %u does not fit a byte", key, x);
    *out = (uint8_t)x;
    return RELIC_OK;
}

/* A string without NUL bytes (they end a value-table string). */
static relic_status rd_cstr(relic_jr *r, const relic_jv *v, char **out)
{
    size_t n;
    relic_status st = relic_jr_string(r, v, out, &n);
    if (st) return st;
    (*out)[n] = 0; /* relic_jr_string leaves room for it */
    if (memchr(*out, 0, n)) return relic_jr_fail(r, RELIC_E_RANGE, "a value-table string cannot hold a NUL");
    return RELIC_OK;
}

static relic_status rd_str(relic_jr *r, const relic_jv *obj, const char *key, char **out)
{
    const relic_jv *v;
    relic_status st;
    relic_jr_push(r, key, -1);
    if ((st = relic_jr_member(r, obj, key, 1, &v)) || (st = rd_cstr(r, v, out))) return st;
    relic_jr_pop(r);
    return RELIC_OK;
}

static relic_status rd_handle_v(relic_jr *r, const relic_jv *v, relic_grf_vt_handle *h)
{
    size_t n;
    int64_t x;
    relic_status st;
    if ((st = relic_jr_array(r, v, &n))) return st;
    if (n != 2) return relic_jr_fail(r, RELIC_E_ARGUMENT, "a handle is [id, references]");
    if ((st = relic_jr_int(r, relic_jv_at(v, 0), 0, UINT32_MAX, &x))) return st;
    h->id = (uint32_t)x;
    if ((st = relic_jr_int(r, relic_jv_at(v, 1), 0, UINT32_MAX, &x))) return st;
    h->references = (uint32_t)x;
    return RELIC_OK;
}

static relic_status rd_handle(relic_jr *r, const relic_jv *obj, const char *key, relic_grf_vt_handle *h)
{
    const relic_jv *v;
    relic_status st;
    relic_jr_push(r, key, -1);
    if ((st = relic_jr_member(r, obj, key, 1, &v)) || (st = rd_handle_v(r, v, h))) return st;
    relic_jr_pop(r);
    return RELIC_OK;
}

static relic_status rd_handles(relic_jr *r, const relic_jv *obj, const char *key, relic_grf_vt_handles *h)
{
    const relic_jv *v;
    relic_status st;
    relic_jr_push(r, key, -1);
    if ((st = relic_jr_member(r, obj, key, 1, &v)) || (st = rd_str(r, v, "class_name", &h->class_name)) ||
        (st = rd_u32(r, v, "base", &h->base)) || (st = rd_u32(r, v, "next", &h->next)) ||
        (st = rd_u32(r, v, "count", &h->count)) || (st = rd_u8(r, v, "in_use", &h->in_use)))
        return st;
    relic_jr_pop(r);
    return RELIC_OK;
}

static relic_status rd_record(relic_jr *r, const relic_jv *o, relic_grf_vt_record *rec)
{
    const relic_jv *v;
    relic_status st;
    memset(rec, 0, sizeof *rec);
    relic_jr_push(r, "type", -1);
    if ((st = relic_jr_member(r, o, "type", 1, &v))) return st;
    for (int t = 1; t < TYPE_COUNT; t++)
        if (relic_jv_str_eq(v, type_names[t])) rec->type = (uint8_t)t;
    if (!rec->type) return relic_jr_fail(r, RELIC_E_RANGE, "not a value type (bool char int float string object)");
    relic_jr_pop(r);
    if ((st = rd_u8(r, o, "scope", &rec->scope)) || (st = rd_u8(r, o, "reference", &rec->reference)) ||
        (st = rd_handle(r, o, "value", &rec->value)) || (st = rd_handle(r, o, "symbol", &rec->symbol)) ||
        (st = rd_handle(r, o, "target", &rec->target)) || (st = rd_handle(r, o, "key", &rec->key)))
        return st;
    const char *key = type_names[rec->type];
    int64_t x;
    switch (rec->type) {
    case RELIC_GRF_VALUE_BOOL:
    case RELIC_GRF_VALUE_CHAR: return rd_u8(r, o, key, &rec->b);
    case RELIC_GRF_VALUE_STRING: return rd_str(r, o, key, &rec->s);
    default: break;
    }
    relic_jr_push(r, key, -1);
    if ((st = relic_jr_member(r, o, key, 1, &v))) return st;
    if (rec->type == RELIC_GRF_VALUE_INT) {
        if ((st = relic_jr_int(r, v, INT32_MIN, INT32_MAX, &x))) return st;
        rec->i = (int32_t)x;
    } else if (rec->type == RELIC_GRF_VALUE_FLOAT) {
        if ((st = relic_jr_f32(r, v, &rec->f))) return st;
    } else {
        size_t n;
        if ((st = relic_jr_array(r, v, &n))) return st;
        rec->items_count = n;
        if (n && !(rec->items = relic_arena_array(r->arena, n, sizeof *rec->items, 8)))
            return relic_jr_fail(r, RELIC_E_NOMEM, "out of memory");
        for (size_t k = 0; k < n; k++) {
            relic_jr_push(r, NULL, (int64_t)k);
            if ((st = rd_handle_v(r, relic_jv_at(v, k), &rec->items[k]))) return st;
            relic_jr_pop(r);
        }
    }
    relic_jr_pop(r);
    return RELIC_OK;
}

relic_status relic_grf_value_table_json_read(const char *text, size_t len, relic_arena *a, relic_grf_value_table *out,
                                             relic_error *err)
{
    const relic_jv *doc;
    relic_status st = relic_jr_parse(text, len, a, &doc, err);
    if (st) return st;
    return relic_grf_value_table_json_read_value(doc, a, out, err);
}

relic_status relic_grf_value_table_json_read_value(const relic_jv *doc, relic_arena *a, relic_grf_value_table *out,
                                                   relic_error *err)
{
    const relic_jv *v;
    relic_jr r = {a, err, {0}, 0};
    size_t n;
    relic_status st;
    memset(out, 0, sizeof *out);
    if ((st = relic_jr_check_format(&r, doc, "grf_value_table")) || (st = rd_str(&r, doc, "name", &out->name)) ||
        (st = rd_handles(&r, doc, "symbol_handles", &out->symbol_handles)) ||
        (st = rd_str(&r, doc, "symbol_table_name", &out->symbol_table_name)) ||
        (st = rd_handles(&r, doc, "value_handles", &out->value_handles)))
        goto done;
    relic_jr_push(&r, "symbols", -1);
    if ((st = relic_jr_member(&r, doc, "symbols", 1, &v)) || (st = relic_jr_array(&r, v, &n))) goto done;
    out->symbols_count = n;
    if (n && !(out->symbols = relic_arena_array(a, n, sizeof *out->symbols, 8))) {
        st = relic_jr_fail(&r, RELIC_E_NOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        const relic_jv *e = relic_jv_at(v, i);
        size_t k;
        int64_t x;
        relic_jr_push(&r, NULL, (int64_t)i);
        if ((st = relic_jr_array(&r, e, &k))) goto done;
        if (k != 3) {
            st = relic_jr_fail(&r, RELIC_E_ARGUMENT, "a symbol is [name, id, references]");
            goto done;
        }
        if ((st = rd_cstr(&r, relic_jv_at(e, 0), &out->symbols[i].name)) ||
            (st = relic_jr_int(&r, relic_jv_at(e, 1), 0, UINT32_MAX, &x)))
            goto done;
        out->symbols[i].handle.id = (uint32_t)x;
        if ((st = relic_jr_int(&r, relic_jv_at(e, 2), 0, UINT32_MAX, &x))) goto done;
        out->symbols[i].handle.references = (uint32_t)x;
        relic_jr_pop(&r);
    }
    relic_jr_pop(&r);
    relic_jr_push(&r, "records", -1);
    if ((st = relic_jr_member(&r, doc, "records", 1, &v)) || (st = relic_jr_array(&r, v, &n))) goto done;
    out->records_count = n;
    if (n && !(out->records = relic_arena_array(a, n, sizeof *out->records, 8))) {
        st = relic_jr_fail(&r, RELIC_E_NOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        relic_jr_push(&r, NULL, (int64_t)i);
        if ((st = rd_record(&r, relic_jv_at(v, i), &out->records[i]))) goto done;
        relic_jr_pop(&r);
    }
    relic_jr_pop(&r);
done:
    return st;
}
