/* info.c — `relic info FILE...`: one paragraph per file saying what it is. */
#include <string.h>

#include "formats.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: relic info FILE...\nDescribe each file: format, type, counts and what else its format has to say.\n"
               "Exit status: 0 when every file was read, 1 when any was invalid, 2 on usage errors.\n");
}

int cmd_info(int argc, char **argv)
{
    int bad = 0, n = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) { usage(stdout); return EXIT_VALID; }
        if (argv[i][0] == '-' && argv[i][1]) { fprintf(stderr, "relic info: unknown option '%s'\n", argv[i]); return EXIT_USAGE; }
        n++;
    }
    if (!n) { usage(stderr); return EXIT_USAGE; }
    for (int i = 1; i < argc; i++) {
        cli_input in;
        if (cli_load(argv[i], &in)) { bad = 1; continue; }
        const cli_format *f = cli_format_for(in.format);
        if (f) bad |= f->hooks->info(&in) != 0;
        else printf("%s: %s (relic reads it only as an input to convert)\n", argv[i], relic_format_name(in.format));
        cli_unload(&in);
    }
    return bad ? EXIT_INVALID : EXIT_VALID;
}
