/* fuzz_zlib.c — libFuzzer target for the zlib glue of codec regions
 * (runtime/codec/codec_zlib.c): inflate capped by a declared size taken from the
 * input. Oracles: never writes past the declared size (ASan), succeeds only
 * with exactly that many bytes, and what relic deflates inflates back.
 * Build and run: make fuzz (or build-fuzz/fuzz_zlib -max_total_time=60). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (fuzz_scratch.h) */
#include <stdlib.h>
#include <string.h>

#include "relic_codec.h"
#include "fuzz_scratch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    size_t declared = ((size_t)data[0] << 8 | data[1]) * 4;
    uint8_t *dst = malloc(declared ? declared : 1);
    relic_error err;
    relic_arena a; /* zlib's state (deflate's ~270 KB: a fresh mapping per run from the heap) */
    fuzz_scratch_arena(&a, 0, 0);
    relic_status st = relic_codec_zlib_decode(data + 2, size - 2, dst, declared, &a, &err);
    if (st != RELIC_OK && err.message[0] == 0) abort();
    free(dst);
    /* encode -> decode is the identity */
    relic_buf z;
    relic_buf_init(&z, 0);
    if (relic_codec_zlib_encode(data, size, data[0] % 10, &a, &z, &err) != RELIC_OK) abort();
    uint8_t *back = malloc(size);
    if (relic_codec_zlib_decode(z.data, z.size, back, size, &a, &err) != RELIC_OK || memcmp(back, data, size) != 0) abort();
    free(back);
    relic_buf_free(&z);
    relic_arena_release(&a);
    return 0;
}
