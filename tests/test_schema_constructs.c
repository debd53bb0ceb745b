/* test_schema_constructs.c — the schema language's constructs at run time,
 * through the code relic-gen writes for tests/golden/mini.schema (the
 * committed golden output, compiled in here): big- and little-endian
 * fields, magic and integer constants, closed and open enums, flags,
 * ranges, checks, struct checks, count expressions, `at` placement,
 * variable-size elements, switch with multi-value cases and default,
 * if/else, a hook and a zlib codec region; derived count/offset/size
 * recomputed by the writer; binary and JSON round trips; errors with the
 * field path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "golden/expected/mini.c"
#include "golden/expected/mini_json.c"

/* The hook the schema names: blobs may not start with 0xFF. */
relic_status relic_hook_mini_blob(const uint8_t *p, size_t n, relic_error *err)
{
    if (n > 0 && p[0] == 0xFF) return relic_fail(err, RELIC_E_RANGE, 0, "", "blob starts with 0xFF");
    return RELIC_OK;
}

static char name_a[] = "alpha", name_b[] = "b", text_hi[] = "hello";
static uint8_t blob[3] = {1, 2, 3};
static uint16_t table[3] = {7, 999, 0};
static uint8_t pairs[4] = {1, 2, 3, 4};
static uint8_t packed[64];

/* A model with one record of each payload kind. */
static relic_mini_file make_model(relic_mini_record *r)
{
    relic_mini_file m;
    memset(&m, 0, sizeof m);
    memcpy(m.header.magic, "MINI", 4);
    m.header.version = 2;
    m.header.level = 1000;
    m.header.attributes = RELIC_MINI_ATTR_HIDDEN | RELIC_MINI_ATTR_ARCHIVED;
    m.header.origin.x = -3;
    m.header.origin.y = 300;
    m.header.scale = 2.5f;
    m.header.pair_count = 2;
    m.pairs = pairs;
    m.pairs_count = 4;
    m.table = table;
    m.table_count = 3;
    memset(r, 0, sizeof *r * 5);
    for (int i = 0; i < 5; i++) {
        r[i].name = i % 2 ? name_b : name_a;
        r[i].name_len = (uint8_t)strlen(r[i].name);
        r[i].name_count = r[i].name_len;
        r[i].offsets[1][0] = (int8_t)-i;
        r[i].stamp = 0x0102030405060708ull * (uint64_t)(i + 1);
        r[i].weight = 0.1 * i;
        r[i].has_color = (uint8_t)(i % 2);
        r[i].color = RELIC_MINI_COLOR_RED;
        r[i].gray = 50;
    }
    r[0].kind = RELIC_MINI_KIND_EMPTY;
    r[1].kind = RELIC_MINI_KIND_NUMBER;
    r[1].number = 42;
    r[2].kind = RELIC_MINI_KIND_TEXT;
    r[2].text = text_hi;
    r[2].text_len = 5;
    r[2].text_count = 5;
    r[3].kind = RELIC_MINI_KIND_BLOB;
    r[3].blob = blob;
    r[3].blob_len = 3;
    r[3].blob_count = 3;
    /* a zlib-compressed big-endian point (12, -5) */
    const uint8_t point[4] = {0x00, 0x0C, 0xFF, 0xFB};
    uLongf plen = sizeof packed;
    assert_int_equal(compress(packed, &plen, point, 4), Z_OK);
    r[4].kind = RELIC_MINI_KIND_PACKED;
    r[4].packed = packed;
    r[4].packed_len = (uint16_t)plen;
    r[4].packed_count = plen;
    r[4].unpacked_len = 4;
    m.records = r;
    m.records_count = 5;
    return m;
}

static relic_buf write_ok(const relic_mini_file *m)
{
    relic_buf b;
    relic_error err;
    relic_buf_init(&b, 0);
    relic_status st = relic_mini_write(m, &b, &err);
    if (st != RELIC_OK) relic_error_print(stderr, "mini", &err);
    assert_int_equal(st, RELIC_OK);
    return b;
}

static void test_writer_fills_derived_fields_and_byte_order(void **state)
{
    (void)state;
    relic_mini_record r[5];
    relic_mini_file m = make_model(r);
    relic_buf b = write_ok(&m);
    const uint8_t *h = b.data;
    assert_memory_equal(h, "MINI", 4);
    assert_int_equal(h[4], 0x00); /* u16be version 2 */
    assert_int_equal(h[5], 0x02);
    assert_int_equal(relic_load_u16le(h + 6), 1000);         /* little-endian level */
    assert_int_equal(relic_load_u32le(h + 8), 0x80000001u);  /* flags */
    assert_int_equal((int16_t)relic_load_u16be(h + 12), -3); /* i16be origin.x */
    assert_true(relic_load_f32be(h + 20) == 2.5f);
    assert_int_equal(relic_load_u32le(h + 24), 5); /* record_count = count(records) */
    /* the sequential part: 44-byte header, then 4 pair bytes; the table follows, then the records */
    assert_int_equal(relic_load_u32le(h + 40), 48);          /* table_offset = offset(table) */
    assert_int_equal(relic_load_u16le(h + 36), 3);           /* table_count */
    assert_int_equal(relic_load_u32le(h + 28), 54);          /* record_offset = 48 + 3 * 2 */
    assert_int_equal(relic_load_u32le(h + 32), b.size - 54); /* records_size = size(records) */
    relic_buf_free(&b);
}

static void test_binary_and_json_round_trips(void **state)
{
    (void)state;
    relic_mini_record r[5];
    relic_mini_file m = make_model(r);
    relic_buf b = write_ok(&m);
    relic_mini_view v;
    relic_error err;
    relic_arena a;
    relic_mini_file d, j;
    relic_arena_init_heap(&a, 0);
    relic_status st = relic_mini_validate(b.data, b.size, &v, &err);
    if (st != RELIC_OK) relic_error_print(stderr, "mini", &err);
    assert_int_equal(st, RELIC_OK);
    assert_int_equal(v.records_count, 5);
    assert_int_equal(relic_mini_decode(&v, &a, &d, &err), RELIC_OK);
    assert_int_equal(d.records[1].number, 42);
    assert_memory_equal(d.records[2].text, "hello", 5);
    assert_int_equal(d.records[3].blob_count, 3);
    assert_int_equal(d.records[1].color, RELIC_MINI_COLOR_RED); /* has_color: the if branch */
    assert_int_equal(d.records[0].gray, 50);                    /* else branch */
    assert_int_equal(d.records[2].offsets[1][0], -2);
    assert_true(d.records[3].weight == 0.1 * 3);
    relic_buf b2 = write_ok(&d);
    assert_int_equal(b2.size, b.size);
    assert_memory_equal(b2.data, b.data, b.size);
    relic_buf js;
    relic_buf_init(&js, 0);
    assert_int_equal(relic_mini_json_print(&d, &js, &err), RELIC_OK);
    assert_non_null(strstr((const char *)js.data, "\"kind\": \"packed\""));
    st = relic_mini_json_read((const char *)js.data, js.size, &a, &j, &err);
    if (st != RELIC_OK) relic_error_print(stderr, "mini.json", &err);
    assert_int_equal(st, RELIC_OK);
    relic_buf b3 = write_ok(&j);
    assert_int_equal(b3.size, b.size);
    assert_memory_equal(b3.data, b.data, b.size);
    relic_buf_free(&b);
    relic_buf_free(&b2);
    relic_buf_free(&b3);
    relic_buf_free(&js);
    relic_arena_release(&a);
}

static void test_codec_region_decodes_to_its_struct(void **state)
{
    (void)state;
    relic_mini_record r[5];
    relic_mini_file m = make_model(r);
    relic_arena a;
    relic_error err;
    relic_mini_point p;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_mini_record_packed_decode(&r[4], &a, &p, &err), RELIC_OK);
    assert_int_equal(p.x, 12);
    assert_int_equal(p.y, -5);
    r[4].unpacked_len = 5; /* the stream holds 4 bytes */
    assert_int_equal(relic_mini_record_packed_decode(&r[4], &a, &p, &err), RELIC_E_LAYOUT);
    assert_string_equal(err.path, "packed");
    r[4].unpacked_len = 4;
    uint8_t corrupt[64];
    memcpy(corrupt, packed, r[4].packed_count);
    corrupt[3] ^= 0x55;
    r[4].packed = corrupt;
    assert_int_not_equal(relic_mini_record_packed_decode(&r[4], &a, &p, &err), RELIC_OK);
    (void)m;
    relic_arena_release(&a);
}

static relic_status validate_buf(relic_buf *b, relic_error *err)
{
    relic_mini_view v;
    return relic_mini_validate(b->data, b->size, &v, err);
}

static void test_range_check_and_hook_errors_name_the_field(void **state)
{
    (void)state;
    relic_mini_record r[5];
    relic_mini_file m = make_model(r);
    relic_error err;
    relic_buf b = write_ok(&m);
    relic_store_u16le(b.data + 6, 1001); /* level in 0..1000 */
    assert_int_equal(validate_buf(&b, &err), RELIC_E_RANGE);
    assert_string_equal(err.path, "header.level");
    assert_int_equal(err.offset, 6);
    relic_buf_free(&b);

    r[1].number = 0xDEADBEEF; /* check (it != 0xDEADBEEF) */
    b = write_ok(&m);
    assert_int_equal(validate_buf(&b, &err), RELIC_E_RANGE);
    assert_string_equal(err.path, "records[1].number");
    relic_buf_free(&b);
    r[1].number = 42;

    blob[0] = 0xFF; /* the hook rejects it */
    b = write_ok(&m);
    assert_int_equal(validate_buf(&b, &err), RELIC_E_RANGE);
    assert_string_equal(err.path, "records[3].blob");
    relic_buf_free(&b);
    blob[0] = 1;

    table[1] = 1000; /* check (it < 1000) on an `at` array */
    b = write_ok(&m);
    assert_int_equal(validate_buf(&b, &err), RELIC_E_RANGE);
    assert_string_equal(err.path, "table[1]");
    relic_buf_free(&b);
    table[1] = 999;
}

static void test_constants_enums_and_struct_checks(void **state)
{
    (void)state;
    relic_mini_record r[5];
    relic_mini_file m = make_model(r);
    relic_error err;
    relic_buf b = write_ok(&m);
    b.data[5] = 3; /* u16be version = 2 */
    assert_int_equal(validate_buf(&b, &err), RELIC_E_MAGIC);
    assert_string_equal(err.path, "header.version");
    b.data[5] = 2;
    relic_store_u32le(b.data + 8, 0x4); /* no flag 0x4 */
    assert_int_equal(validate_buf(&b, &err), RELIC_E_RANGE);
    assert_string_equal(err.path, "header.attributes");
    relic_store_u32le(b.data + 8, 1);
    uint32_t rec = relic_load_u32le(b.data + 28);
    b.data[rec] = 9; /* kind 9 is not a known kind (closed enum) */
    assert_int_equal(validate_buf(&b, &err), RELIC_E_RANGE);
    assert_string_equal(err.path, "records[0].kind");
    relic_buf_free(&b);

    m.header.pair_count = 17; /* check (header.pair_count <= 16) */
    uint8_t many[34] = {0};
    m.pairs = many;
    m.pairs_count = 34;
    b = write_ok(&m);
    assert_int_equal(validate_buf(&b, &err), RELIC_E_RANGE);
    assert_non_null(strstr(err.message, "at most 16 pairs"));
    relic_buf_free(&b);
}

static void test_writer_rejects_counts_that_disagree(void **state)
{
    (void)state;
    relic_mini_record r[5];
    relic_mini_file m = make_model(r);
    relic_buf b;
    relic_error err;
    relic_buf_init(&b, 0);
    r[2].text_count = 4; /* text_len says 5 */
    assert_int_equal(relic_mini_write(&m, &b, &err), RELIC_E_ARGUMENT);
    assert_string_equal(err.path, "records[2].text");
    assert_int_equal(b.size, 0); /* nothing half-written */
    relic_buf_free(&b);
}

static void test_mutated_files_never_crash(void **state)
{
    (void)state;
    relic_mini_record r[5];
    relic_mini_file m = make_model(r);
    relic_buf b = write_ok(&m);
    uint64_t seed = 12345;
    unsigned accepted = 0;
    for (int k = 0; k < 20000; k++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        uint8_t *copy = malloc(b.size);
        memcpy(copy, b.data, b.size);
        copy[(seed >> 8) % b.size] = (uint8_t)(seed >> 32);
        size_t len = k % 3 == 0 ? (size_t)((seed >> 20) % (b.size + 1)) : b.size;
        relic_mini_view v;
        relic_error err;
        if (relic_mini_validate(copy, len, &v, &err) == RELIC_OK) {
            relic_arena a;
            relic_mini_file d;
            relic_buf out;
            relic_arena_init_heap(&a, 1 << 24);
            relic_buf_init(&out, 0);
            assert_int_equal(relic_mini_decode(&v, &a, &d, &err), RELIC_OK);
            assert_int_equal(relic_mini_write(&d, &out, &err), RELIC_OK);
            assert_int_equal(relic_mini_validate(out.data, out.size, &v, &err), RELIC_OK);
            relic_buf_free(&out);
            relic_arena_release(&a);
            accepted++;
        }
        free(copy);
    }
    print_message("mini mutations: 20000 inputs, %u accepted\n", accepted);
    relic_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_writer_fills_derived_fields_and_byte_order),
        cmocka_unit_test(test_binary_and_json_round_trips),
        cmocka_unit_test(test_codec_region_decodes_to_its_struct),
        cmocka_unit_test(test_range_check_and_hook_errors_name_the_field),
        cmocka_unit_test(test_constants_enums_and_struct_checks),
        cmocka_unit_test(test_writer_rejects_counts_that_disagree),
        cmocka_unit_test(test_mutated_files_never_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
