/* make_samples.c — writes the project's own sample files into a directory
 * (tests/samples by `make samples`), all made by relic's builders and
 * writer: room.wok (area walkmesh with a pillar hole, two materials and a
 * transition edge), crate.pwk (placeable box), door0.dwk (door slab with
 * use hooks) and room.obj (the room as OBJ text, input of obj -> wok). The
 * output is deterministic; tests regenerate it and compare. */
#include <stdlib.h>
#include <string.h>

#include "relic_bwm.h"

#define W 6
#define H 4

static int write_model(const char *dir, const char *name, const relic_bwm_file *m)
{
    relic_buf b;
    relic_error err;
    char path[1024];
    relic_buf_init(&b, 0);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (relic_bwm_write(m, &b, &err) != RELIC_OK || relic_write_file_atomic(path, b.data, b.size, NULL, &err) != RELIC_OK) {
        fprintf(stderr, "make_samples: %s: %s\n", path, err.message);
        relic_buf_free(&b);
        return 1;
    }
    relic_buf_free(&b);
    return 0;
}

/* The room: a W x H grid of 1 m quads; quad (2,1) and (3,1) are a raised
 * non-walkable pillar top, the right half is metal, the rest stone. */
static int room(const char *dir, relic_arena *a)
{
    static float v[(W + 1) * (H + 1)][3];
    static uint32_t f[2 * W * H][3], mat[2 * W * H];
    uint32_t k = 0;
    for (int y = 0; y <= H; y++)
        for (int x = 0; x <= W; x++) {
            v[y * (W + 1) + x][0] = (float)x;
            v[y * (W + 1) + x][1] = (float)y;
            v[y * (W + 1) + x][2] = 0.0f;
        }
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uint32_t i0 = (uint32_t)(y * (W + 1) + x), i1 = i0 + 1, i2 = i0 + W + 2, i3 = i0 + W + 1;
            uint32_t m = (y == 1 && (x == 2 || x == 3)) ? RELIC_BWM_SURFACE_MATERIAL_NONWALK
                : x >= W / 2                            ? RELIC_BWM_SURFACE_MATERIAL_METAL
                                                        : RELIC_BWM_SURFACE_MATERIAL_STONE;
            f[k][0] = i0;
            f[k][1] = i1;
            f[k][2] = i2;
            mat[k++] = m;
            f[k][0] = i0;
            f[k][1] = i2;
            f[k][2] = i3;
            mat[k++] = m;
        }
    relic_bwm_mesh mesh = {(const float(*)[3])v, (W + 1) * (H + 1), (const uint32_t(*)[3])f, mat, k};
    relic_bwm_file m;
    relic_error err;
    if (relic_bwm_from_mesh(&mesh, RELIC_BWM_WALKMESH_TYPE_AREA, a, &m, &err) != RELIC_OK) {
        fprintf(stderr, "make_samples: room: %s\n", err.message);
        return 1;
    }
    /* the edges on the x = W wall lead to room 1 of the layout */
    for (size_t i = 0; i < m.edges_count; i++) {
        const relic_bwm_face *face = &m.faces[m.edges[i].edge / 3];
        uint32_t s = m.edges[i].edge % 3;
        if (m.vertices[face->v[s]].x == (float)W && m.vertices[face->v[(s + 1) % 3]].x == (float)W) m.edges[i].transition = 1;
    }
    m.header.position.x = 10.0f;
    m.header.position.y = 20.0f;
    if (write_model(dir, "room.wok", &m)) return 1;

    /* the same geometry as OBJ text, one usemtl group per material */
    relic_buf o;
    relic_buf_init(&o, 0);
    relic_buf_puts(&o, "# room.obj: relic sample (tests/samples/make_samples.c)\n");
    for (uint32_t i = 0; i < mesh.vertex_count; i++) relic_buf_printf(&o, "v %g %g %g\n", v[i][0], v[i][1], v[i][2]);
    const uint32_t groups[3] = {RELIC_BWM_SURFACE_MATERIAL_STONE, RELIC_BWM_SURFACE_MATERIAL_METAL, RELIC_BWM_SURFACE_MATERIAL_NONWALK};
    for (int g = 0; g < 3; g++) {
        relic_buf_printf(&o, "usemtl %s\n", relic_bwm_surface_material_name(groups[g]));
        for (uint32_t i = 0; i < k; i++)
            if (mat[i] == groups[g]) relic_buf_printf(&o, "f %u %u %u\n", f[i][0] + 1, f[i][1] + 1, f[i][2] + 1);
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/room.obj", dir);
    int rc = relic_write_file_atomic(path, o.data, o.size, NULL, &err) != RELIC_OK;
    relic_buf_free(&o);
    return rc;
}

/* A box from (x0,y0,z0) to (x1,y1,z1): 8 vertices, 12 outward faces. */
static int box(const char *dir, const char *name, float x0, float y0, float z0, float x1, float y1, float z1,
               const float hook1[3], const float hook2[3], relic_arena *a)
{
    float v[8][3];
    for (int i = 0; i < 8; i++) {
        v[i][0] = i & 1 ? x1 : x0;
        v[i][1] = i & 2 ? y1 : y0;
        v[i][2] = i & 4 ? z1 : z0;
    }
    static const uint32_t f[12][3] = {
        {0, 2, 3},
        {0, 3, 1},
        {4, 5, 7},
        {4, 7, 6},
        {0, 1, 5},
        {0, 5, 4},
        {2, 6, 7},
        {2, 7, 3},
        {0, 4, 6},
        {0, 6, 2},
        {1, 3, 7},
        {1, 7, 5},
    };
    uint32_t mat[12];
    for (int i = 0; i < 12; i++) mat[i] = RELIC_BWM_SURFACE_MATERIAL_NONWALK;
    relic_bwm_mesh mesh = {(const float(*)[3])v, 8, f, mat, 12};
    relic_bwm_file m;
    relic_error err;
    if (relic_bwm_from_mesh(&mesh, RELIC_BWM_WALKMESH_TYPE_PLACEABLE_OR_DOOR, a, &m, &err) != RELIC_OK) {
        fprintf(stderr, "make_samples: %s: %s\n", name, err.message);
        return 1;
    }
    m.header.relative_use_position_1 = (relic_bwm_vec3f){hook1[0], hook1[1], hook1[2]};
    m.header.relative_use_position_2 = (relic_bwm_vec3f){hook2[0], hook2[1], hook2[2]};
    return write_model(dir, name, &m);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/samples";
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    static const float crate1[3] = {0.0f, -0.8f, 0.0f}, crate2[3] = {0.0f, 0.8f, 0.0f};
    static const float door1[3] = {0.0f, -1.0f, 0.0f}, door2[3] = {0.0f, 1.0f, 0.0f};
    int rc = room(dir, &a);
    rc |= box(dir, "crate.pwk", -0.5f, -0.5f, 0.0f, 0.5f, 0.5f, 1.0f, crate1, crate2, &a);
    rc |= box(dir, "door0.dwk", -1.2f, -0.1f, 0.0f, 1.2f, 0.1f, 3.0f, door1, door2, &a);
    relic_arena_release(&a);
    return rc;
}
