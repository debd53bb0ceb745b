/* groff_open.c — the GROFF bytes of a file, plain or SZDD-compressed: the
 * game opens every GROFF through LZOpenFile, which reads both
 * (Trespasser source, Lib/Groff/FileIO.cpp; FileIO.cpp 211–233). */
#include "relic_groff.h"
#include "relic_lzss.h"

relic_status relic_groff_open(const uint8_t *data, size_t size, relic_arena *a, relic_bytes *out, int *compressed,
                              relic_error *err)
{
    *compressed = relic_szdd_is(data, size);
    if (!*compressed) {
        out->data = data;
        out->size = size;
        return RELIC_OK;
    }
    return relic_lzss_container_decode(data, size, RELIC_LZSS_SZDD, RELIC_GROFF_MAX_DECOMPRESSED, a, out, err);
}
