/* trn_cli.h — pieces the NWN2 TRN/TRX parts of the `relic` command share
 * (fmt_trn.c, cmd_bake.c, cmd_path.c). */
#ifndef RELIC_CLI_TRN_H
#define RELIC_CLI_TRN_H

#include "formats.h"
#include "relic_trn.h"

/* Largest decompressed ASWM the command inflates (bytes). */
#define CLI_TRN_ASWM_LIMIT RELIC_TRN_ASWM_DEFAULT_LIMIT

/* Validate and decode a TRN/TRX input into m (arena a) and inflate its
 * (first) ASWM packet into w; *packet gets its index. Prints the error and
 * returns nonzero on failure. */
int cli_trn_load_aswm(const cli_input *in, relic_arena *a, relic_trn_file *m, relic_trn_aswm *w, size_t *packet);

/* Write an SVG of w (with route when not NULL) to out_path. */
int cli_trn_write_svg(const relic_trn_aswm *w, const relic_trn_route *route, const char *out_path, const char *in_path);

/** relic_trn_check_aswm_strict with its scratch in a heap arena freed at once. */
unsigned cli_trn_check_aswm_strict(const relic_trn_aswm *w, const char *path, unsigned max_reports,
                                   relic_report_fn report, void *ctx);

#endif
