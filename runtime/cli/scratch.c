/* scratch.c — the library calls the CLI makes with scratch memory from a
 * heap arena freed at once: the library takes every byte from the arena its
 * caller passes, and the command line is the caller that may use the heap;
 * and the huge-page-backed arena of large jobs (cli.h). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, MAP_NORESERVE, madvise */
#include <stdint.h>
#include <sys/mman.h>

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

#define CLI_HUGE_PAGE ((size_t)2 << 20)

void cli_huge_arena_init(cli_huge_arena *m, relic_arena *a)
{
    m->map = NULL;
    m->map_size = 0;
#if defined(MAP_ANONYMOUS) && defined(MAP_NORESERVE) && defined(MADV_HUGEPAGE)
    if (sizeof(size_t) >= 8) {
        size_t size = CLI_ARENA_LIMIT + CLI_HUGE_PAGE;
        void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p != MAP_FAILED) {
            uint8_t *start = (uint8_t *)(((uintptr_t)p + CLI_HUGE_PAGE - 1) & ~(uintptr_t)(CLI_HUGE_PAGE - 1));
            (void)madvise(start, CLI_ARENA_LIMIT, MADV_HUGEPAGE); /* advice: without it, 4 KiB pages */
            m->map = p;
            m->map_size = size;
            relic_arena_init_buffer(a, start, CLI_ARENA_LIMIT);
            return;
        }
    }
#endif
    relic_arena_init_heap(a, CLI_ARENA_LIMIT);
}

void cli_huge_arena_release(cli_huge_arena *m, relic_arena *a)
{
    relic_arena_release(a);
    if (m->map) munmap(m->map, m->map_size);
    m->map = NULL;
}
