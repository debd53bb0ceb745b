/* test_trn_legacy.c — the older ASWM walkmesh versions 0x69, 0x6A and
 * 0x6B (nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp "Older versions", "Tile record"): a small
 * version-0x6C walkmesh is written in each older layout by the test-only
 * writer below and read back (directly and through a zlib ASWM packet)
 * into the same model; other versions, unrebuildable node tables,
 * truncations and byte mutations are rejected without crashing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "relic_codec.h"
#include "relic_trn.h"

static relic_trn_vec3f verts[4] = {{0, 0, 0}, {10, 0, 0}, {0, 10, 1}, {10, 10, 1}};
static relic_trn_edge edges[5] = {
    {{0, 1}, {0, 0xFFFFFFFFu}},
    {{1, 2}, {0, 1}},
    {{2, 0}, {0, 0xFFFFFFFFu}},
    {{1, 3}, {1, 0xFFFFFFFFu}},
    {{3, 2}, {1, 0xFFFFFFFFu}},
};
static relic_trn_triangle tris[2];
static uint8_t ltn0[2] = {1, 0};
static uint32_t ntl0[2] = {1, 0};
static uint8_t nodes0[4] = {0xFF, 0x81, 0x00, 0xFF};
static relic_trn_tile tiles[2];
static uint32_t adj0[1] = {1}, adj1[1] = {0}, exit0[1] = {1}, exit1[1] = {0};
static float dist0[1] = {5.5f}, dist1[1] = {5.5f};
static relic_trn_island islands[2];
static relic_trn_island_path_node ipt[4] = {{0xFFFF, 0, 0}, {1, 7, 5.5f}, {0, 0, 5.5f}, {0xFFFF, 3, 0}};

/* A 2x1-tile walkmesh, two triangles in tile 0, two islands. */
static void make_aswm(relic_trn_aswm *w)
{
    memset(w, 0, sizeof *w);
    w->version = 0x6C;
    snprintf(w->name, sizeof w->name, "legacy");
    w->owns_data = 1;
    w->vertex_count = 4;
    w->vertices = verts;
    w->vertices_count = 4;
    w->edge_count = 5;
    w->edges = edges;
    w->edges_count = 5;
    const uint32_t tv[2][3] = {{0, 1, 2}, {1, 3, 2}}, te[2][3] = {{0, 1, 2}, {3, 4, 1}};
    const uint32_t tt[2][3] = {{0xFFFFFFFFu, 1, 0xFFFFFFFFu}, {0xFFFFFFFFu, 0xFFFFFFFFu, 0}};
    for (int i = 0; i < 2; i++) {
        memset(&tris[i], 0, sizeof tris[i]);
        memcpy(tris[i].vertices, tv[i], sizeof tv[i]);
        memcpy(tris[i].linked_edges, te[i], sizeof te[i]);
        memcpy(tris[i].linked_triangles, tt[i], sizeof tt[i]);
        tris[i].center[0] = 3.5f + (float)i;
        tris[i].center[1] = 3.25f;
        tris[i].normal[2] = 1.0f;
        tris[i].d = -0.5f * (float)i;
        tris[i].island = (uint16_t)i;
        tris[i].flags = (uint16_t)(0x0001 | 0x0010 | (i ? 0x0004 : 0));
    }
    w->triangle_count = 2;
    w->triangles = tris;
    w->triangles_count = 2;
    w->tiles_flags = 31;
    w->tiles_width = 10.0f;
    w->grid_height = 1;
    w->grid_width = 2;
    memset(tiles, 0, sizeof tiles);
    snprintf(tiles[0].name, sizeof tiles[0].name, "t0");
    tiles[0].vertices_count = 4;
    tiles[0].edges_count = 5;
    tiles[0].triangles_count = 2;
    tiles[0].size_y = 1.5f;
    tiles[0].local_to_node_length = 2;
    tiles[0].local_to_node = ltn0;
    tiles[0].local_to_node_count = 2;
    tiles[0].node_to_local_length = 2;
    tiles[0].node_to_local = ntl0;
    tiles[0].node_to_local_count = 2;
    tiles[0].nodes = nodes0;
    tiles[0].nodes_count = 4;
    tiles[0].tile_flags = 31;
    tiles[1].triangles_offset = 2;
    tiles[1].tile_flags = 31;
    w->tiles = tiles;
    w->tiles_count = 2;
    w->tiles_border_size = 0;
    memset(islands, 0, sizeof islands);
    for (int i = 0; i < 2; i++) {
        islands[i].index = (uint32_t)i;
        islands[i].center[0] = 3.5f + (float)i;
        islands[i].triangle_count = 1;
        islands[i].adjacent_length = islands[i].distances_length = islands[i].exits_length = 1;
        islands[i].adjacent = i ? adj1 : adj0;
        islands[i].adjacent_count = 1;
        islands[i].distances = i ? dist1 : dist0;
        islands[i].distances_count = 1;
        islands[i].exit_triangles = i ? exit1 : exit0;
        islands[i].exit_triangles_count = 1;
    }
    w->island_count = 2;
    w->islands = islands;
    w->islands_count = 2;
    w->island_path_table = ipt;
    w->island_path_table_count = 4;
}

static void put32(relic_buf *b, uint32_t v)
{
    uint8_t x[4];
    relic_store_u32le(x, v);
    relic_buf_append(b, x, 4);
}
static void put16(relic_buf *b, uint16_t v)
{
    uint8_t x[2];
    relic_store_u16le(x, v);
    relic_buf_append(b, x, 2);
}
static void putf(relic_buf *b, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    put32(b, u);
}
static void put8(relic_buf *b, uint8_t v) { relic_buf_append(b, &v, 1); }

/* Test-only writer: w in the layout of version 0x69, 0x6A or 0x6B
 * (reserved fields filled with 0xA5 bytes so that they must be skipped). */
static void write_legacy(const relic_trn_aswm *w, uint32_t version, relic_buf *b)
{
    relic_buf_init(b, 0);
    put32(b, version);
    relic_buf_append(b, w->name, 32);
    put8(b, 1);
    put32(b, (uint32_t)w->vertices_count);
    put32(b, (uint32_t)w->edges_count);
    put32(b, (uint32_t)w->triangles_count);
    put32(b, w->unknown_b);
    for (size_t i = 0; i < w->vertices_count; i++) {
        putf(b, w->vertices[i].x);
        putf(b, w->vertices[i].y);
        putf(b, w->vertices[i].z);
    }
    for (size_t i = 0; i < w->edges_count; i++) {
        for (int k = 0; k < 2; k++) put32(b, w->edges[i].vertices[k]);
        for (int k = 0; k < 2; k++) put32(b, w->edges[i].triangles[k]);
        if (version == 0x69)
            for (int k = 0; k < 9; k++) put32(b, 0xA5A5A5A5u);
    }
    for (size_t i = 0; i < w->triangles_count; i++) {
        const relic_trn_triangle *t = &w->triangles[i];
        if (version == 0x69) {
            put32(b, 0xA5A5A5A5u);
            put32(b, 0xA5A50000u | t->flags);
            for (int k = 0; k < 3; k++) put32(b, t->vertices[k]);
            for (int k = 0; k < 3; k++) put32(b, t->linked_edges[k]);
            for (int k = 0; k < 3; k++) put32(b, t->linked_triangles[k]);
            for (int k = 0; k < 3; k++) put32(b, 0xA5A5A5A5u);
            putf(b, t->center[0]);
            putf(b, t->center[1]);
            put32(b, 0xA5A5A5A5u);
            for (int k = 0; k < 3; k++) putf(b, t->normal[k]);
            putf(b, t->d);
            put16(b, 0xA5A5);
            put16(b, t->island);
            continue;
        }
        if (version == 0x6A) put32(b, 0xA5A5A5A5u);
        for (int k = 0; k < 3; k++) put32(b, t->vertices[k]);
        for (int k = 0; k < 3; k++) put32(b, t->linked_edges[k]);
        for (int k = 0; k < 3; k++) put32(b, t->linked_triangles[k]);
        putf(b, t->center[0]);
        putf(b, t->center[1]);
        for (int k = 0; k < 3; k++) putf(b, t->normal[k]);
        putf(b, t->d);
        put16(b, t->island);
        put16(b, t->flags);
    }
    put32(b, w->tiles_flags);
    putf(b, w->tiles_width);
    put32(b, w->grid_height);
    put32(b, w->grid_width);
    for (size_t i = 0; i < w->tiles_count; i++) {
        const relic_trn_tile *t = &w->tiles[i];
        relic_buf_append(b, t->name, 32);
        put8(b, 0);
        put32(b, t->vertices_count);
        put32(b, t->edges_count);
        put32(b, t->triangles_count);
        putf(b, t->size_x);
        putf(b, t->size_y);
        put32(b, t->triangles_offset);
        put32(b, t->path_flags);
        put8(b, (uint8_t)t->local_to_node_count);
        put8(b, (uint8_t)t->node_to_local_count);
        put32(b, t->rle_table_size);
        relic_buf_append(b, t->local_to_node, t->local_to_node_count);
        if (version == 0x6B)
            for (size_t k = 0; k < t->node_to_local_count; k++) put8(b, (uint8_t)t->node_to_local[k]);
        relic_buf_append(b, t->nodes, t->nodes_count);
        put32(b, t->tile_flags);
    }
    put32(b, w->tiles_border_size);
    put32(b, (uint32_t)w->islands_count);
    for (size_t i = 0; i < w->islands_count; i++) {
        const relic_trn_island *is = &w->islands[i];
        put32(b, is->index);
        put32(b, is->tile);
        for (int k = 0; k < 3; k++) putf(b, is->center[k]);
        put32(b, is->triangle_count);
        put32(b, (uint32_t)is->adjacent_count);
        for (size_t k = 0; k < is->adjacent_count; k++) put32(b, is->adjacent[k]);
        put32(b, (uint32_t)is->distances_count);
        for (size_t k = 0; k < is->distances_count; k++) putf(b, is->distances[k]);
        put32(b, (uint32_t)is->exit_triangles_count);
        for (size_t k = 0; k < is->exit_triangles_count; k++) put32(b, is->exit_triangles[k]);
    }
    for (size_t i = 0; i < w->island_path_table_count; i++) {
        put16(b, w->island_path_table[i].next);
        put16(b, w->island_path_table[i].padding);
        putf(b, w->island_path_table[i].weight);
    }
    assert_false(b->failed);
}

static void count_problem(void *ctx, const relic_error *e)
{
    (void)e;
    (*(int *)ctx)++;
}

static const uint32_t versions[3] = {0x69, 0x6A, 0x6B};

/* The model read from an older layout serialises (as 0x6C) to the same bytes as the original. */
static void assert_same_model(const relic_trn_aswm *got, const relic_trn_aswm *want)
{
    relic_buf a, b;
    relic_error err;
    relic_buf_init(&a, 0);
    relic_buf_init(&b, 0);
    assert_int_equal(relic_trn_aswm_write(got, &a, &err), RELIC_OK);
    assert_int_equal(relic_trn_aswm_write(want, &b, &err), RELIC_OK);
    assert_int_equal(a.size, b.size);
    assert_memory_equal(a.data, b.data, a.size);
    relic_buf_free(&a);
    relic_buf_free(&b);
}

static void test_older_versions_read_back_to_the_same_model(void **state)
{
    (void)state;
    relic_trn_aswm w, got;
    make_aswm(&w);
    for (int v = 0; v < 3; v++) {
        relic_buf b;
        relic_arena a;
        relic_error err;
        write_legacy(&w, versions[v], &b);
        relic_arena_init_heap(&a, 1 << 20);
        if (relic_trn_aswm_legacy_decode(b.data, b.size, &a, &got, &err) != RELIC_OK)
            fail_msg("version 0x%X: %s @0x%llx: %s", (unsigned)versions[v], err.path, (unsigned long long)err.offset, err.message);
        assert_int_equal(got.version, versions[v]);
        assert_int_equal(got.triangles[1].flags, w.triangles[1].flags);
        assert_int_equal(got.tiles[0].node_to_local[0], 1);
        assert_same_model(&got, &w);
        relic_buf_free(&b);
        relic_arena_release(&a);
    }
}

static void test_older_layout_sizes_follow_the_spec(void **state)
{
    (void)state;
    relic_trn_aswm w;
    relic_buf b[3];
    make_aswm(&w);
    for (int v = 0; v < 3; v++) write_legacy(&w, versions[v], &b[v]);
    /* v0x6B vs v0x6A: 4 bytes less per triangle, 2 node_to_local u8 more */
    assert_int_equal(b[1].size - b[2].size, 2 * 4 - 2);
    /* v0x69 vs v0x6A: 36 bytes more per edge, 20 more per triangle */
    assert_int_equal(b[0].size - b[1].size, 5 * 36 + 2 * 20);
    for (int v = 0; v < 3; v++) relic_buf_free(&b[v]);
}

static void test_older_version_reads_through_the_aswm_packet(void **state)
{
    (void)state;
    relic_trn_aswm w, got;
    make_aswm(&w);
    for (int v = 0; v < 3; v++) {
        relic_buf raw, z;
        relic_arena a;
        relic_error err;
        relic_trn_packet p;
        write_legacy(&w, versions[v], &raw);
        relic_buf_init(&z, 0);
        relic_arena_init_heap(&a, 1 << 20);
        assert_int_equal(relic_codec_zlib_encode(raw.data, raw.size, 6, &a, &z, &err), RELIC_OK);
        memset(&p, 0, sizeof p);
        p.type = RELIC_TRN_PACKET_TYPE_ASWM;
        memcpy(p.comp_magic, "COMP", 4);
        p.compressed_size = (uint32_t)z.size;
        p.uncompressed_size = (uint32_t)raw.size;
        p.size = (uint32_t)(12 + z.size);
        p.aswm = z.data;
        p.aswm_count = z.size;
        assert_int_equal(relic_trn_aswm_read(&p, 1 << 20, &a, &got, &err), RELIC_OK);
        assert_int_equal(got.version, versions[v]);
        assert_same_model(&got, &w);
        int problems = 0, want = 0;
        relic_trn_check_aswm(&got, "aswm", 10, count_problem, &problems);
        relic_trn_check_aswm(&w, "aswm", 10, count_problem, &want);
        assert_int_equal(problems, want);
        relic_buf_free(&raw);
        relic_buf_free(&z);
        relic_arena_release(&a);
    }
}

static void test_other_versions_are_unsupported(void **state)
{
    (void)state;
    relic_trn_aswm w, got;
    relic_buf b;
    relic_arena a;
    relic_error err;
    make_aswm(&w);
    write_legacy(&w, 0x6B, &b);
    relic_arena_init_heap(&a, 1 << 20);
    relic_store_u32le(b.data, 0x68);
    assert_int_equal(relic_trn_aswm_legacy_decode(b.data, b.size, &a, &got, &err), RELIC_E_UNSUPPORTED);
    assert_string_equal(err.path, "version");
    relic_store_u32le(b.data, 0x6C);
    assert_int_equal(relic_trn_aswm_legacy_decode(b.data, b.size, &a, &got, &err), RELIC_E_UNSUPPORTED);
    relic_buf_free(&b);
    relic_arena_release(&a);
}

static void test_node_named_twice_cannot_rebuild_node_to_local(void **state)
{
    (void)state;
    relic_trn_aswm w, got;
    relic_buf b;
    relic_arena a;
    relic_error err;
    make_aswm(&w);
    ltn0[1] = 1; /* both local triangles claim node 1; node 0 has none */
    write_legacy(&w, 0x6A, &b);
    ltn0[1] = 0;
    relic_arena_init_heap(&a, 1 << 20);
    assert_int_equal(relic_trn_aswm_legacy_decode(b.data, b.size, &a, &got, &err), RELIC_E_LAYOUT);
    assert_string_equal(err.path, "tiles[0].node_to_local");
    relic_buf_free(&b);
    relic_arena_release(&a);
}

static void test_truncated_older_walkmeshes_are_rejected(void **state)
{
    (void)state;
    relic_trn_aswm w, got;
    make_aswm(&w);
    for (int v = 0; v < 3; v++) {
        relic_buf b;
        relic_arena a;
        relic_error err;
        write_legacy(&w, versions[v], &b);
        relic_arena_init_heap(&a, 1 << 22);
        for (size_t cut = 0; cut < b.size; cut++) {
            uint8_t *copy = malloc(cut + 1);
            memcpy(copy, b.data, cut);
            assert_int_not_equal(relic_trn_aswm_legacy_decode(copy, cut, &a, &got, &err), RELIC_OK);
            free(copy);
        }
        relic_buf_append(&b, "", 1);
        assert_int_equal(relic_trn_aswm_legacy_decode(b.data, b.size, &a, &got, &err), RELIC_E_LAYOUT);
        relic_buf_free(&b);
        relic_arena_release(&a);
    }
}

static void test_mutated_older_walkmeshes_never_crash(void **state)
{
    (void)state;
    relic_trn_aswm w, got;
    make_aswm(&w);
    unsigned accepted = 0, total = 0;
    uint64_t seed = 0x2545F4914F6CDD1Dull;
    for (int v = 0; v < 3; v++) {
        relic_buf b;
        write_legacy(&w, versions[v], &b);
        for (int k = 0; k < 1500; k++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint8_t *copy = malloc(b.size);
            memcpy(copy, b.data, b.size);
            copy[(seed >> 16) % b.size] = (uint8_t)(seed >> 40);
            relic_arena a;
            relic_error err;
            relic_arena_init_heap(&a, 1 << 22);
            if (relic_trn_aswm_legacy_decode(copy, b.size, &a, &got, &err) == RELIC_OK) {
                accepted++;
                int problems = 0;
                relic_trn_check_aswm(&got, "aswm", 10, count_problem, &problems);
            }
            relic_arena_release(&a);
            free(copy);
            total++;
        }
        relic_buf_free(&b);
    }
    print_message("older-version mutations: %u inputs, %u accepted\n", total, accepted);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_older_versions_read_back_to_the_same_model),
        cmocka_unit_test(test_older_layout_sizes_follow_the_spec),
        cmocka_unit_test(test_older_version_reads_through_the_aswm_packet),
        cmocka_unit_test(test_other_versions_are_unsupported),
        cmocka_unit_test(test_node_named_twice_cannot_rebuild_node_to_local),
        cmocka_unit_test(test_truncated_older_walkmeshes_are_rejected),
        cmocka_unit_test(test_mutated_older_walkmeshes_never_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
