/* test_mutate_bwm.c — the BWM geometry mutator (runtime/mutate/mutate_bwm.c,
 * relic_bwm_mutate; issue 8) on walkmeshes made by relic's own builder
 * (relic_bwm_from_mesh over a grid of quads with mixed materials): the
 * same seed gives the same bytes; valid-mode outputs pass the validator
 * and the table rules (checked here with relic_bwm_check, not through the
 * mutator) and differ from the input, and many change the geometry itself;
 * large walkmeshes come out cropped; empty tables move anywhere;
 * invalid-mode outputs break a rule or put a table past the end;
 * crossover splices faces of the second walkmesh; unchecked outputs never
 * crash the readers; a file that is not a walkmesh is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "relic_bwm.h"
#include "relic_mutate_formats.h"
#include "mutate_scratch.h"

/* relic_bwm_check with its scratch in a heap arena freed at once */
static unsigned bwm_check_scratch(const relic_bwm_view *v, int strict, relic_report_fn report, void *ctx)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    unsigned problems = relic_bwm_check(v, strict, &a, report, ctx);
    relic_arena_release(&a);
    return problems;
}

#define SEEDS 64u

static relic_buf small_wok, big_wok, crate_pwk;

/* An n x n grid of unit quads (two faces each) at height z, as a walkmesh
 * of the given type; every seventh quad non-walkable, one a transition.
 * Grid point p is vertex (p * scatter) mod the vertex count (scatter
 * coprime to it; 1: in grid order). */
static relic_buf grid(uint32_t n, float z, uint32_t type, uint32_t scatter)
{
    uint32_t nv = (n + 1) * (n + 1), nf = 2 * n * n;
    float(*v)[3] = calloc(nv, sizeof *v);
    uint32_t(*f)[3] = calloc(nf, sizeof *f), *mat = calloc(nf, sizeof *mat);
    assert_true(v && f && mat);
#define AT(p) (uint32_t)(((uint64_t)(p)*scatter) % nv)
    for (uint32_t y = 0; y <= n; y++)
        for (uint32_t x = 0; x <= n; x++) {
            v[AT(y * (n + 1) + x)][0] = (float)x;
            v[AT(y * (n + 1) + x)][1] = (float)y;
            v[AT(y * (n + 1) + x)][2] = z + 0.125f * (float)((x * y) % 3);
        }
    for (uint32_t q = 0; q < n * n; q++) {
        uint32_t x = q % n, y = q / n, p = y * (n + 1) + x;
        uint32_t a = AT(p), b = AT(p + 1), c = AT(p + n + 1), d = AT(p + n + 2);
        uint32_t m = q % 7 == 3 ? RELIC_BWM_SURFACE_MATERIAL_NONWALK
            : q % 2             ? RELIC_BWM_SURFACE_MATERIAL_STONE
                                : RELIC_BWM_SURFACE_MATERIAL_GRASS;
        f[2 * q][0] = a;
        f[2 * q][1] = b;
        f[2 * q][2] = d;
        f[2 * q + 1][0] = a;
        f[2 * q + 1][1] = d;
        f[2 * q + 1][2] = c;
        mat[2 * q] = mat[2 * q + 1] = m;
    }
#undef AT
    relic_bwm_mesh mesh = {(const float(*)[3])v, nv, (const uint32_t(*)[3])f, mat, nf};
    relic_arena a;
    relic_arena_init_heap(&a, (size_t)64 << 20);
    relic_bwm_file m;
    relic_error err;
    relic_buf out;
    relic_buf_init(&out, 0);
    assert_int_equal(relic_bwm_from_mesh(&mesh, type, &a, &m, &err), RELIC_OK);
    if (m.edges_count) m.edges[0].transition = 2;
    assert_int_equal(relic_bwm_write(&m, &out, &err), RELIC_OK);
    relic_arena_release(&a);
    free(v);
    free(f);
    free(mat);
    return out;
}

static int setup(void **state)
{
    (void)state;
    small_wok = grid(4, 0.0f, RELIC_BWM_WALKMESH_TYPE_AREA, 1);
    /* 17 x 17 = 289 grid points, scattered (7919 is prime) so a patch's
     * vertices are far from index order */
    big_wok = grid(16, 5.0f, RELIC_BWM_WALKMESH_TYPE_AREA, 7919);
    crate_pwk = grid(2, 1.0f, RELIC_BWM_WALKMESH_TYPE_PLACEABLE_OR_DOOR, 1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    relic_buf_free(&small_wok);
    relic_buf_free(&big_wok);
    relic_buf_free(&crate_pwk);
    return 0;
}

/* What `relic check` says of a walkmesh: 1 when it validates and keeps the
 * table rules; *faces gets its face count. */
static int walkmesh_ok(const relic_buf *b, size_t *faces)
{
    relic_bwm_view v;
    relic_error err;
    if (relic_bwm_validate(b->data, b->size, &v, &err) != RELIC_OK) return 0;
    if (faces) *faces = v.faces_count;
    return bwm_check_scratch(&v, 0, NULL, NULL) == 0;
}

/* relic_bwm_mutate of in (and in2, may be NULL), which must succeed. */
static relic_buf mutant(const relic_buf *in, const relic_buf *in2, uint64_t seed, unsigned flags, relic_mutate_result *res)
{
    relic_buf out;
    relic_error err;
    relic_buf_init(&out, 0);
    assert_int_equal(relic_bwm_mutate(in->data, in->size, in2 ? in2->data : NULL, in2 ? in2->size : 0, seed, flags, test_scratch(), &out,
                                      res, &err),
                     RELIC_OK);
    return out;
}

static int logged(const relic_mutate_result *r, const char *field, const char *op)
{
    for (int i = 0; i < r->nlog; i++)
        if ((!field || strncmp(r->log[i].path, field, strlen(field)) == 0) && (!op || strcmp(r->log[i].op, op) == 0))
            return 1;
    return 0;
}

static void test_same_seed_same_bytes(void **state)
{
    (void)state;
    for (unsigned flags = 0; flags < 2; flags++)
        for (uint64_t s = 0; s < 8; s++) {
            relic_buf a, b;
            relic_error err;
            relic_buf_init(&a, 0);
            relic_buf_init(&b, 0);
            unsigned f = flags ? RELIC_MUTATE_INVALID : 0;
            assert_int_equal(relic_bwm_mutate(big_wok.data, big_wok.size, small_wok.data, small_wok.size, s, f, test_scratch(), &a, NULL, &err), RELIC_OK);
            assert_int_equal(relic_bwm_mutate(big_wok.data, big_wok.size, small_wok.data, small_wok.size, s, f, test_scratch(), &b, NULL, &err), RELIC_OK);
            assert_int_equal(a.size, b.size);
            assert_memory_equal(a.data, b.data, a.size);
            relic_buf_free(&a);
            relic_buf_free(&b);
        }
}

/* Valid mode: every output keeps every rule and differs from the input;
 * they are distinct, and the geometry changes in the ways documented. */
static void test_valid_outputs_keep_the_rules(void **state)
{
    (void)state;
    uint64_t digests[SEEDS];
    unsigned distinct = 0, other_face_count = 0, vertex = 0, material = 0, face_ops = 0;
    size_t faces0 = 0;
    assert_true(walkmesh_ok(&small_wok, &faces0));
    for (uint64_t s = 0; s < SEEDS; s++) {
        relic_mutate_result res;
        relic_buf out = mutant(&small_wok, NULL, s, 0, &res);
        size_t faces = 0;
        assert_true(walkmesh_ok(&out, &faces));
        assert_false(out.size == small_wok.size && memcmp(out.data, small_wok.data, out.size) == 0);
        assert_true(res.nlog > 0);
        other_face_count += faces != faces0;
        vertex += logged(&res, "vertices[", NULL);
        material += logged(&res, "materials[", "set");
        face_ops += logged(&res, "faces[", "split") || logged(&res, "faces[", "duplicate") || logged(&res, "faces[", "delete");
        uint64_t h = 1469598103934665603ull;
        for (size_t i = 0; i < out.size; i++) h = (h ^ out.data[i]) * 1099511628211ull;
        int dup = 0;
        for (unsigned j = 0; j < distinct; j++) dup |= digests[j] == h;
        if (!dup) digests[distinct++] = h;
        relic_buf_free(&out);
    }
    print_message("valid: %u distinct of %u, %u with another face count, %u vertex, %u material, %u face changes\n",
                  distinct, SEEDS, other_face_count, vertex, material, face_ops);
    assert_true(distinct >= SEEDS * 3 / 4);
    assert_true(other_face_count >= 4);
    assert_true(vertex >= 4 && material >= 2 && face_ops >= 4);
}

/* A walkmesh of 512 faces comes out as a patch of at most 48 faces plus
 * what the changes add. */
static void test_large_walkmeshes_are_cropped(void **state)
{
    (void)state;
    unsigned crops = 0;
    for (uint64_t s = 0; s < SEEDS / 2; s++) {
        relic_mutate_result res;
        relic_buf out = mutant(&big_wok, NULL, s, 0, &res);
        size_t faces = 0;
        assert_true(walkmesh_ok(&out, &faces));
        assert_true(faces <= 48 + 8);
        crops += logged(&res, "faces", "crop");
        relic_buf_free(&out);
    }
    assert_int_equal(crops, SEEDS / 2);
}

/* Face i of m as its three corner positions, sorted (order-free). */
static void corners(const relic_bwm_file *m, size_t i, float out[9])
{
    for (int k = 0; k < 3; k++) {
        const relic_bwm_vec3f *v = &m->vertices[m->faces[i].v[k]];
        out[3 * k] = v->x;
        out[3 * k + 1] = v->y;
        out[3 * k + 2] = v->z;
    }
    for (int a = 0; a < 3; a++)
        for (int b = a + 1; b < 3; b++)
            if (memcmp(&out[3 * b], &out[3 * a], 12) < 0) {
                float t[3];
                memcpy(t, &out[3 * a], 12);
                memcpy(&out[3 * a], &out[3 * b], 12);
                memcpy(&out[3 * b], t, 12);
            }
}

/* A crop keeps faces where they were: every face of an output whose other
 * changes leave positions alone (materials, transitions, the type, face
 * order and winding) has the corners of a face of the input. */
static void test_a_crop_keeps_faces_where_they_were(void **state)
{
    (void)state;
    relic_arena a;
    relic_arena_init_heap(&a, (size_t)64 << 20);
    relic_bwm_view v;
    relic_error err;
    relic_bwm_file in;
    assert_int_equal(relic_bwm_validate(big_wok.data, big_wok.size, &v, &err), RELIC_OK);
    assert_int_equal(relic_bwm_decode(&v, &a, &in, &err), RELIC_OK);
    unsigned checked = 0;
    for (uint64_t s = 0; s < 4 * SEEDS; s++) {
        relic_mutate_result res;
        relic_buf out = mutant(&big_wok, NULL, s, 0, &res);
        int still = 1;
        for (int i = 0; i < res.nlog; i++)
            still &= strcmp(res.log[i].op, "crop") == 0 || strncmp(res.log[i].path, "materials[", 10) == 0 ||
                strstr(res.log[i].path, "transition") != NULL || strcmp(res.log[i].path, "header.type") == 0 ||
                (strncmp(res.log[i].path, "faces[", 6) == 0 &&
                 (strcmp(res.log[i].op, "swap") == 0 || strcmp(res.log[i].op, "flip") == 0));
        relic_bwm_file m;
        if (still && relic_bwm_validate(out.data, out.size, &v, &err) == RELIC_OK &&
            relic_bwm_decode(&v, &a, &m, &err) == RELIC_OK) {
            for (size_t i = 0; i < m.faces_count; i++) {
                float want[9], have[9];
                corners(&m, i, have);
                int found = 0;
                for (size_t j = 0; j < in.faces_count && !found; j++) {
                    corners(&in, j, want);
                    found = memcmp(want, have, sizeof want) == 0;
                }
                if (!found)
                    for (int k = 0; k < res.nlog; k++)
                        print_message("seed %llu: %s %s %s -> %s\n", (unsigned long long)s, res.log[k].path, res.log[k].op,
                                      res.log[k].old_value, res.log[k].new_value);
                assert_true(found);
            }
            checked++;
        }
        relic_buf_free(&out);
    }
    print_message("crops checked against the input's faces: %u\n", checked);
    assert_true(checked >= 8);
    relic_arena_release(&a);
}

/* Invalid mode: every output is one `relic check` rejects. */
static void test_invalid_outputs_break_a_rule(void **state)
{
    (void)state;
    const relic_buf *ins[2] = {&small_wok, &crate_pwk};
    unsigned moved = 0;
    for (int k = 0; k < 2; k++)
        for (uint64_t s = 0; s < SEEDS / 2; s++) {
            relic_mutate_result res;
            relic_buf out = mutant(ins[k], NULL, s, RELIC_MUTATE_INVALID, &res);
            assert_false(walkmesh_ok(&out, NULL));
            assert_true(res.nlog > 0);
            moved += logged(&res, "header.", "relayout");
            relic_buf_free(&out);
        }
    assert_true(moved >= 2);
}

/* A PWK's empty tables (AABB, adjacency, edges, perimeters) may lie
 * anywhere: valid outputs move them past the end now and then. */
static void test_empty_tables_move_anywhere(void **state)
{
    (void)state;
    unsigned moved = 0;
    for (uint64_t s = 0; s < SEEDS; s++) {
        relic_mutate_result res;
        relic_buf out = mutant(&crate_pwk, NULL, s, 0, &res);
        assert_true(walkmesh_ok(&out, NULL));
        moved += logged(&res, "header.", "relayout");
        relic_buf_free(&out);
    }
    print_message("valid PWK outputs with an empty table moved: %u of %u\n", moved, SEEDS);
    assert_true(moved >= 2);
}

/* Crossover: the first change takes faces of the second walkmesh. */
static void test_crossover_splices_faces(void **state)
{
    (void)state;
    unsigned splices = 0;
    for (uint64_t s = 0; s < SEEDS / 2; s++) {
        relic_mutate_result res;
        relic_buf out = mutant(&crate_pwk, &big_wok, s, RELIC_MUTATE_CROSSOVER, &res);
        size_t faces = 0;
        assert_true(walkmesh_ok(&out, &faces));
        splices += logged(&res, "faces[", "splice");
        relic_buf_free(&out);
    }
    assert_true(splices >= SEEDS / 4);
    relic_buf out;
    relic_error err;
    relic_buf_init(&out, 0);
    const uint8_t junk[] = "not a walkmesh";
    assert_int_not_equal(relic_bwm_mutate(crate_pwk.data, crate_pwk.size, junk, sizeof junk, 1, RELIC_MUTATE_CROSSOVER, test_scratch(), &out,
                                          NULL, &err),
                         RELIC_OK);
    relic_buf_free(&out);
}

/* Unchecked outputs (what the fuzz targets get) go through the readers,
 * the rules and the builders without a fault (ASan+UBSan in make test). */
static void test_unchecked_outputs_never_crash_the_readers(void **state)
{
    (void)state;
    for (uint64_t s = 0; s < SEEDS; s++) {
        relic_buf out;
        relic_error err;
        relic_buf_init(&out, 0);
        unsigned flags = RELIC_MUTATE_UNCHECKED | (s % 4 == 1 ? RELIC_MUTATE_INVALID : 0u);
        if (relic_bwm_mutate(small_wok.data, small_wok.size, big_wok.data, big_wok.size, s, flags, test_scratch(), &out, NULL, &err) == RELIC_OK) {
            relic_bwm_view v;
            if (relic_bwm_validate(out.data, out.size, &v, &err) == RELIC_OK) {
                (void)bwm_check_scratch(&v, 1, NULL, NULL);
                relic_arena a;
                relic_arena_init_heap(&a, (size_t)64 << 20);
                relic_bwm_file m;
                if (relic_bwm_decode(&v, &a, &m, &err) == RELIC_OK) (void)relic_bwm_rebuild(&m, RELIC_BWM_REBUILD_ALL, &a, &err);
                relic_arena_release(&a);
            }
        }
        relic_buf_free(&out);
    }
}

static void test_a_file_that_is_not_a_walkmesh_is_refused(void **state)
{
    (void)state;
    relic_buf out;
    relic_error err;
    relic_buf_init(&out, 0);
    relic_buf cut = small_wok;
    cut.size = 100; /* inside the header */
    assert_int_not_equal(relic_bwm_mutate(cut.data, cut.size, NULL, 0, 1, 0, test_scratch(), &out, NULL, &err), RELIC_OK);
    assert_true(err.message[0] != 0);
    assert_int_equal(out.size, 0);
    relic_buf_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_seed_same_bytes),
        cmocka_unit_test(test_valid_outputs_keep_the_rules),
        cmocka_unit_test(test_large_walkmeshes_are_cropped),
        cmocka_unit_test(test_a_crop_keeps_faces_where_they_were),
        cmocka_unit_test(test_invalid_outputs_break_a_rule),
        cmocka_unit_test(test_empty_tables_move_anywhere),
        cmocka_unit_test(test_crossover_splices_faces),
        cmocka_unit_test(test_unchecked_outputs_never_crash_the_readers),
        cmocka_unit_test(test_a_file_that_is_not_a_walkmesh_is_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
