/* test_wtd_encode.c — the WTD encoder and the terrain outputs
 * (runtime/formats/tres/wtd_forward.c, wtd_encode.c, wtd_encode_grid.c, wtd_heightmap.c,
 * wtd_relief.c, wtd_mesh.c) against Trespasser source, Lib/GeomDBase/WaveletConv.cpp, Lib/GeomDBase/WaveletQuadTreeTForm.cpp, Lib/GeomDBase/WaveletQuadTreeBaseTri.cpp: the forward transform is the exact inverse of the decoder's
 * synthesis; encoded files pass relic's reader and decode to the input
 * exactly for random grids of every size from 2 to 512 (non-powers of two
 * padded); the header counts are those of the original encoder; a threshold
 * drops coefficients and reports the error it costs; the real file's
 * coefficients and bytes are reproduced; heightmap PNGs round trip; the
 * leaf triangulation covers the terrain without T-junctions. Real file:
 * ../shared/corpus/wtd (skipped, saying so, when absent). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_pass.h"

#include "relic_wtd.h"

#define CORPUS_WTD "../shared/corpus/wtd/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__pv.wtd"

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(rng_state >> 33);
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

/* Random heights in [-span/2, span/2] or a smooth field with noise. */
static void fill(int32_t *g, uint32_t w, uint32_t h, int kind)
{
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            int32_t v;
            if (kind == 0) v = (int32_t)(rnd() % 131073) - 65536;
            else if (kind == 1) v = (int32_t)(rnd() % 17);
            else v = (int32_t)(30000 + 20000 * sin(x * 0.05) * cos(y * 0.07)) + (int32_t)(rnd() % 3);
            g[(size_t)y * w + x] = v;
        }
}

/* Distinct corners of the nodes in the stream, counted by the visitor. */
typedef struct corner_set {
    uint8_t *seen;
    uint32_t side, count;
} corner_set;

static void mark(corner_set *c, uint32_t x, uint32_t y)
{
    size_t i = (size_t)y * c->side + x;
    if (!c->seen[i]) c->seen[i] = 1, c->count++;
}

static void visit_corners(void *ctx, uint32_t x, uint32_t y, uint32_t s, int significant)
{
    (void)significant;
    corner_set *c = ctx;
    mark(c, x, y), mark(c, x + s, y), mark(c, x + s, y + s), mark(c, x, y + s);
}

/* Encode a w x h grid (padded), decode it, compare; check the header rules. */
static void roundtrip(const int32_t *grid, uint32_t w, uint32_t h)
{
    const uint32_t n = relic_wtd_grid_size(w, h);
    assert_true(n >= w && n >= h && (n & (n - 1)) == 0);
    int32_t *padded = malloc((size_t)n * n * sizeof *padded);
    assert_non_null(padded);
    relic_wtd_pad(grid, w, h, padded, n);
    relic_wtd_mapping m;
    relic_wtd_mapping_init(&m, n, -100.0, 50.0, 0.5, 0.01);
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_buf out;
    relic_buf_init(&out, 0);
    relic_error err;
    relic_wtd_encode_stats st;
    relic_wtd_encode_options opt = {0, w, h};
    relic_status rs = relic_wtd_encode(padded, n, &m, &opt, &a, &out, &st, &err);
    if (rs != RELIC_OK) print_message("%ux%u: %s: %s\n", w, h, err.path, err.message);
    assert_int_equal(rs, RELIC_OK);
    relic_wtd_terrain t;
    relic_arena b;
    relic_arena_init_heap(&b, 0);
    rs = relic_wtd_decode_terrain(out.data, out.size, &b, &t, &err);
    if (rs != RELIC_OK) print_message("%ux%u decode: %s: %s\n", w, h, err.path, err.message);
    assert_int_equal(rs, RELIC_OK);
    assert_int_equal(t.n, n);
    for (uint32_t y = 0; y < h; y++) assert_memory_equal(t.heights + (size_t)y * n, grid + (size_t)y * w, w * sizeof *grid);
    assert_memory_equal(t.heights, padded, (size_t)n * n * sizeof *padded);
    /* Trespasser source, Lib/GeomDBase/WaveletQuadTreeTForm.cpp: node count 1 + 4 x significant, file = whole words of the tree, vertex count */
    assert_int_equal(t.header.node_count, 1 + 4 * t.stats.significant);
    assert_int_equal(st.significant, t.stats.significant);
    assert_int_equal(out.size, (t.stats.end_bit + 31) / 32 * 4);
    if (n <= 64) {
        corner_set c = {calloc((size_t)(n + 1) * (n + 1), 1), n + 1, 0};
        assert_non_null(c.seen);
        assert_int_equal(relic_wtd_walk_tree(out.data, out.size, &t.header, NULL, NULL, visit_corners, &c, &err), RELIC_OK);
        assert_int_equal(t.header.vertex_count, c.count);
        free(c.seen);
    }
    relic_arena_release(&b);
    relic_arena_release(&a);
    relic_buf_free(&out);
    free(padded);
}

static void test_forward_transform_is_the_exact_inverse_of_the_synthesis(void **state)
{
    (void)state;
    rng_state = 1;
    for (uint32_t n = 1; n <= 512; n *= 2)
        for (int kind = 0; kind < 3; kind++) {
            int32_t *g = malloc((size_t)n * n * 4), *c = malloc((size_t)n * n * 4);
            assert_true(g && c);
            fill(g, n, n, kind);
            memcpy(c, g, (size_t)n * n * 4);
            relic_error err;
            assert_int_equal(relic_wtd_analyse(c, n, &err), RELIC_OK);
            relic_wtd_synthesise(c, n);
            assert_memory_equal(c, g, (size_t)n * n * 4);
            free(g);
            free(c);
        }
}

/* Every square size 2..64 and every rectangle up to 12 x 12; sizes 65..512
 * every 9th plus the powers of two and their neighbours; a few rectangles. */
static void test_random_grids_of_every_size_round_trip_exactly(void **state)
{
    (void)state;
    static int32_t g[512 * 512];
    rng_state = 7;
    for (uint32_t s = 2; s <= 64; s++) {
        fill(g, s, s, s % 3);
        roundtrip(g, s, s);
    }
    for (uint32_t w = 1; w <= 12; w++)
        for (uint32_t h = 1; h <= 12; h++) {
            fill(g, w, h, (w + h) % 3);
            roundtrip(g, w, h);
        }
    /* a semantic sweep over sizes (the small ones above cover every padding case): one size in
     * TEST_PASS_STRIDE in the sanitizer pass (tests/test_pass.h), all of them in the plain pass */
    size_t big = 0;
    for (uint32_t s = 65; s <= 512; s++) {
        int pow2_near = 0;
        for (uint32_t p = 128; p <= 512; p *= 2) pow2_near |= s + 1 >= p && s <= p + 1;
        if (s % 9 != 0 && !pow2_near) continue;
        fill(g, s, s, s % 3);
        if (test_take(big++)) roundtrip(g, s, s);
    }
    const uint32_t rect[][2] = {{512, 3}, {5, 300}, {257, 129}, {100, 511}};
    for (size_t k = 0; k < sizeof rect / sizeof rect[0]; k++) {
        fill(g, rect[k][0], rect[k][1], 2);
        roundtrip(g, rect[k][0], rect[k][1]);
    }
}

static void test_flat_grid_is_one_insignificant_root(void **state)
{
    (void)state;
    static int32_t g[64 * 64];
    for (int i = 0; i < 64 * 64; i++) g[i] = 1234;
    relic_wtd_mapping m;
    relic_wtd_mapping_init(&m, 64, 0, 0, 1, 0.01);
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_buf out;
    relic_buf_init(&out, 0);
    relic_error err;
    relic_wtd_encode_stats st;
    assert_int_equal(relic_wtd_encode(g, 64, &m, NULL, &a, &out, &st, &err), RELIC_OK);
    /* 720 header bits + 1 significance bit -> 23 words */
    assert_int_equal(out.size, 92);
    assert_int_equal(st.significant, 0);
    assert_int_equal(st.nodes, 1);
    assert_int_equal(st.vertices, 4);
    roundtrip(g, 64, 64);
    relic_arena_release(&a);
    relic_buf_free(&out);
}

static void test_mapping_is_filled_as_the_original_encoder_does(void **state)
{
    (void)state;
    relic_wtd_mapping m;
    relic_wtd_mapping_init(&m, 8192, -2816, -1792, 0.25, 1 / 292.69296);
    assert_int_equal(m.quad_extents.start_x, 0);
    assert_int_equal(m.quad_extents.size_x, 8192);
    assert_int_equal(m.quad_extents.size_y, 8192);
    assert_true(m.world_extents.size_x == 2048.0f);
    assert_true(m.quad_to_world_x.scale == 0.25f && m.quad_to_world_x.offset == -2816.0f);
    assert_true(m.world_to_quad_x.scale == 4.0f && m.world_to_quad_x.offset == 11264.0f);
    assert_true(m.world_to_quad_y.offset == 7168.0f);
    assert_true(fabs(m.world_to_coef - 292.69296) < 1e-3);
    assert_true(fabs(m.coef_to_quad - m.coef_to_world / 0.25) < 1e-9);
}

static void test_threshold_drops_coefficients_and_reports_the_error(void **state)
{
    (void)state;
    const uint32_t n = 128;
    static int32_t g[128 * 128];
    rng_state = 3;
    fill(g, n, n, 2);
    relic_wtd_mapping m;
    relic_wtd_mapping_init(&m, n, 0, 0, 1, 0.01);
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_buf exact, lossy;
    relic_buf_init(&exact, 0);
    relic_buf_init(&lossy, 0);
    relic_error err;
    relic_wtd_encode_stats s0, s1;
    relic_wtd_encode_options opt = {4, 0, 0};
    assert_int_equal(relic_wtd_encode(g, n, &m, NULL, &a, &exact, &s0, &err), RELIC_OK);
    assert_int_equal(relic_wtd_encode(g, n, &m, &opt, &a, &lossy, &s1, &err), RELIC_OK);
    assert_int_equal(s0.dropped, 0);
    assert_true(s1.dropped > 0);
    assert_true(lossy.size < exact.size);
    /* the reported error is the decoded file's error */
    relic_wtd_terrain t;
    assert_int_equal(relic_wtd_decode_terrain(lossy.data, lossy.size, &a, &t, &err), RELIC_OK);
    uint32_t worst = 0;
    double sum = 0;
    for (size_t i = 0; i < (size_t)n * n; i++) {
        int64_t d = (int64_t)t.heights[i] - g[i];
        if ((uint32_t)llabs(d) > worst) worst = (uint32_t)llabs(d);
        sum += (double)d * d;
    }
    assert_int_equal(s1.max_error, worst);
    assert_true(worst > 0);
    assert_true(fabs(s1.rms_error - sqrt(sum / (n * n))) < 1e-9);
    relic_arena_release(&a);
    relic_buf_free(&exact);
    relic_buf_free(&lossy);
}

static void test_oversized_coefficients_and_bad_sizes_are_refused(void **state)
{
    (void)state;
    int32_t g[4] = {-0x7FFFFFF0, 0x7FFFFFF0, 0x7FFFFFF0, 0x7FFFFFF0}; /* w0 = 2^32 - 32 */
    relic_error err;
    int32_t c[4];
    memcpy(c, g, sizeof c);
    assert_int_equal(relic_wtd_analyse(c, 2, &err), RELIC_E_RANGE);
    assert_int_equal(relic_wtd_analyse(c, 3, &err), RELIC_E_ARGUMENT);
    int32_t big[4] = {0, 1 << 30, 0, 0}; /* w0 of the root: 2^30 does not fit the max-region field */
    relic_wtd_mapping m;
    relic_wtd_mapping_init(&m, 2, 0, 0, 1, 1);
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_buf out;
    relic_buf_init(&out, 0);
    assert_int_equal(relic_wtd_encode_tree(big, 2, &m, &a, &out, NULL, &err), RELIC_E_RANGE);
    assert_string_equal(err.path, "tree.max_region");
    relic_wtd_mapping_init(&m, 4, 0, 0, 1, 1);
    assert_int_equal(relic_wtd_encode_tree(big, 2, &m, &a, &out, NULL, &err), RELIC_E_ARGUMENT);
    relic_arena_release(&a);
    relic_buf_free(&out);
}

/* Trespasser source, Lib/GeomDBase/WaveletQuadTreeBaseTri.cpp: triangles cover the square once, counter-clockwise, and every
 * interior edge is shared by exactly two triangles (no T-junctions). */
static void check_mesh(const relic_wtd_mesh *mesh, double x0, double y0, double size)
{
    double area = 0;
    for (uint32_t i = 0; i < mesh->triangle_count; i++) {
        const double *a = mesh->vertices[mesh->triangles[i][0]], *b = mesh->vertices[mesh->triangles[i][1]],
                     *c = mesh->vertices[mesh->triangles[i][2]];
        double cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
        assert_true(cross > 0);
        area += cross / 2;
    }
    assert_true(fabs(area - size * size) < 1e-6 * size * size);
    if (mesh->triangle_count > 20000) return;
    /* edge use counts through a sorted list of directed edges */
    size_t ne = (size_t)mesh->triangle_count * 3;
    uint64_t *e = malloc(ne * sizeof *e);
    assert_non_null(e);
    for (uint32_t i = 0; i < mesh->triangle_count; i++)
        for (int k = 0; k < 3; k++) e[(size_t)i * 3 + k] = (uint64_t)mesh->triangles[i][k] << 32 | mesh->triangles[i][(k + 1) % 3];
    for (size_t i = 0; i < ne; i++) {
        uint32_t a = (uint32_t)(e[i] >> 32), b = (uint32_t)e[i];
        const double *pa = mesh->vertices[a], *pb = mesh->vertices[b];
        int boundary = (pa[0] == x0 && pb[0] == x0) || (pa[1] == y0 && pb[1] == y0) ||
            (pa[0] == x0 + size && pb[0] == x0 + size) || (pa[1] == y0 + size && pb[1] == y0 + size);
        if (boundary) continue;
        uint64_t twin = (uint64_t)b << 32 | a;
        size_t found = 0;
        for (size_t j = 0; j < ne; j++) found += e[j] == twin;
        assert_int_equal(found, 1);
    }
    free(e);
}

static void test_leaf_triangulation_covers_the_terrain_without_t_junctions(void **state)
{
    (void)state;
    static int32_t g[32 * 32];
    rng_state = 5;
    for (int rep = 0; rep < 6; rep++) {
        const uint32_t n = rep < 3 ? 32 : 8;
        for (uint32_t i = 0; i < n * n; i++) g[i] = 100;
        /* a few bumps: the tree is refined around them only */
        for (int b = 0; b < rep + 1; b++) g[rnd() % (n * n)] += (int32_t)(rnd() % 50) + 1;
        relic_wtd_mapping m;
        relic_wtd_mapping_init(&m, n, 10, 20, 2, 0.5);
        relic_arena a;
        relic_arena_init_heap(&a, 0);
        relic_buf out;
        relic_buf_init(&out, 0);
        relic_error err;
        assert_int_equal(relic_wtd_encode(g, n, &m, NULL, &a, &out, NULL, &err), RELIC_OK);
        relic_wtd_terrain t;
        relic_wtd_mesh mesh;
        assert_int_equal(relic_wtd_decode_terrain(out.data, out.size, &a, &t, &err), RELIC_OK);
        assert_int_equal(relic_wtd_mesh_build(out.data, out.size, &t, &a, &mesh, &err), RELIC_OK);
        check_mesh(&mesh, 10, 20, n * 2.0);
        /* a vertex's Z is its grid height in metres */
        for (uint32_t v = 0; v < mesh.vertex_count; v++) {
            uint32_t x = (uint32_t)((mesh.vertices[v][0] - 10) / 2), y = (uint32_t)((mesh.vertices[v][1] - 20) / 2);
            if (x < n && y < n) assert_true(mesh.vertices[v][2] == 0.5 * g[y * n + x]);
        }
        relic_arena_release(&a);
        relic_buf_free(&out);
    }
}

static void test_flat_leaf_splits_along_its_diagonal(void **state)
{
    (void)state;
    int32_t g[1] = {7};
    relic_wtd_mapping m;
    relic_wtd_mapping_init(&m, 1, 0, 0, 1, 1);
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_buf out;
    relic_buf_init(&out, 0);
    relic_error err;
    relic_wtd_terrain t;
    relic_wtd_mesh mesh;
    assert_int_equal(relic_wtd_encode(g, 1, &m, NULL, &a, &out, NULL, &err), RELIC_OK);
    assert_int_equal(relic_wtd_decode_terrain(out.data, out.size, &a, &t, &err), RELIC_OK);
    assert_int_equal(relic_wtd_mesh_build(out.data, out.size, &t, &a, &mesh, &err), RELIC_OK);
    /* the root: diagonal flag clear -> triangles 0-1-2 and 2-3-0 over corners (0,0) (1,0) (1,1) (0,1) */
    assert_int_equal(mesh.vertex_count, 4);
    assert_int_equal(mesh.triangle_count, 2);
    const double want[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    for (int k = 0; k < 4; k++) {
        assert_true(mesh.vertices[k][0] == want[k][0] && mesh.vertices[k][1] == want[k][1]);
        assert_true(mesh.vertices[k][2] == 7);
    }
    assert_int_equal(mesh.triangles[0][0], 0), assert_int_equal(mesh.triangles[0][1], 1), assert_int_equal(mesh.triangles[0][2], 2);
    assert_int_equal(mesh.triangles[1][0], 2), assert_int_equal(mesh.triangles[1][1], 3), assert_int_equal(mesh.triangles[1][2], 0);
    relic_arena_release(&a);
    relic_buf_free(&out);
}

static void test_heightmap_png_round_trips_heights_and_mapping(void **state)
{
    (void)state;
    const uint32_t n = 64;
    static int32_t g[64 * 64];
    rng_state = 11;
    for (uint32_t i = 0; i < n * n; i++) g[i] = (int32_t)(rnd() % 60000) - 1000;
    relic_wtd_mapping m;
    relic_wtd_mapping_init(&m, n, -256, 128, 0.25, 0.0078125);
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_buf wtd, png, relief;
    relic_buf_init(&wtd, 0);
    relic_buf_init(&png, 0);
    relic_buf_init(&relief, 0);
    relic_error err;
    relic_wtd_terrain t;
    relic_wtd_heightmap hm;
    assert_int_equal(relic_wtd_encode(g, n, &m, NULL, &a, &wtd, NULL, &err), RELIC_OK);
    assert_int_equal(relic_wtd_decode_terrain(wtd.data, wtd.size, &a, &t, &err), RELIC_OK);
    assert_int_equal(relic_wtd_png(&t, &a, &png, &err), RELIC_OK);
    assert_int_equal(relic_wtd_png_read(png.data, png.size, &a, &hm, &err), RELIC_OK);
    assert_int_equal(hm.width, n);
    assert_int_equal(hm.height, n);
    assert_true(hm.has_mapping && !hm.lossy);
    assert_memory_equal(hm.heights, g, sizeof g);
    assert_true(hm.x0 == -256 && hm.y0 == 128 && hm.res == 0.25 && hm.coef_to_world == 0.0078125);
    /* the relief picture: 8-bit greyscale, n x n */
    assert_int_equal(relic_wtd_relief_png(&t, &a, &relief, &err), RELIC_OK);
    assert_true(relief.size > 33 && relief.data[24] == 8 && relief.data[25] == 0);
    assert_true(relief.data[16] == 0 && relief.data[19] == n);
    /* not a PNG, and a cut PNG: errors, no crash */
    assert_int_equal(relic_wtd_png_read(wtd.data, wtd.size, &a, &hm, &err), RELIC_E_MAGIC);
    assert_int_equal(relic_wtd_png_read(png.data, png.size / 2, &a, &hm, &err), RELIC_E_IO);
    assert_int_equal(relic_wtd_png_read(relief.data, relief.size, &a, &hm, &err), RELIC_OK);
    assert_false(hm.has_mapping);
    relic_arena_release(&a);
    relic_buf_free(&wtd);
    relic_buf_free(&png);
    relic_buf_free(&relief);
}

/* Decode the real file's coefficients; re-encode them (Trespasser source, Lib/GeomDBase/WaveletQuadTreeTForm.cpp) and
 * compare bytes; synthesise and analyse again and compare coefficients. */
static void test_corpus_coefficients_and_bytes_are_reproduced(void **state)
{
    (void)state;
    size_t size;
    uint8_t *f = read_all(CORPUS_WTD, &size);
    if (!f) {
        print_message("note: %s not found: this test is skipped\n", CORPUS_WTD);
        return;
    }
    relic_wtd_file h;
    relic_error err;
    assert_int_equal(relic_wtd_read_header(f, size, &h, &err), RELIC_OK);
    const uint32_t n = (uint32_t)h.mapping.quad_extents.size_x;
    int32_t *coef = calloc((size_t)n * n, sizeof *coef), *work = malloc((size_t)n * n * sizeof *work);
    assert_true(coef && work);
    assert_int_equal(relic_wtd_read_tree(f, size, &h, coef, NULL, &err), RELIC_OK);
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_buf out;
    relic_buf_init(&out, 0);
    relic_wtd_encode_stats st;
    assert_int_equal(relic_wtd_encode_tree(coef, n, &h.mapping, &a, &out, &st, &err), RELIC_OK);
    relic_arena_release(&a);
    assert_int_equal(st.nodes, h.node_count);
    assert_int_equal(st.vertices, h.vertex_count);
    assert_int_equal(out.size, size);
    assert_memory_equal(out.data, f, size); /* byte-identical, tail bits included */
    relic_buf_free(&out);
    memcpy(work, coef, (size_t)n * n * sizeof *work);
    relic_wtd_synthesise(work, n);
    assert_int_equal(relic_wtd_analyse(work, n, &err), RELIC_OK);
    assert_memory_equal(work, coef, (size_t)n * n * sizeof *work);
    print_message("pv.wtd: %u significant nodes, %u vertices, %u fixed-point passes; re-encoded byte-identical\n",
                  st.significant, st.vertices, st.iterations);
    free(coef);
    free(work);
    free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forward_transform_is_the_exact_inverse_of_the_synthesis),
        cmocka_unit_test(test_random_grids_of_every_size_round_trip_exactly),
        cmocka_unit_test(test_flat_grid_is_one_insignificant_root),
        cmocka_unit_test(test_mapping_is_filled_as_the_original_encoder_does),
        cmocka_unit_test(test_threshold_drops_coefficients_and_reports_the_error),
        cmocka_unit_test(test_oversized_coefficients_and_bad_sizes_are_refused),
        cmocka_unit_test(test_leaf_triangulation_covers_the_terrain_without_t_junctions),
        cmocka_unit_test(test_flat_leaf_splits_along_its_diagonal),
        cmocka_unit_test(test_heightmap_png_round_trips_heights_and_mapping),
        cmocka_unit_test(test_corpus_coefficients_and_bytes_are_reproduced),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
