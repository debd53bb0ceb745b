/* palette_quantize.c — relic_palette_quantize (relic_palette.h): a palette
 * of at most 256 colours for a weighted RGBA histogram. Median cut (Heckbert
 * 1982) weighted by pixel count, then Lloyd k-means refinement over the
 * histogram; the palettes of Trespasser textures (Trespasser source, Lib/Loader/ImageLoader.cpp)
 * come from here when a texture has more colours than its palette holds.
 * Written for relic so that the library links no GPL code. */
#include <stdlib.h>
#include <string.h>

#include "relic_palette.h"

#define CHANNELS 4
#define KMEANS_PASSES 8
#define LONG_MAX_DISTANCE (CHANNELS * 255L * 255L + 1) /* above any squared RGBA distance */

typedef struct box {
    size_t start, end; /* entries [start, end) of the working copy */
    uint64_t weight;
    uint8_t lo[CHANNELS], hi[CHANNELS];
} box;

static uint8_t channel(const relic_palette_colour *c, int ch)
{
    return ch == 0 ? c->r : ch == 1 ? c->g
        : ch == 2                   ? c->b
                                    : c->a;
}

/* a total order (axis channel first, then the others, then weight) so that
 * the result does not depend on the order of the caller's histogram */
static int compare_on(const relic_palette_colour *x, const relic_palette_colour *y, int axis)
{
    for (int i = 0; i < CHANNELS; i++) {
        int ch = (axis + i) % CHANNELS;
        int d = (int)channel(x, ch) - (int)channel(y, ch);
        if (d) return d;
    }
    return x->weight < y->weight ? -1 : x->weight > y->weight;
}
static int cmp_r(const void *x, const void *y) { return compare_on(x, y, 0); }
static int cmp_g(const void *x, const void *y) { return compare_on(x, y, 1); }
static int cmp_b(const void *x, const void *y) { return compare_on(x, y, 2); }
static int cmp_a(const void *x, const void *y) { return compare_on(x, y, 3); }

static void box_measure(box *bx, const relic_palette_colour *e)
{
    bx->weight = 0;
    for (int ch = 0; ch < CHANNELS; ch++) {
        bx->lo[ch] = 255;
        bx->hi[ch] = 0;
    }
    for (size_t i = bx->start; i < bx->end; i++) {
        bx->weight += e[i].weight;
        for (int ch = 0; ch < CHANNELS; ch++) {
            uint8_t v = channel(&e[i], ch);
            if (v < bx->lo[ch]) bx->lo[ch] = v;
            if (v > bx->hi[ch]) bx->hi[ch] = v;
        }
    }
}

/* the longest channel of a box, and its length */
static int box_axis(const box *bx, unsigned *range)
{
    int axis = 0;
    unsigned best = 0;
    for (int ch = 0; ch < CHANNELS; ch++) {
        unsigned r = (unsigned)(bx->hi[ch] - bx->lo[ch]);
        if (r > best) {
            best = r;
            axis = ch;
        }
    }
    *range = best;
    return axis;
}

/* rounded weighted mean of entries [start, end); the plain mean when they weigh nothing */
static void mean_of(const relic_palette_colour *e, size_t start, size_t end, uint8_t out[CHANNELS])
{
    uint64_t sum[CHANNELS] = {0}, plain[CHANNELS] = {0}, w = 0;
    for (size_t i = start; i < end; i++) {
        w += e[i].weight;
        for (int ch = 0; ch < CHANNELS; ch++) {
            sum[ch] += (uint64_t)channel(&e[i], ch) * e[i].weight;
            plain[ch] += channel(&e[i], ch);
        }
    }
    uint64_t n = end - start;
    for (int ch = 0; ch < CHANNELS; ch++)
        out[ch] = (uint8_t)(w ? (sum[ch] + w / 2) / w : (plain[ch] + n / 2) / n);
}

static long distance(const relic_palette_colour *c, const uint8_t *p, long bound)
{
    long d = 0;
    for (int ch = 0; ch < CHANNELS && d <= bound; ch++) { /* above bound: stop, it cannot win */
        long v = (long)channel(c, ch) - p[ch];
        d += v * v;
    }
    return d;
}

relic_status relic_palette_quantize(const relic_palette_colour *hist, size_t n, uint32_t max_colours,
                                    relic_arena *a, relic_palette_colour *out, uint32_t *out_count,
                                    relic_error *err)
{
    if (max_colours == 0 || max_colours > RELIC_PALETTE_MAX_COLOURS || !out || !out_count || (n > 0 && !hist))
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "max_colours",
                          "a palette of %u colours (1 to %u) with non-NULL arrays", max_colours,
                          RELIC_PALETTE_MAX_COLOURS);
    if (n > RELIC_PALETTE_MAX_ENTRIES)
        return relic_fail(err, RELIC_E_LIMIT, 0, "hist", "%zu histogram entries (at most %u)", n,
                          RELIC_PALETTE_MAX_ENTRIES);
    *out_count = 0;
    if (n <= max_colours) {
        /* every colour exactly */
        if (n) memcpy(out, hist, n * sizeof *out);
        *out_count = (uint32_t)n;
        return RELIC_OK;
    }
    relic_palette_colour *e = relic_arena_array(a, n, sizeof *e, 8);
    box *boxes = relic_arena_array(a, max_colours, sizeof *boxes, 8);
    uint16_t *assign = relic_arena_array(a, n, sizeof *assign, 2);
    uint64_t(*sum)[CHANNELS] = relic_arena_array(a, max_colours, sizeof *sum, 8);
    uint64_t *weight = relic_arena_array(a, max_colours, sizeof *weight, 8);
    uint8_t(*centre)[CHANNELS] = relic_arena_array(a, max_colours, sizeof *centre, 4);
    if (!e || !boxes || !assign || !sum || !weight || !centre)
        return relic_fail(err, RELIC_E_NOMEM, 0, "hist", "no memory to quantise %zu colours", n);
    memcpy(e, hist, n * sizeof *e);

    /* ---- median cut ---- */
    static int (*const cmp[CHANNELS])(const void *, const void *) = {cmp_r, cmp_g, cmp_b, cmp_a};
    uint32_t nboxes = 1;
    boxes[0].start = 0;
    boxes[0].end = n;
    box_measure(&boxes[0], e);
    while (nboxes < max_colours) {
        /* the box with the largest range x weight (ties: the larger range, then the first) */
        uint32_t pick = nboxes;
        uint64_t best_score = 0;
        unsigned best_range = 0;
        for (uint32_t k = 0; k < nboxes; k++) {
            unsigned range;
            (void)box_axis(&boxes[k], &range);
            if (range == 0 || boxes[k].end - boxes[k].start < 2) continue;
            uint64_t score = (uint64_t)range * boxes[k].weight;
            if (pick == nboxes || score > best_score || (score == best_score && range > best_range)) {
                pick = k;
                best_score = score;
                best_range = range;
            }
        }
        if (pick == nboxes) break; /* every box holds one colour */
        box *bx = &boxes[pick];
        unsigned range;
        int axis = box_axis(bx, &range);
        qsort(e + bx->start, bx->end - bx->start, sizeof *e, cmp[axis]);
        /* the weighted median: the first entry at which half the weight is reached */
        uint64_t half = bx->weight / 2, acc = 0;
        size_t cut = bx->start;
        while (cut < bx->end - 1) {
            acc += e[cut].weight;
            cut++;
            if (acc >= half) break;
        }
        if (cut <= bx->start) cut = bx->start + 1;
        if (cut >= bx->end) cut = bx->end - 1;
        /* keep colours equal on the axis together when that leaves both halves non-empty */
        while (cut < bx->end - 1 && channel(&e[cut], axis) == channel(&e[cut - 1], axis)) cut++;
        if (channel(&e[cut], axis) == channel(&e[cut - 1], axis))
            while (cut > bx->start + 1 && channel(&e[cut], axis) == channel(&e[cut - 1], axis)) cut--;
        box *nb = &boxes[nboxes++];
        nb->start = cut;
        nb->end = bx->end;
        bx->end = cut;
        box_measure(bx, e);
        box_measure(nb, e);
    }
    for (uint32_t k = 0; k < nboxes; k++) {
        mean_of(e, boxes[k].start, boxes[k].end, centre[k]);
        for (size_t i = boxes[k].start; i < boxes[k].end; i++) assign[i] = (uint16_t)k;
    }

    /* ---- k-means (Lloyd): reassign every entry to its nearest centre, move each centre to its mean ---- */
    for (int pass = 0;; pass++) {
        memset(sum, 0, nboxes * sizeof *sum);
        memset(weight, 0, nboxes * sizeof *weight);
        for (size_t i = 0; i < n; i++) {
            uint32_t best = assign[i];
            long bd = distance(&e[i], centre[best], LONG_MAX_DISTANCE);
            for (uint32_t k = 0; k < nboxes && bd > 0; k++) {
                if (k == best) continue;
                long d = distance(&e[i], centre[k], bd);
                if (d < bd || (d == bd && k < best)) {
                    bd = d;
                    best = k;
                }
            }
            assign[i] = (uint16_t)best;
            weight[best] += e[i].weight;
            for (int ch = 0; ch < CHANNELS; ch++) sum[best][ch] += (uint64_t)channel(&e[i], ch) * e[i].weight;
        }
        if (pass == KMEANS_PASSES) break;
        int moved = 0;
        for (uint32_t k = 0; k < nboxes; k++) {
            if (!weight[k]) continue; /* an empty (or weightless) cluster keeps its centre */
            for (int ch = 0; ch < CHANNELS; ch++) {
                uint8_t v = (uint8_t)((sum[k][ch] + weight[k] / 2) / weight[k]);
                if (v != centre[k][ch]) {
                    centre[k][ch] = v;
                    moved = 1;
                }
            }
        }
        if (!moved) break;
    }
    for (uint32_t k = 0; k < nboxes; k++) {
        out[k].r = centre[k][0];
        out[k].g = centre[k][1];
        out[k].b = centre[k][2];
        out[k].a = centre[k][3];
        out[k].weight = weight[k] > UINT32_MAX ? UINT32_MAX : (uint32_t)weight[k];
    }
    *out_count = nboxes;
    return RELIC_OK;
}
