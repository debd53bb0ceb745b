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

relic_status relic_lzss_container_encode(relic_lzss_variant v, relic_lzss_level level, uint8_t missing_char,
                                         const uint8_t *src, size_t n, relic_arena *scratch, relic_buf *out,
                                         relic_error *err)
{
    if ((uint64_t)n > UINT32_MAX)
        return relic_fail(err, RELIC_E_LIMIT, 0, "", "%zu bytes do not fit the container's 32-bit size", n);
    if (v == RELIC_LZSS_SZDD) {
        uint8_t *h = relic_buf_extend(out, RELIC_SZDD_HEADER_SIZE);
        if (!h) return relic_fail(err, RELIC_E_NOMEM, 0, "", "cannot grow the output");
        memcpy(h, RELIC_SZDD_MAGIC, SZDD_MAGIC_SIZE);
        h[SZDD_MODE_OFFSET] = RELIC_SZDD_MODE_A;
        h[SZDD_MISSING_OFFSET] = missing_char;
        relic_store_u32le(h + SZDD_SIZE_OFFSET, (uint32_t)n);
    } else {
        uint8_t *h = relic_buf_extend(out, RELIC_SPZ_HEADER_SIZE);
        if (!h) return relic_fail(err, RELIC_E_NOMEM, 0, "", "cannot grow the output");
        relic_store_u32le(h, (uint32_t)n);
    }
    return relic_lzss_encode(v, level, src, n, scratch, out, err);
}
