/* emit_mutate.c — generated/<family>/<fmt>_mutate.{h,c}: the tables the
 * structure-aware mutator (runtime/mutate/mutate.c, runtime/include/relic/relic_mutate.h) walks
 * a decoded model with, the way nanopb's generated field descriptors drive
 * one generic encoder: per struct, each field's kind, model offset, element
 * size, fixed dimensions, enum/flags values, range, whether it is derived
 * or constant, and for variable arrays how they may be resized (arrays with
 * the same count expression form a group; a plain integer count field is
 * set to the new count). Also the constant-position fields of the root's
 * fixed prefix, for the invalid mode's stale-field patches, and the
 * format's fuzzing dictionary (fuzz/dict/gen_<fmt>.dict). */
#include <stdlib.h>
#include <string.h>

#include "emit.h"

#define MAXF 512

static int struct_index(gen_struct **order, int n, const gen_struct *st)
{
    for (int i = 0; i < n; i++)
        if (order[i] == st) return i;
    return -1;
}

/* 1 when every name in e refers to a derived field (the writer recomputes
 * them from the model, so the count follows the array). */
static int names_all_derived(const gen_expr *e)
{
    if (!e) return 1;
    if (e->kind == EX_NAME) return e->ref && e->ref->is_derived;
    if (e->kind == EX_IT || e->kind == EX_CALL) return 0;
    return names_all_derived(e->a) && names_all_derived(e->b);
}

/* offsetof chain of a dotted count path from struct start: "offsetof(..) + ..". */
static int count_chain(gen_schema *s, const gen_struct *start, const gen_expr *e, gen_out *o)
{
    const gen_struct *cur = start;
    for (int i = 0; i < e->npath; i++) {
        gen_field *f = gen_find_field((gen_struct *)cur, e->path[i]);
        if (!f || !em_is_scalar(f)) return 0;
        out_printf(o, "%soffsetof(%s_%s, %s)", i ? " + " : "", em_prefix(s), cur->name, f->name);
        if (i + 1 < e->npath) {
            if (!f->stype) return 0;
            cur = f->stype;
        } else if (!em_is_int(f->prim) || f->is_derived || f->init || f->const_str) {
            return 0;
        }
    }
    return 1;
}

static void emit_values(gen_schema *s, gen_out *o)
{
    int any = 0;
    for (int i = 0; i < s->nenums; i++) {
        const gen_enum *e = s->enums[i];
        if (!e->nitems) continue;
        out_printf(o, "static const int64_t values_%s[] = {", e->name);
        for (int k = 0; k < e->nitems; k++) out_printf(o, "%s INT64_C(%lld)", k ? "," : "", (long long)e->items[k].value);
        out_puts(o, " };\n");
        any = 1;
    }
    if (any) out_puts(o, "\n");
}

static void emit_field_row(gen_schema *s, gen_out *o, gen_struct **order, int norder, const gen_struct *st,
                           gen_field **fs, int nf, int k, const gen_struct *root)
{
    const char *P = em_prefix(s);
    const gen_field *f = fs[k];
    const char *kind = f->stype ? "RELIC_MUT_STRUCT" : f->prim == P_CHAR ? "RELIC_MUT_CHAR"
        : f->prim == P_BYTES                                             ? "RELIC_MUT_BYTES"
        : gen_prim_is_float(f->prim)                                     ? "RELIC_MUT_FLOAT"
                                                                         : "RELIC_MUT_INT";
    gen_out fl = {0}, cf = {0};
    int var = f->count || f->count_rest, cfsize = 0, cfsigned = 0;
    if (f->is_derived) out_puts(&fl, " | RELIC_MUTF_DERIVED");
    if (f->const_str || (f->init && !f->is_derived)) out_puts(&fl, " | RELIC_MUTF_CONST");
    if (f->has_range) out_puts(&fl, " | RELIC_MUTF_RANGE");
    if (f->etype) {
        out_puts(&fl, f->etype->is_flags ? " | RELIC_MUTF_FLAGS" : " | RELIC_MUTF_ENUM");
        if (!f->etype->open) out_puts(&fl, " | RELIC_MUTF_CLOSED");
    }
    if (gen_prim_is_signed(f->prim) && !gen_prim_is_float(f->prim)) out_puts(&fl, " | RELIC_MUTF_SIGNED");
    if (f->check) out_puts(&fl, " | RELIC_MUTF_CHECK");
    if (f->codec || f->hook) out_puts(&fl, " | RELIC_MUTF_ENCODED");
    int group = -1;
    if (var) {
        out_puts(&fl, " | RELIC_MUTF_VAR");
        int resize = 0;
        if (f->count_rest) {
            resize = 1;
        } else if (f->count->kind == EX_NAME && f->count->ref && !f->count->ref->is_derived) {
            const gen_struct *start = f->count->root_scope ? root : st;
            if (!f->count->root_scope || st == root) {
                gen_out chain = {0};
                if (count_chain(s, start, f->count, &chain)) {
                    resize = 1;
                    out_puts(&fl, " | RELIC_MUTF_COUNT_FIELD");
                    if (f->count->root_scope && st != root) out_puts(&fl, " | RELIC_MUTF_COUNT_IN_ROOT");
                    out_puts(&cf, chain.data);
                    cfsize = gen_prim_size(f->count->ref->prim);
                    cfsigned = gen_prim_is_signed(f->count->ref->prim);
                }
                free(chain.data);
            }
        } else if (names_all_derived(f->count)) {
            resize = 1;
        }
        if (resize) out_puts(&fl, " | RELIC_MUTF_RESIZE");
        /* group: the first variable array of the struct with the same count text */
        gen_out mine = {0};
        if (f->count) em_expr_text(&mine, f->count);
        group = k;
        for (int j = 0; j < k && f->count; j++) {
            if (!fs[j]->count) continue;
            gen_out other = {0};
            em_expr_text(&other, fs[j]->count);
            int same = other.size == mine.size && memcmp(other.data, mine.data, mine.size) == 0;
            free(other.data);
            if (same) {
                group = j;
                break;
            }
        }
        free(mine.data);
    }
    char elem[200];
    if (f->stype) snprintf(elem, sizeof elem, "sizeof(%s_%s)", P, f->stype->name);
    else snprintf(elem, sizeof elem, "%d", gen_prim_size(f->prim));
    out_printf(o, "    { \"%s\", %s, 0%s, %d, %d, %d, %lldu, offsetof(%s_%s, %s), ", f->name, kind, fl.size ? fl.data : "",
               f->stype ? 0 : gen_prim_size(f->prim), f->stype ? struct_index(order, norder, f->stype) : -1, group,
               (long long)em_fixed_elems(f), P, st->name, f->name);
    if (var) out_printf(o, "offsetof(%s_%s, %s_count), ", P, st->name, f->name);
    else out_puts(o, "0, ");
    out_printf(o, "%s, ", elem);
    if (f->etype && f->etype->nitems) out_printf(o, "values_%s, %d, ", f->etype->name, f->etype->nitems);
    else out_puts(o, "NULL, 0, ");
    if (f->has_range) out_printf(o, "INT64_C(%lld), INT64_C(%lld), ", (long long)f->range_lo, (long long)f->range_hi);
    else out_puts(o, "0, 0, ");
    out_printf(o, "%s, %d, %d },\n", cf.size ? cf.data : "0", cfsize, cfsigned);
    free(fl.data);
    free(cf.data);
    (void)nf;
}

/* Constant-position fields of the root's sequential prefix (derived or
 * constant), through nested fixed-size structs. */
static void collect_patches(gen_out *o, const gen_member *m, int n, int64_t base, const char *prefix, int *count)
{
    for (int i = 0; i < n; i++) {
        if (m[i].kind != M_FIELD) continue;
        const gen_field *f = m[i].field;
        if (f->at || f->fixed_offset < 0 || !em_is_scalar(f) || f->count || f->count_rest) continue;
        char path[300];
        snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", f->name);
        int64_t off = base + f->fixed_offset;
        if (f->stype) {
            if (f->stype->fixed_size >= 0) collect_patches(o, f->stype->members, f->stype->nmembers, off, path, count);
            continue;
        }
        int what = f->is_derived ? 1 : (f->const_str || f->init) ? 2
                                                                 : 0;
        if (!what || off > 0xFFFFFFFFll) continue;
        int size = f->const_str ? f->const_len : gen_prim_size(f->prim);
        out_printf(o, "    { \"%s\", %lldu, %d, %d, %s },\n", path, (long long)off, size, f->endian == EN_BIG,
                   what == 1 ? "RELIC_MUT_PATCH_DERIVED" : "RELIC_MUT_PATCH_CONST");
        (*count)++;
    }
}

/* The mutator's declaration, in <fmt>.h beside the JSON functions (the type
 * is relic_mutate.h's; the table is in librelic-mutate). */
void emit_mutate_header(gen_schema *s, gen_out *o)
{
    const char *P = em_prefix(s);
    out_printf(o,
               "/** The %s model as relic_mutate() walks it (librelic-mutate, relic_mutate.h): pass it with a\n"
               " *  %s file to get a mutated file, e.g. relic_mutate(&%s_mutator, data, size, NULL, 0, seed, 0, &out, &log, &err). */\n"
               "extern const struct relic_mut_format %s_mutator;\n\n",
               s->format.name, s->format.name, P, P);
}

void emit_mutate(gen_schema *s, gen_out *o)
{
    const char *P = em_prefix(s);
    const char *F = s->format.name;
    if (s->nstructs > 256) {
        gen_error(s->format.loc, "the mutator tables take at most 256 structs (this schema has %d)", s->nstructs);
        return;
    }
    gen_struct *order[256];
    int norder = em_struct_order(s, order);
    char M[256];
    snprintf(M, sizeof M, "%s_%s", P, s->format.root->name);

    out_printf(o, "/* Generated by relic-gen from %s. Do not edit: change the schema and run `make regen`.\n", s->file);
    out_printf(o,
               " *\n * Tables of the %s model for the structure-aware mutator (runtime/mutate/mutate.c):\n"
               " * per struct, each field's kind, offset, element size, values and resize rule;\n"
               " * the root's constant-position derived and constant fields; load/write/validate.\n */\n",
               F);
    out_printf(o, "#include <stddef.h>\n#include <stdint.h>\n\n#include \"relic_gen.h\"\n#include \"relic_mutate.h\"\n#include \"%s.h\"\n\n", F);
    emit_values(s, o);

    for (int i = 0; i < norder; i++) {
        const gen_struct *st = order[i];
        gen_field *fs[MAXF];
        int nf = em_fields(st, fs, MAXF);
        if (nf == 0) continue;
        out_printf(o, "static const relic_mut_field fields_%s[] = {\n", st->name);
        for (int k = 0; k < nf; k++) emit_field_row(s, o, order, norder, st, fs, nf, k, s->format.root);
        out_puts(o, "};\n\n");
    }
    out_puts(o, "static const relic_mut_struct structs[] = {\n");
    for (int i = 0; i < norder; i++) {
        const gen_struct *st = order[i];
        gen_field *fs[MAXF];
        int nf = em_fields(st, fs, MAXF);
        if (nf) out_printf(o, "    { \"%s\", sizeof(%s_%s), fields_%s, %d },\n", st->name, P, st->name, st->name, nf);
        else out_printf(o, "    { \"%s\", sizeof(%s_%s), NULL, 0 },\n", st->name, P, st->name);
    }
    out_puts(o, "};\n\n");

    gen_out pt = {0};
    int npatches = 0;
    collect_patches(&pt, s->format.root->members, s->format.root->nmembers, 0, "", &npatches);
    if (npatches) out_printf(o, "static const relic_mut_patch patches[] = {\n%s};\n\n", pt.data);
    free(pt.data);

    /* load and check through relic_<f>_ops (gen_support.c), write with the writer */
    out_printf(o, "static relic_status mut_load(const uint8_t *data, size_t size, relic_arena *a, void **model, relic_error *err) { return relic_gen_ops_load(&%s_ops, data, size, a, model, err); }\n", P);
    out_printf(o, "static relic_status mut_write(const void *model, relic_buf *out, RELIC_GEN_UNUSED relic_arena *scratch, relic_error *err) { return %s_write(model, out, err); }\n", P);
    out_printf(o, "static relic_status mut_validate(const uint8_t *data, size_t size, relic_arena *scratch, relic_error *err) { return relic_gen_ops_check(&%s_ops, data, size, scratch, err); }\n\n", P);
    out_printf(o,
               "const relic_mut_format %s_mutator = {\n"
               "    \"%s\", structs, %d, %d, %s, %d, mut_load, mut_write, mut_validate,\n"
               "};\n",
               P, F, norder, struct_index(order, norder, s->format.root), npatches ? "patches" : "NULL", npatches);
}

/* ---- fuzzing dictionary ---- */

typedef struct dict {
    gen_out *o;
    char seen[512][80];
    int n;
} dict;

static void dict_add(dict *d, const char *comment, const uint8_t *p, int len)
{
    char text[80];
    int k = 0;
    for (int i = 0; i < len && k < 70; i++) k += snprintf(text + k, sizeof text - (size_t)k, "\\x%02X", p[i]);
    text[k] = 0;
    for (int i = 0; i < d->n; i++)
        if (!strcmp(d->seen[i], text)) return;
    if (d->n < 512) snprintf(d->seen[d->n++], 80, "%s", text);
    out_printf(d->o, "# %s\n\"%s\"\n", comment, text);
}

static void dict_int(dict *d, const char *comment, int64_t v, int size, int big)
{
    uint8_t b[8];
    if (size < 1 || size > 8) return;
    for (int i = 0; i < size; i++) b[big ? size - 1 - i : i] = (uint8_t)((uint64_t)v >> (8 * i));
    dict_add(d, comment, b, size);
}

void emit_fuzz_dict(gen_schema *s, gen_out *o)
{
    dict d = {o, {{0}}, 0};
    int big = s->format.endian == EN_BIG;
    out_printf(o, "# Generated by relic-gen from %s. Do not edit: change the schema and run `make regen`.\n", s->file);
    out_printf(o, "# libFuzzer dictionary of the %s format: magics and constants, enum values,\n"
                  "# range bounds and documented struct sizes, in the file's byte order.\n",
               s->format.name);
    char c[300];
    for (int i = 0; i < s->nstructs; i++) {
        const gen_struct *st = s->structs[i];
        gen_field *fs[MAXF];
        int nf = em_fields(st, fs, MAXF);
        for (int k = 0; k < nf; k++) {
            const gen_field *f = fs[k];
            int fbig = f->endian == EN_BIG, size = gen_prim_size(f->prim);
            if (f->const_str) {
                snprintf(c, sizeof c, "%s.%s constant", st->name, f->name);
                dict_add(&d, c, (const uint8_t *)f->const_str, f->const_len);
            } else if (f->init && f->init->kind == EX_INT && em_is_int(f->prim)) {
                snprintf(c, sizeof c, "%s.%s constant", st->name, f->name);
                dict_int(&d, c, f->init->ival, size, fbig);
            }
            if (f->has_range && em_is_int(f->prim)) {
                snprintf(c, sizeof c, "%s.%s range bound", st->name, f->name);
                dict_int(&d, c, f->range_lo, size, fbig);
                dict_int(&d, c, f->range_hi, size, fbig);
            }
            if (f->etype && em_is_int(f->prim)) {
                for (int e = 0; e < f->etype->nitems; e++) {
                    snprintf(c, sizeof c, "%s.%s = %s", st->name, f->name, f->etype->items[e].name);
                    dict_int(&d, c, f->etype->items[e].value, size, fbig);
                }
            }
        }
        if (st->fixed_size > 0) {
            snprintf(c, sizeof c, "size of %s", st->name);
            dict_int(&d, c, st->fixed_size, 4, big);
        }
    }
}
