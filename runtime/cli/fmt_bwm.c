/* fmt_bwm.c — the `relic` command for KotOR BWM walkmeshes (.wok .pwk
 * .dwk): info, check (schema validator, then the table rules of
 * runtime/formats/kotor/bwm_model.c), OBJ and SVG exports
 * (runtime/export/bwm_export.c) and OBJ import (runtime/export/obj_lexer.re).
 * JSON both ways and re-writing are the schema's (schema_io.c). */
#include <float.h>
#include <string.h>

#include "bwm_export.h"
#include "formats.h"
#include "obj.h"

/* Validate and decode into a (heap) arena the caller releases. */
static int load_model(const cli_input *in, relic_arena *a, relic_bwm_file *m)
{
    return cli_schema_model(&cli_format_bwm, in, a, NULL, m);
}

static int bwm_info(const cli_input *in)
{
    relic_bwm_view vv;
    const relic_bwm_view *v = &vv;
    if (cli_schema_view(&cli_format_bwm, in, &vv)) return 1;
    const relic_bwm_file *h = &v->values;
    char ext[8];
    relic_path_extension(in->path, ext, sizeof ext);
    printf("%s: KotOR BWM walkmesh, %s\n", in->path,
           h->header.type == RELIC_BWM_WALKMESH_TYPE_AREA ? "area (WOK)" : !strcmp(ext, "dwk") ? "door (DWK)"
               : !strcmp(ext, "pwk")                                                           ? "placeable (PWK)"
                                                                                               : "placeable or door (PWK/DWK)");
    uint32_t counts[64] = {0}, other = 0, walk = 0;
    for (size_t i = 0; i < v->materials_count; i++) {
        uint32_t m = relic_bwm_materials_at(v, i);
        if (m < 64) counts[m]++;
        else other++;
        walk += relic_bwm_material_walkable(m) != 0;
    }
    printf("  %zu vertices, %zu faces (%u walkable), %zu AABB nodes, %zu adjacency rows, %zu edges in %zu perimeter loops\n",
           v->vertices_count, v->faces_count, walk, v->aabb_count, v->adjacency_count, v->edges_count, v->perimeters_count);
    printf("  materials:");
    for (uint32_t m = 0; m < 64; m++) {
        if (!counts[m]) continue;
        const char *name = relic_bwm_surface_material_name(m);
        if (name) printf(" %s(%u)=%u", name, m, counts[m]);
        else printf(" %u=%u", m, counts[m]);
    }
    if (other) printf(" other=%u", other);
    printf("\n");
    if (v->vertices_count) {
        float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
        for (size_t i = 0; i < v->vertices_count; i++) {
            relic_bwm_vec3f_view p = relic_bwm_vertices_at(v, i);
            float c[3] = {relic_bwm_vec3f_x(p), relic_bwm_vec3f_y(p), relic_bwm_vec3f_z(p)};
            for (int k = 0; k < 3; k++) {
                if (c[k] < lo[k]) lo[k] = c[k];
                if (c[k] > hi[k]) hi[k] = c[k];
            }
        }
        printf("  bounds: x %.3f..%.3f, y %.3f..%.3f, z %.3f..%.3f (metres)\n", lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
    }
    printf("  position: %g %g %g\n", h->header.position.x, h->header.position.y, h->header.position.z);
    int transitions = 0;
    for (size_t i = 0; i < v->edges_count; i++) transitions += relic_bwm_edge_transition(relic_bwm_edges_at(v, i)) >= 0;
    if (v->edges_count) printf("  %d edges lead to other rooms (transitions)\n", transitions);
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

static unsigned bwm_check(const cli_input *in, int strict)
{
    relic_bwm_view v;
    if (cli_schema_view(&cli_format_bwm, in, &v)) return 1;
    report_ctx rc = {in->path};
    relic_arena scratch;
    relic_arena_init_heap(&scratch, 0);
    unsigned problems = relic_bwm_check(&v, strict, &scratch, report, &rc);
    relic_arena_release(&scratch);
    return problems;
}

static int bwm_convert(const cli_input *in, const char *out_path, const char *ext)
{
    if (strcmp(ext, "obj") && strcmp(ext, "svg")) return -1;
    relic_arena a;
    relic_error err;
    relic_bwm_file m;
    int rc = 0;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (load_model(in, &a, &m)) {
        rc = 1;
    } else {
        relic_bwm_mesh mesh;
        relic_buf out;
        relic_status st;
        char title[160];
        const char *base = strrchr(in->path, '/');
        relic_bwm_mesh_of(&m, &mesh);
        relic_buf_init(&out, 0);
        snprintf(title, sizeof title, "%.100s: KotOR %s walkmesh", base ? base + 1 : in->path,
                 m.header.type == RELIC_BWM_WALKMESH_TYPE_AREA ? "area" : "placeable/door");
        if (!strcmp(ext, "obj")) {
            st = relic_bwm_export_obj(&mesh, title, &out, &err);
        } else {
            relic_bwm_svg_tables t = {
                relic_bwm_walkable_prefix(&mesh),
                (const relic_bwm_edge_rec *)(const void *)m.edges,
                (uint32_t)m.edges_count,
                m.perimeters,
                (uint32_t)m.perimeters_count,
            };
            if (t.walkable_count < m.adjacency_count) t.walkable_count = (uint32_t)m.adjacency_count;
            st = relic_bwm_export_svg(&mesh, &t, title, &out, &err);
        }
        if (st != RELIC_OK) {
            cli_error_in(out_path, "cannot export", &err);
            rc = 1;
        } else {
            rc = cli_write(out_path, out.data, out.size, in->path);
        }
        relic_buf_free(&out);
    }
    relic_arena_release(&a);
    return rc;
}

static int bwm_import(const cli_input *in, const char *out_path, const char *ext)
{
    if (in->format != RELIC_FORMAT_OBJ) return -1;
    relic_arena a;
    relic_obj_mesh obj;
    relic_bwm_mesh mesh;
    relic_bwm_file m;
    relic_error err;
    uint32_t walkable;
    int rc;
    uint32_t type = !strcmp(ext, "wok") ? RELIC_BWM_WALKMESH_TYPE_AREA : RELIC_BWM_WALKMESH_TYPE_PLACEABLE_OR_DOOR;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (relic_obj_parse(in->path, in->map.bytes.data, in->map.bytes.size, &a, &obj, &err) != RELIC_OK ||
        relic_obj_to_bwm(in->path, &obj, &a, &mesh, &walkable, &err) != RELIC_OK) {
        cli_error(in->path, &err);
        rc = 1;
    } else if (relic_bwm_from_mesh(&mesh, type, &a, &m, &err) != RELIC_OK) {
        cli_error_in(in->path, "cannot build a walkmesh", &err);
        rc = 1;
    } else {
        rc = cli_schema_write(&cli_format_bwm, &m, &a, out_path, in->path);
    }
    relic_arena_release(&a);
    return rc;
}

const cli_hooks cli_bwm_hooks = {
    bwm_info,
    bwm_check,
    NULL,
    NULL,
    NULL,
    bwm_convert,
    bwm_import,
    "  x.wok|x.pwk|x.dwk -> y.json|y.wok|y.obj|y.svg   JSON, re-written binary, Wavefront OBJ (a group\n"
    "                                                   per material), top-down SVG (materials, perimeters,\n"
    "                                                   transitions)\n"
    "  x.json -> y.wok|y.pwk|y.dwk                      the binary walkmesh again, byte for byte\n"
    "  x.obj  -> y.wok|y.pwk|y.dwk                      a complete walkmesh: materials from usemtl names\n"
    "                                                   (stone, metal, nonwalk, ... or a surfacemat id),\n"
    "                                                   walkable faces first, every derived table built\n",
    NULL, /* json_max_output: no bound */
};
