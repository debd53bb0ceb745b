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

relic_status relic_trn_aswm_svg(const relic_trn_aswm *w, const relic_trn_route *route, relic_buf *out, relic_error *err)
{
    double tw = isfinite(w->tiles_width) && w->tiles_width > 0 ? w->tiles_width : 10.0;
    double gw = w->grid_width * tw, gh = w->grid_height * tw;
    double minx = 0, miny = 0, maxx = gw, maxy = gh;
    for (size_t i = 0; i < w->vertices_count; i++) {
        double x = finite_or_zero(w->vertices[i].x), y = finite_or_zero(w->vertices[i].y);
        if (x < minx) minx = x;
        if (y < miny) miny = y;
        if (x > maxx) maxx = x;
        if (y > maxy) maxy = y;
    }
    if (maxx - minx > 1e6 || maxy - miny > 1e6) { minx = 0; miny = 0; maxx = gw > 0 ? gw : 1; maxy = gh > 0 ? gh : 1; }
    double span = fmax(maxx - minx, maxy - miny);
    double scale = span > 0 ? 1000.0 / span : 1.0;
#define SX(x) (((double)(x) - minx) * scale)
#define SY(y) ((maxy - (double)(y)) * scale)
    relic_buf_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.2f %.2f\">\n",
                     (maxx - minx) * scale + 1, (maxy - miny) * scale + 1, (maxx - minx) * scale + 1, (maxy - miny) * scale + 1);
    relic_buf_printf(out, "<title>NWN2 walkmesh: %zu triangles, %u x %u tiles, %zu islands</title>\n", w->triangles_count,
                     (unsigned)w->grid_width, (unsigned)w->grid_height, w->islands_count);
    relic_buf_puts(out, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<g stroke=\"#444\" stroke-width=\"0.3\">\n");
    for (size_t i = 0; i < w->triangles_count; i++) {
        const relic_trn_triangle *t = &w->triangles[i];
        if (!valid_triangle(w, t)) continue;
        char fill[32];
        if (!(t->flags & WALK)) snprintf(fill, sizeof fill, "#bbbbbb");
        else if (t->island == 0xFFFF) snprintf(fill, sizeof fill, "#e0f0ff");
        else snprintf(fill, sizeof fill, "hsl(%u,70%%,60%%)", (unsigned)((t->island * 137u) % 360u));
        relic_buf_puts(out, "<polygon points=\"");
        for (int k = 0; k < 3; k++) {
            const relic_trn_vec3f *v = &w->vertices[t->vertices[k]];
            relic_buf_printf(out, "%s%.2f,%.2f", k ? " " : "", SX(finite_or_zero(v->x)), SY(finite_or_zero(v->y)));
        }
        relic_buf_printf(out, "\" fill=\"%s\"/>\n", fill);
    }
    relic_buf_puts(out, "</g>\n<g stroke=\"#0050c0\" stroke-width=\"0.8\" fill=\"none\">\n");
    for (uint32_t x = 0; x <= w->grid_width && w->grid_width <= 4096; x++)
        relic_buf_printf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", SX(x * tw), SY(0), SX(x * tw), SY(gh));
    for (uint32_t y = 0; y <= w->grid_height && w->grid_height <= 4096; y++)
        relic_buf_printf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", SX(0), SY(y * tw), SX(gw), SY(y * tw));
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
    relic_buf_puts(out, "</svg>\n");
#undef SX
#undef SY
    return done(out, err);
}
