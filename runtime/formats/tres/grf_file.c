/* grf_file.c — a whole GROFF level or scene with every section decoded as its
 * kind (grf_sections.c): decoding, re-writing, and the rules between
 * sections that the per-section schemas cannot state (handles between
 * region, objects, geometry, mappings, materials, symbols and the value
 * table). Facts: Trespasser source, Lib/Groff/FileIO.cpp, Lib/Groff/GroffIO.cpp, Lib/Loader/SaveFile.cpp; Trespasser file formats, "GRF". */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grf_geometry.h"
#include "grf_mapping.h"
#include "grf_mapping_ref.h"
#include "grf_material.h"
#include "grf_material_v11.h"
#include "grf_mesh.h"
#include "grf_object.h"
#include "grf_region.h"
#include "grf_region_v11.h"
#include "relic_gen.h"
#include "relic_grf.h"

/* The error of section i, re-rooted at the container: path
 * sections[i].<path inside the section>, offset in the file. */
static relic_status in_section(relic_error *err, const relic_groff_file *m, size_t i, relic_status st)
{
    if (err) {
        err->offset += m->sections[i].data_offset;
        relic_gen_path_prefix(err, "sections", (int64_t)i);
    }
    return st;
}

relic_status relic_grf_file_decode(const relic_groff_file *m, relic_arena *a, relic_grf_file *f, relic_error *err)
{
    memset(f, 0, sizeof *f);
    f->container = *m;
    f->layout = relic_grf_layout_of(m);
    size_t n = m->sections_count;
    if (n) {
        f->kinds = relic_arena_array(a, n, sizeof *f->kinds, 8);
        f->models = relic_arena_array(a, n, sizeof *f->models, 8);
        if (!f->kinds || !f->models) return relic_fail(err, RELIC_E_NOMEM, 0, "sections", "out of memory");
        relic_status st = relic_grf_classify_all(m, &f->layout, a, f->kinds, err);
        if (st != RELIC_OK) return st;
    }
    for (size_t i = 0; i < n; i++) {
        relic_bytes b = relic_groff_model_section_data(m, i);
        f->models[i] = NULL;
        if (!b.data && m->sections[i].data_size)
            return relic_gen_fail_at(err, RELIC_E_LAYOUT, m->sections[i].data_offset, "sections", (int64_t)i,
                                     "the section's data lies outside the data region");
        relic_status st = relic_grf_section_decode(f->kinds[i], b.data, b.size, a, &f->models[i], err);
        if (st) return in_section(err, m, i, st);
    }
    return RELIC_OK;
}

relic_status relic_grf_file_write(relic_grf_file *f, relic_arena *a, relic_buf *out, relic_error *err)
{
    relic_groff_file *m = &f->container;
    relic_buf data;
    relic_status st = RELIC_OK;
    relic_buf_init_arena(&data, a, 0); /* the data region, built in place in the caller's arena */
    for (size_t i = 0; i < m->sections_count && !st; i++) {
        size_t before = data.size;
        if (f->models[i]) {
            st = relic_grf_section_write(f->kinds[i], f->models[i], &data, err);
            if (st) st = in_section(err, m, i, st);
        } else {
            relic_bytes b = relic_groff_model_section_data(m, i);
            relic_buf_append(&data, b.data, b.size);
        }
        if (data.size - before > UINT32_MAX) st = relic_gen_fail_at(err, RELIC_E_LIMIT, 0, "sections", (int64_t)i, "section passes 4 GiB");
        else m->sections[i].data_size = (uint32_t)(data.size - before);
    }
    if (!st && data.failed) st = relic_fail(err, RELIC_E_NOMEM, 0, "data", "out of memory");
    if (!st) {
        m->data = data.size ? data.data : NULL;
        m->data_count = data.size;
        st = relic_groff_layout(m, err);
    }
    if (!st) st = relic_groff_write(m, out, err);
    return st;
}

/* ---- rules between sections ---- */

typedef struct checker {
    const relic_groff_file *m;
    const relic_grf_kind *kinds;
    void *const *models;
    relic_report_fn report;
    void *ctx;
    unsigned problems;
    relic_grf_symbols symbols;
} checker;

static void problem(checker *c, relic_status code, size_t sec, uint64_t rel, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static void problem(checker *c, relic_status code, size_t sec, uint64_t rel, const char *field, const char *fmt, ...)
{
    relic_error e;
    va_list ap;
    va_start(ap, fmt);
    e.code = code;
    e.offset = (uint64_t)c->m->sections[sec].data_offset + rel;
    snprintf(e.path, sizeof e.path, "sections[%zu].%s", sec, field);
    vsnprintf(e.message, sizeof e.message, fmt, ap);
    va_end(ap);
    c->problems++;
    if (c->report) c->report(c->ctx, &e);
}

/* The section a handle names (0x80000000 + index) if it has content flag want; else -1. */
static long section_of(const checker *c, uint32_t handle, uint32_t want)
{
    if (handle < RELIC_GROFF_SECTION_HANDLE_BASE) return -1;
    uint64_t i = handle - RELIC_GROFF_SECTION_HANDLE_BASE;
    if (i >= c->m->sections_count || c->m->sections[i].content != want) return -1;
    return (long)i;
}

static int is_symbol(const checker *c, uint32_t h)
{
    return relic_grf_symbols_name(&c->symbols, h) != NULL;
}

/* Number of materials in a material section, 0 when it is not decoded. */
static size_t material_count(const checker *c, long sec)
{
    if (sec < 0) return 0;
    if (c->kinds[sec] == RELIC_GRF_MATERIAL) return ((const relic_grf_material_file *)c->models[sec])->texture_count;
    if (c->kinds[sec] == RELIC_GRF_MATERIAL_V11)
        return ((const relic_grf_material_v11_file *)c->models[sec])->texture_count;
    return 0;
}

static void check_material_names(checker *c, size_t i)
{
    const uint32_t *lists[3];
    size_t n;
    if (c->kinds[i] == RELIC_GRF_MATERIAL) {
        const relic_grf_material_file *mt = c->models[i];
        lists[0] = mt->texture, lists[1] = mt->opacity, lists[2] = mt->bump, n = mt->texture_count;
    } else {
        const relic_grf_material_v11_file *mt = c->models[i];
        lists[0] = mt->texture, lists[1] = mt->opacity, lists[2] = mt->bump, n = mt->texture_count;
    }
    static const char *const names[3] = {"texture", "opacity", "bump"};
    for (int l = 0; l < 3; l++)
        for (size_t k = 0; k < n; k++)
            if (!is_symbol(c, lists[l][k])) {
                char f[48];
                snprintf(f, sizeof f, "%s[%zu]", names[l], k);
                problem(c, RELIC_E_INDEX, i, 4 + 4 * (l * n + k), f, "0x%08X is not a symbol handle", lists[l][k]);
            }
}

static void check_object(checker *c, size_t i)
{
    const relic_grf_object_file *o = c->models[i];
    if (!is_symbol(c, o->name)) problem(c, RELIC_E_INDEX, i, 0, "name", "0x%08X is not a symbol handle", o->name);
    long g = section_of(c, o->geometry, RELIC_GROFF_CONTENT_GEOMETRY);
    if (g < 0) problem(c, RELIC_E_INDEX, i, 4, "geometry", "0x%08X is not the handle of a geometry section", o->geometry);
    if (o->mapping && section_of(c, o->mapping, RELIC_GROFF_CONTENT_MAPPING) < 0)
        problem(c, RELIC_E_INDEX, i, 8, "mapping", "0x%08X is not the handle of a mapping section", o->mapping);
}

static void check_mapping(checker *c, size_t i)
{
    uint32_t mh = c->kinds[i] == RELIC_GRF_MAPPING ? ((const relic_grf_mapping_file *)c->models[i])->material
                                                   : ((const relic_grf_mapping_ref_file *)c->models[i])->material;
    long mat = section_of(c, mh, RELIC_GROFF_CONTENT_MATERIAL);
    if (mat < 0) {
        problem(c, RELIC_E_INDEX, i, 0, "material", "0x%08X is not the handle of a material section", mh);
        return;
    }
    if (c->kinds[i] != RELIC_GRF_MAPPING) return;
    const relic_grf_mapping_file *mp = c->models[i];
    size_t n = material_count(c, mat);
    for (size_t k = 0; k < mp->face_materials_count && n; k++)
        if (mp->face_materials[k] >= n) {
            char f[48];
            snprintf(f, sizeof f, "face_materials[%zu]", k);
            problem(c, RELIC_E_INDEX, i,
                    12 + RELIC_GRF_MAPPING_UV_SIZE * mp->texture_vertices_count + RELIC_GRF_MAPPING_TEXTURE_FACE_SIZE * mp->texture_faces_count + 4 * k,
                    f, "%u, but the material section has %zu materials", mp->face_materials[k], n);
            break;
        }
}

static void check_mesh(checker *c, size_t i)
{
    const relic_grf_mesh_file *me = c->models[i];
    if (!me->material) return;
    long mat = section_of(c, me->material, RELIC_GROFF_CONTENT_MATERIAL);
    if (mat < 0) {
        problem(c, RELIC_E_INDEX, i, 0, "material", "0x%08X is not the handle of a material section", me->material);
        return;
    }
    size_t n = material_count(c, mat);
    uint64_t at = 44 + RELIC_GRF_MESH_VEC3F_SIZE * me->points_count + RELIC_GRF_MESH_VERTEX_SIZE * me->vertices_count +
        4 * me->vertex_pointers_count;
    for (size_t k = 0; k < me->polygons_count && n; k++)
        if (me->polygons[k].surface >= n) {
            char f[48];
            snprintf(f, sizeof f, "polygons[%zu].surface", k);
            problem(c, RELIC_E_INDEX, i, at + RELIC_GRF_MESH_POLYGON_SIZE * k + RELIC_GRF_MESH_POLYGON_SURFACE_POS, f,
                    "%u, but the material section has %zu materials", me->polygons[k].surface, n);
            break;
        }
}

/* n vec3f records at rel in section i's bytes: every coordinate finite.
 * Reports the first bad one of the array. */
static void check_finite_vec3(checker *c, size_t i, const uint8_t *data, uint64_t rel, uint64_t n, const char *array)
{
    for (uint64_t k = 0; k < n; k++)
        for (unsigned x = 0; x < 3; x++) {
            float f = relic_load_f32le(data + rel + 12 * k + 4 * x);
            if (isfinite(f)) continue;
            char field[64];
            snprintf(field, sizeof field, "%s[%llu].%c", array, (unsigned long long)k, "xyz"[x]);
            problem(c, RELIC_E_RANGE, i, rel + 12 * k + 4 * x, field, "%s, not a finite number",
                    isnan(f) ? "NaN" : f > 0 ? "+infinity"
                                             : "-infinity");
            return;
        }
}

/* Positions and normals of a geometry section (plain, any version, or the
 * optimised mesh's points): a NaN or infinite coordinate has no place in a
 * level. The section decoded, so every array lies inside its bytes. */
static void check_geometry_floats(checker *c, size_t i)
{
    relic_bytes b = relic_groff_model_section_data(c->m, i);
    const uint8_t *d = b.data;
    if (c->kinds[i] == RELIC_GRF_MESH) {
        const relic_grf_mesh_file *me = c->models[i];
        check_finite_vec3(c, i, d, 44, me->points_count, "points");
        return;
    }
    /* plain forms: [pivot (GROFF 14-15)] vertex, face, vertex-normal and
     * (not GROFF 11-12) wrap counts, a colour of three u32, then the arrays */
    uint64_t at = 0;
    if (c->kinds[i] == RELIC_GRF_GEOMETRY) {
        check_finite_vec3(c, i, d, 0, 1, "pivot");
        at = 12;
    }
    int wrap = c->kinds[i] != RELIC_GRF_GEOMETRY_V11;
    uint64_t nv = relic_load_u32le(d + at), nf = relic_load_u32le(d + at + 4), nvn = relic_load_u32le(d + at + 8);
    uint64_t nw = wrap ? relic_load_u32le(d + at + 12) : 0;
    at += (wrap ? 16 : 12) + 12;
    check_finite_vec3(c, i, d, at, nv, "vertices");
    at += 12 * nv + 12 * nf; /* the faces are indices */
    check_finite_vec3(c, i, d, at, nf, "face_normals");
    at += 12 * nf;
    check_finite_vec3(c, i, d, at, nvn, "vertex_normals");
    at += 12 * nvn;
    check_finite_vec3(c, i, d, at, nw, "wrap_vertices");
}

static void check_region(checker *c, size_t i, const relic_grf_value_table *vt)
{
    size_t n;
    uint32_t value_table = 0;
    int v11 = c->kinds[i] == RELIC_GRF_REGION_V11;
    const relic_grf_region_file *r = v11 ? NULL : c->models[i];
    const relic_grf_region_v11_file *r11 = v11 ? c->models[i] : NULL;
    size_t rec = v11 ? RELIC_GRF_REGION_V11_INSTANCE_SIZE : RELIC_GRF_REGION_INSTANCE_SIZE;
    n = v11 ? r11->instances_count : r->instances_count;
    if (!v11) value_table = r->value_table;
    for (size_t k = 0; k < n; k++) {
        uint32_t obj = v11 ? r11->instances[k].object : r->instances[k].object;
        uint32_t name = v11 ? r11->instances[k].name : r->instances[k].name;
        char f[48];
        if (section_of(c, obj, RELIC_GROFF_CONTENT_OBJECT) < 0) {
            snprintf(f, sizeof f, "instances[%zu].object", k);
            problem(c, RELIC_E_INDEX, i, 4 + rec * k, f, "0x%08X is not the handle of an object section", obj);
        }
        if (!is_symbol(c, name)) {
            snprintf(f, sizeof f, "instances[%zu].name", k);
            problem(c, RELIC_E_INDEX, i, 4 + rec * k + 4, f, "0x%08X is not a symbol handle", name);
        }
        if (!v11 && vt && (r->instances[k].values.id || r->instances[k].values.references)) {
            long rr = relic_grf_value_table_find(vt, r->instances[k].values.id);
            if (rr < 0 || vt->records[rr].type != RELIC_GRF_VALUE_OBJECT) {
                snprintf(f, sizeof f, "instances[%zu].values", k);
                problem(c, RELIC_E_INDEX, i, 4 + rec * k + RELIC_GRF_REGION_INSTANCE_VALUES_POS, f,
                        "value %u is not an object record of the value table", r->instances[k].values.id);
            }
        }
    }
    if (value_table && section_of(c, value_table, RELIC_GROFF_CONTENT_ATTRIBUTES) < 0)
        problem(c, RELIC_E_INDEX, i, 4 + rec * n, "value_table", "0x%08X is not the handle of a value-table section",
                value_table);
}

unsigned relic_grf_check(const relic_groff_file *m, relic_arena *scratch, relic_report_fn report, void *ctx)
{
    relic_grf_layout l = relic_grf_layout_of(m);
    size_t n = m->sections_count;
    checker c = {m, NULL, NULL, report, ctx, 0, {NULL, 0}};
    relic_error ierr;
    relic_grf_kind *kinds = n ? relic_arena_array(scratch, n, sizeof *kinds, 8) : NULL;
    void **models = n ? relic_arena_array(scratch, n, sizeof *models, 8) : NULL;
    const relic_grf_value_table *vt = NULL;
    if ((n && (!kinds || !models)) || relic_grf_symbols_index(m, scratch, &c.symbols, &ierr) != RELIC_OK ||
        (n && relic_grf_classify_all(m, &l, scratch, kinds, &ierr) != RELIC_OK)) {
        relic_error e;
        relic_fail(&e, RELIC_E_NOMEM, 0, "sections", "out of memory");
        if (report) report(ctx, &e);
        return 1;
    }
    c.kinds = kinds;
    c.models = models;
    for (size_t i = 0; i < n; i++) {
        relic_bytes b = relic_groff_model_section_data(m, i);
        relic_error e;
        models[i] = NULL;
        if (!b.data && m->sections[i].data_size) continue; /* relic_groff_check reports it */
        if (relic_grf_section_decode(kinds[i], b.data, b.size, scratch, &models[i], &e) != RELIC_OK) {
            in_section(&e, m, i, e.code);
            c.problems++;
            if (report) report(ctx, &e);
            models[i] = NULL;
            kinds[i] = RELIC_GRF_OPAQUE;
        } else if (kinds[i] == RELIC_GRF_VALUE_TABLE && !vt) {
            vt = models[i];
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (!models[i]) continue;
        switch (kinds[i]) {
        case RELIC_GRF_OBJECT: check_object(&c, i); break;
        case RELIC_GRF_MAPPING:
        case RELIC_GRF_MAPPING_REF: check_mapping(&c, i); break;
        case RELIC_GRF_MESH:
            check_mesh(&c, i);
            check_geometry_floats(&c, i);
            break;
        case RELIC_GRF_GEOMETRY:
        case RELIC_GRF_GEOMETRY_V13:
        case RELIC_GRF_GEOMETRY_V11: check_geometry_floats(&c, i); break;
        case RELIC_GRF_MATERIAL:
        case RELIC_GRF_MATERIAL_V11: check_material_names(&c, i); break;
        case RELIC_GRF_REGION:
        case RELIC_GRF_REGION_V11: check_region(&c, i, vt); break;
        default: break;
        }
    }
    return c.problems;
}
