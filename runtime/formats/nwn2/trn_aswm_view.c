/* trn_aswm_view.c — validate a decompressed ASWM walkmesh (version 0x6C) in
 * place and describe it as a zero-copy view: the layout of nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp (header, vertices, edges, triangles, tile grid, variable-size tiles
 * with their path tables, border, islands, island path table, nothing
 * after) and every rule of relic_trn_check_aswm (nwn-lib-d, trn.d validate), in one pass over
 * the bytes, reporting the first problem with its byte offset. The
 * generator gives codec targets a decoder into the model only; this is the
 * validate-once, read-in-place form for readers that only look (Charles, NWN2 TRN.ASWM packet structure
 * TRN.ASWM). The model decoder (relic_trn_packet_aswm_decode) and this
 * view accept the same walkmeshes (tests/test_trn_bake.c checks it). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "relic_trn.h"

#define NONE32 0xFFFFFFFFu
#define NONE16 0xFFFFu

typedef struct vc {
    const uint8_t *p;
    uint64_t n;
    relic_error *err;
} vc;

static relic_status need(vc *c, uint64_t at, uint64_t len, const char *path)
{
    if (at > c->n || len > c->n - at)
        return relic_fail(c->err, RELIC_E_TRUNCATED, at, path, "%llu bytes needed, %llu left", (unsigned long long)len,
                          (unsigned long long)(at > c->n ? 0 : c->n - at));
    return RELIC_OK;
}

static int fits(const vc *c, uint64_t at, uint64_t len) { return at <= c->n && len <= c->n - at; }

static uint32_t u32(const vc *c, uint64_t at) { return relic_load_u32le(c->p + at); }

/* Structure: where every block lies. */
static relic_status walk(vc *c, relic_arena *a, relic_trn_aswm_view *v)
{
    char path[64];
    relic_status st;
    if ((st = need(c, 0, 53, "version")) != RELIC_OK) return st;
    v->version = u32(c, 0);
    if (v->version != 0x6C)
        return relic_fail(c->err, RELIC_E_MAGIC, 0, "version", "expected 108, found %u (0x69-0x6B are not read)", (unsigned)v->version);
    if (c->p[36] != 1) return relic_fail(c->err, RELIC_E_MAGIC, 36, "owns_data", "expected 1, found %u", (unsigned)c->p[36]);
    v->vertex_count = u32(c, 37);
    v->edge_count = u32(c, 41);
    v->triangle_count = u32(c, 45);
    uint64_t at = 53;
    v->vertices = at;
    at += 12ull * v->vertex_count;
    v->edges = at;
    at += 16ull * v->edge_count;
    v->triangles = at;
    at += 64ull * v->triangle_count;
    if ((st = need(c, v->vertices, at - v->vertices + 16, "triangles")) != RELIC_OK) return st;
    v->tiles_flags = u32(c, at);
    v->tiles_width = relic_load_f32le(c->p + at + 4);
    v->grid_height = u32(c, at + 8);
    v->grid_width = u32(c, at + 12);
    at += 16;
    uint64_t ntiles = (uint64_t)v->grid_height * v->grid_width;
    if (ntiles > (c->n - at) / 74) /* a tile takes at least 74 bytes */
        return relic_fail(c->err, RELIC_E_TRUNCATED, at, "tiles", "%llu tiles cannot fit the %llu bytes left", (unsigned long long)ntiles,
                          (unsigned long long)(c->n - at));
    v->tiles_count = (size_t)ntiles;
    v->tile_at = relic_arena_array(a, v->tiles_count + 1, sizeof *v->tile_at, 8);
    if (!v->tile_at) return relic_fail(c->err, RELIC_E_NOMEM, at, "tiles", "out of memory for %zu tiles", v->tiles_count);
    for (size_t i = 0; i < v->tiles_count; i++) {
        v->tile_at[i] = at;
        if (!fits(c, at, 57)) return snprintf(path, sizeof path, "tiles[%zu]", i), need(c, at, 57, path);
        uint64_t t = at + 57;
        if (c->p[at + 32]) t += 12ull * u32(c, at + 33) + 16ull * u32(c, at + 37);
        if (!fits(c, t, 13)) return snprintf(path, sizeof path, "tiles[%zu]", i), need(c, t, 13, path);
        uint32_t flags = u32(c, t), ltn = u32(c, t + 4), ntl = c->p[t + 8];
        if (flags & 3) {
            snprintf(path, sizeof path, "tiles[%zu].path_flags", i);
            return relic_fail(c->err, RELIC_E_RANGE, t, path, "%u: compressed path tables are not read", (unsigned)flags);
        }
        t += 13 + (uint64_t)ltn + 4ull * ntl + (uint64_t)ntl * ntl + 4;
        if (!fits(c, at, t - at)) return snprintf(path, sizeof path, "tiles[%zu]", i), need(c, at, t - at, path);
        at = t;
    }
    if ((st = need(c, at, 8, "island_count")) != RELIC_OK) return st;
    v->tiles_border_size = u32(c, at);
    v->island_count = u32(c, at + 4);
    at += 8;
    if (v->island_count > (c->n - at) / 44) /* an island takes at least 36 bytes plus its table row */
        return relic_fail(c->err, RELIC_E_TRUNCATED, at, "islands", "%u islands cannot fit the %llu bytes left", (unsigned)v->island_count,
                          (unsigned long long)(c->n - at));
    v->island_at = relic_arena_array(a, (size_t)v->island_count + 1, sizeof *v->island_at, 8);
    if (!v->island_at) return relic_fail(c->err, RELIC_E_NOMEM, at, "islands", "out of memory for %u islands", (unsigned)v->island_count);
    for (uint32_t i = 0; i < v->island_count; i++) {
        v->island_at[i] = at;
        uint64_t t = at + 24;
        uint32_t len[3];
        for (int k = 0; k < 3; k++) {
            if (!fits(c, t, 4)) return snprintf(path, sizeof path, "islands[%u]", (unsigned)i), need(c, t, 4, path);
            len[k] = u32(c, t);
            t += 4 + 4ull * len[k];
        }
        if (!fits(c, at, t - at) || len[0] != len[1] || len[0] != len[2]) {
            snprintf(path, sizeof path, "islands[%u]", (unsigned)i);
            if (!fits(c, at, t - at)) return need(c, at, t - at, path);
            return relic_fail(c->err, RELIC_E_RANGE, at, path, "the three island lists differ in length (%u, %u, %u)", (unsigned)len[0],
                              (unsigned)len[1], (unsigned)len[2]);
        }
        at = t;
    }
    v->island_path_table = at;
    uint64_t table = 8ull * v->island_count * v->island_count;
    if ((st = need(c, at, table, "island_path_table")) != RELIC_OK) return st;
    at += table;
    if (at != c->n) return relic_fail(c->err, RELIC_E_LAYOUT, at, "", "%llu bytes follow the walkmesh", (unsigned long long)(c->n - at));
    return RELIC_OK;
}

/* First entry of p[0..n) that is neither none nor below limit, or n. */
static size_t first_bad_u32(const uint8_t *p, size_t n, size_t stride, uint32_t limit, int none_ok)
{
    uint32_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t x = relic_load_u32le(p + i * stride);
        bad |= (uint32_t)(x >= limit) & (uint32_t) !(none_ok && x == NONE32);
    }
    if (!bad) return n;
    for (size_t i = 0; i < n; i++) {
        uint32_t x = relic_load_u32le(p + i * stride);
        if (x >= limit && !(none_ok && x == NONE32)) return i;
    }
    return n;
}

/* Whether some byte of p[0..n) is neither 0xFF nor has (byte & 0x7F) below
 * limit (1..127): eight bytes at a time, each byte's sums kept inside it. */
static int bad_steps(const uint8_t *p, size_t n, unsigned limit)
{
    const uint64_t lo7 = 0x7F7F7F7F7F7F7F7Full, hi = 0x8080808080808080ull;
    const uint64_t bias = 0x0101010101010101ull * (uint64_t)(0x80u - limit);
    uint64_t bad = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x;
        memcpy(&x, p + i, 8);
        uint64_t ge = ((x & lo7) + bias) & hi; /* bit 7: (byte & 0x7F) >= limit */
        uint64_t t = ~x;
        uint64_t not_ff = (((t & lo7) + lo7) | t) & hi; /* bit 7: byte != 0xFF */
        bad |= ge & not_ff;
    }
    for (; i < n; i++) bad |= (uint64_t)(p[i] != 0xFF && (p[i] & 0x7Fu) >= limit);
    return bad != 0;
}

/* An IEEE single is NaN or infinite exactly when its exponent bits are all set. */
#define F32_EXPONENT_MASK 0x7F800000u

static relic_status rules_mesh(vc *c, const relic_trn_aswm_view *v)
{
    char path[64];
    /* vertices: three finite coordinates each (a NaN corner breaks every
     * point-in-triangle test of the path finder) */
    for (uint32_t i = 0; i < v->vertex_count; i++)
        for (int k = 0; k < 3; k++) {
            uint64_t at = v->vertices + 12ull * i + 4u * (unsigned)k;
            uint32_t bits = u32(c, at);
            if ((bits & F32_EXPONENT_MASK) == F32_EXPONENT_MASK) {
                snprintf(path, sizeof path, "vertices[%u].%c", (unsigned)i, "xyz"[k]);
                return relic_fail(c->err, RELIC_E_RANGE, at, path, "%s, not a finite number",
                                  (bits & 0x007FFFFFu) ? "NaN" : (bits >> 31) ? "-infinity"
                                                                              : "+infinity");
            }
        }
    /* edges: vertices[2] in range, triangles[2] none or in range */
    for (int k = 0; k < 4; k++) {
        size_t i = first_bad_u32(c->p + v->edges + 4 * k, v->edge_count, 16, k < 2 ? v->vertex_count : v->triangle_count, k >= 2);
        if (i < v->edge_count) {
            snprintf(path, sizeof path, k < 2 ? "edges[%zu].vertices[%d]" : "edges[%zu].triangles[%d]", i, k % 2);
            return relic_fail(c->err, RELIC_E_INDEX, v->edges + 16 * i + 4 * k, path, "%u out of range (%u %s)",
                              (unsigned)u32(c, v->edges + 16 * i + 4 * k), (unsigned)(k < 2 ? v->vertex_count : v->triangle_count),
                              k < 2 ? "vertices" : "triangles");
        }
    }
    static const char *const names[3] = {"vertices", "linked_edges", "linked_triangles"};
    uint32_t bad = 0;
    const uint8_t *tp = c->p + v->triangles;
    for (uint32_t i = 0; i < v->triangle_count; i++, tp += 64) {
        for (int k = 0; k < 3; k++) {
            uint32_t vx = relic_load_u32le(tp + 4 * k), ed = relic_load_u32le(tp + 12 + 4 * k), tr = relic_load_u32le(tp + 24 + 4 * k);
            bad |= (uint32_t)(vx >= v->vertex_count) | (uint32_t)(ed >= v->edge_count) |
                ((uint32_t)(tr >= v->triangle_count) & (uint32_t)(tr != NONE32));
        }
    }
    for (int k = 0; bad && k < 9; k++) {
        uint32_t limit = k < 3 ? v->vertex_count : k < 6 ? v->edge_count
                                                         : v->triangle_count;
        size_t i = first_bad_u32(c->p + v->triangles + 4 * k, v->triangle_count, 64, limit, k >= 6);
        if (i < v->triangle_count) {
            snprintf(path, sizeof path, "triangles[%zu].%s[%d]", i, names[k / 3], k % 3);
            return relic_fail(c->err, RELIC_E_INDEX, v->triangles + 64 * i + 4 * k, path, "%u out of range (%u)",
                              (unsigned)u32(c, v->triangles + 64 * i + 4 * k), (unsigned)limit);
        }
    }
    if (v->island_count > 0)
        for (uint32_t i = 0; i < v->triangle_count; i++) {
            uint16_t is = relic_load_u16le(c->p + v->triangles + 64ull * i + 60);
            if (is != NONE16 && is >= v->island_count) {
                snprintf(path, sizeof path, "triangles[%u].island", (unsigned)i);
                return relic_fail(c->err, RELIC_E_INDEX, v->triangles + 64ull * i + 60, path, "island %u out of range (%u islands)",
                                  (unsigned)is, (unsigned)v->island_count);
            }
        }
    return RELIC_OK;
}

static relic_status rules_tiles(vc *c, const relic_trn_aswm_view *v)
{
    char path[64];
    /* finite as well, as the model's rules want (trn_check.c): +infinity was accepted here only */
    if (!(v->tiles_width > 0.0f) || !isfinite(v->tiles_width))
        return relic_fail(c->err, RELIC_E_RANGE, v->triangles + 64ull * v->triangle_count + 4, "tiles_width",
                          "%g is not a positive finite number", (double)v->tiles_width);
    uint64_t next = 0;
    for (size_t i = 0; i < v->tiles_count; i++) {
        uint64_t at = v->tile_at[i];
        uint32_t count = u32(c, at + 41), offset = u32(c, at + 53);
        if (offset != next) {
            snprintf(path, sizeof path, "tiles[%zu].triangles_offset", i);
            return relic_fail(c->err, RELIC_E_LAYOUT, at + 53, path,
                              "%u, but the tiles before it end at triangle %llu (tiles must cover the triangles contiguously, in order)",
                              (unsigned)offset, (unsigned long long)next);
        }
        next += count;
        if (next > v->triangle_count) {
            snprintf(path, sizeof path, "tiles[%zu].triangles_count", i);
            return relic_fail(c->err, RELIC_E_LAYOUT, at + 41, path, "triangles %u..%llu run past the %u triangles", (unsigned)offset,
                              (unsigned long long)next, (unsigned)v->triangle_count);
        }
        uint64_t t = at + 57;
        if (c->p[at + 32]) t += 12ull * u32(c, at + 33) + 16ull * u32(c, at + 37);
        uint32_t ltn = u32(c, t + 4), ntl = c->p[t + 8];
        const uint8_t *ltn_p = c->p + t + 13, *ntl_p = ltn_p + ltn, *nodes = ntl_p + 4ull * ntl;
        if (ltn != 0 && ltn != count) {
            snprintf(path, sizeof path, "tiles[%zu].local_to_node", i);
            return relic_fail(c->err, RELIC_E_LAYOUT, t + 4, path, "%u entries; 0 or triangles_count (%u) expected", (unsigned)ltn,
                              (unsigned)count);
        }
        unsigned bad = 0;
        size_t nn = (size_t)ntl * ntl;
        if (ntl < 128) bad = (unsigned)bad_steps(nodes, nn, ntl);
        for (size_t k = 0; k < ltn; k++) bad |= (unsigned)(ltn_p[k] != 0xFF) & (unsigned)(ltn_p[k] >= ntl);
        if (bad || first_bad_u32(ntl_p, ntl, 4, count, 0) < ntl) {
            for (size_t k = 0; k < nn; k++)
                if (nodes[k] != 0xFF && (size_t)(nodes[k] & 0x7F) >= ntl) {
                    snprintf(path, sizeof path, "tiles[%zu].nodes[%zu]", i, k);
                    return relic_fail(c->err, RELIC_E_INDEX, (uint64_t)(nodes + k - c->p), path, "next step %u out of range (%u nodes)",
                                      (unsigned)(nodes[k] & 0x7F), (unsigned)ntl);
                }
            for (size_t k = 0; k < ltn; k++)
                if (ltn_p[k] != 0xFF && ltn_p[k] >= ntl) {
                    snprintf(path, sizeof path, "tiles[%zu].local_to_node[%zu]", i, k);
                    return relic_fail(c->err, RELIC_E_INDEX, (uint64_t)(ltn_p + k - c->p), path, "node %u out of range (%u nodes)",
                                      (unsigned)ltn_p[k], (unsigned)ntl);
                }
            size_t k = first_bad_u32(ntl_p, ntl, 4, count, 0);
            snprintf(path, sizeof path, "tiles[%zu].node_to_local[%zu]", i, k);
            return relic_fail(c->err, RELIC_E_INDEX, (uint64_t)(ntl_p + 4 * k - c->p), path, "local triangle %u out of range (%u in the tile)",
                              (unsigned)relic_load_u32le(ntl_p + 4 * k), (unsigned)count);
        }
    }
    if (next != v->triangle_count)
        return relic_fail(c->err, RELIC_E_LAYOUT, v->tiles_count ? v->tile_at[0] : 0, "tiles", "the tiles claim %llu triangles of %u",
                          (unsigned long long)next, (unsigned)v->triangle_count);
    return RELIC_OK;
}

static relic_status rules_islands(vc *c, const relic_trn_aswm_view *v)
{
    char path[64];
    uint32_t n = v->island_count;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t at = v->island_at[i];
        if (u32(c, at) != i) {
            snprintf(path, sizeof path, "islands[%u].index", (unsigned)i);
            return relic_fail(c->err, RELIC_E_INDEX, at, path, "%u differs from the island's position", (unsigned)u32(c, at));
        }
        uint32_t len = u32(c, at + 24);
        const uint8_t *adj = c->p + at + 28, *exits = adj + 8ull * len + 8;
        for (uint32_t k = 0; k < len; k++) {
            uint32_t x = relic_load_u32le(adj + 4 * k);
            if (x != NONE16 && x >= n) {
                snprintf(path, sizeof path, "islands[%u].adjacent[%u]", (unsigned)i, (unsigned)k);
                return relic_fail(c->err, RELIC_E_INDEX, (uint64_t)(adj + 4 * k - c->p), path, "island %u out of range (%u islands)",
                                  (unsigned)x, (unsigned)n);
            }
        }
        size_t k = first_bad_u32(exits, len, 4, v->triangle_count, 0);
        if (k < len) {
            snprintf(path, sizeof path, "islands[%u].exit_triangles[%zu]", (unsigned)i, k);
            return relic_fail(c->err, RELIC_E_INDEX, (uint64_t)(exits + 4 * k - c->p), path, "triangle %u out of range (%u triangles)",
                              (unsigned)relic_load_u32le(exits + 4 * k), (unsigned)v->triangle_count);
        }
    }
    uint64_t cells = (uint64_t)n * n;
    for (uint64_t k = 0; k < cells; k++) {
        uint16_t next = relic_load_u16le(c->p + v->island_path_table + 8 * k);
        if (next != NONE16 && next >= n) {
            snprintf(path, sizeof path, "island_path_table[%llu].next", (unsigned long long)k);
            return relic_fail(c->err, RELIC_E_INDEX, v->island_path_table + 8 * k, path, "island %u out of range (%u islands)",
                              (unsigned)next, (unsigned)n);
        }
    }
    return RELIC_OK;
}

relic_status relic_trn_aswm_view_validate(const uint8_t *data, size_t size, relic_arena *a, relic_trn_aswm_view *v, relic_error *err)
{
    relic_error scratch;
    if (!err) err = &scratch;
    memset(v, 0, sizeof *v);
    v->base = data;
    v->size = size;
    vc c = {data, size, err};
    relic_status st = walk(&c, a, v);
    if (st == RELIC_OK) st = rules_mesh(&c, v);
    if (st == RELIC_OK) st = rules_tiles(&c, v);
    if (st == RELIC_OK) st = rules_islands(&c, v);
    return st;
}
