# terrain.sh — the WTD terrain commands on the demo's pv.wtd (8192 x 8192
# grid), CPU time a run (median of RUNS): to a 16-bit PNG heightmap, to the
# grey shaded relief and to the colour preview (targets: under 2 s of CPU
# each), to OBJ, and `relic check`. No peer converts a WTD (the game
# decodes it at level load): the rows have none.
# Usage: RELIC=build/relic sh tests/bench/terrain.sh
set -u
. tests/bench/rows.sh
RELIC=${RELIC:-build/relic}
RUNS=${RUNS:-5}
W=$(ls ../shared/corpus/wtd/*pv.wtd 2>/dev/null | head -1)
[ -n "$W" ] || { echo "terrain: ../shared/corpus/wtd/*pv.wtd not present: skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
while IFS='|' read -r work target out extra; do
    # shellcheck disable=SC2086
    t=$(bench_cpu "$RUNS" "$RELIC" $([ "$out" = check ] && echo check "$W" || echo convert "$W" "$tmp/$out" --max-grid 8192 $extra)) ||
        { echo "terrain: $work failed"; continue; }
    size=$([ -f "$tmp/$out" ] && echo ", $(bench_div "$(wc -c < "$tmp/$out")" 1000000 %.1f) MB out" || true)
    verdict=-
    [ "$target" = - ] || verdict=$(bench_verdict "$t" "<=" "$target")
    echo "terrain: $work: $(bench_div "$t" 1 %.3f) s CPU$size"
    bench_row "$work" "pv.wtd (demo, 8192^2 grid)" "$(bench_div "$t" 1 %.2f) s CPU$size" "none (the game decodes it at load)" "-" \
        "$([ "$target" = - ] && echo - || echo "< $target s CPU")" "$verdict"
done <<CASES
WTD -> 16-bit PNG heightmap|2|h.png|
WTD -> shaded relief PNG|2|r.png|--relief
WTD -> colour preview PNG|2|p.png|--preview
WTD -> OBJ|-|t.obj|
relic check of a WTD|-|check|
CASES
