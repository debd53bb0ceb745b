/* lzss_container.c — the two files around an LZSS stream: SPZ (u32 LE
 * uncompressed size, then the stream; Trespasser source, Source/Tools/LZSS/LZSS.cpp, Lib/Loader/ImageLoader.cpp, LZSS.cpp
 * 403–411) and Microsoft SZDD as written by COMPRESS.EXE (magic
 * "SZDD" 88 F0 27 33, mode 'A', the missing last character of the file
 * name, u32 LE uncompressed size, stream at 14; Trespasser source, Lib/Groff/FileIO.cpp). */
#include "relic_lzss.h"

#define SZDD_MAGIC_SIZE 8u
#define SZDD_MODE_OFFSET 8u
#define SZDD_MISSING_OFFSET 9u
#define SZDD_SIZE_OFFSET 10u

int relic_szdd_is(const uint8_t *data, size_t size)
{
    return size >= SZDD_MAGIC_SIZE && memcmp(data, RELIC_SZDD_MAGIC, SZDD_MAGIC_SIZE) == 0;
}

relic_status relic_szdd_header(const uint8_t *data, size_t size, relic_lzss_container *c, relic_error *err)
{
    if (size < RELIC_SZDD_HEADER_SIZE)
        return relic_fail(err, RELIC_E_TRUNCATED, size, "szdd", "an SZDD header is %u bytes, the file has %zu",
                          RELIC_SZDD_HEADER_SIZE, size);
    if (!relic_szdd_is(data, size))
        return relic_fail(err, RELIC_E_MAGIC, 0, "szdd.magic", "not SZDD (magic \"SZDD\" 88 F0 27 33 expected)");
    if (data[SZDD_MODE_OFFSET] != RELIC_SZDD_MODE_A)
        return relic_fail(err, RELIC_E_MAGIC, SZDD_MODE_OFFSET, "szdd.mode", "SZDD mode 0x%02x is not 'A' (0x41)",
                          data[SZDD_MODE_OFFSET]);
    c->variant = RELIC_LZSS_SZDD;
    c->missing_char = data[SZDD_MISSING_OFFSET];
    c->decoded_size = relic_load_u32le(data + SZDD_SIZE_OFFSET);
    c->stream_offset = RELIC_SZDD_HEADER_SIZE;
    return RELIC_OK;
}

relic_status relic_spz_header(const uint8_t *data, size_t size, relic_lzss_container *c, relic_error *err)
{
    if (size < RELIC_SPZ_HEADER_SIZE)
        return relic_fail(err, RELIC_E_TRUNCATED, size, "spz.size", "an SPZ starts with a 4-byte size, the file has %zu bytes", size);
    c->variant = RELIC_LZSS_SPZ;
    c->missing_char = 0;
    c->decoded_size = relic_load_u32le(data);
    c->stream_offset = RELIC_SPZ_HEADER_SIZE;
    return RELIC_OK;
}

relic_status relic_lzss_container_decode(const uint8_t *data, size_t size, relic_lzss_variant v, uint64_t limit,
                                         relic_arena *a, relic_bytes *out, relic_error *err)
{
    relic_lzss_container c;
    memset(&c, 0, sizeof c); /* gcc cannot see that the header readers fill it on success */
    relic_status st = v == RELIC_LZSS_SZDD ? relic_szdd_header(data, size, &c, err) : relic_spz_header(data, size, &c, err);
    if (st != RELIC_OK) return st;
    if (c.decoded_size > limit)
        return relic_fail(err, RELIC_E_LIMIT, c.stream_offset - 4, v == RELIC_LZSS_SZDD ? "szdd.size" : "spz.size",
                          "declared size %u is above the limit of %llu bytes", c.decoded_size, (unsigned long long)limit);
    if (c.decoded_size > relic_lzss_max_decoded_size(size - c.stream_offset))
        return relic_fail(err, RELIC_E_LAYOUT, c.stream_offset - 4, v == RELIC_LZSS_SZDD ? "szdd.size" : "spz.size",
                          "declared size %u is more than %zu bytes of LZSS can hold", c.decoded_size, size - c.stream_offset);
    uint8_t *dst = relic_arena_alloc(a, c.decoded_size ? c.decoded_size : 1, 16);
    if (!dst) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for %u decoded bytes", c.decoded_size);
    st = relic_lzss_decode_buffer(v, data + c.stream_offset, size - c.stream_offset, dst, c.decoded_size, err);
    if (st != RELIC_OK) {
        if (err) {
            err->offset += c.stream_offset;
            if (!err->path[0]) snprintf(err->path, sizeof err->path, "%s", v == RELIC_LZSS_SZDD ? "szdd.data" : "spz.data");
        }
        return st;
    }
    out->data = dst;
    out->size = c.decoded_size;
    return RELIC_OK;
}

size_t relic_lzss_container_header(relic_lzss_variant v, uint8_t missing_char, uint32_t size,
                                   uint8_t h[RELIC_SZDD_HEADER_SIZE])
{
    if (v == RELIC_LZSS_SZDD) {
        memcpy(h, RELIC_SZDD_MAGIC, SZDD_MAGIC_SIZE);
        h[SZDD_MODE_OFFSET] = RELIC_SZDD_MODE_A;
        h[SZDD_MISSING_OFFSET] = missing_char;
        relic_store_u32le(h + SZDD_SIZE_OFFSET, size);
        return RELIC_SZDD_HEADER_SIZE;
    }
    relic_store_u32le(h, size);
    return RELIC_SPZ_HEADER_SIZE;
}

relic_status relic_lzss_container_encode(relic_lzss_variant v, relic_lzss_level level, uint8_t missing_char,
                                         const uint8_t *src, size_t n, relic_arena *scratch, relic_buf *out,
                                         relic_error *err)
{
    if (!out) return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "no output buffer");
    if ((uint64_t)n > UINT32_MAX)
        return relic_fail(err, RELIC_E_LIMIT, 0, "", "%zu bytes do not fit the container's 32-bit size", n);
    /* the bytes of relic_lzss_container_encode_init's stream: its header, then
     * relic_lzss_encode, the encoder's loops run in place */
    uint8_t h[RELIC_SZDD_HEADER_SIZE];
    relic_buf_append(out, h, relic_lzss_container_header(v, missing_char, (uint32_t)n, h));
    if (out->failed) return relic_fail(err, RELIC_E_NOMEM, 0, "", "cannot grow the output");
    return relic_lzss_encode(v, level, src, n, scratch, out, err);
}

/* ---- the streaming file decoder: header, then the LZSS stream ---- */

typedef struct container_dec {
    relic_lzss_variant v;
    uint64_t limit;
    uint8_t hdr[RELIC_SZDD_HEADER_SIZE];
    size_t hdr_fill, hdr_size;
    relic_lzss_container c;
    relic_stream inner; /* the LZSS decoder, sharing the caller's buffers */
} container_dec;

static relic_stream_status cdec_run(relic_stream *s, relic_stream_flush flush, relic_error *err)
{
    container_dec *d = s->state;
    const char *field = d->v == RELIC_LZSS_SZDD ? "szdd" : "spz";
    char path[16];
    while (d->hdr_fill < d->hdr_size) {
        if (!s->avail_in) {
            if (flush != RELIC_STREAM_FINISH) return RELIC_STREAM_NEED_INPUT;
            /* the input ends inside the header: the header reader says so */
            if (d->v == RELIC_LZSS_SZDD) relic_szdd_header(d->hdr, d->hdr_fill, &d->c, err);
            else relic_spz_header(d->hdr, d->hdr_fill, &d->c, err);
            return RELIC_STREAM_ERROR;
        }
        size_t k = d->hdr_size - d->hdr_fill;
        if (k > s->avail_in) k = s->avail_in;
        memcpy(d->hdr + d->hdr_fill, s->next_in, k);
        d->hdr_fill += k;
        s->next_in += k;
        s->avail_in -= k;
        s->total_in += k;
        if (d->hdr_fill < d->hdr_size) continue;
        relic_status st = d->v == RELIC_LZSS_SZDD ? relic_szdd_header(d->hdr, d->hdr_size, &d->c, err)
                                                  : relic_spz_header(d->hdr, d->hdr_size, &d->c, err);
        if (st != RELIC_OK) return RELIC_STREAM_ERROR;
        if (d->c.decoded_size > d->limit) {
            snprintf(path, sizeof path, "%s.size", field);
            relic_fail(err, RELIC_E_LIMIT, d->c.stream_offset - 4, path, "declared size %u is above the limit of %llu bytes",
                       d->c.decoded_size, (unsigned long long)d->limit);
            return RELIC_STREAM_ERROR;
        }
    }
    /* the LZSS stream, its output capped at the declared size */
    uint64_t left = d->c.decoded_size - s->total_out;
    relic_stream *in = &d->inner;
    in->next_in = s->next_in;
    in->avail_in = s->avail_in;
    in->total_in = s->total_in;
    in->next_out = s->next_out;
    in->avail_out = s->avail_out < left ? s->avail_out : (size_t)left;
    in->total_out = s->total_out;
    size_t out_given = in->avail_out;
    relic_stream_status r = relic_stream_run(in, flush, err);
    size_t made = out_given - in->avail_out;
    s->next_in = in->next_in;
    s->avail_in = in->avail_in;
    s->total_in = in->total_in;
    if (made) {
        s->next_out += made;
        s->avail_out -= made;
        s->total_out += made;
    }
    snprintf(path, sizeof path, "%s.data", field);
    if (r == RELIC_STREAM_ERROR) {
        if (err && !err->path[0]) snprintf(err->path, sizeof err->path, "%s", path);
        return r;
    }
    if (r == RELIC_STREAM_NEED_OUTPUT && s->total_out == d->c.decoded_size) {
        relic_fail(err, RELIC_E_LAYOUT, s->total_in, path, "the LZSS stream holds more than the declared %u bytes",
                   d->c.decoded_size);
        return RELIC_STREAM_ERROR;
    }
    if (r == RELIC_STREAM_DONE && s->total_out != d->c.decoded_size) {
        relic_fail(err, RELIC_E_TRUNCATED, s->total_in, path, "the LZSS stream holds %llu bytes, %u declared",
                   (unsigned long long)s->total_out, d->c.decoded_size);
        return RELIC_STREAM_ERROR;
    }
    return r;
}

static const relic_stream_codec container_decode_codec = {"lzss file decode", cdec_run, NULL};

relic_status relic_lzss_container_decode_init(relic_stream *s, relic_lzss_variant v, uint64_t limit, relic_arena *a,
                                              relic_error *err)
{
    if (!a) return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "no arena for the LZSS file decoder");
    container_dec *d = relic_arena_alloc(a, sizeof *d, 16);
    if (!d) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no arena room for the LZSS file decoder");
    memset(d, 0, sizeof *d);
    d->v = v;
    d->limit = limit;
    d->hdr_size = v == RELIC_LZSS_SZDD ? RELIC_SZDD_HEADER_SIZE : RELIC_SPZ_HEADER_SIZE;
    relic_status st = relic_lzss_decode_init(&d->inner, v, a, err);
    if (st != RELIC_OK) return st;
    relic_stream_setup(s, &container_decode_codec, d);
    return RELIC_OK;
}
