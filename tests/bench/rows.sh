# rows.sh — sourced by the whole-command benchmarks of make bench: a row of
# the closing table (tests/bench/summary.sh) and the helpers that make one.
# A row: work, input, relic, peer or memcpy, ratio, target, pass/FAIL
# (tab-separated, appended to $BENCH_ROWS).
: "${BENCH_ROWS:=build/bench/rows.tsv}"
: "${CPU_RUN:=build/bench/cpu_run}"

bench_row() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7" >> "$BENCH_ROWS"; }

# bench_verdict VALUE OP LIMIT: "pass" when VALUE OP LIMIT holds (OP: <= or >=), else "FAIL"
bench_verdict() { awk -v v="$1" -v op="$2" -v l="$3" 'BEGIN { ok = op == "<=" ? v + 0 <= l + 0 : v + 0 >= l + 0; print ok ? "pass" : "FAIL" }'; }

# bench_median X...: the median of the numbers given
bench_median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# bench_div A B [FMT]: A / B printed with FMT (default %.2f)
bench_div() { awk -v a="$1" -v b="$2" -v f="${3:-%.2f}" 'BEGIN { printf f, (b > 0 ? a / b : 0) }'; }

# bench_cpu RUNS CMD...: CPU seconds a run (median of RUNS runs) of a whole command
bench_cpu() { n=$1; shift; "$CPU_RUN" -n "$n" "$@" | cut -d' ' -f1; }
