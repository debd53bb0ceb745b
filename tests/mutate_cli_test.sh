#!/bin/sh
# mutate_cli_test.sh — `relic mutate` (issue 8) on a file of each format with
# a schema: the samples in tests/samples and, when ../shared/corpus exists,
# the smallest real file of each format. Valid mode: COUNT distinct files,
# none equal to the input, each accepted by `relic check`, a manifest entry
# with at least one change per file. Invalid mode: each file rejected by
# `relic check` with an error line naming a byte offset. The same seed gives
# the same files; nothing crashes (exit status below 128 everywhere).
# Prints "N passed, M failed". Environment: RELIC (the binary).
RELIC=${RELIC:-build/relic}
# Debian's python3 (make deps): a python3 found first in PATH may be a wrapper (a pyenv shim
# costs 0.6 s of CPU per start)
PYTHON=${PYTHON:-/usr/bin/python3}; [ -x "$PYTHON" ] || PYTHON=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
COUNT=4

files="tests/samples/room.wok tests/samples/crate.pwk tests/samples/door0.dwk"
# ERF and RIM get the invalid-mode and no-crash checks here; their valid
# mode (a hand-written mutator keeping the resource data) and every other
# format are covered by tests/mutate_formats.sh.
partial=""
if [ -d ../shared/corpus ]; then
    for d in bwm gff tpa cau trn trx pid scn; do
        [ -d "../shared/corpus/$d" ] || continue
        f=$(ls -S "../shared/corpus/$d"/* 2>/dev/null | tail -1)
        [ -n "$f" ] && files="$files $f"
    done
    partial=$(ls ../shared/corpus/other/*.rim ../shared/corpus/other/*.erf 2>/dev/null | head -2)
else
    echo "note: ../shared/corpus not found: real-file checks skipped (tests/samples only)"
fi

# has_offset FILE: a line of FILE carries an @0x offset (a shell loop: run on every
# rejected output, a grep process each was a tenth of this test's processes)
has_offset() {
    while IFS= read -r l || [ -n "$l" ]; do case $l in *@0x*) return 0 ;; esac; done <"$1"
    return 1
}
no_crash() { # rc what
    if [ "$1" -lt 128 ]; then ok; else bad "$2 crashed (exit $1)"; fi
}

n=0
for f in $files; do
    n=$((n + 1))
    out="$tmp/v$n"
    "$RELIC" mutate "$f" -n $COUNT -o "$out" --seed 11 >"$tmp/log" 2>&1; rc=$?
    no_crash $rc "mutate $f"
    if [ $rc != 0 ]; then bad "mutate $f: exit $rc"; head -3 "$tmp/log"; continue; fi
    ok
    made=$(ls "$out" | grep -vc '^manifest.json$')
    if [ "$made" = $COUNT ]; then ok; else bad "mutate $f: $made files, expected $COUNT"; fi
    distinct=$(cd "$out" && ls | grep -v '^manifest.json$' | xargs cksum | awk '{print $1, $2}' | sort -u | wc -l)
    if [ "$distinct" = $COUNT ]; then ok; else bad "mutate $f: only $distinct distinct files"; fi
    same=0
    for m in "$out"/*; do [ "${m##*/}" = manifest.json ] && continue; cmp -s "$m" "$f" && same=1; done
    if [ $same = 0 ]; then ok; else bad "mutate $f: an output equals the input"; fi
    nonok=0
    for m in "$out"/*; do
        [ "${m##*/}" = manifest.json ] && continue
        "$RELIC" check -q "$m" >"$tmp/check" 2>&1; crc=$?
        [ $crc -ge 128 ] && bad "check $m crashed"
        [ $crc = 0 ] || { nonok=1; head -2 "$tmp/check"; }
    done
    if [ $nonok = 0 ]; then ok; else bad "mutate $f: a valid-mode output fails relic check"; fi
    entries=$(grep -c '"file": ' "$out/manifest.json")
    changes=$(grep -c '"path": ' "$out/manifest.json")
    if [ "$entries" = $COUNT ] && [ "$changes" -ge $COUNT ]; then ok
    else bad "mutate $f: manifest has $entries files and $changes changes"; fi
    if grep -q '"old": ' "$out/manifest.json" && grep -q '"new": ' "$out/manifest.json"; then ok
    else bad "mutate $f: manifest lacks old/new values"; fi
    if command -v "$PYTHON" >/dev/null 2>&1; then
        if "$PYTHON" -c 'import json,sys; json.load(open(sys.argv[1]))' "$out/manifest.json" 2>/dev/null; then ok
        else bad "mutate $f: manifest.json is not JSON"; fi
    fi
    # determinism: the same seed gives the same files
    "$RELIC" mutate "$f" -n 2 -o "$tmp/d$n" --seed 11 >/dev/null 2>&1
    if cmp -s "$(ls "$out"/*-0000* | head -1)" "$(ls "$tmp/d$n"/*-0000* | head -1)"; then ok
    else bad "mutate $f: the same seed gave different files"; fi
done

n=0
for f in $files $partial; do
    n=$((n + 1))
    out="$tmp/i$n"
    "$RELIC" mutate "$f" -n $COUNT -o "$out" --seed 5 --invalid >"$tmp/log" 2>&1; rc=$?
    no_crash $rc "mutate --invalid $f"
    if [ $rc != 0 ]; then bad "mutate --invalid $f: exit $rc"; head -3 "$tmp/log"; continue; fi
    ok
    accepted=0
    for m in "$out"/*; do
        [ "${m##*/}" = manifest.json ] && continue
        "$RELIC" check -q "$m" >"$tmp/check" 2>&1; crc=$?
        [ $crc -ge 128 ] && bad "check $m crashed"
        if [ $crc = 0 ]; then accepted=1
        elif ! has_offset "$tmp/check"; then bad "check $m: rejection without an error line"; head -2 "$tmp/check"; fi
    done
    if [ $accepted = 0 ]; then ok; else bad "mutate --invalid $f: relic check accepted an invalid-mode output"; fi
done

for f in $partial; do
    "$RELIC" mutate "$f" -n 2 -o "$tmp/p" >/dev/null 2>&1; rc=$?
    no_crash $rc "mutate $f"
done

# usage errors
"$RELIC" mutate tests/samples/room.wok -o "$tmp/u" >/dev/null 2>&1
if [ $? = 2 ]; then ok; else bad "mutate without -n: exit status is not 2"; fi
"$RELIC" mutate tests/samples/room.wok -n 0 -o "$tmp/u" >/dev/null 2>&1
if [ $? = 2 ]; then ok; else bad "mutate -n 0: exit status is not 2"; fi
# a file with no mutator: an error, not a crash
printf 'not a walkmesh' > "$tmp/junk.wok"
"$RELIC" mutate "$tmp/junk.wok" -n 1 -o "$tmp/u" >"$tmp/log" 2>&1; rc=$?
if [ $rc = 1 ] && grep -q 'junk.wok: @0x0: no structure-aware mutator' "$tmp/log"; then ok; else bad "mutate of a junk file: exit $rc"; cat "$tmp/log"; fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
