/* trn_aswm_legacy.c — read the older decompressed ASWM walkmesh versions
 * 0x69, 0x6A and 0x6B (official campaign files; nwn-lib-d reads them and
 * upgrades them on load) into the version-0x6C model. What differs, per
 * nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp "Older versions" and "Tile record":
 *   - v0x69 edge: 52 bytes, the 16-byte edge then 9 reserved u32;
 *   - v0x6A triangle: 68 bytes, a reserved u32 then the 64-byte triangle;
 *   - v0x69 triangle: 88 bytes (reserved u32, u32 flags, vertices[3],
 *     linked_edges[3], linked_triangles[3], 3 reserved u32, centre f32[2],
 *     reserved u32, normal f32[3], d, reserved u16, island u16);
 *   - path-table header: 10 bytes (u32 flags, u8 local_to_node length,
 *     u8 node_to_local length, u32 rle size) instead of 13;
 *   - node_to_local: u8 entries in v0x6B, absent in v0x69/0x6A.
 * Everything else (53-byte header, 57-byte tile header, islands, island
 * path table) is read as in version 0x6C: the spec names no difference.
 * Departures, each a choice the spec leaves open: a v0x69/0x6A tile's
 * node_to_local is rebuilt as the inverse of its local_to_node (rejected
 * when local_to_node does not name every node exactly once); a tile that
 * owns its vertices and edges is refused (RELIC_E_UNSUPPORTED: the readers
 * disagree on what follows, and the size of an old edge there is not
 * stated); the reserved fields are dropped. */
#include <string.h>

#include "relic_trn.h"

typedef struct cur {
    const uint8_t *d;
    size_t size, pos;
    relic_error *err;
    relic_arena *a;
} cur;

static relic_status need(cur *c, uint64_t n, const char *path)
{
    if (n > c->size - c->pos)
        return relic_fail(c->err, RELIC_E_TRUNCATED, c->pos, path, "%llu bytes needed, %llu remain", (unsigned long long)n,
                          (unsigned long long)(c->size - c->pos));
    return RELIC_OK;
}

static uint8_t u8(cur *c) { return c->d[c->pos++]; }
static uint16_t u16(cur *c)
{
    uint16_t v = relic_load_u16le(c->d + c->pos);
    c->pos += 2;
    return v;
}
static uint32_t u32(cur *c)
{
    uint32_t v = relic_load_u32le(c->d + c->pos);
    c->pos += 4;
    return v;
}
static float f32(cur *c)
{
    float v = relic_load_f32le(c->d + c->pos);
    c->pos += 4;
    return v;
}

/* n elements of elem bytes must fit in what remains; allocate n items of
 * item bytes (at least one byte, so empty arrays are non-NULL). */
static void *array(cur *c, uint64_t n, uint64_t elem, size_t item, size_t align, const char *path, relic_status *st)
{
    if (elem && n > (c->size - c->pos) / elem) {
        *st = relic_fail(c->err, RELIC_E_TRUNCATED, c->pos, path, "%llu elements of %llu bytes do not fit in the %llu bytes left",
                         (unsigned long long)n, (unsigned long long)elem, (unsigned long long)(c->size - c->pos));
        return NULL;
    }
    void *p = relic_arena_alloc(c->a, (size_t)n * item + 1, align);
    if (!p) *st = relic_fail(c->err, RELIC_E_NOMEM, c->pos, path, "no memory for %llu elements", (unsigned long long)n);
    else *st = RELIC_OK;
    return p;
}

static relic_status triangle(cur *c, uint32_t version, relic_trn_triangle *t)
{
    memset(t, 0, sizeof *t);
    if (version == 0x69) {
        c->pos += 4;
        t->flags = (uint16_t)u32(c); /* truncated to u16, as nwn-lib-d does */
        for (int k = 0; k < 3; k++) t->vertices[k] = u32(c);
        for (int k = 0; k < 3; k++) t->linked_edges[k] = u32(c);
        for (int k = 0; k < 3; k++) t->linked_triangles[k] = u32(c);
        c->pos += 12;
        t->center[0] = f32(c);
        t->center[1] = f32(c);
        c->pos += 4;
        for (int k = 0; k < 3; k++) t->normal[k] = f32(c);
        t->d = f32(c);
        c->pos += 2;
        t->island = u16(c);
        return RELIC_OK;
    }
    if (version == 0x6A) c->pos += 4;
    for (int k = 0; k < 3; k++) t->vertices[k] = u32(c);
    for (int k = 0; k < 3; k++) t->linked_edges[k] = u32(c);
    for (int k = 0; k < 3; k++) t->linked_triangles[k] = u32(c);
    t->center[0] = f32(c);
    t->center[1] = f32(c);
    for (int k = 0; k < 3; k++) t->normal[k] = f32(c);
    t->d = f32(c);
    t->island = u16(c);
    t->flags = u16(c);
    return RELIC_OK;
}

static relic_status tile(cur *c, uint32_t version, size_t index, relic_trn_tile *t)
{
    char path[96];
    relic_status st;
    memset(t, 0, sizeof *t);
    snprintf(path, sizeof path, "tiles[%zu]", index);
    if ((st = need(c, 57 + 10, path)) != RELIC_OK) return st;
    memcpy(t->name, c->d + c->pos, 32);
    c->pos += 32;
    t->owns_data = u8(c);
    t->vertices_count = u32(c);
    t->edges_count = u32(c);
    t->triangles_count = u32(c);
    t->size_x = f32(c);
    t->size_y = f32(c);
    t->triangles_offset = u32(c);
    if (t->owns_data != 0) {
        snprintf(path, sizeof path, "tiles[%zu].owns_data", index);
        return relic_fail(c->err, RELIC_E_UNSUPPORTED, c->pos - 25, path,
                          "a tile owning its vertices and edges is not read in ASWM version 0x%X (layout not known for sure)",
                          (unsigned)version);
    }
    t->path_flags = u32(c);
    if (t->path_flags & 3) {
        snprintf(path, sizeof path, "tiles[%zu].path_flags", index);
        return relic_fail(c->err, RELIC_E_RANGE, c->pos - 4, path, "compressed path tables (flags %u) are not read",
                          (unsigned)t->path_flags);
    }
    uint8_t ltn = u8(c), ntl = u8(c);
    t->rle_table_size = u32(c);
    snprintf(path, sizeof path, "tiles[%zu].local_to_node", index);
    if (!(t->local_to_node = array(c, ltn, 1, 1, 1, path, &st))) return st;
    memcpy(t->local_to_node, c->d + c->pos, ltn);
    c->pos += ltn;
    t->local_to_node_length = ltn;
    t->local_to_node_count = ltn;
    snprintf(path, sizeof path, "tiles[%zu].node_to_local", index);
    if (!(t->node_to_local = array(c, ntl, version == 0x6B ? 1 : 0, 4, 4, path, &st))) return st;
    t->node_to_local_length = ntl;
    t->node_to_local_count = ntl;
    if (version == 0x6B) {
        for (unsigned k = 0; k < ntl; k++) t->node_to_local[k] = u8(c);
    } else { /* absent: the inverse of local_to_node */
        uint64_t start = c->pos;
        for (unsigned k = 0; k < ntl; k++) t->node_to_local[k] = 0xFFFFFFFFu;
        for (unsigned i = 0; i < ltn; i++) {
            uint8_t node = t->local_to_node[i];
            if (node == 0xFF) continue;
            if (node >= ntl || t->node_to_local[node] != 0xFFFFFFFFu)
                return relic_fail(c->err, RELIC_E_LAYOUT, start, path,
                                  "local_to_node[%u] = %u: node_to_local cannot be rebuilt (out of range or named twice)", i,
                                  (unsigned)node);
            t->node_to_local[node] = i;
        }
        for (unsigned k = 0; k < ntl; k++)
            if (t->node_to_local[k] == 0xFFFFFFFFu)
                return relic_fail(c->err, RELIC_E_LAYOUT, start, path, "node %u has no local triangle: node_to_local cannot be rebuilt", k);
    }
    snprintf(path, sizeof path, "tiles[%zu].nodes", index);
    uint64_t nn = (uint64_t)ntl * ntl;
    if (!(t->nodes = array(c, nn, 1, 1, 1, path, &st))) return st;
    memcpy(t->nodes, c->d + c->pos, (size_t)nn);
    c->pos += (size_t)nn;
    t->nodes_count = (size_t)nn;
    snprintf(path, sizeof path, "tiles[%zu].tile_flags", index);
    if ((st = need(c, 4, path)) != RELIC_OK) return st;
    t->tile_flags = u32(c);
    return RELIC_OK;
}

static relic_status island(cur *c, size_t index, relic_trn_island *is)
{
    char path[96];
    relic_status st;
    memset(is, 0, sizeof *is);
    snprintf(path, sizeof path, "islands[%zu]", index);
    if ((st = need(c, 28, path)) != RELIC_OK) return st;
    is->index = u32(c);
    is->tile = u32(c);
    for (int k = 0; k < 3; k++) is->center[k] = f32(c);
    is->triangle_count = u32(c);
    is->adjacent_length = u32(c);
    snprintf(path, sizeof path, "islands[%zu].adjacent", index);
    if (!(is->adjacent = array(c, is->adjacent_length, 4, 4, 4, path, &st))) return st;
    for (uint32_t k = 0; k < is->adjacent_length; k++) is->adjacent[k] = u32(c);
    is->adjacent_count = is->adjacent_length;
    snprintf(path, sizeof path, "islands[%zu].distances_length", index);
    if ((st = need(c, 4, path)) != RELIC_OK) return st;
    is->distances_length = u32(c);
    snprintf(path, sizeof path, "islands[%zu].distances", index);
    if (!(is->distances = array(c, is->distances_length, 4, 4, 4, path, &st))) return st;
    for (uint32_t k = 0; k < is->distances_length; k++) is->distances[k] = f32(c);
    is->distances_count = is->distances_length;
    snprintf(path, sizeof path, "islands[%zu].exits_length", index);
    if ((st = need(c, 4, path)) != RELIC_OK) return st;
    is->exits_length = u32(c);
    snprintf(path, sizeof path, "islands[%zu].exit_triangles", index);
    if (!(is->exit_triangles = array(c, is->exits_length, 4, 4, 4, path, &st))) return st;
    for (uint32_t k = 0; k < is->exits_length; k++) is->exit_triangles[k] = u32(c);
    is->exit_triangles_count = is->exits_length;
    if (is->adjacent_length != is->distances_length || is->adjacent_length != is->exits_length) {
        snprintf(path, sizeof path, "islands[%zu]", index);
        return relic_fail(c->err, RELIC_E_RANGE, c->pos, path, "the three island lists differ in length");
    }
    return RELIC_OK;
}

relic_status relic_trn_aswm_legacy_decode(const uint8_t *data, size_t size, relic_arena *a, relic_trn_aswm *out, relic_error *err)
{
    relic_error scratch;
    if (!err) err = &scratch;
    cur c = {data, size, 0, err, a};
    relic_status st;
    memset(out, 0, sizeof *out);
    if ((st = need(&c, 53, "version")) != RELIC_OK) return st;
    uint32_t version = u32(&c);
    if (version < 0x69 || version > 0x6B)
        return relic_fail(err, RELIC_E_UNSUPPORTED, 0, "version", "ASWM version 0x%X is not one of the older versions 0x69-0x6B",
                          (unsigned)version);
    out->version = version;
    memcpy(out->name, data + c.pos, 32);
    c.pos += 32;
    out->owns_data = u8(&c);
    if (out->owns_data != 1) return relic_fail(err, RELIC_E_MAGIC, 36, "owns_data", "owns_data is %u, not 1", (unsigned)out->owns_data);
    out->vertex_count = u32(&c);
    out->edge_count = u32(&c);
    out->triangle_count = u32(&c);
    out->unknown_b = u32(&c);
    if (!(out->vertices = array(&c, out->vertex_count, 12, sizeof *out->vertices, _Alignof(relic_trn_vec3f), "vertices", &st))) return st;
    for (size_t i = 0; i < out->vertex_count; i++) {
        out->vertices[i].x = f32(&c);
        out->vertices[i].y = f32(&c);
        out->vertices[i].z = f32(&c);
    }
    out->vertices_count = out->vertex_count;
    uint64_t edge_size = version == 0x69 ? 52 : 16;
    if (!(out->edges = array(&c, out->edge_count, edge_size, sizeof *out->edges, _Alignof(relic_trn_edge), "edges", &st))) return st;
    for (size_t i = 0; i < out->edge_count; i++) {
        for (int k = 0; k < 2; k++) out->edges[i].vertices[k] = u32(&c);
        for (int k = 0; k < 2; k++) out->edges[i].triangles[k] = u32(&c);
        c.pos += (size_t)edge_size - 16; /* v0x69: 9 reserved u32 */
    }
    out->edges_count = out->edge_count;
    uint64_t tri_size = version == 0x69 ? 88 : version == 0x6A ? 68
                                                               : 64;
    if (!(out->triangles = array(&c, out->triangle_count, tri_size, sizeof *out->triangles, _Alignof(relic_trn_triangle), "triangles", &st)))
        return st;
    for (size_t i = 0; i < out->triangle_count; i++) triangle(&c, version, &out->triangles[i]);
    out->triangles_count = out->triangle_count;
    if ((st = need(&c, 16, "tiles_flags")) != RELIC_OK) return st;
    out->tiles_flags = u32(&c);
    out->tiles_width = f32(&c);
    out->grid_height = u32(&c);
    out->grid_width = u32(&c);
    /* each tile holds at least 57 + 10 + 4 bytes */
    uint64_t tiles = (uint64_t)out->grid_height * out->grid_width;
    if (!(out->tiles = array(&c, tiles, 71, sizeof *out->tiles, _Alignof(relic_trn_tile), "tiles", &st))) return st;
    for (size_t i = 0; i < tiles; i++)
        if ((st = tile(&c, version, i, &out->tiles[i])) != RELIC_OK) return st;
    out->tiles_count = (size_t)tiles;
    if ((st = need(&c, 8, "tiles_border_size")) != RELIC_OK) return st;
    out->tiles_border_size = u32(&c);
    out->island_count = u32(&c);
    if (!(out->islands = array(&c, out->island_count, 28 + 8, sizeof *out->islands, _Alignof(relic_trn_island), "islands", &st))) return st;
    for (size_t i = 0; i < out->island_count; i++)
        if ((st = island(&c, i, &out->islands[i])) != RELIC_OK) return st;
    out->islands_count = out->island_count;
    uint64_t pt = (uint64_t)out->island_count * out->island_count;
    if (!(out->island_path_table = array(&c, pt, 8, sizeof *out->island_path_table, _Alignof(relic_trn_island_path_node),
                                         "island_path_table", &st)))
        return st;
    for (size_t i = 0; i < pt; i++) {
        out->island_path_table[i].next = u16(&c);
        out->island_path_table[i].padding = u16(&c);
        out->island_path_table[i].weight = f32(&c);
    }
    out->island_path_table_count = (size_t)pt;
    if (c.pos != size)
        return relic_fail(err, RELIC_E_LAYOUT, c.pos, "island_path_table", "%llu bytes follow the island path table",
                          (unsigned long long)(size - c.pos));
    return RELIC_OK;
}
