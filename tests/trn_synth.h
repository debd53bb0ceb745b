/* trn_synth.h — a synthetic NWN2 walkmesh for tests, benchmarks and the
 * bake fuzz target: a grid of W x H tiles of side 10, each tile sub x sub
 * square cells split into two counter-clockwise triangles, stored tile by
 * tile (as a TRN lays them out: nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp, AreaSurfaceMesh.h), with edges shared
 * between neighbours and linked_edges[k] / linked_triangles[k] on side k.
 * Walkability comes from a caller's predicate so tests can cut walls and
 * islands. Everything is allocated from the arena. Static functions only. */
#ifndef RELIC_TESTS_TRN_SYNTH_H
#define RELIC_TESTS_TRN_SYNTH_H

#include <string.h>

#include "relic_trn.h"

typedef int (*synth_walkable_fn)(void *ctx, uint32_t triangle);

/* Edge key of the sorted vertex pair (a < b) in a hash table of edge ids. */
static uint32_t synth_edge(uint64_t *keys, uint32_t *ids, size_t cap, uint32_t a, uint32_t b, uint32_t *next_id, int *created)
{
    if (a > b) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    uint64_t key = ((uint64_t)a << 32 | b) + 1;
    size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
    while (keys[h] && keys[h] != key) h = (h + 1) & (cap - 1);
    if (!keys[h]) {
        keys[h] = key;
        ids[h] = (*next_id)++;
        *created = 1;
    } else *created = 0;
    return ids[h];
}

static int synth_area(relic_arena *a, uint32_t W, uint32_t H, uint32_t sub, synth_walkable_fn walkable, void *ctx,
                      relic_trn_aswm *w)
{
    const float tw = 10.0f, cell = tw / (float)sub;
    const uint32_t vx = W * sub + 1, vy = H * sub + 1;
    const size_t nt = (size_t)W * H * sub * sub * 2, nv = (size_t)vx * vy;
    memset(w, 0, sizeof *w);
    w->version = 0x6C;
    w->owns_data = 1;
    w->vertices = relic_arena_array(a, nv, sizeof *w->vertices, 8);
    w->triangles = relic_arena_array(a, nt, sizeof *w->triangles, 8);
    w->edges = relic_arena_array(a, nt * 2 + nv, sizeof *w->edges, 8);
    w->tiles = relic_arena_array(a, (size_t)W * H, sizeof *w->tiles, 8);
    size_t cap = 1;
    while (cap < nt * 4) cap <<= 1;
    uint64_t *keys = relic_arena_array(a, cap, sizeof *keys, 8);
    uint32_t *ids = relic_arena_array(a, cap, sizeof *ids, 4);
    uint8_t *side = relic_arena_array(a, nt * 2 + nv, 2, 1);
    if (!w->vertices || !w->triangles || !w->edges || !w->tiles || !keys || !ids || !side) return -1;
    memset(keys, 0, cap * sizeof *keys);
    memset(w->tiles, 0, (size_t)W * H * sizeof *w->tiles);
    for (uint32_t y = 0; y < vy; y++)
        for (uint32_t x = 0; x < vx; x++) {
            relic_trn_vec3f *v = &w->vertices[(size_t)y * vx + x];
            v->x = (float)x * cell;
            v->y = (float)y * cell;
            v->z = 0.25f * (float)((x * 7 + y * 3) % 5);
        }
    uint32_t t = 0, ne = 0;
    for (uint32_t ty = 0; ty < H; ty++)
        for (uint32_t tx = 0; tx < W; tx++) {
            relic_trn_tile *tile = &w->tiles[(size_t)ty * W + tx];
            tile->triangles_offset = t;
            tile->triangles_count = sub * sub * 2;
            tile->tile_flags = 15;
            for (uint32_t cy = 0; cy < sub; cy++)
                for (uint32_t cx = 0; cx < sub; cx++) {
                    uint32_t gx = tx * sub + cx, gy = ty * sub + cy;
                    uint32_t v00 = gy * vx + gx, v10 = v00 + 1, v01 = v00 + vx, v11 = v01 + 1;
                    uint32_t tri[2][3] = {{v00, v10, v11}, {v00, v11, v01}};
                    for (int h = 0; h < 2; h++, t++) {
                        relic_trn_triangle *tr = &w->triangles[t];
                        memset(tr, 0, sizeof *tr);
                        float sx = 0, sy = 0;
                        for (int k = 0; k < 3; k++) {
                            tr->vertices[k] = tri[h][k];
                            sx += w->vertices[tri[h][k]].x;
                            sy += w->vertices[tri[h][k]].y;
                        }
                        tr->center[0] = sx / 3.0f;
                        tr->center[1] = sy / 3.0f;
                        tr->normal[2] = 1.0f;
                        tr->island = 0xFFFF;
                        tr->flags = (uint16_t)(walkable(ctx, t) ? 0x0011 : 0x0010);
                        for (int k = 0; k < 3; k++) {
                            int created;
                            uint32_t e = synth_edge(keys, ids, cap, tri[h][k], tri[h][(k + 1) % 3], &ne, &created);
                            if (created) {
                                w->edges[e].vertices[0] = tri[h][k];
                                w->edges[e].vertices[1] = tri[h][(k + 1) % 3];
                                w->edges[e].triangles[0] = t;
                                w->edges[e].triangles[1] = 0xFFFFFFFFu;
                                side[2 * e] = (uint8_t)k;
                            } else {
                                w->edges[e].triangles[1] = t;
                                side[2 * e + 1] = (uint8_t)k;
                            }
                            tr->linked_edges[k] = e;
                        }
                    }
                }
        }
    for (uint32_t e = 0; e < ne; e++) {
        uint32_t t0 = w->edges[e].triangles[0], t1 = w->edges[e].triangles[1];
        w->triangles[t0].linked_triangles[side[2 * e]] = t1;
        if (t1 != 0xFFFFFFFFu) w->triangles[t1].linked_triangles[side[2 * e + 1]] = t0;
    }
    w->vertices_count = w->vertex_count = (uint32_t)nv;
    w->edges_count = w->edge_count = ne;
    w->triangles_count = w->triangle_count = t;
    w->tiles_flags = 15;
    w->tiles_width = tw;
    w->grid_width = W;
    w->grid_height = H;
    w->tiles_count = (size_t)W * H;
    return 0;
}

#endif
