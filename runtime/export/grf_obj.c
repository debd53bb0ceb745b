/* grf_obj.c — a GRF level as Wavefront OBJ + MTL: every region instance
 * (Trespasser source, Lib/Groff/GroffIO.cpp .region) placed by its position, Euler rotation
 * and scale — "Orientation, as Euler angles, in Radians. Rotation order is x
 * then y then z going object->world" (Trespasser file formats, REGION ENTRY), i.e.
 * world = position + Rz * Ry * Rx * (scale * p) — with its geometry in
 * either form (mesh-heap polygons or plain triangles with the .mapping's
 * texture coordinates), normals, and per-face materials named after the
 * .material's texture names. Trespasser is Z-up; OBJ is written Y-up. */
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

#define NAME_MAX_LEN 96

typedef struct f3 {
    float v[3];
} f3;
#define F3(s) ((f3){{(s).x, (s).y, (s).z}})

typedef struct xform {
    double r[3][3];
    double t[3];
    double s;
} xform;

typedef struct exporter {
    const relic_grf_file *f;
    relic_buf *obj, *mtl;
    uint64_t nv, nvt, nvn; /* OBJ elements written so far */
    char (*names)[NAME_MAX_LEN];
    size_t names_count, names_cap;
    relic_arena *a;
    const char *current;
    relic_grf_symbols symbols;
    const uint32_t *last_list; /* the material list and index of the current name */
    uint32_t last_index;
    relic_grf_texture_file_fn texture_file; /* NULL: map_Kd names the texture's own file */
    void *texture_ctx;
} exporter;

void relic_grf_euler_matrix(const float rot[3], double m[3][3])
{
    /* R = Rz(c) * Ry(b) * Rx(a): x applied first (Trespasser file formats, REGION ENTRY) */
    double ca = cos(rot[0]), sa = sin(rot[0]), cb = cos(rot[1]), sb = sin(rot[1]), cc = cos(rot[2]), sc = sin(rot[2]);
    m[0][0] = cc * cb;
    m[0][1] = cc * sb * sa - sc * ca;
    m[0][2] = cc * sb * ca + sc * sa;
    m[1][0] = sc * cb;
    m[1][1] = sc * sb * sa + cc * ca;
    m[1][2] = sc * sb * ca - cc * sa;
    m[2][0] = -sb;
    m[2][1] = cb * sa;
    m[2][2] = cb * ca;
}

static void make_xform(xform *x, f3 pos, f3 rot, float scale)
{
    relic_grf_euler_matrix(rot.v, x->r);
    for (int i = 0; i < 3; i++) x->t[i] = pos.v[i];
    x->s = scale;
}

/* One number as the shortest text of its float value (runtime/core/float_text.c;
 * several times faster than printf); non-finite values as 0. */
static void num(relic_buf *o, double v)
{
    char t[48];
    float f = (float)v;
    size_t n = isfinite(f) ? relic_f32_shortest(f, t) : (t[0] = '0', 1);
    relic_buf_append(o, " ", 1);
    relic_buf_append(o, t, n);
}

/* Z-up (Trespasser) to Y-up (OBJ): (x, y, z) -> (x, z, -y). */
static void put3(relic_buf *o, const char *tag, const double w[3])
{
    relic_buf_puts(o, tag);
    num(o, w[0]);
    num(o, w[2]);
    num(o, -w[1]);
    relic_buf_append(o, "\n", 1);
}

static void vertex(exporter *e, const xform *x, f3 pv)
{
    const float *p = pv.v;
    double w[3];
    for (int i = 0; i < 3; i++)
        w[i] = x->t[i] + x->s * (x->r[i][0] * p[0] + x->r[i][1] * p[1] + x->r[i][2] * p[2]);
    put3(e->obj, "v", w);
    e->nv++;
}

static void normal(exporter *e, const xform *x, f3 nv)
{
    const float *n = nv.v;
    double w[3];
    for (int i = 0; i < 3; i++) w[i] = x->r[i][0] * n[0] + x->r[i][1] * n[1] + x->r[i][2] * n[2];
    put3(e->obj, "vn", w);
    e->nvn++;
}

static void texcoord(exporter *e, float u, float v)
{
    relic_buf_puts(e->obj, "vt");
    num(e->obj, u);
    num(e->obj, v);
    relic_buf_append(e->obj, "\n", 1);
    e->nvt++;
}

/* The material lists of a decoded material section. */
typedef struct material_ref {
    const uint32_t *texture;
    const void *colour; /* relic_grf_material_rgb[] (v15) or NULL */
    size_t count;
} material_ref;

static material_ref material_of(const relic_grf_file *f, uint32_t handle)
{
    material_ref m = {NULL, NULL, 0};
    uint64_t i = handle - (uint64_t)RELIC_GROFF_SECTION_HANDLE_BASE;
    if (handle < RELIC_GROFF_SECTION_HANDLE_BASE || i >= f->container.sections_count || !f->models[i]) return m;
    if (f->kinds[i] == RELIC_GRF_MATERIAL) {
        const relic_grf_material_file *x = f->models[i];
        m.texture = x->texture, m.colour = x->colour, m.count = x->texture_count;
    } else if (f->kinds[i] == RELIC_GRF_MATERIAL_V11) {
        const relic_grf_material_v11_file *x = f->models[i];
        m.texture = x->texture, m.count = x->texture_count;
    }
    return m;
}

/* Texture file name without its directories. */
static const char *base_name(const char *path)
{
    const char *b = path;
    for (const char *p = path; *p; p++)
        if (*p == '\\' || *p == '/' || *p == ':') b = p + 1;
    return b;
}

/* Use material k of mr: name it after its texture (or flat colour), add it to the MTL once. */
static void use_material(exporter *e, const material_ref *mr, uint32_t k)
{
    char name[NAME_MAX_LEN];
    const char *tex = NULL;
    if (e->current && e->last_list == mr->texture && e->last_index == k) return;
    uint32_t rgb[3] = {128, 128, 128};
    if (k < mr->count) {
        tex = relic_grf_symbols_name(&e->symbols, mr->texture[k]);
        if (mr->colour) {
            const relic_grf_material_rgb *c = (const relic_grf_material_rgb *)mr->colour + k;
            rgb[0] = c->r, rgb[1] = c->g, rgb[2] = c->b;
        }
    }
    if (tex && *tex) {
        size_t n = 0;
        const char *b = base_name(tex);
        for (; b[n] && b[n] != '.' && n + 1 < sizeof name; n++) {
            unsigned char ch = (unsigned char)b[n];
            name[n] = (ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '-' ? (char)ch : '_';
        }
        name[n] = 0;
    } else {
        snprintf(name, sizeof name, "flat_%02X%02X%02X", rgb[0] & 0xFF, rgb[1] & 0xFF, rgb[2] & 0xFF);
    }
    if (e->current && !strcmp(e->current, name)) return;
    size_t i;
    for (i = 0; i < e->names_count; i++)
        if (!strcmp(e->names[i], name)) break;
    if (i == e->names_count) {
        if (e->names_count == e->names_cap) {
            size_t cap = e->names_cap ? 2 * e->names_cap : 64;
            char(*grown)[NAME_MAX_LEN] = relic_arena_array(e->a, cap, NAME_MAX_LEN, 8);
            if (!grown) {
                e->obj->failed = 1;
                return;
            }
            if (e->names_count) memcpy(grown, e->names, e->names_count * NAME_MAX_LEN);
            e->names = grown;
            e->names_cap = cap;
        }
        memcpy(e->names[e->names_count++], name, NAME_MAX_LEN);
        relic_buf_printf(e->mtl, "newmtl %s\nKd %.4f %.4f %.4f\n", name, (rgb[0] & 0xFF) / 255.0,
                         (rgb[1] & 0xFF) / 255.0, (rgb[2] & 0xFF) / 255.0);
        if (tex && *tex) {
            /* the caller's file for it (textures written beside the OBJ), or none: no map_Kd naming a missing file */
            const char *file = e->texture_file ? e->texture_file(e->texture_ctx, tex) : base_name(tex);
            if (file) relic_buf_printf(e->mtl, "# texture %s\nmap_Kd %s\n", tex, file);
            else relic_buf_printf(e->mtl, "# texture %s (not in the texture directory)\n", tex);
        }
        relic_buf_puts(e->mtl, "\n");
    }
    relic_buf_printf(e->obj, "usemtl %s\n", name);
    e->current = e->names[i];
    e->last_list = mr->texture;
    e->last_index = k;
}

static void export_mesh(exporter *e, const xform *x, const relic_grf_mesh_file *m)
{
    material_ref mr = material_of(e->f, m->material);
    uint64_t v0 = e->nv, t0 = e->nvt, n0 = e->nvn;
    for (size_t i = 0; i < m->points_count; i++) vertex(e, x, F3(m->points[i]));
    for (size_t i = 0; i < m->vertices_count; i++) {
        texcoord(e, m->vertices[i].u, m->vertices[i].v);
        normal(e, x, F3(m->vertices[i].normal));
    }
    for (size_t p = 0; p < m->polygons_count; p++) {
        const relic_grf_mesh_polygon *pg = &m->polygons[p];
        if (pg->vertex_count < 3) continue;
        use_material(e, &mr, pg->surface);
        relic_buf_puts(e->obj, "f");
        for (uint32_t c = 0; c < pg->vertex_count; c++) {
            uint32_t vi = m->vertex_pointers[pg->first + c]; /* in range: grf_mesh.schema checks */
            uint32_t pi = m->vertices[vi].point;
            relic_buf_printf(e->obj, " %llu/%llu/%llu", (unsigned long long)(v0 + pi + 1),
                             (unsigned long long)(t0 + vi + 1), (unsigned long long)(n0 + vi + 1));
        }
        relic_buf_puts(e->obj, "\n");
    }
}

/* Plain geometry: the three versions' models share these arrays. */
typedef struct plain {
    const relic_grf_geometry_vec3f *vertices, *face_normals, *vertex_normals;
    const relic_grf_geometry_face *faces;
    size_t vertices_count, faces_count, vertex_normals_count;
} plain;

static void export_plain(exporter *e, const xform *x, const plain *g, const relic_grf_mapping_file *map)
{
    material_ref mr = map ? material_of(e->f, map->material) : (material_ref){NULL, NULL, 0};
    int per_corner = g->vertex_normals_count == 3 * g->faces_count;
    int textured = map && map->texture_vertices_count && map->texture_faces_count == g->faces_count;
    uint64_t v0 = e->nv, t0 = e->nvt, n0 = e->nvn;
    for (size_t i = 0; i < g->vertices_count; i++) vertex(e, x, F3(g->vertices[i]));
    if (per_corner)
        for (size_t i = 0; i < g->vertex_normals_count; i++) normal(e, x, F3(g->vertex_normals[i]));
    else
        for (size_t i = 0; i < g->faces_count; i++) normal(e, x, F3(g->face_normals[i]));
    if (textured)
        for (size_t i = 0; i < map->texture_vertices_count; i++)
            texcoord(e, map->texture_vertices[i].u, map->texture_vertices[i].v);
    for (size_t k = 0; k < g->faces_count; k++) {
        use_material(e, &mr, map && k < map->face_materials_count ? map->face_materials[k] : 0);
        relic_buf_puts(e->obj, "f");
        for (int c = 0; c < 3; c++) {
            unsigned long long v = v0 + g->faces[k].v[c] + 1, n = n0 + (per_corner ? 3 * k + c : k) + 1;
            if (textured)
                relic_buf_printf(e->obj, " %llu/%llu/%llu", v, (unsigned long long)(t0 + map->texture_faces[k].t[c] + 1), n);
            else
                relic_buf_printf(e->obj, " %llu//%llu", v, n);
        }
        relic_buf_puts(e->obj, "\n");
    }
}

/* The decoded model of the section a handle names, with its kind. */
static const void *section(const relic_grf_file *f, uint32_t handle, relic_grf_kind *kind)
{
    uint64_t i = handle - (uint64_t)RELIC_GROFF_SECTION_HANDLE_BASE;
    if (handle < RELIC_GROFF_SECTION_HANDLE_BASE || i >= f->container.sections_count) return NULL;
    *kind = f->kinds[i];
    return f->models[i];
}

#define PLAIN_OF(G)                                                                                             \
    {                                                                                                           \
        (const relic_grf_geometry_vec3f *)(G)->vertices, (const relic_grf_geometry_vec3f *)(G)->face_normals,   \
            (const relic_grf_geometry_vec3f *)(G)->vertex_normals, (const relic_grf_geometry_face *)(G)->faces, \
            (G)->vertices_count, (G)->faces_count, (G)->vertex_normals_count                                    \
    }

static relic_status export_instance(exporter *e, size_t k, uint32_t object, uint32_t name, const xform *x,
                                    relic_error *err)
{
    relic_grf_kind kind = RELIC_GRF_OPAQUE, gk = RELIC_GRF_OPAQUE, mk = RELIC_GRF_OPAQUE;
    const relic_grf_object_file *o = section(e->f, object, &kind);
    if (!o || kind != RELIC_GRF_OBJECT)
        return relic_fail(err, RELIC_E_INDEX, 0, "instances", "instance %zu: 0x%08X is not an object section", k, object);
    const void *g = section(e->f, o->geometry, &gk);
    const void *mp = o->mapping ? section(e->f, o->mapping, &mk) : NULL;
    const relic_grf_mapping_file *map = mp && mk == RELIC_GRF_MAPPING ? mp : NULL;
    const char *nm = relic_grf_symbols_name(&e->symbols, name);
    char fallback[32];
    if (!nm) {
        snprintf(fallback, sizeof fallback, "instance_%zu", k);
        nm = fallback;
    }
    /* OBJ readers take the first word as the name (assimp merges "o A B" and "o A C"): blanks become '_' */
    relic_buf_puts(e->obj, "o ");
    for (const char *c = nm; *c; c++) relic_buf_append(e->obj, *c == ' ' || *c == '\t' || *c == '\r' ? "_" : c, 1);
    relic_buf_append(e->obj, "\n", 1);
    e->current = NULL;
    if (!g) return RELIC_OK;
    switch (gk) {
    case RELIC_GRF_MESH: export_mesh(e, x, g); break;
    case RELIC_GRF_GEOMETRY: {
        const relic_grf_geometry_file *p = g;
        plain pl = PLAIN_OF(p);
        export_plain(e, x, &pl, map);
        break;
    }
    case RELIC_GRF_GEOMETRY_V13: {
        const relic_grf_geometry_v13_file *p = g;
        plain pl = PLAIN_OF(p);
        export_plain(e, x, &pl, map);
        break;
    }
    case RELIC_GRF_GEOMETRY_V11: {
        const relic_grf_geometry_v11_file *p = g;
        plain pl = PLAIN_OF(p);
        export_plain(e, x, &pl, map);
        break;
    }
    default: break;
    }
    return RELIC_OK;
}

relic_status relic_grf_export_obj(const relic_grf_file *f, const char *mtl_name, relic_arena *scratch, relic_buf *obj,
                                  relic_buf *mtl, relic_error *err)
{
    return relic_grf_export_obj_textured(f, mtl_name, NULL, NULL, scratch, obj, mtl, err);
}

relic_status relic_grf_export_obj_textured(const relic_grf_file *f, const char *mtl_name,
                                           relic_grf_texture_file_fn texture_file, void *ctx, relic_arena *scratch,
                                           relic_buf *obj, relic_buf *mtl, relic_error *err)
{
    relic_status st = RELIC_OK;
    exporter e = {f, obj, mtl, 0, 0, 0, NULL, 0, 0, scratch, NULL, {NULL, 0}, NULL, 0, texture_file, ctx};
    const relic_grf_region_file *r = NULL;
    const relic_grf_region_v11_file *r11 = NULL;
    for (size_t i = 0; i < f->container.sections_count && !r && !r11; i++) {
        if (f->kinds[i] == RELIC_GRF_REGION) r = f->models[i];
        if (f->kinds[i] == RELIC_GRF_REGION_V11) r11 = f->models[i];
    }
    if (!r && !r11) return relic_fail(err, RELIC_E_UNSUPPORTED, 0, "", "no .region section: not a level");
    if ((st = relic_grf_symbols_index(&f->container, scratch, &e.symbols, err))) {
        return st;
    }
    relic_buf_printf(obj, "# Trespasser level exported by relic: one object per region instance, Y up\nmtllib %s\n",
                     mtl_name);
    relic_buf_puts(mtl, "# Trespasser materials exported by relic: named after their texture files\n\n");
    size_t n = r ? r->instances_count : r11->instances_count;
    for (size_t k = 0; k < n && !st; k++) {
        xform x;
        if (r) {
            make_xform(&x, F3(r->instances[k].position), F3(r->instances[k].rotation), r->instances[k].scale);
            st = export_instance(&e, k, r->instances[k].object, r->instances[k].name, &x, err);
        } else {
            make_xform(&x, F3(r11->instances[k].position), F3(r11->instances[k].rotation), r11->instances[k].scale);
            st = export_instance(&e, k, r11->instances[k].object, r11->instances[k].name, &x, err);
        }
    }
    if (!st && (obj->failed || mtl->failed)) st = relic_fail(err, RELIC_E_NOMEM, 0, "", "output buffer could not grow");
    return st;
}
