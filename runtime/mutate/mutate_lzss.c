/* mutate_lzss.c — mutators for the Trespasser LZSS containers (`relic
 * mutate`, issue 8; Trespasser source, Source/Tools/LZSS/LZSS.cpp, Lib/Loader/ImageLoader.cpp, Lib/Groff/FileIO.cpp): SPZ (u32 size + LZSS
 * stream of an SWP), the raw SWP it expands to, and SZDD-compressed GROFF
 * levels and scenes (.gr_ .sc_, COMPRESS.EXE form).
 *  - SWP/SPZ: an SWP is the texture bytes a level's PID addresses (Trespasser source, Lib/Loader/ImageLoader.cpp);
 *    alone it has no structure, so the engine changes its bytes as one
 *    array (values, insertions, removals, swaps, splices from a second SWP);
 *    SPZ re-compresses the result (relic_lzss_container_encode, FAST) and
 *    its invalid mode leaves the declared size stale. A raw SWP has no
 *    invalid form: every byte string is one (`relic check` accepts any).
 *  - .gr_/.sc_: decompressed, mutated by the generated GROFF mutator
 *    (schema/tres/groff.schema), written by its writer and compressed
 *    again with the input's missing name character; the invalid mode
 *    takes the generated stale-field patches inside the GROFF (the file
 *    would otherwise be a valid SZDD of invalid contents only by chance).
 * Validation is what `relic check` does: the whole stream decodes to its
 * declared size (and, for GROFF, the container validates). */
#include <string.h>

#include "groff.h"
#include "mutate_arena.h"
#include "relic_mutate_formats.h"
#include "relic_lzss.h"

/* Most bytes a mutated container may expand to. */
#define LZSS_MUTATE_LIMIT ((uint64_t)256 << 20)

typedef struct bytes_model {
    uint8_t *data;
    size_t size;
} bytes_model;

static const relic_mut_field bytes_fields[] = {
    {"swp", RELIC_MUT_BYTES, RELIC_MUTF_VAR | RELIC_MUTF_RESIZE, 1, -1, 0, 1u, offsetof(bytes_model, data),
     offsetof(bytes_model, size), 1, NULL, 0, 0, 0, 0, 0, 0},
};
static const relic_mut_struct bytes_structs[] = {{"swp", sizeof(bytes_model), bytes_fields, 1}};

/* ---- SPZ ---- */

static const relic_mut_patch spz_patches[] = {
    {"spz.size", 0u, 4, 0, RELIC_MUT_PATCH_DERIVED},
};

static relic_status spz_validate(const uint8_t *data, size_t size, relic_arena *scratch, relic_error *err)
{
    relic_bytes b;
    mut_mark m = mut_arena_mark(scratch);
    relic_status st = relic_lzss_container_decode(data, size, RELIC_LZSS_SPZ, LZSS_MUTATE_LIMIT, scratch, &b, err);
    mut_arena_rewind(scratch, m);
    return st;
}

static relic_status spz_load(const uint8_t *data, size_t size, relic_arena *a, void **model, relic_error *err)
{
    relic_bytes b;
    relic_status st = relic_lzss_container_decode(data, size, RELIC_LZSS_SPZ, LZSS_MUTATE_LIMIT, a, &b, err);
    if (st != RELIC_OK) return st;
    bytes_model *m = relic_arena_alloc(a, sizeof *m, 16);
    if (!m) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the model");
    m->data = (uint8_t *)b.data;
    m->size = b.size;
    *model = m;
    return RELIC_OK;
}

static relic_status spz_write(const void *model, relic_buf *out, relic_arena *scratch, relic_error *err)
{
    const bytes_model *m = model;
    mut_mark mk = mut_arena_mark(scratch);
    relic_status st = relic_lzss_container_encode(RELIC_LZSS_SPZ, RELIC_LZSS_FAST, 0, m->data, m->size, scratch, out, err);
    mut_arena_rewind(scratch, mk);
    return st;
}

const relic_mut_format *relic_mutator_spz(void)
{
    static const relic_mut_format f = {"spz", bytes_structs, 1, 0, spz_patches, 1, spz_load, spz_write, spz_validate};
    return &f;
}

/* ---- SWP ---- */

static relic_status swp_validate(const uint8_t *data, size_t size, relic_arena *scratch, relic_error *err)
{
    (void)data;
    (void)scratch;
    if (size > LZSS_MUTATE_LIMIT) return relic_fail(err, RELIC_E_LIMIT, 0, "", "%zu bytes: larger than this mutator takes", size);
    return RELIC_OK;
}

static relic_status swp_load(const uint8_t *data, size_t size, relic_arena *a, void **model, relic_error *err)
{
    relic_status st = swp_validate(data, size, a, err);
    if (st != RELIC_OK) return st;
    bytes_model *m = relic_arena_alloc(a, sizeof *m, 16);
    uint8_t *copy = relic_arena_alloc(a, size ? size : 1, 16);
    if (!m || !copy) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the model");
    if (size) memcpy(copy, data, size);
    m->data = copy;
    m->size = size;
    *model = m;
    return RELIC_OK;
}

static relic_status swp_write(const void *model, relic_buf *out, relic_arena *scratch, relic_error *err)
{
    (void)scratch;
    const bytes_model *m = model;
    relic_buf_append(out, m->data, m->size);
    return out->failed ? relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for %zu bytes", m->size) : RELIC_OK;
}

const relic_mut_format *relic_mutator_swp(void)
{
    static const relic_mut_format f = {"swp", bytes_structs, 1, 0, NULL, 0, swp_load, swp_write, swp_validate};
    return &f;
}

/* ---- SZDD-compressed GROFF ---- */

/* The GROFF model (the generated root, copied to the front so the
 * generated tables walk it), then the SZDD header's missing character. */
typedef struct szdd_extra {
    uint8_t missing_char;
} szdd_extra;

static size_t root_size(void)
{
    size_t n = relic_groff_mutator.structs[relic_groff_mutator.root].size;
    return (n + 15) / 16 * 16;
}

static relic_status szdd_inner(const uint8_t *data, size_t size, relic_arena *a, relic_bytes *groff, uint8_t *missing,
                               relic_error *err)
{
    relic_lzss_container c;
    relic_status st = relic_szdd_header(data, size, &c, err);
    if (st != RELIC_OK) return st;
    *missing = c.missing_char;
    return relic_lzss_container_decode(data, size, RELIC_LZSS_SZDD, LZSS_MUTATE_LIMIT, a, groff, err);
}

static relic_status szdd_validate(const uint8_t *data, size_t size, relic_arena *scratch, relic_error *err)
{
    relic_bytes g;
    uint8_t missing;
    mut_mark m = mut_arena_mark(scratch);
    relic_status st = szdd_inner(data, size, scratch, &g, &missing, err);
    if (st == RELIC_OK) st = relic_groff_mutator.validate(g.data, g.size, scratch, err);
    mut_arena_rewind(scratch, m);
    return st;
}

static relic_status szdd_load(const uint8_t *data, size_t size, relic_arena *a, void **model, relic_error *err)
{
    relic_bytes g;
    uint8_t missing;
    void *inner;
    relic_status st = szdd_inner(data, size, a, &g, &missing, err);
    if (st == RELIC_OK) st = relic_groff_mutator.load(g.data, g.size, a, &inner, err);
    if (st != RELIC_OK) return st;
    size_t rs = root_size();
    uint8_t *m = relic_arena_alloc(a, rs + sizeof(szdd_extra), 16);
    if (!m) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the model");
    memcpy(m, inner, relic_groff_mutator.structs[relic_groff_mutator.root].size);
    szdd_extra x = {missing};
    memcpy(m + rs, &x, sizeof x);
    *model = m;
    return RELIC_OK;
}

static relic_status szdd_write(const void *model, relic_buf *out, relic_arena *scratch, relic_error *err)
{
    relic_buf g;
    szdd_extra x;
    memcpy(&x, (const uint8_t *)model + root_size(), sizeof x);
    mut_mark m = mut_arena_mark(scratch);
    relic_buf_init_arena(&g, scratch, 0);
    relic_status st = relic_groff_mutator.write(model, &g, scratch, err);
    if (st == RELIC_OK && g.failed) st = relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the GROFF bytes");
    if (st == RELIC_OK)
        st = relic_lzss_container_encode(RELIC_LZSS_SZDD, RELIC_LZSS_FAST, x.missing_char, g.data, g.size, scratch, out,
                                         err);
    mut_arena_rewind(scratch, m);
    return st;
}

/* The invalid mode's stale fields are the SZDD header's own: its magic
 * (constant) and declared size (derived); invalid GROFF contents come from
 * the generic mutations (values outside ranges and enums). */
static const relic_mut_patch szdd_patches[] = {
    {"szdd.magic", 0u, 8, 0, RELIC_MUT_PATCH_CONST},
    {"szdd.size", 10u, 4, 0, RELIC_MUT_PATCH_DERIVED},
};

const relic_mut_format *relic_mutator_groff_szdd(void)
{
    static relic_mut_format f;
    static int ready;
    if (!ready) {
        f = relic_groff_mutator;
        f.name = "groff-szdd";
        f.patches = szdd_patches;
        f.npatches = 2;
        f.load = szdd_load;
        f.write = szdd_write;
        f.validate = szdd_validate;
        ready = 1;
    }
    return &f;
}
