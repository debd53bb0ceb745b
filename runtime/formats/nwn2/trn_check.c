/* trn_check.c — the rules between tables of NWN2 TRN/TRX files that the
 * schema cannot say: the packet directory against the packets
 * (nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp) and the ASWM walkmesh index, tile and island
 * rules (nwn-lib-d, trn.d, trn.d validate; NWN2DataLib, TrxFileReader.cpp; Charles, NWN2 TRN.ASWM packet structure, TRN.ASWM). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "relic_trn.h"

#define TRN_HEADER_BYTES 12u
#define TRN_DIR_ENTRY_BYTES 8u
#define TRN_PACKET_HEADER_BYTES 8u
#define TRN_NONE32 0xFFFFFFFFu
#define TRN_NONE16 0xFFFFu
#define TRN_NO_NODE 0xFFu

unsigned relic_trn_check_container(const relic_trn_view *v, relic_report_fn report, void *ctx)
{
    unsigned problems = 0;
    relic_error e;
    char path[64];
    uint64_t pos = TRN_HEADER_BYTES + (uint64_t)TRN_DIR_ENTRY_BYTES * v->directory_count;
    for (size_t i = 0; i < v->packets_count && i < v->directory_count; i++) {
        relic_trn_directory_entry_view d = relic_trn_directory_at(v, i);
        uint64_t dir_at = TRN_HEADER_BYTES + (uint64_t)TRN_DIR_ENTRY_BYTES * i;
        /* The validator has checked every packet lies inside the input and
         * that its size field equals the payload it read. */
        uint32_t type = relic_load_u32le(v->base + pos);
        uint32_t size = relic_load_u32le(v->base + pos + 4);
        if (relic_trn_directory_entry_type(d) != type) {
            snprintf(path, sizeof path, "directory[%zu].type", i);
            relic_fail(&e, RELIC_E_LAYOUT, dir_at, path, "directory type 0x%08X differs from packet %zu's 0x%08X",
                       (unsigned)relic_trn_directory_entry_type(d), i, (unsigned)type);
            report(ctx, &e);
            problems++;
        }
        if (relic_trn_directory_entry_offset(d) != pos) {
            snprintf(path, sizeof path, "directory[%zu].offset", i);
            relic_fail(&e, RELIC_E_LAYOUT, dir_at + 4, path, "offset 0x%X, but packet %zu lies at 0x%llX (packets are read back to back in directory order)",
                       (unsigned)relic_trn_directory_entry_offset(d), i, (unsigned long long)pos);
            report(ctx, &e);
            problems++;
        }
        pos += TRN_PACKET_HEADER_BYTES + (uint64_t)size;
    }
    if (pos < v->size) {
        relic_fail(&e, RELIC_E_LAYOUT, pos, "packets", "%llu bytes follow the last packet", (unsigned long long)(v->size - pos));
        report(ctx, &e);
        problems++;
    }
    return problems;
}

typedef struct aswm_ctx {
    const char *path;
    relic_problems problems;
} aswm_ctx;

/* Report one problem at field path prefix.field (the ASWM decoded model
 * has no byte offsets; 0 is reported). */
#define problem(c, field, ...) relic_problem_at(&(c)->problems, RELIC_E_INDEX, 0, (c)->path, field, __VA_ARGS__)

/* Where the vertex array starts in a decompressed version-0x6C walkmesh
 * (Charles, *NWN2 TRN.ASWM packet structure*: header, then vertices). */
#define ASWM_V6C_VERTICES_AT 53u
#define ASWM_V6C 0x6Cu

/* Every vertex coordinate finite: a NaN corner breaks every point-in-
 * triangle test of the path finder. Offsets are in the decompressed 0x6C
 * walkmesh (0 for an older layout, which has no such offset to give). */
static void check_vertices_finite(aswm_ctx *c, const relic_trn_aswm *w)
{
    char f[64];
    for (size_t i = 0; i < w->vertices_count; i++) {
        const float xyz[3] = {w->vertices[i].x, w->vertices[i].y, w->vertices[i].z};
        for (int k = 0; k < 3; k++) {
            if (isfinite(xyz[k])) continue;
            uint64_t at = w->version == ASWM_V6C ? ASWM_V6C_VERTICES_AT + 12ull * i + 4u * (unsigned)k : 0;
            snprintf(f, sizeof f, "vertices[%zu].%c", i, "xyz"[k]);
            relic_problem_at(&c->problems, RELIC_E_RANGE, at, c->path, f, "%s, not a finite number",
                             isnan(xyz[k]) ? "NaN" : xyz[k] > 0 ? "+infinity"
                                                                : "-infinity");
            break;
        }
    }
}

static void check_triangles(aswm_ctx *c, const relic_trn_aswm *w)
{
    char f[96];
    for (size_t i = 0; i < w->edges_count; i++) {
        const relic_trn_edge *e = &w->edges[i];
        for (int k = 0; k < 2; k++) {
            if (e->vertices[k] >= w->vertices_count) {
                snprintf(f, sizeof f, "edges[%zu].vertices[%d]", i, k);
                problem(c, f, "vertex %u out of range (%zu vertices)", (unsigned)e->vertices[k], w->vertices_count);
            }
            if (e->triangles[k] != TRN_NONE32 && e->triangles[k] >= w->triangles_count) {
                snprintf(f, sizeof f, "edges[%zu].triangles[%d]", i, k);
                problem(c, f, "triangle %u out of range (%zu triangles)", (unsigned)e->triangles[k], w->triangles_count);
            }
        }
    }
    for (size_t i = 0; i < w->triangles_count; i++) {
        const relic_trn_triangle *t = &w->triangles[i];
        for (int k = 0; k < 3; k++) {
            if (t->vertices[k] >= w->vertices_count) {
                snprintf(f, sizeof f, "triangles[%zu].vertices[%d]", i, k);
                problem(c, f, "vertex %u out of range (%zu vertices)", (unsigned)t->vertices[k], w->vertices_count);
            }
            if (t->linked_edges[k] >= w->edges_count) {
                snprintf(f, sizeof f, "triangles[%zu].linked_edges[%d]", i, k);
                problem(c, f, "edge %u out of range (%zu edges)", (unsigned)t->linked_edges[k], w->edges_count);
            }
            if (t->linked_triangles[k] != TRN_NONE32 && t->linked_triangles[k] >= w->triangles_count) {
                snprintf(f, sizeof f, "triangles[%zu].linked_triangles[%d]", i, k);
                problem(c, f, "triangle %u out of range (%zu triangles)", (unsigned)t->linked_triangles[k], w->triangles_count);
            }
        }
        /* A TRN carries island values with an empty island list (nwn-lib-d, trn.d; NWN2DataLib, AreaSurfaceMesh.h):
         * the range applies only when islands exist. */
        if (w->islands_count > 0 && t->island != TRN_NONE16 && t->island >= w->islands_count) {
            snprintf(f, sizeof f, "triangles[%zu].island", i);
            problem(c, f, "island %u out of range (%zu islands)", (unsigned)t->island, w->islands_count);
        }
    }
}

static void check_tile(aswm_ctx *c, const relic_trn_aswm *w, size_t i, uint64_t *next_offset)
{
    const relic_trn_tile *t = &w->tiles[i];
    char f[96];
    if (t->triangles_offset != *next_offset) {
        snprintf(f, sizeof f, "tiles[%zu].triangles_offset", i);
        problem(c, f, "%u, but the tiles before it end at triangle %llu (tiles must cover the triangles contiguously, in order)",
                (unsigned)t->triangles_offset, (unsigned long long)*next_offset);
    }
    uint64_t end = (uint64_t)t->triangles_offset + t->triangles_count;
    if (end > w->triangles_count) {
        snprintf(f, sizeof f, "tiles[%zu].triangles_count", i);
        problem(c, f, "triangles %u..%llu run past the %zu triangles", (unsigned)t->triangles_offset,
                (unsigned long long)end, w->triangles_count);
    }
    *next_offset = (uint64_t)*next_offset + t->triangles_count;
    size_t nodes = t->node_to_local_count;
    if (t->local_to_node_count != 0 && t->local_to_node_count != t->triangles_count) {
        snprintf(f, sizeof f, "tiles[%zu].local_to_node", i);
        problem(c, f, "%zu entries; 0 or triangles_count (%u) expected", t->local_to_node_count, (unsigned)t->triangles_count);
    }
    if (t->nodes_count != nodes * nodes) {
        snprintf(f, sizeof f, "tiles[%zu].nodes", i);
        problem(c, f, "%zu entries; node count squared (%zu) expected", t->nodes_count, nodes * nodes);
    }
    for (size_t k = 0; k < t->nodes_count; k++) {
        uint8_t n = t->nodes[k];
        if (n != TRN_NO_NODE && (size_t)(n & 0x7F) >= nodes) {
            snprintf(f, sizeof f, "tiles[%zu].nodes[%zu]", i, k);
            problem(c, f, "next step %u out of range (%zu nodes)", (unsigned)(n & 0x7F), nodes);
        }
    }
    for (size_t k = 0; k < t->local_to_node_count; k++) {
        uint8_t n = t->local_to_node[k];
        if (n != TRN_NO_NODE && n >= nodes) {
            snprintf(f, sizeof f, "tiles[%zu].local_to_node[%zu]", i, k);
            problem(c, f, "node %u out of range (%zu nodes)", (unsigned)n, nodes);
        }
    }
    for (size_t k = 0; k < nodes; k++) {
        if (t->node_to_local[k] >= t->triangles_count) {
            snprintf(f, sizeof f, "tiles[%zu].node_to_local[%zu]", i, k);
            problem(c, f, "local triangle %u out of range (%u in the tile)", (unsigned)t->node_to_local[k], (unsigned)t->triangles_count);
        }
    }
}

static void check_islands(aswm_ctx *c, const relic_trn_aswm *w)
{
    char f[96];
    size_t n = w->islands_count;
    for (size_t i = 0; i < n; i++) {
        const relic_trn_island *is = &w->islands[i];
        if (is->index != i) {
            snprintf(f, sizeof f, "islands[%zu].index", i);
            problem(c, f, "%u differs from the island's position", (unsigned)is->index);
        }
        for (size_t k = 0; k < is->adjacent_count; k++)
            if (is->adjacent[k] != TRN_NONE16 && is->adjacent[k] >= n) {
                snprintf(f, sizeof f, "islands[%zu].adjacent[%zu]", i, k);
                problem(c, f, "island %u out of range (%zu islands)", (unsigned)is->adjacent[k], n);
            }
        for (size_t k = 0; k < is->exit_triangles_count; k++)
            if (is->exit_triangles[k] >= w->triangles_count) {
                snprintf(f, sizeof f, "islands[%zu].exit_triangles[%zu]", i, k);
                problem(c, f, "triangle %u out of range (%zu triangles)", (unsigned)is->exit_triangles[k], w->triangles_count);
            }
    }
    for (size_t k = 0; k < w->island_path_table_count; k++) {
        uint16_t next = w->island_path_table[k].next;
        if (next != TRN_NONE16 && next >= n) {
            snprintf(f, sizeof f, "island_path_table[%zu].next", k);
            problem(c, f, "island %u out of range (%zu islands)", (unsigned)next, n);
        }
    }
}

unsigned relic_trn_check_aswm(const relic_trn_aswm *w, const char *path, unsigned max_reports,
                              relic_report_fn report, void *ctx)
{
    /* max_reports 0: count only */
    aswm_ctx c = {path, {max_reports ? report : NULL, ctx, 0, max_reports}};
    check_vertices_finite(&c, w);
    check_triangles(&c, w);
    if ((uint64_t)w->grid_width * w->grid_height != w->tiles_count)
        problem(&c, "tiles", "%zu tiles for a %u x %u grid", w->tiles_count, (unsigned)w->grid_width, (unsigned)w->grid_height);
    if (!(w->tiles_width > 0.0f) || !isfinite(w->tiles_width))
        problem(&c, "tiles_width", "%g is not a positive finite number", (double)w->tiles_width);
    uint64_t next_offset = 0;
    for (size_t i = 0; i < w->tiles_count; i++) check_tile(&c, w, i, &next_offset);
    if (next_offset != w->triangles_count)
        problem(&c, "tiles", "the tiles claim %llu triangles of %zu", (unsigned long long)next_offset, w->triangles_count);
    check_islands(&c, w);
    return c.problems.count;
}

/* NWN2 packet file (Charles, *NWN2 TRN.ASWM packet structure*; xoreos):
 * "NWN2" then version words 2 and 3; an MDB model shares the magic with
 * other version words, so the magic alone does not say TRN. */
int relic_trn_detect(const uint8_t *data, size_t size)
{
    return size >= RELIC_TRN_HEADER_SIZE &&
        memcmp(data, RELIC_TRN_HEADER_MAGIC_VALUE, RELIC_TRN_HEADER_MAGIC_LEN) == 0 &&
        relic_load_u16le(data + RELIC_TRN_HEADER_VERSION_MAJOR_POS) == RELIC_TRN_VERSION_MAJOR &&
        relic_load_u16le(data + RELIC_TRN_HEADER_VERSION_MINOR_POS) == RELIC_TRN_VERSION_MINOR;
}
