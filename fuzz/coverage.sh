#!/bin/sh
# coverage.sh — line and branch coverage (llvm-cov) reached by each generated
# fuzz target in the same time with the structure-aware mutator (the
# target's LLVMFuzzerCustomMutator/CustomCrossOver) and without it (built
# with -DRELIC_NO_CUSTOM_MUTATOR: libFuzzer's byte-level mutator only), from
# the same seeds and dictionary (fuzz/run.sh). Each grown corpus is replayed
# through a build instrumented with -fprofile-instr-generate
# -fcoverage-mapping; the table (also written to $OUT/coverage.md, for
# fuzz/README.md) gives executions, exec/s, lines and branches covered.
#
# usage: sh fuzz/coverage.sh [-t SECONDS] [TARGET...]
#   SECONDS per target and mode (default 600); TARGETs are names such as
#   gen_bwm (default: every fuzz/gen_*.c). Environment: FUZZ_BUILD (default
#   build-fuzz), COVERAGE_OUT (default $FUZZ_BUILD/coverage), CLANG, LLVM_COV,
#   LLVM_PROFDATA. Needs clang with libFuzzer and the llvm tools (Debian:
#   clang, llvm). Runs 2 x SECONDS per target: 2 x 10 min x 30 targets = 10 h.
secs=600
while [ $# -gt 0 ]; do
    case "$1" in
        -t) secs=$2; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) break ;;
    esac
done
FUZZ_BUILD=${FUZZ_BUILD:-build-fuzz}
OUT=${COVERAGE_OUT:-$FUZZ_BUILD/coverage}
CLANG=${CLANG:-clang}
LLVM_COV=${LLVM_COV:-llvm-cov}
LLVM_PROFDATA=${LLVM_PROFDATA:-llvm-profdata}
targets="$*"
[ -n "$targets" ] || targets=$(ls fuzz/gen_*.c | sed 's|fuzz/||; s|\.c$||')
for tool in "$CLANG" "$LLVM_COV" "$LLVM_PROFDATA"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "coverage: $tool not found"; exit 2; }
done
mkdir -p "$OUT/custom" "$OUT/bytes" "$OUT/prof"
rm -rf "$OUT/corpus"
CPPFLAGS="-Iruntime $(for d in generated/*/; do [ "$d" = generated/docs/ ] || printf -- '-I%s ' "${d%/}"; done)"
LIBS=$(sed -n 's/^LIBS *= *//p' Makefile)
FLAGS="-std=c11 -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all"

# 1. the fuzzing builds: with the custom mutator (make's), and without it
make --no-print-directory FUZZ_BUILD="$FUZZ_BUILD" $(for t in $targets; do printf '%s/%s ' "$FUZZ_BUILD" "$t"; done) >/dev/null || exit 1
for t in $targets; do
    cp "$FUZZ_BUILD/$t" "$OUT/custom/$t"
    $CLANG $FLAGS -fsanitize=fuzzer -DRELIC_NO_CUSTOM_MUTATOR $CPPFLAGS "fuzz/$t.c" "$FUZZ_BUILD/librelic.a" $LIBS \
        -o "$OUT/bytes/$t" || exit 1
done
# 2. the coverage build (no sanitizers: replay only)
make --no-print-directory FUZZ_BUILD="$OUT/cov" FUZZ_CFLAGS="-g -O1 -fprofile-instr-generate -fcoverage-mapping" \
    $(for t in $targets; do printf '%s/cov/%s ' "$OUT" "$t"; done) >/dev/null || exit 1

report="$OUT/coverage.md"
{
    echo "| target | mutator | seconds | executions | exec/s | lines covered | branches covered |"
    echo "|---|---|---|---|---|---|---|"
} > "$report"
status=0
for t in $targets; do
    for mode in custom bytes; do
        # 3. fuzz, keeping the corpus
        FUZZ_SECONDS=$secs FUZZ_BUILD="$OUT/$mode" FUZZ_CORPUS_OUT="$OUT/corpus/$mode" sh fuzz/run.sh "$OUT/$mode/$t" \
            >"$OUT/$mode/$t.run" 2>&1 || { status=1; echo "coverage: $t ($mode) found a crash: see $OUT/$mode/$t.log"; }
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$OUT/$mode/$t.log" | tail -1)
        # 4. replay the corpus through the coverage build
        rm -f "$OUT/prof/$t.$mode.profraw"
        LLVM_PROFILE_FILE="$OUT/prof/$t.$mode.profraw" "$OUT/cov/$t" -runs=0 "$OUT/corpus/$mode/$t" >/dev/null 2>&1
        "$LLVM_PROFDATA" merge -sparse -o "$OUT/prof/$t.$mode.profdata" "$OUT/prof/$t.$mode.profraw" || continue
        # TOTAL row: regions(3) functions(3) lines: count missed cover, branches: count missed cover
        total=$("$LLVM_COV" report "$OUT/cov/$t" -instr-profile="$OUT/prof/$t.$mode.profdata" -show-branch-summary 2>/dev/null | grep '^TOTAL')
        lines=$(echo "$total" | awk '{ printf "%d/%d (%s)", $8 - $9, $8, $10 }')
        branches=$(echo "$total" | awk '{ printf "%d/%d (%s)", $11 - $12, $11, $13 }')
        rate=$(awk -v e="${execs:-0}" -v s="$secs" 'BEGIN { printf "%.0f", e / s }')
        line="| $t | $( [ $mode = custom ] && echo structure-aware || echo byte-level ) | $secs | ${execs:-?} | $rate | $lines | $branches |"
        echo "$line" >> "$report"
        echo "$line"
    done
done
echo "coverage: table in $report"
exit $status
