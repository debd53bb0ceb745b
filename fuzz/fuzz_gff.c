/* fuzz_gff.c — libFuzzer target for the GFF reader (runtime/formats/aurora/gff_validate.c,
 * gff_access.c, gff_tree.c), writer (gff_write.c) and JSON printer/reader
 * (gff_json_print.c, gff_json.c). Oracles: whatever relic_gff_open accepts, the tree builds;
 * written back with RELIC_GFF_LAYOUT_KEEP it validates again; binary ->
 * JSON -> binary gives the same bytes as the tree written in the default
 * layout (unless a locstring repeats a StringID, which nwn_gff JSON cannot
 * hold: RELIC_E_UNSUPPORTED); the JSON printed from the file's bytes equals
 * the tree's; the auto encoding's JSON reads back; relic_gff_json_to_gff
 * gives the bytes of the tree read back, in the JSON's family; every
 * rejection carries a message. The JSON oracles run for one input in FUZZ_JSON_ONE_IN (4,
 * fuzz_sample.h), the others on every input. Seeds: ../shared/corpus/gff.
 * Mutation: LLVMFuzzerCustomMutator/CustomCrossOver change the GFF tree
 * (relic_gff_mutate, runtime/mutate/gff_tree_mutate.c: boundary values, type
 * changes, fields dropped/duplicated, list elements duplicated/removed/
 * reordered, StructIDs, labels, locstrings, splices from the second input)
 * and write it with relic_gff_write_tree, for one call and one cross-over
 * in two (the others byte-level); -DRELIC_NO_CUSTOM_MUTATOR leaves
 * libFuzzer's byte-level mutator.
 * Build and run: make fuzz (or build-fuzz/fuzz_gff -max_total_time=60). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (fuzz_scratch.h) */
#include <stdlib.h>
#include <string.h>

#include "relic_gff.h"
#include "fuzz_sample.h"
#include "fuzz_scratch.h"

/* the JSON oracles (three prints, two reads and a write of the whole file) on one input in
 * this many, chosen by a hash of the input (fuzz_sample.h): on every input they were half of
 * a run (issue 18, perf); the reader, tree and writer oracles run on every input */
#ifndef FUZZ_JSON_ONE_IN
#define FUZZ_JSON_ONE_IN 4
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the tree mutator for one mutator call and one cross-over in two (seed bit 5; the others go
 * to libFuzzer's byte-level mutator and splice): each reads, changes and writes a whole tree,
 * and at seven calls in eight it was two fifths of a mutate-and-run step (issue 18, perf) */
#define FUZZ_STRUCTURED_TURN(seed) (((seed) >> 5) % 2 == 0)
#define FUZZ_CROSSOVER_TURN(seed) (((seed) >> 5) % 2 == 0)
#include "fuzz_gff_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    relic_arena a, bufs, scratch;
    relic_gff_doc d, d2;
    relic_gff_tree t, t2;
    relic_error err;
    /* models and trees in slot 0, written and printed bytes in slot 1, the printers' scratch in
     * slot 2: all mapped once; heap buffers and the printers' own heap arenas, freed every run,
     * were ASan mmap/munmap calls and page faults, half of the target's time (perf) */
    fuzz_scratch_arena(&a, 0, 0);
    fuzz_scratch_arena(&bufs, 1, 0);
    fuzz_scratch_arena(&scratch, 2, 0);
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
    relic_buf_init_arena(&keep, &bufs, 0);
    relic_buf_init_arena(&def, &bufs, 0);
    relic_buf_init_arena(&json, &bufs, 0);
    relic_buf_init_arena(&back, &bufs, 0);
    if (relic_gff_write_tree(&t, RELIC_GFF_LAYOUT_KEEP, &a, &keep, NULL, &err) != RELIC_OK) abort();
    if (relic_gff_open(keep.data, keep.size, &a, NULL, NULL, &d2, &err) != RELIC_OK) abort();
    if (relic_gff_write_tree(&t, RELIC_GFF_LAYOUT_DEFAULT, &a, &def, NULL, &err) != RELIC_OK) abort();
    if (relic_gff_open(def.data, def.size, &a, NULL, NULL, &d2, &err) != RELIC_OK) abort();
    if (!fuzz_sampled(data, size, FUZZ_JSON_ONE_IN)) goto done;
    relic_status st = relic_gff_json_print_tree_in(&t, RELIC_GFF_ENC_CP1252, &json, &scratch, &err);
    if (st == RELIC_E_UNSUPPORTED) goto done; /* duplicate StringIDs in a locstring: no JSON form */
    if (st != RELIC_OK) abort();
    {
        /* printed from the file's bytes, the same text as from the tree, unless the file's
         * records are in an order of their own: the JSON of the file records it in "__layout",
         * a tree does not carry it (relic_gff_tree_from_doc) */
        relic_buf direct;
        relic_buf_init_arena(&direct, &bufs, 0);
        relic_gff_order order;
        if (relic_gff_order_of(&d, t.family, &a, &order, &err) != RELIC_OK) abort();
        if (relic_gff_json_print_doc_in(&d, RELIC_GFF_ENC_CP1252, &direct, &scratch, &err) != RELIC_OK) abort();
        if (!relic_gff_order_used(&order) && (direct.size != json.size || memcmp(direct.data, json.data, json.size) != 0)) abort();
        relic_buf_free(&direct);
        /* auto: whatever encoding it picks reads back */
        relic_buf_init_arena(&direct, &bufs, 0);
        if (relic_gff_json_print_doc_in(&d, RELIC_GFF_ENC_AUTO, &direct, &scratch, &err) != RELIC_OK) abort();
        if (relic_gff_json_read_tree((const char *)direct.data, direct.size, RELIC_GFF_ENC_AUTO, &a, &t2, &err) != RELIC_OK) abort();
        relic_buf_free(&direct);
    }
    if (relic_gff_json_read_tree((const char *)json.data, json.size, RELIC_GFF_ENC_CP1252, &a, &t2, &err) != RELIC_OK) abort();
    if (relic_gff_write_tree(&t2, RELIC_GFF_LAYOUT_DEFAULT, &a, &back, NULL, &err) != RELIC_OK) abort();
    if (back.size != def.size || memcmp(back.data, def.data, def.size) != 0) abort();
    {
        /* JSON straight to bytes (relic_gff_json_to_gff): what the tree gives in the JSON's family */
        relic_buf fam, flat;
        relic_buf_init_arena(&fam, &bufs, 0);
        relic_buf_init_arena(&flat, &bufs, 0);
        if (relic_gff_write_tree(&t2, t2.family, &a, &fam, NULL, &err) != RELIC_OK) abort();
        if (relic_gff_json_to_gff((const char *)json.data, json.size, RELIC_GFF_ENC_CP1252, &a, &flat, &err) != RELIC_OK) abort();
        if (flat.size != fam.size || memcmp(flat.data, fam.data, fam.size) != 0) abort();
    }
done:
    relic_buf_free(&keep);
    relic_buf_free(&def);
    relic_buf_free(&json);
    relic_buf_free(&back);
    relic_arena_release(&scratch);
    relic_arena_release(&bufs);
    relic_arena_release(&a);
    return 0;
}
