/* obj.h — reading Wavefront OBJ meshes and turning them into BWM geometry.
 *
 * The OBJ reader (runtime/export/obj_lexer.re, scanned by re2c) takes the subset of
 * OBJ a walkmesh needs: `v x y z`, `f` with the index forms v, v/vt, v//vn
 * and v/vt/vn (negative indices count back from the latest element),
 * polygons fan-triangulated, and `usemtl NAME` naming the surface material
 * of the faces that follow. `vt u [v [w]]` (v defaults to 0, w is dropped)
 * and `vn x y z` are kept with the texture-coordinate and normal index of
 * every triangle corner; `vp` is checked and ignored; `g`, `o`, `s`, `mtllib`,
 * `usemap`, `maplib`, `lod` and the point and line elements `p` and `l`
 * (indices checked) are accepted and ignored; `#` starts a comment; a
 * backslash at the end of a line continues it.
 *
 * Errors are relic_error values whose message reads "FILE:LINE:COL: what"
 * (LINE and COL 1-based, COL in bytes) and whose offset is the byte offset
 * of the offending token. All memory comes from the caller's arena; its
 * size is linear in the input (at most about 24 bytes per input byte), so
 * a heap arena's limit bounds what any input can make the reader take.
 *
 * Sources: the Wavefront OBJ format as every tool writes it; the material
 * names and walkability are PyKotor, common/geometry.py; kotorblender, constants.py (runtime/include/relic/bwm_build.h). */
#ifndef RELIC_OBJ_H
#define RELIC_OBJ_H

#include "bwm_build.h"
#include "relic.h"

#ifdef __cplusplus
extern "C" {
#endif

/** face_material value of a face read before any `usemtl`. */
#define RELIC_OBJ_NO_MATERIAL 0xFFFFFFFFu

/** face_texcoords / face_normals value of a corner without vt / vn. */
#define RELIC_OBJ_NONE 0xFFFFFFFFu

/** Most vertices, and most triangles, one OBJ may hold: INT32_MAX / 3, so
 *  that BWM edge ids (3 * face + side) still fit an int32. */
#define RELIC_OBJ_MAX_ELEMENTS 0x2AAAAAAAu

/** Longest `usemtl` name accepted, in bytes. */
#define RELIC_OBJ_MAX_NAME 256u

/** Where a token starts: 1-based line and byte column, and byte offset. */
typedef struct relic_obj_pos {
    uint32_t line;
    uint32_t col;
    uint64_t offset;
} relic_obj_pos;

/** An OBJ mesh as read. Coordinates are the file's numbers rounded to the
 *  nearest float (units are whatever the file uses; walkmeshes: metres).
 *  Every array lives in the arena passed to relic_obj_parse. */
typedef struct relic_obj_mesh {
    float (*vertices)[3]; /**< `v` statements, in file order */
    uint32_t vertex_count;
    uint32_t (*faces)[3];    /**< triangles, 0-based vertex indices, file order */
    uint32_t *face_material; /**< per triangle: index into material_names, or RELIC_OBJ_NO_MATERIAL */
    uint32_t *face_line;     /**< per triangle: line of its `f` statement */
    uint32_t face_count;
    char **material_names;       /**< distinct `usemtl` names, in order of first use */
    relic_obj_pos *material_pos; /**< where each name is first used */
    uint32_t material_count;
    float (*normals)[3];           /**< `vn` statements, in file order */
    uint32_t normal_count;         /**< `vn` statements seen */
    float (*texcoords)[2];         /**< `vt` statements (u, v; v 0 when absent; w dropped), file order */
    uint32_t texcoord_count;       /**< `vt` statements seen */
    uint32_t (*face_texcoords)[3]; /**< per triangle corner: 0-based vt index, or RELIC_OBJ_NONE */
    uint32_t (*face_normals)[3];   /**< per triangle corner: 0-based vn index, or RELIC_OBJ_NONE */
    relic_obj_pos first_unnamed;   /**< first `f` before any `usemtl` (line 0: none) */
} relic_obj_mesh;

/** Parse the OBJ text data[0..size) (no terminator needed; NUL bytes are
 *  errors). file names the input in error messages (NULL: "<obj>").
 *  Errors (message "FILE:LINE:COL: ...", offset = byte offset):
 *  RELIC_E_SYNTAX (malformed statement, unknown keyword, a number where
 *  none can be, a face with fewer than 3 corners), RELIC_E_INDEX (an index
 *  of 0, or one past the elements defined so far, for v, vt or vn),
 *  RELIC_E_RANGE (a coordinate outside the float range), RELIC_E_LIMIT
 *  (more than RELIC_OBJ_MAX_ELEMENTS vertices, texture coordinates, normals
 *  or triangles, a name longer
 *  than RELIC_OBJ_MAX_NAME), RELIC_E_NOMEM (the arena is exhausted),
 *  RELIC_E_ARGUMENT (NULL pointers). On error *out is zeroed. */
relic_status relic_obj_parse(const char *file, const uint8_t *data, size_t size, relic_arena *a,
                             relic_obj_mesh *out, relic_error *err);

/** The surface material id (surfacemat.2da row) a `usemtl` name stands
 *  for, or -1 when it names none. Accepted, case-insensitively: a name of
 *  relic_bwm_material_name ("Stone", "NonWalk", ...; also PyKotor's
 *  "Undefined" for 0 and "NonWalkGrass" for 19); a decimal id ("7"); and a
 *  decimal id after the prefix "surfacemat", "material" or "mat",
 *  optionally followed by '_' or '-' ("surfacemat_7", "mat7"). Ids up to
 *  INT32_MAX. */
int64_t relic_obj_material_id(const char *name);

/** The name relic's OBJ export writes for a material id and this reader
 *  maps back: the material table name, else "surfacemat_<id>". Writes
 *  into buf (size n, at least 24 bytes for any id) and returns buf. */
const char *relic_obj_material_label(uint32_t material, char *buf, size_t n);

/** BWM geometry from an OBJ mesh: the OBJ vertices exactly as read (same
 *  order, none merged and none dropped, so BWM -> OBJ -> BWM is the
 *  identity on vertices and faces), triangles reordered walkable first
 *  (stable within each group), materials from the usemtl names
 *  (relic_obj_material_id). out points into obj's arrays and into new
 *  arrays from a. *walkable_count receives the number of walkable faces.
 *  Errors (message "FILE:LINE:COL: ..."): RELIC_E_RANGE for a name that is
 *  no material (at the `usemtl` that first used it) or a face with no
 *  material (at the first such `f`); RELIC_E_NOMEM; RELIC_E_ARGUMENT. */
relic_status relic_obj_to_bwm(const char *file, const relic_obj_mesh *obj, relic_arena *a,
                              relic_bwm_mesh *out, uint32_t *walkable_count, relic_error *err);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_OBJ_H */
