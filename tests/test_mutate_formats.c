/* test_mutate_formats.c — the hand-written structure-aware mutators of the
 * library (relic_mutate_formats.h, issue 8): the GFF tree mutator
 * (runtime/mutate/gff_tree_mutate.c) on a GFF built here with every field type
 * (and on ../shared/corpus/gff when present), and the TRI, TRR, TPM
 * (runtime/mutate/mutate_text.c) and WTD (runtime/mutate/mutate_wtd.c) mutators on small
 * files made here (for WTD also its coefficient level: re-encoded trees
 * decode and differ, large grids stay opaque). For each: the same seed gives the same bytes, valid-mode
 * outputs pass the format's reader and differ from the input, invalid-mode
 * outputs are rejected, crossover splices from the second input, and
 * truncated or byte-mutated inputs never crash the mutator (ASan/UBSan in
 * check-asan). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "relic.h"
#include "relic_gff.h"
#include "relic_mutate_formats.h"
#include "relic_tpm.h"
#include "relic_tri.h"
#include "relic_trr.h"
#include "relic_wtd.h"
#include "mutate_scratch.h"

#define SEEDS 40

/* ---- a GFF with every field type ---- */

static relic_buf gff_a, gff_b;

static void set_label(relic_gff_tfield *f, const char *l)
{
    memset(f->label, 0, sizeof f->label);
    memcpy(f->label, l, strlen(l));
    f->src_index = f->src_label = f->src_data = RELIC_GFF_NONE;
}

/* A struct with the 18 field types; lists hold `elems` structs of 2
 * fields; variant changes the values. */
static void make_gff(relic_arena *a, relic_buf *out, int elems, int variant)
{
    static uint8_t text[] = "Some text \xe9";
    static uint8_t resref[] = "nw_it_gold001";
    static uint8_t blob[] = {1, 2, 3, 0, 255};
    relic_gff_tstruct *root = relic_arena_alloc(a, sizeof *root, 8);
    relic_gff_tfield *f = relic_arena_array(a, 18, sizeof *f, 8);
    assert_non_null(root);
    assert_non_null(f);
    memset(f, 0, 18 * sizeof *f);
    static const char *labels[18] = {"Byte", "Char", "Word", "Short", "DWord", "Int", "DWord64", "Int64", "Float",
                                     "Double", "Tag", "TemplateResRef", "LocName", "Blob", "Child", "ItemList",
                                     "Orientation", "Position"};
    for (uint32_t t = 0; t < 18; t++) {
        f[t].type = t;
        set_label(&f[t], labels[t]);
    }
    f[0].v.u = 7 + (uint64_t)variant;
    f[1].v.i = -3;
    f[2].v.u = 1000;
    f[3].v.i = -1000;
    f[4].v.u = 70000;
    f[5].v.i = -70000;
    f[6].v.u = 1ull << 40;
    f[7].v.i = -(1ll << 40);
    f[8].v.f32 = 1.5f;
    f[9].v.f64 = -2.25;
    f[10].v.bytes.p = text;
    f[10].v.bytes.n = sizeof text - 1;
    f[11].v.bytes.p = resref;
    f[11].v.bytes.n = sizeof resref - 1;
    f[12].v.loc.strref = 12345;
    f[12].v.loc.count = 2;
    f[12].v.loc.s = relic_arena_array(a, 2, sizeof(relic_gff_tsubstring), 8);
    assert_non_null(f[12].v.loc.s);
    f[12].v.loc.s[0] = (relic_gff_tsubstring){0, text, 4};
    f[12].v.loc.s[1] = (relic_gff_tsubstring){3, text + 5, 4};
    f[13].v.bytes.p = blob;
    f[13].v.bytes.n = sizeof blob;
    relic_gff_tstruct *child = relic_arena_alloc(a, sizeof *child, 8);
    relic_gff_tfield *cf = relic_arena_array(a, 1, sizeof *cf, 8);
    assert_non_null(child);
    assert_non_null(cf);
    memset(cf, 0, sizeof *cf);
    cf->type = RELIC_GFF_FIELD_TYPE_INT;
    set_label(cf, "Appearance");
    cf->v.i = 42;
    *child = (relic_gff_tstruct){9, 1, cf, RELIC_GFF_NONE, RELIC_GFF_NONE};
    f[14].v.child = child;
    f[15].v.list.count = (size_t)elems;
    f[15].v.list.items = relic_arena_array(a, (size_t)elems + 1, sizeof(relic_gff_tstruct *), 8);
    assert_non_null(f[15].v.list.items);
    for (int k = 0; k < elems; k++) {
        relic_gff_tstruct *s = relic_arena_alloc(a, sizeof *s, 8);
        relic_gff_tfield *ef = relic_arena_array(a, 2, sizeof *ef, 8);
        assert_non_null(s);
        assert_non_null(ef);
        memset(ef, 0, 2 * sizeof *ef);
        ef[0].type = RELIC_GFF_FIELD_TYPE_WORD;
        set_label(&ef[0], "Slot");
        ef[0].v.u = (uint64_t)(k + variant * 100);
        ef[1].type = RELIC_GFF_FIELD_TYPE_CEXOSTRING;
        set_label(&ef[1], "Name");
        ef[1].v.bytes.p = text;
        ef[1].v.bytes.n = (size_t)k % 5;
        *s = (relic_gff_tstruct){(uint32_t)k, 2, ef, RELIC_GFF_NONE, RELIC_GFF_NONE};
        f[15].v.list.items[k] = s;
    }
    for (int k = 0; k < 4; k++) f[16].v.vec[k] = (float)k;
    for (int k = 0; k < 3; k++) f[17].v.vec[k] = (float)(k * 10 + variant);
    *root = (relic_gff_tstruct){RELIC_GFF_NONE, 18, f, RELIC_GFF_NONE, RELIC_GFF_NONE};
    relic_gff_tree t;
    memset(&t, 0, sizeof t);
    memcpy(t.file_type, variant ? "UTI " : "UTC ", 4);
    t.root = root;
    relic_error err;
    relic_buf_init(out, 0);
    assert_int_equal(relic_gff_write_tree(&t, RELIC_GFF_LAYOUT_DEFAULT, a, out, NULL, &err), RELIC_OK);
}

static int setup(void **state)
{
    (void)state;
    relic_arena a;
    relic_arena_init_heap(&a, 1u << 20);
    make_gff(&a, &gff_a, 3, 0);
    make_gff(&a, &gff_b, 5, 1);
    relic_arena_release(&a);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    relic_buf_free(&gff_a);
    relic_buf_free(&gff_b);
    return 0;
}

static int gff_opens(const uint8_t *p, size_t n)
{
    relic_arena a;
    relic_gff_doc d;
    relic_error err;
    relic_arena_init_heap(&a, 64u << 20);
    int ok = relic_gff_open(p, n, &a, NULL, NULL, &d, &err) == RELIC_OK;
    relic_arena_release(&a);
    return ok;
}

static void gff_same_seed_gives_same_bytes(void **state)
{
    (void)state;
    for (uint64_t seed = 0; seed < SEEDS; seed++) {
        relic_buf x, y;
        relic_error err;
        relic_buf_init(&x, 0);
        relic_buf_init(&y, 0);
        assert_int_equal(relic_gff_mutate(gff_a.data, gff_a.size, gff_b.data, gff_b.size, seed, 0, test_scratch(), &x, NULL, &err),
                         RELIC_OK);
        assert_int_equal(relic_gff_mutate(gff_a.data, gff_a.size, gff_b.data, gff_b.size, seed, 0, test_scratch(), &y, NULL, &err),
                         RELIC_OK);
        assert_int_equal(x.size, y.size);
        assert_memory_equal(x.data, y.data, x.size);
        relic_buf_free(&x);
        relic_buf_free(&y);
    }
}

static void gff_valid_mutants_open_differ_and_log(void **state)
{
    (void)state;
    unsigned distinct_sizes = 0;
    size_t last = 0;
    for (uint64_t seed = 0; seed < SEEDS; seed++) {
        relic_buf x;
        relic_error err;
        relic_mutate_result res;
        relic_buf_init(&x, 0);
        assert_int_equal(relic_gff_mutate(gff_a.data, gff_a.size, NULL, 0, seed, 0, test_scratch(), &x, &res, &err), RELIC_OK);
        assert_true(gff_opens(x.data, x.size));
        assert_true(x.size != gff_a.size || memcmp(x.data, gff_a.data, x.size) != 0);
        assert_true(res.nlog >= 1);
        assert_true(res.log[0].op[0] != 0);
        distinct_sizes += x.size != last;
        last = x.size;
        relic_buf_free(&x);
    }
    assert_true(distinct_sizes > SEEDS / 4); /* not one mutation over and over */
}

static void gff_invalid_mutants_are_rejected(void **state)
{
    (void)state;
    for (uint64_t seed = 0; seed < SEEDS; seed++) {
        relic_buf x;
        relic_error err;
        relic_mutate_result res;
        relic_buf_init(&x, 0);
        assert_int_equal(relic_gff_mutate(gff_a.data, gff_a.size, NULL, 0, seed, RELIC_MUTATE_INVALID, test_scratch(), &x, &res, &err),
                         RELIC_OK);
        assert_false(gff_opens(x.data, x.size));
        assert_string_equal(res.log[res.nlog - 1].op, "stale");
        relic_buf_free(&x);
    }
}

/* Every crossover output holds a struct of the second input: its file type
 * is the first's, and it has a value only the second has (Slot >= 100). */
static void gff_crossover_splices_from_the_second_input(void **state)
{
    (void)state;
    unsigned from_b = 0;
    for (uint64_t seed = 0; seed < SEEDS; seed++) {
        relic_buf x;
        relic_error err;
        relic_mutate_result res;
        relic_buf_init(&x, 0);
        assert_int_equal(relic_gff_mutate(gff_a.data, gff_a.size, gff_b.data, gff_b.size, seed, RELIC_MUTATE_CROSSOVER,
                                          test_scratch(), &x, &res, &err),
                         RELIC_OK);
        assert_true(gff_opens(x.data, x.size));
        assert_memory_equal(x.data, "UTC ", 4);
        assert_true(strstr(res.log[0].new_value, "second input") != NULL || strcmp(res.log[0].op, "add_field") == 0 ||
                    strcmp(res.log[0].op, "splice") == 0);
        from_b += strstr(res.log[0].new_value, "second input") != NULL;
        relic_buf_free(&x);
    }
    assert_true(from_b > SEEDS / 2);
}

static void gff_rejects_what_does_not_validate(void **state)
{
    (void)state;
    relic_buf x;
    relic_error err;
    relic_buf_init(&x, 0);
    assert_int_not_equal(relic_gff_mutate(gff_a.data, 40, NULL, 0, 1, 0, test_scratch(), &x, NULL, &err), RELIC_OK);
    assert_true(err.message[0] != 0);
    assert_int_not_equal(relic_gff_mutate(gff_a.data, gff_a.size, gff_a.data, 40, 1, RELIC_MUTATE_CROSSOVER, test_scratch(), &x, NULL,
                                          &err),
                         RELIC_OK);
    relic_buf_free(&x);
}

/* Truncations and seeded single-byte changes: never a crash; whatever
 * the mutator returns in the valid mode opens. */
static void hostile_sweep(const uint8_t *p, size_t n, relic_status (*mut)(const uint8_t *, size_t, const uint8_t *, size_t, uint64_t, unsigned, relic_buf *, relic_error *),
                          int (*valid)(const uint8_t *, size_t))
{
    uint8_t *m = malloc(n ? n : 1);
    assert_non_null(m);
    uint64_t r = 0x1234;
    for (int k = 0; k < 64; k++) {
        relic_buf x;
        relic_error err;
        size_t cut = n * (size_t)k / 64;
        relic_buf_init(&x, 0);
        if (mut(p, cut, p, n, (uint64_t)k, 0, &x, &err) == RELIC_OK) assert_true(valid(x.data, x.size));
        relic_buf_free(&x);
        memcpy(m, p, n);
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        if (n) m[(r >> 33) % n] ^= (uint8_t)(1u + (r >> 20) % 255);
        relic_buf_init(&x, 0);
        if (mut(m, n, p, n, (uint64_t)k, 0, &x, &err) == RELIC_OK) assert_true(valid(x.data, x.size));
        relic_buf_free(&x);
        relic_buf_init(&x, 0);
        (void)mut(m, n, p, n, (uint64_t)k, RELIC_MUTATE_UNCHECKED | RELIC_MUTATE_INVALID, &x, &err);
        relic_buf_free(&x);
    }
    free(m);
}

static relic_status gff_mut(const uint8_t *p, size_t n, const uint8_t *p2, size_t n2, uint64_t seed, unsigned flags,
                            relic_buf *out, relic_error *err)
{
    return relic_gff_mutate(p, n, p2, n2, seed, flags, test_scratch(), out, NULL, err);
}

static void gff_hostile_inputs_do_not_crash(void **state)
{
    (void)state;
    hostile_sweep(gff_a.data, gff_a.size, gff_mut, gff_opens);
}

/* ../shared/corpus/gff: a few seeds per file, every output opens. */
static void gff_corpus_mutants_open(void **state)
{
    (void)state;
    DIR *dir = opendir("../shared/corpus/gff");
    if (!dir) {
        print_message("gff_corpus_mutants_open: ../shared/corpus/gff not present, corpus part skipped\n");
        return;
    }
    struct dirent *e;
    unsigned files = 0;
    while ((e = readdir(dir)) != NULL && files < 12) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "../shared/corpus/gff/%s", e->d_name);
        relic_mapping map;
        relic_error err;
        if (relic_map_file(path, 0, &map, &err) != RELIC_OK) continue;
        if (map.bytes.size < (1u << 20) && gff_opens(map.bytes.data, map.bytes.size)) {
            files++;
            for (uint64_t seed = 0; seed < 4; seed++) {
                relic_buf x;
                relic_buf_init(&x, 0);
                relic_status st = relic_gff_mutate(map.bytes.data, map.bytes.size, gff_b.data, gff_b.size, seed, 0, test_scratch(), &x,
                                                   NULL, &err);
                assert_true(st == RELIC_OK || st == RELIC_E_LIMIT);
                if (st == RELIC_OK) assert_true(gff_opens(x.data, x.size));
                relic_buf_free(&x);
            }
        }
        relic_unmap(&map);
    }
    closedir(dir);
    assert_true(files > 0);
}

/* ---- the relic_mut_format mutators: TRI, TRR, TPM, WTD ---- */

static const char tri_text[] = "2\n0 1 2\n2 3 0\n4\n-256 0 12.5\n-255.75 0 12.25\n-255.75 0.25 1e1\n-256 .25 -0.125\n";
static const char tri_text2[] = "1\n0 1 2\n3\n1 2 3\n4 5 6\n7 8 9\n";
static const char trr_text[] = "1.5 2.5 3.5\n4 5 6\n-7 8 9.25\n";
static const char trr_text2[] = "10 20 30\n";
static const char tpm_text[] =
    "mesh \"a\"\n{\n f = (1,2,3),(1,1,1),(1,1,1),1\n v = (0,0,0)\n v = (1,0,0)\n v = (0,1,0)\n t = (0,0)\n"
    " n = (0,0,1)\n m = \"x\"\n}\n";
static const char tpm_text2[] =
    "mesh \"b\"\n{\n v = (5,5,5)\n v = (6,5,5)\n v = (5,6,5)\n v = (5,5,6)\n t = (1,1)\n n = (1,0,0)\n"
    " f = (1,2,3),(1,1,1),(1,1,1),0\n f = (2,3,4),(1,1,1),(1,1,1),0\n m = \"y\"\n}\n";

static const relic_mut_format *cur;
static int cur_valid(const uint8_t *p, size_t n)
{
    relic_error err;
    return cur->validate(p, n, test_scratch(), &err) == RELIC_OK;
}
static relic_status cur_mut(const uint8_t *p, size_t n, const uint8_t *p2, size_t n2, uint64_t seed, unsigned flags,
                            relic_buf *out, relic_error *err)
{
    return relic_mutate(cur, p, n, p2, n2, seed, flags, test_scratch(), out, NULL, err);
}

/* Deterministic, valid outputs read back and differ, invalid ones do not
 * read, crossover works, hostile inputs do not crash. */
static void check_format(const relic_mut_format *f, const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
                         int has_invalid)
{
    relic_error err;
    assert_int_equal(f->validate(a, na, test_scratch(), &err), RELIC_OK);
    for (uint64_t seed = 0; seed < SEEDS; seed++) {
        relic_buf x, y;
        relic_buf_init(&x, 0);
        relic_buf_init(&y, 0);
        assert_int_equal(relic_mutate(f, a, na, b, nb, seed, 0, test_scratch(), &x, NULL, &err), RELIC_OK);
        assert_int_equal(relic_mutate(f, a, na, b, nb, seed, 0, test_scratch(), &y, NULL, &err), RELIC_OK);
        assert_int_equal(x.size, y.size);
        assert_memory_equal(x.data, y.data, x.size);
        assert_int_equal(f->validate(x.data, x.size, test_scratch(), &err), RELIC_OK);
        assert_true(x.size != na || memcmp(x.data, a, na) != 0);
        relic_buf_free(&y);
        if (has_invalid) {
            relic_buf_init(&y, 0);
            if (relic_mutate(f, a, na, NULL, 0, seed, RELIC_MUTATE_INVALID, test_scratch(), &y, NULL, &err) == RELIC_OK)
                assert_int_not_equal(f->validate(y.data, y.size, test_scratch(), &err), RELIC_OK);
            relic_buf_free(&y);
        }
        relic_buf_init(&y, 0);
        if (relic_mutate(f, a, na, b, nb, seed, RELIC_MUTATE_CROSSOVER, test_scratch(), &y, NULL, &err) == RELIC_OK)
            assert_int_equal(f->validate(y.data, y.size, test_scratch(), &err), RELIC_OK);
        relic_buf_free(&y);
        relic_buf_free(&x);
    }
    cur = f;
    hostile_sweep(a, na, cur_mut, cur_valid);
}

static void tri_mutants(void **state)
{
    (void)state;
    check_format(relic_mutator_tri(), (const uint8_t *)tri_text, strlen(tri_text), (const uint8_t *)tri_text2,
                 strlen(tri_text2), 1);
}

static void trr_mutants(void **state)
{
    (void)state;
    check_format(relic_mutator_trr(), (const uint8_t *)trr_text, strlen(trr_text), (const uint8_t *)trr_text2,
                 strlen(trr_text2), 1);
}

static void tpm_mutants(void **state)
{
    (void)state;
    check_format(relic_mutator_tpm(), (const uint8_t *)tpm_text, strlen(tpm_text), (const uint8_t *)tpm_text2,
                 strlen(tpm_text2), 1);
}

/* A 16 x 16 terrain encoded here (lossless) and a flat 8 x 8 one. */
static void wtd_file(uint32_t n, int slope, relic_buf *out)
{
    int32_t h[256];
    for (uint32_t y = 0; y < n; y++)
        for (uint32_t x = 0; x < n; x++) h[y * n + x] = slope ? (int32_t)(x * 3 + y * 5 + (x * y) % 7) : 4;
    relic_wtd_mapping m;
    relic_wtd_mapping_init(&m, n, 0, 0, 1, 0.25);
    relic_arena a;
    relic_error err;
    relic_arena_init_heap(&a, 16u << 20);
    relic_buf_init(out, 0);
    assert_int_equal(relic_wtd_encode(h, n, &m, NULL, &a, out, NULL, &err), RELIC_OK);
    relic_arena_release(&a);
}

static void wtd_mutants(void **state)
{
    (void)state;
    relic_buf a, b;
    wtd_file(16, 1, &a);
    wtd_file(8, 0, &b);
    check_format(relic_mutator_wtd(), a.data, a.size, b.data, b.size, 1);
    relic_buf_free(&a);
    relic_buf_free(&b);
}

/* The wavelet coefficients of a WTD file (n x n into *coef, malloc'd). */
static uint32_t wtd_coefficients(const uint8_t *p, size_t size, int32_t **coef)
{
    relic_wtd_file h;
    relic_error err;
    assert_int_equal(relic_wtd_read_header(p, size, &h, &err), RELIC_OK);
    uint32_t n = (uint32_t)h.mapping.quad_extents.size_x;
    *coef = calloc((size_t)n * n, sizeof **coef);
    assert_non_null(*coef);
    assert_int_equal(relic_wtd_read_tree(p, size, &h, *coef, NULL, &err), RELIC_OK);
    return n;
}

/* Which level a mutant's log touched: 1 coefficients or heights, 0 not. */
static int wtd_touched_grid(const relic_mutate_result *r)
{
    for (int k = 0; k < r->nlog; k++)
        if (strncmp(r->log[k].path, "coefficients", 12) == 0 || strncmp(r->log[k].path, "heights", 7) == 0) return 1;
    return 0;
}

/* Coefficient and height mutations re-encode the tree: every such valid
 * mutant decodes, its coefficients differ from the input's, the same seed
 * gives the same bytes, and some change the grid size. */
static void wtd_coefficient_mutants_decode_and_differ(void **state)
{
    (void)state;
    relic_buf a;
    wtd_file(16, 1, &a);
    int32_t *c0;
    assert_int_equal(wtd_coefficients(a.data, a.size, &c0), 16);
    unsigned touched = 0, resized = 0;
    for (uint64_t seed = 0; seed < 200; seed++) {
        relic_buf x, y;
        relic_error err;
        relic_mutate_result r;
        relic_buf_init(&x, 0);
        relic_buf_init(&y, 0);
        assert_int_equal(relic_mutate(relic_mutator_wtd(), a.data, a.size, NULL, 0, seed, 0, test_scratch(), &x, &r, &err), RELIC_OK);
        if (wtd_touched_grid(&r)) {
            touched++;
            assert_int_equal(relic_mutate(relic_mutator_wtd(), a.data, a.size, NULL, 0, seed, 0, test_scratch(), &y, NULL, &err),
                             RELIC_OK);
            assert_int_equal(x.size, y.size);
            assert_memory_equal(x.data, y.data, x.size);
            relic_arena ar;
            relic_wtd_terrain t;
            relic_arena_init_heap(&ar, 16u << 20);
            assert_int_equal(relic_wtd_decode_terrain(x.data, x.size, &ar, &t, &err), RELIC_OK);
            relic_arena_release(&ar);
            int32_t *c1;
            uint32_t n = wtd_coefficients(x.data, x.size, &c1);
            if (n != 16) resized++;
            else assert_true(memcmp(c0, c1, sizeof(int32_t) * 256) != 0);
            free(c1);
        }
        relic_buf_free(&x);
        relic_buf_free(&y);
    }
    assert_true(touched >= 20);
    assert_true(resized >= 1);
    free(c0);
    relic_buf_free(&a);
}

/* Grids above the mutator's bound keep the opaque path: no mutant of a
 * 128 x 128 terrain touches coefficients or heights. */
static void wtd_large_grid_keeps_opaque_tree(void **state)
{
    (void)state;
    const uint32_t n = 128;
    int32_t *h = malloc(sizeof *h * n * n);
    assert_non_null(h);
    for (uint32_t i = 0; i < n * n; i++) h[i] = (int32_t)(i % n / 64);
    relic_wtd_mapping m;
    relic_wtd_mapping_init(&m, n, 0, 0, 1, 0.25);
    relic_arena ar;
    relic_error err;
    relic_buf a;
    relic_arena_init_heap(&ar, 64u << 20);
    relic_buf_init(&a, 0);
    assert_int_equal(relic_wtd_encode(h, n, &m, NULL, &ar, &a, NULL, &err), RELIC_OK);
    relic_arena_release(&ar);
    free(h);
    for (uint64_t seed = 0; seed < 24; seed++) {
        relic_buf x;
        relic_mutate_result r;
        relic_buf_init(&x, 0);
        assert_int_equal(relic_mutate(relic_mutator_wtd(), a.data, a.size, NULL, 0, seed, 0, test_scratch(), &x, &r, &err), RELIC_OK);
        assert_false(wtd_touched_grid(&r));
        relic_buf_free(&x);
    }
    relic_buf_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gff_same_seed_gives_same_bytes),
        cmocka_unit_test(gff_valid_mutants_open_differ_and_log),
        cmocka_unit_test(gff_invalid_mutants_are_rejected),
        cmocka_unit_test(gff_crossover_splices_from_the_second_input),
        cmocka_unit_test(gff_rejects_what_does_not_validate),
        cmocka_unit_test(gff_hostile_inputs_do_not_crash),
        cmocka_unit_test(gff_corpus_mutants_open),
        cmocka_unit_test(tri_mutants),
        cmocka_unit_test(trr_mutants),
        cmocka_unit_test(tpm_mutants),
        cmocka_unit_test(wtd_mutants),
        cmocka_unit_test(wtd_coefficient_mutants_decode_and_differ),
        cmocka_unit_test(wtd_large_grid_keeps_opaque_tree),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
