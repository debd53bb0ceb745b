/* test_terrain_text.c — Trespasser TRI and TRR terrain text
 * (runtime/formats/tres/tri_lexer.re, tri_write.c, trr_lexer.re, trr_write.c,
 * trr_grid.c) against Trespasser source, Lib/GeomDBase/TerrainLoad.cpp and Trespasser file formats, "TRI", "TRR":
 * reading, writing and reading back, the position ("file:line:col") of
 * every kind of error, truncation and mutation sweeps that must never
 * crash, and the resampling of a point cloud onto a WTD grid (Trespasser source, Lib/GeomDBase/WaveletConv.cpp, Trespasser source, Lib/GeomDBase/WaveletQuadTreeQuery.cpp)
 * that then encodes and decodes to the quantised heights. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "relic_tri.h"
#include "relic_trr.h"

static const char tri_text[] =
    "2\n"
    "0 1 2\n"
    "2 3 0\n"
    "4\n"
    "-256 0 12.5\n"
    "-255.75 0 12.25\n"
    "-255.75 0.25 1e1\n"
    "-256 .25 -0.125\n";

/* 1 when needle occurs in the first n bytes of hay. */
static int contains(const uint8_t *hay, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(hay + i, needle, k)) return 1;
    return 0;
}

static relic_status parse_tri(const char *text, relic_arena *a, relic_tri_mesh *m, relic_error *err)
{
    return relic_tri_parse("t.tri", (const uint8_t *)text, strlen(text), a, m, err);
}

static void test_tri_reads_counts_indices_and_vertices(void **state)
{
    (void)state;
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_tri_mesh m;
    relic_error err;
    assert_int_equal(parse_tri(tri_text, &a, &m, &err), RELIC_OK);
    assert_int_equal(m.triangle_count, 2);
    assert_int_equal(m.vertex_count, 4);
    assert_int_equal(m.triangles[1][0], 2);
    assert_int_equal(m.triangles[1][2], 0);
    assert_true(m.vertices[0][0] == -256 && m.vertices[0][2] == 12.5);
    assert_true(m.vertices[2][2] == 10 && m.vertices[3][1] == 0.25 && m.vertices[3][2] == -0.125);
    relic_arena_release(&a);
}

static void test_tri_writes_text_that_reads_back_identically(void **state)
{
    (void)state;
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_tri_mesh m, m2;
    relic_error err;
    assert_int_equal(parse_tri(tri_text, &a, &m, &err), RELIC_OK);
    m.vertices[1][2] = 0.1; /* not exact in binary: the text must still read back exactly */
    relic_buf out, out2;
    relic_buf_init(&out, 0);
    relic_buf_init(&out2, 0);
    assert_int_equal(relic_tri_write(&m, &out, &err), RELIC_OK);
    assert_int_equal(relic_tri_parse(NULL, out.data, out.size, &a, &m2, &err), RELIC_OK);
    assert_int_equal(m2.vertex_count, m.vertex_count);
    assert_memory_equal(m2.vertices, m.vertices, sizeof(double[3]) * m.vertex_count);
    assert_memory_equal(m2.triangles, m.triangles, sizeof(uint32_t[3]) * m.triangle_count);
    assert_int_equal(relic_tri_write(&m2, &out2, &err), RELIC_OK);
    assert_int_equal(out.size, out2.size);
    assert_memory_equal(out.data, out2.data, out.size);
    assert_true(contains(out.data, out.size, "-255.75 0 0.1\n"));
    relic_buf_free(&out);
    relic_buf_free(&out2);
    /* OBJ: 1-based faces */
    relic_buf_init(&out, 0);
    assert_int_equal(relic_tri_write_obj(&m, &out, &err), RELIC_OK);
    assert_true(contains(out.data, out.size, "f 3 4 1\n"));
    relic_buf_free(&out);
    relic_arena_release(&a);
}

static void expect_tri_error(const char *text, relic_status code, const char *message)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_tri_mesh m;
    relic_error err;
    relic_status st = parse_tri(text, &a, &m, &err);
    if (st != code || strcmp(err.message, message)) print_message("got %d '%s'\n", st, err.message);
    assert_int_equal(st, code);
    assert_string_equal(err.message, message);
    assert_int_equal(m.triangle_count, 0);
    relic_arena_release(&a);
}

static void test_tri_errors_name_file_line_and_column(void **state)
{
    (void)state;
    expect_tri_error("", RELIC_E_SYNTAX, "t.tri:1:1: the file ends where the triangle count belongs");
    expect_tri_error("x\n", RELIC_E_SYNTAX, "t.tri:1:1: expected the triangle count, found 'x'");
    expect_tri_error("1\n0 1.5 2\n3\n", RELIC_E_SYNTAX, "t.tri:2:3: expected a vertex index, found '1.5'");
    expect_tri_error("1\n0 -1 2\n3\n", RELIC_E_INDEX, "t.tri:2:3: a vertex index is negative");
    expect_tri_error("1\n0 1 2\n2\n0 0 0\n1 1 1\n", RELIC_E_INDEX, "t.tri:2:5: vertex index 2 is not below the vertex count 2");
    expect_tri_error("1\n0 1 2\n3\n0 0 0\n1 1 1\n2 2\n", RELIC_E_SYNTAX,
                     "t.tri:7:1: the file ends where a vertex coordinate belongs");
    expect_tri_error("1\n0 1 2\n3\n0 0 0\n1 1 1\n2 2 2\nextra", RELIC_E_SYNTAX,
                     "t.tri:7:1: unexpected 'extra' after the last vertex");
    expect_tri_error("1\r\n0 1 2\r\n3\r\n0 0 0\r\n1 1e999 1\r\n2 2 2\r\n", RELIC_E_RANGE,
                     "t.tri:5:3: coordinate outside the double range");
    expect_tri_error("99999999\n0 1 2\n", RELIC_E_LIMIT,
                     "t.tri:1:1: the triangle count 99999999 is more than the rest of the file (7 bytes) can hold");
    expect_tri_error("1\n0 1 2\n3\n0 0\x01 0\n1 1 1\n2 2 2\n", RELIC_E_SYNTAX, "t.tri:4:3: expected a vertex coordinate, found '0?'");
}

static const char trr_text[] = "0 0 1\n1 0 2\n0 1 3\n1 1 4.5\n";

static void test_trr_reads_points_three_values_at_a_time(void **state)
{
    (void)state;
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_trr_points p;
    relic_error err;
    const char *text = "0 0 1\n1 0\n2 0 1 3\t1 1 4.5";
    assert_int_equal(relic_trr_parse("t.trr", (const uint8_t *)text, strlen(text), &a, &p, &err), RELIC_OK);
    assert_int_equal(p.count, 4);
    assert_true(p.points[1][2] == 2 && p.points[3][2] == 4.5);
    relic_buf out;
    relic_buf_init(&out, 0);
    assert_int_equal(relic_trr_write(&p, &out, &err), RELIC_OK);
    assert_int_equal(out.size, strlen(trr_text));
    assert_memory_equal(out.data, trr_text, out.size);
    relic_buf_free(&out);
    relic_arena_release(&a);
}

static void expect_trr_error(const char *text, relic_status code, const char *message)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_trr_points p;
    relic_error err;
    relic_status st = relic_trr_parse("t.trr", (const uint8_t *)text, strlen(text), &a, &p, &err);
    if (st != code || strcmp(err.message, message)) print_message("got %d '%s'\n", st, err.message);
    assert_int_equal(st, code);
    assert_string_equal(err.message, message);
    assert_int_equal(p.count, 0);
    relic_arena_release(&a);
}

static void test_trr_errors_name_file_line_and_column(void **state)
{
    (void)state;
    expect_trr_error("0 0 1\n1 0 z\n", RELIC_E_SYNTAX, "t.trr:2:5: expected a coordinate, found 'z'");
    expect_trr_error("0 0 1\n1 0 2\n  5 6\n", RELIC_E_SYNTAX, "t.trr:3:3: the last point has 2 of its 3 coordinates");
    expect_trr_error("-1 0 0\n", RELIC_E_UNSUPPORTED,
                     "t.trr:1:1: a first value of -1 marks the obsolete TRR format, which is not supported");
    expect_trr_error("0 0 1\n0 0 1e400\n", RELIC_E_RANGE, "t.trr:2:5: coordinate outside the double range");
    expect_trr_error("0 0 1\r0 0 1,5\n", RELIC_E_SYNTAX, "t.trr:2:5: expected a coordinate, found '1,5'");
}

/* Cut at 64 places and flip single bits: errors or success, never a crash. */
static void test_truncated_and_mutated_text_never_crashes(void **state)
{
    (void)state;
    const char *texts[2] = {tri_text, trr_text};
    uint64_t rng = 77;
    for (int k = 0; k < 2; k++) {
        size_t size = strlen(texts[k]);
        uint8_t *copy = malloc(size);
        assert_non_null(copy);
        for (int i = 0; i <= 64; i++) {
            size_t cut = size * (size_t)i / 64;
            memcpy(copy, texts[k], cut);
            relic_arena a;
            relic_arena_init_heap(&a, 1 << 20);
            relic_error err;
            relic_tri_mesh m;
            relic_trr_points p;
            (void)relic_tri_parse(NULL, copy, cut, &a, &m, &err);
            (void)relic_trr_parse(NULL, copy, cut, &a, &p, &err);
            relic_arena_release(&a);
        }
        for (int i = 0; i < 500; i++) {
            memcpy(copy, texts[k], size);
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            copy[(rng >> 33) % size] ^= (uint8_t)(1u << ((rng >> 20) % 8));
            relic_arena a;
            relic_arena_init_heap(&a, 1 << 20);
            relic_error err;
            relic_tri_mesh m;
            relic_trr_points p;
            (void)relic_tri_parse(NULL, copy, size, &a, &m, &err);
            (void)relic_trr_parse(NULL, copy, size, &a, &p, &err);
            relic_arena_release(&a);
        }
        free(copy);
    }
}

/* A lattice of points at 0.5 m: the grid takes every point exactly, heights
 * quantised to 16 bits of max |z| (Trespasser source, Lib/GeomDBase/WaveletConv.cpp, Lib/GeomDBase/WaveletQuadTreeQuery.cpp), and the WTD made from
 * it decodes to those heights. */
static void test_trr_lattice_resamples_and_encodes_exactly(void **state)
{
    (void)state;
    const uint32_t w = 11, h = 7;
    relic_trr_points p;
    double pts[11 * 7][3];
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            double *q = pts[y * w + x];
            q[0] = 100 + 0.5 * x;
            q[1] = -20 + 0.5 * y;
            q[2] = 3 + sin(x * 0.7) + 0.5 * cos(y * 1.1);
        }
    p.points = pts;
    p.count = w * h;
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_trr_grid g;
    relic_error err;
    assert_int_equal(relic_trr_to_grid(&p, 0, &a, &g, &err), RELIC_OK);
    assert_true(g.res == 0.5);
    assert_int_equal(g.width, w);
    assert_int_equal(g.height, h);
    assert_int_equal(g.n, 16);
    assert_int_equal(g.cells_with_points, w * h);
    double maxz = 0;
    for (size_t i = 0; i < p.count; i++) maxz = fmax(maxz, fabs(pts[i][2]));
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            assert_int_equal(g.heights[y * g.n + x], (int32_t)round(pts[y * w + x][2] * 65536 / maxz));
    assert_true(g.mapping.quad_to_world_x.offset == 100 && g.mapping.quad_to_world_y.offset == -20);
    assert_true(fabs(g.mapping.coef_to_world * 65536 - maxz) < 1e-5);
    relic_buf out;
    relic_buf_init(&out, 0);
    assert_int_equal(relic_wtd_encode(g.heights, g.n, &g.mapping, NULL, &a, &out, NULL, &err), RELIC_OK);
    relic_wtd_terrain t;
    assert_int_equal(relic_wtd_decode_terrain(out.data, out.size, &a, &t, &err), RELIC_OK);
    assert_memory_equal(t.heights, g.heights, sizeof(int32_t) * g.n * g.n);
    relic_buf_free(&out);
    /* an explicit maximum height: 2^16 units = that many metres */
    assert_int_equal(relic_trr_to_grid(&p, 8, &a, &g, &err), RELIC_OK);
    assert_int_equal(g.heights[0], (int32_t)round(pts[0][2] * 65536 / 8));
    /* no points, and a spread too wide for the largest grid */
    p.count = 0;
    assert_int_equal(relic_trr_to_grid(&p, 0, &a, &g, &err), RELIC_E_ARGUMENT);
    double far[2][3] = {{0, 0, 0}, {1e6, 0.5, 1}};
    p.points = far;
    p.count = 2;
    assert_int_equal(relic_trr_to_grid(&p, 0, &a, &g, &err), RELIC_E_LIMIT);
    relic_arena_release(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tri_reads_counts_indices_and_vertices),
        cmocka_unit_test(test_tri_writes_text_that_reads_back_identically),
        cmocka_unit_test(test_tri_errors_name_file_line_and_column),
        cmocka_unit_test(test_trr_reads_points_three_values_at_a_time),
        cmocka_unit_test(test_trr_errors_name_file_line_and_column),
        cmocka_unit_test(test_truncated_and_mutated_text_never_crashes),
        cmocka_unit_test(test_trr_lattice_resamples_and_encodes_exactly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
