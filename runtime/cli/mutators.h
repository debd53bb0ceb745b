/* mutators.h — which generated structure-aware mutator (relic_<f>_mutator,
 * generated/<family>/<f>_mutate.c) handles files of each detected format,
 * for `relic mutate` (cmd_mutate.c). */
#ifndef RELIC_CLI_MUTATORS_H
#define RELIC_CLI_MUTATORS_H

#include "relic_mutate_formats.h"

/* One row: files relic_detect names `format` may be mutated by `mutator`
 * (several rows per format when several schemas share a detection, e.g. ERF
 * and RIM; the first whose validator accepts the file is used). Formats
 * whose generated writer cannot rebuild a whole file (ERF/RIM resource data,
 * WTD's zerotree, SZDD-compressed GROFF) and the text and SPZ/SWP formats
 * have a hand-written mutator instead: `make` returns it (built once, from
 * the generated tables where there are some; runtime/mutate_*.c). no_invalid, when
 * set, says why the format has no invalid form (`--invalid` is refused);
 * ext, when set, limits the row to files with that extension (SPZ and SWP
 * share a detection). tree, when set, is a mutator of the file's semantic
 * tree (GFF: relic_gff_mutate, fields by label path; BWM: relic_bwm_mutate,
 * the geometry with every derived table rebuilt) that makes three outputs
 * in four; the tables' mutator makes the others (GFF: the struct, field,
 * label and data arrays as laid out) and validates the inputs. tokens,
 * when set (TPM, TRI, TRR), is the text format's vocabulary for the
 * token-level mutator (relic_mutate_tokens: numbers respelled, keyword
 * case, blanks, line ends, comments, lines moved), which makes one output
 * in four: the spellings the writers never print. */
typedef struct cli_mutator {
    const char *format;
    const relic_mut_format *mutator;
    const relic_mut_format *(*make)(void);
    const char *no_invalid;
    const char *ext;
    relic_status (*tree)(const uint8_t *in, size_t n, const uint8_t *in2, size_t n2, uint64_t seed, unsigned flags,
                         relic_arena *scratch, relic_buf *out, relic_mutate_result *res, relic_error *err);
    const relic_token_vocab *tokens;
} cli_mutator;

/* All rows, ended by a row with format NULL. */
extern const cli_mutator cli_mutators[];

/* The mutator of a row (row->mutator, or the one row->make builds). */
const relic_mut_format *cli_mutator_of(const cli_mutator *row);

/* The hand-written mutators (relic_mutator_erf ...) are in the library:
 * relic_mutate_formats.h. */

#endif
