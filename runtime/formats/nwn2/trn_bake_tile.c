/* trn_bake_tile.c — bake one tile of an ASWM walkmesh: its vertex and edge
 * counts, its path table (local_to_node, node_to_local and the next-step
 * matrix of shortest paths by summed 2-D centre-to-centre distance over
 * linked walkable triangles inside the tile) and its islands with the edges
 * where they leave the tile. nwn-lib-d, trn.d bake (nwn-lib-d bakeTile;
 * facts only). The search is the synchronous-wave label-correcting search
 * described there: neighbours in slot order 0, 1, 2, an entry is replaced
 * only by a strictly shorter cost, so the first minimal path found wins.
 * Departures: costs are summed in double; 127 walkable triangles per tile
 * are accepted (the toolset writes them; nwn-lib-d stops at 126); a
 * triangle queued twice for the same wave is expanded once (the second
 * expansion could improve nothing). The LOS bit 0x80 is never set. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trn_bake.h"

#define NO_STEP 0xFFu
#define NB_SKIP (-1)
#define NB_OUT (-2)

void *trn_arena_regrow(relic_arena *a, void *old, size_t old_n, size_t new_n, size_t elem, size_t align)
{
    void *p = relic_arena_array(a, new_n, elem, align);
    if (p && old_n) memcpy(p, old, old_n * elem);
    return p;
}

static relic_status push_edge(trn_island_meta *m, relic_arena *a, uint32_t e, relic_error *err)
{
    if (m->edge_count == m->edge_cap) {
        size_t cap = m->edge_cap ? m->edge_cap * 2 : 16;
        uint32_t *p = trn_arena_regrow(a, m->edges, m->edge_count, cap, sizeof *p, sizeof *p);
        if (!p) return relic_fail(err, RELIC_E_NOMEM, 0, "islands", "out of memory for island edges");
        m->edges = p;
        m->edge_cap = cap;
    }
    m->edges[m->edge_count++] = e;
    return RELIC_OK;
}

static relic_status new_island(trn_island_list *isl, uint32_t tile, uint32_t first, relic_error *err)
{
    if (isl->count >= TRN_BAKE_MAX_ISLANDS)
        return relic_fail(err, RELIC_E_LIMIT, 0, "islands", "more than %u islands", (unsigned)TRN_BAKE_MAX_ISLANDS);
    if (isl->count == isl->cap) {
        size_t cap = isl->cap ? isl->cap * 2 : 64;
        trn_island_meta *p = trn_arena_regrow(isl->a, isl->items, isl->count, cap, sizeof *p, 8);
        if (!p) return relic_fail(err, RELIC_E_NOMEM, 0, "islands", "out of memory for islands");
        isl->items = p;
        isl->cap = cap;
    }
    trn_island_meta *m = &isl->items[isl->count++];
    memset(m, 0, sizeof *m);
    m->tile = tile;
    m->first = first;
    return RELIC_OK;
}

static double centre_distance(const relic_trn_triangle *a, const relic_trn_triangle *b)
{
    double dx = (double)a->center[0] - b->center[0], dy = (double)a->center[1] - b->center[1];
    return sqrt(dx * dx + dy * dy);
}

/* Distinct vertex and non-none edge indices of the tile's triangles. */
static void count_distinct(const relic_trn_aswm *w, size_t ti, trn_tile_scratch *s, relic_trn_tile *t)
{
    uint32_t stamp = (uint32_t)ti + 1, nv = 0, ne = 0;
    for (uint32_t i = 0; i < t->triangles_count; i++) {
        const relic_trn_triangle *tri = &w->triangles[t->triangles_offset + i];
        for (int k = 0; k < 3; k++) {
            uint32_t v = tri->vertices[k], e = tri->linked_edges[k];
            if (v < w->vertices_count && s->stamp_v[v] != stamp) {
                s->stamp_v[v] = stamp;
                nv++;
            }
            if (e < w->edges_count && s->stamp_e[e] != stamp) {
                s->stamp_e[e] = stamp;
                ne++;
            }
        }
    }
    t->vertices_count = nv;
    t->edges_count = ne;
}

/* The links of the tile's triangles, in slot order: a walkable neighbour
 * inside the tile as its local index with the 2-D centre distance to it (in
 * double, as the search sums it), a walkable neighbour outside as NB_OUT
 * with the edge crossed, anything else (none, out of range, not walkable)
 * as NB_SKIP. The searches of the tile then read only these arrays. */
static void local_links(const relic_trn_aswm *w, uint32_t off, uint32_t cnt, trn_tile_scratch *s)
{
    const relic_trn_triangle *tris = w->triangles + off;
    for (uint32_t i = 0; i < cnt; i++) {
        const relic_trn_triangle *tt = &tris[i];
        for (int j = 0; j < 3; j++) {
            const uint32_t lg = tt->linked_triangles[j];
            int32_t link = NB_SKIP;
            if (lg != TRN_NONE32 && lg < w->triangles_count && (w->triangles[lg].flags & TRN_WALKABLE))
                link = lg < off || lg - off >= cnt ? NB_OUT : (int32_t)(lg - off);
            s->nb[3 * i + j] = link;
            s->nb_dist[3 * i + j] = link >= 0 ? centre_distance(tt, &tris[link]) : 0.0;
            s->nb_edge[3 * i + j] = tt->linked_edges[j];
        }
    }
}

relic_status trn_bake_tile(relic_trn_aswm *w, size_t ti, trn_tile_scratch *s, relic_arena *a, trn_island_list *isl,
                           relic_error *err)
{
    relic_trn_tile *t = &w->tiles[ti];
    const uint32_t off = t->triangles_offset, cnt = t->triangles_count;
    relic_trn_triangle *tris = w->triangles + off;
    count_distinct(w, ti, s, t);
    t->owns_data = 0;
    t->own_vertices = NULL;
    t->own_vertices_count = 0;
    t->own_edges = NULL;
    t->own_edges_count = 0;
    t->path_flags = 0;
    t->rle_table_size = 0;

    uint32_t n = 0;
    for (uint32_t i = 0; i < cnt; i++) n += (tris[i].flags & TRN_WALKABLE) != 0;
    if (n > TRN_BAKE_MAX_NODES) {
        char path[48];
        snprintf(path, sizeof path, "tiles[%zu]", ti);
        return relic_fail(err, RELIC_E_LIMIT, 0, path, "%u walkable triangles; a path table holds at most %u", (unsigned)n,
                          (unsigned)TRN_BAKE_MAX_NODES);
    }
    t->local_to_node = relic_arena_alloc(a, (size_t)cnt + 1, 1);
    t->node_to_local = relic_arena_array(a, (size_t)n + 1, sizeof *t->node_to_local, 4);
    t->nodes = relic_arena_alloc(a, (size_t)n * n + 1, 1);
    if (!t->local_to_node || !t->node_to_local || !t->nodes)
        return relic_fail(err, RELIC_E_NOMEM, 0, "tiles", "out of memory for a path table");
    t->local_to_node_count = cnt;
    t->node_to_local_count = n;
    t->nodes_count = (size_t)n * n;
    t->local_to_node_length = cnt;
    t->node_to_local_length = (uint8_t)n;
    memset(t->local_to_node, NO_STEP, cnt);
    memset(t->nodes, NO_STEP, (size_t)n * n);
    for (uint32_t i = 0, k = 0; i < cnt; i++)
        if (tris[i].flags & TRN_WALKABLE) {
            t->node_to_local[k] = i;
            t->local_to_node[i] = (uint8_t)k++;
        }
    memset(s->visited, 0, cnt);
    memset(s->queued, 0, cnt);
    local_links(w, off, cnt, s);
    const int32_t *nb = s->nb;
    const double *nb_dist = s->nb_dist;
    double *cost = s->cost;

    for (uint32_t f = 0; f < n; f++) {
        const uint32_t fl = t->node_to_local[f];
        const int registering = !s->visited[fl];
        relic_status st;
        if (registering && (st = new_island(isl, (uint32_t)ti, off + fl, err)) != RELIC_OK) return st;
        trn_island_meta *meta = registering ? &isl->items[isl->count - 1] : NULL;
        for (uint32_t i = 0; i < cnt; i++) cost[i] = INFINITY;
        cost[fl] = 0.0;
        uint8_t *row = t->nodes + (size_t)f * n;
        size_t wave_n = 1;
        s->wave[0] = fl;
        while (wave_n) {
            size_t next_n = 0;
            for (size_t q = 0; q < wave_n; q++) {
                const uint32_t tl = s->wave[q];
                s->queued[tl] = 0;
                for (int j = 0; j < 3; j++) {
                    const int32_t link = nb[3 * tl + j];
                    if (link == NB_SKIP || (uint32_t)link == fl) continue;
                    if (link == NB_OUT) {
                        uint32_t e = s->nb_edge[3 * tl + j];
                        if (meta && e != TRN_NONE32 && (st = push_edge(meta, isl->a, e, err)) != RELIC_OK) return st;
                        continue;
                    }
                    const uint32_t ll = (uint32_t)link;
                    s->visited[ll] = 1;
                    double c = cost[tl] + nb_dist[3 * tl + j];
                    if (!(c < cost[ll])) continue;
                    cost[ll] = c;
                    row[t->local_to_node[ll]] = tl == fl ? t->local_to_node[ll] : row[t->local_to_node[tl]];
                    if (!s->queued[ll]) {
                        s->queued[ll] = 1;
                        s->next_wave[next_n++] = ll;
                    }
                }
            }
            uint32_t *tmp = s->wave;
            s->wave = s->next_wave;
            s->next_wave = tmp;
            wave_n = next_n;
        }
    }
    return RELIC_OK;
}
