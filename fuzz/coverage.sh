#!/bin/sh
# coverage.sh — the fuzz campaign: runs each target for SECONDS and measures
# the line and branch coverage (llvm-cov) its grown corpus reaches.
# Targets with a structure-aware mutator (every generated fuzz/gen_*.c and
# the hand-written ones that define LLVMFuzzerCustomMutator) run twice, with
# it and without it (built with -DRELIC_NO_CUSTOM_MUTATOR: libFuzzer's
# byte-level mutator only), from the same seeds and dictionary
# (fuzz/run.sh); the other hand-written targets are byte-level and run once. Each grown corpus is
# replayed through a build instrumented with -fprofile-instr-generate
# -fcoverage-mapping.
#
# The campaign is resumable: each finished run appends a row to RESULTS
# (tab-separated, committed as fuzz/campaign.tsv) and runs already there
# for the same SECONDS are skipped, so it can be spread over several
# sittings. `-m` prints RESULTS as the markdown table of docs/fuzzing.md.
# A crash is recorded as a row with its input copied to $OUT/crashes/; once
# fixed, the input belongs in fuzz/regressions/<target>/ and the row is
# deleted so the target runs again.
#
# usage: sh fuzz/coverage.sh [-t SECONDS] [-r RESULTS] [-s] [-m] [TARGET...]
#   -s: one run per target, structure-aware where the target has the mutator
#   (a short campaign of every target; the two-mode comparison needs the
#   long one). The table (-m) also gives corpus size and libFuzzer's
#   coverage and features counts.
#   SECONDS per target and mode (default 600); TARGETs are names such as
#   gen_bwm or fuzz_lzss (default: every fuzz/gen_*.c, then fuzz/fuzz_*.c).
#   Environment: CAMPAIGN_BUILD (default build-campaign: its own build, so
#   editing the tree does not change a running campaign), CLANG, LLVM_COV,
#   LLVM_PROFDATA. Needs clang with libFuzzer and the llvm tools (Debian:
#   clang, llvm). 10 min x (2 x 32 + 20) runs = 14 h of one core.
# The body is one brace group ended by exit: sh reads all of it before running
# any, so editing this file does not derail a campaign that is running.
{
secs=600
results=fuzz/campaign.tsv
single=0
while [ $# -gt 0 ]; do
    case "$1" in
        -t) secs=$2; shift 2 ;;
        -s) single=1; shift ;;
        -r) results=$2; shift 2 ;;
        -m) # the table of docs/fuzzing.md; a structure-aware row also gives its lead over the byte-level row
            if head -1 "$results" | grep -q '	ft$' && [ $single = 1 ]; then # -s -m: the short campaign's table
                awk -F'\t' 'NR > 1 { printf "| %s | %s | %s | %s | %s | %s | %s / %s | %s | %s | %s |\n", $1,
                         ($2 == "custom" ? "structure-aware" : "byte-level"), $3, $4, $5, $10, $11, $12, $6, $7, $8 }' "$results" \
                | { echo "| target | mutator | seconds | executions | exec/s | corpus (entries/bytes) | cov / ft (libFuzzer) | lines covered | branches covered | result |";
                    echo "|---|---|---|---|---|---|---|---|---|---|"; cat; }
                exit 0
            fi
            awk -F'\t' 'NR == FNR { if (FNR > 1 && $2 == "bytes") { split($6, l, "/"); split($7, b, "/"); bl[$1] = l[1]; bb[$1] = b[1] } next }
                FNR == 1 { next }
                { lead = ""
                  if ($2 == "custom" && ($1 in bl)) { split($6, l, "/"); split($7, b, "/")
                      lead = sprintf("%+d lines, %+d branches", l[1] - bl[$1], b[1] - bb[$1]) }
                  printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, ($2 == "custom" ? "structure-aware" : "byte-level"),
                         $3, $4, $5, $6, $7, lead, $8 }' "$results" "$results" \
            | { echo "| target | mutator | seconds | executions | exec/s | lines covered | branches covered | structure-aware lead | result |";
                echo "|---|---|---|---|---|---|---|---|---|"; cat; }
            exit 0 ;;
        -h|--help) sed -n '2,31p' "$0"; exit 0 ;;
        *) break ;;
    esac
done
B=${CAMPAIGN_BUILD:-build-campaign}
CLANG=${CLANG:-clang}
LLVM_COV=${LLVM_COV:-llvm-cov}
LLVM_PROFDATA=${LLVM_PROFDATA:-llvm-profdata}
targets="$*"
[ -n "$targets" ] || targets=$(ls fuzz/gen_*.c fuzz/fuzz_*.c | sed 's|fuzz/||; s|\.c$||')
for tool in "$CLANG" "$LLVM_COV" "$LLVM_PROFDATA"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "coverage: $tool not found"; exit 2; }
done
[ -f "$results" ] || printf 'target\tmutator\tseconds\texecutions\texec/s\tlines\tbranches\tresult\tcommit\tcorpus\tcov\tft\n' > "$results"
mkdir -p "$B/custom" "$B/bytes" "$B/prof" "$B/crashes"
CPPFLAGS="$(for d in runtime/include/relic runtime/formats/* runtime/json runtime/mutate; do [ -d "$d" ] && printf -- "-I%s " "$d"; done) $(for d in generated/*/; do [ "$d" = generated/docs/ ] || printf -- '-I%s ' "${d%/}"; done)"
LIBS=$(make -s --no-print-directory print-libs)
FLAGS="-std=c11 -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)

# a target whose fuzzing build defines LLVMFuzzerCustomMutator runs in both
# modes, others byte-level only (asked of the binary, as tests/bench/bench_fuzz.sh does)
has_custom() { nm "$B/custom/$1" 2>/dev/null | grep -q ' T LLVMFuzzerCustomMutator$'; }
modes_of() { if has_custom "$1"; then if [ $single = 1 ]; then echo custom; else echo custom bytes; fi; else echo bytes; fi; }
done_already() { awk -F'\t' -v t="$1" -v m="$2" -v s="$secs" '$1 == t && $2 == m && $3 == s { f = 1 } END { exit !f }' "$results"; }

# 1. the builds: fuzzing (make's, with the custom mutator), fuzzing without
#    it, and coverage (no sanitizers: replay only)
make --no-print-directory FUZZ_BUILD="$B/custom" $(for t in $targets; do printf '%s/custom/%s ' "$B" "$t"; done) >/dev/null || exit 1
for t in $targets; do
    if has_custom "$t" && [ $single = 0 ]; then
        $CLANG $FLAGS -fsanitize=fuzzer -DRELIC_NO_CUSTOM_MUTATOR $CPPFLAGS "fuzz/$t.c" "$B/custom/librelic-mutate.a" "$B/custom/librelic-export.a" "$B/custom/librelic-json.a" "$B/custom/librelic.a" $LIBS \
            -o "$B/bytes/$t" || exit 1
    elif ! has_custom "$t"; then
        cp "$B/custom/$t" "$B/bytes/$t"
    fi
done
make --no-print-directory FUZZ_BUILD="$B/cov" FUZZ_CFLAGS="-g -O1 -fprofile-instr-generate -fcoverage-mapping" \
    $(for t in $targets; do printf '%s/cov/%s ' "$B" "$t"; done) >/dev/null || exit 1

status=0
for t in $targets; do
    for mode in $(modes_of "$t"); do
        done_already "$t" "$mode" && continue
        mutator=byte-level; [ $mode = custom ] && mutator=structure-aware
        # 2. fuzz, keeping the grown corpus
        rm -rf "$B/corpus/$mode/$t" "$B/$mode/$t-crash-"* "$B/$mode/$t-timeout-"* "$B/$mode/$t-oom-"*
        result=ok
        if ! FUZZ_SECONDS=$secs FUZZ_BUILD="$B/$mode" FUZZ_CORPUS_OUT="$B/corpus/$mode" sh fuzz/run.sh "$B/$mode/$t" \
                >"$B/$mode/$t.run" 2>&1; then
            status=1
            result=crash
            for a in "$B/$mode/$t-"crash-* "$B/$mode/$t-"timeout-* "$B/$mode/$t-"oom-*; do
                [ -f "$a" ] && cp "$a" "$B/crashes/" && result="crash: $(basename "$a")"
            done
            echo "coverage: $t ($mutator) found a crash: see $B/$mode/$t.log"
        fi
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$B/$mode/$t.log" | tail -1)
        # libFuzzer's last status line: coverage counters, features, corpus entries/bytes
        status_line=$(grep -E '^#[0-9]+.*cov: [0-9]+ ft: [0-9]+ corp: ' "$B/$mode/$t.log" | tail -1)
        cov=$(echo "$status_line" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
        ft=$(echo "$status_line" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
        corp=$(echo "$status_line" | sed -n 's/.* corp: \([0-9]*\/[0-9]*[A-Za-z]*\).*/\1/p')
        # 3. replay the corpus through the coverage build
        rm -f "$B/prof/$t.$mode.profraw"
        LLVM_PROFILE_FILE="$B/prof/$t.$mode.profraw" "$B/cov/$t" -runs=0 "$B/corpus/$mode/$t" >/dev/null 2>&1
        "$LLVM_PROFDATA" merge -sparse -o "$B/prof/$t.$mode.profdata" "$B/prof/$t.$mode.profraw" || continue
        # TOTAL row: regions(3) functions(3) lines: count missed cover, branches: count missed cover
        total=$("$LLVM_COV" report "$B/cov/$t" -instr-profile="$B/prof/$t.$mode.profdata" -show-branch-summary 2>/dev/null | grep '^TOTAL')
        lines=$(echo "$total" | awk '{ printf "%d/%d (%s)", $8 - $9, $8, $10 }')
        branches=$(echo "$total" | awk '{ printf "%d/%d (%s)", $11 - $12, $11, $13 }')
        rate=$(awk -v e="${execs:-0}" -v s="$secs" 'BEGIN { printf "%.0f", e / s }')
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$mode" "$secs" "${execs:-?}" "$rate" "$lines" "$branches" \
            "$result" "$commit" "${corp:-?}" "${cov:-?}" "${ft:-?}" >> "$results"
        echo "$t $mutator: ${execs:-?} executions, lines $lines, branches $branches, $result"
    done
done
exit $status
}
