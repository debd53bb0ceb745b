/* dump.c — `relic dump FILE [-o OUT]`: the JSON form of a file. */
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: relic dump FILE [-o OUT]\n"
               "Print the file as JSON (the form `relic convert x.json y.wok` reads back byte for byte).\n"
               "  -o OUT   write to OUT (atomically) instead of standard output\n"
               "Exit status: 0 success, 1 invalid input or write failure, 2 usage error.\n");
}

/* Shared with convert.c: decode a validated BWM and print its JSON. */
int cli_bwm_to_json(const relic_bwm_view *v, relic_buf *out);

int cli_bwm_to_json(const relic_bwm_view *v, relic_buf *out)
{
    relic_arena a;
    relic_error err;
    relic_bwm_bwm m;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    int rc = 0;
    if (relic_bwm_decode(v, &a, &m, &err) != RELIC_OK || relic_bwm_json_print(&m, out, &err) != RELIC_OK) {
        fprintf(stderr, "relic: %s\n", err.message);
        rc = 1;
    }
    relic_arena_release(&a);
    return rc;
}

int cmd_dump(int argc, char **argv)
{
    const char *in_path = NULL, *out_path = "-";
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) { usage(stdout); return EXIT_VALID; }
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out_path = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1]) { fprintf(stderr, "relic dump: unknown option '%s'\n", argv[i]); usage(stderr); return EXIT_USAGE; }
        else if (!in_path) in_path = argv[i];
        else { usage(stderr); return EXIT_USAGE; }
    }
    if (!in_path) { usage(stderr); return EXIT_USAGE; }
    cli_input in;
    if (cli_load(in_path, &in)) return EXIT_INVALID;
    int rc = EXIT_VALID;
    relic_bwm_view v;
    if (in.format != RELIC_FORMAT_BWM) {
        fprintf(stderr, "relic dump: %s: not a format relic dumps (detected: %s)\n", in_path, relic_format_name(in.format));
        rc = EXIT_INVALID;
    } else if (cli_validate_bwm(&in, &v)) {
        rc = EXIT_INVALID;
    } else {
        relic_buf out;
        relic_buf_init(&out, 0);
        if (cli_bwm_to_json(&v, &out) || cli_write(out_path, out.data, out.size, in_path)) rc = EXIT_INVALID;
        relic_buf_free(&out);
    }
    cli_unload(&in);
    return rc;
}
