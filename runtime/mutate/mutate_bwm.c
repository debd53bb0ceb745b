/* mutate_bwm.c — structure-aware mutator for KotOR BWM walkmeshes that
 * works on the geometry (issue 8; PyKotor wiki, KotOR BWM file format, PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py).
 *
 * The generated mutator (generated/kotor/bwm_mutate.c) changes the file's
 * tables one field or element at a time. But a walkmesh's adjacency,
 * edges, perimeters, AABB tree and face planes are derived from its
 * vertices, faces and materials, so most of those changes either break a
 * table rule at once or change nothing a reader cares about. This one
 * decodes the walkmesh, changes its geometry and rebuilds every derived
 * table with the library's builders (relic_bwm_rebuild), so its outputs
 * are consistent walkmeshes with new shapes: the readers' and the
 * builders' deeper paths (shared and coincident vertices, degenerate and
 * duplicated faces, non-manifold sides, materials turning walkable, holes
 * and islands, transitions, floats at their limits) see them.
 *
 * Large walkmeshes are first cropped to a connected patch of at most
 * BWM_MUT_PATCH faces (every try above BWM_MUT_CROP_ALWAYS faces, one in 2
 * above BWM_MUT_PATCH): a real WOK runs to thousands of faces, and every
 * valid input runs all the oracles over all of them. One try in 4 hands
 * the (cropped) walkmesh to the generated mutator instead, for the
 * table-level changes only it makes. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bwm.h"
#include "mutate_arena.h"
#include "relic_bwm.h"
#include "relic_mutate_formats.h"

#define BWM_MUT_TRIES 16
#define BWM_MUT_PATCH 48u        /* faces a crop keeps at most */
#define BWM_MUT_CROP_ALWAYS 256u /* walkmeshes above this are always cropped */
#define BWM_MUT_SPLICE 32u       /* faces a crossover takes from the second input */
#define BWM_MUT_MAX_FACES 65536u /* no growth past this */
/* room every try leaves for new faces and vertices: 3 changes of at most
 * 2 faces and 3 vertices each, or one splice */
#define BWM_MUT_ROOM_FACES (BWM_MUT_SPLICE + 8u)
#define BWM_MUT_ROOM_VERTS (3u * BWM_MUT_SPLICE + 12u)

/* The editable geometry: vertices, faces with their materials and the
 * transition of each side (-1: none), and the header it keeps. */
typedef struct geo {
    relic_bwm_header header;
    float (*v)[3];
    uint32_t nv, capv;
    uint32_t (*f)[3];
    uint32_t *mat;
    int32_t (*tr)[3];
    uint32_t nf, capf;
} geo;

typedef struct bctx {
    uint64_t rng;
    relic_mutate_result *res;
    relic_arena *a;
    int nomem; /* an allocation failed: the call ends with RELIC_E_NOMEM */
} bctx;

static uint64_t below(bctx *c, uint64_t n) { return n ? relic_mutate_rand(&c->rng) % n : 0; }

static relic_mutation *log_entry(bctx *c, const char *op, const char *fmt, uint32_t i, uint32_t k)
{
    relic_mutate_result *r = c->res;
    if (r->nlog >= RELIC_MUTATE_MAX_LOG) return NULL;
    relic_mutation *m = &r->log[r->nlog++];
    memset(m, 0, sizeof *m);
    snprintf(m->path, sizeof m->path, fmt, i, k);
    snprintf(m->op, sizeof m->op, "%s", op);
    return m;
}

static void log_values(relic_mutation *m, const char *old_value, const char *new_value)
{
    if (!m) return;
    snprintf(m->old_value, sizeof m->old_value, "%s", old_value);
    snprintf(m->new_value, sizeof m->new_value, "%s", new_value);
}

/* ---- loading ---- */

/* The geometry of model m, with room to grow; transitions from its edges. */
static int geo_of(const relic_bwm_file *m, relic_arena *a, geo *g)
{
    memset(g, 0, sizeof *g);
    g->header = m->header;
    g->nv = (uint32_t)m->vertices_count;
    g->nf = (uint32_t)m->faces_count;
    g->capv = g->nv + BWM_MUT_ROOM_VERTS;
    g->capf = g->nf + BWM_MUT_ROOM_FACES;
    g->v = relic_arena_array(a, g->capv, sizeof *g->v, 4);
    g->f = relic_arena_array(a, g->capf, sizeof *g->f, 4);
    g->mat = relic_arena_array(a, g->capf, sizeof *g->mat, 4);
    g->tr = relic_arena_array(a, g->capf, sizeof *g->tr, 4);
    if (!g->v || !g->f || !g->mat || !g->tr) return 0;
    for (uint32_t i = 0; i < g->nv; i++) {
        g->v[i][0] = m->vertices[i].x;
        g->v[i][1] = m->vertices[i].y;
        g->v[i][2] = m->vertices[i].z;
    }
    for (uint32_t i = 0; i < g->nf; i++) {
        memcpy(g->f[i], m->faces[i].v, sizeof g->f[i]);
        g->mat[i] = i < m->materials_count ? m->materials[i] : RELIC_BWM_SURFACE_MATERIAL_NONWALK;
        g->tr[i][0] = g->tr[i][1] = g->tr[i][2] = -1;
    }
    for (size_t e = 0; e < m->edges_count; e++)
        if (m->edges[e].edge / 3 < g->nf) g->tr[m->edges[e].edge / 3][m->edges[e].edge % 3] = m->edges[e].transition;
    return 1;
}

/* Validate and decode a walkmesh into a. */
static relic_status load(const uint8_t *in, size_t n, relic_arena *a, relic_bwm_file *m, relic_error *err)
{
    relic_bwm_view v;
    relic_status st = relic_bwm_validate(in, n, &v, err);
    return st != RELIC_OK ? st : relic_bwm_decode(&v, a, m, err);
}

/* Keep only the faces marked in keep (in order) and the vertices they use,
 * renumbered in order of first use (remap and moved: scratch of nv). */
static void geo_keep(geo *g, const uint8_t *keep, uint32_t *remap, float (*moved)[3])
{
    for (uint32_t i = 0; i < g->nv; i++) remap[i] = UINT32_MAX;
    uint32_t nf = 0, nv = 0;
    for (uint32_t f = 0; f < g->nf; f++) {
        if (!keep[f]) continue;
        for (int k = 0; k < 3; k++) {
            uint32_t v = g->f[f][k];
            if (remap[v] == UINT32_MAX) remap[v] = nv++;
            g->f[nf][k] = remap[v];
        }
        g->mat[nf] = g->mat[f];
        memcpy(g->tr[nf], g->tr[f], sizeof g->tr[nf]);
        nf++;
    }
    /* first use is not index order: through a copy */
    for (uint32_t i = 0; i < g->nv; i++)
        if (remap[i] != UINT32_MAX) memcpy(moved[remap[i]], g->v[i], sizeof g->v[i]);
    if (nv) memcpy(g->v, moved, (size_t)nv * sizeof g->v[0]);
    g->nf = nf;
    g->nv = nv;
}

/* A connected patch of at most want faces grown from a random face
 * through shared vertices, ring by ring; the rest of g dropped. Logged
 * as operation what (NULL: not logged). */
static int crop(bctx *c, geo *g, uint32_t want, const char *what)
{
    if (g->nf <= want || g->nf == 0) return 0;
    uint8_t *keep = relic_arena_array(c->a, g->nf, 1, 1), *vmark = relic_arena_array(c->a, g->nv, 1, 1);
    uint32_t *remap = relic_arena_array(c->a, g->nv, sizeof *remap, 4);
    float(*moved)[3] = relic_arena_array(c->a, g->nv, sizeof *moved, 4);
    if (!keep || !vmark || !remap || !moved) {
        c->nomem = 1;
        return 0;
    }
    memset(keep, 0, g->nf);
    memset(vmark, 0, g->nv);
    uint32_t start = (uint32_t)below(c, g->nf), have = 1;
    keep[start] = 1;
    for (int k = 0; k < 3; k++) vmark[g->f[start][k]] = 1;
    while (have < want) {
        uint32_t before = have;
        for (uint32_t f = 0; f < g->nf && have < want; f++)
            if (!keep[f] && (vmark[g->f[f][0]] || vmark[g->f[f][1]] || vmark[g->f[f][2]])) {
                keep[f] = 2; /* this ring: its vertices join after the scan */
                have++;
            }
        if (have == before) break;
        for (uint32_t f = 0; f < g->nf; f++)
            if (keep[f] == 2) {
                keep[f] = 1;
                for (int k = 0; k < 3; k++) vmark[g->f[f][k]] = 1;
            }
    }
    uint32_t nf0 = g->nf, nv0 = g->nv;
    geo_keep(g, keep, remap, moved);
    char o[96], n[96];
    snprintf(o, sizeof o, "%u faces, %u vertices", nf0, nv0);
    snprintf(n, sizeof n, "%u faces, %u vertices (patch around face %u)", g->nf, g->nv, start);
    if (what) log_values(log_entry(c, what, "faces", 0, 0), o, n);
    return 1;
}

/* ---- geometry changes (each returns 1 when it changed g) ---- */

static const char axis_name[3] = {'x', 'y', 'z'};

/* A coordinate set to a float boundary value, a neighbour of its value, or
 * another vertex's coordinate. */
static int op_move(bctx *c, geo *g)
{
    if (!g->nv) return 0;
    uint32_t i = (uint32_t)below(c, g->nv), ax = (uint32_t)below(c, 3);
    float old = g->v[i][ax], nv;
    switch (below(c, 12)) {
    case 0: nv = 0.0f; break;
    case 1: nv = -0.0f; break;
    case 2: nv = FLT_MIN / 4; break; /* subnormal */
    case 3: nv = below(c, 2) ? FLT_MAX : -FLT_MAX; break;
    case 4: nv = below(c, 2) ? INFINITY : -INFINITY; break;
    case 5: nv = NAN; break;
    case 6: nv = nextafterf(old, below(c, 2) ? INFINITY : -INFINITY); break;
    case 7: nv = -old; break;
    case 8: nv = old + (float)(below(c, 2001)) / 100.0f - 10.0f; break;
    case 9: nv = old * 1e6f; break;
    default: nv = g->v[below(c, g->nv)][ax]; break;
    }
    if (memcmp(&nv, &old, sizeof nv) == 0) return 0;
    g->v[i][ax] = nv;
    char o[32], n[32];
    snprintf(o, sizeof o, "%.9g", old);
    snprintf(n, sizeof n, "%.9g", nv);
    char path[32];
    snprintf(path, sizeof path, "vertices[%%u].%c", axis_name[ax]);
    log_values(log_entry(c, "set", path, i, 0), o, n);
    return 1;
}

/* Every use of one vertex made a use of another (faces that used both
 * become degenerate); or a vertex moved onto another's position. */
static int op_weld(bctx *c, geo *g)
{
    if (g->nv < 2) return 0;
    uint32_t a = (uint32_t)below(c, g->nv), b = (uint32_t)below(c, g->nv);
    if (a == b) return 0;
    char o[48], n[48];
    if (below(c, 2)) {
        memcpy(g->v[a], g->v[b], sizeof g->v[a]);
        snprintf(n, sizeof n, "vertex %u's position", b);
        log_values(log_entry(c, "snap", "vertices[%u]", a, 0), "its own position", n);
        return 1;
    }
    uint32_t uses = 0;
    for (uint32_t f = 0; f < g->nf; f++)
        for (int k = 0; k < 3; k++)
            if (g->f[f][k] == a) {
                g->f[f][k] = b;
                uses++;
            }
    if (!uses) return 0;
    snprintf(o, sizeof o, "%u face corners", uses);
    snprintf(n, sizeof n, "vertex %u used instead", b);
    log_values(log_entry(c, "weld", "vertices[%u]", a, 0), o, n);
    return 1;
}

/* One corner of a face given its own copy of the vertex: the face no
 * longer shares the sides through it. */
static int op_unshare(bctx *c, geo *g)
{
    if (!g->nf || g->nv >= g->capv) return 0;
    uint32_t f = (uint32_t)below(c, g->nf), k = (uint32_t)below(c, 3);
    memcpy(g->v[g->nv], g->v[g->f[f][k]], sizeof g->v[0]);
    char o[32], n[32];
    snprintf(o, sizeof o, "vertex %u", g->f[f][k]);
    snprintf(n, sizeof n, "vertex %u (a copy)", g->nv);
    g->f[f][k] = g->nv++;
    log_values(log_entry(c, "unshare", "faces[%u].v[%u]", f, k), o, n);
    return 1;
}

/* A face's material set to another walkable or non-walkable one, or to an
 * id past the surfacemat.2da rows the library knows. */
static int op_material(bctx *c, geo *g)
{
    static const uint32_t mats[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                                    21, 22, 23, 29, 30, 31, 64, 255, 0x7FFFFFFFu, 0xFFFFFFFFu};
    if (!g->nf) return 0;
    uint32_t f = (uint32_t)below(c, g->nf), m = mats[below(c, sizeof mats / sizeof mats[0])];
    if (m == g->mat[f]) return 0;
    char o[32], n[32];
    snprintf(o, sizeof o, "%u", g->mat[f]);
    snprintf(n, sizeof n, "%u", m);
    g->mat[f] = m;
    log_values(log_entry(c, "set", "materials[%u]", f, 0), o, n);
    return 1;
}

/* A face removed. */
static int op_delete(bctx *c, geo *g)
{
    if (!g->nf) return 0;
    uint32_t f = (uint32_t)below(c, g->nf);
    memmove(g->f[f], g->f[f + 1], (size_t)(g->nf - f - 1) * sizeof g->f[0]);
    memmove(&g->mat[f], &g->mat[f + 1], (size_t)(g->nf - f - 1) * sizeof g->mat[0]);
    memmove(g->tr[f], g->tr[f + 1], (size_t)(g->nf - f - 1) * sizeof g->tr[0]);
    char o[32], n[32];
    snprintf(o, sizeof o, "%u faces", g->nf);
    snprintf(n, sizeof n, "%u faces", --g->nf);
    log_values(log_entry(c, "delete", "faces[%u]", f, 0), o, n);
    return 1;
}

/* The faces from a random one on cut off (all of them one time in 4, and
 * then one time in 2 the vertices too: an empty walkmesh). */
static int op_truncate(bctx *c, geo *g)
{
    if (!g->nf) return 0;
    uint32_t keep = below(c, 4) ? (uint32_t)below(c, g->nf) : 0, nv0 = g->nv;
    char o[48], n[48];
    snprintf(o, sizeof o, "%u faces", g->nf);
    g->nf = keep;
    if (!keep && below(c, 2)) g->nv = 0;
    snprintf(n, sizeof n, "%u faces%s", keep, nv0 != g->nv ? ", no vertices" : "");
    log_values(log_entry(c, "truncate", "faces[%u]", keep, 0), o, n);
    return 1;
}

/* A face's winding reversed (v[1] and v[2] swapped): side 0 becomes the
 * old side 2 reversed, side 2 the old side 0. */
static void flip(geo *g, uint32_t f)
{
    uint32_t t = g->f[f][1];
    g->f[f][1] = g->f[f][2];
    g->f[f][2] = t;
    int32_t s = g->tr[f][0];
    g->tr[f][0] = g->tr[f][2];
    g->tr[f][2] = s;
}

static int op_flip(bctx *c, geo *g)
{
    if (!g->nf) return 0;
    uint32_t f = (uint32_t)below(c, g->nf);
    flip(g, f);
    log_values(log_entry(c, "flip", "faces[%u]", f, 0), "its winding", "reversed");
    return 1;
}

/* A face copied to the end, in one of two windings: three faces on a
 * side, or two faces over the same three vertices. */
static int op_duplicate(bctx *c, geo *g)
{
    if (!g->nf || g->nf >= g->capf || g->nf >= BWM_MUT_MAX_FACES) return 0;
    uint32_t f = (uint32_t)below(c, g->nf), d = g->nf++;
    memcpy(g->f[d], g->f[f], sizeof g->f[d]);
    g->mat[d] = g->mat[f];
    g->tr[d][0] = g->tr[d][1] = g->tr[d][2] = -1;
    int reversed = (int)below(c, 2);
    if (reversed) flip(g, d);
    char n[48];
    snprintf(n, sizeof n, "copied to face %u%s", d, reversed ? ", reversed" : "");
    log_values(log_entry(c, "duplicate", "faces[%u]", f, 0), "one face", n);
    return 1;
}

/* A face split in three at its centroid: (a,b,d) becomes (a,b,m),
 * (b,d,m), (d,a,m), each keeping the transition of its outer side. */
static int op_split(bctx *c, geo *g)
{
    if (!g->nf || g->nf + 2 > g->capf || g->nv >= g->capv || g->nf + 2 > BWM_MUT_MAX_FACES) return 0;
    uint32_t f = (uint32_t)below(c, g->nf), m = g->nv++;
    uint32_t a = g->f[f][0], b = g->f[f][1], d = g->f[f][2];
    for (int k = 0; k < 3; k++) g->v[m][k] = (g->v[a][k] + g->v[b][k] + g->v[d][k]) / 3.0f;
    int32_t t1 = g->tr[f][1], t2 = g->tr[f][2];
    const uint32_t tri[3][3] = {{a, b, m}, {b, d, m}, {d, a, m}};
    const int32_t outer[3] = {g->tr[f][0], t1, t2};
    const uint32_t at[3] = {f, g->nf, g->nf + 1};
    for (int k = 0; k < 3; k++) {
        memcpy(g->f[at[k]], tri[k], sizeof tri[k]);
        g->mat[at[k]] = g->mat[f];
        g->tr[at[k]][0] = outer[k];
        g->tr[at[k]][1] = g->tr[at[k]][2] = -1;
    }
    g->nf += 2;
    char n[48];
    snprintf(n, sizeof n, "three faces around vertex %u", m);
    log_values(log_entry(c, "split", "faces[%u]", f, 0), "one face", n);
    return 1;
}

/* Two faces' places swapped (the tables are numbered by face). */
static int op_swap(bctx *c, geo *g)
{
    if (g->nf < 2) return 0;
    uint32_t i = (uint32_t)below(c, g->nf), j = (uint32_t)below(c, g->nf);
    if (i == j) return 0;
    uint32_t tf[3], tm = g->mat[i];
    int32_t tt[3];
    memcpy(tf, g->f[i], sizeof tf);
    memcpy(g->f[i], g->f[j], sizeof tf);
    memcpy(g->f[j], tf, sizeof tf);
    g->mat[i] = g->mat[j];
    g->mat[j] = tm;
    memcpy(tt, g->tr[i], sizeof tt);
    memcpy(g->tr[i], g->tr[j], sizeof tt);
    memcpy(g->tr[j], tt, sizeof tt);
    char n[32];
    snprintf(n, sizeof n, "swapped with face %u", j);
    log_values(log_entry(c, "swap", "faces[%u]", i, 0), "in place", n);
    return 1;
}

/* A side's transition (the LYT room it leads to) set or cleared; only
 * walkable sides without a neighbour keep one. */
static int op_transition(bctx *c, geo *g)
{
    static const int32_t rooms[] = {-1, 0, 1, 2, 7, 255, 0x7FFFFFFF, -2};
    if (!g->nf) return 0;
    uint32_t f = (uint32_t)below(c, g->nf), k = (uint32_t)below(c, 3);
    int32_t t = rooms[below(c, sizeof rooms / sizeof rooms[0])];
    if (t == g->tr[f][k]) return 0;
    char o[16], n[16];
    snprintf(o, sizeof o, "%d", g->tr[f][k]);
    snprintf(n, sizeof n, "%d", t);
    g->tr[f][k] = t;
    log_values(log_entry(c, "set", "faces[%u].transition[%u]", f, k), o, n);
    return 1;
}

/* The walkmesh type switched between WOK (area: adjacency, edges,
 * perimeters, AABB tree) and PWK/DWK (none of them). */
static int op_type(bctx *c, geo *g)
{
    uint32_t old = g->header.type;
    g->header.type = old == RELIC_BWM_WALKMESH_TYPE_AREA ? RELIC_BWM_WALKMESH_TYPE_PLACEABLE_OR_DOOR
                                                         : RELIC_BWM_WALKMESH_TYPE_AREA;
    char o[16], n[16];
    snprintf(o, sizeof o, "%u", old);
    snprintf(n, sizeof n, "%u", g->header.type);
    log_values(log_entry(c, "set", "header.type", 0, 0), o, n);
    return 1;
}

/* A patch of the second walkmesh m2 (at most BWM_MUT_SPLICE faces)
 * appended: where it lies, or moved so its first vertex is one of the
 * first walkmesh's; one in 2 then shares that vertex (the patches touch). */
static int op_splice(bctx *c, geo *g, const relic_bwm_file *m2)
{
    geo p;
    if (!m2 || !m2->faces_count || !geo_of(m2, c->a, &p)) return 0;
    crop(c, &p, 1 + (uint32_t)below(c, BWM_MUT_SPLICE), NULL);
    if (g->nf + p.nf > g->capf || g->nv + p.nv > g->capv || g->nf + p.nf > BWM_MUT_MAX_FACES) return 0;
    float shift[3] = {0, 0, 0};
    int share = 0;
    uint32_t base = g->nv, f0 = g->nf, shared = 0;
    if (g->nv && p.nv && below(c, 2)) {
        shared = (uint32_t)below(c, g->nv);
        for (int k = 0; k < 3; k++) shift[k] = g->v[shared][k] - p.v[0][k];
        share = (int)below(c, 2);
    }
    for (uint32_t i = 0; i < p.nv; i++)
        for (int k = 0; k < 3; k++) g->v[base + i][k] = p.v[i][k] + shift[k];
    g->nv += p.nv;
    for (uint32_t i = 0; i < p.nf; i++) {
        for (int k = 0; k < 3; k++)
            g->f[g->nf][k] = share && p.f[i][k] == 0 ? shared : base + p.f[i][k];
        g->mat[g->nf] = p.mat[i];
        memcpy(g->tr[g->nf], p.tr[i], sizeof p.tr[i]);
        g->nf++;
    }
    char o[32], n[80];
    snprintf(o, sizeof o, "%u faces", f0);
    snprintf(n, sizeof n, "%u faces (+%u from the second walkmesh%s)", g->nf, p.nf,
             share ? ", touching" : shift[0] || shift[1] || shift[2] ? ", moved"
                                                                     : "");
    log_values(log_entry(c, "splice", "faces[%u]", f0, 0), o, n);
    return 1;
}

typedef int (*geo_op)(bctx *c, geo *g);
static const geo_op geo_ops[] = {op_move, op_move, op_weld, op_unshare, op_material, op_material, op_delete, op_truncate,
                                 op_flip, op_duplicate, op_split, op_swap, op_transition, op_type};

/* ---- back to a walkmesh ---- */

/* The model of g: faces put walkable first (stable, as relic_bwm_from_mesh
 * does), every derived table rebuilt, and the
 * transitions of walkable sides handed to the perimeter builder by edge
 * id. */
static relic_status model_of(bctx *c, const geo *g, relic_bwm_file *m, relic_error *err)
{
    memset(m, 0, sizeof *m);
    m->header = g->header;
    if (below(c, 8)) {
        /* the writer's own layout: it keeps the input's table offsets while
         * the tables fit there, which leaves a cropped walkmesh in a file
         * of the original's size (one try in 8 still does) */
        relic_bwm_header *h = &m->header;
        h->vertex_offset = h->face_offset = h->material_offset = h->normal_offset = h->distance_offset = 0;
        h->aabb_offset = h->adjacency_offset = h->edge_offset = h->perimeter_offset = 0;
    }
    m->vertices = relic_arena_array(c->a, g->nv, sizeof *m->vertices, _Alignof(relic_bwm_vec3f));
    m->faces = relic_arena_array(c->a, g->nf, sizeof *m->faces, _Alignof(relic_bwm_face));
    m->materials = relic_arena_array(c->a, g->nf, sizeof *m->materials, 4);
    m->edges = relic_arena_array(c->a, 3ull * g->nf, sizeof *m->edges, 4);
    if ((g->nv && !m->vertices) || (g->nf && (!m->faces || !m->materials || !m->edges)))
        return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the mutated walkmesh");
    for (uint32_t i = 0; i < g->nv; i++) {
        m->vertices[i].x = g->v[i][0];
        m->vertices[i].y = g->v[i][1];
        m->vertices[i].z = g->v[i][2];
    }
    uint32_t k = 0, ne = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t f = 0; f < g->nf; f++) {
            int walk = relic_bwm_material_walkable(g->mat[f]) != 0;
            if (walk != (pass == 0)) continue;
            memcpy(m->faces[k].v, g->f[f], sizeof m->faces[k].v);
            m->materials[k] = g->mat[f];
            for (uint32_t s = 0; s < 3; s++)
                if (g->tr[f][s] != -1 && walk) m->edges[ne++] = (relic_bwm_edge){3 * k + s, g->tr[f][s]};
            k++;
        }
    m->vertices_count = g->nv;
    m->faces_count = m->materials_count = g->nf;
    m->edges_count = ne;
    return relic_bwm_rebuild(m, RELIC_BWM_REBUILD_ALL, c->a, err);
}

/* ---- invalid mode: a table rule of relic_bwm_check broken ---- */

/* One rule every walkmesh keeps (relic_bwm_check without strict) broken
 * in the rebuilt model: a non-walkable face before a walkable one, the
 * adjacency one row short, the perimeters decreasing, an AABB node's
 * child pointing back at the root, a leaf given a child, an internal
 * node left one child. 0 when this walkmesh has nothing to break. */
static int break_rule(bctx *c, relic_bwm_file *m)
{
    int area = m->header.type == RELIC_BWM_WALKMESH_TYPE_AREA;
    for (int tries = 0; tries < 4; tries++) {
        switch (below(c, 4)) {
        case 0: { /* walkable first */
            uint32_t w = relic_bwm_count_walkable(m);
            if (!w || w == m->faces_count) break;
            uint32_t a = (uint32_t)below(c, w), b = w + (uint32_t)below(c, m->faces_count - w), t = m->materials[a];
            m->materials[a] = m->materials[b];
            m->materials[b] = t;
            log_values(log_entry(c, "order", "materials[%u]", a, 0), "walkable", "a non-walkable face's material");
            return 1;
        }
        case 1: /* adjacency rows = walkable faces */
            if (!area || !m->adjacency_count) break;
            m->adjacency_count--;
            log_values(log_entry(c, "shrink", "adjacency", 0, 0), "one row per walkable face", "one row short");
            return 1;
        case 2: { /* perimeters never decrease */
            if (m->perimeters_count < 2) break;
            uint32_t i = (uint32_t)below(c, m->perimeters_count - 1);
            if (m->perimeters[i] == 0) break;
            m->perimeters[i + 1] = m->perimeters[i] - 1;
            log_values(log_entry(c, "set", "perimeters[%u]", i + 1, 0), "after the previous loop's end",
                       "before it");
            return 1;
        }
        default: { /* the AABB tree is a tree */
            if (!m->aabb_count) break;
            uint32_t i = (uint32_t)below(c, m->aabb_count);
            relic_bwm_aabb_node *n = &m->aabb[i];
            if (n->face < 0 && below(c, 2)) n->child1 = 0;
            else if (n->face < 0) n->child2 = RELIC_BWM_NO_CHILD;
            else n->child1 = (uint32_t)below(c, m->aabb_count);
            log_values(log_entry(c, "set", "aabb[%u].child", i, 0), n->face < 0 ? "two children" : "a leaf",
                       n->face < 0 ? "a loop or one child" : "a leaf with a child");
            return 1;
        }
        }
    }
    return 0;
}

/* ---- layout: offsets the writer never writes ---- */

/* The header's table offsets, each with the count that sizes its table
 * (the face count for materials, normals and distances). */
static const struct {
    const char *path;
    uint16_t at, count_at;
} table_offsets[] = {
    {"header.vertex_offset", RELIC_BWM_HEADER_VERTEX_OFFSET_POS, RELIC_BWM_HEADER_VERTEX_COUNT_POS},
    {"header.face_offset", RELIC_BWM_HEADER_FACE_OFFSET_POS, RELIC_BWM_HEADER_FACE_COUNT_POS},
    {"header.material_offset", RELIC_BWM_HEADER_MATERIAL_OFFSET_POS, RELIC_BWM_HEADER_FACE_COUNT_POS},
    {"header.normal_offset", RELIC_BWM_HEADER_NORMAL_OFFSET_POS, RELIC_BWM_HEADER_FACE_COUNT_POS},
    {"header.distance_offset", RELIC_BWM_HEADER_DISTANCE_OFFSET_POS, RELIC_BWM_HEADER_FACE_COUNT_POS},
    {"header.aabb_offset", RELIC_BWM_HEADER_AABB_OFFSET_POS, RELIC_BWM_HEADER_AABB_COUNT_POS},
    {"header.adjacency_offset", RELIC_BWM_HEADER_ADJACENCY_OFFSET_POS, RELIC_BWM_HEADER_ADJACENCY_COUNT_POS},
    {"header.edge_offset", RELIC_BWM_HEADER_EDGE_OFFSET_POS, RELIC_BWM_HEADER_EDGE_COUNT_POS},
    {"header.perimeter_offset", RELIC_BWM_HEADER_PERIMETER_OFFSET_POS, RELIC_BWM_HEADER_PERIMETER_COUNT_POS},
};

/* A table offset of the written file moved where the writer never puts
 * one: an empty table's to 0, the end, past it or 2^32-1 (still a valid
 * file: nothing is read there); in the invalid mode a table's that has
 * elements past the end or into its last bytes. 0 when no table fits. */
static int relayout(bctx *c, relic_buf *out, int invalid)
{
    if (out->size < RELIC_BWM_HEADER_SIZE || out->size > UINT32_MAX) return 0;
    uint32_t size = (uint32_t)out->size;
    for (int tries = 0; tries < 6; tries++) {
        unsigned k = (unsigned)below(c, sizeof table_offsets / sizeof table_offsets[0]);
        uint8_t *at = out->data + table_offsets[k].at;
        if ((relic_load_u32le(out->data + table_offsets[k].count_at) == 0) == invalid) continue;
        uint32_t old = relic_load_u32le(at), nv;
        switch (below(c, 5)) {
        case 0: nv = 0; break;
        case 1: nv = size; break;
        case 2: nv = size + 1 + (uint32_t)below(c, 64); break;
        case 3: nv = UINT32_MAX; break;
        default: nv = invalid ? size - 1 - (uint32_t)below(c, 8) : (uint32_t)below(c, (uint64_t)size + 1); break;
        }
        if (nv == old) continue;
        relic_store_u32le(at, nv);
        char o[16], n[16];
        snprintf(o, sizeof o, "%u", old);
        snprintf(n, sizeof n, "%u", nv);
        log_values(log_entry(c, "relayout", table_offsets[k].path, 0, 0), o, n);
        return 1;
    }
    return 0;
}

/* ---- the mutator ---- */

static void nomem_report(void *ctx, const relic_error *e)
{
    if (e->code == RELIC_E_NOMEM) *(int *)ctx = 1;
}

/* What `relic check` does for a .wok/.pwk/.dwk: the schema validator, then
 * the table rules (not strict). 1 valid, 0 not, -1 scratch ran out. */
static int walkmesh_ok(const uint8_t *p, size_t n, relic_arena *scratch)
{
    relic_bwm_view v;
    relic_error e;
    if (relic_bwm_validate(p, n, &v, &e) != RELIC_OK) return 0;
    mut_mark mk = mut_arena_mark(scratch);
    int nomem = 0;
    int ok = relic_bwm_check(&v, 0, scratch, nomem_report, &nomem) == 0;
    mut_arena_rewind(scratch, mk);
    return nomem ? -1 : ok;
}

relic_status relic_bwm_mutate(const uint8_t *in, size_t n, const uint8_t *in2, size_t n2, uint64_t seed,
                              unsigned flags, relic_arena *scratch, relic_buf *out, relic_mutate_result *res,
                              relic_error *err)
{
    relic_mutate_result local;
    if (!res) res = &local;
    memset(res, 0, sizeof *res);
    if ((!in && n) || !scratch || !out || out->arena == scratch)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "relic_bwm_mutate needs an input, a scratch arena and an "
                                                        "output that does not grow in it");
    out->size = 0;
    out->failed = 0;
    relic_bwm_file m, m2;
    relic_status st = load(in, n, scratch, &m, err);
    int have2 = 0;
    if (st == RELIC_OK && in2) {
        relic_error e2;
        have2 = load(in2, n2, scratch, &m2, &e2) == RELIC_OK;
        if (!have2 && (flags & RELIC_MUTATE_CROSSOVER)) {
            if (err) *err = e2;
            st = e2.code;
        }
    } else if (st == RELIC_OK && (flags & RELIC_MUTATE_CROSSOVER)) {
        st = relic_fail(err, RELIC_E_ARGUMENT, 0, "", "crossover needs a second walkmesh");
    }
    if (st != RELIC_OK) return st;
    int invalid = (flags & RELIC_MUTATE_INVALID) != 0, checked = !(flags & RELIC_MUTATE_UNCHECKED);
    bctx c = {0};
    c.res = res;
    /* each try from the input, in the memory the last one used */
    mut_mark start = mut_arena_mark(scratch);
    c.a = scratch;
    for (unsigned attempt = 0; attempt < BWM_MUT_TRIES; attempt++) {
        mut_arena_rewind(scratch, start);
        c.rng = seed * 0x9E3779B97F4A7C15ull + attempt;
        res->attempts = attempt + 1;
        res->nlog = 0;
        geo g;
        if (!geo_of(&m, scratch, &g)) {
            st = relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the walkmesh mutator");
            break;
        }
        int cropped = g.nf > BWM_MUT_CROP_ALWAYS || (g.nf > BWM_MUT_PATCH && below(&c, 2))
            ? crop(&c, &g, 8 + (uint32_t)below(&c, BWM_MUT_PATCH - 7), "crop")
            : 0;
        relic_bwm_file mm;
        relic_error we;
        int made = 0;
        if (below(&c, 4) == 0 && !(flags & RELIC_MUTATE_CROSSOVER)) {
            /* the generated mutator's table-level changes, on the cropped walkmesh */
            relic_buf mid;
            relic_buf_init_arena(&mid, scratch, 0);
            relic_mutate_result inner;
            const uint8_t *src = in;
            size_t nsrc = n;
            if (cropped) {
                relic_status ms = model_of(&c, &g, &mm, &we);
                if (ms == RELIC_OK && (relic_bwm_write(&mm, &mid, &we) != RELIC_OK || mid.failed)) ms = RELIC_E_NOMEM;
                if (ms == RELIC_E_NOMEM || c.nomem) break;
                if (ms != RELIC_OK) continue;
                src = mid.data;
                nsrc = mid.size;
            }
            out->size = 0;
            out->failed = 0;
            relic_status is = relic_mutate(&relic_bwm_mutator, src, nsrc, have2 ? in2 : NULL, have2 ? n2 : 0, c.rng,
                                           flags | RELIC_MUTATE_UNCHECKED, scratch, out, &inner, &we);
            if (is == RELIC_E_NOMEM) {
                c.nomem = 1;
                break;
            }
            made = is == RELIC_OK;
            for (int k = 0; made && k < inner.nlog && res->nlog < RELIC_MUTATE_MAX_LOG; k++)
                res->log[res->nlog++] = inner.log[k];
        } else {
            int changes = 1 + (below(&c, 3) == 0 ? (int)below(&c, 3) : 0);
            if ((flags & RELIC_MUTATE_CROSSOVER) || (have2 && below(&c, 8) == 0)) made += op_splice(&c, &g, have2 ? &m2 : NULL);
            for (int k = made; k < changes; k++)
                made += geo_ops[below(&c, sizeof geo_ops / sizeof geo_ops[0])](&c, &g);
            if (!made && !cropped) continue;
            /* the invalid mode then breaks a table rule of the rebuilt
             * walkmesh, or (one in 3) moves a table past the file's end */
            int moved = invalid && below(&c, 3) == 0;
            relic_status ms = c.nomem ? RELIC_E_NOMEM : model_of(&c, &g, &mm, &we);
            if (ms == RELIC_E_NOMEM) {
                c.nomem = 1;
                break;
            }
            if (ms != RELIC_OK || (invalid && !moved && !break_rule(&c, &mm))) continue;
            out->size = 0;
            out->failed = 0;
            made = relic_bwm_write(&mm, out, &we) == RELIC_OK && !out->failed && (!moved || relayout(&c, out, 1));
        }
        /* one valid output in 6 gets an empty table's offset moved */
        if (made && !invalid && below(&c, 6) == 0) relayout(&c, out, 0);
        if (!made) continue;
        if (out->size == n && memcmp(out->data, in, n) == 0) continue;
        int ok = checked ? walkmesh_ok(out->data, out->size, scratch) : 0;
        if (ok < 0) {
            c.nomem = 1;
            break;
        }
        if (!checked || ok != invalid) return RELIC_OK;
    }
    res->nlog = 0;
    if (c.nomem) return relic_fail(err, RELIC_E_NOMEM, 0, "", "the scratch arena ran out (walkmesh mutator)");
    out->size = 0;
    if (st != RELIC_OK) return st;
    return relic_fail(err, RELIC_E_LIMIT, 0, "", "no %s mutant of this walkmesh in %d tries",
                      invalid ? "invalid" : "valid", BWM_MUT_TRIES);
}
