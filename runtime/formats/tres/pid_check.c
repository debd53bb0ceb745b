/* pid_check.c — the rules of a PID texture directory that its schema
 * (schema/tres/pid.schema) cannot state: raster rows and bit depths,
 * palettes of palettised rasters, and (strict) the mip-level keys of
 * Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp and the palette chunk size of Trespasser source, Lib/Loader/ImageLoader.cpp. */
#include <stdarg.h>

#include "relic_groff.h"
#include "relic_tres_names.h"

#define PALETTE_FIXED 12u       /* chunk size, colours used, hash */
#define PALETTE_WRITER_EXTRA 4u /* the writer's chunks hold one colour more */
#define NO_PALETTE 0xFFFFFFFFu
#define KEY_DIM_MASK 0x3FFu

/* Every rule reports through relic_problem (relic.h). */
typedef relic_problems checker;
#define problem relic_problem

unsigned relic_pid_check(const relic_pid_view *v, int strict, relic_arena *scratch, relic_report_fn report,
                         void *ctx)
{
    checker c = {report, ctx, 0, 0};
    char path[64];
    uint32_t *hashes = relic_arena_array(scratch, v->palettes_count ? v->palettes_count : 1, sizeof *hashes, 4);
    if (!hashes) {
        problem(&c, RELIC_E_NOMEM, 0, "palettes", "no memory to check %zu palettes", v->palettes_count);
        return c.count;
    }
    const uint8_t *p = v->palettes;
    for (size_t i = 0; i < v->palettes_count; i++) {
        uint32_t size = relic_load_u32le(p), colours = relic_load_u32le(p + 4);
        hashes[i] = relic_load_u32le(p + 8);
        if (strict && (uint64_t)size != PALETTE_FIXED + 4ull * colours + PALETTE_WRITER_EXTRA) {
            snprintf(path, sizeof path, "palettes[%zu].chunk_size", i);
            problem(&c, RELIC_E_LAYOUT, (uint64_t)(p - v->base), path,
                    "%u; the game's writer makes it 16 + 4 x %u colours", size, colours);
        }
        p += size;
    }
    for (size_t i = 0; i < v->rasters_count; i++) {
        relic_pid_raster_view r = relic_pid_rasters_at(v, i);
        uint64_t at = (uint64_t)(r.p - v->base);
        uint32_t bpp = relic_pid_raster_bits_per_pixel(r), w = relic_pid_raster_width(r), h = relic_pid_raster_height(r);
        uint32_t stride = relic_pid_raster_stride(r), pal = relic_pid_raster_palette(r);
        if (bpp != 8 && bpp != 16) {
            snprintf(path, sizeof path, "rasters[%zu].bits_per_pixel", i);
            problem(&c, RELIC_E_RANGE, at + RELIC_PID_RASTER_BITS_PER_PIXEL_POS, path, "%u is neither 8 nor 16", bpp);
            continue;
        }
        if ((uint64_t)stride < (uint64_t)w * (bpp / 8)) {
            snprintf(path, sizeof path, "rasters[%zu].stride", i);
            problem(&c, RELIC_E_RANGE, at + RELIC_PID_RASTER_STRIDE_POS, path,
                    "%u bytes per row cannot hold %u pixels of %u bits", stride, w, bpp);
        }
        if ((uint64_t)relic_pid_raster_swp_offset(r) + (uint64_t)stride * h > UINT32_MAX) {
            snprintf(path, sizeof path, "rasters[%zu].swp_offset", i);
            problem(&c, RELIC_E_LAYOUT, at + RELIC_PID_RASTER_SWP_OFFSET_POS, path, "the rows pass 4 GiB of SWP");
        }
        int palettised = bpp == 8 || relic_pid_raster_bump_map(r) != 0;
        if (palettised && pal == NO_PALETTE) {
            snprintf(path, sizeof path, "rasters[%zu].palette", i);
            problem(&c, RELIC_E_INDEX, at + RELIC_PID_RASTER_PALETTE_POS, path, "a palettised raster without a palette");
        }
        uint64_t key = relic_pid_raster_key(r);
        if (strict && (key >> 32) != 0) {
            uint32_t fold_hash = pal != NO_PALETTE && pal < v->palettes_count ? hashes[pal] : 0;
            uint64_t want = pal != NO_PALETTE ? relic_tres_mip_key((uint32_t)key, w, h, fold_hash)
                                              : ((uint64_t)(uint32_t)key | (uint64_t)(w & KEY_DIM_MASK) << 32 |
                                                 (uint64_t)(h & KEY_DIM_MASK) << 42 | (key & 0xFFF0000000000000ull));
            if (key != want) {
                snprintf(path, sizeof path, "rasters[%zu].key", i);
                problem(&c, RELIC_E_RANGE, at + RELIC_PID_RASTER_KEY_POS, path,
                        "mip key 0x%016llX; width %u, height %u and the palette fold make 0x%016llX",
                        (unsigned long long)key, w, h, (unsigned long long)want);
            }
        }
    }
    return c.count;
}
