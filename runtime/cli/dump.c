/* dump.c — `relic dump FILE [-o OUT] [--to FORMAT]`: the JSON form of a
 * file, or with --to any form `relic convert` makes, on standard output. */
#include <string.h>

#include "formats.h"
#include "key_cli.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: relic dump FILE [-o OUT] [--to FORMAT] [--encoding cp1252|utf8|auto] [--tlk dialog.tlk] [--max-output N]\n"
               "Print the file (- : standard input) as JSON (the form `relic convert x.json y.<ext>` reads\n"
               "back byte for byte).\n"
               "  -o OUT   write to OUT (atomically) instead of standard output\n"
               "  --to FORMAT  another form relic convert makes (obj, svg, png, wav, ...), as relic convert\n"
               "           FILE - --to FORMAT\n"
               "  --encoding E  GFF text code page (default auto: UTF-8 when all text is UTF-8, as NWN2 writes it; else cp1252)\n"
               "  --tlk T  GFF: beside each locstring with a StrRef, \"__tlk\": its text in talk table T (read back: ignored)\n"
               "  --max-output N  GFF: stop with an error past N bytes of JSON (default 32 x the file + 16 MiB;\n"
               "           0: no bound). Fields may share one value, which the JSON prints once for each\n"
               "Exit status: 0 success, 1 invalid input or write failure, 2 usage error.\n");
}

int cmd_dump(int argc, char **argv)
{
    const char *in_path = NULL, *out_path = "-", *to = NULL;
    cli_tlk tlk = {0};
    for (int i = 1; i < argc; i++) {
        int t;
        if (cli_is_help(argv[i])) {
            usage(stdout);
            cli_tlk_unload(&tlk);
            return EXIT_VALID;
        } else if ((t = cli_tlk_option(argc, argv, &i, &tlk)) != 0) {
            if (t < 0) return EXIT_INVALID;
        } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out_path = argv[++i];
        else if (strcmp(argv[i], "--to") == 0 && i + 1 < argc) to = argv[++i];
        else if (strncmp(argv[i], "--encoding", 10) == 0 || strncmp(argv[i], "--max-output", 12) == 0) {
            if (cli_convert_take_option(argc, argv, &i) != 1) {
                usage(stderr);
                return EXIT_USAGE;
            }
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "relic dump: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return EXIT_USAGE;
        } else if (!in_path) in_path = argv[i];
        else {
            usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (!in_path) {
        usage(stderr);
        cli_tlk_unload(&tlk);
        return EXIT_USAGE;
    }
    if (to && strcmp(to, "json") != 0) {
        cli_tlk_unload(&tlk);
        return cli_convert_to(in_path, out_path, to, 0, NULL);
    }
    cli_input in;
    if (cli_load(in_path, &in)) {
        cli_tlk_unload(&tlk);
        return EXIT_INVALID;
    }
    int rc = EXIT_VALID;
    const cli_format *f = cli_format_for(in.format);
    if (!f) {
        cli_errorf(in_path, 0, "not a format relic dumps (detected: %s)", relic_format_name(in.format));
        rc = EXIT_INVALID;
    } else if (cli_write_json(f, &in, out_path)) {
        rc = EXIT_INVALID;
    }
    cli_unload(&in);
    cli_tlk_unload(&tlk);
    cli_tlk_current = NULL;
    return rc;
}
