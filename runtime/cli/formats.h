/* formats.h — what the `relic` command knows about each format: one
 * cli_format per format in the table of formats.c (name, extensions, the
 * schema's entry points), with the hooks of fmt_<name>.c for what differs
 * per format. The generic subcommands (info.c, check.c, dump.c, convert.c)
 * dispatch through it, so a new format adds one file and one table entry. */
#ifndef RELIC_CLI_FORMATS_H
#define RELIC_CLI_FORMATS_H

#include "cli.h"
#include "relic_schema_ops.h"

/* The schema half of a format: its generated entry points, type-erased
 * (relic_schema_ops.h: relic_<f>_schema_ops, emitted by relic-gen), so that
 * one copy of the load / validate / write / JSON code (schema_io.c) serves
 * every format. */
typedef relic_schema_ops cli_schema;

/* The hand-written half of a format (fmt_<name>.c): only what differs per
 * format. A NULL to_json, from_json or rewrite is the schema's (schema_io.c). */
typedef struct cli_hooks {
    /* `relic info`: print a paragraph about a file; 0 when it was read. */
    int (*info)(const cli_input *in);
    /* `relic check`: print one line per problem; returns the number of problems. */
    unsigned (*check)(const cli_input *in, int strict);
    /* The JSON form of a file, appended to out; 0 on success (errors printed). */
    int (*to_json)(const cli_input *in, relic_buf *out);
    /* A binary file of this format from JSON text (in), written to out_path. */
    int (*from_json)(const cli_input *in, const char *out_path);
    /* The file written again to one of its own extensions. */
    int (*rewrite)(const cli_input *in, const char *out_path);
    /* Other outputs of a file of this format, by extension: 0 success,
     * 1 failure, -1 when the extension is not offered. */
    int (*convert)(const cli_input *in, const char *out_path, const char *ext);
    /* A file of this format from another one (e.g. OBJ): same return values. */
    int (*import)(const cli_input *in, const char *out_path, const char *ext);
    /* One line for `relic convert --help`: the conversions offered. */
    const char *help;
    /* The default bound of its JSON, bytes, from the file's size (0 or NULL:
     * none); `--max-output N` overrides it (common.c, cli_write_json). */
    uint64_t (*json_max_output)(size_t file_bytes);
} cli_hooks;

/* One format of the command: the table of formats.c. name, extensions and
 * magic are the library's relic_format_info (generated from the schema's
 * `detect` line) for the detected formats; the text formats, which relic_detect
 * does not know, name theirs here. */
typedef struct cli_format {
    relic_format format;           /* what relic_detect says for its binary files */
    const char *name;              /* short name, as in relic_format_name */
    const char *const *extensions; /* its binary extensions, NULL-terminated */
    const cli_schema *schema;      /* NULL: no generated model (text formats, containers) */
    const cli_hooks *hooks;
} cli_format;

/* The format of a detected input, or NULL. */
const cli_format *cli_format_for(relic_format f);
/* The format whose binary extension ext is (lower case), or NULL. */
const cli_format *cli_format_for_ext(const char *ext);
/* All formats, NULL-terminated. */
extern const cli_format *const cli_formats[];

/* The schema formats, whose hooks call the schema's steps. */
extern const cli_format cli_format_bwm, cli_format_cau, cli_format_pid, cli_format_tpa, cli_format_trn, cli_format_key,
    cli_format_bif, cli_format_tlk;

/* The hand-written halves (fmt_<name>.c). */
extern const cli_hooks cli_bwm_hooks, cli_tpa_hooks, cli_cau_hooks, cli_gff_hooks, cli_groff_hooks, cli_pid_hooks,
    cli_spz_hooks, cli_trn_hooks, cli_wtd_hooks, cli_tri_hooks, cli_trr_hooks, cli_tpm_hooks, cli_erf_hooks, cli_key_hooks, cli_bif_hooks,
    cli_tlk_hooks;

/* schema_io.c: the load / validate / write / JSON steps every schema format
 * shares. Each prints its error (validation problems to standard output, as
 * check does; the rest to standard error) and returns 0 on success. */
/* Validate in's bytes into view (f's view type). */
int cli_schema_view(const cli_format *f, const cli_input *in, void *view);
/* Validate and decode in into model (f's model type, arrays from a); view
 * receives the view when non-NULL. */
int cli_schema_model(const cli_format *f, const cli_input *in, relic_arena *a, void *view, void *model);
/* Lay out (when f has a layout pass), write, validate the output again and
 * write it to out_path atomically (never over in_path). */
int cli_schema_write(const cli_format *f, void *model, relic_arena *a, const char *out_path, const char *in_path);
/* The dispatch of the generic commands: the hook when the format has one,
 * else the schema's step. */
int cli_format_to_json(const cli_format *f, const cli_input *in, relic_buf *out);
int cli_format_from_json(const cli_format *f, const cli_input *in, const char *out_path);
int cli_format_rewrite(const cli_format *f, const cli_input *in, const char *out_path);
/* 1 when ext (lower case) is one of f's own extensions. */
int cli_format_has_ext(const cli_format *f, const char *ext);

#endif
