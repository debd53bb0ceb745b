/* test_float_text.c — relic_f32_shortest (runtime/core/float_text.c), the float
 * printer of every JSON dump: the text must read back (strtof, as the JSON
 * reader does) to the same bits, and be as short as the shortest "%.{p}g"
 * that does — checked against that printf-based reference on random bit
 * patterns, decimal-looking values, subnormals and the extremes. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "relic_gen.h"

static int reference_digits(float v)
{
    char b[64];
    for (int p = 1; p <= 9; p++) {
        snprintf(b, sizeof b, "%.*g", p, (double)v);
        if (strtof(b, NULL) == v) return p;
    }
    return 99;
}

/* Significant digits of a decimal text (no leading or trailing zeros). */
static int significant_digits(const char *s)
{
    char m[64];
    size_t n = 0;
    for (; *s && *s != 'e' && n < sizeof m - 1; s++)
        if (*s >= '0' && *s <= '9') m[n++] = *s;
    m[n] = 0;
    size_t a = 0;
    while (a < n && m[a] == '0') a++;
    while (n > a && m[n - 1] == '0') n--;
    return (int)(n - a);
}

static void expect_exact_and_shortest(float v)
{
    char out[48];
    size_t n = relic_f32_shortest(v, out);
    assert_int_equal(n, strlen(out));
    float back = strtof(out, NULL);
    if (memcmp(&back, &v, sizeof v) != 0) fail_msg("%a printed as %s reads back as %a", (double)v, out, (double)back);
    if (v != 0 && significant_digits(out) > reference_digits(v))
        fail_msg("%a printed as %s: %d digits, %d suffice", (double)v, out, significant_digits(out), reference_digits(v));
}

static void test_known_values_print_as_people_write_them(void **state)
{
    (void)state;
    char out[48];
    relic_f32_shortest(0.1f, out);
    assert_string_equal(out, "0.1");
    relic_f32_shortest(-2.5f, out);
    assert_string_equal(out, "-2.5");
    relic_f32_shortest(100.0f, out);
    assert_string_equal(out, "100");
    relic_f32_shortest(-0.0f, out);
    assert_string_equal(out, "-0.0");
    relic_f32_shortest(0.0f, out);
    assert_string_equal(out, "0");
    relic_f32_shortest(1e-10f, out);
    assert_string_equal(out, "1e-10");
    relic_f32_shortest(3.4028235e38f, out);
    assert_string_equal(out, "3.4028235e38");
    relic_f32_shortest(2.7836498e20f, out); /* an integer this long would be read as an int64 */
    assert_string_equal(out, "2.7836498e20");
    relic_f32_shortest(1e15f, out); /* 16 integer digits: exponent form */
    assert_string_equal(out, "1e15");
    relic_f32_shortest(1e14f, out); /* 15 digits still fit an int64 exactly */
    assert_string_equal(out, "100000000000000");
}

static void test_extremes_round_trip(void **state)
{
    (void)state;
    const float v[] = {FLT_MIN, -FLT_MIN, FLT_MAX, -FLT_MAX, FLT_TRUE_MIN, -FLT_TRUE_MIN, FLT_EPSILON, 1.0f,
                       16777216.0f, 16777217.0f, 0.3f, 2.0f / 3.0f, 9.999999e-8f, 123456.79f};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) expect_exact_and_shortest(v[i]);
}

static void test_random_bit_patterns_round_trip_shortest(void **state)
{
    (void)state;
    uint64_t s = 88172645463325252ull;
    for (long i = 0; i < 300000; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        uint32_t u = (uint32_t)s;
        float v;
        memcpy(&v, &u, 4);
        if (i % 3 == 1) v = (float)((int)(s >> 40) % 100000) / 1000.0f; /* millimetre coordinates */
        if (i % 3 == 2) v = (float)((double)(int32_t)(s >> 32) * 1e-6);
        if (isfinite(v)) expect_exact_and_shortest(v);
    }
}

/* The integer fast path prints what the double+strtof path printed before it
 * (the text of every JSON dump), here on a sample of each binade; make bench
 * (bench_float_text) checks every float. */
static void test_fast_path_prints_as_the_slow_path(void **state)
{
    (void)state;
    uint64_t s = 0x9E3779B97F4A7C15ull;
    long checked = 0;
    for (uint32_t bexp = 0; bexp < 255; bexp++)
        for (int k = 0; k < 4000; k++) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            /* the binade's edges (powers of two, the neighbours of powers of ten) and random mantissas */
            uint32_t frac = k < 4 ? (uint32_t)(k < 2 ? k : 0x7FFFFF - (k - 2)) : (uint32_t)s & 0x7FFFFF;
            uint32_t bits = (uint32_t)(s >> 40 & 1) << 31 | bexp << 23 | frac;
            float v;
            memcpy(&v, &bits, sizeof v);
            char fast[48], slow[48];
            relic_f32_shortest(v, fast);
            relic_f32_shortest_slow(v, slow);
            if (strcmp(fast, slow) != 0) fail_msg("%a (bits %08x): fast path \"%s\", slow path \"%s\"", (double)v, bits, fast, slow);
            checked++;
        }
    /* the floats nearest each power of ten, where the decimal exponent changes */
    for (int e = -45; e <= 38; e++) {
        char t[16];
        snprintf(t, sizeof t, "1e%d", e);
        float p = strtof(t, NULL);
        uint32_t bits;
        memcpy(&bits, &p, sizeof bits);
        for (int d = -3; d <= 3; d++) {
            uint32_t b = bits + (uint32_t)d;
            float v;
            memcpy(&v, &b, sizeof v);
            if (!isfinite(v)) continue;
            char fast[48], slow[48];
            relic_f32_shortest(v, fast);
            relic_f32_shortest_slow(v, slow);
            if (strcmp(fast, slow) != 0) fail_msg("%a (bits %08x): fast path \"%s\", slow path \"%s\"", (double)v, b, fast, slow);
            checked++;
        }
    }
    assert_true(checked > 1000000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_values_print_as_people_write_them),
        cmocka_unit_test(test_extremes_round_trip),
        cmocka_unit_test(test_random_bit_patterns_round_trip_shortest),
        cmocka_unit_test(test_fast_path_prints_as_the_slow_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
