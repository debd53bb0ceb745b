/* fmt_trr.c — the `relic` command for Trespasser TRR terrain point clouds
 * (.trr, by extension; Trespasser source, Lib/GeomDBase/TerrainLoad.cpp, runtime/include/relic/relic_trr.h): info
 * (with the grid the importer would make), check, JSON of the points, and
 * convert to TRR again (normalised text) or to WTD through the resampling
 * of Trespasser source, Lib/GeomDBase/WaveletConv.cpp and the encoder (--max-height, --threshold). */
#include <string.h>

#include "relic_trr.h"
#include "terrain_cli.h"
#include "tres_text.h"


static int load(const cli_input *in, relic_arena *a, relic_trr_points *p, FILE *to)
{
    relic_error err;
    relic_arena_init_heap(a, CLI_ARENA_LIMIT);
    if (relic_trr_parse(in->path, in->map.bytes.data, in->map.bytes.size, a, p, &err) != RELIC_OK) {
        cli_report(to, in->path, &err);
        return 1;
    }
    return 0;
}

static int trr_info(const cli_input *in)
{
    relic_arena a;
    relic_trr_points p;
    relic_trr_grid g;
    relic_error err;
    if (load(in, &a, &p, stdout)) {
        relic_arena_release(&a);
        return 1;
    }
    printf("%s: Trespasser TRR terrain point cloud, %zu points\n", in->path, p.count);
    if (p.count && relic_trr_to_grid(&p, 0, &a, &g, &err) == RELIC_OK)
        printf("  as a WTD: %u x %u points on a %u x %u grid, %g m spacing, origin (%g, %g); %zu points share a grid vertex\n",
               g.width, g.height, g.n, g.n, g.res, (double)g.mapping.quad_to_world_x.offset,
               (double)g.mapping.quad_to_world_y.offset, g.points_merged);
    else if (p.count)
        printf("  not convertible to a WTD: %s\n", err.message);
    relic_arena_release(&a);
    return 0;
}

static unsigned trr_check(const cli_input *in, int strict)
{
    (void)strict;
    relic_arena a;
    relic_trr_points p;
    unsigned problems = load(in, &a, &p, stdout) ? 1 : 0;
    relic_arena_release(&a);
    return problems;
}

static int trr_to_json(const cli_input *in, relic_buf *out)
{
    relic_arena a;
    relic_trr_points p;
    if (load(in, &a, &p, stderr)) {
        relic_arena_release(&a);
        return 1;
    }
    relic_buf_printf(out, "{\n  \"format\": \"trr\",\n  \"point_count\": %zu,\n  \"points\": [", p.count);
    for (size_t i = 0; i < p.count; i++) {
        char x[32], y[32], z[32];
        relic_text_double(p.points[i][0], x);
        relic_text_double(p.points[i][1], y);
        relic_text_double(p.points[i][2], z);
        relic_buf_printf(out, "%s\n    [%s, %s, %s]", i ? "," : "", x, y, z);
    }
    relic_buf_puts(out, p.count ? "\n  ]\n}\n" : "]\n}\n");
    relic_arena_release(&a);
    return 0;
}

static int trr_from_json(const cli_input *in, const char *out_path)
{
    (void)in;
    (void)out_path;
    return -1;
}

static int trr_convert(const cli_input *in, const char *out_path, const char *ext)
{
    const int wtd = !strcmp(ext, "wtd");
    if (!wtd && strcmp(ext, "trr")) return -1;
    relic_arena a;
    relic_trr_points p;
    relic_buf buf;
    relic_error err;
    int rc = 1;
    relic_buf_init(&buf, 0);
    if (!load(in, &a, &p, stderr)) {
        if (wtd) {
            double max_height = 0;
            relic_trr_grid g;
            if (cli_max_height(&max_height)) {
                /* printed */
            } else if (relic_trr_to_grid(&p, max_height, &a, &g, &err) != RELIC_OK) {
                cli_error(in->path, &err);
            } else {
                rc = cli_wtd_write(g.heights, g.n, g.width, g.height, &g.mapping, out_path, in->path);
            }
        } else if (relic_trr_write(&p, &buf, &err) != RELIC_OK) {
            cli_error(out_path, &err);
        } else {
            rc = cli_write(out_path, buf.data, buf.size, in->path);
        }
    }
    relic_buf_free(&buf);
    relic_arena_release(&a);
    return rc;
}

const cli_hooks cli_trr_hooks = {
    trr_info,
    trr_check,
    trr_to_json,
    trr_from_json,
    NULL,
    trr_convert,
    NULL,
    "  x.trr -> y.wtd [--max-height M] [--threshold T]  TRR point cloud resampled onto a grid and encoded\n"
    "  x.trr -> y.trr|y.json                            normalised TRR text, JSON of the points\n",
    NULL, /* json_max_output: no bound */
};
