/* swp_walk.c — visit the rasters of a PID with their SWP bytes, from an
 * SWP in memory or from an SPZ decoded as a stream (Trespasser source, Source/Tools/LZSS/LZSS.cpp, Lib/Loader/ImageLoader.cpp): the rasters are sorted by the SWP offset where they end and
 * the decoded bytes are kept in a sliding window that starts at the
 * lowest start of the rasters still to visit, so memory is bounded by the
 * rasters' spans, not by the SWP's size. */
#include <stdlib.h>

#include "relic_swp.h"

#define WINDOW_SLACK 65536u

typedef struct span {
    uint64_t start, end;
    size_t raster;
} span;

static int by_end(const void *a, const void *b)
{
    const span *x = a, *y = b;
    if (x->end != y->end) return x->end < y->end ? -1 : 1;
    return x->raster < y->raster ? -1 : x->raster > y->raster;
}

static relic_status past_end(const relic_pid_view *v, const span *s, uint64_t swp_size, relic_error *err)
{
    char path[64];
    snprintf(path, sizeof path, "rasters[%zu].swp_offset", s->raster);
    return relic_fail(err, RELIC_E_TRUNCATED,
                      (uint64_t)(v->rasters - v->base) + (uint64_t)s->raster * RELIC_PID_RASTER_SIZE +
                          RELIC_PID_RASTER_SWP_OFFSET_POS,
                      path, "the raster's SWP bytes 0x%llX..0x%llX pass the end of the SWP (0x%llX bytes)",
                      (unsigned long long)s->start, (unsigned long long)s->end, (unsigned long long)swp_size);
}

relic_status relic_swp_walk(const relic_pid_view *v, const uint8_t *data, size_t size, int spz, uint64_t limit,
                            relic_arena *a, relic_swp_raster_fn fn, void *ctx, relic_error *err)
{
    const size_t n = v->rasters_count;
    relic_lzss_container c;
    relic_status st;
    uint64_t swp_size = size;
    if (spz) {
        if ((st = relic_spz_header(data, size, &c, err)) != RELIC_OK) return st;
        swp_size = c.decoded_size;
    }
    span *s = relic_arena_array(a, n ? n : 1, sizeof *s, 8);
    uint64_t *keep = relic_arena_array(a, n ? n : 1, sizeof *keep, 8);
    if (!s || !keep) return relic_fail(err, RELIC_E_NOMEM, 0, "rasters", "no memory to order %zu rasters", n);
    for (size_t i = 0; i < n; i++) {
        s[i].raster = i;
        if ((st = relic_swp_raster_extent(v, i, &s[i].start, &s[i].end, err)) != RELIC_OK) return st;
        if (s[i].end > swp_size) return past_end(v, &s[i], swp_size, err);
    }
    if (relic_sort(s, n, sizeof *s, by_end, a) != RELIC_OK)
        return relic_fail(err, RELIC_E_NOMEM, 0, "rasters", "no memory to order %zu rasters", n);
    if (!spz) {
        for (size_t k = 0; k < n; k++)
            if ((st = fn(ctx, s[k].raster, data, 0, size, err)) != RELIC_OK) return st;
        return RELIC_OK;
    }

    /* keep[k]: the lowest start among rasters k..n-1, the window's floor */
    uint64_t need = 0;
    for (size_t k = n; k-- > 0;) {
        keep[k] = k + 1 < n && keep[k + 1] < s[k].start ? keep[k + 1] : s[k].start;
        if (s[k].end - keep[k] > need) need = s[k].end - keep[k];
    }
    uint64_t cap = need + WINDOW_SLACK;
    if (cap > limit || cap > SIZE_MAX)
        return relic_fail(err, RELIC_E_LIMIT, 0, "rasters",
                          "the rasters need a window of %llu bytes of the SWP, more than the limit of %llu",
                          (unsigned long long)cap, (unsigned long long)limit);
    uint8_t *win = relic_arena_alloc(a, (size_t)cap, 16);
    if (!win) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for a %llu-byte SWP window", (unsigned long long)cap);

    relic_stream ds, *d = &ds;
    if ((st = relic_lzss_decode_init(d, RELIC_LZSS_SPZ, a, err)) != RELIC_OK) return st;
    d->next_in = data + c.stream_offset;
    d->avail_in = size - c.stream_offset;
    uint64_t base = 0; /* SWP offset of win[0] */
    size_t len = 0;    /* decoded bytes held */
    int done = 0;
    for (size_t k = 0; k < n; k++) {
        while (base + len < s[k].end) {
            if (done) return past_end(v, &s[k], base + len, err);
            if (keep[k] > base) {
                /* drop what no remaining raster needs */
                uint64_t drop = keep[k] - base < len ? keep[k] - base : len;
                memmove(win, win + drop, len - (size_t)drop);
                len -= (size_t)drop;
                base += drop;
            }
            d->next_out = win + len;
            d->avail_out = (size_t)cap - len;
            relic_stream_status r = relic_stream_run(d, RELIC_STREAM_FINISH, err);
            if (r == RELIC_STREAM_ERROR) {
                if (err) err->offset += c.stream_offset;
                return err ? err->code : RELIC_E_TRUNCATED;
            }
            len = (size_t)cap - d->avail_out;
            if (r == RELIC_STREAM_DONE) done = 1;
        }
        if ((st = fn(ctx, s[k].raster, win, base, len, err)) != RELIC_OK) return st;
    }
    return RELIC_OK;
}
