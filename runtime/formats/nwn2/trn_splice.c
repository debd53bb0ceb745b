/* trn_splice.c — re-bake a TRN/TRX without decoding what the bake does not
 * change: the ASWM packet is read straight from the validated file's bytes
 * and the output is the same file with that one packet replaced, the other
 * packets handed on as they lie in the input (TRRN and WATR payloads are
 * most of a file: copying them into a model and back out took more time
 * than the bake). The layout is the one relic_trn_layout gives a model:
 * header, directory, packets back to back in directory order (nwn-lib-d,
 * trn.d; NWN2DataLib, TrxFileReader.cpp). */
#include <string.h>

#include "relic_gen.h"
#include "relic_trn.h"

#define TRN_HEADER_BYTES 12u
#define TRN_DIR_ENTRY_BYTES 8u
#define TRN_PACKET_HEADER_BYTES 8u
#define TRN_COMP_HEADER_BYTES 12u
/* directory entries handed to the sink per call (no allocation) */
#define TRN_DIR_CHUNK 64u

static size_t packets_start(const relic_trn_view *v) { return (size_t)(v->packets - v->base); }

static size_t packet_len_at(const relic_trn_view *v, size_t pos)
{
    return TRN_PACKET_HEADER_BYTES + relic_load_u32le(v->base + pos + 4);
}

relic_status relic_trn_packet_span(const relic_trn_view *v, size_t index, size_t *pos, size_t *len, relic_error *err)
{
    if (index >= v->packets_count)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "packets", "packet %zu of %zu", index, v->packets_count);
    size_t p = packets_start(v);
    for (size_t i = 0; i < index; i++) p += packet_len_at(v, p);
    *pos = p;
    *len = packet_len_at(v, p);
    return RELIC_OK;
}

relic_status relic_trn_view_aswm_read(const relic_trn_view *v, uint64_t limit, relic_arena *a, relic_trn_aswm *out,
                                      size_t *index, relic_error *err)
{
    relic_error scratch;
    if (!err) err = &scratch;
    size_t pos = packets_start(v);
    for (size_t i = 0; i < v->packets_count; pos += packet_len_at(v, pos), i++) {
        if (relic_load_u32le(v->base + pos) != RELIC_TRN_PACKET_TYPE_ASWM) continue;
        /* validated: "COMP", then compressed_size bytes of zlib stream inside the packet */
        const uint8_t *comp = v->base + pos + TRN_PACKET_HEADER_BYTES;
        uint32_t zn = relic_load_u32le(comp + 4), size = relic_load_u32le(comp + 8);
        relic_status st = relic_trn_aswm_read_bytes(comp + TRN_COMP_HEADER_BYTES, zn, size, limit, a, out, err);
        if (st != RELIC_OK) {
            relic_gen_path_prefix(err, "packets", (long long)i);
            return st;
        }
        *index = i;
        return RELIC_OK;
    }
    return relic_fail(err, RELIC_E_ARGUMENT, 0, "packets", "no ASWM walkmesh packet");
}

relic_status relic_trn_write_replacing(const relic_trn_view *v, size_t index, const relic_trn_packet *p, relic_trn_sink sink,
                                       void *ctx, relic_error *err)
{
    relic_error scratch;
    if (!err) err = &scratch;
    if (index >= v->packets_count)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "packets", "packet %zu of %zu", index, v->packets_count);
    if (p->type != RELIC_TRN_PACKET_TYPE_ASWM)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "packets", "the replacement is not an ASWM packet");
    if (p->aswm_count > UINT32_MAX - TRN_COMP_HEADER_BYTES)
        return relic_fail(err, RELIC_E_LIMIT, 0, "packets.aswm", "%zu bytes do not fit a packet", p->aswm_count);
    const uint64_t new_len = TRN_PACKET_HEADER_BYTES + TRN_COMP_HEADER_BYTES + (uint64_t)p->aswm_count;
    size_t old_pos, old_len;
    relic_status st = relic_trn_packet_span(v, index, &old_pos, &old_len, err);
    if (st != RELIC_OK) return st;
    if ((uint64_t)v->size - old_len + new_len > UINT32_MAX)
        return relic_fail(err, RELIC_E_LIMIT, 0, "packets", "the file would exceed 4 GiB");

    /* header as it is (magic, versions, packet count: unchanged) */
    if ((st = sink(ctx, v->base, TRN_HEADER_BYTES)) != RELIC_OK) return st;
    /* directory: every packet's type and offset, packets back to back */
    uint8_t dir[TRN_DIR_CHUNK * TRN_DIR_ENTRY_BYTES];
    size_t in_chunk = 0, pos = packets_start(v);
    uint64_t out_pos = TRN_HEADER_BYTES + (uint64_t)TRN_DIR_ENTRY_BYTES * v->packets_count;
    for (size_t i = 0; i < v->packets_count; i++) {
        size_t len = packet_len_at(v, pos);
        relic_store_u32le(dir + in_chunk * TRN_DIR_ENTRY_BYTES, relic_load_u32le(v->base + pos));
        relic_store_u32le(dir + in_chunk * TRN_DIR_ENTRY_BYTES + 4, (uint32_t)out_pos);
        out_pos += i == index ? new_len : len;
        pos += len;
        if (++in_chunk == TRN_DIR_CHUNK || i + 1 == v->packets_count) {
            if ((st = sink(ctx, dir, in_chunk * TRN_DIR_ENTRY_BYTES)) != RELIC_OK) return st;
            in_chunk = 0;
        }
    }
    /* packets: the ones before, the new one, the ones after */
    size_t first = packets_start(v);
    if (old_pos > first && (st = sink(ctx, v->base + first, old_pos - first)) != RELIC_OK) return st;
    uint8_t head[TRN_PACKET_HEADER_BYTES + TRN_COMP_HEADER_BYTES];
    relic_store_u32le(head, RELIC_TRN_PACKET_TYPE_ASWM);
    relic_store_u32le(head + 4, (uint32_t)(new_len - TRN_PACKET_HEADER_BYTES));
    memcpy(head + 8, "COMP", 4);
    relic_store_u32le(head + 12, (uint32_t)p->aswm_count);
    relic_store_u32le(head + 16, p->uncompressed_size);
    if ((st = sink(ctx, head, sizeof head)) != RELIC_OK) return st;
    if (p->aswm_count && (st = sink(ctx, p->aswm, p->aswm_count)) != RELIC_OK) return st;
    /* pos is now the end of the last packet (bytes after it, which check
     * reports, are dropped as the model's writer drops them) */
    size_t rest = old_pos + old_len, end = pos;
    if (end > rest && (st = sink(ctx, v->base + rest, end - rest)) != RELIC_OK) return st;
    return RELIC_OK;
}
