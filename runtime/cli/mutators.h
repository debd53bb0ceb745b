/* mutators.h — which generated structure-aware mutator (relic_<f>_mutator,
 * generated/<family>/<f>_mutate.c) handles files of each detected format,
 * for `relic mutate` (cmd_mutate.c). */
#ifndef RELIC_CLI_MUTATORS_H
#define RELIC_CLI_MUTATORS_H

#include "relic_mutate.h"

/* One row: files relic_detect names `format` may be mutated by `mutator`
 * (several rows per format when several schemas share a detection, e.g. ERF
 * and RIM; the first whose validator accepts the file is used). */
typedef struct cli_mutator {
    const char *format;
    const relic_mut_format *mutator;
} cli_mutator;

/* All rows, ended by a row with format NULL. */
extern const cli_mutator cli_mutators[];

#endif
