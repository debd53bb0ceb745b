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

/** What to write: size in pixels, 8- or 16-bit samples, 1 (grey) or 4
 *  (RGBA) channels, and an optional tEXt chunk (both NULL for none). */
typedef struct relic_png_image {
    uint32_t width, height;
    int bit_depth;
    int channels;
    const char *text_key;
    const char *text;
} relic_png_image;

/** Writes img as a PNG into out, rows from fill(ctx, r, scratch); scratch is
 *  the caller's buffer of width × channels × bit_depth/8 bytes (NULL when
 *  fill never uses it). Errors:
 *  RELIC_E_NOMEM (libpng could not start, or out could not grow),
 *  RELIC_E_IO (libpng failed while writing). */
relic_status relic_png_write(const relic_png_image *img, relic_png_row_fn fill, void *ctx, uint8_t *scratch,
                             relic_buf *out, relic_error *err);

#endif
