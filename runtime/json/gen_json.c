/* gen_json.c — the one JSON printer and reader of every generated format,
 * driven by the field tables relic-gen writes (relic_json_table.h): one row
 * per member instead of a printer and a reader written out per struct. */
#include <string.h>

#include "relic_gen.h"
#include "relic_json_table.h"

static int64_t load_int(const void *p, int size, int sgn)
{
    switch (size) {
    case 1: return sgn ? (int64_t) * (const int8_t *)p : (int64_t) * (const uint8_t *)p;
    case 2: return sgn ? (int64_t) * (const int16_t *)p : (int64_t) * (const uint16_t *)p;
    case 4: return sgn ? (int64_t) * (const int32_t *)p : (int64_t) * (const uint32_t *)p;
    default: return *(const int64_t *)p;
    }
}

static void store_int(void *p, int size, int64_t v)
{
    switch (size) {
    case 1: *(uint8_t *)p = (uint8_t)v; break;
    case 2: *(uint16_t *)p = (uint16_t)v; break;
    case 4: *(uint32_t *)p = (uint32_t)v; break;
    default: *(int64_t *)p = v; break;
    }
}

/* The elements of f in model m: its array (fixed in place, or counted) and how many. */
static const void *elems(const relic_jt_field *f, const void *m, size_t *count)
{
    const char *at = (const char *)m + f->offset;
    if (f->flags & RELIC_JT_COUNTED) {
        const void *p;
        memcpy(&p, at, sizeof p);
        memcpy(count, (const char *)m + f->count_off, sizeof *count);
        return p;
    }
    *count = f->n ? f->n : 1;
    return at;
}

static size_t elem_size(const relic_jt_field *f) { return f->kind == RELIC_JT_STRUCT ? f->sub->size : f->size; }

static void print_number(relic_buf *o, const relic_jt_field *f, const void *p)
{
    switch (f->kind) {
    case RELIC_JT_F32: relic_json_f32(o, *(const float *)p); return;
    case RELIC_JT_F64: relic_json_f64(o, *(const double *)p); return;
    case RELIC_JT_ENUM: {
        const int64_t v = load_int(p, f->size, f->sgn);
        const char *nm = f->name_of(v);
        if (nm) relic_json_string(o, nm, strlen(nm));
        else relic_json_i64(o, v);
        return;
    }
    default:
        if (f->sgn) relic_json_i64(o, load_int(p, f->size, 1));
        else relic_json_u64(o, (uint64_t)load_int(p, f->size, 0));
    }
}

static void print_member(relic_buf *o, const relic_jt_field *f, const void *m, const void *root, int depth)
{
    size_t count;
    const char *p = elems(f, m, &count);
    if (f->kind == RELIC_JT_CHAR) {
        if (!(f->flags & RELIC_JT_COUNTED))
            while (count && p[count - 1] == 0) count--;
        relic_json_string(o, p, count);
        return;
    }
    if (f->kind == RELIC_JT_BYTES) {
        relic_json_hex(o, (const uint8_t *)p, count);
        return;
    }
    const size_t es = elem_size(f);
    const int counted = f->flags & RELIC_JT_COUNTED;
    if (!counted && f->n == 0) {
        if (f->kind == RELIC_JT_STRUCT) relic_jt_print(o, f->sub, p, root, depth + 1);
        else print_number(o, f, p);
        return;
    }
    /* arrays: the outer count, and numbers per element (an inner fixed array) */
    size_t outer = counted ? count : f->dim0, inner = counted ? (f->n ? f->n : 1) : f->n / f->dim0;
    RELIC_PUTS(o, "[");
    for (size_t k = 0; k < outer; k++) {
        if (f->kind == RELIC_JT_STRUCT) {
            relic_buf_puts(o, k ? ",\n" : "\n");
            relic_json_indent(o, depth + 2);
            relic_jt_print(o, f->sub, p + k * es, root, depth + 2);
            continue;
        }
        /* numbers: 16 to a line */
        if (k) relic_buf_puts(o, k % 16 ? ", " : ",\n");
        if (k % 16 == 0) {
            if (!k) RELIC_PUTS(o, "\n");
            relic_json_indent(o, depth + 2);
        }
        if (inner > 1) RELIC_PUTS(o, "[");
        for (size_t q = 0; q < inner; q++) {
            if (q) RELIC_PUTS(o, ", ");
            print_number(o, f, p + (k * inner + q) * es);
        }
        if (inner > 1) RELIC_PUTS(o, "]");
    }
    if (outer) {
        RELIC_PUTS(o, "\n");
        relic_json_indent(o, depth + 1);
    }
    RELIC_PUTS(o, "]");
}

void relic_jt_print(relic_buf *o, const relic_jt_struct *t, const void *m, const void *root, int depth)
{
    int first = 1;
    if (t->tuple) {
        RELIC_PUTS(o, "[");
        for (size_t i = 0; i < t->nfields; i++) {
            const relic_jt_field *f = &t->fields[i];
            if (t->has && !t->has(m, root, i)) continue;
            const char *p = (const char *)m + f->offset;
            const int flat = t->nfields == 1 && f->n; /* a tuple of one array prints as the array */
            if (!first) RELIC_PUTS(o, ", ");
            first = 0;
            if (f->n && !flat) RELIC_PUTS(o, "[");
            for (size_t k = 0; k < (f->n ? f->n : 1); k++) {
                if (k) RELIC_PUTS(o, ", ");
                print_number(o, f, p + k * f->size);
            }
            if (f->n && !flat) RELIC_PUTS(o, "]");
        }
        RELIC_PUTS(o, "]");
        return;
    }
    RELIC_PUTS(o, "{\n");
    if (t->format) {
        relic_json_indent(o, depth + 1);
        RELIC_PUTS(o, "\"format\": ");
        relic_json_string(o, t->format, strlen(t->format));
        first = 0;
    }
    for (size_t i = 0; i < t->nfields; i++) {
        const relic_jt_field *f = &t->fields[i];
        if (t->has && !t->has(m, root, i)) continue;
        if (!first) RELIC_PUTS(o, ",\n");
        first = 0;
        relic_json_indent(o, depth + 1);
        RELIC_PUTS(o, "\"");
        relic_buf_puts(o, f->name);
        RELIC_PUTS(o, "\": ");
        print_member(o, f, m, root, depth);
    }
    RELIC_PUTS(o, "\n");
    relic_json_indent(o, depth);
    RELIC_PUTS(o, "}");
}

/* ---------------------------------------------------------------- reader */

static relic_status read_number(relic_jr *r, const relic_jt_field *f, const relic_jv *v, void *p)
{
    if (f->kind == RELIC_JT_F32) return relic_jr_f32(r, v, (float *)p);
    if (f->kind == RELIC_JT_F64) return relic_jr_f64(r, v, (double *)p);
    const int bits = f->size * 8;
    const int64_t lo = f->sgn ? (bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1))) : 0;
    const uint64_t hi = f->sgn ? (bits == 64 ? (uint64_t)INT64_MAX : ((uint64_t)1 << (bits - 1)) - 1)
                               : (bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1);
    int64_t iv;
    relic_status st = f->kind == RELIC_JT_ENUM ? relic_jr_enum(r, v, f->from_name, lo, hi, &iv)
                                               : relic_jr_int(r, v, lo, hi, &iv);
    if (st == RELIC_OK) store_int(p, f->size, iv);
    return st;
}

static relic_status read_member(relic_jr *r, const relic_jt_field *f, const relic_jv *v, void *m, const void *root)
{
    char *at = (char *)m + f->offset;
    const int counted = f->flags & RELIC_JT_COUNTED;
    relic_status st;
    if (f->kind == RELIC_JT_CHAR || f->kind == RELIC_JT_BYTES) {
        if (counted) {
            size_t n = 0;
            if (f->kind == RELIC_JT_CHAR) {
                char *s = NULL;
                st = relic_jr_string(r, v, &s, &n);
                memcpy(at, &s, sizeof s);
            } else {
                uint8_t *b = NULL;
                st = relic_jr_hex(r, v, &b, &n);
                memcpy(at, &b, sizeof b);
            }
            memcpy((char *)m + f->count_off, &n, sizeof n);
            return st;
        }
        return f->kind == RELIC_JT_CHAR ? relic_jr_fixed_string(r, v, at, f->n) : relic_jr_fixed_hex(r, v, (uint8_t *)at, f->n);
    }
    if (!counted && f->n == 0)
        return f->kind == RELIC_JT_STRUCT ? relic_jt_read(r, f->sub, v, at, root) : read_number(r, f, v, at);
    size_t n;
    if ((st = relic_jr_array(r, v, &n)) != RELIC_OK) return st;
    const size_t es = elem_size(f);
    size_t inner = counted ? (f->n ? f->n : 1) : f->n / f->dim0;
    char *p = at;
    if (counted) {
        p = n ? relic_arena_array(r->arena, n, es * inner, f->kind == RELIC_JT_STRUCT ? f->sub->align : f->size) : NULL;
        if (!p && n) return relic_jr_fail(r, RELIC_E_NOMEM, "out of memory for %zu elements", n);
        memcpy(at, &p, sizeof p);
        memcpy((char *)m + f->count_off, &n, sizeof n);
    } else if (n != f->dim0) {
        return relic_jr_fail(r, RELIC_E_ARGUMENT, "expected %u elements, found %zu", (unsigned)f->dim0, n);
    }
    for (size_t k = 0; k < n; k++) {
        const relic_jv *e = relic_jv_at(v, k);
        relic_jr_push(r, NULL, (int64_t)k);
        if (f->kind == RELIC_JT_STRUCT) {
            st = relic_jt_read(r, f->sub, e, p + k * es, root);
        } else if (inner > 1) {
            size_t ni;
            if ((st = relic_jr_array(r, e, &ni)) != RELIC_OK) return st;
            if (ni != inner) return relic_jr_fail(r, RELIC_E_ARGUMENT, "expected %zu elements, found %zu", inner, ni);
            for (size_t q = 0; q < inner && st == RELIC_OK; q++) st = read_number(r, f, relic_jv_at(e, q), p + (k * inner + q) * es);
        } else {
            st = read_number(r, f, e, p + k * es);
        }
        if (st != RELIC_OK) return st;
        relic_jr_pop(r);
    }
    return RELIC_OK;
}

relic_status relic_jt_read(relic_jr *r, const relic_jt_struct *t, const relic_jv *obj, void *m, const void *root)
{
    relic_status st;
    const int flat = t->tuple && t->nfields == 1 && t->fields[0].n; /* the member reader checks the array */
    if (t->tuple && !flat) {
        size_t n;
        if ((st = relic_jr_array(r, obj, &n)) != RELIC_OK) return st;
        if (n != t->nfields) return relic_jr_fail(r, RELIC_E_ARGUMENT, "expected %u values, found %zu", (unsigned)t->nfields, n);
    } else if (!t->tuple && !relic_jv_is(obj, RELIC_JV_OBJECT)) {
        return relic_jr_fail(r, RELIC_E_SYNTAX, "expected an object");
    }
    for (size_t i = 0; i < t->nfields; i++) {
        const relic_jt_field *f = &t->fields[i];
        if (t->has && !t->has(m, root, i)) continue;
        const relic_jv *v = NULL;
        relic_jr_push(r, f->name, -1);
        if (flat) v = obj;
        else if (t->tuple) v = relic_jv_at(obj, i);
        else if ((st = relic_jr_member(r, obj, f->name, !(f->flags & RELIC_JT_OPTIONAL), &v)) != RELIC_OK) return st;
        if (v && (st = read_member(r, f, v, m, root)) != RELIC_OK) return st;
        relic_jr_pop(r);
    }
    return RELIC_OK;
}

relic_status relic_jt_print_doc(const relic_jt_struct *t, const void *m, relic_buf *out, relic_error *err)
{
    relic_jt_print(out, t, m, m, 0);
    relic_buf_puts(out, "\n");
    if (out->failed) return relic_fail(err, RELIC_E_NOMEM, 0, "", "cannot grow the JSON output");
    return RELIC_OK;
}

relic_status relic_jt_read_doc(const relic_jt_struct *t, const char *text, size_t len, relic_arena *a, void *out,
                               relic_error *err)
{
    relic_error scratch;
    if (!err) err = &scratch;
    relic_error_clear(err);
    memset(out, 0, t->size);
    const relic_jv *doc = NULL;
    relic_status st = relic_jr_parse(text, len, a, &doc, err);
    if (st != RELIC_OK) return st;
    relic_jr r = {a, err, {0}, 0};
    st = relic_jr_check_format(&r, doc, t->format);
    if (st == RELIC_OK) st = relic_jt_read(&r, t, doc, out, out);
    return st;
}
