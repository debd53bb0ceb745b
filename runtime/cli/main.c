/* main.c — the `relic` command: dispatch to a subcommand (info, dump,
 * check, convert), --help and --version. Exit codes: 0 success/valid,
 * 1 invalid input or failed operation, 2 usage error. */
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: relic COMMAND [ARGS...]\n"
        "Read, check and convert classic game files (KotOR BWM walkmeshes: .wok .pwk .dwk).\n\n"
        "commands:\n"
        "  info FILE...              what each file is: format, counts, bounds\n"
        "  dump FILE [-o OUT]        the file as JSON (standard output by default)\n"
        "  check [--strict] FILE...  validate; one line per problem: FILE: field @0xOFFSET: message\n"
        "  convert IN OUT            convert by extension: wok/pwk/dwk <-> json, -> obj, -> svg,\n"
        "                            obj -> wok/pwk/dwk (builds every derived table)\n"
        "  extract BANK.tpa -C DIR [--names FILE]  samples as WAV files plus captions.json\n"
        "  encode IN.wav OUT.cau [--adpcm] [--captions FILE]  a Trespasser sample from a WAV\n"
        "  foley BANK.tpa --velocity V  collision sounds with volume and pitch at velocity V\n"
        "  hash [--object|--sound|--texture] NAME...  Trespasser name hash (CRC-32) as hex\n"
        "  get FILE PATH             one value of a GFF file (Mod_Name, Tile_List/3/Tile_ID)\n\n"
        "  relic COMMAND --help      help on one command\n"
        "  relic --version           version\n\n"
        "Formats are detected by magic bytes first, then by extension. Outputs are written to a\n"
        "temporary file and renamed, and relic never overwrites its input.\n"
        "Exit status: 0 success, 1 invalid input or failed operation, 2 usage error.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) { usage(stderr); return EXIT_USAGE; }
    static char help_flag[] = "--help";
    static char *sub[3];
    const char *cmd = argv[1];
    if (strcmp(cmd, "help") == 0 && argc > 2) {
        /* `relic help CMD` is `relic CMD --help` */
        sub[0] = argv[2];
        sub[1] = help_flag;
        sub[2] = NULL;
        argv = sub;
        argc = 2;
        cmd = argv[0];
    } else if (cli_is_help(cmd) || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return EXIT_VALID;
    } else {
        argv++;
        argc--;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("relic %s\n", RELIC_VERSION_STRING);
        return EXIT_VALID;
    }
    if (strcmp(cmd, "info") == 0) return cmd_info(argc, argv);
    if (strcmp(cmd, "dump") == 0) return cmd_dump(argc, argv);
    if (strcmp(cmd, "check") == 0) return cmd_check(argc, argv);
    if (strcmp(cmd, "convert") == 0) return cmd_convert(argc, argv);
    if (strcmp(cmd, "extract") == 0) return cmd_extract(argc, argv);
    if (strcmp(cmd, "encode") == 0) return cmd_encode(argc, argv);
    if (strcmp(cmd, "foley") == 0) return cmd_foley(argc, argv);
    if (strcmp(cmd, "hash") == 0) return cmd_hash(argc, argv);
    if (strcmp(cmd, "get") == 0) return cmd_get(argc, argv);
    fprintf(stderr, "relic: unknown command '%s' (see relic --help)\n", cmd);
    return EXIT_USAGE;
}
