/* wtd_forward.c — the WTD integer lifting transform, analysis direction:
 * an N x N grid of quantised heights to wavelet coefficients and the root
 * scaling value, finest level first (Trespasser source, Lib/GeomDBase/WaveletQuadTreeTForm.cpp "Forward
 * (analysis) transform"; WaveletQuadTreeTForm.cpp 216-304, 507-561). For
 * each node size s = 2, 4, ..., N: every node's three wavelets are its owned
 * positions minus their predictions from the (reflected) corners; then every
 * base vertex is lifted by the corner contributions of the nodes around it.
 * In place and one lattice row at a time, mirroring wtd_lift.c: node row j
 * is analysed while vertex rows j and j + 1 still hold their unlifted
 * values, then vertex row j (whose four nodes are now known) is lifted. */
#include "relic_wtd.h"
#include "wtd_lifting.h"

static inline void node_contributions(const int32_t *g, uint32_t n, uint32_t i, uint32_t j, uint32_t s, int64_t c[4])
{
    const uint32_t h = s / 2, x = i * s;
    const int32_t *r0 = g + (size_t)j * s * n, *rh = r0 + (size_t)h * n;
    wtd_contributions(r0[x + h], rh[x + h], rh[x], wtd_diagonal(i, j, s, n), i == 0, j == 0, c);
}

/* Replace the owned positions of the size-s nodes of row j by their
 * wavelets; returns 0 when one does not fit 32 bits. */
static int analyse_row(int32_t *g, uint32_t n, uint32_t j, uint32_t s)
{
    const uint32_t h = s / 2, m = n / s, y = j * s;
    int32_t *r0 = g + (size_t)y * n, *rh = r0 + (size_t)h * n;
    const int32_t *r1 = y + s < n ? r0 + (size_t)s * n : r0;
    int ok = 1;
    for (uint32_t i = 0; i < m; i++) {
        const uint32_t x = i * s, x1 = x + s < n ? x + s : x;
        const int64_t s0 = r0[x], s1 = r0[x1], s2 = r1[x1], s3 = r1[x];
        const int64_t w0 = r0[x + h] - wtd_predict(s0, s1);
        const int64_t w1 = rh[x + h] - (wtd_diagonal(i, j, s, n) ? wtd_predict(s1, s3) : wtd_predict(s0, s2));
        const int64_t w2 = rh[x] - wtd_predict(s0, s3);
        ok &= w0 == (int32_t)w0 && w1 == (int32_t)w1 && w2 == (int32_t)w2;
        r0[x + h] = (int32_t)w0;
        rh[x + h] = (int32_t)w1;
        rh[x] = (int32_t)w2;
    }
    return ok;
}

relic_status relic_wtd_analyse(int32_t *g, uint32_t n, relic_error *err)
{
    if (n == 0 || (n & (n - 1)) != 0 || n > RELIC_WTD_MAX_N)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "grid", "grid size %u is not a power of two from 1 to %u", n,
                          (unsigned)RELIC_WTD_MAX_N);
    for (uint32_t s = 2; s <= n; s *= 2) {
        const uint32_t m = n / s;
        int ok = 1;
        for (uint32_t j = 0; j < m; j++) {
            ok &= analyse_row(g, n, j, s);
            int32_t *row = g + (size_t)j * s * n;
            int64_t left1 = 0, left2 = 0;
            for (uint32_t i = 0; i < m; i++) {
                int64_t c[4], d[4] = {0, 0, 0, 0};
                node_contributions(g, n, i, j, s, c);
                if (j > 0) node_contributions(g, n, i, j - 1, s, d);
                const int64_t acc = c[0] + left1 + left2 + d[3];
                left1 = c[1];
                left2 = d[2];
                const int64_t v = (int64_t)row[(size_t)i * s] + wtd_lift(acc);
                ok &= v == (int32_t)v;
                row[(size_t)i * s] = (int32_t)v;
            }
        }
        if (!ok)
            return relic_fail(err, RELIC_E_RANGE, 0, "grid",
                              "the heights are too large: a level-%u value of the transform leaves the 32-bit range", s);
    }
    return RELIC_OK;
}
