#!/bin/sh
# cpu_rate.sh — fuzz executions per CPU second of each target, after its
# seeds load: tests/bench/bench_fuzz.sh's two runs through fuzz/run.sh (one
# with -runs=0, one for SECS seconds) timed with GNU time, the rate being
# the executions after libFuzzer's INITED line over the user + system
# seconds past the seed loading. On a machine shared with other work the
# wall-clock rate (also printed) mostly measures the load. docs/fuzzing.md,
# "The slow targets".
# usage: SECS=40 FUZZ_BUILD=build-fuzz sh fuzz/cpu_rate.sh build-fuzz/TARGET...
secs=${SECS:-10}
B=${FUZZ_BUILD:-build-fuzz}
TIME=${TIME_BIN:-/usr/bin/time}
[ -x "$TIME" ] || { echo "cpu_rate: $TIME (GNU time) not found"; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
status=0
printf '%-24s %10s %10s %12s %8s %8s\n' target cpu-rate wall-rate executions cpu_s load_s
for bin in "$@"; do
    name=$(basename "$bin")
    "$TIME" -f '%U %S %e' -o "$tmp/t0" env FUZZ_ARGS=-runs=0 FUZZ_SECONDS="$secs" FUZZ_BUILD="$B" sh fuzz/run.sh "$bin" >/dev/null 2>&1
    if ! "$TIME" -f '%U %S %e' -o "$tmp/t1" env FUZZ_SECONDS="$secs" FUZZ_BUILD="$B" sh fuzz/run.sh "$bin" >/dev/null 2>&1; then
        echo "cpu_rate: $name failed: see $B/$name.log"
        status=1
        continue
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$B/$name.log" | tail -1)
    inited=$(sed -n 's/^#\([0-9]*\)[[:space:]]*INITED.*/\1/p' "$B/$name.log" | head -1)
    awk -v n="$name" -v e="${execs:-0}" -v i="${inited:-0}" -v t0="$(tail -1 "$tmp/t0")" -v t1="$(tail -1 "$tmp/t1")" \
        'BEGIN { split(t0, a, " "); split(t1, b, " "); load = a[1] + a[2]; cpu = b[1] + b[2]
                 c = cpu - load > 0 ? sprintf("%.0f", (e - i) / (cpu - load)) : "-"
                 w = b[3] - a[3] > 0 ? sprintf("%.0f", (e - i) / (b[3] - a[3])) : "-"
                 printf "%-24s %10s %10s %12d %8.1f %8.1f\n", n, c, w, e, cpu, load }'
done
exit $status
