/* trn_check_strict.c — `relic check --strict` rules of the ASWM walkmesh:
 * the rules whose violation crashes the game or that every toolset-baked
 * file keeps (nwn-lib-d, trn.d validate "strict mode" and the per-triangle /
 * per-island rules of nwn-lib-d validate; Charles, NWN2 TRN.ASWM packet structure, TRN.ASWM: "a tile must
 * not re-use triangles owned by another tile (will crash NWN2)"). Run after
 * relic_trn_check_aswm has found every index in range. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "relic_trn.h"

#define NONE32 0xFFFFFFFFu
#define NONE16 0xFFFFu
#define NO_NODE 0xFFu
#define WALKABLE 0x0001u
#define MAX_NODES 127u

typedef struct sctx {
    const char *path;
    relic_problems problems;
} sctx;

/* Report one problem at field path prefix.field (the ASWM decoded model
 * has no byte offsets; 0 is reported). */
#define problem(c, field, ...) relic_problem_at(&(c)->problems, RELIC_E_LAYOUT, 0, (c)->path, field, __VA_ARGS__)

/* No triangle in two tiles' ranges (the crash Charles's TRN.ASWM write-up reports). */
static void check_ownership(sctx *c, const relic_trn_aswm *w, uint32_t *owner)
{
    char f[96];
    for (size_t i = 0; i < w->triangles_count; i++) owner[i] = NONE32;
    for (size_t ti = 0; ti < w->tiles_count; ti++) {
        const relic_trn_tile *t = &w->tiles[ti];
        for (uint64_t k = t->triangles_offset; k < (uint64_t)t->triangles_offset + t->triangles_count && k < w->triangles_count; k++) {
            if (owner[k] != NONE32 && owner[k] != ti) {
                snprintf(f, sizeof f, "tiles[%zu].triangles_offset", ti);
                problem(c, f, "triangle %llu is already owned by tile %u (a tile must not reuse another tile's triangles)",
                        (unsigned long long)k, (unsigned)owner[k]);
                break;
            }
            owner[k] = (uint32_t)ti;
        }
    }
}

/* Path table empty or complete and consistent; at most 127 nodes. */
static void check_path_table(sctx *c, const relic_trn_aswm *w, size_t ti)
{
    const relic_trn_tile *t = &w->tiles[ti];
    char f[96];
    size_t n = t->node_to_local_count;
    if (n > MAX_NODES) {
        snprintf(f, sizeof f, "tiles[%zu].node_to_local", ti);
        problem(c, f, "%zu nodes; a 7-bit next step reaches at most %u", n, MAX_NODES);
    }
    if (t->local_to_node_count == 0) {
        if (n) {
            snprintf(f, sizeof f, "tiles[%zu].local_to_node", ti);
            problem(c, f, "empty, but the tile has %zu nodes", n);
        }
        return;
    }
    for (size_t k = 0; k < t->local_to_node_count && t->triangles_offset + k < w->triangles_count; k++) {
        uint8_t node = t->local_to_node[k];
        int walk = (w->triangles[t->triangles_offset + k].flags & WALKABLE) != 0;
        if (node == NO_NODE) {
            if (walk && w->islands_count) {
                snprintf(f, sizeof f, "tiles[%zu].local_to_node[%zu]", ti, k);
                problem(c, f, "walkable triangle %zu has no path node", (size_t)t->triangles_offset + k);
            }
        } else if (node < n && t->node_to_local[node] != k) {
            snprintf(f, sizeof f, "tiles[%zu].local_to_node[%zu]", ti, k);
            problem(c, f, "node %u maps back to local triangle %u", (unsigned)node, (unsigned)t->node_to_local[node]);
        }
    }
    for (size_t k = 0; k < n; k++) {
        uint32_t l = t->node_to_local[k];
        if (l >= t->triangles_count || (uint64_t)t->triangles_offset + l >= w->triangles_count) continue;
        if (!(w->triangles[t->triangles_offset + l].flags & WALKABLE)) {
            snprintf(f, sizeof f, "tiles[%zu].node_to_local[%zu]", ti, k);
            problem(c, f, "local triangle %u is not walkable", (unsigned)l);
        }
    }
}

/* linked_edges[i] joins exactly this triangle and linked_triangles[i]. */
static void check_links(sctx *c, const relic_trn_aswm *w)
{
    char f[96];
    for (size_t i = 0; i < w->triangles_count; i++) {
        const relic_trn_triangle *t = &w->triangles[i];
        for (int k = 0; k < 3; k++) {
            uint32_t e = t->linked_edges[k];
            if (e >= w->edges_count) continue;
            const relic_trn_edge *ed = &w->edges[e];
            uint32_t other = t->linked_triangles[k];
            int ok = (ed->triangles[0] == i && ed->triangles[1] == other) || (ed->triangles[1] == i && ed->triangles[0] == other);
            if (!ok) {
                snprintf(f, sizeof f, "triangles[%zu].linked_edges[%d]", i, k);
                problem(c, f, "edge %u joins triangles %d and %d, not %zu and %d", (unsigned)e, (int)ed->triangles[0],
                        (int)ed->triangles[1], i, (int)other);
            }
        }
    }
}

/* Exit triangles lie on their island, next to the adjacent island; no
 * island values without islands. */
static void check_islands(sctx *c, const relic_trn_aswm *w)
{
    char f[96];
    if (w->islands_count == 0) {
        /* A TRN (no path table anywhere) carries the toolset's island values
         * with an empty island list (nwn-lib-d, trn.d; NWN2DataLib, AreaSurfaceMesh.h); the rule is for baked files. */
        int baked = 0;
        for (size_t i = 0; i < w->tiles_count; i++) baked |= w->tiles[i].node_to_local_count != 0;
        if (!baked) return;
        for (size_t i = 0; i < w->triangles_count; i++)
            if (w->triangles[i].island != NONE16) {
                snprintf(f, sizeof f, "triangles[%zu].island", i);
                problem(c, f, "island %u, but the walkmesh has no islands", (unsigned)w->triangles[i].island);
            }
        return;
    }
    for (size_t i = 0; i < w->islands_count; i++) {
        const relic_trn_island *is = &w->islands[i];
        for (size_t k = 0; k < is->exit_triangles_count && k < is->adjacent_count; k++) {
            uint32_t ex = is->exit_triangles[k];
            if (ex >= w->triangles_count) continue;
            const relic_trn_triangle *t = &w->triangles[ex];
            snprintf(f, sizeof f, "islands[%zu].exit_triangles[%zu]", i, k);
            if (t->island != i) {
                problem(c, f, "triangle %u lies on island %u", (unsigned)ex, (unsigned)t->island);
                continue;
            }
            int found = 0;
            for (int j = 0; j < 3; j++) {
                uint32_t nb = t->linked_triangles[j];
                if (nb < w->triangles_count && w->triangles[nb].island == is->adjacent[k]) found = 1;
            }
            if (!found) problem(c, f, "triangle %u has no neighbour on adjacent island %u", (unsigned)ex, (unsigned)is->adjacent[k]);
        }
    }
}

unsigned relic_trn_check_aswm_strict(const relic_trn_aswm *w, const char *path, unsigned max_reports, relic_arena *scratch,
                                     relic_report_fn report, void *ctx)
{
    /* max_reports 0: count only */
    sctx c = {path, {max_reports ? report : NULL, ctx, 0, max_reports}};
    uint32_t *owner = relic_arena_array(scratch, w->triangles_count + 1, sizeof *owner, sizeof *owner);
    if (!owner) {
        relic_problem_at(&c.problems, RELIC_E_NOMEM, 0, c.path, "triangles",
                         "the scratch arena cannot hold the strict rules' owner map (%zu bytes)",
                         (w->triangles_count + 1) * sizeof *owner);
        return c.problems.count;
    }
    check_ownership(&c, w, owner);
    for (size_t ti = 0; ti < w->tiles_count; ti++) check_path_table(&c, w, ti);
    check_links(&c, w);
    check_islands(&c, w);
    return c.problems.count;
}
