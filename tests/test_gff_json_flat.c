/* test_gff_json_flat.c — relic_gff_json_to_gff (runtime/json/gff_json_flat.c,
 * the flat writer of runtime/formats/aurora/gff_write.c) against
 * relic_gff_json_read_tree + relic_gff_write_tree(t, t->family), the path it
 * stands for: the same bytes for every field type, text encoding and layout
 * family, for values that span its 1 MiB blocks, for the shapes it leaves
 * to the tree (a legacy locstring "id", "value" before "type") or takes
 * itself ("__substring_order", "__dupN__" keys in a "__field_order", a
 * "__layout" object), and for every corpus file
 * (../shared/corpus/gff, skipped when absent); the same error (status,
 * message, path, offset) for bad input; no heap call with an arena over
 * caller memory. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gff_json_flat.h"
#include "test_pass.h"
#include "heap_guard.h"
#include "relic_gff.h"

#define CORPUS_DIR "../shared/corpus/gff"

/* ---------------------------------------------------------------------- */
/* Helpers                                                                */
/* ---------------------------------------------------------------------- */

static relic_gff_tfield *add(relic_arena *a, relic_gff_tstruct *s, uint32_t type, const char *label)
{
    relic_gff_tfield *f = &s->fields[s->field_count++];
    memset(f, 0, sizeof *f);
    f->type = type;
    strcpy(f->label, label);
    f->src_index = f->src_label = f->src_data = RELIC_GFF_NONE;
    (void)a;
    return f;
}

static relic_gff_tstruct *new_struct(relic_arena *a, uint32_t id, uint32_t cap)
{
    relic_gff_tstruct *s = relic_arena_alloc(a, sizeof *s, 8);
    s->id = id;
    s->field_count = 0;
    s->fields = relic_arena_array(a, cap ? cap : 1, sizeof *s->fields, 8);
    s->src_index = s->src_data = RELIC_GFF_NONE;
    return s;
}

static uint8_t *text(relic_arena *a, const char *s)
{
    size_t n = strlen(s);
    uint8_t *p = relic_arena_alloc(a, n ? n : 1, 1);
    memcpy(p, s, n);
    return p;
}

/* A tree with every field type, fields out of key order (so the JSON has
 * "__field_order"), a nested struct, a list, an empty struct and list,
 * non-ASCII text, and a locstring of two substrings. */
static void every_type_tree(relic_arena *a, relic_gff_tree *t)
{
    memset(t, 0, sizeof *t);
    memcpy(t->file_type, "UTC ", 4);
    relic_gff_tstruct *root = new_struct(a, RELIC_GFF_NONE, 24);
    add(a, root, RELIC_GFF_FIELD_TYPE_WORD, "Zeta")->v.u = 65535;
    add(a, root, RELIC_GFF_FIELD_TYPE_BYTE, "Byte")->v.u = 200;
    add(a, root, RELIC_GFF_FIELD_TYPE_CHAR, "Char")->v.i = -100;
    add(a, root, RELIC_GFF_FIELD_TYPE_SHORT, "Short")->v.i = -30000;
    add(a, root, RELIC_GFF_FIELD_TYPE_DWORD, "Dword")->v.u = 0xFFFFFFFFu;
    add(a, root, RELIC_GFF_FIELD_TYPE_INT, "Int")->v.i = INT32_MIN;
    add(a, root, RELIC_GFF_FIELD_TYPE_DWORD64, "Dword64")->v.u = UINT64_MAX;
    add(a, root, RELIC_GFF_FIELD_TYPE_INT64, "Int64")->v.i = INT64_MIN;
    add(a, root, RELIC_GFF_FIELD_TYPE_FLOAT, "Float")->v.f32 = 0.1f;
    add(a, root, RELIC_GFF_FIELD_TYPE_DOUBLE, "Double")->v.f64 = -1e300;
    relic_gff_tfield *f = add(a, root, RELIC_GFF_FIELD_TYPE_CEXOSTRING, "Text");
    f->v.bytes.p = text(a, "caf\xe9 \"quoted\"\n");
    f->v.bytes.n = strlen((const char *)f->v.bytes.p);
    f = add(a, root, RELIC_GFF_FIELD_TYPE_RESREF, "ResRef");
    f->v.bytes.p = text(a, "nw_it_gold001");
    f->v.bytes.n = 13;
    f = add(a, root, RELIC_GFF_FIELD_TYPE_VOID, "Void");
    f->v.bytes.p = text(a, "\x01\x02\x03\x00\xff");
    f->v.bytes.n = 5;
    f = add(a, root, RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING, "Loc");
    f->v.loc.strref = 12345;
    f->v.loc.count = 2;
    f->v.loc.s = relic_arena_array(a, 2, sizeof *f->v.loc.s, 8);
    f->v.loc.s[0] = (relic_gff_tsubstring){0, text(a, "Hello"), 5};
    f->v.loc.s[1] = (relic_gff_tsubstring){3, text(a, "Bonjour \xe0 vous"), 14};
    f = add(a, root, RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING, "NoText");
    f->v.loc.strref = RELIC_GFF_NONE;
    f->v.loc.s = relic_arena_array(a, 1, sizeof *f->v.loc.s, 8);
    f = add(a, root, RELIC_GFF_FIELD_TYPE_ORIENTATION, "Orient");
    for (int i = 0; i < 4; i++) f->v.vec[i] = 0.5f * (float)i - 1.0f;
    f = add(a, root, RELIC_GFF_FIELD_TYPE_VECTOR, "Vector");
    for (int i = 0; i < 3; i++) f->v.vec[i] = 100.25f * (float)i;
    relic_gff_tstruct *child = new_struct(a, 7, 2);
    add(a, child, RELIC_GFF_FIELD_TYPE_INT, "Inner")->v.i = 42;
    add(a, child, RELIC_GFF_FIELD_TYPE_BYTE, "Alpha")->v.u = 1;
    add(a, root, RELIC_GFF_FIELD_TYPE_STRUCT, "Child")->v.child = child;
    add(a, root, RELIC_GFF_FIELD_TYPE_STRUCT, "Empty")->v.child = new_struct(a, 0, 0);
    f = add(a, root, RELIC_GFF_FIELD_TYPE_LIST, "List");
    f->v.list.count = 3;
    f->v.list.items = relic_arena_array(a, 3, sizeof *f->v.list.items, 8);
    for (uint32_t i = 0; i < 3; i++) {
        relic_gff_tstruct *item = new_struct(a, i, 3);
        add(a, item, RELIC_GFF_FIELD_TYPE_DWORD, "Index")->v.u = i;
        if (i == 1) {
            /* a list inside a list item, and a struct of one field */
            relic_gff_tfield *l = add(a, item, RELIC_GFF_FIELD_TYPE_LIST, "Sub");
            l->v.list.count = 1;
            l->v.list.items = relic_arena_array(a, 1, sizeof *l->v.list.items, 8);
            l->v.list.items[0] = new_struct(a, 9, 1);
            add(a, l->v.list.items[0], RELIC_GFF_FIELD_TYPE_SHORT, "Deep")->v.i = -1;
        }
        f->v.list.items[i] = item;
    }
    f = add(a, root, RELIC_GFF_FIELD_TYPE_LIST, "NoItems");
    f->v.list.items = relic_arena_array(a, 1, sizeof *f->v.list.items, 8);
    t->root = root;
}

/* The JSON of a tree, in a (compact, as relic prints it). */
static relic_buf print_tree(const relic_gff_tree *t, relic_gff_encoding enc, relic_arena *a)
{
    relic_buf b;
    relic_error err;
    relic_buf_init_arena(&b, a, 0);
    assert_int_equal(relic_gff_json_print_tree_in(t, enc, &b, a, &err), RELIC_OK);
    return b;
}

/* What the tree path gives: status, bytes, error. */
static relic_status tree_path(const char *json, size_t n, relic_gff_encoding enc, relic_arena *a, relic_buf *out,
                              relic_error *err)
{
    relic_gff_tree t;
    relic_status st = relic_gff_json_read_tree(json, n, enc, a, &t, err);
    return st != RELIC_OK ? st : relic_gff_write_tree(&t, t.family, a, out, NULL, err);
}

/* relic_gff_json_to_gff gives what the tree path gives: the same status and
 * bytes, or the same error. Returns the status. */
static relic_status same_as_tree(const char *json, size_t n, relic_gff_encoding enc)
{
    relic_arena a1, a2;
    relic_buf o1, o2;
    relic_error e1, e2;
    relic_arena_init_heap(&a1, 0);
    relic_arena_init_heap(&a2, 0);
    relic_buf_init_arena(&o1, &a1, 0);
    relic_buf_init_arena(&o2, &a2, 0);
    relic_status s1 = relic_gff_json_to_gff(json, n, enc, &a1, &o1, &e1);
    relic_status s2 = tree_path(json, n, enc, &a2, &o2, &e2);
    assert_int_equal(s1, s2);
    if (s1 == RELIC_OK) {
        assert_int_equal(o1.size, o2.size);
        assert_memory_equal(o1.data, o2.data, o1.size);
    } else {
        assert_string_equal(e1.message, e2.message);
        assert_string_equal(e1.path, e2.path);
        assert_int_equal(e1.offset, e2.offset);
    }
    relic_arena_release(&a1);
    relic_arena_release(&a2);
    return s1;
}

static relic_status same_as_tree_str(const char *json) { return same_as_tree(json, strlen(json), RELIC_GFF_ENC_AUTO); }

/* 1 when the fast path alone converts json (no tree behind it). */
static int fast(const char *json, size_t n, relic_gff_encoding enc)
{
    relic_arena a;
    relic_buf o;
    relic_arena_init_heap(&a, 0);
    relic_buf_init_arena(&o, &a, 0);
    int ok = relic_gff_json_to_gff_flat(json, n, enc, &a, &o);
    relic_arena_release(&a);
    return ok;
}

/* ---------------------------------------------------------------------- */
/* Tests                                                                  */
/* ---------------------------------------------------------------------- */

static void every_type_gives_the_trees_bytes(void **state)
{
    (void)state;
    relic_arena a;
    relic_gff_tree t;
    relic_arena_init_heap(&a, 0);
    every_type_tree(&a, &t);
    relic_buf j = print_tree(&t, RELIC_GFF_ENC_CP1252, &a);
    assert_non_null(strstr((const char *)j.data, "\"__field_order\""));
    assert_true(fast((const char *)j.data, j.size, RELIC_GFF_ENC_CP1252));
    assert_int_equal(same_as_tree((const char *)j.data, j.size, RELIC_GFF_ENC_CP1252), RELIC_OK);
    assert_int_equal(same_as_tree((const char *)j.data, j.size, RELIC_GFF_ENC_AUTO), RELIC_OK);
    relic_arena_release(&a);
}

static void utf8_text_gives_the_trees_bytes(void **state)
{
    (void)state;
    relic_arena a;
    relic_gff_tree t;
    relic_arena_init_heap(&a, 0);
    every_type_tree(&a, &t);
    /* NWN2 text: UTF-8 bytes in the file, "__encoding" in the JSON */
    relic_gff_tfield *f = &t.root->fields[10];
    assert_int_equal(f->type, RELIC_GFF_FIELD_TYPE_CEXOSTRING);
    f->v.bytes.p = text(&a, "caf\xc3\xa9 \xe2\x82\xac");
    f->v.bytes.n = strlen((const char *)f->v.bytes.p);
    t.root->fields[13].v.loc.s[1] = (relic_gff_tsubstring){3, text(&a, "\xc3\xa0 vous"), 7};
    relic_buf j = print_tree(&t, RELIC_GFF_ENC_UTF8, &a);
    assert_non_null(strstr((const char *)j.data, "\"__encoding\":\"utf-8\""));
    assert_true(fast((const char *)j.data, j.size, RELIC_GFF_ENC_AUTO));
    assert_int_equal(same_as_tree((const char *)j.data, j.size, RELIC_GFF_ENC_AUTO), RELIC_OK);
    assert_int_equal(same_as_tree((const char *)j.data, j.size, RELIC_GFF_ENC_UTF8), RELIC_OK);
    /* the same JSON read as cp1252: the euro sign has a cp1252 byte, so it converts too */
    assert_int_equal(same_as_tree((const char *)j.data, j.size, RELIC_GFF_ENC_CP1252), RELIC_OK);
    relic_arena_release(&a);
}

static void empty_structs_give_the_trees_bytes(void **state)
{
    (void)state;
    /* a struct closed before any field was seen (the fuzzer's first find:
     * no arithmetic on the stacks before they exist) */
    static const char *const docs[] = {
        "{\"__data_type\":\"UTI \"}",
        "{\"__data_type\":\"UTI \",\"S\":{\"type\":\"struct\",\"value\":{}},\"L\":{\"type\":\"list\",\"value\":[{},{}]}}",
    };
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        assert_true(fast(docs[i], strlen(docs[i]), RELIC_GFF_ENC_AUTO));
        assert_int_equal(same_as_tree_str(docs[i]), RELIC_OK);
    }
}

static void every_family_gives_the_trees_bytes(void **state)
{
    (void)state;
    relic_arena a;
    relic_gff_tree t;
    relic_arena_init_heap(&a, 0);
    every_type_tree(&a, &t);
    relic_buf j = print_tree(&t, RELIC_GFF_ENC_CP1252, &a);
    for (size_t i = 0; i < relic_gff_family_count; i++) {
        /* the root's "__layout" names the family */
        size_t n = j.size + 64;
        char *doc = relic_arena_alloc(&a, n, 1);
        int k = snprintf(doc, n, "{\"__layout\":\"%s\",%s", relic_gff_families[i].name, (const char *)j.data + 1);
        assert_true(k > 0 && (size_t)k < n);
        assert_true(fast(doc, (size_t)k, RELIC_GFF_ENC_AUTO));
        assert_int_equal(same_as_tree(doc, (size_t)k, RELIC_GFF_ENC_AUTO), RELIC_OK);
    }
    relic_arena_release(&a);
}

static void values_across_blocks_give_the_trees_bytes(void **state)
{
    (void)state;
    /* a 1.5 MB string and a locstring whose substrings pass a 1 MiB block
     * boundary as they arrive: each value stays whole */
    const size_t big = 1500000, part = 300000;
    size_t cap = big + 6 * part + 4096, k = 0;
    char *doc = malloc(cap);
    assert_non_null(doc);
    k += (size_t)snprintf(doc + k, cap - k, "{\"__data_type\":\"UTC \",\"Big\":{\"type\":\"cexostring\",\"value\":\"");
    memset(doc + k, 'x', big);
    k += big;
    k += (size_t)snprintf(doc + k, cap - k, "\"},\"Loc\":{\"type\":\"cexolocstring\",\"value\":{");
    for (int s = 0; s < 5; s++) {
        k += (size_t)snprintf(doc + k, cap - k, "%s\"%d\":\"", s ? "," : "", s);
        memset(doc + k, 'a' + s, part);
        k += part;
        doc[k++] = '"';
    }
    k += (size_t)snprintf(doc + k, cap - k, ",\"id\":77}},\"Tail\":{\"type\":\"resref\",\"value\":\"end\"}}");
    assert_true(fast(doc, k, RELIC_GFF_ENC_CP1252));
    assert_int_equal(same_as_tree(doc, k, RELIC_GFF_ENC_CP1252), RELIC_OK);
    free(doc);
}

static void shapes_left_to_the_tree_give_its_bytes(void **state)
{
    (void)state;
    static const char *const docs[] = {
        /* "__dupN__" keys named by "__field_order" */
        "{\"__data_type\":\"UTC \",\"__field_order\":[\"A\",\"__dup1__A\",\"B\"],\"A\":{\"type\":\"int\",\"value\":1},\"__dup1__A\":{\"type\":\"int\",\"value\":2},\"B\":{\"type\":\"byte\",\"value\":3}}",
        /* a locstring's substrings in the file's order */
        "{\"__data_type\":\"UTC \",\"L\":{\"__substring_order\":[5,1],\"type\":\"cexolocstring\",\"value\":{\"1\":\"a\",\"5\":\"b\"}}}",
        /* an order record */
        "{\"__data_type\":\"UTC \",\"__layout\":{\"family\":\"bioware\",\"labels\":[1,1,0,1]},\"A\":{\"type\":\"int\",\"value\":1},\"B\":{\"type\":\"int\",\"value\":2}}",
        /* nwn_gff's legacy "id" beside "value", and "value" before "type" */
        "{\"__data_type\":\"UTC \",\"L\":{\"id\":9,\"type\":\"cexolocstring\",\"value\":{\"0\":\"x\"}},\"V\":{\"value\":3,\"type\":\"word\"}}",
        /* escaped keys and text, a "__struct_id" on the struct field */
        "{\"__data_type\":\"UTC \",\"K\\u00e9y\":{\"type\":\"cexostring\",\"value\":\"a\\tb\\u00e9\"},\"S\":{\"__struct_id\":5,\"type\":\"struct\",\"value\":{\"X\":{\"type\":\"float\",\"value\":\"0x7fc00000\"}}}}",
        /* duplicate keys without "__field_order" */
        "{\"__data_type\":\"UTC \",\"A\":{\"type\":\"int\",\"value\":1},\"A\":{\"type\":\"int\",\"value\":2}}",
    };
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) assert_int_equal(same_as_tree_str(docs[i]), RELIC_OK);
    /* of those, the fast path itself takes "__dupN__" keys, "__substring_order" and the order record */
    for (size_t i = 0; i < 3; i++) assert_true(fast(docs[i], strlen(docs[i]), RELIC_GFF_ENC_AUTO));
    assert_false(fast(docs[3], strlen(docs[3]), RELIC_GFF_ENC_AUTO));
}

static void bad_input_gives_the_trees_error(void **state)
{
    (void)state;
    static const char *const docs[] = {
        "",
        "{",
        "[]",
        "{\"__data_type\":\"UTC\"}",
        "{\"__data_type\":\"UTC \",\"A\":{\"type\":\"byte\",\"value\":256}}",
        "{\"__data_type\":\"UTC \",\"A\":{\"type\":\"char\",\"value\":-129}}",
        "{\"__data_type\":\"UTC \",\"A\":{\"type\":\"dword64\",\"value\":-1}}",
        "{\"__data_type\":\"UTC \",\"A\":{\"type\":\"nothing\",\"value\":1}}",
        "{\"__data_type\":\"UTC \",\"A\":{\"type\":\"int\"}}",
        "{\"__data_type\":\"UTC \",\"A\":{\"type\":\"resref\",\"value\":\"\\u20ac\\u0100\"}}",
        "{\"__data_type\":\"UTC \",\"ThisLabelIsTooLong\":{\"type\":\"int\",\"value\":1}}",
        "{\"__data_type\":\"UTC \",\"A\\u0000B\":{\"type\":\"int\",\"value\":1}}",
        "{\"__data_type\":\"UTC \",\"A\":{\"type\":\"Int\",\"value\":1}}",
        "{\"__data_type\":\"UTC \",\"__field_order\":[\"A\"],\"A\":{\"type\":\"int\",\"value\":1},\"B\":{\"type\":\"int\",\"value\":1}}",
        "{\"__data_type\":\"UTC \",\"__field_order\":[\"A\",\"A\"],\"A\":{\"type\":\"int\",\"value\":1},\"B\":{\"type\":\"int\",\"value\":1}}",
        "{\"__data_type\":\"UTC \",\"L\":{\"type\":\"cexolocstring\",\"value\":{\"1\":\"a\",\"1\":\"b\"}}}",
        "{\"__data_type\":\"UTC \",\"L\":{\"__substring_order\":[5,5],\"type\":\"cexolocstring\",\"value\":{\"1\":\"a\",\"5\":\"b\"}}}",
        "{\"__data_type\":\"UTC \",\"L\":{\"__substring_order\":[5],\"type\":\"cexolocstring\",\"value\":{\"1\":\"a\",\"5\":\"b\"}}}",
        "{\"__data_type\":\"UTC \",\"V\":{\"type\":\"vector\",\"value\":[1,2]}}",
        "{\"__data_type\":\"UTC \",\"V\":{\"type\":\"void\",\"value64\":\"A*==\"}}",
        "{\"__data_type\":\"UTC \",\"__layout\":\"nobody\"}",
        "{\"__data_type\":\"UTC \",\"__layout\":{\"family\":\"bioware\",\"labels\":[0,1,0,1]},\"A\":{\"type\":\"int\",\"value\":1},\"B\":{\"type\":\"int\",\"value\":2}}",
        "{\"__data_type\":\"UTC \",\"__layout\":{\"family\":\"bioware\",\"labels\":[0,1]},\"A\":{\"type\":\"int\",\"value\":1}}x",
        "{\"__data_type\":\"UTC \",\"__layout\":{\"labels\":[0,1]},\"A\":{\"type\":\"int\",\"value\":1}}",
        "{\"__data_type\":\"UTC \",\"__layout\":{\"family\":\"bioware\",\"labels\":[0]},\"A\":{\"type\":\"int\",\"value\":1}}",
        "{\"__data_type\":\"UTC \",\"__encoding\":\"ebcdic\"}",
        "{\"__data_type\":\"UTC \",\"A\":{\"type\":\"int\",\"value\":1}} trailing",
    };
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        assert_false(fast(docs[i], strlen(docs[i]), RELIC_GFF_ENC_AUTO));
        assert_int_not_equal(same_as_tree_str(docs[i]), RELIC_OK);
    }
    /* nesting beyond the limit */
    char deep[8192];
    size_t k = (size_t)snprintf(deep, sizeof deep, "{\"__data_type\":\"UTC \"");
    for (int d = 0; d < RELIC_GFF_MAX_DEPTH + 2; d++) k += (size_t)snprintf(deep + k, sizeof deep - k, ",\"S\":{\"type\":\"struct\",\"value\":{\"__struct_id\":0");
    for (int d = 0; d < RELIC_GFF_MAX_DEPTH + 2; d++) k += (size_t)snprintf(deep + k, sizeof deep - k, "}}");
    k += (size_t)snprintf(deep + k, sizeof deep - k, "}");
    assert_true(k < sizeof deep);
    assert_int_not_equal(same_as_tree(deep, k, RELIC_GFF_ENC_AUTO), RELIC_OK);
}

static void no_heap_call_in_caller_memory(void **state)
{
    (void)state;
    relic_arena a, big;
    relic_gff_tree t;
    relic_buf out;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    every_type_tree(&a, &t);
    relic_buf j = print_tree(&t, RELIC_GFF_ENC_CP1252, &a);
    const size_t size = (size_t)8 << 20;
    uint8_t *mem = malloc(size);
    assert_non_null(mem);
    relic_arena_init_buffer(&big, mem, size);
    relic_buf_init_arena(&out, &big, 0);
    heap_guard_arm();
    relic_status st = relic_gff_json_to_gff((const char *)j.data, j.size, RELIC_GFF_ENC_CP1252, &big, &out, &err);
    unsigned long calls = heap_guard_disarm();
    assert_int_equal(st, RELIC_OK);
    assert_int_equal(calls, 0);
    relic_gff_doc d;
    assert_int_equal(relic_gff_open(out.data, out.size, &big, NULL, NULL, &d, &err), RELIC_OK);
    free(mem);
    relic_arena_release(&a);
}

static void corpus_gives_the_trees_bytes(void **state)
{
    (void)state;
    DIR *dir = opendir(CORPUS_DIR);
    if (!dir) {
        printf("corpus: %s absent, skipped\n", CORPUS_DIR);
        return;
    }
    struct dirent *e;
    int files = 0, fast_files = 0;
    size_t seen = 0;
    while ((e = readdir(dir))) {
        char path[1024];
        relic_mapping m;
        relic_error err;
        relic_arena a;
        relic_gff_doc d;
        relic_buf j;
        if (e->d_name[0] == '.' || !test_take(seen++)) continue; /* one file in 8 in the sanitizer pass */
        snprintf(path, sizeof path, "%s/%s", CORPUS_DIR, e->d_name);
        if (relic_map_file(path, 0, &m, &err) != RELIC_OK) continue;
        relic_arena_init_heap(&a, 0);
        relic_buf_init_arena(&j, &a, 0);
        if (relic_gff_open(m.bytes.data, m.bytes.size, &a, NULL, NULL, &d, &err) == RELIC_OK &&
            relic_gff_json_print_doc_in(&d, RELIC_GFF_ENC_AUTO, &j, &a, &err) == RELIC_OK) {
            assert_int_equal(same_as_tree((const char *)j.data, j.size, RELIC_GFF_ENC_AUTO), RELIC_OK);
            fast_files += fast((const char *)j.data, j.size, RELIC_GFF_ENC_AUTO);
            files++;
        }
        relic_arena_release(&a);
        relic_unmap(&m);
    }
    closedir(dir);
    printf("corpus: %d files, relic_gff_json_to_gff equal to the tree path on each (%d through the fast path)\n", files,
           fast_files);
    assert_true(files > 0 && fast_files == files);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_type_gives_the_trees_bytes),
        cmocka_unit_test(utf8_text_gives_the_trees_bytes),
        cmocka_unit_test(empty_structs_give_the_trees_bytes),
        cmocka_unit_test(every_family_gives_the_trees_bytes),
        cmocka_unit_test(values_across_blocks_give_the_trees_bytes),
        cmocka_unit_test(shapes_left_to_the_tree_give_its_bytes),
        cmocka_unit_test(bad_input_gives_the_trees_error),
        cmocka_unit_test(no_heap_call_in_caller_memory),
        cmocka_unit_test(corpus_gives_the_trees_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
