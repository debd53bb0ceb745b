/* relic_tri.h — Trespasser TRI terrain triangulation text: the triangle
 * count, that many vertex-index triples (0-based), the vertex count, that
 * many "X Y Z" world coordinates (metres), all separated by white space
 * (Trespasser source, Lib/GeomDBase/TerrainLoad.cpp; Trespasser file formats, "TRI – Terrain Triangulation";
 * TerrainLoad.cpp 161-303). Reader: runtime/formats/tres/tri_lexer.re (re2c); writer:
 * runtime/formats/tres/tri_write.c. */
#ifndef RELIC_TRI_H
#define RELIC_TRI_H

#include "relic.h"

/** Trespasser terrain triangulation text (.tri), known by extension: relic_detect finds it by extension (runtime/formats/detect.c). */
extern const relic_format_info relic_format_tri;
#define RELIC_FORMAT_TRI (&relic_format_tri)

#ifdef __cplusplus
extern "C" {
#endif

/** A triangle mesh in world coordinates (the same layout as relic_wtd_mesh). */
typedef struct relic_tri_mesh {
    double (*vertices)[3]; /**< world X, Y, Z in metres */
    uint32_t vertex_count;
    uint32_t (*triangles)[3]; /**< 0-based indices into vertices */
    uint32_t triangle_count;
} relic_tri_mesh;

/** Most triangles or vertices one TRI file may declare. */
#define RELIC_TRI_MAX_COUNT 0x7FFFFFFFu

/** Parse the TRI text data[0..size) (no terminator needed) into *out, arrays
 *  from arena a (memory linear in the input: a count is refused unless the
 *  rest of the file could hold that many elements). file names the input in
 *  messages (NULL: "<text>"). Errors, message "FILE:LINE:COL: ...", offset
 *  the token's byte offset: RELIC_E_SYNTAX (something other than a number
 *  where one belongs, a fractional count or index, text after the last
 *  vertex, the file ending early), RELIC_E_INDEX (an index not below the
 *  vertex count, or negative), RELIC_E_RANGE (a coordinate outside the
 *  double range), RELIC_E_LIMIT (a count above RELIC_TRI_MAX_COUNT or more
 *  than the file can hold), RELIC_E_NOMEM. On error *out is zeroed. */
relic_status relic_tri_parse(const char *file, const uint8_t *data, size_t size, relic_arena *a, relic_tri_mesh *out,
                             relic_error *err);

/** Append the TRI text of m to out: the triangle count, one "a b c" line per
 *  triangle, the vertex count, one "X Y Z" line per vertex (shortest
 *  decimal text that reads back to the same double). Errors: RELIC_E_NOMEM
 *  (out failed), RELIC_E_INDEX (an index not below the vertex count). */
relic_status relic_tri_write(const relic_tri_mesh *m, relic_buf *out, relic_error *err);

/** Append the mesh as Wavefront OBJ text ("v X Y Z", "f a b c" 1-based).
 *  Errors: RELIC_E_NOMEM. */
relic_status relic_tri_write_obj(const relic_tri_mesh *m, relic_buf *out, relic_error *err);

#ifdef __cplusplus
}
#endif
#endif
