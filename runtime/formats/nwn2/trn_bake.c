/* trn_bake.c — bake an NWN2 ASWM walkmesh (TRN -> TRX, or re-bake a TRX):
 * reset islands, remove the border tiles' triangles with compaction,
 * reorder triangles by tile, then hand each tile to trn_bake_tile.c and the
 * islands to trn_bake_islands.c. Follows nwn-lib-d's bake as described in
 * nwn-lib-d, trn.d bake (facts only; no code taken). Departures:
 *  - the split by tile is a stable counting sort instead of a scan of every
 *    triangle per tile: the same order, linear time;
 *  - border removal also keeps the vertices of kept edges (equal to the
 *    triangles' own in every sane mesh) so no index is ever left dangling;
 *  - tiles_flags and every tile_flags are set to 31 (the toolset's value in
 *    every corpus TRX), owns_data of tiles to 0 (the game's value), path
 *    flags and RLE sizes to 0;
 *  - the triangle's stored centre is used for every tile test (as the game
 *    file holds it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trn_bake.h"

/* Translation through an old -> new index table; NONE stays NONE. */
static uint32_t tr(const uint32_t *map, size_t n, uint32_t i) { return i < n ? map[i] : TRN_NONE32; }

/* Rewrite every index of the mesh through the triangle, vertex and edge
 * maps (NULL map = identity); an edge's lone triangle moves to slot 0. */
static void translate(relic_trn_aswm *w, const uint32_t *tmap, size_t tn, const uint32_t *vmap, size_t vn,
                      const uint32_t *emap, size_t en)
{
    for (size_t i = 0; i < w->edges_count; i++) {
        relic_trn_edge *e = &w->edges[i];
        for (int k = 0; k < 2; k++) {
            if (vmap) e->vertices[k] = tr(vmap, vn, e->vertices[k]);
            if (tmap) e->triangles[k] = tr(tmap, tn, e->triangles[k]);
        }
        if (e->triangles[0] == TRN_NONE32) {
            e->triangles[0] = e->triangles[1];
            e->triangles[1] = TRN_NONE32;
        }
    }
    for (size_t i = 0; i < w->triangles_count; i++) {
        relic_trn_triangle *t = &w->triangles[i];
        for (int k = 0; k < 3; k++) {
            if (vmap) t->vertices[k] = tr(vmap, vn, t->vertices[k]);
            if (emap) t->linked_edges[k] = tr(emap, en, t->linked_edges[k]);
            if (tmap) t->linked_triangles[k] = tr(tmap, tn, t->linked_triangles[k]);
        }
    }
}

/* Half-open box test on the stored centre, in float as the boxes are. */
static int inside(const relic_trn_triangle *t, float x0, float y0, float x1, float y1)
{
    return t->center[0] >= x0 && t->center[0] < x1 && t->center[1] >= y0 && t->center[1] < y1;
}

/* §2.5.2: keep the triangles whose centre lies in the inner box, compact
 * vertices and edges in their original order, rewrite every index. */
static relic_status remove_border(relic_trn_aswm *w, relic_arena *a, relic_error *err)
{
    float tw = w->tiles_width, b = (float)w->tiles_border_size;
    float x0 = b * tw, y0 = b * tw;
    float x1 = ((float)w->grid_width - b) * tw, y1 = ((float)w->grid_height - b) * tw;
    size_t nt = w->triangles_count, nv = w->vertices_count, ne = w->edges_count;
    uint32_t *tmap = relic_arena_array(a, nt + 1, sizeof *tmap, sizeof *tmap);
    uint32_t *vmap = tmap ? relic_arena_array(a, nv + 1, sizeof *vmap, sizeof *vmap) : NULL;
    uint32_t *emap = vmap ? relic_arena_array(a, ne + 1, sizeof *emap, sizeof *emap) : NULL;
    if (!emap) return relic_fail(err, RELIC_E_NOMEM, 0, "", "out of memory removing the border");
    for (size_t i = 0; i < nv; i++) vmap[i] = 0;
    for (size_t i = 0; i < ne; i++) emap[i] = 0;
    size_t kept = 0;
    for (size_t i = 0; i < nt; i++) {
        const relic_trn_triangle *t = &w->triangles[i];
        if (!inside(t, x0, y0, x1, y1)) {
            tmap[i] = TRN_NONE32;
            continue;
        }
        tmap[i] = (uint32_t)kept++;
        for (int k = 0; k < 3; k++) {
            vmap[t->vertices[k]] = 1;
            if (t->linked_edges[k] != TRN_NONE32) {
                emap[t->linked_edges[k]] = 1;
                const relic_trn_edge *e = &w->edges[t->linked_edges[k]];
                vmap[e->vertices[0]] = vmap[e->vertices[1]] = 1;
            }
        }
    }
    size_t v2 = 0, e2 = 0;
    for (size_t i = 0; i < nv; i++) {
        if (vmap[i]) {
            w->vertices[v2] = w->vertices[i];
            vmap[i] = (uint32_t)v2++;
        } else vmap[i] = TRN_NONE32;
    }
    for (size_t i = 0; i < ne; i++) {
        if (emap[i]) {
            w->edges[e2] = w->edges[i];
            emap[i] = (uint32_t)e2++;
        } else emap[i] = TRN_NONE32;
    }
    for (size_t i = 0; i < nt; i++)
        if (tmap[i] != TRN_NONE32) w->triangles[tmap[i]] = w->triangles[i];
    w->vertices_count = v2;
    w->edges_count = e2;
    w->triangles_count = kept;
    translate(w, tmap, nt, vmap, nv, emap, ne);
    return RELIC_OK;
}

/* The tile whose half-open box [x*w, (x+1)*w) holds c, or -1: a guess by
 * division, corrected against the float box bounds. */
static long tile_coord(float c, float tw, uint32_t n)
{
    if (!(c >= 0.0f)) return -1;
    double g = floor((double)c / (double)tw);
    if (g >= (double)n + 1.0) return -1;
    long x = (long)g;
    while (x > 0 && c < (float)x * tw) x--;
    while (x < (long)n && c >= (float)(x + 1) * tw) x++;
    if (x >= (long)n || c < (float)x * tw) return -1;
    return x;
}

/* §2.5.3: stable reorder of the triangles by tile (row-major); a triangle
 * in no tile is dropped and its references become none. */
static relic_status split_tiles(relic_trn_aswm *w, relic_arena *a, relic_error *err)
{
    size_t nt = w->triangles_count, ntiles = w->tiles_count;
    uint32_t *tile_of = relic_arena_array(a, nt + 1, sizeof *tile_of, sizeof *tile_of);
    uint32_t *tmap = tile_of ? relic_arena_array(a, nt + 1, sizeof *tmap, sizeof *tmap) : NULL;
    uint32_t *start = tmap ? relic_arena_array(a, ntiles + 1, sizeof *start, sizeof *start) : NULL; /* zero-filled */
    relic_trn_triangle *out = start ? relic_arena_array(a, nt + 1, sizeof *out, 8) : NULL;
    if (!out)
        return relic_fail(err, RELIC_E_NOMEM, 0, "triangles", "out of memory splitting %zu triangles by tile", nt);
    for (size_t i = 0; i < nt; i++) {
        const relic_trn_triangle *t = &w->triangles[i];
        long x = tile_coord(t->center[0], w->tiles_width, w->grid_width);
        long y = tile_coord(t->center[1], w->tiles_width, w->grid_height);
        if (x < 0 || y < 0) {
            tile_of[i] = TRN_NONE32;
            continue;
        }
        tile_of[i] = (uint32_t)((size_t)y * w->grid_width + (size_t)x);
        start[tile_of[i] + 1]++;
    }
    for (size_t k = 0; k < ntiles; k++) {
        relic_trn_tile *t = &w->tiles[k];
        t->triangles_count = start[k + 1];
        start[k + 1] += start[k];
        t->triangles_offset = start[k];
    }
    for (size_t i = 0; i < nt; i++) {
        if (tile_of[i] == TRN_NONE32) {
            tmap[i] = TRN_NONE32;
            continue;
        }
        tmap[i] = start[tile_of[i]]++;
        out[tmap[i]] = w->triangles[i];
    }
    w->triangles = out;
    w->triangles_count = ntiles ? start[ntiles - 1] : 0;
    translate(w, tmap, nt, NULL, 0, NULL, 0);
    return RELIC_OK;
}

/* Every index of the input in range, so the steps may index freely. */
static relic_status check_input(const relic_trn_aswm *w, relic_error *err)
{
    char path[64];
    if (w->grid_width == 0 || w->grid_height == 0 || (uint64_t)w->grid_width * w->grid_height > (1u << 24))
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "grid_width", "a %u x %u tile grid cannot be baked", (unsigned)w->grid_width,
                          (unsigned)w->grid_height);
    if (!(w->tiles_width > 0.0f) || !isfinite(w->tiles_width))
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "tiles_width", "%g is not a positive tile size", (double)w->tiles_width);
    if (w->triangles_count >= TRN_NONE32 || w->edges_count >= TRN_NONE32 || w->vertices_count >= TRN_NONE32)
        return relic_fail(err, RELIC_E_LIMIT, 0, "", "too many elements to index with u32");
    for (size_t i = 0; i < w->edges_count; i++)
        for (int k = 0; k < 2; k++)
            if (w->edges[i].vertices[k] >= w->vertices_count ||
                (w->edges[i].triangles[k] != TRN_NONE32 && w->edges[i].triangles[k] >= w->triangles_count)) {
                snprintf(path, sizeof path, "edges[%zu]", i);
                return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "index out of range (validate first)");
            }
    for (size_t i = 0; i < w->triangles_count; i++)
        for (int k = 0; k < 3; k++) {
            const relic_trn_triangle *t = &w->triangles[i];
            if (t->vertices[k] >= w->vertices_count || (t->linked_edges[k] != TRN_NONE32 && t->linked_edges[k] >= w->edges_count) ||
                (t->linked_triangles[k] != TRN_NONE32 && t->linked_triangles[k] >= w->triangles_count)) {
                snprintf(path, sizeof path, "triangles[%zu]", i);
                return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "index out of range (validate first)");
            }
        }
    return RELIC_OK;
}

/* A deep copy of the arrays the bake rewrites; tiles keep their header
 * (name, size) when the input has the full grid. */
static relic_status copy_input(const relic_trn_aswm *in, relic_arena *a, relic_trn_aswm *w, relic_error *err)
{
    *w = *in;
    size_t ntiles = (size_t)in->grid_width * in->grid_height;
    w->vertices = relic_arena_array(a, in->vertices_count + 1, sizeof *w->vertices, 8);
    w->edges = relic_arena_array(a, in->edges_count + 1, sizeof *w->edges, 8);
    w->triangles = relic_arena_array(a, in->triangles_count + 1, sizeof *w->triangles, 8);
    w->tiles = relic_arena_array(a, ntiles, sizeof *w->tiles, 8);
    if (!w->vertices || !w->edges || !w->triangles || !w->tiles)
        return relic_fail(err, RELIC_E_NOMEM, 0, "", "out of memory copying the walkmesh");
    if (in->vertices_count) memcpy(w->vertices, in->vertices, in->vertices_count * sizeof *w->vertices);
    if (in->edges_count) memcpy(w->edges, in->edges, in->edges_count * sizeof *w->edges);
    if (in->triangles_count) memcpy(w->triangles, in->triangles, in->triangles_count * sizeof *w->triangles);
    memset(w->tiles, 0, ntiles * sizeof *w->tiles);
    for (size_t i = 0; i < ntiles; i++) {
        relic_trn_tile *t = &w->tiles[i];
        if (in->tiles_count == ntiles) {
            memcpy(t->name, in->tiles[i].name, sizeof t->name);
            t->size_x = in->tiles[i].size_x;
            t->size_y = in->tiles[i].size_y;
        }
        t->tile_flags = 31;
    }
    w->tiles_count = ntiles;
    w->tiles_flags = 31;
    w->version = 0x6C;
    w->owns_data = 1;
    w->islands = NULL;
    w->islands_count = 0;
    w->island_path_table = NULL;
    w->island_path_table_count = 0;
    return RELIC_OK;
}

relic_status relic_trn_bake(const relic_trn_aswm *in, const relic_trn_bake_options *opt, relic_arena *a,
                            relic_trn_aswm *out, relic_error *err)
{
    relic_error scratch_err;
    if (!err) err = &scratch_err;
    relic_status st = check_input(in, err);
    if (st != RELIC_OK) return st;
    relic_trn_aswm w;
    if ((st = copy_input(in, a, &w, err)) != RELIC_OK) return st;
    for (size_t i = 0; i < w.triangles_count; i++) w.triangles[i].island = TRN_NONE16; /* §2.5.1 */
    if (!(opt && opt->keep_borders) && (st = remove_border(&w, a, err)) != RELIC_OK) return st;
    if ((st = split_tiles(&w, a, err)) != RELIC_OK) return st;

    size_t max_local = 0;
    for (size_t i = 0; i < w.tiles_count; i++)
        if (w.tiles[i].triangles_count > max_local) max_local = w.tiles[i].triangles_count;
    trn_tile_scratch s;
    memset(&s, 0, sizeof s);
    s.local_cap = max_local;
    /* scratch from the caller's arena too (zero-filled, as the stamps need) */
    s.stamp_v = relic_arena_array(a, w.vertices_count + 1, sizeof *s.stamp_v, sizeof *s.stamp_v);
    s.stamp_e = relic_arena_array(a, w.edges_count + 1, sizeof *s.stamp_e, sizeof *s.stamp_e);
    s.cost = relic_arena_array(a, max_local + 1, sizeof *s.cost, sizeof *s.cost);
    s.step = relic_arena_alloc(a, max_local + 1, 1);
    s.visited = relic_arena_alloc(a, max_local + 1, 1);
    s.queued = relic_arena_alloc(a, max_local + 1, 1);
    s.wave = relic_arena_array(a, max_local + 1, sizeof *s.wave, sizeof *s.wave);
    s.next_wave = relic_arena_array(a, max_local + 1, sizeof *s.next_wave, sizeof *s.next_wave);
    s.nb = relic_arena_array(a, 3 * max_local + 1, sizeof *s.nb, sizeof *s.nb);
    s.nb_dist = relic_arena_array(a, 3 * max_local + 1, sizeof *s.nb_dist, sizeof *s.nb_dist);
    s.nb_edge = relic_arena_array(a, 3 * max_local + 1, sizeof *s.nb_edge, sizeof *s.nb_edge);
    trn_island_list isl = {NULL, 0, 0, a};
    if (!s.stamp_v || !s.stamp_e || !s.cost || !s.step || !s.visited || !s.queued || !s.wave || !s.next_wave || !s.nb || !s.nb_dist ||
        !s.nb_edge)
        st = relic_fail(err, RELIC_E_NOMEM, 0, "", "out of memory for the tile scratch");
    for (size_t i = 0; st == RELIC_OK && i < w.tiles_count; i++) st = trn_bake_tile(&w, i, &s, a, &isl, err);
    if (st == RELIC_OK) st = trn_bake_islands(&w, &isl, a, err);
    if (st == RELIC_OK) *out = w;
    return st;
}
