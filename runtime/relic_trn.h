/* relic_trn.h — NWN2 TRN/TRX packet files and the ASWM walkmesh: the
 * hand-written half. The layout, validator, model, writer and JSON of the
 * container, and the decoder of the decompressed ASWM (version 0x6C), come
 * from schema/nwn2/trn.schema -> generated/nwn2/trn.h. This header adds the
 * rules a schema cannot say: the packet directory pointing at its packets,
 * the re-layout of directory offsets and packet sizes before writing, and
 * the ASWM index and tile rules. Sources: spec/aurora.md §1.2-1.3, §2.2,
 * §2.6; seed 001 (TRN.ASWM). */
#ifndef RELIC_TRN_H
#define RELIC_TRN_H

#include "relic.h"
#include "trn.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Called once per problem found by the relic_trn_check_* functions (err
 *  names the field path and, for the container, the file byte offset; for
 *  the ASWM, the byte offset inside the decompressed walkmesh). */
typedef void (*relic_trn_report_fn)(void *ctx, const relic_error *err);

/** Container rules of a validated file (spec/aurora.md §1.2-1.3): each
 *  directory entry i holds packet i's FourCC and the file offset of its
 *  packet header (packets lie back to back after the directory, in
 *  directory order: the only layout the schema reads), and no bytes follow
 *  the last packet. Returns the number of problems reported. */
unsigned relic_trn_check_container(const relic_trn_view *v, relic_trn_report_fn report, void *ctx);

/** Refill the layout fields of a model so that relic_trn_write produces a
 *  consistent file: each packet's size from its payload (12 for TRWH, 12 +
 *  zlib bytes for ASWM, the byte count otherwise), each ASWM's
 *  compressed_size, and each directory entry's type and offset from the
 *  packets in order (header 12 bytes, directory 8 per entry, packets back
 *  to back). The directory array is resized to the packet count from arena
 *  a when they differ. Errors: RELIC_E_LIMIT when the file would exceed
 *  4 GiB; RELIC_E_NOMEM. */
relic_status relic_trn_layout(relic_trn_trn *m, relic_arena *a, relic_error *err);

/** Rules of a decoded ASWM walkmesh (spec/aurora.md §2.6, nwn-lib-d and
 *  Skywing validate): edge and triangle indices in range; triangle island
 *  0xFFFF or below island_count (when islands exist); tile count =
 *  grid_width x grid_height, tiles_width > 0; tiles cover the triangle
 *  array contiguously, in order, without overlap (triangles_offset is the
 *  running sum of triangles_count, which ends at triangle_count);
 *  local_to_node empty or one entry per tile triangle; nodes = node count
 *  squared; node entries 0xFF or (entry & 0x7F) below the node count;
 *  local_to_node entries 0xFF or below the node count; node_to_local
 *  entries below the tile's triangle count; island index equals its
 *  position; adjacent islands 0xFFFF or in range; exit triangles in range;
 *  island path table next 0xFFFF or in range. path is prefixed to every
 *  field path. Returns the number of problems reported (at most
 *  max_reports are reported; counting goes on). */
unsigned relic_trn_check_aswm(const relic_trn_aswm *w, const char *path, unsigned max_reports,
                              relic_trn_report_fn report, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
