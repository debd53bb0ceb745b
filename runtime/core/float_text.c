/* float_text.c — the shortest decimal text of an f32 that reads back (with
 * strtof, as the JSON reader does) to the same float: for the fewest
 * significant digits p (from 6, or from 1 for subnormals) such that v
 * rounded to p digits (half to even) lies in v's rounding interval
 * (boundaries included when v's mantissa is even, as strtof rounds ties).
 *
 * Two ways to the same text. The fast path, for normal floats from about
 * 1e-31 to 1e8 (what game data holds), works exactly in integers: v and its
 * two interval bounds, as multiples of 2^(e-2), are scaled by 10^j = 5^j 2^j
 * in 128-bit arithmetic (Ryu's idea, Adams, "Ryu: fast float-to-string
 * conversion", PLDI 2018: scale once, then decide digits on exact integers),
 * giving v * 10^j as a 9- or 10-digit integer plus an exact fraction, from
 * which each p's rounding and the interval test are integer compares. The
 * slow path (other magnitudes, or no 128-bit integers) builds candidates in
 * double arithmetic and confirms close calls with strtof. bench_float_text
 * checks, over every float, that both give the same text. */
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

size_t relic_f32_shortest_slow(float v, char out[48])
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

static const uint64_t pow10_u64[11] = {1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u,
                                       100000000u, 1000000000u, 10000000000u};

/* x / 10^d for d in 1..4, by constants the compiler turns into multiplications. */
static uint64_t div_pow10(uint64_t x, int d)
{
    switch (d) {
    case 1: return x / 10u;
    case 2: return x / 100u;
    case 3: return x / 1000u;
    default: return x / 10000u;
    }
}

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;

/* 5^j for j in 0..40 (high and low 64 bits): with A < 2^27 the products stay below 2^121. */
/* clang-format off */
static const uint64_t pow5_table[41][2] = {
    {0x0000000000000000u, 0x0000000000000001u},
    {0x0000000000000000u, 0x0000000000000005u},
    {0x0000000000000000u, 0x0000000000000019u},
    {0x0000000000000000u, 0x000000000000007du},
    {0x0000000000000000u, 0x0000000000000271u},
    {0x0000000000000000u, 0x0000000000000c35u},
    {0x0000000000000000u, 0x0000000000003d09u},
    {0x0000000000000000u, 0x000000000001312du},
    {0x0000000000000000u, 0x000000000005f5e1u},
    {0x0000000000000000u, 0x00000000001dcd65u},
    {0x0000000000000000u, 0x00000000009502f9u},
    {0x0000000000000000u, 0x0000000002e90eddu},
    {0x0000000000000000u, 0x000000000e8d4a51u},
    {0x0000000000000000u, 0x0000000048c27395u},
    {0x0000000000000000u, 0x000000016bcc41e9u},
    {0x0000000000000000u, 0x000000071afd498du},
    {0x0000000000000000u, 0x0000002386f26fc1u},
    {0x0000000000000000u, 0x000000b1a2bc2ec5u},
    {0x0000000000000000u, 0x000003782dace9d9u},
    {0x0000000000000000u, 0x00001158e460913du},
    {0x0000000000000000u, 0x000056bc75e2d631u},
    {0x0000000000000000u, 0x0001b1ae4d6e2ef5u},
    {0x0000000000000000u, 0x000878678326eac9u},
    {0x0000000000000000u, 0x002a5a058fc295edu},
    {0x0000000000000000u, 0x00d3c21bcecceda1u},
    {0x0000000000000000u, 0x0422ca8b0a00a425u},
    {0x0000000000000000u, 0x14adf4b7320334b9u},
    {0x0000000000000000u, 0x6765c793fa10079du},
    {0x0000000000000002u, 0x04fce5e3e2502611u},
    {0x000000000000000au, 0x18f07d736b90be55u},
    {0x0000000000000032u, 0x7cb2734119d3b7a9u},
    {0x00000000000000fcu, 0x6f7c40458122964du},
    {0x00000000000004eeu, 0x2d6d415b85acef81u},
    {0x00000000000018a6u, 0xe32246c99c60ad85u},
    {0x0000000000007b42u, 0x6fab61f00de36399u},
    {0x000000000002684cu, 0x2e58e9b04570f1fdu},
    {0x00000000000c097cu, 0xe7bc90715b34b9f1u},
    {0x00000000003c2f70u, 0x86aed236c807a1b5u},
    {0x00000000012ced32u, 0xa16a1b11e8262889u},
    {0x0000000005e0a1fdu, 0x2712875988becaadu},
    {0x000000001d6329f1u, 0xc35ca4bfabb9f561u},
};
/* clang-format on */
/* A * 2^s * 10^j as an integer part and the numerator of its fraction over 2^sh. */
typedef struct scaled {
    uint64_t i;
    u128 f;
} scaled;

static scaled scale(uint32_t a, u128 p5, int shift)
{
    u128 n = (u128)a * p5;
    scaled r;
    if (shift >= 0) {
        r.i = (uint64_t)(n << shift);
        r.f = 0;
    } else {
        r.i = (uint64_t)(n >> -shift);
        r.f = n & (((u128)1 << -shift) - 1);
    }
    return r;
}
#endif

/* Digits of q (q > 0) into out[n..]: two at a time from the right. */
static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                     "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                     "8081828384858687888990919293949596979899";

static int count_digits(uint64_t q)
{
    int n = 1;
    for (int k = 1; k <= 10; k++) n += q >= pow10_u64[k];
    return n;
}

static void put_digits(char *end, uint64_t q, int nd)
{
    while (nd >= 2) {
        memcpy(end - 2, digit_pairs + 2 * (q % 100), 2);
        q /= 100;
        end -= 2;
        nd -= 2;
    }
    if (nd) end[-1] = (char)('0' + q);
}

/* The text of q * 10^k (q > 0, at most 10 digits), as format_decimal writes it. */
static size_t format_fast(uint64_t q, int k, int negative, char *out)
{
    if (q % 10000 == 0) {
        q /= 10000;
        k += 4;
    }
    if (q % 100 == 0) {
        q /= 100;
        k += 2;
    }
    while (q % 10 == 0) {
        q /= 10;
        k++;
    }
    const int count = count_digits(q), point = count + k;
    char *o = out;
    if (negative) *o++ = '-';
    if (k >= 0 && point <= 15) { /* an integer: digits, then k zeros */
        put_digits(o + count, q, count);
        o += count;
        for (int i = 0; i < k; i++) *o++ = '0';
    } else if (point > 0 && point <= 15) { /* digits with the point inside */
        const int frac = count - point;
        put_digits(o + point, q / pow10_u64[frac], point);
        o += point;
        *o++ = '.';
        put_digits(o + frac, q % pow10_u64[frac], frac);
        o += frac;
    } else if (point <= 0 && point > -7) { /* 0.000ddd */
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -point; i++) *o++ = '0';
        put_digits(o + count, q, count);
        o += count;
    } else { /* d.ddde-x */
        const uint64_t p10 = pow10_u64[count - 1];
        *o++ = (char)('0' + q / p10);
        if (count > 1) {
            *o++ = '.';
            put_digits(o + count - 1, q % p10, count - 1);
            o += count - 1;
        }
        int e = point - 1;
        *o++ = 'e';
        if (e < 0) {
            *o++ = '-';
            e = -e;
        }
        const int ne = e >= 10 ? 2 : 1; /* float exponents have at most two digits */
        put_digits(o + ne, (uint64_t)e, ne);
        o += ne;
    }
    *o = 0;
    return (size_t)(o - out);
}

size_t relic_f32_shortest(float v, char out[48])
{
#ifdef __SIZEOF_INT128__
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    const uint32_t bexp = (bits >> 23) & 0xFF, frac = bits & 0x7FFFFF;
    /* normal floats: v = M * 2^e with 2^23 <= M < 2^24 */
    if (bexp != 0 && bexp != 0xFF) {
        const int e = (int)bexp - 150, x = e + 23; /* 2^x <= v < 2^(x+1) */
        /* floor(x * log10(2)), exact for |x| < 1650: 10^est <= v < 10^(est+2) */
        const int est = (int)(((int64_t)x * 78913 - (x < 0 ? (1 << 18) - 1 : 0)) / (1 << 18));
        const int j = 8 - est; /* scale by 10^j: v * 10^j has 9 or 10 integer digits */
        if (j >= 1 && j <= 40) {
            const uint32_t m = frac | (1u << 23);
            const int shift = e - 2 + j; /* 10^j = 5^j * 2^j; values in units of 2^(e-2) */
            const int even = (m & 1) == 0;
            /* the lower neighbour is half as far at a power of two (but not below FLT_MIN) */
            const uint32_t below = (frac == 0 && bexp > 1) ? 1 : 2;
            /* v, lo and hi times 10^j: integer parts, and what the fractions
             * decide: v's against one half, whether lo's and hi's are zero */
            uint64_t vi, li, hiint;
            int vfrac, lo_exact, hi_exact;             /* vfrac: 0 none, 1 below half, 2 half, 3 above */
            if (j <= 15 && shift < 0 && shift > -64) { /* A * 5^j < 2^64: 64-bit arithmetic */
                const uint64_t p = pow5_table[j][1], mask = ((uint64_t)1 << -shift) - 1, half = (uint64_t)1 << (-shift - 1);
                const uint64_t nv = (uint64_t)(4 * m) * p, nl = (uint64_t)(4 * m - below) * p, nh = (uint64_t)(4 * m + 2) * p;
                const uint64_t fv = nv & mask;
                vi = nv >> -shift;
                li = nl >> -shift;
                hiint = nh >> -shift;
                vfrac = fv == 0 ? 0 : fv < half ? 1
                    : fv == half                ? 2
                                                : 3;
                lo_exact = (nl & mask) == 0;
                hi_exact = (nh & mask) == 0;
            } else {
                const u128 p5 = ((u128)pow5_table[j][0] << 64) | pow5_table[j][1];
                const scaled sv = scale(4 * m, p5, shift), lo = scale(4 * m - below, p5, shift),
                             hi = scale(4 * m + 2, p5, shift);
                const u128 half = shift < 0 ? (u128)1 << (-shift - 1) : 0;
                vi = sv.i;
                li = lo.i;
                hiint = hi.i;
                vfrac = sv.f == 0 ? 0 : sv.f < half ? 1
                    : sv.f == half                  ? 2
                                                    : 3;
                lo_exact = lo.f == 0;
                hi_exact = hi.f == 0;
            }
            const int nd = vi >= pow10_u64[9] ? 10 : 9;
            /* v rounded to p = 6..9 digits (half to even): the first inside the interval */
            for (int p = 6; p <= 9; p++) {
                const int d = nd - p; /* digits dropped */
                uint64_t q, c;
                if (d == 0) {
                    q = vi + (vfrac == 3 || (vfrac == 2 && (vi & 1)));
                    c = q;
                } else {
                    const uint64_t pw = pow10_u64[d], h = pw / 2;
                    q = div_pow10(vi, d);
                    const uint64_t r = vi - q * pw;
                    q += r > h || (r == h && (vfrac != 0 || (q & 1)));
                    c = q * pw;
                }
                /* lo < c < hi, or c on a bound that strtof rounds to v */
                if ((c > li || (even && c == li && lo_exact)) && (c < hiint || (c == hiint && (!hi_exact || even))))
                    return format_fast(q, d - j, bits >> 31, out);
            }
        }
    }
#endif
    return relic_f32_shortest_slow(v, out);
}
