/* test_trn_bake.c — the ASWM walkmesh beyond the container: the hand-written
 * v0x6C writer and its zlib settings (every real walkmesh re-serialises to
 * its decompressed bytes and re-compresses to its own zlib stream), the
 * capped inflate, the strict rules, the baker (deterministic, valid, strict,
 * shortest paths: nwn-lib-d, trn.d bake) and path queries on real TRX files
 * (a route whenever the island table says one exists). Real files:
 * ../shared/corpus/trn and trx (skipped, saying so, when absent);
 * synthetic areas: tests/trn_synth.h. */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_pass.h"

#include "relic_codec.h"
#include "relic_trn.h"
#include "trn_synth.h"

/* relic_trn_check_aswm_strict with its scratch in a heap arena freed at once */
static unsigned strict_scratch(const relic_trn_aswm *w, const char *path, unsigned max_reports, relic_report_fn report,
                               void *ctx)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    unsigned problems = relic_trn_check_aswm_strict(w, path, max_reports, &a, report, ctx);
    relic_arena_release(&a);
    return problems;
}

#define MAX_FILES 256
#define NONE32 0xFFFFFFFFu
#define NONE16 0xFFFFu

typedef struct file_list {
    char *paths[MAX_FILES];
    int n;
} file_list;

static void list_dir(const char *dir, file_list *fl)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) && fl->n < MAX_FILES) {
        char ext[8];
        relic_path_extension(e->d_name, ext, sizeof ext);
        if (strcmp(ext, "trn") && strcmp(ext, "trx")) continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        fl->paths[fl->n] = malloc(n);
        snprintf(fl->paths[fl->n], n, "%s/%s", dir, e->d_name);
        fl->n++;
    }
    closedir(d);
    for (int i = 1; i < fl->n; i++)
        for (int j = i; j > 0 && strcmp(fl->paths[j - 1], fl->paths[j]) > 0; j--) {
            char *t = fl->paths[j];
            fl->paths[j] = fl->paths[j - 1];
            fl->paths[j - 1] = t;
        }
}

static void free_list(file_list *fl)
{
    for (int i = 0; i < fl->n; i++) free(fl->paths[i]);
    fl->n = 0;
}

static file_list corpus(const char *which)
{
    file_list fl = {.n = 0};
    char dir[64];
    snprintf(dir, sizeof dir, "../shared/corpus/%s", which);
    list_dir(dir, &fl);
    if (fl.n == 0) print_message("note: %s not found: the real-file part of this test is skipped\n", dir);
    return fl;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* A loaded real file: mapping, model, its ASWM packet and walkmesh. */
typedef struct loaded {
    relic_mapping map;
    relic_arena arena;
    relic_trn_file m;
    relic_trn_packet *packet;
    relic_trn_aswm w;
} loaded;

static void load(const char *path, loaded *l)
{
    relic_error err;
    relic_trn_view v;
    assert_int_equal(relic_map_file(path, 0, &l->map, &err), RELIC_OK);
    relic_arena_init_heap(&l->arena, (size_t)2 << 30);
    assert_int_equal(relic_trn_validate(l->map.bytes.data, l->map.bytes.size, &v, &err), RELIC_OK);
    assert_int_equal(relic_trn_decode(&v, &l->arena, &l->m, &err), RELIC_OK);
    l->packet = NULL;
    for (size_t i = 0; i < l->m.packets_count; i++)
        if (l->m.packets[i].type == RELIC_TRN_PACKET_TYPE_ASWM) {
            l->packet = &l->m.packets[i];
            break;
        }
    assert_non_null(l->packet);
    assert_int_equal(relic_trn_aswm_read(l->packet, (uint64_t)1 << 30, &l->arena, &l->w, &err), RELIC_OK);
}

static void unload(loaded *l)
{
    relic_arena_release(&l->arena);
    relic_unmap(&l->map);
}

static void count_problem(void *ctx, const relic_error *e)
{
    (void)e;
    (*(int *)ctx)++;
}

static void print_problem(void *ctx, const relic_error *e)
{
    print_message("  %s: %s: %s\n", (const char *)ctx, e->path, e->message);
}

/* ---- synthetic areas ---- */

/* Walls: every triangle of cell column 3 (mod 6) is non-walkable, and one
 * triangle in 11 as well, which makes several islands per tile. */
static int walls(void *ctx, uint32_t t)
{
    (void)ctx;
    return (t / 2) % 6 != 3 && t % 11 != 5;
}

static int all_walkable(void *ctx, uint32_t t)
{
    (void)ctx;
    (void)t;
    return 1;
}

static void bake_synth(relic_arena *a, uint32_t W, uint32_t H, uint32_t sub, synth_walkable_fn fn, relic_trn_aswm *out)
{
    relic_trn_aswm w;
    relic_error err;
    assert_int_equal(synth_area(a, W, H, sub, fn, NULL, &w), 0);
    int problems = 0;
    assert_int_equal(relic_trn_check_aswm(&w, "synth", 5, count_problem, &problems), 0);
    assert_int_equal(relic_trn_bake(&w, NULL, a, out, &err), RELIC_OK);
}

/* ---- writer and zlib ---- */

/* Every real walkmesh re-serialises to its decompressed bytes, and at
 * RELIC_TRN_ASWM_ZLIB_LEVEL re-compresses to its own zlib stream; the test
 * names every file that does not and why. */
static void test_every_real_aswm_rewrites_and_recompresses_byte_for_byte(void **state)
{
    (void)state;
    const char *dirs[2] = {"trn", "trx"};
    int files = 0, raw_same = 0, zlib_same = 0;
    size_t seen = 0; /* one file in TEST_PASS_STRIDE in the sanitizer pass (test_pass.h) */
    for (int d = 0; d < 2; d++) {
        file_list fl = corpus(dirs[d]);
        for (int i = 0; i < fl.n; i++) {
            if (!test_take(seen++)) continue;
            loaded l;
            relic_error err;
            load(fl.paths[i], &l);
            relic_buf raw;
            relic_buf_init(&raw, 0);
            assert_int_equal(relic_trn_aswm_write(&l.w, &raw, &err), RELIC_OK);
            uint8_t *orig = malloc(l.packet->uncompressed_size + 1);
            assert_int_equal(relic_codec_zlib_decode(l.packet->aswm, l.packet->aswm_count, orig, l.packet->uncompressed_size, &l.arena, &err),
                             RELIC_OK);
            int same_raw = raw.size == l.packet->uncompressed_size && memcmp(raw.data, orig, raw.size) == 0;
            relic_trn_packet p = *l.packet;
            assert_int_equal(relic_trn_aswm_pack(&l.w, RELIC_TRN_ASWM_ZLIB_LEVEL, &l.arena, &p, &err), RELIC_OK);
            int same_z = p.aswm_count == l.packet->aswm_count && memcmp(p.aswm, l.packet->aswm, p.aswm_count) == 0;
            if (!same_raw) print_message("differs: %s: decompressed walkmesh (%zu bytes written, %u read)\n", base_name(fl.paths[i]), raw.size,
                                         (unsigned)l.packet->uncompressed_size);
            else if (!same_z) print_message("differs: %s: zlib stream only (%zu bytes, %zu in the file): another deflate setting\n",
                                            base_name(fl.paths[i]), p.aswm_count, l.packet->aswm_count);
            assert_true(same_raw);
            assert_int_equal(p.uncompressed_size, l.packet->uncompressed_size);
            files++;
            raw_same += same_raw;
            zlib_same += same_z;
            free(orig);
            relic_buf_free(&raw);
            unload(&l);
        }
        free_list(&fl);
    }
    print_message("aswm rewrite: %d files, %d decompressed-identical, %d zlib-identical (level %d, windowBits 15, memLevel 8)\n", files,
                  raw_same, zlib_same, RELIC_TRN_ASWM_ZLIB_LEVEL);
    assert_int_equal(zlib_same, files);
}

/* A baked synthetic walkmesh packed into an ASWM packet reads back and
 * serialises to the same bytes. */
static void test_baked_walkmesh_packs_and_reads_back(void **state)
{
    (void)state;
    relic_arena a;
    relic_trn_aswm w, back;
    relic_trn_packet p;
    relic_error err;
    relic_buf b1, b2;
    relic_arena_init_heap(&a, (size_t)64 << 20);
    bake_synth(&a, 3, 2, 3, walls, &w);
    memset(&p, 0, sizeof p);
    assert_int_equal(relic_trn_aswm_pack(&w, RELIC_TRN_ASWM_ZLIB_LEVEL, &a, &p, &err), RELIC_OK);
    assert_int_equal(p.size, 12 + p.compressed_size);
    assert_memory_equal(p.comp_magic, "COMP", 4);
    assert_int_equal(relic_trn_aswm_read(&p, (uint64_t)1 << 30, &a, &back, &err), RELIC_OK);
    relic_buf_init(&b1, 0);
    relic_buf_init(&b2, 0);
    assert_int_equal(relic_trn_aswm_write(&w, &b1, &err), RELIC_OK);
    assert_int_equal(relic_trn_aswm_write(&back, &b2, &err), RELIC_OK);
    assert_int_equal(b1.size, p.uncompressed_size);
    assert_int_equal(b1.size, b2.size);
    assert_memory_equal(b1.data, b2.data, b1.size);
    assert_int_equal(back.islands_count, w.islands_count);
    relic_buf_free(&b1);
    relic_buf_free(&b2);
    relic_arena_release(&a);
}

/* The writer refuses a model whose arrays disagree with the layout. */
static void test_writer_refuses_inconsistent_tables(void **state)
{
    (void)state;
    relic_arena a;
    relic_trn_aswm w;
    relic_error err;
    relic_buf b;
    relic_arena_init_heap(&a, (size_t)16 << 20);
    bake_synth(&a, 2, 1, 2, all_walkable, &w);
    relic_buf_init(&b, 0);
    w.tiles[0].nodes_count--;
    assert_int_equal(relic_trn_aswm_write(&w, &b, &err), RELIC_E_ARGUMENT);
    assert_string_equal(err.path, "tiles[0]");
    w.tiles[0].nodes_count++;
    w.island_path_table_count = 3;
    assert_int_equal(relic_trn_aswm_write(&w, &b, &err), RELIC_E_ARGUMENT);
    assert_string_equal(err.path, "island_path_table");
    relic_buf_free(&b);
    relic_arena_release(&a);
}

/* The declared size is checked against the caller's limit before anything
 * is allocated, and a stream holding more than it declares is refused. */
static void test_inflate_is_capped_by_limit_and_declared_size(void **state)
{
    (void)state;
    uint8_t raw[4096];
    for (size_t i = 0; i < sizeof raw; i++) raw[i] = (uint8_t)(i * 7);
    relic_buf z;
    relic_error err;
    relic_buf_init(&z, 0);
    relic_arena a;
    relic_arena_init_heap(&a, 1 << 20);
    assert_int_equal(relic_codec_zlib_encode(raw, sizeof raw, 6, &a, &z, &err), RELIC_OK);
    relic_trn_packet p;
    memset(&p, 0, sizeof p);
    p.type = RELIC_TRN_PACKET_TYPE_ASWM;
    p.aswm = z.data;
    p.aswm_count = z.size;
    p.uncompressed_size = sizeof raw;
    relic_trn_aswm w;
    assert_int_equal(relic_trn_aswm_read(&p, 1024, &a, &w, &err), RELIC_E_LIMIT);
    assert_string_equal(err.path, "uncompressed_size");
    p.uncompressed_size = sizeof raw - 1; /* lies: the stream holds one byte more */
    assert_int_equal(relic_trn_aswm_read(&p, 1 << 20, &a, &w, &err), RELIC_E_LAYOUT);
    p.uncompressed_size = sizeof raw + 1; /* lies the other way */
    assert_int_not_equal(relic_trn_aswm_read(&p, 1 << 20, &a, &w, &err), RELIC_OK);
    relic_arena_release(&a);
    relic_buf_free(&z);
}

/* ---- the properties of a baked walkmesh ---- */

static double centre_distance(const relic_trn_triangle *a, const relic_trn_triangle *b)
{
    return hypot((double)a->center[0] - b->center[0], (double)a->center[1] - b->center[1]);
}

/* Shortest in-tile costs from local walkable triangle src (Dijkstra over
 * linked walkable triangles of the tile, O(n^2)), into dist. */
static void dijkstra(const relic_trn_aswm *w, const relic_trn_tile *t, uint32_t src, double *dist, uint8_t *done)
{
    uint32_t n = t->triangles_count, off = t->triangles_offset;
    for (uint32_t i = 0; i < n; i++) {
        dist[i] = INFINITY;
        done[i] = 0;
    }
    dist[src] = 0;
    for (;;) {
        uint32_t best = NONE32;
        for (uint32_t i = 0; i < n; i++)
            if (!done[i] && isfinite(dist[i]) && (best == NONE32 || dist[i] < dist[best])) best = i;
        if (best == NONE32) break;
        done[best] = 1;
        const relic_trn_triangle *tb = &w->triangles[off + best];
        for (int k = 0; k < 3; k++) {
            uint32_t g = tb->linked_triangles[k];
            if (g == NONE32 || g < off || g - off >= n || !(w->triangles[g].flags & 1)) continue;
            double c = dist[best] + centre_distance(tb, &w->triangles[g]);
            if (c < dist[g - off]) dist[g - off] = c;
        }
    }
}

/* Following the next-step entries from any walkable triangle to any other
 * of its tile arrives, through linked walkable triangles of the tile, with
 * the shortest-path cost; an entry is 0xFF exactly when no path exists.
 * Returns the number of (from, to) pairs checked. */
static size_t check_path_tables(const relic_trn_aswm *w)
{
    size_t pairs = 0;
    double *dist = malloc(256 * sizeof *dist);
    uint8_t *done = malloc(256);
    for (size_t ti = 0; ti < w->tiles_count; ti++) {
        const relic_trn_tile *t = &w->tiles[ti];
        size_t n = t->node_to_local_count;
        if (t->triangles_count > 256) {
            dist = realloc(dist, t->triangles_count * sizeof *dist);
            done = realloc(done, t->triangles_count);
        }
        for (size_t f = 0; f < n; f++) {
            dijkstra(w, t, t->node_to_local[f], dist, done);
            for (size_t g = 0; g < n; g++) {
                if (g == f) {
                    assert_int_equal(t->nodes[f * n + g], 0xFF);
                    continue;
                }
                uint32_t goal = t->node_to_local[g];
                uint8_t e = t->nodes[f * n + g];
                if (!isfinite(dist[goal])) {
                    assert_int_equal(e, 0xFF);
                    continue;
                }
                assert_int_not_equal(e, 0xFF);
                uint32_t cur = t->node_to_local[f];
                double cost = 0;
                for (size_t steps = 0; cur != goal; steps++) {
                    assert_true(steps <= n);
                    uint8_t s = t->nodes[t->local_to_node[cur] * n + g];
                    assert_true(s != 0xFF && (s & 0x7F) < n);
                    uint32_t next = t->node_to_local[s & 0x7F];
                    const relic_trn_triangle *tc = &w->triangles[t->triangles_offset + cur];
                    int linked = 0;
                    for (int k = 0; k < 3; k++) linked |= tc->linked_triangles[k] == t->triangles_offset + next;
                    assert_true(linked);
                    assert_true(w->triangles[t->triangles_offset + next].flags & 1);
                    cost += centre_distance(tc, &w->triangles[t->triangles_offset + next]);
                    cur = next;
                }
                assert_true(fabs(cost - dist[goal]) <= 1e-6 * (1.0 + dist[goal]));
                pairs++;
            }
        }
    }
    free(dist);
    free(done);
    return pairs;
}

/* Every baked walkmesh: no rule broken, strict included. */
static void assert_valid_strict(const relic_trn_aswm *w, const char *name)
{
    int problems = 0;
    unsigned n = relic_trn_check_aswm(w, name, 5, print_problem, (void *)name);
    if (n == 0) n = strict_scratch(w, name, 5, print_problem, (void *)name);
    (void)problems;
    assert_int_equal(n, 0);
}

static void test_synthetic_bake_validates_and_has_shortest_paths(void **state)
{
    (void)state;
    relic_arena a;
    relic_trn_aswm w;
    relic_arena_init_heap(&a, (size_t)256 << 20);
    bake_synth(&a, 4, 3, 6, walls, &w);
    assert_valid_strict(&w, "synth");
    assert_true(w.islands_count > w.tiles_count); /* the walls split tiles */
    assert_true(check_path_tables(&w) > 1000);
    for (size_t i = 0; i < w.triangles_count; i++)
        assert_int_equal(w.triangles[i].island == NONE16, !(w.triangles[i].flags & 1));
    relic_arena_release(&a);
}

/* One tile of an all-walkable 1 x 1 area is one island with no links. */
static void test_single_open_tile_is_one_island(void **state)
{
    (void)state;
    relic_arena a;
    relic_trn_aswm w;
    relic_arena_init_heap(&a, (size_t)16 << 20);
    bake_synth(&a, 1, 1, 4, all_walkable, &w);
    assert_int_equal(w.islands_count, 1);
    assert_int_equal(w.islands[0].triangle_count, 32);
    assert_int_equal(w.islands[0].adjacent_count, 0);
    assert_int_equal(w.island_path_table[0].next, NONE16);
    assert_valid_strict(&w, "one tile");
    relic_arena_release(&a);
}

/* A 2 x 1 open area: two islands linked both ways, with the distance
 * between their centres (10 m) and exit triangles on the shared border. */
static void test_two_open_tiles_link_both_ways(void **state)
{
    (void)state;
    relic_arena a;
    relic_trn_aswm w;
    relic_arena_init_heap(&a, (size_t)16 << 20);
    bake_synth(&a, 2, 1, 2, all_walkable, &w);
    assert_int_equal(w.islands_count, 2);
    assert_int_equal(w.islands[0].adjacent_count, 1);
    assert_int_equal(w.islands[0].adjacent[0], 1);
    assert_int_equal(w.islands[1].adjacent[0], 0);
    assert_true(fabs(w.islands[0].distances[0] - 10.0f) < 1e-4);
    assert_int_equal(w.island_path_table[0 * 2 + 1].next, 1);
    assert_int_equal(w.island_path_table[1 * 2 + 0].next, 0);
    assert_true(w.islands[0].center[0] > 4.9f && w.islands[0].center[0] < 5.1f);
    assert_valid_strict(&w, "two tiles");
    relic_arena_release(&a);
}

/* A tile of more than 127 walkable triangles cannot get a path table. */
static void test_tile_over_127_walkable_triangles_is_refused(void **state)
{
    (void)state;
    relic_arena a;
    relic_trn_aswm w, out;
    relic_error err;
    relic_arena_init_heap(&a, (size_t)16 << 20);
    assert_int_equal(synth_area(&a, 1, 1, 8, all_walkable, NULL, &w), 0); /* 128 triangles */
    assert_int_equal(relic_trn_bake(&w, NULL, &a, &out, &err), RELIC_E_LIMIT);
    assert_string_equal(err.path, "tiles[0]");
    relic_arena_release(&a);
}

/* Border removal keeps the triangles whose centre lies in the inner box and
 * compacts vertices and edges. */
static void test_border_tiles_are_removed(void **state)
{
    (void)state;
    relic_arena a;
    relic_trn_aswm w, out;
    relic_error err;
    relic_arena_init_heap(&a, (size_t)64 << 20);
    assert_int_equal(synth_area(&a, 5, 4, 2, all_walkable, NULL, &w), 0);
    w.tiles_border_size = 1;
    assert_int_equal(relic_trn_bake(&w, NULL, &a, &out, &err), RELIC_OK);
    assert_int_equal(out.triangles_count, 3 * 2 * 8);
    assert_int_equal(out.vertices_count, 7 * 5);
    assert_int_equal(out.tiles[0].triangles_count, 0);
    assert_int_equal(out.tiles[6].triangles_count, 8);
    assert_valid_strict(&out, "border");
    relic_trn_bake_options keep = {1};
    assert_int_equal(relic_trn_bake(&w, &keep, &a, &out, &err), RELIC_OK);
    assert_int_equal(out.triangles_count, w.triangles_count);
    relic_arena_release(&a);
}

/* ---- real files ---- */

static void bake_bytes(const relic_trn_aswm *w, relic_arena *a, relic_buf *out)
{
    relic_trn_aswm b;
    relic_error err;
    assert_int_equal(relic_trn_bake(w, NULL, a, &b, &err), RELIC_OK);
    assert_valid_strict(&b, "baked");
    assert_int_equal(relic_trn_aswm_write(&b, out, &err), RELIC_OK);
}

/* Every corpus TRN bakes twice to the same bytes and validates under the
 * strict rules; every toolset TRX re-bakes to a strict-valid walkmesh; the
 * path tables of the smaller ones give shortest in-tile paths. */
static void test_real_bakes_are_deterministic_valid_and_shortest(void **state)
{
    (void)state;
    const char *dirs[2] = {"trn", "trx"};
    size_t pairs = 0, seen = 0; /* one file in TEST_PASS_STRIDE in the sanitizer pass (test_pass.h) */
    int files = 0;
    for (int d = 0; d < 2; d++) {
        file_list fl = corpus(dirs[d]);
        for (int i = 0; i < fl.n; i++) {
            if (!test_take(seen++)) continue;
            loaded l;
            load(fl.paths[i], &l);
            relic_buf b1, b2;
            relic_buf_init(&b1, 0);
            relic_buf_init(&b2, 0);
            bake_bytes(&l.w, &l.arena, &b1);
            if (d == 0) { /* determinism on the TRN files; a TRX re-bake is checked once */
                bake_bytes(&l.w, &l.arena, &b2);
                assert_int_equal(b1.size, b2.size);
                assert_memory_equal(b1.data, b2.data, b1.size);
            }
            if (l.map.bytes.size < 60000) {
                relic_trn_aswm b;
                relic_error err;
                assert_int_equal(relic_trn_bake(&l.w, NULL, &l.arena, &b, &err), RELIC_OK);
                pairs += check_path_tables(&b);
            }
            relic_buf_free(&b1);
            relic_buf_free(&b2);
            unload(&l);
            files++;
        }
        free_list(&fl);
    }
    print_message("bake: %d real walkmeshes strict-valid (TRN bakes deterministic); %zu in-tile pairs shortest\n", files, pairs);
}

/* The toolset's own TRX files pass the strict rules. */
static void test_toolset_trx_files_pass_the_strict_rules(void **state)
{
    (void)state;
    file_list fl = corpus("trx");
    for (int i = 0; i < fl.n; i++) {
        loaded l;
        load(fl.paths[i], &l);
        assert_valid_strict(&l.w, base_name(fl.paths[i]));
        unload(&l);
    }
    free_list(&fl);
}

/* A tile reusing another tile's triangles is reported (Charles, NWN2 TRN.ASWM packet structure: it
 * crashes the game), and so are a broken edge link and a misplaced exit. */
static void test_strict_rules_report_reused_triangles_links_and_exits(void **state)
{
    (void)state;
    relic_arena a;
    relic_trn_aswm w;
    relic_arena_init_heap(&a, (size_t)16 << 20);
    bake_synth(&a, 2, 2, 2, all_walkable, &w);
    int problems = 0;
    w.tiles[1].triangles_offset = 0; /* tile 1 claims tile 0's triangles */
    assert_true(strict_scratch(&w, "aswm", 10, count_problem, &problems) > 0);
    w.tiles[1].triangles_offset = w.tiles[0].triangles_count;
    assert_int_equal(strict_scratch(&w, "aswm", 10, count_problem, &problems), 0);
    uint32_t saved = w.triangles[0].linked_triangles[0];
    w.triangles[0].linked_triangles[0] = 3;
    assert_true(strict_scratch(&w, "aswm", 10, count_problem, &problems) > 0);
    w.triangles[0].linked_triangles[0] = saved;
    w.islands[0].exit_triangles[0] = 0; /* not next to island adjacent[0]? then reported */
    unsigned n = strict_scratch(&w, "aswm", 10, count_problem, &problems);
    int next_to = 0;
    for (int k = 0; k < 3; k++) {
        uint32_t nb = w.triangles[0].linked_triangles[k];
        next_to |= nb != NONE32 && w.triangles[nb].island == w.islands[0].adjacent[0];
    }
    assert_int_equal(n > 0, !next_to);
    relic_arena_release(&a);
}

/* ---- path queries ---- */

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Checks route r from `from` to `to`: consecutive triangles are linked. */
static void assert_route(const relic_trn_aswm *w, const relic_trn_route *r, uint32_t from, uint32_t to)
{
    assert_true(r->count >= 1);
    assert_int_equal(r->triangles[0], from);
    assert_int_equal(r->triangles[r->count - 1], to);
    for (size_t i = 1; i < r->count; i++) {
        const relic_trn_triangle *t = &w->triangles[r->triangles[i - 1]];
        int linked = 0;
        for (int k = 0; k < 3; k++) linked |= t->linked_triangles[k] == r->triangles[i];
        assert_true(linked);
    }
    assert_true(r->length >= 0);
}

/* Whether the island path table says island b is reachable from a. */
static int table_says_reachable(const relic_trn_aswm *w, uint16_t a, uint16_t b)
{
    return a == b || w->island_path_table[(size_t)a * w->islands_count + b].next != NONE16;
}

/* On every toolset TRX (and on relic's bake of every TRN), 200 seeded pairs
 * of walkable points: a route is found whenever the island table says one
 * exists, and it is a chain of linked triangles. */
static void test_route_is_found_whenever_the_island_table_has_one(void **state)
{
    (void)state;
    const char *dirs[2] = {"trx", "trn"};
    unsigned found = 0, none = 0;
    size_t seen = 0; /* one file in TEST_PASS_STRIDE in the sanitizer pass (test_pass.h) */
    for (int d = 0; d < 2; d++) {
        file_list fl = corpus(dirs[d]);
        for (int i = 0; i < fl.n; i++) {
            if (!test_take(seen++)) continue;
            loaded l;
            relic_error err;
            load(fl.paths[i], &l);
            relic_trn_aswm w = l.w;
            if (d == 1) assert_int_equal(relic_trn_bake(&l.w, NULL, &l.arena, &w, &err), RELIC_OK);
            uint32_t *walk = malloc(w.triangles_count * sizeof *walk);
            size_t nw = 0;
            for (size_t k = 0; k < w.triangles_count; k++)
                if (w.triangles[k].island != NONE16) walk[nw++] = (uint32_t)k;
            uint64_t seed = 0x243F6A8885A308D3ull + (uint64_t)i;
            for (int k = 0; k < 200 && nw; k++) {
                uint32_t from = walk[xorshift(&seed) % nw], to = walk[xorshift(&seed) % nw];
                const relic_trn_triangle *tf = &w.triangles[from], *tt = &w.triangles[to];
                /* the point lookup finds a triangle at each centre */
                uint32_t hit = relic_trn_triangle_at(&w, tf->center[0], tf->center[1]);
                assert_int_not_equal(hit, NONE32);
                relic_trn_route r;
                relic_status st = relic_trn_route_find(&w, from, to, tf->center[0], tf->center[1], tt->center[0], tt->center[1],
                                                       &l.arena, &r, &err);
                if (table_says_reachable(&w, tf->island, tt->island)) {
                    if (st != RELIC_OK) print_message("%s: %u -> %u: %s: %s\n", base_name(fl.paths[i]), from, to, err.path, err.message);
                    assert_int_equal(st, RELIC_OK);
                    assert_route(&w, &r, from, to);
                    found++;
                } else {
                    assert_int_equal(st, RELIC_E_UNSUPPORTED);
                    none++;
                }
            }
            free(walk);
            unload(&l);
        }
        free_list(&fl);
    }
    print_message("routes: %u found, %u pairs without a route in the island table\n", found, none);
}

/* Seeded mutations of a baked walkmesh's indices and tables: whatever the
 * non-strict rules accept, the strict rules, the baker and the path queries
 * handle without crashing, and a bake of it is strict-valid. */
static void test_mutated_walkmeshes_never_crash_bake_or_path(void **state)
{
    (void)state;
    relic_arena a;
    relic_trn_aswm base;
    relic_arena_init_heap(&a, (size_t)256 << 20);
    bake_synth(&a, 3, 2, 3, walls, &base);
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    unsigned accepted = 0, baked = 0;
    for (int k = 0; k < 1500; k++) {
        relic_arena m;
        relic_arena_init_heap(&m, (size_t)64 << 20);
        relic_trn_aswm w = base;
        w.triangles = relic_arena_array(&m, base.triangles_count, sizeof *w.triangles, 8);
        memcpy(w.triangles, base.triangles, base.triangles_count * sizeof *w.triangles);
        w.tiles = relic_arena_array(&m, base.tiles_count, sizeof *w.tiles, 8);
        memcpy(w.tiles, base.tiles, base.tiles_count * sizeof *w.tiles);
        uint64_t r = xorshift(&seed);
        uint32_t v = (uint32_t)(xorshift(&seed) >> 16) % (uint32_t)(base.triangles_count + 4);
        if (r % 4 == 3) v = 0xFFFFFFFFu;
        relic_trn_triangle *t = &w.triangles[(r >> 8) % w.triangles_count];
        relic_trn_tile *tile = &w.tiles[(r >> 24) % w.tiles_count];
        switch ((r >> 40) % 7) {
        case 0: t->linked_triangles[(r >> 50) % 3] = v; break;
        case 1: t->flags ^= 1; break;
        case 2: t->island = (uint16_t)v; break;
        case 3: tile->triangles_offset = v % (uint32_t)(w.triangles_count + 1); break;
        case 4: t->center[(r >> 50) % 2] = (float)(v % 200) - 20.0f; break;
        case 5:
            if (tile->nodes_count) {
                uint8_t *nodes = relic_arena_alloc(&m, tile->nodes_count, 1);
                memcpy(nodes, tile->nodes, tile->nodes_count);
                nodes[v % tile->nodes_count] = (uint8_t)(r >> 56);
                tile->nodes = nodes;
            }
            break;
        default: t->linked_edges[(r >> 50) % 3] = v % (uint32_t)(w.edges_count + 2); break;
        }
        int problems = 0;
        if (relic_trn_check_aswm(&w, "m", 0, count_problem, &problems) == 0) {
            relic_trn_aswm b;
            relic_trn_route route;
            relic_error err;
            accepted++;
            int strict_ok = strict_scratch(&w, "m", 0, count_problem, &problems) == 0;
            for (int q = 0; q < 8; q++) {
                uint32_t from = (uint32_t)(xorshift(&seed) % w.triangles_count), to = (uint32_t)(xorshift(&seed) % w.triangles_count);
                relic_trn_route_find(&w, from, to, 0, 0, 1, 1, &m, &route, &err);
            }
            /* the bake keeps the edges: its output is strict-valid when its input's links are */
            if (relic_trn_bake(&w, NULL, &m, &b, &err) == RELIC_OK) {
                baked++;
                int bad = 0;
                assert_int_equal(relic_trn_check_aswm(&b, "b", 0, count_problem, &bad), 0);
                if (strict_ok) assert_valid_strict(&b, "mutant bake");
            }
        }
        relic_arena_release(&m);
    }
    print_message("mutations: 1500 walkmeshes, %u accepted, %u baked\n", accepted, baked);
    relic_arena_release(&a);
}

/* ---- the zero-copy view ---- */

/* Whether the model path (generated decoder + relic_trn_check_aswm) accepts
 * raw decompressed walkmesh bytes: they are packed as a stored zlib stream. */
static int model_accepts(const uint8_t *raw, size_t n)
{
    relic_buf z;
    relic_error err;
    relic_arena a;
    relic_trn_packet p;
    relic_trn_aswm w;
    int problems = 0, ok;
    relic_buf_init(&z, 0);
    relic_arena_init_heap(&a, (size_t)256 << 20);
    assert_int_equal(relic_codec_zlib_encode(raw, n, 0, &a, &z, &err), RELIC_OK);
    memset(&p, 0, sizeof p);
    p.type = RELIC_TRN_PACKET_TYPE_ASWM;
    p.aswm = z.data;
    p.aswm_count = z.size;
    p.uncompressed_size = (uint32_t)n;
    ok = relic_trn_packet_aswm_decode(&p, &a, &w, &err) == RELIC_OK && relic_trn_check_aswm(&w, "m", 0, count_problem, &problems) == 0;
    relic_arena_release(&a);
    relic_buf_free(&z);
    return ok;
}

static int view_accepts(const uint8_t *raw, size_t n, relic_error *err)
{
    relic_arena a;
    relic_trn_aswm_view v;
    relic_arena_init_heap(&a, (size_t)64 << 20);
    int ok = relic_trn_aswm_view_validate(raw, n, &a, &v, err) == RELIC_OK;
    if (!ok) assert_true(err->message[0] != 0);
    relic_arena_release(&a);
    return ok;
}

/* Every real walkmesh validates as a view with the counts of its model. */
static void test_every_real_walkmesh_validates_as_a_view(void **state)
{
    (void)state;
    const char *dirs[2] = {"trn", "trx"};
    for (int d = 0; d < 2; d++) {
        file_list fl = corpus(dirs[d]);
        for (int i = 0; i < fl.n; i++) {
            loaded l;
            relic_error err;
            relic_buf raw;
            relic_arena va;
            relic_trn_aswm_view v;
            load(fl.paths[i], &l);
            relic_buf_init(&raw, 0);
            assert_int_equal(relic_trn_aswm_write(&l.w, &raw, &err), RELIC_OK);
            relic_arena_init_heap(&va, (size_t)64 << 20);
            assert_int_equal(relic_trn_aswm_view_validate(raw.data, raw.size, &va, &v, &err), RELIC_OK);
            assert_int_equal(v.triangle_count, l.w.triangles_count);
            assert_int_equal(v.tiles_count, l.w.tiles_count);
            assert_int_equal(v.island_count, l.w.islands_count);
            if (l.w.triangles_count)
                assert_int_equal(relic_trn_triangle_flags(relic_trn_aswm_view_triangle(&v, l.w.triangles_count - 1)),
                                 l.w.triangles[l.w.triangles_count - 1].flags);
            relic_arena_release(&va);
            relic_buf_free(&raw);
            unload(&l);
        }
        free_list(&fl);
    }
}

/* Cut and mutated walkmesh bytes: the view accepts exactly what the model
 * path accepts, and every rejection carries a message. */
static void test_view_and_model_agree_on_cut_and_mutated_walkmeshes(void **state)
{
    (void)state;
    relic_arena a;
    relic_trn_aswm w;
    relic_error err;
    relic_buf raw;
    relic_arena_init_heap(&a, (size_t)64 << 20);
    bake_synth(&a, 3, 2, 3, walls, &w);
    relic_buf_init(&raw, 0);
    assert_int_equal(relic_trn_aswm_write(&w, &raw, &err), RELIC_OK);
    size_t n = raw.size;
    uint8_t *copy = malloc(n);
    unsigned agree = 0, accepted = 0;
    for (int k = 0; k < 64; k++) {
        size_t len = n * (size_t)k / 64;
        assert_int_equal(view_accepts(raw.data, len, &err), model_accepts(raw.data, len));
        assert_false(view_accepts(raw.data, len, &err));
    }
    uint64_t seed = 0x2545F4914F6CDD1Dull;
    for (int k = 0; k < 1500; k++) {
        memcpy(copy, raw.data, n);
        uint64_t r = xorshift(&seed);
        size_t at = (size_t)(r % n);
        copy[at] = (uint8_t)(r >> 32);
        if (r & (1ull << 62)) copy[(at + 1) % n] = (uint8_t)(r >> 40);
        int v = view_accepts(copy, n, &err), m = model_accepts(copy, n);
        if (v != m) print_message("disagree at byte %zu: view %d model %d (%s: %s)\n", at, v, m, err.path, err.message);
        assert_int_equal(v, m);
        agree++;
        accepted += (unsigned)v;
    }
    print_message("view vs model: %u mutants agree, %u accepted\n", agree, accepted);
    free(copy);
    relic_buf_free(&raw);
    relic_arena_release(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_real_aswm_rewrites_and_recompresses_byte_for_byte),
        cmocka_unit_test(test_baked_walkmesh_packs_and_reads_back),
        cmocka_unit_test(test_writer_refuses_inconsistent_tables),
        cmocka_unit_test(test_inflate_is_capped_by_limit_and_declared_size),
        cmocka_unit_test(test_synthetic_bake_validates_and_has_shortest_paths),
        cmocka_unit_test(test_single_open_tile_is_one_island),
        cmocka_unit_test(test_two_open_tiles_link_both_ways),
        cmocka_unit_test(test_tile_over_127_walkable_triangles_is_refused),
        cmocka_unit_test(test_border_tiles_are_removed),
        cmocka_unit_test(test_real_bakes_are_deterministic_valid_and_shortest),
        cmocka_unit_test(test_toolset_trx_files_pass_the_strict_rules),
        cmocka_unit_test(test_strict_rules_report_reused_triangles_links_and_exits),
        cmocka_unit_test(test_route_is_found_whenever_the_island_table_has_one),
        cmocka_unit_test(test_mutated_walkmeshes_never_crash_bake_or_path),
        cmocka_unit_test(test_every_real_walkmesh_validates_as_a_view),
        cmocka_unit_test(test_view_and_model_agree_on_cut_and_mutated_walkmeshes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
