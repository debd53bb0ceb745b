# gff_commands.sh — GFF <-> JSON as whole commands on frk_main.git (1.69 MB,
# the corpus file neverwinter.nim tests with), CPU time a run (median of
# RUNS), against neverwinter.nim's nwn_gff on the same file. nwn_gff is not
# a Debian package and cannot be installed here: its CPU time is estimated
# from the reference measured on 2026-11-22 at relic 60ba6fb (relic took
# 0.024 of nwn_gff's time for GFF -> JSON and 0.14-0.19 for JSON -> GFF,
# 25.9-29.3 ms and 187-194 ms of CPU on this machine; docs/benchmarks.md,
# "Whole commands on frk_main.git"): about 1.15 s each way. Targets (issue
# "GFF at memory speed"): dump >= 100x, convert >= 20x nwn_gff.
# Usage: RELIC=build/relic sh tests/bench/gff_commands.sh
set -u
. tests/bench/rows.sh
RELIC=${RELIC:-build/relic}
RUNS=${RUNS:-21}
NWN_GFF_CPU=1.15
F=../shared/corpus/gff/niv__neverwinter.nim__testdata__frk_main.git
[ -f "$F" ] || { echo "gff_commands: $F not present: skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$RELIC" dump "$F" -o "$tmp/frk.json" || { echo "gff_commands: relic dump $F failed"; exit 1; }
size=$(bench_div "$(wc -c < "$F")" 1000000 %.2f)

t=$(bench_cpu "$RUNS" "$RELIC" dump "$F") || { echo "gff_commands: relic dump failed"; exit 1; }
ratio=$(bench_div "$NWN_GFF_CPU" "$t" %.0f)
echo "gff_commands: relic dump frk_main.git: $(bench_div "$t" 0.001 %.1f) ms CPU, ${ratio}x nwn_gff's estimated 1.15 s"
bench_row "relic dump (GFF -> JSON)" "frk_main.git ($size MB)" "$(bench_div "$t" 0.001 %.1f) ms CPU" \
    "nwn_gff ~1.15 s (estimated from the 2026-11-22 reference)" "${ratio}x faster" ">= 100x faster" "$(bench_verdict "$ratio" ">=" 100)"

t=$(bench_cpu "$RUNS" "$RELIC" convert "$tmp/frk.json" "$tmp/back.git") || { echo "gff_commands: relic convert failed"; exit 1; }
cmp -s "$tmp/back.git" "$F" && same=byte-identical || same=DIFFERENT
ratio=$(bench_div "$NWN_GFF_CPU" "$t" %.0f)
echo "gff_commands: relic convert frk_main.json -> .git ($same): $(bench_div "$t" 0.001 %.1f) ms CPU, ${ratio}x nwn_gff's estimated 1.15 s"
verdict=$(bench_verdict "$ratio" ">=" 20)
[ "$same" = byte-identical ] || verdict=FAIL
bench_row "relic convert (JSON -> GFF, $same)" "frk_main.json ($(bench_div "$(wc -c < "$tmp/frk.json")" 1000000 %.2f) MB)" \
    "$(bench_div "$t" 0.001 %.1f) ms CPU" "nwn_gff ~1.15 s (estimated from the 2026-11-22 reference)" "${ratio}x faster" ">= 20x faster" "$verdict"
