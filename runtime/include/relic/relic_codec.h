/* relic_codec.h — codecs for the schema language's codec regions
 * (`bytes x[n] codec zlib(size) as STRUCT`). Each decodes a whole region
 * into a caller buffer of exactly the declared decoded size: a stream that
 * would produce more, or less, is rejected, so a file cannot make relic
 * allocate more than it declared (and the caller caps the declaration).
 * The zlib glue also streams both ways with the contract of every relic
 * codec (relic_stream.h); its one-call forms are built on those streams. */
#ifndef RELIC_CODEC_H
#define RELIC_CODEC_H

#include "relic.h"
#include "relic_stream.h"

/** Largest decoded region a generated decoder accepts (bytes). */
#define RELIC_CODEC_MAX_DECODED ((uint64_t)1 << 30)

/** Inflate a zlib stream (RFC 1950) src[0..n) into exactly dst_size bytes
 *  of dst. zlib's state and 32 KiB window (about 40 KiB,
 *  RELIC_CODEC_ZLIB_DECODE_SCRATCH) come from arena a through z_stream's
 *  zalloc/zfree; nothing is taken from the heap.
 *  Errors: RELIC_E_LAYOUT when the stream ends early, holds more than
 *  dst_size bytes or is followed by trailing bytes; RELIC_E_RANGE when the
 *  data are corrupt (zlib's message); RELIC_E_NOMEM (arena too small);
 *  RELIC_E_ARGUMENT (a is NULL). Offsets are in src. */
relic_status relic_codec_zlib_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t dst_size, relic_arena *a,
                                     relic_error *err);

/** Deflate src[0..n) as a zlib stream at the given level (0-9), appending
 *  to out. zlib's state (about 270 KiB at the default memLevel 8,
 *  RELIC_CODEC_ZLIB_ENCODE_SCRATCH) comes from arena a. Errors:
 *  RELIC_E_NOMEM, RELIC_E_ARGUMENT (bad level, a is NULL). */
relic_status relic_codec_zlib_encode(const uint8_t *src, size_t n, int level, relic_arena *a, relic_buf *out,
                                     relic_error *err);

/** Start a streaming inflate (RFC 1950) on s (relic_stream.h); zlib's
 *  state and window (RELIC_CODEC_ZLIB_DECODE_SCRATCH) come from arena a
 *  through z_stream's zalloc/zfree. DONE comes at the stream's end, with
 *  any bytes after it left in avail_in; relic_stream_end releases zlib's
 *  state. Run errors (offsets in the input): RELIC_E_RANGE (corrupt data,
 *  zlib's message), RELIC_E_TRUNCATED (FINISH before the stream's end),
 *  RELIC_E_NOMEM. Init errors: RELIC_E_ARGUMENT (a is NULL), RELIC_E_NOMEM. */
relic_status relic_codec_zlib_decode_init(relic_stream *s, relic_arena *a, relic_error *err);

/** Start a streaming deflate at level (0-9) on s; zlib's state
 *  (RELIC_CODEC_ZLIB_ENCODE_SCRATCH) comes from arena a. For levels 1-9 the
 *  bytes equal relic_codec_zlib_encode's whatever the chunking; level 0's
 *  stored blocks follow the output room zlib is given. Errors: as
 *  relic_codec_zlib_encode. */
relic_status relic_codec_zlib_encode_init(relic_stream *s, int level, relic_arena *a, relic_error *err);

/** Arena bytes zlib's inflate needs beyond the output (inflate_state plus
 *  the 32 KiB window, rounded up; zlib's zconf.h "memory usage" note). */
#define RELIC_CODEC_ZLIB_DECODE_SCRATCH ((size_t)48 * 1024)
/** Arena bytes zlib's deflate needs (zconf.h: (1 << (windowBits+2)) +
 *  (1 << (memLevel+9)) for windowBits 15, memLevel 8, plus the state). */
#define RELIC_CODEC_ZLIB_ENCODE_SCRATCH ((size_t)288 * 1024)

/** Decode a Trespasser SPZ-form LZSS stream (zero-filled ring, start 4078;
 *  no size prefix: the size is the schema's) src[0..n) into exactly
 *  dst_size bytes of dst, with no memory beyond dst (runtime/codec/codec_lzss.c,
 *  relic_lzss.h). Errors: RELIC_E_LAYOUT when the stream holds more than
 *  dst_size bytes; RELIC_E_TRUNCATED when it holds fewer or ends inside a
 *  match. Offsets are in src. a is unused (the codecs share one
 *  signature; LZSS needs no scratch). */
relic_status relic_codec_lzss_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t dst_size, relic_arena *a,
                                     relic_error *err);

/** Encode src[0..n) as an SPZ-form LZSS stream appended to out; level 1
 *  fast, 2 greedy (the original encoder's method), 3 best ratio. Scratch
 *  tables come from arena a (relic_lzss_encode).
 *  Errors: RELIC_E_NOMEM, RELIC_E_ARGUMENT (bad level, a is NULL). */
relic_status relic_codec_lzss_encode(const uint8_t *src, size_t n, int level, relic_arena *a, relic_buf *out,
                                     relic_error *err);

/** The most bytes an n-byte stream of each codec can decode to, so a region
 *  that declares more is rejected before anything is allocated. zlib: deflate
 *  expands at most 1032:1 (RFC 1951 length codes), plus the stream overhead;
 *  lzss: relic_lzss_max_decoded_size. */
uint64_t relic_codec_zlib_max_decoded(uint64_t n);
uint64_t relic_codec_lzss_max_decoded(uint64_t n);

#endif
