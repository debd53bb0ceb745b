/* fuzz_swp.c — libFuzzer target for the PID/SWP texture decoder
 * (runtime/formats/tres/swp_decode.c, swp_walk.c). Input: u32 LE PID length, the PID,
 * then the SWP bytes. Oracles: no crash or sanitizer report for any input;
 * every rejection carries a message; the SPZ stream walk (the SWP
 * compressed with the fast LZSS encoder) visits the same rasters with the
 * same pixels and ends with the same status as the in-memory SWP walk
 * (for one input in FUZZ_SPZ_ONE_IN, 32, fuzz_sample.h: encoding and
 * walking again were two thirds of a run on every input, and the fast LZSS
 * encoder still 85% of the target's time at one input in 8).
 * Seeds: fuzz/corpus/fuzz_swp (a PID + SWP from `relic pack-textures`). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (fuzz_scratch.h) */
#include <stdlib.h>
#include <string.h>

#include "relic_swp.h"
#include "fuzz_sample.h"
#include "fuzz_scratch.h"

#ifndef FUZZ_SPZ_ONE_IN
#define FUZZ_SPZ_ONE_IN 32
#endif

#define SWP_MAX (1u << 20)
#define WINDOW_LIMIT ((uint64_t)32 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct ctx {
    const relic_pid_view *v;
    const relic_swp_palettes *pal;
    uint8_t *rgba;
    uint64_t sum; /* order-sensitive checksum of raster indices and pixels */
} ctx;

static relic_status visit(void *vc, size_t i, const uint8_t *swp, uint64_t base, size_t size, relic_error *err)
{
    ctx *c = vc;
    relic_pid_raster_view r = relic_pid_rasters_at(c->v, i);
    relic_status st = relic_swp_raster_rgba(c->v, c->pal, i, swp, base, size, c->rgba, err);
    relic_swp_kind kind;
    if (st == RELIC_OK && relic_swp_raster_kind(c->v, i, &kind, err) == RELIC_OK && kind == RELIC_SWP_BUMP)
        st = relic_swp_bump(c->v, i, swp, base, size, c->rgba, err);
    if (st != RELIC_OK) {
        if (!err->message[0]) abort();
        return st;
    }
    size_t n = (size_t)relic_pid_raster_width(r) * relic_pid_raster_height(r) * 4;
    c->sum = c->sum * 31 + i;
    for (size_t k = 0; k < n; k++) c->sum = c->sum * 131 + c->rgba[k];
    return RELIC_OK;
}

static relic_status walk(const relic_pid_view *v, const relic_swp_palettes *pal, const uint8_t *d, size_t n, int spz,
                         uint8_t *rgba, uint64_t *sum)
{
    relic_arena a;
    relic_error err;
    fuzz_scratch_arena(&a, 2, (size_t)64 << 20);
    ctx c = {v, pal, rgba, 0};
    memset(&err, 0, sizeof err);
    relic_status st = relic_swp_walk(v, d, n, spz, WINDOW_LIMIT, &a, visit, &c, &err);
    if (st != RELIC_OK && !err.message[0]) abort();
    relic_arena_release(&a);
    *sum = c.sum;
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4) return 0;
    size_t pn = relic_load_u32le(data);
    if (pn > size - 4) return 0;
    const uint8_t *pid = data + 4, *swp = data + 4 + pn;
    size_t sn = size - 4 - pn;
    if (sn > SWP_MAX) return 0;
    relic_pid_view v;
    relic_error err;
    if (relic_pid_validate(pid, pn, &v, &err) != RELIC_OK) return 0;
    relic_arena a;
    fuzz_scratch_arena(&a, 0, (size_t)16 << 20);
    relic_swp_palettes pal;
    static uint8_t rgba[(size_t)RELIC_SWP_MAX_SIDE * RELIC_SWP_MAX_SIDE * 4];
    if (relic_swp_palettes_find(&v, &a, &pal, &err) == RELIC_OK) {
        uint64_t s1 = 0, s2 = 0;
        relic_status st1 = walk(&v, &pal, swp, sn, 0, rgba, &s1);
        relic_buf z;
        relic_arena sa; /* encoder scratch and its output */
        fuzz_scratch_arena(&sa, 1, 0);
        relic_buf_init_arena(&z, &sa, 0);
        relic_status est = fuzz_sampled(data, size, FUZZ_SPZ_ONE_IN)
            ? relic_lzss_container_encode(RELIC_LZSS_SPZ, RELIC_LZSS_FAST, 0, swp, sn, &sa, &z, &err)
            : RELIC_E_LIMIT;
        if (est == RELIC_OK && !z.failed) {
            relic_status st2 = walk(&v, &pal, z.data, z.size, 1, rgba, &s2);
            /* the window limit can refuse what memory accepts; otherwise both walks agree */
            if (st2 != RELIC_E_LIMIT && (st1 != st2 || s1 != s2)) abort();
        }
        relic_arena_release(&sa);
    }
    relic_arena_release(&a);
    return 0;
}
