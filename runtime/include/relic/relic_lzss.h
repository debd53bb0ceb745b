/* relic_lzss.h — the Okumura-style LZSS shared by Trespasser's SPZ texture
 * files and Microsoft SZDD (COMPRESS.EXE) files such as compressed GRFs.
 *
 * Source: Trespasser source, Source/Tools/LZSS/LZSS.cpp, Lib/Loader/ImageLoader.cpp (SPZ, read from the game's loader
 * ImageLoader.cpp and its compressor LZSS.cpp), Trespasser source, Lib/Groff/FileIO.cpp (SZDD); Trespasser file formats
 * "SWP/SPZ" (the worked example used as a test vector).
 *
 * The item stream: a flag byte governs the next 8 items, least significant
 * bit first. Bit 1: one literal byte. Bit 0: two bytes b1 b2 naming a match
 * of (b2 & 0x0F) + 3 bytes (3..18) copied from the ring position
 * b1 | (b2 & 0xF0) << 4 of a 4096-byte ring buffer; every output byte is
 * also stored in the ring at the write position r, which then advances.
 * The variants differ only in the ring's initial contents and r:
 *   SPZ:  ring zero-filled, r starts at 4078 (4096 - 18);
 *   SZDD: ring filled with spaces (0x20), r starts at 4080 (4096 - 16).
 * A stream ends when its input ends, also in the middle of a flag group.
 *
 * Every codec here streams with the contract of relic_stream.h (zlib's
 * z_stream shape: caller buffers, state set up once from the caller's arena,
 * need-input / need-output / done / error): the decoder, the encoder and the
 * SPZ and SZDD files around them. The one-call functions (whole buffer in,
 * relic_buf or exact-size buffer out) give the same bytes. */
#ifndef RELIC_LZSS_H
#define RELIC_LZSS_H

#include "relic.h"
#include "relic_stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Ring buffer size (bytes): matches reach back at most this far. */
#define RELIC_LZSS_RING 4096u
/** Longest match (bytes). */
#define RELIC_LZSS_MAX_MATCH 18u
/** Matches shorter than THRESHOLD + 1 are never coded. */
#define RELIC_LZSS_THRESHOLD 2u
/** Shortest match (bytes). */
#define RELIC_LZSS_MIN_MATCH (RELIC_LZSS_THRESHOLD + 1u)
/** Farthest match distance the encoders use (the original encoder's window:
 *  the ring minus its lookahead). Decoders accept any ring position. */
#define RELIC_LZSS_MAX_DISTANCE (RELIC_LZSS_RING - RELIC_LZSS_MAX_MATCH)

/** The two ring set-ups (Trespasser source, Source/Tools/LZSS/LZSS.cpp, Lib/Loader/ImageLoader.cpp, Lib/Groff/FileIO.cpp). */
typedef enum relic_lzss_variant {
    RELIC_LZSS_SPZ = 0, /**< zero fill, start 4078: Trespasser .spz, lzencode.exe */
    RELIC_LZSS_SZDD = 1 /**< space fill, start 4080: COMPRESS.EXE / LZOpenFile */
} relic_lzss_variant;

/** Initial ring write position of a variant (4078 or 4080). */
unsigned relic_lzss_start(relic_lzss_variant v);
/** Initial ring contents of a variant (0x00 or 0x20). */
uint8_t relic_lzss_fill(relic_lzss_variant v);

/* ---------------------------------------------------------------------- */
/* Streaming decoder                                                      */
/* ---------------------------------------------------------------------- */

/** Start a streaming decoder of the given variant on s (relic_stream.h:
 *  then relic_stream_run, relic_stream_end). Memory: 4.1 KiB (the ring and
 *  a few counters) from arena a, nothing else. The stream has no end
 *  marker: it ends when the input does, so DONE comes with
 *  RELIC_STREAM_FINISH once the input is used up. Run errors:
 *  RELIC_E_TRUNCATED when the input ends between the two bytes of a match
 *  (offset = total_in). Init errors: RELIC_E_NOMEM (arena full),
 *  RELIC_E_ARGUMENT (a is NULL). */
relic_status relic_lzss_decode_init(relic_stream *s, relic_lzss_variant v, relic_arena *a, relic_error *err);

/** Decode a whole stream src[0..n) into exactly dst_size bytes of dst.
 *  Errors: RELIC_E_LAYOUT when the stream holds more than dst_size bytes,
 *  RELIC_E_TRUNCATED when it holds fewer or ends inside a match. Offsets are
 *  in src. Memory: none beyond dst: the output is its own history, so this
 *  one-call form needs no ring and is not built on the streaming decoder
 *  (the bytes are the same: tests/test_stream.c). */
relic_status relic_lzss_decode_buffer(relic_lzss_variant v, const uint8_t *src, size_t n, uint8_t *dst,
                                      size_t dst_size, relic_error *err);

/** The most bytes any n-byte stream can decode to: a flag byte and 8
 *  matches (17 bytes) give 144, so ceil(n / 17) * 144. Callers check a
 *  declared size against it before allocating the output. */
uint64_t relic_lzss_max_decoded_size(uint64_t n);

/** Number of bytes a whole stream src[0..n) decodes to (a dry run with the
 *  ring only). Errors as the streaming decoder's. */
relic_status relic_lzss_decoded_size(relic_lzss_variant v, const uint8_t *src, size_t n, uint64_t *size,
                                     relic_error *err);

/* ---------------------------------------------------------------------- */
/* Encoders                                                               */
/* ---------------------------------------------------------------------- */

/** How hard the encoder looks for matches. */
typedef enum relic_lzss_level {
    /** Hash chains (48 candidates) with one step of lazy matching; fixed
     *  memory (about 90 KiB). About 3x GREEDY's speed; its ratio is not
     *  guaranteed against GREEDY's (measured: better on SWP-like texture
     *  data, up to 2% larger on GRF/SCN/PID files). */
    RELIC_LZSS_FAST = 1,
    /** The original encoder's method: exact longest match (binary trees)
     *  taken greedily. Output differs from lzencode.exe's only in which of
     *  several equally long matches is named. */
    RELIC_LZSS_GREEDY = 2,
    /** Exact longest matches (binary trees) and an optimal parse: the
     *  fewest bits for this item format, so never longer than GREEDY.
     *  Memory: 3 bytes per input byte plus about 100 KiB. */
    RELIC_LZSS_BEST = 3
} relic_lzss_level;

/** Largest input the encoders take (positions are 32-bit signed), bytes. */
#define RELIC_LZSS_MAX_INPUT ((uint64_t)INT32_MAX - 2u * RELIC_LZSS_MAX_MATCH)

/** Encode src[0..n) as an LZSS stream of variant v, appended to out (no
 *  header): the streaming encoder's (relic_lzss_encode_init) own coding
 *  loop, run once over src in place and appending to out, so both give the
 *  same bytes without the stream's window and queue copies. Scratch (the
 *  match finder; BEST: the parse, 3 bytes per input byte) comes from the
 *  caller's arena scratch; nothing is taken from the heap. Errors: RELIC_E_NOMEM, RELIC_E_ARGUMENT (level, NULL scratch),
 *  RELIC_E_LIMIT (n above RELIC_LZSS_MAX_INPUT). */
relic_status relic_lzss_encode(relic_lzss_variant v, relic_lzss_level level, const uint8_t *src, size_t n,
                               relic_arena *scratch, relic_buf *out, relic_error *err);

/** Start a streaming encoder of variant v at level on s (relic_stream.h).
 *  Its output equals relic_lzss_encode's for the same input, whatever the
 *  chunking. FAST and GREEDY run in fixed memory taken from arena a at
 *  init: a 64 KiB input window (the 4 KiB of history matches may reach
 *  plus lookahead), a 4 KiB output queue and the match finder (FAST about
 *  80 KiB, GREEDY about 290 KiB). BEST's optimal parse needs the whole
 *  input: it gathers the input in arena a (plus 3 bytes per input byte for
 *  the parse) and produces its output after RELIC_STREAM_FINISH. Run
 *  errors: RELIC_E_LIMIT (input above RELIC_LZSS_MAX_INPUT), RELIC_E_NOMEM
 *  (BEST: the arena runs out), RELIC_E_ARGUMENT (input after FINISH).
 *  Init errors: RELIC_E_ARGUMENT (level, a is NULL), RELIC_E_NOMEM. */
relic_status relic_lzss_encode_init(relic_stream *s, relic_lzss_variant v, relic_lzss_level level, relic_arena *a,
                                    relic_error *err);

/* ---------------------------------------------------------------------- */
/* Containers: SPZ (u32 size + stream) and SZDD (14-byte header + stream) */
/* ---------------------------------------------------------------------- */

/** SPZ header: u32 LE uncompressed (SWP) size (Trespasser source, Source/Tools/LZSS/LZSS.cpp, Lib/Loader/ImageLoader.cpp). */
#define RELIC_SPZ_HEADER_SIZE 4u
/** SZDD header size: magic[8], mode, missing char, u32 LE size (Trespasser source, Lib/Groff/FileIO.cpp). */
#define RELIC_SZDD_HEADER_SIZE 14u
/** SZDD magic "SZDD" 88 F0 27 33. */
#define RELIC_SZDD_MAGIC "SZDD\x88\xF0\x27\x33"
/** SZDD compression mode 'A' (the only one COMPRESS.EXE writes). */
#define RELIC_SZDD_MODE_A 0x41u

/** A parsed container header. */
typedef struct relic_lzss_container {
    relic_lzss_variant variant;
    uint32_t decoded_size; /**< declared uncompressed size */
    uint8_t missing_char;  /**< SZDD: last character of the original name ('\0' if none) */
    size_t stream_offset;  /**< where the LZSS stream starts (4 or 14) */
} relic_lzss_container;

/** 1 when data starts with the SZDD magic. */
int relic_szdd_is(const uint8_t *data, size_t size);

/** Read an SZDD header. Errors: RELIC_E_TRUNCATED, RELIC_E_MAGIC (magic or
 *  mode, with the field path "szdd.magic"/"szdd.mode"). */
relic_status relic_szdd_header(const uint8_t *data, size_t size, relic_lzss_container *c, relic_error *err);

/** Read an SPZ header (RELIC_E_TRUNCATED when shorter than 4 bytes). */
relic_status relic_spz_header(const uint8_t *data, size_t size, relic_lzss_container *c, relic_error *err);

/** Decompress a whole SPZ or SZDD file into memory from arena a (at most
 *  limit bytes; RELIC_E_LIMIT above). The declared size must match what the
 *  stream produces (RELIC_E_LAYOUT / RELIC_E_TRUNCATED otherwise); one the
 *  stream cannot reach (relic_lzss_max_decoded_size) is RELIC_E_LAYOUT
 *  before anything is allocated. */
relic_status relic_lzss_container_decode(const uint8_t *data, size_t size, relic_lzss_variant v, uint64_t limit,
                                         relic_arena *a, relic_bytes *out, relic_error *err);

/** Start a streaming decoder of a whole SPZ (v = SPZ) or SZDD (v = SZDD)
 *  file on s: header, then the LZSS stream, producing exactly the declared
 *  size. Memory: about 4.2 KiB from arena a. Run errors (offsets in the
 *  file): those of relic_szdd_header / relic_spz_header; RELIC_E_LIMIT
 *  (declared size above limit); RELIC_E_LAYOUT (the stream holds more than
 *  declared); RELIC_E_TRUNCATED (fewer, or it ends inside a match). Init
 *  errors: RELIC_E_NOMEM, RELIC_E_ARGUMENT. */
relic_status relic_lzss_container_decode_init(relic_stream *s, relic_lzss_variant v, uint64_t limit, relic_arena *a,
                                              relic_error *err);

/** Start a streaming encoder of a whole SPZ or SZDD file on s for an input
 *  of exactly size bytes (the header, written first, declares it): the
 *  bytes of relic_lzss_container_encode. Memory as relic_lzss_encode_init.
 *  Run errors: RELIC_E_LAYOUT when the input's length differs from size
 *  (offset = total_in), as relic_lzss_encode_init. Init errors:
 *  RELIC_E_LIMIT (size above 4 GiB - 1), as relic_lzss_encode_init. */
relic_status relic_lzss_container_encode_init(relic_stream *s, relic_lzss_variant v, relic_lzss_level level,
                                              uint8_t missing_char, uint64_t size, relic_arena *a, relic_error *err);

/** Write the header of an SPZ (4 bytes) or SZDD (14 bytes) file declaring
 *  size decoded bytes into h; returns its length. */
size_t relic_lzss_container_header(relic_lzss_variant v, uint8_t missing_char, uint32_t size,
                                   uint8_t h[RELIC_SZDD_HEADER_SIZE]);

/** Write a whole SPZ (v = SPZ) or SZDD (v = SZDD, missing_char) file for
 *  src[0..n) to out. Errors: RELIC_E_LIMIT (n above 4 GiB - 1), as
 *  relic_lzss_encode. */
relic_status relic_lzss_container_encode(relic_lzss_variant v, relic_lzss_level level, uint8_t missing_char,
                                         const uint8_t *src, size_t n, relic_arena *scratch, relic_buf *out,
                                         relic_error *err);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_LZSS_H */
