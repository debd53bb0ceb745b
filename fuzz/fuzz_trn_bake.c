/* fuzz_trn_bake.c — libFuzzer target for the ASWM baker, the strict rules
 * and path queries (runtime/trn_bake*.c, trn_check_strict.c, trn_path.c).
 * The input picks a synthetic area (tests/trn_synth.h: grid size, cells
 * per tile, walkable triangles) and then a list of edits to its triangles,
 * edges and tiles. Oracles: whatever relic_trn_check_aswm accepts, the
 * strict rules, route queries and the baker handle without a crash; a bake
 * passes relic_trn_check_aswm (and the strict rules when its input did),
 * and the baked walkmesh packs and reads back to the same bytes (for one
 * input in FUZZ_PACK_ONE_IN, fuzz_sample.h: packing, reading and the two
 * writes were a third of a run, the bake itself half).
 * Build and run: make fuzz (or build-fuzz/fuzz_trn_bake -max_total_time=60). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (fuzz_scratch.h) */
#include <stdlib.h>
#include <string.h>

#include "../tests/trn_synth.h"
#include "fuzz_sample.h"
#include "fuzz_scratch.h"

#ifndef FUZZ_PACK_ONE_IN
#define FUZZ_PACK_ONE_IN 4
#endif

/* relic_trn_check_aswm_strict with its scratch in fuzz_scratch.h's arena (mapped once, reused every run) */
static unsigned strict_scratch(const relic_trn_aswm *w, const char *path, unsigned max_reports, relic_report_fn report,
                               void *ctx)
{
    relic_arena a;
    fuzz_scratch_arena(&a, 1, 0);
    unsigned problems = relic_trn_check_aswm_strict(w, path, max_reports, &a, report, ctx);
    relic_arena_release(&a);
    return problems;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Oracle: baked packs (deflated), reads back, and writes the same bytes as itself. */
static void pack_round_trip(const relic_trn_aswm *baked, relic_arena *a)
{
    relic_trn_packet p;
    relic_trn_aswm back;
    relic_error err;
    relic_buf b1, b2;
    relic_arena bufs; /* the two writes in slot 2: heap buffers freed every run were page faults */
    fuzz_scratch_arena(&bufs, 2, 0);
    memset(&p, 0, sizeof p);
    relic_buf_init_arena(&b1, &bufs, 0);
    relic_buf_init_arena(&b2, &bufs, 0);
    if (relic_trn_aswm_pack(baked, 1, a, &p, &err) != RELIC_OK) abort();
    if (relic_trn_aswm_read(&p, (uint64_t)1 << 28, a, &back, &err) != RELIC_OK) abort();
    if (relic_trn_aswm_write(baked, &b1, &err) != RELIC_OK || relic_trn_aswm_write(&back, &b2, &err) != RELIC_OK) abort();
    if (b1.size != b2.size || memcmp(b1.data, b2.data, b1.size) != 0) abort();
    relic_arena_release(&bufs);
}

typedef struct bits {
    const uint8_t *p;
    size_t n;
} bits;

static int walk_bit(void *ctx, uint32_t t)
{
    const bits *b = ctx;
    if (b->n == 0) return 1;
    return (b->p[(t / 8) % b->n] >> (t % 8)) & 1;
}

static void count(void *ctx, const relic_error *e)
{
    (void)e;
    (*(unsigned *)ctx)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4) return 0;
    uint32_t W = 1 + data[0] % 4, H = 1 + data[1] % 3, sub = 1 + data[2] % 5;
    size_t nbits = data[3] % 16;
    if (4 + nbits > size) nbits = size - 4;
    bits b = {data + 4, nbits};
    const uint8_t *ed = data + 4 + nbits;
    size_t ne = (size - 4 - nbits) / 6;
    relic_arena a;
    fuzz_scratch_arena(&a, 0, (size_t)64 << 20);
    relic_trn_aswm w, baked;
    relic_error err;
    if (synth_area(&a, W, H, sub, walk_bit, &b, &w) != 0) abort();
    for (size_t i = 0; i < ne && i < 32; i++, ed += 6) {
        uint32_t v = (uint32_t)ed[2] | (uint32_t)ed[3] << 8 | (uint32_t)ed[4] << 16 | (uint32_t)ed[5] << 24;
        if (ed[5] == 0xFE) v = 0xFFFFFFFFu;
        relic_trn_triangle *t = &w.triangles[ed[1] % w.triangles_count];
        relic_trn_tile *tile = &w.tiles[ed[1] % w.tiles_count];
        switch (ed[0] % 9) {
        case 0: t->linked_triangles[ed[2] % 3] = v % (uint32_t)(w.triangles_count + 1); break;
        case 1: t->flags ^= 1; break;
        case 2: t->island = (uint16_t)v; break;
        case 3: tile->triangles_offset = v % (uint32_t)(w.triangles_count + 1); break;
        case 4: memcpy(&t->center[ed[2] % 2], &v, 4); break;
        case 5: t->linked_edges[ed[2] % 3] = v % (uint32_t)(w.edges_count + 1); break;
        case 6: t->vertices[ed[2] % 3] = v % (uint32_t)(w.vertices_count + 1); break;
        case 7: w.tiles_border_size = v % 3; break;
        default: memcpy(&w.vertices[v % w.vertices_count].x, &ed[2], 4); break;
        }
    }
    unsigned seen = 0;
    if (relic_trn_check_aswm(&w, "f", 0, count, &seen) == 0) {
        int strict_ok = strict_scratch(&w, "f", 0, count, &seen) == 0;
        relic_trn_bake_options opt = {data[2] >> 7};
        if (relic_trn_bake(&w, &opt, &a, &baked, &err) == RELIC_OK) {
            if (relic_trn_check_aswm(&baked, "b", 0, count, &seen) != 0) abort();
            if (strict_ok && strict_scratch(&baked, "b", 0, count, &seen) != 0) abort();
            for (uint32_t q = 0; q < 4 && baked.triangles_count; q++) {
                relic_trn_route r;
                uint32_t from = (uint32_t)(data[q % size] * 7919u) % (uint32_t)baked.triangles_count;
                uint32_t to = (uint32_t)(data[(q + 1) % size] * 104729u) % (uint32_t)baked.triangles_count;
                relic_trn_route_find(&baked, from, to, 0, 0, 1, 1, &a, &r, &err);
                relic_trn_triangle_at(&baked, data[q % size] * 0.1, data[(q + 2) % size] * 0.1);
            }
            if (fuzz_sampled(data, size, FUZZ_PACK_ONE_IN)) pack_round_trip(&baked, &a);
        }
        relic_trn_route r;
        relic_trn_route_find(&w, 0, (uint32_t)(w.triangles_count - 1), 0, 0, 1, 1, &a, &r, &err);
    }
    relic_arena_release(&a);
    return 0;
}
