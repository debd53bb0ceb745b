/* relic_abi.h — plain exported entry points for foreign callers (Python's
 * ctypes, other FFIs): no static inline accessors, no structs, only bytes,
 * format names and plain problem values. The Python package
 * (python/relic/) is the first user. Detection and checks are in librelic
 * (runtime/formats/abi.c), format algorithms too (runtime/formats/abi_algo.c);
 * JSON and writing in librelic-json (runtime/json/abi_json.c). */
#ifndef RELIC_ABI_H
#define RELIC_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One problem, as `relic check` prints it: code (a relic_status value;
 *  relic_status_name names it), byte offset in the input (for a TRX
 *  walkmesh rule: in the inflated ASWM), field path such as "faces[12].v[2]"
 *  ("" when none) and message. The strings live only during the call. */
typedef void (*relic_abi_problem_fn)(void *user, int code, uint64_t offset, const char *path, const char *message);

/** Output bytes handed to the caller (they live only during the call). */
typedef void (*relic_abi_sink_fn)(void *user, const uint8_t *data, size_t size);

/** The short name of the format of data (size bytes; name: a file name for
 *  its extension, or NULL): "bwm", "trn", "gff", ... as relic_detect finds
 *  it (magic first, then extension); NULL when unknown. */
const char *relic_abi_detect(const uint8_t *data, size_t size, const char *name);

/** Check data as format (a relic_abi_detect name) the way `relic check`
 *  does without --strict: the generated validator, then the format's table
 *  rules (BWM: the AABB, adjacency and perimeter rules; TRN/TRX: the
 *  container, each inflated ASWM walkmesh, terrain packets; GFF: the tree
 *  rules of relic_gff_open; ERF/RIM: the archive and each GFF member's tree;
 *  WTD: the parameter block and the zerotree; KEY: relic_key_open's tables;
 *  BIF: the tables and every resource's range, each problem; TLK:
 *  relic_tlk_open; CAU, GROFF, PID, TPA: the validator alone; BioWare Key
 *  and BIF File Formats and Talk Table File Format for KEY, BIF, TLK).
 *  Each problem goes to fn (NULL: counted only). Returns the number
 *  of problems (0: valid), or -1 for a format this entry point does not
 *  check. Scratch memory: a heap arena of at most 1 GiB, released before
 *  return. Source: the formats' documents as docs/references.md lists them. */
int relic_abi_check(const char *format, const uint8_t *data, size_t size, relic_abi_problem_fn fn, void *user);

/** The JSON form of data as `relic dump` prints it (formats "bwm", "trn",
 *  "cau", "pid", "tpa", "key", "bif", "tlk": the schema's JSON; "gff":
 *  nwn_gff's JSON, text as UTF-8 where NWN2's else cp1252; "groff": the
 *  whole-file JSON with each section decoded by kind, relic_grf.h; "erf":
 *  an ERF or RIM container's listing, relic_erf_archive_json, members' bytes
 *  left out: relic_abi_container_write writes them back), handed
 *  whole to sink. Returns 0, or the
 *  number of problems sent to fn (the input does not validate; or -1 for a
 *  format without this entry point). */
int relic_abi_to_json(const char *format, const uint8_t *data, size_t size, relic_abi_sink_fn sink, void *sink_user,
                      relic_abi_problem_fn fn, void *user);

/** The file of format made from JSON text (the form relic_abi_to_json
 *  gives) through the format's C writer: counts, offsets and sizes are
 *  recomputed (TRN's layout pass first), and the written bytes are
 *  validated again before they go to sink. Returns 0, the number of
 *  problems sent to fn (JSON that does not read; a file that does not
 *  validate), or -1 for a format without this entry point. */
int relic_abi_from_json(const char *format, const char *json, size_t size, relic_abi_sink_fn sink, void *sink_user,
                        relic_abi_problem_fn fn, void *user);

/** A container written through relic's C container writers (those of
 *  `relic pack`), for a model of it: json is the container's listing as
 *  `relic dump` prints it (ERF/MOD/HAK/SAV/NWM "format": "erf": file_type,
 *  version, build date, description StrRef, table offsets, localized
 *  strings, file_size, entries [{name, resref, type, id, offset, size}];
 *  RIM "format": "rim"; BIF "format": "bif": header and variable_resources
 *  [{id, offset, file_size, res_type}]), and data[i] (sizes[i] bytes) the
 *  bytes of entry i, n of them, one per listed entry.
 *  Layout: ERF/RIM keep the listing's (tables and data where it says, zeros
 *  up to file_size: an unchanged listing gives the container back byte for
 *  byte) when every entry has an offset and a size equal to sizes[i] and its data
 *  end inside the listing's file_size, falling back to the packed layout when those
 *  positions overlap; BIF keeps each resource at its offset when every
 *  offset lies after the table and every file_size equals sizes[i] (the file
 *  ends with the last datum). Otherwise the packed layout: tables, then the
 *  data back to back in entry order. An ERF/RIM entry may give "name"
 *  (resref.ext, or a decimal type id as extension) instead of "resref" and
 *  "type"; "id" left out is the entry's index. Counts and sizes are the
 *  writer's. The output is validated (relic_erf_open, relic_bif_open: data
 *  ranges included) before it goes to sink. Returns 0, the number of problems
 *  sent to fn (listing that does not read, with its JSON path; n not the
 *  number of entries: RELIC_E_ARGUMENT; output that does not validate), or
 *  -1 when the listing is no ERF, RIM or BIF. Scratch: a heap arena of at
 *  most 1 GiB, released before return. Sources: xoreos, src/aurora/erffile.cpp,
 *  rimfile.cpp; BioWare, "Key and BIF File Formats" 3 (runtime/json/abi_container.c). */
int relic_abi_container_write(const char *json, size_t json_size, const uint8_t *const *data, const uint64_t *sizes, size_t n,
                              relic_abi_sink_fn sink, void *sink_user, relic_abi_problem_fn fn, void *user);

/* ---- format algorithms (runtime/formats/abi_algo.c, librelic) ----
 * Each returns 0 and hands its result to sink, or returns the number of
 * problems sent to fn (input that does not validate, or the step's error
 * with its code, path and offset). Scratch: a heap arena of at most 1 GiB,
 * released before return. */

/** A complete KotOR BWM walkmesh of type (0 placeable/door, 1 area) from
 *  geometry: vertex_count x 3 float32 vertices (metres), face_count x 3
 *  uint32 vertex indices and face_count uint32 surface materials; faces are
 *  reordered walkable first (stable), then normals, planar distances and,
 *  for an area, adjacency, perimeter edges and loops and the AABB tree are
 *  built, written and checked (validator and table rules). Source: PyKotor
 *  wiki, KotOR BWM file format, Derived data; kotorblender, aabb.py. */
int relic_abi_bwm_build(uint32_t type, const float *vertices, uint32_t vertex_count, const uint32_t *faces,
                        const uint32_t *materials, uint32_t face_count, relic_abi_sink_fn sink, void *sink_user,
                        relic_abi_problem_fn fn, void *user);

/** A BWM file (data, size bytes) with the derived tables named by what
 *  (RELIC_BWM_REBUILD_* bits of relic_bwm.h: 1 planes, 2 adjacency, 4 edges
 *  and perimeters, transitions kept by edge id, 8 AABB tree) recomputed
 *  from its vertices, faces and materials; written and checked. */
int relic_abi_bwm_rebuild(const uint8_t *data, size_t size, unsigned what, relic_abi_sink_fn sink, void *sink_user,
                          relic_abi_problem_fn fn, void *user);

/** `relic bake`: the NWN2 TRN/TRX file's ASWM walkmesh baked (border tiles
 *  removed unless keep_borders, triangles by tile, tile path tables,
 *  islands and the island path table), packed at zlib level (-1: the
 *  toolset's 6), the other packets kept; the result passes the ASWM rules,
 *  strict ones included, and the validator. Source: nwn-lib-d, trn.d bake. */
int relic_abi_trn_bake(const uint8_t *data, size_t size, int keep_borders, int level, relic_abi_sink_fn sink,
                       void *sink_user, relic_abi_problem_fn fn, void *user);

/** The NWN2 TRN/TRX file with the walkmesh of its first ASWM packet
 *  replaced by aswm (aswm_size bytes of a decompressed ASWM, version 0x6C,
 *  as relic_trn_aswm_read inflates it), packed at zlib level (-1: the
 *  toolset's 6, which gives an unchanged walkmesh's bytes back), the other
 *  packets kept. The walkmesh must decode (errors with their offset in aswm)
 *  and pass the ASWM rules (problems name the field under "aswm", offset 0). */
int relic_abi_trn_replace_aswm(const uint8_t *data, size_t size, const uint8_t *aswm, size_t aswm_size, int level,
                               relic_abi_sink_fn sink, void *sink_user, relic_abi_problem_fn fn, void *user);

/** `relic path`: the route over a baked TRX's tables from the triangle under
 *  (x1, y1) to the one under (x2, y2) (metres): sink receives its triangle
 *  indices (uint32, in order), *length its length in metres. Errors:
 *  RELIC_E_RANGE (no triangle there), RELIC_E_UNSUPPORTED (no route). Source:
 *  nwn-lib-d, trn.d; NWN2DataLib, AreaSurfaceMesh.h. */
int relic_abi_trn_path(const uint8_t *data, size_t size, double x1, double y1, double x2, double y2,
                       relic_abi_sink_fn sink, void *sink_user, double *length, relic_abi_problem_fn fn, void *user);

/** A Trespasser WTD terrain decoded (zerotree, inverse wavelet): sink
 *  receives n x n int32 quantised heights (index y * n + x), *n the side;
 *  a side above max_n (0: RELIC_WTD_DEFAULT_MAX_N) is refused with
 *  RELIC_E_LIMIT before the grid is allocated. Source: Trespasser source,
 *  Lib/GeomDBase/WaveletDataFormat.cpp. */
int relic_abi_wtd_heights(const uint8_t *data, size_t size, uint32_t max_n, relic_abi_sink_fn sink, void *sink_user,
                          uint32_t *n, relic_abi_problem_fn fn, void *user);

/** A WTD file of n x n int32 heights with the parameter block of the WTD
 *  file like (its quad size must be n); wavelet coefficients with
 *  |w| <= threshold dropped (0: lossless, decoding gives heights back). */
int relic_abi_wtd_encode(const uint8_t *like, size_t like_size, const int32_t *heights, uint32_t n, uint32_t threshold,
                         relic_abi_sink_fn sink, void *sink_user, relic_abi_problem_fn fn, void *user);

/** A Trespasser sample decoded to interleaved int16 PCM (8-bit PCM as
 *  (x - 128) << 8; IMA ADPCM decoded): format "cau" (the file's sample) or
 *  "tpa" (sample index of the bank). info receives sample rate (Hz),
 *  channels and frames. Source: Trespasser source, Lib/Audio/AudioLoad.cpp. */
int relic_abi_audio_pcm(const char *format, const uint8_t *data, size_t size, uint32_t index, relic_abi_sink_fn sink,
                        void *sink_user, uint32_t info[3], relic_abi_problem_fn fn, void *user);

/** One decoded texture raster: its index in the PID directory, its key
 *  (texture id, mip level in the high bits), width, height and
 *  width x height x 4 RGBA bytes, top row first (they live only during
 *  the call). */
typedef void (*relic_abi_raster_fn)(void *user, uint32_t index, uint64_t key, uint32_t width, uint32_t height,
                                    const uint8_t *rgba);

/** The texture rasters of a Trespasser PID directory decoded from their
 *  SWP swap file (spz 0) or its LZSS-compressed SPZ (spz 1, streamed
 *  through a window of at most 256 MiB), each handed to raster in SWP
 *  order. Errors: the PID's validator, the raster checks (RELIC_E_RANGE,
 *  RELIC_E_INDEX with the pixel's path), RELIC_E_TRUNCATED, RELIC_E_LIMIT.
 *  Source: Trespasser source, Lib/Loader/ImageLoader.cpp; Trespasser file
 *  formats, PID ENTRY and SWP. */
int relic_abi_swp_rasters(const uint8_t *pid, size_t pid_size, const uint8_t *swp, size_t swp_size, int spz,
                          relic_abi_raster_fn raster, void *raster_user, relic_abi_problem_fn fn, void *user);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_ABI_H */
