/* wtd_encode_grid.c — a height grid to a WTD file: padding of a grid that
 * is not a power of two, the parameter block as the original encoder fills
 * it (Trespasser source, Lib/GeomDBase/WaveletConv.cpp, Lib/GeomDBase/WaveletQuadTreeQuery.cpp), the forward transform
 * (wtd_forward.c), the optional threshold that drops small coefficients
 * and the error it costs (measured by synthesising the kept coefficients),
 * and the tree writer (wtd_encode.c). */
#include <math.h>

#include "relic_wtd.h"

void relic_wtd_mapping_init(relic_wtd_mapping *m, uint32_t n, double world_x, double world_y, double res,
                            double coef_to_world)
{
    memset(m, 0, sizeof *m);
    m->quad_extents.start_x = 0;
    m->quad_extents.start_y = 0;
    m->quad_extents.size_x = (int32_t)n;
    m->quad_extents.size_y = (int32_t)n;
    m->world_extents.start_x = (float)world_x;
    m->world_extents.start_y = (float)world_y;
    m->world_extents.size_x = (float)(n * res);
    m->world_extents.size_y = (float)(n * res);
    m->quad_to_world_x.scale = (float)res;
    m->quad_to_world_x.offset = (float)world_x;
    m->quad_to_world_y.scale = (float)res;
    m->quad_to_world_y.offset = (float)world_y;
    m->world_to_quad_x.scale = (float)(1.0 / res);
    m->world_to_quad_x.offset = (float)(-world_x / res);
    m->world_to_quad_y.scale = (float)(1.0 / res);
    m->world_to_quad_y.offset = (float)(-world_y / res);
    m->world_to_coef = (float)(1.0 / coef_to_world);
    m->coef_to_world = (float)coef_to_world;
    m->coef_to_quad = (float)(coef_to_world / res);
}

uint32_t relic_wtd_grid_size(uint32_t w, uint32_t h)
{
    uint32_t big = w > h ? w : h, n = 1;
    while (n < big && n <= RELIC_WTD_MAX_N) n *= 2;
    return n > RELIC_WTD_MAX_N ? 0 : n;
}

void relic_wtd_pad(const int32_t *src, uint32_t w, uint32_t h, int32_t *dst, uint32_t n)
{
    for (uint32_t y = 0; y < n; y++) {
        const int32_t *s = src + (size_t)(y < h ? y : h - 1) * w;
        int32_t *d = dst + (size_t)y * n;
        memcpy(d, s, (size_t)w * sizeof *d);
        for (uint32_t x = w; x < n; x++) d[x] = s[w - 1];
    }
}

relic_status relic_wtd_encode(const int32_t *heights, uint32_t n, const relic_wtd_mapping *m,
                              const relic_wtd_encode_options *opt, relic_arena *a, relic_buf *out,
                              relic_wtd_encode_stats *stats, relic_error *err)
{
    relic_wtd_encode_options o = {0, 0, 0};
    if (opt) o = *opt;
    if (n == 0 || (n & (n - 1)) != 0 || n > RELIC_WTD_MAX_N)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "grid", "grid size %u is not a power of two from 1 to %u", n,
                          (unsigned)RELIC_WTD_MAX_N);
    if (o.width == 0 || o.width > n) o.width = n;
    if (o.height == 0 || o.height > n) o.height = n;
    const size_t cells = (size_t)n * n;
    int32_t *coef = relic_arena_array(a, cells, sizeof *coef, _Alignof(int32_t));
    if (!coef) return relic_fail(err, RELIC_E_NOMEM, 0, "grid", "no memory for a %u x %u grid", n, n);
    memcpy(coef, heights, cells * sizeof *coef);
    relic_status st = relic_wtd_analyse(coef, n, err);
    if (st != RELIC_OK) return st;
    uint32_t dropped = 0;
    if (o.threshold)
        for (size_t i = 1; i < cells; i++)
            if (coef[i] && (coef[i] < 0 ? (uint32_t)0 - (uint32_t)coef[i] : (uint32_t)coef[i]) <= o.threshold) {
                coef[i] = 0;
                dropped++;
            }
    relic_wtd_encode_stats s;
    st = relic_wtd_encode_tree(coef, n, m, a, out, &s, err);
    if (st != RELIC_OK) return st;
    s.dropped = dropped;
    if (dropped) {
        /* the error the threshold costs: synthesise what was kept and compare */
        relic_wtd_synthesise(coef, n);
        uint64_t worst = 0;
        double sum = 0;
        for (uint32_t y = 0; y < o.height; y++)
            for (uint32_t x = 0; x < o.width; x++) {
                int64_t d = (int64_t)coef[(size_t)y * n + x] - heights[(size_t)y * n + x];
                uint64_t ad = (uint64_t)(d < 0 ? -d : d);
                if (ad > worst) worst = ad;
                sum += (double)d * (double)d;
            }
        s.max_error = worst > UINT32_MAX ? UINT32_MAX : (uint32_t)worst;
        s.rms_error = sqrt(sum / ((double)o.width * o.height));
    }
    if (stats) *stats = s;
    return RELIC_OK;
}
