/* gff_schema_mutate.c — the typed-schema step of the GFF tree mutator
 * (issue 8; relic_gff_schema_mutate_tree in gff_schema_mutate.h). When a
 * file's FileType has a typed schema (schema/aurora/<type>.schema, seed
 * 003), the generic tree mutator (gff_tree_mutate.c) gives some of its
 * changes to this step, which knows what the byte-level and generic
 * mutators can only stumble on: the documented labels, types, ranges,
 * enum and flag sets and StructIDs that `relic check --strict`
 * (gff_schema.c) compares a file with. It descends from the top-level
 * struct through documented struct and list fields to a random depth, then
 * changes one documented thing there. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gff_schema_mutate.h"

typedef struct sm {
    uint64_t *rng;
    relic_arena *a;
    int *nomem;
} sm;

static uint64_t below(sm *c, uint64_t n) { return n ? relic_mutate_rand(c->rng) % n : 0; }

static void *alloc(sm *c, size_t n)
{
    void *p = relic_arena_alloc(c->a, n ? n : 1, 8);
    if (!p) *c->nomem = 1;
    return p;
}

static int is_int(uint32_t t) { return t <= RELIC_GFF_FIELD_TYPE_INT64; }

/* The documented field of ss labelled label, or NULL. */
static const relic_gff_sfield *documented(const relic_gff_sstruct *ss, const char *label)
{
    for (uint32_t k = 0; k < ss->field_count; k++)
        if (strcmp(ss->fields[k].label, label) == 0) return &ss->fields[k];
    return NULL;
}

/* The field of s labelled label (the first), or NULL. */
static relic_gff_tfield *present(relic_gff_tstruct *s, const char *label)
{
    for (uint32_t i = 0; i < s->field_count; i++)
        if (strcmp(s->fields[i].label, label) == 0) return &s->fields[i];
    return NULL;
}

/* An integer the schema makes interesting for sf: a range end or just past
 * it, an enum value or one past the set, flag bits inside or outside it. */
static int64_t typed_int(sm *c, const relic_gff_sfield *sf)
{
    int64_t cand[8], lo = INT64_MAX, hi = INT64_MIN, mask = 0;
    unsigned n = 0;
    for (uint32_t k = 0; k < sf->nvalues; k++) {
        int64_t v = sf->value_list[k];
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        mask |= v;
    }
    /* past the ends by one, wrapping rather than overflowing */
#define PAST(v, d) ((int64_t)((uint64_t)(v) + (uint64_t)(int64_t)(d)))
    if (sf->values != RELIC_GFF_VALUES_NONE && sf->nvalues) {
        cand[n++] = sf->value_list[below(c, sf->nvalues)];
        cand[n++] = sf->value_list[below(c, sf->nvalues)];
        if (sf->values == RELIC_GFF_VALUES_FLAGS) {
            int b = 0;
            while (b < 62 && (mask & ((int64_t)1 << b))) b++;
            cand[n++] = mask;
            cand[n++] = mask | ((int64_t)1 << b); /* a bit outside the set */
        } else {
            cand[n++] = PAST(hi, 1);
            cand[n++] = PAST(lo, -1);
        }
    }
    if (sf->has_range) {
        cand[n++] = sf->lo;
        cand[n++] = sf->hi;
        cand[n++] = PAST(sf->lo, -1);
        cand[n++] = PAST(sf->hi, 1);
    }
#undef PAST
    return n ? cand[below(c, n)] : (int64_t)below(c, 3) - 1; /* nothing documented: -1, 0, 1 */
}

/* Store v in an integer field of type t, wrapped to the type's width as
 * the tree holds it (signed types sign-extended). */
static void store_int(relic_gff_tfield *f, int64_t v)
{
    static const unsigned bits[8] = {8, 8, 16, 16, 32, 32, 64, 64};
    unsigned w = bits[f->type];
    f->v.u = (uint64_t)v;
    if (w < 64) {
        f->v.u &= ((uint64_t)1 << w) - 1;
        if (f->type & 1u) f->v.i = (int64_t)(f->v.u << (64 - w)) >> (64 - w);
    }
}

/* d as a float without an out-of-range conversion */
static float to_float(double d)
{
    return isnan(d) || fabs(d) <= 3.4028234663852886e38 ? (float)d : d > 0 ? INFINITY
                                                                           : -INFINITY;
}

static double typed_real(sm *c, const relic_gff_sfield *sf)
{
    if (!sf->has_range || below(c, 8) == 0) return below(c, 2) ? NAN : 0.0;
    switch (below(c, 4)) {
    case 0: return (double)sf->lo;
    case 1: return (double)sf->hi;
    case 2: return (double)sf->lo - 0.5;
    default: return (double)sf->hi + 0.5;
    }
}

static relic_gff_tstruct *empty_struct(sm *c, uint32_t id)
{
    relic_gff_tstruct *s = alloc(c, sizeof *s);
    relic_gff_tfield *f = alloc(c, sizeof *f);
    if (!s || !f) return NULL;
    *s = (relic_gff_tstruct){id, 0, f, RELIC_GFF_NONE, RELIC_GFF_NONE};
    return s;
}

/* Give f the type t and a value the schema makes interesting (numbers) or
 * an empty one (text, structs, lists). 0 when out of memory. */
static int fresh_value(sm *c, relic_gff_tfield *f, uint32_t t, const relic_gff_sfield *sf)
{
    memset(&f->v, 0, sizeof f->v);
    f->type = t;
    f->src_index = f->src_label = f->src_data = RELIC_GFF_NONE;
    uint32_t of_id = sf->of && !sf->of->id_any ? sf->of->id : 0;
    if (is_int(t)) {
        store_int(f, typed_int(c, sf));
    } else if (t == RELIC_GFF_FIELD_TYPE_FLOAT) {
        f->v.f32 = to_float(typed_real(c, sf));
    } else if (t == RELIC_GFF_FIELD_TYPE_DOUBLE) {
        f->v.f64 = typed_real(c, sf);
    } else if (t == RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING) {
        f->v.loc.strref = RELIC_GFF_NONE;
        if (!(f->v.loc.s = alloc(c, sizeof *f->v.loc.s))) return 0;
    } else if (t == RELIC_GFF_FIELD_TYPE_STRUCT) {
        if (!(f->v.child = empty_struct(c, of_id))) return 0;
    } else if (t == RELIC_GFF_FIELD_TYPE_LIST) {
        size_t n = (size_t)below(c, 2);
        if (!(f->v.list.items = alloc(c, sizeof *f->v.list.items))) return 0;
        if (n && !(f->v.list.items[0] = empty_struct(c, of_id))) return 0;
        f->v.list.count = n;
    } else if (t == RELIC_GFF_FIELD_TYPE_CEXOSTRING || t == RELIC_GFF_FIELD_TYPE_RESREF ||
               t == RELIC_GFF_FIELD_TYPE_VOID) {
        if (!(f->v.bytes.p = alloc(c, 1))) return 0;
    } /* orientation, vector: zeros */
    return 1;
}

/* A type for a documented field: its own, or (one in 3, and always for a
 * field of any type) another of the 18. */
static uint32_t pick_type(sm *c, const relic_gff_sfield *sf)
{
    if (sf->type < 18 && below(c, 3)) return sf->type;
    uint32_t t = (uint32_t)below(c, 18);
    return t == sf->type ? (t + 1) % 18 : t;
}

static void value_text(char *b, size_t n, const relic_gff_tfield *f)
{
    if (is_int(f->type)) {
        if (f->type & 1u) snprintf(b, n, "%s %lld", relic_gff_type_name(f->type), (long long)f->v.i);
        else snprintf(b, n, "%s %llu", relic_gff_type_name(f->type), (unsigned long long)f->v.u);
    } else if (f->type == RELIC_GFF_FIELD_TYPE_FLOAT) {
        snprintf(b, n, "FLOAT %.9g", (double)f->v.f32);
    } else if (f->type == RELIC_GFF_FIELD_TYPE_DOUBLE) {
        snprintf(b, n, "DOUBLE %.17g", f->v.f64);
    } else {
        snprintf(b, n, "%s", relic_gff_type_name(f->type));
    }
}

static void note(relic_mutation *m, const char *path, const char *label, const char *op, const char *before,
                 const char *after)
{
    if (!m) return;
    snprintf(m->path, sizeof m->path, "%s%s%s", path, *path && *label ? "." : "", label);
    snprintf(m->op, sizeof m->op, "%s", op);
    snprintf(m->old_value, sizeof m->old_value, "%s", before);
    snprintf(m->new_value, sizeof m->new_value, "%s", after);
}

/* The change at struct s documented by ss (path: how it was reached). */
static int change_struct(sm *c, relic_gff_tstruct *s, const relic_gff_sstruct *ss, const char *path,
                         relic_mutation *m)
{
    char before[96], after[96];
    if (!ss->field_count || below(c, 8) == 0) { /* the StructID */
        uint32_t old = s->id;
        switch (below(c, 4)) {
        case 0: s->id = ss->id_any ? old + 1 : ss->id; break;
        case 1: s->id = ss->id + 1; break;
        case 2: s->id = ss->id - 1; break;
        default: s->id = RELIC_GFF_NONE;
        }
        snprintf(before, sizeof before, "%u", (unsigned)old);
        snprintf(after, sizeof after, "%u", (unsigned)s->id);
        note(m, *path ? path : "(top-level struct)", "", "struct_id", before, after);
        return 1;
    }
    const relic_gff_sfield *sf = &ss->fields[below(c, ss->field_count)];
    relic_gff_tfield *f = present(s, sf->label);
    if (!f) { /* absent: add it (at a random place) */
        uint32_t n = s->field_count, at = (uint32_t)below(c, n + 1);
        relic_gff_tfield *nf = alloc(c, (n + 1) * sizeof *nf);
        if (!nf) return 0;
        if (at) memcpy(nf, s->fields, at * sizeof *nf); /* an empty struct's fields are NULL */
        if (n > at) memcpy(nf + at + 1, s->fields + at, (n - at) * sizeof *nf);
        memset(nf[at].label, 0, sizeof nf[at].label);
        snprintf(nf[at].label, sizeof nf[at].label, "%s", sf->label);
        if (!fresh_value(c, &nf[at], pick_type(c, sf), sf)) return 0;
        s->fields = nf;
        s->field_count = n + 1;
        value_text(after, sizeof after, &nf[at]);
        note(m, path, sf->label, "add_field", "absent", after);
        return 1;
    }
    value_text(before, sizeof before, f);
    const char *op = "set";
    int numeric = is_int(f->type) || f->type == RELIC_GFF_FIELD_TYPE_FLOAT || f->type == RELIC_GFF_FIELD_TYPE_DOUBLE;
    if (f->type == sf->type && numeric && below(c, 4)) {
        if (is_int(f->type)) store_int(f, typed_int(c, sf));
        else if (f->type == RELIC_GFF_FIELD_TYPE_DOUBLE) f->v.f64 = typed_real(c, sf);
        else f->v.f32 = to_float(typed_real(c, sf));
    } else if (f->type == sf->type && f->type == RELIC_GFF_FIELD_TYPE_STRUCT && f->v.child && below(c, 2)) {
        return change_struct(c, f->v.child, sf->of ? sf->of : ss, path, m);
    } else {
        if (!fresh_value(c, f, pick_type(c, sf), sf)) return 0;
        op = "type";
    }
    value_text(after, sizeof after, f);
    note(m, path, sf->label, op, before, after);
    return 1;
}

int relic_gff_schema_mutate_tree(const relic_gff_schema *sc, relic_gff_tstruct *root, uint64_t *rng,
                                 relic_arena *a, relic_mutation *m, int *nomem)
{
    sm c = {rng, a, nomem};
    char path[160] = "";
    size_t plen = 0;
    relic_gff_tstruct *s = root;
    const relic_gff_sstruct *ss = sc->root;
    /* descend through documented struct and list fields, stopping at each
     * level with probability 1/3 */
    for (unsigned depth = 0; s && depth < RELIC_GFF_MAX_DEPTH && below(&c, 3); depth++) {
        uint32_t cand = 0, pick = 0;
        for (int pass = 0; pass < 2; pass++) {
            uint32_t k = 0;
            for (uint32_t i = 0; i < s->field_count; i++) {
                const relic_gff_tfield *f = &s->fields[i];
                const relic_gff_sfield *sf;
                int nested = (f->type == RELIC_GFF_FIELD_TYPE_STRUCT && f->v.child) ||
                    (f->type == RELIC_GFF_FIELD_TYPE_LIST && f->v.list.count);
                if (!nested || !(sf = documented(ss, f->label)) || !sf->of) continue;
                if (pass == 1 && k == pick) {
                    size_t e = f->type == RELIC_GFF_FIELD_TYPE_LIST ? (size_t)below(&c, f->v.list.count) : 0;
                    int w = f->type == RELIC_GFF_FIELD_TYPE_LIST
                        ? snprintf(path + plen, sizeof path - plen, "%s%s[%zu]", plen ? "." : "", f->label, e)
                        : snprintf(path + plen, sizeof path - plen, "%s%s", plen ? "." : "", f->label);
                    plen += w > 0 ? (size_t)w : 0;
                    if (plen >= sizeof path) plen = sizeof path - 1;
                    s = f->type == RELIC_GFF_FIELD_TYPE_LIST ? f->v.list.items[e] : f->v.child;
                    ss = sf->of;
                    break;
                }
                k++;
            }
            if (pass == 0) {
                cand = k;
                if (!cand) break;
                pick = (uint32_t)below(&c, cand);
            }
        }
        if (!cand) break;
    }
    return s ? change_struct(&c, s, ss, path, m) : 0;
}
