/* test_swp.c — Trespasser textures (runtime/swp_*.c) against the Trespasser
 * source (Lib/Loader/ImageLoader.cpp, Lib/Audio/AudioLoad.cpp) and Trespasser file formats, "PID"/"SWP": a synthetic PID + SWP made by
 * relic_swp_pack decodes back to its source images (exactly for sources
 * of at most 256 colours and for 4444-representable alpha images; within
 * a stated bound when quantised), mip levels down to a side below 16 with
 * the keys of §2.2, the SPZ stream walk equals the SWP walk, PNG both
 * ways, the rejections (raster outside the SWP, palette index past the
 * palette), every raster of the corpus PID decodes, and truncation and
 * mutation sweeps (ASan+UBSan in `make test`). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "relic_swp.h"
#include "relic_tres_names.h"

/* relic_lzss_encode with its scratch tables in a heap arena freed at once */
static relic_status encode_scratch(relic_lzss_variant v, relic_lzss_level level, const uint8_t *src, size_t n, relic_buf *out,
                                   relic_error *err)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_status st = relic_lzss_encode(v, level, src, n, &a, out, err);
    relic_arena_release(&a);
    return st;
}

static const char corpus_pid[] =
    "../shared/corpus/pid/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__demo-130.pid";

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

static relic_image make_image(uint32_t w, uint32_t h)
{
    relic_image im = {w, h, calloc((size_t)w * h, 4)};
    return im;
}

static uint8_t *px(const relic_image *im, uint32_t x, uint32_t y) { return im->rgba + ((size_t)y * im->width + x) * 4; }

/* 200 colours (x-band and y-band) with a transparent corner: exact in 8 bits */
static relic_image few_colours(uint32_t w, uint32_t h)
{
    relic_image im = make_image(w, h);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *p = px(&im, x, y);
            p[0] = (uint8_t)((x * 20 / w) * 12);
            p[1] = (uint8_t)((y * 10 / h) * 25);
            p[2] = 99;
            p[3] = (x < 3 && y < 3) ? 0 : 255;
        }
    return im;
}

/* partial alpha, every channel a multiple of 17: exact in 4444 */
static relic_image alpha_4444(uint32_t w, uint32_t h)
{
    relic_image im = make_image(w, h);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *p = px(&im, x, y);
            p[0] = (uint8_t)((x % 16) * 17);
            p[1] = (uint8_t)((y % 16) * 17);
            p[2] = (uint8_t)(((x + y) % 16) * 17);
            p[3] = (uint8_t)(((x * 3 + y) % 16) * 17);
        }
    return im;
}

/* a 16-bit bump texture: 40 colours and an angle map */
static relic_image bump_colours(uint32_t w, uint32_t h)
{
    relic_image im = make_image(w, h);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *p = px(&im, x, y);
            p[0] = (uint8_t)((x * 8 / w) * 30);
            p[1] = (uint8_t)((y * 5 / h) * 50);
            p[2] = 10;
            p[3] = 255;
        }
    return im;
}

static relic_image bump_angles(uint32_t w, uint32_t h)
{
    relic_image im = make_image(w, h);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *p = px(&im, x, y);
            p[0] = (uint8_t)(((x + 7 * y) % 64) * 4);
            p[1] = (uint8_t)(((x ^ y) % 16) * 17);
            p[2] = 0;
            p[3] = 255;
        }
    return im;
}

/* thousands of colours: quantised */
static relic_image gradient(uint32_t w, uint32_t h)
{
    relic_image im = make_image(w, h);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *p = px(&im, x, y);
            p[0] = (uint8_t)(x * 255 / (w - 1));
            p[1] = (uint8_t)(y * 255 / (h - 1));
            p[2] = (uint8_t)((x + y) * 127 / (w + h));
            p[3] = 255;
        }
    return im;
}

typedef struct packed {
    relic_arena arena;
    relic_buf pid, swp;
    relic_pid_view v;
    relic_swp_palettes pal;
} packed;

static void pack(packed *pk, const relic_swp_texture *t, size_t n)
{
    relic_error err;
    relic_pid_file model;
    relic_arena_init_heap(&pk->arena, 0);
    relic_buf_init(&pk->pid, 0);
    relic_buf_init(&pk->swp, 0);
    assert_int_equal(relic_swp_pack(t, n, &pk->arena, &model, &pk->swp, &err), RELIC_OK);
    assert_int_equal(relic_pid_write(&model, &pk->pid, &err), RELIC_OK);
    assert_int_equal(relic_pid_validate(pk->pid.data, pk->pid.size, &pk->v, &err), RELIC_OK);
    assert_int_equal(relic_swp_palettes_find(&pk->v, &pk->arena, &pk->pal, &err), RELIC_OK);
}

static void unpack(packed *pk)
{
    relic_buf_free(&pk->pid);
    relic_buf_free(&pk->swp);
    relic_arena_release(&pk->arena);
}

/* index of the top-level raster of id */
static size_t top_raster(const relic_pid_view *v, uint32_t id)
{
    for (size_t i = 0; i < v->rasters_count; i++)
        if (relic_pid_raster_key(relic_pid_rasters_at(v, i)) == id) return i;
    fail_msg("no raster for %08X", id);
    return 0;
}

/* equal where visible; transparent pixels only need alpha 0 */
static void assert_same_image(const uint8_t *a, const uint8_t *b, size_t pixels)
{
    for (size_t k = 0; k < pixels; k++) {
        const uint8_t *p = a + 4 * k, *q = b + 4 * k;
        assert_int_equal(p[3], q[3]);
        if (p[3]) {
            assert_int_equal(p[0], q[0]);
            assert_int_equal(p[1], q[1]);
            assert_int_equal(p[2], q[2]);
        }
    }
}

static void test_pack_then_decode_gives_the_source_images(void **state)
{
    (void)state;
    relic_image a = few_colours(64, 32), b = alpha_4444(16, 16), c = bump_colours(32, 32), cb = bump_angles(32, 32);
    relic_image d = few_colours(5, 7);
    relic_swp_texture t[4] = {{0x11111111, a, NULL, 0}, {0x22222222, b, NULL, 0}, {0x33333333, c, &cb, 0}, {0x44444444, d, NULL, 1}};
    packed pk;
    relic_error err;
    pack(&pk, t, 4);
    uint8_t *out = malloc(64 * 64 * 4);
    for (size_t k = 0; k < 4; k++) {
        size_t i = top_raster(&pk.v, t[k].id);
        assert_int_equal(relic_swp_raster_rgba(&pk.v, &pk.pal, i, pk.swp.data, 0, pk.swp.size, out, &err), RELIC_OK);
        assert_same_image(out, t[k].image.rgba, (size_t)t[k].image.width * t[k].image.height);
    }
    /* kinds and flags */
    relic_swp_kind kind;
    assert_int_equal(relic_swp_raster_kind(&pk.v, top_raster(&pk.v, 0x11111111), &kind, &err), RELIC_OK);
    assert_int_equal(kind, RELIC_SWP_INDEXED);
    assert_int_equal(relic_pid_raster_transparent(relic_pid_rasters_at(&pk.v, top_raster(&pk.v, 0x11111111))), RELIC_SWP_TRANSPARENT_COLOUR);
    assert_int_equal(relic_swp_raster_kind(&pk.v, top_raster(&pk.v, 0x22222222), &kind, &err), RELIC_OK);
    assert_int_equal(kind, RELIC_SWP_COLOUR4444);
    assert_int_equal(relic_swp_raster_kind(&pk.v, top_raster(&pk.v, 0x33333333), &kind, &err), RELIC_OK);
    assert_int_equal(kind, RELIC_SWP_BUMP);
    assert_int_not_equal(relic_pid_raster_occlusion(relic_pid_rasters_at(&pk.v, top_raster(&pk.v, 0x44444444))), 0);
    /* the bump angles come back exactly */
    size_t bi = top_raster(&pk.v, 0x33333333);
    assert_int_equal(relic_swp_bump(&pk.v, bi, pk.swp.data, 0, pk.swp.size, out, &err), RELIC_OK);
    assert_memory_equal(out, cb.rgba, 32 * 32 * 4);
    assert_int_equal(relic_swp_bump(&pk.v, top_raster(&pk.v, 0x11111111), pk.swp.data, 0, pk.swp.size, out, &err),
                     RELIC_E_ARGUMENT);
    /* the strict PID rules (mip keys, palette chunk size) hold */
    relic_arena scratch;
    relic_arena_init_heap(&scratch, 0);
    assert_int_equal(relic_pid_check(&pk.v, 1, &scratch, NULL, NULL), 0);
    relic_arena_release(&scratch);
    free(out);
    unpack(&pk);
    free(a.rgba);
    free(b.rgba);
    free(c.rgba);
    free(cb.rgba);
    free(d.rgba);
}

static void test_mip_levels_until_a_side_is_below_16_with_spec_keys(void **state)
{
    (void)state;
    relic_image a = few_colours(256, 64), b = few_colours(30, 132);
    relic_swp_texture t[2] = {{0xABCDEF01, a, NULL, 0}, {0x12345678, b, NULL, 0}};
    packed pk;
    pack(&pk, t, 2);
    /* 256x64 -> 128x32 -> 64x16 -> 32x8; 30x132 -> 15x66 */
    static const uint32_t want[][2] = {{256, 64}, {128, 32}, {64, 16}, {32, 8}, {30, 132}, {15, 66}};
    assert_int_equal(pk.v.rasters_count, 6);
    for (size_t i = 0; i < 6; i++) {
        relic_pid_raster_view r = relic_pid_rasters_at(&pk.v, i);
        assert_int_equal(relic_pid_raster_width(r), want[i][0]);
        assert_int_equal(relic_pid_raster_height(r), want[i][1]);
        uint64_t key = relic_pid_raster_key(r);
        uint32_t id = i < 4 ? 0xABCDEF01u : 0x12345678u;
        int top = i == 0 || i == 4;
        uint32_t p = relic_pid_raster_palette(r);
        uint32_t hash = relic_load_u32le(pk.pal.colours[p] - 4);
        assert_true(key == (top ? id : relic_tres_mip_key(id, want[i][0], want[i][1], hash)));
    }
    /* the smallest level of each texture lies in the non-pageable section, the others after it */
    const relic_pid_header *h = &pk.v.values.header;
    assert_true(h->nonpageable_size < h->first_pageable);
    for (size_t i = 0; i < 6; i++) {
        relic_pid_raster_view r = relic_pid_rasters_at(&pk.v, i);
        uint32_t off = relic_pid_raster_swp_offset(r);
        if (i == 3 || i == 5) assert_true(off < h->nonpageable_size);
        else assert_true(off >= h->first_pageable);
    }
    /* power-of-two rows go in 512-byte-wide pages */
    assert_int_equal(relic_pid_raster_stride(relic_pid_rasters_at(&pk.v, 0)), 512);
    assert_int_equal(relic_pid_raster_stride(relic_pid_rasters_at(&pk.v, 4)), 30);
    unpack(&pk);
    free(a.rgba);
    free(b.rgba);
}

static void test_quantised_texture_stays_within_the_stated_bound(void **state)
{
    (void)state;
    relic_image a = gradient(128, 128);
    relic_swp_texture t = {0x55555555, a, NULL, 0};
    packed pk;
    relic_error err;
    pack(&pk, &t, 1);
    uint8_t *out = malloc(128 * 128 * 4);
    assert_int_equal(relic_swp_raster_rgba(&pk.v, &pk.pal, 0, pk.swp.data, 0, pk.swp.size, out, &err), RELIC_OK);
    uint64_t sum = 0;
    unsigned worst = 0;
    for (size_t k = 0; k < 128 * 128 * 4; k++) {
        unsigned d = (unsigned)abs((int)out[k] - (int)a.rgba[k]);
        sum += d;
        if (d > worst) worst = d;
    }
    double mean = (double)sum / (128.0 * 128 * 3);
    print_message("16384 colours -> 256: mean channel error %.2f, worst %u\n", mean, worst);
    /* the bound README states: mean error at most 4 of 255, no channel off by more than 32 */
    assert_true(mean <= 4.0);
    assert_true(worst <= 32);
    free(out);
    unpack(&pk);
    free(a.rgba);
}

typedef struct collect {
    const relic_pid_view *v;
    const relic_swp_palettes *pal;
    uint8_t **images; /* per raster */
    size_t visits;
} collect;

static relic_status collect_one(void *vctx, size_t i, const uint8_t *swp, uint64_t base, size_t size, relic_error *err)
{
    collect *c = vctx;
    relic_pid_raster_view r = relic_pid_rasters_at(c->v, i);
    c->images[i] = malloc((size_t)relic_pid_raster_width(r) * relic_pid_raster_height(r) * 4);
    c->visits++;
    return relic_swp_raster_rgba(c->v, c->pal, i, swp, base, size, c->images[i], err);
}

static void walk_all(const packed *pk, const uint8_t *data, size_t size, int spz, uint64_t limit, relic_status want,
                     uint8_t **images)
{
    relic_arena a;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    collect c = {&pk->v, &pk->pal, images, 0};
    assert_int_equal(relic_swp_walk(&pk->v, data, size, spz, limit, &a, collect_one, &c, &err), want);
    relic_arena_release(&a);
}

static void test_spz_stream_walk_equals_swp_walk(void **state)
{
    (void)state;
    relic_image a = few_colours(256, 256), b = alpha_4444(64, 32), c = gradient(40, 24);
    relic_swp_texture t[3] = {{1, a, NULL, 0}, {2, b, NULL, 0}, {3, c, NULL, 0}};
    packed pk;
    relic_error err;
    pack(&pk, t, 3);
    relic_buf spz;
    relic_buf_init(&spz, 0);
    relic_arena sa; /* encoder scratch */
    relic_arena_init_heap(&sa, 0);
    assert_int_equal(relic_lzss_container_encode(RELIC_LZSS_SPZ, RELIC_LZSS_FAST, 0, pk.swp.data, pk.swp.size, &sa, &spz, &err), RELIC_OK);
    relic_arena_release(&sa);
    size_t n = pk.v.rasters_count;
    uint8_t **x = calloc(n, sizeof *x), **y = calloc(n, sizeof *y);
    walk_all(&pk, pk.swp.data, pk.swp.size, 0, 0, RELIC_OK, x);
    walk_all(&pk, spz.data, spz.size, 1, (uint64_t)1 << 30, RELIC_OK, y);
    for (size_t i = 0; i < n; i++) {
        relic_pid_raster_view r = relic_pid_rasters_at(&pk.v, i);
        assert_non_null(x[i]);
        assert_non_null(y[i]);
        assert_memory_equal(x[i], y[i], (size_t)relic_pid_raster_width(r) * relic_pid_raster_height(r) * 4);
        free(x[i]);
        free(y[i]);
    }
    /* the window is bounded: a limit below the largest raster span is refused before decoding */
    memset(y, 0, n * sizeof *y);
    walk_all(&pk, spz.data, spz.size, 1, 4096, RELIC_E_LIMIT, y);
    /* a stream shorter than its rasters is a truncation, not a crash */
    walk_all(&pk, spz.data, spz.size / 2, 1, (uint64_t)1 << 30, RELIC_E_TRUNCATED, y);
    for (size_t i = 0; i < n; i++) free(y[i]);
    free(x);
    free(y);
    relic_buf_free(&spz);
    unpack(&pk);
    free(a.rgba);
    free(b.rgba);
    free(c.rgba);
}

static void test_png_write_then_read_is_identity(void **state)
{
    (void)state;
    relic_image a = alpha_4444(33, 17);
    relic_buf png;
    relic_error err;
    relic_arena ar;
    relic_image back;
    relic_buf_init(&png, 0);
    relic_arena_init_heap(&ar, 0);
    assert_int_equal(relic_png_write_rgba(a.rgba, 33, 17, &png, &err), RELIC_OK);
    assert_int_equal(relic_png_read_rgba(png.data, png.size, 1024, &ar, &back, &err), RELIC_OK);
    assert_int_equal(back.width, 33);
    assert_int_equal(back.height, 17);
    assert_memory_equal(back.rgba, a.rgba, 33 * 17 * 4);
    assert_int_equal(relic_png_read_rgba(png.data, png.size, 16, &ar, &back, &err), RELIC_E_SYNTAX);
    assert_int_equal(relic_png_read_rgba((const uint8_t *)"GIF89a..", 8, 1024, &ar, &back, &err), RELIC_E_MAGIC);
    for (size_t cut = 8; cut < png.size; cut += 7)
        assert_int_not_equal(relic_png_read_rgba(png.data, cut, 1024, &ar, &back, &err), RELIC_OK);
    relic_arena_release(&ar);
    relic_buf_free(&png);
    free(a.rgba);
}

static void test_raster_outside_the_swp_names_its_offset_field(void **state)
{
    (void)state;
    relic_image a = few_colours(16, 16);
    relic_swp_texture t = {7, a, NULL, 0};
    packed pk;
    relic_error err;
    pack(&pk, &t, 1);
    uint8_t *out = malloc(16 * 16 * 4);
    size_t i = top_raster(&pk.v, 7);
    assert_int_equal(relic_swp_raster_rgba(&pk.v, &pk.pal, i, pk.swp.data, 0, 100, out, &err), RELIC_E_TRUNCATED);
    char want[64];
    snprintf(want, sizeof want, "rasters[%zu].swp_offset", i);
    assert_string_equal(err.path, want);
    assert_int_equal(err.offset, pk.v.values.header.raster_offset + i * 56 + 4);
    uint8_t *none[4] = {0};
    walk_all(&pk, pk.swp.data, 100, 0, 0, RELIC_E_TRUNCATED, none);
    free(out);
    unpack(&pk);
    free(a.rgba);
}

static void test_palette_index_past_the_palette_is_an_index_error(void **state)
{
    (void)state;
    relic_image a = few_colours(16, 16);
    relic_swp_texture t = {7, a, NULL, 0};
    packed pk;
    relic_error err;
    pack(&pk, &t, 1);
    size_t i = top_raster(&pk.v, 7);
    relic_pid_raster_view r = relic_pid_rasters_at(&pk.v, i);
    uint32_t off = relic_pid_raster_swp_offset(r);
    pk.swp.data[off + 5] = 255; /* the palette has fewer colours */
    uint8_t *out = malloc(16 * 16 * 4);
    assert_int_equal(relic_swp_raster_rgba(&pk.v, &pk.pal, i, pk.swp.data, 0, pk.swp.size, out, &err), RELIC_E_INDEX);
    assert_string_equal(err.path, "rasters[0].pixels[15][5]"); /* row 0 of the SWP is the bottom row */
    assert_int_equal(err.offset, off + 5);
    free(out);
    unpack(&pk);
    free(a.rgba);
}

static uint8_t *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc(sz > 0 ? (size_t)sz : 1);
    *n = fread(p, 1, (size_t)sz, f);
    fclose(f);
    return p;
}

typedef struct kinds {
    const relic_pid_view *v;
    const relic_swp_palettes *pal;
    uint8_t *rgba;
    size_t count[4];
} kinds;

static relic_status count_kind(void *vctx, size_t i, const uint8_t *swp, uint64_t base, size_t size, relic_error *err)
{
    kinds *k = vctx;
    relic_swp_kind kind;
    relic_status st = relic_swp_raster_kind(k->v, i, &kind, err);
    if (st == RELIC_OK) st = relic_swp_raster_rgba(k->v, k->pal, i, swp, base, size, k->rgba, err);
    if (st == RELIC_OK) k->count[kind]++;
    return st;
}

static void test_every_raster_of_the_corpus_pid_decodes(void **state)
{
    (void)state;
    size_t n;
    uint8_t *p = read_file(corpus_pid, &n);
    if (!p) {
        print_message("note: ../shared/corpus/pid not found: the corpus part of this test is skipped\n");
        return;
    }
    relic_pid_view v;
    relic_error err;
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_pid_validate(p, n, &v, &err), RELIC_OK);
    kinds k = {&v, NULL, malloc((size_t)RELIC_SWP_MAX_SIDE * RELIC_SWP_MAX_SIDE * 4), {0}};
    relic_swp_palettes pal;
    assert_int_equal(relic_swp_palettes_find(&v, &a, &pal, &err), RELIC_OK);
    k.pal = &pal;
    /* no real SWP exists: a zero-filled one of the size the PID addresses (index 0 is in every palette) */
    uint64_t end = 0;
    for (size_t i = 0; i < v.rasters_count; i++) {
        uint64_t s, e;
        assert_int_equal(relic_swp_raster_extent(&v, i, &s, &e, &err), RELIC_OK);
        if (e > end) end = e;
    }
    uint8_t *swp = calloc((size_t)end, 1);
    assert_int_equal(relic_swp_walk(&v, swp, (size_t)end, 0, 0, &a, count_kind, &k, &err), RELIC_OK);
    print_message("demo-130.pid: %zu rasters: %zu 8-bit, %zu 4444, %zu bump-mapped; SWP %llu bytes\n", v.rasters_count,
                  k.count[RELIC_SWP_INDEXED], k.count[RELIC_SWP_COLOUR4444], k.count[RELIC_SWP_BUMP], (unsigned long long)end);
    assert_int_equal(k.count[RELIC_SWP_INDEXED] + k.count[RELIC_SWP_COLOUR4444] + k.count[RELIC_SWP_BUMP], v.rasters_count);
    assert_int_equal(k.count[RELIC_SWP_COLOUR4444], 5);
    free(swp);
    free(k.rgba);
    free(p);
    relic_arena_release(&a);
}

static relic_status decode_any(void *vctx, size_t i, const uint8_t *swp, uint64_t base, size_t size, relic_error *err)
{
    kinds *k = vctx;
    relic_swp_kind kind;
    relic_status st = relic_swp_raster_rgba(k->v, k->pal, i, swp, base, size, k->rgba, err);
    if (st == RELIC_OK && relic_swp_raster_kind(k->v, i, &kind, err) == RELIC_OK && kind == RELIC_SWP_BUMP)
        st = relic_swp_bump(k->v, i, swp, base, size, k->rgba, err);
    return st;
}

/* validate the PID, then walk the SWP (or SPZ) decoding everything; any status is fine, no crash */
static void try_decode(const uint8_t *pid, size_t pn, const uint8_t *swp, size_t sn, int spz, uint8_t *rgba)
{
    relic_pid_view v;
    relic_error err;
    relic_arena a;
    if (relic_pid_validate(pid, pn, &v, &err) != RELIC_OK) return;
    relic_arena_init_heap(&a, (size_t)64 << 20);
    relic_swp_palettes pal;
    if (relic_swp_palettes_find(&v, &a, &pal, &err) == RELIC_OK) {
        kinds k = {&v, &pal, rgba, {0}};
        (void)relic_swp_walk(&v, swp, sn, spz, (uint64_t)16 << 20, &a, decode_any, &k, &err);
    }
    relic_arena_release(&a);
}

static void test_truncation_and_mutation_never_crash(void **state)
{
    (void)state;
    relic_image a = few_colours(32, 32), b = alpha_4444(16, 16), c = bump_colours(16, 16), cb = bump_angles(16, 16);
    relic_swp_texture t[3] = {{1, a, NULL, 0}, {2, b, NULL, 0}, {3, c, &cb, 0}};
    packed pk;
    relic_error err;
    pack(&pk, t, 3);
    relic_buf spz;
    relic_buf_init(&spz, 0);
    relic_arena sa; /* encoder scratch */
    relic_arena_init_heap(&sa, 0);
    assert_int_equal(relic_lzss_container_encode(RELIC_LZSS_SPZ, RELIC_LZSS_FAST, 0, pk.swp.data, pk.swp.size, &sa, &spz, &err), RELIC_OK);
    relic_arena_release(&sa);
    uint8_t *rgba = malloc((size_t)RELIC_SWP_MAX_SIDE * RELIC_SWP_MAX_SIDE * 4);
    const struct {
        uint8_t *p;
        size_t n;
    } parts[3] = {{pk.pid.data, pk.pid.size}, {pk.swp.data, pk.swp.size}, {spz.data, spz.size}};
    for (int which = 0; which < 3; which++) {
        size_t n = parts[which].n;
        uint8_t *copy = malloc(n);
        for (unsigned cut = 0; cut < 64; cut++) {
            size_t len = n * cut / 64;
            memcpy(copy, parts[which].p, len);
            if (which == 0) try_decode(copy, len, pk.swp.data, pk.swp.size, 0, rgba);
            else if (which == 1) try_decode(pk.pid.data, pk.pid.size, copy, len, 0, rgba);
            else try_decode(pk.pid.data, pk.pid.size, copy, len, 1, rgba);
        }
        rng_state = 1234 + (uint64_t)which;
        for (unsigned m = 0; m < 300; m++) {
            memcpy(copy, parts[which].p, n);
            copy[rnd() % n] = (uint8_t)rnd();
            if (which == 0) try_decode(copy, n, pk.swp.data, pk.swp.size, 0, rgba);
            else if (which == 1) try_decode(pk.pid.data, pk.pid.size, copy, n, 0, rgba);
            else try_decode(pk.pid.data, pk.pid.size, copy, n, 1, rgba);
        }
        free(copy);
    }
    free(rgba);
    relic_buf_free(&spz);
    unpack(&pk);
    free(a.rgba);
    free(b.rgba);
    free(c.rgba);
    free(cb.rgba);
}

static void test_pack_rejects_bad_inputs_naming_the_texture(void **state)
{
    (void)state;
    relic_image a = few_colours(16, 16), big = {2048, 4, NULL}, small = few_colours(8, 8);
    relic_swp_texture dup[2] = {{9, a, NULL, 0}, {9, a, NULL, 0}};
    relic_swp_texture huge = {1, big, NULL, 0};
    relic_swp_texture mismatch = {1, a, &small, 0};
    relic_arena ar;
    relic_buf swp;
    relic_pid_file m;
    relic_error err;
    relic_arena_init_heap(&ar, 0);
    relic_buf_init(&swp, 0);
    assert_int_equal(relic_swp_pack(dup, 2, &ar, &m, &swp, &err), RELIC_E_RANGE);
    assert_string_equal(err.path, "textures[1]");
    assert_int_equal(relic_swp_pack(&huge, 1, &ar, &m, &swp, &err), RELIC_E_RANGE);
    assert_int_equal(relic_swp_pack(&mismatch, 1, &ar, &m, &swp, &err), RELIC_E_RANGE);
    relic_buf_free(&swp);
    relic_arena_release(&ar);
    free(a.rgba);
    free(small.rgba);
}

/* issue 5 item 2's bar on texture data: the best-ratio encoder is never longer than
 * the original encoder's greedy method (the proof is in tests/test_lzss.c) */
static void test_best_lzss_not_worse_than_greedy_on_packed_swp(void **state)
{
    (void)state;
    relic_image a = few_colours(128, 128), b = gradient(64, 64), c = bump_colours(64, 64), cb = bump_angles(64, 64);
    relic_swp_texture t[3] = {{1, a, NULL, 0}, {2, b, NULL, 0}, {3, c, &cb, 0}};
    packed pk;
    relic_error err;
    pack(&pk, t, 3);
    size_t sizes[3];
    for (int level = RELIC_LZSS_FAST; level <= RELIC_LZSS_BEST; level++) {
        relic_buf z;
        relic_buf_init(&z, 0);
        assert_int_equal(encode_scratch(RELIC_LZSS_SPZ, (relic_lzss_level)level, pk.swp.data, pk.swp.size, &z, &err), RELIC_OK);
        uint8_t *back = malloc(pk.swp.size);
        assert_int_equal(relic_lzss_decode_buffer(RELIC_LZSS_SPZ, z.data, z.size, back, pk.swp.size, &err), RELIC_OK);
        assert_memory_equal(back, pk.swp.data, pk.swp.size);
        free(back);
        sizes[level - 1] = z.size;
        relic_buf_free(&z);
    }
    print_message("SWP %zu bytes -> fast %zu, greedy %zu, best %zu\n", pk.swp.size, sizes[0], sizes[1], sizes[2]);
    assert_true(sizes[2] <= sizes[1]);
    unpack(&pk);
    free(a.rgba);
    free(b.rgba);
    free(c.rgba);
    free(cb.rgba);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pack_then_decode_gives_the_source_images),
        cmocka_unit_test(test_mip_levels_until_a_side_is_below_16_with_spec_keys),
        cmocka_unit_test(test_quantised_texture_stays_within_the_stated_bound),
        cmocka_unit_test(test_spz_stream_walk_equals_swp_walk),
        cmocka_unit_test(test_png_write_then_read_is_identity),
        cmocka_unit_test(test_raster_outside_the_swp_names_its_offset_field),
        cmocka_unit_test(test_palette_index_past_the_palette_is_an_index_error),
        cmocka_unit_test(test_every_raster_of_the_corpus_pid_decodes),
        cmocka_unit_test(test_truncation_and_mutation_never_crash),
        cmocka_unit_test(test_pack_rejects_bad_inputs_naming_the_texture),
        cmocka_unit_test(test_best_lzss_not_worse_than_greedy_on_packed_swp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
