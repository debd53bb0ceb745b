/* report.c — `relic-gen --report OLD.schema NEW.schema`: what a schema
 * change means for users of the generated bindings (issue 8): formats,
 * enums and their items, structs and their fields added, removed, renamed
 * or changed — type, byte order, offset, size, count, placement, range,
 * constant, check, enum typing — with the C symbols (types, accessors,
 * offset constants, enum constants) and JSON keys involved, the names of the
 * generated Python module (relic._gen.<family>_<format>: classes, enum
 * members, dtype fields, view attributes) that appear, disappear, are
 * renamed or change, and a verdict on whether files valid under OLD still
 * read under NEW. Lines are in schema order, so the output is deterministic. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

#define MAXF 512

typedef struct report {
    gen_out *o;
    const char *oldp, *newp; /* relic_<f> of each side */
    int layout;              /* changes that move or resize bytes of existing files */
    int tighter;             /* changes that reject values existing files may hold */
    int api;                 /* changes to C symbols or JSON keys */
    int lines;
} report;

static void line(report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(report *r, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    out_printf(r->o, "  %s\n", buf);
    r->lines++;
}

static char *expr_text(const gen_expr *e)
{
    gen_out o = {0};
    if (e) em_expr_text(&o, e);
    else out_puts(&o, "");
    return o.data;
}

static int same_expr(const gen_expr *a, const gen_expr *b)
{
    if (!a || !b) return a == b;
    char *x = expr_text(a), *y = expr_text(b);
    int same = strcmp(x, y) == 0;
    free(x);
    free(y);
    return same;
}

/* "u32", "f32be", "vec3f", "char[8]", "u32[3]", "face[header.face_count]". */
static void type_text(const gen_field *f, char *b, size_t n)
{
    size_t k = 0;
    if (f->stype) k += (size_t)snprintf(b + k, n - k, "%s", f->stype->name);
    else {
        k += (size_t)snprintf(b + k, n - k, "%s", gen_prim_name(f->prim));
    }
    if (f->count) {
        char *c = expr_text(f->count);
        k += (size_t)snprintf(b + k, n - k, "[%s]", c);
        free(c);
    }
    if (f->count_rest && k < n) k += (size_t)snprintf(b + k, n - k, "[..]");
    for (int i = 0; i < f->ndims && k < n; i++) k += (size_t)snprintf(b + k, n - k, "[%d]", f->dims[i]);
}

static int64_t field_bytes(const gen_field *f)
{
    if (f->count || f->count_rest) return -1;
    int64_t e = em_elem_size(f);
    return e < 0 ? -1 : e * em_fixed_elems(f);
}

/* C names a field gives its users. */
static void field_symbols(const report *r, int new_side, const gen_struct *st, const gen_field *f, char *b, size_t n)
{
    const char *p = new_side ? r->newp : r->oldp;
    char up[160];
    snprintf(up, sizeof up, "%s", em_upper(p));
    char sup[160];
    snprintf(sup, sizeof sup, "%s", em_upper(st->name));
    size_t k = (size_t)snprintf(b, n, "model member %s_%s.%s", p, st->name, f->name);
    if (st->fixed_size >= 0 && !f->at && k < n)
        k += (size_t)snprintf(b + k, n - k, ", accessor %s_%s_%s(), %s_%s_%s_POS", p, st->name, f->name, up, sup,
                              em_upper(f->name));
    if (k < n) snprintf(b + k, n - k, "; JSON key \"%s\"%s", f->name, st->tuple ? " (tuple position)" : "");
}

static const gen_field *find_field(gen_field **fs, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(fs[i]->name, name)) return fs[i];
    return NULL;
}

static int same_shape(const gen_field *a, const gen_field *b)
{
    char x[256], y[256];
    type_text(a, x, sizeof x);
    type_text(b, y, sizeof y);
    return !strcmp(x, y) && a->fixed_offset == b->fixed_offset && same_expr(a->at, b->at);
}

static void compare_fields(report *r, const gen_struct *os, const gen_struct *ns)
{
    gen_field *of[MAXF], *nf[MAXF];
    int on = em_fields(os, of, MAXF), nn = em_fields(ns, nf, MAXF);
    char sym[600], t1[256], t2[256];
    int *renamed = calloc((size_t)nn + 1, sizeof *renamed);
    for (int i = 0; i < on; i++) {
        const gen_field *a = of[i], *b = find_field(nf, nn, a->name);
        if (b) continue;
        /* renamed: a new field with the same shape at the same position */
        const gen_field *ren = NULL;
        for (int j = 0; j < nn && !ren; j++)
            if (!renamed[j] && !find_field(of, on, nf[j]->name) && nf[j]->order == a->order && same_shape(a, nf[j])) {
                ren = nf[j];
                renamed[j] = 1;
            }
        type_text(a, t1, sizeof t1);
        if (ren) {
            line(r, "struct %s: field renamed: %s -> %s (%s; same bytes); C: %s_%s.%s -> %s_%s.%s; JSON key \"%s\" -> \"%s\"",
                 os->name, a->name, ren->name, t1, r->oldp, os->name, a->name, r->newp, ns->name, ren->name, a->name,
                 ren->name);
            r->api++;
            continue;
        }
        field_symbols(r, 0, os, a, sym, sizeof sym);
        if (a->fixed_offset >= 0)
            line(r, "struct %s: field removed: %s %s at offset %lld (%s)", os->name, t1, a->name, (long long)a->fixed_offset, sym);
        else
            line(r, "struct %s: field removed: %s %s (%s)", os->name, t1, a->name, sym);
        r->layout++;
        r->api++;
    }
    for (int j = 0; j < nn; j++) {
        const gen_field *b = nf[j];
        if (renamed[j] || find_field(of, on, b->name)) continue;
        type_text(b, t2, sizeof t2);
        field_symbols(r, 1, ns, b, sym, sizeof sym);
        if (b->fixed_offset >= 0)
            line(r, "struct %s: field added: %s %s at offset %lld (%s)", ns->name, t2, b->name, (long long)b->fixed_offset, sym);
        else
            line(r, "struct %s: field added: %s %s (%s)", ns->name, t2, b->name, sym);
        r->layout++;
        r->api++;
    }
    free(renamed);
    for (int i = 0; i < on; i++) {
        const gen_field *a = of[i], *b = find_field(nf, nn, a->name);
        if (!b) continue;
        const char *S = ns->name, *F = a->name;
        type_text(a, t1, sizeof t1);
        type_text(b, t2, sizeof t2);
        if (strcmp(t1, t2)) {
            int64_t x = field_bytes(a), y = field_bytes(b);
            if (x >= 0 && y >= 0 && x != y)
                line(r, "struct %s: field %s: type %s -> %s, size %lld -> %lld bytes (C type of %s_%s.%s changes)", S, F, t1,
                     t2, (long long)x, (long long)y, r->newp, S, F);
            else
                line(r, "struct %s: field %s: type %s -> %s (C type of %s_%s.%s changes)", S, F, t1, t2, r->newp, S, F);
            r->layout++;
            r->api++;
        }
        if (a->endian != b->endian && !a->stype && gen_prim_size(a->prim) > 1 && a->prim != P_CHAR && a->prim != P_BYTES) {
            line(r, "struct %s: field %s: byte order %s -> %s (same C type; the bytes of existing files read differently)", S, F,
                 a->endian == EN_BIG ? "big" : "little", b->endian == EN_BIG ? "big" : "little");
            r->layout++;
        }
        if (a->fixed_offset != b->fixed_offset) {
            if (a->fixed_offset >= 0 && b->fixed_offset >= 0)
                line(r, "struct %s: field %s: offset %lld -> %lld (%s_%s_%s_POS)", S, F, (long long)a->fixed_offset,
                     (long long)b->fixed_offset, em_upper(r->newp), em_upper(S), em_upper(F));
            else
                line(r, "struct %s: field %s: offset %s -> %s", S, F,
                     a->fixed_offset >= 0 ? "fixed" : "variable", b->fixed_offset >= 0 ? "fixed" : "variable");
            r->layout++;
        }
        if (!same_expr(a->at, b->at)) {
            char *x = expr_text(a->at), *y = expr_text(b->at);
            line(r, "struct %s: field %s: placed at '%s' -> '%s'", S, F, a->at ? x : "(sequential)", b->at ? y : "(sequential)");
            free(x);
            free(y);
            r->layout++;
        }
        if (a->has_range != b->has_range || (a->has_range && (a->range_lo != b->range_lo || a->range_hi != b->range_hi))) {
            char x[64] = "none", y[64] = "none";
            if (a->has_range) snprintf(x, sizeof x, "%lld..%lld", (long long)a->range_lo, (long long)a->range_hi);
            if (b->has_range) snprintf(y, sizeof y, "%lld..%lld", (long long)b->range_lo, (long long)b->range_hi);
            int narrower = b->has_range && (!a->has_range || b->range_lo > a->range_lo || b->range_hi < a->range_hi);
            line(r, "struct %s: field %s: range %s -> %s%s", S, F, x, y, narrower ? " (narrower: some existing values are now rejected)" : "");
            r->tighter += narrower;
        }
        int ac = a->const_str || (a->init && !a->is_derived), bc = b->const_str || (b->init && !b->is_derived);
        int const_changed = ac != bc || (a->const_str && b->const_str && (a->const_len != b->const_len || memcmp(a->const_str, b->const_str, (size_t)a->const_len))) ||
            (ac && bc && !a->const_str && !b->const_str && !same_expr(a->init, b->init));
        if (const_changed) {
            gen_out x = {0}, y = {0};
            if (a->const_str) em_cstring(&x, a->const_str, a->const_len);
            else if (ac) {
                char *t = expr_text(a->init);
                out_puts(&x, t);
                free(t);
            } else out_puts(&x, "none");
            if (b->const_str) em_cstring(&y, b->const_str, b->const_len);
            else if (bc) {
                char *t = expr_text(b->init);
                out_puts(&y, t);
                free(t);
            } else out_puts(&y, "none");
            line(r, "struct %s: field %s: constant %s -> %s%s", S, F, x.data, y.data, bc ? " (files with the old value are rejected)" : "");
            free(x.data);
            free(y.data);
            r->tighter += bc;
        }
        if (a->is_derived != b->is_derived || (a->is_derived && !same_expr(a->init, b->init))) {
            char *x = expr_text(a->is_derived ? a->init : NULL), *y = expr_text(b->is_derived ? b->init : NULL);
            line(r, "struct %s: field %s: derived '%s' -> '%s'%s", S, F, a->is_derived ? x : "(plain)", b->is_derived ? y : "(plain)",
                 b->is_derived ? " (the writer fills it; the validator checks it)" : "");
            free(x);
            free(y);
            r->tighter += b->is_derived;
        }
        if (!same_expr(a->check, b->check)) {
            char *x = expr_text(a->check), *y = expr_text(b->check);
            line(r, "struct %s: field %s: check '%s' -> '%s'", S, F, a->check ? x : "(none)", b->check ? y : "(none)");
            free(x);
            free(y);
            r->tighter += b->check != NULL;
        }
        const char *ae = a->etype ? a->etype->name : NULL, *be = b->etype ? b->etype->name : NULL;
        if ((ae == NULL) != (be == NULL) || (ae && strcmp(ae, be))) {
            line(r, "struct %s: field %s: values typed %s -> %s (JSON prints %s)", S, F, ae ? ae : "(plain)", be ? be : "(plain)",
                 be && !b->etype->is_flags ? "enum names" : "numbers");
            r->api++;
            r->tighter += be && !b->etype->open;
        }
        if ((a->codec == NULL) != (b->codec == NULL) || (a->codec && strcmp(a->codec, b->codec)) ||
            (a->hook == NULL) != (b->hook == NULL) || (a->hook && strcmp(a->hook, b->hook))) {
            line(r, "struct %s: field %s: codec/hook %s%s -> %s%s", S, F, a->codec ? a->codec : "", a->hook ? a->hook : (a->codec ? "" : "none"),
                 b->codec ? b->codec : "", b->hook ? b->hook : (b->codec ? "" : "none"));
            r->tighter++;
            r->api++;
        }
    }
}

static void compare_enums(report *r, gen_schema *o, gen_schema *n)
{
    for (int i = 0; i < o->nenums; i++) {
        const gen_enum *a = o->enums[i], *b = gen_find_enum(n, a->name);
        if (!b) {
            line(r, "%s %s removed (C: enum %s_%s, %s_%s_name())", a->is_flags ? "flags" : "enum", a->name, r->oldp, a->name, r->oldp, a->name);
            r->api++;
            continue;
        }
        if (a->base != b->base) {
            line(r, "%s %s: base type %s -> %s", b->is_flags ? "flags" : "enum", a->name, gen_prim_name(a->base), gen_prim_name(b->base));
            r->api++;
        }
        if (a->open != b->open) {
            line(r, "%s %s: %s -> %s%s", b->is_flags ? "flags" : "enum", a->name, a->open ? "open" : "closed", b->open ? "open" : "closed",
                 b->open ? "" : " (unlisted values in existing files are now rejected)");
            r->tighter += !b->open;
        }
        for (int k = 0; k < a->nitems; k++) {
            const gen_enum_item *x = &a->items[k], *y = NULL;
            for (int m = 0; m < b->nitems && !y; m++)
                if (!strcmp(b->items[m].name, x->name)) y = &b->items[m];
            char up[200];
            snprintf(up, sizeof up, "%s_%s", em_upper(r->newp), em_upper(a->name));
            if (!y) {
                line(r, "%s %s: item %s = %lld removed (C: %s_%s; JSON name \"%s\")%s", b->is_flags ? "flags" : "enum", a->name, x->name,
                     (long long)x->value, up, em_upper(x->name), x->name, b->open ? "" : " (files using it are now rejected)");
                r->api++;
                r->tighter += !b->open;
            } else if (x->value != y->value) {
                line(r, "%s %s: item %s: value %lld -> %lld (C: %s_%s)", b->is_flags ? "flags" : "enum", a->name, x->name,
                     (long long)x->value, (long long)y->value, up, em_upper(x->name));
                r->api++;
                r->tighter += !b->open;
            }
        }
        for (int m = 0; m < b->nitems; m++) {
            int found = 0;
            for (int k = 0; k < a->nitems && !found; k++) found = !strcmp(a->items[k].name, b->items[m].name);
            if (!found) {
                char up[200];
                snprintf(up, sizeof up, "%s_%s", em_upper(r->newp), em_upper(b->name));
                line(r, "%s %s: item %s = %lld added (C: %s_%s; JSON name \"%s\")", b->is_flags ? "flags" : "enum", b->name,
                     b->items[m].name, (long long)b->items[m].value, up, em_upper(b->items[m].name), b->items[m].name);
                r->api++;
            }
        }
    }
    for (int i = 0; i < n->nenums; i++) {
        const gen_enum *b = n->enums[i];
        if (!gen_find_enum(o, b->name)) {
            line(r, "%s %s added (C: enum %s_%s)", b->is_flags ? "flags" : "enum", b->name, r->newp, b->name);
            r->api++;
        }
    }
}


static int python_report(report *r, gen_schema *o, gen_schema *n);

/* ---------------------------------------------------------------- typed GFF schemas */

static const gen_field *gff_field(const gen_struct *st, const char *label)
{
    for (int i = 0; i < st->nmembers; i++)
        if (strcmp(st->members[i].field->label, label) == 0) return st->members[i].field;
    return NULL;
}

static void gff_accessor(const report *r, int new_side, const gen_struct *st, const gen_field *f, char *b, size_t n)
{
    if (st->is_root) snprintf(b, n, "%s_%s", new_side ? r->newp : r->oldp, f->name);
    else snprintf(b, n, "%s_%s_%s", new_side ? r->newp : r->oldp, st->name, f->name);
}

/* Fields by label: added, removed, C name, GFF type, range, value set, element struct. */
static void gff_compare_fields(report *r, const gen_struct *os, const gen_struct *ns)
{
    char a[256], b[256];
    for (int i = 0; i < os->nmembers; i++) {
        const gen_field *f = os->members[i].field, *g = gff_field(ns, f->label);
        gff_accessor(r, 0, os, f, a, sizeof a);
        if (!g) {
            line(r, "%s.\"%s\" removed (accessor %s; no longer checked)", os->name, f->label, a);
            r->api++;
            continue;
        }
        gff_accessor(r, 1, ns, g, b, sizeof b);
        if (strcmp(a + strlen(r->oldp), b + strlen(r->newp))) {
            line(r, "%s.\"%s\": accessor %s -> %s", os->name, f->label, a, b);
            r->api++;
        }
        if (f->gff_type != g->gff_type) {
            line(r, "%s.\"%s\": GFF type %s -> %s (accessor %s's value type)", os->name, f->label, gen_gff_type_name(f->gff_type),
                 gen_gff_type_name(g->gff_type), b);
            r->api++;
            if (g->gff_type != GFF_T_ANY) r->tighter++;
        }
        if (f->has_range != g->has_range || f->range_lo != g->range_lo || f->range_hi != g->range_hi) {
            char x[64] = "none", y[64] = "none";
            if (f->has_range) snprintf(x, sizeof x, "%lld..%lld", (long long)f->range_lo, (long long)f->range_hi);
            if (g->has_range) snprintf(y, sizeof y, "%lld..%lld", (long long)g->range_lo, (long long)g->range_hi);
            line(r, "%s.\"%s\": range %s -> %s", os->name, f->label, x, y);
            if (g->has_range && (!f->has_range || g->range_lo > f->range_lo || g->range_hi < f->range_hi)) r->tighter++;
        }
        const char *ea = f->etype ? f->etype->name : "none", *eb = g->etype ? g->etype->name : "none";
        if (strcmp(ea, eb)) {
            line(r, "%s.\"%s\": values %s -> %s", os->name, f->label, ea, eb);
            if (g->etype && !g->etype->open) r->tighter++;
        }
        const char *sa = f->stype ? f->stype->name : "none", *sb = g->stype ? g->stype->name : "none";
        if (strcmp(sa, sb)) {
            line(r, "%s.\"%s\": of %s -> %s", os->name, f->label, sa, sb);
            r->tighter++;
        }
    }
    for (int i = 0; i < ns->nmembers; i++) {
        const gen_field *g = ns->members[i].field;
        if (gff_field(os, g->label)) continue;
        gff_accessor(r, 1, ns, g, b, sizeof b);
        line(r, "%s.\"%s\" added (%s; accessor %s)", ns->name, g->label, gen_gff_type_name(g->gff_type), b);
        r->api++;
        r->tighter++;
    }
}

static int gff_report(report *r, gen_schema *o, gen_schema *n)
{
    gen_out *out = r->o;
    if (o->format.is_gff != n->format.is_gff) {
        line(r, "schema kind: %s -> %s (every generated symbol changes)", o->format.is_gff ? "typed GFF" : "binary",
             n->format.is_gff ? "typed GFF" : "binary");
        out_puts(out, "bindings: C symbols changed: rebuild and update callers\n");
        return r->lines;
    }
    const char *ta = o->format.gff_type ? o->format.gff_type : "none", *tb = n->format.gff_type ? n->format.gff_type : "none";
    if (strcmp(ta, tb)) {
        line(r, "GFF FileType \"%s\" -> \"%s\" (files of the old type are no longer checked)", ta, tb);
        r->tighter++;
    }
    if (o->format.root && n->format.root && strcmp(o->format.root->name, n->format.root->name)) {
        line(r, "top-level struct %s -> %s", o->format.root->name, n->format.root->name);
        r->tighter++;
    }
    const char *pa = o->format.pairs ? o->format.pairs : "none", *pb = n->format.pairs ? n->format.pairs : "none";
    if (strcmp(pa, pb)) {
        line(r, "paired with %s -> %s", pa, pb);
        if (n->format.pairs) r->tighter++;
    }
    compare_enums(r, o, n);
    for (int i = 0; i < o->nstructs; i++) {
        const gen_struct *a = o->structs[i], *b = gen_find_struct(n, a->name);
        if (a->external) continue;
        if (!b || b->external) {
            line(r, "struct %s removed (%s_%s_struct and its accessors)", a->name, r->oldp, a->name);
            r->api++;
            continue;
        }
        if (a->id_any != b->id_any || a->gff_id != b->gff_id) {
            char x[32] = "any", y[32] = "any";
            if (!a->id_any) snprintf(x, sizeof x, "%lld", (long long)a->gff_id);
            if (!b->id_any) snprintf(y, sizeof y, "%lld", (long long)b->gff_id);
            line(r, "struct %s: StructID %s -> %s", a->name, x, y);
            if (!b->id_any) r->tighter++;
        }
        gff_compare_fields(r, a, b);
    }
    for (int i = 0; i < n->nstructs; i++) {
        const gen_struct *b = n->structs[i];
        if (b->external || gen_find_struct(o, b->name)) continue;
        line(r, "struct %s added (%s_%s_struct)", b->name, r->newp, b->name);
        r->api++;
    }
    if (!r->lines) out_puts(out, "  no change to types, structs, fields, ranges, values or C symbols\n");
    python_report(r, o, n);
    out_puts(out, r->tighter ? "existing files: still read (a typed GFF schema does not change the GFF layout); "
                               "`relic check --strict` may now warn about some (new or tighter types, ranges, values, StructIDs)\n"
                             : "existing files: still read, and `relic check --strict` warns about no more of them\n");
    out_printf(out, "bindings: %s\n", r->api ? "C symbols changed: rebuild and update callers" : "C symbols unchanged");
    return r->lines;
}

/* ---------------------------------------------------------------- Python names */

typedef struct py_names {
    int n, cap;
    char **name, **what;
} py_names;

static void py_collect(void *ctx, const char *name, const char *what)
{
    py_names *p = ctx;
    for (int i = 0; i < p->n; i++) /* one name in several branches: each form once */
        if (!strcmp(p->name[i], name)) {
            if (strcmp(p->what[i], what) && !strstr(p->what[i], what)) {
                size_t l = strlen(p->what[i]) + strlen(what) + 4;
                char *j = gen_alloc(l);
                snprintf(j, l, "%s | %s", p->what[i], what);
                free(p->what[i]);
                p->what[i] = j;
            }
            return;
        }
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        p->name = realloc(p->name, (size_t)p->cap * sizeof *p->name);
        p->what = realloc(p->what, (size_t)p->cap * sizeof *p->what);
    }
    p->name[p->n] = gen_strndup(name, strlen(name));
    p->what[p->n++] = gen_strndup(what, strlen(what));
}

static int py_find(const py_names *p, const char *name)
{
    for (int i = 0; i < p->n; i++)
        if (!strcmp(p->name[i], name)) return i;
    return -1;
}

/* "item_dtype['id']" -> "item_dtype[", "Kind.BOX" -> "Kind.": a rename
 * keeps it. 0 for a top-level name (a class, a struct, a dtype), which is
 * never paired as a rename: its members tell what became of it. */
static size_t py_container(const char *name)
{
    size_t l = strlen(name);
    while (l > 0 && name[l - 1] != '.' && name[l - 1] != '[') l--;
    if ((l == 7 && !strncmp(name, "FIELDS[", 7)) || (l == 8 && !strncmp(name, "STRUCTS[", 8))) return 0;
    return l;
}

/* The Python names of each side, compared: renamed (a name gone and a new
 * one in the same class/struct/dtype holding the same thing), removed,
 * added, changed. Returns how many lines it wrote. */
static int python_report(report *r, gen_schema *o, gen_schema *n)
{
    py_names a = {0}, b = {0};
    emit_python_names(o, py_collect, &a);
    emit_python_names(n, py_collect, &b);
    char module[300];
    snprintf(module, sizeof module, "relic._gen.%s_%s", n->family ? n->family : "misc", n->format.name);
    int *paired = calloc((size_t)b.n + 1, sizeof *paired), lines = 0;
    gen_out body = {0};
    if (strcmp(o->format.name, n->format.name)) {
        out_printf(&body, "  module relic._gen.%s_%s -> %s\n", n->family ? n->family : "misc", o->format.name, module);
        lines++;
    }
    for (int i = 0; i < a.n; i++) {
        if (py_find(&b, a.name[i]) >= 0) continue;
        size_t c = py_container(a.name[i]);
        int ren = -1;
        for (int j = 0; j < b.n && ren < 0 && c > 0; j++)
            if (!paired[j] && py_find(&a, b.name[j]) < 0 && !strcmp(a.what[i], b.what[j]) && py_container(b.name[j]) == c &&
                !strncmp(a.name[i], b.name[j], c))
                ren = j;
        if (ren >= 0) {
            paired[ren] = 1;
            out_printf(&body, "  renamed: %s -> %s (%s)\n", a.name[i], b.name[ren], a.what[i]);
        } else out_printf(&body, "  removed: %s%s%s%s\n", a.name[i], *a.what[i] ? " (" : "", a.what[i], *a.what[i] ? ")" : "");
        lines++;
    }
    for (int j = 0; j < b.n; j++) {
        int i = py_find(&a, b.name[j]);
        if (i >= 0 && strcmp(a.what[i], b.what[j])) {
            out_printf(&body, "  changed: %s: %s -> %s\n", b.name[j], a.what[i], b.what[j]);
            lines++;
        } else if (i < 0 && !paired[j]) {
            out_printf(&body, "  added: %s%s%s%s\n", b.name[j], *b.what[j] ? " (" : "", b.what[j], *b.what[j] ? ")" : "");
            lines++;
        }
    }
    out_printf(r->o, "python names (%s): %s\n", module, lines ? "changed: update scripts that use them" : "unchanged");
    if (body.data) out_puts(r->o, body.data);
    free(body.data);
    free(paired);
    for (int i = 0; i < a.n; i++) free(a.name[i]), free(a.what[i]);
    for (int j = 0; j < b.n; j++) free(b.name[j]), free(b.what[j]);
    free(a.name), free(a.what), free(b.name), free(b.what);
    return lines;
}

int gen_report(gen_schema *o, gen_schema *n, gen_out *out)
{
    char oldp[128], newp[128];
    snprintf(oldp, sizeof oldp, "relic_%s", o->format.name);
    snprintf(newp, sizeof newp, "relic_%s", n->format.name);
    report r = {out, oldp, newp, 0, 0, 0, 0};
    out_printf(out, "relic-gen report: %s -> %s (format %s)\n", o->file, n->file, n->format.name);
    if (o->format.is_gff || n->format.is_gff) return gff_report(&r, o, n);
    if (strcmp(o->format.name, n->format.name)) {
        line(&r, "format renamed: %s -> %s (every C symbol prefix %s_ -> %s_; JSON \"format\": \"%s\" -> \"%s\")", o->format.name,
             n->format.name, oldp, newp, o->format.name, n->format.name);
        r.api++;
    }
    if (o->format.endian != n->format.endian) { line(&r, "default byte order %s -> %s", o->format.endian == EN_BIG ? "big" : "little", n->format.endian == EN_BIG ? "big" : "little"); }
    if (strcmp(o->format.root->name, n->format.root->name)) {
        line(&r, "root struct %s -> %s (model type %s_%s -> %s_%s)", o->format.root->name, n->format.root->name, oldp, o->format.root->name, newp, n->format.root->name);
        r.layout++;
        r.api++;
    }
    for (int i = 0; i < o->format.nextensions; i++) {
        int found = 0;
        for (int k = 0; k < n->format.nextensions && !found; k++) found = !strcmp(o->format.extensions[i], n->format.extensions[k]);
        if (!found) {
            line(&r, "extension .%s removed (%s_extensions[])", o->format.extensions[i], newp);
            r.api++;
        }
    }
    for (int k = 0; k < n->format.nextensions; k++) {
        int found = 0;
        for (int i = 0; i < o->format.nextensions && !found; i++) found = !strcmp(o->format.extensions[i], n->format.extensions[k]);
        if (!found) {
            line(&r, "extension .%s added (%s_extensions[])", n->format.extensions[k], newp);
            r.api++;
        }
    }
    compare_enums(&r, o, n);
    for (int i = 0; i < o->nstructs; i++) {
        const gen_struct *a = o->structs[i], *b = gen_find_struct(n, a->name);
        if (!b) {
            line(&r, "struct %s removed (C: %s_%s%s)", a->name, oldp, a->name, a->fixed_size >= 0 ? ", its view and accessors" : "");
            r.layout++;
            r.api++;
            continue;
        }
        if (a->fixed_size != b->fixed_size) {
            char x[32] = "variable", y[32] = "variable";
            if (a->fixed_size >= 0) snprintf(x, sizeof x, "%lld bytes", (long long)a->fixed_size);
            if (b->fixed_size >= 0) snprintf(y, sizeof y, "%lld bytes", (long long)b->fixed_size);
            line(&r, "struct %s: size %s -> %s (%s_%s_SIZE%s)", a->name, x, y, em_upper(newp), em_upper(a->name),
                 b->fixed_size < 0 ? " and its zero-copy view are gone" : a->fixed_size < 0 ? " and a zero-copy view are new"
                                                                                            : "");
            r.layout++;
            r.api++;
        }
        if (a->tuple != b->tuple) {
            line(&r, "struct %s: JSON form %s -> %s", a->name, a->tuple ? "array (tuple)" : "object", b->tuple ? "array (tuple)" : "object");
            r.api++;
        }
        compare_fields(&r, a, b);
    }
    for (int i = 0; i < n->nstructs; i++) {
        const gen_struct *b = n->structs[i];
        if (!gen_find_struct(o, b->name)) {
            char sz[32] = "variable";
            if (b->fixed_size >= 0) snprintf(sz, sizeof sz, "%lld bytes", (long long)b->fixed_size);
            line(&r, "struct %s added (%s; C: %s_%s)", b->name, sz, newp, b->name);
            r.api++;
        }
    }
    if (!r.lines) out_puts(out, "  no change to types, fields, offsets, sizes, C symbols or JSON keys\n");
    python_report(&r, o, n);
    if (r.layout)
        out_puts(out, "existing files: NO LONGER READ as before: the layout changed (fields moved, resized, byte-swapped, added or removed)\n");
    else if (r.tighter)
        out_puts(out, "existing files: still laid out the same, but some may now be rejected (tighter constants, ranges, checks or enums)\n");
    else
        out_puts(out, "existing files: still read (same layout, no tighter rule)\n");
    out_printf(out, "bindings: %s\n", r.api ? "C symbols or JSON keys changed: rebuild and update callers" : "C symbols and JSON keys unchanged");
    return r.lines;
}
