#!/bin/sh
# cli_test.sh — the `relic` command as a user runs it: check, the JSON round
# trip byte for byte on every real file (../shared/corpus/bwm, skipped when
# absent) and sample, exports, OBJ import, exit codes, error lines, and that
# relic never overwrites its input. Prints "N passed, M failed".
# Environment: RELIC (the binary), MAKE_SAMPLES (the sample generator).
RELIC=${RELIC:-build/relic}
MAKE_SAMPLES=${MAKE_SAMPLES:-build/tests/make_samples}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
expect_rc() { # expected-rc description command...
    want=$1; shift; what=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ "$rc" = "$want" ]; then ok; else bad "$what: exit $rc, expected $want"; cat "$tmp/out" "$tmp/err" | head -5; fi
}

files="tests/samples/room.wok tests/samples/crate.pwk tests/samples/door0.dwk"
if [ -d ../shared/corpus/bwm ]; then
    real=$(ls ../shared/corpus/bwm/*.wok)
    # make test's sanitizer pass (CORPUS_SWEEPS=0; the plain pass takes them all) takes the first
    # real file and one in 8, as test_pass.h's test_take(): test_bwm reads every one under it
    if [ "${CORPUS_SWEEPS:-1}" = 0 ]; then
        real=$(printf '%s\n' $real | awk 'NR % 8 == 1')
        echo "note: CORPUS_SWEEPS=0: $(echo $real | wc -w) real walkmeshes of $(ls ../shared/corpus/bwm/*.wok | wc -l) (one in 8; make test's plain pass takes all)"
    fi
    files="$files $real"
else
    echo "note: ../shared/corpus/bwm not found: real-file checks skipped"
fi

n=0
for f in $files; do
    n=$((n + 1))
    ext=${f##*.}
    expect_rc 0 "check $f" "$RELIC" check -q "$f"
    if "$RELIC" convert "$f" "$tmp/$n.json" && "$RELIC" convert "$tmp/$n.json" "$tmp/$n.$ext" && cmp -s "$f" "$tmp/$n.$ext"; then ok
    else bad "JSON round trip of $f is not byte-exact"; fi
    if "$RELIC" dump "$f" > "$tmp/$n.stdout.json" && cmp -s "$tmp/$n.json" "$tmp/$n.stdout.json"; then ok
    else bad "dump to stdout differs from convert to .json for $f"; fi
    expect_rc 0 "convert $f to obj" "$RELIC" convert "$f" "$tmp/$n.obj"
    expect_rc 0 "convert $f to svg" "$RELIC" convert "$f" "$tmp/$n.svg"
    if head -c 200 "$tmp/$n.svg" | grep -q '<svg'; then ok; else bad "$f: SVG output has no <svg element"; fi
    # the exported OBJ converts back into a walkmesh that passes the strict rules
    expect_rc 0 "obj of $f back to wok" "$RELIC" convert "$tmp/$n.obj" "$tmp/$n.back.$ext"
    expect_rc 0 "strict check of the rebuilt $f" "$RELIC" check -q --strict "$tmp/$n.back.$ext"
done

# OBJ import of the sample room
expect_rc 0 "obj -> wok" "$RELIC" convert tests/samples/room.obj "$tmp/room_from_obj.wok"
expect_rc 0 "strict check of obj -> wok" "$RELIC" check --strict "$tmp/room_from_obj.wok"

# standard input (the read() path of relic_map_file)
if cat tests/samples/room.wok | "$RELIC" check - >"$tmp/out" 2>&1 && grep -q '^-: ok' "$tmp/out"; then ok; else bad "check from standard input: $(cat "$tmp/out")"; fi
if cat tests/samples/room.wok | "$RELIC" dump - | cmp -s - "$tmp/1.json"; then ok; else bad "dump from standard input differs"; fi

# info
expect_rc 0 "info" "$RELIC" info tests/samples/room.wok
if grep -q 'walkable' "$tmp/out"; then ok; else bad "info does not describe the walkmesh"; fi

# corrupted and truncated inputs: exit 1 and a line naming field and offset
head -c 100 tests/samples/room.wok > "$tmp/cut.wok"
expect_rc 1 "truncated file" "$RELIC" check "$tmp/cut.wok"
if grep -q "cut.wok: header @0x0: header needs 136 bytes" "$tmp/out"; then ok; else bad "truncation message: $(cat "$tmp/out")"; fi
cp tests/samples/room.wok "$tmp/bad.wok"
printf 'XWM ' | dd of="$tmp/bad.wok" bs=1 seek=0 conv=notrunc 2>/dev/null
expect_rc 1 "bad magic" "$RELIC" check "$tmp/bad.wok"
if grep -q 'header.magic @0x0: expected' "$tmp/out"; then ok; else bad "magic message: $(cat "$tmp/out")"; fi
printf '{"format": "bwm", "header": {' > "$tmp/broken.json"
expect_rc 1 "broken JSON" "$RELIC" convert "$tmp/broken.json" "$tmp/broken.wok"
if [ ! -e "$tmp/broken.wok" ]; then ok; else bad "a failed conversion left an output file"; fi

# never overwrite the input, never leave a half-written output
cp tests/samples/room.wok "$tmp/keep.wok"
expect_rc 1 "convert onto its own input" "$RELIC" convert "$tmp/keep.wok" "$tmp/keep.wok"
if cmp -s tests/samples/room.wok "$tmp/keep.wok"; then ok; else bad "the input was modified"; fi
ln -sf "$tmp/keep.wok" "$tmp/alias.wok"
expect_rc 1 "convert onto a link to its input" "$RELIC" convert "$tmp/keep.wok" "$tmp/alias.wok"
if cmp -s tests/samples/room.wok "$tmp/keep.wok"; then ok; else bad "the input was modified through a link"; fi

# usage
expect_rc 2 "no arguments" "$RELIC"
expect_rc 2 "unknown command" "$RELIC" frobnicate
expect_rc 2 "check without files" "$RELIC" check
expect_rc 2 "convert to an unknown extension" "$RELIC" convert tests/samples/room.wok "$tmp/x.zzz"
for c in info dump check convert; do expect_rc 0 "$c --help" "$RELIC" "$c" --help; done
expect_rc 0 "--version" "$RELIC" --version
if grep -q '^relic [0-9]' "$tmp/out"; then ok; else bad "--version output"; fi

# the samples are reproducible from the writer
if [ -x "$MAKE_SAMPLES" ]; then
    mkdir -p "$tmp/samples"
    "$MAKE_SAMPLES" "$tmp/samples"
    for s in room.wok crate.pwk door0.dwk room.obj; do
        if cmp -s "tests/samples/$s" "$tmp/samples/$s"; then ok; else bad "tests/samples/$s differs from what make_samples writes"; fi
    done
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
