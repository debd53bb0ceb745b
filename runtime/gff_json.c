/* gff_json.c — the JSON form of a GFF tree, compatible with
 * neverwinter.nim's nwn_gff (spec/aurora.md §4.7): a root object with
 * "__data_type", one member per field {"type", "value"} (VOID as base64 in
 * "value64"), locstrings as {"<StringID>": text, "id": StrRef}, struct ids
 * in "__struct_id", every object's keys sorted case-insensitively, compact,
 * ending with a newline. Two additions that nwn_gff skips (it ignores "__"
 * keys): "__field_order" when a struct's fields are not in that sorted order
 * in the file, and "__dupN__Label" for earlier duplicates of a label, so that
 * GFF -> JSON -> GFF gives the same file. Types 16/17 (KotOR) are
 * "orientation" and "vector" with an array of floats. Text is converted
 * between the game's code page (cp1252 or UTF-8) and JSON's UTF-8. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "relic_gen.h"
#include "relic_gff.h"
#include "relic_json.h"

/* ---------------------------------------------------------------------- */
/* cp1252                                                                 */
/* ---------------------------------------------------------------------- */

/* Code points of bytes 0x80-0x9F; the five undefined ones keep their
 * C1 value, so every byte has a code point and the mapping is one to one. */
static const uint16_t cp1252_high[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D,
    0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
    0x0153, 0x009D, 0x017E, 0x0178,
};

static uint32_t cp1252_to_cp(uint8_t b)
{
    return b >= 0x80 && b < 0xA0 ? cp1252_high[b - 0x80] : b;
}

static int cp_to_cp1252(uint32_t cp, uint8_t *out)
{
    if (cp < 0x80 || (cp >= 0xA0 && cp <= 0xFF)) { *out = (uint8_t)cp; return 1; }
    for (int i = 0; i < 32; i++)
        if (cp1252_high[i] == cp) { *out = (uint8_t)(0x80 + i); return 1; }
    return 0;
}

/* One UTF-8 sequence at p (n bytes left): its code point and length, 0 when invalid. */
static size_t utf8_next(const uint8_t *p, size_t n, uint32_t *cp)
{
    uint8_t c = p[0];
    size_t len;
    uint32_t v, min;
    if (c < 0x80) { *cp = c; return 1; }
    if ((c & 0xE0) == 0xC0) { len = 2; v = c & 0x1F; min = 0x80; }
    else if ((c & 0xF0) == 0xE0) { len = 3; v = c & 0x0F; min = 0x800; }
    else if ((c & 0xF8) == 0xF0) { len = 4; v = c & 0x07; min = 0x10000; }
    else return 0;
    if (len > n) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        v = (v << 6) | (p[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    *cp = v;
    return len;
}

static void put_utf8(relic_buf *o, uint32_t cp)
{
    uint8_t b[4];
    size_t n;
    if (cp < 0x80) { b[0] = (uint8_t)cp; n = 1; }
    else if (cp < 0x800) { b[0] = (uint8_t)(0xC0 | (cp >> 6)); b[1] = (uint8_t)(0x80 | (cp & 0x3F)); n = 2; }
    else if (cp < 0x10000) {
        b[0] = (uint8_t)(0xE0 | (cp >> 12)); b[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (uint8_t)(0x80 | (cp & 0x3F)); n = 3;
    } else {
        b[0] = (uint8_t)(0xF0 | (cp >> 18)); b[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F)); b[3] = (uint8_t)(0x80 | (cp & 0x3F)); n = 4;
    }
    relic_buf_append(o, b, n);
}

/* ---------------------------------------------------------------------- */
/* Printer                                                                */
/* ---------------------------------------------------------------------- */

typedef struct pstate {
    relic_buf *o;
    relic_gff_encoding enc;
    relic_error *err;
} pstate;

/* A JSON string of game text: escapes as nwn_gff (", \, control characters). */
static relic_status put_text(pstate *ps, const uint8_t *p, size_t n, const char *label)
{
    static const char hex[] = "0123456789abcdef";
    relic_buf *o = ps->o;
    relic_buf_puts(o, "\"");
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = 1;
        /* a run of plain printable ASCII goes out as it is */
        size_t run = i;
        while (run < n && p[run] >= 0x20 && p[run] < 0x7F && p[run] != '"' && p[run] != '\\') run++;
        if (run > i) { relic_buf_append(o, p + i, run - i); i = run; continue; }
        if (ps->enc == RELIC_GFF_ENC_UTF8) {
            len = utf8_next(p + i, n - i, &cp);
            if (len == 0)
                return relic_fail(ps->err, RELIC_E_SYNTAX, i, label, "byte %zu of the text is not valid UTF-8 (try cp1252)", i);
        } else {
            cp = cp1252_to_cp(p[i]);
        }
        i += len;
        if (cp == '"') relic_buf_puts(o, "\\\"");
        else if (cp == '\\') relic_buf_puts(o, "\\\\");
        else if (cp == '\n') relic_buf_puts(o, "\\n");
        else if (cp == '\r') relic_buf_puts(o, "\\r");
        else if (cp == '\t') relic_buf_puts(o, "\\t");
        else if (cp == '\b') relic_buf_puts(o, "\\b");
        else if (cp == '\f') relic_buf_puts(o, "\\f");
        else if (cp < 0x20) { char e[7] = { '\\', 'u', '0', '0', hex[cp >> 4], hex[cp & 15], 0 }; relic_buf_puts(o, e); }
        else put_utf8(o, cp);
    }
    relic_buf_puts(o, "\"");
    return RELIC_OK;
}

/* Labels, keys and the file type are shown through windows-1252 whatever
 * the text encoding (they are ASCII in practice; the mapping is one to one). */
static void put_name(relic_buf *o, const char *k, size_t n)
{
    pstate ps = { o, RELIC_GFF_ENC_CP1252, NULL };
    put_text(&ps, (const uint8_t *)k, n, NULL);
}

/* Decimal integers without printf (the printer's hot path). */
static void put_u64(relic_buf *o, uint64_t v)
{
    char b[24];
    size_t i = sizeof b;
    do { b[--i] = (char)('0' + v % 10); v /= 10; } while (v);
    relic_buf_append(o, b + i, sizeof b - i);
}

static void put_i64(relic_buf *o, int64_t v)
{
    if (v < 0) { relic_buf_append(o, "-", 1); put_u64(o, (uint64_t)0 - (uint64_t)v); }
    else put_u64(o, (uint64_t)v);
}

#define PUT_LIT(o, lit) relic_buf_append((o), (lit), sizeof(lit) - 1)

static void put_key(relic_buf *o, const char *k)
{
    put_name(o, k, strlen(k));
    relic_buf_puts(o, ":");
}

/* A float as a JSON float token (nwn_gff's reader wants one for doubles). */
static void put_float_token(relic_buf *o, const char *b)
{
    relic_buf_puts(o, b);
    if (!strpbrk(b, ".eEn\"")) relic_buf_puts(o, ".0");
}

static void put_f32(relic_buf *o, float v)
{
    char b[48];
    if (!isfinite(v)) { relic_json_f32(o, v); return; }
    b[relic_f32_shortest(v, b)] = 0;
    put_float_token(o, b);
}

static void put_f64(relic_buf *o, double v)
{
    char b[48];
    if (!isfinite(v)) { relic_json_f64(o, v); return; }
    if (v == 0 && signbit(v)) { relic_buf_puts(o, "-0.0"); return; }
    snprintf(b, sizeof b, "%.15g", v);
    if (strtod(b, NULL) != v) snprintf(b, sizeof b, "%.17g", v);
    put_float_token(o, b);
}

static void put_base64(relic_buf *o, const uint8_t *p, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    relic_buf_puts(o, "\"");
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
        char q[4] = { tab[v >> 18], tab[(v >> 12) & 63], i + 1 < n ? tab[(v >> 6) & 63] : '=', i + 2 < n ? tab[v & 63] : '=' };
        relic_buf_append(o, q, 4);
    }
    relic_buf_puts(o, "\"");
}

/* nwn_gff's key order: Nim's cmpIgnoreCase (ASCII lower-case, then length). */
static int cmp_ignore_case(const char *a, const char *b)
{
    for (;; a++, b++) {
        int ca = (unsigned char)*a, cb = (unsigned char)*b;
        if (ca >= 'A' && ca <= 'Z') ca += 32;
        if (cb >= 'A' && cb <= 'Z') cb += 32;
        if (ca != cb || ca == 0) return ca - cb;
    }
}

/* A key of an object to print: its name and what it stands for. */
typedef struct pkey {
    char name[40];
    int kind;  /* 0 field, 1 __data_type, 2 __struct_id, 3 __field_order */
    uint32_t field;
} pkey;

static int pkey_cmp(const void *a, const void *b)
{
    const pkey *x = a, *y = b;
    int c = cmp_ignore_case(x->name, y->name);
    if (c) return c;
    c = strcmp(x->name, y->name);
    if (c) return c;
    return x->field < y->field ? -1 : x->field > y->field;
}

static relic_status print_struct(pstate *ps, const relic_gff_tstruct *s, const char *data_type, uint32_t depth);

static relic_status print_field(pstate *ps, const relic_gff_tfield *f, uint32_t depth)
{
    relic_buf *o = ps->o;
    const char *name = relic_gff_type_name(f->type);
    if (!name) return relic_fail(ps->err, RELIC_E_ARGUMENT, 0, f->label, "unknown field type %u", (unsigned)f->type);
    relic_buf_puts(o, "{");
    if (f->type == RELIC_GFF_FIELD_TYPE_STRUCT) {
        if (!f->v.child) return relic_fail(ps->err, RELIC_E_ARGUMENT, 0, f->label, "a struct field without its struct");
        PUT_LIT(o, "\"__struct_id\":");
        put_u64(o, f->v.child->id);
        PUT_LIT(o, ",");
    }
    if (f->type == RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING) {
        /* substrings in file order when that is not the key order: "__substring_order" */
        int sorted = 1;
        for (uint32_t i = 1; i < f->v.loc.count && sorted; i++) {
            char a[16], b2[16];
            snprintf(a, sizeof a, "%" PRIu32, f->v.loc.s[i - 1].string_id);
            snprintf(b2, sizeof b2, "%" PRIu32, f->v.loc.s[i].string_id);
            sorted = cmp_ignore_case(a, b2) < 0;
        }
        if (!sorted) {
            relic_buf_puts(o, "\"__substring_order\":[");
            for (uint32_t i = 0; i < f->v.loc.count; i++)
                relic_buf_printf(o, "%s%" PRIu32, i ? "," : "", f->v.loc.s[i].string_id);
            relic_buf_puts(o, "],");
        }
    }
    PUT_LIT(o, "\"type\":\"");
    relic_buf_puts(o, name);
    if (f->type == RELIC_GFF_FIELD_TYPE_VOID) PUT_LIT(o, "\",\"value64\":");
    else PUT_LIT(o, "\",\"value\":");
    switch (f->type) {
    case RELIC_GFF_FIELD_TYPE_BYTE: case RELIC_GFF_FIELD_TYPE_WORD: case RELIC_GFF_FIELD_TYPE_DWORD:
    case RELIC_GFF_FIELD_TYPE_DWORD64:
        put_u64(o, f->v.u); break;
    case RELIC_GFF_FIELD_TYPE_CHAR: case RELIC_GFF_FIELD_TYPE_SHORT: case RELIC_GFF_FIELD_TYPE_INT:
    case RELIC_GFF_FIELD_TYPE_INT64:
        put_i64(o, f->v.i); break;
    case RELIC_GFF_FIELD_TYPE_FLOAT: put_f32(o, f->v.f32); break;
    case RELIC_GFF_FIELD_TYPE_DOUBLE: put_f64(o, f->v.f64); break;
    case RELIC_GFF_FIELD_TYPE_CEXOSTRING: case RELIC_GFF_FIELD_TYPE_RESREF: {
        relic_status st = put_text(ps, f->v.bytes.p, f->v.bytes.n, f->label);
        if (st != RELIC_OK) return st;
        break;
    }
    case RELIC_GFF_FIELD_TYPE_VOID: put_base64(o, f->v.bytes.p, f->v.bytes.n); break;
    case RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING: {
        /* decimal StringIDs sort before "id" (digits < letters) */
        pkey *keys = f->v.loc.count ? calloc(f->v.loc.count, sizeof *keys) : NULL;
        if (f->v.loc.count && !keys) return relic_fail(ps->err, RELIC_E_NOMEM, 0, f->label, "out of memory");
        for (uint32_t i = 0; i < f->v.loc.count; i++) {
            snprintf(keys[i].name, sizeof keys[i].name, "%" PRIu32, f->v.loc.s[i].string_id);
            keys[i].field = i;
        }
        if (f->v.loc.count) qsort(keys, f->v.loc.count, sizeof *keys, pkey_cmp);
        for (uint32_t i = 1; i < f->v.loc.count; i++)
            if (strcmp(keys[i - 1].name, keys[i].name) == 0) {
                relic_status e = relic_fail(ps->err, RELIC_E_UNSUPPORTED, 0, f->label,
                                            "two substrings with StringID %s: nwn_gff JSON cannot hold both", keys[i].name);
                free(keys);
                return e;
            }
        relic_buf_puts(o, "{");
        relic_status st = RELIC_OK;
        for (uint32_t i = 0; i < f->v.loc.count && st == RELIC_OK; i++) {
            const relic_gff_tsubstring *ss = &f->v.loc.s[keys[i].field];
            if (i) relic_buf_puts(o, ",");
            put_key(o, keys[i].name);
            st = put_text(ps, ss->text, ss->len, f->label);
        }
        free(keys);
        if (st != RELIC_OK) return st;
        if (f->v.loc.strref != RELIC_GFF_NONE)
            relic_buf_printf(o, "%s\"id\":%" PRIu32, f->v.loc.count ? "," : "", f->v.loc.strref);
        relic_buf_puts(o, "}");
        break;
    }
    case RELIC_GFF_FIELD_TYPE_STRUCT: {
        relic_status st = print_struct(ps, f->v.child, NULL, depth + 1);
        if (st != RELIC_OK) return st;
        break;
    }
    case RELIC_GFF_FIELD_TYPE_LIST:
        relic_buf_puts(o, "[");
        for (size_t i = 0; i < f->v.list.count; i++) {
            if (i) relic_buf_puts(o, ",");
            if (!f->v.list.items[i]) return relic_fail(ps->err, RELIC_E_ARGUMENT, 0, f->label, "a list element without its struct");
            relic_status st = print_struct(ps, f->v.list.items[i], NULL, depth + 1);
            if (st != RELIC_OK) return st;
        }
        relic_buf_puts(o, "]");
        break;
    case RELIC_GFF_FIELD_TYPE_ORIENTATION: case RELIC_GFF_FIELD_TYPE_VECTOR:
        relic_buf_puts(o, "[");
        for (int k = 0; k < (f->type == RELIC_GFF_FIELD_TYPE_ORIENTATION ? 4 : 3); k++) {
            if (k) relic_buf_puts(o, ",");
            put_f32(o, f->v.vec[k]);
        }
        relic_buf_puts(o, "]");
        break;
    }
    relic_buf_puts(o, "}");
    return RELIC_OK;
}

/* Order of two fields (pointers into one struct's array) by label, then
 * position: equal labels end up adjacent, earlier first. */
static int field_cmp(const void *a, const void *b)
{
    const relic_gff_tfield *x = *(const relic_gff_tfield *const *)a, *y = *(const relic_gff_tfield *const *)b;
    int c = cmp_ignore_case(x->label, y->label);
    if (c == 0) c = strcmp(x->label, y->label);
    return c ? c : (x < y ? -1 : x > y);
}

static relic_status print_struct(pstate *ps, const relic_gff_tstruct *s, const char *data_type, uint32_t depth)
{
    relic_buf *o = ps->o;
    if (depth > RELIC_GFF_MAX_DEPTH)
        return relic_fail(ps->err, RELIC_E_LIMIT, 0, NULL, "structs nest deeper than %d", RELIC_GFF_MAX_DEPTH);
    uint32_t nf = s->field_count;
    size_t k = 0;
    pkey small_keys[24];
    uint32_t small_idx[24];
    const relic_gff_tfield *small_ptr[24];
    pkey *keys = nf + 3 <= 24 ? small_keys : malloc((nf + 3) * sizeof *keys);
    uint32_t *idx = nf <= 24 ? small_idx : malloc((nf ? nf : 1) * sizeof *idx);
    const relic_gff_tfield **ptr = nf <= 24 ? small_ptr : malloc((nf ? nf : 1) * sizeof *ptr);
    if (!keys || !idx || !ptr) {
        if (keys != small_keys) free(keys);
        if (idx != small_idx) free(idx);
        if (ptr != small_ptr) free(ptr);
        return relic_fail(ps->err, RELIC_E_NOMEM, 0, NULL, "out of memory printing JSON");
    }
    /* fields sorted by label: the file order is the sorted order when idx[i] == i; equal labels are adjacent */
    for (uint32_t i = 0; i < nf; i++) ptr[i] = &s->fields[i];
    if (nf > 1) qsort(ptr, nf, sizeof *ptr, field_cmp);
    for (uint32_t i = 0; i < nf; i++) idx[i] = (uint32_t)(ptr[i] - s->fields);
    if (ptr != small_ptr) free(ptr);
    int in_order = 1, needs_resort = 0;
    for (uint32_t i = 0; i < nf; i++) {
        uint32_t fi = idx[i], later = 0;
        in_order &= fi == i;
        /* duplicates after this one (same label, later position) follow it in idx */
        for (uint32_t j = i + 1; j < nf && strcmp(s->fields[idx[j]].label, s->fields[fi].label) == 0; j++) later++;
        pkey *key = &keys[k++];
        if (later || strncmp(s->fields[fi].label, "__", 2) == 0) {
            /* earlier duplicates, and labels that look like nwn_gff's own "__" keys, get a prefix */
            snprintf(key->name, sizeof key->name, "__dup%u__%s", (unsigned)later, s->fields[fi].label);
            needs_resort = 1;
        } else {
            memcpy(key->name, s->fields[fi].label, sizeof s->fields[fi].label);
        }
        key->kind = 0;
        key->field = fi;
    }
    /* The reader restores the file order from the printed key order, so the
     * order that counts is that of the final keys (duplicates renamed, which
     * also moves them): decide __field_order on it. */
    if (needs_resort) {
        qsort(keys, k, sizeof *keys, pkey_cmp);
        in_order = 1;
        for (size_t i = 0; i < k; i++) in_order &= keys[i].field == (uint32_t)i;
    }
    if (data_type) { strcpy(keys[k].name, "__data_type"); keys[k].kind = 1; keys[k++].field = 0; }
    if (s->id != RELIC_GFF_NONE) { strcpy(keys[k].name, "__struct_id"); keys[k].kind = 2; keys[k++].field = 0; }
    if (!in_order) { strcpy(keys[k].name, "__field_order"); keys[k].kind = 3; keys[k++].field = 0; }
    if (needs_resort || k > nf) qsort(keys, k, sizeof *keys, pkey_cmp);
    relic_status st = RELIC_OK;
    PUT_LIT(o, "{");
    for (size_t i = 0; i < k && st == RELIC_OK; i++) {
        if (i) PUT_LIT(o, ",");
        put_key(o, keys[i].name);
        switch (keys[i].kind) {
        case 1: put_name(o, data_type, 4); break;
        case 2: put_u64(o, s->id); break;
        case 3:
            /* the key of each field, in file order */
            for (size_t q = 0; q < k; q++)
                if (keys[q].kind == 0) idx[keys[q].field] = (uint32_t)q;
            PUT_LIT(o, "[");
            for (uint32_t j = 0; j < nf; j++) {
                if (j) PUT_LIT(o, ",");
                put_name(o, keys[idx[j]].name, strlen(keys[idx[j]].name));
            }
            PUT_LIT(o, "]");
            break;
        default: st = print_field(ps, &s->fields[keys[i].field], depth);
        }
    }
    PUT_LIT(o, "}");
    if (keys != small_keys) free(keys);
    if (idx != small_idx) free(idx);
    return st;
}

relic_status relic_gff_json_print_tree(const relic_gff_tree *t, relic_gff_encoding enc, relic_buf *out,
                                       relic_error *err)
{
    pstate ps = { out, enc, err };
    if (!t->root) return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "a GFF tree without its top-level struct");
    relic_status st = print_struct(&ps, t->root, t->file_type, 0);
    if (st != RELIC_OK) return st;
    relic_buf_puts(out, "\n");
    if (out->failed) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory printing JSON");
    return RELIC_OK;
}

/* ---------------------------------------------------------------------- */
/* Reader                                                                 */
/* ---------------------------------------------------------------------- */

typedef struct rstate {
    relic_jr r;
    relic_gff_encoding enc;
} rstate;

/* JSON text (UTF-8) to game bytes in the arena. */
static relic_status read_text(rstate *rs, json_object *v, int raw_bytes, uint8_t **out, size_t *n)
{
    if (!json_object_is_type(v, json_type_string)) return relic_jr_fail(&rs->r, RELIC_E_ARGUMENT, "expected a string");
    const uint8_t *p = (const uint8_t *)json_object_get_string(v);
    size_t len = (size_t)json_object_get_string_len(v), k = 0;
    uint8_t *dst = relic_arena_alloc(rs->r.arena, len + 1, 1);
    if (!dst) return relic_jr_fail(&rs->r, RELIC_E_NOMEM, "arena exhausted");
    if (raw_bytes || rs->enc == RELIC_GFF_ENC_UTF8) {
        for (size_t i = 0; i < len;) {
            uint32_t cp;
            size_t l = utf8_next(p + i, len - i, &cp);
            if (!l) return relic_jr_fail(&rs->r, RELIC_E_SYNTAX, "invalid UTF-8 at byte %zu of the string", i);
            i += l;
        }
        memcpy(dst, p, len);
        k = len;
    } else {
        for (size_t i = 0; i < len;) {
            uint32_t cp;
            size_t l = utf8_next(p + i, len - i, &cp);
            if (!l) return relic_jr_fail(&rs->r, RELIC_E_SYNTAX, "invalid UTF-8 at byte %zu of the string", i);
            if (!cp_to_cp1252(cp, &dst[k]))
                return relic_jr_fail(&rs->r, RELIC_E_RANGE, "U+%04X has no windows-1252 byte (use --encoding utf8)",
                                     (unsigned)cp);
            k++;
            i += l;
        }
    }
    *out = dst;
    *n = k;
    return RELIC_OK;
}

static int b64_val(int c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

static relic_status read_base64(rstate *rs, json_object *v, uint8_t **out, size_t *n)
{
    if (!json_object_is_type(v, json_type_string)) return relic_jr_fail(&rs->r, RELIC_E_ARGUMENT, "expected a base64 string");
    const char *p = json_object_get_string(v);
    size_t len = (size_t)json_object_get_string_len(v), k = 0;
    uint8_t *dst = relic_arena_alloc(rs->r.arena, len / 4 * 3 + 3, 1);
    if (!dst) return relic_jr_fail(&rs->r, RELIC_E_NOMEM, "arena exhausted");
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < len; i++) {
        if (p[i] == '=') break;
        if (p[i] == '\n' || p[i] == '\r') continue;
        int d = b64_val((unsigned char)p[i]);
        if (d < 0) return relic_jr_fail(&rs->r, RELIC_E_SYNTAX, "character %zu is not base64", i);
        acc = (acc << 6) | (uint32_t)d;
        bits += 6;
        if (bits >= 8) { bits -= 8; dst[k++] = (uint8_t)(acc >> bits); }
    }
    *out = dst;
    *n = k;
    return RELIC_OK;
}

static relic_status read_struct(rstate *rs, json_object *obj, relic_gff_tstruct **out, uint32_t depth);

static relic_status read_field(rstate *rs, json_object *fo, const char *key, relic_gff_tfield *f, uint32_t depth)
{
    relic_jr *r = &rs->r;
    json_object *jt, *jv = NULL;
    relic_status st;
    const char *label = key;
    if (strncmp(key, "__dup", 5) == 0) {
        const char *p = key + 5;
        while (*p >= '0' && *p <= '9') p++;
        if (strncmp(p, "__", 2) == 0) label = p + 2;
    }
    size_t k = 0, len = strlen(label);
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t l = utf8_next((const uint8_t *)label + i, len - i, &cp);
        uint8_t byte;
        if (!l || !cp_to_cp1252(cp, &byte) || cp == 0)
            return relic_jr_fail(r, RELIC_E_RANGE, "label '%s' has a character windows-1252 cannot hold", label);
        if (k == 16) return relic_jr_fail(r, RELIC_E_RANGE, "label '%s' is longer than 16 characters", label);
        f->label[k++] = (char)byte;
        i += l;
    }
    f->label[k] = 0;
    f->src_index = f->src_label = f->src_data = RELIC_GFF_NONE;
    if (!json_object_is_type(fo, json_type_object)) return relic_jr_fail(r, RELIC_E_ARGUMENT, "a field is an object {type, value}");
    if ((st = relic_jr_member(r, fo, "type", 1, &jt)) != RELIC_OK) return st;
    if (!json_object_is_type(jt, json_type_string) || !relic_gff_type_from_name(json_object_get_string(jt), &f->type))
        return relic_jr_fail(r, RELIC_E_RANGE, "unknown field type '%s'", json_object_get_string(jt));
    if (f->type == RELIC_GFF_FIELD_TYPE_VOID && json_object_object_get_ex(fo, "value64", &jv)) {
        relic_jr_push(r, "value64", -1);
        st = read_base64(rs, jv, &f->v.bytes.p, &f->v.bytes.n);
        relic_jr_pop(r);
        return st;
    }
    if ((st = relic_jr_member(r, fo, "value", 1, &jv)) != RELIC_OK) return st;
    relic_jr_push(r, "value", -1);
    int64_t iv;
    switch (f->type) {
    case RELIC_GFF_FIELD_TYPE_BYTE: st = relic_jr_int(r, jv, 0, 0xFF, &iv); f->v.u = (uint64_t)iv; break;
    case RELIC_GFF_FIELD_TYPE_WORD: st = relic_jr_int(r, jv, 0, 0xFFFF, &iv); f->v.u = (uint64_t)iv; break;
    case RELIC_GFF_FIELD_TYPE_DWORD: st = relic_jr_int(r, jv, 0, 0xFFFFFFFFu, &iv); f->v.u = (uint64_t)iv; break;
    case RELIC_GFF_FIELD_TYPE_DWORD64: st = relic_jr_int(r, jv, 0, UINT64_MAX, &iv); f->v.u = (uint64_t)iv; break;
    case RELIC_GFF_FIELD_TYPE_CHAR: st = relic_jr_int(r, jv, INT8_MIN, INT8_MAX, &f->v.i); break;
    case RELIC_GFF_FIELD_TYPE_SHORT: st = relic_jr_int(r, jv, INT16_MIN, INT16_MAX, &f->v.i); break;
    case RELIC_GFF_FIELD_TYPE_INT: st = relic_jr_int(r, jv, INT32_MIN, INT32_MAX, &f->v.i); break;
    case RELIC_GFF_FIELD_TYPE_INT64: st = relic_jr_int(r, jv, INT64_MIN, INT64_MAX, &f->v.i); break;
    case RELIC_GFF_FIELD_TYPE_FLOAT: st = relic_jr_f32(r, jv, &f->v.f32); break;
    case RELIC_GFF_FIELD_TYPE_DOUBLE: st = relic_jr_f64(r, jv, &f->v.f64); break;
    case RELIC_GFF_FIELD_TYPE_CEXOSTRING: st = read_text(rs, jv, 0, &f->v.bytes.p, &f->v.bytes.n); break;
    case RELIC_GFF_FIELD_TYPE_RESREF:
        st = read_text(rs, jv, 0, &f->v.bytes.p, &f->v.bytes.n);
        if (st == RELIC_OK && f->v.bytes.n > 255) st = relic_jr_fail(r, RELIC_E_RANGE, "a ResRef is at most 255 bytes");
        break;
    case RELIC_GFF_FIELD_TYPE_VOID: st = read_text(rs, jv, 1, &f->v.bytes.p, &f->v.bytes.n); break;
    case RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING: {
        if (!json_object_is_type(jv, json_type_object)) { st = relic_jr_fail(r, RELIC_E_ARGUMENT, "a locstring is an object"); break; }
        json_object *jid = NULL, *fid = NULL;
        size_t n = (size_t)json_object_object_length(jv);
        f->v.loc.strref = RELIC_GFF_NONE;
        f->v.loc.s = relic_arena_array(r->arena, n ? n : 1, sizeof *f->v.loc.s, 8);
        if (!f->v.loc.s) { st = relic_jr_fail(r, RELIC_E_NOMEM, "arena exhausted"); break; }
        json_object_object_foreach(jv, k, sv) {
            if (strcmp(k, "id") == 0) { jid = sv; continue; }
            char *end;
            unsigned long id = strtoul(k, &end, 10);
            if (!*k || *end || id > UINT32_MAX) { st = relic_jr_fail(r, RELIC_E_RANGE, "locstring key '%s' is not a StringID", k); break; }
            relic_gff_tsubstring *ss = &f->v.loc.s[f->v.loc.count++];
            ss->string_id = (uint32_t)id;
            relic_jr_push(r, k, -1);
            st = read_text(rs, sv, 0, &ss->text, &ss->len);
            relic_jr_pop(r);
            if (st != RELIC_OK) break;
        }
        if (st != RELIC_OK) break;
        json_object *ord;
        if (json_object_object_get_ex(fo, "__substring_order", &ord)) {
            /* put the substrings back in the order the file had */
            size_t m;
            relic_jr_push(r, "__substring_order", -1);
            st = relic_jr_array(r, ord, &m);
            if (st == RELIC_OK && m != f->v.loc.count)
                st = relic_jr_fail(r, RELIC_E_ARGUMENT, "lists %zu StringIDs for %u substrings", m, (unsigned)f->v.loc.count);
            for (size_t i = 0; i < m && st == RELIC_OK; i++) {
                st = relic_jr_int(r, json_object_array_get_idx(ord, i), 0, 0xFFFFFFFFu, &iv);
                size_t j = i;
                while (st == RELIC_OK && j < m && f->v.loc.s[j].string_id != (uint32_t)iv) j++;
                if (st == RELIC_OK && j == m) st = relic_jr_fail(r, RELIC_E_ARGUMENT, "StringID %lld is not in the value", (long long)iv);
                if (st == RELIC_OK) { relic_gff_tsubstring tmp = f->v.loc.s[i]; f->v.loc.s[i] = f->v.loc.s[j]; f->v.loc.s[j] = tmp; }
            }
            relic_jr_pop(r);
            if (st != RELIC_OK) break;
        }
        if (!jid && json_object_object_get_ex(fo, "id", &fid)) jid = fid; /* legacy: id beside value */
        if (jid) {
            st = relic_jr_int(r, jid, 0, 0xFFFFFFFFu, &iv);
            f->v.loc.strref = (uint32_t)iv;
        }
        break;
    }
    case RELIC_GFF_FIELD_TYPE_STRUCT: {
        st = read_struct(rs, jv, &f->v.child, depth + 1);
        json_object *sid;
        if (st == RELIC_OK && json_object_object_get_ex(fo, "__struct_id", &sid) &&
            !json_object_object_get_ex(jv, "__struct_id", NULL)) {
            st = relic_jr_int(r, sid, 0, 0xFFFFFFFFu, &iv);
            f->v.child->id = (uint32_t)iv;
        }
        break;
    }
    case RELIC_GFF_FIELD_TYPE_LIST: {
        size_t n;
        if ((st = relic_jr_array(r, jv, &n)) != RELIC_OK) break;
        f->v.list.count = n;
        f->v.list.items = relic_arena_array(r->arena, n ? n : 1, sizeof *f->v.list.items, 8);
        if (!f->v.list.items) { st = relic_jr_fail(r, RELIC_E_NOMEM, "arena exhausted"); break; }
        for (size_t i = 0; i < n && st == RELIC_OK; i++) {
            relic_jr_push(r, NULL, (int64_t)i);
            st = read_struct(rs, json_object_array_get_idx(jv, i), &f->v.list.items[i], depth + 1);
            relic_jr_pop(r);
        }
        break;
    }
    case RELIC_GFF_FIELD_TYPE_ORIENTATION: case RELIC_GFF_FIELD_TYPE_VECTOR: {
        size_t n, want = f->type == RELIC_GFF_FIELD_TYPE_ORIENTATION ? 4 : 3;
        if ((st = relic_jr_array(r, jv, &n)) != RELIC_OK) break;
        if (n != want) { st = relic_jr_fail(r, RELIC_E_RANGE, "expected %zu numbers, not %zu", want, n); break; }
        for (size_t i = 0; i < n && st == RELIC_OK; i++) {
            relic_jr_push(r, NULL, (int64_t)i);
            st = relic_jr_f32(r, json_object_array_get_idx(jv, i), &f->v.vec[i]);
            relic_jr_pop(r);
        }
        break;
    }
    }
    relic_jr_pop(r);
    return st;
}

static relic_status read_struct(rstate *rs, json_object *obj, relic_gff_tstruct **out, uint32_t depth)
{
    relic_jr *r = &rs->r;
    if (depth > RELIC_GFF_MAX_DEPTH) return relic_jr_fail(r, RELIC_E_LIMIT, "structs nest deeper than %d", RELIC_GFF_MAX_DEPTH);
    if (!json_object_is_type(obj, json_type_object)) return relic_jr_fail(r, RELIC_E_ARGUMENT, "a struct is a JSON object");
    relic_gff_tstruct *s = relic_arena_alloc(r->arena, sizeof *s, 8);
    size_t n = (size_t)json_object_object_length(obj);
    if (!s || !(s->fields = relic_arena_array(r->arena, n ? n : 1, sizeof *s->fields, 8)))
        return relic_jr_fail(r, RELIC_E_NOMEM, "arena exhausted");
    s->id = RELIC_GFF_NONE;
    s->src_index = s->src_data = RELIC_GFF_NONE;
    json_object *order = NULL, *sid;
    relic_status st = RELIC_OK;
    int64_t iv;
    if (json_object_object_get_ex(obj, "__struct_id", &sid)) {
        relic_jr_push(r, "__struct_id", -1);
        st = relic_jr_int(r, sid, -1, 0xFFFFFFFFu, &iv);
        relic_jr_pop(r);
        if (st != RELIC_OK) return st;
        s->id = (uint32_t)iv;
    }
    if (json_object_object_get_ex(obj, "__field_order", &order)) {
        size_t m;
        relic_jr_push(r, "__field_order", -1);
        st = relic_jr_array(r, order, &m);
        for (size_t i = 0; i < m && st == RELIC_OK; i++) {
            json_object *k = json_object_array_get_idx(order, i), *fo;
            const char *key = json_object_get_string(k);
            if (!json_object_is_type(k, json_type_string) || !json_object_object_get_ex(obj, key, &fo) ||
                (strncmp(key, "__", 2) == 0 && strncmp(key, "__dup", 5) != 0))
                st = relic_jr_fail(r, RELIC_E_ARGUMENT, "entry %zu does not name a field of the struct", i);
            if (st != RELIC_OK) break;
            relic_jr_pop(r);
            relic_jr_push(r, key, -1);
            st = read_field(rs, fo, key, &s->fields[s->field_count++], depth);
            relic_jr_pop(r);
            relic_jr_push(r, "__field_order", -1);
        }
        relic_jr_pop(r);
        if (st != RELIC_OK) return st;
        size_t fields_in_obj = 0;
        json_object_object_foreach(obj, key, val) {
            (void)val;
            fields_in_obj += strncmp(key, "__", 2) != 0 || strncmp(key, "__dup", 5) == 0;
        }
        if (fields_in_obj != s->field_count)
            return relic_jr_fail(r, RELIC_E_ARGUMENT, "__field_order lists %u of the %zu fields", (unsigned)s->field_count,
                                 fields_in_obj);
    } else {
        json_object_object_foreach(obj, key, val) {
            if (strncmp(key, "__", 2) == 0 && strncmp(key, "__dup", 5) != 0) continue;
            relic_jr_push(r, key, -1);
            st = read_field(rs, val, key, &s->fields[s->field_count++], depth);
            relic_jr_pop(r);
            if (st != RELIC_OK) return st;
        }
    }
    *out = s;
    return RELIC_OK;
}

relic_status relic_gff_json_read_tree(const char *text, size_t len, relic_gff_encoding enc, relic_arena *a,
                                      relic_gff_tree *out, relic_error *err)
{
    rstate rs;
    memset(&rs, 0, sizeof rs);
    rs.r.arena = a;
    rs.r.err = err;
    rs.enc = enc;
    memset(out, 0, sizeof *out);
    if (len > INT32_MAX) return relic_fail(err, RELIC_E_LIMIT, 0, "", "JSON text over 2 GiB");
    /* deeper than relic_jr_parse allows: three JSON levels per struct level */
    json_tokener *tok = json_tokener_new_ex(3 * RELIC_GFF_MAX_DEPTH + 8);
    if (!tok) return relic_fail(err, RELIC_E_NOMEM, 0, "", "cannot create a JSON parser");
    json_object *doc = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error je = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    if (je == json_tokener_continue) je = json_tokener_error_parse_eof;
    if (!doc || je != json_tokener_success) {
        json_object_put(doc);
        return relic_fail(err, RELIC_E_SYNTAX, end, "", "invalid JSON at byte %zu: %s", end, json_tokener_error_desc(je));
    }
    for (size_t i = end; i < len; i++)
        if (text[i] != ' ' && text[i] != '\n' && text[i] != '\r' && text[i] != '\t') {
            json_object_put(doc);
            return relic_fail(err, RELIC_E_SYNTAX, i, "", "unexpected text after the JSON document at byte %zu", i);
        }
    json_object *dt;
    relic_status st;
    uint8_t *type = NULL;
    size_t type_len = 0;
    relic_gff_encoding enc_saved = rs.enc;
    rs.enc = RELIC_GFF_ENC_CP1252;
    if (!json_object_is_type(doc, json_type_object) || !json_object_object_get_ex(doc, "__data_type", &dt) ||
        read_text(&rs, dt, 0, &type, &type_len) != RELIC_OK || type_len != 4) {
        st = relic_fail(err, RELIC_E_ARGUMENT, 0, "__data_type",
                        "a GFF JSON document is an object with \"__data_type\" of 4 characters (\"UTC \")");
    } else {
        rs.enc = enc_saved;
        memcpy(out->file_type, type, 4);
        st = read_struct(&rs, doc, &out->root, 0);
    }
    json_object_put(doc);
    return st;
}
