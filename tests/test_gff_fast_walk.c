/* test_gff_fast_walk.c — relic_gff_open's fast pass never changes an
 * answer: the library's relic_gff_open and the same file
 * (runtime/formats/aurora/gff_validate.c) built here with
 * RELIC_GFF_FAST_PASS 0, which leaves every file to the walk from the root,
 * give the same status, error (code, byte offset, path, message), depth,
 * reachable count and warnings, on every corpus file, on each rewritten by
 * relic's writer (whose structs list runs of fields in order, the fast
 * pass's first part), and on files made from both by changing a byte or a
 * record word at random (seeded: the same files every run).
 * Real files: ../shared/corpus/gff (skipped, saying so, when absent). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <dirent.h>

#include <cmocka.h>

#include "test_pass.h"

/* the walk alone, under its own name */
#define RELIC_GFF_FAST_PASS 0
#define relic_gff_open relic_gff_open_walk_only
#include "../runtime/formats/aurora/gff_validate.c"
#undef relic_gff_open
relic_status relic_gff_open(const uint8_t *data, size_t size, relic_arena *scratch, relic_report_fn warn,
                            void *warn_ctx, relic_gff_doc *out, relic_error *err);

#define CORPUS_DIR "../shared/corpus/gff"
/* changed copies of each file, fewer for large files (the walk reads each
 * one whole) */
#define MUTANTS 40
#define MUTANTS_LARGE 4
#define LARGE_FILE (256 * 1024)

typedef struct warned {
    unsigned n;
    uint64_t offsets; /* sum: which fields, loosely */
} warned;

/* inputs compared, and how many both accepted */
static unsigned compared, accepted;

static void count_warning(void *ctx, const relic_error *w)
{
    warned *c = ctx;
    c->n++;
    c->offsets += w->offset;
}

/* Both answers for one input, with and without a warn callback. */
static void same_answers(const uint8_t *p, size_t n, const char *what)
{
    for (int with_warn = 0; with_warn < 2; with_warn++) {
        relic_arena a1, a2;
        relic_gff_doc d1, d2;
        relic_error e1, e2;
        warned w1 = {0, 0}, w2 = {0, 0};
        memset(&e1, 0, sizeof e1);
        memset(&e2, 0, sizeof e2);
        relic_arena_init_heap(&a1, 0);
        relic_arena_init_heap(&a2, 0);
        const relic_status s1 = relic_gff_open(p, n, &a1, with_warn ? count_warning : NULL, &w1, &d1, &e1);
        const relic_status s2 = relic_gff_open_walk_only(p, n, &a2, with_warn ? count_warning : NULL, &w2, &d2, &e2);
        if (s1 != s2 || (s1 != RELIC_OK && (e1.offset != e2.offset || strcmp(e1.path, e2.path) != 0 || strcmp(e1.message, e2.message) != 0)))
            fail_msg("%s: fast pass %d '%s' at %llu (%s), walk %d '%s' at %llu (%s)", what, (int)s1, e1.message,
                     (unsigned long long)e1.offset, e1.path, (int)s2, e2.message, (unsigned long long)e2.offset, e2.path);
        if (s1 == RELIC_OK && (d1.max_depth != d2.max_depth || d1.reachable != d2.reachable || d1.struct_count != d2.struct_count || d1.field_count != d2.field_count))
            fail_msg("%s: depth %u/%u, reachable %u/%u", what, d1.max_depth, d2.max_depth, d1.reachable, d2.reachable);
        if (w1.n != w2.n || w1.offsets != w2.offsets) fail_msg("%s: %u warnings, the walk %u", what, w1.n, w2.n);
        compared++;
        accepted += s1 == RELIC_OK;
        relic_arena_release(&a1);
        relic_arena_release(&a2);
    }
}

static uint64_t next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Copies of p changed once each inside its six arrays: a byte at random,
 * or a 4-byte word set to a value near a count or an index (0, 1, a small
 * number, one more or less than it was), which is what gets past the
 * cheap checks. */
static void same_answers_changed(const uint8_t *p, size_t n, const char *what, uint64_t *seed)
{
    if (n <= RELIC_GFF_HEADER_SIZE) return;
    uint8_t *q = malloc(n);
    const int count = n > LARGE_FILE ? MUTANTS_LARGE : MUTANTS;
    for (int k = 0; k < count; k++) {
        memcpy(q, p, n);
        const size_t at = RELIC_GFF_HEADER_SIZE + next(seed) % (n - RELIC_GFF_HEADER_SIZE);
        const uint64_t r = next(seed);
        if (r % 3 == 0 || at + 4 > n) {
            q[at] = (uint8_t)(r >> 8);
        } else {
            const size_t w = at & ~(size_t)3;
            const uint32_t old = relic_load_u32le(q + w), choice[5] = {0, 1, (uint32_t)(r >> 16) % 64, old + 1, old - 1};
            relic_store_u32le(q + w, choice[(r >> 8) % 5]);
        }
        char name[600];
        snprintf(name, sizeof name, "%s, change %d (byte %zu)", what, k, at);
        same_answers(q, n, name);
    }
    free(q);
}

/* The file as relic's writer lays it out (RELIC_GFF_LAYOUT_DEFAULT), into
 * out; 0 when the file does not validate. */
static int rewritten(const uint8_t *p, size_t n, relic_buf *out)
{
    relic_arena a;
    relic_gff_doc d;
    relic_gff_tree t;
    relic_error err;
    int ok = 0;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(out, 0);
    if (relic_gff_open(p, n, &a, NULL, NULL, &d, &err) == RELIC_OK && relic_gff_tree_from_doc(&d, &a, &t, &err) == RELIC_OK &&
        relic_gff_write_tree(&t, RELIC_GFF_LAYOUT_DEFAULT, &a, out, NULL, &err) == RELIC_OK)
        ok = 1;
    relic_arena_release(&a);
    return ok;
}

static void test_fast_pass_and_walk_agree_on_the_corpus_and_changed_copies(void **state)
{
    (void)state;
    DIR *dir = opendir(CORPUS_DIR);
    if (!dir) {
        print_message("note: %s not found: this test is skipped\n", CORPUS_DIR);
        skip();
    }
    struct dirent *e;
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    int files = 0, seen = 0;
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "README.md") == 0) continue;
        char path[600];
        relic_mapping m;
        relic_error err;
        snprintf(path, sizeof path, "%s/%s", CORPUS_DIR, e->d_name);
        /* the sanitizer pass takes one file in TEST_PASS_STRIDE (test_pass.h) */
        if (!test_take((size_t)seen++)) continue;
        if (relic_map_file(path, 0, &m, &err) != RELIC_OK) continue;
        same_answers(m.bytes.data, m.bytes.size, path);
        same_answers_changed(m.bytes.data, m.bytes.size, path, &seed);
        relic_buf w;
        if (rewritten(m.bytes.data, m.bytes.size, &w)) {
            char name[620];
            snprintf(name, sizeof name, "%s rewritten", path);
            same_answers(w.data, w.size, name);
            same_answers_changed(w.data, w.size, name, &seed);
        }
        relic_buf_free(&w);
        relic_unmap(&m);
        files++;
    }
    closedir(dir);
    print_message("%d files: %u inputs compared, %u accepted by both\n", files, compared, accepted);
    assert_true(files > 0);
    assert_true(accepted > 0 && accepted < compared);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_pass_and_walk_agree_on_the_corpus_and_changed_copies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
