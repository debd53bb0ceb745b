/* bwm_model.c — KotOR BWM rules between tables, derived-table rebuilds and
 * building a walkmesh from a mesh (relic_bwm.h). The schema validator has
 * already bounds-checked every index; this file checks what relates the
 * tables to each other. Sources: PyKotor wiki, KotOR BWM file format (Walkable adjacencies, Edges,
 * Perimeters, AABB Tree); PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py; xoreos, walkmeshloader.cpp, where the rules are
 * measured on real files. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "relic_bwm.h"
#include "relic_gen.h"

_Static_assert(sizeof(relic_bwm_vec3f) == 3 * sizeof(float), "vec3f is three packed floats");
_Static_assert(sizeof(relic_bwm_face) == 3 * sizeof(uint32_t), "face is three packed indices");

typedef struct checker {
    const relic_bwm_view *v;
    relic_report_fn report;
    void *ctx;
    unsigned problems;
} checker;

static void problem(checker *c, relic_status code, uint64_t offset, const char *name, int64_t index,
                    const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void problem(checker *c, relic_status code, uint64_t offset, const char *name, int64_t index,
                    const char *fmt, ...)
{
    relic_error e;
    char msg[RELIC_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    relic_gen_fail_at(&e, code, offset, name, index, "%s", msg);
    c->problems++;
    if (c->report) c->report(c->ctx, &e);
}

static uint64_t pos_of(const relic_bwm_view *v, const uint8_t *p) { return (uint64_t)(p - v->base); }

/* Vertex index of side k's start and end on face f. */
static void side_vertices(const relic_bwm_view *v, uint32_t f, uint32_t k, uint32_t *a, uint32_t *b)
{
    relic_bwm_face_view fv = relic_bwm_faces_at(v, f);
    *a = relic_bwm_face_v(fv, k);
    *b = relic_bwm_face_v(fv, (k + 1) % 3);
}

static void check_order(checker *c, uint32_t *walkable)
{
    const relic_bwm_view *v = c->v;
    uint32_t n = (uint32_t)v->faces_count, w = 0;
    int seen_nonwalk = 0;
    for (uint32_t f = 0; f < n; f++) {
        uint32_t mat = relic_bwm_materials_at(v, f);
        if (relic_bwm_material_walkable(mat)) {
            w++;
            if (seen_nonwalk) {
                problem(c, RELIC_E_LAYOUT, pos_of(v, v->materials) + 4ull * f, "materials", f,
                        "walkable face (material %u) after a non-walkable one: faces must be walkable first", mat);
                seen_nonwalk = 0; /* one report per run of misplaced faces */
            }
        } else {
            seen_nonwalk = 1;
        }
    }
    *walkable = w;
    if (v->values.header.type == RELIC_BWM_WALKMESH_TYPE_AREA && v->adjacency_count != w)
        problem(c, RELIC_E_LAYOUT, RELIC_BWM_HEADER_ADJACENCY_COUNT_POS, "header.adjacency_count", -1,
                "%zu adjacency rows but %u walkable faces", v->adjacency_count, w);
    else if (v->adjacency_count > n) /* a PWK/DWK: edges could name faces that do not exist */
        problem(c, RELIC_E_LAYOUT, RELIC_BWM_HEADER_ADJACENCY_COUNT_POS, "header.adjacency_count", -1,
                "%zu adjacency rows but %u faces: each row belongs to a face", v->adjacency_count, n);
}

static void check_perimeters(checker *c, int strict)
{
    const relic_bwm_view *v = c->v;
    uint32_t prev = 0;
    for (size_t i = 0; i < v->perimeters_count; i++) {
        uint32_t p = relic_bwm_perimeters_at(v, i);
        if (p < prev)
            problem(c, RELIC_E_LAYOUT, pos_of(v, v->perimeters) + 4 * i, "perimeters", (int64_t)i,
                    "perimeter end %u is below the previous one (%u): ends are cumulative edge counts", p, prev);
        else if (strict && p == prev)
            problem(c, RELIC_E_LAYOUT, pos_of(v, v->perimeters) + 4 * i, "perimeters", (int64_t)i, "empty perimeter loop");
        prev = p;
    }
    if (strict && prev != v->edges_count)
        problem(c, RELIC_E_LAYOUT, RELIC_BWM_HEADER_PERIMETER_COUNT_POS, "perimeters", -1,
                "perimeters cover %u of %zu edges", prev, v->edges_count);
}

static void check_aabb(checker *c, int strict, uint8_t *mark, uint8_t *face_seen, uint32_t *stack)
{
    const relic_bwm_view *v = c->v;
    size_t n = v->aabb_count;
    if (n == 0) return;
    /* explicit stack (n + 1 entries): the tree may be deep and hostile */
    size_t sp = 0;
    stack[sp++] = 0;
    while (sp) {
        uint32_t i = stack[--sp];
        uint64_t off = pos_of(v, v->aabb) + 44ull * i;
        if (mark[i]) {
            problem(c, RELIC_E_LAYOUT, off, "aabb", i, "node reached twice: the children do not form a tree");
            continue;
        }
        mark[i] = 1;
        relic_bwm_aabb_node_view nv = relic_bwm_aabb_at(v, i);
        int32_t face = relic_bwm_aabb_node_face(nv);
        uint32_t c1 = relic_bwm_aabb_node_child1(nv), c2 = relic_bwm_aabb_node_child2(nv);
        if (face >= 0) {
            if (c1 != RELIC_BWM_NO_CHILD || c2 != RELIC_BWM_NO_CHILD)
                problem(c, RELIC_E_LAYOUT, off, "aabb", i, "leaf (face %d) has children", face);
            if (face_seen[face] && strict)
                problem(c, RELIC_E_LAYOUT, off, "aabb", i, "face %d is in more than one leaf", face);
            face_seen[face] = 1;
        } else {
            if (c1 == RELIC_BWM_NO_CHILD || c2 == RELIC_BWM_NO_CHILD) {
                problem(c, RELIC_E_LAYOUT, off, "aabb", i, "internal node without two children");
                continue;
            }
            if (sp + 2 > n + 1) {
                problem(c, RELIC_E_LAYOUT, off, "aabb", i, "tree larger than the node array");
                break;
            }
            stack[sp++] = c2;
            stack[sp++] = c1;
        }
    }
    if (strict) {
        for (size_t i = 0; i < n; i++)
            if (!mark[i]) {
                problem(c, RELIC_E_LAYOUT, pos_of(v, v->aabb) + 44 * i, "aabb", (int64_t)i, "node not reachable from the root");
                break;
            }
        for (size_t f = 0; f < v->faces_count; f++)
            if (!face_seen[f]) {
                problem(c, RELIC_E_LAYOUT, pos_of(v, v->aabb), "aabb", -1, "face %zu is in no AABB leaf", f);
                break;
            }
    }
}

static void check_adjacency(checker *c, uint32_t walkable)
{
    const relic_bwm_view *v = c->v;
    for (uint32_t f = 0; f < v->adjacency_count && f < walkable; f++) {
        relic_bwm_adjacency_view av = relic_bwm_adjacency_at(v, f);
        for (uint32_t k = 0; k < 3; k++) {
            int32_t a = relic_bwm_adjacency_side(av, k);
            if (a < 0) continue;
            uint32_t g = (uint32_t)a / 3, m = (uint32_t)a % 3;
            uint64_t off = pos_of(v, v->adjacency) + 12ull * f + 4 * k;
            int32_t back = relic_bwm_adjacency_side(relic_bwm_adjacency_at(v, g), m);
            if (back != (int32_t)(3 * f + k)) {
                problem(c, RELIC_E_LAYOUT, off, "adjacency", f, "side %u links to %u.%u, which links back to %d", k, g, m, back);
                continue;
            }
            uint32_t a0, a1, b0, b1;
            side_vertices(v, f, k, &a0, &a1);
            side_vertices(v, g, m, &b0, &b1);
            if (!((a0 == b1 && a1 == b0) || (a0 == b0 && a1 == b1)))
                problem(c, RELIC_E_LAYOUT, off, "adjacency", f, "side %u and face %u side %u do not share their vertices", k, g, m);
        }
    }
}

static void check_edges(checker *c, uint32_t walkable, uint8_t *is_edge)
{
    const relic_bwm_view *v = c->v;
    for (size_t i = 0; i < v->edges_count; i++) {
        uint32_t id = relic_bwm_edge_edge(relic_bwm_edges_at(v, i));
        uint64_t off = pos_of(v, v->edges) + 8 * i;
        if (id / 3 >= walkable) {
            problem(c, RELIC_E_INDEX, off, "edges", (int64_t)i, "edge %u is not on a walkable face", id);
            continue;
        }
        if (is_edge[id]) problem(c, RELIC_E_LAYOUT, off, "edges", (int64_t)i, "edge %u listed twice", id);
        is_edge[id] = 1;
        if (relic_bwm_adjacency_side(relic_bwm_adjacency_at(v, id / 3), id % 3) >= 0)
            problem(c, RELIC_E_LAYOUT, off, "edges", (int64_t)i, "edge %u has a walkable neighbour, so it is not a perimeter edge", id);
    }
    for (uint32_t id = 0; id < 3 * walkable && id / 3 < v->adjacency_count; id++)
        if (!is_edge[id] && relic_bwm_adjacency_side(relic_bwm_adjacency_at(v, id / 3), id % 3) < 0) {
            problem(c, RELIC_E_LAYOUT, pos_of(v, v->edges), "edges", -1, "boundary side %u (face %u side %u) is missing from the edges", id, id / 3, id % 3);
            break;
        }
}

/* Every float of count records of stride bytes at p (floats_per floats at
 * the start of each) must be a finite number: a NaN or infinite position,
 * normal, distance or box has no place in a walkmesh, and the games' own
 * files hold none. Reports the first bad component of each record. */
static void check_finite(checker *c, const uint8_t *p, size_t count, size_t stride, unsigned floats_per,
                         const char *name)
{
    static const char *const axis[] = {"x", "y", "z"};
    if (!p) return;
    for (size_t i = 0; i < count; i++)
        for (unsigned k = 0; k < floats_per; k++) {
            const uint8_t *at = p + i * stride + 4u * k;
            float f = relic_load_f32le(at);
            if (isfinite(f)) continue;
            const char *part = floats_per == 3 ? axis[k] : floats_per == 6 ? (k < 3 ? "box_min" : "box_max")
                                                                           : "";
            problem(c, RELIC_E_RANGE, pos_of(c->v, at), name, (int64_t)i, "%s%s%s is %s, not a finite number",
                    part, floats_per == 6 ? "." : "", floats_per == 6 ? axis[k % 3] : "",
                    isnan(f) ? "NaN" : f > 0 ? "+infinity"
                                             : "-infinity");
            break;
        }
}

static void check_finite_header(checker *c)
{
    static const struct {
        size_t offset;
        const char *name;
    } pos[] = {
        {RELIC_BWM_HEADER_RELATIVE_USE_POSITION_1_POS, "header.relative_use_position_1"},
        {RELIC_BWM_HEADER_RELATIVE_USE_POSITION_2_POS, "header.relative_use_position_2"},
        {RELIC_BWM_HEADER_ABSOLUTE_USE_POSITION_1_POS, "header.absolute_use_position_1"},
        {RELIC_BWM_HEADER_ABSOLUTE_USE_POSITION_2_POS, "header.absolute_use_position_2"},
        {RELIC_BWM_HEADER_POSITION_POS, "header.position"},
    };
    if (!c->v->header) return;
    for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++) {
        const uint8_t *p = c->v->header + pos[i].offset;
        for (unsigned k = 0; k < 3; k++) {
            float f = relic_load_f32le(p + 4u * k);
            if (isfinite(f)) continue;
            problem(c, RELIC_E_RANGE, pos_of(c->v, p + 4u * k), pos[i].name, -1, "%c is %s, not a finite number",
                    "xyz"[k], isnan(f) ? "NaN" : f > 0 ? "+infinity"
                                                       : "-infinity");
            break;
        }
    }
}

size_t relic_bwm_check_scratch_size(const relic_bwm_view *v, int strict)
{
    /* stack, then mark and face_seen (bytes), then is_edge; + alignment slack */
    size_t need = sizeof(uint32_t) * (v->aabb_count + 1) + (v->aabb_count + 1) + (v->faces_count + 1);
    if (strict) need += 3 * v->faces_count + 1;
    return need + sizeof(uint32_t);
}

unsigned relic_bwm_check(const relic_bwm_view *v, int strict, relic_arena *scratch, relic_report_fn report, void *ctx)
{
    checker c = {v, report, ctx, 0};
    uint32_t walkable = 0;
    check_finite_header(&c);
    check_finite(&c, v->vertices, v->vertices_count, RELIC_BWM_VEC3F_SIZE, 3, "vertices");
    check_finite(&c, v->normals, v->normals_count, RELIC_BWM_VEC3F_SIZE, 3, "normals");
    check_finite(&c, v->distances, v->distances_count, sizeof(float), 1, "distances");
    check_finite(&c, v->aabb, v->aabb_count, RELIC_BWM_AABB_NODE_SIZE, 6, "aabb");
    check_order(&c, &walkable);
    check_perimeters(&c, strict);
    /* scratch from the caller's arena (zero-filled), in the order
     * relic_bwm_check_scratch_size counts it */
    uint32_t *stack = relic_arena_array(scratch, v->aabb_count + 1, sizeof *stack, sizeof *stack);
    uint8_t *mark = stack ? relic_arena_alloc(scratch, v->aabb_count + 1, 1) : NULL;
    uint8_t *face_seen = mark ? relic_arena_alloc(scratch, v->faces_count + 1, 1) : NULL;
    if (!face_seen) {
        problem(&c, RELIC_E_NOMEM, 0, "aabb", -1, "the scratch arena cannot hold the AABB walk (%zu bytes needed)",
                relic_bwm_check_scratch_size(v, strict));
        return c.problems;
    }
    check_aabb(&c, strict, mark, face_seen, stack);
    if (strict && c.problems == 0 && v->adjacency_count == walkable) {
        check_adjacency(&c, walkable);
        uint8_t *is_edge = relic_arena_alloc(scratch, 3ull * walkable + 1, 1);
        if (is_edge) check_edges(&c, walkable, is_edge);
        else problem(&c, RELIC_E_NOMEM, 0, "edges", -1, "the scratch arena cannot hold the edge marks (%zu bytes needed)",
                     relic_bwm_check_scratch_size(v, strict));
    }
    return c.problems;
}

void relic_bwm_mesh_of(const relic_bwm_file *m, relic_bwm_mesh *out)
{
    out->vertices = (const float(*)[3])(const void *)m->vertices;
    out->vertex_count = (uint32_t)m->vertices_count;
    out->faces = (const uint32_t(*)[3])(const void *)m->faces;
    out->materials = m->materials;
    out->face_count = (uint32_t)m->faces_count;
}

uint32_t relic_bwm_count_walkable(const relic_bwm_file *m)
{
    uint32_t w = 0;
    for (size_t i = 0; i < m->materials_count; i++) w += relic_bwm_material_walkable(m->materials[i]) != 0;
    return w;
}

relic_status relic_bwm_rebuild(relic_bwm_file *m, unsigned what, relic_arena *a, relic_error *err)
{
    relic_bwm_mesh mesh;
    if (m->faces_count > UINT32_MAX / 3 || m->vertices_count > UINT32_MAX || m->materials_count != m->faces_count)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "faces", "%zu faces, %zu materials: one material per face, at most 2^32/3 faces",
                          m->faces_count, m->materials_count);
    for (size_t f = 0; f < m->faces_count; f++)
        for (int k = 0; k < 3; k++)
            if (m->faces[f].v[k] >= m->vertices_count)
                return relic_fail(err, RELIC_E_INDEX, 0, "faces", "face %zu uses vertex %u of %zu", f, m->faces[f].v[k], m->vertices_count);
    relic_bwm_mesh_of(m, &mesh);
    uint32_t nf = mesh.face_count, walkable = relic_bwm_walkable_prefix(&mesh);
    if (walkable != relic_bwm_count_walkable(m))
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "materials", "faces are not walkable first (face %u is walkable after a non-walkable one)", walkable);
    int area = m->header.type == RELIC_BWM_WALKMESH_TYPE_AREA;

    if (what & RELIC_BWM_REBUILD_PLANES) {
        relic_bwm_vec3f *normals = relic_arena_array(a, nf, sizeof *normals, _Alignof(relic_bwm_vec3f));
        float *dist = relic_arena_array(a, nf, sizeof *dist, _Alignof(float));
        if ((!normals || !dist) && nf) return relic_fail(err, RELIC_E_NOMEM, 0, "normals", "out of memory");
        for (uint32_t f = 0; f < nf; f++) {
            float n[3];
            relic_bwm_face_plane(&mesh, f, n, &dist[f]);
            normals[f].x = n[0];
            normals[f].y = n[1];
            normals[f].z = n[2];
        }
        m->normals = normals;
        m->normals_count = nf;
        m->distances = dist;
        m->distances_count = nf;
    }
    if (!area) {
        m->aabb_count = m->adjacency_count = m->edges_count = m->perimeters_count = 0;
        return RELIC_OK;
    }
    relic_status st;
    if (what & RELIC_BWM_REBUILD_ADJACENCY) {
        relic_bwm_adjacency *adj = relic_arena_array(a, walkable, sizeof *adj, _Alignof(relic_bwm_adjacency));
        if (!adj && walkable) return relic_fail(err, RELIC_E_NOMEM, 0, "adjacency", "out of memory");
        if ((st = relic_bwm_build_adjacency(&mesh, walkable, (int32_t(*)[3])(void *)adj, a, err)) != RELIC_OK) return st;
        m->adjacency = adj;
        m->adjacency_count = walkable;
    }
    if (what & RELIC_BWM_REBUILD_PERIMETERS) {
        if (m->adjacency_count != walkable)
            return relic_fail(err, RELIC_E_ARGUMENT, 0, "adjacency", "rebuild the adjacency first: %zu rows for %u walkable faces", m->adjacency_count, walkable);
        relic_bwm_edge *edges = relic_arena_array(a, 3ull * walkable, sizeof *edges, _Alignof(relic_bwm_edge));
        uint32_t *perims = relic_arena_array(a, 3ull * walkable, sizeof *perims, _Alignof(uint32_t));
        if ((!edges || !perims) && walkable) return relic_fail(err, RELIC_E_NOMEM, 0, "edges", "out of memory");
        uint32_t ne = 0, np = 0;
        _Static_assert(sizeof(relic_bwm_edge) == sizeof(relic_bwm_edge_rec), "edge layouts agree");
        st = relic_bwm_build_perimeters(&mesh, walkable, (const int32_t(*)[3])(const void *)m->adjacency,
                                        (const relic_bwm_edge_rec *)(const void *)m->edges, (uint32_t)m->edges_count,
                                        (relic_bwm_edge_rec *)(void *)edges, &ne, perims, &np, a, err);
        if (st != RELIC_OK) return st;
        m->edges = edges;
        m->edges_count = ne;
        m->perimeters = perims;
        m->perimeters_count = np;
    }
    if (what & RELIC_BWM_REBUILD_AABB) {
        size_t cap = nf ? 2ull * nf - 1 : 0;
        relic_bwm_aabb_rec *recs = relic_arena_array(a, cap, sizeof *recs, _Alignof(relic_bwm_aabb_rec));
        relic_bwm_aabb_node *nodes = relic_arena_array(a, cap, sizeof *nodes, _Alignof(relic_bwm_aabb_node));
        if ((!recs || !nodes) && cap) return relic_fail(err, RELIC_E_NOMEM, 0, "aabb", "out of memory");
        uint32_t count = 0;
        if ((st = relic_bwm_build_aabb(&mesh, recs, &count, a, err)) != RELIC_OK) return st;
        for (uint32_t i = 0; i < count; i++) {
            relic_bwm_aabb_node *n = &nodes[i];
            n->box_min.x = recs[i].box_min[0];
            n->box_min.y = recs[i].box_min[1];
            n->box_min.z = recs[i].box_min[2];
            n->box_max.x = recs[i].box_max[0];
            n->box_max.y = recs[i].box_max[1];
            n->box_max.z = recs[i].box_max[2];
            n->face = recs[i].face;
            n->unknown = recs[i].unknown;
            n->most_significant_plane = recs[i].msp;
            n->child1 = recs[i].child1;
            n->child2 = recs[i].child2;
        }
        m->aabb = nodes;
        m->aabb_count = count;
    }
    return RELIC_OK;
}

relic_status relic_bwm_from_mesh(const relic_bwm_mesh *mesh, uint32_t type, relic_arena *a,
                                 relic_bwm_file *out, relic_error *err)
{
    uint32_t nf = mesh->face_count, nv = mesh->vertex_count;
    memset(out, 0, sizeof *out);
    memcpy(out->header.magic, "BWM V1.0", 8);
    out->header.type = type;
    out->vertices = relic_arena_array(a, nv, sizeof *out->vertices, _Alignof(relic_bwm_vec3f));
    out->faces = relic_arena_array(a, nf, sizeof *out->faces, _Alignof(relic_bwm_face));
    out->materials = relic_arena_array(a, nf, sizeof *out->materials, _Alignof(uint32_t));
    if ((!out->vertices && nv) || ((!out->faces || !out->materials) && nf))
        return relic_fail(err, RELIC_E_NOMEM, 0, "", "out of memory for %u vertices and %u faces", nv, nf);
    for (uint32_t i = 0; i < nv; i++) {
        out->vertices[i].x = mesh->vertices[i][0];
        out->vertices[i].y = mesh->vertices[i][1];
        out->vertices[i].z = mesh->vertices[i][2];
    }
    /* walkable faces first, each group in its original order (stable) */
    uint32_t k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t f = 0; f < nf; f++) {
            int walk = relic_bwm_material_walkable(mesh->materials[f]) != 0;
            if (walk != (pass == 0)) continue;
            memcpy(out->faces[k].v, mesh->faces[f], sizeof out->faces[k].v);
            out->materials[k] = mesh->materials[f];
            k++;
        }
    out->vertices_count = nv;
    out->faces_count = out->materials_count = nf;
    return relic_bwm_rebuild(out, RELIC_BWM_REBUILD_ALL, a, err);
}
