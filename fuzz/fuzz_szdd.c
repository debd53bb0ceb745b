/* fuzz_szdd.c — libFuzzer target for SZDD files (runtime/codec/lzss_container.c
 * and the space-filled LZSS ring of runtime/codec/lzss.c). Oracles: any input is
 * either rejected with a message or decodes to exactly its declared size
 * within the limit; re-encoding the decoded bytes as SZDD decodes back to
 * them. Build and run: make fuzz (or build-fuzz/fuzz_szdd). */
#include <stdlib.h>
#include <string.h>

#include "relic_lzss.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    relic_arena a;
    relic_bytes out;
    relic_error err;
    relic_arena_init_heap(&a, 64u << 20);
    relic_status st = relic_lzss_container_decode(data, size, RELIC_LZSS_SZDD, 1u << 22, &a, &out, &err);
    if (st != RELIC_OK) {
        if (err.message[0] == 0) abort();
    } else {
        relic_buf f;
        relic_lzss_container c;
        relic_bytes again;
        relic_buf_init(&f, 0);
        if (relic_lzss_container_encode(RELIC_LZSS_SZDD, RELIC_LZSS_FAST, data[9], out.data, out.size, &a, &f, &err) != RELIC_OK)
            abort();
        if (relic_szdd_header(f.data, f.size, &c, &err) != RELIC_OK || c.decoded_size != out.size) abort();
        if (relic_lzss_container_decode(f.data, f.size, RELIC_LZSS_SZDD, 1u << 22, &a, &again, &err) != RELIC_OK ||
            again.size != out.size || memcmp(again.data, out.data, out.size) != 0) abort();
        relic_buf_free(&f);
    }
    relic_arena_release(&a);
    return 0;
}
