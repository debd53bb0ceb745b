/* fmt_wtd.c — the `relic` command for Trespasser WTD terrain (.wtd): info,
 * check (header, parameter block, zerotree, synthesis: runtime/wtd_*.c;
 * --strict adds the encoder's bookkeeping, Trespasser source, Lib/GeomDBase/WaveletDataFormat.cpp, Lib/GeomDBase/WaveletQuadTreeTForm.cpp),
 * JSON of the header, parameter block and tree statistics, and the outputs:
 * 16-bit heightmap or (--relief) 8-bit shaded-relief PNG, the leaf
 * triangulation as OBJ or TRI text (Trespasser source, Lib/GeomDBase/WaveletQuadTreeBaseTri.cpp, Lib/GeomDBase/TerrainLoad.cpp), and WTD again
 * (re-encoded, optionally with --threshold). Import: a greyscale PNG
 * heightmap (--extent, --max-height, --threshold) through the encoder. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "relic_tri.h"
#include "terrain_cli.h"
#include "progress.h"

/* Quantised PNG heights without relic's chunk and without --max-height: 1/256 m per unit. */
#define DEFAULT_COEF_TO_WORLD (1.0 / 256)

/* The grid side a conversion may decode: --max-grid N (a power of two up to
 * RELIC_WTD_MAX_N), else RELIC_WTD_DEFAULT_MAX_N, the bound that keeps any
 * file under 1 MB within 1 s and 64 MiB (docs/security.md). 0 when
 * --max-grid is malformed (printed). */
static uint32_t max_grid(void)
{
    const char *s = cli_convert_option("--max-grid");
    if (!s) return RELIC_WTD_DEFAULT_MAX_N;
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (end == s || *end || *s == '-' || v == 0 || v > RELIC_WTD_MAX_N || (v & (v - 1)) != 0) {
        fprintf(stderr, "relic convert: --max-grid wants a power of two from 1 to %u, not '%s'\n", (unsigned)RELIC_WTD_MAX_N, s);
        return 0;
    }
    return (uint32_t)v;
}

/* Decode into arena a with grids up to max_n on a side; prints the error
 * (to `to`) and returns 1 on failure. */
static int load_terrain(const cli_input *in, uint32_t max_n, relic_arena *a, relic_wtd_terrain *t, FILE *to)
{
    relic_error err;
    cli_progress tick;
    char what[96];
    snprintf(what, sizeof what, "decoding %.80s", in->path);
    cli_progress_tick_begin(&tick, what, 0);
    relic_status st = relic_wtd_decode_terrain_max(in->map.bytes.data, in->map.bytes.size, max_n, a, t, &err);
    cli_progress_end(&tick);
    if (st != RELIC_OK) {
        cli_report(to, in->path, &err);
        if (err.code == RELIC_E_LIMIT) fprintf(to, "%s: convert with --max-grid %u to decode it\n", in->path, t->header.mapping.quad_extents.size_x);
        return 1;
    }
    return 0;
}

/* Header and tree come from a walk linear in the file; the heights need the
 * whole grid, so they are given only for grids within RELIC_WTD_DEFAULT_MAX_N. */
static int wtd_info(const cli_input *in)
{
    relic_arena a;
    relic_wtd_terrain t;
    relic_error err;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    memset(&t, 0, sizeof t);
    if (relic_wtd_read_header(in->map.bytes.data, in->map.bytes.size, &t.header, &err) != RELIC_OK ||
        relic_wtd_read_tree(in->map.bytes.data, in->map.bytes.size, &t.header, NULL, &t.stats, &err) != RELIC_OK) {
        cli_report(cli_problem_stream(), in->path, &err);
        relic_arena_release(&a);
        return 1;
    }
    t.n = (uint32_t)t.header.mapping.quad_extents.size_x;
    const int heights = t.n <= RELIC_WTD_DEFAULT_MAX_N;
    if (heights && load_terrain(in, RELIC_WTD_DEFAULT_MAX_N, &a, &t, stdout)) {
        relic_arena_release(&a);
        return 1;
    }
    const relic_wtd_file *h = &t.header;
    const relic_wtd_mapping *m = &h->mapping;
    printf("%s: Trespasser WTD wavelet terrain, version %u\n", in->path, (unsigned)h->version);
    printf("  grid %u x %u quad units at (%d, %d), %g m per unit; world X %g..%g, Y %g..%g (metres)\n", t.n, t.n,
           m->quad_extents.start_x, m->quad_extents.start_y, (double)m->quad_to_world_x.scale,
           (double)m->quad_to_world_x.offset, (double)m->quad_to_world_x.offset + t.n * (double)m->quad_to_world_x.scale,
           (double)m->quad_to_world_y.offset, (double)m->quad_to_world_y.offset + t.n * (double)m->quad_to_world_y.scale);
    if (heights)
        printf("  heights %d..%d coefficient units = %.3f..%.3f m (%.9g m per unit); root coefficient %d\n", t.min, t.max,
               relic_wtd_world_z(h, t.min), relic_wtd_world_z(h, t.max), (double)m->coef_to_world, h->root_coefficient);
    else
        printf("  heights not decoded: the grid is over %u x %u (relic convert --max-grid %u decodes it); %.9g m per unit; root coefficient %d\n",
               (unsigned)RELIC_WTD_DEFAULT_MAX_N, (unsigned)RELIC_WTD_DEFAULT_MAX_N, t.n, (double)m->coef_to_world, h->root_coefficient);
    printf("  zerotree: %u nodes in the stream (%u significant, depth %u), %u non-zero coefficients, %llu bits; header: %u nodes, %u vertices\n",
           t.stats.nodes, t.stats.significant, t.stats.depth, t.stats.nonzero,
           (unsigned long long)(t.stats.end_bit - RELIC_WTD_TREE_BIT), h->node_count, h->vertex_count);
    relic_arena_release(&a);
    return 0;
}

/* check walks the tree without the grid (synthesis cannot fail): time and
 * memory stay linear in the file whatever grid it declares */
static unsigned wtd_check(const cli_input *in, int strict)
{
    relic_arena a;
    relic_wtd_terrain t;
    relic_error lerr;
    unsigned problems = 0;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    memset(&t, 0, sizeof t);
    if (relic_wtd_read_header(in->map.bytes.data, in->map.bytes.size, &t.header, &lerr) != RELIC_OK ||
        relic_wtd_read_tree(in->map.bytes.data, in->map.bytes.size, &t.header, NULL, &t.stats, &lerr) != RELIC_OK) {
        cli_report(cli_problem_stream(), in->path, &lerr);
        relic_arena_release(&a);
        return 1;
    }
    if (strict) {
        relic_error err;
        uint64_t expect_nodes = 1 + (uint64_t)4 * t.stats.significant;
        if (t.header.node_count != expect_nodes) {
            relic_fail(&err, RELIC_E_RANGE, relic_wtd_file_offset((uint64_t)RELIC_WTD_FILE_NODE_COUNT_POS * 8),
                       "node_count", "%u, but the tree has %u significant nodes (the encoder writes 1 + 4 x that = %llu)",
                       t.header.node_count, t.stats.significant, (unsigned long long)expect_nodes);
            cli_report(cli_problem_stream(), in->path, &err);
            problems++;
        }
        uint64_t words = (t.stats.end_bit + 31) / 32;
        if (words * RELIC_WTD_WORD_BYTES != in->map.bytes.size) {
            relic_fail(&err, RELIC_E_LAYOUT, words * RELIC_WTD_WORD_BYTES, "file",
                       "file is %zu bytes, the tree ends in word %llu (the encoder writes %llu bytes)",
                       in->map.bytes.size, (unsigned long long)words,
                       (unsigned long long)(words * RELIC_WTD_WORD_BYTES));
            cli_report(cli_problem_stream(), in->path, &err);
            problems++;
        }
    }
    relic_arena_release(&a);
    return problems;
}

/* The header JSON of the schema, with a "tree" object of statistics added. */
static int wtd_to_json(const cli_input *in, relic_buf *out)
{
    relic_wtd_file h;
    relic_wtd_tree_stats st;
    relic_error err;
    relic_buf head;
    relic_buf_init(&head, 0);
    if (relic_wtd_read_header(in->map.bytes.data, in->map.bytes.size, &h, &err) != RELIC_OK ||
        relic_wtd_read_tree(in->map.bytes.data, in->map.bytes.size, &h, NULL, &st, &err) != RELIC_OK ||
        relic_wtd_json_print(&h, &head, &err) != RELIC_OK) {
        cli_error(in->path, &err);
        relic_buf_free(&head);
        return 1;
    }
    size_t end = head.size;
    while (end > 0 && head.data[end - 1] != '}') end--;
    if (end == 0 || head.failed) {
        relic_buf_free(&head);
        cli_errorf(in->path, 0, "the header JSON could not be made");
        return 1;
    }
    end--; /* drop the closing brace, and the white space before it */
    while (end > 0 && (head.data[end - 1] == '\n' || head.data[end - 1] == ' ')) end--;
    relic_buf_append(out, head.data, end);
    relic_buf_free(&head);
    relic_buf_printf(out, ",\n  \"tree\": {\n    \"nodes_in_stream\": %u,\n    \"significant\": %u,\n"
                          "    \"leaves\": %u,\n    \"nonzero_coefficients\": %u,\n    \"depth\": %u,\n"
                          "    \"root_branch_bits\": %u,\n    \"root_max_region\": %u,\n    \"tree_bits\": %llu,\n"
                          "    \"significant_per_level\": [",
                     st.nodes, st.significant, st.nodes - st.significant, st.nonzero, st.depth, st.root_branch_bits,
                     st.root_max, (unsigned long long)(st.end_bit - RELIC_WTD_TREE_BIT));
    unsigned last = 0;
    for (unsigned k = 0; k <= RELIC_WTD_MAX_LEVELS; k++)
        if (st.level_significant[k]) last = k + 1;
    for (unsigned k = 0; k < last; k++) relic_buf_printf(out, "%s%u", k ? ", " : "", st.level_significant[k]);
    relic_buf_puts(out, "]\n  }\n}\n");
    return 0;
}

/* The header JSON does not hold the terrain, so no WTD is made from it. */
static int wtd_from_json(const cli_input *in, const char *out_path)
{
    (void)in;
    (void)out_path;
    return -1;
}

int cli_max_height(double *v)
{
    const char *s = cli_convert_option("--max-height");
    if (!s) return 0;
    char *end;
    double d = strtod(s, &end);
    if (end == s || *end || !(d > 0) || !isfinite(d)) {
        fprintf(stderr, "relic convert: --max-height wants a positive number of metres, not '%s'\n", s);
        return 1;
    }
    *v = d;
    return 0;
}

int cli_wtd_write(const int32_t *grid, uint32_t n, uint32_t w, uint32_t h, const relic_wtd_mapping *m,
                  const char *out_path, const char *in_path)
{
    relic_wtd_encode_options opt = {0, w, h};
    const char *t = cli_convert_option("--threshold");
    if (t) {
        char *end;
        unsigned long v = strtoul(t, &end, 10);
        if (end == t || *end || *t == '-' || v > UINT32_MAX) {
            fprintf(stderr, "relic convert: --threshold wants a coefficient magnitude (0..%u), not '%s'\n",
                    (unsigned)UINT32_MAX, t);
            return 1;
        }
        opt.threshold = (uint32_t)v;
    }
    relic_arena a;
    relic_buf out;
    relic_error err;
    relic_wtd_encode_stats st;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    relic_buf_init(&out, 0);
    int rc = 1;
    cli_progress tick;
    char what[96];
    snprintf(what, sizeof what, "encoding %.80s", out_path);
    cli_progress_tick_begin(&tick, what, 0);
    relic_status est = relic_wtd_encode(grid, n, m, &opt, &a, &out, &st, &err);
    cli_progress_end(&tick);
    if (est != RELIC_OK) {
        cli_error(out_path, &err);
    } else {
        rc = cli_write(out_path, out.data, out.size, in_path);
        if (rc == 0 && opt.threshold)
            printf("%s: threshold %u dropped %u of %u coefficients; height error max %u units (%.4g m), RMS %.4g units (%.4g m)\n",
                   out_path, opt.threshold, st.dropped, st.dropped + st.nonzero, st.max_error,
                   st.max_error * (double)m->coef_to_world, st.rms_error, st.rms_error * (double)m->coef_to_world);
    }
    relic_buf_free(&out);
    relic_arena_release(&a);
    return rc;
}

static int wtd_convert(const cli_input *in, const char *out_path, const char *ext)
{
    const int png = !strcmp(ext, "png"), obj = !strcmp(ext, "obj"), tri = !strcmp(ext, "tri"), wtd = !strcmp(ext, "wtd");
    if (!png && !obj && !tri && !wtd) return -1;
    relic_arena a;
    relic_wtd_terrain t;
    relic_buf buf;
    relic_error err;
    relic_status st = RELIC_OK;
    int rc = 1;
    const uint32_t max_n = max_grid();
    if (!max_n) return 1;
    /* read before decoding, so a refused grid is not also reported as an ignored option */
    const int preview = png && cli_convert_option("--preview"), relief = png && cli_convert_option("--relief");
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    relic_buf_init(&buf, 0);
    if (!load_terrain(in, max_n, &a, &t, stderr)) {
        if (wtd) {
            rc = cli_wtd_write(t.heights, t.n, t.n, t.n, &t.header.mapping, out_path, in->path);
            goto done;
        }
        if (png) {
            /* --preview: colour relief; --relief: grey; else the exact 16-bit heightmap */
            st = preview ? relic_wtd_preview_png(&t, &a, &buf, &err)
                : relief ? relic_wtd_relief_png(&t, &a, &buf, &err)
                         : relic_wtd_png(&t, &a, &buf, &err);
        } else {
            relic_wtd_mesh mesh;
            st = relic_wtd_mesh_build(in->map.bytes.data, in->map.bytes.size, &t, &a, &mesh, &err);
            if (st == RELIC_OK) st = obj ? relic_tri_write_obj(&mesh, &buf, &err) : relic_tri_write(&mesh, &buf, &err);
        }
        if (st != RELIC_OK) cli_error(out_path, &err);
        else rc = cli_write(out_path, buf.data, buf.size, in->path);
    }
done:
    relic_buf_free(&buf);
    relic_arena_release(&a);
    return rc;
}

/* --extent X0,Y0,X1,Y1 for a w x h picture: origin and metres per pixel. */
static int parse_extent(const char *s, uint32_t w, uint32_t h, double *x0, double *y0, double *res)
{
    double v[4];
    const char *p = s;
    for (int k = 0; k < 4; k++) {
        char *end;
        v[k] = strtod(p, &end);
        if (end == p || !isfinite(v[k]) || (k < 3 ? *end != ',' : *end != 0)) {
            fprintf(stderr, "relic convert: --extent wants X0,Y0,X1,Y1 in metres, not '%s'\n", s);
            return 1;
        }
        p = end + 1;
    }
    const double rx = (v[2] - v[0]) / w, ry = (v[3] - v[1]) / h;
    if (!(rx > 0) || fabs(rx - ry) > 1e-6 * rx) {
        fprintf(stderr, "relic convert: --extent %s gives %.9g x %.9g m pixels for a %u x %u picture; they must be square and positive\n",
                s, rx, ry, w, h);
        return 1;
    }
    *x0 = v[0];
    *y0 = v[1];
    *res = rx;
    return 0;
}

/* A greyscale PNG heightmap -> WTD. */
static int wtd_import(const cli_input *in, const char *out_path, const char *ext)
{
    if (strcmp(ext, "wtd") || in->map.bytes.size < 8 || memcmp(in->map.bytes.data, "\x89PNG\r\n\x1a\n", 8)) return -1;
    relic_arena a;
    relic_wtd_heightmap hm;
    relic_error err;
    int rc = 1;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (relic_wtd_png_read(in->map.bytes.data, in->map.bytes.size, &a, &hm, &err) != RELIC_OK) {
        cli_error(in->path, &err);
        goto done;
    }
    double x0 = 0, y0 = 0, res = 1, c2w = DEFAULT_COEF_TO_WORLD, max_height = 0;
    if (hm.has_mapping && hm.res > 0) x0 = hm.x0, y0 = hm.y0, res = hm.res;
    if (hm.has_mapping && hm.coef_to_world > 0) c2w = hm.coef_to_world;
    const char *extent = cli_convert_option("--extent");
    if (extent && parse_extent(extent, hm.width, hm.height, &x0, &y0, &res)) goto done;
    if (cli_max_height(&max_height)) goto done;
    if (max_height > 0) {
        int64_t big = 1;
        for (size_t i = 0; i < (size_t)hm.width * hm.height; i++) {
            int64_t v = hm.heights[i] < 0 ? -(int64_t)hm.heights[i] : hm.heights[i];
            if (v > big) big = v;
        }
        c2w = max_height / (double)big;
    }
    if (hm.lossy)
        cli_errorf(in->path, 0, "note: the heightmap's grey levels were scaled; heights are rounded back, not exact");
    const uint32_t n = relic_wtd_grid_size(hm.width, hm.height);
    int32_t *grid = relic_arena_array(&a, (size_t)n * n, sizeof *grid, 4);
    if (!grid) {
        cli_errorf(in->path, 0, "no memory for a %u x %u grid", n, n);
        goto done;
    }
    relic_wtd_pad(hm.heights, hm.width, hm.height, grid, n);
    relic_wtd_mapping m;
    relic_wtd_mapping_init(&m, n, x0, y0, res, c2w);
    rc = cli_wtd_write(grid, n, hm.width, hm.height, &m, out_path, in->path);
done:
    relic_arena_release(&a);
    return rc;
}

/* clang-format off */
const cli_hooks cli_wtd_hooks = {
    wtd_info, wtd_check, wtd_to_json, wtd_from_json, NULL, wtd_convert, wtd_import,
    "  x.wtd -> y.png [--preview|--relief]|y.obj|y.tri|y.json\n"
    "                                                   16-bit heightmap, --preview colour relief (tint x hill\n"
    "                                                   shading) or --relief grey shaded relief (north up), leaf\n"
    "                                                   triangulation (world metres), header + tree statistics JSON\n"
    "  x.wtd -> y.wtd [--threshold T]                   re-encode (T drops wavelet coefficients |w| <= T)\n"
    "  x.wtd -> ... --max-grid N                        decode grids up to N x N (default 2048: 16 MiB; the\n"
    "                                                   Trespasser demo's pv.wtd needs 8192, 256 MiB)\n"
    "  x.png -> y.wtd [--extent X0,Y0,X1,Y1] [--max-height M] [--threshold T]\n"
    "                                                   greyscale heightmap (north up) to terrain\n",
    NULL, /* json_max_output: no bound */
};
/* clang-format on */
