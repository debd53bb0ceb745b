/* relic_png.h — one PNG writer (libpng) for every picture relic makes:
 * heightmaps, relief pictures and textures. The caller fills rows through
 * a callback, so no whole-image buffer is needed. */
#ifndef RELIC_PNG_H
#define RELIC_PNG_H

#include "relic.h"

/** Returns picture row r (0 = top): width × channels samples of bit_depth
 *  bits, 16-bit samples big-endian as PNG stores them — either filled into
 *  the scratch row or pointing into the caller's own image. */
typedef const uint8_t *(*relic_png_row_fn)(void *ctx, uint32_t r, uint8_t *scratch);

/** What to write: size in pixels, 8- or 16-bit samples, 1 (grey), 3 (RGB)
 *  or 4 (RGBA) channels, and an optional tEXt chunk (both NULL for none). */
typedef struct relic_png_image {
    uint32_t width, height;
    int bit_depth;
    int channels;
    const char *text_key;
    const char *text;
} relic_png_image;

/** Row filter of a PNG (PNG Specification, 2nd ed., section 9 "Filtering"):
 *  ADAPTIVE tries the five filters on every row and keeps the one whose
 *  bytes look smallest (libpng's default); the others use one filter for
 *  every row. */
typedef enum relic_png_filter {
    RELIC_PNG_FILTER_ADAPTIVE = 0,
    RELIC_PNG_FILTER_NONE,
    RELIC_PNG_FILTER_SUB,
    RELIC_PNG_FILTER_UP,
    RELIC_PNG_FILTER_PAETH
} relic_png_filter;

/** How zlib looks for repeats (zlib.h, deflateInit2's strategy): DEFAULT
 *  searches earlier bytes for matches; RLE looks only one pixel's bytes
 *  back, which is much faster on long smooth rows for a larger file. */
typedef enum relic_png_strategy {
    RELIC_PNG_STRATEGY_DEFAULT = 0,
    RELIC_PNG_STRATEGY_RLE
} relic_png_strategy;

/** How hard to compress: the row filter, the zlib level (1 fastest ..
 *  9 smallest; 0 keeps libpng's default, 6) and the zlib strategy. */
typedef struct relic_png_options {
    relic_png_filter filter;
    int level;
    relic_png_strategy strategy;
} relic_png_options;

/** Compression for smooth 16-bit heightmaps, chosen by measurement on an
 *  8192 x 8192 terrain (docs/benchmarks.md, "Terrain"): the Up filter at
 *  zlib level 2 writes 26% more bytes than adaptive filters at level 6 in
 *  a third of the time. */
#define RELIC_PNG_HEIGHTMAP_OPTIONS ((relic_png_options){RELIC_PNG_FILTER_UP, 2, RELIC_PNG_STRATEGY_DEFAULT})

/** Compression for the 8-bit RGB colour preview of a terrain, chosen by
 *  measurement on the same terrain (docs/benchmarks.md, "Terrain"): the Up
 *  filter with zlib's RLE strategy does about 40% less zlib work than the
 *  heightmap options for a 19% larger file (19.7 MB against 16.5 MB). */
#define RELIC_PNG_PREVIEW_OPTIONS ((relic_png_options){RELIC_PNG_FILTER_UP, 2, RELIC_PNG_STRATEGY_RLE})

/** relic_png_write with the compression opts gives (NULL: libpng's
 *  defaults, as relic_png_write). Same errors; RELIC_E_ARGUMENT for a
 *  filter, level or strategy out of range. */
relic_status relic_png_write_opts(const relic_png_image *img, const relic_png_options *opts, relic_png_row_fn fill,
                                  void *ctx, uint8_t *scratch, relic_buf *out, relic_error *err);

/** Writes img as a PNG into out, rows from fill(ctx, r, scratch); scratch is
 *  the caller's buffer of width × channels × bit_depth/8 bytes (NULL when
 *  fill never uses it). Errors:
 *  RELIC_E_NOMEM (libpng could not start, or out could not grow),
 *  RELIC_E_IO (libpng failed while writing). */
relic_status relic_png_write(const relic_png_image *img, relic_png_row_fn fill, void *ctx, uint8_t *scratch,
                             relic_buf *out, relic_error *err);

#endif
