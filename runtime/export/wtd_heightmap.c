/* wtd_heightmap.c — a greyscale PNG heightmap (libpng) read into a grid of
 * quantised heights for the WTD encoder: north up (the last picture row is
 * y = 0, as wtd_png.c writes), and relic's own "relic-wtd" text chunk, when
 * present, undone (grey -> height, and the quad->world mapping) so that a
 * heightmap relic wrote encodes back to the terrain it came from
 * (Trespasser source, Lib/GeomDBase/WaveletQuadTreeQuery.cpp for the height units). */
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "relic_wtd.h"

typedef struct png_source {
    const uint8_t *data;
    size_t size, pos;
} png_source;

static void source_read(png_structp png, png_bytep out, size_t n)
{
    png_source *s = png_get_io_ptr(png);
    if (n > s->size - s->pos) png_error(png, "the PNG data ends early");
    memcpy(out, s->data + s->pos, n);
    s->pos += n;
}

/* libpng's messages go to the caller as a relic_error, not to stderr. */
static void quiet_error(png_structp png, png_const_charp msg)
{
    (void)msg;
    png_longjmp(png, 1);
}

static void quiet_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

/* Parse "key=value" pairs of the relic-wtd chunk. Unknown keys are ignored. */
typedef struct png_mem {
    relic_arena *a;
    int failed; /* an allocation failed: libpng's longjmp then means RELIC_E_NOMEM */
} png_mem;

static png_voidp arena_png_malloc(png_structp png, png_alloc_size_t n)
{
    png_mem *m = png_get_mem_ptr(png);
    void *p = relic_arena_alloc(m->a, n, 16);
    if (!p) m->failed = 1;
    return p;
}

static void arena_png_free(png_structp png, png_voidp p)
{
    (void)png;
    (void)p; /* freed with the arena */
}

static void parse_chunk(const char *text, double *min, double *scale, relic_wtd_heightmap *out)
{
    static const char *const keys[] = {"min=", "scale=", "coef_to_world=", "x0=", "y0=", "res="};
    double *dest[6] = {min, scale, &out->coef_to_world, &out->x0, &out->y0, &out->res};
    for (const char *p = text; *p;) {
        while (*p == ' ') p++;
        for (int k = 0; k < 6; k++) {
            size_t len = strlen(keys[k]);
            if (!strncmp(p, keys[k], len)) {
                char *end;
                double v = strtod(p + len, &end);
                if (end != p + len && isfinite(v)) *dest[k] = v;
            }
        }
        while (*p && *p != ' ') p++;
    }
}

relic_status relic_wtd_png_read(const uint8_t *data, size_t size, relic_arena *a, relic_wtd_heightmap *out,
                                relic_error *err)
{
    memset(out, 0, sizeof *out);
    if (size < 8 || png_sig_cmp(data, 0, 8))
        return relic_fail(err, RELIC_E_MAGIC, 0, "png", "not a PNG file (no PNG signature)");
    /* libpng's own memory (its structs, zlib's inflate state) from the arena too */
    png_mem mem = {a, 0};
    png_structp png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, NULL, quiet_error, quiet_warning, &mem, arena_png_malloc,
                                               arena_png_free);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_read_struct(&png, &info, NULL);
        return relic_fail(err, RELIC_E_NOMEM, 0, "png", "libpng could not start reading");
    }
    png_source src = {data, size, 0};
    /* volatile: these change between setjmp and a longjmp from libpng */
    uint8_t *volatile row = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        if (mem.failed) return relic_fail(err, RELIC_E_NOMEM, src.pos, "png", "the arena cannot hold libpng's state");
        return relic_fail(err, RELIC_E_IO, src.pos, "png", "libpng cannot read this PNG (damaged or cut short)");
    }
    png_set_read_fn(png, &src, source_read);
    png_read_info(png, info);
    const uint32_t w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    const int type = png_get_color_type(png, info), depth = png_get_bit_depth(png, info);
    if (type != PNG_COLOR_TYPE_GRAY) {
        png_destroy_read_struct(&png, &info, NULL);
        return relic_fail(err, RELIC_E_UNSUPPORTED, 0, "png.IHDR.color_type",
                          "colour type %d: a heightmap must be greyscale without alpha", type);
    }
    if (w == 0 || h == 0 || w > RELIC_WTD_MAX_N || h > RELIC_WTD_MAX_N) {
        png_destroy_read_struct(&png, &info, NULL);
        return relic_fail(err, RELIC_E_LIMIT, 0, "png.IHDR", "a %u x %u heightmap: each side must be 1..%u", w, h,
                          (unsigned)RELIC_WTD_MAX_N);
    }
    if (depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    double min = 0, scale = 1;
    png_textp text;
    int ntext = 0;
    if (png_get_text(png, info, &text, &ntext) > 0)
        for (int k = 0; k < ntext; k++)
            if (!strcmp(text[k].key, "relic-wtd") && text[k].text) {
                out->has_mapping = 1;
                parse_chunk(text[k].text, &min, &scale, out);
            }
    /* a chunk relic did not write could hold anything: keep the arithmetic in range */
    if (!(scale >= 1.0 / 65536 && scale <= 1)) scale = 1;
    if (!(fabs(min) <= (double)(1 << 30))) min = 0;
    if (scale == 1) min = floor(min);
    png_read_update_info(png, info);
    const size_t rowbytes = png_get_rowbytes(png, info);
    int32_t *g = relic_arena_array(a, (size_t)w * h, sizeof *g, _Alignof(int32_t));
    row = g ? relic_arena_alloc(a, rowbytes, 1) : NULL; /* one row of libpng's output, in the caller's arena */
    if (!row) {
        png_destroy_read_struct(&png, &info, NULL);
        return relic_fail(err, RELIC_E_NOMEM, 0, "png", "no memory for a %u x %u heightmap", w, h);
    }
    const int wide = depth == 16;
    for (uint32_t r = 0; r < h; r++) {
        png_read_row(png, row, NULL);
        int32_t *dst = g + (size_t)(h - 1 - r) * w;
        for (uint32_t x = 0; x < w; x++) {
            const uint32_t grey = wide ? ((uint32_t)row[2 * x] << 8 | row[2 * x + 1]) : (uint32_t)row[x] * 257u;
            dst[x] = scale == 1 ? (int32_t)(grey + (int64_t)min) : (int32_t)lround(grey / scale + min);
        }
    }
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    out->width = w;
    out->height = h;
    out->heights = g;
    out->lossy = scale != 1;
    return RELIC_OK;
}
