/* mutators.c — the per-format dispatch of `relic mutate`: one row per
 * schema whose generated mutator handles whole files of a detected format
 * (see mutators.h). A new schema format adds its row here. */
#include <stddef.h>

#include "mutators.h"

#include "bwm_mutate.h"
#include "cau_mutate.h"
#include "erf_mutate.h"
#include "gff_mutate.h"
#include "groff_mutate.h"
#include "pid_mutate.h"
#include "rim_mutate.h"
#include "tpa_mutate.h"
#include "trn_mutate.h"
#include "wtd_mutate.h"

const cli_mutator cli_mutators[] = {
    { "bwm", &relic_bwm_mutator },
    { "cau", &relic_cau_mutator },
    { "erf", &relic_erf_mutator },
    { "erf", &relic_rim_mutator },
    { "gff", &relic_gff_mutator },
    { "groff", &relic_groff_mutator },
    { "pid", &relic_pid_mutator },
    { "tpa", &relic_tpa_mutator },
    { "trn", &relic_trn_mutator },
    { "wtd", &relic_wtd_mutator },
    { NULL, NULL },
};
