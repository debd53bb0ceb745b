/* formats.c — the formats the `relic` command handles: one table entry per
 * format (see formats.h). Everything here but the hooks comes from the
 * schema and could be emitted by relic-gen: the detected format and name
 * (the schema's `format` and `detect` lines, generated/registry), the
 * extensions (its `extensions` line, where the command takes more than the
 * library detects: every GFF resource type, the SZDD forms .gr_ and .sc_,
 * RIM beside ERF), and the schema's entry points (validate, decode, write,
 * JSON both ways: RELIC_SCHEMA_OPS). The hooks (fmt_<name>.c) are the
 * hand-written part: info, check rules, other conversions. */
#include <string.h>

#include "audio_cli.h"
#include "erf_cli.h"
#include "formats.h"
#include "key_cli.h"
#include "relic_gff.h"
#include "relic_groff.h"
#include "relic_swp.h"
#include "relic_tpm.h"
#include "relic_tri.h"
#include "relic_trr.h"
#include "trn_cli.h"

RELIC_SCHEMA_OPS_VIEW(bwm, relic_bwm_view, relic_bwm_file, NULL, "walkmesh");
RELIC_SCHEMA_OPS_VIEW(cau, relic_cau_view, relic_cau_file, NULL, "sample");
RELIC_SCHEMA_OPS_VIEW(pid, relic_pid_view, relic_pid_file, NULL, "PID");
RELIC_SCHEMA_OPS_VIEW(tpa, relic_tpa_view, relic_tpa_file, NULL, "bank");
RELIC_SCHEMA_OPS_VIEW(key, relic_key_view, relic_key_file, NULL, "KEY");
RELIC_SCHEMA_OPS_VIEW(bif, relic_bif_view, relic_bif_file, NULL, "BIF");
RELIC_SCHEMA_OPS_VIEW(tlk, relic_tlk_view, relic_tlk_file, NULL, "talk table");

/* TRN: packet sizes and directory offsets are laid out before writing */
static relic_status trn_layout_(void *m, relic_arena *a, relic_error *e) { return relic_trn_layout((relic_trn_file *)m, a, e); }
RELIC_SCHEMA_OPS_VIEW(trn, relic_trn_view, relic_trn_file, trn_layout_, "TRN");

/* Binary extensions of GFF resource types (xoreos, src/aurora/keyfile.cpp, biffile.cpp ResTypes and
 * the corpus); any of them converts to and from JSON. */
/* clang-format off */
static const char *const gff_extensions[] = {
    "gff", "are", "git", "gic", "ifo", "bic", "utc", "uti", "utp", "utd", "ute", "utm", "uts", "utt", "utw",
    "dlg", "jrl", "fac", "itp", "pth", "gui", "upe", "ult", "utr", "ptm", "ptt", "bti", "btc", "btd", "bte",
    "btm", "btp", "btt", "bts", "btw", "res", NULL,
};
/* clang-format on */
static const char *const erf_extensions[] = {"erf", "mod", "hak", "sav", "nwm", "rim", NULL};
static const char *const groff_extensions[] = {"grf", "scn", "gr_", "sc_", NULL};
static const char *const spz_extensions[] = {"spz", "swp", NULL};
static const char *const tpm_extensions[] = {"tpm", NULL};
static const char *const tri_extensions[] = {"tri", NULL};
static const char *const trr_extensions[] = {"trr", NULL};

const cli_format cli_format_bwm = {RELIC_FORMAT_BWM, "bwm", relic_bwm_extensions, &bwm_schema, &cli_bwm_hooks};
const cli_format cli_format_cau = {RELIC_FORMAT_CAU, "cau", relic_cau_extensions, &cau_schema, &cli_cau_hooks};
const cli_format cli_format_trn = {RELIC_FORMAT_TRN, "trn", relic_trn_extensions, &trn_schema, &cli_trn_hooks};
const cli_format cli_format_tpa = {RELIC_FORMAT_TPA, "tpa", relic_tpa_extensions, &tpa_schema, &cli_tpa_hooks};
const cli_format cli_format_pid = {RELIC_FORMAT_PID, "pid", relic_pid_extensions, &pid_schema, &cli_pid_hooks};
const cli_format cli_format_key = {RELIC_FORMAT_KEY, "key", relic_key_extensions, &key_schema, &cli_key_hooks};
const cli_format cli_format_bif = {RELIC_FORMAT_BIF, "bif", relic_bif_extensions, &bif_schema, &cli_bif_hooks};
const cli_format cli_format_tlk = {RELIC_FORMAT_TLK, "tlk", relic_tlk_extensions, &tlk_schema, &cli_tlk_hooks};
/* GFF reads through relic_gff_open and the tree, GROFF through its SZDD
 * unwrapping and the section decoders, ERF/RIM through the archive: their
 * steps are hooks, not the schema's */
static const cli_format gff_format = {RELIC_FORMAT_GFF, "gff", gff_extensions, NULL, &cli_gff_hooks};
static const cli_format groff_format = {RELIC_FORMAT_GROFF, "groff", groff_extensions, NULL, &cli_groff_hooks};
static const cli_format erf_format = {RELIC_FORMAT_ERF, "erf", erf_extensions, NULL, &cli_erf_hooks};
static const cli_format wtd_format = {RELIC_FORMAT_WTD, "wtd", relic_wtd_extensions, NULL, &cli_wtd_hooks};
/* no schema: hand-written readers (the SPZ codec, the text lexers) */
static const cli_format spz_format = {RELIC_FORMAT_SPZ, "spz", spz_extensions, NULL, &cli_spz_hooks};
static const cli_format tri_format = {RELIC_FORMAT_TRI, "tri", tri_extensions, NULL, &cli_tri_hooks};
static const cli_format trr_format = {RELIC_FORMAT_TRR, "trr", trr_extensions, NULL, &cli_trr_hooks};
static const cli_format tpm_format = {RELIC_FORMAT_TPM, "tpm", tpm_extensions, NULL, &cli_tpm_hooks};

/* clang-format off */
const cli_format *const cli_formats[] = {
    &cli_format_bwm, &cli_format_tpa, &cli_format_cau, &gff_format, &groff_format, &cli_format_pid, &spz_format,
    &cli_format_trn, &wtd_format, &tri_format, &trr_format, &tpm_format, &erf_format, &cli_format_key, &cli_format_bif,
    &cli_format_tlk, NULL,
};
/* clang-format on */

const cli_format *cli_format_for(relic_format f)
{
    for (int i = 0; cli_formats[i]; i++)
        if (cli_formats[i]->format == f) return cli_formats[i];
    return NULL;
}

int cli_format_has_ext(const cli_format *f, const char *ext)
{
    for (int k = 0; f->extensions[k]; k++)
        if (strcmp(f->extensions[k], ext) == 0) return 1;
    return 0;
}

const cli_format *cli_format_for_ext(const char *ext)
{
    for (int i = 0; cli_formats[i]; i++)
        if (cli_format_has_ext(cli_formats[i], ext)) return cli_formats[i];
    return NULL;
}
