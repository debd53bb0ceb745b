/* trn_bake_islands.c — the island part of an ASWM bake: island records
 * (index, tile, centre, triangle count) and the island of every triangle,
 * the links between islands (adjacent island, distance between island
 * centres, first exit triangle) and the island path table (first hop of a
 * fewest-hop path, weighted by that hop's distance). nwn-lib-d, trn.d bake (nwn-lib-d; facts only). Departures: an island's `tile`
 * holds its tile index (nwn-lib-d writes an arbitrary checksum shared by
 * all islands, the toolset an unexplained value shared by all islands;
 * neither reader uses it); a link to the island itself is not recorded. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trn_bake.h"

#define NO_STEP 0xFFu

/* Triangles of island m: its first triangle and every walkable triangle of
 * its tile that the first one's path-table row reaches: each gets island
 * `mark`; their centres are summed into sx, sy. Returns their number. */
static uint32_t island_members(relic_trn_aswm *w, const trn_island_meta *m, uint16_t mark, double *sx, double *sy)
{
    const relic_trn_tile *t = &w->tiles[m->tile];
    uint32_t first_local = m->first - t->triangles_offset;
    uint8_t fnode = t->local_to_node[first_local];
    size_t n = t->node_to_local_count;
    const uint8_t *row = t->nodes + (size_t)fnode * n;
    uint32_t count = 0;
    *sx = *sy = 0.0;
    for (size_t k = 0; k < n; k++) {
        if (k != fnode && row[k] == NO_STEP) continue;
        relic_trn_triangle *tri = &w->triangles[t->triangles_offset + t->node_to_local[k]];
        tri->island = mark;
        *sx += tri->center[0];
        *sy += tri->center[1];
        count++;
    }
    return count;
}

static relic_status link_islands(relic_trn_aswm *w, const trn_island_list *isl, relic_arena *a, relic_error *err)
{
    size_t n = isl->count;
    uint8_t *listed = relic_arena_alloc(a, n + 1, 1);
    if (!listed) return relic_fail(err, RELIC_E_NOMEM, 0, "islands", "out of memory linking islands");
    for (size_t i = 0; i < n; i++) {
        const trn_island_meta *m = &isl->items[i];
        relic_trn_island *is = &w->islands[i];
        size_t cap = m->edge_count;
        is->adjacent = relic_arena_array(a, cap + 1, sizeof *is->adjacent, 4);
        is->distances = relic_arena_array(a, cap + 1, sizeof *is->distances, 4);
        is->exit_triangles = relic_arena_array(a, cap + 1, sizeof *is->exit_triangles, 4);
        if (!is->adjacent || !is->distances || !is->exit_triangles)
            return relic_fail(err, RELIC_E_NOMEM, 0, "islands", "out of memory for island links");
        size_t k = 0;
        for (size_t e = 0; e < m->edge_count; e++) {
            const relic_trn_edge *ed = &w->edges[m->edges[e]];
            uint32_t exit = TRN_NONE32, other = TRN_NONE32;
            for (int s = 0; s < 2; s++) {
                uint32_t tr = ed->triangles[s];
                if (tr >= w->triangles_count) continue;
                if (w->triangles[tr].island == i && exit == TRN_NONE32) exit = tr;
                else other = tr;
            }
            if (exit == TRN_NONE32 || other == TRN_NONE32) continue;
            uint16_t nb = w->triangles[other].island;
            if (nb == TRN_NONE16 || nb == i || listed[nb]) continue;
            listed[nb] = 1;
            double dx = (double)is->center[0] - w->islands[nb].center[0];
            double dy = (double)is->center[1] - w->islands[nb].center[1];
            is->adjacent[k] = nb;
            is->distances[k] = (float)sqrt(dx * dx + dy * dy);
            is->exit_triangles[k] = exit;
            k++;
        }
        for (size_t j = 0; j < k; j++) listed[is->adjacent[j]] = 0;
        is->adjacent_count = is->distances_count = is->exit_triangles_count = k;
        is->adjacent_length = is->distances_length = is->exits_length = (uint32_t)k;
    }
    return RELIC_OK;
}

/* Breadth-first search over island adjacency from every island. */
static relic_status path_table(relic_trn_aswm *w, relic_arena *a, relic_error *err)
{
    size_t n = w->islands_count;
    uint32_t *queue = relic_arena_array(a, n + 1, sizeof *queue, sizeof *queue);
    if (!queue) return relic_fail(err, RELIC_E_NOMEM, 0, "island_path_table", "out of memory");
    for (size_t src = 0; src < n; src++) {
        relic_trn_island_path_node *row = w->island_path_table + src * n;
        size_t head = 0, tail = 0;
        const relic_trn_island *s = &w->islands[src];
        for (size_t k = 0; k < s->adjacent_count; k++) {
            uint32_t nb = s->adjacent[k];
            if (nb == src || row[nb].next != TRN_NONE16) continue;
            row[nb].next = (uint16_t)nb;
            row[nb].weight = s->distances[k];
            queue[tail++] = nb;
        }
        while (head < tail) {
            uint32_t cur = queue[head++];
            const relic_trn_island *c = &w->islands[cur];
            for (size_t k = 0; k < c->adjacent_count; k++) {
                uint32_t nb = c->adjacent[k];
                if (nb == src || row[nb].next != TRN_NONE16) continue;
                row[nb] = row[cur];
                queue[tail++] = nb;
            }
        }
    }
    return RELIC_OK;
}

relic_status trn_bake_islands(relic_trn_aswm *w, const trn_island_list *isl, relic_arena *a, relic_error *err)
{
    size_t n = isl->count;
    if (n > TRN_BAKE_MAX_ISLANDS)
        return relic_fail(err, RELIC_E_LIMIT, 0, "islands", "%zu islands; at most %u", n, (unsigned)TRN_BAKE_MAX_ISLANDS);
    w->islands = relic_arena_array(a, n + 1, sizeof *w->islands, 8);
    w->island_path_table = relic_arena_array(a, n * n + 1, sizeof *w->island_path_table, 8);
    if (!w->islands || !w->island_path_table)
        return relic_fail(err, RELIC_E_NOMEM, 0, "islands", "out of memory for %zu islands", n);
    memset(w->islands, 0, (n + 1) * sizeof *w->islands);
    for (size_t i = 0; i < n * n; i++) {
        w->island_path_table[i].next = TRN_NONE16;
        w->island_path_table[i].padding = 0;
        w->island_path_table[i].weight = 0.0f;
    }
    w->islands_count = n;
    w->island_count = (uint32_t)n;
    w->island_path_table_count = n * n;
    for (size_t i = 0; i < n; i++) {
        relic_trn_island *is = &w->islands[i];
        double sx, sy;
        is->index = (uint32_t)i;
        is->tile = isl->items[i].tile;
        is->triangle_count = island_members(w, &isl->items[i], (uint16_t)i, &sx, &sy);
        is->center[0] = (float)(sx / is->triangle_count);
        is->center[1] = (float)(sy / is->triangle_count);
        is->center[2] = 0.0f;
    }
    relic_status st = link_islands(w, isl, a, err);
    if (st == RELIC_OK) st = path_table(w, a, err);
    return st;
}
