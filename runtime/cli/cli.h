/* cli.h — shared pieces of the `relic` command: loading and validating an
 * input, writing an output atomically, and the subcommand entry points. */
#ifndef RELIC_CLI_H
#define RELIC_CLI_H

#include "relic.h"
#include "relic_bwm.h"

/* Exit codes, the same for every subcommand. */
enum { EXIT_VALID = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };

/* Largest input read from a pipe (a mapped file has no limit but its own size). */
#define CLI_MAX_PIPE_INPUT ((size_t)1 << 30)
/* Largest arena for one decoded file. */
#define CLI_ARENA_LIMIT ((size_t)4 << 30)

/* One loaded input: its bytes and its format. */
typedef struct cli_input {
    const char *path;
    relic_mapping map;
    relic_format format;
} cli_input;

/* Map path and detect its format; prints `relic: ...` and returns nonzero on failure. */
int cli_load(const char *path, cli_input *in);
void cli_unload(cli_input *in);

/* Write bytes to path atomically (never over `input`); prints the error. */
int cli_write(const char *path, const void *data, size_t size, const char *input);

struct cli_format;
/* Stream the JSON form of in (through fmt->to_json) to out_path atomically,
 * with bounded memory; prints the error. 0 on success. */
int cli_write_json(const struct cli_format *fmt, const cli_input *in, const char *out_path);

/* 1 when argv[i] is -h or --help. */
int cli_is_help(const char *arg);

int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_extract(int argc, char **argv);
int cmd_encode(int argc, char **argv);
int cmd_foley(int argc, char **argv);
int cmd_hash(int argc, char **argv);
int cmd_get(int argc, char **argv);

#endif
