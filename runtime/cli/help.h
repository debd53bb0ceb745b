/* help.h — the one text of `relic --help` and of the man page relic.1
 * (help.c): the table of commands, and the man page printed from it and
 * from each command's own --help, so the two cannot drift. */
#ifndef RELIC_CLI_HELP_H
#define RELIC_CLI_HELP_H

#include <stdio.h>

/* One line of the command list; a command with several forms (extract)
 * has one row per form, the first of which dispatches. */
typedef struct cli_command {
    const char *name; /* "check" */
    int (*run)(int argc, char **argv);
    const char *args;    /* "[--strict] FILE..." */
    const char *summary; /* one line */
} cli_command;

/* The commands, ending with a row whose name is NULL. */
extern const cli_command cli_commands[];
/* The first row named name, or NULL. */
const cli_command *cli_command_named(const char *name);
/* `relic --help`. */
void cli_usage(FILE *f);
/* relic.1 (roff, man(7) macros): the text of cli_usage, then each command's
 * own --help, verbatim in no-fill blocks. 0 on success. */
int cli_man_page(FILE *f);

#endif
