/* swp_png.c — 8-bit RGBA images to and from PNG with libpng, for the
 * texture export and import of relic_swp.h (the PNG side of `relic
 * extract LEVEL.pid` and `relic pack-textures`). */
#include <png.h>
#include <setjmp.h>

#include "relic_png.h"
#include "relic_swp.h"

#define PNG_SIGNATURE_SIZE 8u

typedef struct rgba_rows {
    const uint8_t *rgba;
    uint32_t w;
} rgba_rows;

static const uint8_t *rgba_row(void *ctx, uint32_t r, uint8_t *scratch)
{
    const rgba_rows *rr = ctx;
    (void)scratch;
    return rr->rgba + (size_t)r * rr->w * 4u;
}

relic_status relic_png_write_rgba(const uint8_t *rgba, uint32_t w, uint32_t h, relic_buf *out, relic_error *err)
{
    const relic_png_image img = {w, h, 8, 4, NULL, NULL};
    rgba_rows rows = {rgba, w};
    return relic_png_write(&img, rgba_row, &rows, NULL, out, err);
}

typedef struct png_source {
    const uint8_t *p;
    size_t left;
    char message[160];
} png_source;

static void source_read(png_structp png, png_bytep data, size_t n)
{
    png_source *s = png_get_io_ptr(png);
    if (n > s->left) png_error(png, "the PNG data ends early");
    memcpy(data, s->p, n);
    s->p += n;
    s->left -= n;
}

static void on_error(png_structp png, png_const_charp msg)
{
    png_source *s = png_get_error_ptr(png);
    snprintf(s->message, sizeof s->message, "%s", msg);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

relic_status relic_png_read_rgba(const uint8_t *data, size_t size, uint32_t max_side, relic_arena *a,
                                 relic_image *out, relic_error *err)
{
    if (size < PNG_SIGNATURE_SIZE || png_sig_cmp((png_const_bytep)data, 0, PNG_SIGNATURE_SIZE) != 0)
        return relic_fail(err, RELIC_E_MAGIC, 0, "png.signature", "not a PNG file");
    png_source src = {data, size, ""};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &src, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_read_struct(&png, &info, NULL);
        return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "libpng could not start reading");
    }
    /* volatile: set before a possible longjmp and read after it */
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        return relic_fail(err, RELIC_E_SYNTAX, size - src.left, "png", "%s", src.message[0] ? src.message : "libpng failed");
    }
    png_set_read_fn(png, &src, source_read);
    png_set_user_limits(png, max_side, max_side);
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    int type = png_get_color_type(png, info), depth = png_get_bit_depth(png, info);
    if (depth == 16) png_set_strip_16(png);
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS)) png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4u) png_error(png, "unexpected row size after conversion to RGBA");
    pixels = relic_arena_array(a, (size_t)w * h, 4, 16);
    rows = relic_arena_array(a, h, sizeof *rows, sizeof(void *));
    if (!pixels || !rows) {
        png_destroy_read_struct(&png, &info, NULL);
        return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "no memory for a %ux%u image", (unsigned)w, (unsigned)h);
    }
    for (png_uint_32 y = 0; y < h; y++) rows[y] = pixels + (size_t)y * w * 4u;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    out->width = w;
    out->height = h;
    out->rgba = pixels;
    return RELIC_OK;
}
