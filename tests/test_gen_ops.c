/* test_gen_ops.c — the format descriptors relic-gen emits (relic_<f>_ops in
 * <f>.c, relic_<f>_schema_ops in <f>_json.c) and the helpers of
 * gen_support.c that use them: what a descriptor says about its format,
 * load / check / write through it on the BWM samples of tests/samples (a
 * byte-exact round trip, also through JSON), its errors, and the writers'
 * derived-field setters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bwm.h"
#include "grf_region.h"
#include "relic.h"
#include "relic_gen.h"
#include "relic_schema_ops.h"
#include "trn.h"

#define ARENA_LIMIT ((size_t)64 << 20)

static relic_mapping room;

static int setup(void **state)
{
    (void)state;
    relic_error err;
    return relic_map_file("tests/samples/room.wok", 0, &room, &err) == RELIC_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    relic_unmap(&room);
    return 0;
}

static void descriptor_names_its_format(void **state)
{
    (void)state;
    const relic_gen_ops *g = &relic_bwm_ops;
    assert_string_equal(g->name, "bwm");
    assert_ptr_equal(g->extensions, relic_bwm_extensions);
    assert_string_equal(g->extensions[0], "wok");
    assert_ptr_equal(g->detect, RELIC_FORMAT_BWM);
    assert_int_equal(g->view_size, sizeof(relic_bwm_view));
    assert_int_equal(g->model_size, sizeof(relic_bwm_file));
    assert_null(g->layout);
    assert_ptr_equal(relic_bwm_schema_ops.gen, &relic_bwm_ops);
}

static void layout_comes_from_the_schema(void **state)
{
    (void)state;
    /* trn.schema: `layout relic_trn_layout;`; grf_region has none and no `detect` */
    assert_non_null(relic_trn_ops.layout);
    assert_ptr_equal(relic_trn_ops.detect, RELIC_FORMAT_TRN);
    assert_null(relic_grf_region_ops.layout);
    assert_null(relic_grf_region_ops.detect);
    assert_int_equal(relic_grf_region_ops.model_size, sizeof(relic_grf_region_file));
}

static void load_then_write_gives_the_same_bytes(void **state)
{
    (void)state;
    relic_arena a;
    relic_error err;
    relic_buf out;
    void *model = NULL;
    relic_arena_init_heap(&a, ARENA_LIMIT);
    relic_buf_init(&out, 0);
    assert_int_equal(relic_gen_ops_load(&relic_bwm_ops, room.bytes.data, room.bytes.size, &a, &model, &err), RELIC_OK);
    assert_non_null(model);
    assert_true(((relic_bwm_file *)model)->faces_count > 0);
    assert_int_equal(relic_bwm_ops.write(model, &out, &err), RELIC_OK);
    assert_int_equal(out.size, room.bytes.size);
    assert_memory_equal(out.data, room.bytes.data, out.size);
    relic_buf_free(&out);
    relic_arena_release(&a);
}

static void json_both_ways_through_the_schema_ops(void **state)
{
    (void)state;
    const relic_schema_ops *s = &relic_bwm_schema_ops;
    relic_arena a;
    relic_error err;
    relic_buf json, bin;
    void *model = NULL;
    relic_arena_init_heap(&a, ARENA_LIMIT);
    relic_buf_init(&json, 0);
    relic_buf_init(&bin, 0);
    assert_int_equal(relic_gen_ops_load(s->gen, room.bytes.data, room.bytes.size, &a, &model, &err), RELIC_OK);
    assert_int_equal(s->json_print(model, &json, &err), RELIC_OK);
    void *back = relic_arena_alloc(&a, s->gen->model_size, 16);
    assert_non_null(back);
    assert_int_equal(s->json_read((const char *)json.data, json.size, &a, back, &err), RELIC_OK);
    assert_int_equal(s->gen->write(back, &bin, &err), RELIC_OK);
    assert_int_equal(bin.size, room.bytes.size);
    assert_memory_equal(bin.data, room.bytes.data, bin.size);
    relic_buf_free(&json);
    relic_buf_free(&bin);
    relic_arena_release(&a);
}

static void load_reports_the_validators_error(void **state)
{
    (void)state;
    relic_arena a;
    relic_error err;
    void *model = NULL;
    relic_arena_init_heap(&a, ARENA_LIMIT);
    /* the header is 136 bytes: 100 leave it short */
    assert_int_equal(relic_gen_ops_load(&relic_bwm_ops, room.bytes.data, 100, &a, &model, &err), RELIC_E_TRUNCATED);
    assert_null(model);
    assert_string_equal(err.path, "header");
    relic_arena_release(&a);
}

static void check_takes_its_view_from_scratch(void **state)
{
    (void)state;
    relic_arena a;
    relic_error err;
    relic_arena_init_heap(&a, ARENA_LIMIT);
    assert_int_equal(relic_gen_ops_check(&relic_bwm_ops, room.bytes.data, room.bytes.size, &a, &err), RELIC_OK);
    assert_int_equal(relic_gen_ops_check(&relic_bwm_ops, room.bytes.data, room.bytes.size, NULL, &err), RELIC_E_NOMEM);
    relic_arena_release(&a);
}

static void setters_store_what_fits_and_refuse_the_rest(void **state)
{
    (void)state;
    relic_error err;
    uint32_t v32 = 7;
    uint16_t v16 = 7;
    assert_int_equal(relic_gen_set_u32(&err, &v32, UINT32_MAX, "count"), RELIC_OK);
    assert_int_equal(v32, UINT32_MAX);
    assert_int_equal(relic_gen_set_u32(&err, &v32, (uint64_t)UINT32_MAX + 1, "count"), RELIC_E_LIMIT);
    assert_int_equal(v32, UINT32_MAX); /* unchanged */
    assert_int_equal(relic_gen_set_u16(&err, &v16, 65536, "size"), RELIC_E_LIMIT);
    assert_int_equal(v16, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(descriptor_names_its_format),
        cmocka_unit_test(layout_comes_from_the_schema),
        cmocka_unit_test(load_then_write_gives_the_same_bytes),
        cmocka_unit_test(json_both_ways_through_the_schema_ops),
        cmocka_unit_test(load_reports_the_validators_error),
        cmocka_unit_test(check_takes_its_view_from_scratch),
        cmocka_unit_test(setters_store_what_fits_and_refuse_the_rest),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
