/* trn_layout.c — refill the layout fields of an NWN2 TRN/TRX model before
 * writing: packet sizes from their payloads and the packet directory from
 * the packets, back to back in directory order as nwn-lib-d writes them
 * (nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp). The schema cannot derive them: its
 * `offset()` does not reach elements of a sequential array. */
#include <string.h>

#include "relic_trn.h"

enum { TRN_TYPE_TRWH = 0x48575254,
       TRN_TYPE_ASWM = 0x4D575341 };

relic_status relic_trn_layout(relic_trn_file *m, relic_arena *a, relic_error *err)
{
    if (m->directory_count != m->packets_count) {
        relic_trn_directory_entry *d = relic_arena_alloc(a, m->packets_count * sizeof *d + 1, 8);
        if (!d) return relic_fail(err, RELIC_E_NOMEM, 0, "directory", "out of memory for %zu entries", m->packets_count);
        memset(d, 0, m->packets_count * sizeof *d);
        m->directory = d;
        m->directory_count = m->packets_count;
    }
    uint64_t pos = 12 + 8 * (uint64_t)m->packets_count;
    for (size_t i = 0; i < m->packets_count; i++) {
        relic_trn_packet *p = &m->packets[i];
        uint64_t size;
        if (p->type == TRN_TYPE_TRWH) {
            size = RELIC_TRN_TRWH_SIZE;
        } else if (p->type == TRN_TYPE_ASWM) {
            if (p->aswm_count > UINT32_MAX - 12)
                return relic_fail(err, RELIC_E_LIMIT, 0, "packets.aswm", "%zu bytes do not fit a packet", p->aswm_count);
            p->compressed_size = (uint32_t)p->aswm_count;
            size = 12 + (uint64_t)p->aswm_count;
        } else {
            size = p->data_count;
        }
        if (size > UINT32_MAX || pos > UINT32_MAX)
            return relic_fail(err, RELIC_E_LIMIT, pos, "packets", "packet %zu does not fit a 4 GiB file", i);
        p->size = (uint32_t)size;
        m->directory[i].type = p->type;
        m->directory[i].offset = (uint32_t)pos;
        pos += 8 + size;
    }
    return RELIC_OK;
}
