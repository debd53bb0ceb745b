/* test_gff_json.c — the nwn_gff JSON form of GFF files, rule by rule
 * (neverwinter.nim, gffjson.nim; xoreos-tools, src/xml/gff3dumper.cpp, with the float and escaping rules of
 * neverwinter.nim's gffjson.nim and Nim's JSON printer): key order, type
 * names, "__struct_id" as int32, locstring keys and "id", base64 VOID,
 * string escapes, float/double text; text encodings (cp1252, UTF-8, auto,
 * every locstring case, invalid UTF-8 in, characters cp1252 cannot hold
 * out, each error naming its field); and on every real file
 * (../shared/corpus/gff, skipped when absent): the rules checked on the
 * printed JSON, GFF -> JSON -> GFF byte-identical for every file in the
 * default layout or with an order record, JSON -> GFF -> JSON identical for
 * all; and the order record on a file built here in an odd order, and
 * malformed ones. */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>


#include "relic_gff.h"
#include "relic_json.h"

#define CORPUS_DIR "../shared/corpus/gff"
#define CORRUPTED "test_corrupted.gff"

/* ---------------------------------------------------------------------- */
/* Helpers                                                                */
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
    s->field_count = 0;
    s->fields = relic_arena_array(a, cap, sizeof *s->fields, 8);
    s->src_index = s->src_data = RELIC_GFF_NONE;
    return s;
}

static void new_tree(relic_arena *a, relic_gff_tree *t, uint32_t cap)
{
    memset(t, 0, sizeof *t);
    memcpy(t->file_type, "UTI ", 4);
    t->root = new_struct(a, RELIC_GFF_NONE, cap);
}

static relic_gff_tfield *add_text(relic_gff_tstruct *s, uint32_t type, const char *label, const char *text)
{
    relic_gff_tfield *f = add_field(s, type, label);
    f->v.bytes.p = (uint8_t *)text;
    f->v.bytes.n = strlen(text);
    return f;
}

/* The JSON of t (NUL-terminated, caller frees) and its status. */
static char *print(const relic_gff_tree *t, relic_gff_encoding enc, relic_status *st, relic_error *err)
{
    relic_buf b;
    relic_buf_init(&b, 0);
    *st = relic_gff_json_print_tree(t, enc, &b, err);
    relic_buf_append(&b, "", 1);
    return (char *)b.data;
}

static char *print_ok(const relic_gff_tree *t, relic_gff_encoding enc)
{
    relic_status st;
    relic_error err;
    char *js = print(t, enc, &st, &err);
    if (st != RELIC_OK) print_message("%s: %s\n", err.path, err.message);
    assert_int_equal(st, RELIC_OK);
    return js;
}

static relic_status read(const char *js, relic_gff_encoding enc, relic_arena *a, relic_gff_tree *t, relic_error *err)
{
    return relic_gff_json_read_tree(js, strlen(js), enc, a, t, err);
}

/* ---------------------------------------------------------------------- */
/* Numbers                                                                */
/* ---------------------------------------------------------------------- */

static void check_format(double v, const char *want)
{
    char b[32];
    relic_gff_format_double(v, b);
    if (strcmp(b, want) != 0) print_message("%.17g: got %s, want %s\n", v, b, want);
    assert_string_equal(b, want);
}

/* Nim's float text: shortest round trip of the f64, fixed from 1e-6 to
 * 17 integer digits, ".0" on integers, e+x / e-x without padding. */
static void test_floats_print_as_nim_prints_f64(void **state)
{
    (void)state;
    check_format((double)0.1f, "0.10000000149011612");
    check_format(0.1, "0.1");
    check_format(1.0, "1.0");
    check_format(100.0, "100.0");
    check_format(-2.5, "-2.5");
    check_format(0.0, "0.0");
    check_format(-0.0, "-0.0");
    check_format(1e16, "10000000000000000.0");
    check_format(1e17, "1e+17");
    check_format(1e20, "1e+20");
    check_format(123456789012345678.0, "1.2345678901234568e+17");
    check_format(1.5e-7, "0.00000015");
    check_format(1e-6, "0.000001");
    check_format(1e-7, "0.0000001");
    check_format(1e-8, "1e-8");
    check_format(1.5e-8, "1.5e-8");
    check_format(1.0 / 3.0, "0.3333333333333333");
    check_format(5e-324, "5e-324");
    check_format(1.7976931348623157e308, "1.7976931348623157e+308");
    check_format(ldexp(1.0, -30), "9.313225746154785e-10");
    check_format((double)3.4028235e38f, "3.4028234663852886e+38");
}

/* The digits of the shortest round-trip decimal of v by brute force (the
 * C library's correctly rounded printf at every precision). */
static void reference_digits(double v, char *digits, int *exp10)
{
    char b[48];
    for (int p = 1; p <= 17; p++) {
        snprintf(b, sizeof b, "%.*e", p - 1, v);
        if (strtod(b, NULL) == v) break;
    }
    int n = 0;
    const char *q = b + (b[0] == '-');
    digits[n++] = *q++;
    if (*q == '.')
        for (q++; *q >= '0' && *q <= '9'; q++) digits[n++] = *q;
    while (n > 1 && digits[n - 1] == '0') n--;
    digits[n] = 0;
    *exp10 = atoi(q + 1);
}

/* The significant digits of printed text ("0.00015" -> "15", "1.5e-7" ->
 * "15", "120.0" -> "12"); the value itself is checked by reading back. */
static void text_digits(const char *t, char *digits)
{
    int n = 0, lead = 1;
    for (; *t && *t != 'e'; t++) {
        if (*t == '-' || *t == '.') continue;
        if (lead && *t == '0') continue;
        lead = 0;
        digits[n++] = *t;
    }
    while (n > 1 && digits[n - 1] == '0') n--;
    digits[n] = 0;
}

/* Random floats (widened, as nwn_gff prints them) and random doubles: the
 * text reads back to the value and has exactly the digits of the
 * shortest round trip (nearest among equally short ones). */
static void test_float_text_is_shortest_and_exact(void **state)
{
    (void)state;
    uint64_t x = 0x9E3779B97F4A7C15ull;
    int checked = 0;
    for (int i = 0; i < 40000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        double v;
        if (i & 1) {
            uint32_t u = (uint32_t)x;
            float f;
            memcpy(&f, &u, 4);
            v = f;
        } else {
            memcpy(&v, &x, 8);
        }
        if (!isfinite(v) || v == 0) continue;
        char b[32], want[24], got[24];
        int we;
        relic_gff_format_double(v, b);
        assert_true(strtod(b, NULL) == v);
        assert_true(strchr(b, '.') || strchr(b, 'e')); /* a float token */
        reference_digits(v, want, &we);
        text_digits(b, got);
        if (frexp(v, &(int){0}) == 0.5 || frexp(v, &(int){0}) == -0.5) continue; /* powers of two: see gff_float.c */
        if (strcmp(want, got) != 0) print_message("%a: printed %s, shortest digits %s\n", v, b, want);
        assert_string_equal(want, got);
        checked++;
    }
    assert_true(checked > 30000);
    /* powers of two (an interval narrower below): they read back, and are
     * never longer than the correctly rounded shortest */
    for (int e = -1074; e <= 1023; e++) {
        double v = ldexp(1.0, e);
        char b[32], want[24], got[24];
        int we;
        relic_gff_format_double(v, b);
        assert_true(strtod(b, NULL) == v);
        reference_digits(v, want, &we);
        text_digits(b, got);
        assert_true(strlen(got) <= strlen(want));
    }
}

/* ---------------------------------------------------------------------- */
/* nwn_gff rules on made files                                            */
/* ---------------------------------------------------------------------- */

/* Keys: Nim's cmpIgnoreCase (digits < '_' < letters, case folded, shorter
 * first), equal keys in file order. */
static void test_keys_sort_case_insensitively_and_stably(void **state)
{
    (void)state;
    relic_arena a;
    relic_gff_tree t;
    relic_arena_init_heap(&a, 0);
    new_tree(&a, &t, 8);
    const char *labels[] = {"b", "A", "_x", "1", "a", "B", "AnimLoop", "Animation"};
    for (int i = 0; i < 8; i++) add_field(t.root, RELIC_GFF_FIELD_TYPE_BYTE, labels[i])->v.u = (uint64_t)i;
    char *js = print_ok(&t, RELIC_GFF_ENC_CP1252);
    const char *want = "{\"1\":{\"type\":\"byte\",\"value\":3},\"__data_type\":\"UTI \","
                       "\"__field_order\":[\"b\",\"A\",\"_x\",\"1\",\"a\",\"B\",\"AnimLoop\",\"Animation\"],"
                       "\"_x\":{\"type\":\"byte\",\"value\":2},\"A\":{\"type\":\"byte\",\"value\":1},"
                       "\"a\":{\"type\":\"byte\",\"value\":4},\"Animation\":{\"type\":\"byte\",\"value\":7},"
                       "\"AnimLoop\":{\"type\":\"byte\",\"value\":6},\"b\":{\"type\":\"byte\",\"value\":0},"
                       "\"B\":{\"type\":\"byte\",\"value\":5}}\n";
    assert_string_equal(js, want);
    free(js);
    relic_arena_release(&a);
}

/* Every type name of §4.3 and each value form. */
static void test_type_names_and_value_forms(void **state)
{
    (void)state;
    relic_arena a;
    relic_gff_tree t;
    static uint8_t blob[] = {0xFB, 0xFF, 0x00, 'a'};
    relic_arena_init_heap(&a, 0);
    new_tree(&a, &t, 20);
    relic_gff_tstruct *r = t.root;
    add_field(r, RELIC_GFF_FIELD_TYPE_BYTE, "a00")->v.u = 255;
    add_field(r, RELIC_GFF_FIELD_TYPE_CHAR, "a01")->v.i = -128;
    add_field(r, RELIC_GFF_FIELD_TYPE_WORD, "a02")->v.u = 65535;
    add_field(r, RELIC_GFF_FIELD_TYPE_SHORT, "a03")->v.i = -32768;
    add_field(r, RELIC_GFF_FIELD_TYPE_DWORD, "a04")->v.u = 4294967295u;
    add_field(r, RELIC_GFF_FIELD_TYPE_INT, "a05")->v.i = INT32_MIN;
    add_field(r, RELIC_GFF_FIELD_TYPE_DWORD64, "a06")->v.u = UINT64_MAX;
    add_field(r, RELIC_GFF_FIELD_TYPE_INT64, "a07")->v.i = INT64_MIN;
    add_field(r, RELIC_GFF_FIELD_TYPE_FLOAT, "a08")->v.f32 = 2.0f;
    add_field(r, RELIC_GFF_FIELD_TYPE_DOUBLE, "a09")->v.f64 = 0.5;
    add_text(r, RELIC_GFF_FIELD_TYPE_CEXOSTRING, "a10", "x");
    add_text(r, RELIC_GFF_FIELD_TYPE_RESREF, "a11", "nw_it");
    relic_gff_tfield *f = add_field(r, RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING, "a12");
    f->v.loc.strref = RELIC_GFF_NONE;
    f = add_field(r, RELIC_GFF_FIELD_TYPE_VOID, "a13");
    f->v.bytes.p = blob;
    f->v.bytes.n = sizeof blob;
    add_field(r, RELIC_GFF_FIELD_TYPE_STRUCT, "a14")->v.child = new_struct(&a, 3, 1);
    f = add_field(r, RELIC_GFF_FIELD_TYPE_LIST, "a15");
    f->v.list.count = 0;
    f = add_field(r, RELIC_GFF_FIELD_TYPE_ORIENTATION, "a16");
    f->v.vec[0] = 1;
    f->v.vec[3] = 0.5f;
    add_field(r, RELIC_GFF_FIELD_TYPE_VECTOR, "a17")->v.vec[2] = -1;
    char *js = print_ok(&t, RELIC_GFF_ENC_CP1252);
    const char *want = "{\"__data_type\":\"UTI \","
                       "\"a00\":{\"type\":\"byte\",\"value\":255},\"a01\":{\"type\":\"char\",\"value\":-128},"
                       "\"a02\":{\"type\":\"word\",\"value\":65535},\"a03\":{\"type\":\"short\",\"value\":-32768},"
                       "\"a04\":{\"type\":\"dword\",\"value\":4294967295},\"a05\":{\"type\":\"int\",\"value\":-2147483648},"
                       "\"a06\":{\"type\":\"dword64\",\"value\":18446744073709551615},"
                       "\"a07\":{\"type\":\"int64\",\"value\":-9223372036854775808},"
                       "\"a08\":{\"type\":\"float\",\"value\":2.0},\"a09\":{\"type\":\"double\",\"value\":0.5},"
                       "\"a10\":{\"type\":\"cexostring\",\"value\":\"x\"},\"a11\":{\"type\":\"resref\",\"value\":\"nw_it\"},"
                       "\"a12\":{\"type\":\"cexolocstring\",\"value\":{}},\"a13\":{\"type\":\"void\",\"value64\":\"+/8AYQ==\"},"
                       "\"a14\":{\"__struct_id\":3,\"type\":\"struct\",\"value\":{\"__struct_id\":3}},"
                       "\"a15\":{\"type\":\"list\",\"value\":[]},"
                       "\"a16\":{\"type\":\"orientation\",\"value\":[1.0,0.0,0.0,0.5]},"
                       "\"a17\":{\"type\":\"vector\",\"value\":[0.0,0.0,-1.0]}}\n";
    assert_string_equal(js, want);
    /* and back, to the same file */
    relic_gff_tree t2;
    relic_error err;
    relic_buf b1, b2;
    relic_buf_init(&b1, 0);
    relic_buf_init(&b2, 0);
    assert_int_equal(read(js, RELIC_GFF_ENC_AUTO, &a, &t2, &err), RELIC_OK);
    assert_int_equal(relic_gff_write_tree(&t, RELIC_GFF_LAYOUT_DEFAULT, &a, &b1, NULL, &err), RELIC_OK);
    assert_int_equal(relic_gff_write_tree(&t2, RELIC_GFF_LAYOUT_DEFAULT, &a, &b2, NULL, &err), RELIC_OK);
    assert_int_equal(b1.size, b2.size);
    assert_memory_equal(b1.data, b2.data, b1.size);
    relic_buf_free(&b1);
    relic_buf_free(&b2);
    free(js);
    relic_arena_release(&a);
}

/* "__struct_id" is nwn_gff's int32: 0xFFFFFFFE prints -2; a struct field
 * whose struct has no id shows -1 beside type and nothing in the value; a
 * list element without id has no "__struct_id". All read back. */
static void test_struct_ids_print_as_int32(void **state)
{
    (void)state;
    relic_arena a;
    relic_gff_tree t, t2;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    new_tree(&a, &t, 2);
    add_field(t.root, RELIC_GFF_FIELD_TYPE_STRUCT, "S")->v.child = new_struct(&a, RELIC_GFF_NONE, 1);
    relic_gff_tfield *l = add_field(t.root, RELIC_GFF_FIELD_TYPE_LIST, "T");
    l->v.list.count = 2;
    l->v.list.items = relic_arena_array(&a, 2, sizeof *l->v.list.items, 8);
    l->v.list.items[0] = new_struct(&a, 0xFFFFFFFEu, 1);
    l->v.list.items[1] = new_struct(&a, RELIC_GFF_NONE, 1);
    char *js = print_ok(&t, RELIC_GFF_ENC_CP1252);
    assert_string_equal(js, "{\"__data_type\":\"UTI \",\"S\":{\"__struct_id\":-1,\"type\":\"struct\",\"value\":{}},"
                            "\"T\":{\"type\":\"list\",\"value\":[{\"__struct_id\":-2},{}]}}\n");
    assert_int_equal(read(js, RELIC_GFF_ENC_CP1252, &a, &t2, &err), RELIC_OK);
    assert_int_equal(t2.root->fields[0].v.child->id, RELIC_GFF_NONE);
    assert_int_equal(t2.root->fields[1].v.list.items[0]->id, 0xFFFFFFFEu);
    assert_int_equal(t2.root->fields[1].v.list.items[1]->id, RELIC_GFF_NONE);
    /* unsigned ids written by older relic versions still read */
    assert_int_equal(read("{\"__data_type\":\"UTI \",\"__struct_id\":4294967294}", RELIC_GFF_ENC_CP1252, &a, &t2, &err), RELIC_OK);
    assert_int_equal(t2.root->id, 0xFFFFFFFEu);
    assert_int_equal(read("{\"__data_type\":\"UTI \",\"__struct_id\":-2147483649}", RELIC_GFF_ENC_CP1252, &a, &t2, &err), RELIC_E_RANGE);
    free(js);
    relic_arena_release(&a);
}

/* Strings escaped as Nim's escapeJson: \" \\ \b \t \n \f \r, \u000b,
 * \u0000-\u0007 and upper-case \u000E-\u001F; DEL and '/' as they are. */
static void test_strings_escape_as_nim(void **state)
{
    (void)state;
    relic_arena a;
    relic_gff_tree t, t2;
    relic_error err;
    static const uint8_t s[] = {0x00, 0x01, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x1B, 0x1F, '"', '\\', '/', 0x7F, 'z'};
    relic_arena_init_heap(&a, 0);
    new_tree(&a, &t, 1);
    relic_gff_tfield *f = add_field(t.root, RELIC_GFF_FIELD_TYPE_CEXOSTRING, "S");
    f->v.bytes.p = (uint8_t *)s;
    f->v.bytes.n = sizeof s;
    char *js = print_ok(&t, RELIC_GFF_ENC_CP1252);
    assert_string_equal(js, "{\"__data_type\":\"UTI \",\"S\":{\"type\":\"cexostring\",\"value\":"
                            "\"\\u0000\\u0001\\u0007\\b\\t\\n\\u000b\\f\\r\\u000E\\u001B\\u001F\\\"\\\\/\x7fz\"}}\n");
    assert_int_equal(read(js, RELIC_GFF_ENC_CP1252, &a, &t2, &err), RELIC_OK);
    assert_int_equal(t2.root->fields[0].v.bytes.n, sizeof s);
    assert_memory_equal(t2.root->fields[0].v.bytes.p, s, sizeof s);
    free(js);
    relic_arena_release(&a);
}

/* ---------------------------------------------------------------------- */
/* Locstrings and encodings                                               */
/* ---------------------------------------------------------------------- */

static relic_gff_tfield *add_loc(relic_arena *a, relic_gff_tstruct *s, const char *label, uint32_t strref, int n,
                                 const uint32_t *ids, const char *const *texts)
{
    relic_gff_tfield *f = add_field(s, RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING, label);
    f->v.loc.strref = strref;
    f->v.loc.count = (uint32_t)n;
    f->v.loc.s = relic_arena_array(a, n ? (size_t)n : 1, sizeof *f->v.loc.s, 8);
    for (int i = 0; i < n; i++) {
        f->v.loc.s[i].string_id = ids[i];
        f->v.loc.s[i].text = (uint8_t *)texts[i];
        f->v.loc.s[i].len = strlen(texts[i]);
    }
    return f;
}

/* Every locstring case: none, StrRef only, substrings only, both, keys in
 * decimal-string order ("10" before "2"), file order kept, a repeated
 * StringID refused with the field named. */
static void test_locstring_cases(void **state)
{
    (void)state;
    relic_arena a;
    relic_gff_tree t, t2;
    relic_error err;
    relic_status st;
    relic_buf b1, b2;
    relic_arena_init_heap(&a, 0);
    new_tree(&a, &t, 6);
    static const uint32_t ids_sorted[] = {0, 1}, ids_mixed[] = {2, 10, 0}, ids_dup[] = {4, 4};
    static const char *const two[] = {"Sword", "Epee"}, *const three[] = {"de", "pl", "en"};
    add_loc(&a, t.root, "L0None", RELIC_GFF_NONE, 0, NULL, NULL);
    add_loc(&a, t.root, "L1Ref", 12345, 0, NULL, NULL);
    add_loc(&a, t.root, "L2Text", RELIC_GFF_NONE, 2, ids_sorted, two);
    add_loc(&a, t.root, "L3Both", 7, 2, ids_sorted, two);
    add_loc(&a, t.root, "L4Order", RELIC_GFF_NONE, 3, ids_mixed, three);
    char *js = print_ok(&t, RELIC_GFF_ENC_CP1252);
    assert_non_null(strstr(js, "\"L0None\":{\"type\":\"cexolocstring\",\"value\":{}}"));
    assert_non_null(strstr(js, "\"L1Ref\":{\"type\":\"cexolocstring\",\"value\":{\"id\":12345}}"));
    assert_non_null(strstr(js, "\"L2Text\":{\"type\":\"cexolocstring\",\"value\":{\"0\":\"Sword\",\"1\":\"Epee\"}}"));
    assert_non_null(strstr(js, "\"L3Both\":{\"type\":\"cexolocstring\",\"value\":{\"0\":\"Sword\",\"1\":\"Epee\",\"id\":7}}"));
    assert_non_null(strstr(js, "\"L4Order\":{\"__substring_order\":[2,10,0],\"type\":\"cexolocstring\","
                               "\"value\":{\"0\":\"en\",\"10\":\"pl\",\"2\":\"de\"}}"));
    relic_buf_init(&b1, 0);
    relic_buf_init(&b2, 0);
    assert_int_equal(read(js, RELIC_GFF_ENC_CP1252, &a, &t2, &err), RELIC_OK);
    assert_int_equal(relic_gff_write_tree(&t, RELIC_GFF_LAYOUT_DEFAULT, &a, &b1, NULL, &err), RELIC_OK);
    assert_int_equal(relic_gff_write_tree(&t2, RELIC_GFF_LAYOUT_DEFAULT, &a, &b2, NULL, &err), RELIC_OK);
    assert_int_equal(b1.size, b2.size);
    assert_memory_equal(b1.data, b2.data, b1.size);
    free(js);
    /* nwn_gff's legacy form: "id" beside "value" */
    assert_int_equal(read("{\"__data_type\":\"UTI \",\"N\":{\"id\":9,\"type\":\"cexolocstring\",\"value\":{\"0\":\"x\"}}}",
                          RELIC_GFF_ENC_CP1252, &a, &t2, &err),
                     RELIC_OK);
    assert_int_equal(t2.root->fields[0].v.loc.strref, 9);
    /* a StringID twice: a JSON object cannot hold both */
    relic_gff_tree t3;
    new_tree(&a, &t3, 1);
    static const char *const dup[] = {"a", "b"};
    add_loc(&a, t3.root, "Twice", RELIC_GFF_NONE, 2, ids_dup, dup);
    js = print(&t3, RELIC_GFF_ENC_CP1252, &st, &err);
    assert_int_equal(st, RELIC_E_UNSUPPORTED);
    assert_string_equal(err.path, "Twice");
    free(js);
    relic_buf_free(&b1);
    relic_buf_free(&b2);
    relic_arena_release(&a);
}

/* cp1252 out: every byte to its Unicode character (the five undefined ones
 * to U+0081..U+009D), labels and ResRefs too; and back. */
static void test_cp1252_text_and_labels(void **state)
{
    (void)state;
    relic_arena a;
    relic_gff_tree t, t2;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    new_tree(&a, &t, 3);
    add_text(t.root, RELIC_GFF_FIELD_TYPE_CEXOSTRING, "Caf\xe9", "\x80 \xe9 \x81 \x9f");
    add_text(t.root, RELIC_GFF_FIELD_TYPE_RESREF, "Ref", "a\xe9");
    static const uint32_t id0[] = {0};
    static const char *const txt[] = {"\x93quoted\x94"};
    add_loc(&a, t.root, "Loc", RELIC_GFF_NONE, 1, id0, txt);
    char *js = print_ok(&t, RELIC_GFF_ENC_CP1252);
    assert_non_null(strstr(js, "\"Caf\xc3\xa9\":{\"type\":\"cexostring\",\"value\":\"\xe2\x82\xac \xc3\xa9 \xc2\x81 \xc5\xb8\"}"));
    assert_non_null(strstr(js, "\"Ref\":{\"type\":\"resref\",\"value\":\"a\xc3\xa9\"}"));
    assert_non_null(strstr(js, "\"0\":\"\xe2\x80\x9cquoted\xe2\x80\x9d\""));
    assert_null(strstr(js, "__encoding"));
    assert_int_equal(read(js, RELIC_GFF_ENC_AUTO, &a, &t2, &err), RELIC_OK);
    assert_string_equal(t2.root->fields[0].label, "Caf\xe9");
    assert_memory_equal(t2.root->fields[0].v.bytes.p, "\x80 \xe9 \x81 \x9f", 7);
    assert_memory_equal(t2.root->fields[1].v.bytes.p, "a\xe9", 2);
    assert_memory_equal(t2.root->fields[2].v.loc.s[0].text, "\x93quoted\x94", 8);
    free(js);
    relic_arena_release(&a);
}

/* UTF-8 (NWN2): text copied, "__encoding":"utf-8" recorded so that auto
 * reads it back as UTF-8; ResRefs stay cp1252. */
static void test_utf8_text_round_trips_and_is_recorded(void **state)
{
    (void)state;
    relic_arena a;
    relic_gff_tree t, t2;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    new_tree(&a, &t, 3);
    add_text(t.root, RELIC_GFF_FIELD_TYPE_CEXOSTRING, "Name", "Krogar \xc3\xa9p\xc3\xa9\xe4\xb8\xad");
    static const uint32_t id2[] = {2};
    static const char *const txt[] = {"d\xc3\xa9j\xc3\xa0"};
    add_loc(&a, t.root, "Desc", RELIC_GFF_NONE, 1, id2, txt);
    add_text(t.root, RELIC_GFF_FIELD_TYPE_RESREF, "Ref", "x\xe9");
    char *js = print_ok(&t, RELIC_GFF_ENC_AUTO); /* auto: all text valid UTF-8 with accents */
    assert_non_null(strstr(js, "\"__encoding\":\"utf-8\""));
    assert_non_null(strstr(js, "\"value\":\"Krogar \xc3\xa9p\xc3\xa9\xe4\xb8\xad\""));
    assert_non_null(strstr(js, "\"value\":{\"2\":\"d\xc3\xa9j\xc3\xa0\"}"));
    assert_non_null(strstr(js, "\"value\":\"x\xc3\xa9\""));
    assert_int_equal(read(js, RELIC_GFF_ENC_AUTO, &a, &t2, &err), RELIC_OK);
    assert_int_equal(t2.root->fields[0].v.bytes.n, strlen("Krogar \xc3\xa9p\xc3\xa9\xe4\xb8\xad"));
    assert_memory_equal(t2.root->fields[0].v.bytes.p, "Krogar \xc3\xa9p\xc3\xa9\xe4\xb8\xad", t2.root->fields[0].v.bytes.n);
    assert_memory_equal(t2.root->fields[1].v.loc.s[0].text, "d\xc3\xa9j\xc3\xa0", 6);
    assert_memory_equal(t2.root->fields[2].v.bytes.p, "x\xe9", 2);
    /* an explicit encoding wins over the recorded one */
    assert_int_equal(read(js, RELIC_GFF_ENC_CP1252, &a, &t2, &err), RELIC_E_RANGE);
    assert_non_null(strstr(err.path, "Name"));
    /* an unknown recorded encoding */
    assert_int_equal(read("{\"__data_type\":\"UTI \",\"__encoding\":\"koi8-r\"}", RELIC_GFF_ENC_AUTO, &a, &t2, &err), RELIC_E_RANGE);
    free(js);
    relic_arena_release(&a);
}

/* Auto picks cp1252 when some text is not UTF-8 (NWN1 accents) or all of
 * it is ASCII; relic_gff_detect_encoding says the same. */
static void test_auto_encoding_falls_back_to_cp1252(void **state)
{
    (void)state;
    relic_arena a, sc;
    relic_gff_tree t;
    relic_gff_doc d;
    relic_error err;
    relic_buf b;
    relic_arena_init_heap(&a, 0);
    relic_arena_init_heap(&sc, 0);
    new_tree(&a, &t, 2);
    add_text(t.root, RELIC_GFF_FIELD_TYPE_CEXOSTRING, "A", "caf\xc3\xa9");
    add_text(t.root, RELIC_GFF_FIELD_TYPE_CEXOSTRING, "B", "caf\xe9");
    relic_buf_init(&b, 0);
    assert_int_equal(relic_gff_write_tree(&t, RELIC_GFF_LAYOUT_DEFAULT, &sc, &b, NULL, &err), RELIC_OK);
    assert_int_equal(relic_gff_open(b.data, b.size, &sc, NULL, NULL, &d, &err), RELIC_OK);
    assert_int_equal(relic_gff_detect_encoding(&d), RELIC_GFF_ENC_CP1252);
    char *js = print_ok(&t, RELIC_GFF_ENC_AUTO);
    assert_non_null(strstr(js, "\"value\":\"caf\xc3\x83\xc2\xa9\"")); /* the UTF-8 bytes shown as cp1252 */
    assert_null(strstr(js, "__encoding"));
    free(js);
    t.root->field_count = 0;
    add_text(t.root, RELIC_GFF_FIELD_TYPE_CEXOSTRING, "A", "plain");
    js = print_ok(&t, RELIC_GFF_ENC_AUTO);
    assert_null(strstr(js, "__encoding"));
    free(js);
    relic_buf_free(&b);
    relic_arena_release(&sc);
    relic_arena_release(&a);
}

/* Invalid UTF-8 in (printing as UTF-8): RELIC_E_SYNTAX naming the field by
 * its label path and the byte's file offset; in a locstring substring too. */
static void test_invalid_utf8_names_the_field(void **state)
{
    (void)state;
    relic_arena a;
    relic_gff_tree t;
    relic_error err;
    relic_status st;
    relic_arena_init_heap(&a, 0);
    new_tree(&a, &t, 1);
    relic_gff_tfield *l = add_field(t.root, RELIC_GFF_FIELD_TYPE_LIST, "Creature List");
    l->v.list.count = 2;
    l->v.list.items = relic_arena_array(&a, 2, sizeof *l->v.list.items, 8);
    l->v.list.items[0] = new_struct(&a, 0, 1);
    add_text(l->v.list.items[0], RELIC_GFF_FIELD_TYPE_CEXOSTRING, "Tag", "ok");
    l->v.list.items[1] = new_struct(&a, 0, 2);
    add_text(l->v.list.items[1], RELIC_GFF_FIELD_TYPE_CEXOSTRING, "Tag", "bad \xe9 byte");
    char *js = print(&t, RELIC_GFF_ENC_UTF8, &st, &err);
    assert_int_equal(st, RELIC_E_SYNTAX);
    assert_string_equal(err.path, "Creature List/1/Tag");
    assert_true(err.offset > 0);
    assert_non_null(strstr(err.message, "UTF-8"));
    free(js);
    l->v.list.items[1]->field_count = 0;
    static const uint32_t id0[] = {0};
    static const char *const bad[] = {"\xc3("};
    add_loc(&a, l->v.list.items[1], "FirstName", RELIC_GFF_NONE, 1, id0, bad);
    js = print(&t, RELIC_GFF_ENC_UTF8, &st, &err);
    assert_int_equal(st, RELIC_E_SYNTAX);
    assert_string_equal(err.path, "Creature List/1/FirstName");
    free(js);
    relic_arena_release(&a);
}

/* Characters cp1252 cannot hold, in text, a locstring or a label: the
 * error names the JSON path; invalid JSON is a syntax error with its byte. */
static void test_unrepresentable_characters_name_the_field(void **state)
{
    (void)state;
    relic_arena a;
    relic_gff_tree t;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(read("{\"__data_type\":\"UTI \",\"L\":{\"type\":\"list\",\"value\":[{\"S\":{\"type\":\"cexostring\","
                          "\"value\":\"\xe4\xb8\xad\"}}]}}",
                          RELIC_GFF_ENC_CP1252, &a, &t, &err),
                     RELIC_E_RANGE);
    assert_string_equal(err.path, "L.value[0].S.value");
    assert_non_null(strstr(err.message, "U+4E2D"));
    assert_int_equal(read("{\"__data_type\":\"UTI \",\"N\":{\"type\":\"cexolocstring\",\"value\":{\"4\":\"\xe2\x86\x92\"}}}",
                          RELIC_GFF_ENC_CP1252, &a, &t, &err),
                     RELIC_E_RANGE);
    assert_string_equal(err.path, "N.value.4");
    assert_int_equal(read("{\"__data_type\":\"UTI \",\"\xe4\xb8\xad\":{\"type\":\"byte\",\"value\":1}}",
                          RELIC_GFF_ENC_UTF8, &a, &t, &err),
                     RELIC_E_RANGE);
    assert_int_equal(read("{\"__data_type\":\"UTI \",\"B\":{\"type\":\"byte\",\"value\":1}", RELIC_GFF_ENC_CP1252, &a, &t, &err),
                     RELIC_E_SYNTAX);
    assert_int_equal(read("{\"__data_type\":\"UTI \",\"B\":{\"type\":\"byte\",\"value\":1.5}}", RELIC_GFF_ENC_CP1252, &a, &t, &err),
                     RELIC_E_RANGE);
    assert_string_equal(err.path, "B.value");
    /* invalid UTF-8 in the JSON text itself */
    assert_int_equal(read("{\"__data_type\":\"UTI \",\"S\":{\"type\":\"cexostring\",\"value\":\"\xff\"}}", RELIC_GFF_ENC_UTF8, &a, &t, &err),
                     RELIC_E_SYNTAX);
    relic_arena_release(&a);
}

/* ---------------------------------------------------------------------- */
/* Real files                                                             */
/* ---------------------------------------------------------------------- */

static int nim_cmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int ca = (unsigned char)*a, cb = (unsigned char)*b;
        if (ca >= 'A' && ca <= 'Z') ca += 32;
        if (cb >= 'A' && cb <= 'Z') cb += 32;
        if (ca != cb || ca == 0) return ca - cb;
    }
}

typedef struct rules {
    int objects, fields, floats, voids, locs, structs;
} rules;

/* The §4.7 rules on a parsed document: keys in order, field objects with a
 * known type and its value form, struct ids int32, locstring keys. */
static void check_struct_rules(const relic_jv *o, rules *r);

/* A key or string of the document as a C string (keys and texts there are
 * not NUL-terminated). */
static const char *cstr_of(const char *p, uint32_t n, char *buf, size_t cap)
{
    assert_true(n < cap);
    memcpy(buf, p, n);
    buf[n] = 0;
    return buf;
}

static int64_t int_of(const relic_jv *v)
{
    assert_true(relic_jv_is(v, RELIC_JV_NUMBER) && v->is_int);
    char b[32];
    return strtoll(cstr_of(v->u.s, v->len, b, sizeof b), NULL, 10);
}

static void check_field_rules(const char *key, const relic_jv *fo, rules *r)
{
    const relic_jv *jt, *jv;
    char b[256];
    r->fields++;
    assert_true(relic_jv_is(fo, RELIC_JV_OBJECT));
    assert_non_null(jt = relic_jv_get(fo, "type"));
    assert_true(relic_jv_is(jt, RELIC_JV_STRING));
    uint32_t type;
    assert_true(relic_gff_type_from_name(cstr_of(jt->u.s, jt->len, b, sizeof b), &type));
    if (type == RELIC_GFF_FIELD_TYPE_VOID) {
        assert_non_null(relic_jv_get(fo, "value64"));
        r->voids++;
        return;
    }
    assert_non_null(jv = relic_jv_get(fo, "value"));
    switch (type) {
    case RELIC_GFF_FIELD_TYPE_FLOAT:
    case RELIC_GFF_FIELD_TYPE_DOUBLE:
        if (relic_jv_is(jv, RELIC_JV_STRING)) break; /* non-finite bits */
        {
            /* the text is Nim's for the value: the document keeps a number's source text */
            assert_true(relic_jv_is(jv, RELIC_JV_NUMBER) && !jv->is_int);
            const char *text = cstr_of(jv->u.s, jv->len, b, sizeof b);
            char want[32];
            double v = strtod(text, NULL);
            relic_gff_format_double(type == RELIC_GFF_FIELD_TYPE_FLOAT ? (double)(float)v : v, want);
            if (strcmp(text, want) != 0) print_message("%s: %s, Nim prints %s\n", key, text, want);
            assert_string_equal(text, want);
            r->floats++;
        }
        break;
    case RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING: {
        char prev[256] = "", k[256];
        r->locs++;
        assert_true(relic_jv_is(jv, RELIC_JV_OBJECT));
        for (uint32_t i = 0; i < jv->len; i++) {
            const relic_jv *v = jv->u.items[i];
            cstr_of(v->key, v->klen, k, sizeof k);
            if (strcmp(k, "id") != 0) {
                for (const char *p = k; *p; p++) assert_true(*p >= '0' && *p <= '9');
                assert_true(relic_jv_is(v, RELIC_JV_STRING));
            } else {
                assert_true(int_of(v) != 0xFFFFFFFFll);
            }
            if (i) assert_true(nim_cmp(prev, k) < 0);
            memcpy(prev, k, sizeof prev);
        }
        break;
    }
    case RELIC_GFF_FIELD_TYPE_STRUCT: {
        const relic_jv *sid;
        assert_non_null(sid = relic_jv_get(fo, "__struct_id"));
        int64_t id = int_of(sid);
        assert_true(id >= INT32_MIN && id <= INT32_MAX);
        r->structs++;
        check_struct_rules(jv, r);
        break;
    }
    case RELIC_GFF_FIELD_TYPE_LIST:
        assert_true(relic_jv_is(jv, RELIC_JV_ARRAY));
        for (size_t i = 0; i < jv->len; i++) check_struct_rules(relic_jv_at(jv, i), r);
        break;
    default:
        break;
    }
}

static void check_struct_rules(const relic_jv *o, rules *r)
{
    char prev[256] = "", key[256];
    r->objects++;
    assert_true(relic_jv_is(o, RELIC_JV_OBJECT));
    for (uint32_t i = 0; i < o->len; i++) {
        const relic_jv *val = o->u.items[i];
        cstr_of(val->key, val->klen, key, sizeof key);
        if (i) assert_true(nim_cmp(prev, key) <= 0);
        memcpy(prev, key, sizeof prev);
        if (strcmp(key, "__struct_id") == 0) {
            int64_t id = int_of(val);
            assert_true(id >= INT32_MIN && id <= INT32_MAX && id != -1);
        } else if (strncmp(key, "__", 2) != 0 || strncmp(key, "__dup", 5) == 0) {
            check_field_rules(key, val, r);
        }
    }
}

static void test_corpus_json_follows_nwn_gff_and_round_trips(void **state)
{
    (void)state;
    DIR *dir = opendir(CORPUS_DIR);
    if (!dir) {
        print_message("note: %s not found: the real-file part of this test is skipped\n", CORPUS_DIR);
        return;
    }
    struct dirent *e;
    int files = 0, default_layout = 0, own_order = 0, utf8 = 0;
    rules r = {0};
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.' || strstr(e->d_name, CORRUPTED) || strcmp(e->d_name, "README.md") == 0) continue;
        char path[1024];
        relic_mapping mp;
        relic_error err;
        relic_arena a;
        relic_gff_doc d, d2;
        relic_gff_tree t, t2;
        relic_buf js, js2, bin, again;
        snprintf(path, sizeof path, "%s/%s", CORPUS_DIR, e->d_name);
        assert_int_equal(relic_map_file(path, 0, &mp, &err), RELIC_OK);
        relic_arena_init_heap(&a, 0);
        relic_buf_init(&js, 0);
        relic_buf_init(&js2, 0);
        relic_buf_init(&bin, 0);
        relic_buf_init(&again, 0);
        assert_int_equal(relic_gff_open(mp.bytes.data, mp.bytes.size, &a, NULL, NULL, &d, &err), RELIC_OK);
        relic_status st = relic_gff_json_print_doc(&d, RELIC_GFF_ENC_AUTO, &js, &err);
        if (st != RELIC_OK) print_message("%s: %s: %s\n", path, err.path, err.message);
        assert_int_equal(st, RELIC_OK);
        utf8 += relic_gff_detect_encoding(&d) == RELIC_GFF_ENC_UTF8;
        /* the rules, on the parsed text */
        const relic_jv *doc, *dt;
        assert_int_equal(relic_jr_parse((const char *)js.data, js.size, &a, &doc, &err), RELIC_OK);
        assert_non_null(dt = relic_jv_get(doc, "__data_type"));
        assert_int_equal(dt->len, 4);
        assert_memory_equal(dt->u.s, relic_gff_file_type(&d), 4);
        assert_int_equal(js.data[js.size - 1], '\n');
        check_struct_rules(doc, &r);
        /* JSON -> GFF: the original bytes when the file is in its family's layout */
        assert_int_equal(relic_gff_tree_from_doc(&d, &a, &t, &err), RELIC_OK);
        assert_int_equal(relic_gff_write_tree(&t, t.family, &a, &bin, NULL, &err), RELIC_OK);
        int is_default = bin.size == mp.bytes.size && memcmp(bin.data, mp.bytes.data, bin.size) == 0;
        st = relic_gff_json_read_tree((const char *)js.data, js.size, RELIC_GFF_ENC_AUTO, &a, &t2, &err);
        if (st != RELIC_OK) print_message("%s: %s: %s\n", path, err.path, err.message);
        assert_int_equal(st, RELIC_OK);
        assert_int_equal(t2.family, t.family); /* carried by "__layout" */
        assert_int_equal(relic_gff_write_tree(&t2, t2.family, &a, &again, NULL, &err), RELIC_OK);
        int ordered = relic_gff_order_used(t2.order);
        if (ordered) {
            /* records in the file's own order ("__layout" object): its bytes */
            assert_false(is_default);
            assert_int_equal(again.size, mp.bytes.size);
            assert_memory_equal(again.data, mp.bytes.data, mp.bytes.size);
            own_order++;
        } else {
            assert_int_equal(again.size, bin.size);
            assert_memory_equal(again.data, bin.data, bin.size);
        }
        if (is_default) {
            assert_int_equal(again.size, mp.bytes.size);
            assert_memory_equal(again.data, mp.bytes.data, mp.bytes.size);
            default_layout++;
        }
        /* GFF -> JSON again: the same text */
        assert_int_equal(relic_gff_open(again.data, again.size, &a, NULL, NULL, &d2, &err), RELIC_OK);
        assert_int_equal(relic_gff_json_print_doc(&d2, RELIC_GFF_ENC_AUTO, &js2, &err), RELIC_OK);
        assert_int_equal(js2.size, js.size);
        assert_memory_equal(js2.data, js.data, js.size);
        /* the tree printer says the same */
        relic_buf_free(&js2);
        relic_buf_init(&js2, 0);
        assert_int_equal(relic_gff_json_print_tree(ordered ? &t2 : &t, RELIC_GFF_ENC_AUTO, &js2, &err), RELIC_OK);
        assert_int_equal(js2.size, js.size);
        assert_memory_equal(js2.data, js.data, js.size);
        files++;
        relic_buf_free(&js);
        relic_buf_free(&js2);
        relic_buf_free(&bin);
        relic_buf_free(&again);
        relic_arena_release(&a);
        relic_unmap(&mp);
    }
    closedir(dir);
    print_message("%d real files: nwn_gff rules hold (%d objects, %d fields, %d floats as Nim prints them, %d locstrings, "
                  "%d voids, %d struct fields); %d in UTF-8; GFF -> JSON -> GFF byte-identical for all %d in their family's "
                  "layout and all %d in their own record order (\"__layout\" object); JSON -> GFF -> JSON identical "
                  "for all\n",
                  files, r.objects, r.fields, r.floats, r.locs, r.voids, r.structs, utf8, default_layout, own_order);
    assert_true(files == 0 || (default_layout > 0 && r.floats > 0));
}

/* The NWN2 character krogar.bic stores French text as UTF-8 (xoreos-tools, src/aurora/language.cpp; neverwinter.nim, util.nim):
 * auto reads it as UTF-8 ("é" once, not "Ã©"). */
static void test_nwn2_file_is_read_as_utf8(void **state)
{
    (void)state;
    const char *path = CORPUS_DIR "/CromFr__nwn-lib-d__unittest__krogar.bic";
    relic_mapping mp;
    relic_error err;
    relic_arena a;
    relic_gff_doc d;
    relic_buf js;
    if (relic_map_file(path, 0, &mp, &err) != RELIC_OK) {
        print_message("note: %s absent: skipped\n", path);
        return;
    }
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&js, 0);
    assert_int_equal(relic_gff_open(mp.bytes.data, mp.bytes.size, &a, NULL, NULL, &d, &err), RELIC_OK);
    assert_int_equal(relic_gff_detect_encoding(&d), RELIC_GFF_ENC_UTF8);
    assert_int_equal(relic_gff_json_print_doc(&d, RELIC_GFF_ENC_AUTO, &js, &err), RELIC_OK);
    relic_buf_append(&js, "", 1);
    assert_non_null(strstr((const char *)js.data, "\"__encoding\":\"utf-8\""));
    assert_non_null(strstr((const char *)js.data, "\xc3\xa9"));
    assert_null(strstr((const char *)js.data, "\xc3\x83\xc2\xa9"));
    relic_buf_free(&js);
    relic_arena_release(&a);
    relic_unmap(&mp);
}

/* ---------------------------------------------------------------------- */
/* Record order ("__layout" object)                                        */
/* ---------------------------------------------------------------------- */

/* A GFF put together by hand, every array in an order no family writes (as
 * a tool that appends what it adds leaves a file): the root's "List" of two
 * structs (ids 1, 2: "Tag" string, "Val" int) and "Name". BioWare's order
 * would be structs root, E1, E2; fields List, Tag1, Val1, Tag2, Val2, Name;
 * labels List, Tag, Val, Name; data Tag1, Tag2, Name; blocks root, E1, E2.
 * Here: structs root, E2, E1; fields Name, List, Tag2, Val2, Tag1, Val1;
 * labels Val, Tag, Name, List; data Name, Tag1, Tag2; blocks root (first,
 * as BioWare's writers reserve it), E2, E1. */
static size_t odd_order_gff(uint8_t *out)
{
    static const uint32_t structs[] = {0xFFFFFFFFu, 0, 2, /* E2 */ 2, 8, 2, /* E1 */ 1, 16, 2};
    /* clang-format off */
    static const uint32_t fields[] = {
        RELIC_GFF_FIELD_TYPE_CEXOSTRING, 2, 0,  /* Name "root" */
        RELIC_GFF_FIELD_TYPE_LIST, 3, 0,        /* List */
        RELIC_GFF_FIELD_TYPE_CEXOSTRING, 1, 17, /* E2 Tag "second" */
        RELIC_GFF_FIELD_TYPE_INT, 0, 9,         /* E2 Val */
        RELIC_GFF_FIELD_TYPE_CEXOSTRING, 1, 8,  /* E1 Tag "first" */
        RELIC_GFF_FIELD_TYPE_INT, 0, 7,         /* E1 Val */
    };
    /* clang-format on */
    static const char labels[4][16] = {"Val", "Tag", "Name", "List"};
    static const uint8_t data[] = "\4\0\0\0root"
                                  "\5\0\0\0first"
                                  "\6\0\0\0second";
    static const uint32_t fi[] = {/* root: List, Name */ 1, 0, /* E2 */ 2, 3, /* E1 */ 4, 5};
    static const uint32_t li[] = {2, 2, 1}; /* E1 is struct 2, E2 struct 1 */
    const struct {
        const void *p;
        size_t n, count;
    } arr[6] = {
        {structs, sizeof structs, 3},
        {fields, sizeof fields, 6},
        {labels, sizeof labels, 4},
        {data, sizeof data - 1, sizeof data - 1},
        {fi, sizeof fi, sizeof fi},
        {li, sizeof li, sizeof li},
    };
    size_t pos = 56;
    memcpy(out, "UTI V3.2", 8);
    for (int k = 0; k < 6; k++) {
        const uint32_t *w = arr[k].p;
        relic_store_u32le(out + 8 + 8 * k, (uint32_t)pos);
        relic_store_u32le(out + 12 + 8 * k, (uint32_t)arr[k].count);
        if (k == 2 || k == 3) memcpy(out + pos, arr[k].p, arr[k].n); /* bytes as they are */
        else
            for (size_t i = 0; i < arr[k].n / 4; i++) relic_store_u32le(out + pos + 4 * i, w[i]);
        pos += arr[k].n;
    }
    return pos;
}

/* The JSON of bytes (NUL-terminated, caller frees). */
static char *print_bytes(const uint8_t *p, size_t n, relic_arena *a)
{
    relic_gff_doc d;
    relic_error err;
    relic_buf b;
    relic_buf_init(&b, 0);
    assert_int_equal(relic_gff_open(p, n, a, NULL, NULL, &d, &err), RELIC_OK);
    assert_int_equal(relic_gff_json_print_doc(&d, RELIC_GFF_ENC_AUTO, &b, &err), RELIC_OK);
    relic_buf_append(&b, "", 1);
    return (char *)b.data;
}

static void test_odd_record_order_round_trips_through_layout(void **state)
{
    (void)state;
    uint8_t file[512];
    size_t n = odd_order_gff(file);
    relic_arena a;
    relic_gff_tree t;
    relic_gff_doc d;
    relic_error err;
    relic_buf plain, back;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&plain, 0);
    relic_buf_init(&back, 0);
    /* a valid file, in no family's order: every kind differs from bioware's */
    assert_int_equal(relic_gff_open(file, n, &a, NULL, NULL, &d, &err), RELIC_OK);
    assert_int_equal(relic_gff_detect_family(&d), RELIC_GFF_LAYOUT_DEFAULT);
    relic_gff_order o;
    assert_int_equal(relic_gff_order_of(&d, RELIC_GFF_LAYOUT_DEFAULT, &a, &o, &err), RELIC_OK);
    for (int k = 0; k < RELIC_GFF_ORDER_KINDS; k++)
        if (k != RELIC_GFF_ORDER_LIST_INDICES) assert_true(o.nruns[k] > 0); /* one list: one order */
    char *js = print_bytes(file, n, &a);
    assert_non_null(strstr(js, "\"__layout\":{\"family\":\"bioware\",\"structs\":[0,1,2,1,1,1],"
                               "\"fields\":[5,1,0,1,3,2,1,2],\"labels\":[2,1,1,1,3,1,0,1],"
                               "\"field_data\":[2,1,0,2],\"field_indices\":[0,1,2,1,1,1]}"));
    /* JSON -> GFF: the very bytes */
    assert_int_equal(read(js, RELIC_GFF_ENC_AUTO, &a, &t, &err), RELIC_OK);
    assert_true(relic_gff_order_used(t.order));
    assert_int_equal(relic_gff_write_tree(&t, t.family, &a, &back, NULL, &err), RELIC_OK);
    assert_int_equal(back.size, n);
    assert_memory_equal(back.data, file, n);
    /* without the record: the same content in bioware's order, a JSON without "__layout" */
    t.order = NULL;
    assert_int_equal(relic_gff_write_tree(&t, t.family, &a, &plain, NULL, &err), RELIC_OK);
    assert_int_equal(plain.size, n);
    assert_memory_not_equal(plain.data, file, n);
    char *js2 = print_bytes(plain.data, plain.size, &a);
    assert_null(strstr(js2, "__layout"));
    const char *lay = strstr(js, "\"__layout\""), *end = strstr(lay, "},") + 2;
    assert_int_equal(strlen(js2), strlen(js) - (size_t)(end - lay));
    assert_memory_equal(js2, js, (size_t)(lay - js));
    assert_string_equal(js2 + (lay - js), end);
    free(js);
    free(js2);
    relic_buf_free(&plain);
    relic_buf_free(&back);
    relic_arena_release(&a);
}

/* A hostile order record: each error names the member, never a crash. */
static void test_malformed_order_record_is_rejected_with_its_path(void **state)
{
    (void)state;
    static const struct {
        const char *layout;
        relic_status code;
        const char *path;
    } cases[] = {
        {"{\"family\":\"bioware\",\"structs\":[0,2,1,1]}", RELIC_E_ARGUMENT, "__layout.structs"}, /* 1 twice */
        {"{\"family\":\"bioware\",\"structs\":[0,2]}", RELIC_E_ARGUMENT, "__layout.structs"},     /* too few */
        {"{\"family\":\"bioware\",\"structs\":[1,2,0,1]}", RELIC_E_ARGUMENT, "__layout.structs"}, /* root moved */
        {"{\"family\":\"bioware\",\"fields\":[0,5,9,1]}", RELIC_E_ARGUMENT, "__layout.fields"},   /* beyond */
        {"{\"family\":\"bioware\",\"field_data\":[0,4294967295]}", RELIC_E_ARGUMENT, "__layout.field_data"},
        {"{\"family\":\"bioware\",\"list_indices\":[4294967295,2]}", RELIC_E_ARGUMENT, "__layout.list_indices"},
        {"{\"family\":\"bioware\",\"labels\":[0,\"x\"]}", RELIC_E_ARGUMENT, "__layout.labels[1]"},
        {"{\"family\":\"bioware\",\"labels\":[-1,4]}", RELIC_E_RANGE, "__layout.labels[0]"},
        {"{\"family\":\"bioware\",\"labels\":[0,4294967296]}", RELIC_E_RANGE, "__layout.labels[1]"},
        {"{\"family\":\"bioware\",\"labels\":[0,1,2]}", RELIC_E_ARGUMENT, "__layout.labels"},
        {"{\"family\":\"bioware\",\"labels\":[]}", RELIC_E_ARGUMENT, "__layout.labels"},
        {"{\"family\":\"bioware\",\"labels\":{}}", RELIC_E_ARGUMENT, "__layout.labels"},
        {"{\"family\":\"bioware\",\"order\":[0,4]}", RELIC_E_ARGUMENT, "__layout.order"},
        {"{\"structs\":[0,3]}", RELIC_E_ARGUMENT, "__layout"},
        {"{\"family\":\"pykotor\"}", RELIC_E_RANGE, "__layout.family"},
        {"[0,3]", RELIC_E_RANGE, "__layout"},
    };
    uint8_t file[512];
    size_t n = odd_order_gff(file);
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    char *js = print_bytes(file, n, &a);
    const char *lay = strstr(js, "\"__layout\":") + 11, *end = strstr(lay, "},") + 1;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char bad[4096];
        relic_gff_tree t;
        relic_error err;
        memset(&err, 0, sizeof err);
        snprintf(bad, sizeof bad, "%.*s%s%s", (int)(lay - js), js, cases[i].layout, end);
        relic_status st = read(bad, RELIC_GFF_ENC_AUTO, &a, &t, &err);
        if (st != cases[i].code || strcmp(err.path, cases[i].path) != 0)
            print_message("case %zu: %d at \"%s\": %s\n", i, (int)st, err.path, err.message);
        assert_int_equal(st, cases[i].code);
        assert_string_equal(err.path, cases[i].path);
    }
    free(js);
    relic_arena_release(&a);
}

/* Hostile JSON: deep nesting is refused, not a stack overflow. */
static void test_deep_json_is_refused(void **state)
{
    (void)state;
    relic_arena a;
    relic_gff_tree t;
    relic_error err;
    size_t n = 100000;
    char *js = malloc(2 * n + 64);
    strcpy(js, "{\"__data_type\":\"UTI \",\"X\":");
    size_t k = strlen(js);
    for (size_t i = 0; i < n; i++) js[k++] = '[';
    for (size_t i = 0; i < n; i++) js[k++] = ']';
    js[k++] = '}';
    js[k] = 0;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_gff_json_read_tree(js, k, RELIC_GFF_ENC_CP1252, &a, &t, &err), RELIC_E_LIMIT);
    free(js);
    relic_arena_release(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_floats_print_as_nim_prints_f64),
        cmocka_unit_test(test_float_text_is_shortest_and_exact),
        cmocka_unit_test(test_keys_sort_case_insensitively_and_stably),
        cmocka_unit_test(test_type_names_and_value_forms),
        cmocka_unit_test(test_struct_ids_print_as_int32),
        cmocka_unit_test(test_strings_escape_as_nim),
        cmocka_unit_test(test_locstring_cases),
        cmocka_unit_test(test_cp1252_text_and_labels),
        cmocka_unit_test(test_utf8_text_round_trips_and_is_recorded),
        cmocka_unit_test(test_auto_encoding_falls_back_to_cp1252),
        cmocka_unit_test(test_invalid_utf8_names_the_field),
        cmocka_unit_test(test_unrepresentable_characters_name_the_field),
        cmocka_unit_test(test_corpus_json_follows_nwn_gff_and_round_trips),
        cmocka_unit_test(test_nwn2_file_is_read_as_utf8),
        cmocka_unit_test(test_deep_json_is_refused),
        cmocka_unit_test(test_odd_record_order_round_trips_through_layout),
        cmocka_unit_test(test_malformed_order_record_is_rejected_with_its_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
