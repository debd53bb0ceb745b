/* trr_grid.c — a TRR point cloud resampled onto the square power-of-two
 * grid of a WTD, following GUIApp's importer (Trespasser source, Lib/GeomDBase/WaveletConv.cpp, Lib/GeomDBase/WaveletQuadTreeQuery.cpp; TerrainLoad.cpp 311-316, 391-522): the grid spacing is the finest
 * spacing of the points' X and Y values, at most 1 m, snapped to 1/8 m;
 * each point goes to its nearest vertex (several points of one vertex are
 * averaged); heights are quantised to 16 bits of max |z|. Vertices without
 * a point (and the padding to the power of two) take the average of the
 * smallest enclosing block of a mean pyramid that has points — a
 * pull-push fill, where the original leaves them to the transform's
 * predictions. */
#include <math.h>
#include <stdlib.h>

#include "relic_trr.h"

/* Finest XY spacing is snapped to multiples of this (Trespasser source, Lib/GeomDBase/WaveletConv.cpp). */
#define TRR_SNAP 8.0
/* ... and is at most one metre. */
#define TRR_MAX_RES 1.0
/* Quantisation bits of the GUI's default (Trespasser source, Lib/GeomDBase/TerrainLoad.cpp, Lib/GeomDBase/WaveletQuadTreeQuery.cpp). */
#define TRR_QUANT_BITS 16

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Smallest positive gap between the sorted values v[0..n), or 0. */
static double finest_gap(double *v, size_t n, relic_arena *a, int *nomem)
{
    if (relic_sort(v, n, sizeof *v, cmp_double, a) != RELIC_OK) {
        *nomem = 1;
        return 0;
    }
    double gap = 0;
    for (size_t i = 1; i < n; i++) {
        double d = v[i] - v[i - 1];
        if (d > 0 && (gap == 0 || d < gap)) gap = d;
    }
    return gap;
}

relic_status relic_trr_to_grid(const relic_trr_points *p, double max_height, relic_arena *a, relic_trr_grid *out,
                               relic_error *err)
{
    memset(out, 0, sizeof *out);
    if (p->count == 0) return relic_fail(err, RELIC_E_ARGUMENT, 0, "points", "the TRR holds no points");
    if (!(max_height >= 0) || !isfinite(max_height))
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "max_height", "the maximum height must be a non-negative number");
    double minx = p->points[0][0], maxx = minx, miny = p->points[0][1], maxy = miny, maxz = 0;
    for (size_t i = 0; i < p->count; i++) {
        const double *q = p->points[i];
        if (q[0] < minx) minx = q[0];
        if (q[0] > maxx) maxx = q[0];
        if (q[1] < miny) miny = q[1];
        if (q[1] > maxy) maxy = q[1];
        if (fabs(q[2]) > maxz) maxz = fabs(q[2]);
        /* bounded so that sums of heights in a cell or block cannot
         * overflow (found by fuzz_trr's structure-aware mutator) */
        if (fabs(q[2]) > RELIC_TRR_MAX_HEIGHT)
            return relic_fail(err, RELIC_E_RANGE, 0, "points", "point %zu: height %g beyond +-%g", i, q[2],
                              RELIC_TRR_MAX_HEIGHT);
    }
    double *tmp = relic_arena_array(a, p->count, sizeof *tmp, sizeof *tmp); /* sort scratch, stays in a */
    if (!tmp) return relic_fail(err, RELIC_E_NOMEM, 0, "points", "no memory to sort %zu coordinates", p->count);
    int nomem = 0;
    for (size_t i = 0; i < p->count; i++) tmp[i] = p->points[i][0];
    double gx = finest_gap(tmp, p->count, a, &nomem);
    for (size_t i = 0; i < p->count; i++) tmp[i] = p->points[i][1];
    double gy = finest_gap(tmp, p->count, a, &nomem);
    if (nomem) return relic_fail(err, RELIC_E_NOMEM, 0, "points", "no memory to sort %zu coordinates", p->count);
    double res = TRR_MAX_RES;
    if (gx > 0 && gx < res) res = gx;
    if (gy > 0 && gy < res) res = gy;
    res = round(res * TRR_SNAP) / TRR_SNAP;
    if (res < 1 / TRR_SNAP) res = 1 / TRR_SNAP;
    const double spanx = (maxx - minx) / res + 0.5, spany = (maxy - miny) / res + 0.5;
    if (!(spanx < RELIC_WTD_MAX_N) || !(spany < RELIC_WTD_MAX_N))
        return relic_fail(err, RELIC_E_LIMIT, 0, "points",
                          "the points span %.9g x %.9g m; at %.9g m spacing that needs more than %u grid steps",
                          maxx - minx, maxy - miny, res, (unsigned)RELIC_WTD_MAX_N);
    const uint32_t w = (uint32_t)spanx + 1, h = (uint32_t)spany + 1, n = relic_wtd_grid_size(w, h);
    if (n == 0)
        return relic_fail(err, RELIC_E_LIMIT, 0, "points", "a %u x %u grid exceeds %u", w, h, (unsigned)RELIC_WTD_MAX_N);
    const size_t cells = (size_t)n * n;
    double *sum = relic_arena_array(a, cells, sizeof *sum, 8);
    uint32_t *cnt = relic_arena_array(a, cells, sizeof *cnt, 4);
    int32_t *heights = relic_arena_array(a, cells, sizeof *heights, 4);
    /* mean pyramid above the grid: level k has (n >> k)^2 blocks, k = 1..log2 n */
    const unsigned levels = relic_wtd_ulog2(n);
    double *mean[RELIC_WTD_MAX_LEVELS + 1] = {0};
    uint32_t *has[RELIC_WTD_MAX_LEVELS + 1] = {0};
    int ok = sum && cnt && heights;
    for (unsigned k = 1; ok && k <= levels; k++) {
        const size_t side = n >> k;
        mean[k] = relic_arena_array(a, side * side, sizeof(double), 8);
        has[k] = relic_arena_array(a, side * side, sizeof(uint32_t), 4);
        ok = mean[k] && has[k];
    }
    if (!ok) return relic_fail(err, RELIC_E_NOMEM, 0, "grid", "no memory for a %u x %u grid", n, n);
    for (size_t i = 0; i < p->count; i++) {
        const double *q = p->points[i];
        const uint32_t x = (uint32_t)((q[0] - minx) / res + 0.5), y = (uint32_t)((q[1] - miny) / res + 0.5);
        const size_t c = (size_t)(y < h ? y : h - 1) * n + (x < w ? x : w - 1);
        if (cnt[c]) out->points_merged++;
        else out->cells_with_points++;
        sum[c] += q[2];
        cnt[c]++;
    }
    for (size_t c = 0; c < cells; c++)
        if (cnt[c]) sum[c] /= cnt[c];
    /* pull: block means from the level below */
    for (unsigned k = 1; k <= levels; k++) {
        const uint32_t side = n >> k;
        for (uint32_t y = 0; y < side; y++)
            for (uint32_t x = 0; x < side; x++) {
                double s = 0;
                uint32_t m = 0;
                for (uint32_t q = 0; q < 4; q++) {
                    const uint32_t cx = 2 * x + (q & 1), cy = 2 * y + (q >> 1);
                    if (k == 1) {
                        const size_t c = (size_t)cy * n + cx;
                        if (cnt[c]) s += sum[c], m++;
                    } else {
                        const size_t c = (size_t)cy * (2 * side) + cx;
                        if (has[k - 1][c]) s += mean[k - 1][c], m++;
                    }
                }
                mean[k][(size_t)y * side + x] = m ? s / m : 0;
                has[k][(size_t)y * side + x] = m != 0;
            }
    }
    const double scale = maxz > 0 ? (max_height > 0 ? max_height : maxz) : 1;
    double to_coef = (double)(1u << TRR_QUANT_BITS) / scale;
    /* a subnormal scale overflows the factor: every height is then 0 to
     * 16 bits anyway (found by fuzz_trr's structure-aware mutator) */
    if (!isfinite(to_coef)) to_coef = 1;
    for (uint32_t y = 0; y < n; y++)
        for (uint32_t x = 0; x < n; x++) {
            const size_t c = (size_t)y * n + x;
            double z = sum[c];
            if (!cnt[c])
                for (unsigned k = 1; k <= levels; k++) {
                    const size_t b = (size_t)(y >> k) * (n >> k) + (x >> k);
                    if (has[k][b]) {
                        z = mean[k][b];
                        break;
                    }
                }
            double s = round(z * to_coef);
            if (s > INT32_MAX / 4) s = INT32_MAX / 4;
            if (s < -(INT32_MAX / 4)) s = -(INT32_MAX / 4);
            heights[c] = (int32_t)s;
        }
    out->n = n;
    out->width = w;
    out->height = h;
    out->heights = heights;
    out->res = res;
    relic_wtd_mapping_init(&out->mapping, n, minx, miny, res, 1 / to_coef);
    return RELIC_OK;
}
