/* fmt_trn.c — the `relic` command for NWN2 TRN/TRX packet files: info,
 * check (schema validator, container rules, then the inflated ASWM's
 * validator and rules of runtime/formats/nwn2/trn_check.c; --strict adds
 * runtime/formats/nwn2/trn_check_strict.c; TRRN and WATR packets decoded by
 * runtime/formats/nwn2/trn_terrain.c), the walkmesh out to OBJ and SVG, and
 * (--terrain) the terrain and water out to OBJ; JSON both ways and re-writing
 * are the schema's (schema_io.c, with relic_trn_layout before writing). Facts:
 * nwn-lib-d, trn.d, trn.d validate; NWN2DataLib, TrxFileReader.cpp; Charles, NWN2 TRN.ASWM packet structure, TRN.ASWM. */
#include <stdlib.h>
#include <string.h>

#include "relic_gen.h"
#include "trn_cli.h"

#define TRN_MAX_REPORTS 50u

typedef struct report_ctx {
    const char *path;
} report_ctx;

static void report(void *vctx, const relic_error *err)
{
    const report_ctx *c = vctx;
    cli_report(cli_problem_stream(), c->path, err);
}

static int validate(const cli_input *in, relic_trn_view *v) { return cli_schema_view(&cli_format_trn, in, v); }

static int load_model(const cli_input *in, relic_arena *a, relic_trn_file *m)
{
    return cli_schema_model(&cli_format_trn, in, a, NULL, m);
}

static int trn_info(const cli_input *in)
{
    relic_arena a;
    relic_trn_file m;
    relic_error err;
    int rc = 0;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (load_model(in, &a, &m)) {
        relic_arena_release(&a);
        return 1;
    }
    printf("%s: NWN2 terrain packet file (version %u.%u), %zu packets\n", in->path,
           (unsigned)m.header.version_major, (unsigned)m.header.version_minor, m.packets_count);
    size_t counts[5] = {0};
    for (size_t i = 0; i < m.packets_count; i++) {
        const relic_trn_packet *p = &m.packets[i];
        switch (p->type) {
        case RELIC_TRN_PACKET_TYPE_TRWH: counts[0]++; break;
        case RELIC_TRN_PACKET_TYPE_TRRN: counts[1]++; break;
        case RELIC_TRN_PACKET_TYPE_WATR: counts[2]++; break;
        case RELIC_TRN_PACKET_TYPE_ASWM: counts[3]++; break;
        default: counts[4]++; break;
        }
    }
    printf("  packets: %zu TRWH, %zu TRRN, %zu WATR, %zu ASWM, %zu other\n", counts[0], counts[1], counts[2], counts[3], counts[4]);
    for (size_t i = 0; i < m.packets_count; i++) {
        const relic_trn_packet *p = &m.packets[i];
        if (p->type == RELIC_TRN_PACKET_TYPE_TRWH)
            printf("  TRWH: %u x %u, id %u\n", (unsigned)p->trwh.width, (unsigned)p->trwh.height, (unsigned)p->trwh.id);
        if (p->type != RELIC_TRN_PACKET_TYPE_ASWM) continue;
        relic_trn_aswm w;
        if (relic_trn_aswm_read(p, CLI_TRN_ASWM_LIMIT, &a, &w, &err) != RELIC_OK) {
            cli_report(cli_problem_stream(), in->path, &err);
            rc = 1;
            continue;
        }
        size_t walkable = 0, nodes = 0, max_nodes = 0;
        for (size_t k = 0; k < w.triangles_count; k++) walkable += (w.triangles[k].flags & RELIC_TRN_TRIANGLE_FLAGS_WALKABLE) != 0;
        for (size_t k = 0; k < w.tiles_count; k++) {
            nodes += w.tiles[k].node_to_local_count;
            if (w.tiles[k].node_to_local_count > max_nodes) max_nodes = w.tiles[k].node_to_local_count;
        }
        printf("  ASWM: version 0x%X, %u -> %u bytes (zlib)\n", (unsigned)w.version, (unsigned)p->compressed_size, (unsigned)p->uncompressed_size);
        printf("    %zu vertices, %zu edges, %zu triangles (%zu walkable)\n", w.vertices_count, w.edges_count, w.triangles_count, walkable);
        printf("    tiles: %u x %u of %g, flags %u, border %u; %zu path nodes (at most %zu in a tile)\n", (unsigned)w.grid_width,
               (unsigned)w.grid_height, (double)w.tiles_width, (unsigned)w.tiles_flags, (unsigned)w.tiles_border_size, nodes, max_nodes);
        printf("    %zu islands\n", w.islands_count);
    }
    relic_arena_release(&a);
    return rc;
}

int cli_trn_load_aswm(const cli_input *in, relic_arena *a, relic_trn_file *m, relic_trn_aswm *w, size_t *packet)
{
    relic_error err;
    if (load_model(in, a, m)) return 1;
    for (size_t i = 0; i < m->packets_count; i++) {
        if (m->packets[i].type != RELIC_TRN_PACKET_TYPE_ASWM) continue;
        if (relic_trn_aswm_read(&m->packets[i], CLI_TRN_ASWM_LIMIT, a, w, &err) != RELIC_OK) {
            relic_gen_path_prefix(&err, "packets", (long long)i);
            cli_report(cli_problem_stream(), in->path, &err);
            return 1;
        }
        *packet = i;
        return 0;
    }
    cli_errorf(in->path, 0, "no ASWM walkmesh packet");
    return 1;
}

int cli_trn_write_svg(const relic_trn_aswm *w, const relic_trn_route *route, const char *out_path, const char *in_path)
{
    relic_buf out;
    relic_error err;
    int rc;
    relic_buf_init(&out, 0);
    if (relic_trn_aswm_svg(w, route, &out, &err) != RELIC_OK) {
        cli_error(out_path, &err);
        rc = 1;
    } else {
        rc = cli_write(out_path, out.data, out.size, in_path);
    }
    relic_buf_free(&out);
    return rc;
}

static unsigned trn_check(const cli_input *in, int strict)
{
    relic_trn_view v;
    if (validate(in, &v)) return 1;
    report_ctx rc = {in->path};
    unsigned n = relic_trn_check_container(&v, report, &rc);
    relic_arena a;
    relic_trn_file m;
    relic_error err;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (relic_trn_decode(&v, &a, &m, &err) != RELIC_OK) {
        cli_report(cli_problem_stream(), in->path, &err);
        relic_arena_release(&a);
        return n + 1;
    }
    for (size_t i = 0; i < m.packets_count; i++) {
        if (m.packets[i].type != RELIC_TRN_PACKET_TYPE_ASWM) continue;
        char path[64];
        relic_trn_aswm w;
        snprintf(path, sizeof path, "packets[%zu].aswm", i);
        if (relic_trn_aswm_read(&m.packets[i], CLI_TRN_ASWM_LIMIT, &a, &w, &err) != RELIC_OK) {
            relic_gen_path_prefix(&err, "packets", (long long)i); /* offset: in the inflated walkmesh */
            cli_report(cli_problem_stream(), in->path, &err);
            n++;
            continue;
        }
        unsigned k = relic_trn_check_aswm(&w, path, TRN_MAX_REPORTS, report, &rc);
        /* the strict rules index freely: only on a walkmesh whose indices are in range */
        if (strict && k == 0) k = cli_trn_check_aswm_strict(&w, path, TRN_MAX_REPORTS, report, &rc);
        n += k;
    }
    n += relic_trn_check_terrain(&m, &a, report, &rc);
    relic_arena_release(&a);
    return n;
}

/* Longer side of the terrain picture, points (--max-grid N changes it). */
#define TRN_PREVIEW_SIDE 1024u
#define TRN_PREVIEW_MAX_SIDE 8192u

/* The terrain's colour relief (relic_trn_terrain_preview_png), --preview or not: a TRN has no exact heightmap. */
static int trn_to_png(const cli_input *in, const char *out_path)
{
    const char *side_arg = cli_convert_option("--max-grid");
    char *end = NULL;
    unsigned long side = side_arg ? strtoul(side_arg, &end, 10) : TRN_PREVIEW_SIDE;
    (void)cli_convert_option("--preview");
    if ((side_arg && (*end || !*side_arg)) || side < 2 || side > TRN_PREVIEW_MAX_SIDE) {
        cli_errorf(in->path, 0, "--max-grid: the picture side must be 2..%u points", TRN_PREVIEW_MAX_SIDE);
        return 1;
    }
    relic_arena a;
    relic_trn_file m;
    relic_buf out;
    relic_error err;
    int rc = 1;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    relic_buf_init(&out, 0);
    if (!load_model(in, &a, &m)) {
        if (relic_trn_terrain_preview_png(&m, (uint32_t)side, &a, &out, &err) != RELIC_OK) cli_error(in->path, &err);
        else rc = cli_write(out_path, out.data, out.size, in->path);
    }
    relic_buf_free(&out);
    relic_arena_release(&a);
    return rc;
}

static int trn_convert(const cli_input *in, const char *out_path, const char *ext)
{
    if (!strcmp(ext, "png")) return trn_to_png(in, out_path);
    int walkmesh = !strcmp(ext, "obj") || !strcmp(ext, "svg");
    int terrain = cli_convert_option("--terrain") != NULL;
    if (!walkmesh || (terrain && strcmp(ext, "obj"))) return -1;
    relic_arena a;
    relic_trn_file m;
    relic_trn_aswm w;
    size_t packet;
    int rc;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (terrain) {
        relic_buf out;
        relic_error err;
        relic_buf_init(&out, 0);
        if (load_model(in, &a, &m)) {
            rc = 1;
        } else if (relic_trn_terrain_obj(&m, &a, &out, &err) != RELIC_OK) {
            cli_error(in->path, &err);
            rc = 1;
        } else {
            rc = cli_write(out_path, out.data, out.size, in->path);
        }
        relic_buf_free(&out);
    } else if (cli_trn_load_aswm(in, &a, &m, &w, &packet)) {
        rc = 1;
    } else if (!strcmp(ext, "svg")) {
        rc = cli_trn_write_svg(&w, NULL, out_path, in->path);
    } else {
        relic_buf out;
        relic_error err;
        relic_buf_init(&out, 0);
        if (relic_trn_aswm_obj(&w, &out, &err) != RELIC_OK) {
            cli_error(out_path, &err);
            rc = 1;
        } else {
            rc = cli_write(out_path, out.data, out.size, in->path);
        }
        relic_buf_free(&out);
    }
    relic_arena_release(&a);
    return rc;
}

const cli_hooks cli_trn_hooks = {
    trn_info,
    trn_check,
    NULL,
    NULL,
    NULL,
    trn_convert,
    NULL,
    "  x.trn|x.trx -> y.json|y.trn|y.trx              JSON (packets; ASWM kept as its zlib bytes), re-written file\n"
    "  x.json -> y.trn|y.trx                            the TRN/TRX again, byte for byte\n"
    "  x.trn|x.trx -> y.obj|y.svg                       walkmesh: OBJ (walkable/nonwalkable groups), SVG (tiles, islands)\n"
    "  x.trn|x.trx -> y.obj --terrain                   terrain (TRRN megatiles) and water (WATR) as OBJ groups\n"
    "  x.trn|x.trx -> y.png [--preview] [--max-grid N]  the terrain's colour relief (triangles rasterised onto\n"
    "                                                   at most N points a side, default 1024)\n",
    NULL, /* json_max_output: no bound */
};
