/* test_wtd.c — Trespasser WTD wavelet terrain (runtime/wtd_*.c,
 * schema/tres/wtd.schema) against Trespasser source, Lib/GeomDBase/WaveletDataFormat.cpp: the XOR-3 bit
 * container, the header and parameter block, the zerotree and the inverse
 * lifting transform. Files are made here by a small test-side encoder (a
 * forward transform written from Trespasser source, Lib/GeomDBase/WaveletQuadTreeTForm.cpp and a tree writer with the
 * fixed-point branch sizes of Trespasser source, Lib/GeomDBase/WaveletQuadTreeTForm.cpp) and decoded back exactly; a 2 x 2 file
 * worked by hand decodes to known heights; every rule violation gets its
 * error; truncated and mutated files never crash (ASan+UBSan in `make
 * test`). Real file: ../shared/corpus/wtd (skipped, saying so, when absent). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "relic_wtd.h"

#define CORPUS_WTD "../shared/corpus/wtd/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__pv.wtd"

/* ---------------------------------------------------------------------- */
/* Test-side writer: logical bits MSB first, then file byte k = logical k^3 */
/* ---------------------------------------------------------------------- */

typedef struct bitw {
    uint8_t logical[1 << 16];
    uint64_t pos;
} bitw;

static void put(bitw *w, unsigned n, uint64_t v)
{
    for (unsigned i = n; i-- > 0;) {
        if ((v >> i) & 1) w->logical[w->pos >> 3] |= (uint8_t)(0x80u >> (w->pos & 7));
        w->pos++;
    }
}

static void put_le32(bitw *w, uint32_t v)
{
    for (int i = 0; i < 4; i++) put(w, 8, (v >> (8 * i)) & 0xFF);
}

static void put_f32(bitw *w, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put_le32(w, u);
}

/* Header and SMapping (Trespasser source, Lib/GeomDBase/WaveletDataFormat.cpp, Lib/GeomDBase/WaveletConv.cpp) for an n x n grid, res metres per unit. */
static void put_header(bitw *w, uint16_t version, uint32_t nodes, int32_t root, int32_t n, float res, float c2w)
{
    put(w, 16, version);
    put(w, 32, nodes);
    put(w, 32, 0);
    put(w, 32, (uint32_t)root);
    put_le32(w, 0);
    put_le32(w, 0);
    put_le32(w, (uint32_t)n);
    put_le32(w, (uint32_t)n);
    put_f32(w, 0.0f);
    put_f32(w, 0.0f);
    put_f32(w, (float)n * res);
    put_f32(w, (float)n * res);
    put_f32(w, res);
    put_f32(w, 0.0f);
    put_f32(w, res);
    put_f32(w, 0.0f);
    put_f32(w, 1.0f / res);
    put_f32(w, 0.0f);
    put_f32(w, 1.0f / res);
    put_f32(w, 0.0f);
    put_f32(w, 1.0f / c2w);
    put_f32(w, c2w);
    put_f32(w, c2w / res);
}

/* The file bytes of w: whole 32-bit words, XOR-3 order. Caller frees. */
static uint8_t *finish(const bitw *w, size_t *size)
{
    size_t n = (size_t)((w->pos + 31) / 32) * 4;
    uint8_t *f = malloc(n);
    assert_non_null(f);
    for (size_t k = 0; k < n; k++) f[k] = w->logical[k ^ 3];
    *size = n;
    return f;
}

/* ---------------------------------------------------------------------- */
/* Test-side encoder: forward transform (Trespasser source, Lib/GeomDBase/WaveletQuadTreeTForm.cpp) and zerotree (Trespasser source, Lib/GeomDBase/WaveletDataFormat.cpp, Trespasser source, Lib/GeomDBase/WaveletQuadTreeTForm.cpp) */
/* ---------------------------------------------------------------------- */

#define MAXN 64
#define MAXNODES 5461 /* full quadtree of a 64 x 64 grid: (4^7 - 1) / 3 */

static int64_t fl(int64_t v, unsigned k)
{
    return v >= 0 ? v >> k : -(((-v) + ((int64_t)1 << k) - 1) >> k);
}
static int64_t pred(int64_t a, int64_t b) { return fl(a + b + 1, 1); }

/* Wavelet coefficients in W (same positions as the decoder's grid); returns the root. */
static int32_t forward(const int32_t *grid, int n, int32_t *W)
{
    static int64_t S[MAXN * MAXN], acc[MAXN * MAXN];
    for (int i = 0; i < n * n; i++) {
        S[i] = grid[i];
        W[i] = 0;
    }
    for (int s = 2; s <= n; s *= 2) {
        int h = s / 2;
        memset(acc, 0, sizeof acc);
        for (int y = 0; y < n; y += s)
            for (int x = 0; x < n; x += s) {
                int mx = x + s == n, my = y + s == n;
                int cx[4] = {x, x + s, x + s, x}, cy[4] = {y, y, y + s, y + s};
                int64_t c[4];
                for (int k = 0; k < 4; k++) {
                    int kk = k;
                    if (mx) kk = kk == 1 ? 0 : kk == 2 ? 3
                                                       : kk;
                    if (my) kk = kk == 2 ? 1 : kk == 3 ? 0
                                                       : kk;
                    c[k] = S[cy[kk] * n + cx[kk]];
                }
                int diag = s < n && ((x / s + y / s) & 1);
                int64_t w0 = S[y * n + x + h] - pred(c[0], c[1]);
                int64_t w1 = S[(y + h) * n + x + h] - (diag ? pred(c[1], c[3]) : pred(c[0], c[2]));
                int64_t w2 = S[(y + h) * n + x] - pred(c[0], c[3]);
                W[y * n + x + h] = (int32_t)w0;
                W[(y + h) * n + x + h] = (int32_t)w1;
                W[(y + h) * n + x] = (int32_t)w2;
                int64_t C[4] = {w0 + w2, w0, 0, w2};
                if (diag) {
                    C[1] += w1;
                    C[3] += w1;
                } else {
                    C[0] += w1;
                    C[2] += w1;
                }
                if (x == 0) {
                    C[0] += w0;
                    if (diag) C[3] += w1;
                    else C[0] += w1;
                }
                if (y == 0) {
                    C[0] += w2;
                    if (diag) C[1] += w1;
                    else C[0] += w1;
                }
                if (x == 0 && y == 0) C[0] += w1;
                for (int k = 0; k < 4; k++)
                    if (cx[k] < n && cy[k] < n) acc[cy[k] * n + cx[k]] += C[k];
            }
        for (int y = 0; y < n; y += s)
            for (int x = 0; x < n; x += s) S[y * n + x] += fl(acc[y * n + x] + 4, 3);
    }
    return (int32_t)S[0];
}

typedef struct enc {
    int n;
    const int32_t *W;
    uint32_t maxr[MAXNODES], size[MAXNODES];
    int x[MAXNODES], y[MAXNODES], s[MAXNODES];
    uint32_t significant;
} enc;

static unsigned ulog2(uint64_t v)
{
    unsigned r = 0;
    while (v >>= 1) r++;
    return r;
}
static uint32_t mag(int32_t v) { return v < 0 ? (uint32_t)(-(int64_t)v) : (uint32_t)v; }

static uint32_t build(enc *e, int id, int x, int y, int s)
{
    e->x[id] = x;
    e->y[id] = y;
    e->s[id] = s;
    e->maxr[id] = 0;
    if (s < 2) return 0;
    int h = s / 2, n = e->n;
    uint32_t m = mag(e->W[y * n + x + h]);
    if (mag(e->W[(y + h) * n + x + h]) > m) m = mag(e->W[(y + h) * n + x + h]);
    if (mag(e->W[(y + h) * n + x]) > m) m = mag(e->W[(y + h) * n + x]);
    const int cx[4] = {x, x + h, x + h, x}, cy[4] = {y, y, y + h, y + h};
    for (int i = 0; i < 4; i++) {
        uint32_t c = build(e, 4 * id + 1 + i, cx[i], cy[i], h);
        if (c > m) m = c;
    }
    e->maxr[id] = m;
    e->size[id] = 0x7FFFFFFF;
    return m;
}

/* Branch size with the widths from the parent's current values (Trespasser source, Lib/GeomDBase/WaveletQuadTreeTForm.cpp). */
static uint32_t sizes(enc *e, int id, int parent, uint32_t *next)
{
    if (!e->maxr[id]) {
        next[id] = 1;
        return 1;
    }
    uint64_t own = 1 + (parent < 0 ? 60 : (ulog2(e->size[parent]) + 1) + (ulog2(e->maxr[parent]) + 1)) +
        3 * (ulog2(e->maxr[id]) + 2);
    for (int i = 0; i < 4; i++) own += sizes(e, 4 * id + 1 + i, id, next);
    next[id] = (uint32_t)own;
    return (uint32_t)own;
}

static void write_node(enc *e, bitw *w, int id, int parent)
{
    uint32_t m = e->maxr[id];
    put(w, 1, m != 0);
    if (!m) return;
    e->significant++;
    put(w, parent < 0 ? 30 : ulog2(e->size[parent]) + 1, e->size[id]);
    put(w, parent < 0 ? 30 : ulog2(e->maxr[parent]) + 1, m);
    int x = e->x[id], y = e->y[id], h = e->s[id] / 2, n = e->n;
    const int32_t ws[3] = {e->W[y * n + x + h], e->W[(y + h) * n + x + h], e->W[(y + h) * n + x]};
    for (int k = 0; k < 3; k++) put(w, ulog2(m) + 2, ((uint64_t)mag(ws[k]) << 1) | (ws[k] < 0));
    for (int i = 0; i < 4; i++) write_node(e, w, 4 * id + 1 + i, id);
}

/* A whole WTD file of an n x n grid (n a power of two <= MAXN). */
static uint8_t *encode(const int32_t *grid, int n, size_t *size)
{
    static int32_t W[MAXN * MAXN];
    static enc e;
    static bitw w, tree;
    static uint32_t next[MAXNODES];
    memset(&e, 0, sizeof e);
    e.n = n;
    e.W = W;
    int32_t root = forward(grid, n, W);
    build(&e, 0, 0, 0, n);
    for (int iter = 0; iter < 64; iter++) {
        memcpy(next, e.size, sizeof next);
        sizes(&e, 0, -1, next);
        if (!memcmp(next, e.size, sizeof next)) break;
        memcpy(e.size, next, sizeof next);
    }
    memset(&tree, 0, sizeof tree);
    write_node(&e, &tree, 0, -1);
    memset(&w, 0, sizeof w);
    put_header(&w, 1001, 1 + 4 * e.significant, root, n, 0.25f, 0.01f);
    for (uint64_t i = 0; i < tree.pos; i++) put(&w, 1, (tree.logical[i >> 3] >> (7 - (i & 7))) & 1);
    return finish(&w, size);
}

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(rng_state >> 33);
}

/* ---------------------------------------------------------------------- */
/* Tests                                                                   */
/* ---------------------------------------------------------------------- */

static relic_status decode(const uint8_t *f, size_t size, relic_arena *a, relic_wtd_terrain *t, relic_error *err)
{
    relic_arena_init_heap(a, 0);
    return relic_wtd_decode_terrain(f, size, a, t, err);
}

static void test_bit_reader_reads_words_msb_first_in_xor3_order(void **state)
{
    (void)state;
    /* logical bytes 00 01 .. 07 are file bytes 03 02 01 00 07 06 05 04 (Trespasser source, Lib/Sys/BitBuffer.cpp) */
    const uint8_t file[8] = {0x03, 0x02, 0x01, 0x00, 0x07, 0x06, 0x05, 0x04};
    relic_wtd_bits b;
    relic_error err;
    uint32_t v;
    assert_int_equal(relic_wtd_bits_init(&b, file, sizeof file, 0, &err), RELIC_OK);
    assert_int_equal(relic_wtd_bits_read(&b, 12, &v, "x", &err), RELIC_OK);
    assert_int_equal(v, 0x000);
    assert_int_equal(relic_wtd_bits_read(&b, 20, &v, "x", &err), RELIC_OK);
    assert_int_equal(v, 0x10203);
    assert_int_equal(relic_wtd_bits_read(&b, 32, &v, "x", &err), RELIC_OK);
    assert_int_equal(v, 0x04050607);
}

static void test_bit_reader_refuses_to_pass_the_end(void **state)
{
    (void)state;
    const uint8_t file[4] = {0xFF, 0xFF, 0xFF, 0xFF};
    relic_wtd_bits b;
    relic_error err;
    uint32_t v;
    assert_int_equal(relic_wtd_bits_init(&b, file, sizeof file, 30, &err), RELIC_OK);
    assert_int_equal(relic_wtd_bits_read(&b, 3, &v, "tail", &err), RELIC_E_TRUNCATED);
    assert_string_equal(err.path, "tail");
    assert_int_equal(relic_wtd_bits_read(&b, 2, &v, "tail", &err), RELIC_OK);
    assert_int_equal(v, 3);
    assert_int_equal(relic_wtd_bits_init(&b, file, 3, 0, &err), RELIC_E_LAYOUT);
}

static void test_hand_worked_2x2_file_decodes_to_known_heights(void **state)
{
    (void)state;
    /* Root 100; w0 = 4 at (1,0), w1 = -2 at (1,1), w2 = 6 at (0,1); max-region 6.
     * Un-lift (0,0): the root has MIN_X, MIN_Y, diagonal clear, so C0 = w0 + w2 + w1
     * + (w0 + w1) + (w2 + w1) + w1 = 2*4 + 2*6 + 4*(-2) = 12, lift = (12 + 4) >> 3 = 2,
     * S(0,0) = 98; every corner reflects to (0,0): S(1,0) = 102, S(1,1) = 96, S(0,1) = 104. */
    static bitw w;
    memset(&w, 0, sizeof w);
    put_header(&w, 1001, 5, 100, 2, 1.0f, 0.5f);
    uint32_t size = 1 + 30 + 30 + 3 * (2 + 2) + 4;
    put(&w, 1, 1);
    put(&w, 30, size);
    put(&w, 30, 6);
    put(&w, 4, 4 << 1);
    put(&w, 4, (2 << 1) | 1);
    put(&w, 4, 6 << 1);
    put(&w, 4, 0);
    size_t n;
    uint8_t *f = finish(&w, &n);
    relic_arena a;
    relic_wtd_terrain t;
    relic_error err;
    assert_int_equal(decode(f, n, &a, &t, &err), RELIC_OK);
    assert_int_equal(t.n, 2);
    assert_int_equal(t.heights[0], 98);
    assert_int_equal(t.heights[1], 102);
    assert_int_equal(t.heights[2], 104);
    assert_int_equal(t.heights[3], 96);
    assert_int_equal(t.min, 96);
    assert_int_equal(t.max, 104);
    assert_int_equal(t.stats.significant, 1);
    assert_int_equal(t.stats.nodes, 5);
    assert_true(fabs(relic_wtd_world_z(&t.header, t.heights[0]) - 49.0) < 1e-9);
    relic_arena_release(&a);
    free(f);
}

static void roundtrip(const int32_t *grid, int n)
{
    size_t size;
    uint8_t *f = encode(grid, n, &size);
    relic_arena a;
    relic_wtd_terrain t;
    relic_error err;
    relic_status st = decode(f, size, &a, &t, &err);
    if (st != RELIC_OK) print_message("n=%d: %s @0x%llx: %s\n", n, err.path, (unsigned long long)err.offset, err.message);
    assert_int_equal(st, RELIC_OK);
    assert_int_equal(t.n, (uint32_t)n);
    assert_memory_equal(t.heights, grid, (size_t)n * n * sizeof *grid);
    assert_int_equal(t.header.node_count, 1 + 4 * t.stats.significant);
    assert_int_equal((t.stats.end_bit + 31) / 32 * 4, size);
    relic_arena_release(&a);
    free(f);
}

static void test_random_grids_of_every_size_decode_exactly(void **state)
{
    (void)state;
    static int32_t grid[MAXN * MAXN];
    rng_state = 7;
    for (int n = 1; n <= MAXN; n *= 2)
        for (int rep = 0; rep < 8; rep++) {
            int32_t span = rep < 4 ? 131073 : 17;
            for (int i = 0; i < n * n; i++) grid[i] = (int32_t)(rnd() % (uint32_t)span) - span / 2;
            roundtrip(grid, n);
        }
}

static void test_smooth_and_flat_grids_prune_the_tree_and_decode_exactly(void **state)
{
    (void)state;
    static int32_t grid[MAXN * MAXN];
    const int n = MAXN;
    /* flat everywhere: only the root coefficient, the root not significant */
    for (int i = 0; i < n * n; i++) grid[i] = 1234;
    size_t size;
    uint8_t *f = encode(grid, n, &size);
    relic_arena a;
    relic_wtd_terrain t;
    relic_error err;
    assert_int_equal(decode(f, size, &a, &t, &err), RELIC_OK);
    assert_int_equal(t.stats.significant, 0);
    assert_int_equal(t.stats.nodes, 1);
    assert_int_equal(t.min, 1234);
    assert_int_equal(t.max, 1234);
    relic_arena_release(&a);
    free(f);
    /* a hill in one quadrant, flat elsewhere */
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int dx = x - 12, dy = y - 12, d2 = dx * dx + dy * dy;
            grid[y * n + x] = d2 < 64 ? 5000 - 70 * d2 : 0;
        }
    roundtrip(grid, n);
    f = encode(grid, n, &size);
    assert_int_equal(decode(f, size, &a, &t, &err), RELIC_OK);
    assert_true(t.stats.nodes < (4 * 4096 - 1) / 3); /* pruned: fewer than the full tree's nodes */
    relic_arena_release(&a);
    free(f);
}

/* A 2 x 2 file whose root carries max-region `maxr`, coefficients raw[3] of
 * width cw, then the four child bits `kids` (4 bits) and branch size `size`. */
static uint8_t *small_file(uint16_t version, int32_t n, uint32_t size, uint32_t maxr, unsigned cw, const uint32_t raw[3],
                           unsigned kids, size_t *len)
{
    static bitw w;
    memset(&w, 0, sizeof w);
    put_header(&w, version, 5, 0, n, 1.0f, 1.0f);
    put(&w, 1, 1);
    put(&w, 30, size);
    put(&w, 30, maxr);
    for (int k = 0; k < 3; k++) put(&w, cw, raw[k]);
    put(&w, 4, kids);
    return finish(&w, len);
}

static void expect_error(uint8_t *f, size_t size, relic_status code, const char *path)
{
    relic_arena a;
    relic_wtd_terrain t;
    relic_error err;
    assert_int_equal(decode(f, size, &a, &t, &err), code);
    assert_string_equal(err.path, path);
    assert_true(err.offset <= size);
    assert_true(err.message[0] != 0);
    relic_arena_release(&a);
    free(f);
}

static void test_each_rule_violation_has_its_error(void **state)
{
    (void)state;
    const uint32_t ok[3] = {2, 0, 0};
    size_t len;
    uint8_t *f = small_file(1001, 2, 71, 1, 2, ok, 0, &len);
    relic_arena a;
    relic_wtd_terrain t;
    relic_error err;
    assert_int_equal(decode(f, len, &a, &t, &err), RELIC_OK);
    relic_arena_release(&a);
    free(f);
    expect_error(small_file(1000, 2, 71, 1, 2, ok, 0, &len), len, RELIC_E_MAGIC, "version");
    expect_error(small_file(1001, 3, 71, 1, 2, ok, 0, &len), len, RELIC_E_RANGE, "mapping.quad_extents.size_x");
    expect_error(small_file(1001, 32768, 71, 1, 2, ok, 0, &len), len, RELIC_E_RANGE, "mapping.quad_extents.size_x");
    expect_error(small_file(1001, 2, 72, 1, 2, ok, 0, &len), len, RELIC_E_LAYOUT, "tree.branch_size");
    expect_error(small_file(1001, 2, 71, 0, 2, ok, 0, &len), len, RELIC_E_RANGE, "tree.max_region");
    const uint32_t big[3] = {0, 3 << 1, 0};
    expect_error(small_file(1001, 2, 74, 2, 3, big, 0, &len), len, RELIC_E_RANGE, "tree.w1");
    expect_error(small_file(1001, 2, 71, 1, 2, ok, 0x2, &len), len, RELIC_E_RANGE, "tree.c2.significant");
    /* a tree cut short: the file ends inside the root's coefficients */
    static bitw w;
    memset(&w, 0, sizeof w);
    put_header(&w, 1001, 5, 0, 2, 1.0f, 1.0f);
    put(&w, 1, 1);
    f = finish(&w, &len);
    expect_error(f, len, RELIC_E_TRUNCATED, "tree.branch_size");
}

static void test_non_finite_parameters_are_range_errors(void **state)
{
    (void)state;
    static bitw w;
    size_t len;
    /* a NaN resolution: the world extents are the first floats it spoils */
    memset(&w, 0, sizeof w);
    put_header(&w, 1001, 5, 0, 2, NAN, 1.0f);
    put(&w, 1, 1);
    uint8_t *f = finish(&w, &len);
    expect_error(f, len, RELIC_E_RANGE, "mapping.world_extents.size_x");
    /* an infinite coefficient scale: world->coef is then 0, coef->quad infinite */
    memset(&w, 0, sizeof w);
    put_header(&w, 1001, 5, 0, 2, 1.0f, INFINITY);
    put(&w, 1, 1);
    f = finish(&w, &len);
    expect_error(f, len, RELIC_E_RANGE, "mapping.coef_to_quad");
}

static void test_file_size_must_be_whole_words(void **state)
{
    (void)state;
    const uint32_t ok[3] = {2, 0, 0};
    size_t len;
    uint8_t *f = small_file(1001, 2, 71, 1, 2, ok, 0, &len);
    expect_error(f, len - 1, RELIC_E_LAYOUT, "file");
}

static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *p = malloc((size_t)n);
    assert_non_null(p);
    assert_int_equal(fread(p, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    *size = (size_t)n;
    return p;
}

static void test_corpus_terrain_decodes_and_keeps_the_encoder_rules(void **state)
{
    (void)state;
    size_t size;
    uint8_t *f = read_all(CORPUS_WTD, &size);
    if (!f) {
        print_message("note: %s not found: this test is skipped\n", CORPUS_WTD);
        return;
    }
    assert_int_equal(relic_detect(f, size, NULL), RELIC_FORMAT_WTD);
    relic_arena a;
    relic_wtd_terrain t;
    relic_error err;
    relic_status st = decode(f, size, &a, &t, &err);
    if (st != RELIC_OK) print_message("%s @0x%llx: %s\n", err.path, (unsigned long long)err.offset, err.message);
    assert_int_equal(st, RELIC_OK);
    const relic_wtd_mapping *m = &t.header.mapping;
    /* Trespasser source, Lib/GeomDBase/WaveletDataFormat.cpp, Lib/GeomDBase/WaveletConv.cpp: version 1001, square power-of-two grid at (0,0), equal scales */
    assert_int_equal(t.header.version, 1001);
    assert_int_equal(m->quad_extents.start_x, 0);
    assert_int_equal(m->quad_extents.start_y, 0);
    assert_int_equal(t.n, (uint32_t)m->quad_extents.size_x);
    assert_true(fabs((double)m->world_extents.size_x - t.n * (double)m->quad_to_world_x.scale) < 1e-3);
    assert_true(fabs((double)m->world_to_quad_x.scale * m->quad_to_world_x.scale - 1.0) < 1e-6);
    assert_true(fabs((double)m->coef_to_quad - (double)m->coef_to_world / m->quad_to_world_x.scale) < 1e-6);
    /* the node count is 1 + 4 x significant nodes; the file is the tree rounded up to whole words */
    assert_int_equal(t.header.node_count, 1 + 4 * t.stats.significant);
    assert_int_equal((t.stats.end_bit + 31) / 32 * 4, size);
    /* heights quantised to q = 16 bits: |S| <= 2^16, and world_to_coef x coef_to_world = 1 (Trespasser source, Lib/GeomDBase/WaveletQuadTreeQuery.cpp) */
    assert_true(t.min >= -65536 && t.max <= 65536);
    assert_true(fabs((double)m->world_to_coef * m->coef_to_world - 1.0) < 1e-5);
    print_message("pv.wtd: %u x %u, heights %d..%d (%.2f..%.2f m), %u significant nodes\n", t.n, t.n, t.min, t.max,
                  relic_wtd_world_z(&t.header, t.min), relic_wtd_world_z(&t.header, t.max), t.stats.significant);
    relic_arena_release(&a);
    free(f);
}

/* Header and tree only (no N x N grid), so sweeps over the 8192 x 8192 corpus stay fast. */
static relic_status check_only(const uint8_t *f, size_t size, relic_error *err)
{
    relic_wtd_file h;
    relic_status st = relic_wtd_read_header(f, size, &h, err);
    return st != RELIC_OK ? st : relic_wtd_read_tree(f, size, &h, NULL, NULL, err);
}

static void sweep(uint8_t *f, size_t size, int full)
{
    relic_error err;
    uint8_t *copy = malloc(size);
    assert_non_null(copy);
    for (int i = 1; i <= 64; i++) {
        size_t cut = size * (size_t)i / 65;
        memcpy(copy, f, cut);
        assert_int_not_equal(check_only(copy, cut, &err), RELIC_OK);
        assert_true(err.message[0] != 0);
    }
    rng_state = 12345;
    for (int i = 0; i < 300; i++) {
        memcpy(copy, f, size);
        copy[rnd() % size] ^= (uint8_t)(1u << (rnd() % 8));
        if (full) {
            relic_arena a;
            relic_wtd_terrain t;
            relic_arena_init_heap(&a, (size_t)64 << 20);
            (void)relic_wtd_decode_terrain(copy, size, &a, &t, &err);
            relic_arena_release(&a);
        } else {
            (void)check_only(copy, size, &err);
        }
    }
    free(copy);
}

static void test_truncated_and_mutated_files_never_crash(void **state)
{
    (void)state;
    static int32_t grid[MAXN * MAXN];
    rng_state = 99;
    for (int i = 0; i < MAXN * MAXN; i++) grid[i] = (int32_t)(rnd() % 4001) - 2000;
    size_t size;
    uint8_t *f = encode(grid, 32, &size);
    sweep(f, size, 1);
    free(f);
    f = read_all(CORPUS_WTD, &size);
    if (!f) {
        print_message("note: %s not found: the real-file sweep is skipped\n", CORPUS_WTD);
        return;
    }
    sweep(f, size, 0);
    free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bit_reader_reads_words_msb_first_in_xor3_order),
        cmocka_unit_test(test_bit_reader_refuses_to_pass_the_end),
        cmocka_unit_test(test_hand_worked_2x2_file_decodes_to_known_heights),
        cmocka_unit_test(test_random_grids_of_every_size_decode_exactly),
        cmocka_unit_test(test_smooth_and_flat_grids_prune_the_tree_and_decode_exactly),
        cmocka_unit_test(test_each_rule_violation_has_its_error),
        cmocka_unit_test(test_non_finite_parameters_are_range_errors),
        cmocka_unit_test(test_file_size_must_be_whole_words),
        cmocka_unit_test(test_corpus_terrain_decodes_and_keeps_the_encoder_rules),
        cmocka_unit_test(test_truncated_and_mutated_files_never_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
