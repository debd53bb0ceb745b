/* relic_groff.h — Trespasser's GROFF container (.grf levels, .scn scenes,
 * savegames) and PID texture directories: what the schemas
 * (schema/tres/groff.schema, schema/tres/pid.schema; generated/tres/) cannot
 * say. Opening SZDD-compressed GRFs, the container rules between the
 * directory, the section data and the symbol table, section names, the
 * layout of an edited model, and the PID rules between rasters, palettes
 * and keys. Facts: Trespasser source, Lib/Groff/FileIO.cpp, Lib/Loader/ImageLoader.cpp, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp; Trespasser file formats. */
#ifndef RELIC_GROFF_H
#define RELIC_GROFF_H

#include "groff.h"
#include "pid.h"
#include "relic.h"

#ifdef __cplusplus
extern "C" {
#endif

/** GROFF magic (bytes BE BA CE 0A), the header's first u32 (Trespasser source, Lib/Groff/FileIO.cpp). */
#define RELIC_GROFF_MAGIC 0x0ACEBABEu
/** Section handles are this plus the directory index (Trespasser source, Lib/Groff/FileIO.cpp). */
#define RELIC_GROFF_SECTION_HANDLE_BASE 0x80000000u
/** PID version (Trespasser source, Lib/Loader/ImageLoader.cpp). */
#define RELIC_PID_VERSION 0x130u
/** PID bump-map depth of the shipped build (Trespasser source, Lib/Loader/ImageLoader.cpp). */
#define RELIC_PID_BUMP_DEPTH 16u
/** Largest decompressed GRF relic accepts from an SZDD file (bytes). */
#define RELIC_GROFF_MAX_DECOMPRESSED ((uint64_t)1 << 30)

/** The GROFF bytes of a file: data itself when it is a plain GROFF, else
 *  the decompressed contents of an SZDD file (from arena a, at most
 *  RELIC_GROFF_MAX_DECOMPRESSED bytes); *compressed says which. Errors:
 *  those of relic_lzss_container_decode (offsets in the SZDD file). */
relic_status relic_groff_open(const uint8_t *data, size_t size, relic_arena *a, relic_bytes *out, int *compressed,
                              relic_error *err);

/** The rules of a validated GROFF the schema cannot state (Trespasser source, Lib/Groff/FileIO.cpp):
 *  file_size is the input size and the symbol table ends the file; every
 *  section's data lies inside the data region; section handles are
 *  0x80000000 + index; symbol handles are unique and every section name is
 *  one of them; names are NUL-terminated with no NUL inside; a section's
 *  name holds no control byte or path separator and is not "." or ".."
 *  (relic_member_name_problem; sections[i].name at the offending byte of
 *  the symbol). With strict, also what the game's writer always does:
 *  sections back to back in directory order, symbols sorted by name, flags
 *  0x0C, reserved words 0; and section names a tool should not write
 *  (relic_member_name_problem's strict rules). Uses 12 bytes per symbol
 *  from scratch (when that fails: one RELIC_E_NOMEM
 *  problem). Returns the number of problems (each reported with path and
 *  offset). */
unsigned relic_groff_check(const relic_groff_view *v, int strict, relic_arena *scratch, relic_report_fn report,
                           void *ctx);

/** Name of section i of a decoded model (the first symbol whose handle is
 *  the section's name handle; Trespasser source, Lib/Groff/FileIO.cpp), or
 *  NULL when no symbol has that handle. Scans the symbol table: O(symbols)
 *  per call, so a loop over every section wants
 *  relic_groff_model_section_names. */
const char *relic_groff_model_section_name(const relic_groff_file *m, size_t i);

/** The names of every section of a decoded model at once: (*names)[i] is
 *  exactly what relic_groff_model_section_name(m, i) returns (NULL when no
 *  symbol has the handle; the first symbol when handles repeat), found by
 *  sorting the symbols by handle once and a binary search per section:
 *  O(symbols log symbols + sections log symbols) instead of sections x
 *  symbols. The array (8 bytes per section) and the index (16 bytes per
 *  symbol, sort scratch included) come from arena a; the names point into
 *  m. Errors: RELIC_E_NOMEM; RELIC_E_LIMIT past 2^32 - 1 symbols. */
relic_status relic_groff_model_section_names(const relic_groff_file *m, relic_arena *a, const char ***names,
                                             relic_error *err);

/** Data of section i of a decoded model (its bytes inside m->data). The
 *  model must come from a checked file or relic_groff_layout. */
relic_bytes relic_groff_model_section_data(const relic_groff_file *m, size_t i);

/** After an edit (sections' sizes, data or names changed), recompute what
 *  the writer keeps from the model: each section's data_offset (back to
 *  back after the directory, in directory order, from the data_size
 *  values; m->data must hold them in that order), section handles, and
 *  header.file_size. Errors: RELIC_E_ARGUMENT when the sections' sizes do
 *  not add up to data_count; RELIC_E_LIMIT above 4 GiB. */
relic_status relic_groff_layout(relic_groff_file *m, relic_error *err);

/** The rules of a validated PID the schema cannot state (Trespasser source, Lib/Loader/ImageLoader.cpp, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp):
 *  every raster's rows (stride x height bytes, stride >= width x bytes per
 *  pixel) and a palettised raster's palette; with strict, what every known
 *  file keeps: mip-level keys carry the raster's width, height and its
 *  palette's hash fold, top-level keys have the upper 32 bits 0, palette
 *  chunks are 16 + 4 x colours bytes. Uses 4 bytes per palette from
 *  scratch. Returns the number of problems. */
unsigned relic_pid_check(const relic_pid_view *v, int strict, relic_arena *scratch, relic_report_fn report,
                         void *ctx);

#ifdef __cplusplus
}
#endif
#endif
