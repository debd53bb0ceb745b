/* gff_tree.c — a validated GFF copied into an in-memory tree (arena):
 * structs with their fields in file order, every value decoded (BioWare GFF
 * xoreos, src/aurora/gff3file.cpp; neverwinter.nim, gff.nim; xoreos, src/aurora/gff3file.h, src/aurora/gff3file.cpp; neverwinter.nim, gff.nim), and where each struct, field, label and
 * datum lay in the file (src_*), so the writer can lay it out again as it
 * was (RELIC_GFF_LAYOUT_KEEP). Recursion depth is bounded by validation. */
#include "relic_gff.h"

typedef struct tstate {
    const relic_gff_doc *d;
    relic_arena *a;
    relic_error *err;
    uint32_t fields; /* fields built: those reached from the root */
} tstate;

static relic_status nomem(tstate *t)
{
    return relic_fail(t->err, RELIC_E_NOMEM, 0, NULL, "arena exhausted while building the GFF tree");
}

static relic_status copy_bytes(tstate *t, const uint8_t *p, size_t n, uint8_t **out)
{
    *out = relic_arena_alloc(t->a, n + 1, 1);
    if (!*out) return nomem(t);
    if (n) memcpy(*out, p, n);
    return RELIC_OK;
}

static relic_status build_struct(tstate *t, uint32_t s, relic_gff_tstruct **out);

static relic_status build_field(tstate *t, uint32_t f, relic_gff_tfield *tf)
{
    const relic_gff_doc *d = t->d;
    relic_gff_field_view fv = relic_gff_fields_at(&d->v, f);
    uint32_t raw = relic_gff_field_data_or_data_offset(fv);
    const uint8_t *p = d->v.field_data + raw;
    size_t len;
    const char *label = relic_gff_field_label(d, f, &len);
    tf->type = relic_gff_field_type(fv);
    memcpy(tf->label, label, len);
    tf->label[len] = 0;
    tf->src_index = f;
    tf->src_label = relic_gff_field_label_index(fv);
    tf->src_data = raw;
    t->fields++;
    switch (tf->type) {
    case RELIC_GFF_FIELD_TYPE_BYTE: tf->v.u = raw & 0xFFu; break;
    case RELIC_GFF_FIELD_TYPE_WORD: tf->v.u = raw & 0xFFFFu; break;
    case RELIC_GFF_FIELD_TYPE_DWORD: tf->v.u = raw; break;
    case RELIC_GFF_FIELD_TYPE_CHAR: tf->v.i = (int8_t)(uint8_t)raw; break;
    case RELIC_GFF_FIELD_TYPE_SHORT: tf->v.i = (int16_t)(uint16_t)raw; break;
    case RELIC_GFF_FIELD_TYPE_INT: tf->v.i = (int32_t)raw; break;
    case RELIC_GFF_FIELD_TYPE_FLOAT: memcpy(&tf->v.f32, &raw, 4); break;
    case RELIC_GFF_FIELD_TYPE_DWORD64: tf->v.u = relic_load_u64le(p); break;
    case RELIC_GFF_FIELD_TYPE_INT64: tf->v.i = (int64_t)relic_load_u64le(p); break;
    case RELIC_GFF_FIELD_TYPE_DOUBLE: tf->v.f64 = relic_load_f64le(p); break;
    case RELIC_GFF_FIELD_TYPE_CEXOSTRING:
    case RELIC_GFF_FIELD_TYPE_VOID:
        tf->v.bytes.n = relic_load_u32le(p);
        return copy_bytes(t, p + 4, tf->v.bytes.n, &tf->v.bytes.p);
    case RELIC_GFF_FIELD_TYPE_RESREF:
        tf->v.bytes.n = p[0];
        return copy_bytes(t, p + 1, tf->v.bytes.n, &tf->v.bytes.p);
    case RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING: {
        relic_gff_locstring ls;
        relic_gff_get_locstring(d, f, &ls, t->err);
        tf->v.loc.strref = ls.strref;
        tf->v.loc.count = ls.count;
        tf->v.loc.s = relic_arena_array(t->a, ls.count ? ls.count : 1, sizeof *tf->v.loc.s, 8);
        if (!tf->v.loc.s) return nomem(t);
        const uint8_t *cur = ls.first;
        for (uint32_t i = 0; i < ls.count; i++) {
            relic_bytes text;
            relic_gff_locstring_next(&cur, &tf->v.loc.s[i].string_id, &text);
            tf->v.loc.s[i].len = text.size;
            relic_status st = copy_bytes(t, text.data, text.size, &tf->v.loc.s[i].text);
            if (st != RELIC_OK) return st;
        }
        break;
    }
    case RELIC_GFF_FIELD_TYPE_STRUCT:
        return build_struct(t, raw, &tf->v.child);
    case RELIC_GFF_FIELD_TYPE_LIST: {
        relic_gff_list l;
        relic_gff_get_list(d, f, &l, t->err);
        tf->v.list.count = l.count;
        tf->v.list.items = relic_arena_array(t->a, l.count ? l.count : 1, sizeof *tf->v.list.items, 8);
        if (!tf->v.list.items) return nomem(t);
        for (uint32_t i = 0; i < l.count; i++) {
            relic_status st = build_struct(t, relic_gff_list_at(&l, i), &tf->v.list.items[i]);
            if (st != RELIC_OK) return st;
        }
        break;
    }
    case RELIC_GFF_FIELD_TYPE_ORIENTATION:
        for (int k = 0; k < 4; k++) tf->v.vec[k] = relic_load_f32le(p + 4 * k);
        break;
    case RELIC_GFF_FIELD_TYPE_VECTOR:
        for (int k = 0; k < 3; k++) tf->v.vec[k] = relic_load_f32le(p + 4 * k);
        break;
    }
    return RELIC_OK;
}

static relic_status build_struct(tstate *t, uint32_t s, relic_gff_tstruct **out)
{
    const relic_gff_doc *d = t->d;
    relic_gff_tstruct *ts = relic_arena_alloc(t->a, sizeof *ts, 8);
    if (!ts) return nomem(t);
    relic_gff_struct_view sv = relic_gff_structs_at(&d->v, s);
    ts->id = relic_gff_struct_id(sv);
    ts->field_count = relic_gff_struct_field_count(sv);
    ts->src_index = s;
    ts->src_data = relic_gff_struct_data_or_data_offset(sv);
    ts->fields = relic_arena_array(t->a, ts->field_count ? ts->field_count : 1, sizeof *ts->fields, 8);
    if (!ts->fields) return nomem(t);
    for (uint32_t i = 0; i < ts->field_count; i++) {
        relic_status st = build_field(t, relic_gff_struct_field(d, s, i), &ts->fields[i]);
        if (st != RELIC_OK) return st;
    }
    *out = ts;
    return RELIC_OK;
}

relic_status relic_gff_tree_from_doc(const relic_gff_doc *d, relic_arena *a, relic_gff_tree *out, relic_error *err)
{
    tstate t = {d, a, err, 0};
    memset(out, 0, sizeof *out);
    memcpy(out->file_type, d->v.header, 4);
    out->src_struct_count = d->struct_count;
    out->src_field_count = d->field_count;
    out->src_label_count = (uint32_t)d->v.labels_count;
    out->src_field_data_size = (uint32_t)d->v.field_data_count;
    out->src_field_indices_size = (uint32_t)d->v.field_indices_count * 4;
    out->src_list_indices_size = (uint32_t)d->v.list_indices_count * 4;
    out->src_labels = (const char(*)[16])(const void *)d->v.labels;
    if (d->v.labels_count) {
        char(*labels)[16] = relic_arena_array(a, d->v.labels_count, 16, 1);
        if (!labels) return nomem(&t);
        memcpy(labels, d->v.labels, d->v.labels_count * 16);
        out->src_labels = (const char(*)[16])labels;
    }
    /* the whole file, for a rewrite that keeps what nothing refers to */
    uint8_t *file = relic_arena_alloc(a, d->v.size ? d->v.size : 1, 8);
    if (!file) return nomem(&t);
    memcpy(file, d->v.base, d->v.size);
    out->src_file = file;
    out->src_size = d->v.size;
    out->src_reachable_structs = d->reachable;
    out->family = relic_gff_detect_family(d);
    relic_status st = build_struct(&t, 0, &out->root);
    out->src_reachable_fields = t.fields;
    return st;
}
