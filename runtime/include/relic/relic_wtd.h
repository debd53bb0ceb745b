/* relic_wtd.h — Trespasser WTD wavelet terrain: the bit container, the
 * header and parameter block (schema/tres/wtd.schema over the logical byte
 * stream), the zerotree of integer wavelet coefficients and the inverse
 * integer lifting transform that turns them into a height grid.
 * Sources: Trespasser source, Lib/Sys/BitBuffer.cpp, Lib/GeomDBase/WaveletQuadTreeQuery.cpp; Trespasser file formats, "WTD". */
#ifndef RELIC_WTD_H
#define RELIC_WTD_H

#include "relic.h"
#include "wtd.h"
#include "relic_tri.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Logical bit at which the zerotree starts: after the 90-byte header and
 *  parameter block (Trespasser source, Lib/GeomDBase/WaveletDataFormat.cpp). */
#define RELIC_WTD_TREE_BIT ((uint64_t)RELIC_WTD_FILE_SIZE * 8)
/** Width of the root's branch-size and max-region fields (Trespasser source, Lib/GeomDBase/WaveletDataFormat.cpp). */
#define RELIC_WTD_ROOT_FIELD_BITS 30
/** Tree levels with nodes of size >= 2 for the largest grid: log2(16384). */
#define RELIC_WTD_MAX_LEVELS 14
/** Bytes per word of the bit container; the file length is a multiple of it (Trespasser source, Lib/Sys/BitBuffer.cpp). */
#define RELIC_WTD_WORD_BYTES 4

/* ---------------------------------------------------------------------- */
/* Bit reader over the XOR-3 container (runtime/formats/tres/wtd_bits.c)      */
/* ---------------------------------------------------------------------- */

/** A reader of the logical bit stream of a WTD file: logical byte k is file
 *  byte k XOR 3, read most significant bit first (Trespasser source, Lib/Sys/BitBuffer.cpp). Never reads
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

/** Index of the highest set bit of v, 0 for 0 (the game's uLog2, Trespasser source, Lib/GeomDBase/WaveletDataFormat.cpp). */
static inline unsigned relic_wtd_ulog2(uint32_t v)
{
    unsigned r = 0;
    while (v >>= 1) r++;
    return r;
}

/* ---------------------------------------------------------------------- */
/* Header and parameter block (runtime/formats/tres/wtd_header.c)             */
/* ---------------------------------------------------------------------- */

/** Read and validate the header and SMapping of the WTD file data[0..size)
 *  into *out: the 90 logical bytes are gathered through the XOR-3 mapping and
 *  checked by the schema's validator (version 1001, square power-of-two quad
 *  extents at most 16384, coordinates within 16 bits), then: the quad->world
 *  X and Y scales are equal, positive and finite, coef_to_world is finite.
 *  Errors carry the field path and the FILE byte offset: RELIC_E_LAYOUT (file
 *  size not whole words), RELIC_E_TRUNCATED, RELIC_E_MAGIC, RELIC_E_RANGE. */
relic_status relic_wtd_read_header(const uint8_t *data, size_t size, relic_wtd_file *out, relic_error *err);

/** 1 when data[0..size) looks like a WTD file: whole 32-bit words and a
 *  header and parameter block the schema's validator accepts (version 1001,
 *  square power-of-two quad extents), read through the XOR-3 mapping. Used
 *  by relic_detect. */
int relic_wtd_detect(const uint8_t *data, size_t size);

/* ---------------------------------------------------------------------- */
/* Zerotree and synthesis (runtime/formats/tres/wtd_tree.c, runtime/formats/tres/wtd_lift.c) */
/* ---------------------------------------------------------------------- */

/** What the zerotree walk found (counts of nodes present in the stream). */
typedef struct relic_wtd_tree_stats {
    uint32_t nodes;                                       /**< nodes whose significance bit is in the stream, root included */
    uint32_t significant;                                 /**< of those, significant ones (each has 3 coefficients, 4 children) */
    uint32_t nonzero;                                     /**< non-zero wavelet coefficients */
    unsigned depth;                                       /**< deepest level reached below the root (root = 0) */
    uint32_t root_branch_bits;                            /**< the root's branch size in bits (0 when the root is not significant) */
    uint32_t root_max;                                    /**< the root's max-region coefficient */
    uint64_t end_bit;                                     /**< logical bit after the tree */
    uint32_t level_significant[RELIC_WTD_MAX_LEVELS + 1]; /**< significant nodes per depth (root = 0) */
} relic_wtd_tree_stats;

/** A decoded terrain: an n x n grid of quantised heights (row y, column x,
 *  index y * n + x; quad coordinates start_x + x, start_y + y), world
 *  Z = heights[i] x header.mapping.coef_to_world. */
typedef struct relic_wtd_terrain {
    relic_wtd_file header;      /**< header and parameter block */
    uint32_t n;                 /**< grid size N (quad extents size) */
    int32_t *heights;           /**< n x n quantised heights (arena memory) */
    int32_t min, max;           /**< smallest and largest height in the grid */
    relic_wtd_tree_stats stats; /**< what the zerotree held */
} relic_wtd_terrain;

/** Walk the zerotree of a file whose header is h (Trespasser source, Lib/GeomDBase/WaveletDataFormat.cpp) and store every
 *  node's three wavelet coefficients at their positions in coef (n x n,
 *  zeroed by the caller; coef[0] receives the root coefficient; coef NULL
 *  checks the tree without storing it, in memory independent of N). Checks: a
 *  significant node has a non-zero max-region not above its parent's, is not
 *  of size 1, every |coefficient| <= its max-region, every branch size equals
 *  the bits its branch occupies. Errors: RELIC_E_TRUNCATED, RELIC_E_RANGE,
 *  RELIC_E_LAYOUT, with the node path (e.g. "tree.c0.c3.c1.w2") and file
 *  byte offset. stats may be NULL. */
relic_status relic_wtd_read_tree(const uint8_t *data, size_t size, const relic_wtd_file *h, int32_t *coef,
                                 relic_wtd_tree_stats *stats, relic_error *err);

/** Called by relic_wtd_walk_tree for every node whose significance bit is
 *  in the stream, in stream order: quad position (x, y) of its corner 0,
 *  size, and whether it is significant (has children). */
typedef void (*relic_wtd_node_visit)(void *ctx, uint32_t x, uint32_t y, uint32_t size, int significant);

/** relic_wtd_read_tree, also calling visit(ctx, ...) for each node (visit
 *  may be NULL). Same checks and errors. */
relic_status relic_wtd_walk_tree(const uint8_t *data, size_t size, const relic_wtd_file *h, int32_t *coef,
                                 relic_wtd_tree_stats *stats, relic_wtd_node_visit visit, void *ctx, relic_error *err);

/** Inverse integer lifting transform (Trespasser source, Lib/GeomDBase/WaveletQuadTreeTForm.cpp), in place: coef holds the
 *  wavelet coefficients as relic_wtd_read_tree leaves them (n x n, n a power
 *  of two >= 1); afterwards it holds the quantised heights. Arithmetic wraps
 *  at 32 bits as the game's does; it never fails. */
void relic_wtd_synthesise(int32_t *coef, uint32_t n);

/** Largest grid size N: fewer than 15 tree levels (Trespasser source, Lib/GeomDBase/WaveletDataFormat.cpp). */
#define RELIC_WTD_MAX_N 16384u

/** Forward integer lifting transform (Trespasser source, Lib/GeomDBase/WaveletQuadTreeTForm.cpp "Forward (analysis)
 *  transform"), in place: g holds an n x n grid of quantised heights (row y,
 *  column x, index y * n + x; n a power of two, 1..RELIC_WTD_MAX_N);
 *  afterwards every position other than (0, 0) holds the wavelet
 *  coefficient of the node that owns it and g[0] the root scaling value —
 *  the layout relic_wtd_read_tree produces, so relic_wtd_synthesise(g, n)
 *  restores the heights exactly. Errors: RELIC_E_ARGUMENT (bad n),
 *  RELIC_E_RANGE when a value of the transform leaves 32 bits (heights far
 *  beyond the 16-bit quantisation the game uses). */
relic_status relic_wtd_analyse(int32_t *g, uint32_t n, relic_error *err);

/** Decode a whole WTD file into *out: header, zerotree, synthesis, height
 *  range. The grid (4 x N^2 bytes) comes from arena a. Errors: those of
 *  relic_wtd_read_header and relic_wtd_read_tree; RELIC_E_NOMEM. */
relic_status relic_wtd_decode_terrain(const uint8_t *data, size_t size, relic_arena *a, relic_wtd_terrain *out,
                                      relic_error *err);

/** Grid side for untrusted input (relic_wtd_decode_terrain_max): a 2048 x
 *  2048 grid is 16 MiB and synthesises in about 0.1 s, so no WTD file under
 *  1 MB takes more than 1 s of CPU or 64 MiB of memory to decode
 *  (docs/security.md, "Worst cases measured"). The zerotree cannot bound the
 *  grid: its bits pay only for significant nodes, and an all-zero tree of 32
 *  bytes declares any side up to RELIC_WTD_MAX_N, so the side itself is
 *  limited. The Trespasser demo's 52 KB pv.wtd declares 8192 x 8192
 *  (256 MiB): callers that decode real levels raise it knowingly (the
 *  relic command: convert --max-grid 8192; its info then omits the heights). */
#define RELIC_WTD_DEFAULT_MAX_N 2048u

/** relic_wtd_decode_terrain refusing, before the grid is allocated, a grid
 *  side above max_n (RELIC_E_LIMIT at mapping.quad_extents.size_x, with its
 *  file offset); relic_wtd_decode_terrain is this with RELIC_WTD_MAX_N.
 *  Memory 4 x N^2 bytes from a, time linear in N^2 plus the file. To check
 *  a file without its grid, use relic_wtd_read_header and relic_wtd_read_tree
 *  with coef NULL (linear in the file). Errors: those of
 *  relic_wtd_decode_terrain and RELIC_E_LIMIT. */
relic_status relic_wtd_decode_terrain_max(const uint8_t *data, size_t size, uint32_t max_n, relic_arena *a,
                                          relic_wtd_terrain *out, relic_error *err);

/* ---------------------------------------------------------------------- */
/* Encoder (runtime/formats/tres/wtd_encode.c, runtime/formats/tres/wtd_encode_grid.c) */
/* ---------------------------------------------------------------------- */

/** The game's reader keeps bit indices in 27 bits: a file must hold fewer
 *  bits (Trespasser source, Lib/GeomDBase/WaveletDataFormat.cpp "In-memory limits"). */
#define RELIC_WTD_GAME_MAX_BITS ((uint64_t)1 << 27)

/** What the encoder wrote (and, for relic_wtd_encode, what a threshold cost). */
typedef struct relic_wtd_encode_stats {
    uint32_t significant;      /**< significant nodes (max-region != 0) */
    uint32_t nodes;            /**< header node count: 1 + 4 x significant */
    uint32_t vertices;         /**< header vertex count: distinct corners of the nodes in the stream */
    uint32_t nonzero;          /**< non-zero wavelet coefficients written */
    uint32_t root_branch_bits; /**< the root's branch size (0 when the root is not significant) */
    uint32_t root_max;         /**< the root's max-region */
    unsigned iterations;       /**< passes until the branch sizes reached their fixed point */
    size_t bytes;              /**< file size */
    uint32_t dropped;          /**< non-zero coefficients set to 0 by the threshold */
    uint32_t max_error;        /**< largest |decoded - input| height over the data region (height units) */
    double rms_error;          /**< root mean square of decoded - input over the data region */
} relic_wtd_encode_stats;

/** Append to out a WTD file of the wavelet coefficients coef (n x n in the
 *  layout of relic_wtd_analyse: coef[0] the root scaling value) with
 *  parameter block m (its quad size must be n x n): every node's max-region
 *  is the largest |coefficient| of its branch, branch sizes are computed to
 *  their fixed point (Trespasser source, Lib/GeomDBase/WaveletQuadTreeTForm.cpp), the header counts are those the original
 *  encoder writes, the file is whole 32-bit words in XOR-3 order, and it is
 *  read back by relic_wtd_read_header. Scratch memory (8 x n^2 / 3 bytes
 *  of node tables, plus the file) comes from arena a. Errors:
 *  RELIC_E_ARGUMENT (n not a power of two up to RELIC_WTD_MAX_N, quad size
 *  not n), RELIC_E_RANGE (a coefficient of 2^30 or more), RELIC_E_LIMIT (a
 *  tree of 2^27 bits or more, which the game cannot index), RELIC_E_NOMEM,
 *  and those of relic_wtd_read_header for a parameter block the reader
 *  refuses. stats may be NULL. */
relic_status relic_wtd_encode_tree(const int32_t *coef, uint32_t n, const relic_wtd_mapping *m, relic_arena *a,
                                   relic_buf *out, relic_wtd_encode_stats *stats, relic_error *err);

/** Options of relic_wtd_encode. */
typedef struct relic_wtd_encode_options {
    uint32_t threshold;     /**< wavelet coefficients with |w| <= threshold are dropped (0: lossless) */
    uint32_t width, height; /**< the real data: columns 0..width-1, rows 0..height-1 (0: all n) */
} relic_wtd_encode_options;

/** Encode an n x n grid of quantised heights (index y * n + x, y = 0 the
 *  minimum world Y): forward transform, optional threshold, tree, file
 *  appended to out. Without a threshold decode(file) == heights exactly;
 *  with one, stats report the coefficients dropped and the max and RMS
 *  height error over the data region. opt may be NULL. Scratch memory
 *  (about 4 x n^2 x 2.7 bytes) comes from arena a. Errors: those of
 *  relic_wtd_analyse and relic_wtd_encode_tree. */
relic_status relic_wtd_encode(const int32_t *heights, uint32_t n, const relic_wtd_mapping *m,
                              const relic_wtd_encode_options *opt, relic_arena *a, relic_buf *out,
                              relic_wtd_encode_stats *stats, relic_error *err);

/** Fill *m as the original encoder does (Trespasser source, Lib/GeomDBase/WaveletConv.cpp) for an n x n grid whose
 *  quad (0, 0) is at world (world_x, world_y) metres, res metres per quad
 *  unit and coef_to_world metres of height per coefficient unit: quad
 *  extents (0, 0, n, n), world extents n x res, the quad<->world maps,
 *  world_to_coef = 1 / coef_to_world, coef_to_quad = coef_to_world / res. */
void relic_wtd_mapping_init(relic_wtd_mapping *m, uint32_t n, double world_x, double world_y, double res,
                            double coef_to_world);

/** The smallest power of two >= max(w, h), at least 1 (0 when above RELIC_WTD_MAX_N). */
uint32_t relic_wtd_grid_size(uint32_t w, uint32_t h);

/** Copy the w x h grid src (index y * w + x) into the n x n grid dst
 *  (n >= w, h), repeating the last column and row into the padding so the
 *  padding costs few coefficients. */
void relic_wtd_pad(const int32_t *src, uint32_t w, uint32_t h, int32_t *dst, uint32_t n);

/** World Z in metres of a quantised height (Trespasser source, Lib/GeomDBase/WaveletQuadTreeQuery.cpp). */
static inline double relic_wtd_world_z(const relic_wtd_file *h, int32_t s)
{
    return (double)s * (double)h->mapping.coef_to_world;
}

/* ---------------------------------------------------------------------- */
/* Heightmap PNG (runtime/export/wtd_png.c)                                   */
/* ---------------------------------------------------------------------- */

/** A 16-bit greyscale PNG of the terrain appended to out: north (largest Y)
 *  at the top; grey = height - min when max - min <= 65535, else scaled
 *  linearly onto 0..65535. A tEXt chunk "relic-wtd" records the mapping
 *  ("min=.. scale=.. coef_to_world=.. x0=.. y0=.. res=..": grey g stands
 *  for height g / scale + min; x0, y0, res the quad->world maps). A row buffer (2 x N bytes) comes
 *  from arena a. Errors: RELIC_E_NOMEM, RELIC_E_IO (libpng failure). */
relic_status relic_wtd_png(const relic_wtd_terrain *t, relic_arena *a, relic_buf *out, relic_error *err);

/** A heightmap read from a PNG (relic_wtd_png_read). */
typedef struct relic_wtd_heightmap {
    uint32_t width, height; /**< pixels */
    int32_t *heights;       /**< width x height quantised heights, index y * width + x, y = 0 the SOUTH row (the PNG's last) */
    int has_mapping;        /**< 1 when the PNG carried relic's "relic-wtd" text chunk */
    double coef_to_world;   /**< from the chunk: metres per height unit */
    double x0, y0, res;     /**< from the chunk: world position of pixel (0, 0) and metres per pixel (res 0: absent) */
    int lossy;              /**< 1 when the chunk's scale was not 1 (heights rounded back from a scaled range) */
} relic_wtd_heightmap;

/** Read a greyscale PNG (8 or 16 bits; 8-bit grey g reads as g x 257) into
 *  *out: the bottom picture row becomes y = 0 (north up, as relic_wtd_png
 *  writes). With relic's "relic-wtd" chunk the heights are g / scale + min
 *  (rounded) and the mapping is reported; without it, the grey values.
 *  Pixels, a row buffer and libpng's own state (png_create_read_struct_2
 *  with the arena as its allocator) come from arena a; nothing from the
 *  heap. Errors: RELIC_E_MAGIC (not a PNG),
 *  RELIC_E_UNSUPPORTED (colour, alpha, palette), RELIC_E_LIMIT (a side above
 *  RELIC_WTD_MAX_N), RELIC_E_IO (libpng reports a damaged file), RELIC_E_NOMEM. */
relic_status relic_wtd_png_read(const uint8_t *data, size_t size, relic_arena *a, relic_wtd_heightmap *out,
                                relic_error *err);

/** An 8-bit greyscale shaded-relief PNG of the terrain appended to out,
 *  north up: Lambertian shading of the surface normals (world units, from
 *  central differences) lit from the north-west 45 degrees above the
 *  horizon, mixed 4:1 with the height so valleys read darker. A row buffer
 *  comes from arena a. Errors: RELIC_E_NOMEM, RELIC_E_IO. */
relic_status relic_wtd_relief_png(const relic_wtd_terrain *t, relic_arena *a, relic_buf *out, relic_error *err);

/** The colour preview of the terrain appended to out as an 8-bit RGB PNG,
 *  north up: a hypsometric tint over the grid's height range (green low,
 *  tan, brown, white high) times the same hill shading as
 *  relic_wtd_relief_png (relic_relief_png, RELIC_RELIEF_COLOUR). Heights
 *  in world units through coef_to_world, quad spacing from the quad->world
 *  scale (Trespasser source, Lib/GeomDBase/WaveletQuadTreeQuery.cpp). A row
 *  buffer comes from arena a. Errors: RELIC_E_NOMEM, RELIC_E_IO. */
relic_status relic_wtd_preview_png(const relic_wtd_terrain *t, relic_arena *a, relic_buf *out, relic_error *err);

/* ---------------------------------------------------------------------- */
/* Leaf triangulation (runtime/formats/tres/wtd_mesh.c)                       */
/* ---------------------------------------------------------------------- */

/** The terrain as the game triangulates it at full detail (Trespasser source, Lib/GeomDBase/WaveletQuadTreeBaseTri.cpp):
 *  one vertex per distinct corner of the tree's leaves (nodes in the stream
 *  without children), in world coordinates (metres); each leaf split along
 *  its diagonal (corners 0-2 when the diagonal flag is clear, 1-3 when set)
 *  or, when a finer neighbour puts vertices on its edges, fanned around its
 *  centre. Triangles are counter-clockwise seen from above (+Z). Written as
 *  TRI or OBJ text by relic_tri_write / relic_tri_write_obj. */
typedef relic_tri_mesh relic_wtd_mesh;

/** Build the leaf triangulation of the WTD file data[0..size) whose decoded
 *  terrain is t (heights of far-edge vertices, x = N or y = N, are those
 *  of the nearest grid cell). Memory (about (N + 1)^2 / 4 bytes of vertex
 *  bitmaps plus the mesh) from arena a. Errors: those of
 *  relic_wtd_walk_tree, RELIC_E_NOMEM, RELIC_E_LIMIT (more than 2^31
 *  vertices or triangles). */
relic_status relic_wtd_mesh_build(const uint8_t *data, size_t size, const relic_wtd_terrain *t, relic_arena *a,
                                  relic_wtd_mesh *out, relic_error *err);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_WTD_H */
