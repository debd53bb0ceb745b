/* ranges.c — relic_find_overlaps: the data of a container's members (ERF,
 * RIM, BIF) must not overlap; sorting by start and sweeping with the
 * furthest end reached finds every overlap in n log n. */
#include "relic.h"

static int by_start(const void *a, const void *b)
{
    const relic_range *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

relic_status relic_find_overlaps(relic_range *r, size_t n, relic_arena *scratch, relic_overlap_fn fn, void *ctx)
{
    relic_status st = relic_sort(r, n, sizeof *r, by_start, scratch);
    if (st != RELIC_OK) return st;
    uint64_t reach = 0;
    uint32_t reach_index = 0;
    for (size_t k = 0; k < n; k++) {
        if (k && r[k].start < reach && fn(ctx, &r[k], reach_index)) break;
        if (r[k].end > reach) {
            reach = r[k].end;
            reach_index = r[k].index;
        }
    }
    return RELIC_OK;
}
