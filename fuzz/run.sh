#!/bin/sh
# run.sh — run each libFuzzer target for $FUZZ_SECONDS seconds from its seed
# corpus (fuzz/corpus/<target>/: hand-made seeds, and for gen_<f> the seeds
# `make fuzz-seeds` generates; fuzz/regressions/<target>/; plus
# ../shared/corpus files of its format when present), with time and memory
# limits; fail on the first crash.
# Generated targets use fuzz/dict/<target>.dict (magics, enum values, sizes).
# FUZZ_ARGS adds libFuzzer flags (tests/bench/bench_fuzz.sh: -runs=0).
# JOBS targets run at a time (default 1); their reports print in the order given, then a table
# of the targets run (result, executions, seconds), also into the file $FUZZ_TABLE when set.
secs=${FUZZ_SECONDS:-5}
FUZZ_BUILD=${FUZZ_BUILD:-build-fuzz}

# one target: its report into $FUZZ_BUILD/<name>.report, "ok" or "crash" into .result
run_one() {
    bin=$1
    name=$(basename "$bin")
    seeds="fuzz/corpus/$name"
    # FUZZ_CORPUS_OUT=DIR keeps the grown corpus in DIR/<target> (fuzz/coverage.sh replays it)
    if [ -n "$FUZZ_CORPUS_OUT" ]; then work="$FUZZ_CORPUS_OUT/$name"; mkdir -p "$work"; else work=$(mktemp -d); fi
    [ -d "$seeds" ] && cp "$seeds"/* "$work"/ 2>/dev/null
    # kept crash inputs stay seeds (check-fuzz also replays them first)
    [ -d "fuzz/regressions/$name" ] && cp "fuzz/regressions/$name"/* "$work"/ 2>/dev/null
    case "$name" in
        gen_bwm*|fuzz_bwm) [ -d ../shared/corpus/bwm ] && cp ../shared/corpus/bwm/* "$work"/ 2>/dev/null;
               cp tests/samples/*.wok tests/samples/*.pwk tests/samples/*.dwk fuzz/corpus/gen_bwm/* "$work"/ 2>/dev/null ;;
        *obj*) cp tests/samples/*.obj "$work"/ 2>/dev/null ;;
        fuzz_grf_sections) cp ../shared/corpus/scn/* "$work"/ 2>/dev/null ;;
        gen_groff*|fuzz_groff_rules) cp ../shared/corpus/scn/* ../shared/corpus/pid/* "$work"/ 2>/dev/null ;;
        gen_pid*) cp ../shared/corpus/pid/* "$work"/ 2>/dev/null ;;
        *wtd*) cp ../shared/corpus/wtd/* "$work"/ 2>/dev/null ;;
        gen_tpa*) cp ../shared/corpus/tpa/* "$work"/ 2>/dev/null ;;
        gen_cau*|fuzz_adpcm) cp ../shared/corpus/cau/* "$work"/ 2>/dev/null ;;
        gen_trn*|fuzz_trn_aswm) cp ../shared/corpus/trn/* ../shared/corpus/trx/* "$work"/ 2>/dev/null ;;
        fuzz_gff|fuzz_gff_typed|gen_gff) [ -d ../shared/corpus/gff ] && cp ../shared/corpus/gff/* "$work"/ 2>/dev/null ;;
        fuzz_erf|gen_erf|gen_rim) [ -d ../shared/corpus/other ] && cp ../shared/corpus/other/* "$work"/ 2>/dev/null ;;
        fuzz_keybif|gen_key|gen_bif|gen_tlk) cp ../shared/corpus/key/* ../shared/corpus/bif/* ../shared/corpus/tlk/* "$work"/ 2>/dev/null ;;
    esac
    dict=""
    [ -f "fuzz/$name.dict" ] && dict="-dict=fuzz/$name.dict"
    [ -f "fuzz/dict/$name.dict" ] && dict="-dict=fuzz/dict/$name.dict"
    [ "$name" = fuzz_bwm ] && dict="-dict=fuzz/dict/gen_bwm.dict" # the same files as gen_bwm
    # a target's own input bound (fuzz/options/<target>.options, as OSS-Fuzz reads it)
    max_len=262144
    opt="fuzz/options/$name.options"
    [ -f "$opt" ] && max_len=$(sed -n 's/^max_len *= *//p' "$opt")
    start=$(date +%s)
    {
    echo "== fuzz $name for ${secs}s"
    if ! "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
            -print_final_stats=1 $dict -artifact_prefix="$FUZZ_BUILD/$name-" $FUZZ_ARGS "$work" 2>"$FUZZ_BUILD/$name.log"; then
        tail -40 "$FUZZ_BUILD/$name.log"
        # the cause and the input itself, so a CI log that keeps only its tail can reproduce it
        grep -E '^(==[0-9]+==ERROR|SUMMARY|ERROR: libFuzzer)' "$FUZZ_BUILD/$name.log" | head -3 | sed "s/^/$name: /"
        for a in "$FUZZ_BUILD/$name"-crash-* "$FUZZ_BUILD/$name"-timeout-* "$FUZZ_BUILD/$name"-oom-* "$FUZZ_BUILD/$name"-leak-* "$FUZZ_BUILD/$name"-slow-unit-*; do
            [ -f "$a" ] || continue
            sz=$(wc -c <"$a")
            if [ "$sz" -le 4096 ]; then echo "$name: input $(basename "$a") ($sz bytes), base64: $(base64 -w0 "$a")"
            else echo "$name: input $a ($sz bytes)"; fi
        done
        echo crash >"$FUZZ_BUILD/$name.result"
    else
        grep -E 'stat::number_of_executed_units|Done' "$FUZZ_BUILD/$name.log" | tail -2
        echo ok >"$FUZZ_BUILD/$name.result"
    fi
    } >"$FUZZ_BUILD/$name.report"
    echo $(($(date +%s) - start)) >"$FUZZ_BUILD/$name.sec"
    [ -n "$FUZZ_CORPUS_OUT" ] || rm -rf "$work"
}

if [ "$1" = --one ]; then run_one "$2"; exit 0; fi
for bin in "$@"; do rm -f "$FUZZ_BUILD/$(basename "$bin").result"; done
printf '%s\n' "$@" | xargs -P "${JOBS:-1}" -L 1 sh "$0" --one
status=0; n=0; bad=0; failed=""; table=""
# the passing targets' reports, then the failing ones' (their log tails last,
# where a CI log that keeps only its tail still shows them)
for bin in "$@"; do
    name=$(basename "$bin")
    n=$((n + 1))
    if [ "$(cat "$FUZZ_BUILD/$name.result" 2>/dev/null)" = ok ]; then cat "$FUZZ_BUILD/$name.report"; r=ok
    else status=1; bad=$((bad + 1)); failed="$failed $name"; r=FAILED; fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$FUZZ_BUILD/$name.log" 2>/dev/null | tail -1)
    table="$table$(printf '%-7s %9s %5ss  %s' "$r" "${runs:--}" "$(cat "$FUZZ_BUILD/$name.sec" 2>/dev/null)" "$name")
"
done
for name in $failed; do cat "$FUZZ_BUILD/$name.report" 2>/dev/null || echo "== fuzz $name: no report"; done
# the targets run (seeds, regressions and ${secs}s of fuzzing each), also into $FUZZ_TABLE when set
{
echo "== fuzz targets run (${JOBS:-1} at a time, ${secs}s each after their seeds)"
printf '%-7s %9s %6s  %s\n' result runs time target
printf '%s' "$table"
echo "fuzz: $((n - bad)) passed, $bad failed${failed:+ (failed:$failed; inputs kept as $FUZZ_BUILD/<target>-crash-*, -timeout-*, -oom-*, -leak-*)}"
} | if [ -n "$FUZZ_TABLE" ]; then tee "$FUZZ_TABLE"; else cat; fi
exit $status
