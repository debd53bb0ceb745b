/* mutators.c — the per-format dispatch of `relic mutate`: one row per
 * schema whose generated mutator handles whole files of a detected format,
 * and one per hand-written mutator (mutate_<f>.c) where the generated
 * writer cannot rebuild the whole file (see mutators.h). A new schema
 * format adds its row here. */
#include <stddef.h>

#include "mutators.h"

#include "bwm.h"
#include "cau.h"
#include "gff.h"
#include "groff.h"
#include "pid.h"
#include "tpa.h"
#include "trn.h"

const cli_mutator cli_mutators[] = {
    {"bwm", &relic_bwm_mutator, NULL, NULL, NULL, relic_bwm_mutate, NULL},
    {"cau", &relic_cau_mutator, NULL, NULL, NULL, NULL, NULL},
    {"erf", NULL, relic_mutator_erf, NULL, NULL, NULL, NULL},
    {"erf", NULL, relic_mutator_rim, NULL, NULL, NULL, NULL},
    {"gff", &relic_gff_mutator, NULL, NULL, NULL, relic_gff_mutate, NULL},
    {"groff", &relic_groff_mutator, NULL, NULL, NULL, NULL, NULL},
    {"groff", NULL, relic_mutator_groff_szdd, NULL, NULL, NULL, NULL},
    {"pid", &relic_pid_mutator, NULL, NULL, NULL, NULL, NULL},
    {"spz", NULL, relic_mutator_spz, NULL, "spz", NULL, NULL},
    {"spz", NULL, relic_mutator_swp, "a raw .swp is the bytes a level's PID addresses: any bytes are one; use .spz", "swp", NULL, NULL},
    {"tpa", &relic_tpa_mutator, NULL, NULL, NULL, NULL, NULL},
    {"tpm", NULL, relic_mutator_tpm, NULL, NULL, NULL, &relic_tokens_tpm},
    {"tri", NULL, relic_mutator_tri, NULL, NULL, NULL, &relic_tokens_tri},
    {"trn", NULL, relic_mutator_trn_aswm, NULL, NULL, NULL, NULL},
    {"trn", &relic_trn_mutator, NULL, NULL, NULL, NULL, NULL},
    {"trr", NULL, relic_mutator_trr, NULL, NULL, NULL, &relic_tokens_trr},
    {"wtd", NULL, relic_mutator_wtd, NULL, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};

const relic_mut_format *cli_mutator_of(const cli_mutator *row)
{
    return row->make ? row->make() : row->mutator;
}
