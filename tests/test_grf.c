/* test_grf.c — the contents of GROFF sections (schema/tres/grf_*.schema,
 * scn_*.schema; runtime/formats/tres/grf_sections.c, grf_valuetable.c, grf_file.c,
 * grf_json.c, grf_obj.c) against Trespasser source, Lib/Groff/GroffIO.cpp, Lib/Loader/SaveFile.cpp, the Trespasser file-formats document and
 * the real files: every section of the demo GRF and of every SCN validates
 * as its kind and round-trips byte for byte (per section and per file,
 * through the model and through JSON); the value table gives each instance
 * its properties by name; the Euler convention matches the quaternions the
 * demo's .scn stores for the same instances; the OBJ export places every
 * instance with indices in range; older GROFF versions' layouts and the
 * savegame sections round-trip from models; truncated and mutated sections
 * are rejected with a path, never a crash (ASan+UBSan in `make test`).
 * Real files: ../shared/corpus/{grf,scn} (skipped, saying so, when absent). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "grf_geometry_v11.h"
#include "grf_geometry_v13.h"
#include "grf_material_v11.h"
#include "grf_mesh.h"
#include "grf_region.h"
#include "grf_region_v11.h"
#include "relic_grf.h"
#include "relic_tres_names.h"
#include "scn_bmp.h"
#include "scn_instance.h"
#include "scn_text.h"

/* relic_grf_export_obj with its scratch in a heap arena freed at once */
static relic_status grf_obj_scratch(const relic_grf_file *f, const char *mtl_name, relic_buf *obj, relic_buf *mtl,
                                    relic_error *err)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_status st = relic_grf_export_obj(f, mtl_name, &a, obj, mtl, err);
    relic_arena_release(&a);
    return st;
}

#define CORPUS "../shared/corpus"
#define DEMO_GRF CORPUS "/grf/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__demo.grf"
#define DEMO_SCN CORPUS "/scn/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__demo.scn"
static const char *const scn_files[] = {
    DEMO_SCN,
    CORPUS "/scn/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Error.scn",
    CORPUS "/scn/OpenTrespasser__JurassicParkTrespasser__jp2_pc__SlideTest.scn",
    CORPUS "/scn/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Test.scn",
};

/* A corpus file mapped, validated and decoded; 0 (with a note) when absent. */
typedef struct loaded {
    relic_mapping map;
    relic_arena arena;
    relic_groff_file m;
    relic_grf_file f;
} loaded;

static int load(const char *path, loaded *l)
{
    relic_error err;
    relic_groff_view v;
    if (relic_map_file(path, 0, &l->map, &err) != RELIC_OK) {
        print_message("note: %s not found: this real-file test is skipped\n", path);
        return 0;
    }
    relic_arena_init_heap(&l->arena, 0);
    assert_int_equal(relic_groff_validate(l->map.bytes.data, l->map.bytes.size, &v, &err), RELIC_OK);
    assert_int_equal(relic_groff_decode(&v, &l->arena, &l->m, &err), RELIC_OK);
    if (relic_grf_file_decode(&l->m, &l->arena, &l->f, &err) != RELIC_OK) fail_msg("%s @0x%llx: %s", err.path, (unsigned long long)err.offset, err.message);
    return 1;
}

static void unload(loaded *l)
{
    relic_arena_release(&l->arena);
    relic_unmap(&l->map);
}

static size_t count_kind(const relic_grf_file *f, relic_grf_kind k)
{
    size_t n = 0;
    for (size_t i = 0; i < f->container.sections_count; i++) n += f->kinds[i] == k;
    return n;
}

/* Every decoded section writes back its own bytes. */
static void assert_sections_round_trip(const relic_grf_file *f)
{
    relic_error err;
    for (size_t i = 0; i < f->container.sections_count; i++) {
        relic_bytes b = relic_groff_model_section_data(&f->container, i);
        if (!f->models[i]) continue;
        relic_buf out;
        relic_buf_init(&out, 0);
        assert_int_equal(relic_grf_section_write(f->kinds[i], f->models[i], &out, &err), RELIC_OK);
        if (out.size != b.size || memcmp(out.data, b.data, b.size))
            fail_msg("section %zu (%s) does not round-trip", i, relic_grf_kind_name(f->kinds[i]));
        relic_buf_free(&out);
    }
}

static void demo_grf_sections_have_their_kinds(void **state)
{
    (void)state;
    loaded l;
    if (!load(DEMO_GRF, &l)) return;
    assert_int_equal(l.f.layout.version, 15);
    assert_true(l.f.layout.optimised);
    assert_int_equal(count_kind(&l.f, RELIC_GRF_OPAQUE), 0);
    assert_int_equal(count_kind(&l.f, RELIC_GRF_HEADER), 1);
    assert_int_equal(count_kind(&l.f, RELIC_GRF_REGION), 1);
    assert_int_equal(count_kind(&l.f, RELIC_GRF_VALUE_TABLE), 1);
    assert_int_equal(count_kind(&l.f, RELIC_GRF_OBJECT), 780);
    /* both geometry forms: 336 mesh heaps, 444 plain (invisible or jointed objects) */
    assert_int_equal(count_kind(&l.f, RELIC_GRF_MESH), 336);
    assert_int_equal(count_kind(&l.f, RELIC_GRF_GEOMETRY), 444);
    assert_int_equal(count_kind(&l.f, RELIC_GRF_MAPPING) + count_kind(&l.f, RELIC_GRF_MAPPING_REF), 567);
    assert_int_equal(count_kind(&l.f, RELIC_GRF_MATERIAL), 567);
    unload(&l);
}

static void demo_grf_sections_round_trip(void **state)
{
    (void)state;
    loaded l;
    if (!load(DEMO_GRF, &l)) return;
    assert_sections_round_trip(&l.f);
    unload(&l);
}

static void whole_file_round_trips(const char *path)
{
    loaded l;
    relic_error err;
    relic_buf out;
    if (!load(path, &l)) return;
    relic_buf_init(&out, 0);
    assert_int_equal(relic_grf_file_write(&l.f, &l.arena, &out, &err), RELIC_OK);
    assert_int_equal(out.size, l.map.bytes.size);
    assert_memory_equal(out.data, l.map.bytes.data, out.size);
    relic_buf_free(&out);
    unload(&l);
}

static void demo_grf_file_round_trips_through_decoded_sections(void **state)
{
    (void)state;
    whole_file_round_trips(DEMO_GRF);
}

static void scn_sections_have_their_kinds_and_round_trip(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof scn_files / sizeof *scn_files; k++) {
        loaded l;
        if (!load(scn_files[k], &l)) continue;
        assert_true(l.f.layout.is_scene);
        assert_int_equal(count_kind(&l.f, RELIC_SCN_HEADER), 1);
        assert_int_equal(count_kind(&l.f, RELIC_SCN_PARTITIONS), 1);
        assert_int_equal(count_kind(&l.f, RELIC_SCN_HIERARCHY), 3);
        assert_sections_round_trip(&l.f);
        unload(&l);
        whole_file_round_trips(scn_files[k]);
    }
}

static void demo_scn_instance_states_are_decoded(void **state)
{
    (void)state;
    loaded l;
    if (!load(DEMO_SCN, &l)) return;
    assert_int_equal(count_kind(&l.f, RELIC_SCN_INSTANCE), 343);
    assert_int_equal(count_kind(&l.f, RELIC_SCN_INSTANCE44), 11);
    unload(&l);
}

static void json_round_trip(const char *path)
{
    loaded l;
    relic_error err;
    relic_buf json, out;
    relic_groff_file back;
    if (!load(path, &l)) return;
    relic_buf_init(&json, 0);
    relic_buf_init(&out, 0);
    assert_int_equal(relic_grf_json_print(&l.f, &json, &err), RELIC_OK);
    if (relic_grf_json_read((const char *)json.data, json.size, &l.arena, &back, &err) != RELIC_OK)
        fail_msg("%s: %s", err.path, err.message);
    assert_int_equal(relic_groff_write(&back, &out, &err), RELIC_OK);
    assert_int_equal(out.size, l.map.bytes.size);
    assert_memory_equal(out.data, l.map.bytes.data, out.size);
    relic_buf_free(&json);
    relic_buf_free(&out);
    unload(&l);
}

static void demo_grf_json_round_trips(void **state)
{
    (void)state;
    json_round_trip(DEMO_GRF);
}

static void scn_json_round_trips(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof scn_files / sizeof *scn_files; k++) json_round_trip(scn_files[k]);
}

static const relic_grf_value_table *value_table_of(const relic_grf_file *f)
{
    for (size_t i = 0; i < f->container.sections_count; i++)
        if (f->kinds[i] == RELIC_GRF_VALUE_TABLE) return f->models[i];
    return NULL;
}

static const relic_grf_region_file *region_of(const relic_grf_file *f)
{
    for (size_t i = 0; i < f->container.sections_count; i++)
        if (f->kinds[i] == RELIC_GRF_REGION) return f->models[i];
    return NULL;
}

/* relic_grf_json_print of an edited model prints the edit and a directory
 * that describes it: a region that lost an instance is printed with one
 * instance less and the sections laid out again (the header's file_size is
 * the new size), and reads back to a file that holds the edit. */
static void an_edited_model_prints_its_edit_and_its_new_layout(void **state)
{
    (void)state;
    loaded l;
    relic_error err;
    relic_buf json, out;
    relic_groff_file back;
    relic_grf_file again;
    relic_groff_view v;
    if (!load(DEMO_GRF, &l)) return;
    relic_grf_region_file *r = (relic_grf_region_file *)region_of(&l.f);
    assert_non_null(r);
    size_t n = r->instances_count;
    assert_true(n > 1);
    r->instances_count = n - 1;
    r->instances[0].scale = 2.5f;
    relic_buf_init(&json, 0);
    relic_buf_init(&out, 0);
    assert_int_equal(relic_grf_json_print(&l.f, &json, &err), RELIC_OK);
    char want[64];
    snprintf(want, sizeof want, "\"file_size\": %zu,", l.map.bytes.size - RELIC_GRF_REGION_INSTANCE_SIZE);
    relic_buf_append(&json, "", 1);
    if (!strstr((const char *)json.data, want)) fail_msg("the printed header does not say %s", want);
    if (relic_grf_json_read((const char *)json.data, json.size - 1, &l.arena, &back, &err) != RELIC_OK)
        fail_msg("%s: %s", err.path, err.message);
    assert_int_equal(relic_groff_write(&back, &out, &err), RELIC_OK);
    assert_int_equal(out.size, l.map.bytes.size - RELIC_GRF_REGION_INSTANCE_SIZE);
    assert_int_equal(relic_groff_validate(out.data, out.size, &v, &err), RELIC_OK);
    assert_int_equal(relic_grf_file_decode(&back, &l.arena, &again, &err), RELIC_OK);
    const relic_grf_region_file *r2 = region_of(&again);
    assert_non_null(r2);
    assert_int_equal(r2->instances_count, n - 1);
    assert_true(r2->instances[0].scale == 2.5f);
    relic_buf_free(&json);
    relic_buf_free(&out);
    unload(&l);
}

/* The property named name of an instance's object record, or NULL. */
static const relic_grf_vt_record *property(const relic_grf_value_table *vt, uint32_t values, const char *name)
{
    long j = relic_grf_value_table_find(vt, values);
    if (j < 0 || vt->records[j].type != RELIC_GRF_VALUE_OBJECT) return NULL;
    for (size_t k = 0; k < vt->records[j].items_count; k++) {
        long p = relic_grf_value_table_find(vt, vt->records[j].items[k].id);
        const char *n = p >= 0 ? relic_grf_value_table_symbol(vt, vt->records[p].symbol.id) : NULL;
        if (n && !strcmp(n, name)) return &vt->records[p];
    }
    return NULL;
}

static void region_instances_get_their_properties_from_the_value_table(void **state)
{
    (void)state;
    loaded l;
    if (!load(DEMO_GRF, &l)) return;
    const relic_grf_value_table *vt = value_table_of(&l.f);
    const relic_grf_region_file *r = region_of(&l.f);
    assert_non_null(vt);
    assert_non_null(r);
    assert_int_equal(vt->records_count, 5571);
    assert_int_equal(r->instances_count, 2747);
    /* instance 1 is PMac10-00, a gun (its record lists Class = "CGun", Damage = 8.0) */
    const relic_grf_vt_record *cls = property(vt, r->instances[1].values.id, "Class");
    const relic_grf_vt_record *dmg = property(vt, r->instances[1].values.id, "Damage");
    assert_non_null(cls);
    assert_int_equal(cls->type, RELIC_GRF_VALUE_STRING);
    assert_string_equal(cls->s, "CGun");
    assert_non_null(dmg);
    assert_int_equal(dmg->type, RELIC_GRF_VALUE_FLOAT);
    assert_true(dmg->f == 8.0f);
    /* every instance with a value handle names an object record */
    size_t with = 0;
    for (size_t k = 0; k < r->instances_count; k++) {
        if (!r->instances[k].values.references) continue;
        long j = relic_grf_value_table_find(vt, r->instances[k].values.id);
        assert_true(j >= 0);
        assert_int_equal(vt->records[j].type, RELIC_GRF_VALUE_OBJECT);
        with++;
    }
    assert_true(with > 0);
    unload(&l);
}

static void corpus_files_keep_the_rules_between_sections(void **state)
{
    (void)state;
    loaded l;
    if (load(DEMO_GRF, &l)) {
        assert_int_equal(relic_grf_check(&l.m, &l.arena, NULL, NULL), 0);
        unload(&l);
    }
}

static unsigned problems_seen;
static char first_problem[RELIC_ERROR_PATH_MAX];
static void count_problem(void *ctx, const relic_error *e)
{
    (void)ctx;
    if (!problems_seen++) snprintf(first_problem, sizeof first_problem, "%s", e->path);
}

static void a_region_object_handle_that_names_no_object_is_reported(void **state)
{
    (void)state;
    loaded l;
    if (!load(DEMO_GRF, &l)) return;
    /* the region is section 1; its first record's object handle is at byte 4 */
    size_t start = RELIC_GROFF_HEADER_SIZE + RELIC_GROFF_SECTION_SIZE * l.m.sections_count;
    uint8_t *rec = l.m.data + (l.m.sections[1].data_offset - start) + 4;
    relic_store_u32le(rec, RELIC_GROFF_SECTION_HANDLE_BASE + 3); /* a geometry section */
    problems_seen = 0;
    assert_int_equal(relic_grf_check(&l.m, &l.arena, count_problem, NULL), 1);
    assert_string_equal(first_problem, "sections[1].instances[0].object");
    unload(&l);
}

/* Quaternion (w, x, y, z) as a rotation matrix. */
static void quat_matrix(const float q[4], double m[3][3])
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    m[0][0] = 1 - 2 * (y * y + z * z), m[0][1] = 2 * (x * y - w * z), m[0][2] = 2 * (x * z + w * y);
    m[1][0] = 2 * (x * y + w * z), m[1][1] = 1 - 2 * (x * x + z * z), m[1][2] = 2 * (y * z - w * x);
    m[2][0] = 2 * (x * z - w * y), m[2][1] = 2 * (y * z + w * x), m[2][2] = 1 - 2 * (x * x + y * y);
}

static void euler_angles_match_the_scene_quaternions_of_the_same_instances(void **state)
{
    (void)state;
    loaded g, s;
    if (!load(DEMO_GRF, &g)) return;
    if (!load(DEMO_SCN, &s)) {
        unload(&g);
        return;
    }
    const relic_grf_region_file *r = region_of(&g.f);
    size_t compared = 0;
    double worst = 0;
    for (size_t k = 0; k < r->instances_count; k++) {
        const relic_grf_region_instance *in = &r->instances[k];
        const char *name = NULL;
        for (size_t y = 0; y < g.m.symbols_count && !name; y++)
            if (g.m.symbols[y].handle == in->name) name = g.m.symbols[y].name;
        if (!name || (fabsf(in->rotation.x) < 0.05f && fabsf(in->rotation.y) < 0.05f && fabsf(in->rotation.z) < 0.05f))
            continue;
        char hex[9];
        relic_tres_section_name(relic_tres_object_hash(name, strlen(name)), hex);
        for (size_t i = 0; i < s.m.sections_count; i++) {
            const char *sn = relic_groff_model_section_name(&s.m, i);
            if (s.f.kinds[i] != RELIC_SCN_INSTANCE || !sn || strcmp(sn, hex)) continue;
            const relic_scn_instance_file *st = s.f.models[i];
            /* only instances the scene has not moved */
            if (fabsf(st->position.x - in->position.x) > 1e-3f || fabsf(st->position.y - in->position.y) > 1e-3f ||
                fabsf(st->position.z - in->position.z) > 1e-3f)
                continue;
            double a[3][3], b[3][3];
            float rot[3] = {in->rotation.x, in->rotation.y, in->rotation.z};
            float q[4] = {st->rotation.w, st->rotation.x, st->rotation.y, st->rotation.z};
            relic_grf_euler_matrix(rot, a);
            quat_matrix(q, b);
            for (int u = 0; u < 3; u++)
                for (int v = 0; v < 3; v++) worst = fmax(worst, fabs(a[u][v] - b[u][v]));
            compared++;
        }
    }
    assert_true(compared > 200);
    assert_true(worst < 1e-3);
    unload(&s);
    unload(&g);
}

/* OBJ: one `o` per region instance, every face index in range, materials defined. */
static void demo_level_exports_to_obj_with_every_instance(void **state)
{
    (void)state;
    loaded l;
    relic_error err;
    relic_buf obj, mtl;
    if (!load(DEMO_GRF, &l)) return;
    relic_buf_init(&obj, 0);
    relic_buf_init(&mtl, 0);
    assert_int_equal(grf_obj_scratch(&l.f, "demo.mtl", &obj, &mtl, &err), RELIC_OK);
    relic_buf_append(&obj, "", 1);
    relic_buf_append(&mtl, "", 1);
    unsigned long long nv = 0, nvt = 0, nvn = 0, objects = 0, faces = 0;
    char *next;
    for (char *line = (char *)obj.data; *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        else next = line + strlen(line);
        if (!strncmp(line, "v ", 2)) nv++;
        else if (!strncmp(line, "vt ", 3)) nvt++;
        else if (!strncmp(line, "vn ", 3)) nvn++;
        else if (!strncmp(line, "o ", 2)) objects++;
        else if (!strncmp(line, "usemtl ", 7)) {
            char want[128];
            snprintf(want, sizeof want, "newmtl %s\n", line + 7);
            assert_non_null(strstr((const char *)mtl.data, want));
        } else if (!strncmp(line, "f ", 2)) {
            char *p = line + 2;
            int corners = 0;
            faces++;
            while (*p) {
                unsigned long long a = strtoull(p, &p, 10), b = 0, c = 0;
                assert_true(a >= 1 && a <= nv);
                if (*p == '/') {
                    p++;
                    if (*p != '/') {
                        b = strtoull(p, &p, 10);
                        assert_true(b >= 1 && b <= nvt);
                    }
                    if (*p == '/') {
                        p++;
                        c = strtoull(p, &p, 10);
                        assert_true(c >= 1 && c <= nvn);
                    }
                }
                corners++;
                while (*p == ' ') p++;
            }
            assert_true(corners >= 3);
        }
    }
    assert_int_equal(objects, region_of(&l.f)->instances_count);
    assert_true(faces > 50000);
    relic_buf_free(&obj);
    relic_buf_free(&mtl);
    unload(&l);
}

/* ---- layouts of other GROFF versions and savegame sections, from models ---- */

static void write_validate_decode_write(relic_grf_kind k, relic_status (*write)(const void *, relic_buf *, relic_error *),
                                        const void *model)
{
    relic_buf a, b;
    relic_error err;
    relic_arena ar;
    void *m;
    relic_buf_init(&a, 0);
    relic_buf_init(&b, 0);
    relic_arena_init_heap(&ar, 0);
    assert_int_equal(write(model, &a, &err), RELIC_OK);
    assert_int_equal(relic_grf_section_validate(k, a.data, a.size, &err), RELIC_OK);
    assert_int_equal(relic_grf_section_decode(k, a.data, a.size, &ar, &m, &err), RELIC_OK);
    assert_int_equal(relic_grf_section_write(k, m, &b, &err), RELIC_OK);
    assert_int_equal(a.size, b.size);
    assert_memory_equal(a.data, b.data, a.size);
    relic_buf_free(&a);
    relic_buf_free(&b);
    relic_arena_release(&ar);
}

static relic_status wr_region11(const void *m, relic_buf *o, relic_error *e) { return relic_grf_region_v11_write(m, o, e); }
static relic_status wr_geom11(const void *m, relic_buf *o, relic_error *e) { return relic_grf_geometry_v11_write(m, o, e); }
static relic_status wr_geom13(const void *m, relic_buf *o, relic_error *e) { return relic_grf_geometry_v13_write(m, o, e); }
static relic_status wr_mat11(const void *m, relic_buf *o, relic_error *e) { return relic_grf_material_v11_write(m, o, e); }
static relic_status wr_text(const void *m, relic_buf *o, relic_error *e) { return relic_scn_text_write(m, o, e); }
static relic_status wr_bmp(const void *m, relic_buf *o, relic_error *e) { return relic_scn_bmp_write(m, o, e); }

static void older_version_layouts_round_trip(void **state)
{
    (void)state;
    relic_grf_region_v11_instance inst[2] = {
        {.object = 0x80000002u, .name = 7, .position = {1, 2, 3}, .rotation = {0.1f, 0.2f, 0.3f}, .scale = 2},
        {.object = 0x80000002u, .name = 8, .position = {4, 5, 6}, .scale = 1},
    };
    relic_grf_region_v11_file r = {.instances = inst, .instances_count = 2};
    write_validate_decode_write(RELIC_GRF_REGION_V11, wr_region11, &r);
    relic_grf_geometry_v11_vec3f v[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, n[4] = {{0, 0, 1}};
    relic_grf_geometry_v11_face f = {{0, 1, 2}};
    relic_grf_geometry_v11_file g11 = {.colour = {1, 2, 3}, .vertices = v, .vertices_count = 3, .faces = &f, .faces_count = 1, .face_normals = n, .face_normals_count = 1, .vertex_normals = n + 1, .vertex_normals_count = 3};
    write_validate_decode_write(RELIC_GRF_GEOMETRY_V11, wr_geom11, &g11);
    relic_grf_geometry_v13_vec3f v13[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    relic_grf_geometry_v13_face f13 = {{0, 1, 2}};
    relic_grf_geometry_v13_file g13 = {.vertices = v13, .vertices_count = 3, .faces = &f13, .faces_count = 1, .face_normals = v13, .face_normals_count = 1, .wrap_vertices = v13, .wrap_vertices_count = 3};
    write_validate_decode_write(RELIC_GRF_GEOMETRY_V13, wr_geom13, &g13);
    uint32_t names[1] = {5};
    relic_grf_material_v11_file m11 = {.texture = names, .texture_count = 1, .opacity = names, .opacity_count = 1, .bump = names, .bump_count = 1, .ambient = 0.5f, .diffuse = 1};
    write_validate_decode_write(RELIC_GRF_MATERIAL_V11, wr_mat11, &m11);
}

static void savegame_sections_round_trip(void **state)
{
    (void)state;
    /* a name, its NUL and trailing bytes (Trespasser file formats: "possibly 14 extra unknown bytes") */
    char name[] = "Beach 1\0\x01\x02\x03";
    relic_scn_text_file t = {.text = name, .text_count = sizeof name - 1};
    write_validate_decode_write(RELIC_SCN_TEXT, wr_text, &t);
    uint8_t rest[40] = {40, 0, 0, 0, 1};
    relic_scn_bmp_file b = {.magic = "BM", .file_size = 54, .pixel_offset = 54, .rest = rest, .rest_count = sizeof rest};
    write_validate_decode_write(RELIC_SCN_BMP, wr_bmp, &b);
}

static void savegame_section_names_select_their_kinds(void **state)
{
    (void)state;
    relic_groff_section secs[4];
    char n0[] = "SaveGameName", n1[] = "SaveSCNName", n2[] = "SaveBMP", n3[] = "9FB57F53";
    relic_groff_symbol syms[4] = {{.handle = 1, .name = n0, .name_count = sizeof n0},
                                  {.handle = 2, .name = n1, .name_count = sizeof n1},
                                  {.handle = 3, .name = n2, .name_count = sizeof n2},
                                  {.handle = 4, .name = n3, .name_count = sizeof n3}};
    uint8_t data[4 + 4 + 6 + 36] = {'a', 0, 0, 0, 'b', 0, 0, 0, 'B', 'M'};
    uint32_t sizes[4] = {4, 4, 6, 36};
    relic_groff_file m;
    memset(&m, 0, sizeof m);
    m.sections = secs;
    m.sections_count = 4;
    m.symbols = syms;
    m.symbols_count = 4;
    m.data = data;
    m.data_count = sizeof data;
    for (int i = 0; i < 4; i++) {
        memset(&secs[i], 0, sizeof secs[i]);
        secs[i].name = (uint32_t)i + 1;
        secs[i].content = RELIC_GROFF_CONTENT_SPECIAL;
        secs[i].data_size = sizes[i];
    }
    relic_error err;
    assert_int_equal(relic_groff_layout(&m, &err), RELIC_OK);
    relic_grf_layout l = relic_grf_layout_of(&m);
    assert_true(l.is_scene);
    assert_int_equal(relic_grf_classify(&m, 0, &l), RELIC_SCN_TEXT);
    assert_int_equal(relic_grf_classify(&m, 1, &l), RELIC_SCN_TEXT);
    assert_int_equal(relic_grf_classify(&m, 2, &l), RELIC_SCN_BMP);
    assert_int_equal(relic_grf_classify(&m, 3, &l), RELIC_SCN_INSTANCE);
}

/* The name lookup as it was: a scan of the symbol table per section. */
static const char *slow_section_name(const relic_groff_file *m, size_t i)
{
    for (size_t k = 0; k < m->symbols_count; k++)
        if (m->symbols[k].handle == m->sections[i].name) return m->symbols[k].name;
    return NULL;
}

static void expect_names_of_every_section(const relic_groff_file *m)
{
    relic_arena a;
    relic_error err;
    const char **names;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_groff_model_section_names(m, &a, &names, &err), RELIC_OK);
    for (size_t i = 0; i < m->sections_count; i++) {
        const char *want = slow_section_name(m, i);
        assert_ptr_equal(names[i], want); /* the same symbol, not just the same text */
        assert_ptr_equal(relic_groff_model_section_name(m, i), want);
    }
    relic_arena_release(&a);
}

/* A scene-sized model: 6000 special sections, 5000 symbols whose handles
 * repeat (the first wins) or are missing (NULL), in shuffled order; names
 * the classifier knows (Header, Partitions, SaveBMP, hex instance names). */
static void section_names_at_once_equal_the_scan_of_the_symbol_table(void **state)
{
    (void)state;
    enum { SECTIONS = 6000,
           SYMBOLS = 5000,
           HANDLES = 4500 };
    static const char *const fixed[] = {"Header", "Partitions", "SaveBMP", "SaveGameName", "Hierarchy"};
    relic_groff_section *secs = calloc(SECTIONS, sizeof *secs);
    relic_groff_symbol *syms = calloc(SYMBOLS, sizeof *syms);
    char(*text)[16] = calloc(SYMBOLS, sizeof *text);
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (size_t k = 0; k < SYMBOLS; k++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        if (k < 5) snprintf(text[k], sizeof text[k], "%s", fixed[k]);
        else snprintf(text[k], sizeof text[k], "%08X", (unsigned)(seed >> 32));
        syms[k].handle = 1 + (uint32_t)((seed >> 20) % HANDLES);
        syms[k].name = text[k];
        syms[k].name_count = strlen(text[k]) + 1;
    }
    size_t total = 0;
    for (size_t i = 0; i < SECTIONS; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        secs[i].name = 1 + (uint32_t)((seed >> 24) % (HANDLES + 300)); /* some name no symbol */
        secs[i].content = RELIC_GROFF_CONTENT_SPECIAL;
        secs[i].data_size = i % 3 ? RELIC_SCN_INSTANCE_FILE_SIZE : 1 + 2 * 28;
        total += secs[i].data_size;
    }
    uint8_t *data = calloc(total, 1);
    relic_groff_file m = {.sections = secs, .sections_count = SECTIONS, .symbols = syms, .symbols_count = SYMBOLS, .data = data, .data_count = total};
    relic_error err;
    assert_int_equal(relic_groff_layout(&m, &err), RELIC_OK);
    expect_names_of_every_section(&m);
    /* the classifier over every section gives what it gives section by section */
    relic_grf_layout l = relic_grf_layout_of(&m);
    relic_grf_kind *kinds = calloc(SECTIONS, sizeof *kinds);
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_grf_classify_all(&m, &l, &a, kinds, &err), RELIC_OK);
    size_t instances = 0;
    for (size_t i = 0; i < SECTIONS; i++) {
        assert_int_equal(kinds[i], relic_grf_classify(&m, i, &l));
        instances += kinds[i] == RELIC_SCN_INSTANCE;
    }
    assert_true(instances > SECTIONS / 4); /* the names did select kinds */
    relic_arena_release(&a);
    /* no symbols at all: every name NULL */
    m.symbols_count = 0;
    expect_names_of_every_section(&m);
    free(kinds);
    free(data);
    free(text);
    free(syms);
    free(secs);
}

static void section_names_at_once_equal_the_scan_on_real_files(void **state)
{
    (void)state;
    const char *files[] = {DEMO_GRF, scn_files[0], scn_files[1], scn_files[2], scn_files[3]};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        loaded g;
        if (!load(files[f], &g)) continue;
        expect_names_of_every_section(&g.m);
        relic_grf_layout l = relic_grf_layout_of(&g.m);
        for (size_t i = 0; i < g.m.sections_count; i++) assert_int_equal(g.f.kinds[i], relic_grf_classify(&g.m, i, &l));
        unload(&g);
    }
}

static void partitions_with_24_byte_entries_select_their_own_layout(void **state)
{
    (void)state;
    char n0[] = "Partitions", n1[] = "Partitions";
    relic_groff_symbol syms[2] = {{.handle = 1, .name = n0, .name_count = sizeof n0},
                                  {.handle = 2, .name = n1, .name_count = sizeof n1}};
    relic_groff_section secs[2] = {{.name = 1, .content = RELIC_GROFF_CONTENT_SPECIAL, .data_size = 1 + 2 * 24},
                                   {.name = 2, .content = RELIC_GROFF_CONTENT_SPECIAL, .data_size = 1 + 2 * 28}};
    uint8_t data[1 + 2 * 24 + 1 + 2 * 28] = {1};
    relic_groff_file m = {.sections = secs, .sections_count = 2, .symbols = syms, .symbols_count = 2, .data = data, .data_count = sizeof data};
    relic_error err;
    relic_arena a;
    relic_grf_file f;
    assert_int_equal(relic_groff_layout(&m, &err), RELIC_OK);
    relic_grf_layout l = relic_grf_layout_of(&m);
    assert_int_equal(relic_grf_classify(&m, 0, &l), RELIC_SCN_PARTITIONS24);
    assert_int_equal(relic_grf_classify(&m, 1, &l), RELIC_SCN_PARTITIONS);
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_grf_file_decode(&m, &a, &f, &err), RELIC_OK);
    assert_sections_round_trip(&f);
    relic_arena_release(&a);
}

/* ---- the value table's errors ---- */

static void a_value_table_record_of_type_7_is_rejected_with_its_path(void **state)
{
    (void)state;
    /* name "" (1 byte), object handles "" + 13 bytes, symbol table name "" (1),
     * 0 symbols (4), value handles (14), 1 record (4): the record starts at 38 */
    uint8_t vt[100] = {0};
    relic_error err;
    relic_store_u32le(vt + 34, 1);
    vt[38] = 7;
    assert_int_equal(relic_grf_value_table_parse(vt, 41, NULL, NULL, &err), RELIC_E_TRUNCATED);
    assert_int_equal(relic_grf_value_table_parse(vt, sizeof vt, NULL, NULL, &err), RELIC_E_RANGE);
    assert_string_equal(err.path, "records[0].type");
    assert_int_equal(err.offset, 38);
}

static void a_value_table_string_without_nul_is_truncated(void **state)
{
    (void)state;
    const uint8_t vt[] = {'a', 'b', 'c'};
    relic_error err;
    assert_int_equal(relic_grf_value_table_parse(vt, sizeof vt, NULL, NULL, &err), RELIC_E_TRUNCATED);
    assert_string_equal(err.path, "name");
}

static void bytes_after_the_last_record_are_a_layout_error(void **state)
{
    (void)state;
    uint8_t vt[1 + 14 + 1 + 4 + 14 + 4 + 1] = {0};
    relic_error err;
    assert_int_equal(relic_grf_value_table_parse(vt, sizeof vt - 1, NULL, NULL, &err), RELIC_OK);
    assert_int_equal(relic_grf_value_table_parse(vt, sizeof vt, NULL, NULL, &err), RELIC_E_LAYOUT);
}

/* ---- truncation and mutation sweeps over one section of every kind ---- */

static void sweep(const relic_grf_file *f, unsigned seed_base)
{
    int done[RELIC_GRF_KIND_COUNT] = {0};
    for (size_t i = 0; i < f->container.sections_count; i++) {
        relic_grf_kind k = f->kinds[i];
        if (done[k] || k == RELIC_GRF_OPAQUE) continue;
        done[k] = 1;
        relic_bytes b = relic_groff_model_section_data(&f->container, i);
        uint8_t *copy = malloc(b.size + 1);
        assert_non_null(copy);
        relic_error err;
        for (int cut = 0; cut < 64; cut++) {
            size_t n = b.size ? (size_t)((uint64_t)b.size * cut / 64) : 0;
            memcpy(copy, b.data, n);
            relic_status st = relic_grf_section_validate(k, copy, n, &err);
            if (st) assert_true(err.message[0] != 0);
        }
        unsigned seed = seed_base + (unsigned)i;
        for (int t = 0; t < 200 && b.size; t++) {
            memcpy(copy, b.data, b.size);
            seed = seed * 1103515245u + 12345u;
            copy[(seed >> 8) % b.size] ^= (uint8_t)(1u << ((seed >> 4) & 7));
            relic_arena a;
            void *m;
            relic_arena_init_heap(&a, (size_t)64 << 20);
            if (relic_grf_section_decode(k, copy, b.size, &a, &m, &err) == RELIC_OK && m) {
                relic_buf out;
                relic_buf_init(&out, 0);
                assert_int_equal(relic_grf_section_write(k, m, &out, &err), RELIC_OK);
                assert_int_equal(out.size, b.size);
                assert_memory_equal(out.data, copy, b.size);
                relic_buf_free(&out);
            } else {
                assert_true(err.message[0] != 0);
            }
            relic_arena_release(&a);
        }
        free(copy);
    }
}

static void truncated_and_mutated_sections_are_rejected_or_round_trip(void **state)
{
    (void)state;
    loaded l;
    if (load(DEMO_GRF, &l)) {
        sweep(&l.f, 1);
        unload(&l);
    }
    if (load(DEMO_SCN, &l)) {
        sweep(&l.f, 2);
        unload(&l);
    }
}

static void bytes_after_a_sections_layout_are_rejected(void **state)
{
    (void)state;
    const uint8_t five[5] = {5, 0, 0, 0x80, 0}, nine[9] = {1, 0, 0, 0, 0, 0, 0, 0, 7};
    relic_error err;
    assert_int_equal(relic_grf_section_validate(RELIC_GRF_MAPPING_REF, five, 4, &err), RELIC_OK);
    assert_int_equal(relic_grf_section_validate(RELIC_GRF_MAPPING_REF, five, 5, &err), RELIC_E_LAYOUT);
    assert_int_equal(relic_grf_section_validate(RELIC_SCN_HIERARCHY, nine, 8, &err), RELIC_OK);
    assert_int_equal(relic_grf_section_validate(RELIC_SCN_HIERARCHY, nine, 9, &err), RELIC_E_LAYOUT);
    assert_int_equal(err.offset, 8);
}

static void kind_names_read_back(void **state)
{
    (void)state;
    for (int k = 0; k < RELIC_GRF_KIND_COUNT; k++)
        assert_int_equal(relic_grf_kind_from_name(relic_grf_kind_name((relic_grf_kind)k)), k);
    assert_int_equal(relic_grf_kind_from_name("nonsense"), -1);
}

typedef struct nan_report {
    unsigned count, range;
    char path[RELIC_ERROR_PATH_MAX];
    uint64_t offset;
} nan_report;

static void note_nan(void *ctx, const relic_error *e)
{
    nan_report *r = ctx;
    r->count++;
    if (e->code != RELIC_E_RANGE) return;
    r->range++;
    memcpy(r->path, e->path, sizeof r->path);
    r->offset = e->offset;
}

static void test_nan_vertex_in_a_geometry_section_is_reported_with_its_offset(void **state)
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
    memcpy(copy, map.bytes.data, n);
    relic_unmap(&map);
    relic_arena a;
    relic_groff_view v;
    relic_groff_file m;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_groff_validate(copy, n, &v, &err), RELIC_OK);
    assert_int_equal(relic_groff_decode(&v, &a, &m, &err), RELIC_OK);
    relic_grf_layout l = relic_grf_layout_of(&m);
    size_t i = 0;
    /* a GROFF 15 plain geometry with vertices: pivot, counts (vertex count at 12), colour, then vertices at 40 */
    while (i < m.sections_count &&
           (relic_grf_classify(&m, i, &l) != RELIC_GRF_GEOMETRY || relic_load_u32le(copy + m.sections[i].data_offset + 12) == 0))
        i++;
    assert_true(i < m.sections_count);
    nan_report r;
    memset(&r, 0, sizeof r);
    relic_arena scratch;
    relic_arena_init_heap(&scratch, 0);
    assert_int_equal(relic_grf_check(&m, &scratch, note_nan, &r), 0);
    relic_arena_release(&scratch);
    uint64_t at = m.sections[i].data_offset + 40 + 4;
    /* the check reads the decoded container's copy of the section bytes */
    relic_bytes data = relic_groff_model_section_data(&m, i);
    relic_store_f32le((uint8_t *)(uintptr_t)data.data + 40 + 4, NAN);
    relic_arena_init_heap(&scratch, 0);
    assert_int_equal(relic_grf_check(&m, &scratch, note_nan, &r), 1);
    relic_arena_release(&scratch);
    char want[64];
    snprintf(want, sizeof want, "sections[%zu].vertices[0].y", i);
    assert_int_equal(r.range, 1);
    assert_string_equal(r.path, want);
    assert_int_equal(r.offset, at);
    relic_arena_release(&a);
    free(copy);
}

static void note_problem(void *ctx, const relic_error *e)
{
    nan_report *r = ctx;
    r->count++;
    memcpy(r->path, e->path, sizeof r->path);
    r->offset = e->offset;
}

static void test_control_byte_or_separator_in_a_section_name_is_reported(void **state)
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
    memcpy(copy, map.bytes.data, n);
    relic_unmap(&map);
    relic_groff_view v;
    assert_int_equal(relic_groff_validate(copy, n, &v, &err), RELIC_OK);
    /* section 0's name: its symbol (handle, length, references, name bytes) */
    uint32_t h = relic_groff_section_name(relic_groff_sections_at(&v, 0));
    uint8_t *p = (uint8_t *)(uintptr_t)v.symbols, *name = NULL;
    for (size_t k = 0; k < v.symbols_count; k++) {
        uint32_t len = relic_load_u32le(p + 4);
        if (relic_load_u32le(p) == h) {
            name = p + 12;
            break;
        }
        p += 12 + len;
    }
    assert_non_null(name);
    assert_true(strlen((const char *)name) >= 2);
    relic_arena a;
    nan_report r;
    const uint8_t bad[] = {0x1b, '\n', '/', '\\'};
    for (size_t b = 0; b < sizeof bad; b++) {
        uint8_t keep = name[1];
        name[1] = bad[b];
        memset(&r, 0, sizeof r);
        relic_arena_init_heap(&a, 0);
        assert_int_equal(relic_groff_check(&v, 0, &a, note_problem, &r), 1);
        relic_arena_release(&a);
        assert_string_equal(r.path, "sections[0].name");
        assert_int_equal(r.offset, (uint64_t)(name + 1 - copy));
        name[1] = keep;
    }
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_groff_check(&v, 0, &a, NULL, NULL), 0);
    relic_arena_release(&a);
    free(copy);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(demo_grf_sections_have_their_kinds),
        cmocka_unit_test(demo_grf_sections_round_trip),
        cmocka_unit_test(demo_grf_file_round_trips_through_decoded_sections),
        cmocka_unit_test(scn_sections_have_their_kinds_and_round_trip),
        cmocka_unit_test(demo_scn_instance_states_are_decoded),
        cmocka_unit_test(demo_grf_json_round_trips),
        cmocka_unit_test(an_edited_model_prints_its_edit_and_its_new_layout),
        cmocka_unit_test(scn_json_round_trips),
        cmocka_unit_test(region_instances_get_their_properties_from_the_value_table),
        cmocka_unit_test(corpus_files_keep_the_rules_between_sections),
        cmocka_unit_test(a_region_object_handle_that_names_no_object_is_reported),
        cmocka_unit_test(euler_angles_match_the_scene_quaternions_of_the_same_instances),
        cmocka_unit_test(demo_level_exports_to_obj_with_every_instance),
        cmocka_unit_test(older_version_layouts_round_trip),
        cmocka_unit_test(savegame_sections_round_trip),
        cmocka_unit_test(savegame_section_names_select_their_kinds),
        cmocka_unit_test(partitions_with_24_byte_entries_select_their_own_layout),
        cmocka_unit_test(a_value_table_record_of_type_7_is_rejected_with_its_path),
        cmocka_unit_test(a_value_table_string_without_nul_is_truncated),
        cmocka_unit_test(bytes_after_the_last_record_are_a_layout_error),
        cmocka_unit_test(truncated_and_mutated_sections_are_rejected_or_round_trip),
        cmocka_unit_test(bytes_after_a_sections_layout_are_rejected),
        cmocka_unit_test(kind_names_read_back),
        cmocka_unit_test(section_names_at_once_equal_the_scan_of_the_symbol_table),
        cmocka_unit_test(section_names_at_once_equal_the_scan_on_real_files),
        cmocka_unit_test(test_nan_vertex_in_a_geometry_section_is_reported_with_its_offset),
        cmocka_unit_test(test_control_byte_or_separator_in_a_section_name_is_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
