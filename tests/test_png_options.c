/* test_png_options.c — the PNG writer's compression options
 * (relic_png_write_opts): every filter and level writes the same pixels
 * back, the heightmap choice compresses a smooth ramp, and options out of
 * range are refused before anything is written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "relic_png.h"
#include "relic_wtd.h"

#define SIDE 96u

/* a smooth 16-bit ramp with a bump, as terrain heightmaps are */
static uint16_t height_at(uint32_t x, uint32_t y) { return (uint16_t)(300u * x + 170u * y + ((x * y) % 7u)); }

static const uint8_t *ramp_row(void *ctx, uint32_t r, uint8_t *row)
{
    (void)ctx;
    for (uint32_t x = 0; x < SIDE; x++) {
        uint16_t v = height_at(x, r);
        row[2 * x] = (uint8_t)(v >> 8);
        row[2 * x + 1] = (uint8_t)v;
    }
    return row;
}

static size_t write_ramp(const relic_png_options *opts, relic_buf *out, relic_status *st)
{
    const relic_png_image img = {SIDE, SIDE, 16, 1, NULL, NULL};
    uint8_t row[SIDE * 2];
    relic_error err;
    relic_buf_init(out, 0);
    *st = relic_png_write_opts(&img, opts, ramp_row, NULL, row, out, &err);
    return out->size;
}

/* picture row r is grid row SIDE - 1 - r: the reader puts north up */
static void assert_ramp(const relic_buf *png)
{
    relic_arena a;
    relic_error err;
    relic_wtd_heightmap h;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_wtd_png_read(png->data, png->size, &a, &h, &err), RELIC_OK);
    assert_int_equal(h.width, SIDE);
    assert_int_equal(h.height, SIDE);
    for (uint32_t r = 0; r < SIDE; r++)
        for (uint32_t x = 0; x < SIDE; x++) assert_int_equal(h.heights[(size_t)(SIDE - 1 - r) * SIDE + x], height_at(x, r));
    relic_arena_release(&a);
}

static void test_every_filter_and_level_writes_the_same_pixels(void **state)
{
    (void)state;
    for (int f = RELIC_PNG_FILTER_ADAPTIVE; f <= RELIC_PNG_FILTER_PAETH; f++)
        for (int level = 0; level <= 9; level += 3)
            for (int z = RELIC_PNG_STRATEGY_DEFAULT; z <= RELIC_PNG_STRATEGY_RLE; z++) {
                const relic_png_options o = {(relic_png_filter)f, level, (relic_png_strategy)z};
                relic_buf png;
                relic_status st;
                write_ramp(&o, &png, &st);
                assert_int_equal(st, RELIC_OK);
                assert_ramp(&png);
                relic_buf_free(&png);
            }
}

static void test_heightmap_options_compress_a_smooth_ramp_better_than_no_filter(void **state)
{
    (void)state;
    const relic_png_options none = {RELIC_PNG_FILTER_NONE, 2, RELIC_PNG_STRATEGY_DEFAULT}, hm = RELIC_PNG_HEIGHTMAP_OPTIONS;
    relic_buf a, b;
    relic_status st;
    size_t unfiltered = write_ramp(&none, &a, &st), filtered = write_ramp(&hm, &b, &st);
    assert_int_equal(st, RELIC_OK);
    assert_true(filtered < unfiltered);
    relic_buf_free(&a);
    relic_buf_free(&b);
}

static void test_options_out_of_range_are_refused(void **state)
{
    (void)state;
    const relic_png_options bad[] = {{(relic_png_filter)99, 2, RELIC_PNG_STRATEGY_DEFAULT},
                                     {RELIC_PNG_FILTER_UP, 10, RELIC_PNG_STRATEGY_DEFAULT},
                                     {RELIC_PNG_FILTER_UP, -1, RELIC_PNG_STRATEGY_DEFAULT},
                                     {RELIC_PNG_FILTER_UP, 2, (relic_png_strategy)7}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        relic_buf png;
        relic_status st;
        assert_int_equal(write_ramp(&bad[i], &png, &st), 0);
        assert_int_equal(st, RELIC_E_ARGUMENT);
        relic_buf_free(&png);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_filter_and_level_writes_the_same_pixels),
        cmocka_unit_test(test_heightmap_options_compress_a_smooth_ramp_better_than_no_filter),
        cmocka_unit_test(test_options_out_of_range_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
