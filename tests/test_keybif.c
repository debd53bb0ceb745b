/* test_keybif.c — KEY V1, BIF V1 and TLK V3.0: the real chitin.key (26
 * BIFs, 43,871 keys) and talk tables validate and are written back byte for
 * byte; the real BIF cut after its table is refused at its first resource
 * past the end, and every such resource is reported with its entry's offset;
 * a KEY/BIF pair written by relic from corpus files reads back (every
 * resource's bytes, names found without regard to case) and round-trips;
 * corrupted files are rejected with the field path and byte offset; every
 * prefix of a written file is refused without a crash (ASan+UBSan in make
 * test); opening allocates only from the caller's arena.
 * Real files: ../shared/corpus/{key,bif,tlk,bwm} (skipped, saying so, when
 * absent). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "heap_guard.h"
#include "relic_key.h"
#include "relic_tlk.h"

#define CORPUS "../shared/corpus"

static unsigned char memory[8 << 20];

/* The first file of corpus directory sub whose name ends with suffix, mapped
 * into m; 0 when there is none (the caller skips, saying so). */
static int map_corpus(const char *sub, const char *suffix, int nth, relic_mapping *m, char *path, size_t n)
{
    char dir[256];
    snprintf(dir, sizeof dir, "%s/%s", CORPUS, sub);
    DIR *d = opendir(dir);
    struct dirent *e;
    char *names[256];
    int k = 0, found = 0;
    if (!d) return 0;
    while ((e = readdir(d)) != NULL && k < 256) {
        size_t l = strlen(e->d_name), s = strlen(suffix);
        if (e->d_name[0] == '.' || l < s || strcmp(e->d_name + l - s, suffix) != 0) continue;
        names[k++] = strdup(e->d_name);
    }
    closedir(d);
    for (int i = 1; i < k; i++) /* name order: the same file every run */
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    if (nth < k) {
        relic_error err;
        snprintf(path, n, "%s/%s", dir, names[nth]);
        found = relic_map_file(path, 0, m, &err) == RELIC_OK;
    }
    for (int i = 0; i < k; i++) free(names[i]);
    return found;
}

/* ---------------------------------------------------------------------- */
/* Real files                                                             */
/* ---------------------------------------------------------------------- */

static void test_real_chitin_key_lists_every_key_and_round_trips(void **state)
{
    (void)state;
    relic_mapping m;
    char path[512], buf[64];
    relic_arena a;
    relic_key_file k;
    relic_error err;
    relic_buf out;
    uint32_t i;
    if (!map_corpus("key", ".key", 0, &m, path, sizeof path)) {
        print_message("note: no KEY in %s/key: the real-file part of this test is skipped\n", CORPUS);
        return;
    }
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_key_open(m.bytes.data, m.bytes.size, &a, &k, &err), RELIC_OK);
    assert_int_equal(k.files_count, 26);
    assert_int_equal(k.keys_count, 43871);
    assert_string_equal(relic_key_bif_path(&k, 0, buf, sizeof buf), "data/2da.bif");
    assert_int_equal(k.files[0].filename_size, 13); /* counts its NUL, as every real file does */
    for (i = 0; i < k.keys_count; i++) assert_true(RELIC_KEY_BIF_INDEX(k.keys[i].res_id) < 26);
    assert_int_equal(relic_key_find(&k, "ACTIONS.2DA", &i), 1);
    assert_int_equal(i, 0);
    assert_string_equal(relic_key_entry_name(&k, 0, buf, sizeof buf), "actions.2da");
    assert_int_equal(relic_key_find(&k, "actions.wok", &i), 0);
    relic_buf_init(&out, 0);
    assert_int_equal(relic_key_write(&k, &out, &err), RELIC_OK);
    assert_int_equal(out.size, m.bytes.size);
    assert_memory_equal(out.data, m.bytes.data, out.size); /* reserved bytes and all */
    relic_buf_free(&out);
    relic_arena_release(&a);
    relic_unmap(&m);
}

static void test_real_bif_cut_after_its_table_reports_each_resource_past_the_end(void **state)
{
    (void)state;
    relic_mapping m;
    char path[512];
    relic_arena a;
    relic_bif_file b;
    relic_error err;
    const uint8_t *p;
    uint32_t n;
    if (!map_corpus("bif", ".bif", 0, &m, path, sizeof path)) {
        print_message("note: no BIF in %s/bif: the real-file part of this test is skipped\n", CORPUS);
        return;
    }
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_bif_open(m.bytes.data, m.bytes.size, &a, &b, &err), RELIC_E_TRUNCATED);
    assert_string_equal(err.path, "variable_resources[4]");
    assert_int_equal(err.offset, 20 + 16 * 4);
    assert_int_equal(relic_bif_open_tables(m.bytes.data, m.bytes.size, &a, &b, &err), RELIC_OK);
    assert_int_equal(b.variable_resources_count, 379);
    assert_int_equal(b.variable_resources[378].id, 0x17A0017Au); /* CD BIFs repeat the index in the upper bits */
    relic_problems pr = {NULL, NULL, 0, 0};
    unsigned past = 0;
    for (size_t i = 0; i < b.variable_resources_count; i++)
        past += (uint64_t)b.variable_resources[i].offset + b.variable_resources[i].file_size > m.bytes.size;
    assert_int_equal(relic_bif_check_data(&b, m.bytes.size, &a, &pr), past);
    assert_true(past > 300);
    assert_int_equal(relic_bif_resource(&b, m.bytes.data, m.bytes.size, 0, &p, &n, &err), RELIC_OK);
    assert_ptr_equal(p, m.bytes.data + 20 + 16 * 379); /* data right after the table */
    assert_int_equal(relic_bif_resource(&b, m.bytes.data, m.bytes.size, 378, &p, &n, &err), RELIC_E_TRUNCATED);
    assert_int_equal(err.offset, 20 + 16 * 378);
    assert_int_equal(relic_bif_resource(&b, m.bytes.data, m.bytes.size, 379, &p, &n, &err), RELIC_E_INDEX);
    relic_arena_release(&a);
    relic_unmap(&m);
}

static void test_real_talk_tables_round_trip_and_give_their_text(void **state)
{
    (void)state;
    relic_mapping m;
    char path[512];
    int seen = 0;
    for (int nth = 0; map_corpus("tlk", ".tlk", nth, &m, path, sizeof path); nth++, seen++) {
        relic_tlk_view v;
        relic_tlk_file t;
        relic_arena a;
        relic_error err;
        relic_buf out;
        const char *text;
        size_t n;
        assert_int_equal(relic_tlk_open(m.bytes.data, m.bytes.size, &v, &err), RELIC_OK);
        relic_arena_init_heap(&a, 0);
        assert_int_equal(relic_tlk_decode(&v, &a, &t, &err), RELIC_OK);
        relic_buf_init(&out, 0);
        assert_int_equal(relic_tlk_write(&t, &out, &err), RELIC_OK);
        assert_int_equal(out.size, m.bytes.size);
        assert_memory_equal(out.data, m.bytes.data, out.size);
        if (strstr(path, "dialog.tlk")) {
            assert_int_equal(v.entries_count, 55);
            assert_int_equal(relic_tlk_text(&v, 4, &text, &n), 1);
            assert_int_equal(n, 7); /* "Prêtre": 6 characters, 7 bytes of UTF-8 */
            assert_memory_equal(text, "Pr\xc3\xaatre", 7);
            assert_int_equal(relic_tlk_text(&v, 55, &text, &n), 0);
            assert_int_equal(n, 0);
            assert_int_equal(relic_tlk_text(&v, RELIC_TLK_STRREF_NONE, &text, &n), 0);
        }
        relic_buf_free(&out);
        relic_arena_release(&a);
        relic_unmap(&m);
    }
    if (!seen) print_message("note: no TLK in %s/tlk: the real-file part of this test is skipped\n", CORPUS);
}

/* ---------------------------------------------------------------------- */
/* A KEY/BIF pair written by relic                                         */
/* ---------------------------------------------------------------------- */

typedef struct pair {
    relic_buf key, bif;
    relic_mapping maps[4];
    int nmaps;
    relic_bif_member members[4];
    relic_key_member keys[4];
    uint32_t n;
} pair;

/* Members: walkmeshes and talk tables from the corpus, else made-up bytes. */
static void make_pair(pair *p)
{
    static const uint8_t fallback[3][9] = {"walkmesh", "talktabl", ""};
    static const char *const names[4] = {"m10aa", "dialog", "zz_last_name_16b", "empty"};
    static const uint16_t types[4] = {2016, 2018, 2017, 2017};
    char path[512];
    relic_arena a;
    relic_error err;
    memset(p, 0, sizeof *p);
    p->n = 4;
    for (uint32_t i = 0; i < p->n; i++) {
        int got = i < 2 && map_corpus(i == 0 ? "bwm" : "tlk", i == 0 ? ".wok" : ".tlk", 0, &p->maps[p->nmaps], path, sizeof path);
        if (got) {
            p->members[i].data = p->maps[p->nmaps].bytes.data;
            p->members[i].size = (uint32_t)p->maps[p->nmaps].bytes.size;
            p->nmaps++;
        } else {
            p->members[i].data = fallback[i < 2 ? i : 2];
            p->members[i].size = i < 2 ? 8 : i == 2 ? 5
                                                    : 0;
        }
        p->members[i].res_type = types[i];
        p->keys[i].resref = names[i];
        p->keys[i].res_type = types[i];
        p->keys[i].bif = 0;
        p->keys[i].index = i;
    }
    const char *bifs[1] = {"data/test.bif"};
    uint32_t sizes[1];
    relic_arena_init_buffer(&a, memory, sizeof memory);
    relic_buf_init(&p->bif, 0);
    relic_buf_init(&p->key, 0);
    assert_int_equal(relic_bif_write_members(p->members, p->n, 0, &a, &p->bif, &err), RELIC_OK);
    sizes[0] = (uint32_t)p->bif.size;
    assert_int_equal(relic_key_write_index(bifs, sizes, 1, p->keys, p->n, 126, 0, &a, &p->key, &err), RELIC_OK);
}

static void free_pair(pair *p)
{
    relic_buf_free(&p->key);
    relic_buf_free(&p->bif);
    for (int i = 0; i < p->nmaps; i++) relic_unmap(&p->maps[i]);
}

static void test_written_pair_reads_back_every_resource_and_round_trips(void **state)
{
    (void)state;
    pair p;
    relic_arena a;
    relic_key_file k;
    relic_bif_file b;
    relic_error err;
    relic_buf out;
    char buf[64];
    uint32_t idx, n;
    const uint8_t *data;
    make_pair(&p);
    if (!p.nmaps) print_message("note: no corpus walkmesh or talk table: made-up members only\n");
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_key_open(p.key.data, p.key.size, &a, &k, &err), RELIC_OK);
    assert_int_equal(relic_bif_open(p.bif.data, p.bif.size, &a, &b, &err), RELIC_OK);
    /* the layout of the real files: file table at 64, name with its NUL, then the keys */
    assert_int_equal(relic_load_u32le(p.key.data + 16), 64);
    assert_int_equal(relic_load_u32le(p.key.data + 20), 64 + 12 + 14);
    assert_memory_equal(p.key.data + 76, "data\\test.bif", 14);
    assert_int_equal(k.files[0].filename_size, 14);
    assert_int_equal(k.files[0].file_size, p.bif.size);
    assert_int_equal(relic_load_u32le(p.bif.data + 16), 20);
    assert_string_equal(relic_key_bif_path(&k, 0, buf, sizeof buf), "data/test.bif");
    for (uint32_t i = 0; i < p.n; i++) {
        assert_int_equal(relic_bif_resource(&b, p.bif.data, p.bif.size, RELIC_KEY_RES_INDEX(k.keys[i].res_id), &data, &n, &err),
                         RELIC_OK);
        assert_int_equal(n, p.members[i].size);
        if (n) assert_memory_equal(data, p.members[i].data, n);
        assert_int_equal(b.variable_resources[i].res_type, k.keys[i].res_type);
    }
    assert_int_equal(relic_key_find(&k, "M10AA.WOK", &idx), 1);
    assert_int_equal(idx, 0);
    assert_int_equal(relic_key_find(&k, "zz_last_name_16b.2da", &idx), 1); /* 16 characters: no NUL */
    assert_string_equal(relic_key_resref(&k, idx, buf), "zz_last_name_16b");
    /* read -> model -> write gives the same bytes */
    relic_buf_init(&out, 0);
    assert_int_equal(relic_key_write(&k, &out, &err), RELIC_OK);
    assert_int_equal(out.size, p.key.size);
    assert_memory_equal(out.data, p.key.data, out.size);
    out.size = 0;
    assert_int_equal(relic_bif_write(&b, &out, &err), RELIC_OK);
    assert_memory_equal(out.data, p.bif.data, out.size); /* header and table; the data follow */
    relic_buf_free(&out);
    relic_arena_release(&a);
    free_pair(&p);
}

static void test_opening_allocates_only_from_the_callers_arena(void **state)
{
    (void)state;
    pair p;
    relic_arena a;
    relic_key_file k;
    relic_bif_file b;
    relic_tlk_view v;
    relic_error err;
    make_pair(&p);
    relic_arena_init_buffer(&a, memory, sizeof memory);
    heap_guard_arm();
    relic_status s1 = relic_key_open(p.key.data, p.key.size, &a, &k, &err);
    relic_status s2 = relic_bif_open(p.bif.data, p.bif.size, &a, &b, &err);
    relic_status s3 = p.nmaps > 1 ? relic_tlk_open(p.members[1].data, p.members[1].size, &v, &err) : RELIC_OK;
    unsigned long calls = heap_guard_disarm();
    assert_int_equal(s1, RELIC_OK);
    assert_int_equal(s2, RELIC_OK);
    assert_int_equal(s3, RELIC_OK);
    assert_int_equal(calls, 0);
    free_pair(&p);
}

/* ---------------------------------------------------------------------- */
/* Corrupted files                                                        */
/* ---------------------------------------------------------------------- */

static relic_status open_key(const uint8_t *d, size_t n, relic_error *err)
{
    relic_arena a;
    relic_key_file k;
    relic_arena_init_buffer(&a, memory, sizeof memory);
    return relic_key_open(d, n, &a, &k, err);
}

static relic_status open_bif(const uint8_t *d, size_t n, relic_error *err)
{
    relic_arena a;
    relic_bif_file b;
    relic_arena_init_buffer(&a, memory, sizeof memory);
    return relic_bif_open(d, n, &a, &b, err);
}

static void test_corrupted_key_is_rejected_with_path_and_offset(void **state)
{
    (void)state;
    pair p;
    relic_error err;
    make_pair(&p);
    uint8_t *d = p.key.data;
    const size_t keys = 64 + 12 + 14;
    relic_store_u32le(d + keys + 22 + 18, (3u << 20) | 1); /* keys[1] in BIF 3 of 1 */
    assert_int_equal(open_key(d, p.key.size, &err), RELIC_E_INDEX);
    assert_string_equal(err.path, "keys[1].res_id");
    assert_int_equal(err.offset, keys + 22 + 18);
    relic_store_u32le(d + keys + 22 + 18, 1);

    relic_store_u32le(d + 64 + 4, keys); /* the name points into the key table */
    assert_int_equal(open_key(d, p.key.size, &err), RELIC_E_LAYOUT);
    assert_string_equal(err.path, "files[0].filename_offset");
    assert_int_equal(err.offset, 64 + 4);
    relic_store_u32le(d + 64 + 4, 76);

    memcpy(d + 76, "..\\x.bif", 9); /* climbs out of the game directory */
    assert_int_equal(open_key(d, p.key.size, &err), RELIC_E_RANGE);
    assert_string_equal(err.path, "files[0].filename");
    memcpy(d + 76, "data\\test.bif", 14);

    d[keys + 2 * 22 + 3] = '/'; /* a separator in a ResRef */
    assert_int_equal(open_key(d, p.key.size, &err), RELIC_E_RANGE);
    assert_string_equal(err.path, "keys[2].resref");
    assert_int_equal(err.offset, keys + 2 * 22 + 3);
    d[keys + 2 * 22 + 3] = '_';

    relic_store_u32le(d + 16, 24); /* an Infinity Engine KEY's table offset */
    assert_int_equal(open_key(d, p.key.size, &err), RELIC_E_RANGE);
    assert_non_null(strstr(err.path, "header")); /* the header struct's check */
    assert_non_null(strstr(err.message, "offset_to_file_table == 64"));
    relic_store_u32le(d + 16, 64);

    relic_store_u32le(d + 20, 64); /* the key table over the file table (a fuzzer's find: the names' length < 0) */
    assert_int_equal(open_key(d, p.key.size, &err), RELIC_E_RANGE);
    assert_non_null(strstr(err.message, "offset_to_key_table >="));
    relic_store_u32le(d + 20, (uint32_t)keys);

    memcpy(d, "KEY V2  ", 8);
    assert_int_equal(open_key(d, p.key.size, &err), RELIC_E_MAGIC);
    memcpy(d, "KEY V1  ", 8);
    assert_int_equal(open_key(d, p.key.size, &err), RELIC_OK);
    free_pair(&p);
}

static void test_corrupted_bif_is_rejected_with_path_and_offset(void **state)
{
    (void)state;
    pair p;
    relic_error err;
    make_pair(&p);
    uint8_t *d = p.bif.data;
    const size_t e1 = 20 + 16, data_at = 20 + 16 * 4;
    uint32_t off1 = relic_load_u32le(d + e1 + 4);
    relic_store_u32le(d + e1 + 4, (uint32_t)data_at); /* resource 1 over resource 0 */
    assert_int_equal(open_bif(d, p.bif.size, &err), RELIC_E_LAYOUT);
    assert_string_equal(err.path, "variable_resources[1]");
    assert_int_equal(err.offset, e1);
    relic_store_u32le(d + e1 + 4, 8); /* inside the header */
    assert_int_equal(open_bif(d, p.bif.size, &err), RELIC_E_LAYOUT);
    assert_int_equal(err.offset, e1);
    relic_store_u32le(d + e1 + 4, (uint32_t)p.bif.size); /* past the end */
    assert_int_equal(open_bif(d, p.bif.size, &err), RELIC_E_TRUNCATED);
    assert_int_equal(err.offset, e1);
    relic_store_u32le(d + e1 + 4, off1);
    relic_store_u32le(d + 12, 1); /* fixed resources: never used by any game */
    assert_int_equal(open_bif(d, p.bif.size, &err), RELIC_E_RANGE);
    assert_string_equal(err.path, "header.fixed_resource_count");
    relic_store_u32le(d + 12, 0);
    assert_int_equal(open_bif(d, p.bif.size, &err), RELIC_OK);
    free_pair(&p);
}

static void test_corrupted_tlk_is_rejected_with_path_and_offset(void **state)
{
    (void)state;
    /* two entries, "Hello" and "world" */
    uint8_t t[20 + 80 + 10];
    relic_tlk_view v;
    relic_error err;
    memset(t, 0, sizeof t);
    memcpy(t, "TLK V3.0", 8);
    relic_store_u32le(t + 12, 2);
    relic_store_u32le(t + 16, 100);
    for (int i = 0; i < 2; i++) {
        relic_store_u32le(t + 20 + 40 * i, RELIC_TLK_STRING_FLAGS_TEXT_PRESENT);
        relic_store_u32le(t + 20 + 40 * i + 28, 5u * (uint32_t)i);
        relic_store_u32le(t + 20 + 40 * i + 32, 5);
    }
    memcpy(t + 100, "Helloworld", 10);
    assert_int_equal(relic_tlk_open(t, sizeof t, &v, &err), RELIC_OK);
    relic_store_u32le(t + 20 + 40 + 32, 6); /* entries[1] one byte past the end */
    assert_int_equal(relic_tlk_open(t, sizeof t, &v, &err), RELIC_E_TRUNCATED);
    assert_string_equal(err.path, "entries[1].string_size");
    assert_int_equal(err.offset, 20 + 40 + 32);
    relic_store_u32le(t + 20 + 40, 0); /* no TEXT_PRESENT: the range is not used */
    assert_int_equal(relic_tlk_open(t, sizeof t, &v, &err), RELIC_OK);
    relic_store_u32le(t + 16, 60); /* text inside the table */
    assert_int_not_equal(relic_tlk_open(t, sizeof t, &v, &err), RELIC_OK);
    assert_int_equal(err.offset, 16);
}

/* gen_key's find (fuzz/corpus/gen_key/regression-name-table-negative): the
 * file and key tables at 0, so the name table's length was negative and the
 * model read from it could not be written again. The header's checks refuse it. */
static void test_tables_over_the_header_are_refused(void **state)
{
    (void)state;
    /* clang-format off */
    static const uint8_t bytes[] = {
        0x4b, 0x45, 0x59, 0x20, 0x56, 0x31, 0x20, 0x20, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x67, 0x5f, 0x6c, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x0b, 0x00, 0x00, 0x00, 0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x20, 0x77, 0x6f, 0x72,
    };
    /* clang-format on */
    relic_key_view v;
    relic_error err;
    assert_int_equal(relic_key_validate(bytes, sizeof bytes, &v, &err), RELIC_E_RANGE);
    assert_non_null(strstr(err.message, "offset_to_file_table == 64"));
}

static void test_every_prefix_of_a_written_file_is_refused_without_a_crash(void **state)
{
    (void)state;
    pair p;
    relic_error err;
    make_pair(&p);
    for (size_t n = 0; n < p.key.size; n++) {
        uint8_t *c = malloc(n ? n : 1); /* exactly n bytes: ASan sees any read past them */
        memcpy(c, p.key.data, n);
        assert_int_not_equal(open_key(c, n, &err), RELIC_OK);
        free(c);
    }
    size_t table_end = 20 + 16 * p.n;
    for (size_t n = 0; n < p.bif.size; n += n < table_end + 64 ? 1 : 997) {
        uint8_t *c = malloc(n ? n : 1);
        memcpy(c, p.bif.data, n);
        assert_int_not_equal(open_bif(c, n, &err), RELIC_OK);
        free(c);
    }
    free_pair(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_chitin_key_lists_every_key_and_round_trips),
        cmocka_unit_test(test_real_bif_cut_after_its_table_reports_each_resource_past_the_end),
        cmocka_unit_test(test_real_talk_tables_round_trip_and_give_their_text),
        cmocka_unit_test(test_written_pair_reads_back_every_resource_and_round_trips),
        cmocka_unit_test(test_opening_allocates_only_from_the_callers_arena),
        cmocka_unit_test(test_corrupted_key_is_rejected_with_path_and_offset),
        cmocka_unit_test(test_corrupted_bif_is_rejected_with_path_and_offset),
        cmocka_unit_test(test_corrupted_tlk_is_rejected_with_path_and_offset),
        cmocka_unit_test(test_tables_over_the_header_are_refused),
        cmocka_unit_test(test_every_prefix_of_a_written_file_is_refused_without_a_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
