/* grf_symbols.c — GROFF symbol handles to names in O(log n): the symbol
 * table sorted by handle once, then binary search. Used wherever section
 * contents name symbols (instance, model and texture names; Trespasser source, Lib/Groff/FileIO.cpp "Lookup is by name -> handle", Trespasser source, Lib/Groff/GroffIO.cpp), so that dumping, checking and
 * exporting a level stays linear-logarithmic in its size. */
#include <stdlib.h>

#include "relic_grf.h"

static int by_handle(const void *a, const void *b)
{
    uint32_t x = (*(const relic_groff_symbol *const *)a)->handle, y = (*(const relic_groff_symbol *const *)b)->handle;
    return (x > y) - (x < y);
}

relic_status relic_grf_symbols_index(const relic_groff_file *m, relic_arena *a, relic_grf_symbols *out,
                                     relic_error *err)
{
    out->count = m->symbols_count;
    out->sorted = NULL;
    if (!out->count) return RELIC_OK;
    out->sorted = relic_arena_array(a, out->count, sizeof *out->sorted, 8);
    if (!out->sorted) return relic_fail(err, RELIC_E_NOMEM, 0, "symbols", "out of memory");
    for (size_t i = 0; i < out->count; i++) out->sorted[i] = &m->symbols[i];
    if (relic_sort(out->sorted, out->count, sizeof *out->sorted, by_handle, a) != RELIC_OK)
        return relic_fail(err, RELIC_E_NOMEM, 0, "symbols", "out of memory sorting %zu symbols", out->count);
    return RELIC_OK;
}

const char *relic_grf_symbols_name(const relic_grf_symbols *s, uint32_t handle)
{
    size_t lo = 0, hi = s->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->sorted[mid]->handle < handle) lo = mid + 1;
        else hi = mid;
    }
    return lo < s->count && s->sorted[lo]->handle == handle ? s->sorted[lo]->name : NULL;
}
