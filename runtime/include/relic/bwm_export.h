/* bwm_export.h — KotOR walkmeshes (BWM) out to Wavefront OBJ and to an SVG
 * picture.
 *
 * The OBJ is geometry only and reads back through relic_obj_parse and
 * relic_obj_to_bwm to the same vertices, faces and materials (floats are
 * printed with 9 significant digits, which round-trips every float). The
 * SVG is a top-down map of the walkmesh for people: faces coloured by
 * surface material, perimeters and transitions on top, a legend.
 * Sources: PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py (faces, sides), PyKotor, common/geometry.py; kotorblender, constants.py (materials), PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py
 * (edges, transitions, perimeters); runtime/include/relic/obj.h for the material names. */
#ifndef RELIC_BWM_EXPORT_H
#define RELIC_BWM_EXPORT_H

#include "bwm_build.h"
#include "relic.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Append m as OBJ text to out: a comment header (title names the source;
 *  may be NULL), one `v` line per vertex in order (%.9g), then the faces
 *  in order as 1-based `f a b c` lines. Each run of faces with the same
 *  material is preceded by `g NAME` and `usemtl NAME`, NAME being
 *  relic_obj_material_label (the material table name, else surfacemat_N):
 *  faces keep their order, so a walkmesh whose materials are contiguous
 *  gets exactly one group per material, and reading the OBJ back gives the
 *  same face order. Errors: RELIC_E_INDEX (a face names a vertex past
 *  vertex_count; path "faces[f].v[k]"), RELIC_E_RANGE (a coordinate is not
 *  finite, which OBJ cannot carry), RELIC_E_NOMEM (out could not grow:
 *  memory or its limit), RELIC_E_ARGUMENT (NULL pointers). */
relic_status relic_bwm_export_obj(const relic_bwm_mesh *m, const char *title, relic_buf *out, relic_error *err);

/** What the SVG draws besides the faces (all optional: zero counts for a
 *  PWK/DWK). edges: boundary edges (id = 3*face+side) with their
 *  transitions; perimeters: cumulative edge counts ending each loop. */
typedef struct relic_bwm_svg_tables {
    uint32_t walkable_count;         /**< leading walkable faces (edges must lie on them) */
    const relic_bwm_edge_rec *edges; /**< may be NULL when edge_count is 0 */
    uint32_t edge_count;
    const uint32_t *perimeters; /**< may be NULL when perimeter_count is 0 */
    uint32_t perimeter_count;
} relic_bwm_svg_tables;

/** Append a standalone SVG document to out: a top-down view of m (x to the
 *  right, y up), scaled so the larger extent is 800 px, with a margin.
 *  Faces are filled by material (a fixed palette for the named materials,
 *  distinct hues for other ids); non-walkable faces in a lighter tint with
 *  a hatch; every face outlined thinly. Perimeter loops are thick dark
 *  lines; edges with a transition are drawn in magenta with the room index
 *  as a label. A legend lists each material present (id, name, walkable or
 *  not, face count) and the line styles; the title line is title (may be
 *  NULL) with the counts. Text is XML-escaped. Vertices that are not
 *  finite are left out of the bounds and their faces are not drawn.
 *  Errors: RELIC_E_INDEX (a face names a vertex past vertex_count, an edge
 *  lies past walkable_count), RELIC_E_LAYOUT (perimeters decrease or pass
 *  the edge count), RELIC_E_NOMEM (out could not grow), RELIC_E_ARGUMENT. */
relic_status relic_bwm_export_svg(const relic_bwm_mesh *m, const relic_bwm_svg_tables *tables, const char *title,
                                  relic_buf *out, relic_error *err);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_BWM_EXPORT_H */
