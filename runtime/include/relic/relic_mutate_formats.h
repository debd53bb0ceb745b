/* relic_mutate_formats.h — the hand-written structure-aware mutators (issue
 * 8): formats whose generated writer cannot rebuild a whole file (ERF/RIM
 * resource data, WTD's zerotree in its XOR-3 container, SZDD-compressed
 * GROFF, SPZ) or that have no schema (TPM, TRI, TRR); the GFF tree
 * mutator; the BWM geometry mutator. The first kind are relic_mut_format
 * tables for the generic engine (relic_mutate, relic_mutate.h: deterministic for a seed, 1-3
 * changes, valid or invalid mode); `relic mutate` (runtime/cli/mutators.c)
 * and the fuzz targets' LLVMFuzzerCustomMutator (fuzz/fuzz_<f>.c) use
 * them. Sources: xoreos, src/aurora/gff3file.cpp, src/aurora/erffile.cpp; neverwinter.nim, gff.nim (GFF, ERF/RIM), Trespasser source, Lib/GeomDBase/WaveletDataFormat.cpp (WTD), Trespasser source, Lib/Std/Hash.cpp (TRI, TRR, TPM), Trespasser source, Source/Tools/LZSS/LZSS.cpp, Lib/Loader/ImageLoader.cpp, Lib/Groff/FileIO.cpp (LZSS containers). */
#ifndef RELIC_MUTATE_FORMATS_H
#define RELIC_MUTATE_FORMATS_H

#include "relic_mutate.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Whole ERF V1.0/V1.1 containers (mutate_erf.c): the generated tables of
 *  the header, strings, keys and resource list, loaded with relic_erf_open
 *  and written by the container writer so every resource keeps its bytes.
 *  Validation: relic_erf_open. Built once (not thread-safe on first call). */
const relic_mut_format *relic_mutator_erf(void);
/** Whole RIM V1.0 containers, as relic_mutator_erf (mutate_erf.c). */
const relic_mut_format *relic_mutator_rim(void);
/** Whole WTD terrains (mutate_wtd.c): the 90-byte header and parameter
 *  block of the logical (XOR-3) stream by the generated tables, the
 *  zerotree after it as opaque bytes (changed, inserted, removed, spliced),
 *  and, for grids up to 64 x 64 whose tree decodes, the int32 wavelet
 *  coefficients ("coefficients", Trespasser source, Lib/GeomDBase/WaveletQuadTreeBase.cpp, Lib/GeomDBase/WaveletDataFormat.cpp) and quantised
 *  heights ("heights", Trespasser source, Lib/GeomDBase/WaveletQuadTreeTForm.cpp): when either changes, the tree is re-encoded
 *  (relic_wtd_encode_tree / relic_wtd_encode) with the model's parameter
 *  block, so the output is a valid zerotree; an array grown or shrunk, or
 *  a quad size set to another power of two up to 64, re-encodes a grid of
 *  that size. A quad size set below 512 is written rounded down to a power
 *  of two, both sides (the log shows the value before rounding). Files up to RELIC_WTD_GAME_MAX_BITS/8 bytes. Validation: the
 *  whole terrain decoded (relic_wtd_decode_terrain). Built once. */
const relic_mut_format *relic_mutator_wtd(void);
/** TRI meshes (mutate_text.c): vertices (doubles) and index triples,
 *  resized, spliced; written by relic_tri_write, validated by
 *  relic_tri_parse. The invalid mode flips a bit of the first byte. */
const relic_mut_format *relic_mutator_tri(void);
/** TRR point clouds (mutate_text.c): points (doubles), as TRI. */
const relic_mut_format *relic_mutator_trr(void);
/** TPM scene files (mutate_text.c): blocks, their vertices, bone indices,
 *  texture coordinates, normals, faces (1-based v/t/n indices, material)
 *  and whole properties; written by relic_tpm_write, validated by
 *  relic_tpm_parse. */
const relic_mut_format *relic_mutator_tpm(void);
/** SPZ (u32 size + LZSS stream of an SWP, mutate_lzss.c): the expanded
 *  bytes as one array, re-compressed; the invalid mode leaves the declared
 *  size stale. Validation: the whole stream decodes to its size. */
const relic_mut_format *relic_mutator_spz(void);
/** A raw SWP (mutate_lzss.c): its bytes as one array; no invalid form. */
const relic_mut_format *relic_mutator_swp(void);
/** SZDD-compressed GROFF levels and scenes (.gr_ .sc_, mutate_lzss.c):
 *  decompressed, mutated by the generated GROFF mutator, compressed again.
 *  Validation: the stream decodes and the GROFF validates. Built once. */
const relic_mut_format *relic_mutator_groff_szdd(void);
/** Whole NWN2 TRN/TRX files with their ASWM walkmeshes (mutate_trn.c,
 *  nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp, AreaSurfaceMesh.h): the generated container model plus every
 *  ASWM packet's walkmesh inflated (up to 32 MB decompressed) and exposed
 *  through the generated "aswm" tables (vertices, edges, triangles, tiles
 *  with path tables, islands, island path table); a changed walkmesh is
 *  repaired where arrays are tied together (island lists, square tables,
 *  tile grid, tile triangle ranges), packed again (relic_trn_aswm_pack,
 *  zlib level 1) into its packet, later directory
 *  offsets moved by the size change. Invalid mode: the engine's values,
 *  stale header.packet_count or directory[0].offset. Validation: what
 *  `relic check` does for a .trn/.trx (container, every walkmesh inflated
 *  and checked, terrain and water packets). Built once. */
const relic_mut_format *relic_mutator_trn_aswm(void);

/* Memory of the three entry points below: as relic_mutate's (scratch gives
 * every byte, rewound between tries; out is the caller's). */

/** Mutate the GFF V3.2 file in[0..n) through its tree (gff_tree_mutate.c,
 *  relic_gff_tree): 1-3 changes, each one of: a field's value set to a
 *  boundary value of its type (integers 0, 1, -1, min, max, old +- 1;
 *  floats 0, -0, NaN, infinities, FLT_MAX, denormals; strings emptied,
 *  cut, grown, given bytes >= 0x80; ResRefs of 16 and 17 characters), a
 *  field's type changed (the value converted or a fresh one made), a field
 *  dropped or duplicated, list elements duplicated, removed or swapped, a
 *  StructID changed, a label edited (or made a duplicate of a sibling's),
 *  a locstring's StrRef, substring ids and texts edited, a substring added
 *  or removed, a struct or list element spliced from the second input
 *  in2[0..n2) (or, when in2 is NULL, from elsewhere in the first); for a
 *  FileType with a typed schema (relic_gff_schema.h: ARE, GIT, GIC, IFO,
 *  ITP), one change in 4 is guided by it: a documented field set to a range
 *  end or just past it, an enum value or one outside the set, flag bits
 *  outside the documented ones, its type changed or restored, an absent
 *  documented field added, a StructID set to the documented one or a
 *  neighbour (gff_schema_mutate.c). The tree
 *  is written with relic_gff_write_tree (default or, when the positions
 *  still fit, the input's own layout), so every count and offset is
 *  recomputed. flags: RELIC_MUTATE_UNCHECKED returns the first written
 *  mutant; RELIC_MUTATE_CROSSOVER makes the first change a splice from in2;
 *  RELIC_MUTATE_INVALID then overwrites one header offset or count with a
 *  boundary value and keeps only outputs relic_gff_open rejects. Otherwise
 *  the output passes relic_gff_open and differs from the input. Growth is
 *  bounded (at most 4096 fields copied per splice or duplication, strings
 *  at most 1024 bytes longer). Deterministic for (in, in2, seed, flags).
 *  out is cleared first. Errors: relic_gff_open's when in does not
 *  validate (or in2, with RELIC_MUTATE_CROSSOVER); RELIC_E_LIMIT when 16
 *  tries gave no suitable output; RELIC_E_NOMEM. res (may be NULL) gets the
 *  log (field path such as Creature_List[2].Tag, operation, values). */
relic_status relic_gff_mutate(const uint8_t *in, size_t n, const uint8_t *in2, size_t n2, uint64_t seed,
                              unsigned flags, relic_arena *scratch, relic_buf *out, relic_mutate_result *res,
                              relic_error *err);

/** Mutate the KotOR BWM walkmesh in[0..n) (.wok/.pwk/.dwk) through its
 *  geometry (mutate_bwm.c; PyKotor wiki, KotOR BWM file format, PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py): 1-3 changes, each
 *  one of: a vertex coordinate set to a float boundary value (0, -0,
 *  subnormal, +-FLT_MAX, infinities, NaN, the next float, another
 *  vertex's), a vertex moved onto another or welded to it, a face corner
 *  given its own vertex, a face's material changed (walkable, not, or an
 *  unknown id), a face removed, the faces cut off from one on (all of
 *  them, sometimes the vertices too), a face duplicated (either winding), flipped,
 *  split in three or moved, a side's transition set, the type switched
 *  between WOK and PWK/DWK, a patch of at most 32 faces spliced from the
 *  second walkmesh in2[0..n2) (NULL: none); then the faces are put
 *  walkable first and the normals, distances, adjacency, edges,
 *  perimeters and AABB tree rebuilt (relic_bwm_rebuild), so the output
 *  keeps every table rule. Walkmeshes of more than 256 faces (one try in
 *  2 above 48) are first cropped to a connected patch of 8-48 faces. One
 *  try in 4 gives the (cropped) walkmesh to the generated mutator
 *  (relic_bwm_mutator) for its table-level changes instead. One valid
 *  output in 6 has an empty table's offset moved (to 0, the end, past it,
 *  2^32-1: nothing is read there, so the file stays valid).
 *  flags: RELIC_MUTATE_UNCHECKED returns the first written mutant;
 *  RELIC_MUTATE_CROSSOVER makes a splice from in2 the first change;
 *  RELIC_MUTATE_INVALID breaks one table rule of relic_bwm_check after the
 *  rebuild (faces out of walkable order, the adjacency a row short,
 *  perimeters decreasing, an AABB node looping or with a child too many
 *  or too few) or moves a table with elements past the end of the file,
 *  or takes the generated mutator's invalid mode, and keeps
 *  only outputs `relic check` rejects. Otherwise the output passes the
 *  validator and relic_bwm_check (not strict) and differs from the input.
 *  Deterministic for (in, in2, seed, flags); out is cleared first.
 *  Errors: the validator's or decoder's when in does not load (or in2,
 *  with RELIC_MUTATE_CROSSOVER); RELIC_E_LIMIT when 16 tries gave no
 *  suitable output; RELIC_E_NOMEM. res (may be NULL) gets the log (paths
 *  such as vertices[3].z, faces[7], materials[2]). */
relic_status relic_bwm_mutate(const uint8_t *in, size_t n, const uint8_t *in2, size_t n2, uint64_t seed,
                              unsigned flags, relic_arena *scratch, relic_buf *out, relic_mutate_result *res,
                              relic_error *err);
/** A text format's vocabulary for relic_mutate_tokens (mutate_tokens.c):
 *  keywords and property names (words, also tried in other letter cases),
 *  punctuation tokens, and whole lines typical of the format (some broken
 *  on purpose; a line may hold several lines separated by '\n'). */
typedef struct relic_token_vocab {
    const char *name; /**< "tpm" */
    const char *const *words;
    uint32_t nwords;
    const char *const *punct;
    uint32_t npunct;
    const char *const *lines;
    uint32_t nlines;
} relic_token_vocab;

/** TPM: the block keywords, properties and geometry keys of Trespasser file formats
 *  "TPM - Models", its punctuation, typical and broken lines and blocks. */
extern const relic_token_vocab relic_tokens_tpm;
/** TRI (Trespasser source, Lib/Std/Hash.cpp): counts, index triples, coordinates. */
extern const relic_token_vocab relic_tokens_tri;
/** TRR (Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp): X Y Z triples, the obsolete-format -1. */
extern const relic_token_vocab relic_tokens_trr;

/** One change of relic_mutate_tokens: where (1-based line and byte column
 *  in the text before the change), the operation (number, word, delete,
 *  duplicate, swap, line-delete, line-copy, line-swap, template, space,
 *  comment, string, insert, byte, line-splice), the bytes replaced and the
 *  bytes put there (printable, escaped, shortened). */
typedef struct relic_token_edit {
    uint32_t line, col;
    char op[16];
    char old_text[48];
    char new_text[48];
} relic_token_edit;

#define RELIC_MUTATE_TOKENS_MAX_LOG 3

/** What relic_mutate_tokens changed, in order. */
typedef struct relic_token_log {
    relic_token_edit log[RELIC_MUTATE_TOKENS_MAX_LOG];
    int nlog;
} relic_token_log;

/** Mutate the text in[0..n) of a line-oriented format token by token
 *  (mutate_tokens.c): split it into numbers, words, strings, // comments,
 *  punctuation, blank runs and line ends, then make 1-3 changes: a number
 *  respelled with its value kept (sign, leading zeros, "5.", ".5", e/E
 *  exponents with +/-, long digit runs) or changed (float, double and u32
 *  limits, -0, subnormals, NaN and infinity words, broken forms); a word
 *  replaced by one of v's (in another letter case); tokens deleted,
 *  duplicated or swapped; lines deleted, swapped, copied, or one of v's
 *  lines inserted; blanks and line ends changed (tab, \v, \f, CR, CRLF,
 *  none; every line end of the text at once); a // comment added or
 *  removed; a string opened, closed, emptied or grown; a bad byte. in2
 *  (may be NULL) gives lines for crossover; with RELIC_MUTATE_CROSSOVER
 *  the first change copies lines of in2 or replaces the text's tail by
 *  in2's from a line start. The input need not be valid. The result (at
 *  most max bytes) goes to out, which may be in itself; *out_size gets its
 *  length. Deterministic for (in, in2, seed, flags). log (may be NULL) gets
 *  the changes. Memory: the token list and the text being edited come from
 *  scratch (about 40 bytes per token plus twice the text and max; what it
 *  held is garbage afterwards). Errors: RELIC_E_ARGUMENT (NULL arguments),
 *  RELIC_E_LIMIT (a text of 4 GiB or more), RELIC_E_NOMEM (scratch ran
 *  out). */
relic_status relic_mutate_tokens(const relic_token_vocab *v, const uint8_t *in, size_t n, const uint8_t *in2, size_t n2,
                                 uint64_t seed, unsigned flags, relic_arena *scratch, uint8_t *out, size_t max,
                                 size_t *out_size, relic_token_log *log, relic_error *err);

/** The name relic_mutate_buffer uses for format, or (format NULL or "")
 *  for what relic_detect finds in data[0..size): one of bwm, gff, erf,
 *  rim, trn, wtd, groff, tpa, cau, pid, spz, swp, tpm, tri, trr; NULL when
 *  relic has no mutator for it. */
const char *relic_mutate_buffer_format(const char *format, const uint8_t *data, size_t size);

/** One structure-aware mutation of data[0..size) in place, for a fuzzer
 *  that is not relic's (mutate_any.c): call it from your own
 *  LLVMFuzzerCustomMutator (data, size, max = MaxSize, seed = Seed) or an
 *  AFL++ custom mutator (fuzz/afl/relic_afl.c does). format names the
 *  format (relic_mutate_buffer_format's names; NULL: detected from data).
 *  The seed picks the mutator (GFF and BWM: the tree mutator three calls in
 *  four, else the tables; TPM, TRI, TRR: the token mutator one call in
 *  four; ERF, TRN, GROFF: the container mutator, then the plain tables),
 *  the invalid mode one call in four, and, when data2[0..size2) is given
 *  (another input of the format; may be NULL), a crossover one call in
 *  two. Outputs are not validated: the target judges them. Memory: the
 *  output (max + 1 bytes) and every mutator byte from scratch, rewound
 *  before returning (relic_mutate's needs plus max; 64 MiB is ample for
 *  inputs up to 1 MiB). Returns the new size (at most max), or 0 when no
 *  mutant came (unknown format, an input the format's reader rejects, a
 *  mutant larger than max, scratch too small): then fall back to a
 *  byte-level mutation, as LLVMFuzzerMutate. Deterministic for (data,
 *  data2, seed). */
size_t relic_mutate_buffer(const char *format, uint8_t *data, size_t size, size_t max, const uint8_t *data2,
                           size_t size2, unsigned seed, relic_arena *scratch);

#ifdef __cplusplus
}
#endif
#endif
