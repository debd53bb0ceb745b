/* trn_terrain_png.c — the terrain of a TRN/TRX (its TRRN megatiles) as a
 * colour relief picture: the triangles rasterised onto a regular grid
 * (heights interpolated inside each triangle), then drawn by relief.c like a
 * WTD terrain. TRRN vertices are free positions, not a height grid (nwn-lib-d,
 * trn.d; NWN2DataLib, TrxFileReader.cpp: vertex position, normal, uv), so
 * there is no exact heightmap to give: the picture is for the eye. */
#include <math.h>

#include "relic_gen.h"
#include "relic_relief.h"
#include "relic_trn.h"

/* height steps of the grid: millimetres */
#define GRID_Z_SCALE 0.001
/* a grid point on a triangle's edge belongs to it (both neighbours draw it) */
#define INSIDE_EPS 1e-9
/* grid points visited, at most this many per grid point: a terrain's triangles
 * tile the plane (about 2 per point), so only overlapping ones reach it, and
 * the time stays bounded whatever the file holds */
#define RASTER_BUDGET_PER_POINT 64.0

typedef struct grid {
    uint32_t w, h;
    double x0, y0, step;
    int32_t *z;
    uint8_t *set;
} grid;

static int finite3(const float p[3]) { return isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]); }

/* Draws one triangle; returns the grid points its box holds (the work done). */
static double raster(grid *g, const float *a, const float *b, const float *c, double budget)
{
    const double ax = (a[0] - g->x0) / g->step, ay = (a[1] - g->y0) / g->step;
    const double bx = (b[0] - g->x0) / g->step, by = (b[1] - g->y0) / g->step;
    const double cx = (c[0] - g->x0) / g->step, cy = (c[1] - g->y0) / g->step;
    const double det = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
    if (!(fabs(det) > 0)) return 0;
    double lo_x = fmax(0, ceil(fmin(ax, fmin(bx, cx)))), hi_x = fmin(g->w - 1, floor(fmax(ax, fmax(bx, cx))));
    double lo_y = fmax(0, ceil(fmin(ay, fmin(by, cy)))), hi_y = fmin(g->h - 1, floor(fmax(ay, fmax(by, cy))));
    double work = hi_x < lo_x || hi_y < lo_y ? 0 : (hi_x - lo_x + 1) * (hi_y - lo_y + 1);
    if (work > budget) return work;
    for (double y = lo_y; y <= hi_y; y++)
        for (double x = lo_x; x <= hi_x; x++) {
            double u = ((x - ax) * (cy - ay) - (cx - ax) * (y - ay)) / det;
            double v = ((bx - ax) * (y - ay) - (x - ax) * (by - ay)) / det;
            if (u < -INSIDE_EPS || v < -INSIDE_EPS || u + v > 1 + INSIDE_EPS) continue;
            double z = a[2] + u * ((double)b[2] - a[2]) + v * ((double)c[2] - a[2]);
            size_t i = (size_t)y * g->w + (size_t)x;
            g->z[i] = (int32_t)lround(z / GRID_Z_SCALE);
            g->set[i] = 1;
        }
    return work;
}

relic_status relic_trn_terrain_preview_png(const relic_trn_file *m, uint32_t max_side, relic_arena *a, relic_buf *out,
                                           relic_error *err)
{
    relic_trrn_file *tiles = relic_arena_array(a, m->packets_count ? m->packets_count : 1, sizeof *tiles, 8);
    if (!tiles) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the terrain");
    size_t n = 0;
    double minx = INFINITY, miny = INFINITY, maxx = -INFINITY, maxy = -INFINITY, minz = INFINITY, maxz = -INFINITY;
    for (size_t i = 0; i < m->packets_count; i++) {
        if (m->packets[i].type != RELIC_TRN_PACKET_TYPE_TRRN) continue;
        relic_status st = relic_trn_trrn_read(m->packets[i].data, m->packets[i].data_count, a, &tiles[n], err);
        if (st != RELIC_OK) {
            relic_gen_path_prefix(err, "trrn", -1);
            relic_gen_path_prefix(err, "packets", (int64_t)i);
            return st;
        }
        for (size_t k = 0; k < tiles[n].vertices_count; k++) {
            const float *p = tiles[n].vertices[k].position;
            if (!finite3(p)) continue;
            minx = fmin(minx, p[0]), maxx = fmax(maxx, p[0]), miny = fmin(miny, p[1]), maxy = fmax(maxy, p[1]);
            minz = fmin(minz, p[2]), maxz = fmax(maxz, p[2]);
        }
        n++;
    }
    if (!n) return relic_fail(err, RELIC_E_UNSUPPORTED, 0, "packets", "no TRRN packet: the file holds no terrain");
    if (!(maxx > minx && maxy > miny)) return relic_fail(err, RELIC_E_UNSUPPORTED, 0, "packets", "the terrain covers no area");
    /* heights in millimetres must fit 32 bits */
    if (fmax(fabs(minz), fabs(maxz)) / GRID_Z_SCALE > INT32_MAX / 2)
        return relic_fail(err, RELIC_E_RANGE, 0, "packets", "terrain heights beyond +-1000 km");
    if (max_side < 2) max_side = 2;
    grid g;
    g.step = fmax(maxx - minx, maxy - miny) / (max_side - 1);
    g.w = (uint32_t)floor((maxx - minx) / g.step) + 1;
    g.h = (uint32_t)floor((maxy - miny) / g.step) + 1;
    if (g.w > max_side) g.w = max_side;
    if (g.h > max_side) g.h = max_side;
    g.x0 = minx, g.y0 = miny;
    g.z = relic_arena_array(a, (size_t)g.w * g.h, sizeof *g.z, 4);
    g.set = relic_arena_array(a, (size_t)g.w * g.h, 1, 1);
    if (!g.z || !g.set) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for a %u x %u grid", g.w, g.h);
    for (size_t i = 0; i < (size_t)g.w * g.h; i++) g.z[i] = 0, g.set[i] = 0;
    double budget = RASTER_BUDGET_PER_POINT * g.w * g.h;
    for (size_t t = 0; t < n; t++)
        for (size_t k = 0; k < tiles[t].triangles_count; k++) {
            const relic_trrn_terrain_triangle *tr = &tiles[t].triangles[k];
            const float *p0 = tiles[t].vertices[tr->a].position, *p1 = tiles[t].vertices[tr->b].position,
                        *p2 = tiles[t].vertices[tr->c].position;
            if (!finite3(p0) || !finite3(p1) || !finite3(p2)) continue;
            if ((budget -= raster(&g, p0, p1, p2, budget)) < 0)
                return relic_fail(err, RELIC_E_LIMIT, 0, "packets", "the terrain's triangles overlap more than %g times over the %u x %u grid",
                                  RASTER_BUDGET_PER_POINT, g.w, g.h);
        }
    /* points no triangle covers: the lowest height */
    int32_t zlo = (int32_t)lround(minz / GRID_Z_SCALE), zhi = (int32_t)lround(maxz / GRID_Z_SCALE);
    for (size_t i = 0; i < (size_t)g.w * g.h; i++)
        if (!g.set[i]) g.z[i] = zlo;
    const relic_relief_grid rg = {g.w, g.h, g.z, GRID_Z_SCALE, g.step, zlo, zhi};
    return relic_relief_png(&rg, RELIC_RELIEF_COLOUR, a, out, err);
}
