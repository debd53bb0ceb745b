/* gff_validate.c — GFF V3.2 validation, once (relic_gff_open).
 *
 * The generated validator (schema/aurora/gff.schema) has checked the header
 * and the bounds of the six arrays; the struct and field records' own checks
 * (field count, type id, label index) are deferred to this pass, which reads
 * every record anyway (relic_gff_validate_elements names their errors, in
 * the generated order, when the fast pass fails). This file checks what the schema cannot say (BioWare GFF spec §3-4; xoreos, src/aurora/gff3file.cpp; neverwinter.nim, gff.nim): each struct's field list, each field's data in the field data
 * or list indices, and the struct graph from the root (depth limit, no
 * struct reached twice, no field shared), so that afterwards every getter is
 * a plain load. Work is linear in the file size: every struct, field and
 * list record is looked at a bounded number of times, and a locstring or
 * list record that many fields share is read once (shared_guard).
 *
 * Files whose structs each come after the struct that holds them (every
 * writer's order) are checked by fast_pass: the structs in index order,
 * no recursion. Any other file, and any file with an error,
 * goes through the walk from the root, which checks each reached struct
 * and field as it goes, then check_unreached does the same for what the
 * walk did not reach; the walk's order decides which error is named. A
 * value is checked by range compares picked by its type's class
 * (value_ok); only what has parts (locstrings, lists) or fails goes
 * through check_field. */
#include <stdarg.h>

#include "relic_gen.h"
#include "relic_gff.h"

/* 0 leaves every file to the walk: tests/test_gff_fast_walk.c builds this
 * file so, beside the library, to compare the two answers. */
#ifndef RELIC_GFF_FAST_PASS
#define RELIC_GFF_FAST_PASS 1
#endif

#define GFF_STRUCT_SIZE RELIC_GFF_STRUCT_SIZE
#define GFF_FIELD_SIZE RELIC_GFF_FIELD_SIZE

/* Values several fields may share. A writer gives each field its own
 * locstring and list record, so checking each field's value reads the
 * file once; fields that point at one large value, or at values that
 * overlap (a locstring whose substring texts are the headers of
 * locstrings over the rest of its substrings), would cost fields x value
 * size. So the substrings and list entries read are counted: past
 * `linear` (more than a file without sharing can need), a bitmap over
 * field-data offsets and one over list-indices words remember the values
 * found fine, so that a shared value is read once; past `hard` (8 x
 * linear: what sharing alone can need, with room), the next value to be
 * read is refused with RELIC_E_LIMIT instead. */
typedef struct shared_guard {
    relic_arena *scratch;
    uint8_t *loc_fine;  /* bit per field-data offset: a fine locstring starts here */
    uint8_t *list_fine; /* bit per list-indices word: a fine list record starts here */
    uint64_t fd_bytes, li_words;
    uint64_t work, linear, hard;
    int tried; /* the bitmaps were asked for */
} shared_guard;

/* The message of a value refused by the hard limit. */
#define LIMIT_FMT "fields share or overlap locstrings and lists past %llu substrings and list entries read"

static void guard_init(shared_guard *g, const relic_gff_doc *d, relic_arena *scratch)
{
    memset(g, 0, sizeof *g);
    g->scratch = scratch;
    g->fd_bytes = d->v.field_data_count;
    g->li_words = d->v.list_indices_count;
    /* each substring takes 8 bytes at least; each entry is a word */
    g->linear = g->fd_bytes / 8 + g->li_words + 64;
    g->hard = 8 * g->linear;
}

/* Count n more reads; past linear, ask once for the bitmaps (without
 * them, only the hard limit bounds the work). */
static void guard_count(shared_guard *g, uint64_t n)
{
    g->work += n;
    if (g->work <= g->linear || g->tried) return;
    g->tried = 1;
    if (!g->scratch) return;
    g->loc_fine = relic_arena_alloc(g->scratch, g->fd_bytes / 8 + 1, 8);
    g->list_fine = g->loc_fine ? relic_arena_alloc(g->scratch, g->li_words / 8 + 1, 8) : NULL;
    if (!g->list_fine) g->loc_fine = NULL;
}

typedef struct vstate {
    const relic_gff_doc *d;
    uint8_t *struct_seen;  /* bitmap: struct reached from the root */
    uint8_t *field_seen;   /* bitmap: field used by a reached struct */
    uint32_t *label_stamp; /* per label: 1 + the last struct that used it */
    relic_report_fn warn;
    void *warn_ctx;
    relic_error *err;
    uint32_t max_depth, reachable;
    shared_guard *g;
} vstate;

static int bit_get(const uint8_t *b, uint32_t i) { return (b[i >> 3] >> (i & 7)) & 1; }
static void bit_set(uint8_t *b, uint32_t i) { b[i >> 3] = (uint8_t)(b[i >> 3] | (1u << (i & 7))); }
/* Set bits first .. first + n - 1 (n <= 56) when none is set yet; 0 (and
 * nothing set) when one is. The bitmap has 8 spare bytes at its end. */
static int claim_run(uint8_t *b, uint32_t first, uint32_t n)
{
    const uint64_t mask = (((uint64_t)1 << n) - 1) << (first & 7);
    uint64_t w = relic_load_u64le(b + (first >> 3));
    if (w & mask) return 0;
    w |= mask;
    relic_store_u64le(b + (first >> 3), w);
    return 1;
}

#define U(x) ((unsigned long long)(x))

static uint64_t off_of(const relic_gff_doc *d, const uint8_t *p)
{
    return (uint64_t)(p - d->v.base);
}

static relic_status fail_at(const vstate *st, uint64_t off, const char *path, relic_status code,
                            const char *fmt, va_list ap)
{
    char msg[RELIC_ERROR_MESSAGE_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    return relic_fail(st->err, code, off, path, "%s", msg);
}

static relic_status fail_struct(const vstate *st, uint32_t s, size_t member, relic_status code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static relic_status fail_struct(const vstate *st, uint32_t s, size_t member, relic_status code, const char *fmt, ...)
{
    char path[64];
    va_list ap;
    snprintf(path, sizeof path, "structs[%u]%s", (unsigned)s,
             member == 4 ? ".data_or_data_offset" : member == 8 ? ".field_count"
                                                                : "");
    va_start(ap, fmt);
    relic_status r = fail_at(st, off_of(st->d, st->d->v.structs + (size_t)s * GFF_STRUCT_SIZE + member), path, code,
                             fmt, ap);
    va_end(ap);
    return r;
}

static relic_status fail_field(const vstate *st, uint32_t f, relic_status code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static relic_status fail_field(const vstate *st, uint32_t f, relic_status code, const char *fmt, ...)
{
    char path[64];
    va_list ap;
    snprintf(path, sizeof path, "fields[%u].data_or_data_offset", (unsigned)f);
    va_start(ap, fmt);
    relic_status r = fail_at(st, off_of(st->d, st->d->v.fields + (size_t)f * GFF_FIELD_SIZE + 8), path, code, fmt, ap);
    va_end(ap);
    return r;
}

/* Struct s's field list lies inside the field indices and names fields
 * that exist: for a list of field indices, one range compare of its largest
 * entry (the offending entry is looked for only when it fails). *run is
 * set when the fields are first, first + 1, ... (as writers lay them out),
 * so that the walk reads their entries without the list. */
static relic_status check_struct(vstate *st, uint32_t s, int *run)
{
    const relic_gff_doc *d = st->d;
    const uint64_t fi_count = d->v.field_indices_count;
    const uint32_t nfields = d->field_count;
    const uint8_t *sp = d->v.structs + (size_t)s * GFF_STRUCT_SIZE;
    uint32_t data = relic_load_u32le(sp + 4), n = relic_load_u32le(sp + 8);
    *run = 1;
    if (n <= 1) {
        if (n == 1 && data >= nfields)
            return fail_struct(st, s, 4, RELIC_E_INDEX, "field index %llu is not below the field count %llu", U(data), U(nfields));
        return RELIC_OK;
    }
    if (data % 4 != 0)
        return fail_struct(st, s, 4, RELIC_E_LAYOUT, "field-indices offset %llu is not a multiple of 4", U(data));
    if ((uint64_t)data / 4 + n > fi_count)
        return fail_struct(st, s, 8, RELIC_E_INDEX,
                           "%llu field indices from byte %llu pass the end of the field-indices array (%llu bytes)",
                           U(n), U(data), U(fi_count * 4));
    const uint8_t *list = d->v.field_indices + data;
    const uint32_t first = relic_load_u32le(list);
    uint32_t hi = 0, apart = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t fi = relic_load_u32le(list + 4 * (size_t)i);
        hi = fi > hi ? fi : hi;
        apart |= fi ^ (first + i);
    }
    *run = apart == 0;
    if (hi < nfields) return RELIC_OK;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t fi = relic_load_u32le(list + 4 * (size_t)i);
        if (fi >= nfields) {
            char path[48];
            snprintf(path, sizeof path, "field_indices[%u]", (unsigned)(data / 4 + i));
            return relic_fail(st->err, RELIC_E_INDEX, off_of(d, d->v.field_indices) + data + 4ull * i, path,
                              "field index %u is not below the field count %u", (unsigned)fi, (unsigned)nfields);
        }
    }
    return RELIC_OK;
}

/* The bytes a complex field's value takes in the field data. */
static relic_status check_field_data(vstate *st, uint32_t f, uint32_t type, uint32_t off)
{
    const relic_gff_doc *d = st->d;
    uint64_t size = d->v.field_data_count, need;
    const uint8_t *p = d->v.field_data + off;
    switch (type) {
    case RELIC_GFF_FIELD_TYPE_DWORD64:
    case RELIC_GFF_FIELD_TYPE_INT64:
    case RELIC_GFF_FIELD_TYPE_DOUBLE:
        need = 8;
        break;
    case RELIC_GFF_FIELD_TYPE_ORIENTATION: need = 16; break;
    case RELIC_GFF_FIELD_TYPE_VECTOR: need = 12; break;
    case RELIC_GFF_FIELD_TYPE_RESREF:
        if ((uint64_t)off + 1 > size) {
            need = 1;
            break;
        }
        need = 1 + (uint64_t)p[0];
        break;
    default: /* CExoString, VOID, CExoLocString: a u32 size first */
        if ((uint64_t)off + 4 > size) {
            need = 4;
            break;
        }
        need = 4 + (uint64_t)relic_load_u32le(p);
        break;
    }
    if ((uint64_t)off + need > size)
        return fail_field(st, f, RELIC_E_TRUNCATED, "the value needs %llu bytes at field-data offset %llu", U(need), U(off));
    if (type == RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING) {
        uint64_t total = need - 4, pos = 8;
        if (total < 8)
            return fail_field(st, f, RELIC_E_LAYOUT, "locstring size %llu is below its 8-byte StrRef and count", U(total));
        uint32_t count = relic_load_u32le(p + 8);
        if (st->g->work > st->g->hard) /* value_ok refused it for the work */
            return fail_field(st, f, RELIC_E_LIMIT, LIMIT_FMT, U(st->g->hard));
        for (uint32_t i = 0; i < count; i++) {
            if (total - pos < 8)
                return fail_field(st, f, RELIC_E_TRUNCATED, "locstring substring %llu of %llu passes its size", U(i), U(count));
            uint32_t len = relic_load_u32le(p + 4 + pos + 4);
            pos += 8;
            if (total - pos < len)
                return fail_field(st, f, RELIC_E_TRUNCATED, "locstring substring %llu (%llu bytes) passes its size", U(i), U(len));
            pos += len;
        }
        if (pos != total)
            return fail_field(st, f, RELIC_E_LAYOUT, "locstring size %llu but its substrings end at %llu", U(total), U(pos));
    }
    return RELIC_OK;
}

/* One field's value: the struct index, the list record and its struct
 * indices, or the bytes a complex value takes in the field data. */
static relic_status check_field(vstate *st, uint32_t f, uint32_t type, uint32_t data)
{
    const relic_gff_doc *d = st->d;
    switch (type) {
    case RELIC_GFF_FIELD_TYPE_BYTE:
    case RELIC_GFF_FIELD_TYPE_CHAR:
    case RELIC_GFF_FIELD_TYPE_WORD:
    case RELIC_GFF_FIELD_TYPE_SHORT:
    case RELIC_GFF_FIELD_TYPE_DWORD:
    case RELIC_GFF_FIELD_TYPE_INT:
    case RELIC_GFF_FIELD_TYPE_FLOAT:
        return RELIC_OK;
    case RELIC_GFF_FIELD_TYPE_STRUCT:
        if (data >= d->struct_count)
            return fail_field(st, f, RELIC_E_INDEX, "struct index %llu is not below the struct count %llu", U(data), U(d->struct_count));
        return RELIC_OK;
    case RELIC_GFF_FIELD_TYPE_LIST: {
        uint64_t li = d->v.list_indices_count;
        if (data % 4 != 0)
            return fail_field(st, f, RELIC_E_LAYOUT, "list-indices offset %llu is not a multiple of 4", U(data));
        if ((uint64_t)data / 4 >= li)
            return fail_field(st, f, RELIC_E_INDEX, "list-indices offset %llu is past the list indices (%llu bytes)", U(data), U(li * 4));
        uint32_t n = relic_gff_list_indices_at(&d->v, data / 4);
        if ((uint64_t)data / 4 + 1 + n > li)
            return fail_field(st, f, RELIC_E_TRUNCATED, "a list of %llu structs passes the list indices (%llu bytes)", U(n), U(li * 4));
        shared_guard *g = st->g;
        if (g->list_fine && bit_get(g->list_fine, data / 4)) return RELIC_OK;
        if (g->work > g->hard) return fail_field(st, f, RELIC_E_LIMIT, LIMIT_FMT, U(g->hard));
        for (uint32_t i = 0; i < n; i++) {
            uint32_t si = relic_gff_list_indices_at(&d->v, data / 4 + 1 + i);
            if (si >= d->struct_count) {
                char path[48];
                snprintf(path, sizeof path, "list_indices[%u]", (unsigned)(data / 4 + 1 + i));
                return relic_fail(st->err, RELIC_E_INDEX, off_of(d, d->v.list_indices) + data + 4 + 4ull * i, path,
                                  "struct index %u is not below the struct count %u", (unsigned)si,
                                  (unsigned)d->struct_count);
            }
        }
        guard_count(g, n);
        if (g->list_fine) bit_set(g->list_fine, data / 4);
        return RELIC_OK;
    }
    default:
        return check_field_data(st, f, type, data);
    }
}

/* How field types keep their value (BioWare GFF spec, Table 3.4a-b): in
 * the field entry, as a fixed number of bytes of field data (fixed_size),
 * as a u32 or u8 length and that many bytes (CExoString and VOID; CResRef),
 * as substrings (CExoLocString), as a struct index or as a list record
 * (checked by check_field). */
enum { CLASS_INLINE,
       CLASS_FIXED,
       CLASS_SIZED,
       CLASS_RESREF,
       CLASS_LOC,
       CLASS_STRUCT,
       CLASS_LIST };
/* clang-format off */
static const uint8_t type_class[18] = {
    CLASS_INLINE, CLASS_INLINE, CLASS_INLINE, CLASS_INLINE, CLASS_INLINE, CLASS_INLINE, /* byte .. int */
    CLASS_FIXED, CLASS_FIXED, CLASS_INLINE, CLASS_FIXED,                                /* dword64, int64, float, double */
    CLASS_SIZED, CLASS_RESREF, CLASS_LOC, CLASS_SIZED, CLASS_STRUCT, CLASS_LIST,        /* string .. list */
    CLASS_FIXED, CLASS_FIXED,                                                           /* orientation, vector */
};
static const uint8_t fixed_size[18] = {0, 0, 0, 0, 0, 0, 8, 8, 0, 8, 0, 0, 0, 0, 0, 0, 16, 12};
/* clang-format on */

/* A locstring at field-data offset at (value_ok's CLASS_LOC): size, StrRef,
 * count, then count (id, length, text) that end exactly at the size. Out
 * of line: most values are not locstrings. */
static int loc_ok(const relic_gff_doc *d, shared_guard *g, uint32_t data)
{
    const uint64_t size = d->v.field_data_count, at = data;
    if (at + 12 > size) return 0;
    const uint8_t *p = d->v.field_data + at;
    const uint64_t total = relic_load_u32le(p), count = relic_load_u32le(p + 8);
    if (total < 8 || at + 4 + total > size) return 0;
    if (g->loc_fine && bit_get(g->loc_fine, data)) return 1;
    if (g->work > g->hard) return 0; /* check_field names the limit */
    uint64_t pos = 8, i = 0;
    for (; i < count; i++) {
        if (total - pos < 8) break;
        pos += 8 + (uint64_t)relic_load_u32le(p + 4 + pos + 4);
        if (pos > total) break;
    }
    guard_count(g, i);
    if (i < count || pos != total) return 0;
    if (g->loc_fine) bit_set(g->loc_fine, data);
    return 1;
}

/* A locstring at field-data offset data: none or one substring (most
 * locstrings) while the guard has room and no bitmap, what loc_ok does
 * then, inline; any other by loc_ok. */
RELIC_GEN_ALWAYS_INLINE static inline int loc_value_ok(const relic_gff_doc *d, shared_guard *g, uint32_t data)
{
    const uint64_t size = d->v.field_data_count, at = data;
    if (at + 20 <= size && !g->loc_fine && g->work < g->linear) {
        const uint8_t *p = d->v.field_data + at;
        const uint64_t total = relic_load_u32le(p), count = relic_load_u32le(p + 8);
        if (count == 0 && total == 8 && at + 12 <= size) return 1;
        if (count == 1 && total == 16 + (uint64_t)relic_load_u32le(p + 16) && at + 4 + total <= size) {
            g->work++;
            return 1;
        }
    }
    return loc_ok(d, g, data);
}

/* 1 when a value of type (< 18: its record was checked) with
 * DataOrDataOffset data passes by range compares alone; 0 sends it to
 * check_field, which reads what has parts and names any error. Inline in
 * every pass: a call per field cost a tenth of relic_gff_open. */
RELIC_GEN_ALWAYS_INLINE static inline int value_ok(const relic_gff_doc *d, shared_guard *g, uint32_t type,
                                                   uint32_t data)
{
    const uint64_t size = d->v.field_data_count, at = data;
    switch (type_class[type]) {
    case CLASS_INLINE: return 1;
    case CLASS_FIXED: return at + fixed_size[type] <= size;
    case CLASS_SIZED: return at + 4 <= size && at + 4 + relic_load_u32le(d->v.field_data + at) <= size;
    case CLASS_RESREF: return at + 1 <= size && at + 1 + d->v.field_data[at] <= size;
    case CLASS_STRUCT: return data < d->struct_count;
    case CLASS_LOC: return loc_value_ok(d, g, data);
    default: return 0;
    }
}

/* The fast half of check_struct: 1 when struct's field list (n fields,
 * DataOrDataOffset data) is fine, with *run; 0 sends it to check_struct,
 * which names the error. */
static inline int list_ok(const relic_gff_doc *d, uint32_t data, uint32_t n, int *run)
{
    *run = 1;
    if (n <= 1) return n == 0 || data < d->field_count;
    if (data % 4 != 0 || (uint64_t)data / 4 + n > d->v.field_indices_count) return 0;
    const uint8_t *list = d->v.field_indices + data;
    const uint32_t first = relic_load_u32le(list);
    uint32_t hi = 0, apart = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t fi = relic_load_u32le(list + 4 * (size_t)i);
        hi = fi > hi ? fi : hi;
        apart |= fi ^ (first + i);
    }
    *run = apart == 0;
    return hi < d->field_count;
}

/* Field f's value (its entry at fp), counting struct and list fields in
 * *kids. */
static inline relic_status field_value(vstate *st, uint32_t f, const uint8_t *fp, uint32_t *kids)
{
    const uint32_t type = relic_load_u32le(fp);
    const unsigned cls = type_class[type];
    if (cls == CLASS_INLINE) return RELIC_OK;
    const uint32_t v = relic_load_u32le(fp + 8);
    *kids += cls >= CLASS_STRUCT;
    return value_ok(st->d, st->g, type, v) ? RELIC_OK : check_field(st, f, type, v);
}

/* What the walk from the root did not reach: those structs' field lists
 * and those fields' values (a scan of the bitmaps that skips full bytes,
 * so a file whose every struct and field is reached costs a few
 * microseconds here). */
static relic_status check_unreached(vstate *st)
{
    const relic_gff_doc *d = st->d;
    relic_status r;
    for (uint32_t s = 0; s < d->struct_count; s++) {
        if ((s & 7) == 0 && st->struct_seen[s >> 3] == 0xFF && s + 8 <= d->struct_count) {
            s += 7;
            continue;
        }
        int run;
        if (!bit_get(st->struct_seen, s) && (r = check_struct(st, s, &run)) != RELIC_OK) return r;
    }
    for (uint32_t f = 0; f < d->field_count; f++) {
        if ((f & 7) == 0 && st->field_seen[f >> 3] == 0xFF && f + 8 <= d->field_count) {
            f += 7;
            continue;
        }
        if (bit_get(st->field_seen, f)) continue;
        const uint8_t *fp = d->v.fields + (size_t)f * GFF_FIELD_SIZE;
        const uint32_t type = relic_load_u32le(fp), data = relic_load_u32le(fp + 8);
        if (!value_ok(d, st->g, type, data) && (r = check_field(st, f, type, data)) != RELIC_OK) return r;
    }
    return RELIC_OK;
}

static void struct_fields(const relic_gff_doc *d, uint32_t s, uint32_t *n, uint32_t *data)
{
    relic_gff_struct_view sv = relic_gff_structs_at(&d->v, s);
    *n = relic_gff_struct_field_count(sv);
    *data = relic_gff_struct_data_or_data_offset(sv);
}

static relic_status walk(vstate *st, uint32_t s, uint32_t depth, uint32_t from_field);

static relic_status reach(vstate *st, uint32_t s, uint32_t depth, uint32_t from_field)
{
    if (bit_get(st->struct_seen, s))
        return fail_field(st, from_field, RELIC_E_LAYOUT,
                          "struct %llu is reached a second time (a cycle or a shared struct)", U(s));
    if (depth > RELIC_GFF_MAX_DEPTH)
        return fail_field(st, from_field, RELIC_E_LIMIT, "structs nest deeper than %llu", U(RELIC_GFF_MAX_DEPTH));
    return walk(st, s, depth, from_field);
}

/* Depth-first from struct s. Each struct is entered once (bitmap), so the
 * recursion visits every struct and field at most once and is at most
 * RELIC_GFF_MAX_DEPTH deep. One pass over the fields checks each value,
 * then (with a warn callback) duplicate labels, then that no other struct
 * uses them; a last pass, only when there are struct or list fields,
 * descends. */
static relic_status walk(vstate *st, uint32_t s, uint32_t depth, uint32_t from_field)
{
    const relic_gff_doc *d = st->d;
    uint32_t n, data, kids = 0;
    int run;
    relic_status r0;
    (void)from_field;
    struct_fields(d, s, &n, &data);
    if (!list_ok(d, data, n, &run) && (r0 = check_struct(st, s, &run)) != RELIC_OK) return r0;
    bit_set(st->struct_seen, s);
    st->reachable++;
    if (depth > st->max_depth) st->max_depth = depth;
    const uint8_t *fi = n == 1 ? NULL : d->v.field_indices + data;
    const uint32_t first = n == 0 ? 0 : fi ? relic_load_u32le(fi)
                                           : data;
    /* each value by its type's class: most are inline and cost a table
     * load; a run of fields is read straight from the field array */
    if (run) {
        const uint8_t *fp = d->v.fields + (size_t)first * GFF_FIELD_SIZE;
        for (uint32_t i = 0; i < n; i++, fp += GFF_FIELD_SIZE)
            if ((r0 = field_value(st, first + i, fp, &kids)) != RELIC_OK) return r0;
    } else {
        for (uint32_t i = 0; i < n; i++) {
            const uint32_t f = relic_load_u32le(fi + 4 * (size_t)i);
            if ((r0 = field_value(st, f, d->v.fields + (size_t)f * GFF_FIELD_SIZE, &kids)) != RELIC_OK) return r0;
        }
    }
    /* duplicate labels only matter to a warn callback: a label stamped
     * with this struct's number already */
    for (uint32_t i = 0, stamp = s + 1; st->warn && i < n; i++) {
        const uint32_t f = run ? first + i : relic_load_u32le(fi + 4 * (size_t)i);
        const uint8_t *fp = d->v.fields + (size_t)f * GFF_FIELD_SIZE;
        const uint32_t l = relic_load_u32le(fp + 4);
        if (st->label_stamp[l] != stamp) {
            st->label_stamp[l] = stamp;
            continue;
        }
        relic_error w;
        char path[48];
        const char *name = relic_gff_label_name(relic_gff_labels_at(&d->v, l));
        snprintf(path, sizeof path, "structs[%u].fields[%u]", (unsigned)s, (unsigned)i);
        relic_fail(&w, RELIC_E_LAYOUT, off_of(d, fp + 4), path,
                   "duplicate label '%.16s' in one struct (the last one is used)", name);
        st->warn(st->warn_ctx, &w);
    }
    /* no field used by another reached struct: a run of up to 56 fields is
     * claimed with one 8-byte read-modify-write of the bitmap (bit by bit,
     * consecutive fields would each wait on the previous store); any
     * other list, or a clash, bit by bit to name the field */
    if (n && !(run && n <= 56 && claim_run(st->field_seen, first, n))) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t f = fi ? relic_load_u32le(fi + 4 * (size_t)i) : data;
            if (bit_get(st->field_seen, f))
                return fail_struct(st, s, 4, RELIC_E_LAYOUT, "field %llu is used by two structs (field list %llu)", U(f), U(data));
            bit_set(st->field_seen, f);
        }
    }
    for (uint32_t i = 0; kids && i < n; i++) {
        uint32_t f = fi ? relic_load_u32le(fi + 4 * (size_t)i) : data;
        const uint8_t *fp = d->v.fields + (size_t)f * GFF_FIELD_SIZE;
        uint32_t type = relic_load_u32le(fp), fd = relic_load_u32le(fp + 8);
        relic_status r = RELIC_OK;
        if (type == RELIC_GFF_FIELD_TYPE_STRUCT) {
            r = reach(st, fd, depth + 1, f);
            kids--;
        } else if (type == RELIC_GFF_FIELD_TYPE_LIST) {
            const uint8_t *l = d->v.list_indices + fd;
            uint32_t cnt = relic_load_u32le(l);
            for (uint32_t k = 0; k < cnt && r == RELIC_OK; k++) r = reach(st, relic_load_u32le(l + 4 + 4 * (size_t)k), depth + 1, f);
            kids--;
        }
        if (r != RELIC_OK) return r;
    }
    return RELIC_OK;
}

/* The fast pass: structs in index order, each struct's field list and
 * fields at once, no recursion. It succeeds only on files whose every
 * struct but the root is reached from exactly one field of a struct with a
 * smaller index (the order every writer in the corpus uses: a struct
 * before the structs it holds) and whose every field is listed by at most
 * one struct. Then struct index order is a topological order of the graph:
 * the part reached from the root is a tree holding every struct, each depth
 * is its parent's plus one, so the walk would accept the file and find the
 * same depth and count. Anything else (an error, a struct listed before
 * its parent, an unreached struct, a duplicate label with a warn callback)
 * returns 0 and relic_gff_open runs the walk, which accepts the file or
 * names the error as before.
 *
 * While each struct lists a run of fields that starts after the last
 * struct's run (runs_prefix: every struct of a file relic's writer lays
 * out in its default order), no two lists can share a field and none is
 * tracked; from the first struct that does not (claimed_pass: most corpus
 * files from their root on, whose struct's fields are interleaved with its
 * children's), each field's byte in claimed is read and set: a byte, not a
 * bit, so that consecutive fields touch different bytes and neither wait
 * on the previous store nor branch on which word they are in (a bitmap
 * cost half of relic_gff_open on the corpus). A field listed twice stops
 * the pass at the end of that struct, so the values read stay within the
 * field count plus one struct's list: linear. A child's
 * depth is stored without looking: a struct reached twice shows as more
 * references than structs but the root (the pass stops as soon as there
 * are, so the work stays linear), since a struct with no reference from
 * before it has depth 0 when its turn comes.
 * depth (zeroed, struct_count bytes) holds 1 + each struct's depth;
 * claimed (zeroed, field_count bytes) is 1 for the fields some struct
 * lists. */
typedef struct fast_state {
    const relic_gff_doc *d;
    uint8_t *depth;
    uint64_t refs; /* struct and list references followed */
    shared_guard *g;
    unsigned deepest; /* the largest depth byte stored */
} fast_state;

/* A non-inline field's value (type of class cls, DataOrDataOffset v) in a
 * struct s (later structs after it) whose children get depth byte child. */
RELIC_GEN_ALWAYS_INLINE static inline int fast_value(fast_state *fs, uint32_t s, uint32_t later, unsigned child, unsigned cls, uint32_t type,
                                                     uint32_t v)
{
    const relic_gff_doc *d = fs->d;
    if (cls == CLASS_STRUCT) {
        if (v - s - 1 >= later || child > RELIC_GFF_MAX_DEPTH + 1) return 0;
        fs->depth[v] = (uint8_t)child;
        fs->refs++;
        fs->deepest = child > fs->deepest ? child : fs->deepest;
        return 1;
    }
    if (cls == CLASS_LIST) {
        const uint64_t li = d->v.list_indices_count;
        if (v % 4 != 0 || (uint64_t)v / 4 >= li) return 0;
        const uint8_t *l = d->v.list_indices + v;
        const uint32_t n = relic_load_u32le(l);
        if ((uint64_t)v / 4 + 1 + n > li || (n && child > RELIC_GFF_MAX_DEPTH + 1)) return 0;
        for (uint32_t k = 0; k < n; k++) {
            const uint32_t c = relic_load_u32le(l + 4 + 4 * (size_t)k);
            if (c - s - 1 >= later) return 0;
            fs->depth[c] = (uint8_t)child;
        }
        fs->refs += n;
        fs->deepest = n && child > fs->deepest ? child : fs->deepest;
        return fs->refs < d->struct_count; /* else some struct twice: stop before that work grows */
    }
    return value_ok(d, fs->g, type, v);
}

/* A field record's own checks (the schema's, deferred to this pass so that
 * each record is read once): a known type, a label that exists. */
static inline int record_ok(uint32_t type, uint32_t label, uint32_t nlabels)
{
    return relic_gff_field_type_known(type) & (label < nlabels);
}

/* The fields of structs 0 .. upto - 1 into claimed: each lists a run of
 * fields (first, first + 1, ...), which runs_prefix checked. */
static void claim_runs(const relic_gff_doc *d, uint32_t upto, uint8_t *claimed)
{
    for (uint32_t s = 0; s < upto; s++) {
        const uint8_t *sp = d->v.structs + (size_t)s * GFF_STRUCT_SIZE;
        const uint32_t data = relic_load_u32le(sp + 4), n = relic_load_u32le(sp + 8);
        if (n) memset(claimed + (n == 1 ? data : relic_load_u32le(d->v.field_indices + data)), 1, n);
    }
}

/* fast_value with one branch on the class: the bounds of the commonest
 * values here, the rest by value_ok and fast_value. */
RELIC_GEN_ALWAYS_INLINE static inline int run_value(fast_state *fs, unsigned cls, uint32_t type, uint32_t v, uint32_t s,
                                                    uint32_t later, unsigned child)
{
    const relic_gff_doc *d = fs->d;
    const uint64_t size = d->v.field_data_count, at = v;
    switch (cls) {
    case CLASS_FIXED: return at + fixed_size[type] <= size;
    case CLASS_SIZED: return at + 4 <= size && at + 4 + relic_load_u32le(d->v.field_data + at) <= size;
    case CLASS_RESREF: return at + 1 <= size && at + 1 + d->v.field_data[at] <= size;
    case CLASS_LOC: return loc_value_ok(d, fs->g, v);
    default: return fast_value(fs, s, later, child, cls, type, v);
    }
}

/* fast_pass's first part: the structs from 0 on while each lists a run of
 * fields (first, first + 1, ...) that starts after the last struct's run
 * (what writers do), so that no two lists can share a field and no field
 * bitmap is needed: the records are read in a row, the list checked
 * against the run as it goes. *upto is set to the first struct that does
 * not (struct_count when all do), for fast_pass's loop to go on from with
 * the bitmap. Returns 0 on anything fast_pass refuses (a list whose first
 * and last entries say a run but whose middle does not included: no
 * writer makes one). Called through two out-of-line copies (below):
 * inlined in claimed_pass's loop, it took the registers that loop needs. */
RELIC_GEN_ALWAYS_INLINE static inline int runs_prefix(fast_state *fs, uint32_t *label_stamp, uint32_t *upto,
                                                      uint64_t *listed_out, unsigned *deepest_out)
{
    const relic_gff_doc *d = fs->d;
    const uint32_t nstructs = d->struct_count, nfields = d->field_count, nlabels = (uint32_t)d->v.labels_count;
    const uint8_t *fields = d->v.fields;
    uint64_t listed = 0;
    uint32_t next_free = 0, s = 0;
    for (; s < nstructs; s++) {
        const uint8_t *sp = d->v.structs + (size_t)s * GFF_STRUCT_SIZE;
        const uint32_t data = relic_load_u32le(sp + 4), n = relic_load_u32le(sp + 8);
        const unsigned dep = fs->depth[s];
        const uint32_t later = nstructs - s - 1;
        if (dep == 0) return 0;
        if (n == 0) continue;
        const uint8_t *fi = sp + 4;
        if (n > 1) {
            if (data % 4 != 0 || (uint64_t)data / 4 + n > d->v.field_indices_count || n > nfields) return 0;
            fi = d->v.field_indices + data;
        }
        const uint32_t first = relic_load_u32le(fi);
        if (first < next_free || first >= nfields || n - 1 >= nfields - first ||
            relic_load_u32le(fi + 4 * ((size_t)n - 1)) != first + n - 1)
            break;
        const uint8_t *fp = fields + (size_t)first * GFF_FIELD_SIZE;
        uint32_t apart = 0;
        for (uint32_t i = 0; i < n; i++, fp += GFF_FIELD_SIZE) {
            apart |= relic_load_u32le(fi + 4 * (size_t)i) ^ (first + i);
            const uint32_t type = relic_load_u32le(fp);
            if (!record_ok(type, relic_load_u32le(fp + 4), nlabels)) return 0;
            const unsigned cls = type_class[type];
            if (cls != CLASS_INLINE && !run_value(fs, cls, type, relic_load_u32le(fp + 8), s, later, dep + 1)) return 0;
        }
        if (apart) return 0;
        next_free = first + n;
        listed += n;
        if (label_stamp && n > 1)
            for (uint32_t i = 0, stamp = s + 1; i < n; i++) {
                const uint32_t l = relic_load_u32le(fields + (size_t)(first + i) * GFF_FIELD_SIZE + 4);
                if (label_stamp[l] == stamp) return 0; /* a duplicate: the walk warns in its order */
                label_stamp[l] = stamp;
            }
    }
    *upto = s;
    *listed_out = listed;
    *deepest_out = fs->deepest; /* each struct's depth was stored by its parent */
    return 1;
}

/* runs_prefix without label stamps (no warn callback: most calls), and
 * with: apart, so that the first keeps label_stamp out of its registers. */
RELIC_GEN_NOINLINE static int runs_prefix_plain(fast_state *fs, uint32_t *upto, uint64_t *listed,
                                                unsigned *deepest)
{
    return runs_prefix(fs, NULL, upto, listed, deepest);
}
RELIC_GEN_NOINLINE static int runs_prefix_stamped(fast_state *fs, uint32_t *label_stamp, uint32_t *upto,
                                                  uint64_t *listed, unsigned *deepest)
{
    return runs_prefix(fs, label_stamp, upto, listed, deepest);
}

/* fast_pass's second part: the structs from s0 on, each field's byte
 * read and set in claimed (which holds the fields of the structs before
 * s0); refs, listed and deepest carry on from the first part. */
RELIC_GEN_NOINLINE static int claimed_pass(const relic_gff_doc *d, shared_guard *g, uint8_t *depth, uint8_t *claimed, uint32_t *label_stamp,
                                           uint32_t s0, uint64_t refs, uint64_t listed, unsigned deepest, uint32_t *max_depth)
{
    const uint32_t nstructs = d->struct_count, nfields = d->field_count, nlabels = (uint32_t)d->v.labels_count;
    const uint8_t *fields = d->v.fields;
    fast_state fs = {d, depth, refs, g, 1};
    for (uint32_t s = s0; s < nstructs; s++) {
        const uint8_t *sp = d->v.structs + (size_t)s * GFF_STRUCT_SIZE;
        const uint32_t data = relic_load_u32le(sp + 4), n = relic_load_u32le(sp + 8);
        const unsigned dep = depth[s];
        const uint32_t later = nstructs - s - 1; /* structs after s */
        if (dep == 0) return 0;                  /* not reached yet: a parent after it, or none */
        deepest = dep > deepest ? dep : deepest;
        if (n == 0) continue;
        /* one field: its index is DataOrDataOffset itself */
        const uint8_t *fi = sp + 4;
        if (n > 1) {
            /* n <= FieldCount is the record's own check (the schema's) */
            if (data % 4 != 0 || (uint64_t)data / 4 + n > d->v.field_indices_count || n > nfields) return 0;
            fi = d->v.field_indices + data;
        }
        listed += n;
        unsigned twice = 0;
        for (uint32_t i = 0; i < n; i++) {
            const uint32_t f = relic_load_u32le(fi + 4 * (size_t)i);
            if (f >= nfields) return 0;
            twice |= claimed[f];
            claimed[f] = 1;
            const uint8_t *fp = fields + (size_t)f * GFF_FIELD_SIZE;
            const uint32_t type = relic_load_u32le(fp);
            if (!record_ok(type, relic_load_u32le(fp + 4), nlabels)) return 0;
            const unsigned cls = type_class[type];
            /* fast_value's jump table, not run_value's compare chain: on the
             * corpus' mixed types it mispredicts less (2-4% of the pass) */
            if (cls != CLASS_INLINE && !fast_value(&fs, s, later, dep + 1, cls, type, relic_load_u32le(fp + 8))) return 0;
        }
        if (twice) return 0; /* a field listed twice: stopped here, the work stays linear */
        if (label_stamp && n > 1)
            for (uint32_t i = 0, stamp = s + 1; i < n; i++) {
                const uint32_t l = relic_load_u32le(fields + (size_t)relic_load_u32le(fi + 4 * (size_t)i) * GFF_FIELD_SIZE + 4);
                if (label_stamp[l] == stamp) return 0; /* a duplicate: the walk warns in its order */
                label_stamp[l] = stamp;
            }
    }
    /* every struct was reached, by nstructs - 1 references at least: more
     * means one was reached twice */
    if (fs.refs != (uint64_t)nstructs - 1) return 0;
    /* fields no struct lists: their values, as check_unreached does */
    for (uint32_t f = 0; listed < nfields && f < nfields; f++) {
        const uint8_t *fp = fields + (size_t)f * GFF_FIELD_SIZE;
        if (!claimed[f] && (!record_ok(relic_load_u32le(fp), relic_load_u32le(fp + 4), nlabels) || !value_ok(d, g, relic_load_u32le(fp), relic_load_u32le(fp + 8))))
            return 0;
    }
    *max_depth = deepest - 1;
    return 1;
}

/* depth (zeroed) holds struct_count bytes; the claimed bytes, needed only
 * past the runs, are spare (spare_bytes on the stack) when they fit, else
 * from scratch: without them the walk runs instead. */
static int fast_pass(const relic_gff_doc *d, shared_guard *g, uint8_t *depth, uint8_t *spare, size_t spare_bytes,
                     uint32_t *label_stamp, uint32_t *max_depth)
{
    fast_state pre = {d, depth, 0, g, 1};
    uint64_t listed;
    uint32_t upto;
    unsigned deepest;
    uint8_t *claimed = NULL;
    depth[0] = 1;
    if (!(label_stamp ? runs_prefix_stamped(&pre, label_stamp, &upto, &listed, &deepest)
                      : runs_prefix_plain(&pre, &upto, &listed, &deepest)))
        return 0;
    if (upto < d->struct_count || listed < d->field_count) {
        if (d->field_count <= spare_bytes)
            claimed = memset(spare, 0, d->field_count);
        else if (!g->scratch || !(claimed = relic_arena_alloc(g->scratch, d->field_count, 8)))
            return 0;
        claim_runs(d, upto, claimed);
    }
    return claimed_pass(d, g, depth, claimed, label_stamp, upto, pre.refs, listed, deepest, max_depth);
}

relic_status relic_gff_open(const uint8_t *data, size_t size, relic_arena *scratch, relic_report_fn warn,
                            void *warn_ctx, relic_gff_doc *out, relic_error *err)
{
    relic_status s;
    relic_gff_doc d;
    memset(&d, 0, sizeof d);
    /* the layout; the struct and field records' own checks are the fast
     * pass's, or relic_gff_validate_elements' before the walk */
    if ((s = relic_gff_validate_layout(data, size, &d.v, err)) != RELIC_OK) return s;
    d.struct_count = (uint32_t)d.v.structs_count;
    d.field_count = (uint32_t)d.v.fields_count;
    if (d.struct_count == 0 && (s = relic_gff_validate_elements(&d.v, err)) != RELIC_OK) return s;
    if (d.struct_count == 0)
        return relic_fail(err, RELIC_E_RANGE, 12, "header.struct_count", "a GFF needs at least the top-level struct");
    shared_guard g;
    guard_init(&g, &d, scratch);
    vstate st = {&d, NULL, NULL, NULL, warn, warn_ctx, err, 0, 0, &g};
    /* the fast pass's depth bytes, then the walk's two bitmaps (the field
     * bitmap with 8 spare bytes for claim_run) in the same bytes when it
     * has to run: on the stack for the files most are, else from scratch
     * (zeroed there); the fast pass's claimed bytes in the rest of the
     * stack buffer or from scratch; label stamps only for a warn callback */
    uint64_t small[1024];
    const size_t sbytes = (d.v.structs_count + 7) & ~(size_t)7, fbytes = (d.v.fields_count / 64 + 2) * 8,
                 mbytes = sbytes + fbytes;
    uint8_t *mem = (uint8_t *)small;
    if (mbytes <= sizeof small)
        memset(small, 0, sbytes);
    else
        mem = relic_arena_alloc(scratch, mbytes, 8);
    if (warn) st.label_stamp = relic_arena_array(scratch, d.v.labels_count + 1, sizeof *st.label_stamp, 4);
    if (!mem || (warn && !st.label_stamp))
        return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "no scratch memory for the struct graph (%zu structs)",
                          d.v.structs_count);
    if (RELIC_GFF_FAST_PASS && fast_pass(&d, &g, mem, mem + sbytes, mem == (uint8_t *)small ? sizeof small - sbytes : 0, st.label_stamp, &st.max_depth)) {
        st.reachable = d.struct_count;
    } else {
        if ((s = relic_gff_validate_elements(&d.v, err)) != RELIC_OK) return s;
        memset(mem, 0, mbytes);
        if (warn) memset(st.label_stamp, 0, (d.v.labels_count + 1) * sizeof *st.label_stamp);
        st.struct_seen = mem;
        st.field_seen = mem + sbytes;
        st.max_depth = 0;
        if ((s = walk(&st, 0, 0, 0)) != RELIC_OK) return s;
        if ((s = check_unreached(&st)) != RELIC_OK) return s;
    }
    d.max_depth = st.max_depth;
    d.reachable = st.reachable;
    *out = d;
    return RELIC_OK;
}
