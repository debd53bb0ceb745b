/* bench_mutate.c — `make bench`: structure-aware mutations per second
 * (runtime/mutate/mutate.c over the generated tables, issue 8) for each format
 * with a schema, on tests/samples/room.wok and, when ../shared/corpus
 * exists, the smallest and the largest real file of each format; WTD
 * (runtime/mutate/mutate_wtd.c) on fuzz/corpus/fuzz_wtd/terrain.wtd too, and the
 * BWM geometry and GFF tree mutators (bwm-geo, gff-tree). Three
 * modes: unchecked (what the fuzz targets' LLVMFuzzerCustomMutator does:
 * decode, mutate, write), valid (the written file must validate and differ)
 * and invalid (it must be rejected). Each mode runs for about 0.3 s. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bwm.h"
#include "cau.h"
#include "gff.h"
#include "groff.h"
#include "pid.h"
#include "relic.h"
#include "relic_mutate_formats.h"
#include "tpa.h"
#include "trn.h"
#include "../mutate_scratch.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A hand-written whole-file mutator of relic_gff_mutate's signature (the
 * GFF tree mutator, the BWM geometry mutator). */
typedef relic_status (*tree_mutator)(const uint8_t *in, size_t n, const uint8_t *in2, size_t n2, uint64_t seed,
                                     unsigned flags, relic_arena *scratch, relic_buf *out, relic_mutate_result *res,
                                     relic_error *err);

/* Mutations per second of path in each mode, by the tables of f or, when
 * tree is set, by tree (named name). */
static void bench_with(const char *name, const relic_mut_format *f, tree_mutator tree, const char *path)
{
    relic_mapping m;
    relic_error err;
    if (relic_map_file(path, 0, &m, &err) != RELIC_OK) return;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    printf("%-8s %9zu B  %-48.48s", name, m.bytes.size, base);
    static const unsigned modes[] = {RELIC_MUTATE_UNCHECKED, 0, RELIC_MUTATE_INVALID};
    relic_buf out;
    relic_buf_init(&out, 0);
    for (int k = 0; k < 3; k++) {
        unsigned long done = 0, failed = 0;
        double t0 = now(), t;
        uint64_t seed = 1;
        do {
            for (int i = 0; i < 8; i++)
                if ((tree ? tree(m.bytes.data, m.bytes.size, NULL, 0, seed++, modes[k], test_scratch(), &out, NULL, &err)
                          : relic_mutate(f, m.bytes.data, m.bytes.size, NULL, 0, seed++, modes[k], test_scratch(), &out, NULL, &err)) == RELIC_OK)
                    done++;
                else
                    failed++;
            t = now() - t0;
        } while (t < 0.3);
        printf(" %10.0f/s", (double)done / t);
        if (failed) printf("(%lu no)", failed);
    }
    printf("\n");
    relic_buf_free(&out);
    relic_unmap(&m);
}

static void bench_file(const relic_mut_format *f, const char *path) { bench_with(f->name, f, NULL, path); }

/* The smallest and largest regular file of a corpus directory. */
static void bench_dir(const char *name, const relic_mut_format *f, tree_mutator tree, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    char small[1024] = "", large[1024] = "";
    off_t smin = -1, smax = -1;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char p[1024];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (stat(p, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        if (smin < 0 || st.st_size < smin || (st.st_size == smin && strcmp(p, small) < 0)) {
            smin = st.st_size;
            snprintf(small, sizeof small, "%s", p);
        }
        if (smax < 0 || st.st_size > smax || (st.st_size == smax && strcmp(p, large) < 0)) {
            smax = st.st_size;
            snprintf(large, sizeof large, "%s", p);
        }
    }
    closedir(d);
    if (small[0]) bench_with(name, f, tree, small);
    if (large[0] && strcmp(large, small)) bench_with(name, f, tree, large);
}

int main(void)
{
    printf("structure-aware mutations per second (one core; 'no' = seeds without a suitable mutant)\n");
    printf("%-8s %11s  %-48s %12s %12s %12s\n", "format", "size", "file", "unchecked", "valid", "invalid");
    printf("(bwm-geo: the BWM geometry mutator, relic_bwm_mutate; gff-tree: the GFF tree mutator, relic_gff_mutate)\n");
    bench_file(&relic_bwm_mutator, "tests/samples/room.wok");
    bench_with("bwm-geo", NULL, relic_bwm_mutate, "tests/samples/room.wok");
    bench_file(relic_mutator_wtd(), "fuzz/corpus/fuzz_wtd/terrain.wtd"); /* 16 x 16: the coefficient level */
    static const struct {
        const relic_mut_format *f;
        const char *dir;
    } corpus[] = {
        {&relic_bwm_mutator, "../shared/corpus/bwm"},
        {&relic_gff_mutator, "../shared/corpus/gff"},
        {&relic_tpa_mutator, "../shared/corpus/tpa"},
        {&relic_cau_mutator, "../shared/corpus/cau"},
        {&relic_trn_mutator, "../shared/corpus/trn"},
        {&relic_trn_mutator, "../shared/corpus/trx"},
        {&relic_pid_mutator, "../shared/corpus/pid"},
        {&relic_groff_mutator, "../shared/corpus/scn"},
        {NULL, "../shared/corpus/wtd"},
    };
    DIR *probe = opendir("../shared/corpus");
    if (!probe) {
        printf("note: ../shared/corpus not found: real files skipped\n");
        return 0;
    }
    closedir(probe);
    for (size_t i = 0; i < sizeof corpus / sizeof corpus[0]; i++) {
        const relic_mut_format *f = corpus[i].f ? corpus[i].f : relic_mutator_wtd();
        bench_dir(f->name, f, NULL, corpus[i].dir);
    }
    bench_dir("bwm-geo", NULL, relic_bwm_mutate, "../shared/corpus/bwm");
    bench_dir("gff-tree", NULL, relic_gff_mutate, "../shared/corpus/gff");
    return 0;
}
