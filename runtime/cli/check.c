/* check.c — `relic check [--strict] [--json] FILE...`: validate each file (the
 * generated schema validator, then its format's rules between tables) and
 * print one line per problem: `FILE: field.path @0xOFFSET: message`, or one
 * JSON object per file with --json. `relic check -r` walks a tree (cmd_batch.c). */
#include <string.h>

#include "tree_cli.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: relic check [--strict [--game G]] [--json] [-q] FILE...\n"
            "       relic check -r [-j N] [--json] [--strict] [-q] ROOT...   (relic check -r --help)\n"
            "Validate each file (- is standard input). Prints one line per problem as\n"
            "FILE: field.path @0xOFFSET: message, and FILE: ok for a valid file (unless -q).\n\n"
            "  --strict   also the rules that tool-written files break but the game's own keep\n"
            "             (BWM: symmetric adjacency, edges = boundary sides, perimeters cover every\n"
            "             edge, every face in one AABB leaf; typed GFF: the rules of the file's game)\n"
            "  --game G   typed GFF rules of game G (nwn1, nwn2, kotor1, kotor2; default auto: from the\n"
            "             fields only one game writes)\n"
            "  --json     one JSON object per file: file, format, size, checked, ok, problems\n"
            "             [{path, offset, message}] (docs/cli.md)\n"
            "  -r         every file under each directory and every container member, on all cores\n"
            "  -q         print problems only\n\n"
            "Exit status: 0 when every file is valid, 1 when any is not, 2 on usage errors.\n");
}

int cmd_check(int argc, char **argv)
{
    int strict = 0, quiet = 0, json = 0, nfiles = 0, bad = 0;
    cli_problems_to_stdout(); /* the problem lines are this command's report */
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-r")) return cli_check_tree(argc, argv);
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_VALID;
        } else if (strcmp(argv[i], "--strict") == 0) strict = 1;
        else if (strcmp(argv[i], "-q") == 0) quiet = 1;
        else if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strncmp(argv[i], "--game", 6) == 0) {
            if (cli_convert_take_option(argc, argv, &i) != 1) {
                usage(stderr);
                return EXIT_USAGE;
            } /* takes its value */
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "relic check: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return EXIT_USAGE;
        } else nfiles++;
    }
    if (nfiles == 0) {
        usage(stderr);
        return EXIT_USAGE;
    }
    relic_buf out;
    relic_buf_init(&out, 0);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--game") == 0) {
            i++;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1]) continue;
        cli_input in;
        if (!json) {
            if (cli_load(argv[i], &in)) {
                bad = 1;
                continue;
            }
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
            continue;
        }
        /* --json: the problems kept, then one object */
        relic_arena a;
        cli_check_result r;
        relic_arena_init_heap(&a, 0);
        cli_check_begin(&r, argv[i], &a);
        if (cli_load(argv[i], &in) == 0) {
            cli_check_one(&in, NULL, strict, 0, &r);
            cli_unload(&in);
        }
        cli_check_end(&r);
        bad |= r.problems != 0;
        cli_check_json(&out, &r);
        if (cli_flush_stdout(&out)) bad = 1;
        relic_arena_release(&a);
    }
    relic_buf_free(&out);
    return bad ? EXIT_INVALID : EXIT_VALID;
}
