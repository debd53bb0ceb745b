/* info.c — `relic info FILE...`: one paragraph per file saying what it is
 * (format, walkmesh type, counts, materials, bounds). */
#include <float.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: relic info FILE...\nDescribe each file: format, type, counts, materials and bounds.\n"
               "Exit status: 0 when every file was read, 1 when any was invalid, 2 on usage errors.\n");
}

static void info_bwm(const char *path, const relic_bwm_view *v)
{
    const relic_bwm_bwm *h = &v->values;
    uint32_t type = h->header.type;
    const char *ext = strrchr(path, '.');
    printf("%s: KotOR BWM walkmesh, %s\n", path,
           type == RELIC_BWM_WALKMESH_TYPE_AREA ? "area (WOK)" : (ext && (!strcmp(ext, ".dwk") || !strcmp(ext, ".DWK"))) ? "door (DWK)" : "placeable or door (PWK/DWK)");
    uint32_t counts[64] = { 0 }, other = 0, walk = 0;
    for (size_t i = 0; i < v->materials_count; i++) {
        uint32_t m = relic_bwm_materials_at(v, i);
        if (m < 64) counts[m]++; else other++;
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
        float lo[3] = { FLT_MAX, FLT_MAX, FLT_MAX }, hi[3] = { -FLT_MAX, -FLT_MAX, -FLT_MAX };
        for (size_t i = 0; i < v->vertices_count; i++) {
            relic_bwm_vec3f_view p = relic_bwm_vertices_at(v, i);
            float c[3] = { relic_bwm_vec3f_x(p), relic_bwm_vec3f_y(p), relic_bwm_vec3f_z(p) };
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
}

int cmd_info(int argc, char **argv)
{
    int bad = 0, n = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) { usage(stdout); return EXIT_VALID; }
        if (argv[i][0] == '-' && argv[i][1]) { fprintf(stderr, "relic info: unknown option '%s'\n", argv[i]); return EXIT_USAGE; }
        n++;
    }
    if (!n) { usage(stderr); return EXIT_USAGE; }
    for (int i = 1; i < argc; i++) {
        cli_input in;
        if (cli_load(argv[i], &in)) { bad = 1; continue; }
        if (in.format == RELIC_FORMAT_BWM) {
            relic_bwm_view v;
            if (cli_validate_bwm(&in, &v)) bad = 1;
            else info_bwm(argv[i], &v);
        } else {
            printf("%s: %s (relic reads it only as an input to convert)\n", argv[i], relic_format_name(in.format));
        }
        cli_unload(&in);
    }
    return bad ? EXIT_INVALID : EXIT_VALID;
}
