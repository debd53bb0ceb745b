/* bench_lzss.c — LZSS (runtime/lzss*.c) decode and encode speed and ratio
 * beside zlib levels 1 and 6 on the same input, in the same run. Input: the
 * corpus's demo GRF and PID (../shared/corpus, real Trespasser data) tiled
 * to BENCH_MB MiB (default 64), or synthetic palette-indexed texture-like
 * data when the corpus is absent. Best of 3 runs; MB = 10^6 bytes of the
 * uncompressed data per second. First, before anything large is allocated:
 * the peak RSS of a streaming decode of 1 GiB of output (a 64 KiB
 * compressed block fed to the decoder again and again, through a 64 KiB
 * output buffer). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "relic_codec.h"
#include "relic_lzss.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static size_t load(const char *path, uint8_t *dst, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t n = fread(dst, 1, cap, f);
    fclose(f);
    return n;
}

static long peak_rss_kib(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

static void streaming_rss(void)
{
    static uint8_t block[65536], chunk[65536];
    static relic_lzss_decoder d;
    relic_error err;
    uint32_t s = 7;
    /* a valid stream: flag groups of 3 literals and 5 matches reaching back */
    for (size_t i = 0; i + 14 <= sizeof block; i += 14) {
        block[i] = 0x07;
        for (int k = 1; k <= 3; k++) { s = s * 1103515245u + 12345u; block[i + (size_t)k] = (uint8_t)(s >> 16); }
        for (int k = 0; k < 5; k++) { block[i + 4 + 2 * (size_t)k] = (uint8_t)(s >> (k * 3)); block[i + 5 + 2 * (size_t)k] = 0x0F; }
    }
    long before = peak_rss_kib();
    const uint64_t target = (uint64_t)1 << 30;
    double t0 = now();
    relic_lzss_decoder_init(&d, RELIC_LZSS_SPZ);
    while (d.total_out < target) {
        d.next_in = block;
        d.avail_in = sizeof block - sizeof block % 14;
        relic_lzss_result r;
        do {
            d.next_out = chunk;
            d.avail_out = sizeof chunk;
            r = relic_lzss_decode(&d, 0, &err);
        } while (r == RELIC_LZSS_NEED_OUTPUT);
    }
    double t = now() - t0;
    printf("streaming decode of %.2f GiB: %.0f MB/s, peak RSS %ld KiB (%ld KiB before)\n",
           (double)d.total_out / (double)target, (double)d.total_out / t / 1e6, peak_rss_kib(), before);
}

int main(void)
{
    streaming_rss();
    const char *mb_env = getenv("BENCH_MB");
    size_t size = (size_t)(mb_env ? atoi(mb_env) : 64) << 20;
    uint8_t *src = malloc(size), *back = malloc(size);
    size_t have = load("../shared/corpus/grf/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__demo.grf", src, size);
    have += load("../shared/corpus/pid/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__demo-130.pid", src + have, size - have);
    if (have == 0) {
        /* 8-bit texels: smooth gradients with noise from a 64-colour palette */
        uint32_t s = 1;
        for (size_t i = 0; i < size; i++) {
            s = s * 1103515245u + 12345u;
            src[i] = (uint8_t)(((i % 256) / 8 + (i / 65536) % 32 + ((s >> 16) & 3)) & 63);
        }
        have = size;
        printf("input: %zu MiB of synthetic texture-like data (corpus absent)\n", size >> 20);
    } else {
        printf("input: demo.grf + demo-130.pid (%zu bytes) tiled to %zu MiB\n", have, size >> 20);
    }
    for (size_t i = have; i < size; i++) src[i] = src[i % have];

    static const struct { const char *name; int lzss_level; int zlib_level; } codecs[] = {
        { "lzss fast", RELIC_LZSS_FAST, -1 },
        { "lzss greedy (original method)", RELIC_LZSS_GREEDY, -1 },
        { "lzss best", RELIC_LZSS_BEST, -1 },
        { "zlib -1", 0, 1 },
        { "zlib -6", 0, 6 },
    };
    printf("%-30s %10s %12s %12s\n", "codec", "ratio", "encode MB/s", "decode MB/s");
    for (size_t c = 0; c < sizeof codecs / sizeof codecs[0]; c++) {
        double best_enc = 1e30, best_dec = 1e30;
        size_t zsize = 0;
        for (int run = 0; run < 3; run++) {
            relic_buf z;
            relic_error err;
            relic_buf_init(&z, 0);
            double t0 = now();
            relic_status st = codecs[c].zlib_level >= 0
                ? relic_codec_zlib_encode(src, size, codecs[c].zlib_level, &z, &err)
                : relic_lzss_encode(RELIC_LZSS_SPZ, (relic_lzss_level)codecs[c].lzss_level, src, size, NULL, &z, &err);
            double t1 = now();
            if (st != RELIC_OK) { fprintf(stderr, "encode failed: %s\n", err.message); return 1; }
            st = codecs[c].zlib_level >= 0 ? relic_codec_zlib_decode(z.data, z.size, back, size, &err)
                                           : relic_lzss_decode_buffer(RELIC_LZSS_SPZ, z.data, z.size, back, size, &err);
            double t2 = now();
            if (st != RELIC_OK || memcmp(back, src, size)) { fprintf(stderr, "decode failed\n"); return 1; }
            if (t1 - t0 < best_enc) best_enc = t1 - t0;
            if (t2 - t1 < best_dec) best_dec = t2 - t1;
            zsize = z.size;
            relic_buf_free(&z);
            if (codecs[c].lzss_level == RELIC_LZSS_BEST || codecs[c].lzss_level == RELIC_LZSS_GREEDY) break; /* slow: one run */
        }
        printf("%-30s %9.3f %12.1f %12.1f\n", codecs[c].name, (double)zsize / (double)size,
               (double)size / best_enc / 1e6, (double)size / best_dec / 1e6);
    }
    /* the streaming decoder through a 64 KiB output buffer (memory: the ring) */
    {
        relic_buf z;
        relic_error err;
        relic_buf_init(&z, 0);
        relic_lzss_encode(RELIC_LZSS_SPZ, RELIC_LZSS_FAST, src, size, NULL, &z, &err);
        double best = 1e30;
        for (int run = 0; run < 3; run++) {
            relic_lzss_decoder d;
            static uint8_t chunk[65536];
            relic_lzss_decoder_init(&d, RELIC_LZSS_SPZ);
            d.next_in = z.data;
            d.avail_in = z.size;
            double t0 = now();
            relic_lzss_result r;
            do {
                d.next_out = chunk;
                d.avail_out = sizeof chunk;
                r = relic_lzss_decode(&d, 1, &err);
            } while (r == RELIC_LZSS_NEED_OUTPUT);
            double t = now() - t0;
            if (r != RELIC_LZSS_DONE || d.total_out != size) { fprintf(stderr, "streaming decode failed\n"); return 1; }
            if (t < best) best = t;
        }
        printf("%-30s %9s %12s %12.1f\n", "lzss streaming decode (64 KiB)", "", "", (double)size / best / 1e6);
        relic_buf_free(&z);
    }
    free(src);
    free(back);
    return 0;
}
