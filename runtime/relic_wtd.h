/* relic_wtd.h — Trespasser WTD wavelet terrain: the bit container, the
 * header and parameter block (schema/tres/wtd.schema over the logical byte
 * stream), the zerotree of integer wavelet coefficients and the inverse
 * integer lifting transform that turns them into a height grid.
 * Sources: spec/trespasser.md §1.2-1.8; seed 004 "WTD". */
#ifndef RELIC_WTD_H
#define RELIC_WTD_H

#include "relic.h"
#include "wtd.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Logical bit at which the zerotree starts: after the 90-byte header and
 *  parameter block (spec §1.3, §1.6). */
#define RELIC_WTD_TREE_BIT ((uint64_t)RELIC_WTD_WTD_SIZE * 8)
/** Width of the root's branch-size and max-region fields (spec §1.6). */
#define RELIC_WTD_ROOT_FIELD_BITS 30
/** Bytes per word of the bit container; the file length is a multiple of it (spec §1.2). */
#define RELIC_WTD_WORD_BYTES 4

/* ---------------------------------------------------------------------- */
/* Bit reader over the XOR-3 container (runtime/wtd_bits.c)               */
/* ---------------------------------------------------------------------- */

/** A reader of the logical bit stream of a WTD file: logical byte k is file
 *  byte k XOR 3, read most significant bit first (spec §1.2). Never reads
 *  past `size`. Fields are internal; set up with relic_wtd_bits_init. */
typedef struct relic_wtd_bits {
    const uint8_t *data; /* the file bytes */
    uint64_t size_bits;  /* 8 x file size */
    uint64_t pos;        /* next logical bit */
} relic_wtd_bits;

/** Start reading the file data[0..size) at logical bit `pos`. Errors:
 *  RELIC_E_LAYOUT when size is not a multiple of RELIC_WTD_WORD_BYTES (the
 *  container holds whole 32-bit words). */
relic_status relic_wtd_bits_init(relic_wtd_bits *b, const uint8_t *data, size_t size, uint64_t pos,
                                 relic_error *err);

/** Read an n-bit unsigned field (0 <= n <= 32), first bit most significant,
 *  into *out. Errors: RELIC_E_TRUNCATED (offset = file byte of the missing
 *  bit, path = `path`) when the field passes the end; nothing is consumed. */
relic_status relic_wtd_bits_read(relic_wtd_bits *b, unsigned n, uint32_t *out, const char *path,
                                 relic_error *err);

/** The file byte offset that holds logical bit `bit` (for error reports). */
static inline uint64_t relic_wtd_file_offset(uint64_t bit) { return (bit >> 3) ^ 3u; }

/** Index of the highest set bit of v, 0 for 0 (the game's uLog2, spec §1.6). */
static inline unsigned relic_wtd_ulog2(uint32_t v)
{
    unsigned r = 0;
    while (v >>= 1) r++;
    return r;
}

/* ---------------------------------------------------------------------- */
/* Header and parameter block (runtime/wtd_header.c)                      */
/* ---------------------------------------------------------------------- */

/** Read and validate the header and SMapping of the WTD file data[0..size)
 *  into *out: the 90 logical bytes are gathered through the XOR-3 mapping and
 *  checked by the schema's validator (version 1001, square power-of-two quad
 *  extents at most 16384, coordinates within 16 bits), then: the quad->world
 *  X and Y scales are equal, positive and finite, coef_to_world is finite.
 *  Errors carry the field path and the FILE byte offset: RELIC_E_LAYOUT (file
 *  size not whole words), RELIC_E_TRUNCATED, RELIC_E_MAGIC, RELIC_E_RANGE. */
relic_status relic_wtd_read_header(const uint8_t *data, size_t size, relic_wtd_wtd *out, relic_error *err);

/** 1 when data[0..size) looks like a WTD file: whole 32-bit words and a
 *  header and parameter block the schema's validator accepts (version 1001,
 *  square power-of-two quad extents), read through the XOR-3 mapping. Used
 *  by relic_detect. */
int relic_wtd_detect(const uint8_t *data, size_t size);

/* ---------------------------------------------------------------------- */
/* Zerotree and synthesis (runtime/wtd_tree.c, runtime/wtd_lift.c)         */
/* ---------------------------------------------------------------------- */

/** What the zerotree walk found (counts of nodes present in the stream). */
typedef struct relic_wtd_tree_stats {
    uint32_t nodes;            /**< nodes whose significance bit is in the stream, root included */
    uint32_t significant;      /**< of those, significant ones (each has 3 coefficients, 4 children) */
    uint32_t nonzero;          /**< non-zero wavelet coefficients */
    unsigned depth;            /**< deepest level reached below the root (root = 0) */
    uint32_t root_branch_bits; /**< the root's branch size in bits (0 when the root is not significant) */
    uint32_t root_max;         /**< the root's max-region coefficient */
    uint64_t end_bit;          /**< logical bit after the tree */
} relic_wtd_tree_stats;

/** A decoded terrain: an n x n grid of quantised heights (row y, column x,
 *  index y * n + x; quad coordinates start_x + x, start_y + y), world
 *  Z = heights[i] x header.mapping.coef_to_world. */
typedef struct relic_wtd_terrain {
    relic_wtd_wtd header;       /**< header and parameter block */
    uint32_t n;                 /**< grid size N (quad extents size) */
    int32_t *heights;           /**< n x n quantised heights (arena memory) */
    int32_t min, max;           /**< smallest and largest height in the grid */
    relic_wtd_tree_stats stats; /**< what the zerotree held */
} relic_wtd_terrain;

/** Walk the zerotree of a file whose header is h (spec §1.6) and store every
 *  node's three wavelet coefficients at their positions in coef (n x n,
 *  zeroed by the caller; coef[0] receives the root coefficient; coef NULL
 *  checks the tree without storing it, in memory independent of N). Checks: a
 *  significant node has a non-zero max-region not above its parent's, is not
 *  of size 1, every |coefficient| <= its max-region, every branch size equals
 *  the bits its branch occupies. Errors: RELIC_E_TRUNCATED, RELIC_E_RANGE,
 *  RELIC_E_LAYOUT, with the node path (e.g. "tree.c0.c3.c1.w2") and file
 *  byte offset. stats may be NULL. */
relic_status relic_wtd_read_tree(const uint8_t *data, size_t size, const relic_wtd_wtd *h, int32_t *coef,
                                 relic_wtd_tree_stats *stats, relic_error *err);

/** Inverse integer lifting transform (spec §1.7), in place: coef holds the
 *  wavelet coefficients as relic_wtd_read_tree leaves them (n x n, n a power
 *  of two >= 1); afterwards it holds the quantised heights. Arithmetic wraps
 *  at 32 bits as the game's does; it never fails. */
void relic_wtd_synthesise(int32_t *coef, uint32_t n);

/** Decode a whole WTD file into *out: header, zerotree, synthesis, height
 *  range. The grid (4 x N^2 bytes) comes from arena a. Errors: those of
 *  relic_wtd_read_header and relic_wtd_read_tree; RELIC_E_NOMEM. */
relic_status relic_wtd_decode_terrain(const uint8_t *data, size_t size, relic_arena *a, relic_wtd_terrain *out,
                                      relic_error *err);

/** World Z in metres of a quantised height (spec §1.8). */
static inline double relic_wtd_world_z(const relic_wtd_wtd *h, int32_t s)
{
    return (double)s * (double)h->mapping.coef_to_world;
}

/* ---------------------------------------------------------------------- */
/* Heightmap PNG (runtime/wtd_png.c)                                      */
/* ---------------------------------------------------------------------- */

/** A 16-bit greyscale PNG of the terrain appended to out: north (largest Y)
 *  at the top; grey = height - min when max - min <= 65535, else scaled
 *  linearly onto 0..65535. A tEXt chunk "relic-wtd" records the mapping
 *  ("min=.. scale=.. coef_to_world=.."). A row buffer (2 x N bytes) comes
 *  from arena a. Errors: RELIC_E_NOMEM, RELIC_E_IO (libpng failure). */
relic_status relic_wtd_png(const relic_wtd_terrain *t, relic_arena *a, relic_buf *out, relic_error *err);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_WTD_H */
