/* test_trn.c — NWN2 TRN/TRX packet files end to end: every real file
 * validates and keeps the container and ASWM rules (nwn-lib-d, trn.d, trn.d validate; NWN2DataLib, TrxFileReader.cpp), its ASWM inflates and decodes, and it round-trips byte for byte
 * through the model and through JSON; broken directories, tiles and
 * indices are reported; truncated and mutated inputs never crash (ASan and
 * UBSan run this in `make test`). Real files: ../shared/corpus/trn and
 * ../shared/corpus/trx (skipped, saying so, when absent). */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "relic_trn.h"

#define MAX_FILES 256
/* The sweeps use the files up to this size (inflating every mutant of a
 * multi-megabyte walkmesh under ASan would take minutes). */
#define SWEEP_MAX_BYTES 60000

typedef struct file_list {
    char *paths[MAX_FILES];
    int n;
} file_list;

static void list_dir(const char *dir, file_list *fl)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) && fl->n < MAX_FILES) {
        char ext[8];
        relic_path_extension(e->d_name, ext, sizeof ext);
        if (strcmp(ext, "trn") && strcmp(ext, "trx")) continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        fl->paths[fl->n] = malloc(n);
        snprintf(fl->paths[fl->n], n, "%s/%s", dir, e->d_name);
        fl->n++;
    }
    closedir(d);
    for (int i = 1; i < fl->n; i++)
        for (int j = i; j > 0 && strcmp(fl->paths[j - 1], fl->paths[j]) > 0; j--) {
            char *t = fl->paths[j];
            fl->paths[j] = fl->paths[j - 1];
            fl->paths[j - 1] = t;
        }
}

static void free_list(file_list *fl)
{
    for (int i = 0; i < fl->n; i++) free(fl->paths[i]);
    fl->n = 0;
}

static file_list corpus_files(void)
{
    file_list fl = {.n = 0};
    list_dir("../shared/corpus/trn", &fl);
    list_dir("../shared/corpus/trx", &fl);
    if (fl.n == 0) print_message("note: ../shared/corpus/trn and trx not found: the real-file part of this test is skipped\n");
    return fl;
}

static void count_problem(void *ctx, const relic_error *e)
{
    (void)e;
    (*(int *)ctx)++;
}

/* The one problem of a NaN vertices[2].y: its path, and its offset in the
 * decompressed walkmesh (header of 53 bytes, then 12 per vertex). */
static void nan_problem(void *ctx, const relic_error *e)
{
    assert_string_equal(e->path, "aswm.vertices[2].y");
    assert_int_equal(e->code, RELIC_E_RANGE);
    assert_int_equal(e->offset, 53 + 2 * 12 + 4);
    (*(int *)ctx)++;
}

/* The first ASWM packet of a model, or NULL. */
static const relic_trn_packet *aswm_packet(const relic_trn_file *m)
{
    for (size_t i = 0; i < m->packets_count; i++)
        if (m->packets[i].type == RELIC_TRN_PACKET_TYPE_ASWM) return &m->packets[i];
    return NULL;
}

/* Every real file validates, keeps the container rules, and its ASWM
 * inflates, decodes and keeps the walkmesh rules. */
static void test_real_files_validate_and_their_aswm_decodes(void **state)
{
    (void)state;
    file_list fl = corpus_files();
    for (int i = 0; i < fl.n; i++) {
        relic_mapping mp;
        relic_error err;
        relic_trn_view v;
        relic_arena a;
        relic_trn_file m;
        relic_trn_aswm w;
        int problems = 0;
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        relic_status st = relic_trn_validate(mp.bytes.data, mp.bytes.size, &v, &err);
        if (st != RELIC_OK) print_message("%s: %s @0x%llx: %s\n", fl.paths[i], err.path, (unsigned long long)err.offset, err.message);
        assert_int_equal(st, RELIC_OK);
        assert_int_equal(relic_trn_check_container(&v, count_problem, &problems), 0);
        relic_arena_init_heap(&a, (size_t)1 << 30);
        assert_int_equal(relic_trn_decode(&v, &a, &m, &err), RELIC_OK);
        const relic_trn_packet *p = aswm_packet(&m);
        assert_non_null(p);
        st = relic_trn_packet_aswm_decode(p, &a, &w, &err);
        if (st != RELIC_OK) print_message("%s: %s @0x%llx: %s\n", fl.paths[i], err.path, (unsigned long long)err.offset, err.message);
        assert_int_equal(st, RELIC_OK);
        assert_int_equal(w.version, 0x6C);
        assert_true(w.triangles_count > 0);
        assert_int_equal(relic_trn_check_aswm(&w, "aswm", 10, count_problem, &problems), 0);
        relic_arena_release(&a);
        relic_unmap(&mp);
    }
    free_list(&fl);
}

/* decode -> layout -> write and decode -> JSON -> read -> layout -> write
 * both reproduce every real file byte for byte. */
static void test_round_trips_are_byte_exact(void **state)
{
    (void)state;
    file_list fl = corpus_files();
    for (int i = 0; i < fl.n; i++) {
        relic_mapping mp;
        relic_error err;
        relic_trn_view v;
        relic_arena a;
        relic_trn_file m, m2;
        relic_buf out, json, out2;
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        assert_int_equal(relic_trn_validate(mp.bytes.data, mp.bytes.size, &v, &err), RELIC_OK);
        relic_arena_init_heap(&a, (size_t)1 << 30);
        assert_int_equal(relic_trn_decode(&v, &a, &m, &err), RELIC_OK);
        relic_buf_init(&out, 0);
        relic_buf_init(&json, 0);
        relic_buf_init(&out2, 0);
        assert_int_equal(relic_trn_layout(&m, &a, &err), RELIC_OK);
        assert_int_equal(relic_trn_write(&m, &out, &err), RELIC_OK);
        assert_int_equal(out.size, mp.bytes.size);
        assert_memory_equal(out.data, mp.bytes.data, out.size);
        assert_int_equal(relic_trn_json_print(&m, &json, &err), RELIC_OK);
        assert_int_equal(relic_trn_json_read((const char *)json.data, json.size, &a, &m2, &err), RELIC_OK);
        assert_int_equal(relic_trn_layout(&m2, &a, &err), RELIC_OK);
        assert_int_equal(relic_trn_write(&m2, &out2, &err), RELIC_OK);
        assert_int_equal(out2.size, mp.bytes.size);
        assert_memory_equal(out2.data, mp.bytes.data, out2.size);
        relic_buf_free(&out);
        relic_buf_free(&json);
        relic_buf_free(&out2);
        relic_arena_release(&a);
        relic_unmap(&mp);
    }
    free_list(&fl);
}

/* A small hand-made file: header, directory, TRWH, one opaque packet. */
static size_t small_file(uint8_t *b)
{
    memset(b, 0, 64);
    memcpy(b, "NWN2", 4);
    relic_store_u16le(b + 4, 2);
    relic_store_u16le(b + 6, 3);
    relic_store_u32le(b + 8, 2);
    memcpy(b + 12, "TRWH", 4);
    relic_store_u32le(b + 16, 28);
    memcpy(b + 20, "WATR", 4);
    relic_store_u32le(b + 24, 48);
    memcpy(b + 28, "TRWH", 4);
    relic_store_u32le(b + 32, 12);
    relic_store_u32le(b + 36, 4);
    relic_store_u32le(b + 40, 5);
    memcpy(b + 48, "WATR", 4);
    relic_store_u32le(b + 52, 4);
    return 60;
}

static void test_small_file_validates_and_keeps_the_rules(void **state)
{
    (void)state;
    uint8_t b[64];
    size_t n = small_file(b);
    relic_trn_view v;
    relic_error err;
    int problems = 0;
    assert_int_equal(relic_trn_validate(b, n, &v, &err), RELIC_OK);
    assert_int_equal(relic_trn_check_container(&v, count_problem, &problems), 0);
}

static void test_directory_offset_off_its_packet_is_reported(void **state)
{
    (void)state;
    uint8_t b[64];
    size_t n = small_file(b);
    relic_store_u32le(b + 24, 44);
    relic_trn_view v;
    relic_error err;
    int problems = 0;
    assert_int_equal(relic_trn_validate(b, n, &v, &err), RELIC_OK);
    assert_int_equal(relic_trn_check_container(&v, count_problem, &problems), 1);
}

static void test_directory_type_differing_from_packet_is_reported(void **state)
{
    (void)state;
    uint8_t b[64];
    size_t n = small_file(b);
    memcpy(b + 20, "TRRN", 4);
    relic_trn_view v;
    relic_error err;
    int problems = 0;
    assert_int_equal(relic_trn_validate(b, n, &v, &err), RELIC_OK);
    assert_int_equal(relic_trn_check_container(&v, count_problem, &problems), 1);
}

static void test_trailing_bytes_are_reported(void **state)
{
    (void)state;
    uint8_t b[64];
    size_t n = small_file(b);
    relic_trn_view v;
    relic_error err;
    int problems = 0;
    assert_int_equal(relic_trn_validate(b, n + 4, &v, &err), RELIC_OK);
    assert_int_equal(relic_trn_check_container(&v, count_problem, &problems), 1);
}

static void test_trwh_of_wrong_size_is_a_range_error(void **state)
{
    (void)state;
    uint8_t b[64];
    size_t n = small_file(b);
    relic_store_u32le(b + 32, 16);
    relic_trn_view v;
    relic_error err;
    assert_int_not_equal(relic_trn_validate(b, n, &v, &err), RELIC_OK);
    assert_non_null(strstr(err.path, "packets[0]"));
}

static void test_truncated_packet_is_rejected(void **state)
{
    (void)state;
    uint8_t b[64];
    size_t n = small_file(b);
    relic_trn_view v;
    relic_error err;
    assert_int_equal(relic_trn_validate(b, n - 1, &v, &err), RELIC_E_TRUNCATED);
    assert_non_null(strstr(err.path, "packets[1]"));
}

static void test_layout_refills_directory_and_sizes(void **state)
{
    (void)state;
    uint8_t b[64];
    size_t n = small_file(b);
    relic_trn_view v;
    relic_error err;
    relic_arena a;
    relic_trn_file m;
    relic_buf out;
    uint8_t extra[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    assert_int_equal(relic_trn_validate(b, n, &v, &err), RELIC_OK);
    relic_arena_init_heap(&a, 1 << 20);
    assert_int_equal(relic_trn_decode(&v, &a, &m, &err), RELIC_OK);
    m.packets[1].data = extra; /* grow the WATR payload: offsets and size are stale */
    m.packets[1].data_count = sizeof extra;
    m.packets[0].type = RELIC_TRN_PACKET_TYPE_TRWH;
    assert_int_equal(relic_trn_layout(&m, &a, &err), RELIC_OK);
    assert_int_equal(m.packets[1].size, 10);
    assert_int_equal(m.directory[1].offset, 48);
    relic_buf_init(&out, 0);
    assert_int_equal(relic_trn_write(&m, &out, &err), RELIC_OK);
    int problems = 0;
    assert_int_equal(relic_trn_validate(out.data, out.size, &v, &err), RELIC_OK);
    assert_int_equal(relic_trn_check_container(&v, count_problem, &problems), 0);
    assert_int_equal(out.size, 66);
    relic_buf_free(&out);
    relic_arena_release(&a);
}

/* Broken tile ranges and indices in a real walkmesh are each reported. */
static void test_broken_aswm_rules_are_reported(void **state)
{
    (void)state;
    file_list fl = corpus_files();
    if (fl.n == 0) {
        free_list(&fl);
        return;
    }
    relic_mapping mp;
    relic_error err;
    relic_trn_view v;
    relic_arena a;
    relic_trn_file m;
    relic_trn_aswm w;
    int problems;
    assert_int_equal(relic_map_file(fl.paths[fl.n - 1], 0, &mp, &err), RELIC_OK);
    assert_int_equal(relic_trn_validate(mp.bytes.data, mp.bytes.size, &v, &err), RELIC_OK);
    relic_arena_init_heap(&a, (size_t)1 << 30);
    assert_int_equal(relic_trn_decode(&v, &a, &m, &err), RELIC_OK);
    assert_int_equal(relic_trn_packet_aswm_decode(aswm_packet(&m), &a, &w, &err), RELIC_OK);
    size_t t = 0;
    while (t < w.tiles_count && w.tiles[t].triangles_count == 0) t++;
    assert_true(t + 1 < w.tiles_count);

    w.tiles[t].triangles_offset++; /* a gap before tile t */
    problems = 0;
    assert_true(relic_trn_check_aswm(&w, "aswm", 10, count_problem, &problems) > 0);
    w.tiles[t].triangles_offset--;

    w.triangles[0].vertices[1] = (uint32_t)w.vertices_count;
    problems = 0;
    assert_int_equal(relic_trn_check_aswm(&w, "aswm", 10, count_problem, &problems), 1);
    assert_int_equal(problems, 1);
    w.triangles[0].vertices[1] = 0;

    w.edges[0].triangles[1] = (uint32_t)w.triangles_count;
    problems = 0;
    assert_int_equal(relic_trn_check_aswm(&w, "aswm", 10, count_problem, &problems), 1);
    w.edges[0].triangles[1] = 0xFFFFFFFFu;

    float keep = w.vertices[2].y;
    w.vertices[2].y = NAN;
    problems = 0;
    assert_int_equal(relic_trn_check_aswm(&w, "aswm", 10, nan_problem, &problems), 1);
    w.vertices[2].y = keep;
    keep = w.vertices[0].z;
    w.vertices[0].z = INFINITY;
    problems = 0;
    assert_int_equal(relic_trn_check_aswm(&w, "aswm", 10, count_problem, &problems), 1);
    w.vertices[0].z = keep;

    w.tiles[t].triangles_count++; /* overlaps the next tile */
    problems = 0;
    assert_true(relic_trn_check_aswm(&w, "aswm", 10, count_problem, &problems) > 0);
    relic_arena_release(&a);
    relic_unmap(&mp);
    free_list(&fl);
}

/* Validate, check, decode and inflate whatever the bytes hold. */
static void exercise(const uint8_t *p, size_t n, unsigned *accepted)
{
    relic_trn_view v;
    relic_error err;
    int problems = 0;
    if (relic_trn_validate(p, n, &v, &err) != RELIC_OK) {
        assert_true(err.code != RELIC_OK);
        return;
    }
    (*accepted)++;
    relic_trn_check_container(&v, count_problem, &problems);
    relic_arena a;
    relic_trn_file m;
    relic_arena_init_heap(&a, (size_t)256 << 20);
    if (relic_trn_decode(&v, &a, &m, &err) == RELIC_OK) {
        for (size_t i = 0; i < m.packets_count; i++) {
            relic_trn_aswm w;
            if (m.packets[i].type != RELIC_TRN_PACKET_TYPE_ASWM) continue;
            if (relic_trn_packet_aswm_decode(&m.packets[i], &a, &w, &err) == RELIC_OK)
                relic_trn_check_aswm(&w, "aswm", 0, count_problem, &problems);
        }
    }
    relic_arena_release(&a);
}

static file_list sweep_files(void)
{
    file_list all = corpus_files(), fl = {.n = 0};
    for (int i = 0; i < all.n; i++) {
        relic_mapping mp;
        relic_error err;
        if (relic_map_file(all.paths[i], 0, &mp, &err) != RELIC_OK) continue;
        if (mp.bytes.size <= SWEEP_MAX_BYTES) {
            fl.paths[fl.n++] = all.paths[i];
            all.paths[i] = NULL;
        }
        relic_unmap(&mp);
    }
    free_list(&all);
    return fl;
}

/* Each small file cut at 64 points: rejected or accepted, never a crash. */
static void test_truncations_never_crash(void **state)
{
    (void)state;
    file_list fl = sweep_files();
    unsigned accepted = 0, total = 0;
    for (int i = 0; i < fl.n; i++) {
        relic_mapping mp;
        relic_error err;
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        size_t n = mp.bytes.size;
        for (int k = 0; k < 64; k++) {
            size_t len = n * (size_t)k / 64;
            uint8_t *copy = malloc(len ? len : 1);
            memcpy(copy, mp.bytes.data, len);
            exercise(copy, len, &accepted);
            free(copy);
            total++;
        }
        relic_unmap(&mp);
    }
    print_message("truncations: %u inputs from %d files, %u accepted\n", total, fl.n, accepted);
    free_list(&fl);
}

/* 2,000 seeded single-byte mutations over the small files, half of them in
 * the header, directory and packet headers. */
static void test_mutations_never_crash(void **state)
{
    (void)state;
    file_list fl = sweep_files();
    if (fl.n == 0) {
        free_list(&fl);
        return;
    }
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    unsigned accepted = 0;
    const unsigned total = 2000;
    relic_mapping maps[MAX_FILES];
    relic_error err;
    for (int i = 0; i < fl.n; i++) assert_int_equal(relic_map_file(fl.paths[i], 0, &maps[i], &err), RELIC_OK);
    for (unsigned k = 0; k < total; k++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17; /* xorshift64 */
        relic_mapping *mp = &maps[k % (unsigned)fl.n];
        size_t n = mp->bytes.size;
        uint8_t *copy = malloc(n);
        memcpy(copy, mp->bytes.data, n);
        size_t at = (seed >> 8) % (k % 2 ? n : (n < 64 ? n : 64));
        copy[at] = (uint8_t)(seed >> 40);
        exercise(copy, n, &accepted);
        free(copy);
    }
    for (int i = 0; i < fl.n; i++) relic_unmap(&maps[i]);
    print_message("mutations: %u inputs from %d files, %u accepted\n", total, fl.n, accepted);
    free_list(&fl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_files_validate_and_their_aswm_decodes),
        cmocka_unit_test(test_round_trips_are_byte_exact),
        cmocka_unit_test(test_small_file_validates_and_keeps_the_rules),
        cmocka_unit_test(test_directory_offset_off_its_packet_is_reported),
        cmocka_unit_test(test_directory_type_differing_from_packet_is_reported),
        cmocka_unit_test(test_trailing_bytes_are_reported),
        cmocka_unit_test(test_trwh_of_wrong_size_is_a_range_error),
        cmocka_unit_test(test_truncated_packet_is_rejected),
        cmocka_unit_test(test_layout_refills_directory_and_sizes),
        cmocka_unit_test(test_broken_aswm_rules_are_reported),
        cmocka_unit_test(test_truncations_never_crash),
        cmocka_unit_test(test_mutations_never_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
