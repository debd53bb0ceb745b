/* trn_export.c — NWN2 ASWM walkmeshes out to Wavefront OBJ (walkable and
 * non-walkable triangles as two groups) and to an SVG top-down picture
 * (tile grid, islands coloured, walkable and non-walkable triangles
 * distinct, an optional route). Layout facts: nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp, AreaSurfaceMesh.h
 * (tile (x, y) covers [x*w, (x+1)*w) x [y*w, (y+1)*w); island 0xFFFF = none). */
#include <math.h>
#include <stdio.h>

#include "relic_trn.h"

#define WALK RELIC_TRN_TRIANGLE_FLAGS_WALKABLE

static relic_status done(const relic_buf *out, relic_error *err)
{
    if (out->failed) return relic_fail(err, RELIC_E_NOMEM, 0, "", "the output could not grow");
    return RELIC_OK;
}

static int valid_triangle(const relic_trn_aswm *w, const relic_trn_triangle *t)
{
    return t->vertices[0] < w->vertices_count && t->vertices[1] < w->vertices_count && t->vertices[2] < w->vertices_count;
}

/* Signed doubled area in x, y (> 0: counter-clockwise seen from +z). */
static double area2(const relic_trn_aswm *w, const relic_trn_triangle *t)
{
    const relic_trn_vec3f *a = &w->vertices[t->vertices[0]], *b = &w->vertices[t->vertices[1]], *c = &w->vertices[t->vertices[2]];
    return ((double)b->x - a->x) * ((double)c->y - a->y) - ((double)b->y - a->y) * ((double)c->x - a->x);
}

static double finite_or_zero(float v) { return isfinite(v) ? (double)v : 0.0; }

relic_status relic_trn_aswm_obj(const relic_trn_aswm *w, relic_buf *out, relic_error *err)
{
    relic_buf_printf(out, "# NWN2 ASWM walkmesh: %zu vertices, %zu triangles (relic)\n", w->vertices_count, w->triangles_count);
    for (size_t i = 0; i < w->vertices_count; i++)
        relic_buf_printf(out, "v %.9g %.9g %.9g\n", finite_or_zero(w->vertices[i].x), finite_or_zero(w->vertices[i].y),
                         finite_or_zero(w->vertices[i].z));
    for (int g = 0; g < 2; g++) {
        relic_buf_puts(out, g == 0 ? "g walkable\n" : "g nonwalkable\n");
        for (size_t i = 0; i < w->triangles_count; i++) {
            const relic_trn_triangle *t = &w->triangles[i];
            if (((t->flags & WALK) != 0) != (g == 0) || !valid_triangle(w, t)) continue;
            int flip = area2(w, t) < 0;
            relic_buf_printf(out, "f %u %u %u\n", (unsigned)t->vertices[0] + 1, (unsigned)t->vertices[flip ? 2 : 1] + 1,
                             (unsigned)t->vertices[flip ? 1 : 2] + 1);
        }
    }
    return done(out, err);
}

/* SVG layout, in px: the drawing fits SVG_DRAW_SIZE, the legend sits to its right. */
#define SVG_DRAW_SIZE 1000.0
#define SVG_MARGIN 40.0
#define SVG_TITLE_HEIGHT 40.0
#define SVG_LEGEND_WIDTH 260.0
#define SVG_LEGEND_ROW 20.0
#define SVG_SWATCH 14.0
/* islands listed one by one in the legend; the rest share a row */
#define SVG_LEGEND_ISLANDS 16u
/* at most this many tile labels along an axis (every k-th tile beyond) */
#define SVG_MAX_LABELS 24u
#define SVG_NO_ISLAND 0xFFFFu
#define SVG_NONWALK_FILL "#bbbbbb"
#define SVG_NOISLAND_FILL "#e0f0ff"
#define SVG_GRID_COLOUR "#0050c0"

/* walkable triangles: one hue per island (golden-angle steps) */
static void island_fill(char out[32], unsigned island)
{
    snprintf(out, 32, "hsl(%u,70%%,60%%)", (island * 137u) % 360u);
}

/* the largest 1, 2 or 5 x 10^k not above limit (> 0) */
static double nice_length(double limit)
{
    double p = pow(10.0, floor(log10(limit)));
    return limit >= 5 * p ? 5 * p : limit >= 2 * p ? 2 * p
                                                   : p;
}

relic_status relic_trn_aswm_svg(const relic_trn_aswm *w, const relic_trn_route *route, relic_buf *out, relic_error *err)
{
    double tw = isfinite(w->tiles_width) && w->tiles_width > 0 ? w->tiles_width : 10.0;
    double gw = w->grid_width * tw, gh = w->grid_height * tw;
    double minx = 0, miny = 0, maxx = gw, maxy = gh;
    size_t walkable = 0, nonwalk = 0, no_island = 0, per_island[SVG_LEGEND_ISLANDS] = {0}, other_islands = 0;
    for (size_t i = 0; i < w->vertices_count; i++) {
        double x = finite_or_zero(w->vertices[i].x), y = finite_or_zero(w->vertices[i].y);
        if (x < minx) minx = x;
        if (y < miny) miny = y;
        if (x > maxx) maxx = x;
        if (y > maxy) maxy = y;
    }
    if (maxx - minx > 1e6 || maxy - miny > 1e6) {
        minx = 0;
        miny = 0;
        maxx = gw > 0 ? gw : 1;
        maxy = gh > 0 ? gh : 1;
    }
    for (size_t i = 0; i < w->triangles_count; i++) {
        const relic_trn_triangle *t = &w->triangles[i];
        if (!valid_triangle(w, t)) continue;
        if (!(t->flags & WALK)) nonwalk++;
        else if (walkable++, t->island == SVG_NO_ISLAND) no_island++;
        else if (t->island < SVG_LEGEND_ISLANDS) per_island[t->island]++;
        else other_islands++;
    }
    double span = fmax(maxx - minx, maxy - miny);
    double scale = span > 0 ? SVG_DRAW_SIZE / span : 1.0;
    const double ox = SVG_MARGIN, oy = SVG_MARGIN + SVG_TITLE_HEIGHT;
#define SX(x) (ox + ((double)(x)-minx) * scale)
#define SY(y) (oy + (maxy - (double)(y)) * scale)
    double dw = (maxx - minx) * scale, dh = (maxy - miny) * scale;
    unsigned rows = 4 + (no_island != 0) + (other_islands != 0);
    for (unsigned k = 0; k < SVG_LEGEND_ISLANDS; k++) rows += per_island[k] != 0;
    double width = 2 * SVG_MARGIN + dw + SVG_LEGEND_WIDTH;
    double height = fmax(oy + dh + 2 * SVG_MARGIN, oy + rows * SVG_LEGEND_ROW + SVG_MARGIN);
    relic_buf_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                          "font-family=\"sans-serif\">\n",
                     ceil(width), ceil(height), ceil(width), ceil(height));
    relic_buf_printf(out, "<title>NWN2 walkmesh: %zu triangles, %u x %u tiles, %zu islands</title>\n", w->triangles_count,
                     (unsigned)w->grid_width, (unsigned)w->grid_height, w->islands_count);
    relic_buf_puts(out, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    relic_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"18\" font-weight=\"bold\">NWN2 walkmesh (ASWM)</text>\n",
                     SVG_MARGIN, SVG_MARGIN + 6.0);
    relic_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"#444\">%zu vertices, %zu triangles (%zu walkable), "
                          "%u x %u tiles of %.4g m, %zu islands; top view, north up, %.3g px per metre</text>\n",
                     SVG_MARGIN, SVG_MARGIN + 26.0, w->vertices_count, w->triangles_count, walkable,
                     (unsigned)w->grid_width, (unsigned)w->grid_height, tw, w->islands_count, scale);
    relic_buf_puts(out, "<g stroke=\"#444\" stroke-width=\"0.3\">\n");
    for (size_t i = 0; i < w->triangles_count && !out->failed; i++) {
        const relic_trn_triangle *t = &w->triangles[i];
        if (!valid_triangle(w, t)) continue;
        char fill[32];
        if (!(t->flags & WALK)) snprintf(fill, sizeof fill, SVG_NONWALK_FILL);
        else if (t->island == SVG_NO_ISLAND) snprintf(fill, sizeof fill, SVG_NOISLAND_FILL);
        else island_fill(fill, t->island);
        relic_buf_puts(out, "<polygon points=\"");
        for (int k = 0; k < 3; k++) {
            const relic_trn_vec3f *v = &w->vertices[t->vertices[k]];
            relic_buf_printf(out, "%s%.2f,%.2f", k ? " " : "", SX(finite_or_zero(v->x)), SY(finite_or_zero(v->y)));
        }
        relic_buf_printf(out, "\" fill=\"%s\"/>\n", fill);
    }
    relic_buf_puts(out, "</g>\n<g stroke=\"" SVG_GRID_COLOUR "\" stroke-width=\"0.8\" fill=\"none\">\n");
    for (uint32_t x = 0; x <= w->grid_width && w->grid_width <= 4096; x++)
        relic_buf_printf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", SX(x * tw), SY(0), SX(x * tw), SY(gh));
    for (uint32_t y = 0; y <= w->grid_height && w->grid_height <= 4096; y++)
        relic_buf_printf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", SX(0), SY(y * tw), SX(gw), SY(y * tw));
    relic_buf_puts(out, "</g>\n");
    /* tile labels: column numbers under the grid, row numbers left of it (tile (x, y) covers [x*w, (x+1)*w) x [y*w, (y+1)*w)) */
    relic_buf_puts(out, "<g class=\"tile-labels\" font-size=\"10\" fill=\"" SVG_GRID_COLOUR "\" text-anchor=\"middle\">\n");
    uint32_t xstep = w->grid_width / SVG_MAX_LABELS + 1, ystep = w->grid_height / SVG_MAX_LABELS + 1;
    for (uint32_t x = 0; x < w->grid_width && w->grid_width <= 4096; x += xstep)
        relic_buf_printf(out, "<text x=\"%.2f\" y=\"%.2f\">%u</text>\n", SX((x + 0.5) * tw), SY(0) + 14.0, (unsigned)x);
    for (uint32_t y = 0; y < w->grid_height && w->grid_height <= 4096; y += ystep)
        relic_buf_printf(out, "<text x=\"%.2f\" y=\"%.2f\">%u</text>\n", SX(0) - 12.0, SY((y + 0.5) * tw) + 4.0, (unsigned)y);
    relic_buf_puts(out, "</g>\n");
    if (route && route->count) {
        relic_buf_puts(out, "<polyline fill=\"none\" stroke=\"red\" stroke-width=\"2\" points=\"");
        for (size_t i = 0; i < route->count; i++) {
            if (route->triangles[i] >= w->triangles_count) continue;
            const relic_trn_triangle *t = &w->triangles[route->triangles[i]];
            relic_buf_printf(out, "%s%.2f,%.2f", i ? " " : "", SX(finite_or_zero(t->center[0])), SY(finite_or_zero(t->center[1])));
        }
        relic_buf_puts(out, "\"/>\n");
    }
    /* scale bar under the drawing: a round length of at most a quarter of it */
    double bar = span > 0 ? nice_length(span / 4) : 1.0, by = oy + dh + 30.0;
    relic_buf_printf(out, "<g class=\"scale-bar\" font-size=\"11\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"5\" fill=\"#222\"/>"
                          "<text x=\"%.1f\" y=\"%.1f\">%g m</text></g>\n",
                     ox, by, bar * scale, ox + bar * scale + 6.0, by + 6.0, bar);
    /* legend */
    double ly = oy;
    relic_buf_printf(out, "<g class=\"legend\" font-size=\"12\" transform=\"translate(%.1f 0)\">\n", 2 * SVG_MARGIN + dw);
    relic_buf_printf(out, "<text x=\"0\" y=\"%.1f\" font-weight=\"bold\">Triangles</text>\n", ly + 10.0);
    ly += SVG_LEGEND_ROW;
#define SWATCH(fill, ...)                                                                                                                          \
    do {                                                                                                                                           \
        relic_buf_printf(out, "<rect x=\"0\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" stroke=\"#555\" fill=\"%s\"/><text x=\"%.0f\" y=\"%.1f\">", \
                         ly, SVG_SWATCH, SVG_SWATCH, fill, SVG_SWATCH + 8, ly + 11.0);                                                             \
        relic_buf_printf(out, __VA_ARGS__);                                                                                                        \
        relic_buf_puts(out, "</text>\n");                                                                                                          \
        ly += SVG_LEGEND_ROW;                                                                                                                      \
    } while (0)
    SWATCH(SVG_NONWALK_FILL, "not walkable: %zu", nonwalk);
    if (no_island) SWATCH(SVG_NOISLAND_FILL, "walkable, no island: %zu", no_island);
    for (unsigned k = 0; k < SVG_LEGEND_ISLANDS; k++) {
        char fill[32];
        if (!per_island[k]) continue;
        island_fill(fill, k);
        SWATCH(fill, "walkable, island %u: %zu", k, per_island[k]);
    }
    if (other_islands) SWATCH("#ffffff", "walkable, islands %u and up (their own hues): %zu", SVG_LEGEND_ISLANDS, other_islands);
#undef SWATCH
    relic_buf_printf(out, "<line x1=\"0\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"" SVG_GRID_COLOUR "\" stroke-width=\"2\"/>"
                          "<text x=\"%.0f\" y=\"%.1f\">tile grid (labels: column, row)</text>\n",
                     ly + 7.0, SVG_SWATCH, ly + 7.0, SVG_SWATCH + 8, ly + 11.0);
    ly += SVG_LEGEND_ROW;
    if (route && route->count)
        relic_buf_printf(out, "<line x1=\"0\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"red\" stroke-width=\"2\"/>"
                              "<text x=\"%.0f\" y=\"%.1f\">route: %zu triangles</text>\n",
                         ly + 7.0, SVG_SWATCH, ly + 7.0, SVG_SWATCH + 8, ly + 11.0, route->count);
    relic_buf_puts(out, "</g>\n</svg>\n");
#undef SX
#undef SY
    return done(out, err);
}
