/* gff_float.c — floating-point values as neverwinter.nim's nwn_gff prints
 * them (neverwinter.nim, gffjson.nim; xoreos-tools, src/xml/gff3dumper.cpp and its open question 17, settled from the
 * sources: gffjson.nim puts a FLOAT field's f32 into a JSON float, i.e.
 * widened to f64, and Nim's JSON printer writes an f64 as its shortest
 * round-trip decimal, the one nearest the value among equally short ones;
 * fixed notation while the decimal point lies from 6 places left of the
 * first digit to 17 places right of it, else d.ddde±x; an integral value
 * ends in ".0"). So 0.1f prints as 0.10000000149011612 and 1e20 as 1e+20.
 *
 * Exact: candidate digits are computed in long double (64-bit significand
 * on x86), which decides every value not within about 2^-58 of a rounding
 * boundary; those, and every value where long double is no wider than
 * double, are decided by the C library's correctly rounded printf("%.*e")
 * and strtod. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relic_gff.h"

/* Nim's layout of the digits d[0..nd) (no trailing zeros) times 10^exp10. */
static size_t layout(const char *d, int nd, int exp10, int negative, char *out)
{
    size_t n = 0;
    int point = nd + exp10; /* digits before the decimal point */
    if (negative) out[n++] = '-';
    if (point > 0 && point <= 17) {
        if (point >= nd) {
            memcpy(out + n, d, (size_t)nd);
            n += (size_t)nd;
            for (int i = nd; i < point; i++) out[n++] = '0';
            out[n++] = '.';
            out[n++] = '0';
        } else {
            memcpy(out + n, d, (size_t)point);
            n += (size_t)point;
            out[n++] = '.';
            memcpy(out + n, d + point, (size_t)(nd - point));
            n += (size_t)(nd - point);
        }
    } else if (point <= 0 && point >= -6) {
        out[n++] = '0';
        out[n++] = '.';
        for (int i = 0; i < -point; i++) out[n++] = '0';
        memcpy(out + n, d, (size_t)nd);
        n += (size_t)nd;
    } else {
        int e = point - 1;
        out[n++] = d[0];
        if (nd > 1) {
            out[n++] = '.';
            memcpy(out + n, d + 1, (size_t)(nd - 1));
            n += (size_t)(nd - 1);
        }
        out[n++] = 'e';
        out[n++] = e < 0 ? '-' : '+';
        if (e < 0) e = -e;
        if (e >= 100) out[n++] = (char)('0' + e / 100);
        if (e >= 10) out[n++] = (char)('0' + e / 10 % 10);
        out[n++] = (char)('0' + e % 10);
    }
    out[n] = 0;
    return n;
}

/* The digits of m (>= 1) with trailing zeros moved into *exp10. */
static int digits_of(unsigned long long m, char *d, int *exp10)
{
    char rev[24];
    int n = 0;
    while (m % 10 == 0) {
        m /= 10;
        (*exp10)++;
    }
    do {
        rev[n++] = (char)('0' + m % 10);
        m /= 10;
    } while (m);
    for (int i = 0; i < n; i++) d[i] = rev[n - 1 - i];
    return n;
}

/* Does the decimal d[0..nd) * 10^exp10 read back as a? */
static int reads_back(const char *d, int nd, int exp10, double a)
{
    char b[48];
    memcpy(b, d, (size_t)nd);
    snprintf(b + nd, sizeof b - (size_t)nd, "e%d", exp10);
    return strtod(b, NULL) == a;
}

/* Exact: the shortest of 15, 16 or 17 correctly rounded digits that reads
 * back (fewer digits are found at 15: a shorter decimal inside the rounding
 * interval is the 15-digit rounding followed by zeros; a subnormal's
 * interval is wider, so there every length is tried). A power of two has a
 * narrower interval below, so there the next decimal up is tried too. */
static size_t slow_path(double a, int negative, char *out)
{
    int pow2 = frexp(a, &(int){0}) == 0.5;
    for (int p = a < DBL_MIN ? 1 : 15; p <= 17; p++) {
        char b[48], d[24];
        int nd = 0, exp10;
        snprintf(b, sizeof b, "%.*e", p - 1, a);
        d[nd++] = b[0];
        const char *q = b + 1;
        if (*q == '.')
            for (q++; *q >= '0' && *q <= '9'; q++) d[nd++] = *q;
        exp10 = atoi(q + 1) - (nd - 1);
        int ok = reads_back(d, nd, exp10, a);
        if (!ok && pow2 && p >= 16) {
            /* one unit up in the last digit */
            int i = nd - 1;
            while (i >= 0 && d[i] == '9') d[i--] = '0';
            if (i < 0) {
                memmove(d + 1, d, (size_t)nd);
                d[0] = '1';
                exp10++;
            } else d[i]++;
            ok = reads_back(d, nd, exp10, a);
        }
        if (!ok) continue;
        while (nd > 1 && d[nd - 1] == '0') {
            nd--;
            exp10++;
        }
        return layout(d, nd, exp10, negative, out);
    }
    return (size_t)snprintf(out, 32, "%s%.17g", negative ? "-" : "", a); /* not reached */
}

#if LDBL_MANT_DIG >= 64
/* 10^k for k in 0..340 (each literal correctly rounded by the compiler). */
/* clang-format off */
static const long double pow10_ld[341] = {
    1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L, 1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L,
    1e16L, 1e17L, 1e18L, 1e19L, 1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L, 1e28L, 1e29L, 1e30L,
    1e31L, 1e32L, 1e33L, 1e34L, 1e35L, 1e36L, 1e37L, 1e38L, 1e39L, 1e40L, 1e41L, 1e42L, 1e43L, 1e44L, 1e45L,
    1e46L, 1e47L, 1e48L, 1e49L, 1e50L, 1e51L, 1e52L, 1e53L, 1e54L, 1e55L, 1e56L, 1e57L, 1e58L, 1e59L, 1e60L,
    1e61L, 1e62L, 1e63L, 1e64L, 1e65L, 1e66L, 1e67L, 1e68L, 1e69L, 1e70L, 1e71L, 1e72L, 1e73L, 1e74L, 1e75L,
    1e76L, 1e77L, 1e78L, 1e79L, 1e80L, 1e81L, 1e82L, 1e83L, 1e84L, 1e85L, 1e86L, 1e87L, 1e88L, 1e89L, 1e90L,
    1e91L, 1e92L, 1e93L, 1e94L, 1e95L, 1e96L, 1e97L, 1e98L, 1e99L, 1e100L, 1e101L, 1e102L, 1e103L, 1e104L,
    1e105L, 1e106L, 1e107L, 1e108L, 1e109L, 1e110L, 1e111L, 1e112L, 1e113L, 1e114L, 1e115L, 1e116L, 1e117L,
    1e118L, 1e119L, 1e120L, 1e121L, 1e122L, 1e123L, 1e124L, 1e125L, 1e126L, 1e127L, 1e128L, 1e129L, 1e130L,
    1e131L, 1e132L, 1e133L, 1e134L, 1e135L, 1e136L, 1e137L, 1e138L, 1e139L, 1e140L, 1e141L, 1e142L, 1e143L,
    1e144L, 1e145L, 1e146L, 1e147L, 1e148L, 1e149L, 1e150L, 1e151L, 1e152L, 1e153L, 1e154L, 1e155L, 1e156L,
    1e157L, 1e158L, 1e159L, 1e160L, 1e161L, 1e162L, 1e163L, 1e164L, 1e165L, 1e166L, 1e167L, 1e168L, 1e169L,
    1e170L, 1e171L, 1e172L, 1e173L, 1e174L, 1e175L, 1e176L, 1e177L, 1e178L, 1e179L, 1e180L, 1e181L, 1e182L,
    1e183L, 1e184L, 1e185L, 1e186L, 1e187L, 1e188L, 1e189L, 1e190L, 1e191L, 1e192L, 1e193L, 1e194L, 1e195L,
    1e196L, 1e197L, 1e198L, 1e199L, 1e200L, 1e201L, 1e202L, 1e203L, 1e204L, 1e205L, 1e206L, 1e207L, 1e208L,
    1e209L, 1e210L, 1e211L, 1e212L, 1e213L, 1e214L, 1e215L, 1e216L, 1e217L, 1e218L, 1e219L, 1e220L, 1e221L,
    1e222L, 1e223L, 1e224L, 1e225L, 1e226L, 1e227L, 1e228L, 1e229L, 1e230L, 1e231L, 1e232L, 1e233L, 1e234L,
    1e235L, 1e236L, 1e237L, 1e238L, 1e239L, 1e240L, 1e241L, 1e242L, 1e243L, 1e244L, 1e245L, 1e246L, 1e247L,
    1e248L, 1e249L, 1e250L, 1e251L, 1e252L, 1e253L, 1e254L, 1e255L, 1e256L, 1e257L, 1e258L, 1e259L, 1e260L,
    1e261L, 1e262L, 1e263L, 1e264L, 1e265L, 1e266L, 1e267L, 1e268L, 1e269L, 1e270L, 1e271L, 1e272L, 1e273L,
    1e274L, 1e275L, 1e276L, 1e277L, 1e278L, 1e279L, 1e280L, 1e281L, 1e282L, 1e283L, 1e284L, 1e285L, 1e286L,
    1e287L, 1e288L, 1e289L, 1e290L, 1e291L, 1e292L, 1e293L, 1e294L, 1e295L, 1e296L, 1e297L, 1e298L, 1e299L,
    1e300L, 1e301L, 1e302L, 1e303L, 1e304L, 1e305L, 1e306L, 1e307L, 1e308L, 1e309L, 1e310L, 1e311L, 1e312L,
    1e313L, 1e314L, 1e315L, 1e316L, 1e317L, 1e318L, 1e319L, 1e320L, 1e321L, 1e322L, 1e323L, 1e324L, 1e325L,
    1e326L, 1e327L, 1e328L, 1e329L, 1e330L, 1e331L, 1e332L, 1e333L, 1e334L, 1e335L, 1e336L, 1e337L, 1e338L,
    1e339L, 1e340L,
};
/* clang-format on */

/* floor(x) for 0 <= x < 2^62, as a long double and as an integer. On x87
 * floorl and the cast each switch the rounding mode (fldcw, which stalls
 * the FPU: two thirds of this file's time); adding 2^63 rounds to an
 * integer in the current mode instead, exactly (ulp 1 from 2^63 to 2^64),
 * and the 64-bit significand of x + 2^63 then holds 2^63 + floor(x). */
static inline void floor_u64(long double x, long double *fl, unsigned long long *ifl)
{
#if LDBL_MANT_DIG == 64 && (defined(__x86_64__) || defined(__i386__))
    long double r = (x + 0x1p63L) - 0x1p63L; /* x rounded to an integer */
    if (r > x) r -= 1;
    const long double biased = r + 0x1p63L;
    uint64_t significand;
    memcpy(&significand, &biased, sizeof significand); /* x87 extended: significand first */
    *fl = r;
    *ifl = significand - ((uint64_t)1 << 63);
#else
    *fl = floorl(x);
    *ifl = (unsigned long long)*fl;
#endif
}

/* 5^k for k in 0..27 (5^27 < 2^63). */
static const uint64_t pow5_u64[28] = {
    1ull,
    5ull,
    25ull,
    125ull,
    625ull,
    3125ull,
    15625ull,
    78125ull,
    390625ull,
    1953125ull,
    9765625ull,
    48828125ull,
    244140625ull,
    1220703125ull,
    6103515625ull,
    30517578125ull,
    152587890625ull,
    762939453125ull,
    3814697265625ull,
    19073486328125ull,
    95367431640625ull,
    476837158203125ull,
    2384185791015625ull,
    11920928955078125ull,
    59604644775390625ull,
    298023223876953125ull,
    1490116119384765625ull,
    7450580596923828125ull,
};

/* Is a / 10^k exactly fl + 1/2 (|k| <= 27)? In integers: with a = odd *
 * 2^e (odd odd), a / 10^k = (2 fl + 1) / 2 exactly when e + 1 = k and odd
 * = (2 fl + 1) * 5^k (k >= 0), odd * 5^-k = 2 fl + 1 (k < 0): both sides
 * odd, so the powers of two must match. (An fmal did this, but glibc's
 * fmal saves and restores the FPU environment: it took most of the time
 * of values whose decimal is short, which widened floats often are.) */
static int is_half_above(double a, int k, unsigned long long fl)
{
    if (k > 27 || k < -27 || fl >= (1ull << 62)) return 0;
    uint64_t bits;
    memcpy(&bits, &a, sizeof bits);
    const int biased = (int)(bits >> 52 & 0x7FF);
    uint64_t m = bits & ((1ull << 52) - 1);
    int e = biased ? biased - 1075 : -1074;
    if (biased) m |= 1ull << 52;
    if (m == 0) return 0;
    while (!(m & 1)) {
        m >>= 1;
        e++;
    }
    if (e + 1 != k) return 0;
    const uint64_t odd = 2 * (uint64_t)fl + 1, p5 = pow5_u64[k >= 0 ? k : -k];
    return k >= 0 ? m % p5 == 0 && m / p5 == odd : odd % p5 == 0 && odd / p5 == m;
}

/* The fast path: 1 with the text in out, 0 when too close to call. */
static int fast_path(double a, int negative, char *out, size_t *len)
{
    /* the neighbours and binary exponent from the bits (a is normal and
     * positive: one up from DBL_MAX is infinity), as nextafter and frexp
     * give them, without their calls */
    uint64_t bits;
    double upd, downd;
    memcpy(&bits, &a, sizeof bits);
    const uint64_t ub = bits + 1, db = bits - 1;
    memcpy(&upd, &ub, sizeof upd);
    memcpy(&downd, &db, sizeof downd);
    long double la = a, up = upd, down = downd;
    long double hi = (la + up) / 2, lo = (la + down) / 2;  /* exact in long double */
    if (isinf(up)) hi = la + (la - (long double)down) / 2; /* DBL_MAX: the boundary to infinity */
    const int e2 = (int)(bits >> 52) - 1022;               /* frexp's exponent */
    int e = (int)floor((e2 - 1) * 0.30102999566398120);    /* floor(log10(a)) or one less */
    if (e + 1 >= 0 ? (e + 1 <= 340 && la >= pow10_ld[e + 1]) : (-(e + 1) <= 340 && la * pow10_ld[-(e + 1)] >= 1.0L)) e++;
    for (int p = 15; p <= 17; p++) {
        int k = e - p + 1; /* candidate m * 10^k with p digits */
        if (k > 340 || k < -340) return 0;
        long double scaled = k >= 0 ? la / pow10_ld[k] : la * pow10_ld[-k], fl;
        unsigned long long ifl;
        floor_u64(scaled, &fl, &ifl);
        long double frac = scaled - fl;
        unsigned long long m = ifl + (frac > 0.5L);
        /* scaled is within 2^-63 of the exact ratio (two roundings of 2^-64): which
         * way it rounds is too close to call within 4 times that, unless
         * scaled is the exact ratio and an exact tie (a widened f32 such as
         * 81.45880126953125 at 16 digits): then half to even, as printf
         * rounds it (10^27 is the largest power of ten long double holds
         * exactly) */
        if (fabsl(frac - 0.5L) <= scaled * 0x1p-61L) {
            int exact_tie = frac == 0.5L && is_half_above(a, k, ifl);
            if (!exact_tie) return 0;
            m = ifl + (ifl & 1);
        }
        if (m == 0) return 0;
        long double cand = k >= 0 ? (long double)m * pow10_ld[k] : (long double)m / pow10_ld[-k];
        long double margin = cand * 0x1p-58L;
        if (cand > lo + margin && cand < hi - margin) {
            char d[24];
            int exp10 = k, nd = digits_of(m, d, &exp10);
            *len = layout(d, nd, exp10, negative, out);
            return 1;
        }
        if (cand >= lo - margin && cand <= hi + margin) return 0; /* on a boundary */
        if (p >= 16 && up - la > la - down) return 0;             /* power of two: try above, exactly */
    }
    return 0;
}
#endif

size_t relic_gff_format_double(double v, char out[32])
{
    int negative = signbit(v) != 0;
    double a = fabs(v);
    if (isnan(v)) {
        memcpy(out, "nan", 4);
        return 3;
    }
    if (isinf(v)) {
        memcpy(out, negative ? "-inf" : "inf", negative ? 5 : 4);
        return negative ? 4 : 3;
    }
    if (a == 0) {
        memcpy(out, negative ? "-0.0" : "0.0", negative ? 5 : 4);
        return negative ? 4 : 3;
    }
    if (a < 9007199254740992.0 && a == floor(a)) {
        /* an integer below 2^53: its own digits */
        char d[24];
        int exp10 = 0, nd = digits_of((unsigned long long)a, d, &exp10);
        return layout(d, nd, exp10, negative, out);
    }
#if LDBL_MANT_DIG >= 64
    size_t n;
    if (a >= DBL_MIN && fast_path(a, negative, out, &n)) return n;
#endif
    return slow_path(a, negative, out);
}
