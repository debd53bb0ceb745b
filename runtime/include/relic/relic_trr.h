/* relic_trr.h — Trespasser TRR terrain source text: a point cloud, one
 * "X Y Z" triple of world coordinates (metres) per point, separated by white
 * space (Trespasser source, Lib/GeomDBase/TerrainLoad.cpp; Trespasser file formats, "TRR – Terrain";
 * TerrainLoad.cpp 391-412, 525-548), and its resampling onto the square
 * power-of-two grid a WTD holds (Trespasser source, Lib/GeomDBase/WaveletConv.cpp, Lib/GeomDBase/WaveletQuadTreeQuery.cpp). Reader:
 * runtime/formats/tres/trr_lexer.re (re2c); writer: runtime/formats/tres/trr_write.c; grid:
 * runtime/formats/tres/trr_grid.c. */
#ifndef RELIC_TRR_H
#define RELIC_TRR_H

#include "relic.h"
#include "relic_wtd.h"

/** Trespasser terrain point-cloud text (.trr), known by extension: relic_detect finds it by extension (runtime/formats/detect.c). */
extern const relic_format_info relic_format_trr;
#define RELIC_FORMAT_TRR (&relic_format_trr)

#ifdef __cplusplus
extern "C" {
#endif

/** A TRR point cloud. */
typedef struct relic_trr_points {
    double (*points)[3]; /**< world X, Y, Z in metres, file order */
    size_t count;
} relic_trr_points;

/** Parse the TRR text data[0..size) into *out (arrays from arena a). file
 *  names the input in messages (NULL: "<text>"). Errors, message
 *  "FILE:LINE:COL: ...", offset the token's byte offset: RELIC_E_SYNTAX
 *  (something other than a number, a point with fewer than 3 coordinates at
 *  the end), RELIC_E_UNSUPPORTED (a first value of -1: the obsolete TRR
 *  format the game's importer also refuses), RELIC_E_RANGE (a coordinate
 *  outside the double range), RELIC_E_NOMEM. On error *out is zeroed. */
relic_status relic_trr_parse(const char *file, const uint8_t *data, size_t size, relic_arena *a,
                             relic_trr_points *out, relic_error *err);

/** Append one "X Y Z" line per point (shortest decimal text that reads back
 *  exactly). Errors: RELIC_E_NOMEM. */
relic_status relic_trr_write(const relic_trr_points *p, relic_buf *out, relic_error *err);

/** A point cloud resampled onto a WTD grid (relic_trr_to_grid). */
typedef struct relic_trr_grid {
    uint32_t n;                /**< grid size (power of two) */
    uint32_t width, height;    /**< columns and rows the points span */
    int32_t *heights;          /**< n x n quantised heights, index y * n + x */
    relic_wtd_mapping mapping; /**< the parameter block for these heights */
    double res;                /**< metres per grid step */
    size_t cells_with_points;  /**< cells of the width x height region that received a point */
    size_t points_merged;      /**< points that fell into an already occupied cell (averaged) */
} relic_trr_grid;

/** Largest |height| relic_trr_to_grid takes, metres (far beyond any terrain;
 *  keeps sums of heights finite). */
#define RELIC_TRR_MAX_HEIGHT 1e30

/** Resample points onto a grid as GUIApp's importer does (Trespasser source, Lib/GeomDBase/WaveletConv.cpp):
 *  res = the finest spacing between distinct X or Y values, at most 1 m,
 *  snapped to a multiple of 1/8 m; the grid starts at the smallest X and Y;
 *  each point goes to its nearest grid vertex (points of one vertex are
 *  averaged); vertices without a point, and the padding up to the power of
 *  two, get the average of the nearest coarser block that has points; Z is
 *  quantised to 16 bits: S = round(z x 2^16 / max_height), max_height =
 *  max |z| when 0 is passed. Memory (about 14 x n^2 bytes) from arena a.
 *  Errors: RELIC_E_ARGUMENT (no points, max_height negative), RELIC_E_RANGE
 *  (a height beyond +-RELIC_TRR_MAX_HEIGHT), RELIC_E_LIMIT (the grid would
 *  exceed RELIC_WTD_MAX_N), RELIC_E_NOMEM. */
relic_status relic_trr_to_grid(const relic_trr_points *p, double max_height, relic_arena *a, relic_trr_grid *out,
                               relic_error *err);

#ifdef __cplusplus
}
#endif
#endif
