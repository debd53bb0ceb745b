/* test_bwm_build.c — unit and corpus tests of the BWM derived-table builders
 * (runtime/formats/kotor/bwm_build.c), the OBJ reader (runtime/export/obj_lexer.re) and the
 * OBJ/SVG exports (runtime/export/bwm_export.c).
 *
 * Synthetic meshes check the rules of PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py one by one.
 * The corpus test reads every .wok file of ../shared/corpus/bwm with a small
 * bounds-checked reader of its own (independent of the generated code),
 * rebuilds every derived table from the geometry and prints, per file,
 * how many entries match; it asserts exact equality where the rules are
 * known to reproduce the files (adjacency, edges, perimeters, the AABB
 * tree's shape, the MSP rule) and prints the rest. Run from the repository
 * root (the corpus path is relative); without the corpus it says so and
 * skips that part. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bwm_build.h"
#include "bwm_export.h"
#include "obj.h"
#include "relic.h"

#define CORPUS_DIR "../shared/corpus/bwm"

/* ---------------------------------------------------------------------- */
/* Helpers                                                                 */
/* ---------------------------------------------------------------------- */

static relic_bwm_mesh make_mesh(const float (*v)[3], uint32_t nv, const uint32_t (*f)[3], const uint32_t *mat,
                                uint32_t nf)
{
    relic_bwm_mesh m;
    m.vertices = v;
    m.vertex_count = nv;
    m.faces = f;
    m.materials = mat;
    m.face_count = nf;
    return m;
}

/* Every loop of a perimeter table is closed: each edge ends where the next
 * starts and the last ends where the first starts. */
static void assert_loops_closed(const relic_bwm_mesh *m, const relic_bwm_edge_rec *e, uint32_t ne, const uint32_t *p,
                                uint32_t np)
{
    uint32_t k, start = 0, i;
    assert_true(np > 0);
    assert_int_equal(p[np - 1], ne);
    for (k = 0; k < np; k++) {
        assert_true(p[k] > start);
        for (i = start; i < p[k]; i++) {
            uint32_t j = i + 1 < p[k] ? i + 1 : start;
            uint32_t fa = e[i].edge / 3, sa = e[i].edge % 3, fb = e[j].edge / 3, sb = e[j].edge % 3;
            assert_int_equal(m->faces[fa][(sa + 1) % 3], m->faces[fb][sb]);
        }
        start = p[k];
    }
}

/* A grid of gx by gy unit quads, two triangles each, material per quad. */
typedef struct grid {
    float (*v)[3];
    uint32_t (*f)[3];
    uint32_t *mat;
    uint32_t nv, nf;
} grid;

static grid make_grid(relic_arena *a, uint32_t gx, uint32_t gy)
{
    grid g;
    uint32_t x, y, k = 0;
    g.nv = (gx + 1) * (gy + 1);
    g.nf = 2 * gx * gy;
    g.v = relic_arena_array(a, g.nv, sizeof *g.v, 4);
    g.f = relic_arena_array(a, g.nf, sizeof *g.f, 4);
    g.mat = relic_arena_array(a, g.nf, sizeof *g.mat, 4);
    assert_non_null(g.v);
    assert_non_null(g.f);
    assert_non_null(g.mat);
    for (y = 0; y <= gy; y++)
        for (x = 0; x <= gx; x++) {
            g.v[y * (gx + 1) + x][0] = (float)x;
            g.v[y * (gx + 1) + x][1] = (float)y;
            g.v[y * (gx + 1) + x][2] = 0.0f;
        }
    for (y = 0; y < gy; y++)
        for (x = 0; x < gx; x++) {
            uint32_t a0 = y * (gx + 1) + x, a1 = a0 + 1, a2 = a1 + gx + 1, a3 = a0 + gx + 1;
            g.f[k][0] = a0;
            g.f[k][1] = a1;
            g.f[k][2] = a2;
            g.mat[k++] = 4;
            g.f[k][0] = a0;
            g.f[k][1] = a2;
            g.f[k][2] = a3;
            g.mat[k++] = 4;
        }
    return g;
}

/* ---------------------------------------------------------------------- */
/* Materials and planes                                                    */
/* ---------------------------------------------------------------------- */

static void test_material_table(void **state)
{
    static const uint32_t walk[] = {1, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 16, 18, 20, 21, 22, 30};
    uint32_t id, i, n = 0;
    (void)state;
    for (id = 0; id < 40; id++) {
        int expect = 0;
        for (i = 0; i < sizeof walk / sizeof walk[0]; i++)
            expect |= walk[i] == id;
        assert_int_equal(relic_bwm_material_walkable(id) != 0, expect);
        n += relic_bwm_material_name(id) != NULL;
    }
    assert_int_equal(n, 24); /* 0..22 and 30 */
    assert_string_equal(relic_bwm_material_name(0), "NotDefined");
    assert_string_equal(relic_bwm_material_name(7), "NonWalk");
    assert_string_equal(relic_bwm_material_name(19), "Snow");
    assert_string_equal(relic_bwm_material_name(22), "StoneBridge");
    assert_string_equal(relic_bwm_material_name(30), "Trigger");
    assert_null(relic_bwm_material_name(23));
    assert_null(relic_bwm_material_name(0xFFFFFFFFu));
    assert_false(relic_bwm_material_walkable(0xFFFFFFFFu));
}

static void test_walkable_prefix(void **state)
{
    static const float v[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    static const uint32_t f[4][3] = {{0, 1, 2}, {0, 1, 2}, {0, 1, 2}, {0, 1, 2}};
    static const uint32_t mixed[4] = {4, 10, 7, 4};
    relic_bwm_mesh m = make_mesh(v, 3, f, mixed, 4);
    (void)state;
    assert_int_equal(relic_bwm_walkable_prefix(&m), 2);
    m.face_count = 0;
    assert_int_equal(relic_bwm_walkable_prefix(&m), 0);
}

static void test_face_plane_unit_triangle(void **state)
{
    static const float v[3][3] = {{0, 0, 2}, {1, 0, 2}, {0, 1, 2}};
    static const uint32_t f[1][3] = {{0, 1, 2}};
    static const uint32_t mat[1] = {4};
    relic_bwm_mesh m = make_mesh(v, 3, f, mat, 1);
    float n[3], d;
    (void)state;
    relic_bwm_face_plane(&m, 0, n, &d);
    assert_true(n[0] == 0.0f && n[1] == 0.0f && n[2] == 1.0f);
    assert_true(d == -2.0f);
}

static void test_face_plane_degenerate(void **state)
{
    static const float v[3][3] = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}}; /* collinear */
    static const uint32_t f[2][3] = {{0, 1, 2}, {1, 1, 1}};
    static const uint32_t mat[2] = {4, 4};
    relic_bwm_mesh m = make_mesh(v, 3, f, mat, 2);
    float n[3] = {9, 9, 9}, d = 9;
    (void)state;
    relic_bwm_face_plane(&m, 0, n, &d);
    assert_true(n[0] == 0.0f && n[1] == 0.0f && n[2] == 0.0f && d == 0.0f);
    relic_bwm_face_plane(&m, 1, n, &d);
    assert_true(n[0] == 0.0f && n[1] == 0.0f && n[2] == 0.0f && d == 0.0f);
}

/* ---------------------------------------------------------------------- */
/* Adjacency, edges, perimeters                                            */
/* ---------------------------------------------------------------------- */

static void test_quad_adjacency_and_perimeter(void **state)
{
    static const float v[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    static const uint32_t f[2][3] = {{0, 1, 2}, {0, 2, 3}};
    static const uint32_t mat[2] = {4, 4};
    relic_bwm_mesh m = make_mesh(v, 4, f, mat, 2);
    relic_arena a;
    int32_t adj[2][3];
    relic_bwm_edge_rec e[6];
    uint32_t p[6], ne, np;
    relic_error err;
    (void)state;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_bwm_build_adjacency(&m, 2, adj, &a, &err), RELIC_OK);
    assert_int_equal(adj[0][0], -1);
    assert_int_equal(adj[0][1], -1);
    assert_int_equal(adj[0][2], 3); /* face 0 side 2 (2->0) = face 1 side 0 (0->2) */
    assert_int_equal(adj[1][0], 2);
    assert_int_equal(adj[1][1], -1);
    assert_int_equal(adj[1][2], -1);
    assert_int_equal(relic_bwm_build_perimeters(&m, 2, (const int32_t(*)[3])adj, NULL, 0, e, &ne, p, &np, &a, &err),
                     RELIC_OK);
    assert_int_equal(ne, 4);
    assert_int_equal(np, 1);
    assert_int_equal(p[0], 4);
    assert_int_equal(e[0].edge, 0);
    assert_int_equal(e[1].edge, 1);
    assert_int_equal(e[2].edge, 4);
    assert_int_equal(e[3].edge, 5);
    assert_int_equal(e[0].transition, -1);
    assert_loops_closed(&m, e, ne, p, np);
    relic_arena_release(&a);
}

static void test_strip_is_one_loop(void **state)
{
    relic_arena a;
    grid g;
    relic_bwm_mesh m;
    int32_t(*adj)[3];
    relic_bwm_edge_rec *e;
    uint32_t *p, ne, np, f, links = 0;
    relic_error err;
    (void)state;
    relic_arena_init_heap(&a, 0);
    g = make_grid(&a, 10, 1);
    m = make_mesh((const float(*)[3])g.v, g.nv, (const uint32_t(*)[3])g.f, g.mat, g.nf);
    adj = relic_arena_array(&a, g.nf, sizeof *adj, 4);
    e = relic_arena_array(&a, 3 * g.nf, sizeof *e, 4);
    p = relic_arena_array(&a, 3 * g.nf, sizeof *p, 4);
    assert_int_equal(relic_bwm_build_adjacency(&m, g.nf, adj, &a, &err), RELIC_OK);
    for (f = 0; f < g.nf; f++) {
        int k;
        for (k = 0; k < 3; k++)
            if (adj[f][k] >= 0) {
                int32_t o = adj[f][k];
                links++;
                assert_int_equal(adj[o / 3][o % 3], (int32_t)(3 * f + (uint32_t)k)); /* symmetric */
            }
    }
    assert_int_equal(links, 2 * (2 * 10 - 1)); /* 19 shared sides, counted from both faces */
    assert_int_equal(relic_bwm_build_perimeters(&m, g.nf, (const int32_t(*)[3])adj, NULL, 0, e, &ne, p, &np, &a, &err),
                     RELIC_OK);
    assert_int_equal(np, 1);
    assert_int_equal(ne, 2 * 10 + 2);
    assert_loops_closed(&m, e, ne, p, np);
    relic_arena_release(&a);
}

/* A 3x3 grid whose centre quad is non-walkable (and stored last, as the
 * format wants): two perimeter loops, and no adjacency into the hole. */
static void test_hole_gives_two_loops(void **state)
{
    relic_arena a;
    grid g;
    relic_bwm_mesh m;
    uint32_t(*f)[3], *mat, i, k = 0, ne, np, *p, hole_sides = 0;
    int32_t(*adj)[3];
    relic_bwm_edge_rec *e, old[2];
    relic_error err;
    (void)state;
    relic_arena_init_heap(&a, 0);
    g = make_grid(&a, 3, 3);
    f = relic_arena_array(&a, g.nf, sizeof *f, 4);
    mat = relic_arena_array(&a, g.nf, sizeof *mat, 4);
    for (i = 0; i < g.nf; i++) /* quad 4 (faces 8, 9) is the centre */
        if (i != 8 && i != 9) {
            memcpy(f[k], g.f[i], sizeof f[k]);
            mat[k++] = 4;
        }
    memcpy(f[k], g.f[8], sizeof f[k]);
    mat[k++] = 7;
    memcpy(f[k], g.f[9], sizeof f[k]);
    mat[k++] = 7;
    m = make_mesh((const float(*)[3])g.v, g.nv, (const uint32_t(*)[3])f, mat, g.nf);
    assert_int_equal(relic_bwm_walkable_prefix(&m), 16);
    adj = relic_arena_array(&a, 16, sizeof *adj, 4);
    e = relic_arena_array(&a, 48, sizeof *e, 4);
    p = relic_arena_array(&a, 48, sizeof *p, 4);
    assert_int_equal(relic_bwm_build_adjacency(&m, 16, adj, &a, &err), RELIC_OK);
    for (i = 0; i < 16; i++) {
        int s;
        for (s = 0; s < 3; s++) {
            uint32_t va = f[i][s], vb = f[i][(s + 1) % 3];
            /* sides on the hole's border (vertices 5, 6, 9, 10 of the 4x4 grid of vertices) */
            int on_hole = (va == 5 || va == 6 || va == 9 || va == 10) && (vb == 5 || vb == 6 || vb == 9 || vb == 10) &&
                !((va == 5 && vb == 10) || (va == 10 && vb == 5));
            if (on_hole) {
                hole_sides++;
                assert_int_equal(adj[i][s], -1);
            }
            if (adj[i][s] >= 0)
                assert_true((uint32_t)adj[i][s] < 48); /* only walkable faces */
        }
    }
    assert_int_equal(hole_sides, 4);
    /* keep a transition on the first outer edge */
    old[0].edge = 0;
    old[0].transition = 3;
    old[1].edge = 999;
    old[1].transition = 5;
    assert_int_equal(relic_bwm_build_perimeters(&m, 16, (const int32_t(*)[3])adj, old, 2, e, &ne, p, &np, &a, &err),
                     RELIC_OK);
    assert_int_equal(np, 2);
    assert_int_equal(ne, 12 + 4);
    assert_int_equal(p[0], 12); /* outer loop first: it starts at face 0 side 0 */
    assert_int_equal(e[0].edge, 0);
    assert_int_equal(e[0].transition, 3);
    for (i = 1; i < ne; i++)
        assert_int_equal(e[i].transition, -1);
    assert_loops_closed(&m, e, ne, p, np);
    relic_arena_release(&a);
}

static void test_nonwalkable_faces_have_no_adjacency(void **state)
{
    static const float v[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    static const uint32_t f[2][3] = {{0, 1, 2}, {0, 2, 3}};
    static const uint32_t mat[2] = {4, 7};
    relic_bwm_mesh m = make_mesh(v, 4, f, mat, 2);
    relic_arena a;
    int32_t adj[1][3];
    relic_error err;
    (void)state;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_bwm_walkable_prefix(&m), 1);
    assert_int_equal(relic_bwm_build_adjacency(&m, 1, adj, &a, &err), RELIC_OK);
    assert_int_equal(adj[0][0], -1);
    assert_int_equal(adj[0][1], -1);
    assert_int_equal(adj[0][2], -1);
    relic_arena_release(&a);
}

/* Three walkable faces on one pair of vertices (and a degenerate face with
 * the pair twice): the index rule pairs in edge-id order, the position
 * rule lets the highest edge id win. */
static void test_shared_three_ways(void **state)
{
    static const float v[6][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {1, 1, 1}, {2, 2, 2}};
    static const uint32_t f[3][3] = {{0, 1, 2}, {1, 0, 3}, {0, 1, 4}};
    static const uint32_t mat[3] = {4, 4, 4};
    static const uint32_t fd[2][3] = {{0, 1, 0}, {1, 0, 5}};
    relic_bwm_mesh m = make_mesh(v, 6, f, mat, 3), md = make_mesh(v, 6, fd, mat, 2);
    relic_arena a;
    int32_t adj[3][3];
    relic_error err;
    (void)state;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_bwm_build_adjacency(&m, 3, adj, &a, &err), RELIC_OK);
    assert_int_equal(adj[0][0], 3);
    assert_int_equal(adj[1][0], 0);
    assert_int_equal(adj[2][0], -1);
    assert_int_equal(relic_bwm_build_adjacency_rule(&m, 3, RELIC_BWM_ADJ_POSITION_LAST, adj, &a, &err), RELIC_OK);
    assert_int_equal(adj[0][0], 6);
    assert_int_equal(adj[1][0], 6);
    assert_int_equal(adj[2][0], 3);
    /* a degenerate face with two sides on the pair: only the first finds a
     * free partner, so the links stay symmetric */
    assert_int_equal(relic_bwm_build_adjacency(&md, 2, adj, &a, &err), RELIC_OK);
    assert_int_equal(adj[0][0], 3);
    assert_int_equal(adj[0][1], -1);
    assert_int_equal(adj[0][2], -1);
    assert_int_equal(adj[1][0], 0);
    relic_arena_release(&a);
}

/* However many walkable sides pile onto one vertex pair, and however
 * degenerate the faces, index-rule links are symmetric and join sides on
 * the same pair. */
static void test_index_rule_is_symmetric(void **state)
{
    static const float v[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
    static const uint32_t f[9][3] = {{0, 1, 2}, {1, 0, 3}, {0, 1, 0}, {1, 0, 1}, {0, 1, 3}, {1, 1, 1}, {2, 1, 0}, {0, 0, 1}, {3, 1, 0}};
    static const uint32_t mat[9] = {4, 4, 4, 4, 4, 4, 4, 4, 4};
    relic_bwm_mesh m = make_mesh(v, 4, f, mat, 9);
    relic_arena a;
    int32_t adj[9][3];
    relic_error err;
    uint32_t i, links = 0;
    (void)state;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_bwm_build_adjacency(&m, 9, adj, &a, &err), RELIC_OK);
    for (i = 0; i < 27; i++) {
        int32_t o = adj[i / 3][i % 3];
        uint32_t a0, a1, b0, b1;
        if (o < 0)
            continue;
        links++;
        assert_int_equal(adj[o / 3][o % 3], (int32_t)i);
        assert_true((uint32_t)o / 3 != i / 3);
        a0 = f[i / 3][i % 3];
        a1 = f[i / 3][(i % 3 + 1) % 3];
        b0 = f[o / 3][o % 3];
        b1 = f[o / 3][(o % 3 + 1) % 3];
        assert_true((a0 == b0 && a1 == b1) || (a0 == b1 && a1 == b0));
    }
    assert_true(links >= 8);
    relic_arena_release(&a);
}

static void test_position_rule_joins_duplicate_vertices(void **state)
{
    /* the second triangle uses copies of vertices 0 and 2 */
    static const float v[6][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {-0.0f, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    static const uint32_t f[2][3] = {{0, 1, 2}, {3, 4, 5}};
    static const uint32_t mat[2] = {4, 4};
    relic_bwm_mesh m = make_mesh(v, 6, f, mat, 2);
    relic_arena a;
    int32_t adj[2][3];
    relic_error err;
    (void)state;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_bwm_build_adjacency(&m, 2, adj, &a, &err), RELIC_OK);
    assert_int_equal(adj[0][2], -1); /* different indices: not joined */
    assert_int_equal(relic_bwm_build_adjacency_rule(&m, 2, RELIC_BWM_ADJ_POSITION_LAST, adj, &a, &err), RELIC_OK);
    assert_int_equal(adj[0][2], 3); /* 2->0 meets 3->4 (same positions; -0 equals 0) */
    assert_int_equal(adj[1][0], 2);
    relic_arena_release(&a);
}

static void test_perimeter_walk_survives_bad_adjacency(void **state)
{
    static const float v[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    static const uint32_t f[1][3] = {{0, 1, 2}};
    static const uint32_t mat[1] = {4};
    relic_bwm_mesh m = make_mesh(v, 3, f, mat, 1);
    int32_t self_loop[1][3] = {{-1, 0, -1}}, out_of_range[1][3] = {{-1, 7, -1}};
    relic_bwm_edge_rec e[3];
    uint32_t p[3], ne, np;
    relic_arena a;
    relic_error err;
    (void)state;
    relic_arena_init_heap(&a, 0);
    /* side 1 links to side 0, whose successor is side 1 again: a cycle */
    assert_int_equal(relic_bwm_build_perimeters(&m, 1, (const int32_t(*)[3])self_loop, NULL, 0, e, &ne, p, &np, &a,
                                                &err),
                     RELIC_OK);
    assert_int_equal(ne, 2);
    assert_int_equal(np, 2);
    assert_int_equal(e[0].edge, 0);
    assert_int_equal(e[1].edge, 2);
    assert_int_equal(relic_bwm_build_perimeters(&m, 1, (const int32_t(*)[3])out_of_range, NULL, 0, e, &ne, p, &np,
                                                &a, &err),
                     RELIC_E_INDEX);
    assert_string_equal(err.path, "adjacency[0][1]");
    relic_arena_release(&a);
}

static void test_bad_vertex_index_is_reported(void **state)
{
    static const float v[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    static const uint32_t f[1][3] = {{0, 1, 3}};
    static const uint32_t mat[1] = {4};
    relic_bwm_mesh m = make_mesh(v, 3, f, mat, 1);
    int32_t adj[1][3];
    relic_bwm_aabb_rec nodes[1];
    uint32_t n;
    relic_arena a;
    relic_error err;
    (void)state;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_bwm_build_adjacency(&m, 1, adj, &a, &err), RELIC_E_INDEX);
    assert_string_equal(err.path, "faces[0].v[2]");
    assert_int_equal(relic_bwm_build_aabb(&m, nodes, &n, &a, &err), RELIC_E_INDEX);
    relic_arena_release(&a);
}

/* ---------------------------------------------------------------------- */
/* AABB                                                                    */
/* ---------------------------------------------------------------------- */

/* Checks every structural rule of kotorblender, aabb.py; PyKotor, io_bwm.py on a built tree. */
static void assert_aabb_valid(const relic_bwm_mesh *m, const relic_bwm_aabb_rec *t, uint32_t count, relic_arena *a)
{
    uint8_t *seen = relic_arena_array(a, m->face_count, 1, 1);
    uint32_t i, leaves = 0;
    assert_non_null(seen);
    assert_int_equal(count, 2 * m->face_count - 1);
    for (i = 0; i < count; i++) {
        const relic_bwm_aabb_rec *n = &t[i];
        int c;
        assert_int_equal(n->unknown, RELIC_BWM_AABB_UNKNOWN);
        if (n->face >= 0) {
            const uint32_t *f = m->faces[n->face];
            assert_int_equal(seen[n->face], 0);
            seen[n->face] = 1;
            leaves++;
            assert_int_equal(n->msp, 0);
            assert_int_equal(n->child1, RELIC_BWM_NO_CHILD);
            assert_int_equal(n->child2, RELIC_BWM_NO_CHILD);
            for (c = 0; c < 3; c++) {
                float lo = fminf(fminf(m->vertices[f[0]][c], m->vertices[f[1]][c]), m->vertices[f[2]][c]);
                float hi = fmaxf(fmaxf(m->vertices[f[0]][c], m->vertices[f[1]][c]), m->vertices[f[2]][c]);
                assert_true(n->box_min[c] == lo - 0.01f);
                assert_true(n->box_max[c] == hi + 0.01f);
            }
        } else {
            const relic_bwm_aabb_rec *l, *r;
            assert_int_equal(n->face, -1);
            assert_int_equal(n->child1, i + 1);
            assert_true(n->child2 > i + 1 && n->child2 < count);
            l = &t[n->child1];
            r = &t[n->child2];
            assert_int_equal(n->msp, relic_bwm_aabb_msp(l, r));
            for (c = 0; c < 3; c++) {
                assert_true(n->box_min[c] == fminf(l->box_min[c], r->box_min[c]));
                assert_true(n->box_max[c] == fmaxf(l->box_max[c], r->box_max[c]));
            }
        }
    }
    assert_int_equal(leaves, m->face_count);
}

static void test_aabb_small_meshes(void **state)
{
    relic_arena a;
    relic_bwm_aabb_rec nodes[2 * 18 - 1];
    uint32_t n;
    relic_error err;
    grid g;
    relic_bwm_mesh m;
    (void)state;
    relic_arena_init_heap(&a, 0);
    g = make_grid(&a, 3, 3);
    m = make_mesh((const float(*)[3])g.v, g.nv, (const uint32_t(*)[3])g.f, g.mat, g.nf);
    assert_int_equal(relic_bwm_build_aabb(&m, nodes, &n, &a, &err), RELIC_OK);
    assert_aabb_valid(&m, nodes, n, &a);
    /* the root splits 18 faces 9/9 along x or y (equal lengths: y wins) */
    assert_int_equal(nodes[0].child2, 18);
    m.face_count = 1;
    assert_int_equal(relic_bwm_build_aabb(&m, nodes, &n, &a, &err), RELIC_OK);
    assert_int_equal(n, 1);
    assert_int_equal(nodes[0].face, 0);
    m.face_count = 0;
    assert_int_equal(relic_bwm_build_aabb(&m, nodes, &n, &a, &err), RELIC_OK);
    assert_int_equal(n, 0);
    relic_arena_release(&a);
}

static void test_aabb_msp_rule(void **state)
{
    relic_bwm_aabb_rec l, r;
    (void)state;
    memset(&l, 0, sizeof l);
    memset(&r, 0, sizeof r);
    l.box_max[0] = l.box_max[1] = l.box_max[2] = 1.0f;
    r = l;
    assert_int_equal(relic_bwm_aabb_msp(&l, &r), 0x20); /* same centre: -Z */
    r.box_min[1] += 2.0f;
    r.box_max[1] += 2.0f;
    assert_int_equal(relic_bwm_aabb_msp(&l, &r), 0x02); /* right child is +Y of the left */
    assert_int_equal(relic_bwm_aabb_msp(&r, &l), 0x10);
    r.box_min[0] -= 5.0f;
    assert_int_equal(relic_bwm_aabb_msp(&l, &r), 0x08);
}

/* A million-face walkmesh: adjacency, perimeters and the AABB tree without
 * recursion and within O(n log n). */
static void test_million_faces(void **state)
{
    relic_arena a;
    grid g;
    relic_bwm_mesh m;
    relic_bwm_aabb_rec *nodes;
    int32_t(*adj)[3];
    relic_bwm_edge_rec *e;
    uint32_t *p, n, ne, np, i, depth_max = 0;
    relic_error err;
    (void)state;
    relic_arena_init_heap(&a, 0);
    g = make_grid(&a, 1000, 501); /* 1,002,000 faces */
    m = make_mesh((const float(*)[3])g.v, g.nv, (const uint32_t(*)[3])g.f, g.mat, g.nf);
    nodes = relic_arena_array(&a, 2 * (size_t)g.nf - 1, sizeof *nodes, 4);
    adj = relic_arena_array(&a, g.nf, sizeof *adj, 4);
    e = relic_arena_array(&a, 3 * (size_t)g.nf, sizeof *e, 4);
    p = relic_arena_array(&a, 3 * (size_t)g.nf, sizeof *p, 4);
    assert_non_null(nodes);
    assert_int_equal(relic_bwm_build_aabb(&m, nodes, &n, &a, &err), RELIC_OK);
    assert_int_equal(n, 2 * g.nf - 1);
    assert_true(nodes[0].box_min[0] == -0.01f && nodes[0].box_max[0] == 1000.01f);
    for (i = 0; i < n; i++) /* pre-order: every subtree is contiguous */
        if (nodes[i].face < 0) {
            assert_int_equal(nodes[i].child1, i + 1);
            assert_true(nodes[i].child2 < n);
        }
    /* depth: follow left children from the root */
    for (i = 0; nodes[i].face < 0; i = nodes[i].child1)
        depth_max++;
    assert_true(depth_max <= 20);
    assert_int_equal(relic_bwm_build_adjacency(&m, g.nf, adj, &a, &err), RELIC_OK);
    assert_int_equal(relic_bwm_build_perimeters(&m, g.nf, (const int32_t(*)[3])adj, NULL, 0, e, &ne, p, &np, &a, &err),
                     RELIC_OK);
    assert_int_equal(np, 1);
    assert_int_equal(ne, 2 * (1000 + 501));
    relic_arena_release(&a);
}

/* ---------------------------------------------------------------------- */
/* OBJ reading                                                             */
/* ---------------------------------------------------------------------- */

static relic_status parse_text(const char *text, relic_arena *a, relic_obj_mesh *o, relic_error *err)
{
    return relic_obj_parse("t.obj", (const uint8_t *)text, strlen(text), a, o, err);
}

static void test_obj_reads_forms(void **state)
{
    static const char text[] =
        "# a comment\n"
        "mtllib walk.mtl\n"
        "o room\n"
        "v 0 0 0\n"
        "v 1.5 0 0 1.0\n"
        "v 1.5 2 0\n"
        "v 0 2e0 -0.25 0.1 0.2 0.3\n"
        "vt 0 0\n"
        "vt 1 0\n"
        "vn 0 0 1\n"
        "g floor\n"
        "s off\n"
        "usemtl Stone\n"
        "f 1/1/1 2/2/1 3//1 4\r\n"
        "usemtl NonWalk # a comment after the name\n"
        "f -4 -3 \\\n"
        "  -2\n"
        "l 1 2\n"
        "usemtl Stone\n"
        "f 1 3 4\n";
    relic_arena a;
    relic_obj_mesh o;
    relic_error err;
    (void)state;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(parse_text(text, &a, &o, &err), RELIC_OK);
    assert_int_equal(o.vertex_count, 4);
    assert_true(o.vertices[1][0] == 1.5f && o.vertices[3][1] == 2.0f && o.vertices[3][2] == -0.25f);
    assert_int_equal(o.normal_count, 1);
    assert_int_equal(o.texcoord_count, 2);
    assert_int_equal(o.face_count, 4); /* quad -> 2, triangle, triangle */
    assert_int_equal(o.faces[0][0], 0);
    assert_int_equal(o.faces[0][1], 1);
    assert_int_equal(o.faces[0][2], 2);
    assert_int_equal(o.faces[1][0], 0);
    assert_int_equal(o.faces[1][1], 2);
    assert_int_equal(o.faces[1][2], 3);
    assert_int_equal(o.faces[2][0], 0); /* -4 -3 -2 with 4 vertices */
    assert_int_equal(o.faces[2][1], 1);
    assert_int_equal(o.faces[2][2], 2);
    assert_int_equal(o.face_line[2], 16);
    assert_int_equal(o.face_line[3], 20);
    assert_int_equal(o.material_count, 2);
    assert_string_equal(o.material_names[0], "Stone");
    assert_string_equal(o.material_names[1], "NonWalk");
    assert_int_equal(o.material_pos[1].line, 15);
    assert_int_equal(o.material_pos[1].col, 8);
    assert_int_equal(o.face_material[0], 0);
    assert_int_equal(o.face_material[2], 1);
    assert_int_equal(o.face_material[3], 0);
    assert_int_equal(o.first_unnamed.line, 0);
    relic_arena_release(&a);
}

static void test_obj_pentagon_fan(void **state)
{
    relic_arena a;
    relic_obj_mesh o;
    relic_error err;
    uint32_t t;
    (void)state;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(parse_text("v 0 0 0\nv 1 0 0\nv 2 1 0\nv 1 2 0\nv 0 1 0\nusemtl 4\nf 1 2 3 4 5", &a, &o, &err),
                     RELIC_OK);
    assert_int_equal(o.face_count, 3);
    for (t = 0; t < 3; t++) {
        assert_int_equal(o.faces[t][0], 0);
        assert_int_equal(o.faces[t][1], t + 1);
        assert_int_equal(o.faces[t][2], t + 2);
    }
    relic_arena_release(&a);
}

/* One error: its status, message and offset. */
static void expect_obj_error(const char *text, relic_status code, const char *message, uint64_t offset)
{
    relic_arena a;
    relic_obj_mesh o;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    relic_error_clear(&err);
    assert_int_equal(relic_obj_parse("t.obj", (const uint8_t *)text, strlen(text), &a, &o, &err), code);
    assert_string_equal(err.message, message);
    assert_int_equal(err.offset, offset);
    assert_int_equal(o.vertex_count, 0);
    relic_arena_release(&a);
}

static void test_obj_errors_name_line_and_column(void **state)
{
    (void)state;
    expect_obj_error("v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 9\n", RELIC_E_INDEX,
                     "t.obj:4:7: vertex index 9 but only 3 are defined so far", 30);
    expect_obj_error("v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 -4\n", RELIC_E_INDEX,
                     "t.obj:4:7: vertex index -4 but only 3 are defined so far", 30);
    expect_obj_error("v 0 0 0\nf 0 1 1\n", RELIC_E_INDEX,
                     "t.obj:2:3: vertex index 0: OBJ indices start at 1 (or count back from -1)", 10);
    expect_obj_error("v 0 0 0\nv 1 0 0\nv 1 1 0\nvt 0 0\nf 1/1 2/2 3/1\n", RELIC_E_INDEX,
                     "t.obj:5:9: texture coordinate index 2 but only 1 is defined so far", 39);
    expect_obj_error("v 0 0 0\nv 1 0 0\nf 1 2\n", RELIC_E_SYNTAX, "t.obj:3:1: a face needs at least 3 vertices, found 2",
                     16);
    expect_obj_error("v 1 2\n", RELIC_E_SYNTAX,
                     "t.obj:1:1: 'v' takes 3 numbers (x y z), optionally w and r g b; found 2", 0);
    expect_obj_error("\n\n  v 1 x 3\n", RELIC_E_SYNTAX, "t.obj:3:7: expected a number in 'v', found 'x'", 8);
    expect_obj_error("v 1 2 3\nbogus 1 2\n", RELIC_E_SYNTAX, "t.obj:2:1: unknown statement 'bogus'", 8);
    expect_obj_error("v 1 2 3e39\n", RELIC_E_RANGE, "t.obj:1:7: coordinate 3e39 is outside the float range", 6);
    expect_obj_error("usemtl a b\n", RELIC_E_SYNTAX,
                     "t.obj:1:10: unexpected 'b' after the material name (names are one word)", 9);
    expect_obj_error("1 2 3\n", RELIC_E_SYNTAX, "t.obj:1:1: expected a statement keyword, found '1'", 0);
    {
        static const char nul[] = "v 0 0 0\nv 1\0 0 0\n";
        relic_arena a;
        relic_obj_mesh o;
        relic_error err;
        relic_arena_init_heap(&a, 0);
        assert_int_equal(relic_obj_parse("t.obj", (const uint8_t *)nul, sizeof nul - 1, &a, &o, &err), RELIC_E_SYNTAX);
        assert_string_equal(err.message, "t.obj:2:4: expected a number in 'v', found '?'");
        assert_int_equal(err.offset, 11);
        relic_arena_release(&a);
    }
}

static void test_obj_empty_and_truncated_inputs(void **state)
{
    relic_arena a;
    relic_obj_mesh o;
    relic_error err;
    (void)state;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_obj_parse("t.obj", NULL, 0, &a, &o, &err), RELIC_OK);
    assert_int_equal(o.vertex_count, 0);
    assert_int_equal(o.face_count, 0);
    /* no newline at the end, a number cut short, a lone backslash */
    assert_int_equal(parse_text("v 1 2 3", &a, &o, &err), RELIC_OK);
    assert_int_equal(o.vertex_count, 1);
    assert_int_equal(parse_text("v 1 2 3.", &a, &o, &err), RELIC_OK);
    assert_true(o.vertices[0][2] == 3.0f);
    assert_int_equal(parse_text("v 1 2 3 \\", &a, &o, &err), RELIC_E_SYNTAX);
    relic_arena_release(&a);
}

static void test_obj_arena_limit_bounds_memory(void **state)
{
    /* 2000 vertices and faces need more than 4 KiB: NOMEM, not a crash */
    relic_arena a;
    relic_obj_mesh o;
    relic_error err;
    relic_buf b;
    int i;
    (void)state;
    relic_buf_init(&b, 0);
    for (i = 0; i < 2000; i++)
        relic_buf_puts(&b, "v 0 0 0\n");
    relic_buf_puts(&b, "usemtl 4\n");
    for (i = 0; i < 2000; i++)
        relic_buf_puts(&b, "f 1 2 3\n");
    relic_arena_init_heap(&a, 4096);
    assert_int_equal(relic_obj_parse("big.obj", b.data, b.size, &a, &o, &err), RELIC_E_NOMEM);
    relic_arena_release(&a);
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_obj_parse("big.obj", b.data, b.size, &a, &o, &err), RELIC_OK);
    assert_int_equal(o.face_count, 2000);
    relic_arena_release(&a);
    relic_buf_free(&b);
}

static void test_obj_material_names(void **state)
{
    char buf[32];
    (void)state;
    assert_int_equal(relic_obj_material_id("Stone"), 4);
    assert_int_equal(relic_obj_material_id("stone"), 4);
    assert_int_equal(relic_obj_material_id("NONWALK"), 7);
    assert_int_equal(relic_obj_material_id("NotDefined"), 0);
    assert_int_equal(relic_obj_material_id("Undefined"), 0);
    assert_int_equal(relic_obj_material_id("NonWalkGrass"), 19);
    assert_int_equal(relic_obj_material_id("trigger"), 30);
    assert_int_equal(relic_obj_material_id("7"), 7);
    assert_int_equal(relic_obj_material_id("surfacemat_7"), 7);
    assert_int_equal(relic_obj_material_id("SurfaceMat23"), 23);
    assert_int_equal(relic_obj_material_id("mat7"), 7);
    assert_int_equal(relic_obj_material_id("material-10"), 10);
    assert_int_equal(relic_obj_material_id("mat"), -1);
    assert_int_equal(relic_obj_material_id("mat_"), -1);
    assert_int_equal(relic_obj_material_id("bogus"), -1);
    assert_int_equal(relic_obj_material_id(""), -1);
    assert_int_equal(relic_obj_material_id("-3"), -1);
    assert_int_equal(relic_obj_material_id("99999999999"), -1);
    assert_string_equal(relic_obj_material_label(10, buf, sizeof buf), "Metal");
    assert_string_equal(relic_obj_material_label(25, buf, sizeof buf), "surfacemat_25");
    assert_int_equal(relic_obj_material_id(relic_obj_material_label(25, buf, sizeof buf)), 25);
}

static void test_obj_to_bwm_materials_and_order(void **state)
{
    static const char text[] = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
                               "usemtl NonWalk\nf 1 2 3\n"
                               "usemtl metal\nf 1 3 4\n"
                               "usemtl surfacemat_7\nf 2 3 4\n"
                               "usemtl 4\nf 1 2 4\n";
    relic_arena a;
    relic_obj_mesh o;
    relic_bwm_mesh m;
    uint32_t w;
    relic_error err;
    (void)state;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(parse_text(text, &a, &o, &err), RELIC_OK);
    assert_int_equal(relic_obj_to_bwm("t.obj", &o, &a, &m, &w, &err), RELIC_OK);
    assert_int_equal(w, 2);
    assert_int_equal(m.face_count, 4);
    assert_int_equal(m.vertex_count, 4);
    assert_int_equal(m.materials[0], 10); /* walkable first, stable */
    assert_int_equal(m.materials[1], 4);
    assert_int_equal(m.materials[2], 7);
    assert_int_equal(m.materials[3], 7);
    assert_int_equal(m.faces[0][2], 3); /* the metal face 1 3 4 */
    assert_int_equal(m.faces[2][0], 0); /* the first NonWalk face 1 2 3 */
    assert_int_equal(relic_bwm_walkable_prefix(&m), 2);

    assert_int_equal(parse_text("v 0 0 0\nv 1 0 0\nv 1 1 0\nusemtl Stone\nf 1 2 3\nusemtl  Granite\nf 1 2 3\n", &a, &o,
                                &err),
                     RELIC_OK);
    assert_int_equal(relic_obj_to_bwm("t.obj", &o, &a, &m, &w, &err), RELIC_E_RANGE);
    assert_string_equal(err.message, "t.obj:6:9: unknown surface material 'Granite' (use a name such as Stone, Metal "
                                     "or NonWalk, a surfacemat.2da row number, or surfacemat_N)");
    assert_int_equal(err.offset, 53);

    assert_int_equal(parse_text("v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 3\n", &a, &o, &err), RELIC_OK);
    assert_int_equal(relic_obj_to_bwm("t.obj", &o, &a, &m, &w, &err), RELIC_E_RANGE);
    assert_string_equal(err.message, "t.obj:4:1: face has no surface material: put 'usemtl NAME' (e.g. usemtl Stone) "
                                     "before it");
    relic_arena_release(&a);
}

/* ---------------------------------------------------------------------- */
/* Exports                                                                 */
/* ---------------------------------------------------------------------- */

/* Export m as OBJ, read it back, and require the same geometry bit for bit
 * (m must be walkable first, as BWM files are). */
static void assert_obj_round_trip(const relic_bwm_mesh *m, relic_arena *a)
{
    relic_buf b;
    relic_obj_mesh o;
    relic_bwm_mesh back;
    uint32_t w;
    relic_error err;
    relic_buf_init(&b, 0);
    assert_int_equal(relic_bwm_export_obj(m, "round trip", &b, &err), RELIC_OK);
    assert_int_equal(relic_obj_parse("rt.obj", b.data, b.size, a, &o, &err), RELIC_OK);
    assert_int_equal(relic_obj_to_bwm("rt.obj", &o, a, &back, &w, &err), RELIC_OK);
    assert_int_equal(back.vertex_count, m->vertex_count);
    assert_int_equal(back.face_count, m->face_count);
    assert_int_equal(w, relic_bwm_walkable_prefix(m));
    if (m->vertex_count)
        assert_memory_equal(back.vertices, m->vertices, (size_t)m->vertex_count * sizeof m->vertices[0]);
    if (m->face_count) {
        assert_memory_equal(back.faces, m->faces, (size_t)m->face_count * sizeof m->faces[0]);
        assert_memory_equal(back.materials, m->materials, (size_t)m->face_count * sizeof m->materials[0]);
    }
    relic_buf_free(&b);
}

static void test_obj_export_round_trip(void **state)
{
    /* clang-format off */
    static const float v[5][3] = {
        {0.1f, -0.0f, 1e-7f}, {123456.789f, 3.4028235e38f, -1.17549435e-38f}, {1.0f / 3.0f, 2.0f / 3.0f, -7.25f},
        {1e-45f, -16777217.0f, 0.5f}, {0, 0, 0}};
    static const uint32_t f[4][3] = {{0, 1, 2}, {0, 2, 3}, {1, 2, 3}, {0, 1, 4}};
    static const uint32_t mat[4] = {4, 10, 7, 25};
    relic_bwm_mesh m = make_mesh(v, 5, f, mat, 4);
    relic_arena a;
    relic_buf b;
    relic_error err;
    (void)state;
    relic_arena_init_heap(&a, 0);
    assert_obj_round_trip(&m, &a);
    relic_buf_init(&b, 0);
    assert_int_equal(relic_bwm_export_obj(&m, "x\ny", &b, &err), RELIC_OK);
    relic_buf_extend(&b, 1); /* NUL-terminate */
    assert_non_null(strstr((const char *)b.data, "# source: x y\n"));
    assert_non_null(strstr((const char *)b.data, "g Stone\nusemtl Stone\nf 1 2 3\ng Metal\nusemtl Metal\nf 1 3 4\n"));
    assert_non_null(strstr((const char *)b.data, "usemtl surfacemat_25\n"));
    relic_buf_free(&b);
    relic_arena_release(&a);
}

static void test_svg_export(void **state)
{
    relic_arena a;
    grid g;
    relic_bwm_mesh m;
    relic_buf b;
    relic_error err;
    relic_bwm_svg_tables t;
    int32_t (*adj)[3];
    relic_bwm_edge_rec *e;
    uint32_t *p, ne, np, polygons = 0;
    const char *s;
    (void)state;
    relic_arena_init_heap(&a, 0);
    g = make_grid(&a, 2, 2);
    g.mat[6] = g.mat[7] = 7; /* the last quad non-walkable */
    m = make_mesh((const float (*)[3])g.v, g.nv, (const uint32_t (*)[3])g.f, g.mat, g.nf);
    adj = relic_arena_array(&a, 6, sizeof *adj, 4);
    e = relic_arena_array(&a, 18, sizeof *e, 4);
    p = relic_arena_array(&a, 18, sizeof *p, 4);
    assert_int_equal(relic_bwm_build_adjacency(&m, 6, adj, &a, &err), RELIC_OK);
    assert_int_equal(relic_bwm_build_perimeters(&m, 6, (const int32_t (*)[3])adj, NULL, 0, e, &ne, p, &np, &a, &err),
                     RELIC_OK);
    e[0].transition = 12;
    t.walkable_count = 6;
    t.edges = e;
    t.edge_count = ne;
    t.perimeters = p;
    t.perimeter_count = np;
    relic_buf_init(&b, 0);
    assert_int_equal(relic_bwm_export_svg(&m, &t, "grid <2x2> & co", &b, &err), RELIC_OK);
    relic_buf_extend(&b, 1); /* NUL-terminate */
    s = (const char *)b.data;
    assert_true(strncmp(s, "<svg ", 5) == 0);
    assert_non_null(strstr(s, "viewBox=\"0 0 "));
    assert_non_null(strstr(s, "</svg>\n"));
    assert_non_null(strstr(s, "grid &lt;2x2&gt; &amp; co"));
    assert_non_null(strstr(s, "Surface materials"));
    assert_non_null(strstr(s, "4 Stone: 6 faces, walkable"));
    assert_non_null(strstr(s, "7 NonWalk: 2 faces, not walkable"));
    assert_non_null(strstr(s, "url(#nw7)"));
    assert_non_null(strstr(s, "class=\"perimeter\""));
    assert_non_null(strstr(s, ">12</text>"));
    for (; (s = strstr(s, "<polygon")) != NULL; s++)
        polygons++;
    assert_int_equal(polygons, 8);
    relic_buf_free(&b);
    /* PWK/DWK: faces only */
    relic_buf_init(&b, 0);
    assert_int_equal(relic_bwm_export_svg(&m, NULL, NULL, &b, &err), RELIC_OK);
    relic_buf_free(&b);
    /* a tiny buffer limit fails cleanly */
    relic_buf_init(&b, 64);
    assert_int_equal(relic_bwm_export_svg(&m, &t, NULL, &b, &err), RELIC_E_NOMEM);
    relic_buf_free(&b);
    /* a perimeter past the edge count */
    p[0] = ne + 1;
    relic_buf_init(&b, 0);
    assert_int_equal(relic_bwm_export_svg(&m, &t, NULL, &b, &err), RELIC_E_LAYOUT);
    relic_buf_free(&b);
    relic_arena_release(&a);
}

/* ---------------------------------------------------------------------- */
/* Corpus                                                                  */
/* ---------------------------------------------------------------------- */

/* The raw tables of a WOK, read without the generated code. */
typedef struct raw_bwm {
    uint32_t type;
    uint32_t nv, nf, naabb, nadj, nedge, nper;
    float (*v)[3];
    uint32_t (*f)[3];
    uint32_t *mat;
    float (*normal)[3];
    float *dist;
    relic_bwm_aabb_rec *aabb;
    int32_t (*adj)[3];
    relic_bwm_edge_rec *edge;
    uint32_t *per;
} raw_bwm;

#define BWM_HEADER_SIZE 136u
#define BWM_COUNTS_AT 0x48u
#define AABB_NODE_SIZE 44u

/* Copy count elements of size bytes at offset into a fresh arena array of
 * u32/f32 words (all BWM tables are 4-byte words). */
static void *read_words(relic_arena *a, const uint8_t *d, size_t size, uint32_t offset, uint32_t count, uint32_t elem)
{
    uint64_t bytes = (uint64_t)count * elem, i;
    uint32_t *w;
    if ((uint64_t)offset + bytes > size)
        return NULL;
    w = relic_arena_alloc(a, bytes ? (size_t)bytes : 4, 4);
    if (w == NULL)
        return NULL;
    for (i = 0; i < bytes / 4; i++)
        w[i] = relic_load_u32le(d + offset + 4 * i);
    return w;
}

static int read_raw(relic_arena *a, const uint8_t *d, size_t size, raw_bwm *r)
{
    uint32_t h[16], i;
    if (size < BWM_HEADER_SIZE || memcmp(d, "BWM V1.0", 8) != 0)
        return 0;
    r->type = relic_load_u32le(d + 8);
    for (i = 0; i < 16; i++)
        h[i] = relic_load_u32le(d + BWM_COUNTS_AT + 4 * i);
    r->nv = h[0];
    r->nf = h[2];
    r->naabb = h[7];
    r->nadj = h[10];
    r->nedge = h[12];
    r->nper = h[14];
    r->v = read_words(a, d, size, h[1], r->nv, 12);
    r->f = read_words(a, d, size, h[3], r->nf, 12);
    r->mat = read_words(a, d, size, h[4], r->nf, 4);
    r->normal = read_words(a, d, size, h[5], r->nf, 12);
    r->dist = read_words(a, d, size, h[6], r->nf, 4);
    r->aabb = read_words(a, d, size, h[8], r->naabb, AABB_NODE_SIZE);
    r->adj = read_words(a, d, size, h[11], r->nadj, 12);
    r->edge = read_words(a, d, size, h[13], r->nedge, 8);
    r->per = read_words(a, d, size, h[15], r->nper, 4);
    if (!r->v || !r->f || !r->mat || !r->normal || !r->dist || !r->aabb || !r->adj || !r->edge || !r->per)
        return 0;
    for (i = 0; i < r->nf; i++)
        if (r->f[i][0] >= r->nv || r->f[i][1] >= r->nv || r->f[i][2] >= r->nv)
            return 0;
    for (i = 0; i < r->naabb; i++) /* children must be nodes (or none) */
        if ((r->aabb[i].child1 != RELIC_BWM_NO_CHILD && r->aabb[i].child1 >= r->naabb) ||
            (r->aabb[i].child2 != RELIC_BWM_NO_CHILD && r->aabb[i].child2 >= r->naabb) ||
            (r->aabb[i].face >= 0 && (uint32_t)r->aabb[i].face >= r->nf))
            return 0;
    return 1;
}

/* Twice the area of face f, in double precision. */
static double twice_area(const relic_bwm_mesh *m, uint32_t f)
{
    const float *p0 = m->vertices[m->faces[f][0]], *p1 = m->vertices[m->faces[f][1]], *p2 = m->vertices[m->faces[f][2]];
    double e1[3], e2[3], c[3];
    int k;
    for (k = 0; k < 3; k++) {
        e1[k] = (double)p1[k] - p0[k];
        e2[k] = (double)p2[k] - p0[k];
    }
    c[0] = e1[1] * e2[2] - e1[2] * e2[1];
    c[1] = e1[2] * e2[0] - e1[0] * e2[2];
    c[2] = e1[0] * e2[1] - e1[1] * e2[0];
    return sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Who wrote a file, told by what it holds (MSP values 8/16/32 only come
 * from the original toolchain, 3 only from PyKotor, which also leaves the
 * perimeters out). */
enum { GROUP_ORIGINAL, GROUP_KOTORBLENDER, GROUP_PYKOTOR, GROUPS };
static const char *const group_name[GROUPS] = {"original", "kotorblender-like", "pykotor/hand-made"};

static int writer_group(const raw_bwm *r)
{
    uint32_t i;
    int neg = 0, three = 0;
    for (i = 0; i < r->naabb; i++) {
        neg |= r->aabb[i].msp >= 0x08;
        three |= r->aabb[i].msp == 3;
    }
    if (three || (r->nper == 0 && r->nedge != 0))
        return GROUP_PYKOTOR;
    return neg ? GROUP_ORIGINAL : GROUP_KOTORBLENDER;
}

typedef struct aabb_counts {
    uint32_t nodes, shape, face, msp, box, all;
    uint32_t msp_rule_nodes, msp_rule_ok; /* the MSP rule on the file's own children, where their centres differ */
    double box_dev;                       /* largest |file - built| over leaf boxes of the same face */
} aabb_counts;

static void compare_aabb(const raw_bwm *r, const relic_bwm_aabb_rec *t, uint32_t n, aabb_counts *c)
{
    uint32_t i;
    int k;
    memset(c, 0, sizeof *c);
    c->nodes = r->naabb;
    for (i = 0; i < r->naabb && i < n; i++) {
        const relic_bwm_aabb_rec *fa = &r->aabb[i], *me = &t[i];
        int box = 1, shape = (fa->face < 0) == (me->face < 0) && fa->child1 == me->child1 && fa->child2 == me->child2;
        for (k = 0; k < 3; k++)
            box &= fabs((double)fa->box_min[k] - me->box_min[k]) < 2e-3 &&
                   fabs((double)fa->box_max[k] - me->box_max[k]) < 2e-3;
        c->shape += shape;
        c->face += fa->face == me->face;
        c->msp += fa->msp == me->msp;
        c->box += box;
        c->all += shape && fa->face == me->face && fa->msp == me->msp && box;
    }
    for (i = 0; i < r->naabb; i++) {
        const relic_bwm_aabb_rec *fa = &r->aabb[i];
        if (fa->face >= 0) {
            uint32_t j;
            for (j = 0; j < n; j++) /* the built leaf of the same face */
                if (t[j].face == fa->face)
                    break;
            if (j < n)
                for (k = 0; k < 3; k++) {
                    double d1 = fabs((double)fa->box_min[k] - t[j].box_min[k]),
                           d2 = fabs((double)fa->box_max[k] - t[j].box_max[k]);
                    if (d1 > c->box_dev) c->box_dev = d1;
                    if (d2 > c->box_dev) c->box_dev = d2;
                }
        } else if (fa->child1 < r->naabb && fa->child2 < r->naabb) {
            const relic_bwm_aabb_rec *l = &r->aabb[fa->child1], *rr = &r->aabb[fa->child2];
            int same = 1;
            for (k = 0; k < 3; k++)
                same &= (double)l->box_min[k] + l->box_max[k] == (double)rr->box_min[k] + rr->box_max[k];
            if (!same) {
                c->msp_rule_nodes++;
                c->msp_rule_ok += relic_bwm_aabb_msp(l, rr) == fa->msp;
            }
        }
    }
}

static void test_corpus(void **state)
{
    DIR *dir = opendir(CORPUS_DIR);
    struct dirent *de;
    char *names[256];
    uint32_t count = 0, i;
    aabb_counts gt[GROUPS];
    (void)state;
    if (dir == NULL) {
        printf("[ corpus ] %s not found: corpus part skipped\n", CORPUS_DIR);
        skip();
    }
    while ((de = readdir(dir)) != NULL && count < 256) {
        size_t n = strlen(de->d_name);
        if (n > 4 && strcmp(de->d_name + n - 4, ".wok") == 0)
            names[count++] = strdup(de->d_name);
    }
    closedir(dir);
    qsort(names, count, sizeof names[0], by_name);
    memset(gt, 0, sizeof gt);
    printf("[ corpus ] %u files; per file: normals/distances within 1e-5 (relative above 1), adjacency rows, edges "
           "(id+transition), perimeters, AABB nodes (shape/face/msp/box<2e-3/all), MSP rule on the file's own "
           "children\n",
           count);
    for (i = 0; i < count; i++) {
        char path[1024];
        FILE *fp;
        uint8_t *data;
        long len;
        raw_bwm r;
        relic_arena a;
        relic_bwm_mesh m;
        relic_error err;
        int32_t (*adj)[3];
        relic_bwm_edge_rec *e, *e2;
        relic_bwm_aabb_rec *t;
        uint32_t *p, *p2, ne, np, ne2, np2, nn, f, planes_ok = 0, slivers = 0, adj_ok = 0, edges_ok = 0, per_ok = 0, edges_from_file;
        int group, rule;
        aabb_counts c;

        snprintf(path, sizeof path, "%s/%s", CORPUS_DIR, names[i]);
        fp = fopen(path, "rb");
        assert_non_null(fp);
        fseek(fp, 0, SEEK_END);
        len = ftell(fp);
        fseek(fp, 0, SEEK_SET);
        data = malloc((size_t)len + 1);
        assert_non_null(data);
        assert_int_equal(fread(data, 1, (size_t)len, fp), (size_t)len);
        fclose(fp);
        relic_arena_init_heap(&a, 0);
        memset(&r, 0, sizeof r);
        assert_true(read_raw(&a, data, (size_t)len, &r));
        m = make_mesh((const float (*)[3])r.v, r.nv, (const uint32_t (*)[3])r.f, r.mat, r.nf);
        group = writer_group(&r);

        /* planes; a sliver (twice the area below 1e-3) may differ: its
         * stored normal came from coordinates before the last rounding.
         * kotorblender-like files are printed only: their planes were
         * computed before vertices were merged (up to 5e-4 off). */
        for (f = 0; f < r.nf; f++) {
            float n[3], d;
            int k, ok = 1;
            relic_bwm_face_plane(&m, f, n, &d);
            for (k = 0; k < 3; k++)
                ok &= fabsf(n[k] - r.normal[f][k]) <= 1e-5f;
            ok &= fabsf(d - r.dist[f]) <= 1e-5f * fmaxf(1.0f, fabsf(r.dist[f]));
            planes_ok += ok;
            if (!ok)
                slivers += twice_area(&m, f) < 1e-3;
        }
        if (group != GROUP_KOTORBLENDER)
            assert_int_equal(planes_ok + slivers, r.nf);

        /* adjacency: PyKotor joins by position, everyone else by index */
        assert_int_equal(relic_bwm_walkable_prefix(&m), r.nadj);
        rule = group == GROUP_PYKOTOR ? RELIC_BWM_ADJ_POSITION_LAST : RELIC_BWM_ADJ_INDEX;
        adj = relic_arena_array(&a, r.nadj, sizeof *adj, 4);
        assert_int_equal(relic_bwm_build_adjacency_rule(&m, r.nadj, (relic_bwm_adjacency_rule)rule, adj, &a, &err),
                         RELIC_OK);
        for (f = 0; f < r.nadj; f++)
            adj_ok += memcmp(adj[f], r.adj[f], sizeof adj[f]) == 0;
        assert_int_equal(adj_ok, r.nadj);

        /* edges and perimeters from our adjacency, transitions from the file */
        e = relic_arena_array(&a, 3 * (size_t)r.nadj + 1, sizeof *e, 4);
        p = relic_arena_array(&a, 3 * (size_t)r.nadj + 1, sizeof *p, 4);
        e2 = relic_arena_array(&a, 3 * (size_t)r.nadj + 1, sizeof *e2, 4);
        p2 = relic_arena_array(&a, 3 * (size_t)r.nadj + 1, sizeof *p2, 4);
        assert_int_equal(relic_bwm_build_perimeters(&m, r.nadj, (const int32_t (*)[3])adj, r.edge, r.nedge, e, &ne, p,
                                                    &np, &a, &err),
                         RELIC_OK);
        for (f = 0; f < ne && f < r.nedge; f++)
            edges_ok += e[f].edge == r.edge[f].edge && e[f].transition == r.edge[f].transition;
        for (f = 0; f < np && f < r.nper; f++)
            per_ok += p[f] == r.per[f];
        /* the same walk over the file's own adjacency */
        assert_int_equal(relic_bwm_build_perimeters(&m, r.nadj, (const int32_t (*)[3])r.adj, r.edge, r.nedge, e2, &ne2,
                                                    p2, &np2, &a, &err),
                         RELIC_OK);
        edges_from_file = 0;
        for (f = 0; f < ne2 && f < r.nedge; f++)
            edges_from_file += e2[f].edge == r.edge[f].edge;
        if (group != GROUP_PYKOTOR) {
            assert_int_equal(ne, r.nedge);
            assert_int_equal(edges_ok, r.nedge);
            assert_int_equal(np, r.nper);
            assert_int_equal(per_ok, r.nper);
        } else {
            assert_int_equal(ne, r.nedge); /* the same boundary sides, order aside */
        }

        /* AABB */
        t = relic_arena_array(&a, 2 * (size_t)r.nf, sizeof *t, 4);
        assert_int_equal(relic_bwm_build_aabb(&m, t, &nn, &a, &err), RELIC_OK);
        assert_int_equal(nn, 2 * r.nf - 1);
        if (group != GROUP_PYKOTOR) /* PyKotor's out.wok leaves 4 faces out of its tree */
            assert_int_equal(nn, r.naabb);
        compare_aabb(&r, t, nn, &c);
        if (group == GROUP_ORIGINAL) {
            assert_int_equal(c.shape, c.nodes);            /* floor(n/2) split in pre-order */
            assert_int_equal(c.msp_rule_ok, c.msp_rule_nodes); /* the MSP rule, wherever it is decidable */
            assert_true(c.box_dev < 2e-3);                  /* leaf boxes: tight +- 0.01, up to rounding */
        }
        gt[group].nodes += c.nodes;
        gt[group].shape += c.shape;
        gt[group].face += c.face;
        gt[group].msp += c.msp;
        gt[group].box += c.box;
        gt[group].all += c.all;
        gt[group].msp_rule_nodes += c.msp_rule_nodes;
        gt[group].msp_rule_ok += c.msp_rule_ok;
        if (c.box_dev > gt[group].box_dev)
            gt[group].box_dev = c.box_dev;

        printf("[ corpus ] %-82.82s %-17s planes %u/%u (+%u slivers) adj %u/%u edges %u/%u%s perim %u/%u (built %u) aabb "
               "%u/%u/%u/%u/%u of %u, msp rule %u/%u, leaf box dev %.4f\n",
               names[i], group_name[group], planes_ok, r.nf, slivers, adj_ok, r.nadj, edges_ok, r.nedge,
               group == GROUP_PYKOTOR ? (edges_from_file == r.nedge ? " (=walk of file adjacency)" : " (order differs)")
                                      : "",
               per_ok, r.nper, np, c.shape, c.face, c.msp, c.box, c.all, c.nodes, c.msp_rule_ok, c.msp_rule_nodes,
               c.box_dev);

        /* every real walkmesh survives OBJ export and import bit for bit */
        assert_obj_round_trip(&m, &a);
        relic_arena_release(&a);
        free(data);
        free(names[i]);
    }
    for (i = 0; i < GROUPS; i++)
        if (gt[i].nodes)
            printf("[ corpus ] AABB %-17s nodes %u: shape %u (%.1f%%), face %u (%.1f%%), msp %u (%.1f%%), box %u "
                   "(%.1f%%), all %u (%.1f%%); msp rule %u/%u; leaf box dev %.4f\n",
                   group_name[i], gt[i].nodes, gt[i].shape, 100.0 * gt[i].shape / gt[i].nodes, gt[i].face,
                   100.0 * gt[i].face / gt[i].nodes, gt[i].msp, 100.0 * gt[i].msp / gt[i].nodes, gt[i].box,
                   100.0 * gt[i].box / gt[i].nodes, gt[i].all, 100.0 * gt[i].all / gt[i].nodes, gt[i].msp_rule_ok,
                   gt[i].msp_rule_nodes, gt[i].box_dev);
    /* the split rule reproduces most of the game's own trees */
    if (gt[GROUP_ORIGINAL].nodes)
        assert_true(gt[GROUP_ORIGINAL].all * 10 >= gt[GROUP_ORIGINAL].nodes * 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_material_table),
        cmocka_unit_test(test_walkable_prefix),
        cmocka_unit_test(test_face_plane_unit_triangle),
        cmocka_unit_test(test_face_plane_degenerate),
        cmocka_unit_test(test_quad_adjacency_and_perimeter),
        cmocka_unit_test(test_strip_is_one_loop),
        cmocka_unit_test(test_hole_gives_two_loops),
        cmocka_unit_test(test_nonwalkable_faces_have_no_adjacency),
        cmocka_unit_test(test_shared_three_ways),
        cmocka_unit_test(test_index_rule_is_symmetric),
        cmocka_unit_test(test_position_rule_joins_duplicate_vertices),
        cmocka_unit_test(test_perimeter_walk_survives_bad_adjacency),
        cmocka_unit_test(test_bad_vertex_index_is_reported),
        cmocka_unit_test(test_aabb_small_meshes),
        cmocka_unit_test(test_aabb_msp_rule),
        cmocka_unit_test(test_million_faces),
        cmocka_unit_test(test_obj_reads_forms),
        cmocka_unit_test(test_obj_pentagon_fan),
        cmocka_unit_test(test_obj_errors_name_line_and_column),
        cmocka_unit_test(test_obj_empty_and_truncated_inputs),
        cmocka_unit_test(test_obj_arena_limit_bounds_memory),
        cmocka_unit_test(test_obj_material_names),
        cmocka_unit_test(test_obj_to_bwm_materials_and_order),
        cmocka_unit_test(test_obj_export_round_trip),
        cmocka_unit_test(test_svg_export),
        cmocka_unit_test(test_corpus),
    };
    /* clang-format on */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
