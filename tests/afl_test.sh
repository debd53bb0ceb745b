#!/bin/sh
# afl_test.sh — relic's mutators inside AFL++ (fuzz/afl/relic_afl.c,
# librelic-afl.so): the README's BWM example reader, built from the BWM
# amalgamation with afl-cc, fuzzed for AFL_TEST_EXECS executions (default
# 1500; AFL_TEST_SECONDS, default 90, caps the time on a loaded machine) with
# AFL_CUSTOM_MUTATOR_ONLY=1 on tests/samples' small walkmeshes. Checks: AFL++ loads
# the library and installs it, the queue holds entries the custom stage made
# (its description "relic-bwm" in their names) beyond the seeds, and of
# those, files pass `relic check`. Skips, saying so, when afl-fuzz or afl-cc
# is missing (Debian: apt-get install afl++, which `make deps` does).
# usage: RELIC=build/relic BUILD=build sh tests/afl_test.sh
RELIC=${RELIC:-build/relic}
B=${BUILD:-$(dirname "$RELIC")}
secs=${AFL_TEST_SECONDS:-90}
execs_max=${AFL_TEST_EXECS:-1500}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { if "$@"; then ok; else bad "$*"; fi; }
done_() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit $?; }

if ! command -v afl-fuzz >/dev/null 2>&1 || ! command -v afl-cc >/dev/null 2>&1; then
    echo "note: afl-fuzz or afl-cc not installed (apt-get install afl++): the AFL++ test is skipped"
    done_
fi
lib=$(cd "$(dirname "$B/librelic-afl.so")" && pwd)/librelic-afl.so
check test -f "$lib"
# a sanitizer build's library needs the sanitizer runtime, which afl-fuzz does not load
if nm -D "$lib" 2>/dev/null | grep -q '__asan_\|__ubsan_'; then
    echo "note: $lib is a sanitizer build: the AFL++ test runs in the plain pass only"
    done_
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/relic-afl.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# the reader: the README's example, against the amalgamation (instrumented whole)
make --no-print-directory amalgamation FORMATS=bwm AMALG_DIR="$tmp/am" >"$tmp/am.log" 2>&1
check test -s "$tmp/am/relic_bwm.c"
awk '/^```c$/ { grab = 0 } grab { print } /^```c$/ { getline line; if (line ~ /count walkable faces/) { grab = 1; print line } }' README.md |
    sed '/^```$/,$d' | sed 's|#include <relic/relic_bwm.h>|#include <stdio.h>\n#include "relic_bwm.h"|' >"$tmp/ex.c"
check test -s "$tmp/ex.c"
if ! AFL_QUIET=1 afl-cc -O1 -I"$tmp/am" "$tmp/ex.c" "$tmp/am/relic_bwm.c" -lz -lm -o "$tmp/reader" >"$tmp/cc.log" 2>&1; then
    bad "afl-cc could not build the README example"; cat "$tmp/cc.log"; done_
fi
mkdir -p "$tmp/in"
# the small walkmeshes: a few faces, so a mutant crosses the hit-count buckets
# AFL++ sees coverage by (a 48-face room keeps every loop in one bucket)
cp tests/samples/crate.pwk tests/samples/door0.dwk "$tmp/in/"

# without the sanitizer options the test runner sets (the reader is not
# sanitized, and afl-fuzz refuses ASAN_OPTIONS without abort_on_error=1)
env -u ASAN_OPTIONS -u UBSAN_OPTIONS -u MSAN_OPTIONS -u LSAN_OPTIONS \
AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1 \
AFL_CUSTOM_MUTATOR_LIBRARY="$lib" AFL_CUSTOM_MUTATOR_ONLY=1 RELIC_AFL_FORMAT=bwm \
    timeout $((secs + 60)) afl-fuzz -V "$secs" -E "$execs_max" -i "$tmp/in" -o "$tmp/out" -- "$tmp/reader" @@ >"$tmp/afl.log" 2>&1
status=$?
check test "$status" -eq 0
grep -q "Custom mutator '.*' installed successfully" "$tmp/afl.log" || grep -q "installed successfully" "$tmp/afl.log"
check test $? -eq 0
q="$tmp/out/default/queue"
check test -d "$q"
made=$(ls "$q" 2>/dev/null | grep -c 'relic-bwm')
stats="$tmp/out/default/fuzzer_stats"
execs=$(sed -n 's/^execs_done *: *//p' "$stats" 2>/dev/null)
found=$(sed -n 's/^corpus_found *: *//p' "$stats" 2>/dev/null)
echo "afl: ${execs:-0} executions (at most $execs_max, $secs s), ${found:-0} queue entries found, $made made by relic's BWM mutator"
check test "${execs:-0}" -gt 0
check test "${found:-0}" -gt 0
check test "$made" -gt 0
valid=0
for f in "$q"/*relic-bwm*; do
    [ -f "$f" ] || continue
    cp "$f" "$tmp/x.wok"
    "$RELIC" check "$tmp/x.wok" >/dev/null 2>&1 && valid=$((valid + 1))
done
echo "afl: $valid of $made mutator-made queue entries pass relic check"
check test "$valid" -gt 0
if [ "$fail" -ne 0 ]; then tail -30 "$tmp/afl.log"; fi
done_
