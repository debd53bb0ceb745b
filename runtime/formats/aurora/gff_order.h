/* gff_order.h — internal: the writer's side of the order record
 * (gff_order.c), moving the records of a family's layout to the positions
 * a relic_gff_order gives. */
#ifndef RELIC_GFF_ORDER_H
#define RELIC_GFF_ORDER_H

#include "relic_gff.h"

/* The six arrays of a GFF as its writer laid them out (little-endian
 * records, sizes in bytes), moved in place to o's order: every record
 * keeps its size, every reference (field, struct, label, data, block and
 * record offsets) follows its target. Working memory from scratch (about
 * 40 bytes per struct and field). Errors: RELIC_E_ARGUMENT with path
 * "__layout.<kind>" when a kind's runs are not a permutation of its
 * records; RELIC_E_NOMEM. */
relic_status gff_order_apply(const relic_gff_order *o, relic_buf *structs, relic_buf *fields, relic_buf *labels,
                             relic_buf *data, relic_buf *fi, relic_buf *li, relic_arena *scratch, relic_error *err);

#endif
