/* mesh_io.c — `relic convert` between walkmeshes and mesh formats: BWM ->
 * OBJ and SVG (runtime/bwm_export.c), OBJ -> BWM (runtime/obj_lexer.re and
 * the builders of runtime/bwm_build.c). */
#include <string.h>

#include "bwm_export.h"
#include "cli.h"
#include "obj.h"

int cli_bwm_export(const relic_bwm_bwm *m, const char *name, const char *ext, relic_buf *out);
int cli_obj_import(const cli_input *in, uint32_t type, relic_arena *a, relic_bwm_bwm *out);

int cli_bwm_export(const relic_bwm_bwm *m, const char *name, const char *ext, relic_buf *out)
{
    relic_bwm_mesh mesh;
    relic_error err;
    relic_status st;
    char title[160];
    relic_bwm_mesh_of(m, &mesh);
    const char *base = strrchr(name, '/');
    snprintf(title, sizeof title, "%.100s: KotOR %s walkmesh", base ? base + 1 : name,
             m->header.type == RELIC_BWM_WALKMESH_TYPE_AREA ? "area" : "placeable/door");
    if (!strcmp(ext, "obj")) {
        st = relic_bwm_export_obj(&mesh, title, out, &err);
    } else {
        relic_bwm_svg_tables t = {
            relic_bwm_walkable_prefix(&mesh),
            (const relic_bwm_edge_rec *)(const void *)m->edges, (uint32_t)m->edges_count,
            m->perimeters, (uint32_t)m->perimeters_count,
        };
        if (t.walkable_count < m->adjacency_count) t.walkable_count = (uint32_t)m->adjacency_count;
        st = relic_bwm_export_svg(&mesh, &t, title, out, &err);
    }
    if (st != RELIC_OK) {
        fprintf(stderr, "relic: cannot export .%s: %s%s%s\n", ext, err.path, err.path[0] ? ": " : "", err.message);
        return 1;
    }
    return 0;
}

int cli_obj_import(const cli_input *in, uint32_t type, relic_arena *a, relic_bwm_bwm *out)
{
    relic_obj_mesh obj;
    relic_bwm_mesh mesh;
    relic_error err;
    uint32_t walkable;
    if (relic_obj_parse(in->path, in->map.bytes.data, in->map.bytes.size, a, &obj, &err) != RELIC_OK ||
        relic_obj_to_bwm(in->path, &obj, a, &mesh, &walkable, &err) != RELIC_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    if (relic_bwm_from_mesh(&mesh, type, a, out, &err) != RELIC_OK) {
        fprintf(stderr, "relic: %s: cannot build a walkmesh: %s\n", in->path, err.message);
        return 1;
    }
    return 0;
}
