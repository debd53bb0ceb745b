/* fuzz_gff.c — libFuzzer target for the GFF reader (runtime/formats/aurora/gff_validate.c,
 * gff_access.c, gff_tree.c), writer (gff_write.c) and JSON printer/reader
 * (gff_json_print.c, gff_json.c). Oracles: whatever relic_gff_open accepts, the tree builds;
 * written back with RELIC_GFF_LAYOUT_KEEP it validates again; binary ->
 * JSON -> binary gives the same bytes as the tree written in the default
 * layout (unless a locstring repeats a StringID, which nwn_gff JSON cannot
 * hold: RELIC_E_UNSUPPORTED); the JSON printed from the file's bytes equals
 * the tree's; the auto encoding's JSON reads back; every rejection carries
 * a message. Seeds: ../shared/corpus/gff.
 * Mutation: LLVMFuzzerCustomMutator/CustomCrossOver change the GFF tree
 * (relic_gff_mutate, runtime/mutate/gff_tree_mutate.c: boundary values, type
 * changes, fields dropped/duplicated, list elements duplicated/removed/
 * reordered, StructIDs, labels, locstrings, splices from the second input)
 * and write it with relic_gff_write_tree; -DRELIC_NO_CUSTOM_MUTATOR leaves
 * libFuzzer's byte-level mutator.
 * Build and run: make fuzz (or build-fuzz/fuzz_gff -max_total_time=60). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (fuzz_scratch.h) */
#include <stdlib.h>
#include <string.h>

#include "relic_gff.h"
#include "fuzz_scratch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#include "fuzz_gff_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    relic_arena a;
    relic_gff_doc d, d2;
    relic_gff_tree t, t2;
    relic_error err;
    fuzz_scratch_arena(&a, 0, (size_t)256 << 20);
    if (relic_gff_open(data, size, &a, NULL, NULL, &d, &err) != RELIC_OK) {
        if (err.message[0] == 0) abort();
        relic_arena_release(&a);
        return 0;
    }
    /* zero-copy getters over every field: each one either reads or reports a mismatch */
    for (uint32_t f = 0; f < d.field_count; f++) {
        uint64_t u;
        int64_t i;
        relic_bytes b;
        relic_gff_list l;
        if (relic_gff_get_uint(&d, f, &u, &err) != RELIC_OK && relic_gff_get_int(&d, f, &i, &err) != RELIC_OK &&
            relic_gff_get_string(&d, f, &b, &err) != RELIC_OK && relic_gff_get_list(&d, f, &l, &err) == RELIC_OK) {
            for (uint32_t k = 0; k < l.count; k++)
                if (relic_gff_list_at(&l, k) >= d.struct_count) abort();
        }
    }
    if (relic_gff_tree_from_doc(&d, &a, &t, &err) != RELIC_OK) abort();
    relic_buf keep, def, json, back;
    relic_buf_init(&keep, 0);
    relic_buf_init(&def, 0);
    relic_buf_init(&json, 0);
    relic_buf_init(&back, 0);
    if (relic_gff_write_tree(&t, RELIC_GFF_LAYOUT_KEEP, &a, &keep, NULL, &err) != RELIC_OK) abort();
    if (relic_gff_open(keep.data, keep.size, &a, NULL, NULL, &d2, &err) != RELIC_OK) abort();
    if (relic_gff_write_tree(&t, RELIC_GFF_LAYOUT_DEFAULT, &a, &def, NULL, &err) != RELIC_OK) abort();
    if (relic_gff_open(def.data, def.size, &a, NULL, NULL, &d2, &err) != RELIC_OK) abort();
    relic_status st = relic_gff_json_print_tree(&t, RELIC_GFF_ENC_CP1252, &json, &err);
    if (st == RELIC_E_UNSUPPORTED) goto done; /* duplicate StringIDs in a locstring: no JSON form */
    if (st != RELIC_OK) abort();
    {
        /* printed from the file's bytes, the same text as from the tree, unless the file's
         * records are in an order of their own: the JSON of the file records it in "__layout",
         * a tree does not carry it (relic_gff_tree_from_doc) */
        relic_buf direct;
        relic_buf_init(&direct, 0);
        relic_gff_order order;
        if (relic_gff_order_of(&d, t.family, &a, &order, &err) != RELIC_OK) abort();
        if (relic_gff_json_print_doc(&d, RELIC_GFF_ENC_CP1252, &direct, &err) != RELIC_OK) abort();
        if (!relic_gff_order_used(&order) && (direct.size != json.size || memcmp(direct.data, json.data, json.size) != 0)) abort();
        relic_buf_free(&direct);
        /* auto: whatever encoding it picks reads back */
        relic_buf_init(&direct, 0);
        if (relic_gff_json_print_doc(&d, RELIC_GFF_ENC_AUTO, &direct, &err) != RELIC_OK) abort();
        if (relic_gff_json_read_tree((const char *)direct.data, direct.size, RELIC_GFF_ENC_AUTO, &a, &t2, &err) != RELIC_OK) abort();
        relic_buf_free(&direct);
    }
    if (relic_gff_json_read_tree((const char *)json.data, json.size, RELIC_GFF_ENC_CP1252, &a, &t2, &err) != RELIC_OK) abort();
    if (relic_gff_write_tree(&t2, RELIC_GFF_LAYOUT_DEFAULT, &a, &back, NULL, &err) != RELIC_OK) abort();
    if (back.size != def.size || memcmp(back.data, def.data, def.size) != 0) abort();
done:
    relic_buf_free(&keep);
    relic_buf_free(&def);
    relic_buf_free(&json);
    relic_buf_free(&back);
    relic_arena_release(&a);
    return 0;
}
