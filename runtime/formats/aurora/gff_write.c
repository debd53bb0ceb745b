/* gff_write.c — a GFF tree serialised to GFF V3.2 bytes.
 *
 * DEFAULT is the layout game-written files use, as measured in
 * nwn-lib-d, gff.d; xoreos, gff3writer.cpp: header, structs, fields, labels, field data, field
 * indices, list indices, contiguous from byte 56; a struct is numbered when
 * it is reached, its field-index block reserved then, each field entry
 * appended before its sub-struct or list elements are recursed, list
 * records reserved before their elements; labels in first-use order; field
 * data in field order without dedup; 0xFFFFFFFF for an empty struct.
 * POSTORDER differs only in appending a struct's field-index block when the
 * struct is complete (some NWN1 files, neverwinter.nim). KEEP puts
 * everything back where the tree says it was read from, which reproduces
 * any file whose arrays have no gaps holding other bytes. The header and
 * the six arrays are written by the generated writer (relic_gff_write), so
 * every count and offset is recomputed from the arrays. */
#include "gff_flat.h"
#include "gff_order.h"
#include "relic_gff.h"
#include "relic_gen.h"

/* Bytes a complex value takes in the field data; 0 for inline types. */
static uint64_t value_size(const relic_gff_tfield *f)
{
    switch (f->type) {
    case RELIC_GFF_FIELD_TYPE_DWORD64:
    case RELIC_GFF_FIELD_TYPE_INT64:
    case RELIC_GFF_FIELD_TYPE_DOUBLE: return 8;
    case RELIC_GFF_FIELD_TYPE_CEXOSTRING:
    case RELIC_GFF_FIELD_TYPE_VOID: return 4 + (uint64_t)f->v.bytes.n;
    case RELIC_GFF_FIELD_TYPE_RESREF: return 1 + (uint64_t)f->v.bytes.n;
    case RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING: {
        uint64_t n = 12;
        for (uint32_t i = 0; i < f->v.loc.count; i++) n += 8 + (uint64_t)f->v.loc.s[i].len;
        return n;
    }
    case RELIC_GFF_FIELD_TYPE_ORIENTATION: return 16;
    case RELIC_GFF_FIELD_TYPE_VECTOR: return 12;
    default: return 0;
    }
}

/* The value's bytes (value_size of them) at dst. */
static void encode_value(const relic_gff_tfield *f, uint8_t *dst)
{
    switch (f->type) {
    case RELIC_GFF_FIELD_TYPE_DWORD64:
    case RELIC_GFF_FIELD_TYPE_INT64: relic_store_u64le(dst, f->v.u); break;
    case RELIC_GFF_FIELD_TYPE_DOUBLE: relic_store_f64le(dst, f->v.f64); break;
    case RELIC_GFF_FIELD_TYPE_CEXOSTRING:
    case RELIC_GFF_FIELD_TYPE_VOID:
        relic_store_u32le(dst, (uint32_t)f->v.bytes.n);
        if (f->v.bytes.n) memcpy(dst + 4, f->v.bytes.p, f->v.bytes.n);
        break;
    case RELIC_GFF_FIELD_TYPE_RESREF:
        dst[0] = (uint8_t)f->v.bytes.n;
        if (f->v.bytes.n) memcpy(dst + 1, f->v.bytes.p, f->v.bytes.n);
        break;
    case RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING: {
        uint8_t *p = dst + 12;
        relic_store_u32le(dst, (uint32_t)(value_size(f) - 4));
        relic_store_u32le(dst + 4, f->v.loc.strref);
        relic_store_u32le(dst + 8, f->v.loc.count);
        for (uint32_t i = 0; i < f->v.loc.count; i++) {
            relic_store_u32le(p, f->v.loc.s[i].string_id);
            relic_store_u32le(p + 4, (uint32_t)f->v.loc.s[i].len);
            if (f->v.loc.s[i].len) memcpy(p + 8, f->v.loc.s[i].text, f->v.loc.s[i].len);
            p += 8 + f->v.loc.s[i].len;
        }
        break;
    }
    case RELIC_GFF_FIELD_TYPE_ORIENTATION:
        for (int k = 0; k < 4; k++) relic_store_f32le(dst + 4 * k, f->v.vec[k]);
        break;
    case RELIC_GFF_FIELD_TYPE_VECTOR:
        for (int k = 0; k < 3; k++) relic_store_f32le(dst + 4 * k, f->v.vec[k]);
        break;
    default: break;
    }
}

/* The 32-bit slot of an inline value: unsigned types zero-extended, signed
 * ones sign-extended (as game-written files store them, xoreos, src/aurora/gff3file.h; neverwinter.nim, gff.nim). */
static uint32_t inline_value(const relic_gff_tfield *f)
{
    switch (f->type) {
    case RELIC_GFF_FIELD_TYPE_BYTE: return (uint32_t)(f->v.u & 0xFFu);
    case RELIC_GFF_FIELD_TYPE_WORD: return (uint32_t)(f->v.u & 0xFFFFu);
    case RELIC_GFF_FIELD_TYPE_DWORD: return (uint32_t)f->v.u;
    case RELIC_GFF_FIELD_TYPE_CHAR: return (uint32_t)(int32_t)(int8_t)f->v.i;
    case RELIC_GFF_FIELD_TYPE_SHORT: return (uint32_t)(int32_t)(int16_t)f->v.i;
    case RELIC_GFF_FIELD_TYPE_INT: return (uint32_t)(int32_t)f->v.i;
    case RELIC_GFF_FIELD_TYPE_FLOAT: {
        uint32_t u;
        memcpy(&u, &f->v.f32, 4);
        return u;
    }
    default: return 0;
    }
}

/* Checks of a field that both layouts need. */
static relic_status check_field(const relic_gff_tfield *f, relic_error *err)
{
    if (f->type > RELIC_GFF_FIELD_TYPE_VECTOR)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, f->label, "unknown field type %u", (unsigned)f->type);
    if (memchr(f->label, 0, sizeof f->label) == NULL)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "a label is longer than 16 characters");
    if (f->type == RELIC_GFF_FIELD_TYPE_RESREF && f->v.bytes.n > 255)
        return relic_fail(err, RELIC_E_RANGE, 0, f->label, "a ResRef of %zu bytes does not fit its length byte",
                          f->v.bytes.n);
    if ((f->type == RELIC_GFF_FIELD_TYPE_CEXOSTRING || f->type == RELIC_GFF_FIELD_TYPE_VOID) &&
        f->v.bytes.n > UINT32_MAX - 4)
        return relic_fail(err, RELIC_E_LIMIT, 0, f->label, "a value of %zu bytes does not fit in 4 GiB", f->v.bytes.n);
    if (f->type == RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING && value_size(f) > UINT32_MAX)
        return relic_fail(err, RELIC_E_LIMIT, 0, f->label, "a locstring does not fit in 4 GiB");
    if (f->type == RELIC_GFF_FIELD_TYPE_STRUCT && !f->v.child)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, f->label, "a struct field without its struct");
    return RELIC_OK;
}

/* ---------------------------------------------------------------------- */
/* DEFAULT and POSTORDER                                                  */
/* ---------------------------------------------------------------------- */

typedef struct wstate {
    relic_buf structs, fields, labels, data, fi, li, stack;
    uint32_t *hash; /* open addressing: label index + 1, 0 = empty */
    size_t hash_mask;
    relic_arena *scratch; /* where the hash grows */
    const relic_gff_family *fam;
    relic_error *err;
} wstate;

/* Twice the slots when the labels reach half of them: the table follows
 * the distinct labels (a few hundred in real files), not the fields. */
static int hash_grow(wstate *w)
{
    const size_t size = (w->hash_mask + 1) * 2;
    uint32_t *h = relic_arena_array(w->scratch, size, 4, 4);
    if (!h) return 0;
    memset(h, 0, size * 4); /* a rewound arena may hand back used bytes */
    for (size_t i = 0; i <= w->hash_mask; i++) {
        const uint32_t e = w->hash[i];
        if (!e) continue;
        size_t slot = (size_t)relic_gff_label_hash((const char *)w->labels.data + (size_t)(e - 1) * 16) & (size - 1);
        while (h[slot]) slot = (slot + 1) & (size - 1);
        h[slot] = e;
    }
    w->hash = h;
    w->hash_mask = size - 1;
    return 1;
}

static uint32_t label_index(wstate *w, const char *label)
{
    char key[16] = {0};
    size_t n = strlen(label);
    memcpy(key, label, n);
    for (size_t slot = (size_t)relic_gff_label_hash(key) & w->hash_mask;; slot = (slot + 1) & w->hash_mask) {
        uint32_t e = w->hash[slot];
        if (e == 0) {
            uint32_t idx = (uint32_t)(w->labels.size / 16);
            relic_buf_append(&w->labels, key, 16);
            /* out of memory: no entry pointing past the labels (the write
             * then fails on labels.failed) */
            if (w->labels.failed) return idx;
            w->hash[slot] = idx + 1;
            if ((size_t)(idx + 1) * 2 > w->hash_mask && !hash_grow(w)) w->labels.failed = 1;
            return idx;
        }
        if (memcmp(w->labels.data + (size_t)(e - 1) * 16, key, 16) == 0) return e - 1;
    }
}

/* What the six arrays will hold, counted before writing so that each is
 * allocated once at its final size (no regrowth copies). */
typedef struct wsizes {
    uint64_t structs, fields, data, fi, li;
} wsizes;

static uint32_t count_fields(const relic_gff_tstruct *s, uint32_t depth, relic_error *err, wsizes *n)
{
    if (depth > RELIC_GFF_MAX_DEPTH) {
        relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "structs nest deeper than %d (a cycle?)", RELIC_GFF_MAX_DEPTH);
        return 0;
    }
    n->structs++;
    n->fields += s->field_count;
    if (s->field_count > 1) n->fi += s->field_count;
    for (uint32_t i = 0; i < s->field_count; i++) {
        const relic_gff_tfield *f = &s->fields[i];
        if (check_field(f, err) != RELIC_OK) return 0;
        n->data += value_size(f);
        if (f->type == RELIC_GFF_FIELD_TYPE_STRUCT && !count_fields(f->v.child, depth + 1, err, n)) return 0;
        if (f->type == RELIC_GFF_FIELD_TYPE_LIST) {
            n->li += 1 + (uint64_t)f->v.list.count;
            for (size_t k = 0; k < f->v.list.count; k++) {
                if (!f->v.list.items[k])
                    return relic_fail(err, RELIC_E_ARGUMENT, 0, f->label, "a list element without its struct"), 0;
                if (!count_fields(f->v.list.items[k], depth + 1, err, n)) return 0;
            }
        }
    }
    return 1;
}

/* Append field f's entry (label, value; a list's record reserved); child
 * is a struct field's struct index. Returns the field's index. */
static uint32_t put_entry(wstate *w, const relic_gff_tfield *f, uint32_t child)
{
    uint32_t fidx = (uint32_t)(w->fields.size / 12), data;
    uint64_t vs = value_size(f);
    size_t foff = w->fields.size;
    relic_buf_extend(&w->fields, 12);
    uint32_t label = label_index(w, f->label); /* first-use order */
    if (vs) {
        data = (uint32_t)w->data.size;
        uint8_t *dst = relic_buf_extend(&w->data, (size_t)vs);
        if (dst) encode_value(f, dst);
    } else if (f->type == RELIC_GFF_FIELD_TYPE_STRUCT) {
        data = child;
    } else if (f->type == RELIC_GFF_FIELD_TYPE_LIST) {
        data = (uint32_t)w->li.size;
        uint8_t *rec = relic_buf_extend(&w->li, 4 + 4 * f->v.list.count);
        if (rec) relic_store_u32le(rec, (uint32_t)f->v.list.count);
    } else {
        data = inline_value(f);
    }
    if (!w->fields.failed) {
        uint8_t *fr = w->fields.data + foff;
        relic_store_u32le(fr, f->type);
        relic_store_u32le(fr + 4, label);
        relic_store_u32le(fr + 8, data);
    }
    return fidx;
}

static void put_struct(wstate *w, const relic_gff_tstruct *s);

/* The struct or list elements under field f, whose entry is at fidx. */
static void put_children(wstate *w, const relic_gff_tfield *f, uint32_t fidx)
{
    if (f->type == RELIC_GFF_FIELD_TYPE_STRUCT) {
        put_struct(w, f->v.child);
    } else if (f->type == RELIC_GFF_FIELD_TYPE_LIST) {
        size_t loff = w->fields.failed ? 0 : relic_load_u32le(w->fields.data + (size_t)fidx * 12 + 8);
        for (size_t k = 0; k < f->v.list.count; k++) {
            uint32_t child = (uint32_t)(w->structs.size / 12);
            if (!w->li.failed) relic_store_u32le(w->li.data + loff + 4 + 4 * k, child);
            put_struct(w, f->v.list.items[k]);
        }
    }
}

/* Append struct si's field-index block from the stack (the non-PRE placements). */
static void flush_block(wstate *w, uint32_t si, size_t stack_base, uint32_t n)
{
    size_t fi_off = w->fi.size;
    relic_buf_append(&w->fi, w->stack.data + stack_base, (size_t)n * 4);
    w->stack.size = stack_base;
    if (!w->structs.failed) relic_store_u32le(w->structs.data + (size_t)si * 12 + 4, (uint32_t)fi_off);
}

static void put_struct(wstate *w, const relic_gff_tstruct *s)
{
    const relic_gff_family *fam = w->fam;
    uint32_t si = (uint32_t)(w->structs.size / 12), n = s->field_count;
    uint8_t rec[12];
    size_t fi_off = w->fi.size, stack_base = w->stack.size;
    int pre = fam->fi_placement == RELIC_GFF_FI_PRE;
    relic_store_u32le(rec, s->id);
    relic_store_u32le(rec + 4, n == 0 ? fam->empty_struct_data : n == 1 ? 0
                                                                        : (uint32_t)fi_off);
    relic_store_u32le(rec + 8, n);
    relic_buf_append(&w->structs, rec, 12);
    if (n > 1 && pre) relic_buf_extend(&w->fi, (size_t)n * 4);
    for (uint32_t i = 0; i < n; i++) {
        const relic_gff_tfield *f = &s->fields[i];
        uint32_t child = (uint32_t)(w->structs.size / 12), fidx;
        int after = f->type == RELIC_GFF_FIELD_TYPE_STRUCT && fam->struct_entry_after_child;
        if (after) put_struct(w, f->v.child);
        fidx = put_entry(w, f, child);
        if (n == 1) {
            if (!w->structs.failed) relic_store_u32le(w->structs.data + (size_t)si * 12 + 4, fidx);
        } else if (pre) {
            if (!w->fi.failed) relic_store_u32le(w->fi.data + fi_off + 4 * i, fidx);
        } else {
            relic_buf_append(&w->stack, &fidx, 4);
            if (i == n - 1 && fam->fi_placement == RELIC_GFF_FI_LAST_ENTRY) flush_block(w, si, stack_base, n);
        }
        if (!after) put_children(w, f, fidx);
    }
    if (n > 1 && fam->fi_placement == RELIC_GFF_FI_POST) flush_block(w, si, stack_base, n);
}

/* The header and six arrays through the generated writer. */
static relic_status emit(relic_arena *scratch, const char file_type[4], relic_buf *structs, relic_buf *fields,
                         relic_buf *labels, relic_buf *data, relic_buf *fi, relic_buf *li, relic_buf *out,
                         relic_error *err)
{
    relic_gff_file m;
    memset(&m, 0, sizeof m);
    memcpy(m.header.file_type, file_type, 4);
    memcpy(m.header.file_version, "V3.2", 4);
    uint64_t total = 56 + (uint64_t)structs->size + fields->size + labels->size + data->size + fi->size + li->size;
    if (total > UINT32_MAX)
        return relic_fail(err, RELIC_E_LIMIT, 0, NULL, "the GFF would be %llu bytes, above 4 GiB",
                          (unsigned long long)total);
    /* the model's arrays: little-endian records reinterpreted through the generated structs' decode */
    relic_arena *a = scratch;
    m.structs_count = structs->size / 12;
    m.fields_count = fields->size / 12;
    m.labels_count = labels->size / 16;
    m.field_data_count = data->size;
    m.field_indices_count = fi->size / 4;
    m.list_indices_count = li->size / 4;
    if (RELIC_GEN_LE && sizeof(relic_gff_struct) == 12 && sizeof(relic_gff_field) == 12 && sizeof(relic_gff_label) == 16 &&
        ((uintptr_t)structs->data | (uintptr_t)fields->data | (uintptr_t)labels->data | (uintptr_t)fi->data |
         (uintptr_t)li->data) %
                4 ==
            0) {
        /* on a little-endian host the records already are the model's
         * arrays (each a run of u32 / char[16], 4-aligned): no copy */
        m.structs = (relic_gff_struct *)(void *)structs->data;
        m.fields = (relic_gff_field *)(void *)fields->data;
        m.labels = (relic_gff_label *)(void *)labels->data;
        m.field_indices = (uint32_t *)(void *)fi->data;
        m.list_indices = (uint32_t *)(void *)li->data;
        m.field_data = data->data;
    } else {
        m.structs = relic_arena_array(a, m.structs_count + 1, sizeof *m.structs, 8);
        m.fields = relic_arena_array(a, m.fields_count + 1, sizeof *m.fields, 8);
        m.labels = relic_arena_array(a, m.labels_count + 1, sizeof *m.labels, 8);
        m.field_indices = relic_arena_array(a, m.field_indices_count + 1, 4, 8);
        m.list_indices = relic_arena_array(a, m.list_indices_count + 1, 4, 8);
        m.field_data = data->data;
        if (!m.structs || !m.fields || !m.labels || !m.field_indices || !m.list_indices)
            return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory writing a GFF");
        for (size_t i = 0; i < m.structs_count; i++) {
            const uint8_t *p = structs->data + 12 * i;
            m.structs[i].id = relic_load_u32le(p);
            m.structs[i].data_or_data_offset = relic_load_u32le(p + 4);
            m.structs[i].field_count = relic_load_u32le(p + 8);
        }
        for (size_t i = 0; i < m.fields_count; i++) {
            const uint8_t *p = fields->data + 12 * i;
            m.fields[i].type = relic_load_u32le(p);
            m.fields[i].label_index = relic_load_u32le(p + 4);
            m.fields[i].data_or_data_offset = relic_load_u32le(p + 8);
        }
        for (size_t i = 0; i < m.labels_count; i++) memcpy(m.labels[i].name, labels->data + 16 * i, 16);
        for (size_t i = 0; i < m.field_indices_count; i++) m.field_indices[i] = relic_load_u32le(fi->data + 4 * i);
        for (size_t i = 0; i < m.list_indices_count; i++) m.list_indices[i] = relic_load_u32le(li->data + 4 * i);
    }
    /* contiguous from byte 56, empty arrays at the next free byte (as real files have them) */
    uint32_t pos = 56;
    m.header.struct_offset = pos;
    pos += (uint32_t)structs->size;
    m.header.field_offset = pos;
    pos += (uint32_t)fields->size;
    m.header.label_offset = pos;
    pos += (uint32_t)labels->size;
    m.header.field_data_offset = pos;
    pos += (uint32_t)data->size;
    m.header.field_indices_offset = pos;
    pos += (uint32_t)fi->size;
    m.header.list_indices_offset = pos;
    m.header.field_indices_count = (uint32_t)fi->size;
    m.header.list_indices_count = (uint32_t)li->size;
    m.header.struct_count = (uint32_t)m.structs_count;
    m.header.field_count = (uint32_t)m.fields_count;
    m.header.label_count = (uint32_t)m.labels_count;
    m.header.field_data_count = (uint32_t)m.field_data_count;
    return relic_gff_write(&m, out, err);
}

/* In fam's layout; then, when order is not NULL, moved to its positions. */
static relic_status write_sequential(const relic_gff_tree *t, const relic_gff_family *fam,
                                     const relic_gff_order *order, relic_arena *scratch, relic_buf *out,
                                     relic_error *err)
{
    wstate w;
    wsizes sz = {0, 0, 0, 0, 0};
    memset(&w, 0, sizeof w);
    w.fam = fam;
    w.err = err;
    if (!t->root) return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "a GFF tree without its top-level struct");
    if (!count_fields(t->root, 0, err, &sz)) return err ? err->code : RELIC_E_ARGUMENT;
    const uint64_t nfields = sz.fields;
    if (nfields > UINT32_MAX / 12 || sz.structs > UINT32_MAX / 12 || sz.data > UINT32_MAX || sz.fi > UINT32_MAX / 4 ||
        sz.li > UINT32_MAX / 4)
        return relic_fail(err, RELIC_E_LIMIT, 0, NULL, "the GFF would be larger than 4 GiB");
    const size_t hsize = 256;
    w.scratch = scratch;
    w.hash = relic_arena_array(scratch, hsize, 4, 4);
    w.hash_mask = hsize - 1;
    if (!w.hash) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory writing a GFF");
    memset(w.hash, 0, hsize * 4);
    relic_buf *bufs[] = {&w.structs, &w.fields, &w.labels, &w.data, &w.fi, &w.li, &w.stack};
    const uint64_t exact[] = {12 * sz.structs, 12 * sz.fields, 0, sz.data, 4 * sz.fi, 4 * sz.li, 0};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) {
        /* arrays of known size: one block each (8-aligned, so emit can
         * hand them to the generated writer as they are); the label array
         * and the block stack grow */
        void *mem = exact[i] ? relic_arena_alloc(scratch, (size_t)exact[i], 8) : NULL;
        if (exact[i] && !mem) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory writing a GFF");
        if (mem) relic_buf_init_fixed(bufs[i], mem, (size_t)exact[i]);
        else relic_buf_init_arena(bufs[i], scratch, 0);
    }
    put_struct(&w, t->root);
    int failed = 0;
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) failed |= bufs[i]->failed;
    if (failed) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory writing a GFF");
    if (relic_gff_order_used(order)) {
        relic_status st = gff_order_apply(order, &w.structs, &w.fields, &w.labels, &w.data, &w.fi, &w.li, scratch, err);
        if (st != RELIC_OK) return st;
    }
    return emit(scratch, t->file_type, &w.structs, &w.fields, &w.labels, &w.data, &w.fi, &w.li, out, err);
}

/* ---------------------------------------------------------------------- */
/* The flat model (gff_flat.h): the same walk as put_struct over 16-byte  */
/* field records whose values are already encoded                         */
/* ---------------------------------------------------------------------- */

typedef struct fwstate {
    const relic_gff_flat *m;
    const relic_gff_family *fam;
    uint8_t *structs, *fields, *labels, *data, *fi, *li;
    size_t ns, nf, nl, nd, nfi, nli;            /* bytes written to each */
    size_t cap_s, cap_f, cap_d, cap_fi, cap_li; /* bytes each holds */
    uint32_t *label_map;                        /* the model's label -> the file's + 1 (0: not used yet) */
    uint32_t *stack;                            /* non-PRE placements: open structs' field indices */
    size_t nstack;
    int bad;
} fwstate;

/* Bytes an encoded complex value takes (its own length word or byte
 * says); 0 for inline types. */
static uint64_t flat_value_size(const relic_gff_flat_field *f)
{
    const uint8_t *p = (const uint8_t *)(uintptr_t)f->v;
    switch (f->type) {
    case RELIC_GFF_FIELD_TYPE_DWORD64:
    case RELIC_GFF_FIELD_TYPE_INT64:
    case RELIC_GFF_FIELD_TYPE_DOUBLE: return 8;
    case RELIC_GFF_FIELD_TYPE_CEXOSTRING:
    case RELIC_GFF_FIELD_TYPE_VOID:
    case RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING: return 4 + (uint64_t)relic_load_u32le(p);
    case RELIC_GFF_FIELD_TYPE_RESREF: return 1 + (uint64_t)p[0];
    case RELIC_GFF_FIELD_TYPE_ORIENTATION: return 16;
    case RELIC_GFF_FIELD_TYPE_VECTOR: return 12;
    default: return 0;
    }
}

static void flat_struct(fwstate *w, uint32_t s, uint32_t depth);

/* Field f's entry (first-use label, value copied, a list's record
 * reserved); child is a struct field's struct index. Returns its index. */
static uint32_t flat_entry(fwstate *w, const relic_gff_flat_field *f, uint32_t child)
{
    const relic_gff_flat *m = w->m;
    const uint32_t fidx = (uint32_t)(w->nf / 12);
    uint32_t data;
    if (f->label >= m->label_count || f->type > RELIC_GFF_FIELD_TYPE_VECTOR || w->nf + 12 > w->cap_f) {
        w->bad = 1;
        return fidx;
    }
    uint32_t label = w->label_map[f->label];
    if (!label) {
        memcpy(w->labels + w->nl, m->labels[f->label], 16);
        w->nl += 16;
        label = w->label_map[f->label] = (uint32_t)(w->nl / 16);
    }
    const uint64_t vs = flat_value_size(f);
    if (vs > w->cap_d - w->nd) {
        w->bad = 1;
        return fidx;
    }
    if (vs) {
        data = (uint32_t)w->nd;
        memcpy(w->data + w->nd, (const uint8_t *)(uintptr_t)f->v, (size_t)vs);
        w->nd += (size_t)vs;
    } else if (f->type == RELIC_GFF_FIELD_TYPE_STRUCT) {
        data = child;
    } else if (f->type == RELIC_GFF_FIELD_TYPE_LIST) {
        if (f->v >= m->list_words || m->lists[f->v] > m->list_words - f->v - 1 ||
            4 + 4 * (uint64_t)m->lists[f->v] > w->cap_li - w->nli) {
            w->bad = 1;
            return fidx;
        }
        data = (uint32_t)w->nli;
        relic_store_u32le(w->li + w->nli, m->lists[f->v]);
        w->nli += 4 + 4 * (size_t)m->lists[f->v];
    } else {
        data = (uint32_t)f->v;
    }
    uint8_t *fr = w->fields + w->nf;
    relic_store_u32le(fr, f->type);
    relic_store_u32le(fr + 4, label - 1);
    relic_store_u32le(fr + 8, data);
    w->nf += 12;
    return fidx;
}

static void flat_children(fwstate *w, const relic_gff_flat_field *f, uint32_t fidx, uint32_t depth)
{
    const relic_gff_flat *m = w->m;
    if (f->type == RELIC_GFF_FIELD_TYPE_STRUCT) {
        flat_struct(w, (uint32_t)(f->v > UINT32_MAX ? UINT32_MAX : f->v), depth + 1);
    } else if (f->type == RELIC_GFF_FIELD_TYPE_LIST) {
        const uint32_t *rec = m->lists + f->v; /* checked by flat_entry */
        const size_t loff = relic_load_u32le(w->fields + (size_t)fidx * 12 + 8);
        for (uint32_t k = 0; k < rec[0] && !w->bad; k++) {
            relic_store_u32le(w->li + loff + 4 + 4 * (size_t)k, (uint32_t)(w->ns / 12));
            flat_struct(w, rec[1 + k], depth + 1);
        }
    }
}

/* put_struct's order, over the flat model. */
static void flat_struct(fwstate *w, uint32_t s, uint32_t depth)
{
    const relic_gff_flat *m = w->m;
    const relic_gff_family *fam = w->fam;
    if (w->bad || depth > RELIC_GFF_MAX_DEPTH || s >= m->struct_count || w->ns + 12 > w->cap_s) {
        w->bad = 1;
        return;
    }
    const relic_gff_flat_struct *st = &m->structs[s];
    const uint32_t n = st->count, si = (uint32_t)(w->ns / 12);
    const int pre = fam->fi_placement == RELIC_GFF_FI_PRE;
    const size_t fi_off = w->nfi, stack_base = w->nstack;
    if (n > 1 && 4 * (uint64_t)n > w->cap_fi - w->nfi) {
        w->bad = 1;
        return;
    }
    uint8_t *rec = w->structs + w->ns;
    relic_store_u32le(rec, st->id);
    relic_store_u32le(rec + 4, n == 0 ? fam->empty_struct_data : n == 1 ? 0
                                                                        : (uint32_t)fi_off);
    relic_store_u32le(rec + 8, n);
    w->ns += 12;
    if (n > 1 && pre) w->nfi += 4 * (size_t)n;
    for (uint32_t i = 0; i < n && !w->bad; i++) {
        const relic_gff_flat_field *f = &st->fields[i];
        const uint32_t child = (uint32_t)(w->ns / 12);
        const int after = f->type == RELIC_GFF_FIELD_TYPE_STRUCT && fam->struct_entry_after_child;
        if (after) flat_children(w, f, 0, depth);
        const uint32_t fidx = flat_entry(w, f, child);
        if (w->bad) return;
        if (n == 1) {
            relic_store_u32le(w->structs + (size_t)si * 12 + 4, fidx);
        } else if (pre) {
            relic_store_u32le(w->fi + fi_off + 4 * (size_t)i, fidx);
        } else {
            w->stack[w->nstack++] = fidx; /* at most the fi words: sized so */
            if (i == n - 1 && fam->fi_placement == RELIC_GFF_FI_LAST_ENTRY) {
                relic_store_u32le(w->structs + (size_t)si * 12 + 4, (uint32_t)w->nfi);
                memcpy(w->fi + w->nfi, w->stack + stack_base, 4 * (size_t)n);
                w->nfi += 4 * (size_t)n;
                w->nstack = stack_base;
            }
        }
        if (!after) flat_children(w, f, fidx, depth);
    }
    if (n > 1 && fam->fi_placement == RELIC_GFF_FI_POST && !w->bad) {
        relic_store_u32le(w->structs + (size_t)si * 12 + 4, (uint32_t)w->nfi);
        memcpy(w->fi + w->nfi, w->stack + stack_base, 4 * (size_t)n);
        w->nfi += 4 * (size_t)n;
        w->nstack = stack_base;
    }
}

/* The header of a file whose six arrays lie contiguous from byte 56 in
 * order, of the given sizes in bytes: what the generated writer derives
 * from the same arrays (emit), written here because the arrays are
 * already in place. */
static void flat_header(uint8_t *p, const char file_type[4], const uint64_t sizes[6])
{
    static const uint32_t pos[6][2] = {
        {RELIC_GFF_HEADER_STRUCT_OFFSET_POS, RELIC_GFF_HEADER_STRUCT_COUNT_POS},
        {RELIC_GFF_HEADER_FIELD_OFFSET_POS, RELIC_GFF_HEADER_FIELD_COUNT_POS},
        {RELIC_GFF_HEADER_LABEL_OFFSET_POS, RELIC_GFF_HEADER_LABEL_COUNT_POS},
        {RELIC_GFF_HEADER_FIELD_DATA_OFFSET_POS, RELIC_GFF_HEADER_FIELD_DATA_COUNT_POS},
        {RELIC_GFF_HEADER_FIELD_INDICES_OFFSET_POS, RELIC_GFF_HEADER_FIELD_INDICES_COUNT_POS},
        {RELIC_GFF_HEADER_LIST_INDICES_OFFSET_POS, RELIC_GFF_HEADER_LIST_INDICES_COUNT_POS},
    };
    /* counts: records for structs, fields and labels, bytes for the rest */
    static const uint32_t unit[6] = {12, 12, 16, 1, 1, 1};
    uint64_t at = RELIC_GFF_HEADER_SIZE;
    memcpy(p + RELIC_GFF_HEADER_FILE_TYPE_POS, file_type, 4);
    memcpy(p + RELIC_GFF_HEADER_FILE_VERSION_POS, "V3.2", 4);
    for (int i = 0; i < 6; i++) {
        relic_store_u32le(p + pos[i][0], (uint32_t)at);
        relic_store_u32le(p + pos[i][1], (uint32_t)(sizes[i] / unit[i]));
        at += sizes[i];
    }
}

relic_status relic_gff_write_flat(const relic_gff_flat *m, relic_gff_layout layout, relic_arena *scratch,
                                  relic_buf *out, relic_error *err)
{
    fwstate w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.fam = relic_gff_family_of(layout);
    uint64_t fi_words = 0;
    for (uint32_t s = 0; s < m->struct_count; s++)
        if (m->structs[s].count > 1) fi_words += m->structs[s].count;
    const uint64_t sizes[6] = {12 * (uint64_t)m->struct_count, 12 * (uint64_t)m->field_count, 16 * (uint64_t)m->label_count,
                               m->data_size, 4 * fi_words, 4 * (uint64_t)m->list_words};
    const uint64_t total = RELIC_GFF_HEADER_SIZE + sizes[0] + sizes[1] + sizes[2] + sizes[3] + sizes[4] + sizes[5];
    if (m->struct_count == 0) return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "a GFF without its top-level struct");
    if (total > UINT32_MAX) return relic_fail(err, RELIC_E_LIMIT, 0, NULL, "the GFF would be larger than 4 GiB");
    w.label_map = relic_arena_array(scratch, m->label_count ? m->label_count : 1, 4, 4);
    w.stack = w.fam->fi_placement == RELIC_GFF_FI_PRE ? NULL : relic_arena_array(scratch, fi_words ? (size_t)fi_words : 1, 4, 4);
    if (!w.label_map || (w.fam->fi_placement != RELIC_GFF_FI_PRE && !w.stack))
        return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory writing a GFF");
    memset(w.label_map, 0, (size_t)m->label_count * 4);
    /* the arrays are written where they lie in the output: reserved, not
     * zero-filled, committed once every byte is written */
    uint8_t *base = relic_buf_reserve(out, (size_t)total);
    if (!base) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "cannot grow the output to %llu bytes", (unsigned long long)total);
    uint8_t *p = base + RELIC_GFF_HEADER_SIZE;
    uint8_t **arr[6] = {&w.structs, &w.fields, &w.labels, &w.data, &w.fi, &w.li};
    for (int i = 0; i < 6; i++) {
        *arr[i] = p;
        p += sizes[i];
    }
    w.cap_s = (size_t)sizes[0], w.cap_f = (size_t)sizes[1], w.cap_d = (size_t)sizes[3], w.cap_fi = (size_t)sizes[4];
    w.cap_li = (size_t)sizes[5];
    flat_struct(&w, 0, 0);
    /* a tree: every record reached exactly once */
    if (w.bad || w.ns != sizes[0] || w.nf != sizes[1] || w.nl != sizes[2] || w.nd != sizes[3] || w.nfi != sizes[4] ||
        w.nli != sizes[5])
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "the flat GFF model is not a tree of its records");
    if (relic_gff_order_used(m->order)) {
        /* the records moved in place to where the file had them */
        relic_buf b[6];
        uint8_t *at[6] = {w.structs, w.fields, w.labels, w.data, w.fi, w.li};
        for (int i = 0; i < 6; i++) {
            relic_buf_init_fixed(&b[i], at[i], (size_t)sizes[i]);
            b[i].size = (size_t)sizes[i];
        }
        relic_status st = gff_order_apply(m->order, &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], scratch, err);
        if (st != RELIC_OK) return st;
    }
    flat_header(base, m->file_type, sizes);
    relic_buf_commit(out, (size_t)total);
    return RELIC_OK;
}

/* ---------------------------------------------------------------------- */
/* KEEP                                                                   */
/* ---------------------------------------------------------------------- */

typedef struct kstate {
    const relic_gff_tree *t;
    uint8_t *structs, *fields, *data, *fi, *li;            /* the source arrays, rewritten in place */
    uint8_t *used_s, *used_f, *used_d, *used_fi, *used_li; /* one byte per slot: written */
    size_t n_s, n_f, n_d, n_fi, n_li;                      /* slots of each */
    uint32_t filled_s, filled_f;
    uint8_t *value; /* scratch for one complex value */
    relic_arena *scratch;
} kstate;

/* Claim n slots from index i of an array of count slots; 0 when out of range or taken. */
static int claim(uint8_t *used, size_t count, uint64_t i, uint64_t n)
{
    if (i > count || n > count - i) return 0;
    for (uint64_t k = 0; k < n; k++)
        if (used[i + k]) return 0;
    memset(used + i, 1, (size_t)n);
    return 1;
}

static int keep_struct(kstate *k, const relic_gff_tstruct *s, uint32_t depth);

static int keep_field(kstate *k, const relic_gff_tfield *f, uint32_t depth)
{
    const relic_gff_tree *t = k->t;
    uint32_t data;
    if (!claim(k->used_f, k->n_f, f->src_index, 1)) return 0;
    k->filled_f++;
    if (f->src_label >= t->src_label_count) return 0;
    char key[16] = {0};
    memcpy(key, f->label, strlen(f->label));
    if (memcmp(t->src_labels[f->src_label], key, 16) != 0) return 0;
    uint64_t vs = value_size(f);
    if (vs) {
        data = f->src_data;
        if (data > k->n_d || vs > k->n_d - data) return 0;
        /* shared data (a dedup'ing writer) is fine when the bytes agree */
        uint8_t tmp[64], *buf = tmp;
        if (vs > sizeof tmp) {
            /* the largest value fits in the field data, so one scratch block serves them all */
            if (!k->value) k->value = relic_arena_alloc(k->scratch, k->n_d ? k->n_d : 1, 8);
            if (!k->value) return 0;
            buf = k->value;
        }
        encode_value(f, buf);
        for (uint64_t i = 0; i < vs; i++) {
            if (k->used_d[data + i] && k->data[data + i] != buf[i]) return 0;
            k->data[data + i] = buf[i];
            k->used_d[data + i] = 1;
        }
    } else if (f->type == RELIC_GFF_FIELD_TYPE_STRUCT) {
        data = f->v.child->src_index;
        if (!keep_struct(k, f->v.child, depth + 1)) return 0;
    } else if (f->type == RELIC_GFF_FIELD_TYPE_LIST) {
        data = f->src_data;
        if (data % 4 || !claim(k->used_li, k->n_li, data / 4, 1 + (uint64_t)f->v.list.count)) return 0;
        relic_store_u32le(k->li + data, (uint32_t)f->v.list.count);
        for (size_t i = 0; i < f->v.list.count; i++) {
            relic_store_u32le(k->li + data + 4 + 4 * i, f->v.list.items[i]->src_index);
            if (!keep_struct(k, f->v.list.items[i], depth + 1)) return 0;
        }
    } else {
        data = inline_value(f);
    }
    uint8_t *fr = k->fields + (size_t)f->src_index * 12;
    relic_store_u32le(fr, f->type);
    relic_store_u32le(fr + 4, f->src_label);
    relic_store_u32le(fr + 8, data);
    return 1;
}

static int keep_struct(kstate *k, const relic_gff_tstruct *s, uint32_t depth)
{
    uint32_t data;
    if (depth > RELIC_GFF_MAX_DEPTH || !claim(k->used_s, k->n_s, s->src_index, 1)) return 0;
    k->filled_s++;
    if (s->field_count == 0) {
        data = s->src_data;
    } else if (s->field_count == 1) {
        data = s->fields[0].src_index;
    } else {
        data = s->src_data;
        if (data % 4 || !claim(k->used_fi, k->n_fi, data / 4, s->field_count)) return 0;
        for (uint32_t i = 0; i < s->field_count; i++) relic_store_u32le(k->fi + data + 4 * i, s->fields[i].src_index);
    }
    uint8_t *sr = k->structs + (size_t)s->src_index * 12;
    relic_store_u32le(sr, s->id);
    relic_store_u32le(sr + 4, data);
    relic_store_u32le(sr + 8, s->field_count);
    for (uint32_t i = 0; i < s->field_count; i++)
        if (!keep_field(k, &s->fields[i], depth)) return 0;
    return 1;
}

/* The source file's header word at byte off. */
static uint32_t src_word(const relic_gff_tree *t, size_t off) { return relic_load_u32le(t->src_file + off); }

/* 1 when written, 0 when the tree's positions do not make a consistent
 * file. The source file is copied whole and its arrays rewritten where they
 * lie, so what no struct or field refers to (unreferenced words, gaps
 * between arrays, trailing bytes) comes back unchanged. */
static int write_keep(const relic_gff_tree *t, relic_arena *scratch, relic_buf *out, relic_error *err,
                      relic_status *st)
{
    kstate k;
    memset(&k, 0, sizeof k);
    k.t = t;
    k.scratch = scratch;
    if (!t->root || !t->src_file || t->src_size < RELIC_GFF_HEADER_SIZE || t->root->src_index != 0) return 0;
    uint8_t *copy = relic_arena_alloc(scratch, t->src_size, 8);
    k.n_s = t->src_struct_count;
    k.n_f = t->src_field_count;
    k.n_d = t->src_field_data_size;
    k.n_fi = t->src_field_indices_size / 4;
    k.n_li = t->src_list_indices_size / 4;
    size_t used = k.n_s + k.n_f + k.n_d + k.n_fi + k.n_li;
    uint8_t *flags = relic_arena_alloc(scratch, used ? used : 1, 1);
    if (!copy || !flags) {
        *st = relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory writing a GFF");
        return 1;
    }
    memcpy(copy, t->src_file, t->src_size);
    memset(flags, 0, used);
    /* the header's offsets, as validated when the tree was read */
    k.structs = copy + src_word(t, RELIC_GFF_HEADER_STRUCT_OFFSET_POS);
    k.fields = copy + src_word(t, RELIC_GFF_HEADER_FIELD_OFFSET_POS);
    k.data = copy + src_word(t, RELIC_GFF_HEADER_FIELD_DATA_OFFSET_POS);
    k.fi = copy + src_word(t, RELIC_GFF_HEADER_FIELD_INDICES_OFFSET_POS);
    k.li = copy + src_word(t, RELIC_GFF_HEADER_LIST_INDICES_OFFSET_POS);
    k.used_s = flags;
    k.used_f = k.used_s + k.n_s;
    k.used_d = k.used_f + k.n_f;
    k.used_fi = k.used_d + k.n_d;
    k.used_li = k.used_fi + k.n_fi;
    if (!keep_struct(&k, t->root, 0)) return 0;
    /* as many structs and fields as the source reached: none added, none dropped */
    if (k.filled_s != t->src_reachable_structs || k.filled_f != t->src_reachable_fields) return 0;
    /* what KEEP made must be a valid file, else the family's layout is used */
    relic_gff_doc d;
    if (relic_gff_open(copy, t->src_size, scratch, NULL, NULL, &d, NULL) != RELIC_OK) return 0;
    relic_buf_append(out, copy, t->src_size);
    *st = out->failed ? relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory writing a GFF") : RELIC_OK;
    return 1;
}

relic_status relic_gff_write_tree(const relic_gff_tree *t, relic_gff_layout layout, relic_arena *scratch,
                                  relic_buf *out, int *fell_back, relic_error *err)
{
    if (fell_back) *fell_back = 0;
    if (!t->root) return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "a GFF tree without its top-level struct");
    if (layout == RELIC_GFF_LAYOUT_KEEP) {
        relic_status st = RELIC_OK;
        wsizes n = {0, 0, 0, 0, 0};
        if (!count_fields(t->root, 0, err, &n)) return err ? err->code : RELIC_E_ARGUMENT;
        if (write_keep(t, scratch, out, err, &st)) return st;
        if (fell_back) *fell_back = 1;
        layout = t->family;
    }
    /* the order record is relative to the tree's own family */
    return write_sequential(t, relic_gff_family_of(layout), layout == t->family ? t->order : NULL, scratch, out, err);
}
