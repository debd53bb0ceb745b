/* codec_lzss.c — the `lzss` codec of codec regions: the SPZ form of
 * relic_lzss.h (Trespasser source, Source/Tools/LZSS/LZSS.cpp, Lib/Loader/ImageLoader.cpp), with the same contract as the
 * zlib glue (relic_codec.h): exactly the declared size, or an error. */
#include "relic_codec.h"
#include "relic_lzss.h"

relic_status relic_codec_lzss_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t dst_size, relic_arena *a,
                                     relic_error *err)
{
    (void)a; /* the ring is dst itself: no scratch */
    return relic_lzss_decode_buffer(RELIC_LZSS_SPZ, src, n, dst, dst_size, err);
}

relic_status relic_codec_lzss_encode(const uint8_t *src, size_t n, int level, relic_arena *a, relic_buf *out,
                                     relic_error *err)
{
    if (level < RELIC_LZSS_FAST || level > RELIC_LZSS_BEST)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "lzss level %d is not 1..3", level);
    return relic_lzss_encode(RELIC_LZSS_SPZ, (relic_lzss_level)level, src, n, a, out, err);
}

uint64_t relic_codec_lzss_max_decoded(uint64_t n) { return relic_lzss_max_decoded_size(n); }
