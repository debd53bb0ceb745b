/* bench_trn.c — NWN2 TRN/TRX benchmarks (runtime/trn_*.c):
 *  1. parse + validate MB/s of the largest corpus TRX (by file size):
 *     container validation and rules, ASWM inflate, ASWM validation and
 *     decode to the model, walkmesh rules; "inflate excluded" is the same
 *     minus a separately timed inflate of the same stream, per decompressed
 *     byte, and is set beside memcpy of the decompressed size; the
 *     zero-copy view of the inflated walkmesh (relic_trn_aswm_view_validate:
 *     layout and every rule, no model) is timed on its own;
 *  2. bake time of the largest corpus TRN (by file size) and of the TRN
 *     with the most triangles (relic_trn_bake alone; best of 5), and of a
 *     synthetic 32 x 32-tile area (tests/trn_synth.h: 7 x 7 cells of two
 *     triangles per tile, walls of non-walkable triangles, 100,352
 *     triangles);
 *  3. peak RSS of each case: every case runs in a child process (fork), so
 *     its VmHWM is its own.
 * Times are CPU seconds of the process (the machine is shared). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "relic_codec.h"
#include "relic_trn.h"
#include "../trn_synth.h"

#define MB 1e6
#define RUNS 5

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static long peak_rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6)) kib = strtol(line + 6, NULL, 10);
    if (f) fclose(f);
    return kib;
}

/* Largest file of dir by size, or by triangle count when by_triangles. */
static int pick(const char *dir, int by_triangles, char *out, size_t cap);

static int load_aswm(const char *path, relic_mapping *mp, relic_arena *a, relic_trn_file *m, relic_trn_packet **p)
{
    relic_error err;
    relic_trn_view v;
    if (relic_map_file(path, 0, mp, &err) != RELIC_OK) return -1;
    if (relic_trn_validate(mp->bytes.data, mp->bytes.size, &v, &err) != RELIC_OK || relic_trn_decode(&v, a, m, &err) != RELIC_OK)
        return -1;
    for (size_t i = 0; i < m->packets_count; i++)
        if (m->packets[i].type == RELIC_TRN_PACKET_TYPE_ASWM) {
            *p = &m->packets[i];
            return 0;
        }
    return -1;
}

static int triangles_of(const char *path)
{
    relic_mapping mp;
    relic_arena a;
    relic_trn_file m;
    relic_trn_packet *p;
    relic_trn_aswm w;
    relic_error err;
    int n = -1;
    relic_arena_init_heap(&a, (size_t)2 << 30);
    if (load_aswm(path, &mp, &a, &m, &p) == 0 && relic_trn_aswm_read(p, (uint64_t)1 << 30, &a, &w, &err) == RELIC_OK)
        n = (int)w.triangles_count;
    relic_arena_release(&a);
    relic_unmap(&mp);
    return n;
}

static int pick(const char *dir, int by_triangles, char *out, size_t cap)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    struct dirent *e;
    long best = -1;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        long score;
        if (by_triangles) score = triangles_of(path);
        else {
            FILE *f = fopen(path, "rb");
            if (!f) continue;
            fseek(f, 0, SEEK_END);
            score = ftell(f);
            fclose(f);
        }
        if (score > best) {
            best = score;
            snprintf(out, cap, "%s", path);
        }
    }
    closedir(d);
    return best < 0 ? -1 : 0;
}

static void count(void *ctx, const relic_error *e)
{
    (void)e;
    (*(unsigned *)ctx)++;
}

static void bench_parse(const char *path)
{
    relic_mapping mp;
    relic_error err;
    relic_trn_view v;
    if (relic_map_file(path, 0, &mp, &err) != RELIC_OK) {
        printf("parse: cannot map %s\n", path);
        return;
    }
    double best_full = 1e9, best_inflate = 1e9, best_copy = 1e9, best_container = 1e9, best_view = 1e9;
    size_t raw = 0, file = mp.bytes.size;
    /* one arena over memory touched in advance, reused by every run (as a
     * tool reading many files would): page faults are not the parser's */
    size_t arena_bytes = (size_t)64 << 20;
    uint8_t *arena_mem = malloc(arena_bytes);
    memset(arena_mem, 1, arena_bytes);
    for (int r = 0; r < RUNS; r++) {
        relic_arena a;
        relic_trn_file m;
        unsigned seen = 0;
        relic_arena_init_buffer(&a, arena_mem, arena_bytes);
        double tc = now();
        if (relic_trn_validate(mp.bytes.data, mp.bytes.size, &v, &err) != RELIC_OK) {
            printf("parse: invalid\n");
            exit(1);
        }
        relic_trn_check_container(&v, count, &seen);
        double t0 = now();
        if (t0 - tc < best_container) best_container = t0 - tc;
        if (relic_trn_validate(mp.bytes.data, mp.bytes.size, &v, &err) != RELIC_OK) {
            printf("parse: invalid\n");
            exit(1);
        }
        relic_trn_check_container(&v, count, &seen);
        relic_trn_decode(&v, &a, &m, &err);
        relic_trn_packet *p = NULL;
        for (size_t i = 0; i < m.packets_count; i++)
            if (m.packets[i].type == RELIC_TRN_PACKET_TYPE_ASWM) p = &m.packets[i];
        relic_trn_aswm w;
        if (!p || relic_trn_aswm_read(p, (uint64_t)1 << 30, &a, &w, &err) != RELIC_OK) {
            printf("parse: no walkmesh\n");
            exit(1);
        }
        relic_trn_check_aswm(&w, "aswm", 0, count, &seen);
        double t1 = now();
        raw = p->uncompressed_size;
        uint8_t *buf = malloc(raw), *copy = malloc(raw);
        memset(buf, 1, raw);
        memset(copy, 2, raw);
        double t2 = now();
        relic_codec_zlib_decode(p->aswm, p->aswm_count, buf, raw, &a, &err);
        double t3 = now();
        memcpy(copy, buf, raw);
        double t4 = now();
        relic_arena va;
        relic_trn_aswm_view view;
        relic_arena_init_heap(&va, (size_t)16 << 20);
        double t5 = now();
        if (relic_trn_aswm_view_validate(buf, raw, &va, &view, &err) != RELIC_OK) {
            printf("parse: view: %s\n", err.message);
            exit(1);
        }
        double t6 = now();
        relic_arena_release(&va);
        if (t6 - t5 < best_view) best_view = t6 - t5;
        if (copy[raw / 2] != buf[raw / 2]) exit(1);
        if (t1 - t0 < best_full) best_full = t1 - t0;
        if (t3 - t2 < best_inflate) best_inflate = t3 - t2;
        if (t4 - t3 < best_copy) best_copy = t4 - t3;
        free(buf);
        free(copy);
    }
    free(arena_mem);
    double parse = best_full - best_inflate;
    if (parse <= 0) parse = 1e-9;
    printf("parse+validate %s\n  %.2f MB file, %.2f MB walkmesh decompressed\n", strrchr(path, '/') + 1, file / MB, raw / MB);
    printf("  inflate included: %.1f MB/s of file (%.1f MB/s of decompressed walkmesh), %.2f ms\n", file / MB / best_full,
           raw / MB / best_full, best_full * 1e3);
    printf("  inflate excluded: %.1f MB/s of decompressed walkmesh, %.2f ms; memcpy %.1f MB/s; ratio %.1f%%\n", raw / MB / parse,
           parse * 1e3, raw / MB / best_copy, 100.0 * (raw / MB / parse) / (raw / MB / best_copy));
    printf("  inflate excluded, zero-copy view (relic_trn_aswm_view_validate: layout + every rule): %.1f MB/s, %.3f ms; ratio to memcpy %.1f%%\n",
           raw / MB / best_view, best_view * 1e3, 100.0 * (raw / MB / best_view) / (raw / MB / best_copy));
    printf("  container only (zero-copy validate + directory rules, ASWM not inflated): %.1f MB/s of file, %.3f ms; ratio to memcpy %.0f%%\n",
           file / MB / best_container, best_container * 1e3, 100.0 * (file / MB / best_container) / (raw / MB / best_copy));
    printf("  peak RSS %ld KiB\n", peak_rss_kib());
    relic_unmap(&mp);
}

static void bench_bake_file(const char *label, const char *path)
{
    relic_mapping mp;
    relic_arena a;
    relic_trn_file m;
    relic_trn_packet *p;
    relic_trn_aswm w, b;
    relic_error err;
    relic_arena_init_heap(&a, (size_t)2 << 30);
    if (load_aswm(path, &mp, &a, &m, &p) || relic_trn_aswm_read(p, (uint64_t)1 << 30, &a, &w, &err) != RELIC_OK) {
        printf("bake: cannot load %s\n", path);
        return;
    }
    double best = 1e9;
    for (int r = 0; r < RUNS; r++) {
        relic_arena ba;
        relic_arena_init_heap(&ba, (size_t)2 << 30);
        double t0 = now();
        if (relic_trn_bake(&w, NULL, &ba, &b, &err) != RELIC_OK) {
            printf("bake failed: %s\n", err.message);
            exit(1);
        }
        double t1 = now();
        if (t1 - t0 < best) best = t1 - t0;
        relic_arena_release(&ba);
    }
    printf("bake %s %s\n  %zu triangles, %u x %u tiles: %.1f ms (best of %d); peak RSS %ld KiB\n", label, strrchr(path, '/') + 1,
           w.triangles_count, (unsigned)w.grid_width, (unsigned)w.grid_height, best * 1e3, RUNS, peak_rss_kib());
    relic_arena_release(&a);
    relic_unmap(&mp);
}

static int walls(void *ctx, uint32_t t)
{
    (void)ctx;
    return (t / 2) % 7 != 3 && t % 13 != 5;
}

static void bench_bake_synthetic(void)
{
    relic_arena a;
    relic_trn_aswm w, b;
    relic_error err;
    relic_arena_init_heap(&a, (size_t)2 << 30);
    if (synth_area(&a, 32, 32, 7, walls, NULL, &w) != 0) {
        printf("synthetic: out of memory\n");
        return;
    }
    double best = 1e9;
    for (int r = 0; r < RUNS; r++) {
        relic_arena ba;
        relic_arena_init_heap(&ba, (size_t)2 << 30);
        double t0 = now();
        if (relic_trn_bake(&w, NULL, &ba, &b, &err) != RELIC_OK) {
            printf("bake failed: %s\n", err.message);
            exit(1);
        }
        double t1 = now();
        if (t1 - t0 < best) best = t1 - t0;
        if (r == RUNS - 1) printf("bake synthetic 32 x 32 tiles\n  %zu triangles, %zu islands: %.1f ms (best of %d); peak RSS %ld KiB\n",
                                  b.triangles_count, b.islands_count, best * 1e3, RUNS, peak_rss_kib());
        relic_arena_release(&ba);
    }
    relic_arena_release(&a);
}

/* Run fn in a child so that its peak RSS is its own. */
static void isolated(void (*fn)(const char *, const char *), const char *a1, const char *a2)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        fn(a1, a2);
        fflush(stdout);
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
}

static void run_parse(const char *path, const char *unused)
{
    (void)unused;
    bench_parse(path);
}
static void run_bake(const char *label, const char *path) { bench_bake_file(label, path); }
static void run_synth(const char *u1, const char *u2)
{
    (void)u1;
    (void)u2;
    bench_bake_synthetic();
}

int main(void)
{
    char trx[1024], trn_size[1024], trn_tris[1024];
    if (pick("../shared/corpus/trx", 0, trx, sizeof trx) == 0) isolated(run_parse, trx, NULL);
    else printf("parse: ../shared/corpus/trx not found; skipped\n");
    if (pick("../shared/corpus/trn", 0, trn_size, sizeof trn_size) == 0) {
        isolated(run_bake, "largest TRN by size:", trn_size);
        if (pick("../shared/corpus/trn", 1, trn_tris, sizeof trn_tris) == 0) isolated(run_bake, "TRN with most triangles:", trn_tris);
    } else {
        printf("bake: ../shared/corpus/trn not found; corpus part skipped\n");
    }
    isolated(run_synth, NULL, NULL);
    return 0;
}
