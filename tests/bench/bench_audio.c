/* bench_audio.c — `make bench`: IMA ADPCM throughput of runtime/adpcm.c in
 * the game's block layout (spec/trespasser.md §4.4): decode MB/s of 16-bit
 * output and encode MB/s of 16-bit input on 120 s of synthetic stereo and
 * mono signal, best of 5; sox and ffmpeg (when installed) decoding the same
 * bytes in a WAV IMA ADPCM container in the same run (whole commands: wall
 * time including process start and file I/O, best of 3), with the largest
 * sample difference to each; and the peak RSS of a streaming decode of
 * 1 GiB of ADPCM input (a 64 KiB chunk of encoded data fed repeatedly,
 * 16 KiB output buffer), measured first, before anything large is
 * allocated. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "relic_adpcm.h"

#define RATE 22050u
#define SECONDS 120u

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long peak_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Chords with decaying envelopes plus a little noise; right channel a
 * delayed copy at half level. */
static void make_signal(unsigned ch, size_t frames, int16_t *out)
{
    const double pi = 3.14159265358979323846;
    static const double notes[4][3] = { { 261.6, 329.6, 392.0 }, { 220.0, 261.6, 329.6 },
                                        { 174.6, 220.0, 261.6 }, { 196.0, 246.9, 293.7 } };
    uint32_t r = 12345;
    for (size_t i = 0; i < frames; i++) {
        double t = (double)i / RATE, tt = fmod(t, 0.5), v = 0;
        int c = (int)(t / 0.5) % 4;
        for (int k = 0; k < 3; k++) v += sin(2 * pi * notes[c][k] * t);
        r = r * 1103515245u + 12345u;
        v = v * 7000 * exp(-2 * tt) + (double)((r >> 16) % 200) - 100;
        out[i * ch] = (int16_t)lrint(v);
        if (ch == 2) out[i * ch + 1] = (int16_t)(i >= 100 ? out[(i - 100) * ch] / 2 : 0);
    }
}

static void stream_rss(void)
{
    enum { CHUNK = 64 * 1024, OUT = 8192 };
    const uint32_t A = RELIC_ADPCM_GAME_BLOCK_STEREO;
    size_t frames = (size_t)CHUNK / A * relic_adpcm_block_frames(A, 2);
    static int16_t pcm[2 * (64 * 1024 / 2056) * 2049];
    static int16_t out[OUT];
    static relic_adpcm_decoder d;
    relic_buf enc;
    relic_error err;
    make_signal(2, frames, pcm);
    relic_buf_init(&enc, 0);
    if (relic_adpcm_encode(pcm, frames, 2, A, &enc, &err) != RELIC_OK) { fprintf(stderr, "encode: %s\n", err.message); exit(1); }
    const uint64_t total = (uint64_t)1 << 30;
    uint64_t fed = 0, produced = 0;
    relic_adpcm_decoder_init(&d, A, 2, 0, &err);
    double t0 = now();
    while (!d.done) {
        if (d.avail_in == 0 && fed < total) {
            size_t k = enc.size < total - fed ? enc.size : (size_t)(total - fed);
            d.next_in = enc.data;
            d.avail_in = k;
            fed += k;
        }
        d.next_out = out;
        d.avail_out = OUT;
        if (relic_adpcm_decoder_run(&d, fed == total && d.avail_in == 0 ? 1 : 0, &err) != RELIC_OK) {
            fprintf(stderr, "decode: %s\n", err.message);
            exit(1);
        }
        produced += OUT - d.avail_out;
        if (fed == total && d.avail_in == 0) {
            /* finish: keep draining */
            while (!d.done) {
                d.next_out = out;
                d.avail_out = OUT;
                relic_adpcm_decoder_run(&d, 1, &err);
                produced += OUT - d.avail_out;
            }
        }
    }
    double t = now() - t0;
    printf("streaming decode of 1 GiB ADPCM (64 KiB input chunks, 16 KiB output buffer): %.2f s, %.0f MB/s of output, "
           "decoder state %zu bytes, peak RSS %.2f MiB\n",
           t, (double)produced * 2 / t / 1e6, sizeof d, peak_rss_kib() / 1024.0);
    relic_buf_free(&enc);
}

static void write_ima_wav(const char *path, const uint8_t *data, size_t n, uint32_t A, unsigned ch)
{
    uint32_t spb = relic_adpcm_block_frames(A, ch);
    size_t blocks = n / A, len = blocks * A;
    uint8_t h[60];
    memcpy(h, "RIFF", 4);
    relic_store_u32le(h + 4, (uint32_t)(52 + len));
    memcpy(h + 8, "WAVEfmt ", 8);
    relic_store_u32le(h + 16, 20);
    relic_store_u16le(h + 20, 0x11);
    relic_store_u16le(h + 22, (uint16_t)ch);
    relic_store_u32le(h + 24, RATE);
    relic_store_u32le(h + 28, (uint32_t)((uint64_t)RATE * A / spb));
    relic_store_u16le(h + 32, (uint16_t)A);
    relic_store_u16le(h + 34, 4);
    relic_store_u16le(h + 36, 2);
    relic_store_u16le(h + 38, (uint16_t)spb);
    memcpy(h + 40, "fact", 4);
    relic_store_u32le(h + 44, 4);
    relic_store_u32le(h + 48, (uint32_t)(blocks * spb));
    memcpy(h + 52, "data", 4);
    relic_store_u32le(h + 56, (uint32_t)len);
    FILE *f = fopen(path, "wb");
    if (!f) { perror(path); exit(1); }
    fwrite(h, 1, sizeof h, f);
    fwrite(data, 1, len, f);
    fclose(f);
}

/* Run a decoder command (best of 3) and compare its raw output. */
static void external(const char *name, const char *cmd, const char *raw, const int16_t *mine, size_t values)
{
    char check[64];
    snprintf(check, sizeof check, "command -v %s >/dev/null 2>&1", name);
    if (system(check) != 0) { printf("  %-6s not installed: skipped (make deps installs it)\n", name); return; }
    double best = 1e9;
    for (int r = 0; r < 3; r++) {
        double t0 = now();
        if (system(cmd) != 0) { printf("  %-6s failed: %s\n", name, cmd); return; }
        double t = now() - t0;
        if (t < best) best = t;
    }
    FILE *f = fopen(raw, "rb");
    size_t n = 0, diffs = 0;
    int maxd = 0;
    int16_t buf[4096];
    size_t k;
    while (f && (k = fread(buf, 2, 4096, f)) > 0) {
        for (size_t i = 0; i < k && n + i < values; i++) {
            int d = abs(buf[i] - mine[n + i]);
            diffs += d != 0;
            if (d > maxd) maxd = d;
        }
        n += k;
    }
    if (f) fclose(f);
    printf("  %-6s %8.0f MB/s (whole command)  %zu samples, %zu differ from relic, largest difference %d\n", name,
           (double)values * 2 / best / 1e6, n, diffs, maxd);
}

static void run(unsigned ch)
{
    const uint32_t A = ch == 1 ? RELIC_ADPCM_GAME_BLOCK_MONO : RELIC_ADPCM_GAME_BLOCK_STEREO;
    size_t frames = (size_t)RATE * SECONDS;
    int16_t *pcm = malloc(frames * ch * sizeof *pcm);
    make_signal(ch, frames, pcm);
    relic_buf enc;
    relic_error err;
    double best = 1e9;
    for (int r = 0; r < 3; r++) {
        relic_buf_init(&enc, 0);
        double t0 = now();
        relic_adpcm_encode(pcm, frames, ch, A, &enc, &err);
        double t = now() - t0;
        if (t < best) best = t;
        if (r < 2) relic_buf_free(&enc);
    }
    printf("%s, %u s at %u Hz, %u-byte blocks: %zu bytes of ADPCM\n", ch == 1 ? "mono" : "stereo", SECONDS, RATE, A, enc.size);
    printf("  encode %8.1f MB/s of 16-bit input (step index searched per block)\n", (double)frames * ch * 2 / best / 1e6);
    size_t cap = (size_t)relic_adpcm_frames(enc.size, A, ch) * ch, got;
    int16_t *dec = malloc(cap * sizeof *dec);
    best = 1e9;
    for (int r = 0; r < 5; r++) {
        double t0 = now();
        relic_adpcm_decode(enc.data, enc.size, A, ch, 0, dec, cap, &got, &err);
        double t = now() - t0;
        if (t < best) best = t;
    }
    printf("  relic  %8.0f MB/s of 16-bit output (whole buffer)\n", (double)cap * 2 / best / 1e6);
    char wav[64], raw[64], cmd[256];
    snprintf(wav, sizeof wav, "/tmp/relic_bench_%d.wav", (int)getpid());
    snprintf(raw, sizeof raw, "/tmp/relic_bench_%d.raw", (int)getpid());
    write_ima_wav(wav, enc.data, enc.size, A, ch);
    size_t whole = enc.size / A * relic_adpcm_block_frames(A, ch) * ch;
    snprintf(cmd, sizeof cmd, "sox %s -t raw -e signed -b 16 -L %s 2>/dev/null", wav, raw);
    external("sox", cmd, raw, dec, whole);
    snprintf(cmd, sizeof cmd, "ffmpeg -loglevel error -y -i %s -f s16le %s", wav, raw);
    external("ffmpeg", cmd, raw, dec, whole);
    unlink(wav);
    unlink(raw);
    free(dec);
    free(pcm);
    relic_buf_free(&enc);
}

int main(void)
{
    stream_rss();
    run(2);
    run(1);
    return 0;
}
