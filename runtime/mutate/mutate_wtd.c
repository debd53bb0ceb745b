/* mutate_wtd.c — structure-aware mutator for whole Trespasser WTD terrains
 * (`relic mutate` and the fuzz targets, issue 8). schema/tres/wtd.schema
 * describes the header and parameter block of the LOGICAL byte stream
 * (file byte k = logical byte k XOR 3, Trespasser source, Lib/Sys/BitBuffer.cpp), so its
 * generated validator refuses real files and its writer cannot produce the
 * zerotree that follows at logical bit 720 (Trespasser source, Lib/GeomDBase/WaveletDataFormat.cpp). This mutator reads the
 * logical stream and gives the engine (runtime/mutate/mutate.c) four fields:
 *  - header: the 90-byte header and parameter block, decoded and written by
 *    the generated code (ranges, the square power-of-two quad size, floats
 *    of the mapping);
 *  - tree: the zerotree bytes as an opaque byte array (bytes changed,
 *    inserted, removed, swapped, spliced from a second terrain);
 *  - coefficients and heights: for grids of at most WTD_GRID_MAX x
 *    WTD_GRID_MAX (64) whose tree decodes, the integer wavelet coefficients
 *    (§1.5-1.6, the layout of relic_wtd_read_tree: coefficients[0] is the
 *    root scaling value) and the quantised heights the inverse lifting
 *    (§1.7) makes of them, row-major, int32.
 * When coefficients (or heights) change, the tree is re-encoded from them
 * (relic_wtd_encode_tree, or the forward transform and the encoder,
 * relic_wtd_encode, §1.9) with the model's parameter block, so the output
 * is a valid zerotree with a new significance tree, new bit-plane widths
 * and magnitudes, which byte flips rarely make. An array grown or shrunk by
 * the engine, or a quad size changed to a power of two up to WTD_GRID_MAX,
 * gives a grid of another size (target_size) and a header that matches it.
 * Otherwise the (possibly changed) opaque tree bytes are written as they
 * are. A quad size set below 512 is rounded down to a power of two and
 * takes the other side with it (square_quad), so grids of other sizes
 * (up to 256 x 256) reach the decoder too. Large grids (the demo's pv.wtd is 8192 x 8192, 256 MB of heights)
 * stay on the opaque path: re-encoding them was measured too slow.
 * The invalid mode flips a bit of the version word (logical bytes 0-1 =
 * file bytes 3 and 2) or takes a header value outside its range.
 * Validation is what `relic check` does for a .wtd: the header, then the
 * whole zerotree decoded and synthesised (relic_wtd_decode_terrain). */
#include <string.h>

#include "mutate_arena.h"
#include "relic_mutate_formats.h"
#include "relic_wtd.h"
#include "wtd.h"

/* Largest grid whose coefficients and heights the engine sees. Decoding,
 * synthesising and re-encoding cost about n^2 x 70 ns per mutation (-O2;
 * several times that under ASan): at 256 x 256 about 5 ms, which held
 * fuzz_wtd to 220 executions/s; at 64 x 64 about 0.3 ms. */
#define WTD_GRID_MAX 64u

/* The root the engine walks (its first four members), then what load saw. */
typedef struct wtd_model {
    relic_wtd_file header;
    uint8_t *tree; /* logical bytes 90.. of the file */
    size_t tree_count;
    int32_t *coef; /* n x n wavelet coefficients, or none */
    size_t coef_count;
    int32_t *heights; /* n x n quantised heights, or none */
    size_t heights_count;
    /* as loaded: the engine copies an array before changing it */
    relic_wtd_file header0;
    const uint8_t *tree0;
    size_t tree0_count;
    const int32_t *coef0, *heights0;
    uint32_t n; /* grid size when coef and heights hold the decoded grid, else 0 */
} wtd_model;

/* generated structs, then the root above */
#define WTD_MAX_STRUCTS 16
static relic_mut_struct structs[WTD_MAX_STRUCTS + 1];

#define WTD_ROOT_FIELDS 4
static const relic_mut_field root_fields[WTD_ROOT_FIELDS] = {
    {"header", RELIC_MUT_STRUCT, 0, 0, -1 /* set in relic_mutator_wtd */, -1, 1u, offsetof(wtd_model, header), 0,
     sizeof(relic_wtd_file), NULL, 0, 0, 0, 0, 0, 0},
    {"tree", RELIC_MUT_BYTES, RELIC_MUTF_VAR | RELIC_MUTF_RESIZE | RELIC_MUTF_ENCODED, 1, -1, 1, 1u,
     offsetof(wtd_model, tree), offsetof(wtd_model, tree_count), 1, NULL, 0, 0, 0, 0, 0, 0},
    {"coefficients", RELIC_MUT_INT, RELIC_MUTF_VAR | RELIC_MUTF_RESIZE | RELIC_MUTF_SIGNED, 4, -1, 2, 1u,
     offsetof(wtd_model, coef), offsetof(wtd_model, coef_count), sizeof(int32_t), NULL, 0, 0, 0, 0, 0, 0},
    {"heights", RELIC_MUT_INT, RELIC_MUTF_VAR | RELIC_MUTF_RESIZE | RELIC_MUTF_SIGNED, 4, -1, 3, 1u,
     offsetof(wtd_model, heights), offsetof(wtd_model, heights_count), sizeof(int32_t), NULL, 0, 0, 0, 0, 0, 0},
};
static relic_mut_field root_fields_set[WTD_ROOT_FIELDS];

/* The version word as it lies in the file: logical bytes 0 and 1 (big
 * endian) are file bytes 3 and 2, i.e. a little-endian u16 at file byte 2. */
static const relic_mut_patch patches[] = {
    {"version", 2u, 2, 0, RELIC_MUT_PATCH_CONST},
};

/* Largest terrain file handled (the game indexes fewer than 2^27 bits). */
#define WTD_MUTATE_MAX ((size_t)RELIC_WTD_GAME_MAX_BITS / 8)

static relic_status wtd_validate(const uint8_t *data, size_t size, relic_arena *scratch, relic_error *err)
{
    relic_wtd_terrain t;
    mut_mark mk = mut_arena_mark(scratch);
    relic_status st = relic_wtd_decode_terrain(data, size, scratch, &t, err);
    mut_arena_rewind(scratch, mk);
    return st;
}

/* The coefficients and heights of a small grid whose tree decodes; m->n
 * stays 0 (no grid: the opaque path only) otherwise. 0 when a ran out (a
 * smaller arena must not quietly give another mutant). */
static int load_grid(const uint8_t *data, size_t size, relic_arena *a, wtd_model *m)
{
    const relic_wtd_quad_rect *q = &m->header.mapping.quad_extents;
    if (q->size_x != q->size_y || q->size_x < 1 || (uint32_t)q->size_x > WTD_GRID_MAX) return 1;
    uint32_t n = (uint32_t)q->size_x;
    size_t nn = (size_t)n * n;
    int32_t *coef = relic_arena_array(a, nn, sizeof *coef, _Alignof(int32_t));
    int32_t *heights = relic_arena_array(a, nn, sizeof *heights, _Alignof(int32_t));
    if (!coef || !heights) return 0;
    memset(coef, 0, nn * sizeof *coef);
    relic_error e;
    relic_status st = relic_wtd_read_tree(data, size, &m->header, coef, NULL, &e);
    if (st != RELIC_OK) return st != RELIC_E_NOMEM;
    memcpy(heights, coef, nn * sizeof *heights);
    relic_wtd_synthesise(heights, n);
    m->coef = coef;
    m->coef_count = nn;
    m->heights = heights;
    m->heights_count = nn;
    m->coef0 = coef;
    m->heights0 = heights;
    m->n = n;
    return 1;
}

/* The header and parameter block are validated here; the whole terrain
 * once, by the caller's validate (relic_mutate loads the input again for
 * every try, and a full decode of a large grid costs a second). */
static relic_status wtd_load(const uint8_t *data, size_t size, relic_arena *a, void **model, relic_error *err)
{
    relic_status st;
    if (size > WTD_MUTATE_MAX || size < RELIC_WTD_FILE_SIZE || size % RELIC_WTD_WORD_BYTES)
        return relic_fail(err, RELIC_E_LIMIT, 0, "file", "%zu bytes: not a terrain this mutator handles", size);
    wtd_model *m = relic_arena_alloc(a, sizeof *m, 16);
    uint8_t *logical = relic_arena_alloc(a, size, 16);
    if (!m || !logical) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the model");
    memset(m, 0, sizeof *m);
    for (size_t k = 0; k < size; k++) logical[k] = data[k ^ 3];
    relic_wtd_view v;
    if ((st = relic_wtd_validate(logical, RELIC_WTD_FILE_SIZE, &v, err)) != RELIC_OK) return st;
    if ((st = relic_wtd_decode(&v, a, &m->header, err)) != RELIC_OK) return st;
    m->tree = logical + RELIC_WTD_FILE_SIZE;
    m->tree_count = size - RELIC_WTD_FILE_SIZE;
    m->header0 = m->header;
    m->tree0 = m->tree;
    m->tree0_count = m->tree_count;
    if (!load_grid(data, size, a, m)) return relic_fail(err, RELIC_E_NOMEM, 0, "coefficients", "no memory for the grid");
    *model = m;
    return RELIC_OK;
}

/* Whether the engine changed an int32 array loaded as p0[0..nn). */
static int grid_changed(const int32_t *p, size_t count, const int32_t *p0, size_t nn)
{
    if (count != nn) return 1;
    return p != p0 && memcmp(p, p0, nn * sizeof *p) != 0;
}

/* The grid size an array of count values gives for a grid loaded n x n:
 * n when the count is unchanged, 2n (at most WTD_GRID_MAX) when it grew,
 * the largest power of two whose square fits the count when it shrank,
 * 1 when it is empty. */
static uint32_t target_size(size_t count, uint32_t n)
{
    size_t nn = (size_t)n * n;
    if (count == nn) return n;
    if (count > nn) return n * 2 <= WTD_GRID_MAX ? n * 2 : n;
    uint32_t s = 1;
    while ((size_t)(s * 2) * (s * 2) <= count) s *= 2;
    return s;
}

/* The s x s grid g made of the array src[0..count) of a grid loaded n x n:
 * with its n x n shape cropped (s < n) or tiled (s > n) when the count is
 * unchanged (a crop keeps every finer node's coefficients: a position's
 * level depends only on its coordinates), else read row-major at width s
 * and repeated from the start; zeros when the array is empty. */
static void regrid(const int32_t *src, size_t count, uint32_t n, int32_t *g, uint32_t s)
{
    for (uint32_t y = 0; y < s; y++)
        for (uint32_t x = 0; x < s; x++) {
            size_t i = (size_t)y * s + x;
            if (count == (size_t)n * n) g[i] = src[(size_t)(y % n) * n + x % n];
            else g[i] = count ? src[i % count] : 0;
        }
}

/* Re-encode the tree of a model whose grid changed (see the file comment)
 * and append the file to out. */
static relic_status write_grid(const wtd_model *m, int from_coef, int size_from_header, relic_buf *out,
                               relic_arena *scratch, relic_error *err)
{
    const int32_t *src = from_coef ? m->coef : m->heights;
    size_t count = from_coef ? m->coef_count : m->heights_count;
    uint32_t s = size_from_header ? (uint32_t)m->header.mapping.quad_extents.size_x : target_size(count, m->n);
    relic_wtd_mapping map = m->header.mapping;
    if (s != m->n) {
        map.quad_extents.size_x = map.quad_extents.size_y = (int32_t)s;
        if (map.quad_extents.start_x > 65536 - (int32_t)s) map.quad_extents.start_x = 65536 - (int32_t)s;
        if (map.quad_extents.start_y > 65536 - (int32_t)s) map.quad_extents.start_y = 65536 - (int32_t)s;
        map.world_extents.size_x = (float)s * map.quad_to_world_x.scale;
        map.world_extents.size_y = (float)s * map.quad_to_world_y.scale;
    }
    mut_mark mk = mut_arena_mark(scratch);
    relic_buf enc, h;
    relic_status st = RELIC_OK;
    int32_t *g = relic_arena_array(scratch, (size_t)s * s, sizeof *g, _Alignof(int32_t));
    if (!g) st = relic_fail(err, RELIC_E_NOMEM, 0, "grid", "no memory for a %u x %u grid", s, s);
    if (st == RELIC_OK) {
        regrid(src, count, m->n, g, s);
        /* the header after the tree, so the tree's buffer grows in place */
        relic_buf_init_arena(&enc, scratch, 0);
        st = from_coef ? relic_wtd_encode_tree(g, s, &map, scratch, &enc, NULL, err)
                       : relic_wtd_encode(g, s, &map, NULL, scratch, &enc, NULL, err);
        if (st == RELIC_OK && enc.failed) st = relic_fail(err, RELIC_E_NOMEM, 0, "tree", "no memory for the tree");
    }
    if (st == RELIC_OK) {
        relic_buf_init_arena(&h, scratch, 0);
    }
    /* The encoder writes the counts it made and the root scaling value; a
     * header value the engine changed is kept. */
    relic_wtd_file eh, hdr = m->header;
    if (st == RELIC_OK) st = relic_wtd_read_header(enc.data, enc.size, &eh, err);
    if (st == RELIC_OK) {
        hdr.version = eh.version;
        if (hdr.node_count == m->header0.node_count) hdr.node_count = eh.node_count;
        if (hdr.vertex_count == m->header0.vertex_count) hdr.vertex_count = eh.vertex_count;
        if (hdr.root_coefficient == m->header0.root_coefficient) hdr.root_coefficient = eh.root_coefficient;
        hdr.mapping = map;
        st = relic_wtd_write(&hdr, &h, err);
    }
    if (st == RELIC_OK && h.failed) st = relic_fail(err, RELIC_E_NOMEM, 0, "header", "no memory for the header");
    if (st == RELIC_OK && h.size != RELIC_WTD_FILE_SIZE)
        st = relic_fail(err, RELIC_E_LAYOUT, 0, "header", "the header wrote %zu bytes", h.size);
    if (st == RELIC_OK && enc.size > WTD_MUTATE_MAX)
        st = relic_fail(err, RELIC_E_LIMIT, 0, "tree", "a %zu-byte file", enc.size);
    if (st == RELIC_OK) {
        for (size_t k = 0; k < RELIC_WTD_FILE_SIZE; k++) enc.data[k ^ 3] = h.data[k];
        relic_buf_append(out, enc.data, enc.size);
        if (out->failed) st = relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for %zu bytes", enc.size);
    }
    mut_arena_rewind(scratch, mk);
    return st;
}

/* The header by the generated writer and the opaque tree bytes after it. */
static relic_status write_opaque(const wtd_model *m, relic_buf *out, relic_error *err)
{
    uint8_t hb[RELIC_WTD_FILE_SIZE + 1]; /* the header's bytes (+1: relic_buf_init_fixed) */
    relic_buf h;
    relic_buf_init_fixed(&h, hb, sizeof hb);
    relic_status st = relic_wtd_write(&m->header, &h, err);
    if (st == RELIC_OK && h.failed) st = relic_fail(err, RELIC_E_LAYOUT, 0, "header", "the header outgrew its bytes");
    if (st == RELIC_OK && h.size != RELIC_WTD_FILE_SIZE)
        st = relic_fail(err, RELIC_E_LAYOUT, 0, "header", "the header wrote %zu bytes", h.size);
    size_t n = RELIC_WTD_FILE_SIZE + m->tree_count;
    n = (n + RELIC_WTD_WORD_BYTES - 1) / RELIC_WTD_WORD_BYTES * RELIC_WTD_WORD_BYTES;
    if (st == RELIC_OK && n > WTD_MUTATE_MAX)
        st = relic_fail(err, RELIC_E_LIMIT, 0, "tree", "%zu bytes of tree", m->tree_count);
    if (st == RELIC_OK) {
        size_t base = out->size;
        uint8_t zero[RELIC_WTD_WORD_BYTES] = {0};
        for (size_t k = 0; k < n; k += RELIC_WTD_WORD_BYTES) relic_buf_append(out, zero, sizeof zero);
        if (out->failed) st = relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for %zu bytes", n);
        else
            for (size_t k = 0; k < n; k++) {
                uint8_t b = k < RELIC_WTD_FILE_SIZE ? h.data[k] : k - RELIC_WTD_FILE_SIZE < m->tree_count ? m->tree[k - RELIC_WTD_FILE_SIZE]
                                                                                                          : 0;
                out->data[base + (k ^ 3)] = b;
            }
    }
    return st;
}

static int power_of_two(int32_t v) { return v >= 1 && v <= (int32_t)RELIC_WTD_MAX_N && (v & (v - 1)) == 0; }

/* Largest quad size square_quad makes: a 256 x 256 grid (256 KB) costs
 * fuzz_wtd about a millisecond; with 1024 x 1024 grids (4 MB to clear and
 * synthesise) in its corpus it ran at a fraction of its speed, and a
 * valid-mode check of a 16384 x 16384 grid takes seconds. */
#define WTD_SQUARE_MAX 256

/* v rounded down to a power of two when 1 <= v < 2 x WTD_SQUARE_MAX, else 0. */
static int32_t square_size(int32_t v)
{
    if (v < 1 || v >= 2 * WTD_SQUARE_MAX) return 0;
    int32_t p = 1;
    while (p * 2 <= v) p *= 2;
    return p;
}

/* Quad extents are square powers of two (Trespasser source, Lib/GeomDBase/WaveletConv.cpp): when the engine set
 * one side to a value from 1 to 2 x WTD_SQUARE_MAX - 1, it is rounded down
 * to a power of two and the other side follows; the start moves back so
 * the extents stay within 16-bit vertex coordinates. Other values (the
 * invalid mode's) are left for the reader to refuse. */
static void square_quad(wtd_model *m)
{
    relic_wtd_quad_rect *q = &m->header.mapping.quad_extents;
    const relic_wtd_quad_rect *q0 = &m->header0.mapping.quad_extents;
    int32_t v;
    if (q->size_x != q0->size_x && q->size_y == q0->size_y && (v = square_size(q->size_x)) != 0)
        q->size_x = q->size_y = v;
    else if (q->size_y != q0->size_y && q->size_x == q0->size_x && (v = square_size(q->size_y)) != 0)
        q->size_x = q->size_y = v;
    else
        return;
    if (q->start_x > 65536 - q->size_x) q->start_x = 65536 - q->size_x;
    if (q->start_y > 65536 - q->size_y) q->start_y = 65536 - q->size_y;
}

/* Re-encode when the grid or (to a size the grid path handles) the quad
 * size changed; refuse combinations whose changes one output cannot carry
 * (the engine then tries another mutation), so the log stays true. */
static relic_status wtd_write(const void *model, relic_buf *out, relic_arena *scratch, relic_error *err)
{
    wtd_model copy = *(const wtd_model *)model;
    const wtd_model *m = &copy;
    square_quad(&copy);
    const size_t nn = (size_t)m->n * m->n;
    if (!m->n) {
        if (m->coef_count || m->heights_count)
            return relic_fail(err, RELIC_E_ARGUMENT, 0, "coefficients", "this terrain has no decoded grid");
        return write_opaque(m, out, err);
    }
    const int coef_ch = grid_changed(m->coef, m->coef_count, m->coef0, nn);
    const int heights_ch = grid_changed(m->heights, m->heights_count, m->heights0, nn);
    const relic_wtd_quad_rect *q = &m->header.mapping.quad_extents;
    const int size_ch = (uint32_t)q->size_x != m->n && q->size_x == q->size_y && power_of_two(q->size_x) &&
        (uint32_t)q->size_x <= WTD_GRID_MAX && !coef_ch && m->heights_count == nn;
    if (!coef_ch && !heights_ch && !size_ch) return write_opaque(m, out, err);
    const int tree_ch = m->tree != m->tree0 || m->tree_count != m->tree0_count;
    if ((coef_ch && heights_ch) || tree_ch)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "tree", "the tree bytes and the grid changed together");
    return write_grid(m, coef_ch, size_ch, out, scratch, err);
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
        structs[n].nfields = WTD_ROOT_FIELDS;
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
