/* wtd_png.c — a decoded WTD terrain as a 16-bit greyscale PNG heightmap
 * (libpng), north up: row 0 is the largest quad Y. The grey mapping is
 * recorded in a tEXt chunk so the heights can be recovered. */
#include <stdio.h>

#include "relic_png.h"
#include "relic_wtd.h"

typedef struct heightmap_rows {
    const relic_wtd_terrain *t;
    double scale;
} heightmap_rows;

static const uint8_t *heightmap_row(void *ctx, uint32_t r, uint8_t *row)
{
    const heightmap_rows *h = ctx;
    const uint32_t n = h->t->n;
    const int32_t *src = h->t->heights + (size_t)(n - 1 - r) * n;
    for (uint32_t x = 0; x < n; x++) {
        double d = (double)((int64_t)src[x] - (int64_t)h->t->min) * h->scale;
        uint16_t v = (uint16_t)(d + 0.5 > UINT16_MAX ? UINT16_MAX : d + 0.5);
        row[2 * x] = (uint8_t)(v >> 8);
        row[2 * x + 1] = (uint8_t)v;
    }
    return row;
}

relic_status relic_wtd_png(const relic_wtd_terrain *t, relic_arena *a, relic_buf *out, relic_error *err)
{
    const uint32_t n = t->n;
    const uint64_t range = (uint64_t)((int64_t)t->max - (int64_t)t->min);
    const double scale = range <= UINT16_MAX ? 1.0 : (double)UINT16_MAX / (double)range;
    uint8_t *row = relic_arena_alloc(a, (size_t)n * 2, 2);
    if (!row) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "no memory for a PNG row");
    char text[256];
    const relic_wtd_mapping *m = &t->header.mapping;
    snprintf(text, sizeof text, "min=%ld scale=%.9g coef_to_world=%.9g x0=%.9g y0=%.9g res=%.9g", (long)t->min, scale,
             (double)m->coef_to_world, (double)m->quad_to_world_x.offset, (double)m->quad_to_world_y.offset,
             (double)m->quad_to_world_x.scale);
    const relic_png_image img = {n, n, 16, 1, "relic-wtd", text};
    heightmap_rows rows = {t, scale};
    const relic_png_options opts = RELIC_PNG_HEIGHTMAP_OPTIONS;
    return relic_png_write_opts(&img, &opts, heightmap_row, &rows, row, out, err);
}
