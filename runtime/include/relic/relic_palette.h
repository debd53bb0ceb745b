/* relic_palette.h — colour quantisation: choose a small palette for a
 * weighted colour histogram (used by relic_swp_pack for Trespasser
 * texture palettes, Trespasser source, Lib/Loader/ImageLoader.cpp). */
#ifndef RELIC_PALETTE_H
#define RELIC_PALETTE_H

#include <stddef.h>
#include <stdint.h>

#include "relic.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest palette relic_palette_quantize makes. */
#define RELIC_PALETTE_MAX_COLOURS 256u
/** Most histogram entries relic_palette_quantize accepts (2^22, above the
 *  1024x1024 pixels of the largest texture; keeps 64-bit sums exact). */
#define RELIC_PALETTE_MAX_ENTRIES (1u << 22)

/** A colour with a weight: 8-bit red, green, blue and alpha (255 = opaque)
 *  and, in a histogram, the number of pixels of that colour; in a palette,
 *  the total weight of the histogram entries nearest to it. */
typedef struct relic_palette_colour {
    uint8_t r, g, b, a;
    uint32_t weight;
} relic_palette_colour;

/** Choose at most max_colours colours for the n histogram entries hist[]
 *  and write them to out[0 .. *out_count) (out holds max_colours entries).
 *  When n <= max_colours the palette is the histogram's own colours, in
 *  its order (duplicates kept). Otherwise: median cut over the weighted
 *  histogram in RGBA (the box with the largest channel range x weight is
 *  split along its longest channel at the weighted median; a box's colour
 *  is its weighted mean, rounded), then up to 8 k-means (Lloyd) passes
 *  over the histogram with squared RGBA distance. Entries of weight 0
 *  count as if they were absent from the means (they still form boxes when
 *  nothing else can be split). The result is deterministic and, when
 *  quantising, depends on hist's contents, not on their order. Time:
 *  O(n log n log max_colours + 9 n max_colours) worst case (2^20 distinct
 *  colours into 256: 3.5 s, most images far less). Scratch
 *  memory (about 12 bytes an entry) comes from arena a. Each out[k].weight
 *  is the total weight of the entries nearest to out[k] (at most
 *  UINT32_MAX). Errors:
 *  RELIC_E_ARGUMENT (max_colours 0 or above RELIC_PALETTE_MAX_COLOURS, a
 *  NULL array with n > 0), RELIC_E_LIMIT (n above
 *  RELIC_PALETTE_MAX_ENTRIES), RELIC_E_NOMEM. */
relic_status relic_palette_quantize(const relic_palette_colour *hist, size_t n, uint32_t max_colours,
                                    relic_arena *a, relic_palette_colour *out, uint32_t *out_count,
                                    relic_error *err);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_PALETTE_H */
