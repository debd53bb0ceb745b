/* test_outputs.c — the pictures and exports people open: the NWN2 walkmesh
 * SVG's title, legend, scale bar and tile labels (runtime/export/trn_export.c),
 * the relief pictures of a height grid, grey and colour (runtime/export/relief.c),
 * and the GRF level's MTL naming only texture files the caller has
 * (relic_grf_export_obj_textured, runtime/export/grf_obj.c), and the NWN2
 * terrain's colour preview (runtime/export/trn_terrain_png.c).
 * Real files: ../shared/corpus/grf (skipped, saying so, when absent). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <png.h>

#include "relic_grf.h"
#include "relic_groff.h"
#include "relic_relief.h"
#include "relic_trn.h"
#include "trn_synth.h"

static size_t count_of(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* ---- the walkmesh SVG ---- */

/* every third cell column is a wall, which cuts each tile into islands */
static int walls(void *ctx, uint32_t t)
{
    (void)ctx;
    return (t / 2) % 3 != 1;
}

static void test_walkmesh_svg_has_title_legend_scale_bar_and_tile_labels(void **state)
{
    (void)state;
    relic_arena a;
    relic_trn_aswm raw, w;
    relic_error err;
    relic_buf svg;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(synth_area(&a, 3, 2, 3, walls, NULL, &raw), 0);
    assert_int_equal(relic_trn_bake(&raw, NULL, &a, &w, &err), RELIC_OK);
    size_t nonwalk = 0, island0 = 0;
    for (size_t i = 0; i < w.triangles_count; i++) {
        if (!(w.triangles[i].flags & RELIC_TRN_TRIANGLE_FLAGS_WALKABLE)) nonwalk++;
        else if (w.triangles[i].island == 0) island0++;
    }
    assert_true(nonwalk > 0 && island0 > 0 && w.islands_count > 1);
    relic_buf_init(&svg, 0);
    assert_int_equal(relic_trn_aswm_svg(&w, NULL, &svg, &err), RELIC_OK);
    relic_buf_append(&svg, "", 1);
    const char *s = (const char *)svg.data;
    char line[128];
    assert_non_null(strstr(s, "<title>NWN2 walkmesh: "));
    assert_non_null(strstr(s, ">NWN2 walkmesh (ASWM)</text>"));
    /* the legend counts what the drawing fills */
    snprintf(line, sizeof line, ">not walkable: %zu</text>", nonwalk);
    assert_non_null(strstr(s, line));
    snprintf(line, sizeof line, ">walkable, island 0: %zu</text>", island0);
    assert_non_null(strstr(s, line));
    assert_non_null(strstr(s, "tile grid (labels: column, row)"));
    /* a scale bar of a round length: the area is 30 m wide, a quarter of it rounds down to 5 m */
    assert_non_null(strstr(s, "class=\"scale-bar\""));
    assert_non_null(strstr(s, ">5 m</text>"));
    /* one label per tile column (3) and row (2) */
    const char *labels = strstr(s, "class=\"tile-labels\"");
    assert_non_null(labels);
    size_t n = 0;
    for (const char *p = strstr(labels, "<text"); p && p < strstr(labels, "</g>"); p = strstr(p + 1, "<text")) n++;
    assert_int_equal(n, 3 + 2);
    assert_non_null(strstr(s, "</svg>\n"));
    relic_buf_free(&svg);
    relic_arena_release(&a);
}

/* ---- relief pictures ---- */

#define RN 16

/* a ridge along y: heights rise towards x = RN/2 and fall after it */
static void ridge(int32_t *h)
{
    for (int y = 0; y < RN; y++)
        for (int x = 0; x < RN; x++) h[y * RN + x] = 1000 * (x < RN / 2 ? x : RN - 1 - x);
}

static uint8_t *decode_rgba(const relic_buf *png, png_image *img)
{
    memset(img, 0, sizeof *img);
    img->version = PNG_IMAGE_VERSION;
    assert_true(png_image_begin_read_from_memory(img, png->data, png->size));
    img->format = PNG_FORMAT_RGBA;
    uint8_t *px = malloc(PNG_IMAGE_SIZE(*img));
    assert_non_null(px);
    assert_true(png_image_finish_read(img, NULL, px, 0, NULL));
    return px;
}

static double luma(const uint8_t *p) { return 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]; }

static void test_colour_relief_lights_slopes_facing_north_west(void **state)
{
    (void)state;
    int32_t h[RN * RN];
    ridge(h);
    relic_relief_grid g = {RN, RN, h, 0.001, 1.0, 0, 1000 * (RN / 2 - 1)};
    relic_arena a;
    relic_error err;
    relic_buf out;
    png_image img;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&out, 0);
    assert_int_equal(relic_relief_png(&g, RELIC_RELIEF_COLOUR, &a, &out, &err), RELIC_OK);
    /* an 8-bit RGB PNG, opaque without an alpha channel (IHDR: bit depth 8, colour type 2) */
    assert_int_equal(out.data[24], 8);
    assert_int_equal(out.data[25], 2);
    uint8_t *px = decode_rgba(&out, &img);
    assert_int_equal(img.width, RN);
    assert_int_equal(img.height, RN);
    const uint8_t *west = px + (8 * RN + 3) * 4, *east = px + (8 * RN + RN - 4) * 4;
    assert_int_equal(west[3], 255);
    /* the west slope faces the light (north-west), the east one turns away */
    assert_true(luma(west) > luma(east) + 20);
    free(px);
    relic_buf_free(&out);
    relic_arena_release(&a);
}

static void test_colour_relief_tints_lowlands_green_and_peaks_white(void **state)
{
    (void)state;
    int32_t h[RN * RN];
    /* flat: a low west half and a high east half, lit alike away from the step */
    for (int i = 0; i < RN * RN; i++) h[i] = (i % RN) < RN / 2 ? 0 : 100;
    relic_relief_grid g = {RN, RN, h, 0.001, 1.0, 0, 100};
    relic_arena a;
    relic_error err;
    relic_buf out;
    png_image img;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&out, 0);
    assert_int_equal(relic_relief_png(&g, RELIC_RELIEF_COLOUR, &a, &out, &err), RELIC_OK);
    uint8_t *px = decode_rgba(&out, &img);
    const uint8_t *low = px + (8 * RN + 1) * 4, *high = px + (8 * RN + RN - 2) * 4;
    assert_true(low[1] > low[0] && low[1] > low[2]);
    assert_true(high[0] > 190 && high[1] > 190 && high[2] > 190);
    free(px);
    relic_buf_free(&out);
    relic_arena_release(&a);
}

static void test_grey_relief_is_one_channel_and_empty_grid_is_refused(void **state)
{
    (void)state;
    int32_t h[RN * RN];
    ridge(h);
    relic_relief_grid g = {RN, RN, h, 0.001, 1.0, 0, 7000};
    relic_arena a;
    relic_error err;
    relic_buf out;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&out, 0);
    assert_int_equal(relic_relief_png(&g, RELIC_RELIEF_GREY, &a, &out, &err), RELIC_OK);
    assert_int_equal(out.data[24], 8);
    assert_int_equal(out.data[25], 0); /* grey */
    relic_relief_grid empty = {0, RN, h, 1, 1, 0, 0};
    assert_int_equal(relic_relief_png(&empty, RELIC_RELIEF_COLOUR, &a, &out, &err), RELIC_E_ARGUMENT);
    relic_buf_free(&out);
    relic_arena_release(&a);
}

/* The relief formulas in double precision, as relic_relief.h states them
 * (central differences in world units, Lambert light from the north-west
 * 45 degrees up; grey: ambient 0.12 then shading and height 4:1; colour:
 * the tint between its stops times 0.35 + 0.65 x shading): the picture
 * relief.c draws (in float, the tint from a table) must match it within
 * one level per channel, so that a faster drawing stays the same picture. */
static const double ref_stops[][4] = {{0.00, 0x3a, 0x7d, 0x44}, {0.25, 0x8c, 0xb3, 0x5a}, {0.50, 0xe0, 0xd0, 0x8a}, {0.75, 0xa0, 0x6e, 0x3c}, {0.92, 0xc8, 0xc0, 0xb8}, {1.00, 0xff, 0xff, 0xff}};

static uint8_t ref_byte(double v)
{
    if (v > 1) return 255;
    return v < 0 ? 0 : (uint8_t)(v * 255 + 0.5);
}

static void ref_pixel(const relic_relief_grid *g, relic_relief_style style, uint32_t x, uint32_t y, uint8_t rgb[3])
{
    const uint32_t w = g->width, n = g->height;
    const int32_t *h = g->heights;
    const uint32_t x0 = x ? x - 1 : x, x1 = x + 1 < w ? x + 1 : x, y0 = y ? y - 1 : y, y1 = y + 1 < n ? y + 1 : y;
    double gx = 0, gy = 0;
    if (x1 > x0) gx = ((double)h[y * w + x1] - h[y * w + x0]) * g->z_scale / ((x1 - x0) * g->spacing);
    if (y1 > y0) gy = ((double)h[y1 * w + x] - h[y0 * w + x]) * g->z_scale / ((y1 - y0) * g->spacing);
    double shade = (gx * 0.5 - gy * 0.5 + sqrt(0.5)) / sqrt(gx * gx + gy * gy + 1);
    if (!(shade > 0)) shade = 0;
    const double range = (double)g->max - g->min, t = range > 0 ? ((double)h[y * w + x] - g->min) / range : 0.5;
    if (style == RELIC_RELIEF_GREY) {
        rgb[0] = rgb[1] = rgb[2] = ref_byte(0.12 + 0.88 * (0.8 * shade + 0.2 * t));
        return;
    }
    size_t k = 1;
    while (k + 1 < 6 && t > ref_stops[k][0]) k++;
    const double *a = ref_stops[k - 1], *b = ref_stops[k], f = fmin(1, fmax(0, (t - a[0]) / (b[0] - a[0])));
    for (int c = 0; c < 3; c++) rgb[c] = ref_byte((a[c + 1] + (b[c + 1] - a[c + 1]) * f) / 255.0 * (0.35 + 0.65 * shade));
}

#define HW 61 /* odd sizes: the edges and the middle both show */
#define HH 47

static void test_relief_matches_the_stated_formulas_within_one_level(void **state)
{
    (void)state;
    static int32_t h[HW * HH];
    /* hills, a cliff and flat ground, heights far from 0 as real terrains have */
    for (int y = 0; y < HH; y++)
        for (int x = 0; x < HW; x++)
            h[y * HW + x] = 1000000 + (int32_t)(40000 * sin(x * 0.31) * cos(y * 0.23)) + (x > 40 ? 90000 : 0) +
                (y < 5 ? 0 : 7 * x * y);
    int32_t lo = h[0], hi = h[0];
    for (int i = 0; i < HW * HH; i++) lo = h[i] < lo ? h[i] : lo, hi = h[i] > hi ? h[i] : hi;
    const relic_relief_grid g = {HW, HH, h, 0.0004, 2.0, lo, hi};
    for (int style = RELIC_RELIEF_GREY; style <= RELIC_RELIEF_COLOUR; style++) {
        relic_arena a;
        relic_error err;
        relic_buf out;
        png_image img;
        relic_arena_init_heap(&a, 0);
        relic_buf_init(&out, 0);
        assert_int_equal(relic_relief_png(&g, (relic_relief_style)style, &a, &out, &err), RELIC_OK);
        uint8_t *px = decode_rgba(&out, &img);
        int worst = 0;
        for (uint32_t r = 0; r < HH; r++)
            for (uint32_t x = 0; x < HW; x++) {
                uint8_t want[3];
                ref_pixel(&g, (relic_relief_style)style, x, HH - 1 - r, want); /* row 0 is north */
                for (int c = 0; c < 3; c++) {
                    int d = abs(px[(r * HW + x) * 4 + c] - want[c]);
                    worst = d > worst ? d : worst;
                }
            }
        assert_true(worst <= 1);
        free(px);
        relic_buf_free(&out);
        relic_arena_release(&a);
    }
}

/* ---- the NWN2 terrain preview ---- */

#define TN 9 /* vertices a side: 8 x 8 cells of 10 m */

static void test_trn_terrain_preview_rasterises_the_megatile(void **state)
{
    (void)state;
    relic_arena a;
    relic_error err;
    relic_buf payload, png;
    png_image img;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&payload, 0), relic_buf_init(&png, 0);
    relic_trrn_file t;
    memset(&t, 0, sizeof t);
    relic_trrn_terrain_vertex v[TN * TN];
    relic_trrn_terrain_triangle tri[(TN - 1) * (TN - 1) * 2];
    memset(v, 0, sizeof v);
    for (int y = 0; y < TN; y++)
        for (int x = 0; x < TN; x++) {
            relic_trrn_terrain_vertex *p = &v[y * TN + x];
            p->position[0] = 10.0f * x, p->position[1] = 10.0f * y;
            /* a hill in the north-east corner */
            p->position[2] = (float)(40.0 * exp(-((x - 6) * (x - 6) + (y - 6) * (y - 6)) / 4.0));
            p->normal[2] = 1;
        }
    size_t k = 0;
    for (int y = 0; y + 1 < TN; y++)
        for (int x = 0; x + 1 < TN; x++) {
            uint16_t i = (uint16_t)(y * TN + x);
            tri[k++] = (relic_trrn_terrain_triangle){i, (uint16_t)(i + 1), (uint16_t)(i + TN + 1)};
            tri[k++] = (relic_trrn_terrain_triangle){i, (uint16_t)(i + TN + 1), (uint16_t)(i + TN)};
        }
    t.vertices = v, t.vertices_count = TN * TN, t.triangles = tri, t.triangles_count = k;
    assert_int_equal(relic_trrn_write(&t, &payload, &err), RELIC_OK);
    relic_trn_packet packets[2];
    memset(packets, 0, sizeof packets);
    packets[0].type = RELIC_TRN_PACKET_TYPE_TRWH;
    packets[1].type = RELIC_TRN_PACKET_TYPE_TRRN;
    packets[1].data = payload.data, packets[1].data_count = payload.size, packets[1].size = (uint32_t)payload.size;
    relic_trn_file m;
    memset(&m, 0, sizeof m);
    m.packets = packets, m.packets_count = 2;
    assert_int_equal(relic_trn_terrain_preview_png(&m, 64, &a, &png, &err), RELIC_OK);
    uint8_t *px = decode_rgba(&png, &img);
    /* a square 80 m extent: 64 x 64 points */
    assert_int_equal(img.width, 64);
    assert_int_equal(img.height, 64);
    /* the hilltop (60 m, 60 m: north-east, near the top right of a north-up picture) is whiter than the low south-west */
    const uint8_t *top = px + ((size_t)(63 - 48) * 64 + 48) * 4, *low = px + ((size_t)(63 - 2) * 64 + 2) * 4;
    assert_true(top[2] > low[2] + 60);
    assert_true(low[1] > low[0] && low[1] > low[2]);
    free(px);
    /* a TRN without terrain says so */
    m.packets_count = 1;
    assert_int_equal(relic_trn_terrain_preview_png(&m, 64, &a, &png, &err), RELIC_E_UNSUPPORTED);
    assert_non_null(strstr(err.message, "no TRRN packet"));
    relic_buf_free(&payload), relic_buf_free(&png);
    relic_arena_release(&a);
}

/* A file of triangles piled on each other is refused before the work grows past the grid. */
static void test_trn_terrain_preview_refuses_piled_up_triangles(void **state)
{
    (void)state;
    relic_arena a;
    relic_error err;
    relic_buf payload, png;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&payload, 0), relic_buf_init(&png, 0);
    relic_trrn_file t;
    memset(&t, 0, sizeof t);
    relic_trrn_terrain_vertex v[3];
    memset(v, 0, sizeof v);
    v[1].position[0] = 100, v[2].position[1] = 100, v[2].position[2] = 5;
    enum { PILE = 200 }; /* each one's box is the whole grid: 200 > the 64 allowed per point */
    relic_trrn_terrain_triangle tri[PILE];
    for (int i = 0; i < PILE; i++) tri[i] = (relic_trrn_terrain_triangle){0, 1, 2};
    t.vertices = v, t.vertices_count = 3, t.triangles = tri, t.triangles_count = PILE;
    assert_int_equal(relic_trrn_write(&t, &payload, &err), RELIC_OK);
    relic_trn_packet p;
    memset(&p, 0, sizeof p);
    p.type = RELIC_TRN_PACKET_TYPE_TRRN, p.data = payload.data, p.data_count = payload.size, p.size = (uint32_t)payload.size;
    relic_trn_file m;
    memset(&m, 0, sizeof m);
    m.packets = &p, m.packets_count = 1;
    assert_int_equal(relic_trn_terrain_preview_png(&m, 32, &a, &png, &err), RELIC_E_LIMIT);
    /* one of them alone is a picture */
    t.triangles_count = 1;
    payload.size = 0;
    assert_int_equal(relic_trrn_write(&t, &payload, &err), RELIC_OK);
    p.data = payload.data, p.data_count = payload.size, p.size = (uint32_t)payload.size;
    assert_int_equal(relic_trn_terrain_preview_png(&m, 32, &a, &png, &err), RELIC_OK);
    relic_buf_free(&payload), relic_buf_free(&png);
    relic_arena_release(&a);
}

/* ---- the textured GRF level ---- */

#define DEMO_GRF "../shared/corpus/grf/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__demo.grf"

/* the caller has one texture, TPVBaset2, as a PNG */
static const char *only_tpvbase(void *ctx, const char *texture)
{
    (*(int *)ctx)++;
    size_t n = strlen(texture);
    return n >= 13 && !strcmp(texture + n - 13, "TPVBaset2.bmp") ? "TPVBaset2.png" : NULL;
}

static void test_grf_mtl_names_only_the_texture_files_the_caller_has(void **state)
{
    (void)state;
    relic_mapping map;
    relic_arena a;
    relic_error err;
    relic_groff_view v;
    relic_groff_file m;
    relic_grf_file f;
    if (relic_map_file(DEMO_GRF, 0, &map, &err) != RELIC_OK) {
        print_message("note: %s not found: this real-file test is skipped\n", DEMO_GRF);
        return;
    }
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_groff_validate(map.bytes.data, map.bytes.size, &v, &err), RELIC_OK);
    assert_int_equal(relic_groff_decode(&v, &a, &m, &err), RELIC_OK);
    assert_int_equal(relic_grf_file_decode(&m, &a, &f, &err), RELIC_OK);
    relic_buf obj, mtl, obj2, mtl2;
    relic_buf_init(&obj, 0), relic_buf_init(&mtl, 0), relic_buf_init(&obj2, 0), relic_buf_init(&mtl2, 0);
    /* without a caller's names: map_Kd names every texture's own file */
    assert_int_equal(relic_grf_export_obj(&f, "level.mtl", &a, &obj, &mtl, &err), RELIC_OK);
    relic_buf_append(&mtl, "", 1);
    size_t textured = count_of((const char *)mtl.data, "\nmap_Kd ");
    assert_true(textured > 1);
    assert_int_equal(textured, count_of((const char *)mtl.data, "# texture "));
    /* with them: one map_Kd, the others kept as comments; the OBJ is the same */
    int asked = 0;
    assert_int_equal(relic_grf_export_obj_textured(&f, "level.mtl", only_tpvbase, &asked, &a, &obj2, &mtl2, &err), RELIC_OK);
    relic_buf_append(&mtl2, "", 1);
    assert_int_equal((size_t)asked, textured);
    assert_int_equal(count_of((const char *)mtl2.data, "\nmap_Kd "), 1);
    assert_non_null(strstr((const char *)mtl2.data, "\nmap_Kd TPVBaset2.png\n"));
    assert_int_equal(count_of((const char *)mtl2.data, "(not in the texture directory)"), textured - 1);
    assert_int_equal(obj.size, obj2.size);
    assert_memory_equal(obj.data, obj2.data, obj.size);
    relic_buf_free(&obj), relic_buf_free(&mtl), relic_buf_free(&obj2), relic_buf_free(&mtl2);
    relic_arena_release(&a);
    relic_unmap(&map);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walkmesh_svg_has_title_legend_scale_bar_and_tile_labels),
        cmocka_unit_test(test_colour_relief_lights_slopes_facing_north_west),
        cmocka_unit_test(test_colour_relief_tints_lowlands_green_and_peaks_white),
        cmocka_unit_test(test_grey_relief_is_one_channel_and_empty_grid_is_refused),
        cmocka_unit_test(test_relief_matches_the_stated_formulas_within_one_level),
        cmocka_unit_test(test_trn_terrain_preview_rasterises_the_megatile),
        cmocka_unit_test(test_trn_terrain_preview_refuses_piled_up_triangles),
        cmocka_unit_test(test_grf_mtl_names_only_the_texture_files_the_caller_has),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
