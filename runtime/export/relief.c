/* relief.c — shaded-relief pictures of a height grid (relic_relief.h):
 * grey (shading mixed with height) and colour (hypsometric tint times
 * hill shading, as cartographers draw relief maps), written through the one
 * PNG writer. The WTD and TRN exports hand their grids here. */
#include <math.h>

#include "relic_png.h"
#include "relic_relief.h"

/* Grey: share of the shading in the grey value; the rest is the height. */
#define RELIEF_SHADE_WEIGHT 0.8f
/* Grey of a fully shadowed slope at the lowest height. */
#define RELIEF_AMBIENT 0.12f
/* Colour: brightness of a fully shadowed slope (keeps the tint readable). */
#define PREVIEW_AMBIENT 0.35f
#define RGB 3
/* Entries of the tint table over the height range: one entry moves a
 * colour channel by at most 0.2 of a level, below what the eye sees. */
#define TINT_LUT 4096

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

/* The tint at height fraction h, in levels 0..255. */
static void tint(double h, float rgb[3])
{
    size_t k = 1;
    while (k + 1 < TINT_STOPS && h > tint_stops[k][0]) k++;
    const double *a = tint_stops[k - 1], *b = tint_stops[k];
    double t = (h - a[0]) / (b[0] - a[0]);
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    for (int c = 0; c < 3; c++) rgb[c] = (float)(a[c + 1] + (b[c + 1] - a[c + 1]) * t);
}

/* Per picture: the constants of the per-pixel work, worked out once, and
 * a row of shading; the per-pixel loops have no branches and no table
 * search (one square root and one division a pixel). */
typedef struct relief_rows {
    const relic_relief_grid *g;
    relic_relief_style style;
    float k_mid, k_edge; /* world slope per height step: central, one-sided differences */
    float frac;          /* height fraction per height step */
    float lut_step;      /* tint entries per height step */
    float *shade;        /* one row of Lambert shading, 0..1 */
    float tint[TINT_LUT][3];
} relief_rows;

/* direction towards the light: north-west (-X, +Y), 45 degrees up */
#define LIGHT_X (-0.5f)
#define LIGHT_Y 0.5f
#define LIGHT_Z 0.70710678f

static float clampf(float v, float lo, float hi)
{
    if (v < lo) return lo;
    return v > hi ? hi : v;
}

/* Lambert shading of the slope (gx, gy): the light direction against the
 * normal (-gx, -gy, 1) / |.|, clamped to 0..1 (rounding may pass 1). */
static float lambert(float gx, float gy)
{
    return clampf((-gx * LIGHT_X - gy * LIGHT_Y + LIGHT_Z) / sqrtf(gx * gx + gy * gy + 1.0f), 0.0f, 1.0f);
}

/* a difference of two int32 heights, exact in int64, as a float */
static float diff(int32_t a, int32_t b) { return (float)((int64_t)a - b); }

static const uint8_t *relief_row(void *ctx, uint32_t r, uint8_t *row)
{
    const relief_rows *rr = ctx;
    const relic_relief_grid *g = rr->g;
    const uint32_t w = g->width, n = g->height;
    const uint32_t y = n - 1 - r, y0 = y ? y - 1 : y, y1 = y + 1 < n ? y + 1 : y;
    const int32_t *hr = g->heights + (size_t)y * w, *h0 = g->heights + (size_t)y0 * w, *h1 = g->heights + (size_t)y1 * w;
    const float kx = rr->k_mid, ky = y1 - y0 == 2 ? rr->k_mid : (y1 > y0) * rr->k_edge;
    float *shade = rr->shade;
    /* the first and last columns take one-sided differences */
    shade[0] = lambert(w > 1 ? diff(hr[1], hr[0]) * rr->k_edge : 0.0f, diff(h1[0], h0[0]) * ky);
    for (uint32_t x = 1; x + 1 < w; x++) shade[x] = lambert(diff(hr[x + 1], hr[x - 1]) * kx, diff(h1[x], h0[x]) * ky);
    if (w > 1) shade[w - 1] = lambert(diff(hr[w - 1], hr[w - 2]) * rr->k_edge, diff(h1[w - 1], h0[w - 1]) * ky);
    const int32_t min = g->min;
    if (rr->style == RELIC_RELIEF_GREY) {
        /* levels: ambient, then shading and height mixed 4:1 */
        const float a = 255.0f * RELIEF_AMBIENT, s = 255.0f * (1 - RELIEF_AMBIENT) * RELIEF_SHADE_WEIGHT,
                    h = 255.0f * (1 - RELIEF_AMBIENT) * (1 - RELIEF_SHADE_WEIGHT);
        const float f = rr->frac, flat = rr->frac > 0 ? 0.0f : 0.5f;
        for (uint32_t x = 0; x < w; x++) {
            /* clamped: heights outside min..max are a caller's slip */
            const float t = clampf(diff(hr[x], min) * f + flat, 0.0f, 1.0f);
            row[x] = (uint8_t)(a + s * shade[x] + h * t + 0.5f);
        }
    } else {
        const float step = rr->lut_step, flat = rr->lut_step > 0 ? 0.5f : TINT_LUT / 2 + 0.5f;
        for (uint32_t x = 0; x < w; x++) {
            const float light = PREVIEW_AMBIENT + (1 - PREVIEW_AMBIENT) * shade[x];
            const float *c = rr->tint[(int)clampf(diff(hr[x], min) * step + flat, 0.0f, TINT_LUT - 1)];
            uint8_t *p = row + (size_t)x * RGB;
            p[0] = (uint8_t)(c[0] * light + 0.5f);
            p[1] = (uint8_t)(c[1] * light + 0.5f);
            p[2] = (uint8_t)(c[2] * light + 0.5f);
        }
    }
    return row;
}

relic_status relic_relief_png(const relic_relief_grid *g, relic_relief_style style, relic_arena *a, relic_buf *out,
                              relic_error *err)
{
    if (!g || !g->heights || !g->width || !g->height)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "an empty height grid has no picture");
    const int channels = style == RELIC_RELIEF_GREY ? 1 : RGB;
    uint8_t *row = relic_arena_array(a, g->width, (size_t)channels, 1);
    relief_rows *rr = relic_arena_alloc(a, sizeof *rr, _Alignof(relief_rows));
    float *shade = relic_arena_array(a, g->width, sizeof *shade, _Alignof(float));
    if (!row || !rr || !shade) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "no memory for a PNG row");
    const double dz = g->z_scale, res = g->spacing > 0 ? g->spacing : 1.0, range = (double)g->max - (double)g->min;
    rr->g = g;
    rr->style = style;
    rr->k_mid = (float)(dz / (2 * res));
    rr->k_edge = (float)(dz / res);
    rr->shade = shade;
    rr->frac = range > 0 ? (float)(1.0 / range) : 0.0f;
    rr->lut_step = range > 0 ? (float)((TINT_LUT - 1) / range) : 0.0f;
    if (style != RELIC_RELIEF_GREY)
        for (int i = 0; i < TINT_LUT; i++) tint((double)i / (TINT_LUT - 1), rr->tint[i]);
    const relic_png_image img = {g->width, g->height, 8, channels, NULL, NULL};
    /* the options measured for each picture (docs/benchmarks.md, "Terrain") */
    const relic_png_options opts = style == RELIC_RELIEF_GREY ? RELIC_PNG_HEIGHTMAP_OPTIONS : RELIC_PNG_PREVIEW_OPTIONS;
    return relic_png_write_opts(&img, &opts, relief_row, rr, row, out, err);
}
