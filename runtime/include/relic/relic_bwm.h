/* relic_bwm.h — KotOR BWM walkmeshes (.wok/.pwk/.dwk): the hand-written half.
 *
 * The layout, validator, model, writer and JSON come from the schema
 * (schema/kotor/bwm.schema -> generated/kotor/bwm.h). This header adds what
 * a schema cannot say: the semantic rules between tables, rebuilding the
 * derived tables from geometry, and building a whole walkmesh from a mesh.
 * Sources: PyKotor wiki, KotOR BWM file format (BWM); PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py. */
#ifndef RELIC_BWM_H
#define RELIC_BWM_H

#include "bwm.h"
#include "bwm_build.h"
#include "relic.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Rules between tables of a validated walkmesh (the schema has already
 *  checked every index against its array). Always: every float (the
 *  header's use positions and position, vertices, normals, distances, AABB
 *  boxes) is a finite number (RELIC_E_RANGE at the float's offset, path
 *  such as vertices[3], message naming the axis; PyKotor wiki, *KotOR BWM
 *  file format*: positions in metres); faces are walkable
 *  first; a WOK's adjacency count equals its walkable face count, and no
 *  walkmesh has more adjacency rows than faces; the
 *  perimeter array never decreases; the AABB tree reached from node 0 is a
 *  tree (no node reached twice), leaves (face >= 0) have no children and
 *  internal nodes have two. With strict, also the rules that real
 *  tool-written files (PyKotor) break but the game's own files keep:
 *  adjacency is symmetric and joins sides with the same two vertices; the
 *  edges are exactly the walkable sides without a neighbour; perimeters end
 *  at the edge count; every face is in exactly one AABB leaf.
 *  Scratch (the AABB walk's stack and marks, at most
 *  relic_bwm_check_scratch_size bytes) comes from the caller's arena
 *  scratch; nothing from the heap. When scratch runs out, a problem with
 *  code RELIC_E_NOMEM is reported and the check stops.
 *  Returns the number of problems reported (0 = valid). */
unsigned relic_bwm_check(const relic_bwm_view *v, int strict, relic_arena *scratch, relic_report_fn report, void *ctx);

/** Upper bound of the arena bytes relic_bwm_check(v, strict, ...) takes:
 *  5 bytes per AABB node, 1 (4 when strict) per face, plus a few. */
size_t relic_bwm_check_scratch_size(const relic_bwm_view *v, int strict);

/** The geometry of a model as the builders take it (pointers into m). */
void relic_bwm_mesh_of(const relic_bwm_file *m, relic_bwm_mesh *out);

/** Which tables relic_bwm_rebuild recomputes. */
enum {
    RELIC_BWM_REBUILD_PLANES = 1,     /**< normals and planar distances */
    RELIC_BWM_REBUILD_ADJACENCY = 2,  /**< walkable adjacency (WOK) */
    RELIC_BWM_REBUILD_PERIMETERS = 4, /**< edges and perimeters (WOK); transitions kept by edge id */
    RELIC_BWM_REBUILD_AABB = 8,       /**< AABB tree (WOK) */
    RELIC_BWM_REBUILD_ALL = 15
};

/** Recompute the chosen derived tables of m from its vertices, faces and
 *  materials (walkable-first order required: RELIC_E_ARGUMENT otherwise).
 *  For a PWK/DWK (type 0) only the planes are rebuilt and the WOK tables
 *  are left empty. New arrays come from a. */
relic_status relic_bwm_rebuild(relic_bwm_file *m, unsigned what, relic_arena *a, relic_error *err);

/** A complete walkmesh of the given type (RELIC_BWM_WALKMESH_TYPE_*) from
 *  geometry: faces reordered walkable first (stable), then every derived
 *  table built. Hooks and position are zero. Arrays come from a. */
relic_status relic_bwm_from_mesh(const relic_bwm_mesh *mesh, uint32_t type, relic_arena *a,
                                 relic_bwm_file *out, relic_error *err);

/** Number of walkable faces (by material) of a model. */
uint32_t relic_bwm_count_walkable(const relic_bwm_file *m);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_BWM_H */
