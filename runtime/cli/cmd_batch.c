/* cmd_batch.c — `relic check -r ROOT... [-j N]` and `relic info -r ROOT...`:
 * every file of a tree and every member of every container in it (walk.c),
 * checked on N worker threads, printed in walk order whatever order the
 * workers finish in. The workers start before the walk and check each item
 * as soon as the walk has published it: the walk (a third of the work for
 * an install of small members) no longer runs alone before the checks.
 * Each worker keeps its files' problems in its own arena
 * (cli_report_capture); the main thread prints them through the one error
 * printer, or as one JSON object per file, then a table per format. Ctrl-C
 * stops the workers after the file each has in hand; what was printed is
 * whole lines of files checked, nothing after. The library is called as for
 * one file: the threads, the walk and the heap are the command's.
 * RELIC_BATCH_STATS=1 prints each thread's CPU time on standard error. */
#define _POSIX_C_SOURCE 200809L
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gff_cli.h"
#include "progress.h"
#include "tree_cli.h"
#include "walk.h"

#define BATCH_MAX_JOBS 256
/* items a thread takes at once */
#define BATCH_CHUNK 64
/* heap kept by glibc between files instead of trimmed (bytes) */
#define BATCH_HEAP_KEEP (64 << 20)
/* the exit status of a command stopped by SIGINT, as shells report it */
#define EXIT_INTERRUPTED 130
#define MIB (1024.0 * 1024.0)

static atomic_int interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    atomic_store(&interrupted, 1);
}

/* What the walk keeps beside each item for the batch (cli_walk_extra). */
typedef struct slot {
    cli_check_result res;
    atomic_uchar done; /* res is complete */
} slot;

typedef struct batch {
    cli_walk walk;
    atomic_size_t next; /* the next item a worker takes */
    atomic_int stop;    /* the walk ran out of memory: workers stop */
    int strict;
    pthread_mutex_t mu;
    pthread_cond_t cv;         /* the result the main thread waits for is done */
    atomic_size_t waiting_for; /* 1 + the index the main thread sleeps on, 0 when it does not */
    pthread_cond_t walked;     /* the walk published the items a worker waits for */
    atomic_int walk_waiters;   /* workers sleeping on walked */
} batch;

static slot *slot_at(const batch *b, size_t i) { return cli_walk_extra(&b->walk, i); }

static int stopping(const batch *b) { return atomic_load(&interrupted) || atomic_load(&b->stop); }

typedef struct worker {
    batch *b;
    relic_arena arena; /* this worker's problem lines */
    pthread_t thread;
    int started;
    size_t items; /* items it checked, and its CPU seconds (RELIC_BATCH_STATS) */
    double cpu;
} worker;

/* CPU seconds of the calling thread. */
static double thread_cpu(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return 0;
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void check_item(batch *b, size_t i, relic_arena *arena)
{
    const cli_walk_item *it = cli_walk_at(&b->walk, i);
    cli_check_result *r = &slot_at(b, i)->res;
    cli_input in;
    double t0 = cli_now();
    cli_check_begin(r, it->name, arena);
    r->container = it->parent;
    r->size = it->size;
    int loaded = 1;
    if (it->path) {
        loaded = cli_load(it->path, &in) == 0;
    } else {
        memset(&in, 0, sizeof in);
        in.path = it->name;
        in.map.bytes = it->bytes;
        in.format = it->detected ? it->format : relic_detect(it->bytes.data, it->bytes.size, it->name);
    }
    if (loaded) {
        cli_check_one(&in, it->container, b->strict, 1, r);
        if (it->path) cli_unload(&in);
    }
    cli_check_end(r);
    r->seconds = cli_now() - t0;
}

/* Mark item i done, waking the main thread when it sleeps on exactly i:
 * a signal per file costs more than checking a small one. */
static void finish(batch *b, size_t i)
{
    atomic_store(&slot_at(b, i)->done, 1);
    if (atomic_load(&b->waiting_for) == i + 1) {
        pthread_mutex_lock(&b->mu);
        pthread_cond_signal(&b->cv);
        pthread_mutex_unlock(&b->mu);
    }
}

/* The walk published items before to now (walk.c, in the walking thread):
 * wake the workers waiting for a run when a run's end is crossed or the
 * walk is over. Runs start at multiples of BATCH_CHUNK, so one wake-up per
 * run at most. */
static void on_walked(void *ctx, size_t before, size_t now)
{
    batch *b = ctx;
    if (!atomic_load(&b->walk_waiters)) return;
    if (before / BATCH_CHUNK == now / BATCH_CHUNK && !atomic_load(&b->walk.finished)) return;
    pthread_mutex_lock(&b->mu);
    pthread_cond_broadcast(&b->walked);
    pthread_mutex_unlock(&b->mu);
}

/* Sleep until the walk has published need items or is over. */
static void wait_walked(batch *b, size_t need)
{
    if (atomic_load(&b->walk.ready) >= need || atomic_load(&b->walk.finished)) return;
    pthread_mutex_lock(&b->mu);
    atomic_fetch_add(&b->walk_waiters, 1); /* before the test below: on_walked then sees it or we see ready */
    while (atomic_load(&b->walk.ready) < need && !atomic_load(&b->walk.finished) && !stopping(b)) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100000000L; /* see a Ctrl-C */
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&b->walked, &b->mu, &until);
    }
    atomic_fetch_sub(&b->walk_waiters, 1);
    pthread_mutex_unlock(&b->mu);
}

/* Take the next run of BATCH_CHUNK items: one atomic step per run, and each
 * thread on its own stretch of a container (its own pages and cache lines);
 * while the walk goes on, wait until it has published the whole run. */
static int take(batch *b, size_t *first, size_t *end)
{
    size_t i = atomic_fetch_add(&b->next, BATCH_CHUNK);
    wait_walked(b, i + BATCH_CHUNK);
    size_t ready = atomic_load(&b->walk.ready);
    if (i >= ready || stopping(b)) return 0;
    *first = i;
    *end = i + BATCH_CHUNK < ready ? i + BATCH_CHUNK : ready;
    return 1;
}

static void *work(void *arg)
{
    worker *w = arg;
    batch *b = w->b;
    size_t i, end;
    while (!stopping(b) && take(b, &i, &end))
        for (; i < end && !stopping(b); i++) {
            check_item(b, i, &w->arena);
            finish(b, i);
            w->items++;
        }
    w->cpu = thread_cpu();
    return NULL;
}

/* One row of the summary: a format's files. */
typedef struct row {
    const char *format;
    int checked;
    uint64_t files, ok, problems, bytes;
    double seconds;
} row;

static int by_format(const void *x, const void *y)
{
    const row *a = x, *b = y;
    if (a->checked != b->checked) return b->checked - a->checked;
    return strcmp(a->format, b->format);
}

static void tally(row *rows, size_t *nrows, const cli_check_result *r)
{
    size_t k = 0;
    while (k < *nrows && !(rows[k].checked == r->checked && !strcmp(rows[k].format, r->format))) k++;
    if (k == *nrows) {
        memset(&rows[k], 0, sizeof rows[k]);
        rows[k].format = r->format;
        rows[k].checked = r->checked;
        (*nrows)++;
    }
    rows[k].files++;
    rows[k].ok += r->checked && r->problems == 0;
    rows[k].problems += r->problems;
    rows[k].bytes += r->size;
    rows[k].seconds += r->seconds;
}

static void print_table(FILE *to, row *rows, size_t nrows, size_t nitems, uint64_t bytes, double wall, int jobs)
{
    uint64_t files = 0, ok = 0, problems = 0, checked = 0;
    double t = 0;
    qsort(rows, nrows, sizeof *rows, by_format);
    fprintf(to, "%-10s %9s %9s %9s %12s %9s\n", "format", "files", "ok", "problems", "bytes", "time s");
    for (size_t k = 0; k < nrows; k++) {
        const row *r = &rows[k];
        if (r->checked)
            fprintf(to, "%-10s %9llu %9llu %9llu %12llu %9.3f\n", r->format, (unsigned long long)r->files,
                    (unsigned long long)r->ok, (unsigned long long)r->problems, (unsigned long long)r->bytes, r->seconds);
        else
            fprintf(to, "%-10s %9llu %9s %9s %12llu %9s  (not a format relic checks)\n", r->format,
                    (unsigned long long)r->files, "-", "-", (unsigned long long)r->bytes, "-");
        files += r->files;
        checked += r->checked ? r->files : 0;
        ok += r->ok;
        problems += r->problems;
        t += r->seconds;
    }
    fprintf(to, "%-10s %9llu %9llu %9llu %12s %9.3f\n", "total", (unsigned long long)files, (unsigned long long)ok,
            (unsigned long long)problems, "", t);
    fprintf(to, "checked %llu of %zu files and members (%.1f MiB) in %.3f s on %d thread%s: %.0f files/s\n",
            (unsigned long long)checked, nitems, (double)bytes / MIB, wall, jobs, jobs == 1 ? "" : "s",
            wall > 0 ? (double)files / wall : 0.0);
}

static void check_usage(FILE *f)
{
    fprintf(f,
            "usage: relic check -r [-j N] [--json] [--strict [--game G]] [-q] ROOT...\n"
            "Check every file under each ROOT (a directory, walked in name order, or a file) and every\n"
            "member of every container found (ERF/MOD/HAK/SAV/NWM/RIM, and containers inside them), on N\n"
            "threads (default: every core). One line per problem, FILE: field.path @0xOFFSET: message,\n"
            "where a member is named CONTAINER:resref.ext and its offsets are inside the member; then a\n"
            "table per format: files, ok, problems, bytes, time. Files of formats relic does not check\n"
            "are counted, not checked.\n"
            "  -j N       worker threads (1..%d)\n"
            "  --json     one JSON object per file and member (NDJSON); the table goes to standard error\n"
            "  -q         no table and no progress line\n"
            "A progress line is shown on standard error when it is a terminal.\n"
            "Exit status: 0 when every file checked is valid, 1 when any is not, 2 on usage errors,\n"
            "130 when interrupted (Ctrl-C).\n",
            BATCH_MAX_JOBS);
}

static int default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > BATCH_MAX_JOBS ? BATCH_MAX_JOBS
                                          : (int)n;
}

int cli_check_tree(int argc, char **argv)
{
    int strict = 0, quiet = 0, json = 0, jobs = default_jobs(), nroots = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            check_usage(stdout);
            return EXIT_VALID;
        }
        if (!strcmp(a, "-r")) continue;
        if (!strcmp(a, "--strict")) strict = 1;
        else if (!strcmp(a, "-q")) quiet = 1;
        else if (!strcmp(a, "--json")) json = 1;
        else if (!strcmp(a, "-j") || !strncmp(a, "-j", 2)) {
            const char *v = a[2] ? a + 2 : i + 1 < argc ? argv[++i]
                                                        : "";
            char *end;
            long n = strtol(v, &end, 10);
            if (!*v || *end || n < 1 || n > BATCH_MAX_JOBS) {
                fprintf(stderr, "relic check: -j wants a number of threads from 1 to %d, not '%s'\n", BATCH_MAX_JOBS, v);
                return EXIT_USAGE;
            }
            jobs = (int)n;
        } else if (!strncmp(a, "--game", 6)) {
            if (cli_convert_take_option(argc, argv, &i) != 1) {
                check_usage(stderr);
                return EXIT_USAGE;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "relic check: unknown option '%s'\n", a);
            check_usage(stderr);
            return EXIT_USAGE;
        } else {
            nroots++;
        }
    }
    if (!nroots) {
        check_usage(stderr);
        return EXIT_USAGE;
    }
    /* read once here, so the workers only ever read the option table */
    const char *game = cli_convert_option("--game");
    unsigned game_bits;
    if (game && cli_gff_game(game, &game_bits) != 0) {
        fprintf(stderr, "relic check: unknown --game '%s' (nwn1, nwn2, kotor1, kotor2, auto)\n", game);
        return EXIT_USAGE;
    }

#if defined(M_TRIM_THRESHOLD) && defined(M_MMAP_THRESHOLD)
    /* every file's check takes and frees its scratch arenas: keep the heap
     * grown rather than give it back to the system (brk, munmap) per file */
    mallopt(M_TRIM_THRESHOLD, BATCH_HEAP_KEEP);
    mallopt(M_MMAP_THRESHOLD, BATCH_HEAP_KEEP);
#endif
    /* from here a Ctrl-C stops cleanly (during the walk too): SIGINT
     * reaches the main thread only, the workers block it */
    struct sigaction sa, old_sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_sa);
    batch b;
    memset(&b, 0, sizeof b);
    b.strict = strict;
    cli_walk_init(&b.walk, sizeof(slot));
    b.walk.on_ready = on_walked;
    b.walk.ctx = &b;
    worker *ws = calloc((size_t)jobs, sizeof *ws);
    if (!ws || b.walk.out_of_memory) {
        fprintf(stderr, "relic check: out of memory for %d threads\n", jobs);
        free(ws);
        sigaction(SIGINT, &old_sa, NULL);
        cli_walk_free(&b.walk);
        return EXIT_INVALID;
    }
    pthread_mutex_init(&b.mu, NULL);
    pthread_cond_init(&b.cv, NULL);
    pthread_cond_init(&b.walked, NULL);

    sigset_t block, old_mask;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    pthread_sigmask(SIG_BLOCK, &block, &old_mask);
    double t0 = cli_now();
    /* slot 0 is the main thread's: it walks, then prints, and checks the
     * next file itself whenever the one to print next is not done; 1..jobs-1
     * are threads, which check what the walk has published while it walks */
    int started = 1;
    relic_arena_init_heap(&ws[0].arena, 0);
    ws[0].b = &b;
    for (int k = 1; k < jobs; k++) {
        ws[k].b = &b;
        relic_arena_init_heap(&ws[k].arena, 0);
        ws[k].started = pthread_create(&ws[k].thread, NULL, work, &ws[k]) == 0;
        if (!ws[k].started) relic_arena_release(&ws[k].arena);
        started += ws[k].started;
    }
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    unsigned walk_errors = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-j") || !strcmp(a, "--game")) {
            i++;
            continue;
        }
        if (a[0] == '-' && a[1]) continue;
        walk_errors += cli_walk_add(&b.walk, a);
    }
    size_t n = b.walk.count;
    double walk_cpu = thread_cpu(), walk_wall = cli_now() - t0;
    row *rows = b.walk.out_of_memory ? NULL : calloc(n + 1, sizeof *rows);
    if (!rows) {
        fprintf(stderr, "relic check: out of memory while walking the tree (%zu files and members)\n", n);
        atomic_store(&b.stop, 1);
    }
    cli_walk_finish(&b.walk);
    if (!rows) {
        for (int k = 1; k < jobs; k++)
            if (ws[k].started) pthread_join(ws[k].thread, NULL);
        for (int k = 0; k < jobs; k++)
            if (ws[k].started || k == 0) relic_arena_release(&ws[k].arena);
        pthread_mutex_destroy(&b.mu);
        pthread_cond_destroy(&b.cv);
        pthread_cond_destroy(&b.walked);
        free(ws);
        sigaction(SIGINT, &old_sa, NULL);
        cli_walk_free(&b.walk);
        return EXIT_INVALID;
    }

    cli_progress prog;
    cli_progress_begin(&prog, "check", "files", n, b.walk.bytes, quiet);
    cli_progress_silence();
    relic_buf out;
    relic_buf_init(&out, 0);
    size_t nrows = 0, printed = 0;
    uint64_t done_bytes = 0;
    int bad = walk_errors != 0, write_failed = 0;
    while (printed < n && !atomic_load(&interrupted)) {
        size_t i, end;
        if (!atomic_load(&slot_at(&b, printed)->done) && take(&b, &i, &end)) {
            for (; i < end && !atomic_load(&interrupted); i++) {
                check_item(&b, i, &ws[0].arena);
                finish(&b, i);
                ws[0].items++;
            }
            continue;
        }
        pthread_mutex_lock(&b.mu);
        atomic_store(&b.waiting_for, printed + 1);
        while (!atomic_load(&slot_at(&b, printed)->done) && !atomic_load(&interrupted)) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += 100000000L; /* wake to redraw the progress and see a Ctrl-C */
            if (until.tv_nsec >= 1000000000L) {
                until.tv_sec++;
                until.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&b.cv, &b.mu, &until);
        }
        atomic_store(&b.waiting_for, 0);
        pthread_mutex_unlock(&b.mu);
        /* print every result done in order, then redraw */
        while (printed < n && atomic_load(&slot_at(&b, printed)->done)) {
            cli_check_result *r = &slot_at(&b, printed)->res;
            int shown = prog.shown;
            if (shown && (json || r->lines.count)) cli_progress_end(&prog);
            if (json) {
                cli_check_json(&out, r);
                write_failed |= cli_flush_stdout(&out);
            } else {
                cli_problems_print(&r->lines);
            }
            if (r->lines.lost) fprintf(stderr, "relic check: %s: more problems than memory to keep them\n", r->file);
            bad |= r->problems != 0;
            tally(rows, &nrows, r);
            if (!cli_walk_at(&b.walk, printed)->container) done_bytes += r->size;
            printed++;
        }
        fflush(stdout);
        cli_progress_update(&prog, printed, done_bytes);
    }
    for (int k = 1; k < jobs; k++)
        if (ws[k].started) pthread_join(ws[k].thread, NULL);
    double wall = cli_now() - t0;
    cli_progress_end(&prog);
    if (getenv("RELIC_BATCH_STATS")) {
        /* where the time went, per thread: what -j N can gain on an idle machine */
        fprintf(stderr, "relic check: stats: wall %.3f s (walk %.3f s); main thread %.3f s CPU (walk %.3f s), %zu items", wall,
                walk_wall, thread_cpu(), walk_cpu, ws[0].items);
        for (int k = 1; k < jobs; k++)
            if (ws[k].started) fprintf(stderr, "; thread %d %.3f s CPU, %zu items", k, ws[k].cpu, ws[k].items);
        fprintf(stderr, "\n");
    }
    sigaction(SIGINT, &old_sa, NULL);
    int status = bad ? EXIT_INVALID : EXIT_VALID;
    if (atomic_load(&interrupted)) {
        fprintf(stderr, "relic check: interrupted: %zu of %zu files and members checked\n", printed, n);
        status = EXIT_INTERRUPTED;
    } else if (!quiet) {
        print_table(json ? stderr : stdout, rows, nrows, n, b.walk.bytes, wall, started);
    }
    if (fflush(stdout) != 0 || write_failed) {
        fprintf(stderr, "relic check: cannot write the results to standard output\n");
        if (status == EXIT_VALID) status = EXIT_INVALID;
    }
    relic_buf_free(&out);
    for (int k = 0; k < jobs; k++)
        if (ws[k].started || k == 0) relic_arena_release(&ws[k].arena);
    pthread_mutex_destroy(&b.mu);
    pthread_cond_destroy(&b.cv);
    pthread_cond_destroy(&b.walked);
    free(rows);
    free(ws);
    cli_walk_free(&b.walk);
    return status;
}

static void info_usage(FILE *f)
{
    fprintf(f,
            "usage: relic info -r [--json] ROOT...\n"
            "Describe every file under each ROOT (walked in name order) and every member of every\n"
            "container found, as relic info does one file; a member is named CONTAINER:resref.ext.\n"
            "  --json     one JSON object per file and member (NDJSON, the keys of relic info --json)\n"
            "Exit status: 0 when every file was read, 1 when any was invalid, 2 on usage errors.\n");
}

int cli_info_tree(int argc, char **argv)
{
    int json = 0, nroots = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            info_usage(stdout);
            return EXIT_VALID;
        }
        if (!strcmp(a, "-r")) continue;
        if (!strcmp(a, "--json")) json = 1;
        else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "relic info: unknown option '%s'\n", a);
            info_usage(stderr);
            return EXIT_USAGE;
        } else nroots++;
    }
    if (!nroots) {
        info_usage(stderr);
        return EXIT_USAGE;
    }
    cli_walk w;
    cli_walk_init(&w, 0);
    for (int i = 1; i < argc; i++)
        if (!(argv[i][0] == '-' && argv[i][1])) bad |= cli_walk_add(&w, argv[i]) != 0;
    cli_walk_finish(&w);
    relic_buf out;
    relic_buf_init(&out, 0);
    for (size_t i = 0; i < w.count && !w.out_of_memory; i++) {
        const cli_walk_item *it = cli_walk_at(&w, i);
        cli_input in;
        if (it->path) {
            if (cli_load(it->path, &in)) {
                bad = 1;
                continue;
            }
        } else {
            memset(&in, 0, sizeof in);
            in.path = it->name;
            in.map.bytes = it->bytes;
            in.format = relic_detect(it->bytes.data, it->bytes.size, it->name);
        }
        if (json) {
            bad |= cli_info_json(&in, it->parent, &out) != 0;
            if (cli_flush_stdout(&out)) bad = 1;
        } else {
            const cli_format *f = cli_format_for(in.format);
            if (f) bad |= f->hooks->info(&in) != 0;
            else printf("%s: %s (relic reads it only as an input to convert)\n", in.path, relic_format_name(in.format));
        }
        if (it->path) cli_unload(&in);
    }
    if (w.out_of_memory) {
        fprintf(stderr, "relic info: out of memory while walking the tree\n");
        bad = 1;
    }
    relic_buf_free(&out);
    cli_walk_free(&w);
    if (fflush(stdout) != 0) bad = 1;
    return bad ? EXIT_INVALID : EXIT_VALID;
}
