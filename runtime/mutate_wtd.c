/* mutate_wtd.c — structure-aware mutator for whole Trespasser WTD terrains
 * (`relic mutate` and the fuzz targets, issue 8). schema/tres/wtd.schema describes the header
 * and parameter block of the LOGICAL byte stream (file byte k = logical
 * byte k XOR 3, spec/trespasser.md §1.2), so its generated validator
 * refuses real files and its writer cannot produce the zerotree that
 * follows at logical bit 720 (§1.6). This mutator reads the logical stream:
 * the 90-byte header and parameter block (decoded and written by the
 * generated code, so the engine changes them through the generated tables:
 * ranges, the square power-of-two quad size, floats of the mapping) and the
 * zerotree bytes after it (an opaque byte array: bytes changed, inserted,
 * removed, swapped, spliced from a second terrain), then maps the result
 * back into 32-bit words. Re-encoding the height grid instead was measured
 * too slow: the demo's pv.wtd is an 8192 x 8192 grid (256 MB of heights).
 * The invalid mode flips a bit of the version word (logical bytes 0-1 =
 * file bytes 3 and 2) or takes a header value outside its range.
 * Validation is what `relic check` does for a .wtd: the header, then the
 * whole zerotree decoded and synthesised (relic_wtd_decode_terrain). */
#include <string.h>

#include "relic_mutate_formats.h"
#include "relic_wtd.h"
#include "wtd_mutate.h"

/* The root the engine walks: the header (generated tables) and the tree. */
typedef struct wtd_model {
    relic_wtd_wtd header;
    uint8_t *tree;          /* logical bytes 90.. of the file */
    size_t tree_count;
} wtd_model;

/* generated structs, then the root above */
#define WTD_MAX_STRUCTS 16
static relic_mut_struct structs[WTD_MAX_STRUCTS + 1];

static const relic_mut_field root_fields[] = {
    { "header", RELIC_MUT_STRUCT, 0, 0, -1 /* set in relic_mutator_wtd */, -1, 1u, offsetof(wtd_model, header), 0,
      sizeof(relic_wtd_wtd), NULL, 0, 0, 0, 0, 0, 0 },
    { "tree", RELIC_MUT_BYTES, RELIC_MUTF_VAR | RELIC_MUTF_RESIZE | RELIC_MUTF_ENCODED, 1, -1, 1, 1u,
      offsetof(wtd_model, tree), offsetof(wtd_model, tree_count), 1, NULL, 0, 0, 0, 0, 0, 0 },
};
static relic_mut_field root_fields_set[2];

/* The version word as it lies in the file: logical bytes 0 and 1 (big
 * endian) are file bytes 3 and 2, i.e. a little-endian u16 at file byte 2. */
static const relic_mut_patch patches[] = {
    { "version", 2u, 2, 0, RELIC_MUT_PATCH_CONST },
};

/* Largest terrain file handled (the game indexes fewer than 2^27 bits). */
#define WTD_MUTATE_MAX ((size_t)RELIC_WTD_GAME_MAX_BITS / 8)

static relic_status wtd_validate(const uint8_t *data, size_t size, relic_error *err)
{
    relic_arena a;
    relic_wtd_terrain t;
    relic_arena_init_heap(&a, (size_t)1 << 30);
    relic_status st = relic_wtd_decode_terrain(data, size, &a, &t, err);
    relic_arena_release(&a);
    return st;
}

/* The header and parameter block are validated here; the whole terrain
 * once, by the caller's validate (relic_mutate loads the input again for
 * every try, and a full decode of a large grid costs a second). */
static relic_status wtd_load(const uint8_t *data, size_t size, relic_arena *a, void **model, relic_error *err)
{
    relic_status st;
    if (size > WTD_MUTATE_MAX || size < RELIC_WTD_WTD_SIZE || size % RELIC_WTD_WORD_BYTES)
        return relic_fail(err, RELIC_E_LIMIT, 0, "file", "%zu bytes: not a terrain this mutator handles", size);
    wtd_model *m = relic_arena_alloc(a, sizeof *m, 16);
    uint8_t *logical = relic_arena_alloc(a, size, 16);
    if (!m || !logical) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the model");
    memset(m, 0, sizeof *m);
    for (size_t k = 0; k < size; k++) logical[k] = data[k ^ 3];
    relic_wtd_view v;
    if ((st = relic_wtd_validate(logical, RELIC_WTD_WTD_SIZE, &v, err)) != RELIC_OK) return st;
    if ((st = relic_wtd_decode(&v, a, &m->header, err)) != RELIC_OK) return st;
    m->tree = logical + RELIC_WTD_WTD_SIZE;
    m->tree_count = size - RELIC_WTD_WTD_SIZE;
    *model = m;
    return RELIC_OK;
}

static relic_status wtd_write(const void *model, relic_buf *out, relic_error *err)
{
    const wtd_model *m = model;
    relic_buf h;
    relic_buf_init(&h, 0);
    relic_status st = relic_wtd_write(&m->header, &h, err);
    if (st == RELIC_OK && h.size != RELIC_WTD_WTD_SIZE)
        st = relic_fail(err, RELIC_E_LAYOUT, 0, "header", "the header wrote %zu bytes", h.size);
    size_t n = RELIC_WTD_WTD_SIZE + m->tree_count;
    n = (n + RELIC_WTD_WORD_BYTES - 1) / RELIC_WTD_WORD_BYTES * RELIC_WTD_WORD_BYTES;
    if (st == RELIC_OK && n > WTD_MUTATE_MAX)
        st = relic_fail(err, RELIC_E_LIMIT, 0, "tree", "%zu bytes of tree", m->tree_count);
    if (st == RELIC_OK) {
        size_t base = out->size;
        uint8_t zero[RELIC_WTD_WORD_BYTES] = { 0 };
        for (size_t k = 0; k < n; k += RELIC_WTD_WORD_BYTES) relic_buf_append(out, zero, sizeof zero);
        if (out->failed) st = relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for %zu bytes", n);
        else
            for (size_t k = 0; k < n; k++) {
                uint8_t b = k < RELIC_WTD_WTD_SIZE ? h.data[k] : k - RELIC_WTD_WTD_SIZE < m->tree_count ? m->tree[k - RELIC_WTD_WTD_SIZE] : 0;
                out->data[base + (k ^ 3)] = b;
            }
    }
    relic_buf_free(&h);
    return st;
}

const relic_mut_format *relic_mutator_wtd(void)
{
    static relic_mut_format f;
    static int ready;
    if (!ready) {
        const relic_mut_format *g = &relic_wtd_mutator;
        uint32_t n = g->nstructs < WTD_MAX_STRUCTS ? g->nstructs : WTD_MAX_STRUCTS;
        memcpy(structs, g->structs, n * sizeof *structs);
        memcpy(root_fields_set, root_fields, sizeof root_fields);
        root_fields_set[0].stype = (int16_t)g->root;
        structs[n].name = "terrain";
        structs[n].size = sizeof(wtd_model);
        structs[n].fields = root_fields_set;
        structs[n].nfields = 2;
        f = *g;
        f.structs = structs;
        f.nstructs = n + 1;
        f.root = n;
        f.patches = patches;
        f.npatches = 1;
        f.load = wtd_load;
        f.write = wtd_write;
        f.validate = wtd_validate;
        ready = 1;
    }
    return &f;
}
