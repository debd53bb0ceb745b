/* trn_path.c — path queries on a baked ASWM walkmesh, the way the game
 * uses the tables (nwn-lib-d, trn.d; NWN2DataLib, AreaSurfaceMesh.h: "To walk a path", island
 * navigation after Skywing's GetNextIsland / GetNextIslandExit /
 * GetNextEnteranceFace): the island path table picks the next island, the
 * tile path table leads to the current island's exit triangle towards it,
 * the neighbour on the next island is entered, and inside the goal island
 * the tile table leads to the goal. Every step is bounded, so inconsistent
 * tables end in an error, never a loop. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relic_trn.h"

#define NONE32 0xFFFFFFFFu
#define NONE16 0xFFFFu
#define NO_NODE 0xFFu

/* Point-in-triangle in 2-D, edges included with a tolerance of 0.1 mm (the
 * stored centre of a sliver triangle may round off it). */
static int contains(const relic_trn_aswm *w, const relic_trn_triangle *t, double x, double y)
{
    double px[3], py[3];
    for (int k = 0; k < 3; k++) {
        if (t->vertices[k] >= w->vertices_count) return 0;
        px[k] = w->vertices[t->vertices[k]].x;
        py[k] = w->vertices[t->vertices[k]].y;
    }
    int neg = 0, pos = 0;
    for (int k = 0; k < 3; k++) {
        int j = (k + 1) % 3;
        double ex = px[j] - px[k], ey = py[j] - py[k];
        double c = ex * (y - py[k]) - ey * (x - px[k]);
        double tol = 1e-4 * sqrt(ex * ex + ey * ey);
        neg |= c < -tol;
        pos |= c > tol;
    }
    return !(neg && pos);
}

/* Best hit in triangles [lo, hi): walkable first, then the lowest index. */
static uint32_t scan(const relic_trn_aswm *w, size_t lo, size_t hi, double x, double y)
{
    uint32_t best = NONE32;
    for (size_t i = lo; i < hi && i < w->triangles_count; i++) {
        if (!contains(w, &w->triangles[i], x, y)) continue;
        if (w->triangles[i].flags & RELIC_TRN_TRIANGLE_FLAGS_WALKABLE) return (uint32_t)i;
        if (best == NONE32) best = (uint32_t)i;
    }
    return best;
}

uint32_t relic_trn_triangle_at(const relic_trn_aswm *w, double x, double y)
{
    if (w->tiles_width > 0.0f && x >= 0 && y >= 0 && w->tiles_count == (size_t)w->grid_width * w->grid_height) {
        double tx = floor(x / w->tiles_width), ty = floor(y / w->tiles_width);
        if (tx < w->grid_width && ty < w->grid_height) {
            const relic_trn_tile *t = &w->tiles[(size_t)ty * w->grid_width + (size_t)tx];
            uint32_t hit = scan(w, t->triangles_offset, (size_t)t->triangles_offset + t->triangles_count, x, y);
            if (hit != NONE32 && (w->triangles[hit].flags & RELIC_TRN_TRIANGLE_FLAGS_WALKABLE)) return hit;
        }
    }
    return scan(w, 0, w->triangles_count, x, y);
}

typedef struct route_build {
    const relic_trn_aswm *w;
    uint32_t *tile_of;
    relic_buf items; /* uint32_t triangle numbers, growing in the caller's arena */
    relic_error *err;
} route_build;

static relic_status push(route_build *r, uint32_t t)
{
    relic_buf_append(&r->items, &t, sizeof t);
    if (r->items.failed) return relic_fail(r->err, RELIC_E_NOMEM, 0, "route", "the arena cannot hold the route");
    return RELIC_OK;
}

/* Follow tile path table entries from triangle cur to triangle goal (both in
 * one tile), appending every triangle after cur. */
static relic_status walk_tile(route_build *r, uint32_t cur, uint32_t goal)
{
    const relic_trn_aswm *w = r->w;
    char path[64];
    uint32_t ti = r->tile_of[cur];
    if (ti == NONE32 || ti != r->tile_of[goal]) {
        snprintf(path, sizeof path, "triangles[%u]", (unsigned)goal);
        return relic_fail(r->err, RELIC_E_LAYOUT, 0, path, "triangles %u and %u are not in one tile", (unsigned)cur, (unsigned)goal);
    }
    const relic_trn_tile *t = &w->tiles[ti];
    size_t n = t->node_to_local_count;
    snprintf(path, sizeof path, "tiles[%u]", (unsigned)ti);
    for (size_t steps = 0; cur != goal; steps++) {
        uint32_t lc = cur - t->triangles_offset, lg = goal - t->triangles_offset;
        if (steps > n || lc >= t->local_to_node_count || lg >= t->local_to_node_count)
            return relic_fail(r->err, RELIC_E_LAYOUT, 0, path, "the path table does not lead from %u to %u", (unsigned)cur, (unsigned)goal);
        uint8_t fn = t->local_to_node[lc], gn = t->local_to_node[lg];
        if (fn == NO_NODE || gn == NO_NODE || fn >= n || gn >= n || (size_t)fn * n + gn >= t->nodes_count)
            return relic_fail(r->err, RELIC_E_LAYOUT, 0, path, "triangle %u or %u has no path node", (unsigned)cur, (unsigned)goal);
        uint8_t e = t->nodes[(size_t)fn * n + gn];
        if (e == NO_NODE || (size_t)(e & 0x7F) >= n)
            return relic_fail(r->err, RELIC_E_LAYOUT, 0, path, "no path from %u to %u inside the tile", (unsigned)cur, (unsigned)goal);
        uint64_t next = (uint64_t)t->triangles_offset + t->node_to_local[e & 0x7F];
        if (next >= w->triangles_count)
            return relic_fail(r->err, RELIC_E_LAYOUT, 0, path, "next step %llu out of range", (unsigned long long)next);
        cur = (uint32_t)next;
        relic_status st = push(r, cur);
        if (st != RELIC_OK) return st;
    }
    return RELIC_OK;
}

static relic_status route_islands(route_build *r, uint32_t from, uint32_t to)
{
    const relic_trn_aswm *w = r->w;
    size_t n = w->islands_count;
    uint32_t cur = from;
    uint32_t ci = w->triangles[from].island, goal = w->triangles[to].island;
    relic_status st = push(r, from);
    for (size_t hops = 0; st == RELIC_OK && ci != goal; hops++) {
        char path[64];
        snprintf(path, sizeof path, "islands[%u]", (unsigned)ci);
        if (hops >= n || (uint64_t)ci * n + goal >= w->island_path_table_count)
            return relic_fail(r->err, RELIC_E_LAYOUT, 0, path, "the island path table loops");
        uint16_t next = w->island_path_table[(size_t)ci * n + goal].next;
        if (next == NONE16)
            return relic_fail(r->err, RELIC_E_UNSUPPORTED, 0, path, "no route: the island path table has no path from island %u to %u",
                              (unsigned)ci, (unsigned)goal);
        if (next >= n) return relic_fail(r->err, RELIC_E_LAYOUT, 0, path, "next island %u out of range", (unsigned)next);
        const relic_trn_island *is = &w->islands[ci];
        uint32_t exit = NONE32;
        for (size_t k = 0; k < is->adjacent_count && k < is->exit_triangles_count; k++)
            if (is->adjacent[k] == next) {
                exit = is->exit_triangles[k];
                break;
            }
        if (exit >= w->triangles_count)
            return relic_fail(r->err, RELIC_E_LAYOUT, 0, path, "no exit triangle towards island %u", (unsigned)next);
        if ((st = walk_tile(r, cur, exit)) != RELIC_OK) return st;
        uint32_t enter = NONE32;
        for (int j = 0; j < 3; j++) {
            uint32_t nb = w->triangles[exit].linked_triangles[j];
            if (nb < w->triangles_count && w->triangles[nb].island == next) {
                enter = nb;
                break;
            }
        }
        if (enter == NONE32)
            return relic_fail(r->err, RELIC_E_LAYOUT, 0, path, "exit triangle %u has no neighbour on island %u", (unsigned)exit, (unsigned)next);
        if ((st = push(r, enter)) != RELIC_OK) return st;
        cur = enter;
        ci = next;
    }
    if (st == RELIC_OK) st = walk_tile(r, cur, to);
    return st;
}

relic_status relic_trn_route_find(const relic_trn_aswm *w, uint32_t from, uint32_t to, double x1, double y1, double x2,
                                  double y2, relic_arena *a, relic_trn_route *out, relic_error *err)
{
    relic_error scratch;
    if (!err) err = &scratch;
    memset(out, 0, sizeof *out);
    if (from >= w->triangles_count || to >= w->triangles_count)
        return relic_fail(err, RELIC_E_RANGE, 0, "triangles", "triangle %u or %u out of range (%zu triangles)", (unsigned)from,
                          (unsigned)to, w->triangles_count);
    uint16_t fi = w->triangles[from].island, ti = w->triangles[to].island;
    if (fi == NONE16 || ti == NONE16 || fi >= w->islands_count || ti >= w->islands_count)
        return relic_fail(err, RELIC_E_RANGE, 0, "triangles", "triangle %u or %u is on no island (not walkable or not baked)",
                          (unsigned)from, (unsigned)to);
    /* tile_of first, then the route grows in place after it (arena's newest) */
    route_build r = {w, NULL, {0}, err};
    r.tile_of = relic_arena_array(a, w->triangles_count + 1, sizeof *r.tile_of, sizeof *r.tile_of);
    if (!r.tile_of) return relic_fail(err, RELIC_E_NOMEM, 0, "route", "the arena cannot hold the triangle-to-tile map");
    relic_buf_init_arena(&r.items, a, 0);
    for (size_t i = 0; i < w->triangles_count; i++) r.tile_of[i] = NONE32;
    for (size_t k = 0; k < w->tiles_count; k++)
        for (uint64_t i = w->tiles[k].triangles_offset; i < (uint64_t)w->tiles[k].triangles_offset + w->tiles[k].triangles_count &&
             i < w->triangles_count;
             i++)
            r.tile_of[i] = (uint32_t)k;
    relic_status st = route_islands(&r, from, to);
    if (st == RELIC_OK) {
        /* relic_buf data start at an arena allocation of alignment 1; copy
         * out when they are not 4-aligned */
        size_t count = r.items.size / sizeof(uint32_t);
        out->triangles = (uint32_t *)(void *)r.items.data;
        if (((uintptr_t)r.items.data & 3u) != 0) {
            out->triangles = relic_arena_array(a, count, sizeof *out->triangles, 4);
            if (!out->triangles) return relic_fail(err, RELIC_E_NOMEM, 0, "route", "the arena cannot hold the route");
            memcpy(out->triangles, r.items.data, count * sizeof *out->triangles);
        }
        out->count = count;
        double len = 0, px = x1, py = y1;
        for (size_t i = 0; i < count; i++) {
            const relic_trn_triangle *t = &w->triangles[out->triangles[i]];
            len += hypot(t->center[0] - px, t->center[1] - py);
            px = t->center[0];
            py = t->center[1];
        }
        out->length = len + hypot(x2 - px, y2 - py);
    }
    return st;
}
