/* codec_zlib.c — zlib glue for codec regions: inflate capped by the declared
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
    if (!a) return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "no arena for zlib's state");
    z_stream z;
    use_arena(&z, a);
    if (inflateInit(&z) != Z_OK) return relic_fail(err, RELIC_E_NOMEM, 0, "", "cannot start zlib inflate: the arena is too small");
    uint8_t spill;
    size_t in_done = 0, out_done = 0;
    int rc = Z_OK;
    /* feed in chunks zlib's uInt can hold; the output is the caller's buffer */
    while (rc == Z_OK) {
        if (z.avail_in == 0 && in_done < n) {
            size_t k = n - in_done > 0x40000000u ? 0x40000000u : n - in_done;
            z.next_in = (Bytef *)(uintptr_t)(src + in_done);
            z.avail_in = (uInt)k;
            in_done += k;
        }
        if (z.avail_out == 0) {
            if (out_done < dst_size) {
                size_t k = dst_size - out_done > 0x40000000u ? 0x40000000u : dst_size - out_done;
                z.next_out = dst + out_done;
                z.avail_out = (uInt)k;
                out_done += k;
            } else {
                /* one byte past the end: any output here means the stream is too long */
                z.next_out = &spill;
                z.avail_out = 1;
                out_done++;
            }
        }
        rc = inflate(&z, Z_NO_FLUSH);
        if (rc == Z_BUF_ERROR && z.avail_in == 0 && in_done == n) break;
        if (rc == Z_OK && out_done > dst_size && z.avail_out == 0) { rc = Z_DATA_ERROR + 100; break; }
    }
    uint64_t produced = z.total_out, consumed = z.total_in;
    const char *msg = z.msg;
    inflateEnd(&z);
    if (rc == Z_DATA_ERROR + 100 || produced > dst_size)
        return relic_fail(err, RELIC_E_LAYOUT, consumed, "", "zlib stream holds more than the declared %zu bytes", dst_size);
    if (rc == Z_STREAM_END) {
        if (produced != dst_size)
            return relic_fail(err, RELIC_E_LAYOUT, consumed, "", "zlib stream holds %llu bytes, %zu declared", (unsigned long long)produced, dst_size);
        if (consumed != n)
            return relic_fail(err, RELIC_E_LAYOUT, consumed, "", "%llu bytes follow the end of the zlib stream", (unsigned long long)(n - consumed));
        return RELIC_OK;
    }
    if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT)
        return relic_fail(err, RELIC_E_RANGE, consumed, "", "corrupt zlib data: %s", msg ? msg : "invalid stream");
    if (rc == Z_MEM_ERROR) return relic_fail(err, RELIC_E_NOMEM, consumed, "", "zlib ran out of memory");
    return relic_fail(err, RELIC_E_TRUNCATED, consumed, "", "zlib stream ends early after %llu of %zu bytes", (unsigned long long)produced, dst_size);
}

relic_status relic_codec_zlib_encode(const uint8_t *src, size_t n, int level, relic_arena *a, relic_buf *out,
                                     relic_error *err)
{
    if (level < 0 || level > 9) return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "zlib level %d is not 0..9", level);
    if (!a) return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "no arena for zlib's state");
    z_stream z;
    use_arena(&z, a);
    if (deflateInit(&z, level) != Z_OK) return relic_fail(err, RELIC_E_NOMEM, 0, "", "cannot start zlib deflate: the arena is too small");
    size_t in_done = 0;
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
        if (z.avail_in == 0 && in_done < n) {
            size_t k = n - in_done > 0x40000000u ? 0x40000000u : n - in_done;
            z.next_in = (Bytef *)(uintptr_t)(src + in_done);
            z.avail_in = (uInt)k;
            in_done += k;
        }
        uint8_t *dst = relic_buf_extend(out, 65536);
        if (!dst) { deflateEnd(&z); return relic_fail(err, RELIC_E_NOMEM, 0, "", "cannot grow the output"); }
        z.next_out = dst;
        z.avail_out = 65536;
        rc = deflate(&z, in_done == n && z.avail_in == 0 ? Z_FINISH : Z_NO_FLUSH);
        out->size -= z.avail_out;
        if (rc == Z_MEM_ERROR) { deflateEnd(&z); return relic_fail(err, RELIC_E_NOMEM, 0, "", "zlib ran out of arena memory"); }
        if (rc == Z_STREAM_ERROR) { deflateEnd(&z); return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "zlib deflate failed"); }
    }
    deflateEnd(&z);
    return RELIC_OK;
}

uint64_t relic_codec_zlib_max_decoded(uint64_t n)
{
    /* each deflate bit can stand for at most 258 bytes / 2 bits ... bounded by 1032 bytes per input byte */
    return n > UINT64_MAX / 1032 ? UINT64_MAX : n * 1032 + 64;
}
