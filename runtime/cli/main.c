/* main.c — the `relic` command: dispatch to a subcommand through the
 * command table (help.c), --help, --version and `relic help --man` (the
 * man page, from the same text). Exit codes: 0 success/valid, 1 invalid
 * input or failed operation, 2 usage error, 130 interrupted. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <string.h>

#include "cli.h"
#include "help.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        cli_usage(stderr);
        return EXIT_USAGE;
    }
    /* A file past `ulimit -f` or a closed pipe is a write error to report
     * (EFBIG, EPIPE) with the output's name and no temporary left behind,
     * not a signal that kills relic mid-write. */
    signal(SIGXFSZ, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    static char help_flag[] = "--help";
    static char *sub[3];
    const char *cmd = argv[1];
    if (strcmp(cmd, "help") == 0 && argc > 2 && strcmp(argv[2], "--man") == 0) {
        return cli_man_page(stdout) || fflush(stdout) ? EXIT_INVALID : EXIT_VALID;
    } else if (strcmp(cmd, "help") == 0 && argc > 2) {
        /* `relic help CMD` is `relic CMD --help` */
        sub[0] = argv[2];
        sub[1] = help_flag;
        sub[2] = NULL;
        argv = sub;
        argc = 2;
        cmd = argv[0];
    } else if (cli_is_help(cmd) || strcmp(cmd, "help") == 0) {
        cli_usage(stdout);
        return EXIT_VALID;
    } else {
        argv++;
        argc--;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("relic %s\n", RELIC_VERSION_STRING);
        return EXIT_VALID;
    }
    const cli_command *c = cli_command_named(cmd);
    if (c) return c->run(argc, argv);
    fprintf(stderr, "relic: unknown command '%s' (see relic --help)\n", cmd);
    return EXIT_USAGE;
}
