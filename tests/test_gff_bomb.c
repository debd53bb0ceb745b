/* test_gff_bomb.c — GFF validation stays linear in the input when fields
 * share values: thousands of fields pointing at one large CExoLocString or
 * one large list record, or at locstrings and lists that overlap (each
 * substring's text the header of a locstring over the substrings after
 * it). Before the shared-value guard in gff_validate.c each took seconds
 * (fields x value size); now each opens in bounded CPU and memory, the
 * shared ones accepted, the overlapping ones refused with RELIC_E_LIMIT.
 * The files are under 1 MB and are made here, byte by byte. With
 * RELIC_BOMB_DIR set, each is also written there (for `relic check`). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <cmocka.h>

#include "relic_gff.h"

enum { ROOT_LISTS = 1,
       UNREACHED_STRUCT = 2 };

/* A GFF from its parts: nstructs structs (the root lists fields 0..nf-1
 * when flags has ROOT_LISTS, else none; the others none), the fields
 * (type, label 0, data each), one label, the field data and list indices. */
static relic_buf gff(uint32_t nstructs, const uint32_t *ftype, const uint32_t *fdata, uint32_t nf, const uint8_t *fd,
                     uint32_t nfd, const uint32_t *li, uint32_t nli, int flags)
{
    relic_buf b;
    relic_buf_init(&b, 0);
    const uint32_t listed = (flags & ROOT_LISTS) ? nf : 0, nfi = listed > 1 ? listed : 0;
    const uint32_t so = 56, fo = so + 12 * nstructs, lo = fo + 12 * nf, fdo = lo + 16, fio = fdo + nfd, lio = fio + 4 * nfi;
    const uint32_t hv[12] = {so, nstructs, fo, nf, lo, 1, fdo, nfd, fio, 4 * nfi, lio, 4 * nli};
    memcpy(relic_buf_extend(&b, 8), "GIT V3.2", 8);
    for (int k = 0; k < 12; k++) relic_store_u32le(relic_buf_extend(&b, 4), hv[k]);
    for (uint32_t s = 0; s < nstructs; s++) {
        uint8_t *p = relic_buf_extend(&b, 12);
        relic_store_u32le(p, s == 0 ? RELIC_GFF_NONE : 0);
        relic_store_u32le(p + 4, 0); /* field 0, or the list at field-indices byte 0 */
        relic_store_u32le(p + 8, s == 0 ? listed : 0);
    }
    for (uint32_t f = 0; f < nf; f++) {
        uint8_t *p = relic_buf_extend(&b, 12);
        relic_store_u32le(p, ftype[f]);
        relic_store_u32le(p + 4, 0);
        relic_store_u32le(p + 8, fdata[f]);
    }
    memset(relic_buf_extend(&b, 16), 0, 16);
    memcpy(b.data + lo, "Name", 4);
    relic_buf_append(&b, fd, nfd);
    for (uint32_t i = 0; i < nfi; i++) relic_store_u32le(relic_buf_extend(&b, 4), i);
    for (uint32_t i = 0; i < nli; i++) relic_store_u32le(relic_buf_extend(&b, 4), li[i]);
    return b;
}

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* Open b (under 1 MB) in a fresh heap arena, within 64 MiB of peak RSS
 * and 0.25 s of CPU (the guard takes about a millisecond; security.md
 * promises 1 s, and without the guard each bomb takes 0.7-3 s); returns
 * the status, the doc and the error. */
static relic_status open_bounded(const char *name, const relic_buf *b, relic_gff_doc *d, relic_error *err)
{
    assert_true(b->size < 1000000);
    const char *dir = getenv("RELIC_BOMB_DIR");
    if (dir) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.git", dir, name);
        FILE *f = fopen(path, "wb");
        if (f) {
            fwrite(b->data, 1, b->size, f);
            fclose(f);
        }
    }
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    const double t0 = cpu_seconds();
    relic_status s = relic_gff_open(b->data, b->size, &a, NULL, NULL, d, err);
    const double t = cpu_seconds() - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    print_message("%s: %zu bytes, status %d, %.3f s CPU, peak RSS %ld KiB\n", name, b->size, (int)s, t, ru.ru_maxrss);
    assert_true(t < 0.25);
    assert_true(ru.ru_maxrss < 64 * 1024);
    relic_arena_release(&a);
    return s;
}

/* N fields (CExoLocString) all pointing at field-data offset 0: one
 * locstring of K empty substrings (8 bytes each). */
#define LOC_N 40000u
#define LOC_K 40000u
static relic_buf shared_locstring(int flags)
{
    static uint32_t type[LOC_N], data[LOC_N];
    const uint32_t nfd = 12 + 8 * LOC_K;
    uint8_t *fd = calloc(nfd, 1);
    assert_non_null(fd);
    relic_store_u32le(fd, 8 + 8 * LOC_K);
    relic_store_u32le(fd + 4, RELIC_GFF_NONE);
    relic_store_u32le(fd + 8, LOC_K);
    for (uint32_t k = 0; k < LOC_K; k++) relic_store_u32le(fd + 12 + 8 * k, k % 16); /* language id; length 0 */
    for (uint32_t f = 0; f < LOC_N; f++) {
        type[f] = RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING;
        data[f] = 0;
    }
    relic_buf b = gff(flags & UNREACHED_STRUCT ? 2 : 1, type, data, LOC_N, fd, nfd, NULL, 0, flags);
    free(fd);
    return b;
}

static void test_fields_sharing_one_locstring_open_in_bounded_time(void **state)
{
    (void)state;
    /* the fast pass (root lists them), the walk (an unreached struct
     * sends it there), the unreached-field checks (nobody lists them) */
    static const int flags[] = {ROOT_LISTS, ROOT_LISTS | UNREACHED_STRUCT, 0, UNREACHED_STRUCT};
    static const char *names[] = {"gff-shared-locstring", "gff-shared-locstring-walk", "gff-shared-locstring-unlisted",
                                  "gff-shared-locstring-unreached"};
    for (int i = 0; i < 4; i++) {
        relic_buf b = shared_locstring(flags[i]);
        relic_gff_doc d;
        relic_error err;
        assert_int_equal(open_bounded(names[i], &b, &d, &err), RELIC_OK);
        assert_int_equal(d.reachable, 1);
        if (flags[i] & ROOT_LISTS) assert_int_equal(relic_gff_struct_field(&d, 0, LOC_N - 1), LOC_N - 1);
        relic_buf_free(&b);
    }
}

/* K locstrings at field-data offsets 0, 12, 24, ...: the locstring at 12j
 * holds the substrings j .. K-1 (12 bytes each: an id, length 4, 4 bytes
 * of text), and the 12 bytes of substring j-1 are its size, StrRef and
 * count. One field points at each. */
#define SUF_K 35000u
static relic_buf overlapping_locstrings(void)
{
    static uint32_t type[SUF_K], data[SUF_K];
    const uint32_t nfd = 12 + 12 * SUF_K;
    uint8_t *fd = calloc(nfd, 1);
    assert_non_null(fd);
    for (uint32_t j = 0; j < SUF_K; j++) {
        uint8_t *h = fd + 12 * j;
        relic_store_u32le(h, 8 + 12 * (SUF_K - j)); /* size (substring j-1's id) */
        relic_store_u32le(h + 4, 4);                /* StrRef (its length, 4) */
        relic_store_u32le(h + 8, SUF_K - j);        /* count (its text) */
        type[j] = RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING;
        data[j] = 12 * j;
    }
    relic_store_u32le(fd + 12 * SUF_K + 4, 4); /* the last substring's length */
    relic_buf b = gff(1, type, data, SUF_K, fd, nfd, NULL, 0, ROOT_LISTS);
    free(fd);
    return b;
}

static void test_overlapping_locstrings_are_refused_in_bounded_time(void **state)
{
    (void)state;
    relic_buf b = overlapping_locstrings();
    relic_gff_doc d;
    relic_error err;
    assert_int_equal(open_bounded("gff-overlapping-locstrings", &b, &d, &err), RELIC_E_LIMIT);
    assert_non_null(strstr(err.message, "share or overlap locstrings and lists"));
    assert_non_null(strstr(err.path, "fields["));
    relic_buf_free(&b);

    /* the first few of them alone are fine: the limit is on the work */
    static uint32_t type[4], data[4];
    const uint32_t k = 4, nfd = 12 + 12 * k;
    uint8_t fd[12 + 12 * 4];
    memset(fd, 0, sizeof fd);
    for (uint32_t j = 0; j < k; j++) {
        relic_store_u32le(fd + 12 * j, 8 + 12 * (k - j));
        relic_store_u32le(fd + 12 * j + 4, 4);
        relic_store_u32le(fd + 12 * j + 8, k - j);
        type[j] = RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING;
        data[j] = 12 * j;
    }
    relic_store_u32le(fd + 12 * k + 4, 4);
    b = gff(1, type, data, k, fd, nfd, NULL, 0, ROOT_LISTS);
    assert_int_equal(open_bounded("gff-overlapping-locstrings-small", &b, &d, &err), RELIC_OK);
    relic_buf_free(&b);
}

/* N list fields that no struct lists, all pointing at one list record of
 * M entries (struct 0 each): valid, each list checked once. Listed by the
 * root (M / 2 entries, to stay under 1 MB), they are refused. */
#define LIST_N 40000u
#define LIST_M 120000u
static void test_fields_sharing_one_list_open_in_bounded_time(void **state)
{
    (void)state;
    static uint32_t type[LIST_N], data[LIST_N], li[LIST_M + 1];
    for (uint32_t f = 0; f < LIST_N; f++) {
        type[f] = RELIC_GFF_FIELD_TYPE_LIST;
        data[f] = 0;
    }
    li[0] = LIST_M;
    relic_buf b = gff(1, type, data, LIST_N, NULL, 0, li, LIST_M + 1, 0);
    relic_gff_doc d;
    relic_error err;
    assert_int_equal(open_bounded("gff-shared-list", &b, &d, &err), RELIC_OK);
    relic_buf_free(&b);
    /* listed by the root: the walk checks every value before it descends,
     * then names struct 0 reached again (a cycle through the root) */
    li[0] = LIST_M / 2;
    b = gff(1, type, data, LIST_N, NULL, 0, li, LIST_M / 2 + 1, ROOT_LISTS);
    assert_int_equal(open_bounded("gff-shared-list-listed", &b, &d, &err), RELIC_E_LAYOUT);
    assert_non_null(strstr(err.message, "reached a second time"));
    relic_buf_free(&b);
}

/* K list records at list-indices words 0, 1, 2, ...: the one at word j
 * counts K-1-j entries, words j+1 .. K-1, each the count of the next
 * record (every value below the K structs). One field points at each. */
#define OLIST_K 35000u
static void test_overlapping_lists_are_refused_in_bounded_time(void **state)
{
    (void)state;
    static uint32_t type[OLIST_K], data[OLIST_K], li[OLIST_K];
    for (uint32_t j = 0; j < OLIST_K; j++) {
        type[j] = RELIC_GFF_FIELD_TYPE_LIST;
        data[j] = 4 * j;
        li[j] = OLIST_K - 1 - j;
    }
    relic_buf b = gff(OLIST_K, type, data, OLIST_K, NULL, 0, li, OLIST_K, 0);
    relic_gff_doc d;
    relic_error err;
    assert_int_equal(open_bounded("gff-overlapping-lists", &b, &d, &err), RELIC_E_LIMIT);
    assert_non_null(strstr(err.message, "share or overlap locstrings and lists"));
    relic_buf_free(&b);
}

/* What reads the text after validation is bounded the same way: the
 * encoding look (relic_gff_detect_encoding) of the shared locstring, and
 * the JSON printer's keys for 40000 fields with one label in one struct
 * ("__dupN__Name": each run of equal labels counted once). */
/* The encoding look and the printing of 40000 fields: docs/security.md's budget of 1 s (linear,
 * they take milliseconds plain and a few tenths under ASan; the quadratic code they replace took
 * 2.4 s and 1.6 s plain). */
#define LINEAR_CPU_MAX 1.0

static void test_encoding_look_and_duplicate_labels_are_linear(void **state)
{
    (void)state;
    relic_buf b = shared_locstring(ROOT_LISTS);
    relic_gff_doc d;
    relic_error err;
    assert_int_equal(open_bounded("gff-shared-locstring", &b, &d, &err), RELIC_OK);
    double t0 = cpu_seconds();
    assert_int_equal(relic_gff_detect_encoding(&d), RELIC_GFF_ENC_CP1252);
    assert_true(cpu_seconds() - t0 < LINEAR_CPU_MAX);
    relic_buf_free(&b);

    static uint32_t type[LOC_N], data[LOC_N];
    for (uint32_t f = 0; f < LOC_N; f++) {
        type[f] = RELIC_GFF_FIELD_TYPE_BYTE;
        data[f] = f & 0xFF;
    }
    b = gff(1, type, data, LOC_N, NULL, 0, NULL, 0, ROOT_LISTS);
    assert_int_equal(open_bounded("gff-one-label", &b, &d, &err), RELIC_OK);
    relic_buf out;
    relic_buf_init(&out, 0);
    t0 = cpu_seconds();
    assert_int_equal(relic_gff_json_print_doc(&d, RELIC_GFF_ENC_AUTO, &out, &err), RELIC_OK);
    assert_true(cpu_seconds() - t0 < LINEAR_CPU_MAX);
    assert_non_null(strstr((const char *)out.data, "\"__dup39999__Name\""));
    relic_buf_free(&out);
    relic_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields_sharing_one_locstring_open_in_bounded_time),
        cmocka_unit_test(test_overlapping_locstrings_are_refused_in_bounded_time),
        cmocka_unit_test(test_fields_sharing_one_list_open_in_bounded_time),
        cmocka_unit_test(test_overlapping_lists_are_refused_in_bounded_time),
        cmocka_unit_test(test_encoding_look_and_duplicate_labels_are_linear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
