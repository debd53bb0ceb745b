/* wtd_lifting.h — the integer operators of the WTD lifting transform shared
 * by the analysis (wtd_forward.c) and the synthesis (wtd_lift.c), so the two
 * stay exact inverses: predict, lift and a node's corner contributions
 * (Trespasser source, Lib/GeomDBase/WaveletQuadTreeTForm.cpp; WaveletCoef.hpp 266-298, WaveletQuadTreeBase.cpp
 * 217-261). Private to the WTD implementation. */
#ifndef RELIC_WTD_LIFTING_H
#define RELIC_WTD_LIFTING_H

#include <stdint.h>

/* floor(v / 2^k) for |v| < 2^40 without the implementation-defined shift
 * of a negative number: bias into the non-negative range, shift, unbias.
 * Every caller's v is a sum of at most a dozen 32-bit values (< 2^36). */
#define WTD_FLOOR_BIAS ((uint64_t)1 << 40)
static inline int64_t wtd_floor_shift(int64_t v, unsigned k)
{
    return (int64_t)(((uint64_t)v + WTD_FLOOR_BIAS) >> k) - (int64_t)(WTD_FLOOR_BIAS >> k);
}

/* predict(a, b) = (a + b + 1) >> 1; lift(acc) = (acc + 4) >> 3 (Trespasser source, Lib/GeomDBase/WaveletQuadTreeTForm.cpp). */
static inline int64_t wtd_predict(int64_t a, int64_t b) { return wtd_floor_shift(a + b + 1, 1); }
static inline int64_t wtd_lift(int64_t acc) { return wtd_floor_shift(acc + 4, 3); }

/* 32-bit wrap-around as the game's ints have it. */
static inline int32_t wtd_wrap32(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }

/* The diagonal flag of the size-s node in column i, row j of its level
 * (Trespasser source, Lib/GeomDBase/WaveletQuadTreeBase.cpp): set on children 1 and 3, i.e. (i + j) odd; clear on the root. */
static inline int wtd_diagonal(uint32_t i, uint32_t j, uint32_t s, uint32_t n) { return s < n && ((i + j) & 1); }

/* Corner contributions c[0..3] of a node's wavelets w0, w1, w2 (Trespasser source, Lib/GeomDBase/WaveletQuadTreeTForm.cpp
 * "Corner contributions"), with the mirror terms at the minimum boundaries. */
static inline void wtd_contributions(int64_t w0, int64_t w1, int64_t w2, int diag, int min_x, int min_y,
                                     int64_t c[4])
{
    c[0] = w0 + w2;
    c[1] = w0;
    c[2] = 0;
    c[3] = w2;
    if (diag) {
        c[1] += w1;
        c[3] += w1;
    } else {
        c[0] += w1;
        c[2] += w1;
    }
    if (min_x) {
        c[0] += w0;
        if (diag) c[3] += w1;
        else c[0] += w1;
    }
    if (min_y) {
        c[0] += w2;
        if (diag) c[1] += w1;
        else c[0] += w1;
    }
    if (min_x && min_y) c[0] += w1;
}

#endif
