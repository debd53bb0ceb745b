/* test_gff_fast.c — the fast paths of GFF reading and their fallbacks give
 * the answers the slow ones gave: relic_gff_open's one walk (fields read as
 * a run or through their field-index list, a run claimed in the field
 * bitmap at once, unreached structs and fields still checked), the typed
 * getters inline and exported, JSON -> GFF built from yajl's events
 * against the document path that takes every other shape and every error,
 * and float text decided by the fast path on exact ties.
 * Files are made here, byte by byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "relic_gff.h"

/* A GFF's six arrays as the test spells them; file() lays them out
 * contiguously after the header. */
typedef struct spec {
    int ns, nf, nl;
    uint32_t s[8][3]; /* id, data_or_data_offset, field_count */
    uint32_t f[8][3]; /* type, label, data_or_data_offset */
    const char *labels[8];
    const uint8_t *data;
    uint32_t ndata;
    uint32_t fi[16], nfi; /* field indices (u32 each) */
    uint32_t li[16], nli; /* list indices (u32 each) */
} spec;

static relic_buf file(const spec *sp)
{
    relic_buf b;
    relic_buf_init(&b, 0);
    uint8_t *h = relic_buf_extend(&b, 56);
    memcpy(h, "GIT V3.2", 8);
    uint32_t so = 56, fo = so + 12u * (uint32_t)sp->ns, lo = fo + 12u * (uint32_t)sp->nf, dof = lo + 16u * (uint32_t)sp->nl,
             fio = dof + sp->ndata, lio = fio + 4 * sp->nfi;
    uint32_t hv[12] = {so, (uint32_t)sp->ns, fo, (uint32_t)sp->nf, lo, (uint32_t)sp->nl, dof, sp->ndata, fio, 4 * sp->nfi, lio, 4 * sp->nli};
    for (int k = 0; k < 12; k++) relic_store_u32le(b.data + 8 + 4 * k, hv[k]);
    for (int k = 0; k < sp->ns; k++)
        for (int j = 0; j < 3; j++) relic_store_u32le(relic_buf_extend(&b, 4), sp->s[k][j]);
    for (int k = 0; k < sp->nf; k++)
        for (int j = 0; j < 3; j++) relic_store_u32le(relic_buf_extend(&b, 4), sp->f[k][j]);
    for (int k = 0; k < sp->nl; k++) memcpy(relic_buf_extend(&b, 16), sp->labels[k], strlen(sp->labels[k]));
    if (sp->ndata) relic_buf_append(&b, sp->data, sp->ndata);
    for (uint32_t k = 0; k < sp->nfi; k++) relic_store_u32le(relic_buf_extend(&b, 4), sp->fi[k]);
    for (uint32_t k = 0; k < sp->nli; k++) relic_store_u32le(relic_buf_extend(&b, 4), sp->li[k]);
    return b;
}

static relic_status open_spec(const spec *sp, relic_gff_doc *d, relic_error *err, relic_buf *keep)
{
    static relic_arena a;
    relic_arena_release(&a);
    relic_arena_init_heap(&a, 0);
    *keep = file(sp);
    return relic_gff_open(keep->data, keep->size, &a, NULL, NULL, d, err);
}

/* Root: fields 0..2 (a run: byte, a CExoString in the data, a dword). */
static spec base_spec(void)
{
    static const uint8_t data[] = {5, 0, 0, 0, 'h', 'e', 'l', 'l', 'o'};
    spec sp;
    memset(&sp, 0, sizeof sp);
    sp.ns = 1;
    sp.nf = 3;
    sp.nl = 3;
    sp.s[0][0] = RELIC_GFF_NONE;
    sp.s[0][1] = 0;
    sp.s[0][2] = 3;
    uint32_t f[3][3] = {{RELIC_GFF_FIELD_TYPE_BYTE, 0, 7}, {RELIC_GFF_FIELD_TYPE_CEXOSTRING, 1, 0}, {RELIC_GFF_FIELD_TYPE_DWORD, 2, 9}};
    memcpy(sp.f, f, sizeof f);
    sp.labels[0] = "A";
    sp.labels[1] = "Tag";
    sp.labels[2] = "C";
    sp.data = data;
    sp.ndata = sizeof data;
    sp.fi[0] = 0;
    sp.fi[1] = 1;
    sp.fi[2] = 2;
    sp.nfi = 3;
    return sp;
}

static void test_run_and_list_orders_read_the_same(void **state)
{
    (void)state;
    relic_gff_doc d;
    relic_error err;
    relic_buf b;
    spec sp = base_spec();
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_OK);
    assert_int_equal(d.reachable, 1);
    relic_buf_free(&b);
    /* the same fields listed out of order: not a run, read through the list */
    sp.fi[0] = 2;
    sp.fi[1] = 0;
    sp.fi[2] = 1;
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_OK);
    uint64_t u = 0;
    relic_bytes s;
    assert_int_equal(relic_gff_get_uint(&d, relic_gff_struct_field(&d, 0, 0), &u, &err), RELIC_OK);
    assert_int_equal(u, 9);
    assert_int_equal(relic_gff_get_string(&d, relic_gff_struct_field(&d, 0, 2), &s, &err), RELIC_OK);
    assert_int_equal(s.size, 5);
    assert_memory_equal(s.data, "hello", 5);
    relic_buf_free(&b);
}

static void test_field_listed_twice_is_rejected(void **state)
{
    (void)state;
    relic_gff_doc d;
    relic_error err;
    relic_buf b;
    spec sp = base_spec();
    sp.fi[2] = 0; /* 0, 1, 0: not a run, so bit by bit */
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_E_LAYOUT);
    assert_non_null(strstr(err.message, "field 0 is used by two structs"));
    assert_string_equal(err.path, "structs[0].data_or_data_offset");
    relic_buf_free(&b);
}

/* Root: a list of structs 1 and 2, whose field runs overlap (1-2 and 2-3):
 * the second run's claim fails and names field 2. */
static void test_runs_sharing_a_field_are_rejected(void **state)
{
    (void)state;
    relic_gff_doc d;
    relic_error err;
    relic_buf b;
    spec sp;
    memset(&sp, 0, sizeof sp);
    sp.ns = 3;
    sp.nf = 4;
    sp.nl = 2;
    uint32_t s[3][3] = {{RELIC_GFF_NONE, 0, 1}, {1, 0, 2}, {2, 8, 2}};
    uint32_t f[4][3] = {{RELIC_GFF_FIELD_TYPE_LIST, 0, 0}, {RELIC_GFF_FIELD_TYPE_INT, 1, 1}, {RELIC_GFF_FIELD_TYPE_INT, 1, 2}, {RELIC_GFF_FIELD_TYPE_INT, 1, 3}};
    memcpy(sp.s, s, sizeof s);
    memcpy(sp.f, f, sizeof f);
    sp.labels[0] = "L";
    sp.labels[1] = "V";
    uint32_t fi[4] = {1, 2, 2, 3};
    memcpy(sp.fi, fi, sizeof fi);
    sp.nfi = 4;
    uint32_t li[3] = {2, 1, 2};
    memcpy(sp.li, li, sizeof li);
    sp.nli = 3;
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_E_LAYOUT);
    assert_non_null(strstr(err.message, "field 2 is used by two structs"));
    assert_string_equal(err.path, "structs[2].data_or_data_offset");
    relic_buf_free(&b);
    /* disjoint runs (1-2 and 3-4 with a fifth field): fine */
    sp.nf = 5;
    sp.f[4][0] = RELIC_GFF_FIELD_TYPE_INT;
    sp.f[4][1] = 1;
    sp.fi[2] = 3;
    sp.fi[3] = 4;
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_OK);
    assert_int_equal(d.reachable, 3);
    relic_buf_free(&b);
}

/* A field list whose first and last entries say a run (0 .. 2) but whose
 * middle entry does not: the records read in a row would not be the ones
 * listed, so the middle entry is checked too and the walk names it (an
 * index past the field count, a field listed twice). */
static void test_list_with_run_ends_and_another_middle_is_read_as_listed(void **state)
{
    (void)state;
    relic_gff_doc d;
    relic_error err;
    relic_buf b;
    spec sp = base_spec();
    sp.fi[1] = 9;
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_E_INDEX);
    assert_string_equal(err.path, "field_indices[1]");
    assert_non_null(strstr(err.message, "field index 9 is not below the field count 3"));
    relic_buf_free(&b);
    sp.fi[1] = 0;
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_E_LAYOUT);
    assert_non_null(strstr(err.message, "field 0 is used by two structs"));
    assert_string_equal(err.path, "structs[0].data_or_data_offset");
    relic_buf_free(&b);
}

/* Structs whose lists are runs in order need no field bitmap; the first
 * list that is not (struct 2's, 3 then 1) is checked against the fields
 * the runs before it took: field 1, the root's, is named. The same list
 * without a shared field (4 then 3) is fine. */
static void test_list_after_runs_is_checked_against_their_fields(void **state)
{
    (void)state;
    relic_gff_doc d;
    relic_error err;
    relic_buf b;
    spec sp;
    memset(&sp, 0, sizeof sp);
    sp.ns = 3;
    sp.nf = 5;
    sp.nl = 2;
    /* root: fields 0 (a list of structs 1 and 2) and 1; struct 1: field 2 */
    uint32_t s[3][3] = {{RELIC_GFF_NONE, 0, 2}, {1, 2, 1}, {2, 8, 2}};
    uint32_t f[5][3] = {{RELIC_GFF_FIELD_TYPE_LIST, 0, 0},
                        {RELIC_GFF_FIELD_TYPE_INT, 1, 1},
                        {RELIC_GFF_FIELD_TYPE_INT, 1, 2},
                        {RELIC_GFF_FIELD_TYPE_INT, 1, 3},
                        {RELIC_GFF_FIELD_TYPE_INT, 1, 4}};
    memcpy(sp.s, s, sizeof s);
    memcpy(sp.f, f, sizeof f);
    sp.labels[0] = "L";
    sp.labels[1] = "V";
    uint32_t fi[4] = {0, 1, 3, 1};
    memcpy(sp.fi, fi, sizeof fi);
    sp.nfi = 4;
    uint32_t li[3] = {2, 1, 2};
    memcpy(sp.li, li, sizeof li);
    sp.nli = 3;
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_E_LAYOUT);
    assert_non_null(strstr(err.message, "field 1 is used by two structs"));
    assert_string_equal(err.path, "structs[2].data_or_data_offset");
    relic_buf_free(&b);
    sp.fi[2] = 4;
    sp.fi[3] = 3;
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_OK);
    assert_int_equal(d.reachable, 3);
    assert_int_equal(d.max_depth, 1);
    relic_buf_free(&b);
}

/* What the walk does not reach is still checked: an unreached struct's
 * field list and an unreached field's value. */
static void test_unreached_structs_and_fields_are_checked(void **state)
{
    (void)state;
    relic_gff_doc d;
    relic_error err;
    relic_buf b;
    spec sp = base_spec();
    sp.ns = 2;
    sp.s[1][0] = 7;
    sp.s[1][1] = 0;
    sp.s[1][2] = 9; /* nine field indices from byte 0: past the 3 there are */
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_E_INDEX);
    assert_string_equal(err.path, "structs[1].field_count");
    relic_buf_free(&b);
    sp = base_spec();
    sp.nf = 4;
    sp.f[3][0] = RELIC_GFF_FIELD_TYPE_CEXOSTRING;
    sp.f[3][1] = 1;
    sp.f[3][2] = 4; /* a length of 'hell' as u32 from byte 4 of 9 */
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_E_TRUNCATED);
    assert_string_equal(err.path, "fields[3].data_or_data_offset");
    relic_buf_free(&b);
    /* the same value in a reached field: found by the walk, same error */
    sp = base_spec();
    sp.f[1][2] = 4;
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_E_TRUNCATED);
    assert_string_equal(err.path, "fields[1].data_or_data_offset");
    relic_buf_free(&b);
}

/* The struct and field records' own checks (a known type, an existing
 * label, a field count within the file's) are made by relic_gff_open's
 * pass as it reads each record, not by a pass of their own before it: a
 * record failing one is named as relic_gff_validate names it, in a listed
 * field, an unlisted one, or a struct, and the plain validator agrees. */
static void test_record_checks_keep_their_errors(void **state)
{
    (void)state;
    relic_gff_doc d;
    relic_gff_view v;
    relic_error err, verr;
    relic_buf b;
    const uint32_t fields_at = 56 + 12;
    spec sp = base_spec();
    sp.f[1][0] = 99; /* a listed field of an unknown type */
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_E_RANGE);
    assert_string_equal(err.path, "fields[1].type");
    assert_int_equal(err.offset, fields_at + 12);
    assert_int_equal(relic_gff_validate(b.data, b.size, &v, &verr), RELIC_E_RANGE);
    assert_string_equal(verr.path, err.path);
    assert_string_equal(verr.message, err.message);
    relic_buf_free(&b);
    sp = base_spec();
    sp.nf = 4;
    sp.f[3][0] = 0x40000000; /* a field no struct lists, of an unknown type */
    sp.f[3][1] = 0;
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_E_RANGE);
    assert_string_equal(err.path, "fields[3].type");
    assert_int_equal(err.offset, fields_at + 3 * 12);
    relic_buf_free(&b);
    sp = base_spec();
    sp.f[2][1] = 3; /* label 3 of 3 */
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_E_INDEX);
    assert_string_equal(err.path, "fields[2].label_index");
    assert_int_equal(err.offset, fields_at + 2 * 12 + 4);
    relic_buf_free(&b);
    sp = base_spec();
    sp.s[0][2] = 4; /* four fields of three */
    sp.fi[3] = 0;
    sp.nfi = 4;
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_E_INDEX);
    assert_string_equal(err.path, "structs[0].field_count");
    assert_int_equal(err.offset, 56 + 8);
    relic_buf_free(&b);
    /* the first record in index order is named, as the generated validator does */
    sp = base_spec();
    sp.f[2][0] = 18;
    sp.f[1][1] = 7;
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_E_INDEX);
    assert_string_equal(err.path, "fields[1].label_index");
    relic_buf_free(&b);
}

/* Locstrings of none and one substring are checked inline by the fast
 * pass, every other shape by the full check: each accepts what fits
 * exactly and names the same error for what does not. */
static void test_short_locstrings_are_checked_exactly(void **state)
{
    (void)state;
    relic_gff_doc d;
    relic_error err;
    relic_buf b;
    /* total, StrRef, count, then (id, length, text); 4 spare bytes after */
    uint8_t one[] = {18, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 'h', 'i', 0, 0, 0, 0};
    uint8_t none[] = {8, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    const struct {
        uint8_t *data;
        uint32_t n, total, count;
        relic_status want;
    } cases[] = {
        {one, sizeof one, 18, 1, RELIC_OK},
        {one, sizeof one, 19, 1, RELIC_E_LAYOUT},    /* a byte past the substring */
        {one, sizeof one, 17, 1, RELIC_E_TRUNCATED}, /* the text passes the size */
        {one, sizeof one, 18, 2, RELIC_E_TRUNCATED}, /* a second substring that is not there */
        {none, sizeof none, 8, 0, RELIC_OK},
        {none, sizeof none, 9, 0, RELIC_E_LAYOUT},
        {none, sizeof none, 8, 1, RELIC_E_TRUNCATED},
        {none, 12, 8, 0, RELIC_OK}, /* at the very end of the field data */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        spec sp = base_spec();
        relic_store_u32le(cases[k].data, cases[k].total);
        relic_store_u32le(cases[k].data + 8, cases[k].count);
        sp.data = cases[k].data;
        sp.ndata = cases[k].n;
        sp.f[1][0] = RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING;
        sp.f[1][2] = 0;
        sp.f[2][0] = RELIC_GFF_FIELD_TYPE_BYTE;
        assert_int_equal(open_spec(&sp, &d, &err, &b), cases[k].want);
        if (cases[k].want != RELIC_OK) assert_string_equal(err.path, "fields[1].data_or_data_offset");
        relic_buf_free(&b);
    }
}

static void test_fixed_size_values_are_range_checked(void **state)
{
    (void)state;
    relic_gff_doc d;
    relic_error err;
    relic_buf b;
    spec sp = base_spec();
    sp.f[2][0] = RELIC_GFF_FIELD_TYPE_DWORD64;
    sp.f[2][2] = 1; /* 8 bytes from byte 1 of 9: the last byte fits */
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_OK);
    relic_buf_free(&b);
    sp.f[2][2] = 2;
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_E_TRUNCATED);
    assert_string_equal(err.path, "fields[2].data_or_data_offset");
    relic_buf_free(&b);
    sp.f[2][0] = RELIC_GFF_FIELD_TYPE_RESREF;
    sp.f[2][2] = 8; /* a length byte of 'o' (111) at the last byte */
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_E_TRUNCATED);
    relic_buf_free(&b);
}

/* Root -> A -> B by Struct fields, laid out as spec says: struct i has
 * field i, field i (for i < 2) a Struct field naming target[i], field 2 a
 * dword. */
static spec chain_spec(uint32_t a, uint32_t b)
{
    spec sp;
    memset(&sp, 0, sizeof sp);
    sp.ns = 3;
    sp.nf = 3;
    sp.nl = 1;
    sp.labels[0] = "S";
    for (int k = 0; k < 3; k++) {
        sp.s[k][0] = k ? (uint32_t)k : RELIC_GFF_NONE;
        sp.s[k][2] = 1;
    }
    /* root's field 0 -> a; a's field 1 -> b; b's field 2: a dword */
    sp.s[0][1] = 0;
    sp.s[a][1] = 1;
    sp.s[b][1] = 2;
    uint32_t f[3][3] = {{RELIC_GFF_FIELD_TYPE_STRUCT, 0, a}, {RELIC_GFF_FIELD_TYPE_STRUCT, 0, b}, {RELIC_GFF_FIELD_TYPE_DWORD, 0, 5}};
    memcpy(sp.f, f, sizeof f);
    return sp;
}

/* relic_gff_open's linear pass takes files whose structs come after their
 * parent; any other order goes through the walk: the same answer. */
static void test_struct_order_does_not_change_the_answer(void **state)
{
    (void)state;
    relic_gff_doc d;
    relic_error err;
    relic_buf b;
    spec sp = chain_spec(1, 2); /* each struct after its parent */
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_OK);
    assert_int_equal(d.reachable, 3);
    assert_int_equal(d.max_depth, 2);
    relic_buf_free(&b);
    sp = chain_spec(2, 1); /* B (struct 1) before its parent A (struct 2) */
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_OK);
    assert_int_equal(d.reachable, 3);
    assert_int_equal(d.max_depth, 2);
    relic_buf_free(&b);
    /* A no longer names B: B is unreached, still checked, not an error */
    sp = chain_spec(1, 2);
    sp.f[1][0] = RELIC_GFF_FIELD_TYPE_INT;
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_OK);
    assert_int_equal(d.reachable, 2);
    assert_int_equal(d.max_depth, 1);
    relic_buf_free(&b);
}

/* A struct named by two fields, each in a struct before it (what the
 * linear pass sees as one reference too many): the walk's error. */
static void test_struct_named_twice_in_order_is_rejected(void **state)
{
    (void)state;
    relic_gff_doc d;
    relic_error err;
    relic_buf b;
    spec sp = chain_spec(1, 2);
    sp.nf = 4;
    sp.s[0][1] = 0; /* root lists fields 0 and 3: a field-index list */
    sp.s[0][2] = 2;
    sp.fi[0] = 0;
    sp.fi[1] = 3;
    sp.nfi = 2;
    sp.f[3][0] = RELIC_GFF_FIELD_TYPE_STRUCT;
    sp.f[3][2] = 2; /* the root names B too, as A does */
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_E_LAYOUT);
    assert_non_null(strstr(err.message, "struct 2 is reached a second time"));
    relic_buf_free(&b);
    /* a list naming a struct a Struct field names already */
    sp.f[3][0] = RELIC_GFF_FIELD_TYPE_LIST;
    sp.f[3][2] = 0;
    sp.li[0] = 1;
    sp.li[1] = 1;
    sp.nli = 2;
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_E_LAYOUT);
    assert_non_null(strstr(err.message, "struct 1 is reached a second time"));
    relic_buf_free(&b);
}

/* A field listed by two structs that each come after their parent: the
 * linear pass counts fewer fields than listed; the walk names it. */
static void test_field_in_two_ordered_structs_is_rejected(void **state)
{
    (void)state;
    relic_gff_doc d;
    relic_error err;
    relic_buf b;
    spec sp = chain_spec(1, 2);
    sp.s[2][1] = 1; /* B lists A's field 1 (a Struct field naming B itself) */
    sp.f[1][0] = RELIC_GFF_FIELD_TYPE_DWORD;
    sp.f[1][2] = 0;
    sp.f[0][0] = RELIC_GFF_FIELD_TYPE_LIST;
    sp.f[0][2] = 0;
    uint32_t li[3] = {2, 1, 2}; /* the root lists A and B */
    memcpy(sp.li, li, sizeof li);
    sp.nli = 3;
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_E_LAYOUT);
    assert_non_null(strstr(err.message, "field 1 is used by two structs"));
    relic_buf_free(&b);
}

/* One struct listing n BYTE fields through its field indices, in reverse
 * (not a run), so the fast pass claims each field's byte; dup > 0 lists
 * field dup twice (in place of field dup - 1). */
static relic_buf reversed_fields(uint32_t n, uint32_t dup)
{
    relic_buf b;
    relic_buf_init(&b, 0);
    const uint32_t so = 56, fo = so + 12, lo = fo + 12 * n, fdo = lo + 16, fio = fdo, lio = fio + 4 * n;
    const uint32_t hv[12] = {so, 1, fo, n, lo, 1, fdo, 0, fio, 4 * n, lio, 0};
    memcpy(relic_buf_extend(&b, 8), "GIT V3.2", 8);
    for (int k = 0; k < 12; k++) relic_store_u32le(relic_buf_extend(&b, 4), hv[k]);
    const uint32_t root[3] = {RELIC_GFF_NONE, 0, n};
    for (int k = 0; k < 3; k++) relic_store_u32le(relic_buf_extend(&b, 4), root[k]);
    for (uint32_t k = 0; k < n; k++) {
        relic_store_u32le(relic_buf_extend(&b, 4), RELIC_GFF_FIELD_TYPE_BYTE);
        relic_store_u32le(relic_buf_extend(&b, 4), 0);
        relic_store_u32le(relic_buf_extend(&b, 4), k & 0xFF);
    }
    memcpy(relic_buf_extend(&b, 16), "B\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
    for (uint32_t k = 0; k < n; k++) {
        const uint32_t f = n - 1 - k;
        relic_store_u32le(relic_buf_extend(&b, 4), dup && f == dup - 1 ? dup : f);
    }
    return b;
}

/* Past the stack buffer the fast pass takes its claimed bytes (one per
 * field) from scratch; a scratch with room for the walk's bitmaps but not
 * for them still opens the file (by the walk), and a field listed twice is
 * named either way. */
static void test_claimed_bytes_from_scratch_or_the_walk(void **state)
{
    (void)state;
    enum { N = 20000 }; /* 20,000 claimed bytes: more than the 8 KiB on the stack */
    static uint8_t room[1024];
    relic_arena heap, small;
    relic_gff_doc d;
    relic_error err;
    relic_buf ok = reversed_fields(N, 0), twice = reversed_fields(N, 77);
    for (int k = 0; k < 2; k++) {
        relic_arena *a = k ? &small : &heap;
        relic_arena_init_heap(&heap, 0);
        relic_arena_init_buffer(&small, room, sizeof room);
        assert_int_equal(relic_gff_open(ok.data, ok.size, a, NULL, NULL, &d, &err), RELIC_OK);
        assert_int_equal(d.field_count, N);
        assert_int_equal(relic_gff_struct_field(&d, 0, 0), N - 1);
        uint64_t u = 0;
        assert_int_equal(relic_gff_get_uint(&d, relic_gff_struct_field(&d, 0, N - 1), &u, &err), RELIC_OK);
        assert_int_equal(u, 0);
        assert_int_equal(relic_gff_open(twice.data, twice.size, a, NULL, NULL, &d, &err), RELIC_E_LAYOUT);
        assert_non_null(strstr(err.message, "field 77 is used by two structs"));
        relic_arena_release(&heap);
    }
    relic_buf_free(&ok);
    relic_buf_free(&twice);
}

/* The writer's label table grows with the distinct labels (from 256
 * slots): 600 labels over 900 fields, each written once, first-use order,
 * every field naming its own. */
static void test_writer_labels_past_the_first_table(void **state)
{
    (void)state;
    enum { N = 300 };
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_gff_tstruct *root = relic_arena_alloc(&a, sizeof *root, 8);
    relic_gff_tfield *list = relic_arena_alloc(&a, sizeof *list, 8);
    root->id = RELIC_GFF_NONE;
    root->field_count = 1;
    root->fields = list;
    list->type = RELIC_GFF_FIELD_TYPE_LIST;
    strcpy(list->label, "Items");
    list->v.list.count = N;
    list->v.list.items = relic_arena_array(&a, N, sizeof *list->v.list.items, 8);
    for (uint32_t i = 0; i < N; i++) {
        relic_gff_tstruct *s = relic_arena_alloc(&a, sizeof *s, 8);
        s->field_count = 3;
        s->fields = relic_arena_array(&a, 3, sizeof *s->fields, 8);
        for (uint32_t k = 0; k < 3; k++) {
            s->fields[k].type = RELIC_GFF_FIELD_TYPE_DWORD;
            s->fields[k].v.u = i * 3 + k;
        }
        snprintf(s->fields[0].label, sizeof s->fields[0].label, "A%u", (unsigned)i);
        snprintf(s->fields[1].label, sizeof s->fields[1].label, "Label_B_%u", (unsigned)i);
        strcpy(s->fields[2].label, "Shared");
        list->v.list.items[i] = s;
    }
    relic_gff_tree t;
    memset(&t, 0, sizeof t);
    memcpy(t.file_type, "UTC ", 4);
    t.root = root;
    relic_buf out;
    relic_error err;
    relic_gff_doc d;
    relic_buf_init(&out, 0);
    assert_int_equal(relic_gff_write_tree(&t, RELIC_GFF_LAYOUT_DEFAULT, &a, &out, NULL, &err), RELIC_OK);
    assert_int_equal(relic_gff_open(out.data, out.size, &a, NULL, NULL, &d, &err), RELIC_OK);
    assert_int_equal(d.v.labels_count, 1 + 2 * N + 1);
    for (uint32_t i = 0; i < N; i++) {
        const uint32_t s = 1 + i; /* list elements in order */
        for (uint32_t k = 0; k < 3; k++) {
            uint32_t f = relic_gff_struct_field(&d, s, k);
            size_t len;
            const char *label = relic_gff_field_label(&d, f, &len);
            assert_int_equal(len, strlen(list->v.list.items[i]->fields[k].label));
            assert_memory_equal(label, list->v.list.items[i]->fields[k].label, len);
            uint64_t u;
            assert_int_equal(relic_gff_get_uint(&d, f, &u, &err), RELIC_OK);
            assert_int_equal(u, i * 3 + k);
        }
    }
    relic_buf_free(&out);
    relic_arena_release(&a);
}

/* relic_gff_struct_fields gives each struct's field indices in place, the
 * ones relic_gff_struct_field gives: from the field indices (a list out of
 * order), from the struct's own record (one field), none (no field). */
static void test_struct_fields_in_place_agree(void **state)
{
    (void)state;
    relic_gff_doc d;
    relic_error err;
    relic_buf b;
    spec sp = base_spec();
    sp.fi[0] = 2;
    sp.fi[1] = 0;
    sp.fi[2] = 1;
    sp.ns = 3;
    sp.s[1][1] = RELIC_GFF_NONE; /* struct 1: no field */
    sp.s[1][2] = 0;
    sp.s[2][1] = 1; /* struct 2: one field (index 1 in its record): unreached */
    sp.s[2][2] = 1;
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_OK);
    for (uint32_t s = 0; s < d.struct_count; s++) {
        uint32_t n = 99;
        const uint8_t *p = relic_gff_struct_fields(&d, s, &n);
        assert_int_equal(n, relic_gff_doc_struct_field_count(&d, s));
        for (uint32_t i = 0; i < n; i++) assert_int_equal(relic_load_u32le(p + 4 * i), relic_gff_struct_field(&d, s, i));
    }
    uint32_t n;
    const uint8_t *p = relic_gff_struct_fields(&d, 0, &n);
    assert_int_equal(n, 3);
    assert_int_equal(relic_load_u32le(p), 2);
    p = relic_gff_struct_fields(&d, 2, &n);
    assert_int_equal(n, 1);
    assert_int_equal(relic_load_u32le(p), 1);
    relic_gff_struct_fields(&d, 1, &n);
    assert_int_equal(n, 0);
    relic_buf_free(&b);
}

static void test_inline_and_exported_getters_agree(void **state)
{
    (void)state;
    relic_gff_doc d;
    relic_error err;
    relic_buf b;
    spec sp = base_spec();
    assert_int_equal(open_spec(&sp, &d, &err, &b), RELIC_OK);
    uint64_t u1 = 1, u2 = 2;
    relic_bytes s1, s2;
    assert_int_equal(relic_gff_get_uint(&d, 0, &u1, &err), RELIC_OK);
    assert_int_equal((relic_gff_get_uint)(&d, 0, &u2, &err), RELIC_OK);
    assert_int_equal(u1, 7);
    assert_int_equal(u2, 7);
    assert_int_equal(relic_gff_get_string(&d, 1, &s1, &err), RELIC_OK);
    assert_int_equal((relic_gff_get_string)(&d, 1, &s2, &err), RELIC_OK);
    assert_ptr_equal(s1.data, s2.data);
    /* a mismatch: the same error both ways, the output zeroed */
    relic_error e1, e2;
    relic_gff_list l1 = {9, NULL}, l2 = {9, NULL};
    assert_int_equal(relic_gff_get_list(&d, 1, &l1, &e1), RELIC_E_ARGUMENT);
    assert_int_equal((relic_gff_get_list)(&d, 1, &l2, &e2), RELIC_E_ARGUMENT);
    assert_string_equal(e1.message, "field 'Tag' is a cexostring, not a list");
    assert_string_equal(e1.message, e2.message);
    assert_string_equal(e1.path, "fields[1]");
    assert_int_equal(l1.count, 0);
    assert_int_equal(l2.count, 0);
    int64_t i1 = 5;
    assert_int_equal(relic_gff_get_int(&d, 0, &i1, &e1), RELIC_E_ARGUMENT);
    assert_int_equal(i1, 0);
    relic_buf_free(&b);
}

/* ---------------------------------------------------------------------- */
/* JSON -> GFF: events and document                                       */
/* ---------------------------------------------------------------------- */

static relic_status json_to_gff(const char *json, relic_buf *out, relic_error *err)
{
    relic_arena a;
    relic_gff_tree t;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(out, 0);
    relic_status st = relic_gff_json_read_tree(json, strlen(json), RELIC_GFF_ENC_AUTO, &a, &t, err);
    if (st == RELIC_OK) st = relic_gff_write_tree(&t, t.family, &a, out, NULL, err);
    relic_arena_release(&a);
    return st;
}

/* Texts the event path reads, each beside the same content in a shape only
 * the document path reads (value before type, a legacy locstring "id",
 * "__encoding" after the text it governs, value64 before type): the same
 * bytes. */
static void test_event_and_document_paths_write_the_same_bytes(void **state)
{
    (void)state;
    static const char *const pairs[][2] = {
        {"{\"__data_type\":\"UTC \",\"A\":{\"type\":\"byte\",\"value\":7},\"B\":{\"type\":\"float\",\"value\":0.5}}",
         "{\"__data_type\":\"UTC \",\"A\":{\"value\":7,\"type\":\"byte\"},\"B\":{\"value\":0.5,\"type\":\"float\"}}"},
        {"{\"__data_type\":\"UTC \",\"N\":{\"type\":\"cexolocstring\",\"value\":{\"0\":\"caf\\u00e9\",\"id\":12}}}",
         "{\"__data_type\":\"UTC \",\"N\":{\"type\":\"cexolocstring\",\"value\":{\"0\":\"caf\\u00e9\"},\"id\":12}}"},
        {"{\"__data_type\":\"UTC \",\"V\":{\"type\":\"void\",\"value64\":\"AAEC/w==\"}}",
         "{\"__data_type\":\"UTC \",\"V\":{\"value64\":\"AAEC/w==\",\"type\":\"void\"}}"},
        {"{\"__data_type\":\"GIT \",\"__encoding\":\"utf-8\",\"T\":{\"type\":\"cexostring\",\"value\":\"\\u00e9\"}}",
         "{\"__data_type\":\"GIT \",\"T\":{\"type\":\"cexostring\",\"value\":\"\\u00e9\"},\"__encoding\":\"utf-8\"}"},
        {"{\"__data_type\":\"GIT \",\"__field_order\":[\"Z\",\"L\"],\"L\":{\"type\":\"list\",\"value\":[{\"__struct_id\":4,"
         "\"P\":{\"type\":\"vector\",\"value\":[1,2,3]}},{}]},\"Z\":{\"__struct_id\":9,\"type\":\"struct\",\"value\":{\"R\":{"
         "\"type\":\"resref\",\"value\":\"abc\"}}}}",
         "{\"__data_type\":\"GIT \",\"L\":{\"value\":[{\"__struct_id\":4,\"P\":{\"type\":\"vector\",\"value\":[1,2,3]}},{}],"
         "\"type\":\"list\"},\"Z\":{\"__struct_id\":9,\"type\":\"struct\",\"value\":{\"R\":{\"type\":\"resref\",\"value\":\"abc\"}}},"
         "\"__field_order\":[\"Z\",\"L\"]}"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        relic_buf x, y;
        relic_error err;
        assert_int_equal(json_to_gff(pairs[i][0], &x, &err), RELIC_OK);
        assert_int_equal(json_to_gff(pairs[i][1], &y, &err), RELIC_OK);
        assert_int_equal(x.size, y.size);
        assert_memory_equal(x.data, y.data, x.size);
        relic_buf_free(&x);
        relic_buf_free(&y);
    }
    /* the struct field's "__struct_id", the order record and the vector, read back */
    relic_buf x;
    relic_error err;
    relic_arena a;
    relic_gff_doc d;
    assert_int_equal(json_to_gff(pairs[4][0], &x, &err), RELIC_OK);
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_gff_open(x.data, x.size, &a, NULL, NULL, &d, &err), RELIC_OK);
    uint32_t f, s;
    assert_int_equal(relic_gff_find(&d, 0, "Z", &f), 1);
    assert_int_equal(relic_gff_struct_field(&d, 0, 0), f);
    assert_int_equal(relic_gff_get_struct(&d, f, &s, &err), RELIC_OK);
    assert_int_equal(relic_gff_doc_struct_id(&d, s), 9);
    float v[3];
    int is;
    assert_int_equal(relic_gff_resolve(&d, "L/0/P", &f, &is, &err), RELIC_OK);
    assert_int_equal(relic_gff_get_vector(&d, f, v, &err), RELIC_OK);
    assert_true(v[0] == 1.0f && v[1] == 2.0f && v[2] == 3.0f);
    relic_arena_release(&a);
    relic_buf_free(&x);
}

/* An error in a text of the common shape is named as the document path
 * names it: code, JSON path, message. */
static void test_errors_in_the_common_shape_keep_their_path(void **state)
{
    (void)state;
    relic_buf x;
    relic_error err;
    assert_int_equal(json_to_gff("{\"__data_type\":\"UTC \",\"L\":{\"type\":\"list\",\"value\":[{\"B\":{\"type\":\"byte\",\"value\":300}}]}}", &x, &err),
                     RELIC_E_RANGE);
    assert_string_equal(err.path, "L.value[0].B.value");
    assert_non_null(strstr(err.message, "300 is out of range"));
    relic_buf_free(&x);
    assert_int_equal(json_to_gff("{\"__data_type\":\"UTC \",\"A\":{\"type\":\"bite\",\"value\":1}}", &x, &err), RELIC_E_RANGE);
    assert_string_equal(err.path, "A");
    assert_non_null(strstr(err.message, "unknown field type 'bite'"));
    relic_buf_free(&x);
    assert_int_equal(json_to_gff("{\"__data_type\":\"UTC \",\"__field_order\":[\"A\",\"A\"],\"A\":{\"type\":\"int\",\"value\":1},"
                                 "\"B\":{\"type\":\"int\",\"value\":2}}",
                                 &x, &err),
                     RELIC_E_ARGUMENT);
    assert_string_equal(err.path, "__field_order");
    relic_buf_free(&x);
    assert_int_equal(json_to_gff("{\"__data_type\":\"UTC \",\"A\":{\"type\":\"int\",\"value\":1}", &x, &err), RELIC_E_SYNTAX);
    relic_buf_free(&x);
}

/* ---------------------------------------------------------------------- */
/* Float text: exact ties decided without the C library                   */
/* ---------------------------------------------------------------------- */

/* Widened f32 values with few fraction bits have short exact decimals, so
 * the 15- or 16-digit candidate is often an exact tie (81.45880126953125
 * at 15 digits): printed as printf's correctly rounded shortest digits
 * (half to even), which the fast path now decides itself. */
static void test_exact_ties_print_the_shortest_digits(void **state)
{
    (void)state;
    char b[32];
    relic_gff_format_double(81.45880126953125, b);
    assert_string_equal(b, "81.45880126953125"); /* the 15-digit tie does not read back */
    relic_gff_format_double((double)241.1763f, b);
    assert_true(strtod(b, NULL) == (double)241.1763f);
    int checked = 0;
    for (int e = 0; e <= 24; e++)
        for (uint32_t m = 1; m < 4000000; m += 9973) {
            double v = (double)(float)ldexp((double)m, -e);
            char want[48], text[48];
            if (frexp(v, &(int){0}) == 0.5) continue; /* powers of two: see gff_float.c */
            int p;
            for (p = 1; p <= 17; p++) {
                snprintf(want, sizeof want, "%.*e", p - 1, v);
                if (strtod(want, NULL) == v) break;
            }
            relic_gff_format_double(v, b);
            assert_true(strtod(b, NULL) == v);
            /* the same significant digits as printf's shortest */
            int n = 0, lead = 1;
            for (const char *t = b; *t && *t != 'e'; t++) {
                if (*t == '-' || *t == '.' || (lead && *t == '0')) continue;
                lead = 0;
                text[n++] = *t;
            }
            while (n > 1 && text[n - 1] == '0') n--;
            text[n] = 0;
            int k = 0;
            char digits[48];
            for (const char *t = want; *t && *t != 'e'; t++)
                if (*t != '.') digits[k++] = *t;
            while (k > 1 && digits[k - 1] == '0') k--;
            digits[k] = 0;
            assert_string_equal(text, digits);
            checked++;
        }
    assert_true(checked > 9000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_and_list_orders_read_the_same),
        cmocka_unit_test(test_field_listed_twice_is_rejected),
        cmocka_unit_test(test_runs_sharing_a_field_are_rejected),
        cmocka_unit_test(test_list_with_run_ends_and_another_middle_is_read_as_listed),
        cmocka_unit_test(test_list_after_runs_is_checked_against_their_fields),
        cmocka_unit_test(test_unreached_structs_and_fields_are_checked),
        cmocka_unit_test(test_record_checks_keep_their_errors),
        cmocka_unit_test(test_short_locstrings_are_checked_exactly),
        cmocka_unit_test(test_fixed_size_values_are_range_checked),
        cmocka_unit_test(test_struct_order_does_not_change_the_answer),
        cmocka_unit_test(test_struct_named_twice_in_order_is_rejected),
        cmocka_unit_test(test_field_in_two_ordered_structs_is_rejected),
        cmocka_unit_test(test_claimed_bytes_from_scratch_or_the_walk),
        cmocka_unit_test(test_writer_labels_past_the_first_table),
        cmocka_unit_test(test_struct_fields_in_place_agree),
        cmocka_unit_test(test_inline_and_exported_getters_agree),
        cmocka_unit_test(test_event_and_document_paths_write_the_same_bytes),
        cmocka_unit_test(test_errors_in_the_common_shape_keep_their_path),
        cmocka_unit_test(test_exact_ties_print_the_shortest_digits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
