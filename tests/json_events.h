/* json_events.h — the events a JSON reader reports, written down so that
 * two readers can be compared: relic_json_scan (runtime/json/json_scan.c)
 * against yajl with its default options. Shared by test_json_scan.c and
 * the fuzz_gff_json oracle. Each event is a kind byte, then for a string,
 * key or number its length (4 bytes) and bytes, for a boolean its value. */
#ifndef RELIC_TEST_JSON_EVENTS_H
#define RELIC_TEST_JSON_EVENTS_H

#include <string.h>
#include <yajl/yajl_parse.h>

#include "json_scan.h"
#include "relic.h"

static int ev_put(void *ctx, char kind, const void *p, size_t n)
{
    relic_buf *b = ctx;
    const uint32_t len = (uint32_t)n;
    relic_buf_append(b, &kind, 1);
    if (kind == 's' || kind == 'k' || kind == 'n') relic_buf_append(b, &len, 4);
    relic_buf_append(b, p, n);
    return !b->failed;
}
static int ev_null(void *c) { return ev_put(c, '0', "", 0); }
static int ev_bool(void *c, int v) { return ev_put(c, v ? 'T' : 'F', "", 0); }
static int ev_number(void *c, const char *p, size_t n) { return ev_put(c, 'n', p, n); }
static int ev_string(void *c, const unsigned char *p, size_t n) { return ev_put(c, 's', p, n); }
static int ev_key(void *c, const unsigned char *p, size_t n) { return ev_put(c, 'k', p, n); }
static int ev_start_map(void *c) { return ev_put(c, '{', "", 0); }
static int ev_end_map(void *c) { return ev_put(c, '}', "", 0); }
static int ev_start_array(void *c) { return ev_put(c, '[', "", 0); }
static int ev_end_array(void *c) { return ev_put(c, ']', "", 0); }
static const yajl_callbacks json_events_cb = {ev_null, ev_bool, NULL, NULL, ev_number, ev_string,
                                              ev_start_map, ev_key, ev_end_map, ev_start_array, ev_end_array};

/* yajl's reading of text: 1 when it accepts it, its events in out. */
static int json_events_yajl(const void *text, size_t len, relic_buf *out)
{
    yajl_handle h = yajl_alloc(&json_events_cb, NULL, out);
    yajl_status s = yajl_parse(h, text, len);
    if (s == yajl_status_ok) s = yajl_complete_parse(h);
    yajl_free(h);
    return s == yajl_status_ok;
}

/* relic_json_scan's reading of text, its decode buffer from an arena. */
static int json_events_scan(const void *text, size_t len, relic_buf *out)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    const int ok = relic_json_scan(text, len, &json_events_cb, out, &a);
    relic_arena_release(&a);
    return ok;
}

/* The oracle: 0 when the scan accepts what yajl refuses, or accepts it
 * with other events (the scan may refuse what yajl accepts: the forms it
 * leaves to yajl). *scanned says whether the scan accepted. */
static int json_events_agree(const void *text, size_t len, int *scanned)
{
    relic_buf e1, e2;
    relic_buf_init(&e1, 0);
    relic_buf_init(&e2, 0);
    const int s = json_events_scan(text, len, &e1), y = json_events_yajl(text, len, &e2);
    const int agree = !s || (y && e1.size == e2.size && (e1.size == 0 || memcmp(e1.data, e2.data, e1.size) == 0));
    relic_buf_free(&e1);
    relic_buf_free(&e2);
    if (scanned) *scanned = s;
    return agree;
}

#endif
