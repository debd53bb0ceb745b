/* formats.h — what the `relic` command knows about each format: one
 * cli_format per format (fmt_<name>.c), listed in formats.c. The generic
 * subcommands (info.c, check.c, dump.c, convert.c) dispatch through it, so a
 * new format adds one file and one line. */
#ifndef RELIC_CLI_FORMATS_H
#define RELIC_CLI_FORMATS_H

#include "cli.h"

typedef struct cli_format {
    relic_format format;            /* what relic_detect says for its binary files */
    const char *name;               /* short name, as in relic_format_name */
    const char *const *extensions;  /* its binary extensions, NULL-terminated */
    /* `relic info`: print a paragraph about a file; 0 when it was read. */
    int (*info)(const cli_input *in);
    /* `relic check`: print one line per problem; returns the number of problems. */
    unsigned (*check)(const cli_input *in, int strict);
    /* The JSON form of a file, appended to out; 0 on success (errors printed). */
    int (*to_json)(const cli_input *in, relic_buf *out);
    /* A binary file of this format from JSON text (in), written to out_path. */
    int (*from_json)(const cli_input *in, const char *out_path);
    /* Other outputs of a file of this format, by extension (its own extensions
     * re-write it): 0 success, 1 failure, -1 when the extension is not offered. */
    int (*convert)(const cli_input *in, const char *out_path, const char *ext);
    /* A file of this format from another one (e.g. OBJ): same return values. */
    int (*import)(const cli_input *in, const char *out_path, const char *ext);
    /* One line for `relic convert --help`: the conversions offered. */
    const char *help;
} cli_format;

/* The format of a detected input, or NULL. */
const cli_format *cli_format_for(relic_format f);
/* The format whose binary extension ext is (lower case), or NULL. */
const cli_format *cli_format_for_ext(const char *ext);
/* All formats, NULL-terminated. */
extern const cli_format *const cli_formats[];

extern const cli_format cli_format_bwm;
extern const cli_format cli_format_tpa;
extern const cli_format cli_format_cau;
extern const cli_format cli_format_gff;
extern const cli_format cli_format_groff;
extern const cli_format cli_format_pid;
extern const cli_format cli_format_spz;
extern const cli_format cli_format_trn;
extern const cli_format cli_format_wtd;
extern const cli_format cli_format_tri;
extern const cli_format cli_format_trr;
extern const cli_format cli_format_tpm;
extern const cli_format cli_format_erf;

#endif
