/* wtd_decode.c — a whole WTD file to a height grid: header and parameter
 * block (wtd_header.c), zerotree (wtd_tree.c), inverse lifting transform
 * (wtd_lift.c), then the height range (Trespasser source, Lib/GeomDBase/WaveletDataFormat.cpp, Lib/GeomDBase/WaveletQuadTreeQuery.cpp). */
#define _DEFAULT_SOURCE 1 /* madvise */
#include <stdint.h>
#include <sys/mman.h>

#include "relic_wtd.h"

/* Ask for huge pages under the grid: the tree stores coefficients all over
 * it, and with 4 KiB pages first-touch faults dominate the decode time.
 * Advice only; nothing depends on it being followed. */
static void advise_huge_pages(void *p, size_t size)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20, start = ((uintptr_t)p + huge - 1) & ~(huge - 1),
                    end = ((uintptr_t)p + size) & ~(huge - 1);
    if (end > start) (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)p;
    (void)size;
#endif
}

relic_status relic_wtd_decode_terrain(const uint8_t *data, size_t size, relic_arena *a, relic_wtd_terrain *out,
                                      relic_error *err)
{
    return relic_wtd_decode_terrain_max(data, size, RELIC_WTD_MAX_N, a, out, err);
}

relic_status relic_wtd_decode_terrain_max(const uint8_t *data, size_t size, uint32_t max_n, relic_arena *a,
                                          relic_wtd_terrain *out, relic_error *err)
{
    memset(out, 0, sizeof *out);
    relic_status st = relic_wtd_read_header(data, size, &out->header, err);
    if (st != RELIC_OK) return st;
    uint32_t n = (uint32_t)out->header.mapping.quad_extents.size_x; /* 1..16384, validated */
    /* the grid costs 4 n^2 bytes and n^2 steps however few bits the tree has:
     * the caller's bound, checked before the grid is taken */
    if (n > max_n)
        return relic_fail(err, RELIC_E_LIMIT,
                          relic_wtd_file_offset(((uint64_t)RELIC_WTD_FILE_MAPPING_POS + RELIC_WTD_MAPPING_QUAD_EXTENTS_POS) * 8),
                          "mapping.quad_extents.size_x", "a %u x %u grid (%llu bytes) is over the limit of %u x %u", n, n,
                          (unsigned long long)n * n * sizeof(int32_t), max_n, max_n);
    int32_t *g = relic_arena_array(a, (size_t)n * n, sizeof *g, _Alignof(int32_t));
    if (!g)
        return relic_fail(err, RELIC_E_NOMEM, 0, "mapping.quad_extents.size_x",
                          "no memory for a %u x %u height grid", n, n);
    advise_huge_pages(g, (size_t)n * n * sizeof *g);
    st = relic_wtd_read_tree(data, size, &out->header, g, &out->stats, err);
    if (st != RELIC_OK) return st;
    relic_wtd_synthesise(g, n);
    out->n = n;
    out->heights = g;
    /* the height range: branch-free over 8 lanes, so the compiler keeps it
     * in vector registers (a branchy scan took a fifth of the decode) */
    int32_t lo[8], hi[8];
    for (int k = 0; k < 8; k++) lo[k] = hi[k] = g[0];
    const size_t cells = (size_t)n * n, whole = cells & ~(size_t)7;
    for (size_t i = 0; i < whole; i += 8)
        for (int k = 0; k < 8; k++) {
            const int32_t v = g[i + k];
            lo[k] = v < lo[k] ? v : lo[k];
            hi[k] = v > hi[k] ? v : hi[k];
        }
    for (size_t i = whole; i < cells; i++) {
        lo[0] = g[i] < lo[0] ? g[i] : lo[0];
        hi[0] = g[i] > hi[0] ? g[i] : hi[0];
    }
    for (int k = 1; k < 8; k++) {
        lo[0] = lo[k] < lo[0] ? lo[k] : lo[0];
        hi[0] = hi[k] > hi[0] ? hi[k] : hi[0];
    }
    out->min = lo[0];
    out->max = hi[0];
    return RELIC_OK;
}
