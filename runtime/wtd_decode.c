/* wtd_decode.c — a whole WTD file to a height grid: header and parameter
 * block (wtd_header.c), zerotree (wtd_tree.c), inverse lifting transform
 * (wtd_lift.c), then the height range (spec/trespasser.md §1.3-1.8). */
#include "relic_wtd.h"

relic_status relic_wtd_decode_terrain(const uint8_t *data, size_t size, relic_arena *a, relic_wtd_terrain *out,
                                      relic_error *err)
{
    memset(out, 0, sizeof *out);
    relic_status st = relic_wtd_read_header(data, size, &out->header, err);
    if (st != RELIC_OK) return st;
    uint32_t n = (uint32_t)out->header.mapping.quad_extents.size_x; /* 1..16384, validated */
    int32_t *g = relic_arena_array(a, (size_t)n * n, sizeof *g, _Alignof(int32_t));
    if (!g)
        return relic_fail(err, RELIC_E_NOMEM, 0, "mapping.quad_extents.size_x",
                          "no memory for a %u x %u height grid", n, n);
    st = relic_wtd_read_tree(data, size, &out->header, g, &out->stats, err);
    if (st != RELIC_OK) return st;
    relic_wtd_synthesise(g, n);
    out->n = n;
    out->heights = g;
    int32_t lo = g[0], hi = g[0];
    for (size_t i = 1; i < (size_t)n * n; i++) {
        if (g[i] < lo) lo = g[i];
        if (g[i] > hi) hi = g[i];
    }
    out->min = lo;
    out->max = hi;
    return RELIC_OK;
}
