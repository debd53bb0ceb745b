/* relic_tpm.h — Trespasser Models (TPM) text: the community's model
 * exchange format (Trespasser file formats, "TPM - Models", Remdul's draft of August 2007).
 * A TPM file is a sequence of blocks — `fileinfo`, `instance "name"`,
 * `material "name"`, `mesh "name"`, `skin "name"`, `bone "name"` — each
 * holding `key = value` properties one per line between `{` and `}`;
 * `//` starts a comment that runs to the end of the line. Mesh and skin
 * blocks hold the geometry: `m = "material"` (the mesh's material table),
 * `v = (x,y,z)` (skin: `v = (x,y,z),bone`), `t = (u,v)`, `n = (x,y,z)` and
 * `f = (v1,v2,v3),(t1,t2,t3),(n1,n2,n3),m` with 1-based indices.
 *
 * The model keeps everything the text says that a reader could need again:
 * blocks in order, every property other than the geometry statements with
 * its value text as written (the TPM document: extra bone properties "must be
 * preserved in a conversion process"), the geometry as floats and indices,
 * and the comments with the place they stood. relic_tpm_write writes a
 * model so that reading the text gives an equal model (relic_tpm_equal):
 * read -> write -> read is the identity; the text itself is normalised
 * (one space of indent, numbers in their shortest float form, geometry in
 * the order m, v, t, n, f after the other properties).
 *
 * Reading conventions (where the TPM document is silent, relic's choice is stated):
 * block keywords are matched case-insensitively; geometry keys are the
 * lower-case letters of the TPM document; a vertex index is 1..count; a texture
 * coordinate or normal index is 0..count, 0 meaning "none" (what an OBJ
 * face without vt/vn gives); a material index is 0..count, 0 meaning no
 * material (the TPM document); a skin vertex's bone index is any unsigned number (0 =
 * unbound, the TPM document). Indices are checked when the block ends, so geometry
 * statements may come in any order. Strings have no escapes and no line
 * breaks (the TPM document "Strings").
 *
 * Errors are relic_error values whose message reads "FILE:LINE:COL: what"
 * (1-based, COL in bytes) and whose offset is the byte offset of the
 * offending token. Memory comes from the caller's arena and is linear in
 * the input (geometry arrays grow by doubling). */
#ifndef RELIC_TPM_H
#define RELIC_TPM_H

#include "relic.h"

/** Trespasser Models text (.tpm), known by extension: relic_detect finds it by extension (runtime/formats/detect.c). */
extern const relic_format_info relic_format_tpm;
#define RELIC_FORMAT_TPM (&relic_format_tpm)

#ifdef __cplusplus
extern "C" {
#endif

/** Block kinds (Trespasser file formats, TPM "Blocks"). */
typedef enum relic_tpm_kind {
    RELIC_TPM_FILEINFO = 0, /**< information about the file; no name; at most one */
    RELIC_TPM_INSTANCE,     /**< a node: mesh reference, position, rotation, scale */
    RELIC_TPM_MATERIAL,     /**< surface: colormap, bumpmap */
    RELIC_TPM_MESH,         /**< geometry */
    RELIC_TPM_SKIN,         /**< geometry whose vertices carry a bone index */
    RELIC_TPM_BONE          /**< a skeleton joint: position, rotation, extra T-Script values */
} relic_tpm_kind;

/** The keyword of a block kind ("fileinfo", ...). */
const char *relic_tpm_kind_name(relic_tpm_kind k);

/** How a property value reads. */
typedef enum relic_tpm_value_kind {
    RELIC_TPM_TEXT = 0, /**< anything else, kept as written: 1.0.1, 7/2/2007 6:03:23 PM */
    RELIC_TPM_STRING,   /**< "text" (text holds the contents, without quotes) */
    RELIC_TPM_NUMBER,   /**< one number (v[0]) */
    RELIC_TPM_TUPLE     /**< (a,b[,c[,d]]): 2 to 4 numbers (v[0..count)) */
} relic_tpm_value_kind;

/** How value text s[0..n) reads (trimmed text, as after `key =`): a whole
 *  "string", one number, a tuple of 2-4 numbers, or other text; numbers go
 *  to v[0..*count). */
relic_tpm_value_kind relic_tpm_classify(const char *s, size_t n, float v[4], unsigned *count);

/** A property other than the geometry statements: `key = value`. */
typedef struct relic_tpm_prop {
    char *key; /**< NUL-terminated; letters, digits, '_', '$', '.', '-' */
    relic_tpm_value_kind kind;
    char *text; /**< NUL-terminated: STRING contents; otherwise the value text as written (trimmed) */
    size_t text_len;
    float v[4];     /**< NUMBER and TUPLE values, rounded to float */
    unsigned count; /**< NUMBER 1, TUPLE 2..4, else 0 */
} relic_tpm_prop;

/** A face: 1-based indices into the block's vertex, texture-coordinate and
 *  normal arrays (t and n 0 = none) and its material table (0 = none). */
typedef struct relic_tpm_face {
    uint32_t v[3];
    uint32_t t[3];
    uint32_t n[3];
    uint32_t material;
} relic_tpm_face;

/** A `//` comment: its text (after the slashes, without the line end) and
 *  where it stood: before block `block` (block_count: at the end of the
 *  file) when prop is RELIC_TPM_OUTSIDE, else inside that block before its
 *  property `prop` (prop_count: before the closing brace). Comments between
 *  geometry statements count as standing before the next property. */
#define RELIC_TPM_OUTSIDE 0xFFFFFFFFu
typedef struct relic_tpm_comment {
    char *text;
    size_t len;
    uint32_t block;
    uint32_t prop;
} relic_tpm_comment;

/** Where a block starts in the text (1-based line and byte column). */
typedef struct relic_tpm_where {
    uint32_t line;
    uint32_t col;
    uint64_t offset;
} relic_tpm_where;

/** One block. Geometry arrays are empty except in meshes and skins. */
typedef struct relic_tpm_block {
    relic_tpm_kind kind;
    char *name; /**< NUL-terminated; NULL for fileinfo */
    size_t name_len;
    relic_tpm_prop *props; /**< the other properties, in file order */
    uint32_t prop_count;
    char **materials; /**< `m`: the material table (NUL-terminated names), index 1 first */
    uint32_t material_count;
    float (*vertices)[3]; /**< `v` */
    uint32_t *bones;      /**< skin: the bone index of each vertex; NULL for meshes */
    uint32_t vertex_count;
    float (*texcoords)[2]; /**< `t` */
    uint32_t texcoord_count;
    float (*normals)[3]; /**< `n` */
    uint32_t normal_count;
    relic_tpm_face *faces; /**< `f` */
    uint32_t face_count;
    relic_tpm_where where; /**< the block keyword (zero for built models) */
} relic_tpm_block;

/** A whole TPM file. */
typedef struct relic_tpm_file {
    relic_tpm_block *blocks;
    uint32_t block_count;
    relic_tpm_comment *comments;
    uint32_t comment_count;
} relic_tpm_file;

/** Most elements (blocks, properties, geometry statements of one kind in
 *  one block, comments) a file may hold. */
#define RELIC_TPM_MAX_ELEMENTS 0x10000000u

/** Parse TPM text data[0..size) (no terminator needed; NUL bytes are
 *  errors). file names the input in messages (NULL: "<tpm>"). Errors
 *  (message "FILE:LINE:COL: ...", offset = byte offset of the token):
 *  RELIC_E_SYNTAX (unknown block keyword, missing name, brace, '=', a
 *  malformed value or geometry statement, an unterminated string, a second
 *  fileinfo), RELIC_E_INDEX (a face index outside its array, at the face
 *  holding the largest such index), RELIC_E_RANGE (a number outside the
 *  float range, an index over 2^32-1), RELIC_E_LIMIT (more than
 *  RELIC_TPM_MAX_ELEMENTS of something), RELIC_E_NOMEM, RELIC_E_ARGUMENT
 *  (NULL pointers). On error *out is zeroed. */
relic_status relic_tpm_parse(const char *file, const uint8_t *data, size_t size, relic_arena *a,
                             relic_tpm_file *out, relic_error *err);

/** Longest text relic_tpm_parse copies into the model (a comment, a
 *  string, a property value or key, a name): 1 MiB. The copy is what makes
 *  a long line cost twice its size (a 1 GiB comment line took 2.1 GB). */
#define RELIC_TPM_DEFAULT_MAX_TEXT ((size_t)1 << 20)

/** relic_tpm_parse refusing any text longer than max_text bytes (0 = no
 *  limit) before it is copied: RELIC_E_LIMIT, "FILE:LINE:COL: N bytes of
 *  text, over the limit of M", offset = where the text starts.
 *  relic_tpm_parse is this with RELIC_TPM_DEFAULT_MAX_TEXT. Errors: those of
 *  relic_tpm_parse. */
relic_status relic_tpm_parse_max_text(const char *file, const uint8_t *data, size_t size, size_t max_text, relic_arena *a,
                                      relic_tpm_file *out, relic_error *err);

/** Append the text of a model to out. Errors: RELIC_E_ARGUMENT (path
 *  "blocks[i]...") when a name or string holds '"', a line break or NUL, a
 *  key is not a key, a TEXT value is empty or would read back as something
 *  else, a comment holds a line break, or a geometry array is NULL with a
 *  nonzero count; RELIC_E_RANGE for a non-finite float; RELIC_E_NOMEM when
 *  out fails. */
relic_status relic_tpm_write(const relic_tpm_file *m, relic_buf *out, relic_error *err);

/** 1 when a and b say the same (positions ignored; floats compared by
 *  bits), else 0. */
int relic_tpm_equal(const relic_tpm_file *a, const relic_tpm_file *b);

/** The first property of a block with this key, or NULL. */
const relic_tpm_prop *relic_tpm_find(const relic_tpm_block *b, const char *key);

/** Append the JSON form of a model to out: {"format": "tpm", "blocks":
 *  [...], "comments": [...]} (floats in their shortest exact form). */
void relic_tpm_json(const relic_tpm_file *m, relic_buf *out);

/** Append Wavefront OBJ text of the model's meshes and skins: one `o`
 *  object per block, `v`, `vt`, `vn`, `usemtl` from the material table and
 *  `f v/t/n` (t and n left out when 0). Skin bone indices, instances,
 *  materials and bones have no OBJ form and are listed in comments.
 *  Errors: RELIC_E_RANGE for a non-finite float, RELIC_E_NOMEM. */
relic_status relic_tpm_to_obj(const relic_tpm_file *m, relic_buf *out, relic_error *err);

struct relic_obj_mesh;
/** A TPM model of one mesh named `name` from an OBJ mesh read by
 *  relic_obj_parse (runtime/include/relic/obj.h): its vertices, texture coordinates (u,
 *  v), normals, triangles with their per-corner vt/vn indices (0 where the
 *  OBJ corner has none) and `usemtl` names as the material table (faces
 *  before any usemtl get material 0). Arrays point into obj's where they can; the rest
 *  comes from a. Errors: RELIC_E_NOMEM, RELIC_E_ARGUMENT. */
relic_status relic_tpm_from_obj(const struct relic_obj_mesh *obj, const char *name, relic_arena *a,
                                relic_tpm_file *out, relic_error *err);

struct relic_grf_file;
/** Append TPM text of a decoded Trespasser level (runtime/include/relic/relic_grf.h;
 *  runtime/export/tpm_grf.c): a fileinfo block; one `mesh` per distinct object
 *  section the region instances use, in order of first use, named after
 *  the object section ("NAME#i" when object sections share a name), in
 *  object space (no placement), with its material table (texture file base
 *  names, or flat_RRGGBB), positions, texture coordinates, normals and
 *  triangles (mesh-heap polygons fan-triangulated); then one `instance` per
 *  region entry: mesh, position, rotation (Euler angles in radians, x then
 *  y then z, as stored) and scale. *mesh_count (may be NULL) receives the
 *  number of meshes. Errors: RELIC_E_UNSUPPORTED (no .region section),
 *  RELIC_E_INDEX (an instance naming no object section, a geometry index
 *  out of range), RELIC_E_RANGE (a non-finite number), RELIC_E_NOMEM,
 *  RELIC_E_ARGUMENT (NULL f, out or scratch). Scratch (the symbol index,
 *  section marks) comes from the caller's arena scratch. */
relic_status relic_tpm_from_grf(const struct relic_grf_file *f, relic_arena *scratch, relic_buf *out, uint32_t *mesh_count,
                                relic_error *err);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_TPM_H */
