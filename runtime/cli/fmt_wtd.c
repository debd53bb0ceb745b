/* fmt_wtd.c — the `relic` command for Trespasser WTD terrain (.wtd): info,
 * check (header, parameter block, zerotree, synthesis: runtime/wtd_*.c;
 * --strict adds the encoder's bookkeeping, spec/trespasser.md §1.3, §1.9),
 * JSON of the header and parameter block, and the 16-bit heightmap PNG. */
#include <string.h>

#include "formats.h"
#include "relic_wtd.h"

/* Decode into arena a; prints the error (to `to`) and returns 1 on failure. */
static int load_terrain(const cli_input *in, relic_arena *a, relic_wtd_terrain *t, FILE *to)
{
    relic_error err;
    if (relic_wtd_decode_terrain(in->map.bytes.data, in->map.bytes.size, a, t, &err) != RELIC_OK) {
        relic_error_print(to, in->path, &err);
        return 1;
    }
    return 0;
}

static int wtd_info(const cli_input *in)
{
    relic_arena a;
    relic_wtd_terrain t;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (load_terrain(in, &a, &t, stdout)) {
        relic_arena_release(&a);
        return 1;
    }
    const relic_wtd_wtd *h = &t.header;
    const relic_wtd_mapping *m = &h->mapping;
    printf("%s: Trespasser WTD wavelet terrain, version %u\n", in->path, (unsigned)h->version);
    printf("  grid %u x %u quad units at (%d, %d), %g m per unit; world X %g..%g, Y %g..%g (metres)\n", t.n, t.n,
           m->quad_extents.start_x, m->quad_extents.start_y, (double)m->quad_to_world_x.scale,
           (double)m->quad_to_world_x.offset, (double)m->quad_to_world_x.offset + t.n * (double)m->quad_to_world_x.scale,
           (double)m->quad_to_world_y.offset, (double)m->quad_to_world_y.offset + t.n * (double)m->quad_to_world_y.scale);
    printf("  heights %d..%d coefficient units = %.3f..%.3f m (%.9g m per unit); root coefficient %d\n", t.min, t.max,
           relic_wtd_world_z(h, t.min), relic_wtd_world_z(h, t.max), (double)m->coef_to_world, h->root_coefficient);
    printf("  zerotree: %u nodes in the stream (%u significant, depth %u), %u non-zero coefficients, %llu bits; header: %u nodes, %u vertices\n",
           t.stats.nodes, t.stats.significant, t.stats.depth, t.stats.nonzero,
           (unsigned long long)(t.stats.end_bit - RELIC_WTD_TREE_BIT), h->node_count, h->vertex_count);
    relic_arena_release(&a);
    return 0;
}

static unsigned wtd_check(const cli_input *in, int strict)
{
    relic_arena a;
    relic_wtd_terrain t;
    unsigned problems = 0;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (load_terrain(in, &a, &t, stdout)) {
        relic_arena_release(&a);
        return 1;
    }
    if (strict) {
        relic_error err;
        uint64_t expect_nodes = 1 + (uint64_t)4 * t.stats.significant;
        if (t.header.node_count != expect_nodes) {
            relic_fail(&err, RELIC_E_RANGE, relic_wtd_file_offset((uint64_t)RELIC_WTD_WTD_NODE_COUNT_OFFSET * 8),
                       "node_count", "%u, but the tree has %u significant nodes (the encoder writes 1 + 4 x that = %llu)",
                       t.header.node_count, t.stats.significant, (unsigned long long)expect_nodes);
            relic_error_print(stdout, in->path, &err);
            problems++;
        }
        uint64_t words = (t.stats.end_bit + 31) / 32;
        if (words * RELIC_WTD_WORD_BYTES != in->map.bytes.size) {
            relic_fail(&err, RELIC_E_LAYOUT, words * RELIC_WTD_WORD_BYTES, "file",
                       "file is %zu bytes, the tree ends in word %llu (the encoder writes %llu bytes)",
                       in->map.bytes.size, (unsigned long long)words,
                       (unsigned long long)(words * RELIC_WTD_WORD_BYTES));
            relic_error_print(stdout, in->path, &err);
            problems++;
        }
    }
    relic_arena_release(&a);
    return problems;
}

static int wtd_to_json(const cli_input *in, relic_buf *out)
{
    relic_wtd_wtd h;
    relic_error err;
    if (relic_wtd_read_header(in->map.bytes.data, in->map.bytes.size, &h, &err) != RELIC_OK ||
        relic_wtd_json_print(&h, out, &err) != RELIC_OK) {
        relic_error_print(stderr, in->path, &err);
        return 1;
    }
    return 0;
}

/* Writing a WTD (the encoder) is not offered yet. */
static int wtd_from_json(const cli_input *in, const char *out_path)
{
    (void)in;
    (void)out_path;
    return -1;
}

static int wtd_convert(const cli_input *in, const char *out_path, const char *ext)
{
    if (strcmp(ext, "png")) return -1;
    relic_arena a;
    relic_wtd_terrain t;
    relic_buf png;
    relic_error err;
    int rc = 1;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    relic_buf_init(&png, 0);
    if (!load_terrain(in, &a, &t, stderr)) {
        if (relic_wtd_png(&t, &a, &png, &err) != RELIC_OK) relic_error_print(stderr, out_path, &err);
        else rc = cli_write(out_path, png.data, png.size, in->path);
    }
    relic_buf_free(&png);
    relic_arena_release(&a);
    return rc;
}

const cli_format cli_format_wtd = {
    RELIC_FORMAT_WTD, "wtd", relic_wtd_extensions,
    wtd_info, wtd_check, wtd_to_json, wtd_from_json, wtd_convert, NULL,
    "  x.wtd -> y.png|y.json                            16-bit greyscale heightmap (north up), header JSON\n",
};
