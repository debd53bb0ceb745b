/* trx_inflate.c — footprint program (tests/bench/footprint.sh): validate a
 * NWN2 TRX, then inflate and decode its ASWM walkmesh packet and print its
 * vertex count; built from the amalgamation (zlib linked, not counted). */
#include <stdio.h>

#include "relic_trn.h"

int main(int argc, char **argv)
{
    relic_mapping map;
    relic_error err;
    relic_arena arena;
    relic_trn_view v;
    relic_trn_file trn;
    if (argc < 2 || relic_map_file(argv[1], 0, &map, &err) != RELIC_OK) return 2;
    relic_arena_init_heap(&arena, 0);
    if (relic_trn_validate(map.bytes.data, map.bytes.size, &v, &err) != RELIC_OK ||
        relic_trn_decode(&v, &arena, &trn, &err) != RELIC_OK) {
        relic_error_print(stderr, argv[1], &err);
        return 1;
    }
    for (size_t i = 0; i < trn.packets_count; i++) {
        relic_trn_aswm w;
        if (trn.packets[i].type != RELIC_TRN_PACKET_TYPE_ASWM) continue;
        if (relic_trn_packet_aswm_decode(&trn.packets[i], &arena, &w, &err) != RELIC_OK) {
            relic_error_print(stderr, argv[1], &err);
            return 1;
        }
        printf("%u vertices\n", (unsigned)w.vertex_count);
    }
    relic_arena_release(&arena);
    relic_unmap(&map);
    return 0;
}
