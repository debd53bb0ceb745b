/* test_mutate_trn.c — the structure-aware TRN/TRX mutator that reaches into
 * the ASWM walkmesh (runtime/mutate/mutate_trn.c, issue 8): on a TRX made by
 * relic's own writer (a synthetic area baked by relic_trn_bake, packed by
 * relic_trn_aswm_pack, laid out by relic_trn_layout) and on the smallest
 * real TRX files of ../shared/corpus/trx (skipped, saying so, when
 * absent): the same seed gives the same bytes; valid-mode outputs pass
 * what `relic check` runs (checked here independently of the mutator's own
 * validate) and differ from the input; the inflated walkmesh of many
 * outputs differs from the input's; invalid-mode outputs are rejected;
 * crossover takes from a second file; unchecked outputs never crash the
 * readers; a file that does not validate is refused. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "relic_codec.h"
#include "relic_mutate_formats.h"
#include "relic_trn.h"
#include "trn_synth.h"
#include "mutate_scratch.h"

#define SEEDS 24u

static relic_buf file_a, file_b;

/* ---- files made by relic's writers ---- */

static int walls(void *ctx, uint32_t t)
{
    (void)ctx;
    return (t / 2) % 6 != 3 && t % 11 != 5;
}
static int all_walkable(void *ctx, uint32_t t)
{
    (void)ctx;
    (void)t;
    return 1;
}

/* A TRX: TRWH plus the baked W x H walkmesh in an ASWM packet. */
static void make_trx(uint32_t W, uint32_t H, uint32_t sub, synth_walkable_fn fn, relic_buf *out)
{
    relic_arena a;
    relic_trn_aswm w, baked;
    relic_error err;
    relic_arena_init_heap(&a, (size_t)64 << 20);
    assert_int_equal(synth_area(&a, W, H, sub, fn, NULL, &w), 0);
    assert_int_equal(relic_trn_bake(&w, NULL, &a, &baked, &err), RELIC_OK);
    relic_trn_file m;
    memset(&m, 0, sizeof m);
    memcpy(m.header.magic, "NWN2", 4);
    m.header.version_major = 2;
    m.header.version_minor = 3;
    relic_trn_packet *p = relic_arena_alloc(&a, 2 * sizeof *p, _Alignof(relic_trn_packet));
    assert_non_null(p);
    memset(p, 0, 2 * sizeof *p);
    p[0].type = RELIC_TRN_PACKET_TYPE_TRWH;
    p[0].trwh.width = W;
    p[0].trwh.height = H;
    assert_int_equal(relic_trn_aswm_pack(&baked, RELIC_TRN_ASWM_ZLIB_LEVEL, &a, &p[1], &err), RELIC_OK);
    m.packets = p;
    m.packets_count = 2;
    assert_int_equal(relic_trn_layout(&m, &a, &err), RELIC_OK);
    relic_buf_init(out, 0);
    assert_int_equal(relic_trn_write(&m, out, &err), RELIC_OK);
    relic_arena_release(&a);
}

static int setup(void **state)
{
    (void)state;
    make_trx(3, 2, 3, walls, &file_a);
    make_trx(2, 2, 2, all_walkable, &file_b);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    relic_buf_free(&file_a);
    relic_buf_free(&file_b);
    return 0;
}

/* ---- what `relic check` runs (fmt_trn.c), written out here ---- */

static void count_problem(void *ctx, const relic_error *e)
{
    (void)e;
    (*(unsigned *)ctx)++;
}

static int checker_ok(const uint8_t *p, size_t n)
{
    relic_trn_view v;
    relic_error err;
    if (relic_trn_validate(p, n, &v, &err) != RELIC_OK) return 0;
    unsigned problems = 0;
    if (relic_trn_check_container(&v, count_problem, &problems)) return 0;
    relic_arena a;
    relic_trn_file m;
    relic_arena_init_heap(&a, (size_t)1 << 30);
    int ok = relic_trn_decode(&v, &a, &m, &err) == RELIC_OK;
    for (size_t i = 0; ok && i < m.packets_count; i++) {
        if (m.packets[i].type != RELIC_TRN_PACKET_TYPE_ASWM) continue;
        relic_trn_aswm w;
        unsigned k = 0;
        ok = relic_trn_aswm_read(&m.packets[i], (uint64_t)1 << 30, &a, &w, &err) == RELIC_OK &&
            relic_trn_check_aswm(&w, "aswm", 0, count_problem, &k) == 0;
    }
    unsigned t = 0;
    if (ok) ok = relic_trn_check_terrain(&m, &a, count_problem, &t) == 0;
    relic_arena_release(&a);
    return ok;
}

/* The inflated bytes of the first ASWM packet (malloc'd), or NULL. */
static uint8_t *first_walkmesh(const uint8_t *p, size_t n, size_t *size)
{
    relic_trn_view v;
    relic_error err;
    relic_arena a;
    relic_trn_file m;
    uint8_t *raw = NULL;
    if (relic_trn_validate(p, n, &v, &err) != RELIC_OK) return NULL;
    relic_arena_init_heap(&a, (size_t)256 << 20);
    if (relic_trn_decode(&v, &a, &m, &err) == RELIC_OK)
        for (size_t i = 0; i < m.packets_count; i++) {
            const relic_trn_packet *pk = &m.packets[i];
            if (pk->type != RELIC_TRN_PACKET_TYPE_ASWM || pk->uncompressed_size > (64u << 20)) continue;
            raw = malloc((size_t)pk->uncompressed_size + 1);
            if (relic_codec_zlib_decode(pk->aswm, pk->aswm_count, raw, pk->uncompressed_size, &a, &err) != RELIC_OK) {
                free(raw);
                raw = NULL;
            } else {
                *size = pk->uncompressed_size;
            }
            break;
        }
    relic_arena_release(&a);
    return raw;
}

/* How many of `seeds` valid mutants of in have a walkmesh whose inflated
 * bytes differ from in's; every mutant passes the checker and differs. */
static unsigned walkmesh_changes(const uint8_t *in, size_t n, unsigned seeds)
{
    const relic_mut_format *f = relic_mutator_trn_aswm();
    size_t raw0_size = 0;
    uint8_t *raw0 = first_walkmesh(in, n, &raw0_size);
    assert_non_null(raw0);
    unsigned changed = 0;
    for (unsigned seed = 0; seed < seeds; seed++) {
        relic_buf out;
        relic_error err;
        relic_buf_init(&out, 0);
        assert_int_equal(relic_mutate(f, in, n, NULL, 0, seed, 0, test_scratch(), &out, NULL, &err), RELIC_OK);
        assert_true(checker_ok(out.data, out.size));
        assert_true(out.size != n || memcmp(out.data, in, n) != 0);
        size_t rs = 0;
        uint8_t *raw = first_walkmesh(out.data, out.size, &rs);
        if (raw && (rs != raw0_size || memcmp(raw, raw0, rs) != 0)) changed++;
        free(raw);
        relic_buf_free(&out);
    }
    free(raw0);
    return changed;
}

/* ---- the synthetic TRX ---- */

static void same_seed_gives_same_bytes(void **state)
{
    (void)state;
    const relic_mut_format *f = relic_mutator_trn_aswm();
    for (unsigned flags = 0; flags <= RELIC_MUTATE_INVALID; flags++)
        for (uint64_t seed = 0; seed < 6; seed++) {
            relic_buf x, y;
            relic_error err;
            relic_buf_init(&x, 0);
            relic_buf_init(&y, 0);
            assert_int_equal(relic_mutate(f, file_a.data, file_a.size, NULL, 0, seed, flags, test_scratch(), &x, NULL, &err), RELIC_OK);
            assert_int_equal(relic_mutate(f, file_a.data, file_a.size, NULL, 0, seed, flags, test_scratch(), &y, NULL, &err), RELIC_OK);
            assert_int_equal(x.size, y.size);
            assert_memory_equal(x.data, y.data, x.size);
            relic_buf_free(&x);
            relic_buf_free(&y);
        }
}

static void valid_mutants_pass_the_checker_and_change_the_walkmesh(void **state)
{
    (void)state;
    assert_true(checker_ok(file_a.data, file_a.size));
    unsigned changed = walkmesh_changes(file_a.data, file_a.size, SEEDS);
    print_message("synthetic TRX: %u of %u valid mutants changed the inflated walkmesh\n", changed, SEEDS);
    assert_true(changed >= SEEDS / 4);
}

/* The log names walkmesh fields, and a walkmesh change that grows or
 * shrinks an array still gives a file the checker accepts. */
static void walkmesh_arrays_are_resized(void **state)
{
    (void)state;
    const relic_mut_format *f = relic_mutator_trn_aswm();
    unsigned resized = 0;
    for (uint64_t seed = 0; seed < 200 && resized < 3; seed++) {
        relic_buf out;
        relic_error err;
        relic_mutate_result r;
        relic_buf_init(&out, 0);
        assert_int_equal(relic_mutate(f, file_a.data, file_a.size, NULL, 0, seed, 0, test_scratch(), &out, &r, &err), RELIC_OK);
        for (int k = 0; k < r.nlog; k++)
            if (strncmp(r.log[k].path, "walkmeshes[0].", 14) == 0 &&
                (strcmp(r.log[k].op, "grow") == 0 || strcmp(r.log[k].op, "shrink") == 0 ||
                 strcmp(r.log[k].op, "double") == 0 || strcmp(r.log[k].op, "clear") == 0)) {
                resized++;
                assert_true(checker_ok(out.data, out.size));
                break;
            }
        relic_buf_free(&out);
    }
    assert_true(resized >= 1);
}

static void invalid_mutants_are_rejected(void **state)
{
    (void)state;
    const relic_mut_format *f = relic_mutator_trn_aswm();
    unsigned walk = 0;
    for (uint64_t seed = 0; seed < SEEDS; seed++) {
        relic_buf out;
        relic_error err;
        relic_mutate_result r;
        relic_buf_init(&out, 0);
        assert_int_equal(relic_mutate(f, file_a.data, file_a.size, NULL, 0, seed, RELIC_MUTATE_INVALID, test_scratch(), &out, &r, &err),
                         RELIC_OK);
        assert_false(checker_ok(out.data, out.size));
        assert_int_not_equal(f->validate(out.data, out.size, test_scratch(), &err), RELIC_OK);
        assert_true(err.message[0] != 0);
        for (int k = 0; k < r.nlog; k++) walk += strncmp(r.log[k].path, "walkmeshes", 10) == 0;
        relic_buf_free(&out);
    }
    assert_true(walk > 0);
}

/* Crossover splices from the second file: with RELIC_MUTATE_CROSSOVER every
 * change is a splice; some outputs hold a walkmesh with parts of file b. */
static void crossover_takes_from_the_second_file(void **state)
{
    (void)state;
    const relic_mut_format *f = relic_mutator_trn_aswm();
    size_t rb_size = 0, ra_size = 0;
    uint8_t *ra = first_walkmesh(file_a.data, file_a.size, &ra_size);
    uint8_t *rb = first_walkmesh(file_b.data, file_b.size, &rb_size);
    assert_non_null(ra);
    assert_non_null(rb);
    unsigned made = 0, whole = 0, walk = 0;
    for (uint64_t seed = 0; seed < 64; seed++) {
        relic_buf out;
        relic_error err;
        relic_mutate_result r;
        relic_buf_init(&out, 0);
        if (relic_mutate(f, file_a.data, file_a.size, file_b.data, file_b.size, seed, RELIC_MUTATE_CROSSOVER, test_scratch(), &out, &r,
                         &err) == RELIC_OK) {
            made++;
            assert_true(checker_ok(out.data, out.size));
            for (int k = 0; k < r.nlog; k++) {
                assert_true(strstr(r.log[k].op, "splice") != NULL);
                walk += strncmp(r.log[k].path, "walkmeshes", 10) == 0;
            }
            size_t rs = 0;
            uint8_t *raw = first_walkmesh(out.data, out.size, &rs);
            if (raw && rs == rb_size && memcmp(raw, rb, rs) == 0) whole++;
            free(raw);
        }
        relic_buf_free(&out);
    }
    print_message("crossover: %u outputs, %u walkmesh splices, %u with file b's whole walkmesh\n", made, walk, whole);
    assert_true(made > 0);
    assert_true(walk > 0);
    free(ra);
    free(rb);
}

/* Unchecked mutants (what the fuzz target gets) of both modes never crash
 * the readers; a truncated file is refused with the validator's error. */
static void unchecked_mutants_and_bad_inputs_are_safe(void **state)
{
    (void)state;
    const relic_mut_format *f = relic_mutator_trn_aswm();
    for (uint64_t seed = 0; seed < 64; seed++) {
        relic_buf out;
        relic_error err;
        unsigned flags = RELIC_MUTATE_UNCHECKED | (seed % 4 == 1 ? RELIC_MUTATE_INVALID : 0u);
        relic_buf_init(&out, 0);
        if (relic_mutate(f, file_a.data, file_a.size, file_b.data, file_b.size, seed, flags, test_scratch(), &out, NULL, &err) ==
            RELIC_OK)
            (void)checker_ok(out.data, out.size);
        relic_buf_free(&out);
    }
    for (size_t cut = 0; cut < file_a.size; cut += file_a.size / 16 + 1) {
        relic_buf out;
        relic_error err;
        relic_buf_init(&out, 0);
        assert_int_not_equal(relic_mutate(f, file_a.data, cut, NULL, 0, 1, 0, test_scratch(), &out, NULL, &err), RELIC_OK);
        assert_true(err.message[0] != 0);
        relic_buf_free(&out);
    }
}

/* ---- real files ---- */

/* The k smallest files of ../shared/corpus/trx (paths malloc'd). */
static int smallest_corpus(char **paths, int k)
{
    DIR *d = opendir("../shared/corpus/trx");
    if (!d) return -1;
    off_t sizes[8];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[512];
        struct stat st;
        snprintf(path, sizeof path, "../shared/corpus/trx/%s", e->d_name);
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        int at = n < k ? n : k;
        while (at > 0 && sizes[at - 1] > st.st_size) at--;
        if (at >= k) continue;
        if (n == k) free(paths[k - 1]);
        else n++;
        memmove(paths + at + 1, paths + at, (size_t)(n - 1 - at) * sizeof *paths);
        memmove(sizes + at + 1, sizes + at, (size_t)(n - 1 - at) * sizeof *sizes);
        paths[at] = strdup(path);
        sizes[at] = st.st_size;
    }
    closedir(d);
    return n;
}

static void corpus_trx_mutants(void **state)
{
    (void)state;
    char *paths[8];
    int n = smallest_corpus(paths, 2);
    if (n < 0) {
        print_message("../shared/corpus/trx not found: the real-file part is skipped\n");
        skip();
    }
    const relic_mut_format *f = relic_mutator_trn_aswm();
    relic_mapping maps[2];
    relic_error err;
    for (int i = 0; i < n; i++) assert_int_equal(relic_map_file(paths[i], 0, &maps[i], &err), RELIC_OK);
    for (int i = 0; i < n; i++) {
        const uint8_t *p = maps[i].bytes.data;
        size_t size = maps[i].bytes.size;
        assert_true(checker_ok(p, size));
        unsigned changed = walkmesh_changes(p, size, 8);
        print_message("%s: %u of 8 valid mutants changed the inflated walkmesh\n", strrchr(paths[i], '/') + 1, changed);
        assert_true(changed >= 2);
        for (uint64_t seed = 0; seed < 4; seed++) {
            relic_buf out;
            relic_buf_init(&out, 0);
            assert_int_equal(relic_mutate(f, p, size, NULL, 0, seed, RELIC_MUTATE_INVALID, test_scratch(), &out, NULL, &err), RELIC_OK);
            assert_false(checker_ok(out.data, out.size));
            relic_buf_free(&out);
            if (n == 2) {
                relic_buf_init(&out, 0);
                const relic_mapping *o = &maps[1 - i];
                if (relic_mutate(f, p, size, o->bytes.data, o->bytes.size, seed, RELIC_MUTATE_CROSSOVER, test_scratch(), &out, NULL,
                                 &err) == RELIC_OK)
                    assert_true(checker_ok(out.data, out.size));
                relic_buf_free(&out);
            }
        }
    }
    for (int i = 0; i < n; i++) {
        relic_unmap(&maps[i]);
        free(paths[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_seed_gives_same_bytes),
        cmocka_unit_test(valid_mutants_pass_the_checker_and_change_the_walkmesh),
        cmocka_unit_test(walkmesh_arrays_are_resized),
        cmocka_unit_test(invalid_mutants_are_rejected),
        cmocka_unit_test(crossover_takes_from_the_second_file),
        cmocka_unit_test(unchecked_mutants_and_bad_inputs_are_safe),
        cmocka_unit_test(corpus_trx_mutants),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
