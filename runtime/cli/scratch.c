/* scratch.c — the library calls the CLI makes with scratch memory from a
 * heap arena freed at once: the library takes every byte from the arena its
 * caller passes, and the command line is the caller that may use the heap. */
#include "audio_cli.h"
#include "erf_cli.h"
#include "trn_cli.h"

relic_status cli_erf_write(const relic_erf_archive *ar, relic_erf_layout layout, relic_buf *out, int *fell_back,
                           relic_error *err)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_status st = relic_erf_archive_write(ar, layout, &a, out, fell_back, err);
    relic_arena_release(&a);
    return st;
}

unsigned cli_trn_check_aswm_strict(const relic_trn_aswm *w, const char *path, unsigned max_reports,
                                   relic_report_fn report, void *ctx)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    unsigned problems = relic_trn_check_aswm_strict(w, path, max_reports, &a, report, ctx);
    relic_arena_release(&a);
    return problems;
}

unsigned cli_tpa_check(const relic_tpa_view *v, const relic_tpa_file *m, int strict,
                       relic_report_fn report, void *ctx)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    unsigned problems = relic_tpa_check(v, m, strict, &a, report, ctx);
    relic_arena_release(&a);
    return problems;
}
