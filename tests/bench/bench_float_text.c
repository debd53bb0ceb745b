/* bench_float_text.c — `make bench`: relic_f32_shortest (runtime/core/float_text.c)
 * over every float. Each of the 2^32 bit patterns that is finite must print
 * as text strtof reads back to the same bits, and the integer fast path must
 * print the same text as the double+strtof path it replaced
 * (relic_f32_shortest_slow), so that no JSON dump changes, except where
 * that path rounded a near-tie the wrong way and the fast path's text is
 * the closer one of the same length (closer_of_two). Then the speed of
 * both on the floats of a walkmesh-like mix (ns per float, same run).
 * BENCH_FLOAT_STEP=N checks every Nth pattern only (a quick look). */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_rows.h"
#include "relic_gen.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Whether text a is as short as text b and strictly closer to v, both
 * reading back as v: where the double path's scaled value rounded a
 * near-tie of the last digit the wrong way (it holds v times a power of
 * ten in 53 bits), the exact fast path prints the closer text. Decided in
 * long double (64 bits, enough for a nine-digit text next to a float:
 * the two distances differ by far more than its rounding), and only when
 * the difference clears that rounding; 0 otherwise. */
static int closer_of_two(float v, const char *a, const char *b)
{
#if LDBL_MANT_DIG >= 64
    if (strlen(a) != strlen(b) || strtof(b, NULL) != v) return 0;
    const long double x = v, da = fabsl(strtold(a, NULL) - x), db = fabsl(strtold(b, NULL) - x);
    return da < db && db - da > fabsl(x) * 64 * LDBL_EPSILON;
#else
    (void)v, (void)a, (void)b;
    return 0;
#endif
}

int main(void)
{
    const char *env = getenv("BENCH_FLOAT_STEP");
    uint64_t step = env ? strtoull(env, NULL, 10) : 1;
    if (step == 0) step = 1;
    uint64_t checked = 0, bad = 0, closer = 0;
    double t0 = now();
    for (uint64_t u = 0; u <= UINT32_MAX; u += step) {
        uint32_t bits = (uint32_t)u;
        float v;
        memcpy(&v, &bits, sizeof v);
        if (!isfinite(v)) continue;
        char fast[48], slow[48] = "-";
        size_t n = relic_f32_shortest(v, fast);
        float back = strtof(fast, NULL);
        int same = memcmp(&back, &v, sizeof v) == 0 && n == strlen(fast);
        /* the slow path is the reference; the fast one only takes normal floats
         * of moderate size, so the rest print the same by construction */
        const uint32_t bexp = (bits >> 23) & 0xFF;
        if (same && bexp >= 20 && bexp <= 155) {
            relic_f32_shortest_slow(v, slow);
            same = strcmp(fast, slow) == 0;
            if (!same && closer_of_two(v, fast, slow)) {
                same = 1;
                if (closer < 20) printf("float %08x (%a): \"%s\", the closer of \"%s\" and it\n", bits, (double)v, fast, slow);
                closer++;
            }
        }
        if (!same) {
            if (bad < 20)
                fprintf(stderr, "float %08x (%a): \"%s\" (double+strtof path: \"%s\") reads back as %a\n", bits, (double)v, fast,
                        slow, (double)back);
            bad++;
        }
        checked++;
    }
    double t_all = now() - t0;
    printf("f32 text: %llu floats checked in %.0f s CPU, %llu wrong (%llu print the closer of two shortest texts)\n",
           (unsigned long long)checked, t_all, (unsigned long long)bad, (unsigned long long)closer);

    /* speed on a walkmesh-like mix: half-metre grid coordinates, unit normals, plane distances */
    enum { N = 1 << 20 };
    static float mix[N];
    uint32_t s = 12345;
    for (int i = 0; i < N; i++) {
        s = s * 1103515245u + 12345u;
        float a = (float)(s >> 8) * (1.0f / 16777216.0f);
        mix[i] = i % 3 == 0 ? (float)(s % 4096) * 0.5f : i % 3 == 1 ? sinf(a * 6.2831853f)
                                                                    : (a - 0.5f) * 200.0f;
    }
    char out[48];
    size_t total = 0;
    double t_fast = 1e9, t_slow = 1e9;
    for (int r = 0; r < 3; r++) {
        t0 = now();
        for (int i = 0; i < N; i++) total += relic_f32_shortest(mix[i], out);
        double t = now() - t0;
        if (t < t_fast) t_fast = t;
        t0 = now();
        for (int i = 0; i < N; i++) total += relic_f32_shortest_slow(mix[i], out);
        t = now() - t0;
        if (t < t_slow) t_slow = t;
    }
    printf("f32 text: %.1f ns per float (double+strtof path: %.1f ns; %.1f chars each)\n", t_fast / N * 1e9,
           t_slow / N * 1e9, (double)total / (6.0 * N));
    char rel[64], peer[64], ratio[32], in[96];
    bench_fmt(in, sizeof in, "%llu floats%s", (unsigned long long)checked, step == 1 ? " (all finite)" : " (sampled)");
    bench_row("f32 shortest text: every float reads back, same text as before", in,
              bench_fmt(rel, sizeof rel, "%llu wrong", (unsigned long long)bad), "-", "-", "0 wrong", bad == 0);
    bench_row("f32 shortest text (in process)", "2^20 walkmesh-like floats",
              bench_fmt(rel, sizeof rel, "%.1f ns/float", t_fast / N * 1e9),
              bench_fmt(peer, sizeof peer, "double+strtof %.1f ns", t_slow / N * 1e9),
              bench_fmt(ratio, sizeof ratio, "%.2fx", t_slow / t_fast), "-", -1);
    return bad != 0;
}
