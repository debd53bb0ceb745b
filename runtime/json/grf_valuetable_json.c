/* grf_valuetable_json.c — the JSON form of a GRF value table (every field, so
 * that JSON -> value table -> bytes reproduces the section): records print
 * their type by name and their payload under the type's name. Layout facts:
 * Trespasser source, Lib/Groff/GroffIO.cpp "Value table"; Trespasser file formats, ".valuetable". */
#include <string.h>

#include "relic_gen.h"
#include "relic_grf.h"
#include "relic_json.h"

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
    const relic_jv *doc, *v;
    relic_jr r = {a, err, {0}, 0};
    size_t n;
    relic_status st = relic_jr_parse(text, len, a, &doc, err);
    if (st) return st;
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
