/* cpu_run.c — the CPU time and peak RSS of whole commands, for the
 * benchmark scripts: `cpu_run [-n RUNS] [-o OUT] CMD ARGS...` runs CMD RUNS
 * times in a row (stdout to OUT, default /dev/null; stderr to /dev/null)
 * and prints "SECONDS MAXRSS_KIB": user + system CPU seconds per run (the
 * median of the runs) and the largest peak RSS, both from wait4(2), so the
 * figure is the command's own, whatever else the machine runs. Exits
 * non-zero if a run fails. */
#define _DEFAULT_SOURCE 1
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int runs = 1, i = 1;
    const char *out = "/dev/null";
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--")) {
            i++;
            break;
        } else {
            fprintf(stderr, "cpu_run: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (i >= argc || runs < 1 || runs > 100000) {
        fprintf(stderr, "usage: cpu_run [-n RUNS] [-o OUT] CMD ARGS...\n");
        return 2;
    }
    double *t = calloc((size_t)runs, sizeof *t);
    long maxrss = 0;
    if (!t) return 2;
    for (int r = 0; r < runs; r++) {
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
        pid_t pid;
        if (posix_spawnp(&pid, argv[i], &fa, NULL, argv + i, environ) != 0) {
            fprintf(stderr, "cpu_run: cannot run %s\n", argv[i]);
            return 2;
        }
        posix_spawn_file_actions_destroy(&fa);
        int st;
        struct rusage ru;
        if (wait4(pid, &st, 0, &ru) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fprintf(stderr, "cpu_run: %s failed\n", argv[i]);
            return 1;
        }
        t[r] = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
        if (ru.ru_maxrss > maxrss) maxrss = ru.ru_maxrss;
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    double med = runs % 2 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2;
    printf("%.6f %ld\n", med, maxrss);
    free(t);
    return 0;
}
