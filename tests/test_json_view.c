/* test_json_view.c — JSON printed from the validated view (relic_F_json_print_view,
 * runtime/json/gen_json.c) is the text printed from the decoded model
 * (relic_F_json_print), byte for byte, for every format relic-gen writes a
 * view printer for: on the seeds of the generated fuzz targets
 * (fuzz/corpus/gen_<format>/, files relic's writers made) and, when
 * ../shared/corpus exists, on the real files of the formats it holds. The
 * view printer allocates nothing: into a fixed buffer of exactly the
 * text's size it succeeds with no heap call, and a byte less fails with
 * RELIC_E_NOMEM. Streamed through a small sink, the text is the same.
 * Also the output window it writes through (relic_buf_reserve/commit), and
 * whole GROFF files: relic_grf_json_print_view's text is relic_grf_json_print's
 * (seeds, the corpus's GRF and SCN, sections spoiled in turn). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "heap_guard.h"
#include "test_pass.h"
#include "relic.h"
#include "relic_grf.h"

#include "bif.h"
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
#include "key.h"
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
#include "tlk.h"
#include "tpa.h"
#include "trn.h"
#include "trrn.h"
#include "watr.h"
#include "wtd.h"

#define SEEDS "fuzz/corpus"
#define CORPUS "../shared/corpus"

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

static relic_status count_sink(void *ctx, const uint8_t *p, size_t n)
{
    relic_buf *copy = ctx;
    relic_buf_append(copy, p, n);
    return copy->failed ? RELIC_E_NOMEM : RELIC_OK;
}

typedef relic_status (*view_print_fn)(const void *view, relic_buf *out, relic_error *err);

/* The view's text equals model (len bytes): in a heap buffer, in a fixed
 * buffer of exactly len bytes with no heap call (and a byte less fails),
 * and streamed through a sink of 100-byte chunks. */
static void check_view_text(const char *what, view_print_fn print, const void *view, const char *model, size_t len)
{
    relic_buf b;
    relic_error err;
    relic_buf_init(&b, 0);
    assert_int_equal(print(view, &b, &err), RELIC_OK);
    if (b.size != len || memcmp(b.data, model, len) != 0) {
        size_t i = 0;
        while (i < len && i < b.size && b.data[i] == (uint8_t)model[i]) i++;
        fail_msg("%s: the view's JSON differs from the model's at byte %zu of %zu (%zu printed)", what, i, len, b.size);
    }
    relic_buf_free(&b);

    uint8_t *mem = malloc(len);
    assert_non_null(mem);
    relic_buf_init_fixed(&b, mem, len);
    heap_guard_arm();
    relic_status st = print(view, &b, &err);
    unsigned long calls = heap_guard_disarm();
    assert_int_equal(st, RELIC_OK);
    assert_int_equal(calls, 0);
    assert_memory_equal(mem, model, len);
    relic_buf_init_fixed(&b, mem, len - 1);
    heap_guard_arm();
    st = print(view, &b, &err);
    calls = heap_guard_disarm();
    assert_int_equal(st, RELIC_E_NOMEM);
    assert_int_equal(calls, 0);
    free(mem);

    relic_buf copy, sink;
    relic_buf_init(&copy, 0);
    relic_buf_init_sink(&sink, 100, count_sink, &copy);
    assert_int_equal(print(view, &sink, &err), RELIC_OK);
    assert_int_equal(relic_buf_flush(&sink), 0);
    assert_int_equal(copy.size, len);
    assert_memory_equal(copy.data, model, len);
    relic_buf_free(&sink);
    relic_buf_free(&copy);
}

/* Format F with model type T: validate, decode and print the model, then
 * check the view's text against it. Returns 1 when the bytes validate. */
#define VIEW_FORMAT(F, T)                                                                                   \
    static relic_status F##_print_view_(const void *v, relic_buf *o, relic_error *e)                        \
    {                                                                                                       \
        return relic_##F##_json_print_view((const relic_##F##_view *)v, o, e);                              \
    }                                                                                                       \
    static int check_##F(const char *what, const uint8_t *bytes, size_t size)                               \
    {                                                                                                       \
        relic_##F##_view v;                                                                                 \
        relic_error err;                                                                                    \
        relic_arena a;                                                                                      \
        T m;                                                                                                \
        relic_buf text;                                                                                     \
        if (relic_##F##_validate(bytes, size, &v, &err) != RELIC_OK) return 0;                              \
        relic_arena_init_heap(&a, 0);                                                                       \
        relic_buf_init(&text, 0);                                                                           \
        assert_int_equal(relic_##F##_decode(&v, &a, &m, &err), RELIC_OK);                                   \
        assert_int_equal(relic_##F##_json_print(&m, &text, &err), RELIC_OK);                                \
        check_view_text(what, F##_print_view_, &v, (const char *)text.data, text.size);                     \
        relic_buf_free(&text);                                                                              \
        relic_arena_release(&a);                                                                            \
        return 1;                                                                                           \
    }                                                                                                       \
    static void test_##F##_view_prints_as_model(void **state)                                               \
    {                                                                                                       \
        (void)state;                                                                                        \
        int done = 0;                                                                                       \
        for (int s = 0; s < 16; s++) {                                                                      \
            char path[256];                                                                                 \
            size_t size;                                                                                    \
            snprintf(path, sizeof path, SEEDS "/gen_" #F "/seed-%02d", s);                                  \
            uint8_t *bytes = read_file(path, &size);                                                        \
            if (!bytes) continue;                                                                           \
            done += check_##F(path, bytes, size);                                                           \
            free(bytes);                                                                                    \
        }                                                                                                   \
        if (!done) print_message("note: no seed of gen_" #F " validates (run from the repository root)\n"); \
        assert_true(done > 0);                                                                              \
    }

VIEW_FORMAT(bwm, relic_bwm_file)
VIEW_FORMAT(cau, relic_cau_file)
VIEW_FORMAT(gff, relic_gff_file)
VIEW_FORMAT(grf_geometry, relic_grf_geometry_file)
VIEW_FORMAT(grf_geometry_v11, relic_grf_geometry_v11_file)
VIEW_FORMAT(grf_geometry_v13, relic_grf_geometry_v13_file)
VIEW_FORMAT(grf_header, relic_grf_header_file)
VIEW_FORMAT(grf_mapping, relic_grf_mapping_file)
VIEW_FORMAT(grf_mapping_ref, relic_grf_mapping_ref_file)
VIEW_FORMAT(grf_material, relic_grf_material_file)
VIEW_FORMAT(grf_material_v11, relic_grf_material_v11_file)
VIEW_FORMAT(grf_mesh, relic_grf_mesh_file)
VIEW_FORMAT(grf_object, relic_grf_object_file)
VIEW_FORMAT(grf_region, relic_grf_region_file)
VIEW_FORMAT(grf_region_v11, relic_grf_region_v11_file)
VIEW_FORMAT(rim, relic_rim_file)
VIEW_FORMAT(scn_bmp, relic_scn_bmp_file)
VIEW_FORMAT(scn_header, relic_scn_header_file)
VIEW_FORMAT(scn_hierarchy, relic_scn_hierarchy_file)
VIEW_FORMAT(scn_instance, relic_scn_instance_file)
VIEW_FORMAT(scn_instance44, relic_scn_instance44_file)
VIEW_FORMAT(scn_partitions, relic_scn_partitions_file)
VIEW_FORMAT(scn_partitions24, relic_scn_partitions24_file)
VIEW_FORMAT(scn_text, relic_scn_text_file)
VIEW_FORMAT(watr, relic_watr_file)
/* structs of varying size, printed by walking their bytes */
VIEW_FORMAT(erf, relic_erf_file)
VIEW_FORMAT(groff, relic_groff_file)
VIEW_FORMAT(pid, relic_pid_file)
VIEW_FORMAT(tpa, relic_tpa_file)
VIEW_FORMAT(trn, relic_trn_file)
VIEW_FORMAT(trrn, relic_trrn_file)
VIEW_FORMAT(wtd, relic_wtd_file)

/* bif, key and tlk have no generated seeds: real files only */
static relic_status key_print_view_(const void *v, relic_buf *o, relic_error *e)
{
    return relic_key_json_print_view((const relic_key_view *)v, o, e);
}
static relic_status bif_print_view_(const void *v, relic_buf *o, relic_error *e)
{
    return relic_bif_json_print_view((const relic_bif_view *)v, o, e);
}
static relic_status tlk_print_view_(const void *v, relic_buf *o, relic_error *e)
{
    return relic_tlk_json_print_view((const relic_tlk_view *)v, o, e);
}
#define CORPUS_ONLY(F, T)                                                               \
    static int check_##F(const char *what, const uint8_t *bytes, size_t size)           \
    {                                                                                   \
        relic_##F##_view v;                                                             \
        relic_error err;                                                                \
        relic_arena a;                                                                  \
        T m;                                                                            \
        relic_buf text;                                                                 \
        if (relic_##F##_validate(bytes, size, &v, &err) != RELIC_OK) return 0;          \
        relic_arena_init_heap(&a, 0);                                                   \
        relic_buf_init(&text, 0);                                                       \
        assert_int_equal(relic_##F##_decode(&v, &a, &m, &err), RELIC_OK);               \
        assert_int_equal(relic_##F##_json_print(&m, &text, &err), RELIC_OK);            \
        check_view_text(what, F##_print_view_, &v, (const char *)text.data, text.size); \
        relic_buf_free(&text);                                                          \
        relic_arena_release(&a);                                                        \
        return 1;                                                                       \
    }
CORPUS_ONLY(bif, relic_bif_file)
CORPUS_ONLY(key, relic_key_file)
CORPUS_ONLY(tlk, relic_tlk_file)

/* Every file under CORPUS/dir whose name ends in one of exts, through check. */
static int corpus_dir(const char *dir, const char *const *exts, int (*check)(const char *, const uint8_t *, size_t))
{
    char path[512];
    snprintf(path, sizeof path, CORPUS "/%s", dir);
    DIR *d = opendir(path);
    if (!d) return -1;
    int done = 0;
    size_t seen = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name), size;
        int match = 0;
        for (const char *const *x = exts; *x; x++) {
            size_t k = strlen(*x);
            if (n > k && !strcasecmp(e->d_name + n - k, *x)) match = 1;
        }
        if (!match || !test_take(seen++)) continue; /* a sample in the sanitizer pass */
        snprintf(path, sizeof path, CORPUS "/%s/%s", dir, e->d_name);
        uint8_t *bytes = read_file(path, &size);
        if (!bytes) continue;
        done += check(path, bytes, size);
        free(bytes);
    }
    closedir(d);
    return done;
}

static void test_corpus_views_print_as_models(void **state)
{
    (void)state;
    static const char *const bwm_ext[] = {".wok", ".pwk", ".dwk", NULL};
    static const char *const cau_ext[] = {".cau", NULL};
    static const char *const key_ext[] = {".key", NULL};
    static const char *const bif_ext[] = {".bif", NULL};
    static const char *const tlk_ext[] = {".tlk", NULL};
    static const char *const rim_ext[] = {".rim", NULL};
    int bwm = corpus_dir("bwm", bwm_ext, check_bwm);
    if (bwm < 0) {
        print_message("note: " CORPUS " not found: real files not checked (only the seeds)\n");
        skip();
    }
    int cau = corpus_dir("cau", cau_ext, check_cau), key = corpus_dir("key", key_ext, check_key),
        bif = corpus_dir("bif", bif_ext, check_bif), tlk = corpus_dir("other", tlk_ext, check_tlk),
        rim = corpus_dir("other", rim_ext, check_rim);
    print_message("corpus: %d bwm, %d cau, %d key, %d bif, %d tlk, %d rim printed from their views\n", bwm, cau, key, bif,
                  tlk, rim);
    assert_true(bwm > 0);
}

/* ---- GROFF whole files: relic_grf_json_print_view against relic_grf_json_print ---- */

static relic_status grf_print_view_(const void *v, relic_buf *o, relic_error *e)
{
    return relic_grf_json_print_view((const relic_grf_view *)v, o, e);
}

/* Sinks of a few bytes: the whole-file text streamed in chunks of every
 * small size comes out as it does into one buffer. */
static void check_grf_small_chunks(const char *what, const relic_grf_view *gv, const char *model, size_t len)
{
    static const size_t chunks[] = {1, 2, 3, 5, 64};
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        relic_buf copy, sink;
        relic_error err;
        relic_buf_init(&copy, 0);
        relic_buf_init_sink(&sink, chunks[c], count_sink, &copy);
        assert_int_equal(relic_grf_json_print_view(gv, &sink, &err), RELIC_OK);
        assert_int_equal(relic_buf_flush(&sink), 0);
        if (copy.size != len || memcmp(copy.data, model, len) != 0)
            fail_msg("%s: streamed in %zu-byte chunks, the view's JSON differs from the model's", what, chunks[c]);
        relic_buf_free(&sink);
        relic_buf_free(&copy);
    }
}

/* A GROFF file: its whole-file JSON from the views equals the decoded
 * model's (or both refuse it alike); returns 1 when the container validates. */
static int check_grf_file(const char *what, const uint8_t *bytes, size_t size)
{
    relic_groff_view v;
    relic_groff_file m;
    relic_grf_file f;
    relic_grf_view gv;
    relic_error err, verr;
    relic_arena a, va;
    relic_buf text;
    if (relic_groff_validate(bytes, size, &v, &err) != RELIC_OK) return 0;
    relic_arena_init_heap(&a, 0);
    relic_arena_init_heap(&va, 0);
    relic_buf_init(&text, 0);
    assert_int_equal(relic_groff_decode(&v, &a, &m, &err), RELIC_OK);
    relic_status st = relic_grf_file_decode(&m, &a, &f, &err), vst = relic_grf_view_open(&v, &va, &gv, &verr);
    assert_int_equal(vst, st);
    if (st != RELIC_OK) { /* the same error: code, field path, offset, message */
        assert_int_equal(verr.code, err.code);
        assert_int_equal(verr.offset, err.offset);
        assert_string_equal(verr.path, err.path);
        assert_string_equal(verr.message, err.message);
    } else if ((st = relic_grf_json_print(&f, &text, &err)) != RELIC_OK) {
        relic_buf none;
        relic_buf_init(&none, 0);
        assert_int_equal(st, RELIC_E_UNSUPPORTED);
        assert_int_equal(relic_grf_json_print_view(&gv, &none, &verr), RELIC_E_UNSUPPORTED);
        assert_int_equal(none.size, 0); /* refused before printing */
        relic_buf_free(&none);
    } else {
        check_view_text(what, grf_print_view_, &gv, (const char *)text.data, text.size);
        if (size < ((size_t)1 << 18)) check_grf_small_chunks(what, &gv, (const char *)text.data, text.size);
    }
    relic_buf_free(&text);
    relic_arena_release(&va);
    relic_arena_release(&a);
    return 1;
}

/* check (what, bytes, size; 1 when it validates) on each seed of gen_groff; how many validate. */
static int each_groff_seed(int (*check)(const char *what, const uint8_t *bytes, size_t size))
{
    int done = 0;
    for (int s = 0; s < 16; s++) {
        char path[256];
        size_t size;
        snprintf(path, sizeof path, SEEDS "/gen_groff/seed-%02d", s);
        uint8_t *bytes = read_file(path, &size);
        if (!bytes) continue;
        done += check(path, bytes, size);
        free(bytes);
    }
    if (!done) print_message("note: no seed of gen_groff validates (run from the repository root)\n");
    return done;
}

/* relic_groff_json_print_view_open, the container's object left open for
 * grf_json.c's members, is relic_groff_json_print_view's text but its
 * closing "}\n", into a buffer and through a 1-byte sink alike. */
static int check_groff_open(const char *what, const uint8_t *bytes, size_t size)
{
    relic_groff_view v;
    relic_error err;
    relic_buf whole, open, copy, sink;
    (void)what;
    if (relic_groff_validate(bytes, size, &v, &err) != RELIC_OK) return 0;
    relic_buf_init(&whole, 0);
    relic_buf_init(&open, 0);
    relic_buf_init(&copy, 0);
    relic_buf_init_sink(&sink, 1, count_sink, &copy);
    assert_int_equal(relic_groff_json_print_view(&v, &whole, &err), RELIC_OK);
    assert_int_equal(relic_groff_json_print_view_open(&v, &open, &err), RELIC_OK);
    assert_int_equal(relic_groff_json_print_view_open(&v, &sink, &err), RELIC_OK);
    assert_int_equal(relic_buf_flush(&sink), 0);
    assert_true(whole.size > 2);
    assert_memory_equal(whole.data + whole.size - 3, "\n}\n", 3);
    assert_int_equal(open.size, whole.size - 2);
    assert_memory_equal(open.data, whole.data, open.size);
    assert_int_equal(copy.size, open.size);
    assert_memory_equal(copy.data, open.data, open.size);
    relic_buf_free(&sink);
    relic_buf_free(&copy);
    relic_buf_free(&open);
    relic_buf_free(&whole);
    return 1;
}

static void test_groff_view_open_is_the_view_text_but_its_close(void **state)
{
    (void)state;
    assert_true(each_groff_seed(check_groff_open) > 0);
}

static void test_grf_seeds_print_from_views_as_models(void **state)
{
    (void)state;
    assert_true(each_groff_seed(check_grf_file) > 0);
}

/* Each section of a real file overwritten with 0xFF in turn (the container
 * stays valid): where the decoded sections fail, the views fail with the
 * same error; where they pass, the texts agree. */
static int check_grf_sections_spoiled(const char *what, const uint8_t *bytes, size_t size)
{
    relic_groff_view v;
    relic_error err;
    if (relic_groff_validate(bytes, size, &v, &err) != RELIC_OK) return 0;
    uint8_t *copy = malloc(size);
    assert_non_null(copy);
    size_t n = v.sections_count < 64 ? v.sections_count : 64;
    /* view against model on each spoiled file: a semantic sweep (seven printings of a
     * level each), one section in TEST_PASS_STRIDE in the sanitizer pass (tests/test_pass.h) */
    for (size_t i = 0; i < n; i++) {
        if (!test_take(i)) continue;
        relic_groff_section_view s = relic_groff_sections_at(&v, i);
        uint64_t off = relic_groff_section_data_offset(s), len = relic_groff_section_data_size(s);
        if (off > size || len > size - off) continue;
        memcpy(copy, bytes, size);
        memset(copy + off, 0xFF, (size_t)len);
        check_grf_file(what, copy, size);
    }
    free(copy);
    return 1;
}

static void test_grf_corpus_prints_from_views_as_models(void **state)
{
    (void)state;
    static const char *const grf_ext[] = {".grf", NULL};
    static const char *const scn_ext[] = {".scn", NULL};
    int grf = corpus_dir("grf", grf_ext, check_grf_file);
    if (grf < 0) {
        print_message("note: " CORPUS "/grf not found: real levels not checked (only the seeds)\n");
        skip();
    }
    int scn = corpus_dir("scn", scn_ext, check_grf_file);
    int spoiled = corpus_dir("scn", scn_ext, check_grf_sections_spoiled);
    print_message("corpus: %d grf, %d scn printed from their views; %d scn with spoiled sections\n", grf, scn, spoiled);
    assert_true(grf > 0);
}

static void test_reserve_gives_spare_room_and_commit_adds_it(void **state)
{
    (void)state;
    uint8_t mem[16];
    relic_buf b;
    relic_buf_init_fixed(&b, mem, sizeof mem);
    relic_buf_append(&b, "ab", 2);
    uint8_t *w = relic_buf_reserve(&b, 10);
    assert_ptr_equal(w, mem + 2);
    assert_int_equal(b.size, 2); /* nothing added yet */
    memcpy(w, "cde", 3);
    relic_buf_commit(&b, 3);
    assert_int_equal(b.size, 5);
    assert_memory_equal(b.data, "abcde", 5);
    /* past a fixed buffer's end: refused, and the buffer has failed */
    assert_null(relic_buf_reserve(&b, 12));
    assert_true(b.failed);
    relic_buf_commit(&b, 1);
    assert_int_equal(b.size, 5);
}

static void test_reserve_hands_a_sink_its_chunk_first(void **state)
{
    (void)state;
    relic_buf copy, sink;
    relic_buf_init(&copy, 0);
    relic_buf_init_sink(&sink, 8, count_sink, &copy);
    relic_buf_append(&sink, "12345", 5);
    uint8_t *w = relic_buf_reserve(&sink, 6); /* 5 + 6 > 8: the 5 go to the sink */
    assert_non_null(w);
    assert_int_equal(copy.size, 5);
    assert_int_equal(sink.size, 0);
    memcpy(w, "678", 3);
    relic_buf_commit(&sink, 3);
    assert_int_equal(relic_buf_flush(&sink), 0);
    assert_int_equal(copy.size, 8);
    assert_memory_equal(copy.data, "12345678", 8);
    relic_buf_free(&sink);
    relic_buf_free(&copy);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reserve_gives_spare_room_and_commit_adds_it),
        cmocka_unit_test(test_reserve_hands_a_sink_its_chunk_first),
        cmocka_unit_test(test_bwm_view_prints_as_model),
        cmocka_unit_test(test_cau_view_prints_as_model),
        cmocka_unit_test(test_gff_view_prints_as_model),
        cmocka_unit_test(test_grf_geometry_view_prints_as_model),
        cmocka_unit_test(test_grf_geometry_v11_view_prints_as_model),
        cmocka_unit_test(test_grf_geometry_v13_view_prints_as_model),
        cmocka_unit_test(test_grf_header_view_prints_as_model),
        cmocka_unit_test(test_grf_mapping_view_prints_as_model),
        cmocka_unit_test(test_grf_mapping_ref_view_prints_as_model),
        cmocka_unit_test(test_grf_material_view_prints_as_model),
        cmocka_unit_test(test_grf_material_v11_view_prints_as_model),
        cmocka_unit_test(test_grf_mesh_view_prints_as_model),
        cmocka_unit_test(test_grf_object_view_prints_as_model),
        cmocka_unit_test(test_grf_region_view_prints_as_model),
        cmocka_unit_test(test_grf_region_v11_view_prints_as_model),
        cmocka_unit_test(test_rim_view_prints_as_model),
        cmocka_unit_test(test_scn_bmp_view_prints_as_model),
        cmocka_unit_test(test_scn_header_view_prints_as_model),
        cmocka_unit_test(test_scn_hierarchy_view_prints_as_model),
        cmocka_unit_test(test_scn_instance_view_prints_as_model),
        cmocka_unit_test(test_scn_instance44_view_prints_as_model),
        cmocka_unit_test(test_scn_partitions_view_prints_as_model),
        cmocka_unit_test(test_scn_partitions24_view_prints_as_model),
        cmocka_unit_test(test_scn_text_view_prints_as_model),
        cmocka_unit_test(test_watr_view_prints_as_model),
        cmocka_unit_test(test_wtd_view_prints_as_model),
        cmocka_unit_test(test_erf_view_prints_as_model),
        cmocka_unit_test(test_groff_view_prints_as_model),
        cmocka_unit_test(test_groff_view_open_is_the_view_text_but_its_close),
        cmocka_unit_test(test_pid_view_prints_as_model),
        cmocka_unit_test(test_tpa_view_prints_as_model),
        cmocka_unit_test(test_trn_view_prints_as_model),
        cmocka_unit_test(test_trrn_view_prints_as_model),
        cmocka_unit_test(test_corpus_views_print_as_models),
        cmocka_unit_test(test_grf_seeds_print_from_views_as_models),
        cmocka_unit_test(test_grf_corpus_prints_from_views_as_models),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
