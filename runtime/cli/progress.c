/* progress.c — the progress line on standard error (progress.h): shown
 * only on a terminal, as xoreos-tools and neverwinter.nim's tools do, so
 * scripts and pipes get nothing but the results. */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

#define PROGRESS_REDRAW_S 0.1
#define PROGRESS_TICK_NS 250000000L
#define MIB (1024.0 * 1024.0)

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* set by `check -r`: its workers run single-file steps that must not each draw a line */
static atomic_int silenced;

void cli_progress_silence(void) { atomic_store(&silenced, 1); }

int cli_progress_wanted(int quiet) { return !quiet && !atomic_load(&silenced) && isatty(STDERR_FILENO); }

static void start(cli_progress *p, const char *what, const char *unit, int quiet)
{
    memset(p, 0, sizeof *p);
    p->on = cli_progress_wanted(quiet);
    p->what = what;
    p->unit = unit;
    p->start = p->last = cli_now();
}

void cli_progress_begin(cli_progress *p, const char *what, const char *unit, uint64_t total, uint64_t total_bytes, int quiet)
{
    start(p, what, unit, quiet);
    p->total = total;
    p->total_bytes = total_bytes;
}

void cli_progress_update(cli_progress *p, uint64_t done, uint64_t done_bytes)
{
    if (!p->on) return;
    double now = cli_now();
    if (p->shown && now - p->last < PROGRESS_REDRAW_S && done < p->total) return;
    p->last = now;
    double t = now - p->start;
    double rate = t > 0 ? (double)done / t : 0;
    fprintf(stderr, "\rrelic %s: %llu/%llu %s", p->what, (unsigned long long)done, (unsigned long long)p->total, p->unit);
    if (p->total_bytes) fprintf(stderr, ", %.1f MiB", (double)done_bytes / MIB);
    if (t > 0) fprintf(stderr, ", %.0f %s/s", rate, p->unit);
    if (rate > 0 && done < p->total) fprintf(stderr, ", ETA %.0f s", (double)(p->total - done) / rate);
    fputs("\033[K", stderr); /* the rest of a longer earlier line */
    fflush(stderr);
    p->shown = 1;
}

static void *ticker(void *arg)
{
    cli_progress *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += PROGRESS_TICK_NS;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&p->cv, &p->mu, &until);
        if (p->stop) break;
        fprintf(stderr, "\rrelic %s: %.1f s\033[K", p->what, cli_now() - p->start);
        fflush(stderr);
        p->shown = 1;
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

void cli_progress_tick_begin(cli_progress *p, const char *what, int quiet)
{
    start(p, what, "", quiet);
    if (!p->on) return;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    p->ticking = pthread_create(&p->thread, NULL, ticker, p) == 0;
    if (!p->ticking) {
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->cv);
    }
}

void cli_progress_end(cli_progress *p)
{
    if (p->ticking) {
        pthread_mutex_lock(&p->mu);
        p->stop = 1;
        pthread_cond_signal(&p->cv);
        pthread_mutex_unlock(&p->mu);
        pthread_join(p->thread, NULL);
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->cv);
        p->ticking = 0;
    }
    if (p->on && p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    p->shown = 0;
}
