/* tpm_grf.c — a Trespasser level (GRF, Trespasser source, Lib/Groff/GroffIO.cpp) as TPM
 * model text (Trespasser file formats, "TPM - Models"): every distinct model (object
 * section) a region instance uses becomes one `mesh` block in object space,
 * named after the object section, with its material table (named after the
 * .material's texture files, as runtime/export/grf_obj.c names them), positions,
 * texture coordinates, normals and triangles; every region instance becomes
 * an `instance` block with the TPM document's mesh, position, rotation (Euler
 * angles, radians, as the region stores them: Trespasser file formats, REGION ENTRY) and
 * scale. Both geometry forms are read: the mesh heap (polygons over
 * vertex records, fan-triangulated; each vertex record gives one texture
 * coordinate and one normal) and plain triangles (with the .mapping's
 * texture coordinates and per-face materials; per-corner or per-face
 * normals). Coordinates stay Z-up as in Trespasser and TPM. */
#include <math.h>
#include <string.h>

#include "grf_geometry.h"
#include "grf_geometry_v11.h"
#include "grf_geometry_v13.h"
#include "grf_mapping.h"
#include "grf_material.h"
#include "grf_material_v11.h"
#include "grf_mesh.h"
#include "grf_object.h"
#include "grf_region.h"
#include "grf_region_v11.h"
#include "relic_gen.h"
#include "relic_grf.h"
#include "relic_tpm.h"

#define NAME_MAX_LEN 96

typedef struct conv {
    const relic_grf_file *f;
    relic_buf *o;
    relic_grf_symbols symbols;
    relic_error *err;
    size_t section;       /* the object section being written, for messages */
    const uint8_t *named; /* per section: 1 when another object section has its name (model_name) */
} conv;

/* A section's decoded model and kind, or NULL. */
static const void *section(const relic_grf_file *f, uint32_t handle, relic_grf_kind *kind)
{
    uint64_t i = handle - (uint64_t)RELIC_GROFF_SECTION_HANDLE_BASE;
    if (handle < RELIC_GROFF_SECTION_HANDLE_BASE || i >= f->container.sections_count) return NULL;
    *kind = f->kinds[i];
    return f->models[i];
}

/* A name as a TPM string: '"', control bytes and DEL become '_'. */
static void put_name(relic_buf *o, const char *s)
{
    relic_buf_append(o, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        relic_buf_append(o, c == '"' || c < 0x20 || c == 0x7f ? "_" : s, 1);
    }
    relic_buf_append(o, "\"", 1);
}

static relic_status put_tuple(conv *c, const char *key, const float *v, unsigned n)
{
    char t[48];
    relic_buf_printf(c->o, " %s = (", key);
    for (unsigned i = 0; i < n; i++) {
        if (!isfinite(v[i]))
            return relic_fail(c->err, RELIC_E_RANGE, 0, "sections", "section %zu: a non-finite %s has no TPM form",
                              c->section, key);
        if (i) relic_buf_append(c->o, ",", 1);
        relic_buf_append(c->o, t, relic_f32_shortest(v[i], t));
    }
    relic_buf_puts(c->o, ")\n");
    return RELIC_OK;
}

/* `m = ...` lines: the texture names of a material section (flat colours
 * by RGB, as runtime/export/grf_obj.c names them); returns their count. */
static uint32_t put_materials(conv *c, uint32_t handle)
{
    relic_grf_kind k = RELIC_GRF_OPAQUE;
    const void *m = handle ? section(c->f, handle, &k) : NULL;
    const uint32_t *tex = NULL;
    const relic_grf_material_rgb *rgb = NULL;
    size_t n = 0, ncolour = 0;
    if (m && k == RELIC_GRF_MATERIAL) {
        const relic_grf_material_file *x = m;
        tex = x->texture, rgb = x->colour, n = x->texture_count, ncolour = x->colour_count;
    } else if (m && k == RELIC_GRF_MATERIAL_V11) {
        const relic_grf_material_v11_file *x = m;
        tex = x->texture, n = x->texture_count;
    }
    if (n > RELIC_TPM_MAX_ELEMENTS) n = RELIC_TPM_MAX_ELEMENTS;
    for (size_t i = 0; i < n; i++) {
        char name[NAME_MAX_LEN];
        const char *t = relic_grf_symbols_name(&c->symbols, tex[i]);
        if (t && *t) {
            const char *b = t;
            for (const char *p = t; *p; p++)
                if (*p == '\\' || *p == '/' || *p == ':') b = p + 1;
            size_t j = 0;
            for (; b[j] && b[j] != '.' && j + 1 < sizeof name; j++) name[j] = b[j];
            name[j] = 0;
        } else {
            const int has = rgb && i < ncolour;
            unsigned r = has ? rgb[i].r & 0xFF : 128, g = has ? rgb[i].g & 0xFF : 128, bl = has ? rgb[i].b & 0xFF : 128;
            snprintf(name, sizeof name, "flat_%02X%02X%02X", r, g, bl);
        }
        relic_buf_puts(c->o, " m = ");
        put_name(c->o, name);
        relic_buf_puts(c->o, "\n");
    }
    return (uint32_t)n;
}

static void put_face(conv *c, const uint32_t v[3], const uint32_t t[3], const uint32_t n[3], uint32_t m)
{
    relic_buf_printf(c->o, " f = (%u,%u,%u),(%u,%u,%u),(%u,%u,%u),%u\n", v[0], v[1], v[2], t[0], t[1], t[2], n[0], n[1],
                     n[2], m);
}

static relic_status bad(conv *c, const char *what, size_t k)
{
    return relic_fail(c->err, RELIC_E_INDEX, 0, "sections", "section %zu: %s %zu is out of range", c->section, what, k);
}

/* The mesh-heap form: points, vertex records (point, u, v, normal), polygons. */
static relic_status mesh_form(conv *c, const relic_grf_mesh_file *m)
{
    relic_status st;
    uint32_t mats = put_materials(c, m->material);
    for (size_t i = 0; i < m->points_count; i++) {
        float p[3] = {m->points[i].x, m->points[i].y, m->points[i].z};
        if ((st = put_tuple(c, "v", p, 3))) return st;
    }
    for (size_t i = 0; i < m->vertices_count; i++) {
        float uv[2] = {m->vertices[i].u, m->vertices[i].v};
        if ((st = put_tuple(c, "t", uv, 2))) return st;
    }
    for (size_t i = 0; i < m->vertices_count; i++) {
        float n[3] = {m->vertices[i].normal.x, m->vertices[i].normal.y, m->vertices[i].normal.z};
        if ((st = put_tuple(c, "n", n, 3))) return st;
    }
    for (size_t p = 0; p < m->polygons_count; p++) {
        const relic_grf_mesh_polygon *pg = &m->polygons[p];
        if (pg->vertex_count < 3) continue;
        if ((uint64_t)pg->first + pg->vertex_count > m->vertex_pointers_count) return bad(c, "polygon", p);
        uint32_t vr[3], pt[3];
        for (uint32_t k = 0; k < pg->vertex_count; k++) {
            uint32_t vi = m->vertex_pointers[pg->first + k];
            if (vi >= m->vertices_count || m->vertices[vi].point >= m->points_count) return bad(c, "polygon", p);
            if (k == 0) vr[0] = vi + 1, pt[0] = m->vertices[vi].point + 1;
            if (k >= 2) { /* fan: (0, k-1, k) */
                vr[2] = vi + 1, pt[2] = m->vertices[vi].point + 1;
                put_face(c, pt, vr, vr, pg->surface < mats ? pg->surface + 1 : 0);
            }
            if (k >= 1) vr[1] = vi + 1, pt[1] = m->vertices[vi].point + 1;
        }
    }
    return RELIC_OK;
}

typedef struct plain {
    const relic_grf_geometry_vec3f *vertices, *face_normals, *vertex_normals;
    const relic_grf_geometry_face *faces;
    size_t vertices_count, faces_count, vertex_normals_count, face_normals_count;
} plain;

static relic_status put3(conv *c, const char *key, const relic_grf_geometry_vec3f *p)
{
    float v[3] = {p->x, p->y, p->z};
    return put_tuple(c, key, v, 3);
}

/* Plain triangles with the .mapping's texture coordinates and materials. */
static relic_status plain_form(conv *c, const plain *g, const relic_grf_mapping_file *map)
{
    relic_status st;
    uint32_t mats = map ? put_materials(c, map->material) : 0;
    int per_corner = g->vertex_normals_count == 3 * g->faces_count;
    int per_face = !per_corner && g->face_normals_count == g->faces_count;
    int textured = map && map->texture_vertices_count && map->texture_faces_count == g->faces_count;
    for (size_t i = 0; i < g->vertices_count; i++)
        if ((st = put3(c, "v", &g->vertices[i]))) return st;
    if (textured)
        for (size_t i = 0; i < map->texture_vertices_count; i++) {
            float uv[2] = {map->texture_vertices[i].u, map->texture_vertices[i].v};
            if ((st = put_tuple(c, "t", uv, 2))) return st;
        }
    for (size_t i = 0; per_corner && i < g->vertex_normals_count; i++)
        if ((st = put3(c, "n", &g->vertex_normals[i]))) return st;
    for (size_t i = 0; per_face && i < g->faces_count; i++)
        if ((st = put3(c, "n", &g->face_normals[i]))) return st;
    for (size_t k = 0; k < g->faces_count; k++) {
        uint32_t v[3], t[3] = {0, 0, 0}, n[3] = {0, 0, 0};
        for (int j = 0; j < 3; j++) {
            if (g->faces[k].v[j] >= g->vertices_count) return bad(c, "face", k);
            v[j] = g->faces[k].v[j] + 1;
            if (textured) {
                if (map->texture_faces[k].t[j] >= map->texture_vertices_count) return bad(c, "texture face", k);
                t[j] = map->texture_faces[k].t[j] + 1;
            }
            if (per_corner) n[j] = (uint32_t)(3 * k + j + 1);
            if (per_face) n[j] = (uint32_t)(k + 1);
        }
        uint32_t fm = map && k < map->face_materials_count ? map->face_materials[k] : 0;
        put_face(c, v, t, n, fm < mats ? fm + 1 : 0);
    }
    return RELIC_OK;
}

#define PLAIN_OF(G)                                                                                             \
    {                                                                                                           \
        (const relic_grf_geometry_vec3f *)(G)->vertices, (const relic_grf_geometry_vec3f *)(G)->face_normals,   \
            (const relic_grf_geometry_vec3f *)(G)->vertex_normals, (const relic_grf_geometry_face *)(G)->faces, \
            (G)->vertices_count, (G)->faces_count, (G)->vertex_normals_count, (G)->face_normals_count           \
    }

/* The mesh block of object section i; its name is model_name. */
static relic_status put_mesh(conv *c, size_t i, const char *model_name)
{
    const relic_grf_object_file *o = c->f->models[i];
    relic_grf_kind gk = RELIC_GRF_OPAQUE, mk = RELIC_GRF_OPAQUE;
    const void *g = section(c->f, o->geometry, &gk);
    const void *mp = o->mapping ? section(c->f, o->mapping, &mk) : NULL;
    const relic_grf_mapping_file *map = mp && mk == RELIC_GRF_MAPPING ? mp : NULL;
    relic_status st = RELIC_OK;
    c->section = i;
    relic_buf_puts(c->o, "mesh ");
    put_name(c->o, model_name);
    relic_buf_puts(c->o, "\n{\n");
    if (g) switch (gk) {
        case RELIC_GRF_MESH: st = mesh_form(c, g); break;
        case RELIC_GRF_GEOMETRY: {
            const relic_grf_geometry_file *p = g;
            plain pl = PLAIN_OF(p);
            st = plain_form(c, &pl, map);
            break;
        }
        case RELIC_GRF_GEOMETRY_V13: {
            const relic_grf_geometry_v13_file *p = g;
            plain pl = PLAIN_OF(p);
            st = plain_form(c, &pl, map);
            break;
        }
        case RELIC_GRF_GEOMETRY_V11: {
            const relic_grf_geometry_v11_file *p = g;
            plain pl = PLAIN_OF(p);
            st = plain_form(c, &pl, map);
            break;
        }
        default: break;
        }
    relic_buf_puts(c->o, "}\n");
    return st;
}

/* An object section's name handle and index, sorted by name to find the shared names. */
typedef struct named_section {
    uint32_t name;
    uint32_t index;
} named_section;

static int by_name(const void *a, const void *b)
{
    const named_section *x = a, *y = b;
    return x->name < y->name ? -1 : x->name > y->name;
}

/* c->named: which object sections share their name with another one, found once by sorting
 * (asking every other section for each instance was quadratic: a level of a few thousand
 * instances and sections spent a quarter of its conversion there) */
static relic_status mark_shared_names(conv *c, relic_arena *scratch)
{
    const relic_grf_file *f = c->f;
    size_t count = f->container.sections_count, k = 0;
    uint8_t *named = relic_arena_array(scratch, count ? count : 1, 1, 1);
    named_section *v = relic_arena_array(scratch, count ? count : 1, sizeof *v, _Alignof(named_section));
    if (!named || !v) return relic_fail(c->err, RELIC_E_NOMEM, 0, NULL, "no memory");
    for (size_t i = 0; i < count; i++)
        if (f->kinds[i] == RELIC_GRF_OBJECT) v[k++] = (named_section){f->container.sections[i].name, (uint32_t)i};
    relic_status st = relic_sort(v, k, sizeof *v, by_name, scratch);
    if (st != RELIC_OK) return relic_fail(c->err, st, 0, NULL, "no memory");
    for (size_t j = 0; j + 1 < k; j++)
        if (v[j].name == v[j + 1].name) named[v[j].index] = named[v[j + 1].index] = 1;
    c->named = named;
    return RELIC_OK;
}

/* The name a model's mesh block gets: its object section's name, made
 * unique with "#<section index>" when another object section has it. */
static void model_name(conv *c, size_t i, char *out, size_t n)
{
    const char *s = relic_grf_symbols_name(&c->symbols, c->f->container.sections[i].name);
    if (!s || !*s) snprintf(out, n, "model#%zu", i);
    else if (c->named[i]) snprintf(out, n, "%s#%zu", s, i);
    else snprintf(out, n, "%s", s);
}

relic_status relic_tpm_from_grf(const relic_grf_file *f, relic_arena *scratch, relic_buf *out, uint32_t *mesh_count,
                                relic_error *err)
{
    const relic_grf_region_file *r = NULL;
    const relic_grf_region_v11_file *r11 = NULL;
    relic_status st = RELIC_OK;
    conv c = {f, out, {NULL, 0}, err, 0, NULL};
    char name[2 * NAME_MAX_LEN + 32];
    if (mesh_count) *mesh_count = 0;
    if (!f || !out || !scratch) return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "relic_tpm_from_grf: NULL argument");
    for (size_t i = 0; i < f->container.sections_count && !r && !r11; i++) {
        if (f->kinds[i] == RELIC_GRF_REGION) r = f->models[i];
        if (f->kinds[i] == RELIC_GRF_REGION_V11) r11 = f->models[i];
    }
    if (!r && !r11) return relic_fail(err, RELIC_E_UNSUPPORTED, 0, "", "no .region section: not a level");
    size_t n = r ? r->instances_count : r11->instances_count;
    uint8_t *used = relic_arena_array(scratch, f->container.sections_count ? f->container.sections_count : 1, 1, 1);
    if (!used) {
        return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "no memory");
    }
    memset(used, 0, f->container.sections_count);
    if ((st = relic_grf_symbols_index(&f->container, scratch, &c.symbols, err)) || (st = mark_shared_names(&c, scratch))) {
        return st;
    }
    relic_buf_puts(out, "// written by relic from a Trespasser level: one mesh per model (object space, Z up),\n"
                        "// one instance per region entry (rotation: Euler angles in radians, x then y then z)\n"
                        "fileinfo\n{\n formatversion = 1.0.1\n}\n");
    /* meshes, in order of first use */
    for (size_t k = 0; k < n && !st; k++) {
        uint32_t object = r ? r->instances[k].object : r11->instances[k].object;
        relic_grf_kind kind = RELIC_GRF_OPAQUE;
        const void *o = section(f, object, &kind);
        if (!o || kind != RELIC_GRF_OBJECT) {
            st = relic_fail(err, RELIC_E_INDEX, 0, "instances", "instance %zu: 0x%08X is not an object section", k, object);
            break;
        }
        size_t i = object - (size_t)RELIC_GROFF_SECTION_HANDLE_BASE;
        if (used[i]) continue;
        used[i] = 1;
        model_name(&c, i, name, sizeof name);
        st = put_mesh(&c, i, name);
        if (mesh_count) ++*mesh_count;
    }
    for (size_t k = 0; k < n && !st; k++) {
        uint32_t object = r ? r->instances[k].object : r11->instances[k].object;
        uint32_t nm = r ? r->instances[k].name : r11->instances[k].name;
        float pos[3], rot[3], scale;
        if (r) {
            pos[0] = r->instances[k].position.x, pos[1] = r->instances[k].position.y, pos[2] = r->instances[k].position.z;
            rot[0] = r->instances[k].rotation.x, rot[1] = r->instances[k].rotation.y, rot[2] = r->instances[k].rotation.z;
            scale = r->instances[k].scale;
        } else {
            pos[0] = r11->instances[k].position.x, pos[1] = r11->instances[k].position.y, pos[2] = r11->instances[k].position.z;
            rot[0] = r11->instances[k].rotation.x, rot[1] = r11->instances[k].rotation.y, rot[2] = r11->instances[k].rotation.z;
            scale = r11->instances[k].scale;
        }
        const char *s = relic_grf_symbols_name(&c.symbols, nm);
        char fallback[32];
        if (!s) {
            snprintf(fallback, sizeof fallback, "instance_%zu", k);
            s = fallback;
        }
        c.section = k;
        relic_buf_puts(out, "instance ");
        put_name(out, s);
        relic_buf_puts(out, "\n{\n mesh = ");
        model_name(&c, object - (size_t)RELIC_GROFF_SECTION_HANDLE_BASE, name, sizeof name);
        put_name(out, name);
        relic_buf_puts(out, "\n");
        if ((st = put_tuple(&c, "position", pos, 3)) || (st = put_tuple(&c, "rotation", rot, 3))) break;
        char t[48];
        if (!isfinite(scale)) {
            st = relic_fail(err, RELIC_E_RANGE, 0, "instances", "instance %zu: a non-finite scale has no TPM form", k);
            break;
        }
        relic_buf_puts(out, " scale = ");
        relic_buf_append(out, t, relic_f32_shortest(scale, t));
        relic_buf_puts(out, "\n}\n");
    }
    if (!st && out->failed) st = relic_fail(err, RELIC_E_NOMEM, 0, "", "output buffer could not grow");
    return st;
}
