/* wtd_lift.c — inverse of the WTD integer lifting transform, the 2-D
 * "0-disc" CDF 2,2 variant on a 4-8 mesh (Trespasser source, Lib/GeomDBase/WaveletQuadTreeTForm.cpp;
 * WaveletCoef.hpp 266-298, WaveletQuadTreeTForm.cpp 216-304): coarsest level
 * first, un-lift the base vertices by the corner contributions of the
 * level's nodes, then predict the three owned positions of every node from
 * its (reflected) corners. In place on the N x N grid, one lattice row at a
 * time so the working set stays in cache: vertex row j needs the nodes of
 * rows j and j - 1; once it is un-lifted, node row j - 1 has both its corner
 * rows and is predicted (its coefficients are no longer needed). A node's
 * contributions are computed twice (for the vertex rows above and below
 * it) instead of being buffered, so the synthesis needs no memory. */
#include "relic_wtd.h"
#include "wtd_lifting.h"

/* Corner contributions of the size-s node in column i, row j. */
static inline void node_contributions(const int32_t *g, uint32_t n, uint32_t i, uint32_t j, uint32_t s, int64_t c[4])
{
    const uint32_t h = s / 2, x = i * s;
    const int32_t *r0 = g + (size_t)j * s * n, *rh = r0 + (size_t)h * n;
    wtd_contributions(r0[x + h], rh[x + h], rh[x], wtd_diagonal(i, j, s, n), i == 0, j == 0, c);
}

/* Set the three owned positions of every size-s node of row j to coefficient
 * + prediction from its corners, reflected at the far edges (MAX_X: 1->0,
 * 2->3; then MAX_Y: 2->1, 3->0 — the same as clamping the corner to the node). */
static void predict_row(int32_t *g, uint32_t n, uint32_t j, uint32_t s)
{
    const uint32_t h = s / 2, m = n / s, y = j * s;
    int32_t *r0 = g + (size_t)y * n, *rh = r0 + (size_t)h * n;
    const int32_t *r1 = y + s < n ? r0 + (size_t)s * n : r0;
    for (uint32_t i = 0; i < m; i++) {
        const uint32_t x = i * s, x1 = x + s < n ? x + s : x;
        const int64_t s0 = r0[x], s1 = r0[x1], s2 = r1[x1], s3 = r1[x];
        r0[x + h] = wtd_wrap32(r0[x + h] + wtd_predict(s0, s1));
        rh[x + h] = wtd_wrap32(rh[x + h] + (wtd_diagonal(i, j, s, n) ? wtd_predict(s1, s3) : wtd_predict(s0, s2)));
        rh[x] = wtd_wrap32(rh[x] + wtd_predict(s0, s3));
    }
}

void relic_wtd_synthesise(int32_t *g, uint32_t n)
{
    for (uint32_t s = n; s >= 2; s /= 2) {
        const uint32_t m = n / s;
        for (uint32_t j = 0; j < m; j++) {
            /* Vertex (i, j) is corner 0 of node (i, j), 1 of (i-1, j), 2 of (i-1, j-1), 3 of (i, j-1). */
            int32_t *row = g + (size_t)j * s * n;
            int64_t left1 = 0, left2 = 0;
            for (uint32_t i = 0; i < m; i++) {
                int64_t c[4], d[4] = {0, 0, 0, 0};
                node_contributions(g, n, i, j, s, c);
                if (j > 0) node_contributions(g, n, i, j - 1, s, d);
                const int64_t acc = c[0] + left1 + left2 + d[3];
                left1 = c[1];
                left2 = d[2];
                row[(size_t)i * s] = wtd_wrap32(row[(size_t)i * s] - wtd_lift(acc));
            }
            if (j > 0) predict_row(g, n, j - 1, s);
        }
        predict_row(g, n, m - 1, s);
    }
}
