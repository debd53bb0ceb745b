/* relic_trn.h — NWN2 TRN/TRX packet files and the ASWM walkmesh: the
 * hand-written half. The layout, validator, model, writer and JSON of the
 * container, and the decoder of the decompressed ASWM (version 0x6C), come
 * from schema/nwn2/trn.schema -> generated/nwn2/trn.h. This header adds the
 * rules a schema cannot say: the packet directory pointing at its packets,
 * the re-layout of directory offsets and packet sizes before writing, and
 * the ASWM index and tile rules. Sources: nwn-lib-d, trn.d, trn.d validate; NWN2DataLib, TrxFileReader.cpp; Charles, NWN2 TRN.ASWM packet structure (TRN.ASWM). */
#ifndef RELIC_TRN_H
#define RELIC_TRN_H

#include "relic.h"
#include "trn.h"
#include "trrn.h"
#include "watr.h"

/** Version words of every known TRN/TRX header (xoreos, NWN2DataLib). */
#define RELIC_TRN_VERSION_MAJOR 2u
#define RELIC_TRN_VERSION_MINOR 3u

/** 1 when data starts like a TRN/TRX: "NWN2" and version words 2 and 3
 *  (an MDB model shares the magic with other words). The `detect` hook of
 *  schema/nwn2/trn.schema. No errors; data may be any bytes. */
int relic_trn_detect(const uint8_t *data, size_t size);

#ifdef __cplusplus
extern "C" {
#endif

/** Container rules of a validated file (nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp): each
 *  directory entry i holds packet i's FourCC and the file offset of its
 *  packet header (packets lie back to back after the directory, in
 *  directory order: the only layout the schema reads), and no bytes follow
 *  the last packet. Returns the number of problems reported. */
unsigned relic_trn_check_container(const relic_trn_view *v, relic_report_fn report, void *ctx);

/** Refill the layout fields of a model so that relic_trn_write produces a
 *  consistent file: each packet's size from its payload (12 for TRWH, 12 +
 *  zlib bytes for ASWM, the byte count otherwise), each ASWM's
 *  compressed_size, and each directory entry's type and offset from the
 *  packets in order (header 12 bytes, directory 8 per entry, packets back
 *  to back). The directory array is resized to the packet count from arena
 *  a when they differ. Errors: RELIC_E_LIMIT when the file would exceed
 *  4 GiB; RELIC_E_NOMEM. */
relic_status relic_trn_layout(relic_trn_file *m, relic_arena *a, relic_error *err);

/** Rules of a decoded ASWM walkmesh (nwn-lib-d, trn.d validate; NWN2DataLib
 *  (Skywing) validate): every vertex coordinate finite (RELIC_E_RANGE at its
 *  offset in the decompressed version-0x6C walkmesh, 0 for older layouts;
 *  path vertices[i].x); edge and triangle indices in range; triangle island
 *  0xFFFF or below island_count (when islands exist); tile count =
 *  grid_width x grid_height, tiles_width positive and finite; tiles cover the triangle
 *  array contiguously, in order, without overlap (triangles_offset is the
 *  running sum of triangles_count, which ends at triangle_count);
 *  local_to_node empty or one entry per tile triangle; nodes = node count
 *  squared; node entries 0xFF or (entry & 0x7F) below the node count;
 *  local_to_node entries 0xFF or below the node count; node_to_local
 *  entries below the tile's triangle count; island index equals its
 *  position; adjacent islands 0xFFFF or in range; exit triangles in range;
 *  island path table next 0xFFFF or in range. path is prefixed to every
 *  field path. Returns the number of problems reported (at most
 *  max_reports are reported; counting goes on). */
unsigned relic_trn_check_aswm(const relic_trn_aswm *w, const char *path, unsigned max_reports,
                              relic_report_fn report, void *ctx);

/* ---- ASWM writing (runtime/formats/nwn2/trn_aswm_write.c) ---- */

/** zlib level that reproduces the toolset's ASWM streams: 6 (zlib's
 *  default) with windowBits 15, memLevel 8 and the default strategy; every
 *  corpus TRN/TRX re-compresses to its own bytes with it. */
#define RELIC_TRN_ASWM_ZLIB_LEVEL 6

/** Serialise a walkmesh model as the decompressed ASWM payload, version
 *  0x6C (nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp), appending to out. Counts are taken from the
 *  array lengths (vertex/edge/triangle/island counts, path-table lengths);
 *  the version is always written as 0x6C and the header's owns_data as 1.
 *  Errors: RELIC_E_ARGUMENT when tiles_count differs from grid_width x
 *  grid_height, a tile's nodes from its node count squared, an island's
 *  three lists differ in length or the island path table from the island
 *  count squared; RELIC_E_LIMIT when a tile has over 255 nodes or the
 *  payload exceeds 4 GiB; RELIC_E_NOMEM. */
relic_status relic_trn_aswm_write(const relic_trn_aswm *w, relic_buf *out, relic_error *err);

/** Serialise w (relic_trn_aswm_write) and deflate it at zlib level `level`
 *  (RELIC_TRN_ASWM_ZLIB_LEVEL reproduces the toolset's bytes) into packet
 *  p: type ASWM, "COMP", both sizes, payload size and the zlib bytes
 *  (allocated from a, as are the raw bytes and zlib's deflate state: about
 *  2.2 x the raw walkmesh + RELIC_CODEC_ZLIB_ENCODE_SCRATCH; no heap).
 *  Other fields of p are left alone. Errors: those of
 *  relic_trn_aswm_write, RELIC_E_ARGUMENT (bad level), RELIC_E_NOMEM. */
relic_status relic_trn_aswm_pack(const relic_trn_aswm *w, int level, relic_arena *a, relic_trn_packet *p, relic_error *err);

/** Default `limit` of relic_trn_aswm_read for untrusted input: 16 MiB of
 *  decompressed walkmesh, four times the largest real one seen (4.3 MB, a
 *  3.9 MB NWN2 toolset TRX). With it no TRN under 1 MB takes more than
 *  1 s of CPU or 64 MiB of memory (docs/security.md). */
#define RELIC_TRN_ASWM_DEFAULT_LIMIT ((uint64_t)16 << 20)

/** Inflate and decode the walkmesh of ASWM packet p (version 0x6C, or
 *  0x69-0x6B through relic_trn_aswm_legacy_decode) into arena a, refusing
 *  before anything is allocated a declared decompressed size over `limit`
 *  bytes (RELIC_E_LIMIT; RELIC_TRN_ASWM_DEFAULT_LIMIT suits untrusted
 *  input) or over what the compressed bytes can hold at deflate's 1032:1
 *  (RELIC_E_LAYOUT). The walkmesh is inflated once, into one buffer of the
 *  declared size, and decoded as the version its first word names. The
 *  inflate is capped by the declared size: a stream holding more or fewer
 *  bytes is rejected (runtime/codec/codec_zlib.c). Errors: RELIC_E_LIMIT;
 *  RELIC_E_LAYOUT; zlib's (RELIC_E_RANGE, RELIC_E_TRUNCATED); those of
 *  relic_trn_packet_aswm_decode_bytes or relic_trn_aswm_legacy_decode
 *  (paths prefixed by aswm; offsets inside the decompressed walkmesh). */
relic_status relic_trn_aswm_read(const relic_trn_packet *p, uint64_t limit, relic_arena *a, relic_trn_aswm *out, relic_error *err);

/** relic_trn_aswm_read over the parts of an ASWM packet rather than a
 *  decoded packet: z_size bytes of zlib stream at z (read in place, e.g.
 *  in a mapped file; not copied) that must inflate to exactly `size` bytes
 *  (the packet's uncompressed_size). Same limits, errors and paths. */
relic_status relic_trn_aswm_read_bytes(const uint8_t *z, size_t z_size, uint64_t size, uint64_t limit, relic_arena *a,
                                       relic_trn_aswm *out, relic_error *err);

/* ---- re-baking a file in place (runtime/formats/nwn2/trn_splice.c) ---- */

/** Where packet `index` of a validated file lies: *pos the file offset of
 *  its 8-byte packet header, *len its whole byte length (8 + size). Packets
 *  lie back to back after the directory, so this walks the packet headers
 *  before it (the validator checked every one). Errors: RELIC_E_ARGUMENT
 *  when index is not below the packet count. */
relic_status relic_trn_packet_span(const relic_trn_view *v, size_t index, size_t *pos, size_t *len, relic_error *err);

/** Read the walkmesh of the first ASWM packet of validated file v straight
 *  from v's bytes (the zlib stream is inflated in place, nothing else of
 *  the file is decoded or copied) into arena a, as relic_trn_aswm_read
 *  does; *index receives the packet's position. Errors: RELIC_E_ARGUMENT
 *  (no ASWM packet, path "packets"); those of relic_trn_aswm_read_bytes
 *  with the path prefixed by packets[i]. */
relic_status relic_trn_view_aswm_read(const relic_trn_view *v, uint64_t limit, relic_arena *a, relic_trn_aswm *out,
                                      size_t *index, relic_error *err);

/** Receives the bytes of a file in order, piece by piece; a status other
 *  than RELIC_OK stops the writing and is returned. */
typedef relic_status (*relic_trn_sink)(void *ctx, const uint8_t *data, size_t size);

/** Write validated file v with its packet `index` replaced by the ASWM
 *  packet p (p->aswm_count zlib bytes at p->aswm, p->uncompressed_size) to
 *  sink: the header as it is, the directory recomputed (each entry's type
 *  and its packet's offset, packets back to back in directory order), the
 *  other packets passed to the sink as pieces of v's own bytes (no copy).
 *  The bytes are those relic_trn_layout + relic_trn_write produce for v's
 *  decoded model with that packet replaced (nwn-lib-d, trn.d; NWN2DataLib,
 *  TrxFileReader.cpp). Errors: RELIC_E_ARGUMENT (index out of range, p
 *  not an ASWM packet), RELIC_E_LIMIT (the file would exceed 4 GiB), the
 *  sink's status. */
relic_status relic_trn_write_replacing(const relic_trn_view *v, size_t index, const relic_trn_packet *p, relic_trn_sink sink,
                                       void *ctx, relic_error *err);

/** Decode size bytes at data as a decompressed ASWM walkmesh of one of the
 *  older versions 0x69, 0x6A, 0x6B (nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp "Older versions";
 *  runtime/formats/nwn2/trn_aswm_legacy.c lists what differs and the departures) into
 *  the version-0x6C model, allocated from a; out->version keeps the
 *  version read (relic_trn_aswm_write writes 0x6C). relic_trn_aswm_read
 *  calls it when the walkmesh's first word names one of these versions. Checks the
 *  layout only (run relic_trn_check_aswm for the index rules). Errors:
 *  RELIC_E_UNSUPPORTED (another version; a tile owning its data),
 *  RELIC_E_TRUNCATED, RELIC_E_MAGIC (owns_data not 1), RELIC_E_RANGE
 *  (compressed path table, island lists of different lengths),
 *  RELIC_E_LAYOUT (v0x69/0x6A node_to_local cannot be rebuilt from
 *  local_to_node; bytes left over), RELIC_E_NOMEM. Offsets are inside data. */
relic_status relic_trn_aswm_legacy_decode(const uint8_t *data, size_t size, relic_arena *a, relic_trn_aswm *out, relic_error *err);

/* ---- zero-copy walkmesh view (runtime/formats/nwn2/trn_aswm_view.c) ---- */

/** A validated decompressed ASWM walkmesh (version 0x6C) read in place:
 *  byte offsets in base of each block (vertices 12 bytes, edges 16,
 *  triangles 64 apiece, as relic_trn_vec3f_view / relic_trn_edge_view /
 *  relic_trn_triangle_view read them), and of every tile and island
 *  record (tile_at, island_at: arrays from the arena). */
typedef struct relic_trn_aswm_view {
    const uint8_t *base;
    size_t size;
    uint32_t version, vertex_count, edge_count, triangle_count;
    uint64_t vertices, edges, triangles;
    uint32_t tiles_flags, grid_height, grid_width, tiles_border_size, island_count;
    float tiles_width;
    size_t tiles_count;
    uint64_t *tile_at, *island_at;
    uint64_t island_path_table;
} relic_trn_aswm_view;

/** Validate size bytes at data as a decompressed ASWM walkmesh, version
 *  0x6C, in one pass: the layout of nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp (nothing may
 *  follow the island path table) and every rule of relic_trn_check_aswm;
 *  the first problem is reported with its byte offset in data and its
 *  field path. It accepts exactly what relic_trn_packet_aswm_decode plus
 *  relic_trn_check_aswm accept. The view's tile and island offset arrays
 *  come from a. Errors: RELIC_E_TRUNCATED, RELIC_E_MAGIC (version, owns_data),
 *  RELIC_E_RANGE, RELIC_E_INDEX, RELIC_E_LAYOUT, RELIC_E_NOMEM. */
relic_status relic_trn_aswm_view_validate(const uint8_t *data, size_t size, relic_arena *a, relic_trn_aswm_view *v, relic_error *err);

/** Triangle i (< triangle_count) of a validated view. */
static inline relic_trn_triangle_view relic_trn_aswm_view_triangle(const relic_trn_aswm_view *v, size_t i)
{
    relic_trn_triangle_view t = {v->base + v->triangles + 64 * i};
    return t;
}

/** Vertex i (< vertex_count) of a validated view. */
static inline relic_trn_vec3f_view relic_trn_aswm_view_vertex(const relic_trn_aswm_view *v, size_t i)
{
    relic_trn_vec3f_view t = {v->base + v->vertices + 12 * i};
    return t;
}

/* ---- strict rules (runtime/formats/nwn2/trn_check_strict.c) ---- */

/** Rules whose violation crashes the game or that toolset-baked files
 *  always keep (nwn-lib-d, trn.d validate strict mode; Charles, NWN2 TRN.ASWM packet structure: "a tile must not
 *  re-use triangles owned by another tile (will crash NWN2)"), checked on
 *  top of relic_trn_check_aswm: no triangle claimed by two tiles (a path
 *  table's node_to_local must stay inside its own tile); a tile's path
 *  table is empty or complete (local_to_node one entry per triangle, 0xFF
 *  exactly for non-walkable triangles, node_to_local and local_to_node
 *  inverse of each other); at most 127 nodes per tile (7-bit next-step
 *  index); linked_edges[i] joins exactly this triangle
 *  and linked_triangles[i]; island 0xFFFF everywhere when there are no
 *  islands but path tables exist (a TRN keeps the toolset's island values
 *  with an empty list); every exit triangle belongs to its island and has a neighbour
 *  in the adjacent island. Scratch: 4 bytes per triangle (+4) from the
 *  caller's arena scratch, nothing from the heap; when it runs out one
 *  problem says so (code RELIC_E_NOMEM) and the check stops. Returns the
 *  number of problems (at most max_reports reported). */
unsigned relic_trn_check_aswm_strict(const relic_trn_aswm *w, const char *path, unsigned max_reports, relic_arena *scratch,
                                     relic_report_fn report, void *ctx);

/* ---- baking (runtime/trn_bake*.c) ---- */

/** Bake options. keep_borders: do not remove the border tiles' triangles
 *  (nwn-lib-d bake(removeBorders = false)). */
typedef struct relic_trn_bake_options {
    int keep_borders;
} relic_trn_bake_options;

/** Bake a walkmesh (TRN, or re-bake a TRX) following nwn-lib-d's algorithm
 *  (nwn-lib-d, trn.d bake): remove the triangles outside the inner
 *  (non-border) box, compact vertices and edges, reorder triangles by tile,
 *  build each tile's path table (shortest paths by summed centre-to-centre
 *  distance over linked walkable triangles inside the tile), find islands,
 *  link them (distances between island centres, first exit triangle per
 *  neighbour) and build the island path table (fewest hops). Departures,
 *  each documented in runtime/formats/nwn2/trn_bake.c: tiles with 127 walkable triangles
 *  are accepted (the toolset writes them), costs are summed in double, the
 *  island `tile` field holds the island's tile index, tiles_flags and
 *  tile_flags are set to 31. Deterministic: the same input gives the same
 *  bytes. out and every scratch table (maps, path search, island lists)
 *  are allocated from a, nothing from the heap: the scratch stays in a
 *  until the caller releases it; in is not modified. Errors:
 *  RELIC_E_LIMIT when a tile has more than 127 walkable triangles or there
 *  are 65535 islands or more; RELIC_E_ARGUMENT when an index is out of
 *  range (validate first) or the tile grid is empty or tiles_width is not
 *  positive; RELIC_E_NOMEM. */
relic_status relic_trn_bake(const relic_trn_aswm *in, const relic_trn_bake_options *opt, relic_arena *a,
                            relic_trn_aswm *out, relic_error *err);

/* ---- path queries (runtime/formats/nwn2/trn_path.c) ---- */

/** The triangle whose 2-D projection contains (x, y) (edges included), or
 *  0xFFFFFFFF. Looks in the point's tile first, then in every triangle;
 *  when several overlap, the walkable one with the lowest index wins. */
uint32_t relic_trn_triangle_at(const relic_trn_aswm *w, double x, double y);

/** A route: triangle indices from the start to the goal triangle, and its
 *  length (sum of the 2-D distances start point -> centres -> goal point). */
typedef struct relic_trn_route {
    uint32_t *triangles;
    size_t count;
    double length;
} relic_trn_route;

/** Route from triangle `from` to triangle `to` using only the baked tables,
 *  as the game does (nwn-lib-d, trn.d; NWN2DataLib, AreaSurfaceMesh.h): the island path table picks the
 *  next island, the current island's exit triangle towards it is reached
 *  with the tile path table, then the neighbour in the next island is
 *  entered; inside the goal island the tile table leads to the goal.
 *  (x1,y1) and (x2,y2) are the end points used for the length. Allocates
 *  only from a (4 bytes per triangle for the triangle-to-tile map, then the
 *  route). Errors: RELIC_E_RANGE when a triangle is out of range or not on
 *  an island, RELIC_E_UNSUPPORTED ("no route") when the island table has no
 *  path between the islands, RELIC_E_LAYOUT when the tables are
 *  inconsistent (a step leads nowhere or loops), RELIC_E_NOMEM. */
relic_status relic_trn_route_find(const relic_trn_aswm *w, uint32_t from, uint32_t to, double x1, double y1, double x2,
                                  double y2, relic_arena *a, relic_trn_route *out, relic_error *err);

/* ---- exports (runtime/export/trn_export.c) ---- */

/** Wavefront OBJ of the walkmesh: every vertex, then the triangles in two
 *  groups, `walkable` and `nonwalkable` (faces wound counter-clockwise seen
 *  from +z). Appends to out; errors: RELIC_E_NOMEM. */
relic_status relic_trn_aswm_obj(const relic_trn_aswm *w, relic_buf *out, relic_error *err);

/** SVG top-down picture (north up, the area scaled to 1000 px): a title
 *  with the counts, walkable triangles filled with a colour per island,
 *  non-walkable triangles grey, the tile grid with column and row labels
 *  (tile (x, y) covers [x*w, (x+1)*w) x [y*w, (y+1)*w): nwn-lib-d, trn.d),
 *  a scale bar in metres, a legend of the fills with their triangle counts,
 *  and the route when route is not NULL. Appends to out; errors:
 *  RELIC_E_NOMEM. */
relic_status relic_trn_aswm_svg(const relic_trn_aswm *w, const relic_trn_route *route, relic_buf *out, relic_error *err);

/* ---- terrain and water packets (runtime/formats/nwn2/trn_terrain.c, trn_terrain_obj.c) ---- */

/** Validate and decode size bytes at data as a TRRN packet payload (one
 *  terrain megatile, nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp; layout schema/nwn2/trrn.schema)
 *  into arena a. The payload must be consumed exactly, no vertex position
 *  may be NaN and every triangle index must be below vertex_count
 *  (nwn-lib-d's rules). The two DDS blend maps are kept as bytes (not
 *  parsed). Offsets in err are inside the payload. Errors: those of
 *  relic_trrn_validate (RELIC_E_TRUNCATED, ...), RELIC_E_LAYOUT (bytes left
 *  over), RELIC_E_RANGE (NaN), RELIC_E_INDEX, RELIC_E_NOMEM. */
relic_status relic_trn_trrn_read(const uint8_t *data, size_t size, relic_arena *a, relic_trrn_file *out, relic_error *err);

/** Validate and decode a WATR packet payload (water of one megatile,
 *  nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp; layout schema/nwn2/watr.schema) into arena a: the
 *  payload consumed exactly, every triangle index below vertex_count.
 *  Offsets in err are inside the payload. Errors: those of
 *  relic_watr_validate, RELIC_E_LAYOUT, RELIC_E_INDEX, RELIC_E_NOMEM. */
relic_status relic_trn_watr_read(const uint8_t *data, size_t size, relic_arena *a, relic_watr_file *out, relic_error *err);

/** Decode every TRRN and WATR packet of m (relic_trn_trrn_read,
 *  relic_trn_watr_read; other packets are left alone) and report each one
 *  that fails, its path prefixed packets[i].trrn / packets[i].watr and its
 *  offset inside the packet payload. Memory from a. Returns the number of
 *  problems reported. */
unsigned relic_trn_check_terrain(const relic_trn_file *m, relic_arena *a, relic_report_fn report, void *ctx);

/** Wavefront OBJ of the terrain: a group terrain_<packet> per TRRN packet
 *  (v, vt from the vertex uv, vn; faces v/vt/vn in stored order) and a
 *  group water_<packet> per WATR packet (v, vt; only the triangles whose
 *  flag is 0, "has water"). Appends to out; decode memory from a. Errors:
 *  those of relic_trn_trrn_read / relic_trn_watr_read (path prefixed
 *  packets[i].trrn / .watr), RELIC_E_UNSUPPORTED when m holds no TRRN or
 *  WATR packet, RELIC_E_NOMEM. */
relic_status relic_trn_terrain_obj(const relic_trn_file *m, relic_arena *a, relic_buf *out, relic_error *err);

/** The terrain (every TRRN megatile) as the colour relief preview
 *  (relic_relief_png, RELIC_RELIEF_COLOUR: hypsometric tint times hill
 *  shading, north up), an 8-bit RGB PNG appended to out. TRRN vertices are
 *  free positions (nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp), so the
 *  triangles are rasterised onto a square-celled grid over their x, y
 *  extent, at most max_side points on the longer side, heights interpolated
 *  in each triangle (millimetre steps); points no triangle covers take the
 *  lowest height. Non-finite vertices are skipped. Memory (the decoded
 *  megatiles and the grid, 5 bytes a point) from a. Errors: those of
 *  relic_trn_trrn_read (path packets[i].trrn), RELIC_E_UNSUPPORTED (no TRRN
 *  packet, or no area), RELIC_E_RANGE (heights beyond 1000 km),
 *  RELIC_E_LIMIT (triangles overlapping more than 64 deep on average: the
 *  time stays linear in the grid), RELIC_E_NOMEM, RELIC_E_IO. */
relic_status relic_trn_terrain_preview_png(const relic_trn_file *m, uint32_t max_side, relic_arena *a, relic_buf *out,
                                           relic_error *err);

#ifdef __cplusplus
}
#endif
#endif
