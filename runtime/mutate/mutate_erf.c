/* mutate_erf.c — structure-aware mutators for whole ERF V1.0/V1.1 and RIM
 * V1.0 containers (`relic mutate` and the fuzz targets, issue 8). The generated mutators of
 * schema/aurora/erf.schema and rim.schema see the header and tables only
 * (the schemas stop there: each resource's bytes are placed by its table
 * entry, xoreos, src/aurora/erffile.cpp; neverwinter.nim, erf.nim), so their writer drops the resource data and
 * valid mutants were rare. These reuse the generated tables (header,
 * localized strings, keys, resource list / entry table: values, grow,
 * shrink, swap, splice) but load with the container reader
 * (relic_erf_open: every resource inside the file, outside the tables, no
 * overlaps) and write with the container writer (relic_erf_archive_write,
 * the input's own layout kept where the entries still fit, else packed),
 * so every resource keeps its bytes: entry i's data are the input's bytes
 * at its (possibly mutated) offset and size, cut at the end of the file. */
#include <string.h>

#include "erf.h"
#include "mutate_arena.h"
#include "relic_mutate_formats.h"
#include "relic_erf.h"
#include "rim.h"

/* The model the generated tables walk comes first, so the mutator sees a
 * plain relic_erf_file / relic_rim_file; the container's bytes follow. */
typedef struct erf_model {
    relic_erf_file erf;
    const uint8_t *file;
    size_t size;
} erf_model;

typedef struct rim_model {
    relic_rim_file rim;
    const uint8_t *file;
    size_t size;
} rim_model;

/* The container check `relic check` starts with, for one kind. */
static relic_status open_kind(const uint8_t *data, size_t size, relic_erf_kind kind, relic_arena *a,
                              relic_erf_archive *ar, relic_error *err)
{
    relic_status st = relic_erf_open(data, size, a, ar, err);
    if (st == RELIC_OK && ar->kind != kind)
        st = relic_fail(err, RELIC_E_MAGIC, 0, "header.file_type", "%s",
                        kind == RELIC_ERF_KIND_RIM ? "an ERF, not a RIM" : "a RIM, not an ERF");
    return st;
}

/* The container check, its archive in scratch (given back afterwards). */
static relic_status validate_kind(const uint8_t *data, size_t size, relic_erf_kind kind, relic_arena *scratch,
                                  relic_error *err)
{
    relic_erf_archive ar;
    mut_mark m = mut_arena_mark(scratch);
    relic_status st = open_kind(data, size, kind, scratch, &ar, err);
    mut_arena_rewind(scratch, m);
    return st;
}

static relic_status erf_validate(const uint8_t *data, size_t size, relic_arena *scratch, relic_error *err)
{
    return validate_kind(data, size, RELIC_ERF_KIND_ERF, scratch, err);
}

static relic_status rim_validate(const uint8_t *data, size_t size, relic_arena *scratch, relic_error *err)
{
    return validate_kind(data, size, RELIC_ERF_KIND_RIM, scratch, err);
}

static relic_status erf_load(const uint8_t *data, size_t size, relic_arena *a, void **model, relic_error *err)
{
    relic_status st = erf_validate(data, size, a, err);
    if (st != RELIC_OK) return st;
    relic_erf_view v;
    if ((st = relic_erf_validate(data, size, &v, err)) != RELIC_OK) return st;
    erf_model *m = relic_arena_alloc(a, sizeof *m, 16);
    if (!m) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the model");
    memset(m, 0, sizeof *m);
    m->file = data;
    m->size = size;
    *model = m;
    return relic_erf_decode(&v, a, &m->erf, err);
}

static relic_status rim_load(const uint8_t *data, size_t size, relic_arena *a, void **model, relic_error *err)
{
    relic_status st = rim_validate(data, size, a, err);
    if (st != RELIC_OK) return st;
    relic_rim_view v;
    if ((st = relic_rim_validate(data, size, &v, err)) != RELIC_OK) return st;
    rim_model *m = relic_arena_alloc(a, sizeof *m, 16);
    if (!m) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the model");
    memset(m, 0, sizeof *m);
    m->file = data;
    m->size = size;
    *model = m;
    return relic_rim_decode(&v, a, &m->rim, err);
}

/* Entry data: the file's bytes at [offset, offset + size), cut at its end. */
static void place(relic_erf_entry *e, const uint8_t *file, size_t fsize, uint32_t offset, uint32_t size)
{
    e->offset = offset;
    if (offset >= fsize) size = 0;
    else if (size > fsize - offset) size = (uint32_t)(fsize - offset);
    e->size = size;
    e->data = size ? file + offset : file;
}

/* A NUL-terminated ResRef from up to n stored characters (NUL-padded). */
static void resref(char *dst, const char *src, size_t n)
{
    size_t k = 0;
    while (k < n && k < RELIC_ERF_RESREF_MAX && src[k]) {
        dst[k] = src[k];
        k++;
    }
    dst[k] = 0;
}

/* The container writer, its entry table and scratch from scratch. */
static relic_status write_archive(relic_erf_archive *ar, relic_buf *out, relic_arena *scratch, relic_error *err)
{
    mut_mark m = mut_arena_mark(scratch);
    relic_status st = relic_erf_archive_write(ar, RELIC_ERF_LAYOUT_KEEP, scratch, out, NULL, err);
    mut_arena_rewind(scratch, m);
    return st;
}

static relic_status erf_write(const void *model, relic_buf *out, relic_arena *scratch, relic_error *err)
{
    const erf_model *m = model;
    if (m->erf.keys_count != m->erf.resources_count || m->erf.keys_count > UINT32_MAX)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "keys", "key and resource lists differ in length");
    relic_erf_archive ar;
    memset(&ar, 0, sizeof ar);
    ar.kind = RELIC_ERF_KIND_ERF;
    ar.erf = m->erf;
    ar.count = (uint32_t)m->erf.keys_count;
    ar.file_size = m->size;
    mut_mark mk = mut_arena_mark(scratch);
    ar.entries = relic_arena_array(scratch, ar.count ? ar.count : 1, sizeof *ar.entries, 16);
    if (!ar.entries) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for %u entries", (unsigned)ar.count);
    for (uint32_t i = 0; i < ar.count; i++) {
        const relic_erf_key *k = &m->erf.keys[i];
        relic_erf_entry *e = &ar.entries[i];
        resref(e->resref, k->resref ? k->resref : "", k->resref ? k->resref_count : 0);
        e->res_type = k->res_type;
        e->res_id = k->res_id;
        e->unused = k->unused;
        place(e, m->file, m->size, m->erf.resources[i].offset_to_resource, m->erf.resources[i].resource_size);
    }
    relic_status st = write_archive(&ar, out, scratch, err);
    mut_arena_rewind(scratch, mk);
    return st;
}

static relic_status rim_write(const void *model, relic_buf *out, relic_arena *scratch, relic_error *err)
{
    const rim_model *m = model;
    if (m->rim.entries_count > UINT32_MAX) return relic_fail(err, RELIC_E_LIMIT, 0, "entries", "too many entries");
    relic_erf_archive ar;
    memset(&ar, 0, sizeof ar);
    ar.kind = RELIC_ERF_KIND_RIM;
    ar.rim = m->rim;
    ar.count = (uint32_t)m->rim.entries_count;
    ar.file_size = m->size;
    mut_mark mk = mut_arena_mark(scratch);
    ar.entries = relic_arena_array(scratch, ar.count ? ar.count : 1, sizeof *ar.entries, 16);
    if (!ar.entries) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for %u entries", (unsigned)ar.count);
    for (uint32_t i = 0; i < ar.count; i++) {
        const relic_rim_entry *r = &m->rim.entries[i];
        relic_erf_entry *e = &ar.entries[i];
        resref(e->resref, r->resref, sizeof r->resref);
        e->res_type = r->res_type;
        e->res_id = r->res_id;
        place(e, m->file, m->size, r->offset, r->size);
    }
    relic_status st = write_archive(&ar, out, scratch, err);
    mut_arena_rewind(scratch, mk);
    return st;
}

const relic_mut_format *relic_mutator_erf(void)
{
    static relic_mut_format f;
    static int ready;
    if (!ready) {
        f = relic_erf_mutator;
        f.load = erf_load;
        f.write = erf_write;
        f.validate = erf_validate;
        ready = 1;
    }
    return &f;
}

const relic_mut_format *relic_mutator_rim(void)
{
    static relic_mut_format f;
    static int ready;
    if (!ready) {
        f = relic_rim_mutator;
        f.load = rim_load;
        f.write = rim_write;
        f.validate = rim_validate;
        ready = 1;
    }
    return &f;
}
