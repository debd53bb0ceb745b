/* test_gff.c — BioWare GFF V3.2 end to end: every real file validates (the
 * deliberately corrupted PyKotor file is rejected with a clear error),
 * round-trips byte for byte through the tree and through nwn_gff JSON, every
 * field type and locstring case reads back through the zero-copy getters,
 * hostile graphs (cycles, shared structs, deep nesting) are rejected, and
 * truncated or mutated files never crash (ASan+UBSan in `make test`).
 * Real files: ../shared/corpus/gff (skipped, saying so, when absent). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_pass.h"

#include "relic_gff.h"

#define CORPUS_DIR "../shared/corpus/gff"
#define CORRUPTED "test_corrupted.gff"
#define MAX_FILES 512

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

static int is_corrupted(const char *path) { return strstr(path, CORRUPTED) != NULL; }

static relic_status open_bytes(const uint8_t *p, size_t n, relic_arena *a, relic_gff_doc *d, relic_error *err)
{
    return relic_gff_open(p, n, a, NULL, NULL, d, err);
}

/* ---------------------------------------------------------------------- */
/* Real files                                                             */
/* ---------------------------------------------------------------------- */

static void test_corpus_validates_except_the_corrupted_file(void **state)
{
    (void)state;
    file_list fl = corpus_files();
    int valid = 0, corrupted_seen = 0;
    for (int i = 0; i < fl.n; i++) {
        relic_mapping mp;
        relic_error err;
        relic_arena a;
        relic_gff_doc d;
        relic_arena_init_heap(&a, 0);
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        relic_status st = open_bytes(mp.bytes.data, mp.bytes.size, &a, &d, &err);
        if (is_corrupted(fl.paths[i])) {
            corrupted_seen = 1;
            assert_int_not_equal(st, RELIC_OK);
            assert_int_equal(err.code, RELIC_E_INDEX);
            assert_string_equal(err.path, "structs[0].field_count");
            assert_non_null(strstr(err.message, "field-indices array"));
        } else {
            if (st != RELIC_OK) relic_error_print(stderr, fl.paths[i], &err);
            assert_int_equal(st, RELIC_OK);
            assert_int_equal(d.reachable, d.struct_count);
            valid++;
        }
        relic_arena_release(&a);
        relic_unmap(&mp);
    }
    if (fl.n) {
        assert_true(corrupted_seen);
        print_message("%d real GFF files validate\n", valid);
    }
    free_list(&fl);
}

static int write_equals(const relic_gff_tree *t, relic_gff_layout l, const relic_bytes *orig, size_t *first_diff)
{
    relic_buf b;
    relic_error err;
    int fb;
    relic_arena wa;
    relic_arena_init_heap(&wa, 0);
    relic_buf_init(&b, 0);
    assert_int_equal(relic_gff_write_tree(t, l, &wa, &b, &fb, &err), RELIC_OK);
    size_t i = 0;
    while (i < b.size && i < orig->size && b.data[i] == orig->data[i]) i++;
    *first_diff = i;
    int same = b.size == orig->size && i == b.size;
    relic_buf_free(&b);
    relic_arena_release(&wa);
    return same;
}

static const char *section_of(const relic_bytes *orig, size_t off)
{
    static const char *const names[] = {"structs", "fields", "labels", "field data", "field indices", "list indices"};
    if (off < 56) return "header";
    const char *best = "end";
    uint32_t best_off = 0;
    for (int k = 0; k < 6; k++) {
        uint32_t o = relic_load_u32le(orig->data + 8 + 8 * k);
        if (o <= off && o >= best_off) {
            best_off = o;
            best = names[k];
        }
    }
    return best;
}

/* binary -> tree -> binary is the identity for every real file (KEEP); the
 * game's layout (DEFAULT) and the post-order one reproduce the files that
 * use them; the others are printed with the first section that differs. */
static void test_corpus_binary_round_trip_is_byte_exact(void **state)
{
    (void)state;
    file_list fl = corpus_files();
    int n = 0, def = 0, post = 0, keep_only = 0;
    for (int i = 0; i < fl.n; i++) {
        if (is_corrupted(fl.paths[i])) continue;
        relic_mapping mp;
        relic_error err;
        relic_arena a;
        relic_gff_doc d;
        relic_gff_tree t;
        size_t diff, diff_post;
        relic_arena_init_heap(&a, 0);
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        assert_int_equal(open_bytes(mp.bytes.data, mp.bytes.size, &a, &d, &err), RELIC_OK);
        assert_int_equal(relic_gff_tree_from_doc(&d, &a, &t, &err), RELIC_OK);
        if (!write_equals(&t, RELIC_GFF_LAYOUT_KEEP, &mp.bytes, &diff)) {
            print_message("NOT byte-identical: %s (first difference at 0x%zx, %s)\n", fl.paths[i], diff,
                          section_of(&mp.bytes, diff));
            fail();
        }
        n++;
        if (write_equals(&t, RELIC_GFF_LAYOUT_DEFAULT, &mp.bytes, &diff)) def++;
        else if (write_equals(&t, RELIC_GFF_LAYOUT_POSTORDER, &mp.bytes, &diff_post)) post++;
        else {
            keep_only++;
            print_message("layout kept as read (not the game's): %s: the default layout first differs at 0x%zx (%s)\n",
                          strrchr(fl.paths[i], '/') + 1, diff, section_of(&mp.bytes, diff));
        }
        relic_arena_release(&a);
        relic_unmap(&mp);
    }
    if (n) {
        print_message("%d files byte-identical: %d in the default layout, %d post-order, %d other\n", n, def, post,
                      keep_only);
        assert_true(def >= n * 3 / 4);
        assert_true(post >= 1);
    }
    free_list(&fl);
}

/* GFF -> JSON -> GFF gives the file's default-layout bytes (so the original
 * bytes for default-layout files), and JSON -> GFF -> JSON is the identity. */
static void test_corpus_json_round_trip(void **state)
{
    (void)state;
    file_list fl = corpus_files();
    int n = 0, identical = 0;
    for (int i = 0; i < fl.n; i++) {
        /* one file in TEST_PASS_STRIDE in the sanitizer pass (test_pass.h) */
        if (is_corrupted(fl.paths[i]) || !test_take((size_t)i)) continue;
        relic_mapping mp;
        relic_error err;
        relic_arena a;
        relic_gff_doc d;
        relic_gff_tree t, t2, t3;
        relic_buf json, json2, b1, b2;
        relic_arena_init_heap(&a, 0);
        relic_buf_init(&json, 0);
        relic_buf_init(&json2, 0);
        relic_buf_init(&b1, 0);
        relic_buf_init(&b2, 0);
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        assert_int_equal(open_bytes(mp.bytes.data, mp.bytes.size, &a, &d, &err), RELIC_OK);
        assert_int_equal(relic_gff_tree_from_doc(&d, &a, &t, &err), RELIC_OK);
        assert_int_equal(relic_gff_json_print_tree(&t, RELIC_GFF_ENC_CP1252, &json, &err), RELIC_OK);
        relic_status st = relic_gff_json_read_tree((const char *)json.data, json.size, RELIC_GFF_ENC_CP1252, &a, &t2, &err);
        if (st != RELIC_OK) print_message("%s: %s: %s\n", fl.paths[i], err.path, err.message);
        assert_int_equal(st, RELIC_OK);
        assert_int_equal(relic_gff_write_tree(&t, t.family, &a, &b1, NULL, &err), RELIC_OK);   /* the file's family ... */
        assert_int_equal(relic_gff_write_tree(&t2, t2.family, &a, &b2, NULL, &err), RELIC_OK); /* ... through "__layout" */
        assert_int_equal(b1.size, b2.size);
        assert_memory_equal(b1.data, b2.data, b1.size);
        identical += b2.size == mp.bytes.size && memcmp(b2.data, mp.bytes.data, b2.size) == 0;
        /* JSON -> GFF -> JSON */
        assert_int_equal(open_bytes(b2.data, b2.size, &a, &d, &err), RELIC_OK);
        assert_int_equal(relic_gff_tree_from_doc(&d, &a, &t3, &err), RELIC_OK);
        assert_int_equal(relic_gff_json_print_tree(&t3, RELIC_GFF_ENC_CP1252, &json2, &err), RELIC_OK);
        assert_int_equal(json.size, json2.size);
        assert_memory_equal(json.data, json2.data, json.size);
        n++;
        relic_buf_free(&json);
        relic_buf_free(&json2);
        relic_buf_free(&b1);
        relic_buf_free(&b2);
        relic_arena_release(&a);
        relic_unmap(&mp);
    }
    if (n) print_message("%d files: GFF -> JSON -> GFF gives the original bytes for %d\n", n, identical);
    free_list(&fl);
}

/* `relic get module.ifo Mod_Name` and `area.are Tile_List/3/Tile_ID` */
static void test_corpus_paths_resolve(void **state)
{
    (void)state;
    relic_mapping mp;
    relic_error err;
    relic_arena a;
    relic_gff_doc d;
    uint32_t f;
    int is_struct;
    relic_bytes b;
    int64_t v;
    if (relic_map_file(CORPUS_DIR "/calgacus__nwn-classical__module.ifo", 0, &mp, &err) != RELIC_OK) {
        print_message("note: %s not found: skipped\n", CORPUS_DIR);
        return;
    }
    relic_arena_init_heap(&a, 0);
    assert_int_equal(open_bytes(mp.bytes.data, mp.bytes.size, &a, &d, &err), RELIC_OK);
    assert_int_equal(relic_gff_resolve(&d, "Mod_Name", &f, &is_struct, &err), RELIC_OK);
    assert_false(is_struct);
    assert_int_equal(relic_gff_field_type_of(&d, f), RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING);
    relic_unmap(&mp);
    relic_arena_release(&a);
    assert_int_equal(relic_map_file(CORPUS_DIR "/calgacus__nwn-classical__area001.are", 0, &mp, &err), RELIC_OK);
    relic_arena_init_heap(&a, 0);
    assert_int_equal(open_bytes(mp.bytes.data, mp.bytes.size, &a, &d, &err), RELIC_OK);
    assert_int_equal(relic_gff_resolve(&d, "Tile_List/3/Tile_ID", &f, &is_struct, &err), RELIC_OK);
    assert_int_equal(relic_gff_get_int(&d, f, &v, &err), RELIC_OK);
    assert_int_equal(v, 5);
    assert_int_equal(relic_gff_resolve(&d, "Tile_List/3", &f, &is_struct, &err), RELIC_OK);
    assert_true(is_struct);
    assert_int_equal(relic_gff_resolve(&d, "Tile_List/99999", &f, &is_struct, &err), RELIC_E_ARGUMENT);
    assert_int_equal(relic_gff_resolve(&d, "Tile_ID", &f, &is_struct, &err), RELIC_E_ARGUMENT);
    assert_int_equal(relic_gff_resolve(&d, "Tag", &f, &is_struct, &err), RELIC_OK);
    assert_int_equal(relic_gff_get_string(&d, f, &b, &err), RELIC_OK);
    relic_arena_release(&a);
    relic_unmap(&mp);
}

/* The NWN2 BIC with two Tintable fields: a warning, not an error; the last one wins. */
static void count_warning(void *ctx, const relic_error *e)
{
    (void)e;
    (*(int *)ctx)++;
}

static void test_duplicate_label_is_a_warning_and_last_wins(void **state)
{
    (void)state;
    relic_mapping mp;
    relic_error err;
    relic_arena a;
    relic_gff_doc d;
    int warnings = 0;
    uint32_t f;
    if (relic_map_file(CORPUS_DIR "/CromFr__nwn-lib-d__unittest__krogar.bic", 0, &mp, &err) != RELIC_OK) {
        print_message("note: %s not found: skipped\n", CORPUS_DIR);
        return;
    }
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_gff_open(mp.bytes.data, mp.bytes.size, &a, count_warning, &warnings, &d, &err), RELIC_OK);
    assert_int_equal(warnings, 1);
    assert_true(relic_gff_find(&d, 0, "Tintable", &f));
    uint32_t n = relic_gff_doc_struct_field_count(&d, 0), last = 0;
    for (uint32_t i = 0; i < n; i++) {
        size_t len;
        uint32_t fi = relic_gff_struct_field(&d, 0, i);
        const char *l = relic_gff_field_label(&d, fi, &len);
        if (len == 8 && memcmp(l, "Tintable", 8) == 0) last = fi;
    }
    assert_int_equal(f, last);
    relic_arena_release(&a);
    relic_unmap(&mp);
}

/* ---------------------------------------------------------------------- */
/* Every field type, built by hand                                        */
/* ---------------------------------------------------------------------- */

static relic_gff_tfield *add_field(relic_gff_tstruct *s, uint32_t type, const char *label)
{
    relic_gff_tfield *f = &s->fields[s->field_count++];
    memset(f, 0, sizeof *f);
    f->type = type;
    strcpy(f->label, label);
    f->src_index = f->src_label = f->src_data = RELIC_GFF_NONE;
    return f;
}

static relic_gff_tstruct *new_struct(relic_arena *a, uint32_t id, uint32_t cap)
{
    relic_gff_tstruct *s = relic_arena_alloc(a, sizeof *s, 8);
    s->id = id;
    s->fields = relic_arena_array(a, cap, sizeof *s->fields, 8);
    s->src_index = s->src_data = RELIC_GFF_NONE;
    return s;
}

static uint8_t sample_text[] = "Sword \x80 d\xe9j\xe0";
static uint8_t sample_ref[] = "nw_wswls001";
static uint8_t sample_blob[] = {0, 1, 2, 0xFF, 0xFE};
static uint8_t sample_fr[] = "\xc9p\xe9"
                             "e";

/* A tree with every field type 0-17, a locstring with two substrings in
 * non-sorted order, an empty struct, a list of two structs. */
static void make_all_types(relic_arena *a, relic_gff_tree *t)
{
    memset(t, 0, sizeof *t);
    memcpy(t->file_type, "UTI ", 4);
    relic_gff_tstruct *r = new_struct(a, RELIC_GFF_NONE, 20);
    t->root = r;
    add_field(r, RELIC_GFF_FIELD_TYPE_BYTE, "Byte")->v.u = 255;
    add_field(r, RELIC_GFF_FIELD_TYPE_CHAR, "Char")->v.i = -5;
    add_field(r, RELIC_GFF_FIELD_TYPE_WORD, "Word")->v.u = 65535;
    add_field(r, RELIC_GFF_FIELD_TYPE_SHORT, "Short")->v.i = -11;
    add_field(r, RELIC_GFF_FIELD_TYPE_DWORD, "Dword")->v.u = 4000000000u;
    add_field(r, RELIC_GFF_FIELD_TYPE_INT, "Int")->v.i = INT32_MIN;
    add_field(r, RELIC_GFF_FIELD_TYPE_DWORD64, "Dword64")->v.u = UINT64_MAX;
    add_field(r, RELIC_GFF_FIELD_TYPE_INT64, "Int64")->v.i = INT64_MIN;
    add_field(r, RELIC_GFF_FIELD_TYPE_FLOAT, "Float")->v.f32 = 0.1f;
    add_field(r, RELIC_GFF_FIELD_TYPE_DOUBLE, "Double")->v.f64 = 1.0 / 3.0;
    relic_gff_tfield *f = add_field(r, RELIC_GFF_FIELD_TYPE_CEXOSTRING, "String");
    f->v.bytes.p = sample_text;
    f->v.bytes.n = sizeof sample_text - 1;
    f = add_field(r, RELIC_GFF_FIELD_TYPE_RESREF, "ResRef");
    f->v.bytes.p = sample_ref;
    f->v.bytes.n = sizeof sample_ref - 1;
    f = add_field(r, RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING, "LocName");
    f->v.loc.strref = 12345;
    f->v.loc.count = 2;
    f->v.loc.s = relic_arena_array(a, 2, sizeof *f->v.loc.s, 8);
    f->v.loc.s[0] = (relic_gff_tsubstring){2, sample_fr, sizeof sample_fr - 1};   /* French masculine */
    f->v.loc.s[1] = (relic_gff_tsubstring){0, sample_ref, sizeof sample_ref - 1}; /* English */
    f = add_field(r, RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING, "LocEmpty");
    f->v.loc.strref = RELIC_GFF_NONE;
    f = add_field(r, RELIC_GFF_FIELD_TYPE_VOID, "Void");
    f->v.bytes.p = sample_blob;
    f->v.bytes.n = sizeof sample_blob;
    f = add_field(r, RELIC_GFF_FIELD_TYPE_STRUCT, "Empty");
    f->v.child = new_struct(a, 7, 1);
    f = add_field(r, RELIC_GFF_FIELD_TYPE_LIST, "List");
    f->v.list.count = 2;
    f->v.list.items = relic_arena_array(a, 2, sizeof *f->v.list.items, 8);
    for (int k = 0; k < 2; k++) {
        f->v.list.items[k] = new_struct(a, (uint32_t)k, 2);
        add_field(f->v.list.items[k], RELIC_GFF_FIELD_TYPE_INT, "Index")->v.i = k;
        add_field(f->v.list.items[k], RELIC_GFF_FIELD_TYPE_BYTE, "Only")->v.u = 1;
    }
    f = add_field(r, RELIC_GFF_FIELD_TYPE_ORIENTATION, "Orientation");
    f->v.vec[0] = 0;
    f->v.vec[1] = 0;
    f->v.vec[2] = 0.70710677f;
    f->v.vec[3] = 0.70710677f;
    f = add_field(r, RELIC_GFF_FIELD_TYPE_VECTOR, "Position");
    f->v.vec[0] = 1.5f;
    f->v.vec[1] = -2;
    f->v.vec[2] = 1e-7f;
}

static void test_every_field_type_reads_back(void **state)
{
    (void)state;
    relic_arena a;
    relic_gff_tree t;
    relic_buf b;
    relic_error err;
    relic_gff_doc d;
    uint32_t f, s;
    uint64_t u;
    int64_t i;
    float fl, v[4];
    double db;
    relic_bytes by;
    relic_gff_locstring ls;
    relic_gff_list l;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&b, 0);
    make_all_types(&a, &t);
    assert_int_equal(relic_gff_write_tree(&t, RELIC_GFF_LAYOUT_DEFAULT, &a, &b, NULL, &err), RELIC_OK);
    assert_int_equal(open_bytes(b.data, b.size, &a, &d, &err), RELIC_OK);
    assert_memory_equal(relic_gff_file_type(&d), "UTI ", 4);
#define FIND(label) assert_true(relic_gff_find(&d, 0, label, &f))
    FIND("Byte");
    assert_int_equal(relic_gff_get_uint(&d, f, &u, &err), RELIC_OK);
    assert_int_equal(u, 255);
    FIND("Char");
    assert_int_equal(relic_gff_get_int(&d, f, &i, &err), RELIC_OK);
    assert_int_equal(i, -5);
    FIND("Word");
    relic_gff_get_uint(&d, f, &u, &err);
    assert_int_equal(u, 65535);
    FIND("Short");
    relic_gff_get_int(&d, f, &i, &err);
    assert_int_equal(i, -11);
    /* stored sign-extended as game files do (xoreos, src/aurora/gff3file.h; neverwinter.nim, gff.nim) */
    assert_int_equal(relic_gff_field_data_or_data_offset(relic_gff_fields_at(&d.v, f)), 0xFFFFFFF5u);
    FIND("Dword");
    relic_gff_get_uint(&d, f, &u, &err);
    assert_int_equal(u, 4000000000u);
    FIND("Int");
    relic_gff_get_int(&d, f, &i, &err);
    assert_int_equal(i, INT32_MIN);
    FIND("Dword64");
    relic_gff_get_uint(&d, f, &u, &err);
    assert_true(u == UINT64_MAX);
    FIND("Int64");
    relic_gff_get_int(&d, f, &i, &err);
    assert_true(i == INT64_MIN);
    FIND("Float");
    assert_int_equal(relic_gff_get_float(&d, f, &fl, &err), RELIC_OK);
    assert_true(fl == 0.1f);
    FIND("Double");
    assert_int_equal(relic_gff_get_double(&d, f, &db, &err), RELIC_OK);
    assert_true(db == 1.0 / 3.0);
    FIND("String");
    assert_int_equal(relic_gff_get_string(&d, f, &by, &err), RELIC_OK);
    assert_int_equal(by.size, sizeof sample_text - 1);
    assert_memory_equal(by.data, sample_text, by.size);
    FIND("ResRef");
    assert_int_equal(relic_gff_get_resref(&d, f, &by, &err), RELIC_OK);
    assert_int_equal(by.size, 11);
    assert_memory_equal(by.data, "nw_wswls001", 11);
    FIND("LocName");
    assert_int_equal(relic_gff_get_locstring(&d, f, &ls, &err), RELIC_OK);
    assert_int_equal(ls.strref, 12345);
    assert_int_equal(ls.count, 2);
    const uint8_t *cur = ls.first;
    uint32_t id;
    relic_gff_locstring_next(&cur, &id, &by);
    assert_int_equal(id, 2);
    assert_int_equal(by.size, 4);
    relic_gff_locstring_next(&cur, &id, &by);
    assert_int_equal(id, 0);
    assert_memory_equal(by.data, "nw_wswls001", 11);
    FIND("LocEmpty");
    relic_gff_get_locstring(&d, f, &ls, &err);
    assert_int_equal(ls.strref, RELIC_GFF_NONE);
    assert_int_equal(ls.count, 0);
    FIND("Void");
    assert_int_equal(relic_gff_get_void(&d, f, &by, &err), RELIC_OK);
    assert_int_equal(by.size, 5);
    assert_memory_equal(by.data, sample_blob, 5);
    FIND("Empty");
    assert_int_equal(relic_gff_get_struct(&d, f, &s, &err), RELIC_OK);
    assert_int_equal(relic_gff_doc_struct_id(&d, s), 7);
    assert_int_equal(relic_gff_doc_struct_field_count(&d, s), 0);
    /* an empty struct stores 0xFFFFFFFF (xoreos, src/aurora/gff3file.cpp; neverwinter.nim, gff.nim) */
    assert_int_equal(relic_gff_struct_data_or_data_offset(relic_gff_structs_at(&d.v, s)), RELIC_GFF_NONE);
    FIND("List");
    assert_int_equal(relic_gff_get_list(&d, f, &l, &err), RELIC_OK);
    assert_int_equal(l.count, 2);
    assert_true(relic_gff_find(&d, relic_gff_list_at(&l, 1), "Index", &f));
    relic_gff_get_int(&d, f, &i, &err);
    assert_int_equal(i, 1);
    FIND("Orientation");
    assert_int_equal(relic_gff_get_orientation(&d, f, v, &err), RELIC_OK);
    assert_true(v[2] == 0.70710677f && v[3] == 0.70710677f);
    FIND("Position");
    assert_int_equal(relic_gff_get_vector(&d, f, v, &err), RELIC_OK);
    assert_true(v[0] == 1.5f && v[1] == -2 && v[2] == 1e-7f);
    assert_false(relic_gff_find(&d, 0, "Missing", &f));
#undef FIND
    relic_buf_free(&b);
    relic_arena_release(&a);
}

static void test_type_mismatch_is_an_error(void **state)
{
    (void)state;
    relic_arena a;
    relic_gff_tree t;
    relic_buf b;
    relic_error err;
    relic_gff_doc d;
    uint32_t f, s;
    uint64_t u;
    int64_t i;
    float fl;
    relic_gff_list l;
    relic_bytes by;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&b, 0);
    make_all_types(&a, &t);
    assert_int_equal(relic_gff_write_tree(&t, RELIC_GFF_LAYOUT_DEFAULT, &a, &b, NULL, &err), RELIC_OK);
    assert_int_equal(open_bytes(b.data, b.size, &a, &d, &err), RELIC_OK);
    assert_true(relic_gff_find(&d, 0, "List", &f));
    assert_int_equal(relic_gff_get_uint(&d, f, &u, &err), RELIC_E_ARGUMENT);
    assert_non_null(strstr(err.message, "'List' is a list"));
    assert_int_equal(relic_gff_get_string(&d, f, &by, &err), RELIC_E_ARGUMENT);
    assert_int_equal(relic_gff_get_struct(&d, f, &s, &err), RELIC_E_ARGUMENT);
    assert_true(relic_gff_find(&d, 0, "Byte", &f));
    assert_int_equal(relic_gff_get_int(&d, f, &i, &err), RELIC_E_ARGUMENT);
    assert_int_equal(relic_gff_get_float(&d, f, &fl, &err), RELIC_E_ARGUMENT);
    assert_int_equal(relic_gff_get_list(&d, f, &l, &err), RELIC_E_ARGUMENT);
    relic_buf_free(&b);
    relic_arena_release(&a);
}

static void test_every_field_type_round_trips_through_json(void **state)
{
    (void)state;
    relic_arena a;
    relic_gff_tree t, t2;
    relic_buf b, b2, j;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&b, 0);
    relic_buf_init(&b2, 0);
    relic_buf_init(&j, 0);
    make_all_types(&a, &t);
    assert_int_equal(relic_gff_write_tree(&t, RELIC_GFF_LAYOUT_DEFAULT, &a, &b, NULL, &err), RELIC_OK);
    assert_int_equal(relic_gff_json_print_tree(&t, RELIC_GFF_ENC_CP1252, &j, &err), RELIC_OK);
    relic_buf_append(&j, "", 1);
    const char *js = (const char *)j.data;
    /* the nwn_gff shapes (neverwinter.nim, gffjson.nim; xoreos-tools, src/xml/gff3dumper.cpp) */
    assert_non_null(strstr(js, "\"__data_type\":\"UTI \""));
    assert_non_null(strstr(js, "\"Byte\":{\"type\":\"byte\",\"value\":255}"));
    assert_non_null(strstr(js, "\"Dword64\":{\"type\":\"dword64\",\"value\":18446744073709551615}"));
    /* nwn_gff prints a float as the f64 it widens to (gff_float.c) */
    assert_non_null(strstr(js, "\"Float\":{\"type\":\"float\",\"value\":0.10000000149011612}"));
    assert_non_null(strstr(js, "\"String\":{\"type\":\"cexostring\",\"value\":\"Sword \xe2\x82\xac d\xc3\xa9j\xc3\xa0\"}"));
    assert_non_null(strstr(js, "\"Void\":{\"type\":\"void\",\"value64\":\"AAEC//4=\"}"));
    assert_non_null(strstr(js, "\"LocEmpty\":{\"type\":\"cexolocstring\",\"value\":{}}"));
    assert_non_null(strstr(js, "\"__substring_order\":[2,0],\"type\":\"cexolocstring\",\"value\":{\"0\":\"nw_wswls001\",\"2\":\"\xc3\x89p\xc3\xa9"
                               "e\",\"id\":12345}"));
    assert_non_null(strstr(js, "\"Empty\":{\"__struct_id\":7,\"type\":\"struct\",\"value\":{\"__struct_id\":7}}"));
    assert_non_null(strstr(js, "\"List\":{\"type\":\"list\",\"value\":[{\"__struct_id\":0,\"Index\":"));
    /* fields not in sorted order in the file: their order is kept for the way back */
    assert_non_null(strstr(js, "{\"__data_type\":\"UTI \",\"__field_order\":[\"Byte\",\"Char\",\"Word\","));
    assert_null(strstr(js, "\"__struct_id\":4294967295"));
    /* keys sorted case-insensitively: Byte Char Double Dword Dword64 Empty Float Int Int64 List LocEmpty ... */
    assert_true(strstr(js, "\"Double\":{") < strstr(js, "\"Dword\":{"));
    assert_true(strstr(js, "\"LocEmpty\":{") < strstr(js, "\"LocName\":{"));
    assert_int_equal(relic_gff_json_read_tree(js, j.size - 1, RELIC_GFF_ENC_CP1252, &a, &t2, &err), RELIC_OK);
    assert_int_equal(relic_gff_write_tree(&t2, RELIC_GFF_LAYOUT_DEFAULT, &a, &b2, NULL, &err), RELIC_OK);
    assert_int_equal(b.size, b2.size);
    assert_memory_equal(b.data, b2.data, b.size);
    relic_buf_free(&b);
    relic_buf_free(&b2);
    relic_buf_free(&j);
    relic_arena_release(&a);
}

static relic_status read_json(const char *js, relic_gff_encoding enc, relic_arena *a, relic_gff_tree *t, relic_error *err)
{
    return relic_gff_json_read_tree(js, strlen(js), enc, a, t, err);
}

/* nwn_gff's own input forms: legacy "id" beside the value, "value" for void. */
static void test_json_reader_accepts_nwn_gff_forms(void **state)
{
    (void)state;
    relic_arena a;
    relic_gff_tree t;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(read_json("{\"__data_type\":\"UTI \",\"N\":{\"type\":\"cexolocstring\",\"id\":7,\"value\":{\"0\":\"x\"}},"
                               "\"V\":{\"type\":\"void\",\"value\":\"ab\"},\"F\":{\"type\":\"float\",\"value\":2}}",
                               RELIC_GFF_ENC_CP1252, &a, &t, &err),
                     RELIC_OK);
    assert_int_equal(t.root->field_count, 3);
    assert_int_equal(t.root->fields[0].v.loc.strref, 7);
    assert_int_equal(t.root->fields[1].v.bytes.n, 2);
    assert_true(t.root->fields[2].v.f32 == 2.0f);
    assert_int_equal(t.root->id, RELIC_GFF_NONE);
    relic_arena_release(&a);
}

static void test_json_reader_rejects_bad_values_with_path(void **state)
{
    (void)state;
    relic_arena a;
    relic_gff_tree t;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(read_json("{\"__data_type\":\"UTI \",\"B\":{\"type\":\"byte\",\"value\":256}}", RELIC_GFF_ENC_CP1252, &a, &t, &err),
                     RELIC_E_RANGE);
    assert_non_null(strstr(err.path, "B"));
    assert_int_equal(read_json("{\"__data_type\":\"UTI \",\"B\":{\"type\":\"bogus\",\"value\":1}}", RELIC_GFF_ENC_CP1252, &a, &t, &err),
                     RELIC_E_RANGE);
    assert_int_equal(read_json("{\"B\":{\"type\":\"byte\",\"value\":1}}", RELIC_GFF_ENC_CP1252, &a, &t, &err), RELIC_E_ARGUMENT);
    assert_int_equal(read_json("{\"__data_type\":\"UTI \",", RELIC_GFF_ENC_CP1252, &a, &t, &err), RELIC_E_SYNTAX);
    assert_int_equal(read_json("{\"__data_type\":\"UTI \",\"ThisLabelIsTooLong\":{\"type\":\"byte\",\"value\":1}}",
                               RELIC_GFF_ENC_CP1252, &a, &t, &err),
                     RELIC_E_RANGE);
    /* a character windows-1252 cannot hold */
    assert_int_equal(read_json("{\"__data_type\":\"UTI \",\"S\":{\"type\":\"cexostring\",\"value\":\"\xe4\xb8\xad\"}}",
                               RELIC_GFF_ENC_CP1252, &a, &t, &err),
                     RELIC_E_RANGE);
    assert_int_equal(read_json("{\"__data_type\":\"UTI \",\"S\":{\"type\":\"cexostring\",\"value\":\"\xe4\xb8\xad\"}}",
                               RELIC_GFF_ENC_UTF8, &a, &t, &err),
                     RELIC_OK);
    assert_int_equal(t.root->fields[0].v.bytes.n, 3);
    /* a lone surrogate escape is not UTF-8 text (found by fuzz_gff_json: the printer refused it) */
    assert_int_equal(read_json("{\"__data_type\":\"UTI \",\"S\":{\"type\":\"cexostring\",\"value\":\"a\\udddd\"}}",
                               RELIC_GFF_ENC_UTF8, &a, &t, &err),
                     RELIC_E_SYNTAX);
    assert_non_null(strstr(err.path, "S"));
    assert_int_equal(read_json("{\"__data_type\":\"UTI \",\"S\":{\"type\":\"cexostring\",\"value\":\"a\\udddd\"}}",
                               RELIC_GFF_ENC_CP1252, &a, &t, &err),
                     RELIC_E_SYNTAX);
    relic_arena_release(&a);
}

/* Every byte survives cp1252 -> UTF-8 -> cp1252, the five undefined ones included. */
static void test_cp1252_round_trips_every_byte(void **state)
{
    (void)state;
    relic_arena a;
    relic_gff_tree t, t2;
    relic_buf j;
    relic_error err;
    static uint8_t all[255];
    for (int k = 0; k < 255; k++) all[k] = (uint8_t)(k + 1);
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&j, 0);
    memset(&t, 0, sizeof t);
    memcpy(t.file_type, "GFF ", 4);
    t.root = new_struct(&a, RELIC_GFF_NONE, 1);
    relic_gff_tfield *f = add_field(t.root, RELIC_GFF_FIELD_TYPE_CEXOSTRING, "All");
    f->v.bytes.p = all;
    f->v.bytes.n = sizeof all;
    assert_int_equal(relic_gff_json_print_tree(&t, RELIC_GFF_ENC_CP1252, &j, &err), RELIC_OK);
    assert_int_equal(relic_gff_json_read_tree((const char *)j.data, j.size, RELIC_GFF_ENC_CP1252, &a, &t2, &err), RELIC_OK);
    assert_int_equal(t2.root->fields[0].v.bytes.n, sizeof all);
    assert_memory_equal(t2.root->fields[0].v.bytes.p, all, sizeof all);
    /* as UTF-8 the same bytes are not text */
    relic_buf_free(&j);
    relic_buf_init(&j, 0);
    assert_int_equal(relic_gff_json_print_tree(&t, RELIC_GFF_ENC_UTF8, &j, &err), RELIC_E_SYNTAX);
    relic_buf_free(&j);
    relic_arena_release(&a);
}

/* ---------------------------------------------------------------------- */
/* Hostile graphs                                                         */
/* ---------------------------------------------------------------------- */

/* A file of nstructs structs where struct k has one Struct field pointing
 * at target[k] (or no field when target[k] < 0). */
static relic_buf graph_file(int nstructs, const int *target)
{
    relic_buf b;
    int nfields = 0;
    for (int k = 0; k < nstructs; k++) nfields += target[k] >= 0;
    relic_buf_init(&b, 0);
    uint8_t *h = relic_buf_extend(&b, 56);
    memcpy(h, "GFF V3.2", 8);
    uint32_t so = 56, fo = so + 12u * (uint32_t)nstructs, lo = fo + 12u * (uint32_t)nfields, end = lo + 16;
    uint32_t hv[12] = {so, (uint32_t)nstructs, fo, (uint32_t)nfields, lo, 1, end, 0, end, 0, end, 0};
    for (int k = 0; k < 12; k++) relic_store_u32le(b.data + 8 + 4 * k, hv[k]);
    int fi = 0;
    for (int k = 0; k < nstructs; k++) {
        uint8_t *s = relic_buf_extend(&b, 12);
        relic_store_u32le(s, k ? (uint32_t)k : RELIC_GFF_NONE);
        relic_store_u32le(s + 4, target[k] >= 0 ? (uint32_t)fi++ : RELIC_GFF_NONE);
        relic_store_u32le(s + 8, target[k] >= 0);
    }
    for (int k = 0; k < nstructs; k++) {
        if (target[k] < 0) continue;
        uint8_t *f = relic_buf_extend(&b, 12);
        relic_store_u32le(f, RELIC_GFF_FIELD_TYPE_STRUCT);
        relic_store_u32le(f + 4, 0);
        relic_store_u32le(f + 8, (uint32_t)target[k]);
    }
    memcpy(relic_buf_extend(&b, 16), "Child", 5);
    return b;
}

static void test_struct_cycle_is_rejected(void **state)
{
    (void)state;
    int target[3] = {1, 2, 0};
    relic_buf b = graph_file(3, target);
    relic_arena a;
    relic_gff_doc d;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(open_bytes(b.data, b.size, &a, &d, &err), RELIC_E_LAYOUT);
    assert_non_null(strstr(err.message, "second time"));
    assert_string_equal(err.path, "fields[2].data_or_data_offset");
    relic_buf_free(&b);
    relic_arena_release(&a);
}

static void test_deep_nesting_is_limited(void **state)
{
    (void)state;
    enum { N = RELIC_GFF_MAX_DEPTH + 2 };
    int target[N];
    for (int k = 0; k < N; k++) target[k] = k + 1 < N ? k + 1 : -1;
    relic_buf b = graph_file(N, target);
    relic_arena a;
    relic_gff_doc d;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(open_bytes(b.data, b.size, &a, &d, &err), RELIC_E_LIMIT);
    relic_buf_free(&b);
    /* one level less is fine */
    target[N - 2] = -1;
    b = graph_file(N - 1, target);
    assert_int_equal(open_bytes(b.data, b.size, &a, &d, &err), RELIC_OK);
    assert_int_equal(d.max_depth, RELIC_GFF_MAX_DEPTH);
    relic_buf_free(&b);
    relic_arena_release(&a);
}

static void test_struct_index_out_of_range_names_the_field(void **state)
{
    (void)state;
    int target[2] = {9, -1};
    relic_buf b = graph_file(2, target);
    relic_arena a;
    relic_gff_doc d;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(open_bytes(b.data, b.size, &a, &d, &err), RELIC_E_INDEX);
    assert_string_equal(err.path, "fields[0].data_or_data_offset");
    assert_int_equal(err.offset, 56 + 24 + 8);
    relic_buf_free(&b);
    relic_arena_release(&a);
}

static void test_bad_version_is_a_magic_error(void **state)
{
    (void)state;
    int target[1] = {-1};
    relic_buf b = graph_file(1, target);
    relic_arena a;
    relic_gff_doc d;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(open_bytes(b.data, b.size, &a, &d, &err), RELIC_OK);
    b.data[7] = '3';
    assert_int_equal(open_bytes(b.data, b.size, &a, &d, &err), RELIC_E_MAGIC);
    relic_buf_free(&b);
    relic_arena_release(&a);
}

/* ---------------------------------------------------------------------- */
/* Sweeps                                                                 */
/* ---------------------------------------------------------------------- */

/* Whatever open accepts, the tree, writer and JSON handle, and the
 * re-written file validates. */
static void exercise(const uint8_t *p, size_t n)
{
    relic_arena a;
    relic_gff_doc d;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    if (open_bytes(p, n, &a, &d, &err) == RELIC_OK) {
        relic_gff_tree t;
        relic_buf b, j;
        relic_buf_init(&b, 0);
        relic_buf_init(&j, 0);
        assert_int_equal(relic_gff_tree_from_doc(&d, &a, &t, &err), RELIC_OK);
        assert_int_equal(relic_gff_write_tree(&t, RELIC_GFF_LAYOUT_KEEP, &a, &b, NULL, &err), RELIC_OK);
        assert_int_equal(open_bytes(b.data, b.size, &a, &d, &err), RELIC_OK);
        relic_gff_json_print_tree(&t, RELIC_GFF_ENC_CP1252, &j, &err);
        relic_buf_free(&b);
        relic_buf_free(&j);
    } else {
        assert_true(err.code != RELIC_OK && err.message[0]);
    }
    relic_arena_release(&a);
}

static void test_truncations_never_crash(void **state)
{
    (void)state;
    file_list fl = corpus_files();
    for (int i = 0; i < fl.n; i++) {
        relic_mapping mp;
        relic_error err;
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        for (int k = 0; k < 64; k++) {
            size_t cut = mp.bytes.size * (size_t)k / 64;
            uint8_t *copy = malloc(cut ? cut : 1);
            memcpy(copy, mp.bytes.data, cut);
            exercise(copy, cut);
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
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    int rounds = 0;
    for (int i = 0; i < fl.n; i++) {
        relic_mapping mp;
        relic_error err;
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        if (mp.bytes.size > 200000 || mp.bytes.size == 0) {
            relic_unmap(&mp);
            continue;
        } /* time bound */
        uint8_t *copy = malloc(mp.bytes.size);
        for (int k = 0; k < 60; k++) {
            memcpy(copy, mp.bytes.data, mp.bytes.size);
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            /* favour the header and the struct/field arrays, where a byte changes the most */
            size_t span = k % 2 ? mp.bytes.size : (mp.bytes.size < 512 ? mp.bytes.size : 512);
            copy[(seed >> 8) % span] = (uint8_t)seed;
            exercise(copy, mp.bytes.size);
            rounds++;
        }
        free(copy);
        relic_unmap(&mp);
    }
    if (fl.n) print_message("%d mutated files handled\n", rounds);
    free_list(&fl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_validates_except_the_corrupted_file),
        cmocka_unit_test(test_corpus_binary_round_trip_is_byte_exact),
        cmocka_unit_test(test_corpus_json_round_trip),
        cmocka_unit_test(test_corpus_paths_resolve),
        cmocka_unit_test(test_duplicate_label_is_a_warning_and_last_wins),
        cmocka_unit_test(test_every_field_type_reads_back),
        cmocka_unit_test(test_type_mismatch_is_an_error),
        cmocka_unit_test(test_every_field_type_round_trips_through_json),
        cmocka_unit_test(test_json_reader_accepts_nwn_gff_forms),
        cmocka_unit_test(test_json_reader_rejects_bad_values_with_path),
        cmocka_unit_test(test_cp1252_round_trips_every_byte),
        cmocka_unit_test(test_struct_cycle_is_rejected),
        cmocka_unit_test(test_deep_nesting_is_limited),
        cmocka_unit_test(test_struct_index_out_of_range_names_the_field),
        cmocka_unit_test(test_bad_version_is_a_magic_error),
        cmocka_unit_test(test_truncations_never_crash),
        cmocka_unit_test(test_mutations_never_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
