/* trn_bake.h — internal interface between the three steps of the ASWM
 * baker (nwn-lib-d, trn.d bake): trn_bake.c (reset, border removal, split by
 * tile, driver), trn_bake_tile.c (one tile's path table and its islands),
 * trn_bake_islands.c (island records, links and the island path table). */
#ifndef RELIC_TRN_BAKE_H
#define RELIC_TRN_BAKE_H

#include "relic_trn.h"

#define TRN_NONE32 0xFFFFFFFFu
#define TRN_NONE16 0xFFFFu
#define TRN_WALKABLE 0x0001u
/** Most walkable triangles a tile may hold: the next-step index has 7 bits
 *  and 0xFF means none, so 127 (indices 0..126); the toolset writes 127. */
#define TRN_BAKE_MAX_NODES 127u
/** Most islands a bake produces (island indices are u16 with 0xFFFF for
 *  none; the island path table grows with the square: 8192 islands take
 *  512 MiB). */
#define TRN_BAKE_MAX_ISLANDS 8192u

/** An island found while baking a tile: its tile, its first (lowest-index)
 *  walkable triangle and the edges through which its search left the tile
 *  (duplicates possible), as global indices. */
typedef struct trn_island_meta {
    uint32_t tile;
    uint32_t first;
    uint32_t *edges;
    size_t edge_count, edge_cap;
} trn_island_meta;

typedef struct trn_island_list {
    trn_island_meta *items;
    size_t count, cap;
    relic_arena *a; /* growth moves arrays within this arena (nothing freed) */
} trn_island_list;

/** Grow an array of old_n elements of size elem to new_n inside a: a new
 *  allocation holding a copy (the old one stays unused until the arena is
 *  released). NULL when a cannot supply it. */
void *trn_arena_regrow(relic_arena *a, void *old, size_t old_n, size_t new_n, size_t elem, size_t align);

/** Scratch shared by the tiles (sized for the largest tile / mesh). */
typedef struct trn_tile_scratch {
    uint32_t *stamp_v, *stamp_e; /* per vertex / edge: last tile that counted it, +1 */
    double *cost;                /* per local triangle */
    uint8_t *step, *visited, *queued;
    uint32_t *wave, *next_wave;
    /* the tile's links, found once per tile rather than once per search:
     * per local triangle and slot, the local neighbour (or NB_SKIP /
     * NB_OUT), the centre distance to it, the edge leaving the tile */
    int32_t *nb;
    double *nb_dist;
    uint32_t *nb_edge;
    size_t local_cap;
} trn_tile_scratch;

/** Build tile `ti` of w (triangles already split by tile, offsets and counts
 *  set): vertex/edge counts, local_to_node, node_to_local and nodes
 *  (allocated from a), and append its islands to isl. Errors: RELIC_E_LIMIT
 *  (more than TRN_BAKE_MAX_NODES walkable triangles), RELIC_E_NOMEM. */
relic_status trn_bake_tile(relic_trn_aswm *w, size_t ti, trn_tile_scratch *s, relic_arena *a, trn_island_list *isl,
                           relic_error *err);

/** From the islands found by the tiles: island records (index, tile,
 *  centre, triangle count), the island of every triangle, the links
 *  (adjacent, distances, exit triangles) and the island path table, all
 *  allocated from a. Errors: RELIC_E_LIMIT (too many islands), RELIC_E_NOMEM. */
relic_status trn_bake_islands(relic_trn_aswm *w, const trn_island_list *isl, relic_arena *a, relic_error *err);

#endif
