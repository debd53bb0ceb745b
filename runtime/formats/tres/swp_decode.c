/* swp_decode.c — one SWP raster as RGBA (or its bump angles): the pixel
 * layouts of the PID raster kinds (relic_swp.h; Trespasser source, Lib/Loader/ImageLoader.cpp,
 * Trespasser file formats, "PID ENTRY"; rows bottom-up as the community readers store
 * them, spec open question 9). */
#include "relic_swp.h"

#define RASTER_CHUNK RELIC_PID_RASTER_SIZE
#define PALETTE_FIXED 12u
#define BUMP_INDEX_SHIFT 10u
#define BUMP_AZIMUTH_SHIFT 4u
#define BUMP_AZIMUTH_MASK 0x3Fu
#define BUMP_ELEVATION_MASK 0x0Fu
#define NIBBLE_TO_BYTE 17u
#define AZIMUTH_SCALE 4u

relic_status relic_swp_palettes_find(const relic_pid_view *v, relic_arena *a, relic_swp_palettes *out,
                                     relic_error *err)
{
    size_t n = v->palettes_count;
    out->n = n;
    out->colours = relic_arena_array(a, n ? n : 1, sizeof *out->colours, sizeof(void *));
    out->count = relic_arena_array(a, n ? n : 1, sizeof *out->count, 4);
    if (!out->colours || !out->count) return relic_fail(err, RELIC_E_NOMEM, 0, "palettes", "no memory for %zu palettes", n);
    const uint8_t *p = v->palettes;
    for (size_t i = 0; i < n; i++) {
        /* validated: chunk_size >= 12 + 4 * colours_used and inside the file */
        out->count[i] = relic_load_u32le(p + 4);
        out->colours[i] = p + PALETTE_FIXED;
        p += relic_load_u32le(p);
    }
    return RELIC_OK;
}

static uint64_t field_at(const relic_pid_view *v, size_t i, size_t field)
{
    return (uint64_t)(v->rasters - v->base) + (uint64_t)i * RASTER_CHUNK + field;
}

relic_status relic_swp_raster_kind(const relic_pid_view *v, size_t i, relic_swp_kind *kind, relic_error *err)
{
    relic_pid_raster_view r = relic_pid_rasters_at(v, i);
    uint32_t bpp = relic_pid_raster_bits_per_pixel(r), pal = relic_pid_raster_palette(r);
    char path[64];
    if (bpp != 8 && bpp != 16) {
        snprintf(path, sizeof path, "rasters[%zu].bits_per_pixel", i);
        return relic_fail(err, RELIC_E_RANGE, field_at(v, i, RELIC_PID_RASTER_BITS_PER_PIXEL_POS), path,
                          "%u bits per pixel; SWP rasters have 8 or 16", bpp);
    }
    *kind = bpp == 8 ? RELIC_SWP_INDEXED : relic_pid_raster_bump_map(r) != 0 ? RELIC_SWP_BUMP
                                                                             : RELIC_SWP_COLOUR4444;
    if (*kind != RELIC_SWP_COLOUR4444 && pal == RELIC_SWP_NO_PALETTE) {
        snprintf(path, sizeof path, "rasters[%zu].palette", i);
        return relic_fail(err, RELIC_E_INDEX, field_at(v, i, RELIC_PID_RASTER_PALETTE_POS), path,
                          "a %s raster without a palette", *kind == RELIC_SWP_INDEXED ? "palettised" : "bump-mapped");
    }
    return RELIC_OK;
}

relic_status relic_swp_raster_extent(const relic_pid_view *v, size_t i, uint64_t *start, uint64_t *end,
                                     relic_error *err)
{
    relic_swp_kind kind;
    relic_status st = relic_swp_raster_kind(v, i, &kind, err);
    if (st != RELIC_OK) return st;
    relic_pid_raster_view r = relic_pid_rasters_at(v, i);
    uint32_t w = relic_pid_raster_width(r), h = relic_pid_raster_height(r), stride = relic_pid_raster_stride(r);
    char path[64];
    if (w == 0 || w > RELIC_SWP_MAX_SIDE) {
        snprintf(path, sizeof path, "rasters[%zu].width", i);
        return relic_fail(err, RELIC_E_RANGE, field_at(v, i, RELIC_PID_RASTER_WIDTH_POS), path,
                          "width %u is outside 1..%u", w, RELIC_SWP_MAX_SIDE);
    }
    if (h == 0 || h > RELIC_SWP_MAX_SIDE) {
        snprintf(path, sizeof path, "rasters[%zu].height", i);
        return relic_fail(err, RELIC_E_RANGE, field_at(v, i, RELIC_PID_RASTER_HEIGHT_POS), path,
                          "height %u is outside 1..%u", h, RELIC_SWP_MAX_SIDE);
    }
    uint64_t row = (uint64_t)w * (kind == RELIC_SWP_INDEXED ? 1u : 2u);
    if (stride < row) {
        snprintf(path, sizeof path, "rasters[%zu].stride", i);
        return relic_fail(err, RELIC_E_RANGE, field_at(v, i, RELIC_PID_RASTER_STRIDE_POS), path,
                          "%u bytes per row cannot hold %u pixels of %u bits", stride, w, kind == RELIC_SWP_INDEXED ? 8u : 16u);
    }
    *start = relic_pid_raster_swp_offset(r);
    *end = *start + (uint64_t)stride * (h - 1u) + row;
    return RELIC_OK;
}

/* the raster's bytes inside swp[0..size) (SWP offsets from base), or an error */
static relic_status locate(const relic_pid_view *v, size_t i, uint64_t base, size_t size, uint64_t *rel,
                           relic_error *err)
{
    uint64_t start, end;
    relic_status st = relic_swp_raster_extent(v, i, &start, &end, err);
    if (st != RELIC_OK) return st;
    if (start < base || end > base + size) {
        char path[64];
        snprintf(path, sizeof path, "rasters[%zu].swp_offset", i);
        return relic_fail(err, RELIC_E_TRUNCATED, field_at(v, i, RELIC_PID_RASTER_SWP_OFFSET_POS), path,
                          "the raster's SWP bytes 0x%llX..0x%llX are not in the SWP (0x%llX..0x%llX)",
                          (unsigned long long)start, (unsigned long long)end, (unsigned long long)base,
                          (unsigned long long)(base + size));
    }
    *rel = start - base;
    return RELIC_OK;
}

static relic_status bad_index(size_t i, uint32_t x, uint32_t y, uint64_t at, unsigned idx, uint32_t colours,
                              relic_error *err)
{
    char path[80];
    snprintf(path, sizeof path, "rasters[%zu].pixels[%u][%u]", i, y, x);
    return relic_fail(err, RELIC_E_INDEX, at, path, "palette index %u; the palette has %u colours (offset in the SWP)",
                      idx, colours);
}

relic_status relic_swp_raster_rgba(const relic_pid_view *v, const relic_swp_palettes *pal, size_t i,
                                   const uint8_t *swp, uint64_t base, size_t size, uint8_t *rgba, relic_error *err)
{
    relic_swp_kind kind;
    uint64_t rel;
    relic_status st = relic_swp_raster_kind(v, i, &kind, err);
    if (st == RELIC_OK) st = locate(v, i, base, size, &rel, err);
    if (st != RELIC_OK) return st;
    relic_pid_raster_view r = relic_pid_rasters_at(v, i);
    const uint32_t w = relic_pid_raster_width(r), h = relic_pid_raster_height(r), stride = relic_pid_raster_stride(r);
    const int transparent = relic_pid_raster_transparent(r) != 0;
    const uint8_t *colours = NULL;
    uint32_t ncol = 0;
    if (kind != RELIC_SWP_COLOUR4444) {
        uint32_t p = relic_pid_raster_palette(r); /* < palette_count: the schema checks it */
        colours = pal->colours[p];
        ncol = pal->count[p];
    }
    for (uint32_t y = 0; y < h; y++) {
        const uint8_t *src = swp + rel + (uint64_t)stride * y;
        uint8_t *dst = rgba + (size_t)(h - 1u - y) * w * 4u; /* rows bottom-up */
        if (kind == RELIC_SWP_INDEXED) {
            for (uint32_t x = 0; x < w; x++, dst += 4) {
                unsigned k = src[x];
                if (k >= ncol) return bad_index(i, x, h - 1u - y, base + rel + (uint64_t)stride * y + x, k, ncol, err);
                const uint8_t *c = colours + 4u * k;
                dst[0] = c[2];
                dst[1] = c[1];
                dst[2] = c[0];
                dst[3] = transparent && k == 0 ? 0 : 255;
            }
        } else if (kind == RELIC_SWP_BUMP) {
            for (uint32_t x = 0; x < w; x++, dst += 4) {
                unsigned k = relic_load_u16le(src + 2u * x) >> BUMP_INDEX_SHIFT;
                if (k >= ncol) return bad_index(i, x, h - 1u - y, base + rel + (uint64_t)stride * y + 2u * x, k, ncol, err);
                const uint8_t *c = colours + 4u * k;
                dst[0] = c[2];
                dst[1] = c[1];
                dst[2] = c[0];
                dst[3] = transparent && k == 0 ? 0 : 255;
            }
        } else {
            for (uint32_t x = 0; x < w; x++, dst += 4) {
                unsigned p = relic_load_u16le(src + 2u * x);
                dst[0] = (uint8_t)(((p >> 8) & 0xFu) * NIBBLE_TO_BYTE);
                dst[1] = (uint8_t)(((p >> 4) & 0xFu) * NIBBLE_TO_BYTE);
                dst[2] = (uint8_t)((p & 0xFu) * NIBBLE_TO_BYTE);
                dst[3] = (uint8_t)((p >> 12) * NIBBLE_TO_BYTE);
            }
        }
    }
    return RELIC_OK;
}

relic_status relic_swp_bump(const relic_pid_view *v, size_t i, const uint8_t *swp, uint64_t base, size_t size,
                            uint8_t *rgba, relic_error *err)
{
    relic_swp_kind kind;
    uint64_t rel;
    relic_status st = relic_swp_raster_kind(v, i, &kind, err);
    if (st != RELIC_OK) return st;
    if (kind != RELIC_SWP_BUMP) {
        char path[64];
        snprintf(path, sizeof path, "rasters[%zu].bump_map", i);
        return relic_fail(err, RELIC_E_ARGUMENT, field_at(v, i, RELIC_PID_RASTER_BUMP_MAP_POS), path,
                          "the raster is not bump-mapped");
    }
    if ((st = locate(v, i, base, size, &rel, err)) != RELIC_OK) return st;
    relic_pid_raster_view r = relic_pid_rasters_at(v, i);
    const uint32_t w = relic_pid_raster_width(r), h = relic_pid_raster_height(r), stride = relic_pid_raster_stride(r);
    for (uint32_t y = 0; y < h; y++) {
        const uint8_t *src = swp + rel + (uint64_t)stride * y;
        uint8_t *dst = rgba + (size_t)(h - 1u - y) * w * 4u;
        for (uint32_t x = 0; x < w; x++, dst += 4) {
            unsigned p = relic_load_u16le(src + 2u * x);
            dst[0] = (uint8_t)(((p >> BUMP_AZIMUTH_SHIFT) & BUMP_AZIMUTH_MASK) * AZIMUTH_SCALE);
            dst[1] = (uint8_t)((p & BUMP_ELEVATION_MASK) * NIBBLE_TO_BYTE);
            dst[2] = 0;
            dst[3] = 255;
        }
    }
    return RELIC_OK;
}
