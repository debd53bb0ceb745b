/* main.c — the `relic` command: dispatch to a subcommand (info, dump,
 * check, convert), --help and --version. Exit codes: 0 success/valid,
 * 1 invalid input or failed operation, 2 usage error. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
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
        "  pack-sounds DIR OUT.tpa [--adpcm]  a sound bank from a directory as extract writes it\n"
        "  extract LEVEL.pid --swp LEVEL.swp|.spz -C DIR [--names LEVEL.grf]  textures as PNG files\n"
        "  pack-textures DIR OUT.pid OUT.swp|OUT.spz  a texture directory and swap file from PNG files\n"
        "  foley BANK.tpa --velocity V  collision sounds with volume and pitch at velocity V\n"
        "  hash [--object|--sound|--texture] NAME...  Trespasser name hash (CRC-32) as hex\n"
        "  mutate IN... -n N -o DIR [--seed S] [--invalid]  N structure-aware mutants + manifest.json\n"
        "  get FILE PATH             one value of a GFF file (Mod_Name, Tile_List/3/Tile_ID); --tlk T: StrRef text\n"
        "  get dialog.tlk STRREF     one string of a talk table; get --install DIR NAME: from a game install\n"
        "  bake IN.trn OUT.trx       bake an NWN2 walkmesh: path tables, islands (re-bakes a TRX too)\n"
        "  path AREA.trx X1 Y1 X2 Y2 [--svg OUT.svg]  route between two points with the baked tables\n"
        "  set FILE PATH VALUE       change one GFF value (in place when its size is fixed)\n"
        "  diff A B                  field-level differences of two GFF files (exit 1 when they differ)\n"
        "  ls CONTAINER              members of an ERF/MOD/HAK/SAV/NWM/RIM, KEY (with its BIFs) or BIF\n"
        "  extract CONTAINER [MEMBER...] [-C DIR]  members as files (plus a manifest for pack)\n"
        "  pack DIR OUT.mod [--nwn2] a container from a directory (.erf .mod .hak .sav .nwm .rim .key)\n\n"
        "  relic COMMAND --help      help on one command\n"
        "  relic --version           version\n\n"
        "Formats are detected by magic bytes first, then by extension. Outputs are written to a\n"
        "temporary file and renamed, and relic never overwrites its input.\n"
        "Exit status: 0 success, 1 invalid input or failed operation, 2 usage error.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) { usage(stderr); return EXIT_USAGE; }
    /* A file past `ulimit -f` or a closed pipe is a write error to report
     * (EFBIG, EPIPE) with the output's name and no temporary left behind,
     * not a signal that kills relic mid-write. */
    signal(SIGXFSZ, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
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
    if (strcmp(cmd, "bake") == 0) return cmd_bake(argc, argv);
    if (strcmp(cmd, "path") == 0) return cmd_path(argc, argv);
    if (strcmp(cmd, "mutate") == 0) return cmd_mutate(argc, argv);
    if (strcmp(cmd, "ls") == 0) return cmd_ls(argc, argv);
    if (strcmp(cmd, "pack") == 0) return cmd_pack(argc, argv);
    if (strcmp(cmd, "set") == 0) return cmd_set(argc, argv);
    if (strcmp(cmd, "diff") == 0) return cmd_diff(argc, argv);
    if (strcmp(cmd, "pack-sounds") == 0) return cmd_pack_sounds(argc, argv);
    if (strcmp(cmd, "pack-textures") == 0) return cmd_pack_textures(argc, argv);
    fprintf(stderr, "relic: unknown command '%s' (see relic --help)\n", cmd);
    return EXIT_USAGE;
}
