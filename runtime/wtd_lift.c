/* wtd_lift.c — inverse of the WTD integer lifting transform, the 2-D
 * "0-disc" CDF 2,2 variant on a 4-8 mesh (spec/trespasser.md §1.7;
 * WaveletCoef.hpp 266-298, WaveletQuadTreeTForm.cpp 216-304): coarsest level
 * first, un-lift the base vertices by the corner contributions of the
 * level's nodes, then predict the three owned positions of every node from
 * its (reflected) corners. In place on the N x N grid: a node's coefficients
 * lie off its level's lattice, so they are still wavelets while that level
 * un-lifts, and become heights when it predicts. */
#include "relic_wtd.h"

/* Values are kept in 32 bits and wrap as the game's ints do; sums are formed in 64 bits. */
static inline int32_t wrap32(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }

/* floor(v / 2^k) without relying on the implementation's signed shift. */
static inline int64_t floor_shift(int64_t v, unsigned k)
{
    return v >= 0 ? v >> k : -(((-v) + ((int64_t)1 << k) - 1) >> k);
}

/* predict(a, b) = (a + b + 1) >> 1; lift(acc) = (acc + 4) >> 3 (spec §1.7). */
static inline int64_t predict(int64_t a, int64_t b) { return floor_shift(a + b + 1, 1); }
static inline int64_t lift(int64_t acc) { return floor_shift(acc + 4, 3); }

/* The contribution of the size-s node at (x, y) to its corner `corner`
 * (0..3 counter-clockwise from the bottom-left), spec §1.7 "Corner contributions". */
static int64_t corner_contribution(const int32_t *g, uint32_t n, uint32_t x, uint32_t y, uint32_t s, int corner)
{
    uint32_t h = s / 2;
    int64_t w0 = g[(size_t)y * n + x + h], w1 = g[(size_t)(y + h) * n + x + h], w2 = g[(size_t)(y + h) * n + x];
    int diag = s < n && (((x / s) + (y / s)) & 1);
    int min_x = x == 0, min_y = y == 0;
    int64_t c[4] = { w0 + w2, w0, 0, w2 };
    if (diag) { c[1] += w1; c[3] += w1; } else { c[0] += w1; c[2] += w1; }
    if (min_x) { c[0] += w0; if (diag) c[3] += w1; else c[0] += w1; }
    if (min_y) { c[0] += w2; if (diag) c[1] += w1; else c[0] += w1; }
    if (min_x && min_y) c[0] += w1;
    return c[corner];
}

void relic_wtd_synthesise(int32_t *g, uint32_t n)
{
    for (uint32_t s = n; s >= 2; s /= 2) {
        uint32_t h = s / 2;
        /* Un-lift every base vertex (x, y) of the size-s lattice inside the grid:
         * it is corner 0 of the node at (x, y), 1 of (x-s, y), 2 of (x-s, y-s), 3 of (x, y-s). */
        for (uint32_t y = 0; y < n; y += s)
            for (uint32_t x = 0; x < n; x += s) {
                int64_t acc = corner_contribution(g, n, x, y, s, 0);
                if (x >= s) acc += corner_contribution(g, n, x - s, y, s, 1);
                if (x >= s && y >= s) acc += corner_contribution(g, n, x - s, y - s, s, 2);
                if (y >= s) acc += corner_contribution(g, n, x, y - s, s, 3);
                size_t i = (size_t)y * n + x;
                g[i] = wrap32((int64_t)g[i] - lift(acc));
            }
        /* Predict the three owned positions of every node from its corners,
         * reflected at the far edges (MAX_X: 1->0, 2->3; then MAX_Y: 2->1, 3->0). */
        for (uint32_t y = 0; y < n; y += s)
            for (uint32_t x = 0; x < n; x += s) {
                uint32_t x1 = x + s < n ? x + s : x, y1 = y + s < n ? y + s : y;
                int64_t s0 = g[(size_t)y * n + x], s1 = g[(size_t)y * n + x1];
                int64_t s2 = g[(size_t)y1 * n + x1], s3 = g[(size_t)y1 * n + x];
                int diag = s < n && (((x / s) + (y / s)) & 1);
                size_t i0 = (size_t)y * n + x + h, i1 = (size_t)(y + h) * n + x + h, i2 = (size_t)(y + h) * n + x;
                g[i0] = wrap32(g[i0] + predict(s0, s1));
                g[i1] = wrap32(g[i1] + (diag ? predict(s1, s3) : predict(s0, s2)));
                g[i2] = wrap32(g[i2] + predict(s0, s3));
            }
    }
}
