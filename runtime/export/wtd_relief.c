/* wtd_relief.c — a decoded WTD terrain as a relief picture (grey, or the
 * colour preview) through relief.c: quad spacing from the quad->world
 * scale, heights through coef_to_world (Trespasser source,
 * Lib/GeomDBase/WaveletQuadTreeQuery.cpp). */
#include "relic_relief.h"
#include "relic_wtd.h"

static relic_status wtd_relief(const relic_wtd_terrain *t, relic_relief_style style, relic_arena *a, relic_buf *out,
                               relic_error *err)
{
    const relic_relief_grid g = {t->n, t->n, t->heights, (double)t->header.mapping.coef_to_world,
                                 (double)t->header.mapping.quad_to_world_x.scale, t->min, t->max};
    return relic_relief_png(&g, style, a, out, err);
}

relic_status relic_wtd_relief_png(const relic_wtd_terrain *t, relic_arena *a, relic_buf *out, relic_error *err)
{
    return wtd_relief(t, RELIC_RELIEF_GREY, a, out, err);
}

relic_status relic_wtd_preview_png(const relic_wtd_terrain *t, relic_arena *a, relic_buf *out, relic_error *err)
{
    return wtd_relief(t, RELIC_RELIEF_COLOUR, a, out, err);
}
