/* bench_audio.c — `make bench`: IMA ADPCM throughput of runtime/codec/adpcm.c in
 * the game's block layout (Trespasser source, Lib/Audio/AudioADPCM.cpp): decode MB/s of 16-bit
 * output and encode MB/s of 16-bit input on 120 s of synthetic stereo and
 * mono signal, best of 5; sox and ffmpeg (when installed) decoding the same
 * bytes in a WAV IMA ADPCM container in the same run (whole commands: wall
 * time including process start and file I/O, best of 3), with the largest
 * sample difference to each, and the `relic convert CAU WAV` command on the
 * same data timed the same way, so that relic and ffmpeg are compared both
 * in-process and as whole commands; and the peak RSS of a streaming decode
 * of 1 GiB of ADPCM input read from a pipe by a child process (the parent
 * writes a 64 KiB chunk of encoded data repeatedly, so nothing of that size
 * exists in memory or on disk; the child's peak RSS comes from wait4 and is
 * checked against the 4 MiB target of issue 6). Environment: RELIC, the
 * relic command (default build/relic). */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE 1
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_rows.h"
#include "relic_audio.h"

/* relic_adpcm_encode with its search scratch in a heap arena freed at once */
static relic_status adpcm_encode_scratch(const int16_t *pcm, size_t frames, unsigned channels, uint32_t block_align,
                                         relic_buf *out, relic_error *err)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_status st = relic_adpcm_encode(pcm, frames, channels, block_align, &a, out, err);
    relic_arena_release(&a);
    return st;
}

#define RATE 22050u
#define SECONDS 120u

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Chords with decaying envelopes plus a little noise; right channel a
 * delayed copy at half level. */
static void make_signal(unsigned ch, size_t frames, int16_t *out)
{
    const double pi = 3.14159265358979323846;
    static const double notes[4][3] = {{261.6, 329.6, 392.0}, {220.0, 261.6, 329.6}, {174.6, 220.0, 261.6}, {196.0, 246.9, 293.7}};
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

/* The child: decode ADPCM read from fd 0 in 64 KiB reads with the
 * streaming decoder into a 16 KiB output buffer; print what it did. */
static int stream_child(uint32_t A, unsigned ch)
{
    static uint8_t in[64 * 1024];
    static uint8_t out[16384];
    static uint8_t state[RELIC_ADPCM_DECODE_MEMORY];
    relic_arena a;
    relic_arena_init_buffer(&a, state, sizeof state);
    relic_stream d;
    relic_error err;
    uint64_t produced = 0;
    int eof = 0;
    relic_stream_status r = RELIC_STREAM_NEED_INPUT;
    if (relic_adpcm_decode_init(&d, A, ch, 0, &a, &err) != RELIC_OK) {
        fprintf(stderr, "init: %s\n", err.message);
        return 1;
    }
    double t0 = now();
    while (r != RELIC_STREAM_DONE) {
        if (d.avail_in == 0 && !eof) {
            ssize_t k = read(0, in, sizeof in);
            if (k < 0) {
                perror("read");
                return 1;
            }
            if (k == 0) eof = 1;
            d.next_in = in;
            d.avail_in = (size_t)k;
        }
        d.next_out = out;
        d.avail_out = sizeof out;
        if ((r = relic_stream_run(&d, eof ? RELIC_STREAM_FINISH : RELIC_STREAM_MORE, &err)) == RELIC_STREAM_ERROR) {
            fprintf(stderr, "decode: %s\n", err.message);
            return 1;
        }
        produced += sizeof out - d.avail_out;
    }
    double t = now() - t0;
    printf("streaming decode of %.2f GiB of ADPCM from a pipe (64 KiB reads, 16 KiB output buffer, decoder state %zu bytes): "
           "%.2f s, %.0f MB/s of output\n",
           (double)d.total_in / (1u << 30), sizeof state, t, (double)produced / t / 1e6);
    fflush(stdout);
    return 0;
}

static void stream_rss(void)
{
    enum { CHUNK = 64 * 1024 };
    const uint32_t A = RELIC_ADPCM_GAME_BLOCK_STEREO;
    size_t frames = (size_t)CHUNK / A * relic_adpcm_block_frames(A, 2);
    static int16_t pcm[2 * (64 * 1024 / 2056) * 2049];
    relic_buf enc;
    relic_error err;
    int fd[2];
    make_signal(2, frames, pcm);
    relic_buf_init(&enc, 0);
    if (adpcm_encode_scratch(pcm, frames, 2, A, &enc, &err) != RELIC_OK) {
        fprintf(stderr, "encode: %s\n", err.message);
        exit(1);
    }
    fflush(stdout);
    if (pipe(fd) != 0) {
        perror("pipe");
        exit(1);
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(1);
    }
    if (pid == 0) {
        close(fd[1]);
        if (dup2(fd[0], 0) < 0) _exit(1);
        close(fd[0]);
        _exit(stream_child(A, 2));
    }
    close(fd[0]);
    const uint64_t total = (uint64_t)1 << 30;
    for (uint64_t fed = 0; fed < total;) {
        size_t k = enc.size < total - fed ? enc.size : (size_t)(total - fed);
        ssize_t w = write(fd[1], enc.data, k);
        if (w <= 0) {
            perror("write");
            break;
        }
        fed += (uint64_t)w;
    }
    close(fd[1]);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        printf("streaming decode: the child failed\n");
    } else {
        double mib = ru.ru_maxrss / 1024.0;
        printf("  peak RSS of the decoding process %.2f MiB (target under 4 MiB: %s)\n", mib, mib < 4.0 ? "met" : "NOT met");
    }
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
    if (!f) {
        perror(path);
        exit(1);
    }
    fwrite(h, 1, sizeof h, f);
    fwrite(data, 1, len, f);
    fclose(f);
}

/* Run a decoder command (best of 3) and compare its raw output (mine
 * NULL: no comparison); returns the best wall time, 0 when not run. */
static double external(const char *name, const char *cmd, const char *raw, const int16_t *mine, size_t values)
{
    char check[300];
    snprintf(check, sizeof check, "command -v %s >/dev/null 2>&1", name);
    if (system(check) != 0) {
        printf("  %-6s not installed: skipped (make deps installs it)\n", name);
        return 0;
    }
    double best = 1e9;
    for (int r = 0; r < 3; r++) {
        double t0 = now();
        if (system(cmd) != 0) {
            printf("  %-6s failed: %s\n", name, cmd);
            return 0;
        }
        double t = now() - t0;
        if (t < best) best = t;
    }
    if (!mine) {
        printf("  %-6s %8.0f MB/s (whole command: CAU to 16-bit WAV)\n", "relic", (double)values * 2 / best / 1e6);
        return best;
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
    return best;
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
        adpcm_encode_scratch(pcm, frames, ch, A, &enc, &err);
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
    double t_relic = best;
    printf("  relic  %8.0f MB/s of 16-bit output (whole buffer)\n", (double)cap * 2 / best / 1e6);
    char wav[64], raw[64], cau[64], out[64], cmd[512];
    snprintf(wav, sizeof wav, "/tmp/relic_bench_%d.wav", (int)getpid());
    snprintf(raw, sizeof raw, "/tmp/relic_bench_%d.raw", (int)getpid());
    snprintf(cau, sizeof cau, "/tmp/relic_bench_%d.cau", (int)getpid());
    snprintf(out, sizeof out, "/tmp/relic_bench_%d.out.wav", (int)getpid());
    write_ima_wav(wav, enc.data, enc.size, A, ch);
    size_t whole = enc.size / A * relic_adpcm_block_frames(A, ch) * ch;
    snprintf(cmd, sizeof cmd, "sox %s -t raw -e signed -b 16 -L %s 2>/dev/null", wav, raw);
    external("sox", cmd, raw, dec, whole);
    snprintf(cmd, sizeof cmd, "ffmpeg -loglevel error -y -i %s -f s16le %s", wav, raw);
    double t_ffmpeg = external("ffmpeg", cmd, raw, dec, whole);
    /* the same whole blocks as a CAU sample, through the relic command */
    relic_cau_file m;
    relic_arena a;
    relic_buf cb;
    memset(&m, 0, sizeof m);
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&cb, 0);
    memcpy(m.header.magic, RELIC_CAU_SAMPLE_HEADER_MAGIC_VALUE, sizeof m.header.magic);
    m.header.version = RELIC_AUDIO_CAU_VERSION;
    m.header.data_offset = RELIC_CAU_SAMPLE_HEADER_SIZE;
    m.header.block_align = A;
    m.header.data_size = (uint32_t)(enc.size / A * A);
    m.header.decoded_size = (uint32_t)(whole * 2);
    m.header.sample_rate = RATE;
    m.header.bits = 16;
    m.header.channels = (uint8_t)ch;
    m.header.compression = RELIC_CAU_COMPRESSION_IMA_ADPCM;
    m.data = enc.data;
    m.data_count = m.header.data_size;
    const char *relic = getenv("RELIC") ? getenv("RELIC") : "build/relic";
    double t_cmd = 0;
    FILE *f;
    if (relic_cau_write(&m, &cb, &err) == RELIC_OK && (f = fopen(cau, "wb")) != NULL) {
        fwrite(cb.data, 1, cb.size, f);
        fclose(f);
        snprintf(cmd, sizeof cmd, "%s convert %s %s >/dev/null", relic, cau, out);
        t_cmd = external(relic, cmd, NULL, NULL, whole);
    }
    if (t_ffmpeg > 0) {
        /* ffmpeg decodes the whole blocks only; relic's in-process figure covers the short final block too */
        double ffmpeg_rate = (double)whole * 2 / t_ffmpeg, relic_rate = (double)cap * 2 / t_relic;
        printf("  relic vs ffmpeg in this run: in-process decode %.1fx ffmpeg's command", relic_rate / ffmpeg_rate);
        if (t_cmd > 0) printf(", relic's command %.1fx ffmpeg's command", t_ffmpeg / t_cmd);
        printf(" (at least as fast: %s)\n", relic_rate >= ffmpeg_rate && (t_cmd == 0 || t_cmd <= t_ffmpeg) ? "yes" : "NO");
    }
    unlink(cau);
    unlink(out);
    relic_buf_free(&cb);
    relic_arena_release(&a);
    unlink(wav);
    unlink(raw);
    free(dec);
    free(pcm);
    relic_buf_free(&enc);
}

/* ---- whole commands on >= 30 MB of a real clip's blocks -------------- */

/* Run argv with stdout and stderr to /dev/null; CPU seconds (user + sys)
 * and peak RSS (MiB) of the child from wait4. Returns 0 on success. */
static int run_child(char *const argv[], double *cpu, double *rss_mib)
{
    fflush(stdout);
    /* fork, not posix_spawn: a child sharing this process's memory until
     * exec would report this process's peak as its own */
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        FILE *null = freopen("/dev/null", "w", stdout);
        (void)null;
        null = freopen("/dev/null", "w", stderr);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    *cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
    *rss_mib = ru.ru_maxrss / 1024.0;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The commands argvs[0..k) run in turn, `rounds` times (alternating, so a
 * change of machine load falls on every command alike): each one's median
 * CPU seconds in t[] (0 when it could not run) and largest peak RSS. */
#define MAX_ROUNDS 9
static void alternating_median(char *const *const argvs[], int k, int rounds, double t[], double rss_mib[])
{
    double runs[3][MAX_ROUNDS];
    int ok[3] = {1, 1, 1};
    for (int c = 0; c < k; c++) rss_mib[c] = 0;
    for (int r = 0; r < rounds; r++)
        for (int c = 0; c < k; c++) {
            double cpu, rss;
            if (!ok[c] || run_child(argvs[c], &cpu, &rss) != 0) {
                ok[c] = 0;
                continue;
            }
            runs[c][r] = cpu;
            if (rss > rss_mib[c]) rss_mib[c] = rss;
        }
    for (int c = 0; c < k; c++) {
        qsort(runs[c], (size_t)rounds, sizeof runs[c][0], cmp_double);
        t[c] = ok[c] ? runs[c][rounds / 2] : 0;
    }
}

/* 1 when file a from byte skip_a on equals file b, and both hold n bytes there. */
static int same_bytes(const char *a, long skip_a, const char *b, uint64_t *n)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb && fseek(fa, skip_a, SEEK_SET) == 0;
    static uint8_t ba[1 << 16], bb[1 << 16];
    *n = 0;
    while (same) {
        size_t ka = fread(ba, 1, sizeof ba, fa), kb = fread(bb, 1, sizeof bb, fb);
        if (ka != kb || memcmp(ba, bb, ka) != 0) same = 0;
        *n += ka;
        if (ka == 0) break;
    }
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    return same;
}

/* The largest IMA ADPCM CAU of the corpus with the given channel count. */
static int pick_clip(const char *dir, unsigned ch, char *path, size_t cap)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls -S %s/*.cau 2>/dev/null", dir);
    FILE *ls = popen(cmd, "r");
    int found = 0;
    char line[512];
    while (ls && !found && fgets(line, sizeof line, ls)) {
        line[strcspn(line, "\n")] = 0;
        relic_mapping m;
        relic_cau_view v;
        relic_error err;
        if (relic_map_file(line, 0, &m, &err) != RELIC_OK) continue;
        if (relic_cau_validate(m.bytes.data, m.bytes.size, &v, &err) == RELIC_OK &&
            v.values.header.compression == RELIC_CAU_COMPRESSION_IMA_ADPCM && v.values.header.channels == ch &&
            v.values.header.data_size >= v.values.header.block_align) {
            snprintf(path, cap, "%s", line);
            found = 1;
        }
        relic_unmap(&m);
    }
    if (ls) pclose(ls);
    return found;
}

static void big_clip(const char *dir, unsigned ch)
{
    char clip[512];
    if (!pick_clip(dir, ch, clip, sizeof clip)) {
        printf("  no %s IMA ADPCM CAU in %s: skipped\n", ch == 1 ? "mono" : "stereo", dir);
        return;
    }
    relic_mapping m;
    relic_cau_view v;
    relic_error err;
    if (relic_map_file(clip, 0, &m, &err) != RELIC_OK || relic_cau_validate(m.bytes.data, m.bytes.size, &v, &err) != RELIC_OK) return;
    const relic_cau_sample_header *h = &v.values.header;
    const uint32_t A = h->block_align;
    size_t whole = h->data_size / A * A, target = (size_t)30 << 20;
    size_t reps = (target + whole - 1) / whole;
    relic_buf big;
    relic_buf_init(&big, 0);
    for (size_t r = 0; r < reps; r++) relic_buf_append(&big, v.base + h->data_offset, whole);
    char cau[64], wav[64], out[64], raw[64];
    snprintf(cau, sizeof cau, "/tmp/relic_bench_big_%d.cau", (int)getpid());
    snprintf(wav, sizeof wav, "/tmp/relic_bench_big_%d.ima.wav", (int)getpid());
    snprintf(out, sizeof out, "/tmp/relic_bench_big_%d.out.wav", (int)getpid());
    snprintf(raw, sizeof raw, "/tmp/relic_bench_big_%d.raw", (int)getpid());
    write_ima_wav(wav, big.data, big.size, A, ch);
    {
        relic_cau_file c;
        relic_buf cb;
        memset(&c, 0, sizeof c);
        relic_buf_init(&cb, 0);
        c.header = *h;
        c.header.data_offset = RELIC_CAU_SAMPLE_HEADER_SIZE;
        c.header.caption_offset = 0;
        c.header.data_size = (uint32_t)big.size;
        c.header.decoded_size = (uint32_t)(relic_adpcm_frames(big.size, A, ch) * ch * 2);
        c.data = big.data;
        c.data_count = big.size;
        FILE *f = fopen(cau, "wb");
        if (relic_cau_write(&c, &cb, &err) != RELIC_OK || !f) {
            printf("  cannot write %s\n", cau);
            if (f) fclose(f);
            return;
        }
        fwrite(cb.data, 1, cb.size, f);
        fclose(f);
        relic_buf_free(&cb);
    }
    const char *relic = getenv("RELIC") ? getenv("RELIC") : "build/relic";
    double out_mb = (double)relic_adpcm_frames(big.size, A, ch) * ch * 2 / 1e6, in_mb = big.size / 1e6;
    const char *base = strrchr(clip, '/');
    printf("%s: %s's %zu blocks repeated %zu times: %.1f MB of IMA ADPCM -> %.1f MB of 16-bit output\n",
           ch == 1 ? "mono" : "stereo", base ? base + 1 : clip, whole / A, reps, in_mb, out_mb);
    /* a forked child starts with this process's resident pages: drop the input first */
    relic_buf_free(&big);
    relic_unmap(&m);
    printf("  %-8s %10s %12s %10s\n", "command", "CPU s", "peak RSS", "MB/s CPU");
    char *relic_argv[] = {(char *)relic, "convert", cau, out, NULL};
    char *sox_argv[] = {"sox", wav, "-t", "raw", "-e", "signed", "-b", "16", "-L", raw, NULL};
    char *ff_argv[] = {"ffmpeg", "-loglevel", "error", "-y", "-i", wav, "-f", "s16le", raw, NULL};
    /* sox last in each round: its raw output is compared below */
    char *const *const argvs[3] = {relic_argv, ff_argv, sox_argv};
    double t[3], rss[3];
    alternating_median(argvs, 3, 5, t, rss);
    const double t_relic = t[0], t_ff = t[1], t_sox = t[2], rss_relic = rss[0], rss_ff = rss[1], rss_sox = rss[2];
    printf("  %-8s %10.3f %9.2f MiB %10.0f\n", "relic", t_relic, rss_relic, t_relic > 0 ? out_mb / t_relic : 0);
    if (t_ff > 0) printf("  %-8s %10.3f %9.2f MiB %10.0f\n", "ffmpeg", t_ff, rss_ff, out_mb / t_ff);
    else printf("  ffmpeg   not installed or failed: skipped\n");
    if (t_sox > 0) printf("  %-8s %10.3f %9.2f MiB %10.0f\n", "sox", t_sox, rss_sox, out_mb / t_sox);
    else printf("  sox      not installed or failed: skipped\n");
    double peer = t_sox > 0 && (t_ff == 0 || t_sox < t_ff) ? t_sox : t_ff;
    if (t_relic > 0 && peer > 0)
        printf("  faster peer / relic (CPU): %.2fx (target >= 2x: %s); relic peak RSS %.2f MiB (target <= 8 MiB: %s)\n",
               peer / t_relic, peer / t_relic >= 2.0 ? "met" : "NOT met", rss_relic, rss_relic <= 8.0 ? "met" : "NOT met");
    int same = 0;
    if (t_sox > 0 && t_relic > 0) {
        uint64_t n;
        same = same_bytes(out, RELIC_WAV_HEADER_SIZE, raw, &n);
        printf("  relic's WAV data %s sox's output sample for sample (%llu bytes)\n", same ? "equal" : "DIFFER from",
               (unsigned long long)n);
    }
    if (t_relic > 0 && peer > 0) {
        char work[96], input[160], rel[64], pr[96], ratio[32];
        snprintf(work, sizeof work, "IMA ADPCM decode command (%s), equal to sox: %s", ch == 1 ? "mono" : "stereo",
                 same ? "yes" : "NO");
        snprintf(input, sizeof input, "%.1f MB of a corpus clip's blocks (%.1f MB out)", in_mb, out_mb);
        snprintf(rel, sizeof rel, "%.3f s CPU, peak %.1f MiB", t_relic, rss_relic);
        snprintf(pr, sizeof pr, "%s %.3f s", peer == t_sox ? "sox" : "ffmpeg", peer);
        snprintf(ratio, sizeof ratio, "%.2fx faster", peer / t_relic);
        bench_row(work, input, rel, pr, ratio, ">= 2x faster, <= 8 MiB", peer / t_relic >= 2.0 && rss_relic <= 8.0 && same ? 1 : 0);
    }
    unlink(cau);
    unlink(wav);
    unlink(out);
    unlink(raw);
}

static void big_commands(void)
{
    const char *dir = getenv("RELIC_CORPUS_CAU") ? getenv("RELIC_CORPUS_CAU") : "../shared/corpus/cau";
    long size = 0, pages = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    if (statm) {
        if (fscanf(statm, "%ld %ld", &size, &pages) != 2) pages = 0;
        fclose(statm);
    }
    printf("whole commands, CPU time of the child (user + sys, getrusage via wait4), median of 5 alternating rounds; peak RSS the largest\n"
           "(a forked child starts from this process's %.1f MiB resident, a floor of the figures):\n",
           pages * (double)sysconf(_SC_PAGESIZE) / (1 << 20));
    big_clip(dir, 2);
    big_clip(dir, 1);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "commands")) { /* only the whole-command table */
        big_commands();
        return 0;
    }
    stream_rss(); /* first, while this process is small: the child starts as its copy */
    big_commands();
    run(2);
    run(1);
    return 0;
}
