/* bench_rows.h — a row of make bench's closing table from an in-process
 * benchmark: appended to the file $BENCH_ROWS names (nothing when unset),
 * with the columns of tests/bench/rows.sh: work, input, relic, peer or
 * memcpy, ratio, target, pass/FAIL ("-" when the row has no target). */
#ifndef RELIC_BENCH_ROWS_H
#define RELIC_BENCH_ROWS_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* verdict: 1 pass, 0 FAIL, -1 no target */
static inline void bench_row(const char *work, const char *input, const char *relic, const char *peer, const char *ratio,
                             const char *target, int verdict)
{
    const char *path = getenv("BENCH_ROWS");
    FILE *f = path ? fopen(path, "a") : NULL;
    if (!f) return;
    fprintf(f, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", work, input, relic, peer, ratio, target,
            verdict < 0 ? "-" : verdict ? "pass"
                                        : "FAIL");
    fclose(f);
}

/* printf into a small buffer, for a row's cells */
static inline const char *bench_fmt(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static inline const char *bench_fmt(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    return buf;
}

#endif
