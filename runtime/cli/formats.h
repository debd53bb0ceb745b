/* formats.h — what the `relic` command knows about each format: one
 * cli_format per format in the table of formats.c (name, extensions, the
 * schema's entry points), with the hooks of fmt_<name>.c for what differs
 * per format. The generic subcommands (info.c, check.c, dump.c, convert.c)
 * dispatch through it, so a new format adds one file and one table entry. */
#ifndef RELIC_CLI_FORMATS_H
#define RELIC_CLI_FORMATS_H

#include "cli.h"

/* The schema half of a format: its generated entry points, type-erased so
 * that one copy of the load / validate / write / JSON code (schema_io.c)
 * serves every format. Each entry calls the function of that name for the
 * format (CLI_SCHEMA_OPS below writes the wrappers); all of them could be
 * emitted by relic-gen from the schema. */
typedef struct cli_schema {
    const char *what; /* the file in messages: "walkmesh", "bank" */
    size_t view_size; /* sizeof the view, sizeof the model */
    size_t model_size;
    relic_status (*validate)(const uint8_t *data, size_t size, void *view, relic_error *err);
    relic_status (*decode)(const void *view, relic_arena *a, void *model, relic_error *err);
    /* the writer's layout pass when it has one (TRN), else NULL */
    relic_status (*layout)(void *model, relic_arena *a, relic_error *err);
    relic_status (*write)(const void *model, relic_buf *out, relic_error *err);
    relic_status (*json_print)(const void *model, relic_buf *out, relic_error *err);
    relic_status (*json_read)(const char *text, size_t size, relic_arena *a, void *model, relic_error *err);
} cli_schema;

/* The wrappers of format F (relic_F_validate, relic_F_decode, relic_F_write,
 * relic_F_json_print, relic_F_json_read) over its view type V and model
 * type M, and `static const cli_schema F_schema` with layout L (NULL or a
 * function) naming the file WHAT. */
#define CLI_SCHEMA_OPS(F, V, M, L, WHAT)                                                                 \
    static relic_status F##_validate_(const uint8_t *d, size_t n, void *v, relic_error *e)               \
    {                                                                                                    \
        return relic_##F##_validate(d, n, (V *)v, e);                                                    \
    }                                                                                                    \
    static relic_status F##_decode_(const void *v, relic_arena *a, void *m, relic_error *e)              \
    {                                                                                                    \
        return relic_##F##_decode((const V *)v, a, (M *)m, e);                                           \
    }                                                                                                    \
    static relic_status F##_write_(const void *m, relic_buf *o, relic_error *e)                          \
    {                                                                                                    \
        return relic_##F##_write((const M *)m, o, e);                                                    \
    }                                                                                                    \
    static relic_status F##_json_print_(const void *m, relic_buf *o, relic_error *e)                     \
    {                                                                                                    \
        return relic_##F##_json_print((const M *)m, o, e);                                               \
    }                                                                                                    \
    static relic_status F##_json_read_(const char *t, size_t n, relic_arena *a, void *m, relic_error *e) \
    {                                                                                                    \
        return relic_##F##_json_read(t, n, a, (M *)m, e);                                                \
    }                                                                                                    \
    static const cli_schema F##_schema = {WHAT, sizeof(V), sizeof(M), F##_validate_, F##_decode_, L,     \
                                          F##_write_, F##_json_print_, F##_json_read_}

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
