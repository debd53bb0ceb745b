#!/bin/sh
# oss_fuzz_build_test.sh — run fuzz/oss-fuzz/build.sh as OSS-Fuzz's libFuzzer
# + ASan build does (CC=clang, the engine's CFLAGS and LIB_FUZZING_ENGINE,
# OUT, SRC, WORK in a scratch directory), then check that every fuzz/*.c
# target was built with its seed corpus, dictionary and options, and run
# each for about a second on its unzipped seed corpus.
# The library compiled again with coverage instrumentation, ~58 links, then
# 1 s per target: 4 min 4 s (2 min 41 s user) on this 2-core machine at a
# load average of 2.5. `make oss-fuzz-check`, and the oss-fuzz stage of
# `make test`.
# OSS_FUZZ_QUICK=1 (the oss-fuzz stage of make test, whose fuzz stage already
# runs every target's seeds, regressions and more under ASan+UBSan): the same
# build.sh with libFuzzer's instrumentation only (-O0 -fsanitize=fuzzer-no-link,
# no ASan: a third less compile time, links without the sanitizer runtime), and
# each target runs every seed of its zip once (-runs=0) instead of fuzzing.
# usage: [OSS_FUZZ_QUICK=1] sh tests/oss_fuzz_build_test.sh
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
finish() { echo "$pass passed, $fail failed"; [ "$fail" = 0 ]; exit $?; }
for tool in clang clang++ re2c zip unzip; do
    command -v $tool >/dev/null 2>&1 || { echo "skip: $tool not found"; finish; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/relic-ossfuzz.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
mkdir -p "$tmp/out" "$tmp/work" "$tmp/src"
flags="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address,fuzzer-no-link" run="-max_total_time=1"
[ -n "$OSS_FUZZ_QUICK" ] && flags="-O0 -fsanitize=fuzzer-no-link" run="-runs=0"
if ! CC=clang CXX=clang++ CFLAGS="$flags" CXXFLAGS="$flags" \
     LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=$tmp/out SRC=$tmp/src WORK=$tmp/work \
     bash fuzz/oss-fuzz/build.sh >"$tmp/build.log" 2>&1; then
    tail -30 "$tmp/build.log"
    bad "build.sh failed"
    finish
fi
for f in fuzz/*.c; do
    t=$(basename "$f" .c)
    for a in "$t" "${t}_seed_corpus.zip" "$t.dict" "$t.options"; do
        if [ -s "$tmp/out/$a" ]; then ok; else bad "$t: $a missing or empty"; fi
    done
    [ -x "$tmp/out/$t" ] || continue
    rm -rf "$tmp/seeds" && mkdir "$tmp/seeds" && unzip -q -o "$tmp/out/${t}_seed_corpus.zip" -d "$tmp/seeds"
    # the options file's max_len, as the engines apply it
    max_len=$(sed -n 's/^max_len *= *//p' "$tmp/out/$t.options")
    if (cd "$tmp/out" && ./"$t" -dict="$t.dict" -max_len="${max_len:-262144}" $run -timeout=10 -rss_limit_mb=2048 "$tmp/seeds" >"$tmp/run.log" 2>&1); then
        ok
        echo "ok $t: $(sed -n 's/^Done \([0-9]*\) runs.*/\1 runs/p' "$tmp/run.log" | tail -1)"
    else
        tail -15 "$tmp/run.log"
        bad "$t: failed on its seed corpus"
    fi
done
finish
