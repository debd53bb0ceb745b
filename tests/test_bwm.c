/* test_bwm.c — the BWM format end to end through the generated code: every
 * real file validates, passes the table rules, and round-trips byte for
 * byte through the model and through JSON; corrupted inputs are rejected
 * with the field path and byte offset, never with a crash (run under
 * ASan+UBSan by `make test`). Real files: ../shared/corpus/bwm (skipped,
 * saying so, when absent); project samples: tests/samples. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "relic_bwm.h"

/* relic_bwm_check with its scratch in a heap arena freed at once */
static unsigned bwm_check_scratch(const relic_bwm_view *v, int strict, relic_report_fn report, void *ctx)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    unsigned problems = relic_bwm_check(v, strict, &a, report, ctx);
    relic_arena_release(&a);
    return problems;
}

#define CORPUS_DIR "../shared/corpus/bwm"
#define SAMPLES_DIR "tests/samples"

typedef struct file_list {
    char *paths[256];
    int n;
} file_list;

static void list_dir(const char *dir, file_list *fl)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) && fl->n < 256) {
        char ext[8];
        relic_path_extension(e->d_name, ext, sizeof ext);
        if (strcmp(ext, "wok") && strcmp(ext, "pwk") && strcmp(ext, "dwk")) continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        fl->paths[fl->n] = malloc(n);
        snprintf(fl->paths[fl->n], n, "%s/%s", dir, e->d_name);
        fl->n++;
    }
    closedir(d);
    /* sorted, so output and mutation seeds do not depend on readdir order */
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
    list_dir(CORPUS_DIR, &fl);
    if (fl.n == 0) print_message("note: %s not found: the real-file part of this test is skipped\n", CORPUS_DIR);
    return fl;
}

static file_list all_files(void)
{
    file_list fl = corpus_files();
    list_dir(SAMPLES_DIR, &fl);
    return fl;
}

static void count_problem(void *ctx, const relic_error *e)
{
    (void)e;
    (*(int *)ctx)++;
}

static void keep_first(void *ctx, const relic_error *e)
{
    relic_error *first = ctx;
    if (first->code == RELIC_OK) *first = *e;
}

/* Every real and sample file validates and keeps the table rules. */
static void test_real_files_validate(void **state)
{
    (void)state;
    file_list fl = all_files();
    assert_true(fl.n > 0);
    for (int i = 0; i < fl.n; i++) {
        relic_mapping mp;
        relic_error err;
        relic_bwm_view v;
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        relic_status st = relic_bwm_validate(mp.bytes.data, mp.bytes.size, &v, &err);
        if (st != RELIC_OK) relic_error_print(stderr, fl.paths[i], &err);
        assert_int_equal(st, RELIC_OK);
        int problems = 0;
        assert_int_equal(bwm_check_scratch(&v, 0, count_problem, &problems), 0);
        relic_unmap(&mp);
    }
    free_list(&fl);
}

/* binary -> model -> binary and binary -> JSON -> binary are the identity. */
static void test_round_trips_are_byte_exact(void **state)
{
    (void)state;
    file_list fl = all_files();
    for (int i = 0; i < fl.n; i++) {
        relic_mapping mp;
        relic_error err;
        relic_bwm_view v;
        relic_arena a;
        relic_bwm_file m, m2;
        relic_buf bin, json, bin2;
        relic_arena_init_heap(&a, 0);
        relic_buf_init(&bin, 0);
        relic_buf_init(&json, 0);
        relic_buf_init(&bin2, 0);
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        assert_int_equal(relic_bwm_validate(mp.bytes.data, mp.bytes.size, &v, &err), RELIC_OK);
        assert_int_equal(relic_bwm_decode(&v, &a, &m, &err), RELIC_OK);
        assert_int_equal(relic_bwm_write(&m, &bin, &err), RELIC_OK);
        assert_int_equal(bin.size, mp.bytes.size);
        assert_memory_equal(bin.data, mp.bytes.data, bin.size);
        assert_int_equal(relic_bwm_json_print(&m, &json, &err), RELIC_OK);
        assert_int_equal(relic_bwm_json_read((const char *)json.data, json.size, &a, &m2, &err), RELIC_OK);
        assert_int_equal(relic_bwm_write(&m2, &bin2, &err), RELIC_OK);
        assert_int_equal(bin2.size, mp.bytes.size);
        assert_memory_equal(bin2.data, mp.bytes.data, bin2.size);
        relic_buf_free(&bin);
        relic_buf_free(&json);
        relic_buf_free(&bin2);
        relic_arena_release(&a);
        relic_unmap(&mp);
    }
    free_list(&fl);
}

/* A small valid WOK made by the writer, for the error tests. */
static relic_buf make_wok(void)
{
    static const float verts[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    static const uint32_t faces[2][3] = {{0, 1, 2}, {0, 2, 3}};
    static const uint32_t mats[2] = {4, 4};
    relic_bwm_mesh mesh = {verts, 4, faces, mats, 2};
    relic_arena a;
    relic_bwm_file m;
    relic_error err;
    relic_buf b;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&b, 0);
    assert_int_equal(relic_bwm_from_mesh(&mesh, RELIC_BWM_WALKMESH_TYPE_AREA, &a, &m, &err), RELIC_OK);
    assert_int_equal(relic_bwm_write(&m, &b, &err), RELIC_OK);
    relic_arena_release(&a);
    return b;
}

static relic_status validate(const relic_buf *b, relic_error *err)
{
    relic_bwm_view v;
    return relic_bwm_validate(b->data, b->size, &v, err);
}

static void test_bad_magic_names_header_magic(void **state)
{
    (void)state;
    relic_buf b = make_wok();
    relic_error err;
    b.data[4] = 'X';
    assert_int_equal(validate(&b, &err), RELIC_E_MAGIC);
    assert_string_equal(err.path, "header.magic");
    assert_int_equal(err.offset, 0);
    relic_buf_free(&b);
}

static void test_face_vertex_index_out_of_range_names_the_element(void **state)
{
    (void)state;
    relic_buf b = make_wok();
    relic_error err;
    uint32_t face_off = relic_load_u32le(b.data + RELIC_BWM_HEADER_FACE_OFFSET_POS);
    relic_store_u32le(b.data + face_off + 12 + 8, 99); /* faces[1].v[2] */
    assert_int_equal(validate(&b, &err), RELIC_E_INDEX);
    assert_string_equal(err.path, "faces[1].v[2]");
    assert_int_equal(err.offset, face_off + 12 + 8);
    assert_non_null(strstr(err.message, "99"));
    relic_buf_free(&b);
}

static void test_truncated_file_is_rejected_with_the_array_named(void **state)
{
    (void)state;
    relic_buf b = make_wok();
    relic_error err;
    relic_buf cut = b;
    cut.size = b.size - 1; /* the perimeter array loses its last byte */
    assert_int_equal(validate(&cut, &err), RELIC_E_TRUNCATED);
    assert_string_equal(err.path, "perimeters");
    cut.size = 100; /* inside the header */
    assert_int_equal(validate(&cut, &err), RELIC_E_TRUNCATED);
    assert_string_equal(err.path, "header");
    relic_buf_free(&b);
}

static void test_offset_past_end_is_a_layout_error(void **state)
{
    (void)state;
    relic_buf b = make_wok();
    relic_error err;
    relic_store_u32le(b.data + RELIC_BWM_HEADER_AABB_OFFSET_POS, 0xFFFFFFF0u);
    assert_int_equal(validate(&b, &err), RELIC_E_LAYOUT);
    assert_string_equal(err.path, "aabb");
    relic_buf_free(&b);
}

static void test_huge_count_cannot_overflow(void **state)
{
    (void)state;
    relic_buf b = make_wok();
    relic_error err;
    relic_store_u32le(b.data + RELIC_BWM_HEADER_FACE_COUNT_POS, 0xFFFFFFFFu);
    assert_int_equal(validate(&b, &err), RELIC_E_TRUNCATED);
    assert_string_equal(err.path, "faces");
    relic_buf_free(&b);
}

static void test_unknown_walkmesh_type_is_a_range_error(void **state)
{
    (void)state;
    relic_buf b = make_wok();
    relic_error err;
    relic_store_u32le(b.data + RELIC_BWM_HEADER_TYPE_POS, 7);
    assert_int_equal(validate(&b, &err), RELIC_E_RANGE);
    assert_string_equal(err.path, "header.type");
    assert_int_equal(err.offset, 8);
    relic_buf_free(&b);
}

static void test_aabb_child_out_of_range_is_an_index_error(void **state)
{
    (void)state;
    relic_buf b = make_wok();
    relic_error err;
    uint32_t aabb_off = relic_load_u32le(b.data + RELIC_BWM_HEADER_AABB_OFFSET_POS);
    relic_store_u32le(b.data + aabb_off + RELIC_BWM_AABB_NODE_CHILD2_POS, 3); /* 3 nodes: 0..2 */
    assert_int_equal(validate(&b, &err), RELIC_E_INDEX);
    assert_string_equal(err.path, "aabb[0].child2");
    relic_buf_free(&b);
}

static void test_walkable_after_nonwalkable_breaks_the_rules(void **state)
{
    (void)state;
    relic_buf b = make_wok();
    relic_error err;
    relic_bwm_view v;
    uint32_t mat_off = relic_load_u32le(b.data + RELIC_BWM_HEADER_MATERIAL_OFFSET_POS);
    relic_store_u32le(b.data + mat_off, RELIC_BWM_SURFACE_MATERIAL_NONWALK);
    assert_int_equal(relic_bwm_validate(b.data, b.size, &v, &err), RELIC_OK);
    int problems = 0;
    assert_true(bwm_check_scratch(&v, 0, count_problem, &problems) > 0);
    assert_true(problems > 0);
    relic_buf_free(&b);
}

/* Adjacency rows belong to faces: a PWK/DWK (whose adjacency count no
 * other rule ties down) with more rows than faces breaks the rules, else
 * its edges could name faces that do not exist (found by fuzz_bwm: `relic
 * check` said ok and the SVG export then refused the file). */
static void test_more_adjacency_rows_than_faces_breaks_the_rules(void **state)
{
    (void)state;
    relic_bwm_vec3f vert = {0, 0, 0};
    relic_bwm_adjacency row = {{-1, -1, -1}};
    relic_bwm_file m = {0};
    memcpy(m.header.magic, "BWM V1.0", 8);
    m.header.type = RELIC_BWM_WALKMESH_TYPE_PLACEABLE_OR_DOOR;
    m.vertices = &vert;
    m.vertices_count = 1;
    m.adjacency = &row;
    m.adjacency_count = 1;
    relic_buf b;
    relic_buf_init(&b, 0);
    relic_error err;
    relic_bwm_view v;
    assert_int_equal(relic_bwm_write(&m, &b, &err), RELIC_OK);
    assert_int_equal(relic_bwm_validate(b.data, b.size, &v, &err), RELIC_OK);
    relic_error first = {0};
    assert_int_equal(bwm_check_scratch(&v, 0, keep_first, &first), 1);
    assert_string_equal(first.path, "header.adjacency_count");
    assert_int_equal(first.offset, RELIC_BWM_HEADER_ADJACENCY_COUNT_POS);
    /* one row for one face is fine */
    uint32_t face[3] = {0, 0, 0}, mat = RELIC_BWM_SURFACE_MATERIAL_NONWALK;
    m.faces = (relic_bwm_face *)(void *)face;
    m.faces_count = 1;
    m.materials = &mat;
    m.materials_count = 1;
    relic_bwm_vec3f normal = {0, 0, 1};
    float distance = 0;
    m.normals = &normal;
    m.normals_count = 1;
    m.distances = &distance;
    m.distances_count = 1;
    b.size = 0;
    assert_int_equal(relic_bwm_write(&m, &b, &err), RELIC_OK);
    assert_int_equal(relic_bwm_validate(b.data, b.size, &v, &err), RELIC_OK);
    assert_int_equal(bwm_check_scratch(&v, 0, NULL, NULL), 0);
    relic_buf_free(&b);
}

/* A PWK's empty tables: nothing lies at their offsets, so whatever offsets a
 * file gives them (0 as kotorblender writes, or the end of the file) come
 * back unchanged. */
static void test_empty_table_offsets_round_trip(void **state)
{
    (void)state;
    static const float verts[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 1}};
    static const uint32_t faces[1][3] = {{0, 1, 2}};
    static const uint32_t mats[1] = {RELIC_BWM_SURFACE_MATERIAL_NONWALK};
    relic_bwm_mesh mesh = {verts, 3, faces, mats, 1};
    relic_arena a;
    relic_bwm_file m, d;
    relic_error err;
    relic_buf b, again;
    relic_bwm_view v;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&b, 0);
    assert_int_equal(relic_bwm_from_mesh(&mesh, RELIC_BWM_WALKMESH_TYPE_PLACEABLE_OR_DOOR, &a, &m, &err), RELIC_OK);
    assert_int_equal(relic_bwm_write(&m, &b, &err), RELIC_OK);
    assert_int_equal(relic_load_u32le(b.data + RELIC_BWM_HEADER_AABB_OFFSET_POS), 0); /* a new model writes 0 */
    const size_t offs[4] = {RELIC_BWM_HEADER_AABB_OFFSET_POS, RELIC_BWM_HEADER_ADJACENCY_OFFSET_POS,
                            RELIC_BWM_HEADER_EDGE_OFFSET_POS, RELIC_BWM_HEADER_PERIMETER_OFFSET_POS};
    for (int style = 0; style < 2; style++) {
        for (int k = 0; k < 4; k++) relic_store_u32le(b.data + offs[k], style ? (uint32_t)b.size : 0);
        assert_int_equal(relic_bwm_validate(b.data, b.size, &v, &err), RELIC_OK);
        assert_int_equal(relic_bwm_decode(&v, &a, &d, &err), RELIC_OK);
        relic_buf_init(&again, 0);
        assert_int_equal(relic_bwm_write(&d, &again, &err), RELIC_OK);
        assert_int_equal(again.size, b.size);
        assert_memory_equal(again.data, b.data, b.size);
        relic_buf_free(&again);
    }
    relic_buf_free(&b);
    relic_arena_release(&a);
}

/* A file whose tables are in another order, with a zero gap, is written back
 * as it was: the writer keeps a model's layout when it is consistent. */
static void test_other_table_order_round_trips(void **state)
{
    (void)state;
    relic_buf b = make_wok(), moved;
    relic_error err;
    relic_bwm_view v;
    relic_arena a;
    relic_bwm_file d;
    relic_arena_init_heap(&a, 0);
    /* move the vertex array to the end of the file, 16 bytes past it */
    uint32_t voff = relic_load_u32le(b.data + RELIC_BWM_HEADER_VERTEX_OFFSET_POS);
    uint32_t vsize = 12 * relic_load_u32le(b.data + RELIC_BWM_HEADER_VERTEX_COUNT_POS);
    relic_buf_init(&moved, 0);
    relic_buf_append(&moved, b.data, b.size);
    uint8_t *tail = relic_buf_extend(&moved, 16 + vsize);
    memcpy(tail + 16, b.data + voff, vsize);
    memset(moved.data + voff, 0, vsize);
    relic_store_u32le(moved.data + RELIC_BWM_HEADER_VERTEX_OFFSET_POS, (uint32_t)(b.size + 16));
    assert_int_equal(relic_bwm_validate(moved.data, moved.size, &v, &err), RELIC_OK);
    assert_int_equal(relic_bwm_decode(&v, &a, &d, &err), RELIC_OK);
    relic_buf again;
    relic_buf_init(&again, 0);
    assert_int_equal(relic_bwm_write(&d, &again, &err), RELIC_OK);
    assert_int_equal(again.size, moved.size);
    assert_memory_equal(again.data, moved.data, moved.size);
    /* a model whose offsets overlap (here: a grown vertex array) gets the contiguous layout */
    relic_bwm_vec3f *more = relic_arena_array(&a, d.vertices_count + 1, sizeof *more, 4);
    memcpy(more, d.vertices, d.vertices_count * sizeof *more);
    d.vertices = more;
    d.vertices_count++;
    d.header.face_offset = d.header.vertex_offset + 4; /* inside the vertex array */
    relic_buf_free(&again);
    relic_buf_init(&again, 0);
    assert_int_equal(relic_bwm_write(&d, &again, &err), RELIC_OK);
    assert_int_equal(relic_bwm_validate(again.data, again.size, &v, &err), RELIC_OK);
    assert_int_equal(relic_load_u32le(again.data + RELIC_BWM_HEADER_VERTEX_OFFSET_POS), RELIC_BWM_HEADER_SIZE);
    relic_buf_free(&again);
    relic_buf_free(&moved);
    relic_buf_free(&b);
    relic_arena_release(&a);
}

/* Exercise every reader on bytes that may or may not be valid. */
static void exercise(const uint8_t *p, size_t n, unsigned *accepted)
{
    relic_bwm_view v;
    relic_error err;
    relic_status st = relic_bwm_validate(p, n, &v, &err);
    if (st != RELIC_OK) {
        assert_true(err.message[0] != 0);
        return;
    }
    (*accepted)++;
    relic_arena a;
    relic_bwm_file m;
    relic_buf b;
    relic_arena_init_heap(&a, 64u << 20);
    relic_buf_init(&b, 0);
    (void)bwm_check_scratch(&v, 1, NULL, NULL);
    assert_int_equal(relic_bwm_decode(&v, &a, &m, &err), RELIC_OK);
    assert_int_equal(relic_bwm_write(&m, &b, &err), RELIC_OK);
    relic_bwm_view v2;
    assert_int_equal(relic_bwm_validate(b.data, b.size, &v2, &err), RELIC_OK); /* a writer's output validates */
    relic_buf_free(&b);
    relic_arena_release(&a);
}

/* Each file cut at 64 points: rejected or accepted, never a crash. */
static void test_truncations_never_crash(void **state)
{
    (void)state;
    file_list fl = all_files();
    unsigned accepted = 0, total = 0;
    for (int i = 0; i < fl.n; i++) {
        relic_mapping mp;
        relic_error err;
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        size_t n = mp.bytes.size;
        for (int k = 0; k < 64; k++) {
            size_t len = n * (size_t)k / 64;
            uint8_t *copy = malloc(len ? len : 1); /* exact-size copy so ASan sees any over-read */
            memcpy(copy, mp.bytes.data, len);
            exercise(copy, len, &accepted);
            free(copy);
            total++;
        }
        relic_unmap(&mp);
    }
    print_message("truncations: %u inputs, %u accepted\n", total, accepted);
    free_list(&fl);
}

/* 10,000 seeded single-byte mutations spread over the files. */
static void test_mutations_never_crash(void **state)
{
    (void)state;
    file_list fl = all_files();
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    unsigned accepted = 0;
    const unsigned total = 10000;
    relic_mapping maps[256];
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
        /* bias towards the header, where counts and offsets live */
        size_t at = (seed >> 8) % (k % 2 ? n : (n < RELIC_BWM_HEADER_SIZE ? n : RELIC_BWM_HEADER_SIZE));
        copy[at] = (uint8_t)(seed >> 40);
        exercise(copy, n, &accepted);
        free(copy);
    }
    for (int i = 0; i < fl.n; i++) relic_unmap(&maps[i]);
    print_message("mutations: %u inputs, %u accepted\n", total, accepted);
    free_list(&fl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_files_validate),
        cmocka_unit_test(test_round_trips_are_byte_exact),
        cmocka_unit_test(test_bad_magic_names_header_magic),
        cmocka_unit_test(test_face_vertex_index_out_of_range_names_the_element),
        cmocka_unit_test(test_truncated_file_is_rejected_with_the_array_named),
        cmocka_unit_test(test_offset_past_end_is_a_layout_error),
        cmocka_unit_test(test_huge_count_cannot_overflow),
        cmocka_unit_test(test_unknown_walkmesh_type_is_a_range_error),
        cmocka_unit_test(test_aabb_child_out_of_range_is_an_index_error),
        cmocka_unit_test(test_walkable_after_nonwalkable_breaks_the_rules),
        cmocka_unit_test(test_more_adjacency_rows_than_faces_breaks_the_rules),
        cmocka_unit_test(test_empty_table_offsets_round_trip),
        cmocka_unit_test(test_other_table_order_round_trips),
        cmocka_unit_test(test_truncations_never_crash),
        cmocka_unit_test(test_mutations_never_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
