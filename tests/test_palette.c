/* test_palette.c — relic_palette_quantize (runtime/formats/tres/palette_quantize.c,
 * relic_palette.h): histograms that fit come back exactly, pixel counts
 * steer the palette, the result does not depend on the histogram's order
 * and is the same every run, every entry ends near a palette colour, the
 * palette's weights add up, and bad arguments are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "relic_palette.h"

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

/* n distinct random opaque colours with random weights 1..100 */
static relic_palette_colour *random_histogram(size_t n, uint64_t seed)
{
    relic_palette_colour *h = calloc(n, sizeof *h);
    rng_state = seed;
    for (size_t i = 0; i < n; i++) {
        /* distinct: multiplying by an odd number is a bijection of 24-bit values */
        uint32_t v = (uint32_t)(i * 2654435761u) & 0xFFFFFFu;
        h[i].r = (uint8_t)(v >> 16);
        h[i].g = (uint8_t)(v >> 8);
        h[i].b = (uint8_t)v;
        h[i].a = 255;
        h[i].weight = 1 + rnd() % 100;
    }
    return h;
}

static relic_status quantise(const relic_palette_colour *h, size_t n, uint32_t max, relic_palette_colour *out,
                             uint32_t *count)
{
    relic_arena a;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    relic_status st = relic_palette_quantize(h, n, max, &a, out, count, &err);
    relic_arena_release(&a);
    return st;
}

static long nearest_distance(const relic_palette_colour *pal, uint32_t n, const relic_palette_colour *c)
{
    long best = -1;
    for (uint32_t k = 0; k < n; k++) {
        long dr = c->r - pal[k].r, dg = c->g - pal[k].g, db = c->b - pal[k].b, da = c->a - pal[k].a;
        long d = dr * dr + dg * dg + db * db + da * da;
        if (best < 0 || d < best) best = d;
    }
    return best;
}

static void test_histogram_that_fits_comes_back_exactly(void **state)
{
    (void)state;
    relic_palette_colour *h = random_histogram(40, 1);
    h[7].a = 0; /* alpha is a channel like the others */
    relic_palette_colour out[64];
    uint32_t count = 0;
    assert_int_equal(quantise(h, 40, 64, out, &count), RELIC_OK);
    assert_int_equal(count, 40);
    assert_memory_equal(out, h, 40 * sizeof *h);
    /* exactly as many colours as the palette holds */
    assert_int_equal(quantise(h, 40, 40, out, &count), RELIC_OK);
    assert_int_equal(count, 40);
    assert_memory_equal(out, h, 40 * sizeof *h);
    free(h);
}

static void test_heavy_colours_are_kept_and_light_ones_merged(void **state)
{
    (void)state;
    /* black (heavy), a near-black (light), white (heavy), into 2 colours:
     * the merged box's weighted mean stays black; an unweighted one would be (5,0,0) */
    relic_palette_colour h[3] = {{0, 0, 0, 255, 1000}, {10, 0, 0, 255, 1}, {255, 255, 255, 255, 1000}};
    relic_palette_colour out[2];
    uint32_t count = 0;
    assert_int_equal(quantise(h, 3, 2, out, &count), RELIC_OK);
    assert_int_equal(count, 2);
    assert_int_equal(nearest_distance(out, count, &h[0]), 0);
    assert_int_equal(nearest_distance(out, count, &h[2]), 0);
    assert_int_equal((uint64_t)out[0].weight + out[1].weight, 2001);
}

static void test_a_dominant_colour_gets_its_own_entry(void **state)
{
    (void)state;
    relic_palette_colour *h = random_histogram(5000, 2);
    h[1234].weight = 10000000; /* most of the image */
    relic_palette_colour out[16];
    uint32_t count = 0;
    assert_int_equal(quantise(h, 5000, 16, out, &count), RELIC_OK);
    assert_int_equal(count, 16);
    assert_int_equal(nearest_distance(out, count, &h[1234]), 0);
    free(h);
}

static void test_palette_weights_add_up_to_the_histogram(void **state)
{
    (void)state;
    relic_palette_colour *h = random_histogram(3000, 3);
    uint64_t total = 0;
    for (size_t i = 0; i < 3000; i++) total += h[i].weight;
    relic_palette_colour out[256];
    uint32_t count = 0;
    assert_int_equal(quantise(h, 3000, 256, out, &count), RELIC_OK);
    uint64_t sum = 0;
    for (uint32_t k = 0; k < count; k++) sum += out[k].weight;
    assert_int_equal(sum, total);
    free(h);
}

static void test_result_is_deterministic_and_order_independent(void **state)
{
    (void)state;
    enum { N = 4000,
           MAX = 64 };
    relic_palette_colour *h = random_histogram(N, 4);
    relic_palette_colour a[MAX], b[MAX], c[MAX];
    uint32_t na = 0, nb = 0, nc = 0;
    assert_int_equal(quantise(h, N, MAX, a, &na), RELIC_OK);
    assert_int_equal(quantise(h, N, MAX, b, &nb), RELIC_OK);
    assert_int_equal(na, MAX);
    assert_int_equal(nb, na);
    assert_memory_equal(a, b, na * sizeof *a);
    /* reversed, then shuffled */
    for (size_t i = 0; i < N / 2; i++) {
        relic_palette_colour t = h[i];
        h[i] = h[N - 1 - i];
        h[N - 1 - i] = t;
    }
    rng_state = 99;
    for (size_t i = N - 1; i > 0; i--) {
        size_t j = rnd() % (i + 1);
        relic_palette_colour t = h[i];
        h[i] = h[j];
        h[j] = t;
    }
    assert_int_equal(quantise(h, N, MAX, c, &nc), RELIC_OK);
    assert_int_equal(nc, na);
    assert_memory_equal(a, c, na * sizeof *a);
    free(h);
}

static void test_every_entry_is_near_a_palette_colour(void **state)
{
    (void)state;
    /* a 32x32x16 RGB grid (16384 colours, 8 apart in red and green, 16 in blue) into 256 */
    size_t n = 32 * 32 * 16;
    relic_palette_colour *h = calloc(n, sizeof *h);
    for (size_t i = 0; i < n; i++) {
        h[i].r = (uint8_t)((i >> 9) * 8);
        h[i].g = (uint8_t)(((i >> 4) & 31) * 8);
        h[i].b = (uint8_t)((i & 15) * 16);
        h[i].a = 255;
        h[i].weight = 1;
    }
    relic_palette_colour out[256];
    uint32_t count = 0;
    assert_int_equal(quantise(h, n, 256, out, &count), RELIC_OK);
    assert_int_equal(count, 256);
    double sum = 0;
    long worst = 0;
    for (size_t i = 0; i < n; i++) {
        long d = nearest_distance(out, count, &h[i]);
        sum += (double)d;
        if (d > worst) worst = d;
    }
    double rms = sqrt(sum / (double)n / 3.0);
    print_message("16384-colour grid -> 256: RMS channel error %.2f, worst squared distance %ld\n", rms, worst);
    /* the grid spans 248x248x240 values; 256 equal cubes would have sides of 38.6 and an
     * RMS channel error of 38.6/sqrt(12) = 11.1; allow 14 (measured 12.65), and no colour
     * farther than 20 a channel (measured worst squared distance 864, about 17 a channel) */
    assert_true(rms <= 14.0);
    assert_true(worst <= 3 * 20 * 20);
    free(h);
}

static void test_weightless_entries_are_still_covered(void **state)
{
    (void)state;
    relic_palette_colour *h = random_histogram(500, 5);
    for (size_t i = 0; i < 500; i++) h[i].weight = 0;
    relic_palette_colour out[32];
    uint32_t count = 0;
    assert_int_equal(quantise(h, 500, 32, out, &count), RELIC_OK);
    assert_int_equal(count, 32);
    for (uint32_t k = 0; k < count; k++) assert_int_equal(out[k].weight, 0);
    free(h);
}

static void test_bad_arguments_are_refused(void **state)
{
    (void)state;
    relic_palette_colour h[2] = {{1, 2, 3, 255, 1}, {4, 5, 6, 255, 1}};
    relic_palette_colour out[RELIC_PALETTE_MAX_COLOURS + 1];
    uint32_t count = 7;
    assert_int_equal(quantise(h, 2, 0, out, &count), RELIC_E_ARGUMENT);
    assert_int_equal(quantise(h, 2, RELIC_PALETTE_MAX_COLOURS + 1, out, &count), RELIC_E_ARGUMENT);
    assert_int_equal(quantise(NULL, 2, 4, out, &count), RELIC_E_ARGUMENT);
    assert_int_equal(quantise(h, (size_t)RELIC_PALETTE_MAX_ENTRIES + 1, 4, out, &count), RELIC_E_LIMIT);
    assert_int_equal(quantise(NULL, 0, 4, out, &count), RELIC_OK);
    assert_int_equal(count, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_histogram_that_fits_comes_back_exactly),
        cmocka_unit_test(test_heavy_colours_are_kept_and_light_ones_merged),
        cmocka_unit_test(test_a_dominant_colour_gets_its_own_entry),
        cmocka_unit_test(test_palette_weights_add_up_to_the_histogram),
        cmocka_unit_test(test_result_is_deterministic_and_order_independent),
        cmocka_unit_test(test_every_entry_is_near_a_palette_colour),
        cmocka_unit_test(test_weightless_entries_are_still_covered),
        cmocka_unit_test(test_bad_arguments_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
