/* bwm_build.h — KotOR BWM derived tables, rebuilt from geometry alone.
 *
 * The hand-written half of the BWM format (schema/kotor/bwm.schema is the
 * other half): face planes, walkability, walkable adjacency, boundary edges
 * and perimeter loops, and the AABB tree, producing exactly the layout real
 * files hold. Source: PyKotor wiki, KotOR BWM file format, "Derived data", "AABB Tree", "Walkable
 * adjacencies", "Edges", "Perimeters"; PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py.
 *
 * These functions work on plain arrays so they do not depend on the
 * generated model types; runtime/bwm.c adapts the generated model to them. */
#ifndef RELIC_BWM_BUILD_H
#define RELIC_BWM_BUILD_H

#include "relic.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Geometry of a walkmesh: vertex_count vertices (x, y, z in metres,
 *  world space as stored in the file), face_count triangles (three 0-based
 *  vertex indices each, side k runs v[k] -> v[(k+1)%3]) and one surface
 *  material id per face (a row of surfacemat.2da). */
typedef struct relic_bwm_mesh {
    const float (*vertices)[3];
    uint32_t vertex_count;
    const uint32_t (*faces)[3];
    const uint32_t *materials;
    uint32_t face_count;
} relic_bwm_mesh;

/** One AABB tree node as stored (44 bytes in the file). face is the face
 *  index for a leaf and -1 for an internal node; unknown is 4 in every real
 *  file; msp is the most significant plane flag (0 on leaves, 0x01/0x02/
 *  0x04 = +X/+Y/+Z, 0x08/0x10/0x20 = -X/-Y/-Z); children are 0-based node
 *  indices, 0xFFFFFFFF for none. kotorblender, aabb.py; PyKotor, io_bwm.py. */
/* NOTE: named relic_bwm_aabb_rec (not _aabb_node) because the generated
 * generated/kotor/bwm.h already defines relic_bwm_aabb_node (the model form
 * of the schema's aabb_node struct). */
typedef struct relic_bwm_aabb_rec {
    float box_min[3];
    float box_max[3];
    int32_t face;
    uint32_t unknown;
    uint32_t msp;
    uint32_t child1;
    uint32_t child2;
} relic_bwm_aabb_rec;

/** One perimeter edge: edge id = 3 * face + side, transition = -1 or the
 *  LYT room index the edge leads to. PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py. */
typedef struct relic_bwm_edge_rec {
    uint32_t edge;
    int32_t transition;
} relic_bwm_edge_rec;

#define RELIC_BWM_NO_CHILD 0xFFFFFFFFu
#define RELIC_BWM_AABB_UNKNOWN 4u

/** 1 when the surface material is walkable (surfacemat.2da walk column as
 *  the sample files use it: 1,3,4,5,6,9,10,11,12,13,14,16,18,20,21,22,30;
 *  checked against the adjacency count of every corpus WOK). PyKotor, common/geometry.py; kotorblender, constants.py. */
int relic_bwm_material_walkable(uint32_t material);

/** Human-readable material name ("Dirt", "NonWalk", ...) or NULL. */
const char *relic_bwm_material_name(uint32_t material);

/** Number of leading walkable faces; faces after the first non-walkable one
 *  must all be non-walkable for a valid file (PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py). */
uint32_t relic_bwm_walkable_prefix(const relic_bwm_mesh *m);

/** Unit normal (x,y,z) and planar distance d of face f:
 *  normal = normalize((v1-v0) x (v2-v0)), d = -(normal . v0), computed in
 *  single precision as the game's tools do (PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py). A degenerate face
 *  gets a zero normal and d = 0. */
void relic_bwm_face_plane(const relic_bwm_mesh *m, uint32_t f, float normal[3], float *distance);

/** Walkable adjacency: for each of the first walkable_count faces (which
 *  must be the walkable ones, walkable-first order) and side k, 3*g+m where
 *  walkable face g side m shares the same two vertex indices, else -1.
 *  out has walkable_count rows. Linear time (radix sort of vertex-index
 *  pairs); a pair shared by more than two walkable sides is resolved as
 *  RELIC_BWM_ADJ_INDEX says. Uses scratch for temporary memory. Errors: as
 *  relic_bwm_build_adjacency_rule (RELIC_E_NOMEM, RELIC_E_INDEX, ...). */
relic_status relic_bwm_build_adjacency(const relic_bwm_mesh *m, uint32_t walkable_count,
                                       int32_t (*out)[3], relic_arena *scratch,
                                       relic_error *err);

/** Which sides relic_bwm_build_adjacency_rule joins (PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py, measured on
 *  the corpus by tests/test_bwm_build.c). */
typedef enum relic_bwm_adjacency_rule {
    /** The game's files and kotorblender: sides with the same two vertex
     *  indices. When more than two walkable sides share a pair, sides are
     *  taken in edge-id order and each one still without a neighbour is
     *  joined (both ways) to the first side of a later face that is still
     *  without one; the result is always symmetric. */
    RELIC_BWM_ADJ_INDEX = 0,
    /** PyKotor-written files: sides whose two vertices have the same
     *  coordinates; among several, the side of another face with the
     *  highest edge id (the result need not be symmetric). */
    RELIC_BWM_ADJ_POSITION_LAST = 1
} relic_bwm_adjacency_rule;

/** relic_bwm_build_adjacency with a choice of rule (relic_bwm_build_adjacency
 *  is RELIC_BWM_ADJ_INDEX). O(n) in sides (radix sort of vertex pairs);
 *  scratch memory about 32 bytes per side. Errors: RELIC_E_ARGUMENT (NULL
 *  pointers, walkable_count > face_count, unknown rule), RELIC_E_INDEX (a
 *  face names a vertex past vertex_count; path "faces[f].v[k]"),
 *  RELIC_E_LIMIT (more than INT32_MAX/3 walkable faces), RELIC_E_NOMEM. */
relic_status relic_bwm_build_adjacency_rule(const relic_bwm_mesh *m, uint32_t walkable_count,
                                            relic_bwm_adjacency_rule rule, int32_t (*out)[3],
                                            relic_arena *scratch, relic_error *err);

/** Boundary edges and perimeter loops from adjacency (PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py loop walk,
 *  which reproduces real files exactly). edges_out needs room for
 *  3*walkable_count records, perimeters_out for 3*walkable_count entries.
 *  Every edge's transition is -1 unless old_edges (may be NULL) holds the
 *  same edge id, in which case its transition is kept (the first record
 *  of an id whose transition is not -1). Perimeters are cumulative edge
 *  counts (exclusive end of each loop). Adjacency that is not a consistent
 *  manifold (asymmetric links, as PyKotor writes for sides shared three
 *  ways) cannot make the walk cycle: a loop closes when it passes the same
 *  linked side twice without output, and the whole walk is bounded by
 *  4 link steps per side (else RELIC_E_LIMIT). Errors: RELIC_E_ARGUMENT,
 *  RELIC_E_INDEX (an adjacency value neither -1 nor < 3*walkable_count;
 *  path "adjacency[f][k]"), RELIC_E_LIMIT, RELIC_E_NOMEM. */
relic_status relic_bwm_build_perimeters(const relic_bwm_mesh *m, uint32_t walkable_count,
                                        const int32_t (*adjacency)[3],
                                        const relic_bwm_edge_rec *old_edges, uint32_t old_edge_count,
                                        relic_bwm_edge_rec *edges_out, uint32_t *edge_count,
                                        uint32_t *perimeters_out, uint32_t *perimeter_count,
                                        relic_arena *scratch, relic_error *err);

/** AABB tree over all faces in pre-order (root 0, left child = index+1),
 *  2*face_count-1 nodes for face_count >= 1 (none for 0). Leaves: the
 *  face's tight box expanded by 0.01 on every side; internal boxes: union
 *  of the children. out needs room for 2*face_count-1 nodes.
 *  Split rule (measured on the game-written corpus files, kotorblender, aabb.py; PyKotor, io_bwm.py): a
 *  node's faces are ordered by centroid along the longest axis of its box
 *  (equal lengths: the later axis), equal centroids by descending face
 *  index, and the first floor(n/2) go left; MSP from relic_bwm_aabb_msp.
 *  O(n log n) time, no recursion, scratch about 75 bytes per face.
 *  Errors: RELIC_E_ARGUMENT, RELIC_E_INDEX (bad vertex index),
 *  RELIC_E_LIMIT (more than INT32_MAX faces), RELIC_E_NOMEM. */
relic_status relic_bwm_build_aabb(const relic_bwm_mesh *m, relic_bwm_aabb_rec *out,
                                  uint32_t *node_count, relic_arena *scratch,
                                  relic_error *err);

/** The MSP flag the original toolchain stores on an internal node with
 *  these two children: the axis along which the centres of the children's
 *  boxes differ most, +axis (0x01/0x02/0x04) when the right child lies on
 *  the positive side, -axis (0x08/0x10/0x20) otherwise; 0x20 (-Z) when the
 *  boxes have the same centre (the original choice is not recoverable
 *  then; -Z is the most frequent). Measured on every internal node of the
 *  game-written corpus files: exact whenever the centres differ. */
uint32_t relic_bwm_aabb_msp(const relic_bwm_aabb_rec *left, const relic_bwm_aabb_rec *right);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_BWM_BUILD_H */
