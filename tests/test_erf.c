/* test_erf.c — BioWare containers (ERF V1.0/V1.1, RIM) and in-place GFF
 * patching: every corpus container validates and is written back byte for
 * byte (its own layout; the packed layout for those real files that use
 * it), member GFFs validate in place (views into the container, no copy),
 * names resolve through the resource type table, new containers written by
 * relic read back, hostile tables (data past the end, inside the tables,
 * overlapping) are rejected with the entry's path, truncated and mutated
 * containers never crash (ASan+UBSan in `make test`), and relic_gff_patch
 * stores every fixed-size type in place and nothing on a bad value.
 * Real files: ../shared/corpus/other (skipped, saying so, when absent). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "relic_erf.h"

/* relic_erf_archive_write with its scratch in a heap arena freed at once */
static relic_status erf_write_scratch(const relic_erf_archive *ar, relic_erf_layout layout, relic_buf *out, int *fell_back,
                                      relic_error *err)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_status st = relic_erf_archive_write(ar, layout, &a, out, fell_back, err);
    relic_arena_release(&a);
    return st;
}

#define CORPUS_DIR "../shared/corpus/other"
#define MAX_FILES 64

typedef struct file_list {
    char *paths[MAX_FILES];
    int n;
} file_list;

static file_list corpus_files(void)
{
    file_list fl = {.n = 0};
    DIR *d = opendir(CORPUS_DIR);
    if (!d) {
        print_message("note: %s not found: the real-file part of this test is skipped\n", CORPUS_DIR);
        return fl;
    }
    struct dirent *e;
    while ((e = readdir(d)) && fl.n < MAX_FILES) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "README.md") == 0) continue;
        size_t n = strlen(CORPUS_DIR) + strlen(e->d_name) + 2;
        fl.paths[fl.n] = malloc(n);
        snprintf(fl.paths[fl.n], n, "%s/%s", CORPUS_DIR, e->d_name);
        fl.n++;
    }
    closedir(d);
    for (int i = 1; i < fl.n; i++)
        for (int j = i; j > 0 && strcmp(fl.paths[j - 1], fl.paths[j]) > 0; j--) {
            char *t = fl.paths[j];
            fl.paths[j] = fl.paths[j - 1];
            fl.paths[j - 1] = t;
        }
    return fl;
}

static void free_list(file_list *fl)
{
    for (int i = 0; i < fl->n; i++) free(fl->paths[i]);
    fl->n = 0;
}

static int is_container(const char *p)
{
    size_t n = strlen(p);
    return n > 4 && (!strcmp(p + n - 4, ".mod") || !strcmp(p + n - 4, ".erf") || !strcmp(p + n - 4, ".rim") || !strcmp(p + n - 4, ".hak") || !strcmp(p + n - 4, ".sav"));
}

/* ---------------------------------------------------------------------- */
/* Real files                                                             */
/* ---------------------------------------------------------------------- */

static void test_corpus_containers_validate_and_round_trip_byte_for_byte(void **state)
{
    (void)state;
    file_list fl = corpus_files();
    int seen = 0;
    for (int i = 0; i < fl.n; i++) {
        if (!is_container(fl.paths[i])) continue;
        relic_mapping mp;
        relic_error err;
        relic_arena a;
        relic_erf_archive ar;
        relic_buf b;
        int fell_back = 1;
        relic_arena_init_heap(&a, 0);
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        assert_true(relic_erf_detect(mp.bytes.data, mp.bytes.size));
        if (relic_erf_open(mp.bytes.data, mp.bytes.size, &a, &ar, &err) != RELIC_OK)
            fail_msg("%s: %s @0x%llx: %s", fl.paths[i], err.path, (unsigned long long)err.offset, err.message);
        relic_buf_init(&b, 0);
        assert_int_equal(erf_write_scratch(&ar, RELIC_ERF_LAYOUT_KEEP, &b, &fell_back, &err), RELIC_OK);
        assert_int_equal(fell_back, 0);
        if (b.size != mp.bytes.size || memcmp(b.data, mp.bytes.data, b.size) != 0)
            fail_msg("%s: written back with %zu bytes (of %zu) differing in content", fl.paths[i], b.size, mp.bytes.size);
        relic_buf_free(&b);
        seen++;
        relic_arena_release(&a);
        relic_unmap(&mp);
    }
    print_message("%d corpus containers round-tripped byte for byte\n", seen);
    free_list(&fl);
}

/* xoreos, src/aurora/erffile.cpp; neverwinter.nim, erf.nim: header, strings, keys, resources, data back to back in key
 * order; KotOR's own capsule.rim aligns its data, so it is the exception. */
static void test_packed_layout_is_what_real_erfs_use(void **state)
{
    (void)state;
    file_list fl = corpus_files();
    int same = 0, total = 0;
    for (int i = 0; i < fl.n; i++) {
        if (!is_container(fl.paths[i])) continue;
        relic_mapping mp;
        relic_error err;
        relic_arena a;
        relic_erf_archive ar;
        relic_buf b;
        relic_arena_init_heap(&a, 0);
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        assert_int_equal(relic_erf_open(mp.bytes.data, mp.bytes.size, &a, &ar, &err), RELIC_OK);
        relic_buf_init(&b, 0);
        assert_int_equal(erf_write_scratch(&ar, RELIC_ERF_LAYOUT_PACKED, &b, NULL, &err), RELIC_OK);
        int eq = b.size == mp.bytes.size && memcmp(b.data, mp.bytes.data, b.size) == 0;
        if (!eq) {
            print_message("note: %s: not in the packed layout (data gaps), kept only by LAYOUT_KEEP\n", fl.paths[i]);
            assert_non_null(strstr(fl.paths[i], "capsule.rim"));
        }
        same += eq;
        total++;
        relic_buf_free(&b);
        relic_arena_release(&a);
        relic_unmap(&mp);
    }
    print_message("%d of %d corpus containers are in the packed layout\n", same, total);
    free_list(&fl);
}

static void test_member_gffs_validate_in_place(void **state)
{
    (void)state;
    file_list fl = corpus_files();
    int members = 0;
    for (int i = 0; i < fl.n; i++) {
        if (!is_container(fl.paths[i])) continue;
        relic_mapping mp;
        relic_error err;
        relic_arena a;
        relic_erf_archive ar;
        relic_arena_init_heap(&a, 0);
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        assert_int_equal(relic_erf_open(mp.bytes.data, mp.bytes.size, &a, &ar, &err), RELIC_OK);
        for (uint32_t k = 0; k < ar.count; k++) {
            const relic_erf_entry *e = &ar.entries[k];
            if (e->size < 8 || memcmp(e->data + 4, "V3.2", 4) != 0) continue;
            relic_gff_doc d;
            if (relic_erf_open_gff(&ar, k, &a, &d, &err) != RELIC_OK)
                fail_msg("%s: %s @0x%llx: %s", fl.paths[i], err.path, (unsigned long long)err.offset, err.message);
            /* a view into the mapped container: no copy */
            assert_ptr_equal(d.v.base, mp.bytes.data + e->offset);
            members++;
        }
        relic_arena_release(&a);
        relic_unmap(&mp);
    }
    print_message("%d member GFFs validated in place\n", members);
    free_list(&fl);
}

static void test_nwn2_module_lists_its_members_by_name(void **state)
{
    (void)state;
    relic_mapping mp;
    relic_error err;
    relic_arena a;
    relic_erf_archive ar;
    uint32_t k;
    char name[64];
    if (relic_map_file(CORPUS_DIR "/CromFr__nwn-lib-d__unittest__module.mod", 0, &mp, &err) != RELIC_OK) {
        print_message("note: corpus module.mod not found: skipped\n");
        return;
    }
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_erf_open(mp.bytes.data, mp.bytes.size, &a, &ar, &err), RELIC_OK);
    assert_int_equal(relic_erf_game_of(&ar), RELIC_ERF_GAME_NWN2);
    assert_int_equal(ar.count, 8);
    assert_string_equal(relic_erf_entry_name(&ar, 4, name, sizeof name), "moduledownloaderresources.xml");
    assert_true(relic_erf_find(&ar, "MODULE.IFO", &k));
    assert_int_equal(k, 2);
    assert_true(relic_erf_find(&ar, "module.jrl", &k));
    assert_int_equal(k, 3);
    assert_false(relic_erf_find(&ar, "module.are", &k));
    assert_int_equal(ar.erf.localized_strings_count, 11);
    assert_int_equal(ar.erf.localized_strings[0].text_count, 18);
    relic_arena_release(&a);
    relic_unmap(&mp);
}

/* ---------------------------------------------------------------------- */
/* Type table                                                             */
/* ---------------------------------------------------------------------- */

static void test_type_ids_and_extensions_map_both_ways(void **state)
{
    (void)state;
    uint32_t t;
    for (uint32_t id = 0; id < 10000; id++)
        for (int g = 0; g < 2; g++) {
            const char *ext = relic_erf_type_extension(id, (relic_erf_game)g);
            if (!ext) continue;
            assert_true(relic_erf_type_from_extension(ext, (relic_erf_game)g, &t));
            assert_int_equal(t, id);
        }
    assert_string_equal(relic_erf_type_extension(2014, RELIC_ERF_GAME_KOTOR), "ifo");
    assert_string_equal(relic_erf_type_extension(3002, RELIC_ERF_GAME_KOTOR), "rim");
    assert_string_equal(relic_erf_type_extension(3002, RELIC_ERF_GAME_NWN2), "trn");
    assert_null(relic_erf_type_extension(4000, RELIC_ERF_GAME_KOTOR));
    assert_true(relic_erf_type_from_extension("IFO", RELIC_ERF_GAME_KOTOR, &t));
    assert_int_equal(t, 2014);
    assert_true(relic_erf_type_from_extension("12345", RELIC_ERF_GAME_KOTOR, &t));
    assert_int_equal(t, 12345);
    assert_false(relic_erf_type_from_extension("70000", RELIC_ERF_GAME_KOTOR, &t));
    assert_false(relic_erf_type_from_extension("nope", RELIC_ERF_GAME_KOTOR, &t));
}

/* ---------------------------------------------------------------------- */
/* Writing new containers                                                 */
/* ---------------------------------------------------------------------- */

static const uint8_t blob_a[] = "first resource";
static const uint8_t blob_b[] = "second";

static void make_entries(relic_erf_entry *e)
{
    memset(e, 0, 3 * sizeof *e);
    strcpy(e[0].resref, "alpha");
    e[0].res_type = 2014;
    e[0].data = blob_a;
    e[0].size = sizeof blob_a;
    strcpy(e[1].resref, "empty");
    e[1].res_type = 2009;
    e[1].res_id = 1;
    strcpy(e[2].resref, "beta");
    e[2].res_type = 10;
    e[2].res_id = 2;
    e[2].data = blob_b;
    e[2].size = sizeof blob_b;
}

static void write_and_read_back(relic_erf_kind kind, relic_erf_game game, const char *type)
{
    relic_erf_archive ar, back;
    relic_erf_entry e[3];
    relic_buf b;
    relic_error err;
    relic_arena a;
    make_entries(e);
    relic_erf_init(&ar, kind, type, game);
    ar.entries = e;
    ar.count = 3;
    relic_buf_init(&b, 0);
    assert_int_equal(erf_write_scratch(&ar, RELIC_ERF_LAYOUT_PACKED, &b, NULL, &err), RELIC_OK);
    relic_arena_init_heap(&a, 0);
    if (relic_erf_open(b.data, b.size, &a, &back, &err) != RELIC_OK) fail_msg("%s @0x%llx: %s", err.path, (unsigned long long)err.offset, err.message);
    assert_int_equal(back.kind, kind);
    assert_int_equal(back.count, 3);
    for (int i = 0; i < 3; i++) {
        assert_string_equal(back.entries[i].resref, e[i].resref);
        assert_int_equal(back.entries[i].res_type, e[i].res_type);
        assert_int_equal(back.entries[i].res_id, e[i].res_id);
        assert_int_equal(back.entries[i].size, e[i].size);
        if (e[i].size) assert_memory_equal(back.entries[i].data, e[i].data, e[i].size);
    }
    /* data back to back after the tables, in entry order */
    assert_int_equal(back.entries[2].offset, back.entries[0].offset + sizeof blob_a);
    assert_int_equal(b.size, back.entries[2].offset + sizeof blob_b);
    if (kind == RELIC_ERF_KIND_ERF) {
        assert_memory_equal(b.data, type, 4);
        assert_int_equal(relic_erf_game_of(&back), game);
        assert_int_equal(back.entries[0].offset, 160 + 3 * (game == RELIC_ERF_GAME_NWN2 ? 40 : 24) + 3 * 8);
    } else {
        assert_int_equal(back.entries[0].offset, 120 + 3 * 32);
    }
    relic_arena_release(&a);
    relic_buf_free(&b);
}

static void test_new_erf_v1_0_reads_back(void **state)
{
    (void)state;
    write_and_read_back(RELIC_ERF_KIND_ERF, RELIC_ERF_GAME_KOTOR, "MOD ");
}
static void test_new_erf_v1_1_reads_back(void **state)
{
    (void)state;
    write_and_read_back(RELIC_ERF_KIND_ERF, RELIC_ERF_GAME_NWN2, "HAK ");
}
static void test_new_rim_reads_back(void **state)
{
    (void)state;
    write_and_read_back(RELIC_ERF_KIND_RIM, RELIC_ERF_GAME_KOTOR, NULL);
}

static void test_resref_too_long_for_v1_0_is_an_argument_error(void **state)
{
    (void)state;
    relic_erf_archive ar;
    relic_erf_entry e[3];
    relic_buf b;
    relic_error err;
    make_entries(e);
    strcpy(e[1].resref, "seventeen_chars_x");
    relic_erf_init(&ar, RELIC_ERF_KIND_ERF, "ERF ", RELIC_ERF_GAME_KOTOR);
    ar.entries = e;
    ar.count = 3;
    relic_buf_init(&b, 0);
    assert_int_equal(erf_write_scratch(&ar, RELIC_ERF_LAYOUT_PACKED, &b, NULL, &err), RELIC_E_ARGUMENT);
    relic_erf_init(&ar, RELIC_ERF_KIND_ERF, "ERF ", RELIC_ERF_GAME_NWN2);
    ar.entries = e;
    ar.count = 3;
    assert_int_equal(erf_write_scratch(&ar, RELIC_ERF_LAYOUT_PACKED, &b, NULL, &err), RELIC_OK);
    relic_buf_free(&b);
}

/* A packed V1.0 ERF of the three entries, for the hostile-table tests. */
static relic_buf packed_erf(void)
{
    relic_erf_archive ar;
    relic_erf_entry e[3];
    relic_buf b;
    relic_error err;
    make_entries(e);
    relic_erf_init(&ar, RELIC_ERF_KIND_ERF, "ERF ", RELIC_ERF_GAME_KOTOR);
    ar.entries = e;
    ar.count = 3;
    relic_buf_init(&b, 0);
    assert_int_equal(erf_write_scratch(&ar, RELIC_ERF_LAYOUT_PACKED, &b, NULL, &err), RELIC_OK);
    return b;
}

static relic_status open_buf(const relic_buf *b, relic_error *err)
{
    relic_arena a;
    relic_erf_archive ar;
    relic_arena_init_heap(&a, 0);
    relic_status st = relic_erf_open(b->data, b->size, &a, &ar, err);
    relic_arena_release(&a);
    return st;
}

#define RES_LIST 232 /* 160 + 3 keys of 24 */

static void test_data_past_the_end_is_truncated_with_the_entry_path(void **state)
{
    (void)state;
    relic_buf b = packed_erf();
    relic_error err;
    relic_store_u32le(b.data + RES_LIST + 16 + 4, 1000); /* resources[2].size */
    assert_int_equal(open_buf(&b, &err), RELIC_E_TRUNCATED);
    assert_string_equal(err.path, "resources[2]");
    assert_int_equal(err.offset, RES_LIST + 16);
    relic_buf_free(&b);
}

static void test_data_inside_the_tables_is_a_layout_error(void **state)
{
    (void)state;
    relic_buf b = packed_erf();
    relic_error err;
    relic_store_u32le(b.data + RES_LIST, 100); /* resources[0] inside the header */
    assert_int_equal(open_buf(&b, &err), RELIC_E_LAYOUT);
    assert_string_equal(err.path, "resources[0]");
    assert_non_null(strstr(err.message, "header"));
    relic_buf_free(&b);
}

static void test_overlapping_data_is_a_layout_error(void **state)
{
    (void)state;
    relic_buf b = packed_erf();
    relic_error err;
    relic_store_u32le(b.data + RES_LIST + 16, relic_load_u32le(b.data + RES_LIST) + 2); /* [2] inside [0] */
    assert_int_equal(open_buf(&b, &err), RELIC_E_LAYOUT);
    assert_string_equal(err.path, "resources[2]");
    assert_non_null(strstr(err.message, "resources[0]"));
    relic_buf_free(&b);
}

static void test_unknown_file_type_is_a_magic_error(void **state)
{
    (void)state;
    relic_buf b = packed_erf();
    relic_error err;
    memcpy(b.data, "XYZ ", 4);
    assert_int_equal(open_buf(&b, &err), RELIC_E_MAGIC);
    assert_string_equal(err.path, "header.file_type");
    memcpy(b.data, "ERF V2.0", 8);
    assert_int_not_equal(open_buf(&b, &err), RELIC_OK);
    relic_buf_free(&b);
}

static void test_empty_resources_may_share_an_offset(void **state)
{
    (void)state;
    relic_buf b = packed_erf();
    relic_error err;
    /* resources[1] is empty: anywhere inside the file is fine (module.mod has one at another's offset) */
    relic_store_u32le(b.data + RES_LIST + 8, relic_load_u32le(b.data + RES_LIST + 16));
    assert_int_equal(open_buf(&b, &err), RELIC_OK);
    relic_buf_free(&b);
}

/* ---------------------------------------------------------------------- */
/* Sweeps                                                                 */
/* ---------------------------------------------------------------------- */

/* Open, and when valid open every member GFF and write it back. */
static void exercise(const uint8_t *p, size_t n)
{
    relic_arena a;
    relic_erf_archive ar;
    relic_error err;
    relic_arena_init_heap(&a, (size_t)64 << 20);
    if (relic_erf_open(p, n, &a, &ar, &err) == RELIC_OK) {
        for (uint32_t k = 0; k < ar.count; k++) {
            assert_true((uint64_t)ar.entries[k].offset + ar.entries[k].size <= n);
            relic_gff_doc d;
            (void)relic_erf_open_gff(&ar, k, &a, &d, &err);
        }
        relic_buf b;
        relic_buf_init(&b, 0);
        assert_int_equal(erf_write_scratch(&ar, RELIC_ERF_LAYOUT_KEEP, &b, NULL, &err), RELIC_OK);
        relic_arena b_a;
        relic_erf_archive back;
        relic_arena_init_heap(&b_a, 0);
        assert_int_equal(relic_erf_open(b.data, b.size, &b_a, &back, &err), RELIC_OK);
        relic_arena_release(&b_a);
        relic_buf_free(&b);
    }
    relic_arena_release(&a);
}

static void test_truncations_never_crash(void **state)
{
    (void)state;
    file_list fl = corpus_files();
    for (int i = 0; i < fl.n; i++) {
        if (!is_container(fl.paths[i])) continue;
        relic_mapping mp;
        relic_error err;
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        for (int c = 0; c < 64; c++) {
            size_t n = mp.bytes.size * (size_t)c / 64;
            uint8_t *copy = malloc(n ? n : 1);
            memcpy(copy, mp.bytes.data, n);
            exercise(copy, n);
            free(copy);
        }
        relic_unmap(&mp);
    }
    free_list(&fl);
}

static void test_mutations_never_crash(void **state)
{
    (void)state;
    file_list fl = corpus_files();
    uint32_t seed = 12345;
    int per_file = 0, files = 0;
    for (int i = 0; i < fl.n; i++) files += is_container(fl.paths[i]);
    if (!files) return;
    per_file = 10000 / files;
    for (int i = 0; i < fl.n; i++) {
        if (!is_container(fl.paths[i])) continue;
        relic_mapping mp;
        relic_error err;
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        uint8_t *copy = malloc(mp.bytes.size);
        for (int m = 0; m < per_file; m++) {
            memcpy(copy, mp.bytes.data, mp.bytes.size);
            seed = seed * 1103515245u + 12345u;
            /* mostly the tables (first 1 KiB), where a byte changes the most */
            size_t span = mp.bytes.size < 1024 || (seed >> 30) == 0 ? mp.bytes.size : 1024;
            size_t at = (seed >> 8) % span;
            seed = seed * 1103515245u + 12345u;
            copy[at] = (uint8_t)(seed >> 16);
            exercise(copy, mp.bytes.size);
        }
        free(copy);
        relic_unmap(&mp);
    }
    free_list(&fl);
}

/* ---------------------------------------------------------------------- */
/* In-place GFF patching (relic set)                                      */
/* ---------------------------------------------------------------------- */

/* A GFF with one field of each fixed-size type, written by relic's writer. */
static relic_buf fixed_types_gff(void)
{
    static relic_gff_tfield f[12];
    static relic_gff_tstruct root;
    static const char *labels[12] = {"B", "C", "W", "S", "DW", "I", "DW64", "I64", "F", "D", "Ori", "Vec"};
    static const uint32_t types[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17};
    relic_gff_tree t;
    relic_buf b;
    relic_error err;
    memset(f, 0, sizeof f);
    for (int i = 0; i < 12; i++) {
        f[i].type = types[i];
        strcpy(f[i].label, labels[i]);
        f[i].src_index = f[i].src_label = f[i].src_data = RELIC_GFF_NONE;
    }
    f[3].v.i = -5;
    root.id = RELIC_GFF_NONE;
    root.field_count = 12;
    root.fields = f;
    root.src_index = root.src_data = RELIC_GFF_NONE;
    memset(&t, 0, sizeof t);
    memcpy(t.file_type, "UTC ", 4);
    t.root = &root;
    relic_arena wa; /* the writer's scratch */
    relic_arena_init_heap(&wa, 0);
    relic_buf_init(&b, 0);
    relic_status st = relic_gff_write_tree(&t, RELIC_GFF_LAYOUT_DEFAULT, &wa, &b, NULL, &err);
    relic_arena_release(&wa);
    assert_int_equal(st, RELIC_OK);
    return b;
}

static void patch_ok(relic_buf *b, const char *label, const char *text)
{
    relic_arena a;
    relic_gff_doc d;
    relic_error err;
    uint32_t f;
    int is_struct;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_gff_open(b->data, b->size, &a, NULL, NULL, &d, &err), RELIC_OK);
    assert_int_equal(relic_gff_resolve(&d, label, &f, &is_struct, &err), RELIC_OK);
    if (relic_gff_patch(b->data, &d, f, text, &err) != RELIC_OK) fail_msg("%s = %s: %s", label, text, err.message);
    relic_arena_release(&a);
}

static void test_patch_stores_every_fixed_size_type_in_place(void **state)
{
    (void)state;
    relic_buf b = fixed_types_gff();
    size_t size = b.size;
    patch_ok(&b, "B", "255");
    patch_ok(&b, "C", "-128");
    patch_ok(&b, "W", "0xFFFF");
    patch_ok(&b, "S", "-32768");
    patch_ok(&b, "DW", "4000000000");
    patch_ok(&b, "I", "-2000000000");
    patch_ok(&b, "DW64", "18446744073709551615");
    patch_ok(&b, "I64", "-9223372036854775808");
    patch_ok(&b, "F", "1.5");
    patch_ok(&b, "D", "-0.125");
    patch_ok(&b, "Ori", "1 0 0 0.5");
    patch_ok(&b, "Vec", "1.25,2.5,-3");
    assert_int_equal(b.size, size);
    relic_arena a;
    relic_gff_doc d;
    relic_error err;
    uint32_t f;
    uint64_t u;
    int64_t i;
    float fl, v[4];
    double db;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_gff_open(b.data, b.size, &a, NULL, NULL, &d, &err), RELIC_OK);
    assert_true(relic_gff_find(&d, 0, "B", &f));
    relic_gff_get_uint(&d, f, &u, &err);
    assert_int_equal(u, 255);
    assert_true(relic_gff_find(&d, 0, "C", &f));
    relic_gff_get_int(&d, f, &i, &err);
    assert_int_equal(i, -128);
    assert_true(relic_gff_find(&d, 0, "W", &f));
    relic_gff_get_uint(&d, f, &u, &err);
    assert_int_equal(u, 0xFFFF);
    assert_true(relic_gff_find(&d, 0, "S", &f));
    relic_gff_get_int(&d, f, &i, &err);
    assert_int_equal(i, -32768);
    assert_true(relic_gff_find(&d, 0, "DW", &f));
    relic_gff_get_uint(&d, f, &u, &err);
    assert_int_equal(u, 4000000000u);
    assert_true(relic_gff_find(&d, 0, "I", &f));
    relic_gff_get_int(&d, f, &i, &err);
    assert_int_equal(i, -2000000000);
    assert_true(relic_gff_find(&d, 0, "DW64", &f));
    relic_gff_get_uint(&d, f, &u, &err);
    assert_true(u == UINT64_MAX);
    assert_true(relic_gff_find(&d, 0, "I64", &f));
    relic_gff_get_int(&d, f, &i, &err);
    assert_true(i == INT64_MIN);
    assert_true(relic_gff_find(&d, 0, "F", &f));
    relic_gff_get_float(&d, f, &fl, &err);
    assert_true(fl == 1.5f);
    assert_true(relic_gff_find(&d, 0, "D", &f));
    relic_gff_get_double(&d, f, &db, &err);
    assert_true(db == -0.125);
    assert_true(relic_gff_find(&d, 0, "Ori", &f));
    relic_gff_get_orientation(&d, f, v, &err);
    assert_true(v[0] == 1 && v[1] == 0 && v[2] == 0 && v[3] == 0.5f);
    assert_true(relic_gff_find(&d, 0, "Vec", &f));
    relic_gff_get_vector(&d, f, v, &err);
    assert_true(v[0] == 1.25f && v[1] == 2.5f && v[2] == -3);
    relic_arena_release(&a);
    relic_buf_free(&b);
}

static void test_patch_rejects_bad_values_and_writes_nothing(void **state)
{
    (void)state;
    static const char *const bad[][2] = {
        {"B", "256"},
        {"B", "-1"},
        {"C", "128"},
        {"W", "65536"},
        {"S", "32768"},
        {"DW", "4294967296"},
        {"I", "2147483648"},
        {"DW64", "-1"},
        {"DW64", "18446744073709551616"},
        {"I64", "9223372036854775808"},
        {"F", "x"},
        {"F", "1e999"},
        {"D", ""},
        {"Ori", "1 2 3"},
        {"Vec", "1 2 3 4"},
        {"I", "12abc"},
    };
    relic_buf b = fixed_types_gff();
    uint8_t *before = malloc(b.size);
    memcpy(before, b.data, b.size);
    relic_arena a;
    relic_gff_doc d;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_gff_open(b.data, b.size, &a, NULL, NULL, &d, &err), RELIC_OK);
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        uint32_t f;
        assert_true(relic_gff_find(&d, 0, bad[k][0], &f));
        if (relic_gff_patch(b.data, &d, f, bad[k][1], &err) != RELIC_E_RANGE) fail_msg("%s = '%s' accepted", bad[k][0], bad[k][1]);
        assert_string_equal(err.path, bad[k][0]);
        assert_memory_equal(b.data, before, b.size);
    }
    relic_arena_release(&a);
    free(before);
    relic_buf_free(&b);
}

static void test_patch_refuses_variable_size_types(void **state)
{
    (void)state;
    assert_false(relic_gff_type_is_fixed(RELIC_GFF_FIELD_TYPE_CEXOSTRING));
    assert_false(relic_gff_type_is_fixed(RELIC_GFF_FIELD_TYPE_LIST));
    assert_true(relic_gff_type_is_fixed(RELIC_GFF_FIELD_TYPE_VECTOR));
    assert_true(relic_gff_type_is_fixed(RELIC_GFF_FIELD_TYPE_INT64));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_containers_validate_and_round_trip_byte_for_byte),
        cmocka_unit_test(test_packed_layout_is_what_real_erfs_use),
        cmocka_unit_test(test_member_gffs_validate_in_place),
        cmocka_unit_test(test_nwn2_module_lists_its_members_by_name),
        cmocka_unit_test(test_type_ids_and_extensions_map_both_ways),
        cmocka_unit_test(test_new_erf_v1_0_reads_back),
        cmocka_unit_test(test_new_erf_v1_1_reads_back),
        cmocka_unit_test(test_new_rim_reads_back),
        cmocka_unit_test(test_resref_too_long_for_v1_0_is_an_argument_error),
        cmocka_unit_test(test_data_past_the_end_is_truncated_with_the_entry_path),
        cmocka_unit_test(test_data_inside_the_tables_is_a_layout_error),
        cmocka_unit_test(test_overlapping_data_is_a_layout_error),
        cmocka_unit_test(test_unknown_file_type_is_a_magic_error),
        cmocka_unit_test(test_empty_resources_may_share_an_offset),
        cmocka_unit_test(test_truncations_never_crash),
        cmocka_unit_test(test_mutations_never_crash),
        cmocka_unit_test(test_patch_stores_every_fixed_size_type_in_place),
        cmocka_unit_test(test_patch_rejects_bad_values_and_writes_nothing),
        cmocka_unit_test(test_patch_refuses_variable_size_types),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
