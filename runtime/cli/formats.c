/* formats.c — the formats the `relic` command handles (see formats.h). */
#include <string.h>

#include "formats.h"

const cli_format *const cli_formats[] = {
    &cli_format_bwm,
    &cli_format_tpa,
    &cli_format_cau,
    &cli_format_gff,
    &cli_format_groff,
    &cli_format_pid,
    &cli_format_spz,
    &cli_format_trn,
    &cli_format_wtd,
    &cli_format_tri,
    &cli_format_trr,
    &cli_format_tpm,
    &cli_format_erf,
    NULL,
};

const cli_format *cli_format_for(relic_format f)
{
    for (int i = 0; cli_formats[i]; i++)
        if (cli_formats[i]->format == f) return cli_formats[i];
    return NULL;
}

const cli_format *cli_format_for_ext(const char *ext)
{
    for (int i = 0; cli_formats[i]; i++)
        for (int k = 0; cli_formats[i]->extensions[k]; k++)
            if (strcmp(cli_formats[i]->extensions[k], ext) == 0) return cli_formats[i];
    return NULL;
}
