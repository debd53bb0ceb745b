/* relief.c — shaded-relief pictures of a height grid (relic_relief.h):
 * grey (shading mixed with height) and colour (hypsometric tint times
 * hill shading, as cartographers draw relief maps), written through the one
 * PNG writer. The WTD and TRN exports hand their grids here. */
#include <math.h>

#include "relic_png.h"
#include "relic_relief.h"

/* Grey: share of the shading in the grey value; the rest is the height. */
#define RELIEF_SHADE_WEIGHT 0.8
/* Grey of a fully shadowed slope at the lowest height. */
#define RELIEF_AMBIENT 0.12
/* Colour: brightness of a fully shadowed slope (keeps the tint readable). */
#define PREVIEW_AMBIENT 0.35
#define RGBA 4

/* Hypsometric tint, low to high: (height fraction, r, g, b). */
static const double tint_stops[][4] = {
    {0.00, 0x3a, 0x7d, 0x44}, /* lowland green */
    {0.25, 0x8c, 0xb3, 0x5a}, /* light green */
    {0.50, 0xe0, 0xd0, 0x8a}, /* tan */
    {0.75, 0xa0, 0x6e, 0x3c}, /* brown */
    {0.92, 0xc8, 0xc0, 0xb8}, /* grey rock */
    {1.00, 0xff, 0xff, 0xff}, /* peaks */
};
#define TINT_STOPS (sizeof tint_stops / sizeof tint_stops[0])

static void tint(double h, double rgb[3])
{
    size_t k = 1;
    while (k + 1 < TINT_STOPS && h > tint_stops[k][0]) k++;
    const double *a = tint_stops[k - 1], *b = tint_stops[k];
    double t = (h - a[0]) / (b[0] - a[0]);
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    for (int c = 0; c < 3; c++) rgb[c] = (a[c + 1] + (b[c + 1] - a[c + 1]) * t) / 255.0;
}

typedef struct relief_rows {
    const relic_relief_grid *g;
    relic_relief_style style;
    double range;
} relief_rows;

static uint8_t byte_of(double v) { return (uint8_t)(v > 1 ? 255 : v < 0 ? 0
                                                                        : v * 255 + 0.5); }

static const uint8_t *relief_row(void *ctx, uint32_t r, uint8_t *row)
{
    const relief_rows *rr = ctx;
    const relic_relief_grid *g = rr->g;
    const uint32_t w = g->width, n = g->height;
    const double dz = g->z_scale, res = g->spacing > 0 ? g->spacing : 1.0, range = rr->range;
    /* direction towards the light: north-west (-X, +Y), 45 degrees up */
    const double lx = -0.5, ly = 0.5, lz = sqrt(0.5);
    const int32_t *h = g->heights;
    const uint32_t y = n - 1 - r, y0 = y ? y - 1 : y, y1 = y + 1 < n ? y + 1 : y;
    for (uint32_t x = 0; x < w; x++) {
        const uint32_t x0 = x ? x - 1 : x, x1 = x + 1 < w ? x + 1 : x;
        double gx = 0, gy = 0;
        if (x1 > x0) gx = ((double)h[(size_t)y * w + x1] - h[(size_t)y * w + x0]) * dz / ((x1 - x0) * res);
        if (y1 > y0) gy = ((double)h[(size_t)y1 * w + x] - h[(size_t)y0 * w + x]) * dz / ((y1 - y0) * res);
        /* normal (-gx, -gy, 1) / |.| */
        double shade = (-gx * lx - gy * ly + lz) / sqrt(gx * gx + gy * gy + 1);
        if (!(shade > 0)) shade = 0;
        const double height = range > 0 ? ((double)h[(size_t)y * w + x] - g->min) / range : 0.5;
        if (rr->style == RELIC_RELIEF_GREY) {
            row[x] = byte_of(RELIEF_AMBIENT + (1 - RELIEF_AMBIENT) * (RELIEF_SHADE_WEIGHT * shade + (1 - RELIEF_SHADE_WEIGHT) * height));
        } else {
            double rgb[3], light = PREVIEW_AMBIENT + (1 - PREVIEW_AMBIENT) * shade;
            tint(height, rgb);
            uint8_t *p = row + (size_t)x * RGBA;
            for (int c = 0; c < 3; c++) p[c] = byte_of(rgb[c] * light);
            p[3] = 0xFF;
        }
    }
    return row;
}

relic_status relic_relief_png(const relic_relief_grid *g, relic_relief_style style, relic_arena *a, relic_buf *out,
                              relic_error *err)
{
    if (!g || !g->heights || !g->width || !g->height)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "an empty height grid has no picture");
    const int channels = style == RELIC_RELIEF_GREY ? 1 : RGBA;
    uint8_t *row = relic_arena_array(a, g->width, (size_t)channels, 1);
    if (!row) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "no memory for a PNG row");
    const relic_png_image img = {g->width, g->height, 8, channels, NULL, NULL};
    relief_rows rows = {g, style, (double)g->max - (double)g->min};
    /* the filter and level measured for height grids (docs/benchmarks.md, "Terrain") */
    const relic_png_options opts = RELIC_PNG_HEIGHTMAP_OPTIONS;
    return relic_png_write_opts(&img, &opts, relief_row, &rows, row, out, err);
}
