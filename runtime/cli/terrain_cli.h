/* terrain_cli.h — pieces of the `relic` command shared by the Trespasser
 * terrain formats (fmt_wtd.c, fmt_tri.c, fmt_trr.c). */
#ifndef RELIC_CLI_TERRAIN_H
#define RELIC_CLI_TERRAIN_H

#include "formats.h"
#include "relic_wtd.h"

/* Encode the n x n height grid (real data: w x h) with mapping m and the
 * --threshold option, write it to out_path (never over in_path), and print
 * what a threshold cost. Prints errors; 0 on success, 1 on failure. */
int cli_wtd_write(const int32_t *grid, uint32_t n, uint32_t w, uint32_t h, const relic_wtd_mapping *m,
                  const char *out_path, const char *in_path);

/* The value of --max-height (metres, > 0) into *v; 0 when absent or
 * valid, 1 (printed) when malformed. */
int cli_max_height(double *v);

#endif
