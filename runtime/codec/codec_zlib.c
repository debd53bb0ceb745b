/* codec_zlib.c — zlib glue: streaming inflate and deflate with relic's
 * streaming contract (relic_stream.h) over zlib's own z_stream, and the
 * one-call forms built on them: inflate capped by a codec region's declared
 * decoded size, deflate for writers. zlib does the work (a well-kept
 * library); this file only enforces relic's limits and error contract. */
#include <zlib.h>

#include "relic_codec.h"

/* zlib's state and window come from the caller's arena (z_stream's
 * zalloc/zfree/opaque): nothing is freed before the arena is. */
static voidpf arena_zalloc(voidpf opaque, uInt items, uInt size)
{
    return relic_arena_array((relic_arena *)opaque, items, size, 16);
}

static void arena_zfree(voidpf opaque, voidpf p)
{
    (void)opaque;
    (void)p;
}

static void use_arena(z_stream *z, relic_arena *a)
{
    memset(z, 0, sizeof *z);
    z->zalloc = arena_zalloc;
    z->zfree = arena_zfree;
    z->opaque = a;
}

relic_status relic_codec_zlib_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t dst_size, relic_arena *a,
                                     relic_error *err)
{
    relic_stream s;
    memset(&s, 0, sizeof s);
    relic_status st = relic_codec_zlib_decode_init(&s, a, err);
    if (st != RELIC_OK) return st;
    s.next_in = src;
    s.avail_in = n;
    s.next_out = dst;
    s.avail_out = dst_size;
    relic_stream_status r = relic_stream_run(&s, RELIC_STREAM_FINISH, err);
    if (r == RELIC_STREAM_NEED_OUTPUT) {
        /* one byte past the end: any output here means the stream is too long */
        uint8_t spill;
        s.next_out = &spill;
        s.avail_out = 1;
        r = relic_stream_run(&s, RELIC_STREAM_FINISH, err);
        if (r != RELIC_STREAM_ERROR && s.total_out > dst_size) {
            relic_stream_end(&s);
            return relic_fail(err, RELIC_E_LAYOUT, s.total_in, "", "zlib stream holds more than the declared %zu bytes", dst_size);
        }
    }
    uint64_t produced = s.total_out, consumed = s.total_in;
    relic_stream_end(&s);
    if (r == RELIC_STREAM_ERROR) return err ? err->code : RELIC_E_RANGE;
    if (produced != dst_size)
        return relic_fail(err, RELIC_E_LAYOUT, consumed, "", "zlib stream holds %llu bytes, %zu declared", (unsigned long long)produced, dst_size);
    if (consumed != n)
        return relic_fail(err, RELIC_E_LAYOUT, consumed, "", "%llu bytes follow the end of the zlib stream", (unsigned long long)(n - consumed));
    return RELIC_OK;
}

relic_status relic_codec_zlib_encode(const uint8_t *src, size_t n, int level, relic_arena *a, relic_buf *out,
                                     relic_error *err)
{
    relic_stream s;
    memset(&s, 0, sizeof s);
    relic_status st = relic_codec_zlib_encode_init(&s, level, a, err);
    if (st == RELIC_OK) st = relic_stream_to_buf(&s, src, n, out, err);
    relic_stream_end(&s);
    return st;
}

/* ---- streaming inflate and deflate over zlib's own z_stream ---- */

typedef struct zlib_state {
    z_stream z;
    int level; /* -1: inflate */
} zlib_state;

/* zlib counts in uInt: hand it at most this much of a size_t buffer per call */
#define ZLIB_STEP ((size_t)1 << 30)

static relic_stream_status zlib_run(relic_stream *s, relic_stream_flush flush, relic_error *err)
{
    zlib_state *st = s->state;
    z_stream *z = &st->z;
    const int inflating = st->level < 0;
    uint8_t no_room;
    for (;;) {
        size_t give_in = s->avail_in < ZLIB_STEP ? s->avail_in : ZLIB_STEP;
        size_t give_out = s->avail_out < ZLIB_STEP ? s->avail_out : ZLIB_STEP;
        z->next_in = (Bytef *)(uintptr_t)s->next_in;
        z->avail_in = (uInt)give_in;
        z->next_out = give_out ? s->next_out : &no_room; /* zlib refuses a NULL next_out even with no room */
        z->avail_out = (uInt)give_out;
        int last = flush == RELIC_STREAM_FINISH && give_in == s->avail_in;
        int rc = inflating ? inflate(z, Z_NO_FLUSH) : deflate(z, last ? Z_FINISH : Z_NO_FLUSH);
        size_t used = give_in - z->avail_in, made = give_out - z->avail_out;
        if (used) { /* (an empty buffer may be NULL: no arithmetic on it) */
            s->next_in += used;
            s->avail_in -= used;
            s->total_in += used;
        }
        if (made) {
            s->next_out += made;
            s->avail_out -= made;
            s->total_out += made;
        }
        switch (rc) {
        case Z_STREAM_END:
            return RELIC_STREAM_DONE;
        case Z_OK:
        case Z_BUF_ERROR: /* Z_BUF_ERROR: no progress was possible */
            if (used || made) continue;
            if (s->avail_out == 0) return RELIC_STREAM_NEED_OUTPUT;
            if (s->avail_in == 0 && flush != RELIC_STREAM_FINISH) return RELIC_STREAM_NEED_INPUT;
            if (inflating && s->avail_in == 0) {
                relic_fail(err, RELIC_E_TRUNCATED, s->total_in, "", "zlib stream ends early after %llu bytes of output",
                           (unsigned long long)s->total_out);
                return RELIC_STREAM_ERROR;
            }
            relic_fail(err, RELIC_E_ARGUMENT, s->total_in, "", "zlib %s made no progress", inflating ? "inflate" : "deflate");
            return RELIC_STREAM_ERROR;
        case Z_NEED_DICT:
        case Z_DATA_ERROR:
            relic_fail(err, RELIC_E_RANGE, s->total_in, "", "corrupt zlib data: %s",
                       rc == Z_NEED_DICT ? "a preset dictionary is required" : z->msg ? z->msg
                                                                                      : "invalid stream");
            return RELIC_STREAM_ERROR;
        case Z_MEM_ERROR:
            relic_fail(err, RELIC_E_NOMEM, s->total_in, "", "zlib ran out of arena memory");
            return RELIC_STREAM_ERROR;
        default:
            relic_fail(err, RELIC_E_ARGUMENT, s->total_in, "", "zlib %s failed (%d)", inflating ? "inflate" : "deflate", rc);
            return RELIC_STREAM_ERROR;
        }
    }
}

static void zlib_end(relic_stream *s)
{
    zlib_state *st = s->state;
    if (st->level < 0) inflateEnd(&st->z);
    else deflateEnd(&st->z);
}

static const relic_stream_codec zlib_decode_codec = {"zlib decode", zlib_run, zlib_end};
static const relic_stream_codec zlib_encode_codec = {"zlib encode", zlib_run, zlib_end};

static relic_status zlib_init(relic_stream *s, int level, relic_arena *a, relic_error *err)
{
    if (!a) return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "no arena for zlib's state");
    if (level > 9) return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "zlib level %d is not 0..9", level);
    zlib_state *st = relic_arena_alloc(a, sizeof *st, 16);
    if (!st) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no arena room for the zlib stream");
    use_arena(&st->z, a);
    st->level = level;
    int rc = level < 0 ? inflateInit(&st->z) : deflateInit(&st->z, level);
    if (rc != Z_OK)
        return relic_fail(err, RELIC_E_NOMEM, 0, "", "cannot start zlib %s: the arena is too small", level < 0 ? "inflate" : "deflate");
    relic_stream_setup(s, level < 0 ? &zlib_decode_codec : &zlib_encode_codec, st);
    return RELIC_OK;
}

relic_status relic_codec_zlib_decode_init(relic_stream *s, relic_arena *a, relic_error *err)
{
    return zlib_init(s, -1, a, err);
}

relic_status relic_codec_zlib_encode_init(relic_stream *s, int level, relic_arena *a, relic_error *err)
{
    if (level < 0) return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "zlib level %d is not 0..9", level);
    return zlib_init(s, level, a, err);
}

uint64_t relic_codec_zlib_max_decoded(uint64_t n)
{
    /* each deflate bit can stand for at most 258 bytes / 2 bits ... bounded by 1032 bytes per input byte */
    return n > UINT64_MAX / 1032 ? UINT64_MAX : n * 1032 + 64;
}
