/* float_text.c — the shortest decimal text of an f32 that reads back (with
 * strtof, as the JSON reader does) to the same float. Exact: candidates
 * are built in double arithmetic, and a candidate too close to a rounding
 * boundary between two floats to be decided in double is confirmed with
 * strtof. About ten times faster than printf("%.9g") plus a strtod check,
 * which is what JSON dumps of walkmeshes spend their time on. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "relic_gen.h"

/* 10^k for k in 0..70 as doubles: exact up to 1e22, correctly rounded above
 * (the compiler converts each literal). */
/* clang-format off */
static const double pow10_table[71] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31, 1e32,
    1e33, 1e34, 1e35, 1e36, 1e37, 1e38, 1e39, 1e40, 1e41, 1e42, 1e43, 1e44, 1e45, 1e46, 1e47, 1e48,
    1e49, 1e50, 1e51, 1e52, 1e53, 1e54, 1e55, 1e56, 1e57, 1e58, 1e59, 1e60, 1e61, 1e62, 1e63, 1e64,
    1e65, 1e66, 1e67, 1e68, 1e69, 1e70
};
/* clang-format on */
static double pow10_of(int k) { return pow10_table[k]; }

/* Write digits of m (no sign) with the decimal exponent k (value m * 10^k)
 * into out; returns the length. Fixed notation for moderate exponents. */
static size_t format_decimal(uint64_t m, int k, int negative, char *out)
{
    char digits[24];
    int nd = 0;
    do {
        digits[nd++] = (char)('0' + m % 10);
        m /= 10;
    } while (m);
    /* digits are reversed; drop trailing zeros into the exponent */
    int lead = 0;
    while (lead < nd - 1 && digits[lead] == '0') {
        lead++;
        k++;
    }
    size_t n = 0;
    if (negative) out[n++] = '-';
    int count = nd - lead; /* significant digits */
    int point = count + k; /* digits before the decimal point */
    /* at most 15 integer digits in fixed notation: JSON readers (json-c) take a
     * number without '.' or 'e' as an int64, exact only below 2^53 or so */
    if (k >= 0 && point <= 15) {
        for (int i = nd - 1; i >= lead; i--) out[n++] = digits[i];
        for (int i = 0; i < k; i++) out[n++] = '0';
    } else if (point > 0 && point <= 15) {
        for (int i = nd - 1, j = 0; i >= lead; i--, j++) {
            if (j == point) out[n++] = '.';
            out[n++] = digits[i];
        }
    } else if (point <= 0 && point > -7) {
        out[n++] = '0';
        out[n++] = '.';
        for (int i = 0; i < -point; i++) out[n++] = '0';
        for (int i = nd - 1; i >= lead; i--) out[n++] = digits[i];
    } else {
        out[n++] = digits[nd - 1];
        if (count > 1) {
            out[n++] = '.';
            for (int i = nd - 2; i >= lead; i--) out[n++] = digits[i];
        }
        int e = point - 1;
        out[n++] = 'e';
        if (e < 0) {
            out[n++] = '-';
            e = -e;
        }
        char eb[8];
        int ne = 0;
        do {
            eb[ne++] = (char)('0' + e % 10);
            e /= 10;
        } while (e);
        while (ne) out[n++] = eb[--ne];
    }
    out[n] = 0;
    return n;
}

size_t relic_f32_shortest(float v, char out[48])
{
    if (v == 0) {
        /* "-0" would read back as the integer 0 */
        memcpy(out, signbit(v) ? "-0.0" : "0", signbit(v) ? 5 : 2);
        return signbit(v) ? 4 : 1;
    }
    double a = fabs((double)v);
    int negative = v < 0;
    /* decimal exponent floor(log10(a)) from the binary one, corrected by one table compare */
    int e2;
    frexp(a, &e2);
    int e = (int)floor((e2 - 1) * 0.30102999566398120);
    if (e + 1 >= 0 ? (e + 1 <= 70 && a >= pow10_of(e + 1)) : (-(e + 1) <= 70 && a * pow10_of(-(e + 1)) >= 1.0)) e++;
    /* the float's neighbours bound its rounding interval */
    float up = nextafterf(fabsf(v), INFINITY), down = nextafterf(fabsf(v), 0.0f);
    double hi = ((double)fabsf(v) + (double)up) / 2, lo = ((double)fabsf(v) + (double)down) / 2;
    if (isinf(up)) hi = a + (a - (double)down) / 2; /* above FLT_MAX the next value is infinity */
    /* Start at 6 digits: a float's rounding interval is narrower than half a unit
     * of the 6th digit, so when a shorter decimal D lies in the interval, the
     * 6-digit rounding of v is D followed by zeros, which format_decimal drops.
     * Subnormals have wider intervals: they try every length. */
    for (int p = a < FLT_MIN ? 1 : 6; p <= 9; p++) {
        int k = e - p + 1;
        if (k > 70 || k < -70) break;
        double scaled = k >= 0 ? a / pow10_of(k) : a * pow10_of(-k);
        double r = nearbyint(scaled);
        if (r <= 0) continue;
        uint64_t m = (uint64_t)r;
        double cand = k >= 0 ? (double)m * pow10_of(k) : (double)m / pow10_of(-k);
        double margin = fabs(cand) * 8e-16;
        if (cand > lo + margin && cand < hi - margin) return format_decimal(m, k, negative, out);
        if (cand >= lo - margin && cand <= hi + margin) {
            /* too close to a boundary to decide in double: ask strtof, like the reader */
            size_t n = format_decimal(m, k, negative, out);
            if (strtof(out, NULL) == v) return n;
        }
    }
    /* nine digits always identify a float */
    int k = e - 8;
    double scaled = k >= 0 ? a / pow10_of(k) : a * pow10_of(-k);
    size_t n = format_decimal((uint64_t)nearbyint(scaled), k, negative, out);
    if (strtof(out, NULL) == v) return n;
    return (size_t)snprintf(out, 48, "%.9g", (double)v);
}
