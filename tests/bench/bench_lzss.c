/* bench_lzss.c — SPZ/SWP benchmarks (runtime/lzss*.c, runtime/swp_*.c):
 *  1. input: an SWP-like 64 MB (BENCH_MB, default 64; MB = 10^6 bytes)
 *     made by relic's own texture writer (relic_swp_pack): textures whose
 *     colours come from the demo PID's palettes (../shared/corpus/pid;
 *     synthetic palettes when absent), 2/3 palettised 8-bit, 1/3 16-bit
 *     bump-mapped, smooth patterns with noise, with their mip levels; the
 *     packed SWP is tiled to the size;
 *  2. LZSS decode and encode MB/s (fast, greedy = the original encoder's
 *     method, best) and ratio, beside zlib levels 1 and 6 on the same
 *     input in the same run (best of 3; greedy and best: one run); the
 *     streaming decoder and the streaming fast encoder in 64 KiB pieces
 *     (relic_stream.h; the encoder checked against the one-call bytes);
 *  3. peak RSS of a streaming SPZ decode of 16 x the input read through a
 *     pipe (1.024 GB at the default size): this program re-runs itself (--stream-decode) as the decoder
 *     reading standard input, fed the fast-encoded input 16 times over
 *     (every pass decodes to the same number of bytes); nothing on disk;
 *  4. textures decoded per second: every raster of the packed PID to RGBA,
 *     from the SWP in memory and from the SPZ stream walk.
 * Times are CPU seconds of this process (see now()). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "relic_codec.h"
#include "relic_lzss.h"
#include "relic_swp.h"

#define MB 1e6
#define TEX_SIDE 256u
#define STREAM_PASSES 16u
#define CHUNK 65536u

static const char corpus_pid[] =
    "../shared/corpus/pid/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__demo-130.pid";

/* CPU time of this process: the CI machine is shared (2 cores, many jobs), where
 * wall time would measure the scheduler; single-threaded code, so the two agree
 * on an idle machine */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* VmHWM of this process (the peak resident set since exec), KiB */
static long peak_rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6)) kib = strtol(line + 6, NULL, 10);
    if (f) fclose(f);
    if (kib < 0) {
        struct rusage u;
        getrusage(RUSAGE_SELF, &u);
        kib = u.ru_maxrss;
    }
    return kib;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return 0;
        p += w;
        n -= (size_t)w;
    }
    return 1;
}

/* ---- 3. the decoder side of the pipe ---- */
static int stream_decode(void)
{
    static uint8_t in[CHUNK], out[CHUNK];
    static uint8_t state[8192];
    relic_arena a;
    relic_arena_init_buffer(&a, state, sizeof state);
    relic_stream d;
    relic_error err;
    uint8_t hdr[RELIC_SPZ_HEADER_SIZE];
    size_t got = 0;
    while (got < sizeof hdr) {
        ssize_t r = read(0, hdr + got, sizeof hdr - got);
        if (r <= 0) return 1;
        got += (size_t)r;
    }
    uint32_t declared = relic_load_u32le(hdr);
    if (relic_lzss_decode_init(&d, RELIC_LZSS_SPZ, &a, &err) != RELIC_OK) return 1;
    uint64_t sum = 0;
    double t0 = now();
    int at_end = 0;
    relic_stream_status res = RELIC_STREAM_NEED_INPUT;
    while (res != RELIC_STREAM_DONE) {
        if (res == RELIC_STREAM_NEED_INPUT) {
            ssize_t r = read(0, in, sizeof in);
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) return 1;
            at_end = r == 0;
            d.next_in = in;
            d.avail_in = (size_t)r;
        }
        d.next_out = out;
        d.avail_out = sizeof out;
        res = relic_stream_run(&d, at_end ? RELIC_STREAM_FINISH : RELIC_STREAM_MORE, &err);
        if (res == RELIC_STREAM_ERROR) {
            fprintf(stderr, "stream decode: %s\n", err.message);
            return 1;
        }
        sum += out[0];
    }
    double t = now() - t0;
    printf("streaming SPZ decode through a pipe: %.3f GB out (declared %u bytes), %.0f MB/s, peak RSS %ld KiB "
           "(checksum %llu)\n",
           (double)d.total_out / 1e9, declared, (double)d.total_out / t / MB,
           peak_rss_kib(), (unsigned long long)sum);
    return d.total_out == (uint64_t)declared ? 0 : 1;
}

/* ---- 1. the SWP-like input ---- */
static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 16;
}

typedef struct palettes {
    uint8_t (*rgb)[256][3];
    uint32_t *count;
    size_t n;
} palettes;

static void load_palettes(palettes *p)
{
    FILE *f = fopen(corpus_pid, "rb");
    static uint8_t buf[1 << 20];
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f) fclose(f);
    relic_pid_view v;
    relic_error err;
    if (n && relic_pid_validate(buf, n, &v, &err) == RELIC_OK && v.palettes_count) {
        p->n = v.palettes_count;
        p->rgb = calloc(p->n, sizeof *p->rgb);
        p->count = calloc(p->n, sizeof *p->count);
        const uint8_t *c = v.palettes;
        for (size_t i = 0; i < p->n; i++) {
            uint32_t k = relic_load_u32le(c + 4);
            p->count[i] = k > 256 ? 256 : k;
            for (uint32_t j = 0; j < p->count[i]; j++) {
                p->rgb[i][j][0] = c[12 + 4 * j + 2];
                p->rgb[i][j][1] = c[12 + 4 * j + 1];
                p->rgb[i][j][2] = c[12 + 4 * j];
            }
            c += relic_load_u32le(c);
        }
        printf("input: textures coloured from the %zu palettes of demo-130.pid, packed by relic_swp_pack\n", p->n);
        return;
    }
    p->n = 4;
    p->rgb = calloc(p->n, sizeof *p->rgb);
    p->count = calloc(p->n, sizeof *p->count);
    uint32_t s = 9;
    for (size_t i = 0; i < p->n; i++) {
        p->count[i] = 256;
        for (int j = 0; j < 256; j++)
            for (int c = 0; c < 3; c++) p->rgb[i][j][c] = (uint8_t)(j / 2 + (int)(lcg(&s) % 64));
    }
    printf("input: textures coloured from synthetic palettes (corpus absent), packed by relic_swp_pack\n");
}

/* a smooth pattern of palette colours with some noise */
static void make_texture(const palettes *p, size_t k, relic_image *im, relic_image *bump, uint32_t *seed)
{
    size_t pal = k % p->n;
    uint32_t ncol = p->count[pal] ? p->count[pal] : 1, limit = bump ? 63 : ncol;
    if (limit > ncol) limit = ncol;
    uint32_t fx = 8 + lcg(seed) % 24, fy = 8 + lcg(seed) % 24, off = lcg(seed);
    for (uint32_t y = 0; y < TEX_SIDE; y++)
        for (uint32_t x = 0; x < TEX_SIDE; x++) {
            uint32_t v = x / fx + y / fy + off + ((x / 32) * 7 + (y / 32) * 13) % 5;
            if (lcg(seed) % 8 == 0) v += lcg(seed) % 3;
            const uint8_t *c = p->rgb[pal][v % limit];
            uint8_t *o = im->rgba + ((size_t)y * TEX_SIDE + x) * 4;
            o[0] = c[0];
            o[1] = c[1];
            o[2] = c[2];
            o[3] = 255;
            if (bump) {
                uint8_t *b = bump->rgba + ((size_t)y * TEX_SIDE + x) * 4;
                b[0] = (uint8_t)(((x / 4 + y / 8) % 64) * 4);
                b[1] = (uint8_t)(((x + y) / 16 % 16) * 17);
                b[2] = 0;
                b[3] = 255;
            }
        }
}

typedef struct decoded {
    const relic_pid_view *v;
    const relic_swp_palettes *pal;
    uint8_t *rgba;
    size_t rasters, top;
    uint64_t bytes;
} decoded;

static relic_status decode_one(void *vc, size_t i, const uint8_t *swp, uint64_t base, size_t size, relic_error *err)
{
    decoded *c = vc;
    relic_pid_raster_view r = relic_pid_rasters_at(c->v, i);
    c->rasters++;
    c->top += (relic_pid_raster_key(r) >> 32) == 0;
    c->bytes += (uint64_t)relic_pid_raster_width(r) * relic_pid_raster_height(r) * 4;
    return relic_swp_raster_rgba(c->v, c->pal, i, swp, base, size, c->rgba, err);
}

static void textures_per_second(const relic_buf *pid, const relic_buf *swp)
{
    relic_pid_view v;
    relic_error err;
    relic_arena a;
    relic_swp_palettes pal;
    relic_buf spz;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&spz, 0);
    if (relic_pid_validate(pid->data, pid->size, &v, &err) != RELIC_OK || relic_swp_palettes_find(&v, &a, &pal, &err) != RELIC_OK ||
        relic_lzss_container_encode(RELIC_LZSS_SPZ, RELIC_LZSS_FAST, 0, swp->data, swp->size, &a, &spz, &err) != RELIC_OK) {
        fprintf(stderr, "texture bench set-up failed: %s\n", err.message);
        exit(1);
    }
    uint8_t *rgba = malloc((size_t)RELIC_SWP_MAX_SIDE * RELIC_SWP_MAX_SIDE * 4);
    for (int spzmode = 0; spzmode < 2; spzmode++) {
        double best = 1e30;
        decoded c = {&v, &pal, rgba, 0, 0, 0};
        for (int run = 0; run < 3; run++) {
            relic_arena w;
            relic_arena_init_heap(&w, 0);
            c.rasters = c.top = 0;
            c.bytes = 0;
            double t0 = now();
            relic_status st = spzmode ? relic_swp_walk(&v, spz.data, spz.size, 1, (uint64_t)1 << 30, &w, decode_one, &c, &err)
                                      : relic_swp_walk(&v, swp->data, swp->size, 0, 0, &w, decode_one, &c, &err);
            double t = now() - t0;
            relic_arena_release(&w);
            if (st != RELIC_OK) {
                fprintf(stderr, "texture decode failed: %s\n", err.message);
                exit(1);
            }
            if (t < best) best = t;
        }
        printf("textures decoded to RGBA from the %s: %zu textures + %zu mip levels in %.3f s: %.0f textures/s, "
               "%.0f rasters/s, %.0f MB/s of RGBA\n",
               spzmode ? "SPZ (stream walk)" : "SWP in memory", c.top,
               c.rasters - c.top, best, (double)c.top / best, (double)c.rasters / best, (double)c.bytes / best / MB);
    }
    free(rgba);
    relic_buf_free(&spz);
    relic_arena_release(&a);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--stream-decode")) return stream_decode();
    /* the decoder of part 3 starts now, while this process is small, and waits on the pipe */
    fflush(stdout);
    int fd[2];
    if (pipe(fd) != 0) {
        perror("pipe");
        return 1;
    }
    pid_t decoder = fork();
    if (decoder == 0) {
        dup2(fd[0], 0);
        close(fd[0]);
        close(fd[1]);
        execl("/proc/self/exe", argv[0], "--stream-decode", (char *)NULL);
        _exit(127);
    }
    close(fd[0]);
    int pipe_fd = fd[1];
    const char *mb_env = getenv("BENCH_MB");
    size_t size = (size_t)((mb_env ? atof(mb_env) : 64.0) * MB);

    /* 1. pack textures, tile the SWP */
    palettes p;
    load_palettes(&p);
    size_t ntex = 96;
    relic_swp_texture *t = calloc(ntex, sizeof *t);
    relic_image *bumps = calloc(ntex, sizeof *bumps);
    uint32_t seed = 5;
    for (size_t k = 0; k < ntex; k++) {
        t[k].id = (uint32_t)(0x10000000u + k);
        t[k].image = (relic_image){TEX_SIDE, TEX_SIDE, malloc((size_t)TEX_SIDE * TEX_SIDE * 4)};
        int bump = k % 3 == 2;
        if (bump) {
            bumps[k] = (relic_image){TEX_SIDE, TEX_SIDE, malloc((size_t)TEX_SIDE * TEX_SIDE * 4)};
            t[k].bump = &bumps[k];
        }
        make_texture(&p, k, &t[k].image, bump ? &bumps[k] : NULL, &seed);
    }
    relic_arena a;
    relic_pid_file model;
    relic_buf swp, pid;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&swp, 0);
    relic_buf_init(&pid, 0);
    double t0 = now();
    if (relic_swp_pack(t, ntex, &a, &model, &swp, &err) != RELIC_OK || relic_pid_write(&model, &pid, &err) != RELIC_OK) {
        fprintf(stderr, "pack failed: %s\n", err.message);
        return 1;
    }
    printf("pack-textures: %zu textures of %ux%u (%zu rasters) -> %.1f MB SWP in %.2f s\n", ntex, TEX_SIDE, TEX_SIDE,
           model.rasters_count, (double)swp.size / MB, now() - t0);
    uint8_t *src = malloc(size), *back = malloc(size);
    for (size_t i = 0; i < size; i += swp.size) memcpy(src + i, swp.data, size - i < swp.size ? size - i : swp.size);
    printf("input: the SWP tiled to %.0f MB\n\n", (double)size / MB);

    /* 2. codecs side by side */
    static const struct {
        const char *name;
        int lzss_level;
        int zlib_level;
    } codecs[] = {
        {"lzss fast", RELIC_LZSS_FAST, -1},
        {"lzss greedy (original method)", RELIC_LZSS_GREEDY, -1},
        {"lzss best", RELIC_LZSS_BEST, -1},
        {"zlib -1", 0, 1},
        {"zlib -6", 0, 6},
    };
    relic_buf fast;
    relic_buf_init(&fast, 0);
    printf("%-30s %10s %12s %12s\n", "codec", "ratio", "encode MB/s", "decode MB/s");
    for (size_t c = 0; c < sizeof codecs / sizeof codecs[0]; c++) {
        double best_enc = 1e30, best_dec = 1e30;
        size_t zsize = 0;
        for (int run = 0; run < 3; run++) {
            relic_buf z;
            relic_buf_init(&z, 0);
            relic_arena za; /* codec scratch */
            relic_arena_init_heap(&za, 0);
            double a0 = now();
            relic_status st = codecs[c].zlib_level >= 0
                ? relic_codec_zlib_encode(src, size, codecs[c].zlib_level, &za, &z, &err)
                : relic_lzss_encode(RELIC_LZSS_SPZ, (relic_lzss_level)codecs[c].lzss_level, src, size, &za, &z, &err);
            double a1 = now();
            if (st != RELIC_OK) {
                fprintf(stderr, "encode failed: %s\n", err.message);
                return 1;
            }
            st = codecs[c].zlib_level >= 0 ? relic_codec_zlib_decode(z.data, z.size, back, size, &za, &err)
                                           : relic_lzss_decode_buffer(RELIC_LZSS_SPZ, z.data, z.size, back, size, &err);
            double a2 = now();
            if (st != RELIC_OK || memcmp(back, src, size)) {
                fprintf(stderr, "decode failed\n");
                return 1;
            }
            if (a1 - a0 < best_enc) best_enc = a1 - a0;
            if (a2 - a1 < best_dec) best_dec = a2 - a1;
            zsize = z.size;
            if (codecs[c].lzss_level == RELIC_LZSS_FAST && run == 0) {
                relic_buf_append(&fast, z.data, z.size);
            }
            relic_buf_free(&z);
            if (codecs[c].lzss_level == RELIC_LZSS_BEST || codecs[c].lzss_level == RELIC_LZSS_GREEDY) break;
        }
        printf("%-30s %9.3f %12.1f %12.1f\n", codecs[c].name, (double)zsize / (double)size, (double)size / best_enc / MB,
               (double)size / best_dec / MB);
    }
    /* the streaming decoder through a 64 KiB output buffer, input in memory */
    {
        double best = 1e30;
        for (int run = 0; run < 3; run++) {
            static uint8_t chunk[CHUNK], state[8192];
            relic_arena a;
            relic_arena_init_buffer(&a, state, sizeof state);
            relic_stream d;
            if (relic_lzss_decode_init(&d, RELIC_LZSS_SPZ, &a, &err) != RELIC_OK) return 1;
            d.next_in = fast.data;
            d.avail_in = fast.size;
            double a0 = now();
            relic_stream_status r;
            do {
                d.next_out = chunk;
                d.avail_out = sizeof chunk;
                r = relic_stream_run(&d, RELIC_STREAM_FINISH, &err);
            } while (r == RELIC_STREAM_NEED_OUTPUT);
            double tt = now() - a0;
            if (r != RELIC_STREAM_DONE || d.total_out != size) {
                fprintf(stderr, "streaming decode failed\n");
                return 1;
            }
            if (tt < best) best = tt;
        }
        printf("%-30s %9s %12s %12.1f\n", "lzss streaming decode (64 KiB)", "", "", (double)size / best / MB);
    }
    /* the streaming encoder (fast) fed and drained in 64 KiB pieces: the same bytes as the one-call encoder */
    {
        double best = 1e30;
        for (int run = 0; run < 3; run++) {
            static uint8_t chunk[CHUNK];
            relic_arena a;
            relic_arena_init_heap(&a, 0);
            relic_stream e;
            if (relic_lzss_encode_init(&e, RELIC_LZSS_SPZ, RELIC_LZSS_FAST, &a, &err) != RELIC_OK) return 1;
            size_t at = 0, same = 1;
            double a0 = now();
            relic_stream_status r;
            do {
                if (e.avail_in == 0 && at < size) {
                    e.next_in = src + at;
                    e.avail_in = size - at < CHUNK ? size - at : CHUNK;
                    at += e.avail_in;
                }
                e.next_out = chunk;
                e.avail_out = sizeof chunk;
                uint64_t before = e.total_out;
                r = relic_stream_run(&e, at == size ? RELIC_STREAM_FINISH : RELIC_STREAM_MORE, &err);
                size_t got = (size_t)(e.total_out - before);
                if (before + got > fast.size || memcmp(fast.data + before, chunk, got)) same = 0;
            } while (r == RELIC_STREAM_NEED_INPUT || r == RELIC_STREAM_NEED_OUTPUT);
            double tt = now() - a0;
            relic_arena_release(&a);
            if (r != RELIC_STREAM_DONE || !same || e.total_out != fast.size) {
                fprintf(stderr, "streaming encode differs\n");
                return 1;
            }
            if (tt < best) best = tt;
        }
        printf("%-30s %9s %12.1f %12s\n\n", "lzss streaming encode (64 KiB)", "", (double)size / best / MB, "");
    }

    /* 3. 16 x the input through the pipe into the decoder process started first */
    {
        /* a pass must end on a whole flag group, or the next pass would be read as the rest of
         * it: fill the last group with literal items (each pass then decodes to size + pad) */
        relic_buf pass;
        relic_buf_init(&pass, 0);
        relic_buf_append(&pass, fast.data, fast.size);
        size_t i = 0, flag_at = 0;
        unsigned items = 8;
        while (i < pass.size) {
            if (items == 8) {
                flag_at = i++;
                items = 0;
                continue;
            }
            i += (pass.data[flag_at] >> items & 1u) ? 1 : 2;
            items++;
        }
        unsigned pad = items == 8 ? 0 : 8 - items;
        for (unsigned k = items; k < 8; k++) pass.data[flag_at] |= (uint8_t)(1u << k);
        for (unsigned k = 0; k < pad; k++) relic_buf_append(&pass, "", 1);
        uint8_t hdr[RELIC_SPZ_HEADER_SIZE];
        uint64_t total = ((uint64_t)size + pad) * STREAM_PASSES;
        relic_store_u32le(hdr, total > UINT32_MAX ? UINT32_MAX : (uint32_t)total);
        int ok = write_all(pipe_fd, hdr, sizeof hdr);
        for (unsigned k = 0; ok && k < STREAM_PASSES; k++) ok = write_all(pipe_fd, pass.data, pass.size);
        relic_buf_free(&pass);
        close(pipe_fd);
        int status = 0;
        if (waitpid(decoder, &status, 0) != decoder || !ok || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fprintf(stderr, "the pipe decode failed (status %d)\n", status);
    }

    /* 4. textures per second */
    printf("\n");
    textures_per_second(&pid, &swp);

    relic_buf_free(&fast);
    relic_buf_free(&swp);
    relic_buf_free(&pid);
    relic_arena_release(&a);
    for (size_t k = 0; k < ntex; k++) {
        free(t[k].image.rgba);
        free(bumps[k].rgba);
    }
    free(t);
    free(bumps);
    free(p.rgb);
    free(p.count);
    free(src);
    free(back);
    return 0;
}
