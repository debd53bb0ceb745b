/* gff_schema.c — typed GFF files over the generated tables of
 * schema/aurora/{are,git,gic,ifo,itp,gff_common}.schema: the getter behind
 * every typed accessor, the table of typed files, and the `relic check
 * --strict` walk (documented types, ranges, value sets and StructIDs, and
 * the GIC/GIT list correspondence of BioWare Aurora specs, §4). */
#include <stdio.h>
#include <string.h>

#include "are.h"
#include "gic.h"
#include "git.h"
#include "ifo.h"
#include "itp.h"
#include <stdarg.h>
#include <stdio.h>

#include "relic_gff_schema.h"

static const relic_gff_schema *const typed_files[] = {
    &relic_are_schema,
    &relic_git_schema,
    &relic_gic_schema,
    &relic_ifo_schema,
    &relic_itp_schema,
};
#define NTYPED (sizeof typed_files / sizeof typed_files[0])

const relic_gff_schema *relic_gff_schema_for_type(const char *file_type)
{
    for (size_t i = 0; i < NTYPED; i++)
        if (memcmp(typed_files[i]->file_type, file_type, 4) == 0) return typed_files[i];
    return NULL;
}

const relic_gff_schema *relic_gff_schema_named(const char *format)
{
    for (size_t i = 0; i < NTYPED; i++)
        if (strcmp(typed_files[i]->format, format) == 0) return typed_files[i];
    return NULL;
}

static uint64_t record_offset(const relic_gff_doc *d, uint32_t f)
{
    return (uint64_t)(d->v.fields - d->v.base) + 12ull * f;
}

/* Length of the FileType without its space padding ("IFO " -> 3), for messages. */
static int type_len(const relic_gff_doc *d)
{
    int n = 4;
    while (n > 0 && relic_gff_file_type(d)[n - 1] == ' ') n--;
    return n;
}

relic_status relic_gff_typed_get(const relic_gff_doc *d, uint32_t s, const char *label, uint32_t type, void *out,
                                 relic_error *err)
{
    uint32_t f;
    if (!relic_gff_find(d, s, label, &f))
        return relic_fail(err, RELIC_E_ARGUMENT, 0, label, "%.*s field '%s' is absent from struct %u",
                          type_len(d), relic_gff_file_type(d), label, (unsigned)s);
    if (type == RELIC_GFF_ANY) {
        *(uint32_t *)out = f;
        return RELIC_OK;
    }
    uint32_t have = relic_gff_field_type_of(d, f);
    if (have != type)
        return relic_fail(err, RELIC_E_ARGUMENT, record_offset(d, f), label, "%.*s field '%s' is a%s %s, not a%s %s",
                          type_len(d), relic_gff_file_type(d), label, have == 5 ? "n" : "", relic_gff_type_name(have),
                          type == 5 ? "n" : "", relic_gff_type_name(type));
    uint64_t u = 0;
    int64_t i = 0;
    switch (type) {
    case RELIC_GFF_FIELD_TYPE_BYTE:
        relic_gff_get_uint(d, f, &u, err);
        *(uint8_t *)out = (uint8_t)u;
        return RELIC_OK;
    case RELIC_GFF_FIELD_TYPE_WORD:
        relic_gff_get_uint(d, f, &u, err);
        *(uint16_t *)out = (uint16_t)u;
        return RELIC_OK;
    case RELIC_GFF_FIELD_TYPE_DWORD:
        relic_gff_get_uint(d, f, &u, err);
        *(uint32_t *)out = (uint32_t)u;
        return RELIC_OK;
    case RELIC_GFF_FIELD_TYPE_DWORD64: return relic_gff_get_uint(d, f, (uint64_t *)out, err);
    case RELIC_GFF_FIELD_TYPE_CHAR:
        relic_gff_get_int(d, f, &i, err);
        *(int8_t *)out = (int8_t)i;
        return RELIC_OK;
    case RELIC_GFF_FIELD_TYPE_SHORT:
        relic_gff_get_int(d, f, &i, err);
        *(int16_t *)out = (int16_t)i;
        return RELIC_OK;
    case RELIC_GFF_FIELD_TYPE_INT:
        relic_gff_get_int(d, f, &i, err);
        *(int32_t *)out = (int32_t)i;
        return RELIC_OK;
    case RELIC_GFF_FIELD_TYPE_INT64: return relic_gff_get_int(d, f, (int64_t *)out, err);
    case RELIC_GFF_FIELD_TYPE_FLOAT: return relic_gff_get_float(d, f, (float *)out, err);
    case RELIC_GFF_FIELD_TYPE_DOUBLE: return relic_gff_get_double(d, f, (double *)out, err);
    case RELIC_GFF_FIELD_TYPE_CEXOSTRING: return relic_gff_get_string(d, f, (relic_bytes *)out, err);
    case RELIC_GFF_FIELD_TYPE_RESREF: return relic_gff_get_resref(d, f, (relic_bytes *)out, err);
    case RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING: return relic_gff_get_locstring(d, f, (relic_gff_locstring *)out, err);
    case RELIC_GFF_FIELD_TYPE_VOID: return relic_gff_get_void(d, f, (relic_bytes *)out, err);
    case RELIC_GFF_FIELD_TYPE_STRUCT: return relic_gff_get_struct(d, f, (uint32_t *)out, err);
    case RELIC_GFF_FIELD_TYPE_LIST: return relic_gff_get_list(d, f, (relic_gff_list *)out, err);
    case RELIC_GFF_FIELD_TYPE_ORIENTATION: return relic_gff_get_orientation(d, f, (float *)out, err);
    case RELIC_GFF_FIELD_TYPE_VECTOR: return relic_gff_get_vector(d, f, (float *)out, err);
    default: return relic_fail(err, RELIC_E_ARGUMENT, 0, label, "unknown GFF type %u", (unsigned)type);
    }
}

/* ---------------------------------------------------------------- check walk */

typedef struct walk {
    const relic_gff_doc *d;
    relic_problems *pr;
    char path[RELIC_ERROR_PATH_MAX];
    unsigned game; /* relic_gff_game bits of the file; 0 unknown */
} walk;

/* Whether a rule of games (0: every game) applies to the walk's file. */
static int applies(const walk *w, unsigned games)
{
    return games == 0 || (w->game & games) != 0;
}

/* A problem, its message ending with whose rule it broke and the file's game. */
static void problem(walk *w, unsigned games, relic_status code, uint64_t offset, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
static void problem(walk *w, unsigned games, relic_status code, uint64_t offset, const char *path, const char *fmt, ...)
{
    char msg[RELIC_ERROR_MESSAGE_MAX], rule[48], file[48];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!games && !w->game) { /* a rule of every game, the file's game unknown: nothing to add */
        relic_problem(w->pr, code, offset, path, "%s", msg);
        return;
    }
    relic_problem(w->pr, code, offset, path, "%s (%s rule; file: %s)", msg,
                  games ? relic_gff_game_names(games, rule, sizeof rule) : "every game's",
                  relic_gff_game_names(w->game, file, sizeof file));
}

/* Append "/seg" (or "seg" at the root) to w->path; returns the old length. */
static size_t push(walk *w, const char *seg, size_t seglen)
{
    size_t n = strlen(w->path);
    snprintf(w->path + n, sizeof w->path - n, "%s%.*s", n ? "/" : "", (int)seglen, seg);
    return n;
}

static const relic_gff_sfield *documented(const relic_gff_sstruct *st, const char *label, size_t len)
{
    for (uint32_t i = 0; i < st->field_count; i++)
        if (strlen(st->fields[i].label) == len && memcmp(st->fields[i].label, label, len) == 0) return &st->fields[i];
    return NULL;
}

static const char *value_name(const relic_gff_sfield *sf, int64_t v)
{
    for (uint32_t i = 0; i < sf->nvalues; i++)
        if (sf->value_list[i] == v) return sf->value_names[i];
    return NULL;
}

static void check_integer(walk *w, const relic_gff_sfield *sf, uint32_t f, uint32_t type)
{
    int64_t v;
    if (type & 1) {
        relic_gff_get_int(w->d, f, &v, NULL);
    } else {
        uint64_t u;
        relic_gff_get_uint(w->d, f, &u, NULL);
        if (u > INT64_MAX) {
            if (sf->has_range && applies(w, sf->range_games))
                problem(w, sf->range_games, RELIC_E_RANGE, record_offset(w->d, f), w->path, "%llu is outside %lld..%lld",
                        (unsigned long long)u, (long long)sf->lo, (long long)sf->hi);
            return;
        }
        v = (int64_t)u;
    }
    if (sf->has_range && applies(w, sf->range_games) && (v < sf->lo || v > sf->hi))
        problem(w, sf->range_games, RELIC_E_RANGE, record_offset(w->d, f), w->path, "%lld is outside %lld..%lld",
                (long long)v, (long long)sf->lo, (long long)sf->hi);
    if (!sf->closed || !applies(w, sf->values_games)) return;
    if (sf->values == RELIC_GFF_VALUES_ENUM && !value_name(sf, v))
        problem(w, sf->values_games, RELIC_E_RANGE, record_offset(w->d, f), w->path,
                "%lld is not one of the documented values", (long long)v);
    if (sf->values == RELIC_GFF_VALUES_FLAGS) {
        uint64_t mask = 0;
        for (uint32_t i = 0; i < sf->nvalues; i++) mask |= (uint64_t)sf->value_list[i];
        if ((uint64_t)v & ~mask)
            problem(w, sf->values_games, RELIC_E_RANGE, record_offset(w->d, f), w->path,
                    "0x%llX has bits outside the documented flags 0x%llX", (unsigned long long)v, (unsigned long long)mask);
    }
}

static void check_struct(walk *w, const relic_gff_sstruct *st, uint32_t s, uint64_t offset);

static void check_field(walk *w, const relic_gff_sfield *sf, uint32_t f)
{
    const relic_gff_doc *d = w->d;
    uint32_t type = relic_gff_field_type_of(d, f);
    if (sf->type != RELIC_GFF_ANY && type != sf->type) {
        /* a type some games write instead (the NWN1 toolset's BYTE Tile_AnimLoopN) */
        if (sf->alt_games && type == sf->alt_type && (w->game & sf->alt_games)) return;
        problem(w, 0, RELIC_E_LAYOUT, record_offset(d, f), w->path, "is a%s %s, documented as a%s %s",
                type == 5 ? "n" : "", relic_gff_type_name(type), sf->type == 5 ? "n" : "", relic_gff_type_name(sf->type));
        return;
    }
    if (type <= RELIC_GFF_FIELD_TYPE_INT64) {
        check_integer(w, sf, f, type);
    } else if ((type == RELIC_GFF_FIELD_TYPE_FLOAT || type == RELIC_GFF_FIELD_TYPE_DOUBLE) && sf->has_range) {
        double v;
        float x;
        if (type == RELIC_GFF_FIELD_TYPE_FLOAT) {
            relic_gff_get_float(d, f, &x, NULL);
            v = x;
        } else relic_gff_get_double(d, f, &v, NULL);
        if (applies(w, sf->range_games) && !(v >= (double)sf->lo && v <= (double)sf->hi))
            problem(w, sf->range_games, RELIC_E_RANGE, record_offset(d, f), w->path, "%g is outside %lld..%lld", v,
                    (long long)sf->lo, (long long)sf->hi);
    } else if (type == RELIC_GFF_FIELD_TYPE_STRUCT && sf->of) {
        uint32_t child;
        relic_gff_get_struct(d, f, &child, NULL);
        check_struct(w, sf->of, child, record_offset(d, f));
    } else if (type == RELIC_GFF_FIELD_TYPE_LIST && sf->of) {
        relic_gff_list l;
        relic_gff_get_list(d, f, &l, NULL);
        for (uint32_t i = 0; i < l.count; i++) {
            char idx[16];
            size_t n = push(w, idx, (size_t)snprintf(idx, sizeof idx, "%u", (unsigned)i));
            check_struct(w, sf->of, relic_gff_list_at(&l, i), record_offset(d, f));
            w->path[n] = 0;
        }
    }
}

static void check_struct(walk *w, const relic_gff_sstruct *st, uint32_t s, uint64_t offset)
{
    const relic_gff_doc *d = w->d;
    uint32_t id = relic_gff_doc_struct_id(d, s);
    if (st->nids) {
        /* per-game StructIDs: the file's game's (any game's when unknown) */
        unsigned games = 0;
        int known = 0, match = 0;
        char ids[96];
        size_t k = 0;
        ids[0] = 0;
        for (uint32_t i = 0; i < st->nids; i++)
            if (!w->game || (st->ids[i].games & w->game)) {
                known = 1;
                games |= st->ids[i].games;
                match |= st->ids[i].id == id;
                if (k < sizeof ids)
                    k += (size_t)snprintf(ids + k, sizeof ids - k, "%s%u", k ? " or " : "", (unsigned)st->ids[i].id);
            }
        if (known && !match)
            problem(w, games, RELIC_E_LAYOUT, offset, w->path[0] ? w->path : "(top-level struct)",
                    "StructID %u, documented %s (%s)", (unsigned)id, ids, st->name);
    } else if (!st->id_any && id != st->id) {
        problem(w, 0, RELIC_E_LAYOUT, offset, w->path[0] ? w->path : "(top-level struct)", "StructID %u, documented %u (%s)",
                (unsigned)id, (unsigned)st->id, st->name);
    }
    uint32_t n = relic_gff_doc_struct_field_count(d, s);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t f = relic_gff_struct_field(d, s, i);
        size_t len;
        const char *label = relic_gff_field_label(d, f, &len);
        const relic_gff_sfield *sf = documented(st, label, len);
        if (!sf) continue;
        size_t old = push(w, label, len);
        check_field(w, sf, f);
        w->path[old] = 0;
    }
}

unsigned relic_gff_schema_check(const relic_gff_schema *sc, const relic_gff_doc *d, relic_problems *pr)
{
    return relic_gff_schema_check_game(sc, d, RELIC_GFF_GAME_UNKNOWN, pr);
}

unsigned relic_gff_schema_check_game(const relic_gff_schema *sc, const relic_gff_doc *d, unsigned game,
                                     relic_problems *pr)
{
    unsigned before = pr->count;
    walk w = {d, pr, {0}, game};
    check_struct(&w, sc->root, 0, (uint64_t)(d->v.structs - d->v.base));
    return pr->count - before;
}

/* Element count of the list labelled label (len bytes) in the root; 0 when absent or not a list. */
static uint32_t root_list_count(const relic_gff_doc *d, const char *label, size_t len, int *present)
{
    uint32_t n = relic_gff_doc_struct_field_count(d, 0);
    *present = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t f = relic_gff_struct_field(d, 0, i);
        size_t l;
        const char *lab = relic_gff_field_label(d, f, &l);
        relic_gff_list list;
        if (l == len && memcmp(lab, label, len) == 0 && relic_gff_field_type_of(d, f) == RELIC_GFF_FIELD_TYPE_LIST) {
            relic_gff_get_list(d, f, &list, NULL);
            *present = 1;
            return list.count;
        }
    }
    return 0;
}

unsigned relic_gff_schema_check_pairs(const relic_gff_schema *sc, const relic_gff_doc *d, const relic_gff_doc *other,
                                      relic_problems *pr)
{
    unsigned before = pr->count;
    for (uint32_t i = 0; i < sc->root->field_count; i++) {
        const relic_gff_sfield *sf = &sc->root->fields[i];
        if (sf->type != RELIC_GFF_FIELD_TYPE_LIST) continue;
        size_t len = strlen(sf->label);
        int here, there;
        uint32_t n = root_list_count(d, sf->label, len, &here), m = root_list_count(other, sf->label, len, &there);
        if (here && n != m)
            relic_problem(pr, RELIC_E_INDEX, 0, sf->label, "%u elements, the paired %s file has %u%s", (unsigned)n,
                          sc->pairs ? sc->pairs : "other", (unsigned)m, there ? "" : " (no such list)");
    }
    return pr->count - before;
}
