/* relic_swp.h — Trespasser texture pixels: the rasters a PID directory
 * describes, read from the level's SWP swap file (or its LZSS-compressed
 * SPZ, decoded as a stream), decoded to RGBA and written as PNG; and the
 * reverse, a PID + SWP built from RGBA images (palette quantisation, mip
 * levels, 4444 colour for alpha textures).
 *
 * Sources: Trespasser source, Lib/Loader/ImageLoader.cpp (PID raster chunks, SWP = decompressed
 * SPZ), Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp (texture IDs and mip-level keys), Trespasser source, Source/Tools/LZSS/LZSS.cpp, Lib/Loader/ImageLoader.cpp (SPZ); Trespasser file formats, "PID
 * ENTRY" (bit depths, pixel layouts, transparency, mip levels until a side
 * is below 16) and "SWP" (non-pageable section first, 512-byte-wide pages).
 * Facts the game's source was not traced for (an open question of the reference implementations) follow
 * the community readers: rows are stored bottom-up (the first SWP row is
 * the bottom row of the image), bump-mapped pixels hold the palette index
 * in bits 10-15, and 16-bit colour pixels are B, G, R, A, 4 bits each from
 * the low bits up (Trespasser file formats).
 *
 * Raster kinds (relic_swp_kind):
 *   INDEXED:   8 bits per pixel, an index into the raster's palette; with a
 *              non-zero `transparent`, index 0 is fully transparent.
 *   COLOUR4444: 16 bits, no palette: B bits 0-3, G 4-7, R 8-11, A 12-15.
 *   BUMP:      16 bits with a palette (bump_map 16, or 1 "curved"): bits
 *              0-3 the elevation of the surface normal (0 flat, 15 at right
 *              angles), bits 4-9 its azimuth (0-63), bits 10-15 the palette
 *              index (index 0 transparent when `transparent` is non-zero).
 *
 * RGBA images are 8 bits per channel, top row first, w * 4 bytes a row.
 * Bump angles leave the colour PNG as a second image (relic_swp_bump):
 * R = azimuth * 4, G = elevation * 17, B = 0, A = 255, a lossless mapping
 * that relic_swp_pack reads back. */
#ifndef RELIC_SWP_H
#define RELIC_SWP_H

#include "relic.h"
#include "relic_groff.h"
#include "relic_lzss.h"

/** Trespasser texture swap file, LZSS-compressed (.spz) or raw (.swp): relic_detect finds it by extension (runtime/formats/detect.c). */
extern const relic_format_info relic_format_spz;
#define RELIC_FORMAT_SPZ (&relic_format_spz)

#ifdef __cplusplus
extern "C" {
#endif

/** The pixel layouts of SWP rasters (see the file comment). */
typedef enum relic_swp_kind {
    RELIC_SWP_INDEXED = 1,    /**< 8-bit palette index */
    RELIC_SWP_COLOUR4444 = 2, /**< 16-bit B,G,R,A 4 bits each */
    RELIC_SWP_BUMP = 3        /**< 16-bit: elevation, azimuth, palette index */
} relic_swp_kind;

/** `transparent` value the game's files use for 8-bit and 16-bit colour
 *  rasters, and for bump-mapped ones (Trespasser file formats). */
#define RELIC_SWP_TRANSPARENT_COLOUR 8
#define RELIC_SWP_TRANSPARENT_BUMP 1
/** `bump_map` value of a palettised bump map (the Trespasser file-formats document image type 16). */
#define RELIC_SWP_BUMP_PALETTISED 16
/** Largest palette of a bump-mapped raster: 6 index bits. */
#define RELIC_SWP_BUMP_COLOURS 64u
/** Mip levels are made while both sides are at least this (Trespasser file formats). */
#define RELIC_SWP_MIP_MIN_SIDE 16u
/** Largest raster side relic decodes or builds (10 bits of a mip key). */
#define RELIC_SWP_MAX_SIDE 1024u
/** "No palette" in a raster chunk. */
#define RELIC_SWP_NO_PALETTE 0xFFFFFFFFu

/** The palettes of a validated PID, located once (chunks have variable
 *  size). colours[i] points at palette i's first colour (B,G,R,flags). */
typedef struct relic_swp_palettes {
    const uint8_t **colours; /**< per palette: its first colour */
    uint32_t *count;         /**< per palette: colours_used */
    size_t n;                /**< palettes */
} relic_swp_palettes;

/** Locate the palettes of a validated PID (arrays from arena a).
 *  Errors: RELIC_E_NOMEM. */
relic_status relic_swp_palettes_find(const relic_pid_view *v, relic_arena *a, relic_swp_palettes *out,
                                     relic_error *err);

/** The kind of raster r. Errors: RELIC_E_RANGE (bits_per_pixel neither 8
 *  nor 16, path "rasters[i].bits_per_pixel"), RELIC_E_INDEX (a palettised
 *  raster without a palette, "rasters[i].palette"); offsets in the PID. */
relic_status relic_swp_raster_kind(const relic_pid_view *v, size_t i, relic_swp_kind *kind, relic_error *err);

/** The SWP bytes raster i occupies: [*start, *end), rows of `stride`
 *  bytes, the last one only as long as its pixels. Errors: as
 *  relic_swp_raster_kind; RELIC_E_RANGE for a side of 0 or above
 *  RELIC_SWP_MAX_SIDE, or a stride too short for a row ("rasters[i].width",
 *  ".height", ".stride"). */
relic_status relic_swp_raster_extent(const relic_pid_view *v, size_t i, uint64_t *start, uint64_t *end,
                                     relic_error *err);

/** Decode raster i to RGBA (width * height * 4 bytes at rgba). swp holds
 *  the SWP bytes [base, base + size); the raster must lie inside them
 *  (RELIC_E_TRUNCATED, "rasters[i].swp_offset", offset in the PID). A
 *  palette index at or past the palette's colours is RELIC_E_INDEX naming
 *  the pixel ("rasters[i].pixels[y][x]") with its SWP offset. */
relic_status relic_swp_raster_rgba(const relic_pid_view *v, const relic_swp_palettes *pal, size_t i,
                                   const uint8_t *swp, uint64_t base, size_t size, uint8_t *rgba, relic_error *err);

/** The bump angles of a BUMP raster i as an RGBA image (R = azimuth * 4,
 *  G = elevation * 17, B = 0, A = 255). Errors as relic_swp_raster_rgba;
 *  RELIC_E_ARGUMENT when the raster is not BUMP. */
relic_status relic_swp_bump(const relic_pid_view *v, size_t i, const uint8_t *swp, uint64_t base, size_t size,
                            uint8_t *rgba, relic_error *err);

/** Called by relic_swp_walk for each raster, in order of the SWP offset
 *  where the raster ends; swp holds SWP bytes [base, base + size), which
 *  contain the raster. A status other than RELIC_OK stops the walk. */
typedef relic_status (*relic_swp_raster_fn)(void *ctx, size_t raster, const uint8_t *swp, uint64_t base, size_t size,
                                            relic_error *err);

/** Visit every raster of a validated PID whose pixels come from data:
 *  an SWP (spz = 0: data is the whole SWP, nothing is copied) or an SPZ
 *  file (spz = 1: u32 size + LZSS stream, decoded with the streaming
 *  decoder into a sliding window that holds only the bytes still needed,
 *  at most the largest span of overlapping rasters plus 64 KiB, from arena
 *  a). Rasters are checked (relic_swp_raster_extent) before any decoding.
 *  Errors: as the raster checks and the LZSS decoder; RELIC_E_TRUNCATED
 *  when a raster ends past the SWP; RELIC_E_LIMIT when the window would
 *  pass limit bytes; RELIC_E_NOMEM. */
relic_status relic_swp_walk(const relic_pid_view *v, const uint8_t *data, size_t size, int spz, uint64_t limit,
                            relic_arena *a, relic_swp_raster_fn fn, void *ctx, relic_error *err);

/* ---------------------------------------------------------------------- */
/* PNG (libpng)                                                            */
/* ---------------------------------------------------------------------- */

/** An RGBA image, 8 bits per channel, top row first. */
typedef struct relic_image {
    uint32_t width, height;
    uint8_t *rgba; /**< width * height * 4 bytes */
} relic_image;

/** Append an 8-bit RGBA PNG of w x h pixels to out. Errors: RELIC_E_NOMEM,
 *  RELIC_E_IO (libpng failed). */
relic_status relic_png_write_rgba(const uint8_t *rgba, uint32_t w, uint32_t h, relic_buf *out, relic_error *err);

/** Read any PNG (palette, grey, 16-bit, with or without alpha, interlaced)
 *  as 8-bit RGBA from arena a; sides above max_side are RELIC_E_LIMIT.
 *  Errors: RELIC_E_MAGIC (not a PNG), RELIC_E_SYNTAX (libpng's message),
 *  RELIC_E_NOMEM. */
relic_status relic_png_read_rgba(const uint8_t *data, size_t size, uint32_t max_side, relic_arena *a,
                                 relic_image *out, relic_error *err);

/* ---------------------------------------------------------------------- */
/* Building a PID and SWP                                                  */
/* ---------------------------------------------------------------------- */

/** One texture to pack. */
typedef struct relic_swp_texture {
    uint32_t id;             /**< texture ID (relic_tres_texture_id), low 32 bits of every key */
    relic_image image;       /**< its top level */
    const relic_image *bump; /**< NULL, or bump angles as relic_swp_bump writes them (same size) */
    int occlusion;           /**< non-zero: an occlusion texture (0x02000000 in the chunk) */
} relic_swp_texture;

/** Build a PID model and its SWP from textures (Trespasser source, Lib/Loader/ImageLoader.cpp, Trespasser file formats):
 *  - alpha other than 0 and 255 anywhere: COLOUR4444, no palette;
 *  - a bump image: BUMP with a palette of at most 64 colours;
 *  - otherwise INDEXED with a palette of at most 256 colours;
 *  fully transparent pixels (alpha 0) of palettised rasters use index 0,
 *  and the raster's `transparent` is set. A palette holds the texture's
 *  exact colours when they fit; otherwise relic_palette_quantize
 *  (relic_palette.h: median cut, then k-means) chooses them.
 *  Mip levels (2x2 box filter) are made while both sides are at least 16
 *  and keyed per Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp (palette hash: CRC-32 of the palette's colour
 *  bytes, relic's choice; the game's hash function was not traced).
 *  Layout: the smallest level of every texture first (the non-pageable
 *  section), then the other levels from the next 64 KiB boundary; rasters
 *  whose rows are a power of two of at most 1024 bytes go in pages of 512
 *  (or 1024) bytes a row and 256 rows (stride = the page width), others
 *  row after row. The model's arrays come from arena a, the SWP is
 *  appended to swp. Errors: RELIC_E_RANGE (a side of 0 or above 1024;
 *  bump size differs; duplicate IDs, with "textures[i]" paths),
 *  RELIC_E_NOMEM, RELIC_E_LIMIT (SWP over 4 GiB). */
relic_status relic_swp_pack(const relic_swp_texture *textures, size_t n, relic_arena *a, relic_pid_file *pid,
                            relic_buf *swp, relic_error *err);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_SWP_H */
