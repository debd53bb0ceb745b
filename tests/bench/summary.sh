# summary.sh — the closing table of make bench: every row the benchmarks
# appended to $BENCH_ROWS (tests/bench/rows.sh), as one Markdown table, then
# how many targets were met. Usage: BENCH_ROWS=FILE sh tests/bench/summary.sh
: "${BENCH_ROWS:=build/bench/rows.tsv}"
[ -s "$BENCH_ROWS" ] || { echo "summary: no rows in $BENCH_ROWS"; exit 1; }
echo
echo "## make bench: relic against its peers (CPU time, same run)"
echo
echo "| work | input | relic | peer or memcpy | ratio | target | result |"
echo "|---|---|---|---|---|---|---|"
awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7 }' "$BENCH_ROWS"
awk -F'\t' '$7 == "pass" { p++ } $7 == "FAIL" { f++ } END { printf "\ntargets: %d met, %d missed\n", p, f }' "$BENCH_ROWS"
