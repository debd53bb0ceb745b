#!/bin/sh
# wtd_cli_test.sh — the `relic` command on Trespasser WTD terrain as a user
# runs it (spec/trespasser.md §1): info, check --strict, dump (header and
# parameter block), convert to a 16-bit greyscale PNG of the grid's size,
# and the errors for cut and damaged files. Real file: ../shared/corpus/wtd
# (skipped, saying so, when absent). Prints "N passed, M failed". Env: RELIC.
RELIC=${RELIC:-build/relic}
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
expect_grep() { # pattern description command...
    pat=$1; shift; what=$1; shift
    if "$@" 2>&1 | grep -q -- "$pat"; then ok; else bad "$what: no '$pat' in the output"; fi
}

wtd=$(ls ../shared/corpus/wtd/*.wtd 2>/dev/null | head -1)
if [ -z "$wtd" ]; then
    echo "note: ../shared/corpus/wtd not found: the WTD command tests are skipped"
else
    expect_rc 0 "check --strict the demo terrain" "$RELIC" check --strict "$wtd"
    expect_grep "grid 8192 x 8192" "info names the grid" "$RELIC" info "$wtd"
    expect_grep '"version": 1001' "dump prints the header" "$RELIC" dump "$wtd"
    expect_rc 0 "convert to PNG" "$RELIC" convert "$wtd" "$tmp/pv.png"
    # PNG signature, then IHDR: width 8192, height 8192, 16 bits, greyscale (type 0)
    sig=$(od -An -tx1 -N8 "$tmp/pv.png" | tr -d ' \n')
    ihdr=$(od -An -tx1 -j16 -N10 "$tmp/pv.png" | tr -d ' \n')
    if [ "$sig" = 89504e470d0a1a0a ] && [ "$ihdr" = 00002000000020001000 ]; then ok; else bad "PNG header $sig $ihdr"; fi
    expect_rc 1 "no OBJ export yet" "$RELIC" convert "$wtd" "$tmp/pv.obj"
    head -c 4000 "$wtd" > "$tmp/cut.wtd"
    expect_grep "tree" "check of a cut file names the tree node" "$RELIC" check "$tmp/cut.wtd"
    expect_rc 1 "check of a cut file fails" "$RELIC" check "$tmp/cut.wtd"
    head -c 4001 "$wtd" > "$tmp/odd.wtd"
    expect_grep "multiple of 4" "a file of partial words is refused" "$RELIC" check "$tmp/odd.wtd"
    # version 1001 is E9 03 at file bytes 2-3 (logical bytes 1, 0 XOR 3): change it; the error
    # names the file byte of the field's first logical byte, 0 ^ 3 = 3
    cp "$wtd" "$tmp/ver.wtd"; chmod u+w "$tmp/ver.wtd"
    printf '\352' | dd of="$tmp/ver.wtd" bs=1 seek=2 conv=notrunc 2>/dev/null
    expect_grep "version @0x3: expected 1001, found 1002" "a wrong version is named with its file offset" "$RELIC" check "$tmp/ver.wtd"
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
