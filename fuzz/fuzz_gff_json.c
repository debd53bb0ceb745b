/* fuzz_gff_json.c — libFuzzer target for the nwn_gff JSON reader
 * (runtime/json/gff_json.c). Oracles: what the reader accepts, the writer turns
 * into a GFF that validates, and printing that GFF and reading it back gives
 * the same bytes again; every rejection carries a message.
 * Build and run: make fuzz (or build-fuzz/fuzz_gff_json -max_total_time=60). */
#include <stdlib.h>
#include <string.h>

#include "relic_gff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    relic_arena a;
    relic_gff_tree t, t2;
    relic_gff_doc d;
    relic_error err;
    relic_buf bin, json, bin2;
    relic_arena_init_heap(&a, (size_t)256 << 20);
    relic_gff_encoding enc = size && (data[0] & 1) ? RELIC_GFF_ENC_UTF8 : RELIC_GFF_ENC_CP1252;
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
