# bake.sh — `relic bake` as a whole command on the largest corpus TRN,
# CPU time a run (median of RUNS), against nwn-lib-d's `nwn-trn aswm-bake`
# on the same file: 0.343 s of CPU, measured on this machine on 2026-11-22
# at relic 60ba6fb (nwn-lib-d is not a Debian package and cannot be
# installed here, so that figure is the reference). Target: 10x faster, for
# the command as users run it (the default zlib level, 1). The toolset's
# level 6 is measured beside it, with the size of each output, as the
# trade the default makes (docs/benchmarks.md, "Bake: zlib level").
# Usage: RELIC=build/relic sh tests/bench/bake.sh
set -u
. tests/bench/rows.sh
RELIC=${RELIC:-build/relic}
RUNS=${RUNS:-9}
NWN_LIB_D_CPU=0.343
T=$(ls -S ../shared/corpus/trn/*.TRN ../shared/corpus/trn/*.trn 2>/dev/null | head -1)
[ -n "$T" ] || { echo "bake: ../shared/corpus/trn not present: skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
name=$(basename "$T" | sed 's/.*__//')
size=$(bench_div "$(wc -c < "$T")" 1000000 %.2f)
for level in 1 6; do
    t=$(bench_cpu "$RUNS" "$RELIC" bake "$T" "$tmp/out.trx" --level $level) || { echo "bake: relic bake $T failed"; exit 1; }
    ratio=$(bench_div "$NWN_LIB_D_CPU" "$t")
    out=$(wc -c < "$tmp/out.trx")
    echo "bake: $name (--level $level): $(bench_div "$t" 0.001 %.1f) ms CPU, ${ratio}x nwn-lib-d's 0.343 s; output $out bytes"
    if [ $level = 1 ]; then
        bench_row "relic bake (TRN -> TRX), zlib level 1, the default" "$name ($size MB)" \
            "$(bench_div "$t" 0.001 %.1f) ms CPU" "nwn-lib-d 343 ms (reference, 2026-11-22)" "${ratio}x faster" ">= 10x faster" \
            "$(bench_verdict "$ratio" ">=" 10)"
    else
        bench_row "relic bake --level 6 (the toolset's zlib level), $out bytes out" "$name ($size MB)" \
            "$(bench_div "$t" 0.001 %.1f) ms CPU" "nwn-lib-d 343 ms (reference, 2026-11-22)" "${ratio}x faster" "(no target)" "info"
    fi
done
