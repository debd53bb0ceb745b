/* fuzz_trr.c — libFuzzer target for the TRR point-cloud reader
 * (runtime/formats/tres/trr_lexer.re), writer (runtime/formats/tres/trr_write.c) and resampling onto
 * a WTD grid (runtime/formats/tres/trr_grid.c). Oracles: no read out of bounds (ASan),
 * no undefined arithmetic (UBSan), every failure carries a message, what
 * was read writes out and reads back to the same points, and a grid made
 * from them has its heights within 16 bits of quantisation.
 * Build and run: make fuzz (or build-fuzz/fuzz_trr -max_total_time=60). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (fuzz_scratch.h) */
#include <stdlib.h>
#include <string.h>

#include "relic_trr.h"
#include "fuzz_scratch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Structure-aware LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver
 * (fuzz_mutator.h) over relic_mutator_trr, and half of the calls first to
 * the token-level mutator over relic_tokens_trr (number spellings, blanks
 * and line ends); -DRELIC_NO_CUSTOM_MUTATOR leaves libFuzzer's byte-level
 * mutator. */
#define FUZZ_MUTATORS relic_mutator_trr
#define FUZZ_TOKENS relic_tokens_trr
#include "fuzz_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    relic_arena a;
    relic_trr_points p, p2;
    relic_error err;
    fuzz_scratch_arena(&a, 0, (size_t)64 << 20);
    relic_status st = relic_trr_parse("f.trr", data, size, &a, &p, &err);
    if (st != RELIC_OK && err.message[0] == 0) abort();
    if (st == RELIC_OK) {
        relic_buf out;
        relic_buf_init(&out, 0);
        if (relic_trr_write(&p, &out, &err) != RELIC_OK) abort();
        /* a first X of -1 would read back as the obsolete format: only check others */
        if (p.count == 0 || p.points[0][0] != -1) {
            if (relic_trr_parse(NULL, out.data, out.size, &a, &p2, &err) != RELIC_OK || p2.count != p.count) abort();
            if (p.count && memcmp(p.points, p2.points, sizeof(double[3]) * p.count)) {
                for (size_t i = 0; i < p.count; i++)
                    for (int k = 0; k < 3; k++)
                        if (p.points[i][k] != p2.points[i][k]) abort();
            }
        }
        relic_buf_free(&out);
        relic_trr_grid g;
        if (p.count && relic_trr_to_grid(&p, 0, &a, &g, &err) == RELIC_OK)
            for (uint32_t y = 0; y < g.height; y++)
                for (uint32_t x = 0; x < g.width; x++) {
                    int32_t v = g.heights[(size_t)y * g.n + x];
                    if (v > 65536 || v < -65536) abort();
                }
    }
    relic_arena_release(&a);
    return 0;
}
