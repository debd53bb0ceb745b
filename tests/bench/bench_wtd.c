/* bench_wtd.c — `make bench`: Trespasser WTD terrain decode and encode
 * (runtime/wtd_*.c) in vertices (grid cells) per second and MB/s of the
 * file, on a synthetic 4096 x 4096 terrain made here by relic's own
 * encoder (bilinear hills from a coarse random control grid plus a few
 * sharp ridges, 16-bit heights, like the sparse trees GUIApp writes) and on
 * the real ../shared/corpus/wtd file when present (skipped, saying so,
 * otherwise); best of 3 runs; peak RSS. Decoding checks the grid round
 * trips exactly. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "relic_wtd.h"

#define CORPUS_WTD "../shared/corpus/wtd/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__pv.wtd"
#define SYNTH_N 4096u
#define CONTROL 33u /* control points per side */
#define RUNS 3

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of this process: the machine may be shared, wall time then overstates. */
static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng = 42;
static uint32_t rnd(void)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(rng >> 33);
}

static void make_terrain(int32_t *g, uint32_t n)
{
    static int32_t ctl[CONTROL * CONTROL];
    for (uint32_t i = 0; i < CONTROL * CONTROL; i++) ctl[i] = 8000 + (int32_t)(rnd() % 40000);
    const uint32_t cell = n / (CONTROL - 1);
    for (uint32_t y = 0; y < n; y++)
        for (uint32_t x = 0; x < n; x++) {
            uint32_t cx = x / cell, cy = y / cell;
            int64_t fx = x % cell, fy = y % cell;
            int64_t a = ctl[cy * CONTROL + cx], b = ctl[cy * CONTROL + cx + 1], c = ctl[(cy + 1) * CONTROL + cx],
                    d = ctl[(cy + 1) * CONTROL + cx + 1];
            int64_t v = (a * (cell - fx) * (cell - fy) + b * fx * (cell - fy) + c * (cell - fx) * fy + d * fx * fy) /
                ((int64_t)cell * cell);
            /* ridges along a few lines */
            if ((x + 2 * y) % 1024 < 8) v += 1500;
            g[(size_t)y * n + x] = (int32_t)v;
        }
}

static int bench_decode(const char *what, const uint8_t *data, size_t size, const int32_t *expect)
{
    double best = 1e30, best_cpu = 1e30;
    uint32_t n = 0;
    for (int r = 0; r < RUNS; r++) {
        relic_arena a;
        relic_arena_init_heap(&a, 0);
        relic_wtd_terrain t;
        relic_error err;
        double t0 = now(), c0 = cpu();
        if (relic_wtd_decode_terrain(data, size, &a, &t, &err) != RELIC_OK) {
            fprintf(stderr, "%s: decode: %s: %s\n", what, err.path, err.message);
            return 1;
        }
        double dt = now() - t0, dc = cpu() - c0;
        if (dt < best) best = dt;
        if (dc < best_cpu) best_cpu = dc;
        n = t.n;
        if (expect && memcmp(t.heights, expect, (size_t)n * n * sizeof *expect)) {
            fprintf(stderr, "%s: decoded grid differs from the input\n", what);
            return 1;
        }
        relic_arena_release(&a);
    }
    double cells = (double)n * n;
    printf("%-10s decode %5u x %-5u %7.3f s (CPU %.3f s)  %7.1f M vertices/s  %7.2f MB/s of file (%zu bytes)%s\n", what, n,
           n, best, best_cpu, cells / best / 1e6, (double)size / best / 1e6, size,
           n != SYNTH_N         ? ""
               : best < 1.0     ? "  [< 1 s target met]"
               : best_cpu < 1.0 ? "  [< 1 s target met in CPU time; wall time waited on a busy machine]"
                                : "  [over the 1 s target]");
    return 0;
}

static int bench_encode(const char *what, const int32_t *g, uint32_t n, const relic_wtd_mapping *m, relic_buf *keep)
{
    double best = 1e30, best_cpu = 1e30;
    relic_wtd_encode_stats st;
    for (int r = 0; r < RUNS; r++) {
        relic_arena a;
        relic_arena_init_heap(&a, 0);
        relic_buf out;
        relic_buf_init(&out, 0);
        relic_error err;
        double t0 = now(), c0 = cpu();
        if (relic_wtd_encode(g, n, m, NULL, &a, &out, &st, &err) != RELIC_OK) {
            fprintf(stderr, "%s: encode: %s: %s\n", what, err.path, err.message);
            return 1;
        }
        double dt = now() - t0, dc = cpu() - c0;
        if (dt < best) best = dt;
        if (dc < best_cpu) best_cpu = dc;
        relic_arena_release(&a);
        if (keep && r == 0) *keep = out;
        else relic_buf_free(&out);
    }
    double cells = (double)n * n;
    printf("%-10s encode %5u x %-5u %7.3f s (CPU %.3f s)  %7.1f M vertices/s  %7.2f MB/s of file (%zu bytes, %u significant nodes, %u fixed-point passes)\n",
           what, n, n, best, best_cpu, cells / best / 1e6, (double)st.bytes / best / 1e6, st.bytes, st.significant, st.iterations);
    return 0;
}

int main(void)
{
    const uint32_t n = SYNTH_N;
    int32_t *g = malloc((size_t)n * n * sizeof *g);
    if (!g) return 1;
    make_terrain(g, n);
    relic_wtd_mapping m;
    relic_wtd_mapping_init(&m, n, -512, -512, 0.25, 1.0 / 128);
    relic_buf file;
    relic_buf_init(&file, 0);
    if (bench_encode("synthetic", g, n, &m, &file)) return 1;
    if (bench_decode("synthetic", file.data, file.size, g)) return 1;
    relic_buf_free(&file);
    free(g);

    FILE *fp = fopen(CORPUS_WTD, "rb");
    if (!fp) {
        printf("note: %s not found: the real-file benchmark is skipped\n", CORPUS_WTD);
    } else {
        fseek(fp, 0, SEEK_END);
        long size = ftell(fp);
        fseek(fp, 0, SEEK_SET);
        uint8_t *data = malloc((size_t)size);
        if (!data || fread(data, 1, (size_t)size, fp) != (size_t)size) return 1;
        fclose(fp);
        if (bench_decode("pv.wtd", data, (size_t)size, NULL)) return 1;
        relic_arena a;
        relic_arena_init_heap(&a, 0);
        relic_wtd_terrain t;
        relic_error err;
        if (relic_wtd_decode_terrain(data, (size_t)size, &a, &t, &err) != RELIC_OK) return 1;
        relic_buf again;
        relic_buf_init(&again, 0);
        if (bench_encode("pv.wtd", t.heights, t.n, &t.header.mapping, &again)) return 1;
        printf("pv.wtd     re-encoded file is %s the original\n",
               again.size == (size_t)size && !memcmp(again.data, data, (size_t)size) ? "byte-identical to" : "DIFFERENT from");
        relic_buf_free(&again);
        relic_arena_release(&a);
        free(data);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("peak RSS %.0f MB\n", (double)ru.ru_maxrss / 1024);
    return 0;
}
