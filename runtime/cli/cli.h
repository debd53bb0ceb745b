/* cli.h — shared pieces of the `relic` command: loading and validating an
 * input, writing an output atomically, and the subcommand entry points. */
#ifndef RELIC_CLI_H
#define RELIC_CLI_H

#include "relic.h"
#include "relic_bwm.h"

/* Exit codes, the same for every subcommand. */
enum { EXIT_VALID = 0,
       EXIT_INVALID = 1,
       EXIT_USAGE = 2 };

/* Largest input read from a pipe (a mapped file has no limit but its own size). */
#define CLI_MAX_PIPE_INPUT ((size_t)1 << 30)
/* Largest arena for one decoded file. */
#define CLI_ARENA_LIMIT ((size_t)4 << 30)

/* A command's memory for one large job (a bake, a GFF from JSON): one
 * reservation of address space the size of CLI_ARENA_LIMIT, backed by
 * transparent huge pages as it is touched, as a buffer arena. Taken 4 KiB
 * page by page, as heap arena blocks are, the page faults of a few MB of
 * fresh memory cost more CPU on a virtual machine than the work itself (a
 * 2 MiB page costs about what two 4 KiB faults do). Where the system has
 * no such mapping, a heap arena with that limit (runtime/cli/scratch.c). */
typedef struct cli_huge_arena {
    void *map;
    size_t map_size;
} cli_huge_arena;
void cli_huge_arena_init(cli_huge_arena *m, relic_arena *a);
/* Release the arena and the reservation. */
void cli_huge_arena_release(cli_huge_arena *m, relic_arena *a);

/* One loaded input: its bytes and its format. */
typedef struct cli_input {
    const char *path;
    relic_mapping map;
    relic_format format;
} cli_input;

/* The one error printer of the command. Every error about a file, whoever
 * found it (the library or the command), comes out as one line
 *     FILE: field.path @0xOFFSET: message
 * (relic_error_print's form, the `relic check` line): the file, the field
 * path when there is one, the byte offset (0x0 when the error is about the
 * whole file) and the message. A text reader's "FILE:LINE:COL: " prefix is
 * folded into "line L, column C: " after the offset, so the file is named
 * once. cli_report prints to `to`; cli_error to stderr. */
void cli_report(FILE *to, const char *file, const relic_error *err);
/* The stream of the problem lines found in an input: stdout while check or
 * info runs (the lines are what those commands report), stderr for every
 * other command, whose stdout may carry the output itself (`relic convert
 * x.wok - --to json`, `relic dump`). The helpers that load and check a file
 * for several commands print there. cli_problems_to_stdout: check and info,
 * before anything is loaded. */
FILE *cli_problem_stream(void);
void cli_problems_to_stdout(void);
/* Send every line cli_report (and so cli_error, cli_errorf, cli_problemf)
 * would print from the calling thread to fn instead, with the message's
 * text position already folded; fn NULL prints again. Thread-local: each
 * worker of `relic check -r` (cmd_batch.c) keeps its own file's problems. */
typedef void (*cli_report_sink_fn)(void *ctx, const char *file, const relic_error *err);
void cli_report_capture(cli_report_sink_fn fn, void *ctx);
void cli_error(const char *file, const relic_error *err);
/* cli_error with "what: " before err's message (what the command was doing). */
void cli_error_in(const char *file, const char *what, const relic_error *err);
/* An error the command finds itself, at byte offset of file (0: the whole
 * file); printf-style message. cli_problemf prints a problem line with a
 * field path (NULL: none) to cli_problem_stream(). */
void cli_errorf(const char *file, uint64_t offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void cli_problemf(const char *file, uint64_t offset, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* A report callback (relic_report_fn) printing each problem with
 * cli_report to cli_problem_stream(); ctx is the file name. */
void cli_report_problem(void *ctx, const relic_error *err);

/* Map path and detect its format; prints the error (cli_error) and returns nonzero on failure. */
int cli_load(const char *path, cli_input *in);
void cli_unload(cli_input *in);

/* Write bytes to path atomically (never over `input`); prints the error. */
int cli_write(const char *path, const void *data, size_t size, const char *input);

/* Multi-file outputs, all or none: between cli_batch_begin and
 * cli_batch_end, cli_write writes and syncs each file to its temporary;
 * cli_batch_end(ok) renames them all when ok and nothing failed, else
 * removes them all. Returns 0 when all were committed. */
void cli_batch_begin(void);
int cli_batch_end(int ok);

/* In a to_json printer: 1 (and the write error printed once, with the
 * output path and its cause) when out failed because the output could not
 * be written, so the printer's own "out of memory" is not the message. */
int cli_json_write_failed(const relic_buf *out);

struct cli_format;
/* Stream the JSON form of in (through fmt->to_json) to out_path atomically,
 * with bounded memory; prints the error. 0 on success. */
int cli_write_json(const struct cli_format *fmt, const cli_input *in, const char *out_path);

/* Conversion options of `relic convert` (convert_options.c): take argv[*i]
 * (and its value) when it is one; 1 taken, 0 not an option of a conversion,
 * -1 value missing (printed). */
int cli_convert_take_option(int argc, char **argv, int *i);
/* The value of a conversion option ("--relief": "" when given), NULL when
 * absent; marks it used. */
const char *cli_convert_option(const char *name);
/* Print each option given but never read; returns how many. */
int cli_convert_unused_options(void);

/* name[0..n) made safe for a terminal: control bytes, DEL and backslash as
 * C escapes (\n, \x1b), other bytes as they are; truncated to fit out
 * (size > 0). Returns out. Every name that comes from a file goes through
 * this before it is printed, so a file cannot drive the terminal. */
const char *cli_escape(char *out, size_t size, const char *name, size_t n);

/* s[0..n) as a JSON string: UTF-8 kept, control bytes escaped, a byte
 * that is not part of valid UTF-8 as its Latin-1 character (\u00XX), so any
 * name or message gives valid JSON (problems.c). The --json outputs use it. */
void cli_json_text(relic_buf *o, const char *s, size_t n);

/* 1 when argv[i] is -h or --help. */
int cli_is_help(const char *arg);

/* `relic convert IN OUT` (convert.c): to the format named by to (an
 * extension, "json", "obj"; NULL: OUT's extension); OUT "-" is standard
 * output and then needs to. Returns the exit status. */
int cli_convert_to(const char *in_path, const char *out_path, const char *to, int adpcm, const char *captions);

int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_extract(int argc, char **argv);
int cmd_encode(int argc, char **argv);
int cmd_foley(int argc, char **argv);
int cmd_hash(int argc, char **argv);
int cmd_get(int argc, char **argv);
int cmd_bake(int argc, char **argv);
int cmd_path(int argc, char **argv);
int cmd_mutate(int argc, char **argv);
int cmd_ls(int argc, char **argv);
int cmd_pack(int argc, char **argv);
int cmd_set(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_pack_sounds(int argc, char **argv);
/* The arguments of `relic extract`, parsed once (cmd_extract.c); the
 * input is loaded once and handed with them to the extractor of its format. */
typedef struct cli_extract_args {
    const char *dir;   /* -C DIR; NULL when not given */
    const char *names; /* --names FILE */
    const char *swp;   /* --swp LEVEL.swp|.spz */
    int mips;          /* --mips */
    char **members;    /* the arguments after the input (container members) */
    int nmembers;
} cli_extract_args;
/* `relic extract LEVEL.pid --swp ...` on the loaded PID (cmd_extract_textures.c). */
int cli_extract_textures(const cli_input *pid, const cli_extract_args *x);
void cli_extract_textures_usage(FILE *f);
/* The textures a GRF level names (its .bmp symbols hashed to texture IDs),
 * decoded from PID + SWP/SPZ and written as DIR/<name>.png into the open
 * batch (cli_batch_begin), each name once; *stems lists the names written
 * (arena a). Returns 0, or 1 after printing the error. */
int cli_level_textures(const char *pid_path, const char *swp_path, const char *grf_path, const char *dir, relic_arena *a,
                       const char ***stems, size_t *count);
/* The file stem cli_level_textures gives a texture path ("Map\\demo\\Blaht2.bmp" -> "Blaht2"), in arena a. */
const char *cli_level_texture_name(relic_arena *a, const char *texture);
/* 1 when name is one of the n stems. */
int cli_level_texture_stem(const char *const *stems, size_t n, const char *name);
int cmd_pack_textures(int argc, char **argv);

#endif
