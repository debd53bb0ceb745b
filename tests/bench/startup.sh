# startup.sh — start-up of the relic command, one row per command family,
# against a static C hello world in the same run: CPU time a run (user +
# system, from wait4), the median of ROUNDS rounds that alternate the two,
# each round RUNS runs of each. Target (issue "start-up of a C tool"):
# `relic --version` and `relic info` of a small file within 2x of hello.
# Usage: RELIC=build/relic HELLO=build/bench/hello_static sh tests/bench/startup.sh
set -u
. tests/bench/rows.sh
RELIC=${RELIC:-build/relic}
HELLO=${HELLO:-build/bench/hello_static}
ROUNDS=${ROUNDS:-5}
RUNS=${RUNS:-40}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
S=tests/samples
"$RELIC" convert $S/room.obj "$tmp/room.wok" >/dev/null 2>&1 || cp $S/room.wok "$tmp/room.wok"
small_gff=
[ -d ../shared/corpus/gff ] && small_gff=$(ls -S ../shared/corpus/gff/*.git 2>/dev/null | tail -1)
[ -n "$small_gff" ] || echo "startup: ../shared/corpus not present: the GFF row is skipped"

# command|input|target|relic arguments
wok="room.wok ($(wc -c < $S/room.wok) B)"
cat > "$tmp/cases" <<CASES
--version|-|2|--version
info|$wok|2|info $S/room.wok
check|$wok|-|check $S/room.wok
dump (JSON)|$wok|-|dump $S/room.wok
convert to OBJ (export)|$wok|-|convert $S/room.wok $tmp/room.obj
CASES
[ -n "$small_gff" ] && echo "info|$(basename "$small_gff" | sed 's/.*__//') ($(wc -c < "$small_gff") B)|2|info $small_gff" >> "$tmp/cases"

while IFS='|' read -r family input target args; do
    hs= rs=
    for r in $(seq "$ROUNDS"); do
        hs="$hs $(bench_cpu "$RUNS" "$HELLO")"
        # shellcheck disable=SC2086
        rs="$rs $(bench_cpu "$RUNS" "$RELIC" $args)" || { echo "startup: relic $args failed"; continue 2; }
    done
    h=$(bench_median $hs) rl=$(bench_median $rs)
    ratio=$(bench_div "$rl" "$h")
    verdict=-
    [ "$target" = - ] || verdict=$(bench_verdict "$ratio" "<=" "$target")
    echo "startup: relic $family: $(bench_div "$rl" 0.001 %.2f) ms, hello $(bench_div "$h" 0.001 %.2f) ms, ${ratio}x"
    bench_row "start-up: relic $family" "$input" "$(bench_div "$rl" 0.001 %.2f) ms CPU" \
        "static hello world $(bench_div "$h" 0.001 %.2f) ms" "${ratio}x" "$([ "$target" = - ] && echo - || echo "<= ${target}x")" "$verdict"
done < "$tmp/cases"
