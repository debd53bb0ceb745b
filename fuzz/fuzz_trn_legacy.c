/* fuzz_trn_legacy.c — libFuzzer target for the older ASWM walkmesh
 * versions 0x69-0x6B (runtime/formats/nwn2/trn_aswm_legacy.c; nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp
 * "Older versions"). The first input byte picks the version, the rest is
 * the walkmesh after its version word. Oracles: no crash; a rejection
 * carries a message; an accepted walkmesh passes through the index rules
 * (runtime/formats/nwn2/trn_check.c) and re-serialises as version 0x6C, which the
 * generated 0x6C decoder reads back.
 * Build and run: make fuzz (or build-fuzz/fuzz_trn_legacy -max_total_time=60). */
#include <stdlib.h>
#include <string.h>

#include "relic_trn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count(void *ctx, const relic_error *e)
{
    (void)e;
    (*(unsigned *)ctx)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > (1u << 20)) return 0;
    uint8_t *buf = malloc(size + 3);
    relic_store_u32le(buf, 0x69u + data[0] % 3u);
    memcpy(buf + 4, data + 1, size - 1);
    relic_arena a;
    relic_arena_init_heap(&a, (size_t)64 << 20);
    relic_trn_aswm w;
    relic_error err;
    relic_status st = relic_trn_aswm_legacy_decode(buf, size + 3, &a, &w, &err);
    if (st != RELIC_OK && err.message[0] == 0) abort();
    if (st == RELIC_OK) {
        unsigned problems = 0;
        relic_trn_check_aswm(&w, "aswm", 4, count, &problems);
        relic_buf out;
        relic_buf_init(&out, 0);
        if (relic_trn_aswm_write(&w, &out, &err) == RELIC_OK) {
            relic_trn_aswm back;
            relic_trn_packet p;
            memset(&p, 0, sizeof p);
            if (relic_trn_aswm_pack(&w, 1, &a, &p, &err) == RELIC_OK && relic_trn_packet_aswm_decode(&p, &a, &back, &err) != RELIC_OK)
                abort();
        }
        relic_buf_free(&out);
    }
    relic_arena_release(&a);
    free(buf);
    return 0;
}
