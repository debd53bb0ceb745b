/* tree_cli.h — what `relic check`, `relic info` and their -r forms share
 * (problems.c, cmd_batch.c): a file's problems kept instead of printed
 * (cli_report_capture), printed later in order or as JSON, and the one
 * JSON object per file that `check --json` and `check -r --json` print. */
#ifndef RELIC_CLI_TREE_H
#define RELIC_CLI_TREE_H

#include "formats.h"

/* One problem line kept: the file it names and the error. */
typedef struct cli_problem {
    struct cli_problem *next;
    const char *file;
    relic_error err;
} cli_problem;

/* The problems of one file, allocated from arena (a worker's own). */
typedef struct cli_problems {
    cli_problem *first, **last;
    size_t count;
    relic_arena *arena;
    int lost; /* the arena ran out: some were not kept */
} cli_problems;

void cli_problems_init(cli_problems *p, relic_arena *arena);
/* A cli_report_sink_fn: ctx is a cli_problems. */
void cli_problems_keep(void *ctx, const char *file, const relic_error *err);
/* Each kept problem through cli_report to cli_problem_stream() (the check line). */
void cli_problems_print(const cli_problems *p);
/* [{"path": P, "offset": N, "message": M}, ...] (path "" when none). */
void cli_problems_json(relic_buf *o, const cli_problems *p);

/* The result of checking one file or member. */
typedef struct cli_check_result {
    const char *file;      /* as printed */
    const char *container; /* the container a member is in, NULL for a file */
    const char *format;    /* relic_format_name of what was detected */
    uint64_t size;
    int checked;       /* 0: not a format relic checks (the reason is its problem) */
    unsigned problems; /* problems found (at least the lines kept) */
    double seconds;    /* time spent checking; < 0: not shown */
    cli_problems lines;
} cli_check_result;

/* The format name of an input that could not be read. */
#define CLI_UNREAD_FORMAT "unread"
/* Start r for file: its problems are kept (in arena) from now on, in this
 * thread, until cli_check_end. */
void cli_check_begin(cli_check_result *r, const char *file, relic_arena *arena);
/* Check in (a file or a member; container_kind non-NULL: only the tables
 * of that container) into r. skip_unknown: a format relic does not check is
 * left unchecked (check -r) rather than a problem (check FILE). */
struct cli_container_kind;
void cli_check_one(const cli_input *in, const struct cli_container_kind *container_kind, int strict, int skip_unknown,
                   cli_check_result *r);
void cli_check_end(cli_check_result *r);
/* One line of `check --json`: {"file", "format", "container" (members),
 * "size", "checked", "ok", "problems": [...], "time_ms" (when measured)}. */
void cli_check_json(relic_buf *o, const cli_check_result *r);
/* Write b's bytes to standard output and empty it; 1 on a write error. */
int cli_flush_stdout(relic_buf *b);

/* `relic check -r` and `relic info -r` (cmd_batch.c). */
int cli_check_tree(int argc, char **argv);
int cli_info_tree(int argc, char **argv);
/* info of one input as one JSON object (info.c). */
int cli_info_json(const cli_input *in, const char *container, relic_buf *o);

#endif
