/* fuzz_wtd.c — libFuzzer target for the WTD decoder (runtime/wtd_*.c):
 * header, zerotree and inverse lifting transform over any bytes. Oracles:
 * no read out of bounds (ASan), no undefined arithmetic (UBSan), every
 * failure carries a message, and a successful decode's height range is
 * that of its grid. Memory is capped by the arena (quad sizes up to 16384
 * would need 1 GiB), so large grids fail with RELIC_E_NOMEM.
 * Build and run: make fuzz (or build-fuzz/fuzz_wtd -max_total_time=60). */
#include <stdlib.h>

#include "relic_wtd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Structure-aware LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver
 * (fuzz_mutator.h) over relic_mutator_wtd; -DRELIC_NO_CUSTOM_MUTATOR leaves libFuzzer's
 * byte-level mutator. */
#define FUZZ_MUTATORS relic_mutator_wtd
#include "fuzz_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    relic_arena a;
    relic_wtd_terrain t;
    relic_error err;
    relic_arena_init_heap(&a, (size_t)16 << 20);
    relic_status st = relic_wtd_decode_terrain(data, size, &a, &t, &err);
    if (st != RELIC_OK && err.message[0] == 0) abort();
    if (st == RELIC_OK) {
        for (size_t i = 0; i < (size_t)t.n * t.n; i++)
            if (t.heights[i] < t.min || t.heights[i] > t.max) abort();
    }
    relic_arena_release(&a);
    return 0;
}
