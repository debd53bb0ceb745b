/* gff_tree_mutate.c — the structure-aware GFF mutator (issue 8;
 * relic_gff_mutate in relic_mutate_formats.h): a validated GFF V3.2 file is
 * read into its tree (gff_tree.c), one to three changes are made to the
 * tree (values set to boundary values of their field type, types changed,
 * fields dropped, duplicated or reordered, list elements duplicated,
 * removed or swapped, StructIDs and labels edited, locstring substrings
 * edited, structs and list elements spliced from a second file), and the
 * tree is written by relic_gff_write_tree, which recomputes every count and
 * offset; files of a typed FileType get some changes from their typed schema
 * (gff_schema_mutate.c). Field types and their data: BioWare GFF spec §4; xoreos, src/aurora/gff3file.h; neverwinter.nim, gff.nim, util.nim; xoreos-tools, src/aurora/language.cpp (text encodings), nwn-lib-d, gff.d; xoreos, gff3writer.cpp (layouts the writer produces).
 * Every edited array, string and struct is allocated anew from the arena,
 * so structs shared by a splice are never changed behind another's back;
 * splices and duplications are deep copies with a field budget. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gff_schema_mutate.h"
#include "mutate_arena.h"
#include "relic_gff.h"
#include "relic_mutate_formats.h"

#define GFF_MUT_TRIES 16
#define GFF_MUT_COPY_BUDGET 4096u /* fields copied by one splice or duplication */
#define GFF_MUT_GROW 1024u        /* most bytes a string grows by */
#define GFF_MUT_MAX_NODES 65536u  /* structs (and fields) indexed per pass */
#define GFF_MUT_SMALL 16384u      /* larger inputs are made smaller more often */

/* One struct reached from the root: how (for paths) and at what depth. */
typedef struct snode {
    relic_gff_tstruct *s;
    int32_t parent; /* node index, -1 for the root */
    uint32_t field; /* the parent's field holding it */
    int64_t elem;   /* list element index, -1 for a struct field */
    uint32_t depth;
} snode;

/* A field: struct node and field index. */
typedef struct fref {
    uint32_t node, index;
} fref;

typedef struct gctx {
    uint64_t rng;
    relic_arena *a;
    relic_mutate_result *res;
    snode *nodes;
    uint32_t nnodes;
    fref *fields;
    uint32_t nfields;
    uint32_t lists; /* fields of type LIST with elements */
    snode *donor;   /* the second tree's structs (or NULL) */
    uint32_t ndonor;
    uint32_t budget;            /* fields left to copy */
    uint32_t max;               /* entries of nodes and fields */
    const relic_gff_schema *sc; /* the typed schema of the file's FileType, or NULL */
    int nomem;
} gctx;

static uint64_t rnd(gctx *c) { return relic_mutate_rand(&c->rng); }
static uint64_t below(gctx *c, uint64_t n) { return n ? rnd(c) % n : 0; }

static void *alloc(gctx *c, size_t n)
{
    void *p = relic_arena_alloc(c->a, n ? n : 1, 8);
    if (!p) c->nomem = 1;
    return p;
}

/* ---- indexing the tree ---- */

static uint32_t index_tree(relic_gff_tstruct *root, snode *nodes, uint32_t max, fref *fields, uint32_t *nfields,
                           uint32_t *lists)
{
    uint32_t n = 0, nf = 0, nl = 0;
    if (!root || max == 0) return 0;
    nodes[n++] = (snode){root, -1, 0, -1, 0};
    /* breadth-first: the node array is the queue */
    for (uint32_t q = 0; q < n; q++) {
        relic_gff_tstruct *s = nodes[q].s;
        if (nodes[q].depth >= RELIC_GFF_MAX_DEPTH) continue;
        for (uint32_t i = 0; i < s->field_count; i++) {
            relic_gff_tfield *f = &s->fields[i];
            if (fields && nf < max) fields[nf++] = (fref){q, i};
            if (f->type == RELIC_GFF_FIELD_TYPE_STRUCT && f->v.child && n < max)
                nodes[n++] = (snode){f->v.child, (int32_t)q, i, -1, nodes[q].depth + 1};
            if (f->type == RELIC_GFF_FIELD_TYPE_LIST) {
                if (f->v.list.count) nl++;
                for (size_t k = 0; k < f->v.list.count && n < max; k++)
                    if (f->v.list.items[k])
                        nodes[n++] = (snode){f->v.list.items[k], (int32_t)q, i, (int64_t)k, nodes[q].depth + 1};
            }
        }
    }
    if (nfields) *nfields = nf;
    if (lists) *lists = nl;
    return n;
}

static int reindex(gctx *c, relic_gff_tstruct *root)
{
    c->nnodes = index_tree(root, c->nodes, c->max, c->fields, &c->nfields, &c->lists);
    return c->nnodes != 0;
}

/* The path of node k (Creature_List[2].Equip_ItemList[0]) into b. */
static size_t node_path(const gctx *c, const snode *nodes, int32_t k, char *b, size_t n)
{
    if (k < 0 || nodes[k].parent < 0) {
        if (n) b[0] = 0;
        return 0;
    }
    size_t at = node_path(c, nodes, nodes[k].parent, b, n);
    const relic_gff_tfield *f = &nodes[nodes[k].parent].s->fields[nodes[k].field];
    int w = nodes[k].elem >= 0 ? snprintf(b + at, at < n ? n - at : 0, "%s%s[%lld]", at ? "." : "", f->label,
                                          (long long)nodes[k].elem)
                               : snprintf(b + at, at < n ? n - at : 0, "%s%s", at ? "." : "", f->label);
    at += w > 0 ? (size_t)w : 0;
    return at < n ? at : (n ? n - 1 : 0);
}

static void field_path(const gctx *c, fref r, char *b, size_t n)
{
    size_t at = node_path(c, c->nodes, (int32_t)r.node, b, n);
    snprintf(b + at, n - at, "%s%s", at ? "." : "", c->nodes[r.node].s->fields[r.index].label);
}

static relic_mutation *log_op(gctx *c, const char *path, const char *op)
{
    relic_mutate_result *r = c->res;
    if (!r || r->nlog >= RELIC_MUTATE_MAX_LOG) return NULL;
    relic_mutation *m = &r->log[r->nlog++];
    snprintf(m->path, sizeof m->path, "%s", path);
    snprintf(m->op, sizeof m->op, "%s", op);
    m->old_value[0] = m->new_value[0] = 0;
    return m;
}

/* ---- deep copies (bounded) ---- */

static relic_gff_tstruct *copy_struct(gctx *c, const relic_gff_tstruct *s, unsigned depth);

static int copy_field(gctx *c, relic_gff_tfield *dst, const relic_gff_tfield *src, unsigned depth)
{
    *dst = *src;
    dst->src_index = dst->src_label = dst->src_data = RELIC_GFF_NONE;
    if (src->type == RELIC_GFF_FIELD_TYPE_STRUCT) {
        dst->v.child = src->v.child ? copy_struct(c, src->v.child, depth + 1) : NULL;
        return src->v.child == NULL || dst->v.child != NULL;
    }
    if (src->type == RELIC_GFF_FIELD_TYPE_LIST) {
        size_t n = src->v.list.count;
        dst->v.list.items = alloc(c, (n ? n : 1) * sizeof *dst->v.list.items);
        if (!dst->v.list.items) return 0;
        for (size_t k = 0; k < n; k++) {
            dst->v.list.items[k] = src->v.list.items[k] ? copy_struct(c, src->v.list.items[k], depth + 1) : NULL;
            if (src->v.list.items[k] && !dst->v.list.items[k]) return 0;
        }
    }
    return 1; /* strings, blobs and locstring arrays are never edited in place: shared */
}

static relic_gff_tstruct *copy_struct(gctx *c, const relic_gff_tstruct *s, unsigned depth)
{
    if (depth > RELIC_GFF_MAX_DEPTH || s->field_count > c->budget) return NULL;
    c->budget -= s->field_count;
    relic_gff_tstruct *d = alloc(c, sizeof *d);
    if (!d) return NULL;
    *d = *s;
    d->src_index = d->src_data = RELIC_GFF_NONE;
    d->fields = alloc(c, (s->field_count ? s->field_count : 1) * sizeof *d->fields);
    if (!d->fields) return NULL;
    for (uint32_t i = 0; i < s->field_count; i++)
        if (!copy_field(c, &d->fields[i], &s->fields[i], depth)) return NULL;
    return d;
}

/* A struct to splice in: from the second tree when there is one, else from
 * this one; deep-copied. */
static relic_gff_tstruct *donor_struct(gctx *c, const char **from)
{
    const snode *pool = c->ndonor ? c->donor : c->nodes;
    uint32_t n = c->ndonor ? c->ndonor : c->nnodes;
    if (!n) return NULL;
    const relic_gff_tstruct *s = pool[below(c, n)].s;
    *from = c->ndonor ? "second input" : "this input";
    c->budget = GFF_MUT_COPY_BUDGET;
    return copy_struct(c, s, 0);
}

/* ---- values ---- */

static const char *type_name(uint32_t t)
{
    static const char *names[] = {"BYTE", "CHAR", "WORD", "SHORT", "DWORD", "INT", "DWORD64", "INT64", "FLOAT",
                                  "DOUBLE", "CExoString", "ResRef", "CExoLocString", "VOID", "Struct", "List",
                                  "Orientation", "Vector"};
    return t < 18 ? names[t] : "?";
}

static unsigned int_bytes(uint32_t t)
{
    switch (t) {
    case RELIC_GFF_FIELD_TYPE_BYTE:
    case RELIC_GFF_FIELD_TYPE_CHAR: return 1;
    case RELIC_GFF_FIELD_TYPE_WORD:
    case RELIC_GFF_FIELD_TYPE_SHORT: return 2;
    case RELIC_GFF_FIELD_TYPE_DWORD:
    case RELIC_GFF_FIELD_TYPE_INT: return 4;
    default: return 8;
    }
}
static int is_int(uint32_t t) { return t <= RELIC_GFF_FIELD_TYPE_INT64; }
static int is_signed_int(uint32_t t) { return is_int(t) && (t & 1u); }
static int is_bytes(uint32_t t)
{
    return t == RELIC_GFF_FIELD_TYPE_CEXOSTRING || t == RELIC_GFF_FIELD_TYPE_RESREF || t == RELIC_GFF_FIELD_TYPE_VOID;
}

/* A boundary value of an integer type of `bytes` bytes (unsigned: as u64;
 * signed: as i64), or one near old. */
static uint64_t int_value(gctx *c, unsigned bytes, int sg, uint64_t old)
{
    unsigned bits = bytes * 8;
    uint64_t umax = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    uint64_t smax = umax >> 1, smin = ~smax; /* as i64 bit patterns */
    switch (below(c, 12)) {
    case 0: return 0;
    case 1: return 1;
    case 2: return sg ? (uint64_t)-1 : umax;
    case 3: return sg ? smax : umax - 1;
    case 4: return sg ? smin : smax;
    case 5: return sg ? smin + 1 : smax + 1;
    case 6: return old + 1;
    case 7: return old - 1;
    case 8: return old ^ ((uint64_t)1 << below(c, bits));
    case 9: return RELIC_GFF_NONE; /* "none" in StrRefs, ids, object ids */
    case 10: return below(c, 64);  /* small: enum-like values */
    default: return rnd(c);
    }
}

static float float_value(gctx *c, float old)
{
    switch (below(c, 12)) {
    case 0: return 0.0f;
    case 1: return -0.0f;
    case 2: return 1.0f;
    case 3: return -1.0f;
    case 4: return NAN;
    case 5: return INFINITY;
    case 6: return -INFINITY;
    case 7: return FLT_MAX;
    case 8: return FLT_MIN / 2; /* denormal */
    case 9: return old * 2.0f;
    case 10: return -old;
    default: return (float)(int32_t)(uint32_t)rnd(c) / 65536.0f;
    }
}

static double double_value(gctx *c, double old)
{
    switch (below(c, 8)) {
    case 0: return 0.0;
    case 1: return -0.0;
    case 2: return NAN;
    case 3: return INFINITY;
    case 4: return DBL_MAX;
    case 5: return DBL_MIN / 2;
    case 6: return old * 2.0;
    default: return (double)(int64_t)rnd(c) / 4294967296.0;
    }
}

/* Bytes with special meaning to text readers and printers. */
static const uint8_t special[] = {0x00, 0x01, '\n', '\r', '\t', '"', '\\', '%', '/', 0x7F, 0x80, 0x81, 0x8D,
                                  0x9F, 0xA0, 0xC3, 0xE9, 0xED, 0xEF, 0xF0, 0xFF};

/* A new byte string made from p[0..n): emptied, cut, grown, or with bytes
 * replaced or inserted (invalid UTF-8 sequences, controls, quotes). max is
 * the longest result (0: no limit beyond GFF_MUT_GROW). */
static int bytes_value(gctx *c, const uint8_t *p, size_t n, size_t max, uint8_t **out, size_t *out_n)
{
    size_t grow = 1 + (size_t)below(c, below(c, 2) ? 17 : GFF_MUT_GROW);
    uint8_t *b = alloc(c, n + grow + 4);
    if (!b) return 0;
    if (n) memcpy(b, p, n);
    size_t m = n;
    switch (below(c, 8)) {
    case 0: m = 0; break;
    case 1: m = n ? (size_t)below(c, n) : 0; break;
    case 2: /* grow by repeating the text (or 'a') */
        for (size_t k = 0; k < grow; k++) b[m++] = n ? p[k % n] : 'a';
        break;
    case 3: /* replace a byte */
        if (!n) b[m++] = special[below(c, sizeof special)];
        else b[below(c, n)] = special[below(c, sizeof special)];
        break;
    case 4: { /* insert an invalid or unusual UTF-8 sequence */
        static const uint8_t seqs[][4] = {{0xC3, 0, 0, 1}, {0xED, 0xA0, 0x80, 3}, {0xF4, 0x90, 0x80, 3}, {0xC0, 0xAF, 0, 2}, {0xE2, 0x82, 0xAC, 3}, {0xEF, 0xBB, 0xBF, 3}};
        const uint8_t *s = seqs[below(c, sizeof seqs / sizeof seqs[0])];
        size_t at = (size_t)below(c, n + 1), k = s[3];
        memmove(b + at + k, b + at, n - at);
        memcpy(b + at, s, k);
        m = n + k;
        break;
    }
    case 5: /* swap two bytes */
        if (n >= 2) {
            size_t i = (size_t)below(c, n), j = (size_t)below(c, n);
            uint8_t t = b[i];
            b[i] = b[j];
            b[j] = t;
        } else b[m++] = 'A';
        break;
    case 6: /* case flip (ResRefs are lower case) */
        for (size_t k = 0; k < n; k++)
            if ((b[k] | 0x20) >= 'a' && (b[k] | 0x20) <= 'z') b[k] ^= 0x20;
        if (!n) b[m++] = 'Z';
        break;
    default: /* exact lengths: 16 and 17 (ResRef limits), 255, 256 */
        m = (size_t[]){16, 17, 255, 256}[below(c, 4)];
        b = alloc(c, m);
        if (!b) return 0;
        for (size_t k = 0; k < m; k++) b[k] = n ? p[k % n] : (uint8_t)('a' + k % 26);
        break;
    }
    if (max && m > max) m = max;
    *out = b;
    *out_n = m;
    return 1;
}

static void text_of(char *b, size_t n, const relic_gff_tfield *f)
{
    switch (f->type) {
    case RELIC_GFF_FIELD_TYPE_FLOAT: snprintf(b, n, "%.9g", (double)f->v.f32); break;
    case RELIC_GFF_FIELD_TYPE_DOUBLE: snprintf(b, n, "%.17g", f->v.f64); break;
    case RELIC_GFF_FIELD_TYPE_CEXOSTRING:
    case RELIC_GFF_FIELD_TYPE_RESREF:
    case RELIC_GFF_FIELD_TYPE_VOID:
        snprintf(b, n, "%zu bytes", f->v.bytes.n);
        break;
    case RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING:
        snprintf(b, n, "strref %u, %u substrings", (unsigned)f->v.loc.strref, (unsigned)f->v.loc.count);
        break;
    case RELIC_GFF_FIELD_TYPE_STRUCT: snprintf(b, n, "struct id %u", f->v.child ? (unsigned)f->v.child->id : 0u); break;
    case RELIC_GFF_FIELD_TYPE_LIST: snprintf(b, n, "%zu elements", f->v.list.count); break;
    case RELIC_GFF_FIELD_TYPE_ORIENTATION:
    case RELIC_GFF_FIELD_TYPE_VECTOR:
        snprintf(b, n, "%.9g %.9g %.9g", (double)f->v.vec[0], (double)f->v.vec[1], (double)f->v.vec[2]);
        break;
    default:
        if (is_signed_int(f->type)) snprintf(b, n, "%lld", (long long)f->v.i);
        else snprintf(b, n, "%llu", (unsigned long long)f->v.u);
    }
}

/* A new locstring from f's: StrRef, substring ids and texts, one added or
 * removed. */
static int loc_value(gctx *c, relic_gff_tfield *f)
{
    uint32_t n = f->v.loc.count;
    relic_gff_tsubstring *s = alloc(c, (n + 1) * sizeof *s);
    if (!s) return 0;
    if (n) memcpy(s, f->v.loc.s, n * sizeof *s);
    switch (below(c, 5)) {
    case 0: f->v.loc.strref = (uint32_t)int_value(c, 4, 0, f->v.loc.strref); break;
    case 1: /* add a substring: a language/gender pair, maybe one already there */
        s[n].string_id = below(c, 2) ? (uint32_t)below(c, 12) : (uint32_t)int_value(c, 4, 0, 0);
        if (n && below(c, 4) == 0) s[n].string_id = s[below(c, n)].string_id;
        if (!bytes_value(c, n ? s[0].text : NULL, n ? s[0].len : 0, 0, &s[n].text, &s[n].len)) return 0;
        n++;
        break;
    case 2: /* remove one */
        if (n) {
            uint32_t k = (uint32_t)below(c, n);
            memmove(s + k, s + k + 1, (n - k - 1) * sizeof *s);
            n--;
        }
        break;
    case 3: /* a substring's id */
        if (n) {
            relic_gff_tsubstring *t = &s[below(c, n)];
            t->string_id = below(c, 2) ? (uint32_t)int_value(c, 4, 0, t->string_id) : t->string_id ^ 1u;
        } else f->v.loc.strref = RELIC_GFF_NONE;
        break;
    default: /* a substring's text */
        if (n) {
            relic_gff_tsubstring *t = &s[below(c, n)];
            if (!bytes_value(c, t->text, t->len, 0, &t->text, &t->len)) return 0;
        } else f->v.loc.strref = 0;
    }
    f->v.loc.s = s;
    f->v.loc.count = n;
    return 1;
}

/* Set field f to a new value of its type. */
static int op_value(gctx *c, fref r)
{
    relic_gff_tfield *f = &c->nodes[r.node].s->fields[r.index];
    char path[160], before[96];
    field_path(c, r, path, sizeof path);
    text_of(before, sizeof before, f);
    switch (f->type) {
    case RELIC_GFF_FIELD_TYPE_FLOAT: f->v.f32 = float_value(c, f->v.f32); break;
    case RELIC_GFF_FIELD_TYPE_DOUBLE: f->v.f64 = double_value(c, f->v.f64); break;
    case RELIC_GFF_FIELD_TYPE_CEXOSTRING:
    case RELIC_GFF_FIELD_TYPE_VOID:
        if (!bytes_value(c, f->v.bytes.p, f->v.bytes.n, 0, &f->v.bytes.p, &f->v.bytes.n)) return 0;
        break;
    case RELIC_GFF_FIELD_TYPE_RESREF:
        if (!bytes_value(c, f->v.bytes.p, f->v.bytes.n, 255, &f->v.bytes.p, &f->v.bytes.n)) return 0;
        break;
    case RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING:
        if (!loc_value(c, f)) return 0;
        break;
    case RELIC_GFF_FIELD_TYPE_STRUCT:
        if (!f->v.child) return 0;
        {
            relic_gff_tstruct *s = alloc(c, sizeof *s);
            if (!s) return 0;
            *s = *f->v.child;
            s->id = (uint32_t)int_value(c, 4, 0, s->id);
            f->v.child = s;
        }
        break;
    case RELIC_GFF_FIELD_TYPE_LIST: return 0; /* list operations elsewhere */
    case RELIC_GFF_FIELD_TYPE_ORIENTATION:
    case RELIC_GFF_FIELD_TYPE_VECTOR: {
        unsigned k = (unsigned)below(c, f->type == RELIC_GFF_FIELD_TYPE_VECTOR ? 3 : 4);
        f->v.vec[k] = float_value(c, f->v.vec[k]);
        break;
    }
    default:
        f->v.u = int_value(c, int_bytes(f->type), is_signed_int(f->type), f->v.u);
        if (is_signed_int(f->type)) { /* sign-extend, as the tree holds it */
            unsigned bits = int_bytes(f->type) * 8;
            if (bits < 64) f->v.i = (int64_t)(f->v.u << (64 - bits)) >> (64 - bits);
        } else if (int_bytes(f->type) < 8) {
            f->v.u &= ((uint64_t)1 << (int_bytes(f->type) * 8)) - 1;
        }
    }
    relic_mutation *m = log_op(c, path, "set");
    if (m) {
        snprintf(m->old_value, sizeof m->old_value, "%s", before);
        text_of(m->new_value, sizeof m->new_value, f);
    }
    return 1;
}

/* Change f's type; the value is converted where both are numbers or both
 * bytes, else made anew. */
static int op_type(gctx *c, fref r)
{
    relic_gff_tfield *f = &c->nodes[r.node].s->fields[r.index];
    uint32_t old = f->type, t = (uint32_t)below(c, 18);
    if (t == old) t = (t + 1) % 18;
    char path[160];
    field_path(c, r, path, sizeof path);
    double num = is_int(old)                 ? (is_signed_int(old) ? (double)f->v.i : (double)f->v.u)
        : old == RELIC_GFF_FIELD_TYPE_FLOAT  ? (double)f->v.f32
        : old == RELIC_GFF_FIELD_TYPE_DOUBLE ? f->v.f64
                                             : 0.0;
    uint64_t bits = is_int(old) ? f->v.u : 0;
    uint8_t *bp = is_bytes(old) ? f->v.bytes.p : NULL;
    size_t bn = is_bytes(old) ? f->v.bytes.n : 0;
    memset(&f->v, 0, sizeof f->v);
    f->type = t;
    /* double -> float without an out-of-range conversion */
    float numf = fabs(num) <= FLT_MAX ? (float)num : isnan(num) ? NAN
        : num > 0                                               ? INFINITY
                                                                : -INFINITY;
    if (is_int(t)) {
        f->v.u = bits;
        if (int_bytes(t) < 8) {
            unsigned w = int_bytes(t) * 8;
            f->v.u &= ((uint64_t)1 << w) - 1;
            if (is_signed_int(t)) f->v.i = (int64_t)(f->v.u << (64 - w)) >> (64 - w);
        }
    } else if (t == RELIC_GFF_FIELD_TYPE_FLOAT) {
        f->v.f32 = numf;
    } else if (t == RELIC_GFF_FIELD_TYPE_DOUBLE) {
        f->v.f64 = num;
    } else if (is_bytes(t)) {
        if (!bp) {
            bn = strlen(f->label);
            bp = (uint8_t *)f->label; /* copied below */
        }
        if (t == RELIC_GFF_FIELD_TYPE_RESREF && bn > 255) bn = 255;
        f->v.bytes.p = alloc(c, bn);
        if (!f->v.bytes.p) return 0;
        if (bn) memcpy(f->v.bytes.p, bp, bn);
        f->v.bytes.n = bn;
    } else if (t == RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING) {
        f->v.loc.strref = RELIC_GFF_NONE;
        f->v.loc.s = alloc(c, sizeof *f->v.loc.s);
        if (!f->v.loc.s) return 0;
        if (bp) {
            f->v.loc.count = 1;
            f->v.loc.s[0] = (relic_gff_tsubstring){0, bp, bn};
        }
    } else if (t == RELIC_GFF_FIELD_TYPE_STRUCT) {
        const char *from;
        f->v.child = below(c, 2) ? donor_struct(c, &from) : NULL;
        if (!f->v.child) {
            f->v.child = alloc(c, sizeof *f->v.child);
            if (!f->v.child) return 0;
            *f->v.child = (relic_gff_tstruct){(uint32_t)below(c, 4), 0, NULL, RELIC_GFF_NONE, RELIC_GFF_NONE};
        }
    } else if (t == RELIC_GFF_FIELD_TYPE_LIST) {
        size_t n = (size_t)below(c, 3);
        f->v.list.items = alloc(c, (n ? n : 1) * sizeof *f->v.list.items);
        if (!f->v.list.items) return 0;
        const char *from;
        for (size_t k = 0; k < n; k++) {
            relic_gff_tstruct *s = donor_struct(c, &from);
            if (!s) break;
            f->v.list.items[f->v.list.count++] = s;
        }
    } else { /* orientation, vector */
        for (int k = 0; k < 4; k++) f->v.vec[k] = numf;
    }
    relic_mutation *m = log_op(c, path, "type");
    if (m) {
        snprintf(m->old_value, sizeof m->old_value, "%s", type_name(old));
        snprintf(m->new_value, sizeof m->new_value, "%s", type_name(t));
    }
    return 1;
}

/* Put ns where node k's struct hangs: the root is overwritten in place
 * (the tree holds its pointer), a list element goes into a fresh items
 * array (so a list shared by a splice is not changed), a struct field
 * points to it. 0 when out of memory. */
static int hang(gctx *c, uint32_t k, relic_gff_tstruct *ns)
{
    const snode *nd = &c->nodes[k];
    if (nd->parent < 0) {
        *nd->s = *ns;
        return 1;
    }
    relic_gff_tfield *pf = &c->nodes[nd->parent].s->fields[nd->field];
    if (nd->elem < 0) {
        pf->v.child = ns;
        return 1;
    }
    size_t n = pf->v.list.count;
    relic_gff_tstruct **it = alloc(c, n * sizeof *it);
    if (!it) return 0;
    memcpy(it, pf->v.list.items, n * sizeof *it);
    it[nd->elem] = ns;
    pf->v.list.items = it;
    return 1;
}

/* Drop, duplicate or move field r within its struct (a new field array). */
static int op_fields(gctx *c, fref r)
{
    relic_gff_tstruct *s = c->nodes[r.node].s;
    uint32_t n = s->field_count, i = r.index;
    relic_gff_tfield *nf = alloc(c, (n + 1) * sizeof *nf);
    if (!nf) return 0;
    char path[160];
    field_path(c, r, path, sizeof path);
    const char *op;
    memcpy(nf, s->fields, n * sizeof *nf);
    switch (below(c, 3)) {
    case 0:
        memmove(nf + i, nf + i + 1, (n - i - 1) * sizeof *nf);
        n--;
        op = "drop";
        break;
    case 1:
        c->budget = GFF_MUT_COPY_BUDGET;
        memmove(nf + i + 1, nf + i, (n - i) * sizeof *nf);
        if (!copy_field(c, &nf[i + 1], &s->fields[i], c->nodes[r.node].depth)) return 0;
        n++;
        op = "duplicate";
        break;
    default: {
        uint32_t j = (uint32_t)below(c, n);
        relic_gff_tfield t = nf[i];
        nf[i] = nf[j];
        nf[j] = t;
        op = "swap";
        break;
    }
    }
    relic_gff_tstruct *ns = alloc(c, sizeof *ns);
    if (!ns) return 0;
    *ns = *s;
    ns->fields = nf;
    ns->field_count = n;
    if (!hang(c, r.node, ns)) return 0;
    log_op(c, path, op);
    return 1;
}

/* Duplicate, remove, swap or splice list elements (a new items array). */
static int op_list(gctx *c, fref r)
{
    relic_gff_tfield *f = &c->nodes[r.node].s->fields[r.index];
    if (f->type != RELIC_GFF_FIELD_TYPE_LIST) return 0;
    size_t n = f->v.list.count;
    relic_gff_tstruct **it = alloc(c, (n + 1) * sizeof *it);
    if (!it) return 0;
    if (n) memcpy(it, f->v.list.items, n * sizeof *it);
    char path[160], what[96] = "";
    field_path(c, r, path, sizeof path);
    const char *op;
    size_t k = (size_t)below(c, n + 1);
    switch (n ? below(c, 4) : 3) {
    case 0: /* duplicate element k */
        if (k == n) k--;
        c->budget = GFF_MUT_COPY_BUDGET;
        memmove(it + k + 1, it + k, (n - k) * sizeof *it);
        it[k + 1] = copy_struct(c, it[k], c->nodes[r.node].depth + 1);
        if (!it[k + 1]) return 0;
        n++;
        op = "grow";
        snprintf(what, sizeof what, "element %zu duplicated", k);
        break;
    case 1: /* remove */
        if (k == n) k--;
        memmove(it + k, it + k + 1, (n - k - 1) * sizeof *it);
        n--;
        op = "shrink";
        snprintf(what, sizeof what, "element %zu removed", k);
        break;
    case 2: { /* swap (reorder) */
        size_t j = (size_t)below(c, n);
        if (k == n) k--;
        relic_gff_tstruct *t = it[k];
        it[k] = it[j];
        it[j] = t;
        op = "swap";
        snprintf(what, sizeof what, "elements %zu and %zu", k, j);
        break;
    }
    default: { /* splice a struct in at k */
        const char *from;
        relic_gff_tstruct *s = donor_struct(c, &from);
        if (!s) return 0;
        memmove(it + k + 1, it + k, (n - k) * sizeof *it);
        it[k] = s;
        n++;
        op = "splice";
        snprintf(what, sizeof what, "element %zu from the %s", k, from);
        break;
    }
    }
    char before[32];
    snprintf(before, sizeof before, "%zu elements", f->v.list.count);
    f->v.list.items = it;
    f->v.list.count = n;
    relic_mutation *m = log_op(c, path, op);
    if (m) {
        snprintf(m->old_value, sizeof m->old_value, "%s", before);
        snprintf(m->new_value, sizeof m->new_value, "%zu elements: %s", n, what);
    }
    return 1;
}

/* Edit field r's label: a character changed, cut, 16 characters, or a
 * sibling's label (a duplicate in the struct). */
static int op_label(gctx *c, fref r)
{
    relic_gff_tstruct *s = c->nodes[r.node].s;
    relic_gff_tfield *f = &s->fields[r.index];
    char path[160], before[17];
    field_path(c, r, path, sizeof path);
    memcpy(before, f->label, sizeof before);
    size_t n = strlen(f->label);
    switch (below(c, 5)) {
    case 0:
        if (n) f->label[below(c, n)] = (char)special[below(c, sizeof special - 1) + 1];
        break;
    case 1: f->label[n ? below(c, n) : 0] = 0; break;
    case 2:
        for (size_t k = n; k < 16; k++) f->label[k] = (char)('A' + k);
        f->label[16] = 0;
        break;
    case 3: memcpy(f->label, s->fields[below(c, s->field_count)].label, sizeof f->label); break;
    default:
        if (n) f->label[below(c, n)] ^= 0x20;
        else f->label[0] = 'X', f->label[1] = 0;
    }
    f->label[16] = 0;
    relic_mutation *m = log_op(c, path, "label");
    if (m) {
        snprintf(m->old_value, sizeof m->old_value, "%s", before);
        snprintf(m->new_value, sizeof m->new_value, "%s", f->label);
    }
    return 1;
}

/* Change a struct's StructID, or replace the struct with one spliced from
 * the donor (keeping the id sometimes: same-type structs in real files). */
static int op_struct(gctx *c, uint32_t k)
{
    snode *nd = &c->nodes[k];
    char path[160];
    node_path(c, c->nodes, (int32_t)k, path, sizeof path);
    if (!path[0]) snprintf(path, sizeof path, "(top-level struct)");
    relic_gff_tstruct *ns;
    const char *op, *from = "";
    if (below(c, 2) || nd->parent < 0) {
        ns = alloc(c, sizeof *ns);
        if (!ns) return 0;
        *ns = *nd->s;
        ns->id = (uint32_t)int_value(c, 4, 0, ns->id);
        op = "struct_id";
    } else {
        ns = donor_struct(c, &from);
        if (!ns) return 0;
        if (below(c, 2)) ns->id = nd->s->id;
        op = "splice";
    }
    relic_mutation *m = log_op(c, path, op);
    if (m) {
        snprintf(m->old_value, sizeof m->old_value, "struct id %u, %u fields", (unsigned)nd->s->id,
                 (unsigned)nd->s->field_count);
        snprintf(m->new_value, sizeof m->new_value, "struct id %u, %u fields%s%s", (unsigned)ns->id,
                 (unsigned)ns->field_count, *from ? " from the " : "", from);
    }
    return hang(c, k, ns);
}

/* Add a field copied from a donor struct to struct k (at a random place). */
static int op_add_field(gctx *c, uint32_t k)
{
    const snode *pool = c->ndonor ? c->donor : c->nodes;
    uint32_t np = c->ndonor ? c->ndonor : c->nnodes;
    const relic_gff_tstruct *d = pool[below(c, np)].s;
    if (!d->field_count) return 0;
    const relic_gff_tfield *src = &d->fields[below(c, d->field_count)];
    relic_gff_tstruct *s = c->nodes[k].s;
    uint32_t n = s->field_count, at = (uint32_t)below(c, n + 1);
    relic_gff_tfield *nf = alloc(c, (n + 1) * sizeof *nf);
    if (!nf) return 0;
    if (at) memcpy(nf, s->fields, at * sizeof *nf); /* an empty struct's fields are NULL */
    if (n > at) memcpy(nf + at + 1, s->fields + at, (n - at) * sizeof *nf);
    c->budget = GFF_MUT_COPY_BUDGET;
    if (!copy_field(c, &nf[at], src, c->nodes[k].depth)) return 0;
    /* s is replaced in place: its fields array is new, the struct itself may
     * be shared only through a splice copy, which copied it */
    s->fields = nf;
    s->field_count = n + 1;
    char path[160];
    node_path(c, c->nodes, (int32_t)k, path, sizeof path);
    relic_mutation *m = log_op(c, path[0] ? path : "(top-level struct)", "add_field");
    if (m) snprintf(m->new_value, sizeof m->new_value, "%s (%s) from the %s", nf[at].label, type_name(nf[at].type),
                    c->ndonor ? "second input" : "this input");
    return 1;
}

/* Make a struct below the top level the new top-level struct (its fields,
 * the top level's id): a much smaller file of the same kind, which
 * executes faster and mutates further. */
static int op_promote(gctx *c)
{
    if (c->nnodes < 2) return 0;
    uint32_t k = 1 + (uint32_t)below(c, c->nnodes - 1);
    relic_gff_tstruct *root = c->nodes[0].s, *s = c->nodes[k].s;
    char path[160];
    node_path(c, c->nodes, (int32_t)k, path, sizeof path);
    relic_mutation *m = log_op(c, path, "promote");
    if (m) {
        snprintf(m->old_value, sizeof m->old_value, "%u top-level fields", (unsigned)root->field_count);
        snprintf(m->new_value, sizeof m->new_value, "%u top-level fields", (unsigned)s->field_count);
    }
    root->fields = s->fields;
    root->field_count = s->field_count;
    root->src_index = root->src_data = RELIC_GFF_NONE;
    return 1;
}

/* Keep only a run of a list's elements (at most 4): big lists shrink fast. */
static int op_list_cut(gctx *c, fref r)
{
    relic_gff_tfield *f = &c->nodes[r.node].s->fields[r.index];
    size_t n = f->v.list.count;
    if (f->type != RELIC_GFF_FIELD_TYPE_LIST || n < 2) return 0;
    size_t keep = (size_t)below(c, n < 4 ? n : 4), at = (size_t)below(c, n - keep + 1);
    char path[160];
    field_path(c, r, path, sizeof path);
    relic_mutation *m = log_op(c, path, "shrink");
    if (m) {
        snprintf(m->old_value, sizeof m->old_value, "%zu elements", n);
        snprintf(m->new_value, sizeof m->new_value, "elements %zu..%zu kept", at, at + keep);
    }
    f->v.list.items += at;
    f->v.list.count = keep;
    return 1;
}

/* One change; 0 when the pick did not apply. */
static int mutate_once(gctx *c, int splice)
{
    if (splice) {
        /* a struct, a list element or a field from the second input */
        uint32_t pick = (uint32_t)below(c, 3);
        if (pick == 0 && c->lists) {
            for (int t = 0; t < 8; t++) {
                fref r = c->fields[below(c, c->nfields)];
                relic_gff_tfield *f = &c->nodes[r.node].s->fields[r.index];
                if (f->type == RELIC_GFF_FIELD_TYPE_LIST) {
                    /* force the splice case of op_list */
                    size_t n = f->v.list.count, k = (size_t)below(c, n + 1);
                    const char *from;
                    relic_gff_tstruct *s = donor_struct(c, &from);
                    relic_gff_tstruct **it = alloc(c, (n + 1) * sizeof *it);
                    if (!s || !it) return 0;
                    if (k) memcpy(it, f->v.list.items, k * sizeof *it);
                    it[k] = s;
                    if (n > k) memcpy(it + k + 1, f->v.list.items + k, (n - k) * sizeof *it);
                    f->v.list.items = it;
                    f->v.list.count = n + 1;
                    char path[160];
                    field_path(c, r, path, sizeof path);
                    relic_mutation *m = log_op(c, path, "splice");
                    if (m) snprintf(m->new_value, sizeof m->new_value, "element %zu from the %s", k, from);
                    return 1;
                }
            }
        }
        if (pick == 1 && c->nnodes > 1) {
            uint32_t k = 1 + (uint32_t)below(c, c->nnodes - 1);
            const char *from;
            relic_gff_tstruct *ns = donor_struct(c, &from);
            if (!ns) return 0;
            char path[160];
            node_path(c, c->nodes, (int32_t)k, path, sizeof path);
            if (!hang(c, k, ns)) return 0;
            relic_mutation *m = log_op(c, path, "splice");
            if (m) snprintf(m->new_value, sizeof m->new_value, "struct id %u from the %s", (unsigned)ns->id, from);
            return 1;
        }
        return op_add_field(c, (uint32_t)below(c, c->nnodes));
    }
    if (c->sc && below(c, 4) == 0) { /* a typed file: one change in 4 guided by its schema */
        relic_mutation *m = c->res && c->res->nlog < RELIC_MUTATE_MAX_LOG ? &c->res->log[c->res->nlog] : NULL;
        if (!relic_gff_schema_mutate_tree(c->sc, c->nodes[0].s, &c->rng, c->a, m, &c->nomem)) return 0;
        if (m) c->res->nlog++;
        return 1;
    }
    uint64_t op = below(c, 22);
    if (op == 20) return op_promote(c);
    if (op == 21 && c->lists) {
        for (int t = 0; t < 16; t++) {
            fref r = c->fields[below(c, c->nfields)];
            if (c->nodes[r.node].s->fields[r.index].type == RELIC_GFF_FIELD_TYPE_LIST) return op_list_cut(c, r);
        }
        return 0;
    }
    if (op < 12 && c->nfields) {
        fref r = c->fields[below(c, c->nfields)];
        relic_gff_tfield *f = &c->nodes[r.node].s->fields[r.index];
        if (f->type == RELIC_GFF_FIELD_TYPE_LIST) return op_list(c, r);
        if (op < 8) return op_value(c, r);
        if (op < 9) return op_type(c, r);
        if (op < 11) return op_fields(c, r);
        return op_label(c, r);
    }
    if (op < 15 && c->lists) { /* a list: find one among the fields */
        for (int t = 0; t < 16; t++) {
            fref r = c->fields[below(c, c->nfields)];
            if (c->nodes[r.node].s->fields[r.index].type == RELIC_GFF_FIELD_TYPE_LIST) return op_list(c, r);
        }
        return 0;
    }
    if (op < 18) return op_struct(c, (uint32_t)below(c, c->nnodes));
    return op_add_field(c, (uint32_t)below(c, c->nnodes));
}

/* The invalid mode: one header offset or count (bytes 8..55) or the
 * version set to a value that breaks the file. */
static void spoil_header(gctx *c, relic_buf *out)
{
    if (out->size < 56) return;
    uint32_t at = 8 + 4 * (uint32_t)below(c, 12);
    uint32_t old = relic_load_u32le(out->data + at), v;
    switch (below(c, 7)) {
    case 0: v = 0; break;
    case 1: v = UINT32_MAX; break;
    case 2: v = old + 1; break;
    case 3: v = old - 1; break;
    case 4: v = old + 12; break;
    case 5: v = (uint32_t)out->size; break;
    default:
        at = 4 + (uint32_t)below(c, 4);
        out->data[at] ^= (uint8_t)(1u << below(c, 8));
        log_op(c, "header.version", "stale");
        return;
    }
    relic_store_u32le(out->data + at, v);
    static const char *names[] = {"struct_offset", "struct_count", "field_offset", "field_count",
                                  "label_offset", "label_count", "field_data_offset", "field_data_count",
                                  "field_indices_offset", "field_indices_count", "list_indices_offset",
                                  "list_indices_count"};
    char path[64];
    snprintf(path, sizeof path, "header.%s", names[(at - 8) / 4]);
    relic_mutation *m = log_op(c, path, "stale");
    if (m) {
        snprintf(m->old_value, sizeof m->old_value, "%u", (unsigned)old);
        snprintf(m->new_value, sizeof m->new_value, "%u", (unsigned)v);
    }
}

static relic_status open_tree(const uint8_t *p, size_t n, relic_arena *a, relic_gff_tree *t, relic_error *err)
{
    relic_gff_doc d;
    relic_status st = relic_gff_open(p, n, a, NULL, NULL, &d, err);
    return st != RELIC_OK ? st : relic_gff_tree_from_doc(&d, a, t, err);
}

relic_status relic_gff_mutate(const uint8_t *in, size_t n, const uint8_t *in2, size_t n2, uint64_t seed,
                              unsigned flags, relic_arena *scratch, relic_buf *out, relic_mutate_result *res,
                              relic_error *err)
{
    relic_mutate_result local;
    if (!res) res = &local;
    memset(res, 0, sizeof *res);
    if ((!in && n) || !scratch || !out || out->arena == scratch)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "relic_gff_mutate needs an input, a scratch arena and an "
                                                          "output that does not grow in it");
    out->size = 0;
    out->failed = 0;
    gctx c;
    memset(&c, 0, sizeof c);
    c.a = scratch;
    c.res = res;
    relic_status st = RELIC_OK;
    relic_gff_tree t2;
    /* a struct or field takes at least 12 bytes of the file; splices add up
     * to GFF_MUT_COPY_BUDGET fields per change (beyond: not indexed) */
    c.max = n / 12 + 3 * GFF_MUT_COPY_BUDGET + 64 < GFF_MUT_MAX_NODES ? (uint32_t)(n / 12) + 3 * GFF_MUT_COPY_BUDGET + 64
                                                                      : GFF_MUT_MAX_NODES;
    c.nodes = relic_arena_array(scratch, c.max, sizeof *c.nodes, 8);
    c.fields = relic_arena_array(scratch, c.max, sizeof *c.fields, 8);
    if (!c.nodes || !c.fields) {
        st = relic_fail(err, RELIC_E_NOMEM, 0, NULL, "no memory for the GFF mutator's index");
        goto done;
    }
    /* check the input once; the tries reload it from the bytes */
    {
        relic_gff_doc d;
        mut_mark mk = mut_arena_mark(scratch);
        st = relic_gff_open(in, n, scratch, NULL, NULL, &d, err);
        if (st == RELIC_OK) c.sc = relic_gff_schema_for_type(relic_gff_file_type(&d));
        mut_arena_rewind(scratch, mk);
        if (st != RELIC_OK) goto done;
    }
    if (in2) {
        relic_error err2;
        st = open_tree(in2, n2, scratch, &t2, &err2);
        if (st == RELIC_OK) {
            uint32_t dmax = n2 / 12 + 64 < GFF_MUT_MAX_NODES ? (uint32_t)(n2 / 12) + 64 : GFF_MUT_MAX_NODES;
            c.donor = relic_arena_array(scratch, dmax, sizeof *c.donor, 8);
            if (!c.donor) {
                st = relic_fail(err, RELIC_E_NOMEM, 0, NULL, "no memory for the second input's index");
                goto done;
            }
            c.ndonor = index_tree(t2.root, c.donor, dmax, NULL, NULL, NULL);
        } else if (flags & RELIC_MUTATE_CROSSOVER) {
            if (err) *err = err2;
            goto done;
        }
        st = RELIC_OK;
    }
    /* each try builds its tree and copies in the memory the last one used */
    mut_mark start = mut_arena_mark(scratch);
    for (unsigned attempt = 0; attempt < GFF_MUT_TRIES; attempt++) {
        res->attempts = attempt + 1;
        res->nlog = 0;
        c.rng = seed * 0x9E3779B97F4A7C15ull + attempt;
        c.nomem = 0;
        mut_arena_rewind(scratch, start);
        relic_gff_tree t;
        if ((st = open_tree(in, n, scratch, &t, err)) != RELIC_OK) goto done;
        int changes = 1 + (int)below(&c, 3), made = 0;
        /* large files are first made smaller: every try above 4 x
         * GFF_MUT_SMALL, one in 2 above GFF_MUT_SMALL (they execute slowly) */
        if (n > GFF_MUT_SMALL && (n > 4 * GFF_MUT_SMALL || below(&c, 2) == 0) && reindex(&c, t.root)) {
            fref r = c.nfields ? c.fields[below(&c, c.nfields)] : (fref){0, 0};
            made += below(&c, 2) && c.nfields ? op_list_cut(&c, r) || op_promote(&c) : op_promote(&c);
        }
        for (int k = 0; k < changes; k++) {
            if (!reindex(&c, t.root)) break;
            made += mutate_once(&c, k == 0 && (flags & RELIC_MUTATE_CROSSOVER) && c.ndonor);
            if (c.nomem) break;
        }
        if (c.nomem) {
            st = relic_fail(err, RELIC_E_NOMEM, 0, NULL, "no memory for the mutated GFF tree");
            goto done;
        }
        if (!made) continue;
        uint64_t lay = below(&c, 8);
        relic_gff_layout layout = lay < 2 ? RELIC_GFF_LAYOUT_KEEP : lay < 3 ? RELIC_GFF_LAYOUT_POSTORDER
                                                                            : RELIC_GFF_LAYOUT_DEFAULT;
        relic_error werr;
        out->size = 0;
        out->failed = 0;
        relic_status ws = relic_gff_write_tree(&t, layout, scratch, out, NULL, &werr);
        if (ws == RELIC_E_NOMEM && !out->failed) {
            /* scratch, not out, ran out: no smaller try instead (relic_mutate.h) */
            if (err) *err = werr;
            st = ws;
            goto done;
        }
        if (ws != RELIC_OK || out->failed) continue;
        if (flags & RELIC_MUTATE_INVALID) spoil_header(&c, out);
        if (flags & RELIC_MUTATE_UNCHECKED) goto done;
        relic_gff_doc d;
        relic_error verr;
        relic_status vs = relic_gff_open(out->data, out->size, scratch, NULL, NULL, &d, &verr);
        if (vs == RELIC_E_NOMEM) {
            if (err) *err = verr;
            st = vs;
            goto done;
        }
        int ok = vs == RELIC_OK;
        if (flags & RELIC_MUTATE_INVALID) {
            if (!ok) goto done;
        } else if (ok && (out->size != n || memcmp(out->data, in, n) != 0)) {
            goto done;
        }
    }
    out->size = 0;
    st = relic_fail(err, RELIC_E_LIMIT, 0, NULL, "no suitable GFF mutant in %d tries", GFF_MUT_TRIES);
done:
    return st;
}
