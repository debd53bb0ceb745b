/* fmt_pid.c — the `relic` command for Trespasser PID texture directories
 * (.pid): info, check (schema validator, then runtime/formats/tres/pid_check.c); JSON
 * both ways and re-writing are the schema's (schema_io.c). Facts: Trespasser source, Lib/Loader/ImageLoader.cpp, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp; Trespasser file formats
 * PID. */
#include <string.h>

#include "formats.h"
#include "relic_groff.h"

static int pid_info(const cli_input *in)
{
    relic_pid_view v;
    if (cli_schema_view(&cli_format_pid, in, &v)) return 1;
    const relic_pid_header *h = &v.values.header;
    size_t textures = 0, depth8 = 0, depth16 = 0, bump = 0, transparent = 0, occlusion = 0;
    uint64_t swp_end = 0;
    for (size_t i = 0; i < v.rasters_count; i++) {
        relic_pid_raster_view r = relic_pid_rasters_at(&v, i);
        textures += (relic_pid_raster_key(r) >> 32) == 0;
        depth8 += relic_pid_raster_bits_per_pixel(r) == 8;
        depth16 += relic_pid_raster_bits_per_pixel(r) == 16;
        bump += relic_pid_raster_bump_map(r) != 0;
        transparent += relic_pid_raster_transparent(r) != 0;
        occlusion += relic_pid_raster_occlusion(r) != 0;
        uint64_t end = (uint64_t)relic_pid_raster_swp_offset(r) + (uint64_t)relic_pid_raster_stride(r) * relic_pid_raster_height(r);
        if (end > swp_end) swp_end = end;
    }
    printf("%s: Trespasser PID texture directory (version 0x%X)\n", in->path, h->version);
    printf("  %zu rasters: %zu textures and %zu mip levels; %zu 8-bit, %zu 16-bit; %zu bump-mapped, %zu transparent, %zu occlusion\n",
           v.rasters_count, textures, v.rasters_count - textures, depth8, depth16, bump, transparent, occlusion);
    printf("  %zu palettes\n", v.palettes_count);
    printf("  SWP: %llu bytes addressed; bytes 0..0x%X loaded at start, pageable from 0x%X\n",
           (unsigned long long)swp_end, h->nonpageable_size, h->first_pageable);
    return 0;
}

typedef struct report_ctx {
    const char *path;
} report_ctx;

static void report(void *vctx, const relic_error *err)
{
    const report_ctx *c = vctx;
    cli_report(cli_problem_stream(), c->path, err);
}

static unsigned pid_check(const cli_input *in, int strict)
{
    relic_pid_view v;
    if (cli_schema_view(&cli_format_pid, in, &v)) return 1;
    relic_arena a;
    report_ctx rc = {in->path};
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    unsigned n = relic_pid_check(&v, strict, &a, report, &rc);
    relic_arena_release(&a);
    return n;
}

const cli_hooks cli_pid_hooks = {
    pid_info,
    pid_check,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    "  x.pid -> y.json|y.pid                            JSON (palettes, rasters, keys), re-written PID\n"
    "  x.json -> y.pid                                  the PID again, byte for byte\n",
    NULL, /* json_max_output: no bound */
};
