/* gff_order.c — the order record of a GFF whose records are not where its
 * layout family puts them (relic_gff_order): derived from a file by
 * walking it the way the family's writer (gff_write.c) walks a tree, and
 * applied by moving the writer's records to the positions it gives. The
 * format leaves the order of all six arrays free (BioWare, *Aurora engine
 * specifications*, GFF §3); files edited by a tool that appends what it
 * adds (PyKotor's GUI and dialogue edits, a KotOR module's paths) keep
 * their records in the order they were added. */
#include <stdio.h>
#include <string.h>

#include "gff_order.h"

const char *const relic_gff_order_names[RELIC_GFF_ORDER_KINDS] = {
    "structs",
    "fields",
    "labels",
    "field_data",
    "field_indices",
    "list_indices",
};

int relic_gff_order_used(const relic_gff_order *o)
{
    if (!o) return 0;
    for (int k = 0; k < RELIC_GFF_ORDER_KINDS; k++)
        if (o->nruns[k]) return 1;
    return 0;
}

/* 1 when a field of this type keeps its value in the field data. */
static int in_field_data(uint32_t type)
{
    switch (type) {
    case RELIC_GFF_FIELD_TYPE_DWORD64:
    case RELIC_GFF_FIELD_TYPE_INT64:
    case RELIC_GFF_FIELD_TYPE_DOUBLE:
    case RELIC_GFF_FIELD_TYPE_CEXOSTRING:
    case RELIC_GFF_FIELD_TYPE_RESREF:
    case RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING:
    case RELIC_GFF_FIELD_TYPE_VOID:
    case RELIC_GFF_FIELD_TYPE_ORIENTATION:
    case RELIC_GFF_FIELD_TYPE_VECTOR:
        return 1;
    default: return 0;
    }
}

/* ---------------------------------------------------------------------- */
/* From a file                                                            */
/* ---------------------------------------------------------------------- */

/* Bytes of a validated field's value in the field data. */
static uint64_t value_bytes(const relic_gff_doc *d, uint32_t type, uint32_t off)
{
    const uint8_t *p = d->v.field_data + off;
    switch (type) {
    case RELIC_GFF_FIELD_TYPE_CEXOSTRING:
    case RELIC_GFF_FIELD_TYPE_VOID:
    case RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING:
        return 4 + (uint64_t)relic_load_u32le(p);
    case RELIC_GFF_FIELD_TYPE_RESREF: return 1 + (uint64_t)p[0];
    case RELIC_GFF_FIELD_TYPE_ORIENTATION: return 16;
    case RELIC_GFF_FIELD_TYPE_VECTOR: return 12;
    default: return 8;
    }
}

/* A walk of the file in the family's writing order. The counters number
 * the records as the writer would. With the arrays NULL it only notices
 * whether the file differs: a struct or field index other than the
 * writer's number, a label first used out of turn, a datum, block or list
 * record at an offset not above the previous one (offsets rising in
 * writing order are the writer's order; gaps are found, and left alone,
 * by the second walk). With the arrays it records, per writer number, the
 * file's record (struct, field, the field holding a datum or list, the
 * struct of a block) and, per file label, the writer's label number + 1. */
typedef struct walk {
    const relic_gff_doc *d;
    const relic_gff_family *fam;
    uint32_t ns, nf, nl, nd, nb, nli;
    int64_t d_last, fi_last, li_last; /* offset of the previous datum, block, list record; -1 before the first */
    int differs;
    uint32_t *s_file, *f_file, *l_num, *d_field, *b_struct, *li_field;
} walk;

static uint32_t word(const uint8_t *p) { return relic_load_u32le(p); }

static void walk_block(walk *w, uint32_t s)
{
    int64_t off = word(w->d->v.structs + 12 * (size_t)s + 4);
    if (off <= w->fi_last) w->differs = 1;
    w->fi_last = off;
    if (w->b_struct) w->b_struct[w->nb] = s;
    w->nb++;
}

static void walk_entry(walk *w, uint32_t f)
{
    const uint8_t *fp = w->d->v.fields + 12 * (size_t)f;
    uint32_t type = word(fp), label = word(fp + 4), data = word(fp + 8);
    if (f != w->nf) w->differs = 1;
    if (w->f_file) w->f_file[w->nf] = f;
    w->nf++;
    if (w->l_num) {
        if (!w->l_num[label]) w->l_num[label] = ++w->nl;
    } else if (label == w->nl) {
        w->nl++; /* first use, in order */
    } else if (label > w->nl) {
        w->differs = 1;
    }
    if (in_field_data(type)) {
        if ((int64_t)data <= w->d_last) w->differs = 1;
        w->d_last = data;
        if (w->d_field) w->d_field[w->nd] = f;
        w->nd++;
    } else if (type == RELIC_GFF_FIELD_TYPE_LIST) {
        if ((int64_t)data <= w->li_last) w->differs = 1;
        w->li_last = data;
        if (w->li_field) w->li_field[w->nli] = f;
        w->nli++;
    }
}

/* Mirrors put_struct in gff_write.c (depth bounded by validation). */
static void walk_struct(walk *w, uint32_t s)
{
    const relic_gff_doc *d = w->d;
    relic_gff_fi_placement fi = w->fam->fi_placement;
    uint32_t n = relic_gff_doc_struct_field_count(d, s);
    if (s != w->ns) w->differs = 1;
    if (w->s_file) w->s_file[w->ns] = s;
    w->ns++;
    if (n > 1 && fi == RELIC_GFF_FI_PRE) walk_block(w, s);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t f = relic_gff_struct_field(d, s, i);
        const uint8_t *fp = d->v.fields + 12 * (size_t)f;
        uint32_t type = word(fp), data = word(fp + 8);
        int after = type == RELIC_GFF_FIELD_TYPE_STRUCT && w->fam->struct_entry_after_child;
        if (after) walk_struct(w, data);
        walk_entry(w, f);
        if (n > 1 && i == n - 1 && fi == RELIC_GFF_FI_LAST_ENTRY) walk_block(w, s);
        if (after) continue;
        if (type == RELIC_GFF_FIELD_TYPE_STRUCT) {
            walk_struct(w, data);
        } else if (type == RELIC_GFF_FIELD_TYPE_LIST) {
            const uint8_t *rec = d->v.list_indices + data;
            uint32_t count = word(rec);
            for (uint32_t k = 0; k < count; k++) walk_struct(w, word(rec + 4 + 4 * (size_t)k));
        }
    }
    if (n > 1 && fi == RELIC_GFF_FI_POST) walk_block(w, s);
}

/* Field types whose value lies in the field data, as a bit mask. */
#define DATA_TYPES                                                                                               \
    (1u << RELIC_GFF_FIELD_TYPE_DWORD64 | 1u << RELIC_GFF_FIELD_TYPE_INT64 | 1u << RELIC_GFF_FIELD_TYPE_DOUBLE | \
     1u << RELIC_GFF_FIELD_TYPE_CEXOSTRING | 1u << RELIC_GFF_FIELD_TYPE_RESREF |                                 \
     1u << RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING | 1u << RELIC_GFF_FIELD_TYPE_VOID |                                \
     1u << RELIC_GFF_FIELD_TYPE_ORIENTATION | 1u << RELIC_GFF_FIELD_TYPE_VECTOR)

/* The first walk for the families whose Struct field entries come before
 * their struct (all but neverwinter.nim's), where every JSON print runs it:
 * the checks of walk_struct, with the recording left out, a stop at the
 * first difference, and the counters in locals between descents (the
 * byte loads could alias them). Returns 0 when the file differs. */
static int quick_struct(walk *w, uint32_t s)
{
    const relic_gff_doc *d = w->d;
    const uint8_t *sr = d->v.structs + 12 * (size_t)s;
    uint32_t n = word(sr + 8), data = word(sr + 4);
    relic_gff_fi_placement fi = w->fam->fi_placement;
    if (s != w->ns++) return 0;
    if (n > 1 && fi == RELIC_GFF_FI_PRE) {
        if ((int64_t)data <= w->fi_last) return 0;
        w->fi_last = data;
    }
    const uint8_t *fil = d->v.field_indices + (n > 1 ? data : 0), *fields = d->v.fields;
    /* the block after the last entry (before its children) */
    uint32_t block_at = n > 1 && fi == RELIC_GFF_FI_LAST_ENTRY ? n - 1 : UINT32_MAX;
    uint32_t nf = w->nf, nl = w->nl;
    int64_t d_last = w->d_last;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t f = n == 1 ? data : word(fil + 4 * (size_t)i);
        const uint8_t *fp = fields + 12 * (size_t)f;
        uint32_t type = word(fp), label = word(fp + 4), fd = word(fp + 8);
        if (f != nf++) return 0;
        if (label >= nl) {
            if (label != nl) return 0;
            nl++;
        }
        if (i == block_at) {
            if ((int64_t)data <= w->fi_last) return 0;
            w->fi_last = data;
        }
        if (DATA_TYPES >> type & 1) {
            if ((int64_t)fd <= d_last) return 0;
            d_last = fd;
        } else if (type == RELIC_GFF_FIELD_TYPE_STRUCT || type == RELIC_GFF_FIELD_TYPE_LIST) {
            w->nf = nf;
            w->nl = nl;
            w->d_last = d_last;
            if (type == RELIC_GFF_FIELD_TYPE_STRUCT) {
                if (!quick_struct(w, fd)) return 0;
            } else {
                if ((int64_t)fd <= w->li_last) return 0;
                w->li_last = fd;
                const uint8_t *rec = d->v.list_indices + fd;
                uint32_t count = word(rec);
                for (uint32_t k = 0; k < count; k++)
                    if (!quick_struct(w, word(rec + 4 + 4 * (size_t)k))) return 0;
            }
            nf = w->nf;
            nl = w->nl;
            d_last = w->d_last;
        }
    }
    w->nf = nf;
    w->nl = nl;
    w->d_last = d_last;
    if (n > 1 && fi == RELIC_GFF_FI_POST) {
        if ((int64_t)data <= w->fi_last) return 0;
        w->fi_last = data;
    }
    return 1;
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int label_cmp(const void *a, const void *b) { return memcmp(a, b, 16); }

/* The runs of perm (file position -> writer number, n entries) into
 * o's kind; nothing when it is the identity. */
static relic_status set_runs(relic_gff_order *o, int kind, const uint32_t *perm, uint32_t n, relic_arena *a,
                             relic_error *err)
{
    uint32_t nruns = 0;
    for (uint32_t p = 0; p < n; p++) nruns += p == 0 || perm[p] != perm[p - 1] + 1;
    if (nruns == 0 || (nruns == 1 && perm[0] == 0)) return RELIC_OK;
    uint32_t *r = relic_arena_array(a, (size_t)nruns * 2, 4, 4);
    if (!r) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory recording a GFF's order");
    uint32_t k = 0;
    for (uint32_t p = 0; p < n; p++) {
        if (p == 0 || perm[p] != perm[p - 1] + 1) {
            r[2 * k] = perm[p];
            r[2 * k + 1] = 0;
            k++;
        }
        r[2 * k - 1]++;
    }
    o->runs[kind] = r;
    o->nruns[kind] = nruns;
    return RELIC_OK;
}

/* perm[p] = the writer number of the record at the p-th lowest offset,
 * when the records (offset, size) tile [0, total) exactly; 0 otherwise
 * (a gap or a shared datum: no order reproduces the file). keys is
 * scratch of n entries. */
static int by_offset(uint64_t *keys, const uint32_t *off, const uint64_t *size, uint32_t n, uint64_t total,
                     uint32_t *perm, relic_arena *a, relic_status *st, relic_error *err)
{
    for (uint32_t k = 0; k < n; k++) keys[k] = (uint64_t)off[k] << 32 | k;
    if ((*st = relic_sort(keys, n, 8, u64_cmp, a)) != RELIC_OK) {
        relic_fail(err, *st, 0, NULL, "out of memory recording a GFF's order");
        return 0;
    }
    uint64_t pos = 0;
    for (uint32_t p = 0; p < n; p++) {
        uint32_t k = (uint32_t)keys[p];
        if (keys[p] >> 32 != pos) return 0;
        pos += size[k];
        perm[p] = k;
    }
    return pos == total;
}

relic_status relic_gff_order_of(const relic_gff_doc *d, relic_gff_layout family, relic_arena *scratch,
                                relic_gff_order *out, relic_error *err)
{
    memset(out, 0, sizeof *out);
    walk w;
    memset(&w, 0, sizeof w);
    w.d = d;
    w.fam = relic_gff_family_of(family);
    w.d_last = w.fi_last = w.li_last = -1;
    if (!w.fam->struct_entry_after_child) {
        if (quick_struct(&w, 0)) return RELIC_OK; /* the family's own order */
        w.ns = w.nf = w.nl = 0;
        w.d_last = w.fi_last = w.li_last = -1;
    }
    walk_struct(&w, 0);
    /* the family's own order; or records no struct reaches, which no order can bring back */
    if (!w.differs || w.ns != d->struct_count || w.nf != d->field_count) return RELIC_OK;

    uint32_t ns = d->struct_count, nf = d->field_count, nlab = (uint32_t)d->v.labels_count;
    size_t big = (size_t)(ns > nf ? ns : nf) + 1;
    w.s_file = relic_arena_array(scratch, ns, 4, 4);
    w.f_file = relic_arena_array(scratch, nf, 4, 4);
    w.l_num = relic_arena_array(scratch, nlab ? nlab : 1, 4, 4);
    w.d_field = relic_arena_array(scratch, nf, 4, 4);
    w.b_struct = relic_arena_array(scratch, ns, 4, 4);
    w.li_field = relic_arena_array(scratch, nf, 4, 4);
    uint32_t *perm = relic_arena_array(scratch, big, 4, 4), *off = relic_arena_array(scratch, big, 4, 4);
    uint64_t *size = relic_arena_array(scratch, big, 8, 8), *keys = relic_arena_array(scratch, big, 8, 8);
    char(*labels)[16] = relic_arena_array(scratch, nlab ? nlab : 1, 16, 8);
    if (!w.s_file || !w.f_file || !w.l_num || !w.d_field || !w.b_struct || !w.li_field || !perm || !off || !size ||
        !keys || !labels)
        return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory recording a GFF's order");
    w.ns = w.nf = w.nl = w.nd = w.nb = w.nli = 0;
    walk_struct(&w, 0);

    /* labels: each used, texts distinct (the writer keeps one label per text) */
    if (w.nl != nlab) return RELIC_OK;
    for (uint32_t l = 0; l < nlab; l++) {
        const uint8_t *p = d->v.labels + 16 * (size_t)l;
        size_t len = 0;
        while (len < 16 && p[len]) len++;
        memset(labels[l], 0, 16);
        memcpy(labels[l], p, len);
    }
    relic_status st = relic_sort(labels, nlab, 16, label_cmp, scratch);
    if (st != RELIC_OK) return relic_fail(err, st, 0, NULL, "out of memory recording a GFF's order");
    for (uint32_t l = 1; l < nlab; l++)
        if (memcmp(labels[l - 1], labels[l], 16) == 0) return RELIC_OK;

    relic_gff_order o;
    memset(&o, 0, sizeof o);
    for (uint32_t c = 0; c < ns; c++) perm[w.s_file[c]] = c;
    if ((st = set_runs(&o, RELIC_GFF_ORDER_STRUCTS, perm, ns, scratch, err)) != RELIC_OK) return st;
    for (uint32_t c = 0; c < nf; c++) perm[w.f_file[c]] = c;
    if ((st = set_runs(&o, RELIC_GFF_ORDER_FIELDS, perm, nf, scratch, err)) != RELIC_OK) return st;
    for (uint32_t l = 0; l < nlab; l++) perm[l] = w.l_num[l] - 1;
    if ((st = set_runs(&o, RELIC_GFF_ORDER_LABELS, perm, nlab, scratch, err)) != RELIC_OK) return st;

    /* field data: the values tile it */
    for (uint32_t k = 0; k < w.nd; k++) {
        const uint8_t *fp = d->v.fields + 12 * (size_t)w.d_field[k];
        off[k] = word(fp + 8);
        size[k] = value_bytes(d, word(fp), off[k]);
    }
    if (!by_offset(keys, off, size, w.nd, d->v.field_data_count, perm, scratch, &st, err)) return st;
    if ((st = set_runs(&o, RELIC_GFF_ORDER_FIELD_DATA, perm, w.nd, scratch, err)) != RELIC_OK) return st;
    /* field indices: the blocks of structs of 2+ fields tile them */
    for (uint32_t k = 0; k < w.nb; k++) {
        off[k] = word(d->v.structs + 12 * (size_t)w.b_struct[k] + 4);
        size[k] = 4 * (uint64_t)relic_gff_doc_struct_field_count(d, w.b_struct[k]);
    }
    if (!by_offset(keys, off, size, w.nb, 4 * (uint64_t)d->v.field_indices_count, perm, scratch, &st, err)) return st;
    if ((st = set_runs(&o, RELIC_GFF_ORDER_FIELD_INDICES, perm, w.nb, scratch, err)) != RELIC_OK) return st;
    /* list indices: the records of the List fields tile them */
    for (uint32_t k = 0; k < w.nli; k++) {
        off[k] = word(d->v.fields + 12 * (size_t)w.li_field[k] + 8);
        size[k] = 4 + 4 * (uint64_t)word(d->v.list_indices + off[k]);
    }
    if (!by_offset(keys, off, size, w.nli, 4 * (uint64_t)d->v.list_indices_count, perm, scratch, &st, err)) return st;
    if ((st = set_runs(&o, RELIC_GFF_ORDER_LIST_INDICES, perm, w.nli, scratch, err)) != RELIC_OK) return st;
    *out = o;
    return RELIC_OK;
}

/* ---------------------------------------------------------------------- */
/* Onto a writer's arrays                                                 */
/* ---------------------------------------------------------------------- */

/* Kind k's runs as perm (file position -> writer number) and inv (writer
 * number -> file position), n entries each; the identity when no runs. */
static relic_status expand(const relic_gff_order *o, int k, uint32_t n, uint32_t *perm, uint32_t *inv,
                           relic_error *err)
{
    const char *name = relic_gff_order_names[k];
    char path[32];
    snprintf(path, sizeof path, "__layout.%s", name);
    if (!o->nruns[k]) {
        for (uint32_t i = 0; i < n; i++) perm[i] = inv[i] = i;
        return RELIC_OK;
    }
    if (!o->runs[k]) return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "%s: no runs", name);
    uint64_t total = 0;
    for (uint32_t r = 0; r < o->nruns[k]; r++) total += o->runs[k][2 * r + 1];
    if (total != n)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "%s: the runs list %llu records where the tree has %u",
                          name, (unsigned long long)total, n);
    for (uint32_t i = 0; i < n; i++) inv[i] = RELIC_GFF_NONE;
    uint32_t p = 0;
    for (uint32_t r = 0; r < o->nruns[k]; r++) {
        uint32_t first = o->runs[k][2 * r], count = o->runs[k][2 * r + 1];
        if (first > n || count > n - first)
            return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "%s: run %u (%u, %u) goes beyond the tree's %u records",
                              name, r, first, count, n);
        for (uint32_t i = 0; i < count; i++) {
            if (inv[first + i] != RELIC_GFF_NONE)
                return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "%s: run %u lists %u a second time (not a permutation)",
                                  name, r, first + i);
            inv[first + i] = p;
            perm[p++] = first + i;
        }
    }
    return RELIC_OK;
}

/* New offsets of records (off, size) laid out in perm's order from 0. */
static void relay(const uint32_t *perm, const uint32_t *size, uint32_t n, uint32_t *noff)
{
    uint32_t pos = 0;
    for (uint32_t p = 0; p < n; p++) {
        noff[perm[p]] = pos;
        pos += size[perm[p]];
    }
}

relic_status gff_order_apply(const relic_gff_order *o, relic_buf *structs, relic_buf *fields, relic_buf *labels,
                             relic_buf *data, relic_buf *fi, relic_buf *li, relic_arena *scratch, relic_error *err)
{
    uint32_t ns = (uint32_t)(structs->size / 12), nf = (uint32_t)(fields->size / 12);
    uint32_t nl = (uint32_t)(labels->size / 16), nfi = (uint32_t)(fi->size / 4);
    uint32_t nd = 0, nli = 0, nb = 0;
    size_t big = (size_t)(ns > nf ? ns : nf) + (nl > 0 ? nl : 1);
    /* per writer number: the datum, list record or block it owns and where each lies */
    uint32_t *rank = relic_arena_array(scratch, (size_t)nf + ns, 4, 4); /* field -> datum/list number; struct -> block number */
    uint32_t *off[3], *size[3], *noff[3], *perm[6], *inv[6];
    uint32_t *at_word = relic_arena_array(scratch, (size_t)nfi + 1, 4, 4); /* block start word -> struct + 1 */
    uint8_t *tmp = relic_arena_alloc(scratch, 1 + (data->size > fi->size ? (data->size > li->size ? data->size : li->size) : (fi->size > li->size ? fi->size : li->size)) + structs->size + fields->size + labels->size, 8);
    int ok = rank && at_word && tmp;
    for (int k = 0; k < 3; k++) {
        off[k] = relic_arena_array(scratch, big, 4, 4);
        size[k] = relic_arena_array(scratch, big, 4, 4);
        noff[k] = relic_arena_array(scratch, big, 4, 4);
        ok &= off[k] && size[k] && noff[k];
    }
    for (int k = 0; k < 6; k++) {
        perm[k] = relic_arena_array(scratch, big, 4, 4);
        inv[k] = relic_arena_array(scratch, big, 4, 4);
        ok &= perm[k] && inv[k];
    }
    if (!ok) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory writing a GFF in its recorded order");
    enum { D,
           B,
           L };
    /* data and list records lie in field order (the writer appends them with their field) */
    for (uint32_t f = 0; f < nf; f++) {
        const uint8_t *fp = fields->data + 12 * (size_t)f;
        uint32_t type = word(fp), datum = word(fp + 8);
        if (in_field_data(type)) {
            rank[f] = nd;
            off[D][nd++] = datum;
        } else if (type == RELIC_GFF_FIELD_TYPE_LIST) {
            rank[f] = nli;
            off[L][nli] = datum;
            size[L][nli++] = 4 + 4 * word(li->data + datum);
        }
    }
    for (uint32_t k = 0; k < nd; k++) size[D][k] = (k + 1 < nd ? off[D][k + 1] : (uint32_t)data->size) - off[D][k];
    /* blocks lie in the family's placement order: numbered by offset */
    for (uint32_t s = 0; s < ns; s++)
        if (word(structs->data + 12 * (size_t)s + 8) > 1) at_word[word(structs->data + 12 * (size_t)s + 4) / 4] = s + 1;
    for (uint32_t w = 0; w < nfi; w++)
        if (at_word[w]) {
            uint32_t s = at_word[w] - 1;
            rank[nf + s] = nb;
            off[B][nb] = 4 * w;
            size[B][nb++] = 4 * word(structs->data + 12 * (size_t)s + 8);
        }
    relic_status st;
    const uint32_t counts[6] = {ns, nf, nl, nd, nb, nli};
    for (int k = 0; k < 6; k++)
        if ((st = expand(o, k, counts[k], perm[k], inv[k], err)) != RELIC_OK) return st;
    if (inv[RELIC_GFF_ORDER_STRUCTS][0] != 0)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "__layout.structs",
                          "structs: the top-level struct (0) must stay first, it is put at %u",
                          inv[RELIC_GFF_ORDER_STRUCTS][0]);
    relay(perm[RELIC_GFF_ORDER_FIELD_DATA], size[D], nd, noff[D]);
    relay(perm[RELIC_GFF_ORDER_FIELD_INDICES], size[B], nb, noff[B]);
    relay(perm[RELIC_GFF_ORDER_LIST_INDICES], size[L], nli, noff[L]);
    const uint32_t *is = inv[RELIC_GFF_ORDER_STRUCTS], *ifl = inv[RELIC_GFF_ORDER_FIELDS];

    /* field data: the values moved whole */
    uint8_t *q = tmp;
    for (uint32_t p = 0; p < nd; p++) {
        uint32_t k = perm[RELIC_GFF_ORDER_FIELD_DATA][p];
        memcpy(q, data->data + off[D][k], size[D][k]);
        q += size[D][k];
    }
    if (data->size) memcpy(data->data, tmp, data->size);
    /* field indices: blocks moved, each word renumbered */
    q = tmp;
    for (uint32_t p = 0; p < nb; p++) {
        uint32_t k = perm[RELIC_GFF_ORDER_FIELD_INDICES][p];
        for (uint32_t i = 0; i < size[B][k] / 4; i++, q += 4) relic_store_u32le(q, ifl[word(fi->data + off[B][k] + 4 * i)]);
    }
    if (fi->size) memcpy(fi->data, tmp, fi->size);
    /* list indices: records moved, each element renumbered */
    q = tmp;
    for (uint32_t p = 0; p < nli; p++) {
        uint32_t k = perm[RELIC_GFF_ORDER_LIST_INDICES][p];
        const uint8_t *rec = li->data + off[L][k];
        relic_store_u32le(q, word(rec));
        for (uint32_t i = 1; i < size[L][k] / 4; i++) relic_store_u32le(q + 4 * i, is[word(rec + 4 * i)]);
        q += size[L][k];
    }
    if (li->size) memcpy(li->data, tmp, li->size);
    /* the records themselves, their references renumbered */
    uint8_t *ts = tmp, *tf = tmp + structs->size, *tl = tf + fields->size;
    for (uint32_t p = 0; p < ns; p++) {
        uint32_t c = perm[RELIC_GFF_ORDER_STRUCTS][p];
        const uint8_t *r = structs->data + 12 * (size_t)c;
        uint32_t n = word(r + 8), datum = word(r + 4);
        memcpy(ts + 12 * (size_t)p, r, 12);
        if (n == 1) relic_store_u32le(ts + 12 * (size_t)p + 4, ifl[datum]);
        else if (n > 1) relic_store_u32le(ts + 12 * (size_t)p + 4, noff[B][rank[nf + c]]);
    }
    for (uint32_t p = 0; p < nf; p++) {
        uint32_t c = perm[RELIC_GFF_ORDER_FIELDS][p];
        const uint8_t *r = fields->data + 12 * (size_t)c;
        uint32_t type = word(r), datum = word(r + 8);
        uint8_t *w = tf + 12 * (size_t)p;
        relic_store_u32le(w, type);
        relic_store_u32le(w + 4, inv[RELIC_GFF_ORDER_LABELS][word(r + 4)]);
        if (in_field_data(type)) datum = noff[D][rank[c]];
        else if (type == RELIC_GFF_FIELD_TYPE_LIST) datum = noff[L][rank[c]];
        else if (type == RELIC_GFF_FIELD_TYPE_STRUCT) datum = is[datum];
        relic_store_u32le(w + 8, datum);
    }
    for (uint32_t p = 0; p < nl; p++) memcpy(tl + 16 * (size_t)p, labels->data + 16 * (size_t)perm[RELIC_GFF_ORDER_LABELS][p], 16);
    memcpy(structs->data, ts, structs->size);
    memcpy(fields->data, tf, fields->size);
    if (labels->size) memcpy(labels->data, tl, labels->size);
    return RELIC_OK;
}
