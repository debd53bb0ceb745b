#!/bin/sh
# oss_fuzz_build_test.sh — run fuzz/oss-fuzz/build.sh as OSS-Fuzz's libFuzzer
# + ASan build does (CC=clang, the engine's CFLAGS and LIB_FUZZING_ENGINE,
# OUT, SRC, WORK in a scratch directory), then check that every fuzz/*.c
# target was built with its seed corpus, dictionary and options, and run
# each for about a second on its unzipped seed corpus. First: build.sh with a
# compiler that always fails must stop there, with a failing status.
# The library compiled again with coverage instrumentation, ~58 links, then
# 1 s per target: 4 min 4 s (2 min 41 s user) on this 2-core machine at a
# load average of 2.5. `make oss-fuzz-check`, and the oss-fuzz stage of
# `make test`.
# OSS_FUZZ_QUICK=1 (the oss-fuzz stage of make test, whose fuzz stage then
# fuzzes the very binaries built here): each target runs every seed of its zip
# once (-runs=0) instead of fuzzing, and build.sh compiles with OSS_FUZZ_CFLAGS
# (default: libFuzzer's instrumentation only, -O0 -fsanitize=fuzzer-no-link).
# make test passes its sanitizer build's flags (ASan+UBSan, -Werror), its
# archives as RELIC_PREBUILT_LIBS (build.sh then compiles only the targets:
# the library is compiled once in make test) and OSS_FUZZ_OUT, a directory
# that keeps build.sh's OUT for the fuzz stage (default: a scratch directory),
# and OSS_FUZZ_LDFLAGS, added to the targets' links (make test: -fuse-ld=lld
# when lld is installed, half the CPU of ld.bfd's link of a target).
# usage: [OSS_FUZZ_QUICK=1 [OSS_FUZZ_CFLAGS=...] [OSS_FUZZ_LDFLAGS=...] [RELIC_PREBUILT_LIBS=...] [OSS_FUZZ_OUT=dir]] sh tests/oss_fuzz_build_test.sh
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
out=$tmp/out
mkdir -p "$tmp/work" "$tmp/src"
flags="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address,fuzzer-no-link" run="-max_total_time=1"
engine=-fsanitize=fuzzer
if [ -n "$OSS_FUZZ_QUICK" ]; then
    flags=${OSS_FUZZ_CFLAGS:-"-O0 -fsanitize=fuzzer-no-link"} run="-runs=0"
    # LIB_FUZZING_ENGINE is only on build.sh's link lines: the linker's flags go there
    engine="$engine${OSS_FUZZ_LDFLAGS:+ $OSS_FUZZ_LDFLAGS}"
    # no stale target of an earlier run in a kept OUT
    [ -n "$OSS_FUZZ_OUT" ] && out=$OSS_FUZZ_OUT && rm -rf "$out"
else
    unset RELIC_PREBUILT_LIBS # the full form builds as OSS-Fuzz does: the library too
fi
mkdir -p "$out" && out=$(cd "$out" && pwd)
# build.sh stops at a failed compile, however it is started: plain `bash`
# here, a compiler that always fails, a stand-in archive; nothing may follow
: >"$tmp/stand-in.a"
if CC=false CXX=false CFLAGS= LIB_FUZZING_ENGINE= OUT=$tmp/failed WORK=$tmp/work RELIC_PREBUILT_LIBS=$tmp/stand-in.a \
    bash fuzz/oss-fuzz/build.sh >"$tmp/failed.log" 2>&1; then
    bad "build.sh with a failing compiler exited 0"
elif ls "$tmp/failed"/*.zip >/dev/null 2>&1; then
    bad "build.sh went on past a failed compile (a seed zip was made)"
else
    ok
fi
# as OSS-Fuzz's compile step runs it: bash -eux, so the first failing command
# stops the build (plain `bash build.sh` would go on past a failed link and
# leave that target missing) and the log's tail names it
build() {
    CC=clang CXX=clang++ CFLAGS="$flags" CXXFLAGS="$flags" \
        LIB_FUZZING_ENGINE="$engine" OUT=$out SRC=$tmp/src WORK=$tmp/work \
        bash -eux fuzz/oss-fuzz/build.sh >"$tmp/build.log" 2>&1
}
if ! build; then
    # a compile or link that fails again is the project's; one that does not was the
    # machine's (a process killed, a full disk): shown, then built again, not hidden
    echo "note: build.sh failed; its last lines, then one more run:"
    tail -30 "$tmp/build.log"
    if ! build; then
        tail -30 "$tmp/build.log"
        bad "build.sh failed twice"
        finish
    fi
fi
for f in fuzz/*.c; do
    t=$(basename "$f" .c)
    for a in "$t" "${t}_seed_corpus.zip" "$t.dict" "$t.options"; do
        if [ -s "$out/$a" ]; then ok; else bad "$t: $a missing or empty"; fi
    done
    [ -x "$out/$t" ] || continue
    rm -rf "$tmp/seeds" && mkdir "$tmp/seeds" && unzip -q -o "$out/${t}_seed_corpus.zip" -d "$tmp/seeds"
    # the options file's max_len, as the engines apply it
    max_len=$(sed -n 's/^max_len *= *//p' "$out/$t.options")
    if (cd "$out" && ./"$t" -dict="$t.dict" -max_len="${max_len:-262144}" $run -timeout=10 -rss_limit_mb=2048 "$tmp/seeds" >"$tmp/run.log" 2>&1); then
        ok
        echo "ok $t: $(sed -n 's/^Done \([0-9]*\) runs.*/\1 runs/p' "$tmp/run.log" | tail -1)"
    else
        tail -15 "$tmp/run.log"
        bad "$t: failed on its seed corpus"
    fi
done
finish
