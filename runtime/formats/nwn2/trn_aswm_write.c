/* trn_aswm_write.c — serialise a decoded ASWM walkmesh model as the
 * decompressed version 0x6C payload and deflate it into an ASWM packet, so
 * that a real file re-serialises to the same compressed bytes (every corpus
 * TRN/TRX reproduces with zlib level 6 = Z_DEFAULT_COMPRESSION, windowBits
 * 15, memLevel 8, default strategy: the settings of nwn-lib-d's
 * std.zlib.compress). Layout: nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp; Charles, NWN2 TRN.ASWM packet structure, TRN.ASWM.
 * Hand-written because the generator emits no writer for codec targets. */
#include <stdio.h>
#include <string.h>

#include "relic_codec.h"
#include "relic_gen.h"
#include "relic_trn.h"

#define ASWM_HEADER_BYTES 53u
#define ASWM_TILE_HEADER_BYTES 57u
#define ASWM_PATH_HEADER_BYTES 13u

/* Byte size of the payload, or 0 with err set when the model's arrays
 * disagree with the counts the layout ties them to. */
static uint64_t aswm_size(const relic_trn_aswm *w, relic_error *err)
{
    uint64_t n = ASWM_HEADER_BYTES + 12ull * w->vertices_count + 16ull * w->edges_count + 64ull * w->triangles_count + 16;
    if ((uint64_t)w->grid_width * w->grid_height != w->tiles_count) {
        relic_fail(err, RELIC_E_ARGUMENT, 0, "tiles", "%zu tiles for a %u x %u grid", w->tiles_count,
                   (unsigned)w->grid_width, (unsigned)w->grid_height);
        return 0;
    }
    for (size_t i = 0; i < w->tiles_count; i++) {
        const relic_trn_tile *t = &w->tiles[i];
        char path[48];
        snprintf(path, sizeof path, "tiles[%zu]", i);
        if (t->node_to_local_count > 255) {
            relic_fail(err, RELIC_E_LIMIT, 0, path, "%zu path nodes do not fit the u8 node count", t->node_to_local_count);
            return 0;
        }
        if (t->nodes_count != t->node_to_local_count * t->node_to_local_count) {
            relic_fail(err, RELIC_E_ARGUMENT, 0, path, "%zu path table entries for %zu nodes", t->nodes_count, t->node_to_local_count);
            return 0;
        }
        if (t->owns_data && (t->own_vertices_count != t->vertices_count || t->own_edges_count != t->edges_count)) {
            relic_fail(err, RELIC_E_ARGUMENT, 0, path, "owns_data is set but its vertex/edge arrays differ from the counts");
            return 0;
        }
        n += ASWM_TILE_HEADER_BYTES + ASWM_PATH_HEADER_BYTES + 4;
        if (t->owns_data) n += 12ull * t->own_vertices_count + 16ull * t->own_edges_count;
        n += t->local_to_node_count + 4ull * t->node_to_local_count + t->nodes_count;
    }
    n += 8;
    for (size_t i = 0; i < w->islands_count; i++) {
        const relic_trn_island *is = &w->islands[i];
        if (is->distances_count != is->adjacent_count || is->exit_triangles_count != is->adjacent_count) {
            char path[48];
            snprintf(path, sizeof path, "islands[%zu]", i);
            relic_fail(err, RELIC_E_ARGUMENT, 0, path, "adjacent, distances and exit_triangles differ in length");
            return 0;
        }
        n += 24 + 12 + 12ull * is->adjacent_count;
    }
    if (w->island_path_table_count != (uint64_t)w->islands_count * w->islands_count) {
        relic_fail(err, RELIC_E_ARGUMENT, 0, "island_path_table", "%zu entries for %zu islands", w->island_path_table_count,
                   w->islands_count);
        return 0;
    }
    n += 8ull * w->island_path_table_count;
    if (w->islands_count > UINT32_MAX || n > UINT32_MAX) {
        relic_fail(err, RELIC_E_LIMIT, 0, "", "the walkmesh would take %llu bytes (more than a u32 size)", (unsigned long long)n);
        return 0;
    }
    return n;
}

typedef struct cursor {
    uint8_t *p;
} cursor;

static void put_u8(cursor *c, uint8_t v) { *c->p++ = v; }
static void put_u16(cursor *c, uint16_t v)
{
    relic_store_u16le(c->p, v);
    c->p += 2;
}
static void put_u32(cursor *c, uint32_t v)
{
    relic_store_u32le(c->p, v);
    c->p += 4;
}
static void put_f32(cursor *c, float v)
{
    relic_store_f32le(c->p, v);
    c->p += 4;
}
static void put_bytes(cursor *c, const void *src, size_t n)
{
    if (n) memcpy(c->p, src, n);
    c->p += n;
}

static void put_vertex(cursor *c, const relic_trn_vec3f *v)
{
    put_f32(c, v->x);
    put_f32(c, v->y);
    put_f32(c, v->z);
}

static void put_edge(cursor *c, const relic_trn_edge *e)
{
    put_u32(c, e->vertices[0]);
    put_u32(c, e->vertices[1]);
    put_u32(c, e->triangles[0]);
    put_u32(c, e->triangles[1]);
}

relic_status relic_trn_aswm_write(const relic_trn_aswm *w, relic_buf *out, relic_error *err)
{
    relic_error scratch;
    if (!err) err = &scratch;
    uint64_t n = aswm_size(w, err);
    if (n == 0) return err->code;
    uint8_t *start = relic_buf_extend(out, (size_t)n);
    if (!start) return relic_fail(err, RELIC_E_NOMEM, 0, "", "cannot grow the output by %llu bytes", (unsigned long long)n);
    cursor c = {start};
    put_u32(&c, 0x6C);
    put_bytes(&c, w->name, 32);
    put_u8(&c, 1);
    put_u32(&c, (uint32_t)w->vertices_count);
    put_u32(&c, (uint32_t)w->edges_count);
    put_u32(&c, (uint32_t)w->triangles_count);
    put_u32(&c, w->unknown_b);
    for (size_t i = 0; i < w->vertices_count; i++) put_vertex(&c, &w->vertices[i]);
    for (size_t i = 0; i < w->edges_count; i++) put_edge(&c, &w->edges[i]);
    for (size_t i = 0; i < w->triangles_count; i++) {
        const relic_trn_triangle *t = &w->triangles[i];
        for (int k = 0; k < 3; k++) put_u32(&c, t->vertices[k]);
        for (int k = 0; k < 3; k++) put_u32(&c, t->linked_edges[k]);
        for (int k = 0; k < 3; k++) put_u32(&c, t->linked_triangles[k]);
        put_f32(&c, t->center[0]);
        put_f32(&c, t->center[1]);
        for (int k = 0; k < 3; k++) put_f32(&c, t->normal[k]);
        put_f32(&c, t->d);
        put_u16(&c, t->island);
        put_u16(&c, t->flags);
    }
    put_u32(&c, w->tiles_flags);
    put_f32(&c, w->tiles_width);
    put_u32(&c, w->grid_height);
    put_u32(&c, w->grid_width);
    for (size_t i = 0; i < w->tiles_count; i++) {
        const relic_trn_tile *t = &w->tiles[i];
        put_bytes(&c, t->name, 32);
        put_u8(&c, t->owns_data);
        put_u32(&c, t->vertices_count);
        put_u32(&c, t->edges_count);
        put_u32(&c, t->triangles_count);
        put_f32(&c, t->size_x);
        put_f32(&c, t->size_y);
        put_u32(&c, t->triangles_offset);
        if (t->owns_data) {
            for (size_t k = 0; k < t->own_vertices_count; k++) put_vertex(&c, &t->own_vertices[k]);
            for (size_t k = 0; k < t->own_edges_count; k++) put_edge(&c, &t->own_edges[k]);
        }
        put_u32(&c, t->path_flags);
        put_u32(&c, (uint32_t)t->local_to_node_count);
        put_u8(&c, (uint8_t)t->node_to_local_count);
        put_u32(&c, t->rle_table_size);
        put_bytes(&c, t->local_to_node, t->local_to_node_count);
        for (size_t k = 0; k < t->node_to_local_count; k++) put_u32(&c, t->node_to_local[k]);
        put_bytes(&c, t->nodes, t->nodes_count);
        put_u32(&c, t->tile_flags);
    }
    put_u32(&c, w->tiles_border_size);
    put_u32(&c, (uint32_t)w->islands_count);
    for (size_t i = 0; i < w->islands_count; i++) {
        const relic_trn_island *is = &w->islands[i];
        put_u32(&c, is->index);
        put_u32(&c, is->tile);
        for (int k = 0; k < 3; k++) put_f32(&c, is->center[k]);
        put_u32(&c, is->triangle_count);
        put_u32(&c, (uint32_t)is->adjacent_count);
        for (size_t k = 0; k < is->adjacent_count; k++) put_u32(&c, is->adjacent[k]);
        put_u32(&c, (uint32_t)is->distances_count);
        for (size_t k = 0; k < is->distances_count; k++) put_f32(&c, is->distances[k]);
        put_u32(&c, (uint32_t)is->exit_triangles_count);
        for (size_t k = 0; k < is->exit_triangles_count; k++) put_u32(&c, is->exit_triangles[k]);
    }
    for (size_t i = 0; i < w->island_path_table_count; i++) {
        put_u16(&c, w->island_path_table[i].next);
        put_u16(&c, w->island_path_table[i].padding);
        put_f32(&c, w->island_path_table[i].weight);
    }
    if ((uint64_t)(c.p - start) != n)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "internal: wrote %zu of %llu walkmesh bytes", (size_t)(c.p - start),
                          (unsigned long long)n);
    return RELIC_OK;
}

relic_status relic_trn_aswm_pack(const relic_trn_aswm *w, int level, relic_arena *a, relic_trn_packet *p, relic_error *err)
{
    relic_error scratch;
    if (!err) err = &scratch;
    relic_buf raw, z;
    /* both in the caller's arena: the compressed bytes stay there as the packet's */
    relic_buf_init_arena(&raw, a, 0);
    relic_buf_init_arena(&z, a, 0);
    relic_status st = relic_trn_aswm_write(w, &raw, err);
    if (st == RELIC_OK && raw.failed) st = relic_fail(err, RELIC_E_NOMEM, 0, "", "cannot hold the walkmesh");
    if (st == RELIC_OK) st = relic_codec_zlib_encode(raw.data, raw.size, level, a, &z, err);
    if (st == RELIC_OK && z.failed) st = relic_fail(err, RELIC_E_NOMEM, 0, "", "cannot hold the compressed walkmesh");
    if (st == RELIC_OK && z.size > UINT32_MAX - 12) st = relic_fail(err, RELIC_E_LIMIT, 0, "", "the compressed walkmesh exceeds a u32 size");
    if (st == RELIC_OK) {
        uint8_t *bytes = z.data;
        {
            p->type = RELIC_TRN_PACKET_TYPE_ASWM;
            memcpy(p->comp_magic, "COMP", 4);
            p->aswm = bytes;
            p->aswm_count = z.size;
            p->compressed_size = (uint32_t)z.size;
            p->uncompressed_size = (uint32_t)raw.size;
            p->size = (uint32_t)(12 + z.size);
        }
    }
    return st;
}

relic_status relic_trn_aswm_read_bytes(const uint8_t *z, size_t z_size, uint64_t size, uint64_t limit, relic_arena *a,
                                       relic_trn_aswm *out, relic_error *err)
{
    relic_error scratch;
    if (!err) err = &scratch;
    memset(out, 0, sizeof *out);
    if (size > limit)
        return relic_fail(err, RELIC_E_LIMIT, 0, "uncompressed_size", "the walkmesh declares %llu bytes, over the limit of %llu",
                          (unsigned long long)size, (unsigned long long)limit);
    /* deflate's 1032:1 bound, checked before the buffer is taken */
    if (size > relic_codec_zlib_max_decoded(z_size))
        return relic_fail(err, RELIC_E_LAYOUT, 0, "aswm", "%zu compressed bytes cannot hold the declared %llu bytes",
                          z_size, (unsigned long long)size);
    /* inflated once, into one buffer, whatever version it turns out to be */
    uint8_t *raw = relic_arena_alloc(a, (size_t)size + 1, 16);
    if (!raw) return relic_fail(err, RELIC_E_NOMEM, 0, "aswm", "out of memory for %llu decoded bytes", (unsigned long long)size);
    relic_status st = relic_codec_zlib_decode(z, z_size, raw, (size_t)size, a, err);
    if (st != RELIC_OK) {
        relic_gen_path_prefix(err, "aswm", -1);
        return st;
    }
    uint32_t version = size >= 4 ? relic_load_u32le(raw) : 0;
    if (version >= 0x69 && version <= 0x6B) {
        st = relic_trn_aswm_legacy_decode(raw, (size_t)size, a, out, err);
        if (st != RELIC_OK) relic_gen_path_prefix(err, "aswm", -1);
        return st;
    }
    return relic_trn_packet_aswm_decode_bytes(raw, (size_t)size, a, out, err);
}

relic_status relic_trn_aswm_read(const relic_trn_packet *p, uint64_t limit, relic_arena *a, relic_trn_aswm *out, relic_error *err)
{
    return relic_trn_aswm_read_bytes(p->aswm, p->aswm_count, p->uncompressed_size, limit, a, out, err);
}
