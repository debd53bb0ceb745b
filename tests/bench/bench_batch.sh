#!/bin/sh
# bench_batch.sh — `relic check -r` over a generated install (make_install.sh,
# 20,000 ERF members and the loose files beside them) on 1 and on 2 threads:
# files per second (the best of RUNS runs, whole command timed, walk included)
# and the speed-up; the command's own figure (walk and checks, from before
# the walk to the last result: the process's start and exit left out); the
# CPU each thread spent (RELIC_BATCH_STATS), whose largest share is the
# least wall time -j 2 can take on two free cores; and the machine's ceiling
# at that moment (two independent -j 1 commands). The load average is
# printed with it: on a shared machine the wall times say little.
# The install is made once into $BENCH_INSTALL and kept.
# A row of make bench; docs/benchmarks.md "Batch check over an install".
set -eu
RELIC=${RELIC:-build/relic}
dir=${BENCH_INSTALL:-build/bench/install}
runs=${RUNS:-5}
members=${MEMBERS:-20000}
[ -d "$dir/modules" ] || RELIC=$RELIC sh tests/bench/make_install.sh "$dir" "$members" >/dev/null
# best JOBS: "WALL CHECK", the shortest whole-command wall time and the
# shortest walk-and-check time (the command's own summary line) of runs
# runs, in seconds
best() {
    bw= bc=
    for r in $(seq "$runs"); do
        t0=$(date +%s.%N)
        line=$("$RELIC" check -r -j "$1" "$dir" | tail -1) || { echo "bench_batch: check -r found problems" >&2; exit 1; }
        t1=$(date +%s.%N)
        c=$(echo "$line" | sed -n 's/.* in \([0-9.]*\) s on .*/\1/p')
        bw=$(echo "$t0 $t1 ${bw:-}" | awk '{ t = $2 - $1; if ($3 != "" && $3 < t) t = $3; printf "%.4f", t }')
        bc=$(echo "$c ${bc:-}" | awk '{ t = $1; if ($2 != "" && $2 < t) t = $2; printf "%.4f", t }')
    done
    echo "$bw $bc"
}
files=$("$RELIC" check -r -j 1 "$dir" | awk '/^total/ { print $2 }')
r1=$(best 1)
r2=$(best 2)
echo "bench_batch: load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo "$files $r1 $r2" | awk '{ printf "bench_batch: check -r, %d files and members, best of '"$runs"': whole command -j 1 %.3f s (%.0f files/s), -j 2 %.3f s (%.0f files/s), speed-up %.2fx; walk and checks -j 1 %.3f s (%.0f files/s), -j 2 %.3f s (%.0f files/s), speed-up %.2fx\n", $1, $2, $1 / $2, $4, $1 / $4, $2 / $4, $3, $1 / $3, $5, $1 / $5, $3 / $5 }'
# CPU seconds per thread (least of runs runs each): -j 1's one thread against
# -j 2's busier thread is the speed-up two free cores would give
cpu() {
    best_cpu=
    for r in $(seq "$runs"); do
        c=$(RELIC_BATCH_STATS=1 "$RELIC" check -r -q -j "$1" "$dir" 2>&1 >/dev/null | sed -n 's/.*stats: //p' |
            grep -o '[0-9.]* s CPU' | awk '{ if ($1 > m) m = $1 } END { printf "%.4f", m }')
        best_cpu=$(echo "$c ${best_cpu:-}" | awk '{ t = $1; if ($2 != "" && $2 < t) t = $2; printf "%.4f", t }')
    done
    echo "$best_cpu"
}
c1=$(cpu 1)
c2=$(cpu 2)
echo "$c1 $c2" | awk '{ printf "bench_batch: CPU of the busiest thread: -j 1 %.3f s, -j 2 %.3f s: %.2fx on two free cores\n", $1, $2, $1 / $2 }'
# the machine's own ceiling right now: two independent -j 1 commands at once
# against one alone (a shared or loaded machine gives less than 2x; -j 2
# cannot beat this)
pair=
for r in $(seq "$runs"); do
    t0=$(date +%s.%N)
    "$RELIC" check -r -q -j 1 "$dir" >/dev/null & p1=$!
    "$RELIC" check -r -q -j 1 "$dir" >/dev/null & p2=$!
    wait $p1 $p2 || true
    t1=$(date +%s.%N)
    pair=$(echo "$t0 $t1 ${pair:-}" | awk '{ t = $2 - $1; if ($3 != "" && $3 < t) t = $3; printf "%.4f", t }')
done
echo "$r1 $pair" | awk '{ printf "bench_batch: machine ceiling: two -j 1 commands at once take %.3f s, %.2fx the throughput of one (%.3f s)\n", $3, 2 * $1 / $3, $1 }'
