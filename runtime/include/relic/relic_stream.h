/* relic_stream.h — the one streaming contract of relic's codecs, decoders
 * and encoders alike: LZSS (relic_lzss.h), the SPZ and SZDD files around it,
 * IMA ADPCM (relic_adpcm.h) and the zlib glue (relic_codec.h).
 *
 * The shape is zlib's z_stream (zlib.h, "Basic functions"): the caller owns
 * both buffers and points next_in/avail_in and next_out/avail_out at them;
 * a codec's init function sets the codec's state up once, taking all of its
 * memory from the caller's arena; each relic_stream_run consumes what it can,
 * produces what fits, advances the four fields and the two totals, and says
 * what it stopped on. Nothing is allocated inside the loop. The verbs are the
 * same for every codec:
 *
 *     relic_stream s;
 *     relic_lzss_decode_init(&s, RELIC_LZSS_SPZ, arena, &err);   (or any *_init)
 *     do { refill s.next_in/avail_in, drain s.next_out/avail_out;
 *          st = relic_stream_run(&s, last_input ? RELIC_STREAM_FINISH : RELIC_STREAM_MORE, &err);
 *     } while (st == RELIC_STREAM_NEED_INPUT || st == RELIC_STREAM_NEED_OUTPUT);
 *     relic_stream_end(&s);
 *
 * Whatever the chunking (down to one byte in and one byte out per call) the
 * output is the same bytes as the codec's one-call function. */
#ifndef RELIC_STREAM_H
#define RELIC_STREAM_H

#include "relic.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a relic_stream_run call stopped on. */
typedef enum relic_stream_status {
    /** err holds why (code, byte offset in the input stream, field path,
     *  message); every later run returns ERROR again. */
    RELIC_STREAM_ERROR = -1,
    /** avail_in is 0 and the codec can go no further without input: give
     *  more, or call with RELIC_STREAM_FINISH when there is none. */
    RELIC_STREAM_NEED_INPUT = 1,
    /** avail_out is 0 and output is waiting: make room and call again. */
    RELIC_STREAM_NEED_OUTPUT = 2,
    /** The stream has ended and every output byte has been delivered; later
     *  runs return DONE and touch nothing. A decoder whose format marks its
     *  end (zlib) may leave input after the end in avail_in. */
    RELIC_STREAM_DONE = 3
} relic_stream_status;

/** Whether input follows what next_in/avail_in hold. */
typedef enum relic_stream_flush {
    RELIC_STREAM_MORE = 0,  /**< more input may follow in later calls */
    RELIC_STREAM_FINISH = 1 /**< no input follows: finish the stream (keep passing FINISH until DONE) */
} relic_stream_flush;

struct relic_stream;

/** A codec's two entry points, set by its init function. For codec
 *  implementations only: callers use relic_stream_run / relic_stream_end. */
typedef struct relic_stream_codec {
    const char *name; /**< for messages: "lzss decode", "zlib encode", ... */
    relic_stream_status (*run)(struct relic_stream *s, relic_stream_flush flush, relic_error *err);
    void (*end)(struct relic_stream *s); /**< NULL when there is nothing to release */
} relic_stream_codec;

/** One streaming codec's buffers and state (zlib's z_stream shape). The
 *  caller sets next_in/avail_in and next_out/avail_out before each run; the
 *  codec advances them and the totals. */
typedef struct relic_stream {
    const uint8_t *next_in; /**< next input byte */
    size_t avail_in;        /**< input bytes available at next_in */
    uint64_t total_in;      /**< input bytes consumed so far */
    uint8_t *next_out;      /**< next output byte */
    size_t avail_out;       /**< free bytes at next_out */
    uint64_t total_out;     /**< output bytes delivered so far */
    /* set by the codec's init function */
    const relic_stream_codec *codec; /**< which codec runs this stream */
    void *state;                     /**< the codec's state, in the caller's arena */
    relic_stream_status last;        /**< sticky ERROR / DONE */
} relic_stream;

/** Run the stream's codec: consume input and produce output until one of
 *  the four statuses holds. flush is RELIC_STREAM_FINISH once no input
 *  follows what avail_in holds. Errors (status ERROR, err filled): the
 *  codec's own (see its init function), RELIC_E_ARGUMENT when s was never
 *  set up, or when input is passed after FINISH was. Offsets are byte
 *  offsets in the whole input stream (total_in-based). */
relic_stream_status relic_stream_run(relic_stream *s, relic_stream_flush flush, relic_error *err);

/** Release what the codec holds besides arena memory (zlib's state) and
 *  detach it; the arena memory goes with the arena. Safe to call twice. */
void relic_stream_end(relic_stream *s);

/** Drive s to DONE over src[0..n) (all of the input, with FINISH),
 *  appending the output to out: the one-call form of any streaming codec.
 *  Errors: the codec's; RELIC_E_NOMEM when out cannot grow. */
relic_status relic_stream_to_buf(relic_stream *s, const uint8_t *src, size_t n, relic_buf *out, relic_error *err);

/** For codec implementations: set s up for codec with state (zeroing the
 *  buffers and totals). */
void relic_stream_setup(relic_stream *s, const relic_stream_codec *codec, void *state);

/** For codec implementations: copy held[*pos..len) to the caller's output
 *  as far as it has room, advancing *pos and s's output fields; returns 1
 *  when everything held has been delivered. */
int relic_stream_deliver(relic_stream *s, const uint8_t *held, size_t *pos, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_STREAM_H */
