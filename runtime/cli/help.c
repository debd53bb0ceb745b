/* help.c — the text of `relic --help` and the man page relic.1 made from
 * it (`relic help --man`, which the Makefile runs to build relic.1): the
 * command table below, the formats table of formats.c and the containers
 * of walk.c, and each command's own --help printed into the page, so that
 * --help and the man page say the same thing (tests/json_cli_test.sh
 * compares them). Man page layout after xoreos-tools' and neverwinter.nim's
 * one page per tool. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "help.h"
#include "tree_cli.h"
#include "walk.h"

const cli_command cli_commands[] = {
    {"info", cmd_info, "[-r] [--json] FILE...", "what each file is: format, counts, bounds"},
    {"check", cmd_check, "[-r [-j N]] [--strict] [--json] FILE...", "validate; one line per problem: FILE: field @0xOFFSET: message"},
    {"dump", cmd_dump, "FILE [-o OUT] [--to FORMAT]", "the file as JSON (standard output by default)"},
    {"convert", cmd_convert, "IN OUT [--to FORMAT]", "convert by extension (OUT - : standard output, with --to)"},
    {"ls", cmd_ls, "[--json] CONTAINER...", "members of an ERF/MOD/HAK/SAV/NWM/RIM, KEY (with its BIFs), BIF or TLK"},
    {"extract", cmd_extract, "CONTAINER [MEMBER...] [-C DIR]", "members as files (plus a manifest for pack)"},
    {"extract", cmd_extract, "BANK.tpa -C DIR [--names FILE]", "samples as WAV files plus captions.json"},
    {"extract", cmd_extract, "LEVEL.pid --swp LEVEL.swp|.spz -C DIR", "textures as PNG files"},
    {"pack", cmd_pack, "DIR OUT.mod [--nwn2]", "a container from a directory (.erf .mod .hak .sav .nwm .rim .key)"},
    {"get", cmd_get, "FILE PATH [--tlk T] | dialog.tlk STRREF | --install DIR NAME", "one GFF value (Mod_Name, Tile_List/3/Tile_ID), a talk-table string, a resource of a game install"},
    {"set", cmd_set, "FILE PATH VALUE", "change one GFF value (in place when its size is fixed)"},
    {"diff", cmd_diff, "[--json] A B", "field-level differences of two GFF files (exit 1 when they differ)"},
    {"bake", cmd_bake, "IN.trn OUT.trx", "bake an NWN2 walkmesh: path tables, islands (re-bakes a TRX too)"},
    {"path", cmd_path, "[--json] AREA.trx X1 Y1 X2 Y2", "route between two points with the baked tables"},
    {"encode", cmd_encode, "IN.wav OUT.cau [--adpcm]", "a Trespasser sample from a WAV"},
    {"pack-sounds", cmd_pack_sounds, "DIR OUT.tpa [--adpcm]", "a sound bank from a directory as extract writes it"},
    {"pack-textures", cmd_pack_textures, "DIR OUT.pid OUT.swp|.spz", "a texture directory and swap file from PNG files"},
    {"foley", cmd_foley, "BANK.tpa --velocity V", "collision sounds with volume and pitch at velocity V"},
    {"hash", cmd_hash, "[--json] [--object|--sound|--texture] NAME...", "Trespasser name hash (CRC-32) as hex"},
    {"mutate", cmd_mutate, "IN... -n N -o DIR [--invalid]", "N structure-aware mutants + manifest.json"},
    {NULL, NULL, NULL, NULL},
};

const cli_command *cli_command_named(const char *name)
{
    for (const cli_command *c = cli_commands; c->name; c++)
        if (!strcmp(c->name, name)) return c;
    return NULL;
}

/* extensions shown per format (GFF has 36) */
#define HELP_MAX_EXTENSIONS 6

/* Every format relic reads, from the formats table: "name (.ext .ext)". */
static void formats_text(FILE *f)
{
    int col = 0;
    for (int i = 0; cli_formats[i]; i++) {
        char item[160];
        int n = snprintf(item, sizeof item, "%s (", cli_formats[i]->name);
        int count = 0;
        while (cli_formats[i]->extensions[count]) count++;
        for (int k = 0; k < count && k < HELP_MAX_EXTENSIONS && n < (int)sizeof item - 16; k++)
            n += snprintf(item + n, sizeof item - (size_t)n, "%s.%s", k ? " " : "", cli_formats[i]->extensions[k]);
        if (count > HELP_MAX_EXTENSIONS) n += snprintf(item + n, sizeof item - (size_t)n, " ...");
        snprintf(item + n, sizeof item - (size_t)n, ")%s", cli_formats[i + 1] ? "," : ".");
        size_t len = strlen(item);
        if (col && col + 1 + (int)len > 94) {
            fputc('\n', f);
            col = 0;
        }
        col += fprintf(f, "%s%s", col ? " " : "  ", item);
    }
    fputc('\n', f);
}

void cli_usage(FILE *f)
{
    fprintf(f, "usage: relic COMMAND [ARGS...]\n"
               "Read, check and convert classic game files: BioWare Aurora GFF and ERF/RIM, KotOR BWM walkmeshes,\n"
               "NWN2 TRN/TRX terrain, Trespasser GROFF, PID/SWP/SPZ, TPA/CAU, WTD, TPM/TRI/TRR.\n\n"
               "commands:\n");
    for (const cli_command *c = cli_commands; c->name; c++) {
        char head[96];
        snprintf(head, sizeof head, "%s %s", c->name, c->args);
        if (strlen(head) > 30) fprintf(f, "  %s\n  %-30s %s\n", head, "", c->summary);
        else fprintf(f, "  %-30s %s\n", head, c->summary);
    }
    fprintf(f, "\n  relic COMMAND --help           help on one command\n"
               "  relic --version                version\n\n"
               "formats read (name and extensions):\n");
    formats_text(f);
    fprintf(f, "containers walked by check -r and info -r:");
    for (int i = 0; cli_container_kinds[i]; i++) fprintf(f, " %s", cli_container_kinds[i]->name);
    fprintf(f, "\n\n"
               "Formats are detected by magic bytes first, then by extension. - as FILE or IN is standard\n"
               "input; as OUT, standard output. Outputs are written to a temporary file and renamed, and\n"
               "relic never overwrites its input. --json output is documented in docs/cli.md.\n"
               "Exit status: 0 success, 1 invalid input or failed operation, 2 usage error, 130 interrupted.\n");
}

/* text as roff in a no-fill block: backslashes doubled (\e), a line that
 * starts with '.' or '\'' protected (\&). */
static void roff_block(FILE *f, const char *text)
{
    fputs(".nf\n", f);
    int bol = 1;
    for (const char *p = text; *p; p++) {
        if (bol && (*p == '.' || *p == '\'')) fputs("\\&", f);
        if (*p == '\\') fputs("\\e", f);
        else if (*p == '-') fputs("\\-", f);
        else fputc(*p, f);
        bol = *p == '\n';
    }
    if (!bol) fputc('\n', f);
    fputs(".fi\n", f);
}

/* What `relic NAME --help` prints (or the top-level --help for NULL), heap. */
static char *help_of(const cli_command *c)
{
    FILE *t = tmpfile();
    if (!t) return NULL;
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    if (saved < 0 || dup2(fileno(t), STDOUT_FILENO) < 0) {
        if (saved >= 0) close(saved);
        fclose(t);
        return NULL;
    }
    if (c) {
        char name[32], flag[] = "--help";
        snprintf(name, sizeof name, "%s", c->name);
        char *argv[] = {name, flag, NULL};
        c->run(2, argv);
    } else {
        cli_usage(stdout);
    }
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    long n = ftell(t);
    char *s = malloc(n > 0 ? (size_t)n + 1 : 1);
    rewind(t);
    if (s) s[fread(s, 1, n > 0 ? (size_t)n : 0, t)] = 0;
    fclose(t);
    return s;
}

int cli_man_page(FILE *f)
{
    int rc = 0;
    fprintf(f, ".\\\" relic.1 \\- made by `relic help \\-\\-man` from the text of relic \\-\\-help; do not edit\n"
               ".TH RELIC 1 \"\" \"relic %s\" \"User Commands\"\n"
               ".SH NAME\nrelic \\- read, check and convert classic game files\n"
               ".SH SYNOPSIS\n.B relic\n.I COMMAND\n[\\fIARGS\\fR...]\n"
               ".SH DESCRIPTION\n",
            RELIC_VERSION_STRING);
    char *top = help_of(NULL);
    if (top) roff_block(f, top);
    else rc = 1;
    free(top);
    fputs(".SH COMMANDS\n", f);
    for (const cli_command *c = cli_commands; c->name; c++) {
        if (cli_command_named(c->name) != c) continue; /* a second form of the same command */
        fprintf(f, ".SS %s\n", c->name);
        char *s = help_of(c);
        if (s) roff_block(f, s);
        else rc = 1;
        free(s);
    }
    fputs(".SH EXIT STATUS\n0 success (every file valid), 1 invalid input or failed operation, 2 usage error,\n"
          "130 interrupted (Ctrl\\-C).\n"
          ".SH SEE ALSO\nThe documents in docs/ of the source: cli.md (every command, the \\-\\-json keys), security.md.\n",
          f);
    return rc;
}
