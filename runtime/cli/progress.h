/* progress.h — the one progress line of the `relic` command (progress.c):
 * on standard error, rewritten in place, only when standard error is a
 * terminal and -q was not given; nothing at all otherwise, so a pipe or a
 * log file never sees it. Two shapes:
 *  - counted work (check -r, pack-textures, pack-sounds):
 *      relic check: 1234/20000 files, 12.3 MiB, 4567 files/s, ETA 4 s
 *    cli_progress_begin, cli_progress_update as units finish, cli_progress_end;
 *  - one long step (bake, a large WTD grid): a ticker thread
 *      relic bake: house.trn: 3.5 s
 *    cli_progress_tick_begin, then cli_progress_end.
 * cli_progress_end clears the line, so what follows starts on a clean line. */
#ifndef RELIC_CLI_PROGRESS_H
#define RELIC_CLI_PROGRESS_H

#include <pthread.h>
#include <stdint.h>

typedef struct cli_progress {
    int on;           /* stderr is a terminal and not quiet */
    const char *what; /* "check", "bake: house.trn" */
    const char *unit; /* "files" */
    uint64_t total, total_bytes;
    double start, last; /* seconds (CLOCK_MONOTONIC) */
    int shown;          /* a line is on the terminal */
    int ticking;        /* the ticker thread runs */
    int stop;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} cli_progress;

/* Seconds since an arbitrary start (CLOCK_MONOTONIC). */
double cli_now(void);
/* 1 when a progress line would be shown (stderr a terminal) and quiet is 0. */
int cli_progress_wanted(int quiet);

/* No progress line from now on, from any thread (`check -r`, whose own
 * line covers the single-file steps its workers run). */
void cli_progress_silence(void);

/* Counted work of total units (total_bytes bytes, 0: not shown). */
void cli_progress_begin(cli_progress *p, const char *what, const char *unit, uint64_t total, uint64_t total_bytes, int quiet);
/* done units and done_bytes so far; redrawn at most ten times a second. */
void cli_progress_update(cli_progress *p, uint64_t done, uint64_t done_bytes);
/* One long step: "relic WHAT: N.N s" redrawn by a thread four times a second. */
void cli_progress_tick_begin(cli_progress *p, const char *what, int quiet);
/* Stop (and join the ticker), clear the line. Safe on a progress never begun with on = 0. */
void cli_progress_end(cli_progress *p);

#endif
