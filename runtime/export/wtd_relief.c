/* wtd_relief.c — an 8-bit shaded-relief picture of a decoded WTD terrain
 * (libpng), north up, for reading a landscape at a glance: surface normals
 * from central differences in world units (quad spacing from the
 * quad->world scale, heights through coef_to_world, Trespasser source, Lib/GeomDBase/WaveletQuadTreeQuery.cpp), Lambertian light from the north-west 45 degrees above the horizon,
 * mixed 4:1 with the normalised height. */
#include <math.h>

#include "relic_png.h"
#include "relic_wtd.h"

/* Share of the shading in the grey value; the rest is the height. */
#define RELIEF_SHADE_WEIGHT 0.8
/* Grey of a fully shadowed slope at the lowest height. */
#define RELIEF_AMBIENT 0.12

typedef struct relief_rows {
    const relic_wtd_terrain *t;
    double dz, res, range;
} relief_rows;

static const uint8_t *relief_row(void *ctx, uint32_t r, uint8_t *row)
{
    const relief_rows *rr = ctx;
    const relic_wtd_terrain *t = rr->t;
    const uint32_t n = t->n;
    const double dz = rr->dz, res = rr->res, range = rr->range;
    /* direction towards the light: north-west (-X, +Y), 45 degrees up */
    const double lx = -0.5, ly = 0.5, lz = sqrt(0.5);
    const int32_t *g = t->heights;
    const uint32_t y = n - 1 - r, y0 = y ? y - 1 : y, y1 = y + 1 < n ? y + 1 : y;
    for (uint32_t x = 0; x < n; x++) {
        const uint32_t x0 = x ? x - 1 : x, x1 = x + 1 < n ? x + 1 : x;
        double gx = 0, gy = 0;
        if (x1 > x0) gx = ((double)g[(size_t)y * n + x1] - g[(size_t)y * n + x0]) * dz / ((x1 - x0) * res);
        if (y1 > y0) gy = ((double)g[(size_t)y1 * n + x] - g[(size_t)y0 * n + x]) * dz / ((y1 - y0) * res);
        /* normal (-gx, -gy, 1) / |.| */
        double shade = (-gx * lx - gy * ly + lz) / sqrt(gx * gx + gy * gy + 1);
        if (!(shade > 0)) shade = 0;
        const double height = range > 0 ? ((double)g[(size_t)y * n + x] - t->min) / range : 0.5;
        double v = RELIEF_AMBIENT + (1 - RELIEF_AMBIENT) * (RELIEF_SHADE_WEIGHT * shade + (1 - RELIEF_SHADE_WEIGHT) * height);
        if (v > 1) v = 1;
        row[x] = (uint8_t)(v * 255 + 0.5);
    }
    return row;
}

relic_status relic_wtd_relief_png(const relic_wtd_terrain *t, relic_arena *a, relic_buf *out, relic_error *err)
{
    const uint32_t n = t->n;
    uint8_t *row = relic_arena_alloc(a, n, 1);
    if (!row) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "no memory for a PNG row");
    const relic_png_image img = { n, n, 8, 1, NULL, NULL };
    relief_rows rows = { t, (double)t->header.mapping.coef_to_world, (double)t->header.mapping.quad_to_world_x.scale,
                         (double)t->max - (double)t->min };
    return relic_png_write(&img, relief_row, &rows, row, out, err);
}
