/* test_erf_listing.c — relic_erf_listing_read (runtime/json/erf_json.c), the
 * one reader of an ERF/RIM JSON listing that `relic pack` (its manifest,
 * complete) and relic_abi_container_write (a foreign model, members may be
 * left out) share: a listing relic_erf_archive_json printed reads back to
 * the archive it came from (ERF with localized strings, RIM); a complete
 * listing needs every member, a loose one takes ResRef and type from the
 * name and the index as id; every error names the JSON member. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "relic_erf.h"

static const uint8_t member_a[] = "first member", member_b[] = "second";

/* An archive of kind with two members, written and opened again (so its
 * offsets and file_size are a real file's); its bytes in *file. */
static void make_archive(relic_erf_kind kind, relic_arena *a, relic_buf *file, relic_erf_archive *out)
{
    relic_erf_archive ar;
    relic_error err;
    relic_erf_entry e[2];
    memset(e, 0, sizeof e);
    strcpy(e[0].resref, "module");
    e[0].res_type = 2014; /* ifo */
    e[0].data = member_a;
    e[0].size = sizeof member_a;
    strcpy(e[1].resref, "script1");
    e[1].res_type = 2009; /* nss */
    e[1].res_id = 1;
    e[1].data = member_b;
    e[1].size = sizeof member_b;
    relic_erf_init(&ar, kind, "MOD ", RELIC_ERF_GAME_KOTOR);
    relic_erf_localized_string ls[2] = {{0, 0, (uint8_t *)"Test module", 11}, {3, 0, (uint8_t *)"Modul", 5}};
    if (kind == RELIC_ERF_KIND_ERF) {
        ar.erf.localized_strings = ls;
        ar.erf.localized_strings_count = 2;
        ar.erf.header.build_year = 126;
        ar.erf.header.build_day = 329;
    }
    ar.entries = e;
    ar.count = 2;
    relic_buf_init_arena(file, a, 0);
    assert_int_equal(relic_erf_archive_write(&ar, RELIC_ERF_LAYOUT_PACKED, a, file, NULL, &err), RELIC_OK);
    assert_int_equal(relic_erf_open(file->data, file->size, a, out, &err), RELIC_OK);
}

/* relic_erf_archive_json's text of ar, NUL-terminated, from a. */
static char *listing_of(const relic_erf_archive *ar, relic_arena *a, size_t *len)
{
    relic_buf o;
    relic_buf_init_arena(&o, a, 0);
    assert_int_equal(relic_erf_archive_json(ar, &o), 0);
    relic_buf_append(&o, "", 1);
    assert_false(o.failed);
    *len = o.size - 1;
    return (char *)o.data;
}

static void assert_same_entries(const relic_erf_archive *want, const relic_erf_listing *got)
{
    assert_int_equal(got->ar.count, want->count);
    for (uint32_t i = 0; i < want->count; i++) {
        char name[64];
        const relic_erf_entry *w = &want->entries[i], *g = &got->ar.entries[i];
        assert_string_equal(g->resref, w->resref);
        assert_int_equal(g->res_type, w->res_type);
        assert_int_equal(g->res_id, w->res_id);
        assert_int_equal(g->offset, w->offset);
        assert_int_equal(g->size, w->size);
        assert_null(g->data);
        assert_string_equal(got->names[i], relic_erf_entry_name(want, i, name, sizeof name));
        assert_int_equal(got->placed[i], 1);
    }
    assert_true(got->has_file_size);
    assert_int_equal(got->ar.file_size, want->file_size);
}

/* An archive of kind made, printed and read back as a complete listing into *l. */
static void read_back(relic_erf_kind kind, relic_arena *a, relic_erf_archive *ar, relic_erf_listing *l)
{
    relic_buf file;
    relic_error err;
    size_t len;
    make_archive(kind, a, &file, ar);
    char *text = listing_of(ar, a, &len);
    assert_int_equal(relic_erf_listing_read(text, len, RELIC_ERF_LISTING_COMPLETE, a, l, &err), RELIC_OK);
    assert_int_equal(l->ar.kind, kind);
    assert_same_entries(ar, l);
}

static void test_printed_erf_and_rim_listings_read_back_to_their_archives(void **state)
{
    (void)state;
    relic_arena a;
    relic_erf_archive ar;
    relic_erf_listing l;
    relic_arena_init_heap(&a, 0);
    read_back(RELIC_ERF_KIND_ERF, &a, &ar, &l);
    assert_memory_equal(l.ar.erf.header.file_type, "MOD ", 4);
    assert_int_equal(l.ar.erf.header.file_version, ar.erf.header.file_version);
    assert_int_equal(l.ar.erf.header.build_year, 126);
    assert_int_equal(l.ar.erf.header.build_day, 329);
    assert_int_equal(l.ar.erf.header.description_str_ref, ar.erf.header.description_str_ref);
    assert_int_equal(l.ar.erf.header.offset_to_key_list, ar.erf.header.offset_to_key_list);
    assert_int_equal(l.ar.erf.header.offset_to_resource_list, ar.erf.header.offset_to_resource_list);
    assert_int_equal(l.ar.erf.localized_strings_count, 2);
    assert_int_equal(l.ar.erf.localized_strings[1].language_id, 3);
    assert_int_equal(l.ar.erf.localized_strings[1].text_count, 5);
    assert_memory_equal(l.ar.erf.localized_strings[1].text, "Modul", 5);
    read_back(RELIC_ERF_KIND_RIM, &a, &ar, &l);
    assert_int_equal(l.ar.rim.header.offset_to_entries, ar.rim.header.offset_to_entries);
    relic_arena_release(&a);
}

static void test_a_complete_listing_needs_every_member(void **state)
{
    (void)state;
    static const char *const text = "{\"format\": \"erf\", \"file_type\": \"MOD \", \"version\": \"V1.0\", \"build_year\": 1,"
                                    " \"build_day\": 2, \"description_str_ref\": 3, \"offset_to_localized_string\": 160,"
                                    " \"offset_to_key_list\": 160, \"offset_to_resource_list\": 208, \"localized_strings\": [],"
                                    " \"file_size\": 230, \"entries\": [{\"name\": \"module.ifo\", \"resref\": \"module\","
                                    " \"type\": 2014, \"id\": 0, \"offset\": 224, \"size\": 6}]}";
    relic_arena a;
    relic_erf_listing l;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_erf_listing_read(text, strlen(text), RELIC_ERF_LISTING_COMPLETE, &a, &l, &err), RELIC_OK);
    /* each member in turn taken out: the complete reader names it, the loose one does without */
    static const char *const members[] = {"\"build_year\": 1,", "\"localized_strings\": [],", "\"file_size\": 230,",
                                          "\"name\": \"module.ifo\",", "\"id\": 0,", ", \"size\": 6"};
    static const char *const missing[] = {"build_year", "localized_strings", "file_size", "name", "id", "size"};
    static const char *const where[] = {"", "", "", "entries[0]", "entries[0]", "entries[0]"};
    for (size_t k = 0; k < sizeof members / sizeof members[0]; k++) {
        char cut[1024], want[64];
        const char *at = strstr(text, members[k]);
        assert_non_null(at);
        snprintf(cut, sizeof cut, "%.*s%s", (int)(at - text), text, at + strlen(members[k]));
        assert_int_equal(relic_erf_listing_read(cut, strlen(cut), RELIC_ERF_LISTING_COMPLETE, &a, &l, &err), RELIC_E_ARGUMENT);
        snprintf(want, sizeof want, "missing member \"%s\"", missing[k]);
        assert_string_equal(err.message, want);
        assert_string_equal(err.path, where[k]);
        assert_int_equal(relic_erf_listing_read(cut, strlen(cut), 0, &a, &l, &err), RELIC_OK);
    }
    relic_arena_release(&a);
}

static void test_a_loose_listing_takes_resref_type_and_id_from_name_and_index(void **state)
{
    (void)state;
    static const char *const text = "{\"format\": \"erf\", \"file_type\": \"ERF \", \"version\": \"V1.1\","
                                    " \"entries\": [{\"name\": \"a.ifo\"}, {\"name\": \"Long_Name.dlg\", \"offset\": 9}]}";
    relic_arena a;
    relic_erf_listing l;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_erf_listing_read(text, strlen(text), 0, &a, &l, &err), RELIC_OK);
    assert_int_equal(l.ar.count, 2);
    assert_int_equal(relic_erf_game_of(&l.ar), RELIC_ERF_GAME_NWN2);
    assert_string_equal(l.ar.entries[1].resref, "Long_Name");
    assert_int_equal(l.ar.entries[0].res_type, 2014);
    assert_int_equal(l.ar.entries[1].res_type, 2029);
    assert_int_equal(l.ar.entries[1].res_id, 1);
    assert_int_equal(l.placed[1], 0); /* an offset without a size */
    assert_false(l.has_file_size);
    relic_arena_release(&a);
}

/* Each bad value is reported at its member's path. */
static void test_bad_values_name_their_member(void **state)
{
    (void)state;
    static const struct {
        const char *text, *path, *message;
        relic_status code;
    } cases[] = {
        {"{\"format\": \"zip\", \"entries\": []}", "format", "not \"erf\" or \"rim\"", RELIC_E_RANGE},
        {"{\"format\": \"erf\", \"file_type\": 4, \"version\": \"V1.0\", \"entries\": []}", "file_type", "expected a string",
         RELIC_E_SYNTAX},
        {"{\"format\": \"erf\", \"file_type\": \"MOD \", \"version\": \"V9\", \"entries\": []}", "version",
         "not \"V1.0\" or \"V1.1\"", RELIC_E_RANGE},
        {"{\"format\": \"erf\", \"file_type\": \"MOD \", \"version\": \"V1.0\", \"localized_strings\": [{\"text\": 1}],"
         " \"entries\": []}",
         "localized_strings[0].text", "expected a string", RELIC_E_SYNTAX},
        {"{\"format\": \"rim\", \"entries\": [{\"name\": \"a.ifo\", \"type\": \"x\"}]}", "entries[0].type", "expected an integer",
         RELIC_E_SYNTAX},
        {"{\"format\": \"rim\", \"entries\": [{\"resref\": \"\", \"type\": 1}]}", "entries[0].resref",
         "a ResRef has 1 to 32 characters, no NUL", RELIC_E_RANGE},
        {"{\"format\": \"rim\", \"entries\": [{\"name\": \"a.qqq\"}]}", "entries[0].name",
         "'a.qqq': no \"type\" and no known extension (or decimal type id) in the name", RELIC_E_RANGE},
        {"{\"format\": \"rim\", \"file_size\": -1, \"entries\": []}", "file_size", "-1 does not fit (range 0..4294967295)",
         RELIC_E_RANGE},
    };
    relic_arena a;
    relic_erf_listing l;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        assert_int_equal(relic_erf_listing_read(cases[k].text, strlen(cases[k].text), 0, &a, &l, &err), cases[k].code);
        assert_string_equal(err.path, cases[k].path);
        assert_string_equal(err.message, cases[k].message);
    }
    relic_arena_release(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_printed_erf_and_rim_listings_read_back_to_their_archives),
        cmocka_unit_test(test_a_complete_listing_needs_every_member),
        cmocka_unit_test(test_a_loose_listing_takes_resref_type_and_id_from_name_and_index),
        cmocka_unit_test(test_bad_values_name_their_member),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
