/* test_trn_terrain.c — the TRRN (terrain megatile) and WATR (water)
 * packets of NWN2 TRN/TRX files (nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp): synthetic
 * payloads built with the generated writers decode, keep the rules
 * (exact consumption, triangle indices, NaN positions), round-trip byte
 * for byte (binary and JSON), sit in a container that `check` accepts,
 * survive every truncation and seeded byte mutations, and export to OBJ.
 * No corpus file holds a TRRN packet; the corpus WATR packets
 * (../shared/corpus/trn, trx; skipped, saying so, when absent) decode and
 * re-serialise byte for byte. */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "relic_trn.h"

/* ---- synthetic payloads ---- */

static relic_trrn_terrain_vertex tv[4];
static relic_trrn_terrain_triangle tt[2] = {{0, 1, 2}, {2, 1, 3}};
static uint8_t dds_a[16] = {'D', 'D', 'S', ' ', 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
static uint8_t dds_b[8] = {'D', 'D', 'S', ' ', 9, 9, 9, 9};
static relic_trrn_grass_blade blades[3];
static relic_trrn_grass grasses[2];

static void make_trrn(relic_trrn_file *t)
{
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "000001testarea00x00y");
    for (int i = 0; i < 6; i++) {
        snprintf(t->textures[i].name, sizeof t->textures[i].name, "tex_%d", i);
        t->texture_colors[i].r = 0.1f * (float)i;
        t->texture_colors[i].g = 0.5f;
        t->texture_colors[i].b = 1.0f;
    }
    for (int i = 0; i < 4; i++) {
        memset(&tv[i], 0, sizeof tv[i]);
        tv[i].position[0] = (float)(i & 1) * 10.0f;
        tv[i].position[1] = (float)(i >> 1) * 10.0f;
        tv[i].position[2] = 0.25f * (float)i;
        tv[i].normal[2] = 1.0f;
        tv[i].tint[0] = (uint8_t)(10 * i);
        tv[i].tint[3] = 255;
        tv[i].uv[0] = (float)(i & 1);
        tv[i].uv[1] = (float)(i >> 1);
        tv[i].uv2[0] = 0.5f;
    }
    t->vertex_count = 4;
    t->vertices = tv;
    t->vertices_count = 4;
    t->triangle_count = 2;
    t->triangles = tt;
    t->triangles_count = 2;
    t->dds_a_size = sizeof dds_a;
    t->dds_a = dds_a;
    t->dds_a_count = sizeof dds_a;
    t->dds_b_size = sizeof dds_b;
    t->dds_b = dds_b;
    t->dds_b_count = sizeof dds_b;
    for (int i = 0; i < 3; i++) {
        memset(&blades[i], 0, sizeof blades[i]);
        blades[i].position[0] = (float)i;
        blades[i].direction[2] = 1.0f;
        blades[i].dimension[0] = 0.5f;
    }
    memset(grasses, 0, sizeof grasses);
    snprintf(grasses[0].name, sizeof grasses[0].name, "grass_a");
    snprintf(grasses[0].texture, sizeof grasses[0].texture, "tx_grass_a");
    grasses[0].blade_count = 1;
    grasses[0].blades = blades;
    grasses[0].blades_count = 1;
    snprintf(grasses[1].name, sizeof grasses[1].name, "grass_b");
    grasses[1].blade_count = 2;
    grasses[1].blades = blades + 1;
    grasses[1].blades_count = 2;
    t->grass_count = 2;
    t->grasses = grasses;
    t->grasses_count = 2;
}

static relic_watr_water_vertex wv[3];
static relic_watr_water_triangle wt[2] = {{0, 1, 2}, {2, 1, 0}};
static uint32_t wflags[2] = {0, 1};
static uint8_t wdds[12] = {'D', 'D', 'S', ' ', 255, 0, 255, 0, 1, 2, 3, 4};

static void make_watr(relic_watr_file *w)
{
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "water");
    w->unknown[5] = 7;
    w->color[0] = 0.2f;
    w->color[2] = 0.8f;
    w->specular_power = 180.0f;
    w->specular_coefficient = 0.5f;
    snprintf(w->waves[1].name, sizeof w->waves[1].name, "wave");
    w->waves[1].rate = 2.0f;
    for (int i = 0; i < 3; i++) {
        memset(&wv[i], 0, sizeof wv[i]);
        wv[i].position[0] = (float)i;
        wv[i].position[1] = (float)(i * i);
        wv[i].uv[0] = 0.125f * (float)i;
    }
    w->vertex_count = 3;
    w->vertices = wv;
    w->vertices_count = 3;
    w->triangle_count = 2;
    w->triangles = wt;
    w->triangles_count = 2;
    w->triangle_flags = wflags;
    w->triangle_flags_count = 2;
    w->dds_size = sizeof wdds;
    w->dds = wdds;
    w->dds_count = sizeof wdds;
    w->megatile_x = 1;
    w->megatile_y = 2;
}

static void trrn_bytes(relic_buf *out)
{
    relic_trrn_file t;
    relic_error err;
    make_trrn(&t);
    relic_buf_init(out, 0);
    assert_int_equal(relic_trrn_write(&t, out, &err), RELIC_OK);
}

static void watr_bytes(relic_buf *out)
{
    relic_watr_file w;
    relic_error err;
    make_watr(&w);
    relic_buf_init(out, 0);
    assert_int_equal(relic_watr_write(&w, out, &err), RELIC_OK);
}

/* A synthetic TRWH + TRRN + WATR file, laid out by relic_trn_layout. */
static void container_bytes(relic_arena *a, relic_buf *out)
{
    relic_buf tr, wa;
    relic_error err;
    trrn_bytes(&tr);
    watr_bytes(&wa);
    relic_trn_file m;
    memset(&m, 0, sizeof m);
    memcpy(m.header.magic, "NWN2", 4);
    m.header.version_major = 2;
    m.header.version_minor = 3;
    relic_trn_packet *p = relic_arena_alloc(a, 3 * sizeof *p, _Alignof(relic_trn_packet));
    assert_non_null(p);
    memset(p, 0, 3 * sizeof *p);
    p[0].type = RELIC_TRN_PACKET_TYPE_TRWH;
    p[0].trwh.width = 1;
    p[0].trwh.height = 1;
    p[1].type = RELIC_TRN_PACKET_TYPE_TRRN;
    p[1].data = relic_arena_alloc(a, tr.size, 1);
    memcpy(p[1].data, tr.data, tr.size);
    p[1].data_count = tr.size;
    p[2].type = RELIC_TRN_PACKET_TYPE_WATR;
    p[2].data = relic_arena_alloc(a, wa.size, 1);
    memcpy(p[2].data, wa.data, wa.size);
    p[2].data_count = wa.size;
    m.packets = p;
    m.packets_count = 3;
    assert_int_equal(relic_trn_layout(&m, a, &err), RELIC_OK);
    relic_buf_init(out, 0);
    assert_int_equal(relic_trn_write(&m, out, &err), RELIC_OK);
    relic_buf_free(&tr);
    relic_buf_free(&wa);
}

static void count_problem(void *ctx, const relic_error *e)
{
    (void)e;
    (*(int *)ctx)++;
}

/* ---- tests ---- */

static void test_synthetic_trrn_decodes_to_what_was_written(void **state)
{
    (void)state;
    relic_buf b;
    relic_arena a;
    relic_error err;
    relic_trrn_file t;
    trrn_bytes(&b);
    /* 128 + 6*32 + 6*12 + 8 + 4*44 + 2*6 + 4+16 + 4+8 + 4 + (68+36) + (68+72) */
    assert_int_equal(b.size, 128 + 192 + 72 + 8 + 176 + 12 + 20 + 12 + 4 + 104 + 140);
    relic_arena_init_heap(&a, 1 << 20);
    assert_int_equal(relic_trn_trrn_read(b.data, b.size, &a, &t, &err), RELIC_OK);
    assert_string_equal(t.name, "000001testarea00x00y");
    assert_string_equal(t.textures[5].name, "tex_5");
    assert_int_equal(t.vertex_count, 4);
    assert_true(t.vertices[3].position[2] == 0.75f);
    assert_int_equal(t.vertices[3].tint[0], 30);
    assert_int_equal(t.triangles[1].c, 3);
    assert_memory_equal(t.dds_a, dds_a, sizeof dds_a);
    assert_memory_equal(t.dds_b, dds_b, sizeof dds_b);
    assert_int_equal(t.grass_count, 2);
    assert_int_equal(t.grasses[1].blade_count, 2);
    assert_true(t.grasses[1].blades[1].position[0] == 2.0f);
    assert_string_equal(t.grasses[0].texture, "tx_grass_a");
    relic_buf again;
    relic_buf_init(&again, 0);
    assert_int_equal(relic_trrn_write(&t, &again, &err), RELIC_OK);
    assert_int_equal(again.size, b.size);
    assert_memory_equal(again.data, b.data, b.size);
    relic_buf_free(&again);
    relic_buf_free(&b);
    relic_arena_release(&a);
}

static void test_synthetic_watr_decodes_to_what_was_written(void **state)
{
    (void)state;
    relic_buf b, again;
    relic_arena a;
    relic_error err;
    relic_watr_file w;
    watr_bytes(&b);
    assert_int_equal(b.size, 328 + 3 * 28 + 2 * 6 + 2 * 4 + 4 + 12 + 8);
    relic_arena_init_heap(&a, 1 << 20);
    assert_int_equal(relic_trn_watr_read(b.data, b.size, &a, &w, &err), RELIC_OK);
    assert_int_equal(w.unknown[5], 7);
    assert_true(w.specular_power == 180.0f);
    assert_string_equal(w.waves[1].name, "wave");
    assert_int_equal(w.vertex_count, 3);
    assert_int_equal(w.triangle_flags[1], 1);
    assert_int_equal(w.megatile_y, 2);
    relic_buf_init(&again, 0);
    assert_int_equal(relic_watr_write(&w, &again, &err), RELIC_OK);
    assert_int_equal(again.size, b.size);
    assert_memory_equal(again.data, b.data, b.size);
    relic_buf_free(&again);
    relic_buf_free(&b);
    relic_arena_release(&a);
}

static void test_trrn_json_round_trip_is_byte_exact(void **state)
{
    (void)state;
    relic_buf b, json, again;
    relic_arena a;
    relic_error err;
    relic_trrn_file t, t2;
    trrn_bytes(&b);
    relic_arena_init_heap(&a, 1 << 20);
    assert_int_equal(relic_trn_trrn_read(b.data, b.size, &a, &t, &err), RELIC_OK);
    relic_buf_init(&json, 0);
    relic_buf_init(&again, 0);
    assert_int_equal(relic_trrn_json_print(&t, &json, &err), RELIC_OK);
    assert_int_equal(relic_trrn_json_read((const char *)json.data, json.size, &a, &t2, &err), RELIC_OK);
    assert_int_equal(relic_trrn_write(&t2, &again, &err), RELIC_OK);
    assert_int_equal(again.size, b.size);
    assert_memory_equal(again.data, b.data, b.size);
    relic_buf_free(&json);
    relic_buf_free(&again);
    relic_buf_free(&b);
    relic_arena_release(&a);
}

static void test_trailing_byte_after_trrn_is_a_layout_error(void **state)
{
    (void)state;
    relic_buf b;
    relic_arena a;
    relic_error err;
    relic_trrn_file t;
    relic_watr_file w;
    trrn_bytes(&b);
    relic_buf_append(&b, "\0", 1);
    relic_arena_init_heap(&a, 1 << 20);
    assert_int_equal(relic_trn_trrn_read(b.data, b.size, &a, &t, &err), RELIC_E_LAYOUT);
    assert_int_equal(err.offset, b.size - 1);
    relic_buf_free(&b);
    watr_bytes(&b);
    relic_buf_append(&b, "\0", 1);
    assert_int_equal(relic_trn_watr_read(b.data, b.size, &a, &w, &err), RELIC_E_LAYOUT);
    assert_int_equal(err.offset, b.size - 1);
    relic_buf_free(&b);
    relic_arena_release(&a);
}

static void test_triangle_index_past_vertices_is_an_index_error(void **state)
{
    (void)state;
    relic_buf b;
    relic_arena a;
    relic_error err;
    relic_trrn_file t;
    relic_watr_file w;
    make_trrn(&t);
    tt[1].b = 4;
    relic_buf_init(&b, 0);
    assert_int_equal(relic_trrn_write(&t, &b, &err), RELIC_OK);
    tt[1].b = 1;
    relic_arena_init_heap(&a, 1 << 20);
    assert_int_equal(relic_trn_trrn_read(b.data, b.size, &a, &t, &err), RELIC_E_INDEX);
    assert_string_equal(err.path, "triangles[1].b");
    assert_int_equal(err.offset, 128 + 192 + 72 + 8 + 176 + 6 + 2);
    relic_buf_free(&b);
    make_watr(&w);
    wt[0].c = 3;
    relic_buf_init(&b, 0);
    assert_int_equal(relic_watr_write(&w, &b, &err), RELIC_OK);
    wt[0].c = 2;
    assert_int_equal(relic_trn_watr_read(b.data, b.size, &a, &w, &err), RELIC_E_INDEX);
    assert_string_equal(err.path, "triangles[0].c");
    relic_buf_free(&b);
    relic_arena_release(&a);
}

static void test_nan_vertex_position_is_a_range_error(void **state)
{
    (void)state;
    relic_buf b;
    relic_arena a;
    relic_error err;
    relic_trrn_file t;
    make_trrn(&t);
    tv[2].position[1] = NAN;
    relic_buf_init(&b, 0);
    assert_int_equal(relic_trrn_write(&t, &b, &err), RELIC_OK);
    relic_arena_init_heap(&a, 1 << 20);
    assert_int_equal(relic_trn_trrn_read(b.data, b.size, &a, &t, &err), RELIC_E_RANGE);
    assert_string_equal(err.path, "vertices[2].position[1]");
    relic_buf_free(&b);
    relic_arena_release(&a);
}

static void test_infinite_vertex_position_and_normal_are_range_errors(void **state)
{
    (void)state;
    relic_buf b;
    relic_arena a;
    relic_error err;
    relic_trrn_file t;
    make_trrn(&t);
    tv[1].position[0] = -INFINITY;
    relic_buf_init(&b, 0);
    assert_int_equal(relic_trrn_write(&t, &b, &err), RELIC_OK);
    relic_arena_init_heap(&a, 1 << 20);
    assert_int_equal(relic_trn_trrn_read(b.data, b.size, &a, &t, &err), RELIC_E_RANGE);
    assert_string_equal(err.path, "vertices[1].position[0]");
    /* the float's own bytes: the error offset points at -infinity */
    float at;
    memcpy(&at, b.data + err.offset, 4);
    assert_true(isinf(at) && at < 0);
    relic_buf_free(&b);
    relic_arena_release(&a);

    make_trrn(&t);
    tv[3].normal[2] = NAN;
    relic_buf_init(&b, 0);
    assert_int_equal(relic_trrn_write(&t, &b, &err), RELIC_OK);
    relic_arena_init_heap(&a, 1 << 20);
    assert_int_equal(relic_trn_trrn_read(b.data, b.size, &a, &t, &err), RELIC_E_RANGE);
    assert_string_equal(err.path, "vertices[3].normal[2]");
    memcpy(&at, b.data + err.offset, 4);
    assert_true(isnan(at));
    relic_buf_free(&b);
    relic_arena_release(&a);
}

static void test_nan_water_vertex_is_a_range_error(void **state)
{
    (void)state;
    relic_buf b;
    relic_arena a;
    relic_error err;
    relic_watr_file w;
    make_watr(&w);
    wv[2].position[2] = NAN;
    relic_buf_init(&b, 0);
    assert_int_equal(relic_watr_write(&w, &b, &err), RELIC_OK);
    relic_arena_init_heap(&a, 1 << 20);
    assert_int_equal(relic_trn_watr_read(b.data, b.size, &a, &w, &err), RELIC_E_RANGE);
    assert_string_equal(err.path, "vertices[2].position[2]");
    float at;
    memcpy(&at, b.data + err.offset, 4);
    assert_true(isnan(at));
    relic_buf_free(&b);
    relic_arena_release(&a);
}

static void test_container_with_terrain_checks_and_round_trips(void **state)
{
    (void)state;
    relic_arena a;
    relic_buf b, again;
    relic_error err;
    relic_trn_view v;
    relic_trn_file m;
    relic_arena_init_heap(&a, 1 << 20);
    container_bytes(&a, &b);
    assert_int_equal(relic_trn_validate(b.data, b.size, &v, &err), RELIC_OK);
    int problems = 0;
    assert_int_equal(relic_trn_check_container(&v, count_problem, &problems), 0);
    assert_int_equal(relic_trn_decode(&v, &a, &m, &err), RELIC_OK);
    assert_int_equal(relic_trn_check_terrain(&m, &a, count_problem, &problems), 0);
    relic_buf_init(&again, 0);
    assert_int_equal(relic_trn_write(&m, &again, &err), RELIC_OK);
    assert_int_equal(again.size, b.size);
    assert_memory_equal(again.data, b.data, b.size);
    /* a broken TRRN payload is one reported problem, with its path */
    m.packets[1].data[128 + 192 + 72] = 99; /* vertex_count: 99 vertices do not fit */
    assert_int_equal(relic_trn_check_terrain(&m, &a, count_problem, &problems), 1);
    assert_int_equal(problems, 1);
    relic_buf_free(&again);
    relic_buf_free(&b);
    relic_arena_release(&a);
}

static int count_lines(const relic_buf *b, const char *prefix)
{
    int n = 0;
    size_t len = strlen(prefix);
    const char *s = (const char *)b->data, *end = s + b->size;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        if (!nl) nl = end;
        if ((size_t)(nl - s) >= len && !memcmp(s, prefix, len)) n++;
        s = nl + 1;
    }
    return n;
}

static void test_terrain_obj_has_megatile_and_water_groups(void **state)
{
    (void)state;
    relic_arena a;
    relic_buf b, obj;
    relic_error err;
    relic_trn_view v;
    relic_trn_file m;
    relic_arena_init_heap(&a, 1 << 20);
    container_bytes(&a, &b);
    assert_int_equal(relic_trn_validate(b.data, b.size, &v, &err), RELIC_OK);
    assert_int_equal(relic_trn_decode(&v, &a, &m, &err), RELIC_OK);
    relic_buf_init(&obj, 0);
    assert_int_equal(relic_trn_terrain_obj(&m, &a, &obj, &err), RELIC_OK);
    assert_int_equal(count_lines(&obj, "g terrain_1"), 1);
    assert_int_equal(count_lines(&obj, "g water_2"), 1);
    assert_int_equal(count_lines(&obj, "v "), 4 + 3);
    assert_int_equal(count_lines(&obj, "vt "), 4 + 3);
    assert_int_equal(count_lines(&obj, "vn "), 4);
    assert_int_equal(count_lines(&obj, "f "), 2 + 1); /* the water triangle flagged 1 (no water) is left out */
    assert_int_equal(count_lines(&obj, "f 3/3/3 2/2/2 4/4/4"), 1);
    assert_int_equal(count_lines(&obj, "f 5/5 6/6 7/7"), 1); /* water indices follow the 4 terrain vertices */
    relic_buf_free(&obj);
    /* without terrain packets there is nothing to export */
    m.packets_count = 1;
    relic_buf_init(&obj, 0);
    assert_int_equal(relic_trn_terrain_obj(&m, &a, &obj, &err), RELIC_E_UNSUPPORTED);
    relic_buf_free(&obj);
    relic_buf_free(&b);
    relic_arena_release(&a);
}

static void test_truncated_payloads_are_rejected(void **state)
{
    (void)state;
    relic_buf tr, wa;
    relic_arena a;
    relic_error err;
    trrn_bytes(&tr);
    watr_bytes(&wa);
    relic_arena_init_heap(&a, 1 << 20);
    for (size_t cut = 0; cut < tr.size; cut++) {
        relic_trrn_file t;
        uint8_t *copy = malloc(cut + 1);
        memcpy(copy, tr.data, cut);
        assert_int_not_equal(relic_trn_trrn_read(copy, cut, &a, &t, &err), RELIC_OK);
        free(copy);
    }
    for (size_t cut = 0; cut < wa.size; cut++) {
        relic_watr_file w;
        uint8_t *copy = malloc(cut + 1);
        memcpy(copy, wa.data, cut);
        assert_int_not_equal(relic_trn_watr_read(copy, cut, &a, &w, &err), RELIC_OK);
        free(copy);
    }
    relic_buf_free(&tr);
    relic_buf_free(&wa);
    relic_arena_release(&a);
}

static void test_mutated_terrain_files_never_crash(void **state)
{
    (void)state;
    relic_arena a;
    relic_buf b;
    unsigned accepted = 0, total = 0;
    relic_arena_init_heap(&a, 1 << 20);
    container_bytes(&a, &b);
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (int k = 0; k < 4000; k++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint8_t *copy = malloc(b.size);
        memcpy(copy, b.data, b.size);
        copy[(seed >> 16) % b.size] = (uint8_t)(seed >> 40);
        relic_arena m_arena;
        relic_arena_init_heap(&m_arena, 1 << 22);
        relic_trn_view v;
        relic_trn_file m;
        relic_error err;
        relic_buf obj;
        relic_buf_init(&obj, 0);
        if (relic_trn_validate(copy, b.size, &v, &err) == RELIC_OK && relic_trn_decode(&v, &m_arena, &m, &err) == RELIC_OK) {
            int problems = 0;
            if (relic_trn_check_terrain(&m, &m_arena, count_problem, &problems) == 0) {
                accepted++;
                assert_int_equal(relic_trn_terrain_obj(&m, &m_arena, &obj, &err), RELIC_OK);
            }
        }
        relic_buf_free(&obj);
        relic_arena_release(&m_arena);
        free(copy);
        total++;
    }
    print_message("terrain mutations: %u inputs, %u accepted\n", total, accepted);
    relic_buf_free(&b);
    relic_arena_release(&a);
}

/* Every corpus WATR packet decodes and re-serialises to its own bytes. */
static void test_real_watr_packets_decode_and_round_trip(void **state)
{
    (void)state;
    const char *dirs[2] = {"../shared/corpus/trn", "../shared/corpus/trx"};
    int files = 0, packets = 0;
    for (int d = 0; d < 2; d++) {
        DIR *dir = opendir(dirs[d]);
        if (!dir) continue;
        struct dirent *e;
        while ((e = readdir(dir))) {
            char ext[8], path[1024];
            relic_path_extension(e->d_name, ext, sizeof ext);
            if (strcmp(ext, "trn") && strcmp(ext, "trx")) continue;
            snprintf(path, sizeof path, "%s/%s", dirs[d], e->d_name);
            relic_mapping mp;
            relic_error err;
            relic_arena a;
            relic_trn_view v;
            relic_trn_file m;
            assert_int_equal(relic_map_file(path, 0, &mp, &err), RELIC_OK);
            relic_arena_init_heap(&a, (size_t)1 << 30);
            assert_int_equal(relic_trn_validate(mp.bytes.data, mp.bytes.size, &v, &err), RELIC_OK);
            assert_int_equal(relic_trn_decode(&v, &a, &m, &err), RELIC_OK);
            for (size_t i = 0; i < m.packets_count; i++) {
                if (m.packets[i].type != RELIC_TRN_PACKET_TYPE_WATR) continue;
                relic_watr_file w;
                relic_buf out;
                if (relic_trn_watr_read(m.packets[i].data, m.packets[i].data_count, &a, &w, &err) != RELIC_OK)
                    fail_msg("%s packets[%zu]: %s @0x%llx: %s", path, i, err.path, (unsigned long long)err.offset, err.message);
                relic_buf_init(&out, 0);
                assert_int_equal(relic_watr_write(&w, &out, &err), RELIC_OK);
                assert_int_equal(out.size, m.packets[i].data_count);
                assert_memory_equal(out.data, m.packets[i].data, out.size);
                relic_buf_free(&out);
                packets++;
            }
            relic_arena_release(&a);
            relic_unmap(&mp);
            files++;
        }
        closedir(dir);
    }
    if (files == 0) print_message("note: ../shared/corpus/trn and trx not found: the real-file part of this test is skipped\n");
    else print_message("real WATR packets: %d from %d files decode and round-trip\n", packets, files);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_synthetic_trrn_decodes_to_what_was_written),
        cmocka_unit_test(test_synthetic_watr_decodes_to_what_was_written),
        cmocka_unit_test(test_trrn_json_round_trip_is_byte_exact),
        cmocka_unit_test(test_trailing_byte_after_trrn_is_a_layout_error),
        cmocka_unit_test(test_triangle_index_past_vertices_is_an_index_error),
        cmocka_unit_test(test_nan_vertex_position_is_a_range_error),
        cmocka_unit_test(test_infinite_vertex_position_and_normal_are_range_errors),
        cmocka_unit_test(test_nan_water_vertex_is_a_range_error),
        cmocka_unit_test(test_container_with_terrain_checks_and_round_trips),
        cmocka_unit_test(test_terrain_obj_has_megatile_and_water_groups),
        cmocka_unit_test(test_truncated_payloads_are_rejected),
        cmocka_unit_test(test_mutated_terrain_files_never_crash),
        cmocka_unit_test(test_real_watr_packets_decode_and_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
