/* test_mutate.c — the structure-aware mutator (runtime/mutate/mutate.c over the
 * generated tables, issue 8) on the BWM samples of tests/samples: the same
 * seed gives the same bytes; valid-mode mutants validate, differ from the
 * input and log what changed; invalid-mode mutants are rejected; arrays
 * sharing a count grow together; crossover splices from the second input;
 * an input that does not validate gets the validator's error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bwm.h"
#include "relic.h"
#include "relic_bwm.h"
#include "relic_mutate.h"
#include "mutate_scratch.h"

#define SEEDS 40

static relic_mapping room, crate;

static int setup(void **state)
{
    (void)state;
    relic_error err;
    if (relic_map_file("tests/samples/room.wok", 0, &room, &err) != RELIC_OK) return -1;
    if (relic_map_file("tests/samples/crate.pwk", 0, &crate, &err) != RELIC_OK) return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    relic_unmap(&room);
    relic_unmap(&crate);
    return 0;
}

static relic_status mutate(const relic_mapping *a, const relic_mapping *b, uint64_t seed, unsigned flags, relic_buf *out,
                           relic_mutate_result *res)
{
    relic_error err;
    return relic_mutate(&relic_bwm_mutator, a->bytes.data, a->bytes.size, b ? b->bytes.data : NULL,
                        b ? b->bytes.size : 0, seed, flags, test_scratch(), out, res, &err);
}

static void same_seed_gives_same_bytes(void **state)
{
    (void)state;
    for (uint64_t seed = 0; seed < 10; seed++) {
        relic_buf x, y;
        relic_buf_init(&x, 0);
        relic_buf_init(&y, 0);
        assert_int_equal(mutate(&room, &crate, seed, 0, &x, NULL), RELIC_OK);
        assert_int_equal(mutate(&room, &crate, seed, 0, &y, NULL), RELIC_OK);
        assert_int_equal(x.size, y.size);
        assert_memory_equal(x.data, y.data, x.size);
        relic_buf_free(&x);
        relic_buf_free(&y);
    }
}

static void valid_mutants_validate_differ_and_are_logged(void **state)
{
    (void)state;
    int distinct = 0;
    uint64_t prev = 0;
    for (uint64_t seed = 0; seed < SEEDS; seed++) {
        relic_buf out;
        relic_buf_init(&out, 0);
        relic_mutate_result res;
        assert_int_equal(mutate(&room, NULL, seed, 0, &out, &res), RELIC_OK);
        relic_bwm_view v;
        relic_error err;
        assert_int_equal(relic_bwm_validate(out.data, out.size, &v, &err), RELIC_OK);
        assert_false(out.size == room.bytes.size && memcmp(out.data, room.bytes.data, out.size) == 0);
        assert_true(res.nlog >= 1);
        assert_true(res.log[0].path[0] != 0);
        assert_true(res.log[0].old_value[0] != 0 && res.log[0].new_value[0] != 0);
        uint64_t h = 1469598103934665603ull;
        for (size_t i = 0; i < out.size; i++) h = (h ^ out.data[i]) * 1099511628211ull;
        distinct += h != prev;
        prev = h;
        relic_buf_free(&out);
    }
    assert_true(distinct > SEEDS / 2);
}

static void invalid_mutants_are_rejected_with_an_error(void **state)
{
    (void)state;
    for (uint64_t seed = 0; seed < SEEDS; seed++) {
        relic_buf out;
        relic_buf_init(&out, 0);
        relic_mutate_result res;
        assert_int_equal(mutate(&room, NULL, seed, RELIC_MUTATE_INVALID, &out, &res), RELIC_OK);
        relic_bwm_view v;
        relic_error err;
        relic_status st = relic_bwm_validate(out.data, out.size, &v, &err);
        assert_int_not_equal(st, RELIC_OK);
        assert_int_equal(err.code, st);
        assert_true(err.message[0] != 0);
        assert_true(res.nlog >= 1);
        relic_buf_free(&out);
    }
}

/* faces, materials, normals and distances share header.face_count: a grow
 * or shrink of one is applied to all four, so the file stays valid. */
static void arrays_sharing_a_count_resize_together(void **state)
{
    (void)state;
    relic_bwm_view in;
    relic_error err;
    assert_int_equal(relic_bwm_validate(room.bytes.data, room.bytes.size, &in, &err), RELIC_OK);
    int seen = 0;
    for (uint64_t seed = 0; seed < 2000 && !seen; seed++) {
        relic_buf out;
        relic_buf_init(&out, 0);
        relic_mutate_result res;
        if (mutate(&room, NULL, seed, 0, &out, &res) == RELIC_OK && res.nlog == 1 &&
            (!strcmp(res.log[0].op, "grow") || !strcmp(res.log[0].op, "shrink")) &&
            (!strcmp(res.log[0].path, "faces") || !strcmp(res.log[0].path, "materials") ||
             !strcmp(res.log[0].path, "normals") || !strcmp(res.log[0].path, "distances"))) {
            relic_bwm_view v;
            assert_int_equal(relic_bwm_validate(out.data, out.size, &v, &err), RELIC_OK);
            size_t want = in.faces_count + (!strcmp(res.log[0].op, "grow") ? 1 : (size_t)-1);
            assert_int_equal(v.faces_count, want);
            assert_int_equal(v.materials_count, want);
            assert_int_equal(v.normals_count, want);
            assert_int_equal(v.distances_count, want);
            seen = 1;
        }
        relic_buf_free(&out);
    }
    assert_true(seen);
}

static void crossover_splices_from_the_second_input(void **state)
{
    (void)state;
    int spliced = 0;
    for (uint64_t seed = 0; seed < SEEDS; seed++) {
        relic_buf out;
        relic_buf_init(&out, 0);
        relic_mutate_result res;
        if (mutate(&crate, &room, seed, RELIC_MUTATE_CROSSOVER | RELIC_MUTATE_UNCHECKED, &out, &res) == RELIC_OK) {
            assert_true(res.nlog >= 1);
            for (int k = 0; k < res.nlog; k++) spliced += strstr(res.log[k].op, "splice") != NULL;
        }
        relic_buf_free(&out);
    }
    assert_true(spliced > 0);
}

static void input_that_does_not_validate_gets_the_validator_error(void **state)
{
    (void)state;
    static const uint8_t junk[] = "BWM V9.9 not a walkmesh";
    relic_buf out;
    relic_buf_init(&out, 0);
    relic_error err;
    relic_status st = relic_mutate(&relic_bwm_mutator, junk, sizeof junk, NULL, 0, 1, 0, test_scratch(), &out, NULL, &err);
    assert_int_not_equal(st, RELIC_OK);
    assert_int_equal(err.code, st);
    assert_true(err.message[0] != 0);
    relic_buf_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_seed_gives_same_bytes),
        cmocka_unit_test(valid_mutants_validate_differ_and_are_logged),
        cmocka_unit_test(invalid_mutants_are_rejected_with_an_error),
        cmocka_unit_test(arrays_sharing_a_count_resize_together),
        cmocka_unit_test(crossover_splices_from_the_second_input),
        cmocka_unit_test(input_that_does_not_validate_gets_the_validator_error),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
