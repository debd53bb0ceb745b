/* make_fuzz_seeds.c — seed corpora for the generated fuzz targets (issue 8
 * deliver 2: "seed corpora ... generated from the schemas into fuzz/"),
 * run by `make fuzz-seeds`: for each schema, fuzz/corpus/gen_<f>/seed-*.
 *
 * Bases, each a file the format's generated validator accepts:
 *  - the smallest model: a zeroed model written by the generated writer
 *    (every count and offset recomputed), repaired where zero is not a
 *    value of the schema (enums get their first item, ranges their low
 *    end, fields under a check the first small value that validates,
 *    resizable arrays one element);
 *  - files named on the command line that the format's validator accepts
 *    (`make fuzz-seeds` passes the samples relic's own writers make:
 *    tests/samples/make_format_samples.sh).
 * The bases are written as seeds, then mutants of each in turn from the
 * structure-aware mutator (runtime/mutate/mutate.c, valid mode, fixed seeds), so
 * the same schemas and samples give the same seeds. Seeds are below 64 KiB; at most SEEDS_MAX
 * per target. A generated target (fuzz/gen_<f>.c) missing from the table
 * below, or left without a seed, is reported and makes the exit status 1.
 *
 * Usage: make_fuzz_seeds OUTDIR [FILE...]   (OUTDIR: fuzz/corpus) */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "relic.h"
#include "relic_mutate.h"

#include "bwm.h"
#include "cau.h"
#include "erf.h"
#include "gff.h"
#include "grf_geometry.h"
#include "grf_geometry_v11.h"
#include "grf_geometry_v13.h"
#include "grf_header.h"
#include "grf_mapping.h"
#include "grf_mapping_ref.h"
#include "grf_material.h"
#include "grf_material_v11.h"
#include "grf_mesh.h"
#include "grf_object.h"
#include "grf_region.h"
#include "grf_region_v11.h"
#include "groff.h"
#include "pid.h"
#include "rim.h"
#include "scn_bmp.h"
#include "scn_header.h"
#include "scn_hierarchy.h"
#include "scn_instance44.h"
#include "scn_instance.h"
#include "scn_partitions24.h"
#include "scn_partitions.h"
#include "scn_text.h"
#include "tpa.h"
#include "trn.h"
#include "trrn.h"
#include "watr.h"
#include "wtd.h"
#include "mutate_scratch.h"

/* One row per schema (its fuzz target is fuzz/gen_<name>.c). */
/* clang-format off */
static const relic_mut_format *const formats[] = {
    &relic_bwm_mutator, &relic_cau_mutator, &relic_erf_mutator, &relic_gff_mutator,
    &relic_grf_geometry_mutator, &relic_grf_geometry_v11_mutator, &relic_grf_geometry_v13_mutator,
    &relic_grf_header_mutator, &relic_grf_mapping_mutator, &relic_grf_mapping_ref_mutator,
    &relic_grf_material_mutator, &relic_grf_material_v11_mutator, &relic_grf_mesh_mutator,
    &relic_grf_object_mutator, &relic_grf_region_mutator, &relic_grf_region_v11_mutator, &relic_groff_mutator,
    &relic_pid_mutator, &relic_rim_mutator, &relic_scn_bmp_mutator, &relic_scn_header_mutator,
    &relic_scn_hierarchy_mutator, &relic_scn_instance44_mutator, &relic_scn_instance_mutator,
    &relic_scn_partitions24_mutator, &relic_scn_partitions_mutator, &relic_scn_text_mutator, &relic_tpa_mutator,
    &relic_trn_mutator, &relic_trrn_mutator, &relic_watr_mutator, &relic_wtd_mutator,
};
/* clang-format on */
#define NFORMATS (sizeof formats / sizeof formats[0])

#define SEED_MAX_BYTES ((size_t)64 << 10)
#define SEEDS_MAX 6
/* mutation seeds tried per target */
#define MUTANT_TRIES 16

/* ---- the smallest model ---- */

static void set_int(uint8_t *p, unsigned size, int64_t v)
{
    switch (size) {
    case 1: {
        uint8_t x = (uint8_t)v;
        memcpy(p, &x, 1);
        break;
    }
    case 2: {
        uint16_t x = (uint16_t)v;
        memcpy(p, &x, 2);
        break;
    }
    case 4: {
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, 4);
        break;
    }
    default: {
        uint64_t x = (uint64_t)v;
        memcpy(p, &x, 8);
        break;
    }
    }
}

static int validates(const relic_mut_format *f, const void *model, relic_buf *out)
{
    relic_error err;
    out->size = 0;
    out->failed = 0;
    return f->write(model, out, test_scratch(), &err) == RELIC_OK && f->validate(out->data, out->size, test_scratch(), &err) == RELIC_OK;
}

/* Enums to their first item, ranges to their low end, in the fixed part of
 * struct st at base (nested structs too). */
static void repair_values(const relic_mut_format *f, const relic_mut_struct *st, uint8_t *base, int depth)
{
    if (depth > 8) return;
    for (uint32_t i = 0; i < st->nfields; i++) {
        const relic_mut_field *fd = &st->fields[i];
        if (fd->flags & (RELIC_MUTF_VAR | RELIC_MUTF_DERIVED | RELIC_MUTF_CONST)) continue;
        for (uint32_t k = 0; k < fd->fixed; k++) {
            uint8_t *p = base + fd->offset + k * fd->elem_size;
            if (fd->kind == RELIC_MUT_STRUCT) repair_values(f, &f->structs[fd->stype], p, depth + 1);
            else if (fd->kind == RELIC_MUT_INT && (fd->flags & RELIC_MUTF_ENUM) && fd->nvalues) set_int(p, fd->size, fd->values[0]);
            else if (fd->kind == RELIC_MUT_INT && (fd->flags & RELIC_MUTF_RANGE)) set_int(p, fd->size, fd->lo);
            else if (fd->kind == RELIC_MUT_FLOAT && (fd->flags & RELIC_MUTF_RANGE)) {
                if (fd->size == 4) {
                    float x = (float)fd->lo;
                    memcpy(p, &x, 4);
                } else {
                    double x = (double)fd->lo;
                    memcpy(p, &x, 8);
                }
            }
        }
    }
}

/* Integers under a check: the first small value with which the file
 * validates, one field at a time (root and its fixed sub-structs). */
static int repair_checks(const relic_mut_format *f, const void *root, const relic_mut_struct *st, uint8_t *base,
                         relic_buf *out, int depth)
{
    if (depth > 8) return 0;
    for (uint32_t i = 0; i < st->nfields; i++) {
        const relic_mut_field *fd = &st->fields[i];
        if (fd->flags & (RELIC_MUTF_VAR | RELIC_MUTF_DERIVED | RELIC_MUTF_CONST)) continue;
        uint8_t *p = base + fd->offset;
        if (fd->kind == RELIC_MUT_STRUCT) {
            if (repair_checks(f, root, &f->structs[fd->stype], p, out, depth + 1)) return 1;
            continue;
        }
        if (fd->kind != RELIC_MUT_INT || !(fd->flags & RELIC_MUTF_CHECK)) continue;
        uint8_t keep[8];
        memcpy(keep, p, fd->size);
        for (int64_t v = 0; v <= 64; v++) {
            set_int(p, fd->size, v);
            if (validates(f, root, out)) return 1;
        }
        memcpy(p, keep, fd->size);
    }
    return 0;
}

/* The smallest model that validates, written to out; 0 when none found. */
static int smallest(const relic_mut_format *f, relic_arena *a, relic_buf *out)
{
    const relic_mut_struct *root = &f->structs[f->root];
    uint8_t *m = relic_arena_alloc(a, root->size, 16);
    if (!m) return 0;
    memset(m, 0, root->size);
    if (validates(f, m, out)) return 1;
    repair_values(f, root, m, 0);
    if (validates(f, m, out)) return 1;
    if (repair_checks(f, m, root, m, out, 0)) return 1;
    /* one (repaired) element in each resizable array of the root */
    for (uint32_t i = 0; i < root->nfields; i++) {
        const relic_mut_field *fd = &root->fields[i];
        if (!(fd->flags & RELIC_MUTF_VAR) || !(fd->flags & RELIC_MUTF_RESIZE)) continue;
        size_t row = fd->elem_size * fd->fixed;
        uint8_t *e = relic_arena_alloc(a, row + 1, 16);
        if (!e) return 0;
        memset(e, 0, row + 1);
        if (fd->kind == RELIC_MUT_STRUCT)
            for (uint32_t k = 0; k < fd->fixed; k++) repair_values(f, &f->structs[fd->stype], e + k * fd->elem_size, 1);
        size_t one = 1;
        memcpy(m + fd->offset, &e, sizeof e);
        memcpy(m + fd->count_offset, &one, sizeof one);
        if (fd->flags & RELIC_MUTF_COUNT_FIELD)
            set_int(m + fd->count_field, fd->count_field_size, 1);
    }
    if (validates(f, m, out)) return 1;
    return repair_checks(f, m, root, m, out, 0);
}

/* ---- output ---- */

static int write_seed(const char *dir, unsigned k, const uint8_t *p, size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/seed-%02u", dir, k);
    FILE *fp = fopen(path, "wb");
    if (!fp || (n && fwrite(p, 1, n, fp) != n) || fclose(fp) != 0) {
        fprintf(stderr, "make_fuzz_seeds: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    return 0;
}

/* Remove the seed-* files a previous run wrote (hand-made seeds stay). */
static void clear_seeds(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "seed-", 5) != 0) continue;
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
}

typedef struct seeds {
    uint64_t hash[SEEDS_MAX];
    unsigned n;
} seeds;

static uint64_t fnv(const uint8_t *p, size_t n)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001B3ull;
    return h ^ n;
}

/* Keep p as the next seed unless too big, a duplicate or over the cap. */
static int add(seeds *s, const char *dir, const uint8_t *p, size_t n)
{
    if (n > SEED_MAX_BYTES || s->n >= SEEDS_MAX) return 0;
    uint64_t h = fnv(p, n);
    for (unsigned i = 0; i < s->n; i++)
        if (s->hash[i] == h) return 0;
    if (write_seed(dir, s->n, p, n)) return -1;
    s->hash[s->n++] = h;
    return 1;
}

/* Mutant k of the base p[0..n) (valid mode, a fixed seed) as a seed. */
static int add_mutant(seeds *s, const char *dir, const relic_mut_format *f, const uint8_t *p, size_t n, unsigned k)
{
    relic_buf out;
    relic_error err;
    int r = 0;
    relic_buf_init(&out, 0);
    if (relic_mutate(f, p, n, NULL, 0, 0x5EED0000u + k, 0, test_scratch(), &out, NULL, &err) == RELIC_OK) r = add(s, dir, out.data, out.size);
    relic_buf_free(&out);
    return r;
}

/* 1 when fuzz/gen_<name>.c's target is in the table. */
static int known(const char *name)
{
    for (size_t i = 0; i < NFORMATS; i++)
        if (strcmp(formats[i]->name, name) == 0) return 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: make_fuzz_seeds OUTDIR [FILE...]\n");
        return 2;
    }
    const char *outdir = argv[1];
    int status = 0;
    for (size_t i = 0; i < NFORMATS; i++) {
        const relic_mut_format *f = formats[i];
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/gen_%s", outdir, f->name);
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "make_fuzz_seeds: cannot create %s: %s\n", dir, strerror(errno));
            return 1;
        }
        clear_seeds(dir);
        seeds s = {{0}, 0};
        relic_arena a;
        relic_buf b;
        relic_arena_init_heap(&a, (size_t)64 << 20);
        relic_buf_init(&b, 0);
        /* the bases first (the smallest model, then the sample files), then
         * mutants of each base in turn, until SEEDS_MAX */
        const uint8_t *base[SEEDS_MAX];
        size_t base_size[SEEDS_MAX];
        unsigned nb = 0;
        if (smallest(f, &a, &b)) {
            uint8_t *copy = relic_arena_alloc(&a, b.size ? b.size : 1, 16);
            if (copy && add(&s, dir, b.data, b.size) > 0) {
                memcpy(copy, b.data, b.size);
                base[nb] = copy;
                base_size[nb++] = b.size;
            }
        }
        for (int k = 2; k < argc && nb < SEEDS_MAX; k++) {
            relic_mapping map;
            relic_error err;
            if (relic_map_file(argv[k], 0, &map, &err) != RELIC_OK) continue;
            if (map.bytes.size <= SEED_MAX_BYTES && f->validate(map.bytes.data, map.bytes.size, test_scratch(), &err) == RELIC_OK) {
                uint8_t *copy = relic_arena_alloc(&a, map.bytes.size ? map.bytes.size : 1, 16);
                int r = copy ? add(&s, dir, map.bytes.data, map.bytes.size) : 0;
                if (r < 0) status = 1;
                if (r > 0) {
                    memcpy(copy, map.bytes.data, map.bytes.size);
                    base[nb] = copy;
                    base_size[nb++] = map.bytes.size;
                }
            }
            relic_unmap(&map);
        }
        for (unsigned k = 0; k < MUTANT_TRIES && s.n < SEEDS_MAX && nb; k++)
            if (add_mutant(&s, dir, f, base[k % nb], base_size[k % nb], k) < 0) status = 1;
        relic_buf_free(&b);
        relic_arena_release(&a);
        printf("gen_%-22s %u seed%s\n", f->name, s.n, s.n == 1 ? "" : "s");
        if (s.n == 0) {
            fprintf(stderr, "make_fuzz_seeds: no seed for gen_%s (no valid smallest model, no sample file)\n", f->name);
            status = 1;
        }
    }
    /* every generated target has a row above */
    DIR *d = opendir("fuzz");
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            size_t len = strlen(e->d_name);
            if (strncmp(e->d_name, "gen_", 4) != 0 || len < 7 || strcmp(e->d_name + len - 2, ".c") != 0) continue;
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)(len - 6), e->d_name + 4);
            if (!known(name)) {
                fprintf(stderr, "make_fuzz_seeds: fuzz/%s has no row in tests/make_fuzz_seeds.c\n", e->d_name);
                status = 1;
            }
        }
        closedir(d);
    }
    return status;
}
