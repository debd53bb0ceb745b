/* sema_gff.c — semantic checks of typed GFF schemas (a format block with
 * `gff`): what a typed file (ARE, GIT, IFO ...) documents about the structs
 * of a GFF V3.2 file, by label, GFF type, StructID, range and value set.
 * Resolves `of` structs and enums and gives each field its C name.
 * Reference: gen/SCHEMA.md "Typed GFF schemas". */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"

/* clang-format off */
static const char *const gff_type_names[] = {
    "byte", "char", "word", "short", "dword", "int", "dword64", "int64", "float", "double",
    "cexostring", "resref", "cexolocstring", "void", "struct", "list", "orientation", "vector", "any",
};
/* clang-format on */

const char *gen_gff_type_name(int t)
{
    return t >= 0 && t <= GFF_T_ANY ? gff_type_names[t] : "?";
}

int gen_gff_type_of(const char *name)
{
    for (int t = 0; t <= GFF_T_ANY; t++)
        if (strcmp(name, gff_type_names[t]) == 0) return t;
    return -1;
}

static int is_int_type(int t) { return t <= GFF_T_INT64; }

/* Bounds of an integer GFF type. */
static void int_bounds(int t, int64_t *lo, int64_t *hi)
{
    static const int bits[] = {8, 8, 16, 16, 32, 32, 64, 64};
    int sgn = t & 1, b = bits[t];
    if (b == 64) {
        *lo = sgn ? INT64_MIN : 0;
        *hi = INT64_MAX;
        return;
    }
    *lo = sgn ? -(INT64_C(1) << (b - 1)) : 0;
    *hi = sgn ? (INT64_C(1) << (b - 1)) - 1 : (INT64_C(1) << b) - 1;
}

static int is_identifier(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_')) return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_')) return 0;
    return 1;
}

/* ChanceLightning -> chance_lightning, Tile_ID -> tile_id, XPScale -> xp_scale. */
static const char *snake_case(const char *label)
{
    char buf[64];
    size_t n = 0, len = strlen(label);
    for (size_t i = 0; i < len && n + 2 < sizeof buf; i++) {
        char c = label[i], prev = i ? label[i - 1] : 0, next = label[i + 1];
        if (isupper((unsigned char)c) && i && prev != '_' &&
            (islower((unsigned char)prev) || isdigit((unsigned char)prev) || (isupper((unsigned char)prev) && islower((unsigned char)next))))
            buf[n++] = '_';
        if (c == '_' && n && buf[n - 1] == '_') continue;
        buf[n++] = (char)tolower((unsigned char)c);
    }
    return gen_strndup(buf, n);
}

/* clang-format off */
static const char *const c_keywords[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
    "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
    "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while", NULL,
};
/* clang-format on */

static int is_keyword(const char *s)
{
    for (int i = 0; c_keywords[i]; i++)
        if (strcmp(s, c_keywords[i]) == 0) return 1;
    return 0;
}

static void check_field(gen_schema *s, gen_struct *st, gen_field *f)
{
    size_t llen = strlen(f->label);
    if (llen == 0 || llen > 16) gen_error(f->loc, "GFF label '%s' has %zu bytes (1 to 16)", f->label, llen);
    if (!f->name) {
        if (!is_identifier(f->label)) {
            gen_error(f->loc, "label \"%s\" is not an identifier: give the field a C name with 'as NAME'", f->label);
            f->name = "?";
        } else {
            f->name = snake_case(f->label);
        }
    }
    if (is_keyword(f->name)) gen_error(f->loc, "C name '%s' of field '%s' is a C keyword: give another with 'as NAME'", f->name, f->label);
    f->owner = st;
    int t = f->gff_type;
    if (t == GFF_T_STRUCT || t == GFF_T_LIST) {
        if (!f->type_name) gen_error(f->loc, "%s field '%s' needs 'of STRUCT' (its %s)", gen_gff_type_name(t), f->label,
                                     t == GFF_T_LIST ? "elements' struct" : "struct");
        else if (!(f->stype = gen_find_struct(s, f->type_name)))
            gen_error(f->loc, "struct '%s' (of field '%s') is not declared", f->type_name, f->label);
    } else if (f->type_name) {
        gen_error(f->loc, "'of' is for struct and list fields; '%s' is a %s", f->label, gen_gff_type_name(t));
    }
    int64_t lo = INT64_MIN, hi = INT64_MAX;
    if (is_int_type(t)) int_bounds(t, &lo, &hi);
    if (f->enum_name) {
        if (!is_int_type(t)) gen_error(f->loc, "': %s' needs an integer field; '%s' is a %s", f->enum_name, f->label, gen_gff_type_name(t));
        else if (!(f->etype = gen_find_enum(s, f->enum_name)))
            gen_error(f->loc, "enum or flags '%s' is not declared", f->enum_name);
        else
            for (int k = 0; k < f->etype->nitems; k++)
                if (f->etype->items[k].value < lo || f->etype->items[k].value > hi)
                    gen_error(f->loc, "value %lld of '%s' does not fit field '%s' (%s)", (long long)f->etype->items[k].value,
                              f->etype->items[k].name, f->label, gen_gff_type_name(t));
    }
    if (f->has_range) {
        if (!is_int_type(t) && t != GFF_T_FLOAT && t != GFF_T_DOUBLE)
            gen_error(f->loc, "a range needs a number field; '%s' is a %s", f->label, gen_gff_type_name(t));
        else if (f->range_lo > f->range_hi)
            gen_error(f->loc, "range %lld..%lld of '%s' is empty", (long long)f->range_lo, (long long)f->range_hi, f->label);
        else if (f->range_lo < lo || f->range_hi > hi)
            gen_error(f->loc, "range %lld..%lld does not fit field '%s' (%s)", (long long)f->range_lo, (long long)f->range_hi,
                      f->label, gen_gff_type_name(t));
    }
}

static void mark_used(gen_struct *st)
{
    if (st->used) return;
    st->used = 1;
    for (int i = 0; i < st->nmembers; i++)
        if (st->members[i].field->stype) mark_used(st->members[i].field->stype);
}

/* The generated names: accessors relic_<f>_[<struct>_]<field>, tables
 * relic_<f>_<struct>_struct, relic_<f>_schema, enums relic_<f>_<enum>_name. */
static void check_names(gen_schema *s)
{
    const char **names = NULL;
    gen_loc *locs = NULL;
    int n = 0;
    char buf[300];
#define ADD(loc_, ...)                                                                            \
    do {                                                                                          \
        snprintf(buf, sizeof buf, __VA_ARGS__);                                                   \
        for (int k_ = 0; k_ < n; k_++)                                                            \
            if (strcmp(names[k_], buf) == 0) {                                                    \
                gen_error(loc_, "generated name %s is also made at line %d", buf, locs[k_].line); \
                break;                                                                            \
            }                                                                                     \
        names = realloc(names, sizeof *names * (size_t)(n + 1));                                  \
        locs = realloc(locs, sizeof *locs * (size_t)(n + 1));                                     \
        names[n] = gen_strndup(buf, strlen(buf));                                                 \
        locs[n++] = (loc_);                                                                       \
    } while (0)
    const char *f = s->format.name;
    ADD(s->format.loc, "relic_%s_schema", f);
    for (int i = 0; i < s->nenums; i++)
        if (!s->enums[i]->external) ADD(s->enums[i]->loc, "relic_%s_%s_name", f, s->enums[i]->name);
    for (int i = 0; i < s->nstructs; i++) {
        gen_struct *st = s->structs[i];
        if (st->external) continue;
        ADD(st->loc, "relic_%s_%s_struct", f, st->name);
        for (int j = 0; j < st->nmembers; j++) {
            gen_field *fl = st->members[j].field;
            if (st->is_root) ADD(fl->loc, "relic_%s_%s", f, fl->name);
            else ADD(fl->loc, "relic_%s_%s_%s", f, st->name, fl->name);
        }
    }
#undef ADD
    free(names);
    free(locs);
}

int gen_check_gff(gen_schema *s)
{
    int before = gen_error_count();
    gen_format *fmt = &s->format;
    if (!fmt->doc) gen_error(fmt->loc, "format '%s' needs a doc string", fmt->name);
    if (!fmt->source) gen_error(fmt->loc, "format '%s' needs a source reference (source \"...\";)", fmt->name);
    if (fmt->gff_type) {
        if (!fmt->root_name) gen_error(fmt->loc, "format '%s' has no 'root STRUCT;'", fmt->name);
        else if (!(fmt->root = gen_find_struct(s, fmt->root_name)))
            gen_error(fmt->loc, "root struct '%s' is not declared", fmt->root_name);
        else if (fmt->root->external)
            gen_error(fmt->loc, "root struct '%s' belongs to '%s'", fmt->root_name, fmt->root->external);
        if (fmt->root) fmt->root->is_root = 1;
    } else {
        if (fmt->root_name) gen_error(fmt->loc, "a common typed GFF schema (`gff;` without a FileType) has no root");
        if (fmt->pairs) gen_error(fmt->loc, "'pairs' needs a file type (`gff \"GIC \";`)");
    }
    if (fmt->endian == EN_BIG) gen_error(fmt->loc, "GFF is little-endian");
    for (int i = 0; i < s->nstructs; i++) {
        gen_struct *st = s->structs[i];
        if (st->external) continue;
        if (!st->has_id) gen_error(st->loc, "struct '%s' needs its StructID: 'id N' or 'id any'", st->name);
        else if (!st->id_any && (st->gff_id < 0 || st->gff_id > 0xFFFFFFFFll))
            gen_error(st->loc, "StructID %lld of '%s' does not fit 32 bits", (long long)st->gff_id, st->name);
        for (int k = 0; k < st->nids; k++)
            if (st->ids[k] < 0 || st->ids[k] > 0xFFFFFFFFll)
                gen_error(st->loc, "StructID %lld of '%s' does not fit 32 bits", (long long)st->ids[k], st->name);
        if (st->doc_size >= 0 || st->tuple) gen_error(st->loc, "'size' and 'tuple' are for binary structs, not typed GFF ones");
        if (!st->doc) gen_error(st->loc, "struct '%s' needs a doc string", st->name);
        for (int j = 0; j < st->nmembers; j++) {
            gen_field *f = st->members[j].field;
            check_field(s, st, f);
            for (int k = 0; k < j; k++) {
                gen_field *g = st->members[k].field;
                if (strcmp(f->label, g->label) == 0)
                    gen_error(f->loc, "label '%s' repeats line %d in struct '%s'", f->label, g->loc.line, st->name);
                else if (strcmp(f->name, g->name) == 0)
                    gen_error(f->loc, "C name '%s' repeats line %d in struct '%s': give one of them 'as NAME'", f->name,
                              g->loc.line, st->name);
            }
        }
    }
    if (fmt->root) {
        mark_used(fmt->root);
        for (int i = 0; i < s->nstructs; i++)
            if (!s->structs[i]->used && !s->structs[i]->external)
                gen_error(s->structs[i]->loc, "struct '%s' is never used", s->structs[i]->name);
    }
    if (gen_error_count() == before) check_names(s);
    return gen_error_count() - before;
}
