/* wtd_png.c — a decoded WTD terrain as a 16-bit greyscale PNG heightmap
 * (libpng), north up: row 0 is the largest quad Y. The grey mapping is
 * recorded in a tEXt chunk so the heights can be recovered. */
#include <png.h>
#include <setjmp.h>
#include <stdio.h>

#include "relic_wtd.h"

typedef struct png_sink {
    relic_buf *out;
} png_sink;

static void sink_write(png_structp png, png_bytep data, size_t n)
{
    png_sink *s = png_get_io_ptr(png);
    relic_buf_append(s->out, data, n);
}

static void sink_flush(png_structp png) { (void)png; }

relic_status relic_wtd_png(const relic_wtd_terrain *t, relic_arena *a, relic_buf *out, relic_error *err)
{
    const uint32_t n = t->n;
    const uint64_t range = (uint64_t)((int64_t)t->max - (int64_t)t->min);
    const double scale = range <= UINT16_MAX ? 1.0 : (double)UINT16_MAX / (double)range;
    uint8_t *row = relic_arena_alloc(a, (size_t)n * 2, 2);
    if (!row) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "no memory for a PNG row");
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "libpng could not start a PNG");
    }
    png_sink sink = { out };
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return relic_fail(err, RELIC_E_IO, 0, NULL, "libpng failed while writing the heightmap");
    }
    png_set_write_fn(png, &sink, sink_write, sink_flush);
    png_set_IHDR(png, info, n, n, 16, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    char text[256];
    const relic_wtd_mapping *m = &t->header.mapping;
    snprintf(text, sizeof text, "min=%ld scale=%.9g coef_to_world=%.9g x0=%.9g y0=%.9g res=%.9g", (long)t->min, scale,
             (double)m->coef_to_world, (double)m->quad_to_world_x.offset, (double)m->quad_to_world_y.offset,
             (double)m->quad_to_world_x.scale);
    png_text txt;
    memset(&txt, 0, sizeof txt);
    txt.compression = PNG_TEXT_COMPRESSION_NONE;
    txt.key = (png_charp) "relic-wtd";
    txt.text = text;
    png_set_text(png, info, &txt, 1);
    png_write_info(png, info);
    for (uint32_t r = 0; r < n; r++) {
        const int32_t *src = t->heights + (size_t)(n - 1 - r) * n;
        for (uint32_t x = 0; x < n; x++) {
            double d = (double)((int64_t)src[x] - (int64_t)t->min) * scale;
            uint16_t v = (uint16_t)(d + 0.5 > UINT16_MAX ? UINT16_MAX : d + 0.5);
            row[2 * x] = (uint8_t)(v >> 8);
            row[2 * x + 1] = (uint8_t)v;
        }
        png_write_row(png, row);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    if (out->failed) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "the PNG output buffer could not grow");
    return RELIC_OK;
}
