/* check.c — `relic check [--strict] FILE...`: validate each file (the
 * generated schema validator, then its format's rules between tables) and
 * print one line per problem: `FILE: field.path @0xOFFSET: message`. */
#include <string.h>

#include "formats.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: relic check [--strict [--game G]] [-q] FILE...\n"
        "Validate each file. Prints one line per problem as FILE: field.path @0xOFFSET: message,\n"
        "and FILE: ok for a valid file (unless -q).\n\n"
        "  --strict   also the rules that tool-written files break but the game's own keep\n"
        "             (BWM: symmetric adjacency, edges = boundary sides, perimeters cover every\n"
        "             edge, every face in one AABB leaf; typed GFF: the rules of the file's game)\n"
        "  --game G   typed GFF rules of game G (nwn1, nwn2, kotor1, kotor2; default auto: from the\n"
        "             fields only one game writes)\n"
        "  -q         print problems only\n\n"
        "Exit status: 0 when every file is valid, 1 when any is not, 2 on usage errors.\n");
}

int cmd_check(int argc, char **argv)
{
    int strict = 0, quiet = 0, nfiles = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) { usage(stdout); return EXIT_VALID; }
        else if (strcmp(argv[i], "--strict") == 0) strict = 1;
        else if (strcmp(argv[i], "-q") == 0) quiet = 1;
        else if (strncmp(argv[i], "--game", 6) == 0) {
            if (cli_convert_take_option(argc, argv, &i) != 1) { usage(stderr); return EXIT_USAGE; } /* takes its value */
        }
        else if (argv[i][0] == '-' && argv[i][1]) { fprintf(stderr, "relic check: unknown option '%s'\n", argv[i]); usage(stderr); return EXIT_USAGE; }
        else nfiles++;
    }
    if (nfiles == 0) { usage(stderr); return EXIT_USAGE; }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--game") == 0) { i++; continue; }
        if (argv[i][0] == '-' && argv[i][1]) continue;
        cli_input in;
        if (cli_load(argv[i], &in)) { bad = 1; continue; }
        const cli_format *f = cli_format_for(in.format);
        if (!f) {
            cli_problemf(argv[i], 0, NULL, "not a file relic can check (detected: %s)", relic_format_name(in.format));
            bad = 1;
        } else if (f->hooks->check(&in, strict)) {
            bad = 1;
        } else if (!quiet) {
            printf("%s: ok\n", argv[i]);
        }
        cli_unload(&in);
    }
    return bad ? EXIT_INVALID : EXIT_VALID;
}
