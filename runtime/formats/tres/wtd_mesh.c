/* wtd_mesh.c — the WTD terrain as the game triangulates it at full detail
 * (Trespasser source, Lib/GeomDBase/WaveletQuadTreeBaseTri.cpp; WaveletQuadTreeBaseTri.cpp 197-303): the
 * leaves of the zerotree (nodes in the stream without children) are the
 * mesh's quads. A leaf with nothing on its edges but its corners is split
 * along its diagonal — corners 0-2 when the diagonal flag is clear
 * (triangles 0-1-2, 2-3-0), 1-3 when set (3-0-1, 1-2-3); a leaf next to a
 * finer neighbour has that neighbour's corners on its edge and becomes a fan
 * around its centre, so the mesh has no T-junctions. Corners on the leaves'
 * edges are found with two bitmaps of the (N+1)^2 vertex lattice (by rows
 * and by columns) scanned a word at a time; vertices get indices through a
 * hash table in order of first use. */
#include <stdio.h>
#include <stdlib.h>

#include "relic_wtd.h"

typedef struct leaf {
    uint32_t x, y, s;
} leaf;

typedef struct mesh_ctx {
    relic_buf leaves; /* leaf records */
} mesh_ctx;

static void collect_leaf(void *ctx, uint32_t x, uint32_t y, uint32_t size, int significant)
{
    mesh_ctx *c = ctx;
    if (significant) return;
    leaf l = {x, y, size};
    relic_buf_append(&c->leaves, &l, sizeof l);
}

/* A bitmap of lattice points, `words` 64-bit words per line. */
typedef struct bitmap {
    uint64_t *bits;
    size_t words;
} bitmap;

static inline void bm_set(bitmap *b, uint32_t line, uint32_t at)
{
    b->bits[(size_t)line * b->words + at / 64] |= (uint64_t)1 << (at % 64);
}

/* Append to list the set positions in [from, to) of a line, ascending. */
static uint32_t bm_scan(const bitmap *b, uint32_t line, uint32_t from, uint32_t to, uint32_t *list)
{
    const uint64_t *w = b->bits + (size_t)line * b->words;
    uint32_t k = 0;
    for (uint32_t at = from; at < to;) {
        uint64_t word = w[at / 64] >> (at % 64);
        if (!word) {
            at = (at / 64 + 1) * 64;
            continue;
        }
        at += (uint32_t)__builtin_ctzll(word);
        if (at >= to) break;
        list[k++] = at++;
    }
    return k;
}

typedef struct vertex_table {
    uint32_t *keys; /* key + 1, 0 = empty */
    uint32_t *index;
    size_t mask;
    relic_buf vertices; /* double[3] per vertex */
    uint32_t count;
    const relic_wtd_terrain *t;
} vertex_table;

static uint32_t vertex_of(vertex_table *vt, uint32_t x, uint32_t y)
{
    const uint32_t n = vt->t->n, key = y * (n + 1) + x;
    size_t i = ((uint64_t)key * 0x9E3779B97F4A7C15ull >> 20) & vt->mask;
    while (vt->keys[i]) {
        if (vt->keys[i] == key + 1) return vt->index[i];
        i = (i + 1) & vt->mask;
    }
    const relic_wtd_mapping *m = &vt->t->header.mapping;
    const uint32_t cx = x < n ? x : n - 1, cy = y < n ? y : n - 1;
    double v[3] = {(double)x * m->quad_to_world_x.scale + m->quad_to_world_x.offset,
                   (double)y * m->quad_to_world_y.scale + m->quad_to_world_y.offset,
                   relic_wtd_world_z(&vt->t->header, vt->t->heights[(size_t)cy * n + cx])};
    relic_buf_append(&vt->vertices, v, sizeof v);
    vt->keys[i] = key + 1;
    vt->index[i] = vt->count;
    return vt->count++;
}

static void add_triangle(relic_buf *tris, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t t[3] = {a, b, c};
    relic_buf_append(tris, t, sizeof t);
}

relic_status relic_wtd_mesh_build(const uint8_t *data, size_t size, const relic_wtd_terrain *t, relic_arena *a,
                                  relic_wtd_mesh *out, relic_error *err)
{
    memset(out, 0, sizeof *out);
    mesh_ctx c;
    relic_buf_init_arena(&c.leaves, a, 0); /* scratch in the caller's arena */
    relic_status st = relic_wtd_walk_tree(data, size, &t->header, NULL, NULL, collect_leaf, &c, err);
    if (st != RELIC_OK || c.leaves.failed) {
        relic_buf_free(&c.leaves);
        return st != RELIC_OK ? st : relic_fail(err, RELIC_E_NOMEM, 0, "tree", "no memory for the leaf list");
    }
    const leaf *leaves = (const leaf *)c.leaves.data;
    const size_t nleaves = c.leaves.size / sizeof(leaf);
    const uint32_t n = t->n, side = n + 1;
    bitmap rows = {NULL, (side + 63) / 64}, cols = {NULL, (side + 63) / 64};
    rows.bits = relic_arena_array(a, (size_t)side * rows.words, sizeof(uint64_t), 8);
    cols.bits = relic_arena_array(a, (size_t)side * cols.words, sizeof(uint64_t), 8);
    size_t slots = 16;
    while (slots < nleaves * 8 + 16) slots *= 2;
    vertex_table vt = {NULL, NULL, slots - 1, {0}, 0, t};
    vt.keys = relic_arena_array(a, slots, sizeof(uint32_t), 4);
    vt.index = relic_arena_array(a, slots, sizeof(uint32_t), 4);
    uint32_t *edge = relic_arena_array(a, (size_t)4 * n + 8, sizeof(uint32_t), 4);
    uint32_t *ring = relic_arena_array(a, (size_t)4 * n + 8, sizeof(uint32_t), 4);
    if (!rows.bits || !cols.bits || !vt.keys || !vt.index || !edge || !ring) {
        relic_buf_free(&c.leaves);
        return relic_fail(err, RELIC_E_NOMEM, 0, "mesh", "no memory for the vertex lattice of a %u x %u terrain", n, n);
    }
    for (size_t k = 0; k < nleaves; k++) {
        const uint32_t x = leaves[k].x, y = leaves[k].y, s = leaves[k].s;
        bm_set(&rows, y, x), bm_set(&rows, y, x + s), bm_set(&rows, y + s, x), bm_set(&rows, y + s, x + s);
        bm_set(&cols, x, y), bm_set(&cols, x + s, y), bm_set(&cols, x, y + s), bm_set(&cols, x + s, y + s);
    }
    relic_buf_init_arena(&vt.vertices, a, 0);
    relic_buf tris;
    relic_buf_init_arena(&tris, a, 0);
    for (size_t k = 0; k < nleaves; k++) {
        const uint32_t x = leaves[k].x, y = leaves[k].y, s = leaves[k].s;
        /* boundary counter-clockwise from corner 0: bottom, right, top, left edges */
        uint32_t r = 0, e;
        e = bm_scan(&rows, y, x, x + s, edge);
        for (uint32_t q = 0; q < e; q++) ring[r++] = vertex_of(&vt, edge[q], y);
        e = bm_scan(&cols, x + s, y, y + s, edge);
        for (uint32_t q = 0; q < e; q++) ring[r++] = vertex_of(&vt, x + s, edge[q]);
        e = bm_scan(&rows, y + s, x + 1, x + s + 1, edge);
        for (uint32_t q = e; q-- > 0;) ring[r++] = vertex_of(&vt, edge[q], y + s);
        e = bm_scan(&cols, x, y + 1, y + s + 1, edge);
        for (uint32_t q = e; q-- > 0;) ring[r++] = vertex_of(&vt, x, edge[q]);
        if (r == 4) {
            const int diag = s < n && (((x / s) + (y / s)) & 1);
            if (diag) {
                add_triangle(&tris, ring[3], ring[0], ring[1]);
                add_triangle(&tris, ring[1], ring[2], ring[3]);
            } else {
                add_triangle(&tris, ring[0], ring[1], ring[2]);
                add_triangle(&tris, ring[2], ring[3], ring[0]);
            }
        } else {
            const uint32_t centre = vertex_of(&vt, x + s / 2, y + s / 2);
            for (uint32_t q = 0; q < r; q++) add_triangle(&tris, centre, ring[q], ring[(q + 1) % r]);
        }
        if (vt.count > (uint32_t)INT32_MAX || tris.size / sizeof(uint32_t[3]) > (size_t)INT32_MAX) {
            st = relic_fail(err, RELIC_E_LIMIT, 0, "mesh", "the mesh has more than 2^31 vertices or triangles");
            break;
        }
    }
    relic_buf_free(&c.leaves);
    if (st == RELIC_OK && (vt.vertices.failed || tris.failed))
        st = relic_fail(err, RELIC_E_NOMEM, 0, "mesh", "no memory for the mesh");
    if (st == RELIC_OK) {
        out->vertices = relic_arena_alloc(a, vt.vertices.size ? vt.vertices.size : 1, 8);
        out->triangles = relic_arena_alloc(a, tris.size ? tris.size : 1, 4);
        if (!out->vertices || !out->triangles) {
            st = relic_fail(err, RELIC_E_NOMEM, 0, "mesh", "no memory for the mesh");
        } else {
            if (vt.vertices.size) memcpy(out->vertices, vt.vertices.data, vt.vertices.size);
            if (tris.size) memcpy(out->triangles, tris.data, tris.size);
            out->vertex_count = vt.count;
            out->triangle_count = (uint32_t)(tris.size / sizeof(uint32_t[3]));
        }
    }
    relic_buf_free(&vt.vertices);
    relic_buf_free(&tris);
    if (st != RELIC_OK) memset(out, 0, sizeof *out);
    return st;
}
