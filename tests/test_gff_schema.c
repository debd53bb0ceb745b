/* test_gff_schema.c — typed GFF files (runtime/formats/aurora/gff_schema.c over the tables
 * generated from schema/aurora/{are,git,gic,ifo,itp,gff_common}.schema):
 * the generated typed accessors read values and refuse absent or mistyped
 * fields; the strict check reports each departure from BioWare Aurora specs (type,
 * range, enum, flags, StructID) once, with its path; GIC and GIT lists must
 * correspond; the GFF tree mutator's typed step adds documented fields
 * and makes departures the strict check finds, for typed FileTypes only;
 * real files check without crashing and mutated ones too
 * (ASan+UBSan in `make test`). Synthetic files are written from nwn_gff
 * JSON by relic's own writer. Real files: ../shared/corpus/gff (skipped,
 * saying so, when absent). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "test_pass.h"

#include "are.h"
#include "gic.h"
#include "git.h"
#include "ifo.h"
#include "relic_gff_schema.h"
#include "gff_schema_mutate.h"
#include "relic_mutate_formats.h"
#include "mutate_scratch.h"

#define CORPUS_DIR "../shared/corpus/gff"

/* A GFF written by relic from nwn_gff JSON, opened. */
typedef struct doc {
    relic_arena a;
    relic_buf bytes;
    relic_gff_doc d;
} doc;

static void doc_from_json(doc *x, const char *json)
{
    relic_gff_tree t;
    relic_error err;
    relic_arena_init_heap(&x->a, (size_t)64 << 20);
    relic_buf_init(&x->bytes, 0);
    assert_int_equal(relic_gff_json_read_tree(json, strlen(json), RELIC_GFF_ENC_CP1252, &x->a, &t, &err), RELIC_OK);
    assert_int_equal(relic_gff_write_tree(&t, RELIC_GFF_LAYOUT_DEFAULT, &x->a, &x->bytes, NULL, &err), RELIC_OK);
    assert_int_equal(relic_gff_open(x->bytes.data, x->bytes.size, &x->a, NULL, NULL, &x->d, &err), RELIC_OK);
}

static void doc_free(doc *x)
{
    relic_buf_free(&x->bytes);
    relic_arena_release(&x->a);
}

/* Problems collected: "path: message" lines. */
typedef struct seen {
    char lines[32][RELIC_ERROR_PATH_MAX + RELIC_ERROR_MESSAGE_MAX + 4];
    int n;
} seen;

static void collect(void *ctx, const relic_error *err)
{
    seen *s = ctx;
    assert_true(err->path[0] != 0);
    assert_true(err->message[0] != 0);
    if (s->n < 32) snprintf(s->lines[s->n++], sizeof s->lines[0], "%s: %s", err->path, err->message);
}

static int has_line(const seen *s, const char *text)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->lines[i], text) == 0) return 1;
    return 0;
}

/* An ARE as the BioWare spec documents it, except where noted per test. */
static const char *const are_ok =
    "{\"__data_type\":\"ARE \","
    "\"ChanceRain\":{\"type\":\"int\",\"value\":30},"
    "\"Flags\":{\"type\":\"dword\",\"value\":5},"
    "\"Height\":{\"type\":\"int\",\"value\":1},"
    "\"Name\":{\"type\":\"cexolocstring\",\"value\":{\"0\":\"Forest\"}},"
    "\"Tile_List\":{\"type\":\"list\",\"value\":["
    "{\"__struct_id\":1,\"Tile_ID\":{\"type\":\"int\",\"value\":7},\"Tile_Orientation\":{\"type\":\"int\",\"value\":3}},"
    "{\"__struct_id\":1,\"Tile_ID\":{\"type\":\"int\",\"value\":9},\"Tile_Orientation\":{\"type\":\"int\",\"value\":0}}]},"
    "\"Width\":{\"type\":\"int\",\"value\":2},"
    "\"WindPower\":{\"type\":\"int\",\"value\":2}}";

static void test_typed_accessors_read_documented_fields(void **state)
{
    (void)state;
    doc x;
    relic_error err;
    int32_t w = 0, h = 0, id = 0;
    uint32_t flags = 0;
    relic_gff_list tiles;
    relic_gff_locstring name;
    doc_from_json(&x, are_ok);
    assert_int_equal(relic_are_width(&x.d, &w, &err), RELIC_OK);
    assert_int_equal(relic_are_height(&x.d, &h, &err), RELIC_OK);
    assert_int_equal(w * h, 2);
    assert_int_equal(relic_are_flags(&x.d, &flags, &err), RELIC_OK);
    assert_int_equal(flags, RELIC_ARE_FLAGS_INTERIOR | RELIC_ARE_FLAGS_NATURAL);
    assert_int_equal(relic_are_tile_list(&x.d, &tiles, &err), RELIC_OK);
    assert_int_equal(tiles.count, 2);
    assert_int_equal(relic_are_tile_tile_id(&x.d, relic_gff_list_at(&tiles, 1), &id, &err), RELIC_OK);
    assert_int_equal(id, 9);
    assert_int_equal(relic_are_name(&x.d, &name, &err), RELIC_OK);
    assert_int_equal(name.count, 1);
    const uint8_t *cur = name.first;
    uint32_t sid;
    relic_bytes text;
    relic_gff_locstring_next(&cur, &sid, &text);
    assert_int_equal(text.size, 6);
    assert_memory_equal(text.data, "Forest", 6);
    doc_free(&x);
}

static void test_typed_accessor_refuses_absent_and_mistyped_fields(void **state)
{
    (void)state;
    doc x;
    relic_error err;
    int32_t v = 1234;
    doc_from_json(&x, "{\"__data_type\":\"ARE \",\"Width\":{\"type\":\"dword\",\"value\":4}}");
    assert_int_equal(relic_are_width(&x.d, &v, &err), RELIC_E_ARGUMENT);
    assert_non_null(strstr(err.message, "'Width' is a dword, not an int"));
    assert_int_equal(v, 1234);
    assert_int_equal(relic_are_height(&x.d, &v, &err), RELIC_E_ARGUMENT);
    assert_non_null(strstr(err.message, "'Height' is absent"));
    assert_int_equal(v, 1234);
    doc_free(&x);
}

static void test_strict_check_accepts_a_documented_file(void **state)
{
    (void)state;
    doc x;
    seen s = {.n = 0};
    relic_problems pr = {collect, &s, 0, 0};
    doc_from_json(&x, are_ok);
    assert_int_equal(relic_gff_schema_check(&relic_are_schema, &x.d, &pr), 0);
    doc_free(&x);
}

static void test_strict_check_reports_each_departure_with_its_path(void **state)
{
    (void)state;
    doc x;
    seen s = {.n = 0};
    relic_problems pr = {collect, &s, 0, 0};
    doc_from_json(&x,
                  "{\"__data_type\":\"ARE \","
                  "\"ChanceRain\":{\"type\":\"int\",\"value\":150},"
                  "\"Flags\":{\"type\":\"dword\",\"value\":9},"
                  "\"Tile_List\":{\"type\":\"list\",\"value\":["
                  "{\"__struct_id\":1,\"Tile_ID\":{\"type\":\"int\",\"value\":7},\"Tile_Orientation\":{\"type\":\"int\",\"value\":4}},"
                  "{\"__struct_id\":2,\"Tile_ID\":{\"type\":\"dword\",\"value\":9},\"Unknown\":{\"type\":\"float\",\"value\":1.5}}]},"
                  "\"Width\":{\"type\":\"int\",\"value\":2},"
                  "\"WindPower\":{\"type\":\"int\",\"value\":3}}");
    assert_int_equal(relic_gff_schema_check(&relic_are_schema, &x.d, &pr), 6);
    assert_int_equal(s.n, 6);
    assert_true(has_line(&s, "ChanceRain: 150 is outside 0..100"));
    assert_true(has_line(&s, "Flags: 0x9 has bits outside the documented flags 0x7"));
    assert_true(has_line(&s, "Tile_List/0/Tile_Orientation: 4 is outside 0..3"));
    assert_true(has_line(&s, "Tile_List/1: StructID 2, documented 1 (tile)"));
    assert_true(has_line(&s, "Tile_List/1/Tile_ID: is a dword, documented as an int"));
    assert_true(has_line(&s, "WindPower: 3 is not one of the documented values"));
    doc_free(&x);
}

static void test_strict_check_names_the_top_level_struct(void **state)
{
    (void)state;
    doc x;
    seen s = {.n = 0};
    relic_problems pr = {collect, &s, 0, 0};
    doc_from_json(&x, "{\"__data_type\":\"ARE \",\"__struct_id\":5,\"Width\":{\"type\":\"int\",\"value\":1}}");
    assert_int_equal(relic_gff_schema_check(&relic_are_schema, &x.d, &pr), 1);
    assert_string_equal(s.lines[0], "(top-level struct): StructID 5, documented 4294967295 (are)");
    doc_free(&x);
}

static const char *const git_two_creatures =
    "{\"__data_type\":\"GIT \","
    "\"Creature List\":{\"type\":\"list\",\"value\":[{\"__struct_id\":4},{\"__struct_id\":4}]},"
    "\"Door List\":{\"type\":\"list\",\"value\":[]}}";

static void test_gic_lists_must_correspond_to_the_git(void **state)
{
    (void)state;
    doc git, gic_short, gic_ok;
    seen s = {.n = 0};
    relic_problems pr = {collect, &s, 0, 0};
    doc_from_json(&git, git_two_creatures);
    doc_from_json(&gic_short, "{\"__data_type\":\"GIC \","
                              "\"Creature List\":{\"type\":\"list\",\"value\":[{\"__struct_id\":4}]},"
                              "\"Door List\":{\"type\":\"list\",\"value\":[]}}");
    doc_from_json(&gic_ok, "{\"__data_type\":\"GIC \","
                           "\"Creature List\":{\"type\":\"list\",\"value\":[{\"__struct_id\":4},{\"__struct_id\":4}]},"
                           "\"Door List\":{\"type\":\"list\",\"value\":[]}}");
    assert_string_equal(relic_gic_schema.pairs, "git");
    assert_int_equal(relic_gff_schema_check_pairs(&relic_gic_schema, &gic_ok.d, &git.d, &pr), 0);
    assert_int_equal(relic_gff_schema_check_pairs(&relic_gic_schema, &gic_short.d, &git.d, &pr), 1);
    assert_string_equal(s.lines[0], "Creature List: 1 elements, the paired git file has 2");
    doc_free(&git);
    doc_free(&gic_short);
    doc_free(&gic_ok);
}

static void test_typed_files_are_found_by_file_type_and_name(void **state)
{
    (void)state;
    assert_ptr_equal(relic_gff_schema_for_type("ARE "), &relic_are_schema);
    assert_ptr_equal(relic_gff_schema_for_type("IFO "), &relic_ifo_schema);
    assert_ptr_equal(relic_gff_schema_named("git"), &relic_git_schema);
    assert_null(relic_gff_schema_for_type("UTC "));
    assert_null(relic_gff_schema_named("utc"));
    assert_int_equal(relic_are_schema.root->id, 0xFFFFFFFFu);
}

/* ---------------------------------------------------------------------- */
/* Real files                                                             */

static int typed_extension(const char *name)
{
    static const char *const exts[] = {".are", ".git", ".gic", ".ifo", ".itp"};
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (n > 4 && strncasecmp(name + n - 4, exts[i], 4) == 0) return 1;
    return 0;
}

static uint8_t *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc((size_t)len + 1);
    *n = fread(p, 1, (size_t)len, f);
    fclose(f);
    return p;
}

static void count_problem(void *ctx, const relic_error *err)
{
    assert_true(err->path[0] != 0 && err->message[0] != 0);
    (*(unsigned *)ctx)++;
}

/* Every real typed file checks against its schema; the BioWare spec's tile rule
 * (Tile_List holds Width x Height tiles, tile i at x = i % Width) holds for
 * every ARE with tiles; every IFO's Mod_Name reads as a locstring; 300
 * seeded byte flips per file never crash the open + check (in make test's sanitizer pass,
 * on one file in TEST_PASS_STRIDE: the plain pass flips them all). */
static void test_corpus_typed_files_check_and_survive_mutation(void **state)
{
    (void)state;
    DIR *dir = opendir(CORPUS_DIR);
    if (!dir) {
        print_message("note: %s not found: the real-file part of this test is skipped\n", CORPUS_DIR);
        return;
    }
    struct dirent *e;
    int files = 0, tiled = 0, ifos = 0;
    uint32_t rng = 12345;
    while ((e = readdir(dir))) {
        if (!typed_extension(e->d_name)) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", CORPUS_DIR, e->d_name);
        size_t n = 0;
        uint8_t *p = read_file(path, &n);
        assert_non_null(p);
        relic_arena a;
        relic_gff_doc d;
        relic_error err;
        relic_arena_init_heap(&a, (size_t)256 << 20);
        if (relic_gff_open(p, n, &a, NULL, NULL, &d, &err) != RELIC_OK) fail_msg("%s: %s at %s", path, err.message, err.path);
        const relic_gff_schema *sc = relic_gff_schema_for_type(relic_gff_file_type(&d));
        assert_non_null(sc);
        unsigned count = 0;
        relic_problems pr = {count_problem, &count, 0, 0};
        unsigned reported = relic_gff_schema_check(sc, &d, &pr);
        assert_int_equal(reported, count);
        files++;
        int32_t w, h;
        relic_gff_list tiles;
        if (sc == &relic_are_schema && relic_are_tile_list(&d, &tiles, &err) == RELIC_OK && tiles.count &&
            relic_are_width(&d, &w, &err) == RELIC_OK && relic_are_height(&d, &h, &err) == RELIC_OK) {
            assert_int_equal((int64_t)w * h, tiles.count);
            tiled++;
        }
        relic_gff_locstring name;
        if (sc == &relic_ifo_schema) {
            if (relic_ifo_mod_name(&d, &name, &err) == RELIC_OK) ifos++;
            else assert_non_null(strstr(err.message, "'Mod_Name' is absent")); /* reone's limbo module.ifo has none */
        }
        relic_arena_release(&a);
        /* the flips on one file in TEST_PASS_STRIDE in the sanitizer pass (test_pass.h) */
        for (int k = 0; k < (test_take((size_t)files - 1) ? 300 : 0); k++) {
            uint8_t *m = malloc(n);
            memcpy(m, p, n);
            for (int flips = 0; flips < 4; flips++) {
                rng = rng * 1103515245u + 12345u;
                m[(rng >> 8) % n] ^= (uint8_t)(1u << (rng & 7));
            }
            relic_arena_init_heap(&a, (size_t)256 << 20);
            if (relic_gff_open(m, n, &a, NULL, NULL, &d, &err) == RELIC_OK) {
                const relic_gff_schema *ms = relic_gff_schema_for_type(relic_gff_file_type(&d));
                relic_problems quiet = {NULL, NULL, 0, 0};
                if (ms) relic_gff_schema_check(ms, &d, &quiet);
                relic_gff_schema_check(sc, &d, &quiet);
            }
            relic_arena_release(&a);
            free(m);
        }
        free(p);
    }
    closedir(dir);
    print_message("note: %d typed corpus files checked (%d ARE with tiles, %d IFO with Mod_Name)\n", files, tiled, ifos);
    assert_true(files > 0 && ifos > 0);
}

/* Is label documented in ss or a struct reached from it (depth-bounded)? */
static int documented_label(const relic_gff_sstruct *ss, const char *label, int depth)
{
    for (uint32_t k = 0; ss && depth < 8 && k < ss->field_count; k++)
        if (strcmp(ss->fields[k].label, label) == 0 ||
            (ss->fields[k].of && ss->fields[k].of != ss && documented_label(ss->fields[k].of, label, depth + 1)))
            return 1;
    return 0;
}

/* Fields of t's structs that sc documents and `known` ("|A|B|") lacks. */
static unsigned added_documented(const relic_gff_tstruct *t, const relic_gff_schema *sc, const char *known, int depth)
{
    unsigned n = 0;
    for (uint32_t i = 0; t && depth < 16 && i < t->field_count; i++) {
        const relic_gff_tfield *f = &t->fields[i];
        char key[24];
        snprintf(key, sizeof key, "|%s|", f->label);
        if (!strstr(known, key) && documented_label(sc->root, f->label, 0)) n++;
        if (f->type == RELIC_GFF_FIELD_TYPE_STRUCT) n += added_documented(f->v.child, sc, known, depth + 1);
        if (f->type == RELIC_GFF_FIELD_TYPE_LIST)
            for (size_t k = 0; k < f->v.list.count; k++) n += added_documented(f->v.list.items[k], sc, known, depth + 1);
    }
    return n;
}

/* 200 seeds of the tree mutator on are_ok (no strict problems): its typed
 * step adds fields the ARE schema documents and the file lacks, and some
 * mutants have strict-check problems while all still open; with another
 * FileType (no typed schema) the same file never gains such a field. */
static void test_tree_mutator_makes_typed_departures_for_typed_files_only(void **state)
{
    (void)state;
    static const char known[] = "|ChanceRain|Flags|Height|Name|Tile_List|Tile_ID|Tile_Orientation|Width|WindPower|";
    for (int typed = 1; typed >= 0; typed--) {
        doc x;
        doc_from_json(&x, are_ok);
        if (!typed) memcpy(x.bytes.data, "UTC ", 4);
        unsigned with_problems = 0, additions = 0;
        for (uint64_t seed = 0; seed < 200; seed++) {
            relic_buf out;
            relic_error err;
            relic_arena a;
            relic_gff_doc d;
            relic_gff_tree t;
            relic_buf_init(&out, 0);
            assert_int_equal(relic_gff_mutate(x.bytes.data, x.bytes.size, NULL, 0, seed, 0, test_scratch(), &out, NULL, &err), RELIC_OK);
            relic_arena_init_heap(&a, (size_t)64 << 20);
            assert_int_equal(relic_gff_open(out.data, out.size, &a, NULL, NULL, &d, &err), RELIC_OK);
            assert_int_equal(relic_gff_tree_from_doc(&d, &a, &t, &err), RELIC_OK);
            additions += added_documented(t.root, &relic_are_schema, known, 0);
            relic_problems quiet = {NULL, NULL, 0, 0};
            if (typed && relic_gff_schema_check(&relic_are_schema, &d, &quiet)) with_problems++;
            relic_arena_release(&a);
            relic_buf_free(&out);
        }
        if (typed) {
            print_message("note: typed ARE: %u documented fields added, %u of 200 mutants with strict problems\n",
                          additions, with_problems);
            assert_true(additions >= 10);
            assert_true(with_problems >= 20);
        } else {
            assert_int_equal(additions, 0);
        }
        doc_free(&x);
    }
}

/* A typed file whose top-level struct has no fields (as reone's limbo
 * module ARE): the typed step adds documented fields to the empty struct
 * (no copy from its NULL field array: UBSan in check-asan). */
static void test_tree_mutator_adds_typed_fields_to_an_empty_struct(void **state)
{
    (void)state;
    doc x;
    doc_from_json(&x, "{\"__data_type\":\"ARE \"}");
    unsigned grown = 0;
    for (uint64_t seed = 0; seed < 100; seed++) {
        relic_buf out;
        relic_error err;
        relic_arena a;
        relic_gff_doc d;
        relic_buf_init(&out, 0);
        assert_int_equal(relic_gff_mutate(x.bytes.data, x.bytes.size, NULL, 0, seed, 0, test_scratch(), &out, NULL, &err), RELIC_OK);
        relic_arena_init_heap(&a, (size_t)16 << 20);
        assert_int_equal(relic_gff_open(out.data, out.size, &a, NULL, NULL, &d, &err), RELIC_OK);
        grown += relic_gff_doc_struct_field_count(&d, 0) > 0;
        relic_arena_release(&a);
        relic_buf_free(&out);
    }
    assert_true(grown > 0);
    doc_free(&x);
}

/* The typed step on a struct with no fields and a NULL field array (the
 * generic mutator makes such structs when it changes a field's type to
 * STRUCT): documented fields are added without copying from NULL (UBSan in
 * check-asan; found by the campaign's fuzz_gff_typed run). */
static void test_typed_step_adds_fields_to_a_struct_without_a_field_array(void **state)
{
    (void)state;
    unsigned grown = 0;
    for (uint64_t seed = 0; seed < 64; seed++) {
        relic_arena a;
        relic_gff_tstruct root = {RELIC_GFF_NONE, 0, NULL, RELIC_GFF_NONE, RELIC_GFF_NONE};
        relic_mutation m;
        uint64_t rng = seed;
        int nomem = 0;
        relic_arena_init_heap(&a, (size_t)1 << 20);
        if (relic_gff_schema_mutate_tree(&relic_are_schema, &root, &rng, &a, &m, &nomem) && root.field_count) {
            assert_string_equal(m.op, "add_field");
            grown++;
        }
        assert_int_equal(nomem, 0);
        relic_arena_release(&a);
    }
    assert_true(grown > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_typed_accessors_read_documented_fields),
        cmocka_unit_test(test_typed_accessor_refuses_absent_and_mistyped_fields),
        cmocka_unit_test(test_strict_check_accepts_a_documented_file),
        cmocka_unit_test(test_strict_check_reports_each_departure_with_its_path),
        cmocka_unit_test(test_strict_check_names_the_top_level_struct),
        cmocka_unit_test(test_gic_lists_must_correspond_to_the_git),
        cmocka_unit_test(test_typed_files_are_found_by_file_type_and_name),
        cmocka_unit_test(test_corpus_typed_files_check_and_survive_mutation),
        cmocka_unit_test(test_tree_mutator_makes_typed_departures_for_typed_files_only),
        cmocka_unit_test(test_tree_mutator_adds_typed_fields_to_an_empty_struct),
        cmocka_unit_test(test_typed_step_adds_fields_to_a_struct_without_a_field_array),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
