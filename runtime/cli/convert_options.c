/* convert_options.c — options of `relic convert` that belong to particular
 * conversions (terrain: --relief, --preview, --extent, --max-height, --threshold, --max-grid;
 * GFF text: --encoding, --max-output; GRF -> OBJ: --textures, --swp; `relic dump` takes them too).
 * convert.c hands every argument to cli_convert_take_option; a format's
 * convert or import reads them with cli_convert_option; options nobody read
 * are reported afterwards, so a misplaced option is never silently lost. */
#include <string.h>

#include "cli.h"

typedef struct convert_option {
    const char *name; /* with the leading "--" */
    int takes_value;
    const char *value; /* NULL: not given; "" for a given flag */
    int used;
} convert_option;

static convert_option options[] = {
    {"--relief", 0, NULL, 0},     /* WTD -> PNG: 8-bit grey shaded relief */
    {"--preview", 0, NULL, 0},    /* WTD, TRN -> PNG: 8-bit colour relief (hypsometric tint x hill shading) */
    {"--extent", 1, NULL, 0},     /* PNG -> WTD: X0,Y0,X1,Y1 world rectangle of the picture */
    {"--max-height", 1, NULL, 0}, /* PNG/TRR -> WTD: metres of the largest height */
    {"--threshold", 1, NULL, 0},  /* -> WTD: drop wavelet coefficients of at most this magnitude */
    {"--max-grid", 1, NULL, 0},   /* WTD ->: largest grid side decoded (default RELIC_WTD_DEFAULT_MAX_N) */
    {"--encoding", 1, NULL, 0},   /* GFF <-> JSON: text code page (cp1252, utf8, auto) */
    {"--terrain", 0, NULL, 0},
    {"--textures", 1, NULL, 0},   /* GRF -> OBJ: the level's PID, its textures written as PNG beside the OBJ */
    {"--swp", 1, NULL, 0},        /* GRF -> OBJ: the SWP or SPZ holding that PID's pixels */
    {"--game", 1, NULL, 0},       /* check --strict of a typed GFF: whose rules (nwn1, nwn2, kotor1, kotor2, auto) */
    {"--max-output", 1, NULL, 0}, /* -> JSON: most bytes printed (default: the format's json_max_output) */
};
#define OPTION_COUNT (sizeof options / sizeof options[0])

int cli_convert_take_option(int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    for (size_t k = 0; k < OPTION_COUNT; k++) {
        size_t len = strlen(options[k].name);
        if (strncmp(arg, options[k].name, len) != 0) continue;
        if (arg[len] == '=' && options[k].takes_value) {
            options[k].value = arg + len + 1;
            return 1;
        }
        if (arg[len] != 0) continue;
        if (!options[k].takes_value) {
            options[k].value = "";
            return 1;
        }
        if (*i + 1 >= argc) {
            fprintf(stderr, "relic convert: %s needs a value\n", arg);
            return -1;
        }
        options[k].value = argv[++*i];
        return 1;
    }
    return 0;
}

const char *cli_convert_option(const char *name)
{
    for (size_t k = 0; k < OPTION_COUNT; k++)
        if (!strcmp(options[k].name, name)) {
            /* written once: `check -r` reads the options first, its workers then only read */
            if (!options[k].used) options[k].used = 1;
            return options[k].value;
        }
    return NULL;
}

int cli_convert_unused_options(void)
{
    int unused = 0;
    for (size_t k = 0; k < OPTION_COUNT; k++)
        if (options[k].value && !options[k].used) {
            fprintf(stderr, "relic convert: %s does not apply to this conversion and was ignored\n", options[k].name);
            unused++;
        }
    return unused;
}
