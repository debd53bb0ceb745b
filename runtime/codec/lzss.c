/* lzss.c — LZSS decoders (SPZ and SZDD ring set-ups): the resumable
 * streaming decoder over the 4 KiB ring (relic_stream.h's contract), and a
 * one-shot decoder that uses its output buffer as the history. Item format: relic_lzss.h; facts:
 * Trespasser source, Source/Tools/LZSS/LZSS.cpp, Lib/Loader/ImageLoader.cpp (the game's loop, ImageLoader.cpp 1110–1281),
 * Trespasser source, Lib/Groff/FileIO.cpp; Trespasser file formats, "SPZ" worked example (tests/test_lzss.c). */
#include "relic_lzss.h"

#define RING_MASK (RELIC_LZSS_RING - 1u)
/* The flag register holds the remaining bits of the current flag byte
 * above a marker bit; when only the marker is left a new flag byte is due. */
#define FLAGS_EMPTY 1u
#define FLAGS_MARKER 0x100u
/* One flag group: a flag byte and 8 two-byte matches; 8 matches of 18 bytes. */
#define GROUP_MAX_IN 17u
#define GROUP_MAX_OUT (8u * RELIC_LZSS_MAX_MATCH)

unsigned relic_lzss_start(relic_lzss_variant v)
{
    return v == RELIC_LZSS_SZDD ? RELIC_LZSS_RING - 16u : RELIC_LZSS_RING - RELIC_LZSS_MAX_MATCH;
}

uint8_t relic_lzss_fill(relic_lzss_variant v) { return v == RELIC_LZSS_SZDD ? 0x20 : 0x00; }

/* The decoder's state: the 4 KiB ring and where the item stream stands. */
typedef struct lzss_dec {
    unsigned flags;    /* remaining flag bits, with a marker bit above them; FLAGS_EMPTY = need a flag byte */
    unsigned r;        /* ring write position */
    unsigned copy_pos; /* pending match: next ring position to copy */
    unsigned copy_len; /* pending match: bytes left to copy */
    int have_b1;       /* first byte of a match read, second missing */
    uint8_t b1;
    uint8_t ring[RELIC_LZSS_RING];
} lzss_dec;

static void dec_reset(lzss_dec *d, relic_lzss_variant v)
{
    memset(d, 0, sizeof *d);
    /* The game leaves SPZ ring bytes 4078..4095 uninitialised; no encoder
     * reads them before writing them, so zero is as good as anything. */
    memset(d->ring, relic_lzss_fill(v), sizeof d->ring);
    d->r = relic_lzss_start(v);
    d->flags = FLAGS_EMPTY;
}

static relic_stream_status dec_run(relic_stream *s, relic_stream_flush flush, relic_error *err);
static const relic_stream_codec lzss_decode_codec = {"lzss decode", dec_run, NULL};

relic_status relic_lzss_decode_init(relic_stream *s, relic_lzss_variant v, relic_arena *a, relic_error *err)
{
    lzss_dec *d = a ? relic_arena_alloc(a, sizeof *d, 16) : NULL;
    if (!d) return relic_fail(err, a ? RELIC_E_NOMEM : RELIC_E_ARGUMENT, 0, "", "no arena room for the LZSS decoder (%zu bytes)", sizeof *d);
    dec_reset(d, v);
    relic_stream_setup(s, &lzss_decode_codec, d);
    return RELIC_OK;
}

/* b - a for a <= b in one buffer; empty buffers may be NULL (no arithmetic on NULL) */
static inline size_t span(const uint8_t *a, const uint8_t *b) { return a == b ? 0 : (size_t)(b - a); }

static relic_stream_status dec_run(relic_stream *s, relic_stream_flush flush, relic_error *err)
{
    lzss_dec *d = s->state;
    const int at_end = flush == RELIC_STREAM_FINISH;
    const uint8_t *in = s->next_in;
    const uint8_t *in_end = s->avail_in ? in + s->avail_in : in;
    uint8_t *out = s->next_out;
    uint8_t *out_end = s->avail_out ? out + s->avail_out : out;
    uint8_t *ring = d->ring;
    unsigned r = d->r, flags = d->flags;
    relic_stream_status res;

    for (;;) {
        if (d->copy_len) {
            unsigned p = d->copy_pos, n = d->copy_len;
            while (n && out < out_end) {
                uint8_t c = ring[p];
                p = (p + 1) & RING_MASK;
                *out++ = c;
                ring[r] = c;
                r = (r + 1) & RING_MASK;
                n--;
            }
            d->copy_pos = p;
            d->copy_len = n;
            if (n) {
                res = RELIC_STREAM_NEED_OUTPUT;
                break;
            }
        }
        if (d->have_b1) {
            if (in == in_end) goto input_end;
            unsigned b2 = *in++;
            d->have_b1 = 0;
            d->copy_pos = d->b1 | ((b2 & 0xF0u) << 4);
            d->copy_len = (b2 & 0x0Fu) + RELIC_LZSS_MIN_MATCH;
            continue;
        }
        /* Fast path: whole flag groups while both buffers have room for one.
         * The output buffer is the history here: a match whose source was
         * produced in this run copies from the output (memcpy when it does
         * not overlap), only older sources come from the ring, and the ring
         * is brought up to date once, from the output, when the run ends. */
        if (flags == FLAGS_EMPTY && span(in, in_end) >= GROUP_MAX_IN && span(out, out_end) >= GROUP_MAX_OUT) {
            uint8_t *run = out;    /* output of this run starts here */
            const unsigned r0 = r; /* ring position of run[0] */
            do {
                unsigned f = *in++;
                if (f == 0xFFu) { /* 8 literals */
                    memcpy(out, in, 8);
                    in += 8;
                    out += 8;
                    continue;
                }
                for (int k = 0; k < 8; k++, f >>= 1) {
                    if (f & 1u) {
                        *out++ = *in++;
                        continue;
                    }
                    unsigned p = in[0] | ((in[1] & 0xF0u) << 4);
                    unsigned n = (in[1] & 0x0Fu) + RELIC_LZSS_MIN_MATCH;
                    in += 2;
                    size_t made = (size_t)(out - run);
                    /* ring position of the next output byte, and how far back p is (1..4096) */
                    unsigned rr = (unsigned)((r0 + made) & RING_MASK);
                    size_t dist = ((rr - p - 1u) & RING_MASK) + 1u;
                    if (dist <= made) {
                        const uint8_t *src = out - dist;
                        if (dist >= RELIC_LZSS_MAX_MATCH) memcpy(out, src, RELIC_LZSS_MAX_MATCH); /* room: GROUP_MAX_OUT */
                        else
                            for (unsigned j = 0; j < n; j++) out[j] = src[j];
                        out += n;
                    } else {
                        /* starts before this run: ring bytes, then possibly this run's */
                        for (unsigned j = 0; j < n; j++, made++) {
                            out[j] = dist <= made ? run[made - dist] : ring[(r0 + made - dist) & RING_MASK];
                        }
                        out += n;
                    }
                }
            } while (span(in, in_end) >= GROUP_MAX_IN && span(out, out_end) >= GROUP_MAX_OUT);
            /* the ring now takes the last (up to) 4096 bytes of the run */
            size_t made = (size_t)(out - run), keep = made < RELIC_LZSS_RING ? made : RELIC_LZSS_RING;
            unsigned at = (unsigned)((r0 + made - keep) & RING_MASK);
            const uint8_t *src = out - keep;
            size_t first = RELIC_LZSS_RING - at < keep ? RELIC_LZSS_RING - at : keep;
            memcpy(ring + at, src, first);
            memcpy(ring, src + first, keep - first);
            r = (unsigned)((r0 + made) & RING_MASK);
        }
        if (flags == FLAGS_EMPTY) {
            if (in == in_end) goto input_end;
            flags = *in++ | FLAGS_MARKER;
        }
        if (in == in_end) goto input_end;
        if (flags & 1u) {
            if (out == out_end) {
                res = RELIC_STREAM_NEED_OUTPUT;
                break;
            }
            uint8_t c = *in++;
            *out++ = c;
            ring[r] = c;
            r = (r + 1) & RING_MASK;
            flags >>= 1;
        } else {
            d->b1 = *in++;
            d->have_b1 = 1;
            flags >>= 1;
        }
    }
    goto done;

input_end:
    if (!at_end) {
        res = RELIC_STREAM_NEED_INPUT;
    } else if (d->have_b1) {
        relic_fail(err, RELIC_E_TRUNCATED, s->total_in + span(s->next_in, in), "",
                   "the LZSS stream ends inside a match (1 of its 2 bytes)");
        res = RELIC_STREAM_ERROR;
    } else {
        res = RELIC_STREAM_DONE;
    }

done:
    s->total_in += span(s->next_in, in);
    s->next_in = in;
    s->avail_in = span(in, in_end);
    s->total_out += span(s->next_out, out);
    s->next_out = out;
    s->avail_out = span(out, out_end);
    d->r = r;
    d->flags = flags;
    return res;
}

relic_status relic_lzss_decode_buffer(relic_lzss_variant v, const uint8_t *src, size_t n, uint8_t *dst,
                                      size_t dst_size, relic_error *err)
{
    const unsigned start = relic_lzss_start(v);
    const uint8_t fill = relic_lzss_fill(v);
    size_t i = 0, o = 0;
    while (i < n) {
        if (n - i >= GROUP_MAX_IN && dst_size - o >= GROUP_MAX_OUT) {
            /* a whole group fits both buffers: no checks per item */
            unsigned f = src[i++];
            if (f == 0xFFu) {
                memcpy(dst + o, src + i, 8);
                i += 8;
                o += 8;
                continue;
            }
            for (int k = 0; k < 8; k++, f >>= 1) {
                if (f & 1u) {
                    dst[o++] = src[i++];
                    continue;
                }
                unsigned p = src[i] | ((src[i + 1] & 0xF0u) << 4);
                size_t len = (src[i + 1] & 0x0Fu) + RELIC_LZSS_MIN_MATCH;
                i += 2;
                size_t dist = ((start + o - p - 1u) & RING_MASK) + 1u;
                uint8_t *q = dst + o;
                if (dist <= o) {
                    const uint8_t *from = q - dist;
                    if (dist >= RELIC_LZSS_MAX_MATCH) memcpy(q, from, RELIC_LZSS_MAX_MATCH);
                    else
                        for (size_t j = 0; j < len; j++) q[j] = from[j];
                } else {
                    for (size_t j = 0; j < len; j++) q[j] = o + j >= dist ? dst[o + j - dist] : fill;
                }
                o += len;
            }
            continue;
        }
        unsigned flags = src[i++] | FLAGS_MARKER;
        for (; flags != FLAGS_EMPTY && i < n; flags >>= 1) {
            if (flags & 1u) {
                if (o == dst_size)
                    return relic_fail(err, RELIC_E_LAYOUT, i, "", "the LZSS stream holds more than the declared %zu bytes", dst_size);
                dst[o++] = src[i++];
                continue;
            }
            if (n - i < 2)
                return relic_fail(err, RELIC_E_TRUNCATED, n, "", "the LZSS stream ends inside a match (1 of its 2 bytes)");
            unsigned p = src[i] | ((src[i + 1] & 0xF0u) << 4);
            size_t len = (src[i + 1] & 0x0Fu) + RELIC_LZSS_MIN_MATCH;
            if (len > dst_size - o)
                return relic_fail(err, RELIC_E_LAYOUT, i, "", "the LZSS stream holds more than the declared %zu bytes", dst_size);
            i += 2;
            /* the ring position of output byte o is (start + o) mod 4096, so
             * position p holds the byte `dist` back, or the fill before the start */
            size_t dist = ((start + o - p - 1u) & RING_MASK) + 1u;
            if (dist <= o) {
                uint8_t *q = dst + o;
                const uint8_t *s = q - dist;
                if (dist >= len && dst_size - o >= RELIC_LZSS_MAX_MATCH && dist >= RELIC_LZSS_MAX_MATCH)
                    memcpy(q, s, RELIC_LZSS_MAX_MATCH); /* fixed size: one pair of wide moves */
                else if (dist >= len)
                    memcpy(q, s, len);
                else
                    for (size_t k = 0; k < len; k++) q[k] = s[k];
            } else {
                for (size_t k = 0; k < len; k++) dst[o + k] = o + k >= dist ? dst[o + k - dist] : fill;
            }
            o += len;
        }
    }
    if (o != dst_size)
        return relic_fail(err, RELIC_E_TRUNCATED, n, "", "the LZSS stream holds %zu bytes, %zu declared", o, dst_size);
    return RELIC_OK;
}

uint64_t relic_lzss_max_decoded_size(uint64_t n)
{
    return (n / GROUP_MAX_IN + (n % GROUP_MAX_IN != 0)) * GROUP_MAX_OUT;
}

relic_status relic_lzss_decoded_size(relic_lzss_variant v, const uint8_t *src, size_t n, uint64_t *size,
                                     relic_error *err)
{
    lzss_dec d; /* on the stack: the dry run needs no arena */
    relic_stream s;
    uint8_t sink[4096];
    dec_reset(&d, v);
    relic_stream_setup(&s, &lzss_decode_codec, &d);
    s.next_in = src;
    s.avail_in = n;
    for (;;) {
        s.next_out = sink;
        s.avail_out = sizeof sink;
        relic_stream_status res = relic_stream_run(&s, RELIC_STREAM_FINISH, err);
        if (res == RELIC_STREAM_ERROR) return err ? err->code : RELIC_E_TRUNCATED;
        if (res == RELIC_STREAM_DONE) break;
    }
    *size = s.total_out;
    return RELIC_OK;
}
