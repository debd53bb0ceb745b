/* png_write.c — the PNG writer shared by heightmaps, relief pictures and
 * textures (relic_png.h): libpng with a sink into a relic_buf; colour
 * type from the channel count (grey, RGB, RGBA). */
#include <png.h>
#include <setjmp.h>
#include <string.h>
#include <zlib.h>

#include "relic_png.h"

static void sink_write(png_structp png, png_bytep data, size_t n)
{
    relic_buf_append(png_get_io_ptr(png), data, n);
}

static void sink_flush(png_structp png) { (void)png; }

relic_status relic_png_write(const relic_png_image *img, relic_png_row_fn fill, void *ctx, uint8_t *scratch,
                             relic_buf *out, relic_error *err)
{
    return relic_png_write_opts(img, NULL, fill, ctx, scratch, out, err);
}

relic_status relic_png_write_opts(const relic_png_image *img, const relic_png_options *opts, relic_png_row_fn fill,
                                  void *ctx, uint8_t *scratch, relic_buf *out, relic_error *err)
{
    static const int filters[] = {PNG_ALL_FILTERS, PNG_FILTER_NONE, PNG_FILTER_SUB, PNG_FILTER_UP, PNG_FILTER_PAETH};
    static const int strategies[] = {Z_DEFAULT_STRATEGY, Z_RLE};
    if (opts && ((unsigned)opts->filter >= sizeof filters / sizeof filters[0] || opts->level < 0 || opts->level > 9 || (unsigned)opts->strategy >= sizeof strategies / sizeof strategies[0]))
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "PNG filter %d / zlib level %d / strategy %d out of range",
                          (int)opts->filter, opts->level, (int)opts->strategy);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "libpng could not start a PNG");
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return relic_fail(err, RELIC_E_IO, 0, NULL, "libpng failed while writing a %ux%u picture", img->width,
                          img->height);
    }
    png_set_write_fn(png, out, sink_write, sink_flush);
    int colour = PNG_COLOR_TYPE_GRAY;
    if (img->channels == 3) colour = PNG_COLOR_TYPE_RGB;
    if (img->channels == 4) colour = PNG_COLOR_TYPE_RGB_ALPHA;
    png_set_IHDR(png, info, img->width, img->height, img->bit_depth, colour, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (opts) {
        png_set_filter(png, PNG_FILTER_TYPE_BASE, filters[opts->filter]);
        if (opts->level) png_set_compression_level(png, opts->level);
        png_set_compression_strategy(png, strategies[opts->strategy]);
    }
    if (img->text_key && img->text) {
        png_text txt;
        memset(&txt, 0, sizeof txt);
        txt.compression = PNG_TEXT_COMPRESSION_NONE;
        txt.key = (png_charp)img->text_key;
        txt.text = (png_charp)img->text;
        png_set_text(png, info, &txt, 1);
    }
    png_write_info(png, info);
    for (uint32_t r = 0; r < img->height; r++) {
        png_write_row(png, fill(ctx, r, scratch));
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    if (out->failed) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "the PNG output buffer could not grow");
    return RELIC_OK;
}
