/* bwm_build.c — KotOR BWM derived tables rebuilt from geometry: surface
 * materials and walkability, face planes, walkable adjacency, boundary edges
 * and perimeter loops, and the AABB tree.
 *
 * Implements runtime/include/relic/bwm_build.h. Sources: PyKotor wiki, KotOR BWM file format (KotOR BWM) "Materials",
 * "Derived data", "AABB Tree", "Walkable adjacencies", "Edges",
 * "Perimeters"; PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py (faces, planes), PyKotor, common/geometry.py; kotorblender, constants.py (materials),
 * kotorblender, aabb.py; PyKotor, io_bwm.py (AABB), PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py (adjacency), PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py (edges and perimeters). What the code
 * does beyond those documents was measured on the 33 corpus walkmeshes
 * (tests/test_bwm_build.c prints the per-table match counts):
 *
 *  - Adjacency joins sides with the same two vertex indices. When more than
 *    two walkable sides share a pair, sides are taken in edge-id order and
 *    each side still without a neighbour is joined to the first side of a
 *    later face that is still without one (kotorblender's rule, except that
 *    kotorblender overwrites a taken side when a degenerate face has two
 *    sides on the pair; joining only free sides keeps the result symmetric;
 *    the game's files never share a pair three ways). PyKotor joins sides by
 *    vertex *position* and
 *    the side with the highest edge id wins (the relic_bwm_adjacency_rule
 *    RELIC_BWM_ADJ_POSITION_LAST reproduces its files).
 *  - The perimeter walk is the loop walk of PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py; on adjacency that is
 *    not a consistent manifold it closes a loop instead of cycling, and its
 *    total work is bounded.
 *  - The AABB tree of the original toolchain: every node sorts its faces by
 *    centroid along the longest axis of its box (ties between axes go to
 *    the later axis) and gives the lower floor(n/2) to the left child; faces
 *    with equal centroids go in descending face index order. The MSP flag is
 *    the axis along which the children's box centres differ most, signed by
 *    the direction from the left to the right child. When the two child
 *    boxes are identical the original tool's choice is not recoverable from
 *    the file; this code writes -Z, the most frequent value in that case.
 *
 * Memory: every temporary comes from the caller's scratch arena; nothing
 * here calls malloc, recurses, or keeps state between calls. */
#include "bwm_build.h"

#include <math.h>

/* ---------------------------------------------------------------------- */
/* Materials (PyKotor, common/geometry.py; kotorblender, constants.py; names: kotorblender for 0-22, PyKotor for 30) */
/* ---------------------------------------------------------------------- */

/* Table rows are surfacemat.2da row ids. */
#define MATERIAL_TABLE_ROWS 31u

/* Two tables, not one of {name, walkable}: a reader that only asks
 * "walkable?" (the README example) links 31 bytes, not the name pointers. */
/* clang-format off */
static const unsigned char material_walkable[MATERIAL_TABLE_ROWS] = {
    0, 1, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0,
    1, 0, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1,
};
/* clang-format on */

/* clang-format off */
static const char *const material_names[MATERIAL_TABLE_ROWS] = {
    "NotDefined",    "Dirt",      "Obscuring",   "Grass",
    "Stone",         "Wood",      "Water",       "NonWalk",
    "Transparent",   "Carpet",    "Metal",       "Puddles",
    "Swamp",         "Mud",       "Leaves",      "Lava",
    "BottomlessPit", "DeepWater", "Door",        "Snow",
    "Sand",          "BareBones", "StoneBridge", NULL,
    NULL,            NULL,        NULL,          NULL,
    NULL,            NULL,        "Trigger",
};
/* clang-format on */

int relic_bwm_material_walkable(uint32_t material)
{
    return material < MATERIAL_TABLE_ROWS && material_walkable[material];
}

const char *relic_bwm_material_name(uint32_t material)
{
    return material < MATERIAL_TABLE_ROWS ? material_names[material] : NULL;
}

uint32_t relic_bwm_walkable_prefix(const relic_bwm_mesh *m)
{
    uint32_t f = 0;
    if (m == NULL || m->materials == NULL)
        return 0;
    while (f < m->face_count && relic_bwm_material_walkable(m->materials[f]))
        f++;
    return f;
}

/* ---------------------------------------------------------------------- */
/* Face planes (PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py)       */
/* ---------------------------------------------------------------------- */

void relic_bwm_face_plane(const relic_bwm_mesh *m, uint32_t f, float normal[3], float *distance)
{
    const float *p[3];
    float e1[3], e2[3], c[3], len;
    int k;

    normal[0] = normal[1] = normal[2] = 0.0f;
    *distance = 0.0f;
    if (m == NULL || f >= m->face_count)
        return;
    for (k = 0; k < 3; k++) {
        uint32_t vi = m->faces[f][k];
        if (vi >= m->vertex_count)
            return;
        p[k] = m->vertices[vi];
    }
    for (k = 0; k < 3; k++) {
        e1[k] = p[1][k] - p[0][k];
        e2[k] = p[2][k] - p[0][k];
    }
    c[0] = e1[1] * e2[2] - e1[2] * e2[1];
    c[1] = e1[2] * e2[0] - e1[0] * e2[2];
    c[2] = e1[0] * e2[1] - e1[1] * e2[0];
    len = sqrtf(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    if (!(len > 0.0f) || !isfinite(len))
        return; /* degenerate (or non-finite) triangle: zero plane */
    for (k = 0; k < 3; k++)
        normal[k] = c[k] / len;
    *distance = -(normal[0] * p[0][0] + normal[1] * p[0][1] + normal[2] * p[0][2]);
}

/* ---------------------------------------------------------------------- */
/* Shared helpers                                                          */
/* ---------------------------------------------------------------------- */

#define SIDES_PER_FACE 3u
/* Adjacency values and edge ids are int32 3*face+side, so at most this
 * many faces take part. */
#define MAX_SIDE_FACES ((uint32_t)(INT32_MAX / 3))

static relic_status check_faces(const relic_bwm_mesh *m, uint32_t count, relic_error *err)
{
    uint32_t f;
    int k;
    if (count != 0 && (m->faces == NULL || m->vertices == NULL))
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "faces", "mesh without face or vertex arrays");
    for (f = 0; f < count; f++)
        for (k = 0; k < 3; k++)
            if (m->faces[f][k] >= m->vertex_count) {
                char path[48];
                snprintf(path, sizeof path, "faces[%u].v[%d]", f, k);
                return relic_fail(err, RELIC_E_INDEX, 0, path, "face %u uses vertex %u of %u", f,
                                  m->faces[f][k], m->vertex_count);
            }
    return RELIC_OK;
}

/* Stable LSD radix sort of n records by their 64-bit key: 8-bit digits for
 * small inputs (a 1 KiB counter table), 16-bit digits from 65536 records
 * on (fewer passes). Passes whose digit is the same in every key are
 * skipped (they would not move anything). rec and tmp hold n records; the
 * result ends in rec. */
typedef struct side_rec {
    uint64_t key;
    uint32_t side; /* payload: side id or face index */
    uint32_t pad;
} side_rec;

#define RADIX_SMALL_BITS 8u
#define RADIX_LARGE_BITS 16u
#define RADIX_LARGE_FROM 65536u

static relic_status radix_sort(side_rec *rec, side_rec *tmp, uint32_t n, relic_arena *scratch,
                               relic_error *err)
{
    unsigned bits = n >= RADIX_LARGE_FROM ? RADIX_LARGE_BITS : RADIX_SMALL_BITS, shift;
    uint32_t size = 1u << bits, mask = size - 1u, *count, i;
    uint64_t all_or = 0, all_and = UINT64_MAX;

    if (n < 2)
        return RELIC_OK;
    for (i = 0; i < n; i++) {
        all_or |= rec[i].key;
        all_and &= rec[i].key;
    }
    count = relic_arena_array(scratch, size, sizeof *count, _Alignof(uint32_t));
    if (count == NULL)
        return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of scratch memory for sorting");
    for (shift = 0; shift < 64; shift += bits) {
        uint32_t sum = 0;
        if ((((all_or ^ all_and) >> shift) & mask) == 0)
            continue; /* same digit everywhere */
        memset(count, 0, size * sizeof *count);
        for (i = 0; i < n; i++)
            count[(rec[i].key >> shift) & mask]++;
        for (i = 0; i < size; i++) {
            uint32_t c = count[i];
            count[i] = sum;
            sum += c;
        }
        for (i = 0; i < n; i++)
            tmp[count[(rec[i].key >> shift) & mask]++] = rec[i];
        memcpy(rec, tmp, (size_t)n * sizeof *rec);
    }
    return RELIC_OK;
}

/* ---------------------------------------------------------------------- */
/* Adjacency (PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py)         */
/* ---------------------------------------------------------------------- */

/* Canonical vertex ids for RELIC_BWM_ADJ_POSITION_LAST: the lowest index
 * with exactly the same coordinates (+0 and -0 equal; a NaN coordinate
 * never equals anything, so such a vertex stays its own). */
static uint32_t coord_bits(float f)
{
    uint32_t u;
    if (f == 0.0f)
        f = 0.0f; /* -0 -> +0 */
    memcpy(&u, &f, sizeof u);
    return u;
}

static relic_status canonical_vertices(const relic_bwm_mesh *m, uint32_t *canon, relic_arena *scratch,
                                       relic_error *err)
{
    /* Sort vertices by their three coordinate bit patterns (three stable
     * passes of the 64-bit radix sort: z, then y, then x), then give every
     * run of equal coordinates the index of its first member. */
    uint32_t n = m->vertex_count, i;
    side_rec *rec, *tmp;
    relic_status st;
    int c;

    if (n == 0)
        return RELIC_OK;
    rec = relic_arena_array(scratch, n, sizeof *rec, _Alignof(side_rec));
    tmp = relic_arena_array(scratch, n, sizeof *tmp, _Alignof(side_rec));
    if (rec == NULL || tmp == NULL)
        return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of scratch memory for %u vertices", n);
    for (i = 0; i < n; i++)
        rec[i].side = i;
    for (c = 2; c >= 0; c--) {
        for (i = 0; i < n; i++)
            rec[i].key = coord_bits(m->vertices[rec[i].side][c]);
        if ((st = radix_sort(rec, tmp, n, scratch, err)) != RELIC_OK)
            return st;
    }
    for (i = 0; i < n; i++) {
        uint32_t v = rec[i].side;
        canon[v] = v;
        if (i > 0) {
            uint32_t p = rec[i - 1].side;
            const float *a = m->vertices[p], *b = m->vertices[v];
            if (a[0] == b[0] && a[1] == b[1] && a[2] == b[2])
                canon[v] = canon[p]; /* stable sort: p < v, and canon[p] is the run's first */
        }
    }
    return RELIC_OK;
}

relic_status relic_bwm_build_adjacency_rule(const relic_bwm_mesh *m, uint32_t walkable_count,
                                            relic_bwm_adjacency_rule rule, int32_t (*out)[3],
                                            relic_arena *scratch, relic_error *err)
{
    uint32_t nsides, i, *canon = NULL;
    side_rec *rec, *tmp;
    relic_status st;

    if (m == NULL || (out == NULL && walkable_count != 0) || scratch == NULL)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "NULL mesh, output or scratch arena");
    if (walkable_count > m->face_count)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "adjacency", "%u walkable faces of %u", walkable_count,
                          m->face_count);
    if (walkable_count > MAX_SIDE_FACES)
        return relic_fail(err, RELIC_E_LIMIT, 0, "adjacency", "%u walkable faces: at most %u have edge ids",
                          walkable_count, MAX_SIDE_FACES);
    if (rule != RELIC_BWM_ADJ_INDEX && rule != RELIC_BWM_ADJ_POSITION_LAST)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "unknown adjacency rule %d", (int)rule);
    if ((st = check_faces(m, walkable_count, err)) != RELIC_OK)
        return st;
    nsides = walkable_count * SIDES_PER_FACE;
    for (i = 0; i < walkable_count; i++)
        out[i][0] = out[i][1] = out[i][2] = -1;
    if (nsides == 0)
        return RELIC_OK;

    if (rule == RELIC_BWM_ADJ_POSITION_LAST) {
        canon = relic_arena_array(scratch, m->vertex_count, sizeof *canon, _Alignof(uint32_t));
        if (canon == NULL)
            return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of scratch memory for %u vertices",
                              m->vertex_count);
        if ((st = canonical_vertices(m, canon, scratch, err)) != RELIC_OK)
            return st;
    }
    rec = relic_arena_array(scratch, nsides, sizeof *rec, _Alignof(side_rec));
    tmp = relic_arena_array(scratch, nsides, sizeof *tmp, _Alignof(side_rec));
    if (rec == NULL || tmp == NULL)
        return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of scratch memory for %u sides", nsides);
    for (i = 0; i < nsides; i++) {
        uint32_t f = i / SIDES_PER_FACE, k = i % SIDES_PER_FACE;
        uint32_t a = m->faces[f][k], b = m->faces[f][(k + 1) % SIDES_PER_FACE];
        if (canon != NULL) {
            a = canon[a];
            b = canon[b];
        }
        rec[i].key = a < b ? ((uint64_t)a << 32) | b : ((uint64_t)b << 32) | a;
        rec[i].side = i;
    }
    /* Stable: within a run of equal vertex pairs, sides stay in edge-id order. */
    if ((st = radix_sort(rec, tmp, nsides, scratch, err)) != RELIC_OK)
        return st;

    for (i = 0; i < nsides;) {
        uint32_t j = i, g, last;
        while (j < nsides && rec[j].key == rec[i].key)
            j++;
        if (j - i >= 2) {
            if (rule == RELIC_BWM_ADJ_INDEX) {
                /* Walk the run backwards to know, for every member, where the
                 * next face's block starts (tmp[].side holds it); then join
                 * each side still alone to the first side of a later face
                 * that is still alone too. That side only moves forward. */
                uint32_t next = UINT32_MAX, h = i;
                for (g = j; g-- > i;) {
                    if (g + 1 < j && rec[g + 1].side / SIDES_PER_FACE != rec[g].side / SIDES_PER_FACE)
                        next = g + 1;
                    tmp[g].side = next;
                }
                for (g = i; g < j; g++) {
                    uint32_t s = rec[g].side, t;
                    if (out[s / 3][s % 3] != -1 || tmp[g].side == UINT32_MAX)
                        continue;
                    if (h < tmp[g].side)
                        h = tmp[g].side;
                    while (h < j && out[rec[h].side / 3][rec[h].side % 3] != -1)
                        h++;
                    if (h == j)
                        break; /* no later side is free: the rest stay alone */
                    t = rec[h].side;
                    out[s / 3][s % 3] = (int32_t)t;
                    out[t / 3][t % 3] = (int32_t)s;
                }
            } else {
                /* Highest edge id on another face wins. */
                uint32_t top = rec[j - 1].side, second = UINT32_MAX;
                for (g = j - 1; g-- > i;)
                    if (rec[g].side / 3 != top / 3) {
                        second = rec[g].side;
                        break;
                    }
                for (g = i; g < j; g++) {
                    uint32_t s = rec[g].side;
                    last = s / 3 != top / 3 ? top : second;
                    if (last != UINT32_MAX)
                        out[s / 3][s % 3] = (int32_t)last;
                }
            }
        }
        i = j;
    }
    return RELIC_OK;
}

relic_status relic_bwm_build_adjacency(const relic_bwm_mesh *m, uint32_t walkable_count,
                                       int32_t (*out)[3], relic_arena *scratch, relic_error *err)
{
    return relic_bwm_build_adjacency_rule(m, walkable_count, RELIC_BWM_ADJ_INDEX, out, scratch, err);
}

/* ---------------------------------------------------------------------- */
/* Edges and perimeters (PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py) */
/* ---------------------------------------------------------------------- */

/* Link steps allowed per side before the walk gives up: a consistent
 * manifold needs at most one per side (each side is passed once, while
 * turning around its start vertex), so four is generous. */
#define PERIMETER_STEPS_PER_SIDE 4u

relic_status relic_bwm_build_perimeters(const relic_bwm_mesh *m, uint32_t walkable_count,
                                        const int32_t (*adjacency)[3],
                                        const relic_bwm_edge_rec *old_edges, uint32_t old_edge_count,
                                        relic_bwm_edge_rec *edges_out, uint32_t *edge_count,
                                        uint32_t *perimeters_out, uint32_t *perimeter_count,
                                        relic_arena *scratch, relic_error *err)
{
    uint32_t nsides, i, ne = 0, np = 0, epoch = 0;
    uint64_t steps = 0, budget;
    uint8_t *visited;
    uint32_t *stamp;
    int32_t *transition;

    if (edge_count != NULL)
        *edge_count = 0;
    if (perimeter_count != NULL)
        *perimeter_count = 0;
    if (m == NULL || edge_count == NULL || perimeter_count == NULL || scratch == NULL ||
        (walkable_count != 0 && (adjacency == NULL || edges_out == NULL || perimeters_out == NULL)) ||
        (old_edges == NULL && old_edge_count != 0))
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "NULL argument");
    if (walkable_count > m->face_count)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "adjacency", "%u walkable faces of %u", walkable_count,
                          m->face_count);
    if (walkable_count > MAX_SIDE_FACES)
        return relic_fail(err, RELIC_E_LIMIT, 0, "edges", "%u walkable faces: at most %u have edge ids",
                          walkable_count, MAX_SIDE_FACES);
    nsides = walkable_count * SIDES_PER_FACE;
    if (nsides == 0)
        return RELIC_OK;
    for (i = 0; i < nsides; i++) {
        int32_t a = adjacency[i / 3][i % 3];
        if (a < -1 || (a >= 0 && (uint32_t)a >= nsides)) {
            char path[48];
            snprintf(path, sizeof path, "adjacency[%u][%u]", i / 3, i % 3);
            return relic_fail(err, RELIC_E_INDEX, 0, path, "adjacency %d is neither -1 nor a walkable side (< %u)",
                              (int)a, nsides);
        }
    }
    visited = relic_arena_array(scratch, nsides, sizeof *visited, 1);
    stamp = relic_arena_array(scratch, nsides, sizeof *stamp, _Alignof(uint32_t));
    transition = relic_arena_array(scratch, nsides, sizeof *transition, _Alignof(int32_t));
    if (visited == NULL || stamp == NULL || transition == NULL)
        return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of scratch memory for %u sides", nsides);
    for (i = 0; i < nsides; i++)
        transition[i] = -1;
    /* The first record of an edge id with a transition other than -1 wins;
     * ids that are not walkable sides cannot be edges and are dropped. */
    for (i = 0; i < old_edge_count; i++)
        if (old_edges[i].edge < nsides && transition[old_edges[i].edge] == -1)
            transition[old_edges[i].edge] = old_edges[i].transition;

    budget = (uint64_t)nsides * PERIMETER_STEPS_PER_SIDE;
    for (i = 0; i < nsides; i++) {
        uint32_t f, s;
        if (adjacency[i / 3][i % 3] != -1 || visited[i])
            continue;
        f = i / 3;
        s = i % 3;
        epoch++;
        for (;;) {
            uint32_t side = f * 3 + s;
            int32_t a = adjacency[f][s];
            if (a == -1) {
                if (visited[side])
                    break; /* back at an edge already output: the loop is closed */
                visited[side] = 1;
                edges_out[ne].edge = side;
                edges_out[ne].transition = transition[side];
                ne++;
                s = (s + 1) % 3;
                epoch++;
            } else {
                /* Passing the same linked side twice without output means the
                 * adjacency turns in a circle (not a consistent manifold):
                 * close the loop here instead of cycling forever. */
                if (stamp[side] == epoch)
                    break;
                stamp[side] = epoch;
                if (++steps > budget)
                    return relic_fail(err, RELIC_E_LIMIT, 0, "adjacency",
                                      "perimeter walk took more than %llu steps: the adjacency is not a "
                                      "consistent walkmesh",
                                      (unsigned long long)budget);
                f = (uint32_t)a / 3;
                s = ((uint32_t)a % 3 + 1) % 3;
            }
        }
        perimeters_out[np++] = ne;
    }
    *edge_count = ne;
    *perimeter_count = np;
    return RELIC_OK;
}

/* ---------------------------------------------------------------------- */
/* AABB tree (kotorblender, aabb.py; PyKotor, io_bwm.py)                      */
/* ---------------------------------------------------------------------- */

/* Most-significant-plane flags (kotorblender, aabb.py; PyKotor, io_bwm.py, kotorblender's constants). */
#define MSP_POS_X 0x01u
#define MSP_NEG_X 0x08u
/* +Y = 0x02, +Z = 0x04, -Y = 0x10, -Z = 0x20: +axis is MSP_POS_X << axis. */
#define MSP_IDENTICAL_CHILDREN 0x20u /* -Z: the measured majority when the children's boxes coincide */

/* Leaf box margin: the triangle's tight box grows by this on every side. */
#define AABB_LEAF_MARGIN 0.01f

/* A float key as an unsigned integer with the same order (for radix sort). */
static uint64_t double_order_key(double d)
{
    uint64_t u;
    if (d == 0.0)
        d = 0.0;
    memcpy(&u, &d, sizeof u);
    return (u & 0x8000000000000000ull) ? ~u : u | 0x8000000000000000ull;
}

uint32_t relic_bwm_aabb_msp(const relic_bwm_aabb_rec *left, const relic_bwm_aabb_rec *right)
{
    double d[3], best = 0.0;
    int c, axis = -1;
    for (c = 0; c < 3; c++) {
        d[c] = ((double)right->box_min[c] + right->box_max[c]) * 0.5 -
            ((double)left->box_min[c] + left->box_max[c]) * 0.5;
        if (fabs(d[c]) > best) {
            best = fabs(d[c]);
            axis = c;
        }
    }
    if (axis < 0)
        return MSP_IDENTICAL_CHILDREN;
    return d[axis] > 0.0 ? MSP_POS_X << axis : MSP_NEG_X << axis;
}

typedef struct aabb_task {
    uint32_t lo, hi; /* faces ord[*][lo..hi) */
    uint32_t node;   /* pre-order index of the node */
} aabb_task;

/* Depth of the task stack: every push halves the range (floor split), so
 * 33 entries cover 2^32 faces. */
#define AABB_STACK_DEPTH 40

relic_status relic_bwm_build_aabb(const relic_bwm_mesh *m, relic_bwm_aabb_rec *out,
                                  uint32_t *node_count, relic_arena *scratch, relic_error *err)
{
    uint32_t n, i, *ord[3], *tmp;
    float(*leaf)[6];
    uint8_t *left_mark;
    side_rec *rec, *rtmp;
    aabb_task stack[AABB_STACK_DEPTH];
    unsigned depth = 0;
    relic_status st;
    int c;

    if (node_count != NULL)
        *node_count = 0;
    if (m == NULL || node_count == NULL || scratch == NULL || (out == NULL && m->face_count != 0))
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "NULL mesh, output or scratch arena");
    n = m->face_count;
    if (n == 0)
        return RELIC_OK;
    if (n > (uint32_t)INT32_MAX)
        return relic_fail(err, RELIC_E_LIMIT, 0, "aabb", "%u faces: an AABB leaf holds an int32 face index", n);
    if ((st = check_faces(m, n, err)) != RELIC_OK)
        return st;

    leaf = relic_arena_array(scratch, n, sizeof *leaf, _Alignof(float));
    tmp = relic_arena_array(scratch, n, sizeof *tmp, _Alignof(uint32_t));
    left_mark = relic_arena_array(scratch, n, 1, 1);
    rec = relic_arena_array(scratch, n, sizeof *rec, _Alignof(side_rec));
    rtmp = relic_arena_array(scratch, n, sizeof *rtmp, _Alignof(side_rec));
    for (c = 0; c < 3; c++)
        ord[c] = relic_arena_array(scratch, n, sizeof *ord[c], _Alignof(uint32_t));
    if (leaf == NULL || tmp == NULL || left_mark == NULL || rec == NULL || rtmp == NULL || ord[0] == NULL ||
        ord[1] == NULL || ord[2] == NULL)
        return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of scratch memory for an AABB tree of %u faces", n);

    /* Leaf boxes: the tight box grown by the margin, in single precision. */
    for (i = 0; i < n; i++) {
        const float *p0 = m->vertices[m->faces[i][0]], *p1 = m->vertices[m->faces[i][1]],
                    *p2 = m->vertices[m->faces[i][2]];
        for (c = 0; c < 3; c++) {
            float lo = p0[c], hi = p0[c];
            if (p1[c] < lo) lo = p1[c];
            if (p2[c] < lo) lo = p2[c];
            if (p1[c] > hi) hi = p1[c];
            if (p2[c] > hi) hi = p2[c];
            leaf[i][c] = lo - AABB_LEAF_MARGIN;
            leaf[i][3 + c] = hi + AABB_LEAF_MARGIN;
        }
    }
    /* Faces sorted once per axis by centroid (the sum of the three
     * coordinates orders them the same way), equal centroids in descending
     * face index: records enter in that order and the sort is stable. */
    for (c = 0; c < 3; c++) {
        for (i = 0; i < n; i++) {
            uint32_t f = n - 1 - i;
            const uint32_t *v = m->faces[f];
            double sum = (double)m->vertices[v[0]][c] + (double)m->vertices[v[1]][c] + (double)m->vertices[v[2]][c];
            rec[i].key = double_order_key(sum);
            rec[i].side = f;
        }
        if ((st = radix_sort(rec, rtmp, n, scratch, err)) != RELIC_OK)
            return st;
        for (i = 0; i < n; i++)
            ord[c][i] = rec[i].side;
    }

    /* Pre-order layout is fixed by the sizes alone: a node of k faces at
     * index x has its left child (floor(k/2) faces, 2*floor(k/2)-1 nodes) at
     * x+1 and its right child at x + 2*floor(k/2). */
    stack[depth].lo = 0;
    stack[depth].hi = n;
    stack[depth].node = 0;
    depth++;
    while (depth > 0) {
        aabb_task t = stack[--depth];
        for (;;) {
            relic_bwm_aabb_rec *node = &out[t.node];
            uint32_t k = t.hi - t.lo, h, axis, j;
            float ext[3];
            for (c = 0; c < 6; c++)
                (c < 3 ? node->box_min : node->box_max)[c % 3] = leaf[ord[0][t.lo]][c];
            for (j = t.lo + 1; j < t.hi; j++) {
                const float *b = leaf[ord[0][j]];
                for (c = 0; c < 3; c++) {
                    if (b[c] < node->box_min[c]) node->box_min[c] = b[c];
                    if (b[3 + c] > node->box_max[c]) node->box_max[c] = b[3 + c];
                }
            }
            node->unknown = RELIC_BWM_AABB_UNKNOWN;
            if (k == 1) {
                node->face = (int32_t)ord[0][t.lo];
                node->msp = 0;
                node->child1 = node->child2 = RELIC_BWM_NO_CHILD;
                break;
            }
            for (c = 0; c < 3; c++)
                ext[c] = node->box_max[c] - node->box_min[c];
            axis = 0;
            if (ext[1] >= ext[axis]) axis = 1;
            if (ext[2] >= ext[axis]) axis = 2;
            h = k / 2;
            node->face = -1;
            node->msp = 0; /* filled once both children exist */
            node->child1 = t.node + 1;
            node->child2 = t.node + 2 * h;
            /* The lower h along the axis go left; the other two orders are
             * split the same way, keeping their order (stable partition). */
            for (j = t.lo; j < t.hi; j++)
                left_mark[ord[axis][j]] = j < t.lo + h;
            for (c = 0; c < 3; c++) {
                uint32_t l = t.lo, r = 0;
                if ((uint32_t)c == axis)
                    continue;
                for (j = t.lo; j < t.hi; j++) {
                    uint32_t f = ord[c][j];
                    if (left_mark[f])
                        ord[c][l++] = f;
                    else
                        tmp[r++] = f;
                }
                memcpy(&ord[c][l], tmp, (size_t)r * sizeof *tmp);
            }
            if (depth >= AABB_STACK_DEPTH)
                return relic_fail(err, RELIC_E_LIMIT, 0, "aabb", "AABB tree deeper than %d", AABB_STACK_DEPTH);
            stack[depth].lo = t.lo + h;
            stack[depth].hi = t.hi;
            stack[depth].node = t.node + 2 * h;
            depth++;
            t.hi = t.lo + h;
            t.node = t.node + 1;
        }
    }
    for (i = 0; i < 2 * n - 1; i++)
        if (out[i].face < 0)
            out[i].msp = relic_bwm_aabb_msp(&out[out[i].child1], &out[out[i].child2]);
    *node_count = 2 * n - 1;
    return RELIC_OK;
}
