/* test_json_arena.c — JSON printing and reading allocate only from the
 * caller's memory: for every format with JSON, printing into a buffer in an
 * arena over a fixed buffer (and into a fixed buffer), and reading into an
 * arena over a fixed buffer, make no heap call (tests/heap_guard.h counts
 * them, plain and under ASan); the same call given one byte less than it
 * used fails with RELIC_E_NOMEM, again without a heap call. The models come
 * from the seeds of the generated fuzz targets (fuzz/corpus/gen_<format>/:
 * files relic's writers made), and what is read back prints the same text. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "heap_guard.h"
#include "relic.h"
#include "relic_gff.h"
#include "relic_grf.h"

#include "bwm.h"
#include "cau.h"
#include "erf.h"
#include "gff.h"
#include "grf_geometry.h"
#include "grf_geometry_v11.h"
#include "grf_geometry_v13.h"
#include "grf_header.h"
#include "grf_mapping.h"
#include "grf_mapping_ref.h"
#include "grf_material.h"
#include "grf_material_v11.h"
#include "grf_mesh.h"
#include "grf_object.h"
#include "grf_region.h"
#include "grf_region_v11.h"
#include "groff.h"
#include "pid.h"
#include "rim.h"
#include "scn_bmp.h"
#include "scn_header.h"
#include "scn_hierarchy.h"
#include "scn_instance.h"
#include "scn_instance44.h"
#include "scn_partitions.h"
#include "scn_partitions24.h"
#include "scn_text.h"
#include "tpa.h"
#include "trn.h"
#include "trrn.h"
#include "watr.h"
#include "wtd.h"

#define SEEDS "fuzz/corpus"
#define MEM_SIZE ((size_t)64 << 20)

static uint8_t *mem; /* the caller memory every call gets, from the heap before arming */

typedef relic_status (*print_fn)(void *ctx, relic_buf *out, relic_error *err);
typedef relic_status (*read_fn)(void *ctx, const char *text, size_t len, relic_arena *a, relic_error *err);

/* Print with arena and fixed buffers, exactly sized and one byte short;
 * returns the text in a heap copy (*len bytes). */
static char *check_print(const char *what, print_fn f, void *ctx, size_t *len)
{
    relic_arena a;
    relic_buf b;
    relic_error err;
    relic_status st;
    unsigned long calls;

    relic_arena_init_buffer(&a, mem, MEM_SIZE);
    relic_buf_init_arena(&b, &a, 0);
    heap_guard_arm();
    st = f(ctx, &b, &err);
    calls = heap_guard_disarm();
    if (st != RELIC_OK) print_message("%s: print: %s: %s\n", what, err.path, err.message);
    assert_int_equal(st, RELIC_OK);
    if (calls) print_message("%s: print into an arena made %lu heap calls\n", what, calls);
    assert_int_equal(calls, 0);
    size_t used = a.used;
    char *text = malloc(b.size + 1);
    assert_non_null(text);
    memcpy(text, b.data, b.size);
    *len = b.size;

    relic_arena_init_buffer(&a, mem, used - 1);
    relic_buf_init_arena(&b, &a, 0);
    heap_guard_arm();
    st = f(ctx, &b, &err);
    calls = heap_guard_disarm();
    if (st != RELIC_E_NOMEM) print_message("%s: print with %zu of %zu arena bytes: status %d\n", what, used - 1, used, st);
    assert_int_equal(st, RELIC_E_NOMEM);
    assert_int_equal(calls, 0);

    /* a fixed buffer of the text's size; a byte less fails */
    relic_buf_init_fixed(&b, mem, *len);
    heap_guard_arm();
    st = f(ctx, &b, &err);
    calls = heap_guard_disarm();
    assert_int_equal(st, RELIC_OK);
    assert_int_equal(calls, 0);
    assert_memory_equal(b.data, text, *len);
    relic_buf_init_fixed(&b, mem, *len - 1);
    heap_guard_arm();
    st = f(ctx, &b, &err);
    calls = heap_guard_disarm();
    assert_int_equal(st, RELIC_E_NOMEM);
    assert_int_equal(calls, 0);
    return text;
}

/* Read text into an arena over the fixed buffer (the model stays there for
 * the caller to print back), then again one byte short. The text lives
 * on the heap, apart from mem. */
static void check_read(const char *what, read_fn f, void *ctx, const char *text, size_t len)
{
    relic_arena a;
    relic_error err;
    relic_status st;
    unsigned long calls;

    relic_arena_init_buffer(&a, mem, MEM_SIZE);
    heap_guard_arm();
    st = f(ctx, text, len, &a, &err);
    calls = heap_guard_disarm();
    size_t used = a.used;
    if (st != RELIC_OK) print_message("%s: read: %s: %s\n", what, err.path, err.message);
    assert_int_equal(st, RELIC_OK);
    if (calls) print_message("%s: read into an arena made %lu heap calls\n", what, calls);
    assert_int_equal(calls, 0);

    /* one byte short, in memory past the model just read */
    assert_true(2 * used < MEM_SIZE);
    relic_arena_init_buffer(&a, mem + used + 64, used - 1);
    heap_guard_arm();
    st = f(NULL, text, len, &a, &err);
    calls = heap_guard_disarm();
    if (st != RELIC_E_NOMEM) print_message("%s: read with %zu of %zu arena bytes: status %d\n", what, used - 1, used, st);
    assert_int_equal(st, RELIC_E_NOMEM);
    assert_int_equal(calls, 0);
}

/* The seeds of a generated fuzz target, each in a heap copy; *n of them. */
static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *p = malloc(n > 0 ? (size_t)n : 1);
    if (p && fread(p, 1, (size_t)n, fp) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(fp);
    *size = (size_t)n;
    return p;
}

/* One generated format: every seed that validates is decoded, printed
 * (checked), read back (checked) and printed again: the same text. */
#define GEN_FORMAT(F, T)                                                                                    \
    typedef struct F##_ctx {                                                                                \
        T m, back;                                                                                          \
    } F##_ctx;                                                                                              \
    static relic_status F##_print(void *ctx, relic_buf *out, relic_error *err)                              \
    {                                                                                                       \
        return relic_##F##_json_print(&((F##_ctx *)ctx)->m, out, err);                                      \
    }                                                                                                       \
    static relic_status F##_read(void *ctx, const char *text, size_t len, relic_arena *a, relic_error *err) \
    {                                                                                                       \
        T scratch;                                                                                          \
        return relic_##F##_json_read(text, len, a, ctx ? &((F##_ctx *)ctx)->back : &scratch, err);          \
    }                                                                                                       \
    static void test_##F(void **state)                                                                      \
    {                                                                                                       \
        (void)state;                                                                                        \
        int done = 0;                                                                                       \
        for (int s = 0; s < 16; s++) {                                                                      \
            char path[256];                                                                                 \
            size_t size, len, len2;                                                                         \
            snprintf(path, sizeof path, SEEDS "/gen_" #F "/seed-%02d", s);                                  \
            uint8_t *bytes = read_file(path, &size);                                                        \
            if (!bytes) continue;                                                                           \
            relic_##F##_view v;                                                                             \
            relic_error err;                                                                                \
            relic_arena heap;                                                                               \
            static F##_ctx c;                                                                               \
            relic_arena_init_heap(&heap, 0);                                                                \
            if (relic_##F##_validate(bytes, size, &v, &err) == RELIC_OK &&                                  \
                relic_##F##_decode(&v, &heap, &c.m, &err) == RELIC_OK) {                                    \
                char *text = check_print(path, F##_print, &c, &len);                                        \
                check_read(path, F##_read, &c, text, len);                                                  \
                relic_buf again;                                                                            \
                relic_buf_init(&again, 0);                                                                  \
                assert_int_equal(relic_##F##_json_print(&c.back, &again, &err), RELIC_OK);                  \
                len2 = again.size;                                                                          \
                assert_int_equal(len2, len);                                                                \
                assert_memory_equal(again.data, text, len);                                                 \
                relic_buf_free(&again);                                                                     \
                free(text);                                                                                 \
                done++;                                                                                     \
            }                                                                                               \
            relic_arena_release(&heap);                                                                     \
            free(bytes);                                                                                    \
        }                                                                                                   \
        if (!done) print_message("note: no seed of gen_" #F " validates (run from the repository root)\n"); \
        assert_true(done > 0);                                                                              \
    }

GEN_FORMAT(bwm, relic_bwm_file)
GEN_FORMAT(cau, relic_cau_file)
GEN_FORMAT(erf, relic_erf_file)
GEN_FORMAT(gff, relic_gff_file)
GEN_FORMAT(grf_geometry, relic_grf_geometry_file)
GEN_FORMAT(grf_geometry_v11, relic_grf_geometry_v11_file)
GEN_FORMAT(grf_geometry_v13, relic_grf_geometry_v13_file)
GEN_FORMAT(grf_header, relic_grf_header_file)
GEN_FORMAT(grf_mapping, relic_grf_mapping_file)
GEN_FORMAT(grf_mapping_ref, relic_grf_mapping_ref_file)
GEN_FORMAT(grf_material, relic_grf_material_file)
GEN_FORMAT(grf_material_v11, relic_grf_material_v11_file)
GEN_FORMAT(grf_mesh, relic_grf_mesh_file)
GEN_FORMAT(grf_object, relic_grf_object_file)
GEN_FORMAT(grf_region, relic_grf_region_file)
GEN_FORMAT(grf_region_v11, relic_grf_region_v11_file)
GEN_FORMAT(groff, relic_groff_file)
GEN_FORMAT(pid, relic_pid_file)
GEN_FORMAT(rim, relic_rim_file)
GEN_FORMAT(scn_bmp, relic_scn_bmp_file)
GEN_FORMAT(scn_header, relic_scn_header_file)
GEN_FORMAT(scn_hierarchy, relic_scn_hierarchy_file)
GEN_FORMAT(scn_instance, relic_scn_instance_file)
GEN_FORMAT(scn_instance44, relic_scn_instance44_file)
GEN_FORMAT(scn_partitions, relic_scn_partitions_file)
GEN_FORMAT(scn_partitions24, relic_scn_partitions24_file)
GEN_FORMAT(scn_text, relic_scn_text_file)
GEN_FORMAT(tpa, relic_tpa_file)
GEN_FORMAT(trn, relic_trn_file)
GEN_FORMAT(trrn, relic_trrn_file)
GEN_FORMAT(watr, relic_watr_file)
GEN_FORMAT(wtd, relic_wtd_file)

/* nwn_gff's JSON form of GFF (gff_json_print.c, gff_json.c). The printer
 * takes its scratch from out's arena, or, for a fixed buffer, from the
 * arena relic_gff_json_print_doc_in is given (here over its own memory). */
static relic_status gff_doc_print(void *ctx, relic_buf *out, relic_error *err)
{
    static uint8_t scratch_mem[(size_t)1 << 20];
    if (out->arena) return relic_gff_json_print_doc(ctx, RELIC_GFF_ENC_AUTO, out, err);
    relic_arena scratch;
    relic_arena_init_buffer(&scratch, scratch_mem, sizeof scratch_mem);
    return relic_gff_json_print_doc_in(ctx, RELIC_GFF_ENC_AUTO, out, &scratch, err);
}

/* A tree printed (relic_gff_json_print_tree: written, opened, printed) with
 * its scratch from out's arena, or, for a fixed buffer, from the arena
 * relic_gff_json_print_tree_in is given. */
static relic_status gff_tree_print(void *ctx, relic_buf *out, relic_error *err)
{
    static uint8_t scratch_mem[(size_t)4 << 20];
    if (out->arena) return relic_gff_json_print_tree(ctx, RELIC_GFF_ENC_AUTO, out, err);
    relic_arena scratch;
    relic_arena_init_buffer(&scratch, scratch_mem, sizeof scratch_mem);
    return relic_gff_json_print_tree_in(ctx, RELIC_GFF_ENC_AUTO, out, &scratch, err);
}

static relic_status gff_tree_read(void *ctx, const char *text, size_t len, relic_arena *a, relic_error *err)
{
    relic_gff_tree scratch;
    return relic_gff_json_read_tree(text, len, RELIC_GFF_ENC_AUTO, a, ctx ? (relic_gff_tree *)ctx : &scratch, err);
}

static void test_gff_nwn_json(void **state)
{
    (void)state;
    int done = 0;
    for (int s = 0; s < 16; s++) {
        char path[256];
        size_t size;
        snprintf(path, sizeof path, SEEDS "/gen_gff/seed-%02d", s);
        uint8_t *bytes = read_file(path, &size);
        if (!bytes) continue;
        relic_arena heap;
        relic_gff_doc d;
        relic_error err;
        relic_buf js, again;
        relic_arena_init_heap(&heap, 0);
        relic_buf_init(&js, 0);
        relic_buf_init(&again, 0);
        if (relic_gff_open(bytes, size, &heap, NULL, NULL, &d, &err) == RELIC_OK &&
            relic_gff_json_print_doc(&d, RELIC_GFF_ENC_AUTO, &js, &err) == RELIC_OK) {
            relic_gff_tree t;
            size_t len;
            char *text = check_print(path, gff_doc_print, &d, &len);
            assert_int_equal(len, js.size);
            assert_memory_equal(text, js.data, len);
            free(text);
            check_read(path, gff_tree_read, &t, (const char *)js.data, js.size);
            assert_int_equal(relic_gff_json_print_tree(&t, RELIC_GFF_ENC_AUTO, &again, &err), RELIC_OK);
            assert_int_equal(again.size, js.size);
            assert_memory_equal(again.data, js.data, js.size);
            /* the tree printer too, its tree apart from mem (which check_print reuses) */
            relic_gff_tree t2;
            relic_arena ta;
            relic_arena_init_heap(&ta, 0);
            assert_int_equal(relic_gff_json_read_tree((const char *)js.data, js.size, RELIC_GFF_ENC_AUTO, &ta, &t2, &err),
                             RELIC_OK);
            char *tree_text = check_print(path, gff_tree_print, &t2, &len);
            assert_int_equal(len, js.size);
            assert_memory_equal(tree_text, js.data, len);
            free(tree_text);
            relic_arena_release(&ta);
            done++;
        }
        relic_buf_free(&js);
        relic_buf_free(&again);
        relic_arena_release(&heap);
        free(bytes);
    }
    assert_true(done > 0);
}

/* The guard itself sees heap calls, so a zero above means something. */
static void test_heap_guard_counts(void **state)
{
    (void)state;
    heap_guard_arm();
    void *volatile p = malloc(16);
    free(p);
    assert_int_equal(heap_guard_disarm(), 2);
}

/* A whole GROFF file with its sections decoded (grf_json.c), from the
 * gen_groff seeds whose sections lie back to back. */
static relic_status grf_file_print(void *ctx, relic_buf *out, relic_error *err)
{
    static uint8_t scratch_mem[(size_t)4 << 20];
    if (out->arena) return relic_grf_json_print(ctx, out, err);
    relic_arena scratch;
    relic_arena_init_buffer(&scratch, scratch_mem, sizeof scratch_mem);
    return relic_grf_json_print_in(ctx, out, &scratch, err);
}
static relic_status grf_file_read(void *ctx, const char *text, size_t len, relic_arena *a, relic_error *err)
{
    relic_groff_file scratch;
    return relic_grf_json_read(text, len, a, ctx ? (relic_groff_file *)ctx : &scratch, err);
}

static void test_grf_file(void **state)
{
    (void)state;
    int done = 0;
    for (int s = 0; s < 16; s++) {
        char path[256];
        size_t size, len;
        snprintf(path, sizeof path, SEEDS "/gen_groff/seed-%02d", s);
        uint8_t *bytes = read_file(path, &size);
        if (!bytes) continue;
        relic_arena heap;
        relic_groff_view v;
        relic_groff_file m, back;
        relic_grf_file f;
        relic_error err;
        relic_buf js;
        relic_arena_init_heap(&heap, 0);
        relic_buf_init(&js, 0);
        if (relic_groff_validate(bytes, size, &v, &err) == RELIC_OK && relic_groff_decode(&v, &heap, &m, &err) == RELIC_OK &&
            relic_grf_file_decode(&m, &heap, &f, &err) == RELIC_OK && relic_grf_json_print(&f, &js, &err) == RELIC_OK) {
            /* an arena buffer (scratch from its arena) and a fixed one (relic_grf_json_print_in) */
            char *text = check_print(path, grf_file_print, &f, &len);
            assert_int_equal(len, js.size);
            assert_memory_equal(text, js.data, len);
            free(text);
            len = js.size;
            check_read(path, grf_file_read, &back, (const char *)js.data, len);
            done++;
        }
        relic_buf_free(&js);
        relic_arena_release(&heap);
        free(bytes);
    }
    if (!done) print_message("note: no gen_groff seed has back-to-back sections\n");
}

static int setup(void **state)
{
    (void)state;
    mem = malloc(MEM_SIZE);
    return mem ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(mem);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heap_guard_counts),
        cmocka_unit_test(test_gff_nwn_json),
        cmocka_unit_test(test_grf_file),
        cmocka_unit_test(test_bwm),
        cmocka_unit_test(test_cau),
        cmocka_unit_test(test_erf),
        cmocka_unit_test(test_gff),
        cmocka_unit_test(test_grf_geometry),
        cmocka_unit_test(test_grf_geometry_v11),
        cmocka_unit_test(test_grf_geometry_v13),
        cmocka_unit_test(test_grf_header),
        cmocka_unit_test(test_grf_mapping),
        cmocka_unit_test(test_grf_mapping_ref),
        cmocka_unit_test(test_grf_material),
        cmocka_unit_test(test_grf_material_v11),
        cmocka_unit_test(test_grf_mesh),
        cmocka_unit_test(test_grf_object),
        cmocka_unit_test(test_grf_region),
        cmocka_unit_test(test_grf_region_v11),
        cmocka_unit_test(test_groff),
        cmocka_unit_test(test_pid),
        cmocka_unit_test(test_rim),
        cmocka_unit_test(test_scn_bmp),
        cmocka_unit_test(test_scn_header),
        cmocka_unit_test(test_scn_hierarchy),
        cmocka_unit_test(test_scn_instance),
        cmocka_unit_test(test_scn_instance44),
        cmocka_unit_test(test_scn_partitions),
        cmocka_unit_test(test_scn_partitions24),
        cmocka_unit_test(test_scn_text),
        cmocka_unit_test(test_tpa),
        cmocka_unit_test(test_trn),
        cmocka_unit_test(test_trrn),
        cmocka_unit_test(test_watr),
        cmocka_unit_test(test_wtd),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
