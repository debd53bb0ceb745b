/* test_gen_support.c — the helpers the generated readers and writers share
 * (runtime/core/gen_support.c): enum tables, bounds, decoding copies, the
 * writer's derived-field, count and layout checks. One behaviour per test
 * (cmocka). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "relic_gen.h"

static const relic_gen_enum_item dense[] = {{0, "zero"}, {1, "one"}, {2, "two"}};
static const relic_gen_enum_item sparse[] = {{1, "a"}, {2, "b"}, {30, "c"}, {-5, "d"}};

static void enum_name_finds_dense_and_sparse_values(void **state)
{
    (void)state;
    assert_string_equal(relic_gen_enum_name(dense, 3, 2), "two");
    assert_string_equal(relic_gen_enum_name(sparse, 4, 30), "c");
    assert_string_equal(relic_gen_enum_name(sparse, 4, -5), "d");
    assert_null(relic_gen_enum_name(sparse, 4, 3));
    assert_null(relic_gen_enum_name(dense, 3, INT64_MIN));
    assert_null(relic_gen_enum_name(dense, 0, 0));
}

static void enum_value_reads_names_back(void **state)
{
    (void)state;
    int64_t v = 99;
    assert_int_equal(relic_gen_enum_value(sparse, 4, "c", &v), 1);
    assert_int_equal(v, 30);
    v = 99;
    assert_int_equal(relic_gen_enum_value(sparse, 4, "zz", &v), 0);
    assert_int_equal(v, 99);
}

static void room_rejects_spans_past_the_end_without_overflow(void **state)
{
    (void)state;
    assert_true(relic_gen_room(10, 2, 8));
    assert_false(relic_gen_room(10, 2, 9));
    assert_false(relic_gen_room(10, 11, 0));
    assert_false(relic_gen_room(10, 4, UINT64_MAX));
}

static void short_names_the_path_offset_and_what_remains(void **state)
{
    (void)state;
    relic_error err;
    relic_error_clear(&err);
    assert_int_equal(relic_gen_short(&err, 4, 10, "header", "header", 136), RELIC_E_TRUNCATED);
    assert_int_equal(err.offset, 4);
    assert_string_equal(err.path, "header");
    assert_non_null(strstr(err.message, "needs 136 bytes, 6 remain"));
}

static void fail_check_names_the_element_value_and_check(void **state)
{
    (void)state;
    relic_error err;
    relic_error_clear(&err);
    assert_int_equal(relic_gen_fail_check(&err, RELIC_E_INDEX, 0x40, "v", 2, 999, "fails check it < header.vertex_count"),
                     RELIC_E_INDEX);
    assert_int_equal(err.offset, 0x40);
    assert_string_equal(err.path, "v[2]");
    assert_string_equal(err.message, "999 fails check it < header.vertex_count");
    assert_int_equal(relic_gen_fail_check(&err, RELIC_E_RANGE, 8, "type", -1, -7, "is not a known walkmesh_type"),
                     RELIC_E_RANGE);
    assert_string_equal(err.path, "type");
    assert_string_equal(err.message, "-7 is not a known walkmesh_type");
    assert_int_equal(relic_gen_fail_check(NULL, RELIC_E_RANGE, 8, "type", -1, 1, "x"), RELIC_E_RANGE);
}

static void place_says_what_remains_of_a_short_array(void **state)
{
    (void)state;
    relic_error err;
    uint64_t at, n, bytes;
    assert_int_equal(relic_gen_place(&err, 136, 140, 3, 1, 12, 160, "vertices", &at, &n, &bytes), RELIC_E_TRUNCATED);
    assert_int_equal(err.offset, 140);
    assert_string_equal(err.path, "vertices");
    assert_string_equal(err.message, "3 elements of 12 bytes, 20 bytes remain");
    assert_int_equal(relic_gen_place(&err, 136, 200, 1, 1, 12, 160, "vertices", &at, &n, &bytes), RELIC_E_LAYOUT);
    assert_int_equal(err.offset, 136);
    assert_int_equal(relic_gen_place(&err, 136, 140, 1, 1, 12, 160, "vertices", &at, &n, &bytes), RELIC_OK);
    assert_int_equal(at, 140);
    assert_int_equal(bytes, 12);
}

static void span_rejects_negative_counts_and_overflow(void **state)
{
    (void)state;
    relic_error err;
    uint64_t n, bytes;
    assert_int_equal(relic_gen_span(&err, 0, 3, 2, 4, 100, "x", &n, &bytes), RELIC_OK);
    assert_int_equal(n, 6);
    assert_int_equal(bytes, 24);
    assert_int_equal(relic_gen_span(&err, 0, -1, 1, 4, 100, "x", &n, &bytes), RELIC_E_RANGE);
    assert_int_equal(relic_gen_span(&err, 8, INT64_MAX, 1, 8, 100, "x", &n, &bytes), RELIC_E_TRUNCATED);
    assert_int_equal(err.offset, 8);
}

static void take_moves_the_cursor_past_the_array_and_keeps_it_on_error(void **state)
{
    (void)state;
    relic_error err;
    uint64_t cur = 10, at, n;
    assert_int_equal(relic_gen_take(&err, &cur, 3, 2, 4, 100, "x", &at, &n), RELIC_OK);
    assert_int_equal(at, 10);
    assert_int_equal(n, 6);
    assert_int_equal(cur, 34);
    assert_int_equal(relic_gen_take(&err, &cur, 0, 1, 4, 100, "y", &at, &n), RELIC_OK);
    assert_int_equal(at, 34);
    assert_int_equal(n, 0);
    assert_int_equal(cur, 34);
    assert_int_equal(relic_gen_take(&err, &cur, 17, 1, 4, 100, "z", &at, &n), RELIC_E_TRUNCATED);
    assert_int_equal(err.offset, 34);
    assert_string_equal(err.path, "z");
    assert_int_equal(cur, 34);
    assert_int_equal(n, 0);
    assert_int_equal(relic_gen_take(&err, &cur, -1, 1, 4, 100, "w", &at, &n), RELIC_E_RANGE);
    assert_int_equal(cur, 34);
}

static void copy_and_dup_take_from_the_arena(void **state)
{
    (void)state;
    uint8_t mem[256];
    relic_arena a;
    relic_arena_init_buffer(&a, mem, sizeof mem);
    relic_error err;
    const uint8_t src[8] = {1, 0, 0, 0, 2, 0, 0, 0};
    uint32_t *v = relic_gen_copy(&a, &err, src, 2, sizeof *v, _Alignof(uint32_t), 0, "v");
    assert_non_null(v);
    if (RELIC_GEN_LE) {
        assert_int_equal(v[0], 1);
        assert_int_equal(v[1], 2);
    }
    char *s = relic_gen_dup(&a, &err, (const uint8_t *)"abc", 3, 0, "s");
    assert_string_equal(s, "abc");
    assert_null(relic_gen_alloc(&a, &err, 0, 4, 4, 0, "empty"));
    assert_null(relic_gen_alloc(&a, &err, 1000, 4, 4, 12, "big"));
    assert_int_equal(err.code, RELIC_E_NOMEM);
    assert_int_equal(err.offset, 12);
}

static void fits_and_count_name_the_field(void **state)
{
    (void)state;
    relic_error err;
    assert_int_equal(relic_gen_fits(&err, 255, 255, "n", "u8"), RELIC_OK);
    assert_int_equal(relic_gen_fits(&err, 256, 255, "n", "u8"), RELIC_E_LIMIT);
    assert_string_equal(err.path, "n");
    assert_int_equal(relic_gen_count(&err, 40, "faces", "header.face_count", 3, 3), RELIC_OK);
    assert_int_equal(relic_gen_count(&err, 40, "faces", "header.face_count", 2, 3), RELIC_E_ARGUMENT);
    assert_int_equal(err.offset, 40);
    assert_non_null(strstr(err.message, "header.face_count = 2"));
    assert_int_equal(relic_gen_count(&err, 40, "faces", "n", -1, 0), RELIC_E_ARGUMENT);
}

static void layout_keeps_the_models_own_order(void **state)
{
    (void)state;
    relic_error err;
    const uint64_t held[3] = {200, 100, 0}, size[3] = {10, 20, 0};
    uint64_t at[3], end;
    assert_int_equal(relic_gen_layout(&err, 100, 3, held, size, at, &end), RELIC_OK);
    assert_int_equal(at[0], 200);
    assert_int_equal(at[1], 100);
    assert_int_equal(at[2], 210); /* empty: at the end */
    assert_int_equal(end, 210);
}

static void layout_falls_back_to_contiguous_on_overlap_or_unheld(void **state)
{
    (void)state;
    relic_error err;
    uint64_t at[2], end;
    const uint64_t overlap[2] = {100, 105}, size[2] = {10, 10};
    assert_int_equal(relic_gen_layout(&err, 100, 2, overlap, size, at, &end), RELIC_OK);
    assert_int_equal(at[0], 100);
    assert_int_equal(at[1], 110);
    assert_int_equal(end, 120);
    const uint64_t unheld[2] = {100, RELIC_GEN_NOT_HELD};
    assert_int_equal(relic_gen_layout(&err, 100, 2, unheld, size, at, &end), RELIC_OK);
    assert_int_equal(at[1], 110);
    const uint64_t inside[2] = {50, 120};
    assert_int_equal(relic_gen_layout(&err, 100, 2, inside, size, at, &end), RELIC_OK);
    assert_int_equal(at[0], 100);
}

static void layout_rejects_overflowing_sizes(void **state)
{
    (void)state;
    relic_error err;
    uint64_t at[2], end;
    const uint64_t held[2] = {RELIC_GEN_NOT_HELD, RELIC_GEN_NOT_HELD}, size[2] = {UINT64_MAX - 10, 100};
    assert_int_equal(relic_gen_layout(&err, 100, 2, held, size, at, &end), RELIC_E_LIMIT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(enum_name_finds_dense_and_sparse_values),
        cmocka_unit_test(enum_value_reads_names_back),
        cmocka_unit_test(room_rejects_spans_past_the_end_without_overflow),
        cmocka_unit_test(short_names_the_path_offset_and_what_remains),
        cmocka_unit_test(fail_check_names_the_element_value_and_check),
        cmocka_unit_test(place_says_what_remains_of_a_short_array),
        cmocka_unit_test(span_rejects_negative_counts_and_overflow),
        cmocka_unit_test(take_moves_the_cursor_past_the_array_and_keeps_it_on_error),
        cmocka_unit_test(copy_and_dup_take_from_the_arena),
        cmocka_unit_test(fits_and_count_name_the_field),
        cmocka_unit_test(layout_keeps_the_models_own_order),
        cmocka_unit_test(layout_falls_back_to_contiguous_on_overlap_or_unheld),
        cmocka_unit_test(layout_rejects_overflowing_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
