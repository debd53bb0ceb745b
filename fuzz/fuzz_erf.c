/* fuzz_erf.c — libFuzzer target for the ERF/RIM container reader
 * (runtime/formats/aurora/erf_archive.c), writer (erf_write.c) and member GFF access.
 * Oracles: whatever relic_erf_open accepts has every entry's bytes inside
 * the input and names that resolve back to their entry; written back with
 * RELIC_ERF_LAYOUT_KEEP it validates again with the same entries and bytes
 * (and the same size when the layout was kept); written PACKED it validates
 * with the same entries; a member GFF opens in place or is rejected with a
 * message; every rejection carries a message. Seeds: ../shared/corpus/other.
 * Build and run: make fuzz (or build-fuzz/fuzz_erf -max_total_time=60). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (fuzz_scratch.h) */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "relic_erf.h"
#include "fuzz_scratch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Structure-aware LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver
 * (fuzz_mutator.h) over relic_mutator_erf, relic_mutator_rim; -DRELIC_NO_CUSTOM_MUTATOR leaves libFuzzer's
 * byte-level mutator. */
#define FUZZ_MUTATORS relic_mutator_erf, relic_mutator_rim
/* one mutator call and one cross-over in two structure-aware (seed bit 5): each decodes,
 * changes and writes a whole file with heap arenas of its own, which at seven in eight
 * kept the target under 1,000 executions per second (issue 18) */
#define FUZZ_STRUCTURED_TURN(seed) (((seed) >> 5) % 2 == 0)
#define FUZZ_CROSSOVER_TURN(seed) (((seed) >> 5) % 2 == 0)
#include "fuzz_mutator.h"

/* relic_erf_archive_write with its scratch in fuzz_scratch.h's arena (mapped once, reused every run) */
static relic_status erf_write_scratch(const relic_erf_archive *ar, relic_erf_layout layout, relic_buf *out, int *fell_back,
                                      relic_error *err)
{
    relic_arena a;
    fuzz_scratch_arena(&a, 1, 0);
    relic_status st = relic_erf_archive_write(ar, layout, &a, out, fell_back, err);
    relic_arena_release(&a);
    return st;
}

static void same_entries(const relic_erf_archive *a, const relic_erf_archive *b)
{
    if (a->count != b->count) abort();
    for (uint32_t i = 0; i < a->count; i++) {
        const relic_erf_entry *x = &a->entries[i], *y = &b->entries[i];
        if (strcmp(x->resref, y->resref) || x->res_type != y->res_type || x->res_id != y->res_id || x->size != y->size)
            abort();
        if (x->size && memcmp(x->data, y->data, x->size)) abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    relic_arena a;
    relic_erf_archive ar, back;
    relic_error err;
    fuzz_scratch_arena(&a, 0, (size_t)256 << 20);
    if (relic_erf_open(data, size, &a, &ar, &err) != RELIC_OK) {
        if (err.message[0] == 0) abort();
        relic_arena_release(&a);
        return 0;
    }
    for (uint32_t i = 0; i < ar.count; i++) {
        const relic_erf_entry *e = &ar.entries[i];
        char name[64];
        uint32_t k;
        if ((uint64_t)e->offset + e->size > size || e->data != data + e->offset) abort();
        relic_erf_entry_name(&ar, i, name, sizeof name);
        /* a name finds an entry of that name (the first of duplicates); NUL-free resrefs only */
        if (strlen(e->resref) && relic_erf_find(&ar, name, &k) &&
            (ar.entries[k].res_type != e->res_type || strcasecmp(ar.entries[k].resref, e->resref)))
            abort();
        relic_gff_doc d;
        if (relic_erf_open_gff(&ar, i, &a, &d, &err) != RELIC_OK && err.message[0] == 0) abort();
    }
    /* the rewrites grow in slot 2, not on the heap: fresh heap blocks each run
     * were a fifth of the target's time in page faults and zero-filling (perf) */
    relic_arena outs;
    relic_buf keep, packed;
    int fell_back = 0;
    fuzz_scratch_arena(&outs, 2, 0);
    relic_buf_init_arena(&keep, &outs, 0);
    relic_buf_init_arena(&packed, &outs, 0);
    if (erf_write_scratch(&ar, RELIC_ERF_LAYOUT_KEEP, &keep, &fell_back, &err) != RELIC_OK || keep.failed) abort();
    if (relic_erf_open(keep.data, keep.size, &a, &back, &err) != RELIC_OK) abort();
    same_entries(&ar, &back);
    if (!fell_back && keep.size != size) abort();
    if (erf_write_scratch(&ar, RELIC_ERF_LAYOUT_PACKED, &packed, NULL, &err) != RELIC_OK || packed.failed) abort();
    if (relic_erf_open(packed.data, packed.size, &a, &back, &err) != RELIC_OK) abort();
    same_entries(&ar, &back);
    relic_arena_release(&outs);
    relic_arena_release(&a);
    return 0;
}
