#!/bin/sh
# bench_fuzz.sh — fuzz executions per second of each libFuzzer target
# (issue 8, item 7). Each target given as an argument runs through
# fuzz/run.sh (its seeds, dictionary, limits and sanitizers, as `make fuzz`)
# twice: with -runs=0, timed, which only loads the seeds, then for that time
# plus BENCH_FUZZ_SECONDS (default 5). The steady rate is the executions after
# loading the seeds (libFuzzer's INITED line) over the seconds after it, so a
# target whose seeds are slow to load is not reported slower than it fuzzes.
# The table also gives the seed loading time, libFuzzer's peak RSS, and
# whether the structure-aware mutator is in the binary (a defined
# LLVMFuzzerCustomMutator). Mutations per second of the mutators alone are
# bench_mutate's; the 10-minute campaign's rates are in fuzz/campaign.tsv
# (sh fuzz/coverage.sh -m).
# cpu_exec/s is the same count over the user + system seconds of the fuzzing
# past the seed loading (GNU time around both runs, as fuzz/cpu_rate.sh):
# on a machine shared with other work exec/s measures the load, cpu_exec/s
# the target (issue 18's bar: 1,000 per second of one core).
# usage: FUZZ_BUILD=DIR sh tests/bench/bench_fuzz.sh DIR/TARGET...
secs=${BENCH_FUZZ_SECONDS:-5}
FUZZ_BUILD=${FUZZ_BUILD:-build-fuzz}
out=$(mktemp)
t0f=$(mktemp)
t1f=$(mktemp)
TIME=${TIME_BIN:-/usr/bin/time}
[ -x "$TIME" ] || TIME=""
now() { date +%s.%N; }
# run.sh under GNU time (user and system seconds into $1), or bare without it
timed() { f=$1; shift; if [ -n "$TIME" ]; then "$TIME" -f '%U %S' -o "$f" "$@"; else echo "- -" >"$f"; "$@"; fi; }
printf '%-24s %-16s %10s %10s %8s %12s %8s\n' target mutator exec/s cpu_exec/s seeds_s executions rss_mb
status=0
for bin in "$@"; do
    name=$(basename "$bin")
    log="$FUZZ_BUILD/$name.log"
    mutator=byte-level
    nm "$bin" 2>/dev/null | grep -q ' T LLVMFuzzerCustomMutator$' && mutator=structure-aware
    t0=$(now)
    FUZZ_ARGS=-runs=0 FUZZ_SECONDS=$secs FUZZ_BUILD=$FUZZ_BUILD timed "$t0f" sh fuzz/run.sh "$bin" >"$out" 2>&1
    t1=$(now)
    total=$(awk -v a="$t0" -v b="$t1" -v s="$secs" 'BEGIN { t = b - a; printf "%d", (t == int(t) ? t : int(t) + 1) + s }')
    if ! FUZZ_SECONDS=$total FUZZ_BUILD=$FUZZ_BUILD timed "$t1f" sh fuzz/run.sh "$bin" >"$out" 2>&1; then
        echo "bench_fuzz: $name failed: see $log"
        status=1
        continue
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    inited=$(sed -n 's/^#\([0-9]*\)[[:space:]]*INITED.*/\1/p' "$log" | head -1)
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
    awk -v n="$name" -v m="$mutator" -v e="${execs:-0}" -v i="${inited:-0}" -v s="$total" -v a="$t0" -v b="$t1" -v r="$rss" \
        -v c0="$(tail -1 "$t0f")" -v c1="$(tail -1 "$t1f")" \
        'BEGIN { load = b - a; left = s - load
                 rate = left >= 1 ? sprintf("%.0f", (e - i) / left) : "-"
                 split(c0, x, " "); split(c1, y, " "); cpu = (y[1] + y[2]) - (x[1] + x[2])
                 crate = x[1] != "-" && cpu > 0 ? sprintf("%.0f", (e - i) / cpu) : "-"
                 printf "%-24s %-16s %10s %10s %8.1f %12d %8s\n", n, m, rate, crate, load, e, r }'
done
rm -f "$out" "$t0f" "$t1f"
exit $status
