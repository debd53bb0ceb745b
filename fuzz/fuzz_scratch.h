/* fuzz_scratch.h — per-run arenas over memory mapped once and reused by
 * every run of a target. A heap arena made per run takes blocks of 128 KiB
 * and more, which ASan's allocator maps afresh each time: their page faults
 * were a third to a half of the slow targets' time (issue 18, perf). The
 * memory is mapped, not static, so LeakSanitizer does not scan it as a
 * global, and MAP_NORESERVE, so only the pages a run touches are taken.
 * A target that includes this defines _DEFAULT_SOURCE first (MAP_ANONYMOUS).
 * The arenas are buffer arenas: an allocation past FUZZ_SCRATCH_BYTES (or the
 * limit asked for) fails with RELIC_E_NOMEM as a heap arena at its limit does. */
#ifndef RELIC_FUZZ_SCRATCH_H
#define RELIC_FUZZ_SCRATCH_H

#include <stdlib.h>
#include <sys/mman.h>

#include "relic.h"

/* independent arenas a run may hold at once, and the bytes of each; the
 * last two are the custom mutators' (fuzz_mutator_arenas) */
#define FUZZ_SCRATCH_SLOTS 6u
#define FUZZ_SCRATCH_BYTES ((size_t)64 << 20)

/* Arena a over slot `slot` (0..FUZZ_SCRATCH_SLOTS-1), empty, at most limit
 * bytes (0: the whole slot). relic_arena_release on it is harmless. */
static inline void fuzz_scratch_arena(relic_arena *a, unsigned slot, size_t limit)
{
    static uint8_t *base;
    if (!base) {
        void *p = mmap(NULL, FUZZ_SCRATCH_SLOTS * FUZZ_SCRATCH_BYTES, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED || slot >= FUZZ_SCRATCH_SLOTS) abort();
        base = p;
    }
    if (slot >= FUZZ_SCRATCH_SLOTS) abort();
    relic_arena_init_buffer(a, base + slot * FUZZ_SCRATCH_BYTES,
                            limit && limit < FUZZ_SCRATCH_BYTES ? limit : FUZZ_SCRATCH_BYTES);
}

/* The custom mutators' memory (relic_mutate and the other mutators take a
 * scratch arena): scratch over slot 4, and out, growing in slot 5 up to
 * max bytes, so a mutation calls no malloc. The mutator runs between two
 * runs of the target, never inside one, but has slots of its own anyway. */
static inline void fuzz_mutator_arenas(relic_arena *scratch, relic_arena *out_arena, relic_buf *out, size_t max)
{
    fuzz_scratch_arena(scratch, 4, 0);
    fuzz_scratch_arena(out_arena, 5, 0);
    relic_buf_init_arena(out, out_arena, max);
}

#endif
