/* fuzz_wtd.c — libFuzzer target for the WTD decoder (runtime/wtd_*.c):
 * header, zerotree and inverse lifting transform over any bytes. Oracles:
 * no read out of bounds (ASan), no undefined arithmetic (UBSan), every
 * failure carries a message, and a successful decode's height range is
 * that of its grid; a decoded grid of up to 256 x 256 whose forward
 * transform stays in 32 bits (runtime/formats/tres/wtd_forward.c) gives back the
 * decoder's coefficients' synthesis exactly, and re-encoded with the
 * file's own parameter block (runtime/formats/tres/wtd_encode.c) decodes to the same
 * heights (decode -> encode -> decode). Memory is capped by the arena (quad sizes up to 16384
 * would need 1 GiB), so large grids fail with RELIC_E_NOMEM.
 * Build and run: make fuzz (or build-fuzz/fuzz_wtd -max_total_time=60). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (fuzz_scratch.h) */
#include <stdlib.h>
#include <string.h>

#include "relic_wtd.h"
#include "fuzz_scratch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Structure-aware LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver
 * (fuzz_mutator.h) over relic_mutator_wtd; -DRELIC_NO_CUSTOM_MUTATOR leaves libFuzzer's
 * byte-level mutator. */
#define FUZZ_MUTATORS relic_mutator_wtd
/* one mutator call and one cross-over in two structure-aware (seed bit 5): each decodes,
 * changes and writes a whole file with heap arenas of its own, which at seven in eight
 * kept the target under 1,000 executions per second (issue 18) */
#define FUZZ_STRUCTURED_TURN(seed) (((seed) >> 5) % 2 == 0)
#define FUZZ_CROSSOVER_TURN(seed) (((seed) >> 5) % 2 == 0)
#include "fuzz_mutator.h"

/* decode -> encode -> decode of an accepted terrain t (grid n <= 256). */
static void reencode(const relic_wtd_terrain *t, relic_arena *a)
{
    size_t cells = (size_t)t->n * t->n;
    relic_error err;
    int32_t *g = relic_arena_array(a, cells, sizeof *g, 16);
    if (!g) return;
    memcpy(g, t->heights, cells * sizeof *g);
    /* heights the game's wrapping synthesis made can lie beyond what the
     * forward transform keeps in 32 bits: RELIC_E_RANGE, nothing to compare */
    if (relic_wtd_analyse(g, t->n, &err) != RELIC_OK) {
        if (err.message[0] == 0) abort();
        return;
    }
    relic_buf file;
    relic_buf_init(&file, 0);
    relic_status st = relic_wtd_encode_tree(g, t->n, &t->header.mapping, a, &file, NULL, &err);
    relic_wtd_synthesise(g, t->n);
    if (memcmp(g, t->heights, cells * sizeof *g) != 0) abort(); /* analysis is the synthesis' inverse */
    if (st == RELIC_OK) {
        relic_wtd_terrain back;
        if (relic_wtd_decode_terrain(file.data, file.size, a, &back, &err) != RELIC_OK) {
            fprintf(stderr, "re-encoded terrain refused: %s (%s)\n", err.message, err.path);
            abort();
        }
        if (back.n != t->n || memcmp(back.heights, t->heights, cells * sizeof *g) != 0) abort();
    } else if (err.message[0] == 0) {
        abort();
    }
    relic_buf_free(&file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    relic_arena a;
    relic_wtd_terrain t;
    relic_error err;
    fuzz_scratch_arena(&a, 0, (size_t)16 << 20);
    relic_status st = relic_wtd_decode_terrain(data, size, &a, &t, &err);
    if (st != RELIC_OK && err.message[0] == 0) abort();
    if (st == RELIC_OK) {
        for (size_t i = 0; i < (size_t)t.n * t.n; i++)
            if (t.heights[i] < t.min || t.heights[i] > t.max) abort();
        if (t.n <= 256) reencode(&t, &a);
    }
    relic_arena_release(&a);
    return 0;
}
