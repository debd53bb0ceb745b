/* relic_relief.h — pictures of a height grid a person reads at a glance
 * (librelic-export): grey shaded relief, and the colour preview (a
 * hypsometric tint, green lowlands through tan and brown to white peaks,
 * times hill shading). One implementation serves every heightmap relic
 * exports (WTD terrains, TRN terrain); runtime/export/relief.c. */
#ifndef RELIC_RELIEF_H
#define RELIC_RELIEF_H

#include "relic.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A grid of quantised heights: width x height samples, row y (0 = south)
 *  then column x (0 = west); a sample's elevation is heights[i] x z_scale
 *  world units, and neighbouring samples are spacing world units apart.
 *  min and max bound the heights (they set the tint's range). */
typedef struct relic_relief_grid {
    uint32_t width, height;
    const int32_t *heights;
    double z_scale, spacing;
    int32_t min, max;
} relic_relief_grid;

/** What relic_relief_png draws. */
typedef enum relic_relief_style {
    RELIC_RELIEF_GREY = 0,  /**< 8-bit grey: shading mixed 4:1 with the normalised height */
    RELIC_RELIEF_COLOUR = 1 /**< 8-bit RGB: hypsometric tint x hill shading */
} relic_relief_style;

/** Appends a PNG of grid g to out, north up (row 0 of the picture is the
 *  grid's last row): surface normals from central differences in world
 *  units, Lambertian light from the north-west 45 degrees above the
 *  horizon (the usual cartographic hill-shade light, as GDAL's gdaldem
 *  hillshade defaults to). A row buffer comes from arena a. Errors:
 *  RELIC_E_ARGUMENT (an empty grid or no heights), RELIC_E_NOMEM,
 *  RELIC_E_IO (libpng). */
relic_status relic_relief_png(const relic_relief_grid *g, relic_relief_style style, relic_arena *a, relic_buf *out,
                              relic_error *err);

#ifdef __cplusplus
}
#endif
#endif
