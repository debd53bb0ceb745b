/* bake_report.c — `make bake-report`: relic's ASWM bake against the NWN2
 * toolset's. For each corpus TRN that has a toolset TRX of the same name
 * (../shared/corpus/trn and trx), relic bakes the TRN and compares it with
 * the TRX: triangles kept, walkable triangles per tile, island count. The
 * meshes differ (a TRN has no placeable walkmeshes or walkmesh cutters, spec
 * §2.4), so the path tables are compared on the toolset's own mesh: relic
 * re-bakes the TRX (same triangles, same order) and, for every tile and
 * every (from, to) pair of walkable triangles the toolset connects, checks
 * whether relic's next step lies on a path as short as the toolset's route
 * (cost = summed centre-to-centre distances, nwn-lib-d, trn.d bake). Also: the share of
 * pairs where the toolset's own route is a shortest path, and the island
 * pairs each island table connects. Usage: bake_report [CORPUS_DIR]. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relic_trn.h"

#define NONE32 0xFFFFFFFFu
#define NONE16 0xFFFFu
#define MAX_FILES 256

typedef struct area {
    relic_mapping map;
    relic_arena arena;
    relic_trn_aswm w;
} area;

static int load(const char *path, area *ar)
{
    relic_error err;
    relic_trn_view v;
    relic_trn_file m;
    if (relic_map_file(path, 0, &ar->map, &err) != RELIC_OK) return -1;
    relic_arena_init_heap(&ar->arena, (size_t)2 << 30);
    if (relic_trn_validate(ar->map.bytes.data, ar->map.bytes.size, &v, &err) != RELIC_OK ||
        relic_trn_decode(&v, &ar->arena, &m, &err) != RELIC_OK)
        return -1;
    for (size_t i = 0; i < m.packets_count; i++)
        if (m.packets[i].type == RELIC_TRN_PACKET_TYPE_ASWM)
            return relic_trn_aswm_read(&m.packets[i], (uint64_t)1 << 30, &ar->arena, &ar->w, &err) == RELIC_OK ? 0 : -1;
    return -1;
}

static void unload(area *ar)
{
    relic_arena_release(&ar->arena);
    relic_unmap(&ar->map);
}

static double dist(const relic_trn_aswm *w, uint32_t a, uint32_t b)
{
    return hypot((double)w->triangles[a].center[0] - w->triangles[b].center[0],
                 (double)w->triangles[a].center[1] - w->triangles[b].center[1]);
}

/* All-pairs shortest in-tile costs between the n path nodes of tile t over
 * linked walkable triangles (Dijkstra from every node, O(n^3)); D[f*n+g]. */
static void all_pairs(const relic_trn_aswm *w, const relic_trn_tile *t, double *D, uint8_t *done)
{
    size_t n = t->node_to_local_count;
    uint32_t off = t->triangles_offset;
    for (size_t src = 0; src < n; src++) {
        double *d = D + src * n;
        for (size_t i = 0; i < n; i++) {
            d[i] = INFINITY;
            done[i] = 0;
        }
        d[src] = 0;
        for (;;) {
            size_t best = n;
            for (size_t i = 0; i < n; i++)
                if (!done[i] && isfinite(d[i]) && (best == n || d[i] < d[best])) best = i;
            if (best == n) break;
            done[best] = 1;
            uint32_t bl = off + t->node_to_local[best];
            for (int k = 0; k < 3; k++) {
                uint32_t g = w->triangles[bl].linked_triangles[k];
                if (g == NONE32 || g < off || g - off >= t->triangles_count || g - off >= t->local_to_node_count) continue;
                uint8_t gn = t->local_to_node[g - off];
                if (gn >= n || !(w->triangles[g].flags & 1)) continue;
                double c = d[best] + dist(w, bl, g);
                if (c < d[gn]) d[gn] = c;
            }
        }
    }
}

/* Cost of following tile t's table from local a to local b, or -1 when the
 * table does not lead there. */
static double follow(const relic_trn_aswm *w, const relic_trn_tile *t, uint32_t a, uint32_t b)
{
    size_t n = t->node_to_local_count;
    double c = 0;
    for (size_t steps = 0; a != b; steps++) {
        if (steps > n || a >= t->local_to_node_count || b >= t->local_to_node_count) return -1;
        uint8_t fa = t->local_to_node[a], fb = t->local_to_node[b];
        if (fa >= n || fb >= n) return -1;
        uint8_t e = t->nodes[(size_t)fa * n + fb];
        if (e == 0xFF || (e & 0x7F) >= n) return -1;
        uint32_t next = t->node_to_local[e & 0x7F];
        c += dist(w, t->triangles_offset + a, t->triangles_offset + next);
        a = next;
    }
    return c;
}

typedef struct path_stats {
    unsigned long pairs, relic_as_short, toolset_shortest, reach_differs;
    double min_tile_fraction;
    unsigned tiles, tiles_all;
} path_stats;

/* Compare relic's re-bake r of toolset walkmesh t, tile by tile. */
static void compare_paths(const relic_trn_aswm *t, const relic_trn_aswm *r, path_stats *ps)
{
    memset(ps, 0, sizeof *ps);
    ps->min_tile_fraction = 1.0;
    double *D = malloc(256 * 256 * sizeof *D);
    uint8_t done[256];
    for (size_t ti = 0; ti < t->tiles_count && ti < r->tiles_count; ti++) {
        const relic_trn_tile *tt = &t->tiles[ti], *rt = &r->tiles[ti];
        size_t n = tt->node_to_local_count, rn = rt->node_to_local_count;
        if (tt->triangles_offset != rt->triangles_offset || tt->triangles_count != rt->triangles_count || !n ||
            tt->local_to_node_count != tt->triangles_count)
            continue;
        all_pairs(t, tt, D, done);
        unsigned long pairs = 0, good = 0;
        for (size_t f = 0; f < n; f++) {
            uint32_t a = tt->node_to_local[f];
            for (size_t g = 0; g < n; g++) {
                if (g == f) continue;
                uint32_t b = tt->node_to_local[g];
                double ct = follow(t, tt, a, b);
                uint8_t ra = a < rt->local_to_node_count ? rt->local_to_node[a] : 0xFF;
                uint8_t rb = b < rt->local_to_node_count ? rt->local_to_node[b] : 0xFF;
                uint8_t e = (ra < rn && rb < rn) ? rt->nodes[(size_t)ra * rn + rb] : 0xFF;
                if ((ct >= 0) != (e != 0xFF)) ps->reach_differs++;
                if (ct < 0) continue;
                pairs++;
                if (ct <= D[f * n + g] * (1 + 1e-6) + 1e-6) ps->toolset_shortest++;
                if (e == 0xFF || (e & 0x7F) >= rn) continue;
                uint32_t step = rt->node_to_local[e & 0x7F];
                uint8_t sn = step < tt->local_to_node_count ? tt->local_to_node[step] : 0xFF;
                if (sn >= n) continue;
                double cr = dist(t, tt->triangles_offset + a, tt->triangles_offset + step) + D[sn * n + g];
                if (cr <= ct * (1 + 1e-6) + 1e-6) good++;
            }
        }
        if (!pairs) continue;
        ps->tiles++;
        ps->pairs += pairs;
        ps->relic_as_short += good;
        double fr = (double)good / (double)pairs;
        if (fr < ps->min_tile_fraction) ps->min_tile_fraction = fr;
        ps->tiles_all += good == pairs;
    }
    free(D);
}

static size_t walkable(const relic_trn_aswm *w, size_t ti)
{
    size_t n = 0;
    const relic_trn_tile *t = &w->tiles[ti];
    for (uint32_t i = 0; i < t->triangles_count && t->triangles_offset + i < w->triangles_count; i++)
        n += w->triangles[t->triangles_offset + i].flags & 1;
    return n;
}

static unsigned long reachable_pairs(const relic_trn_aswm *w)
{
    unsigned long n = 0;
    for (size_t i = 0; i < w->island_path_table_count; i++) n += w->island_path_table[i].next != NONE16;
    return n;
}

static void stem(const char *name, char *out, size_t cap)
{
    const char *dot = strrchr(name, '.');
    size_t n = dot ? (size_t)(dot - name) : strlen(name);
    if (n >= cap) n = cap - 1;
    for (size_t i = 0; i < n; i++) out[i] = (char)tolower((unsigned char)name[i]);
    out[n] = 0;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : "../shared/corpus";
    char dir_trn[512], dir_trx[512];
    snprintf(dir_trn, sizeof dir_trn, "%s/trn", root);
    snprintf(dir_trx, sizeof dir_trx, "%s/trx", root);
    DIR *d = opendir(dir_trn);
    if (!d) {
        printf("bake-report: %s not found; nothing to compare\n", dir_trn);
        return 0;
    }
    char *names[MAX_FILES];
    int nn = 0;
    struct dirent *e;
    while ((e = readdir(d)) && nn < MAX_FILES)
        if (e->d_name[0] != '.') names[nn++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)nn, sizeof *names, cmp);
    printf("columns: triangles, walkable triangles, tiles with equal walkable counts and islands are relic's bake of\n"
           "the TRN / the toolset's TRX; rebake: islands of relic's re-bake of the TRX; pairs: in-tile (from, to) pairs the\n"
           "toolset connects; as short: share of them where relic's next step starts a path as short as the toolset's\n"
           "route (min tile: the lowest share of a tile); tool opt: share where the toolset's route is a shortest path\n\n");
    printf("%-34s %13s %13s %9s %9s %9s %8s %8s %8s %9s\n", "area", "triangles", "walkable", "tiles=", "islands", "rebake",
           "pairs", "as short", "min tile", "tool opt");
    unsigned long all_pairs = 0, all_good = 0, all_topt = 0, all_reach = 0;
    unsigned areas = 0, tiles_eq = 0, tiles_total = 0, tiles_paths = 0, tiles_paths_all = 0, islands_rebake_eq = 0;
    DIR *dx = opendir(dir_trx);
    char *trx_names[MAX_FILES];
    int nx = 0;
    while (dx && (e = readdir(dx)) && nx < MAX_FILES)
        if (e->d_name[0] != '.') trx_names[nx++] = strdup(e->d_name);
    if (dx) closedir(dx);
    for (int i = 0; i < nn; i++) {
        char s1[300], s2[300], p1[1024], p2[1024];
        stem(names[i], s1, sizeof s1);
        int match = -1;
        for (int k = 0; k < nx; k++) {
            stem(trx_names[k], s2, sizeof s2);
            if (!strcmp(s1, s2)) match = k;
        }
        if (match < 0) continue;
        snprintf(p1, sizeof p1, "%s/%s", dir_trn, names[i]);
        snprintf(p2, sizeof p2, "%s/%s", dir_trx, trx_names[match]);
        area trn, trx;
        if (load(p1, &trn) || load(p2, &trx)) {
            printf("%s: cannot load\n", names[i]);
            continue;
        }
        relic_trn_aswm baked, rebaked;
        relic_error err;
        if (relic_trn_bake(&trn.w, NULL, &trn.arena, &baked, &err) != RELIC_OK ||
            relic_trn_bake(&trx.w, NULL, &trx.arena, &rebaked, &err) != RELIC_OK) {
            printf("%s: bake failed: %s: %s\n", names[i], err.path, err.message);
            continue;
        }
        unsigned eq = 0, total = 0;
        size_t wb = 0, wt = 0;
        for (size_t t = 0; t < baked.tiles_count && t < trx.w.tiles_count; t++) {
            size_t a = walkable(&baked, t), b = walkable(&trx.w, t);
            wb += a;
            wt += b;
            eq += a == b;
            total++;
        }
        path_stats ps;
        compare_paths(&trx.w, &rebaked, &ps);
        char label[40], tri[32], walk[32], isl[32], isl2[32];
        snprintf(label, sizeof label, "%.34s", names[i] + (strlen(names[i]) > 34 ? strlen(names[i]) - 34 : 0));
        snprintf(tri, sizeof tri, "%zu/%zu", baked.triangles_count, trx.w.triangles_count);
        snprintf(walk, sizeof walk, "%zu/%zu", wb, wt);
        snprintf(isl, sizeof isl, "%zu/%zu", baked.islands_count, trx.w.islands_count);
        snprintf(isl2, sizeof isl2, "%zu", rebaked.islands_count);
        double fr = ps.pairs ? (double)ps.relic_as_short / (double)ps.pairs : 1.0;
        double topt = ps.pairs ? (double)ps.toolset_shortest / (double)ps.pairs : 1.0;
        printf("%-34s %13s %13s %4u/%-4u %9s %9s %8lu %7.2f%% %7.2f%% %8.2f%%\n", label, tri, walk, eq, total, isl, isl2, ps.pairs,
               100 * fr, 100 * ps.min_tile_fraction, 100 * topt);
        if (reachable_pairs(&rebaked) != reachable_pairs(&trx.w))
            printf("    island pairs connected: relic re-bake %lu, toolset %lu\n", reachable_pairs(&rebaked), reachable_pairs(&trx.w));
        areas++;
        tiles_eq += eq;
        tiles_total += total;
        all_pairs += ps.pairs;
        all_good += ps.relic_as_short;
        all_topt += ps.toolset_shortest;
        all_reach += ps.reach_differs;
        tiles_paths += ps.tiles;
        tiles_paths_all += ps.tiles_all;
        islands_rebake_eq += rebaked.islands_count == trx.w.islands_count;
        unload(&trn);
        unload(&trx);
    }
    printf("\nsummary: %u areas; walkable count equal in %u of %u tiles; re-bake island count equal in %u of %u areas;\n"
           "  %lu in-tile pairs: relic's next step on a path as short as the toolset's in %.3f%%; tiles with every pair: %u of %u;\n"
           "  the toolset's own route is a shortest centre-distance path in %.3f%%; reachability differs in %lu pairs\n",
           areas, tiles_eq, tiles_total, islands_rebake_eq, areas, all_pairs, all_pairs ? 100.0 * (double)all_good / (double)all_pairs : 100.0,
           tiles_paths_all, tiles_paths, all_pairs ? 100.0 * (double)all_topt / (double)all_pairs : 100.0, all_reach);
    for (int i = 0; i < nn; i++) free(names[i]);
    for (int i = 0; i < nx; i++) free(trx_names[i]);
    return 0;
}
