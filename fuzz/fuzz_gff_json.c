/* fuzz_gff_json.c — libFuzzer target for the nwn_gff JSON reader
 * (runtime/json/gff_json.c). Oracles: what the reader accepts, the writer turns
 * into a GFF that validates, and printing that GFF and reading it back gives
 * the same bytes again; every rejection carries a message; and
 * relic_gff_json_to_gff (runtime/json/gff_json_flat.c) gives what reading
 * and writing in the JSON's family give: the same bytes, or the same
 * error; and its JSON reader (runtime/json/json_scan.c) accepts only what
 * yajl accepts, with yajl's events.
 * Build and run: make fuzz (or build-fuzz/fuzz_gff_json -max_total_time=60). */
#include <stdlib.h>
#include <string.h>

#include "../tests/json_events.h"
#include "relic_gff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* relic_gff_json_to_gff against relic_gff_json_read_tree +
 * relic_gff_write_tree(t, t->family), each in its own arena. */
static void same_as_tree(const uint8_t *data, size_t size, relic_gff_encoding enc)
{
    relic_arena a1, a2;
    relic_buf o1, o2;
    relic_error e1, e2;
    relic_gff_tree t;
    relic_arena_init_heap(&a1, (size_t)256 << 20);
    relic_arena_init_heap(&a2, (size_t)256 << 20);
    relic_buf_init_arena(&o1, &a1, 0);
    relic_buf_init_arena(&o2, &a2, 0);
    relic_status s1 = relic_gff_json_to_gff((const char *)data, size, enc, &a1, &o1, &e1);
    relic_status s2 = relic_gff_json_read_tree((const char *)data, size, enc, &a2, &t, &e2);
    if (s2 == RELIC_OK) s2 = relic_gff_write_tree(&t, t.family, &a2, &o2, NULL, &e2);
    if (s1 != RELIC_E_NOMEM && s2 != RELIC_E_NOMEM) {
        if (s1 != s2) abort();
        if (s1 == RELIC_OK && (o1.size != o2.size || memcmp(o1.data, o2.data, o1.size) != 0)) abort();
        if (s1 != RELIC_OK && (strcmp(e1.message, e2.message) != 0 || strcmp(e1.path, e2.path) != 0 || e1.offset != e2.offset))
            abort();
    }
    relic_arena_release(&a1);
    relic_arena_release(&a2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    relic_arena a;
    relic_gff_tree t, t2;
    relic_gff_doc d;
    relic_error err;
    relic_buf bin, json, bin2;
    relic_arena_init_heap(&a, (size_t)256 << 20);
    relic_gff_encoding enc = size && (data[0] & 1) ? RELIC_GFF_ENC_UTF8 : RELIC_GFF_ENC_CP1252;
    if (!json_events_agree(data, size, NULL)) abort();
    same_as_tree(data, size, size && (data[0] & 2) ? RELIC_GFF_ENC_AUTO : enc);
    if (relic_gff_json_read_tree((const char *)data, size, enc, &a, &t, &err) != RELIC_OK) {
        if (err.message[0] == 0) abort();
        relic_arena_release(&a);
        return 0;
    }
    relic_buf_init(&bin, 0);
    relic_buf_init(&json, 0);
    relic_buf_init(&bin2, 0);
    if (relic_gff_write_tree(&t, RELIC_GFF_LAYOUT_DEFAULT, &a, &bin, NULL, &err) == RELIC_OK) {
        if (relic_gff_open(bin.data, bin.size, &a, NULL, NULL, &d, &err) != RELIC_OK) abort();
        if (relic_gff_json_print_tree(&t, enc, &json, &err) != RELIC_OK) abort();
        if (relic_gff_json_read_tree((const char *)json.data, json.size, enc, &a, &t2, &err) != RELIC_OK) abort();
        if (relic_gff_write_tree(&t2, RELIC_GFF_LAYOUT_DEFAULT, &a, &bin2, NULL, &err) != RELIC_OK) abort();
        if (bin2.size != bin.size || memcmp(bin.data, bin2.data, bin.size) != 0) abort();
    } else if (err.message[0] == 0) {
        abort();
    }
    relic_buf_free(&bin);
    relic_buf_free(&json);
    relic_buf_free(&bin2);
    relic_arena_release(&a);
    return 0;
}
