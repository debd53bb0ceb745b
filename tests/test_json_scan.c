/* test_json_scan.c — relic_json_scan (runtime/json/json_scan.c) against
 * yajl, the reader it stands beside: well-formed texts it must accept with
 * yajl's events (every value kind, escapes, UTF-8 of each length, strings
 * whose special byte falls at each place of an eight-byte step, nesting to
 * its limit); malformed ones it must refuse as yajl does; the forms it
 * leaves to yajl (refused here, accepted by yajl); random mutations of all
 * of these, where accepting must mean yajl accepts with the same events;
 * and relic's own GFF JSON, which it must accept whole. Each text sits in
 * a heap block of its exact size, so that a read past its end is an ASan
 * report. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "json_events.h"
#include "relic_gff.h"

/* The scan's answer for n bytes at s, read from an exact-size copy; the
 * oracle checked. */
static int scan_n(const char *s, size_t n)
{
    char *copy = malloc(n ? n : 1);
    memcpy(copy, s, n);
    int scanned;
    const int agree = json_events_agree(copy, n, &scanned);
    free(copy);
    if (!agree) fail_msg("the scan disagrees with yajl on: %.*s", (int)n, s);
    return scanned;
}
static int scan(const char *s) { return scan_n(s, strlen(s)); }

static int yajl_accepts(const char *s)
{
    relic_buf e;
    relic_buf_init(&e, 0);
    const int ok = json_events_yajl(s, strlen(s), &e);
    relic_buf_free(&e);
    return ok;
}

static void accepts_json_with_yajls_events(void **state)
{
    (void)state;
    static const char *good[] = {
        "{}",
        "[]",
        "{\"a\":1}",
        "[1,-0,0.5,-12.5e+3,1E-2,0e0,1e5,-9223372036854775809]",
        "\"s\"",
        "true",
        "false",
        "null",
        "0",
        "-1.25",
        " \t\r\n{ \"a\" : [ 1 , 2 ] , \"b\" : { } } \n",
        "[[],{},[[{}]],\"\"]",
        "[\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\"]",
        "[\"\\u0041\\u00e9\\u20AC\\uFFFF\\u0000x\"]",
        "{\"a\\nb\":\"c\\td\",\"e\":\"f\"}",
        "[\"\xC3\xA9\",\"\xE2\x82\xAC\",\"\xF0\x9F\x98\x80\",\"\xF4\x8F\xBF\xBF\"]",
        "[\"\xEF\xBF\xBF\xEE\x80\x80\xED\x9F\xBF\"]",
        "[\"a\x7f\"]",
        "{\"__data_type\":\"GIT \",\"x\":{\"type\":\"int\",\"value\":18}}",
        "[true,false,null,{\"k\":[null]}]",
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        if (!scan(good[i])) fail_msg("refused well-formed JSON: %s", good[i]);
}

/* A special byte (quote end, escape, UTF-8 lead) at every offset of
 * strings 0 .. 40 bytes long: the eight-byte step and the byte tail. */
static void strings_at_every_offset(void **state)
{
    (void)state;
    static const char *specials[] = {"\\n", "\\u00e9", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\\\""};
    char text[128];
    for (size_t k = 0; k < sizeof specials / sizeof *specials; k++)
        for (int len = 0; len <= 40; len++)
            for (int at = 0; at <= len; at++) {
                int n = snprintf(text, sizeof text, "[\"%.*s%s%.*s\"]", at, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP", specials[k],
                                 len - at, "0123456789012345678901234567890123456789");
                if (!scan_n(text, (size_t)n)) fail_msg("refused: %s", text);
                /* the same string cut short: no closing quote */
                if (scan_n(text, (size_t)n - 2)) fail_msg("accepted a string without its closing quote: %.*s", n - 2, text);
            }
}

static void refuses_what_yajl_refuses(void **state)
{
    (void)state;
    static const char *bad[] = {
        "",
        " ",
        "{",
        "}",
        "[",
        "{\"a\"}",
        "{\"a\":}",
        "[1,]",
        "{\"a\":1,}",
        "01",
        "[01]",
        "-",
        "[-]",
        "1.",
        "[1.]",
        "1e",
        "[1e+]",
        ".5",
        "+1",
        "\"abc",
        "[\"\\x\"]",
        "[\"\\u12G4\"]",
        "[\"\\u123\"]",
        "[\"\\",
        "tru",
        "nul",
        "fals",
        "[truex]",
        "[1 2]",
        "{\"a\" 1}",
        "{1:2}",
        "[\"a\x01\"]",
        "[\"a\nb\"]",
        "[] []",
        "[]x",
        "/* c */ []",
        "[1]//",
        "'a'",
        "\xEF\xBB\xBF[1]",
        "[\"\x80\"]",
        "[\"\xC3\"]",
        "[\"\xE2\x82\"]",
        "[\"\xF8\x80\x80\x80\x80\"]",
        "{\"a\":1]",
        "[1}",
        "{\"a\":1}{}",
        "[NaN]",
        "[Infinity]",
        "[0x10]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (yajl_accepts(bad[i])) fail_msg("yajl accepts %s: the test's premise is wrong", bad[i]);
        if (scan(bad[i])) fail_msg("accepted malformed JSON: %s", bad[i]);
    }
}

/* What yajl accepts and the scan leaves to it (json_scan.h): its
 * whitespace, its UTF-8 and its surrogate pairing. */
static void leaves_yajls_own_readings_to_yajl(void **state)
{
    (void)state;
    static const char *left[] = {
        "[\v1]",
        "[\f1]",
        "[1]\v",
        "[\"\xC0\x80\"]",
        "[\"\xC1\xBF\"]",
        "[\"\xE0\x80\x80\"]",
        "[\"\xED\xA0\x80\"]",
        "[\"\xF0\x80\x80\x80\"]",
        "[\"\xF5\x80\x80\x80\"]",
        "[\"\\uD83D\\uDE00\"]",
        "[\"\\uDE00\"]",
        "{\"\\uD800\":1}",
    };
    for (size_t i = 0; i < sizeof left / sizeof *left; i++) {
        if (!yajl_accepts(left[i])) fail_msg("yajl refuses %s: the test's premise is wrong", left[i]);
        if (scan(left[i])) fail_msg("took a form it should leave to yajl: %s", left[i]);
    }
}

/* Nesting: RELIC_JSON_SCAN_MAX_DEPTH open containers are read, one more
 * is left to yajl. */
static void nesting_to_its_limit(void **state)
{
    (void)state;
    const size_t max = RELIC_JSON_SCAN_MAX_DEPTH;
    char *t = malloc(2 * (max + 1) + 1);
    for (size_t levels = max; levels <= max + 1; levels++) {
        size_t n = 0;
        for (size_t i = 0; i < levels; i++) t[n++] = '[';
        t[n++] = '1';
        for (size_t i = 0; i < levels; i++) t[n++] = ']';
        assert_int_equal(scan_n(t, n), levels == max);
    }
    /* objects and arrays in turn, so the bit per level is read back right */
    size_t n = 0;
    for (size_t i = 0; i < 100; i++) n += (size_t)sprintf(t + n, i % 2 ? "[" : "{\"k%zu\":", i);
    n += (size_t)sprintf(t + n, "null");
    for (size_t i = 100; i-- > 0;) t[n++] = i % 2 ? ']' : '}';
    assert_true(scan_n(t, n));
    free(t);
}

/* Random edits of the texts above and of a GFF's JSON: whatever the scan
 * accepts, yajl accepts with the same events (scan_n checks). */
static uint32_t rng = 12345;
static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static void mutations_agree_with_yajl(void **state)
{
    (void)state;
    static const char *seeds[] = {
        "{\"__data_type\":\"GIT \",\"List\":{\"type\":\"list\",\"value\":[{\"__struct_id\":4,\"Tag\":{\"type\":\"cexostring\","
        "\"value\":\"a\\nb\xC3\xA9\"},\"X\":{\"type\":\"float\",\"value\":-1.5e-3}}]}}",
        "[\"\\u00e9\\t\", true, false, null, 12, -0.5, {\"\": []}]",
    };
    static const char alphabet[] = "{}[]\":,\\u0123456789-+.eEtrufalsn \t\n\v\x01\x7f\x80\xC3\xA9\xED\xA0\xF0\x9F";
    char buf[512];
    int accepted = 0;
    for (int i = 0; i < 40000; i++) {
        const char *seed = seeds[next() % 2];
        size_t n = strlen(seed);
        memcpy(buf, seed, n);
        for (int edits = 1 + (int)(next() % 3); edits > 0; edits--) {
            const size_t at = n ? next() % n : 0;
            switch (next() % 4) {
            case 0: buf[at] = alphabet[next() % (sizeof alphabet - 1)]; break;
            case 1: /* insert */
                if (n + 1 < sizeof buf) {
                    memmove(buf + at + 1, buf + at, n - at);
                    buf[at] = alphabet[next() % (sizeof alphabet - 1)];
                    n++;
                }
                break;
            case 2: /* delete */
                if (n) {
                    memmove(buf + at, buf + at + 1, n - at - 1);
                    n--;
                }
                break;
            default: n = at; /* cut */
            }
        }
        accepted += scan_n(buf, n);
    }
    /* the edits keep some texts well-formed: the comparison was made */
    assert_true(accepted > 100);
}

/* relic's own printing of a GFF with every kind of value: read whole. */
static void gff_json_is_read_whole(void **state)
{
    (void)state;
    relic_arena a;
    relic_gff_tree t;
    relic_buf json;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    static const char *text = "{\"__data_type\":\"UTI \",\"Name\":{\"type\":\"cexolocstring\",\"value\":{\"id\":12,\"0\":\"Sword \xC3\xA9\\n\"}},"
                              "\"Cost\":{\"type\":\"dword\",\"value\":4294967295},\"F\":{\"type\":\"double\",\"value\":-1.0e-300},"
                              "\"V\":{\"type\":\"vector\",\"value\":[1.5,2,3]},\"Raw\":{\"type\":\"void\",\"value64\":\"AAEC\"}}";
    assert_int_equal(relic_gff_json_read_tree(text, strlen(text), RELIC_GFF_ENC_CP1252, &a, &t, &err), RELIC_OK);
    relic_buf_init(&json, 0);
    assert_int_equal(relic_gff_json_print_tree(&t, RELIC_GFF_ENC_CP1252, &json, &err), RELIC_OK);
    assert_true(scan_n((const char *)json.data, json.size));
    relic_buf_free(&json);
    relic_arena_release(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(accepts_json_with_yajls_events),
        cmocka_unit_test(strings_at_every_offset),
        cmocka_unit_test(refuses_what_yajl_refuses),
        cmocka_unit_test(leaves_yajls_own_readings_to_yajl),
        cmocka_unit_test(nesting_to_its_limit),
        cmocka_unit_test(mutations_agree_with_yajl),
        cmocka_unit_test(gff_json_is_read_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
