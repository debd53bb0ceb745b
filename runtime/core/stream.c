/* stream.c — the verbs every streaming codec shares (relic_stream.h): run
 * and end dispatch to the codec set up by its init function, with the
 * sticky ERROR/DONE and argument checks done once here instead of in each
 * codec; the one-call driver over a relic_buf; the delivery helper codecs
 * use for output they hold. Shape: zlib's z_stream (zlib.h). */
#include "relic_stream.h"

void relic_stream_setup(relic_stream *s, const relic_stream_codec *codec, void *state)
{
    memset(s, 0, sizeof *s);
    s->codec = codec;
    s->state = state;
    s->last = RELIC_STREAM_NEED_INPUT;
}

relic_stream_status relic_stream_run(relic_stream *s, relic_stream_flush flush, relic_error *err)
{
    if (!s || !s->codec || !s->state) {
        relic_fail(err, RELIC_E_ARGUMENT, 0, "", "the stream was not set up by a codec's init function");
        return RELIC_STREAM_ERROR;
    }
    if (s->last == RELIC_STREAM_ERROR) {
        relic_fail(err, RELIC_E_ARGUMENT, s->total_in, "", "the %s stream failed earlier", s->codec->name);
        return RELIC_STREAM_ERROR;
    }
    if (s->last == RELIC_STREAM_DONE) return RELIC_STREAM_DONE;
    if ((s->avail_in && !s->next_in) || (s->avail_out && !s->next_out)) {
        relic_fail(err, RELIC_E_ARGUMENT, s->total_in, "", "a %s buffer is NULL with a non-zero size",
                   s->avail_in && !s->next_in ? "input" : "output");
        return s->last = RELIC_STREAM_ERROR;
    }
    s->last = s->codec->run(s, flush, err);
    return s->last;
}

void relic_stream_end(relic_stream *s)
{
    if (!s || !s->codec) return;
    if (s->codec->end && s->state) s->codec->end(s);
    s->codec = NULL;
    s->state = NULL;
}

int relic_stream_deliver(relic_stream *s, const uint8_t *held, size_t *pos, size_t len)
{
    size_t k = len - *pos;
    if (k > s->avail_out) k = s->avail_out;
    if (k) {
        memcpy(s->next_out, held + *pos, k);
        s->next_out += k;
        s->avail_out -= k;
        s->total_out += k;
        *pos += k;
    }
    return *pos == len;
}

/* output room asked of the relic_buf per run */
#define TO_BUF_CHUNK ((size_t)64 * 1024)

relic_status relic_stream_to_buf(relic_stream *s, const uint8_t *src, size_t n, relic_buf *out, relic_error *err)
{
    s->next_in = src;
    s->avail_in = n;
    for (;;) {
        uint8_t *room = relic_buf_extend(out, TO_BUF_CHUNK);
        if (!room) return relic_fail(err, RELIC_E_NOMEM, s->total_in, "", "cannot grow the %s output",
                                     s->codec ? s->codec->name : "stream");
        s->next_out = room;
        s->avail_out = TO_BUF_CHUNK;
        relic_stream_status st = relic_stream_run(s, RELIC_STREAM_FINISH, err);
        out->size -= s->avail_out;
        s->next_out = NULL;
        s->avail_out = 0;
        if (st == RELIC_STREAM_DONE) return RELIC_OK;
        if (st == RELIC_STREAM_ERROR) return err ? err->code : RELIC_E_ARGUMENT;
        if (st == RELIC_STREAM_NEED_INPUT) /* FINISH was given: a codec never asks again */
            return relic_fail(err, RELIC_E_ARGUMENT, s->total_in, "", "the %s stream asked for input after FINISH",
                              s->codec ? s->codec->name : "");
    }
}
