/* test_tpm_grf.c — a Trespasser level as TPM model text (runtime/export/tpm_grf.c,
 * relic_tpm_from_grf; Trespasser file formats, "TPM - Models", Trespasser source, Lib/Groff/GroffIO.cpp):
 * on the demo GRF, the text parses with relic's TPM reader, holds one mesh
 * per distinct model the region instances use and one instance per region
 * entry, each mesh's vertex, texture-coordinate and triangle counts equal
 * its GRF geometry's (both geometry forms), every instance names a mesh,
 * and the text is a fixed point of TPM read -> write; object sections of one
 * name get mesh blocks told apart by section index; mutated levels
 * convert or are refused, never crash. Real file:
 * ../shared/corpus/grf (skipped, saying so, when absent). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "grf_geometry.h"
#include "grf_geometry_v11.h"
#include "grf_geometry_v13.h"
#include "grf_mapping.h"
#include "grf_mesh.h"
#include "grf_object.h"
#include "grf_region.h"
#include "grf_region_v11.h"
#include "relic_grf.h"
#include "relic_tpm.h"

/* relic_tpm_from_grf with its scratch in a heap arena freed at once */
static relic_status tpm_from_grf_scratch(const relic_grf_file *f, relic_buf *out, uint32_t *mesh_count, relic_error *err)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_status st = relic_tpm_from_grf(f, &a, out, mesh_count, err);
    relic_arena_release(&a);
    return st;
}

#define DEMO_GRF "../shared/corpus/grf/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__demo.grf"

static const void *section(const relic_grf_file *f, uint32_t handle, relic_grf_kind *kind)
{
    uint64_t i = handle - (uint64_t)RELIC_GROFF_SECTION_HANDLE_BASE;
    if (handle < RELIC_GROFF_SECTION_HANDLE_BASE || i >= f->container.sections_count) return NULL;
    *kind = f->kinds[i];
    return f->models[i];
}

/* Expected counts of an object's geometry: vertices, texture coordinates, triangles. */
static void expected(const relic_grf_file *f, uint32_t object, uint32_t *nv, uint32_t *nt, uint32_t *nf, int *forms)
{
    relic_grf_kind k = RELIC_GRF_OPAQUE, gk = RELIC_GRF_OPAQUE, mk = RELIC_GRF_OPAQUE;
    const relic_grf_object_file *o = section(f, object, &k);
    assert_non_null(o);
    assert_int_equal(k, RELIC_GRF_OBJECT);
    const void *g = section(f, o->geometry, &gk);
    const void *mp = o->mapping ? section(f, o->mapping, &mk) : NULL;
    const relic_grf_mapping_file *map = mp && mk == RELIC_GRF_MAPPING ? mp : NULL;
    *nv = *nt = *nf = 0;
    if (!g) return;
    size_t faces = 0;
    if (gk == RELIC_GRF_MESH) {
        const relic_grf_mesh_file *m = g;
        *nv = (uint32_t)m->points_count;
        *nt = (uint32_t)m->vertices_count;
        for (size_t p = 0; p < m->polygons_count; p++)
            if (m->polygons[p].vertex_count >= 3) *nf += m->polygons[p].vertex_count - 2;
        forms[0] = 1;
        return;
    } else if (gk == RELIC_GRF_GEOMETRY) {
        const relic_grf_geometry_file *p = g;
        *nv = (uint32_t)p->vertices_count, faces = p->faces_count;
    } else if (gk == RELIC_GRF_GEOMETRY_V13) {
        const relic_grf_geometry_v13_file *p = g;
        *nv = (uint32_t)p->vertices_count, faces = p->faces_count;
    } else if (gk == RELIC_GRF_GEOMETRY_V11) {
        const relic_grf_geometry_v11_file *p = g;
        *nv = (uint32_t)p->vertices_count, faces = p->faces_count;
    } else {
        return;
    }
    *nf = (uint32_t)faces;
    if (map && map->texture_vertices_count && map->texture_faces_count == faces) *nt = (uint32_t)map->texture_vertices_count;
    forms[1] = 1;
}

/* The demo level mapped and decoded into a, or 0 (said) when it is absent. */
static int open_demo(relic_mapping *map, relic_arena *a, relic_grf_file *f)
{
    relic_error err;
    relic_groff_view v;
    relic_groff_file gm;
    if (relic_map_file(DEMO_GRF, 0, map, &err) != RELIC_OK) {
        print_message("note: %s not found: this real-file test is skipped\n", DEMO_GRF);
        return 0;
    }
    relic_arena_init_heap(a, 0);
    assert_int_equal(relic_groff_validate(map->bytes.data, map->bytes.size, &v, &err), RELIC_OK);
    assert_int_equal(relic_groff_decode(&v, a, &gm, &err), RELIC_OK);
    assert_int_equal(relic_grf_file_decode(&gm, a, f, &err), RELIC_OK);
    return 1;
}

static void demo_grf_models_become_tpm_meshes_with_their_counts(void **state)
{
    (void)state;
    relic_mapping map;
    relic_error err;
    relic_grf_file f;
    relic_arena a;
    if (!open_demo(&map, &a, &f)) return;

    relic_buf text;
    uint32_t meshes = 0;
    relic_buf_init(&text, 0);
    if (tpm_from_grf_scratch(&f, &text, &meshes, &err) != RELIC_OK) fail_msg("%s: %s", err.path, err.message);
    relic_tpm_file t;
    if (relic_tpm_parse("demo.tpm", text.data, text.size, &a, &t, &err) != RELIC_OK) fail_msg("%s", err.message);

    /* the distinct objects, in order of first use, and the instance count */
    const relic_grf_region_file *r = NULL;
    const relic_grf_region_v11_file *r11 = NULL;
    for (size_t i = 0; i < f.container.sections_count; i++) {
        if (f.kinds[i] == RELIC_GRF_REGION && !r && !r11) r = f.models[i];
        if (f.kinds[i] == RELIC_GRF_REGION_V11 && !r && !r11) r11 = f.models[i];
    }
    assert_true(r || r11);
    size_t n = r ? r->instances_count : r11->instances_count;
    uint32_t *distinct = calloc(n ? n : 1, sizeof *distinct);
    size_t nd = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t o = r ? r->instances[k].object : r11->instances[k].object;
        size_t j = 0;
        while (j < nd && distinct[j] != o) j++;
        if (j == nd) distinct[nd++] = o;
    }
    uint32_t mesh_blocks = 0, instance_blocks = 0;
    int forms[2] = {0, 0};
    for (uint32_t i = 0; i < t.block_count; i++) {
        const relic_tpm_block *b = &t.blocks[i];
        if (b->kind == RELIC_TPM_MESH) {
            uint32_t nv, nt, nf;
            assert_true(mesh_blocks < nd);
            expected(&f, distinct[mesh_blocks], &nv, &nt, &nf, forms);
            assert_int_equal(b->vertex_count, nv);
            assert_int_equal(b->texcoord_count, nt);
            assert_int_equal(b->face_count, nf);
            mesh_blocks++;
        } else if (b->kind == RELIC_TPM_INSTANCE) {
            const relic_tpm_prop *p = relic_tpm_find(b, "mesh");
            assert_non_null(p);
            int found = 0;
            for (uint32_t j = 0; j < t.block_count && !found; j++)
                found = t.blocks[j].kind == RELIC_TPM_MESH && !strcmp(t.blocks[j].name, p->text);
            assert_true(found);
            assert_non_null(relic_tpm_find(b, "position"));
            assert_int_equal(relic_tpm_find(b, "rotation")->count, 3);
            instance_blocks++;
        }
    }
    assert_int_equal(mesh_blocks, nd);
    assert_int_equal(meshes, nd);
    assert_int_equal(instance_blocks, n);
    print_message("note: demo.grf -> TPM: %u meshes (mesh-heap form %s, plain form %s), %u instances, %zu bytes\n",
                  mesh_blocks, forms[0] ? "seen" : "absent", forms[1] ? "seen" : "absent", instance_blocks, text.size);

    /* the written text is what relic's TPM writer would write back, model for model */
    relic_buf again;
    relic_tpm_file t2;
    relic_buf_init(&again, 0);
    assert_int_equal(relic_tpm_write(&t, &again, &err), RELIC_OK);
    assert_int_equal(relic_tpm_parse("again.tpm", again.data, again.size, &a, &t2, &err), RELIC_OK);
    assert_true(relic_tpm_equal(&t, &t2));

    relic_buf_free(&again);
    relic_buf_free(&text);
    free(distinct);
    relic_arena_release(&a);
    relic_unmap(&map);
}

/* Seeded single-byte mutations of the demo GRF: whatever decodes converts
 * to text relic's TPM reader accepts, or is refused with a message; never
 * a crash (ASan/UBSan in `make test`). */
static void mutated_levels_convert_or_are_refused(void **state)
{
    (void)state;
    relic_mapping map;
    relic_error err;
    if (relic_map_file(DEMO_GRF, 0, &map, &err) != RELIC_OK) {
        print_message("note: %s not found: this real-file test is skipped\n", DEMO_GRF);
        return;
    }
    size_t n = map.bytes.size;
    uint8_t *copy = malloc(n);
    assert_non_null(copy);
    uint32_t seed = 0x7e57u, converted = 0, refused = 0;
    for (int round = 0; round < 24; round++) {
        memcpy(copy, map.bytes.data, n);
        seed = seed * 1664525u + 1013904223u;
        size_t at = 48 + (size_t)(seed >> 4) % (n - 48);
        seed = seed * 1664525u + 1013904223u;
        copy[at] ^= (uint8_t)(1u << (seed >> 29));
        relic_arena a;
        relic_groff_view v;
        relic_groff_file gm;
        relic_grf_file f;
        relic_arena_init_heap(&a, 0);
        if (relic_groff_validate(copy, n, &v, &err) == RELIC_OK && relic_groff_decode(&v, &a, &gm, &err) == RELIC_OK &&
            relic_grf_file_decode(&gm, &a, &f, &err) == RELIC_OK) {
            relic_buf text;
            relic_tpm_file t;
            relic_buf_init(&text, 0);
            if (tpm_from_grf_scratch(&f, &text, NULL, &err) == RELIC_OK) {
                if (relic_tpm_parse("m.tpm", text.data, text.size, &a, &t, &err) != RELIC_OK)
                    fail_msg("mutation at %zu: written TPM rejected: %s", at, err.message);
                converted++;
            } else {
                assert_true(err.message[0] != 0);
                refused++;
            }
            relic_buf_free(&text);
        }
        relic_arena_release(&a);
    }
    print_message("note: 24 mutations of demo.grf: %u converted, %u refused by the converter\n", converted, refused);
    free(copy);
    relic_unmap(&map);
}

/* Two object sections of one name: each mesh block gets "#<section index>" after the name,
 * and the instances name those blocks; a model whose name no other object section has keeps
 * it bare. (The demo level names its models apart: two are given one name here.) */
static void object_sections_sharing_a_name_are_told_apart_by_index(void **state)
{
    (void)state;
    relic_mapping map;
    relic_error err;
    relic_grf_file f;
    relic_arena a;
    if (!open_demo(&map, &a, &f)) return;
    /* the first two distinct objects the region's instances use */
    const relic_grf_region_file *r = NULL;
    for (size_t i = 0; i < f.container.sections_count && !r; i++)
        if (f.kinds[i] == RELIC_GRF_REGION) r = f.models[i];
    assert_non_null(r);
    size_t first = SIZE_MAX, second = SIZE_MAX;
    for (size_t k = 0; k < r->instances_count && second == SIZE_MAX; k++) {
        size_t i = r->instances[k].object - (size_t)RELIC_GROFF_SECTION_HANDLE_BASE;
        if (first == SIZE_MAX) first = i;
        else if (i != first) second = i;
    }
    assert_true(second != SIZE_MAX);
    f.container.sections[second].name = f.container.sections[first].name;

    relic_buf text;
    relic_buf_init(&text, 0);
    if (tpm_from_grf_scratch(&f, &text, NULL, &err) != RELIC_OK) fail_msg("%s: %s", err.path, err.message);
    relic_tpm_file t;
    assert_int_equal(relic_tpm_parse("shared.tpm", text.data, text.size, &a, &t, &err), RELIC_OK);
    char want[2][32];
    snprintf(want[0], sizeof want[0], "#%zu", first);
    snprintf(want[1], sizeof want[1], "#%zu", second);
    const char *names[2] = {NULL, NULL};
    uint32_t bare = 0, meshes = 0;
    for (uint32_t b = 0; b < t.block_count; b++) {
        if (t.blocks[b].kind != RELIC_TPM_MESH) continue;
        const char *nm = t.blocks[b].name, *hash = strrchr(nm, '#');
        meshes++;
        if (!hash) bare++;
        for (int w = 0; w < 2; w++)
            if (hash && !strcmp(hash, want[w])) names[w] = nm;
    }
    assert_non_null(names[0]);
    assert_non_null(names[1]);
    assert_true(strchr(names[0], '#') - names[0] == strchr(names[1], '#') - names[1]);
    assert_memory_equal(names[0], names[1], (size_t)(strchr(names[0], '#') - names[0]));
    assert_int_equal(bare, meshes - 2); /* every other model keeps its own name */
    relic_buf_free(&text);
    relic_arena_release(&a);
    relic_unmap(&map);
}

static void a_file_without_region_is_not_a_level(void **state)
{
    (void)state;
    relic_grf_file f;
    relic_buf out;
    relic_error err;
    memset(&f, 0, sizeof f);
    relic_buf_init(&out, 0);
    assert_int_equal(tpm_from_grf_scratch(&f, &out, NULL, &err), RELIC_E_UNSUPPORTED);
    assert_int_equal(tpm_from_grf_scratch(NULL, &out, NULL, &err), RELIC_E_ARGUMENT);
    relic_buf_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(demo_grf_models_become_tpm_meshes_with_their_counts),
        cmocka_unit_test(mutated_levels_convert_or_are_refused),
        cmocka_unit_test(object_sections_sharing_a_name_are_told_apart_by_index),
        cmocka_unit_test(a_file_without_region_is_not_a_level),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
