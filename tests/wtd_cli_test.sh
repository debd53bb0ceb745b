#!/bin/sh
# wtd_cli_test.sh — the `relic` command on Trespasser WTD terrain as a user
# runs it (Trespasser source, Lib/GeomDBase/WaveletDataFormat.cpp, Lib/GeomDBase/TerrainLoad.cpp): info, check --strict, dump (header,
# parameter block, tree statistics), convert to a 16-bit heightmap or 8-bit
# shaded-relief PNG, OBJ and TRI meshes, re-encoding (exact, and with a
# threshold), PNG and TRR input, TRI/TRR text and their error positions,
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
elif [ "${CORPUS_SWEEPS:-1}" = 0 ]; then
    echo "note: CORPUS_SWEEPS=0: the 8192 x 8192 demo terrain's conversions are skipped (make test runs them once, in the plain pass)"
else
    expect_rc 0 "check --strict the demo terrain" "$RELIC" check --strict "$wtd"
    expect_grep "grid 8192 x 8192" "info names the grid" "$RELIC" info "$wtd"
    # its 8192 x 8192 grid (256 MiB) is over RELIC_WTD_DEFAULT_MAX_N: info leaves out the heights,
    # a conversion is refused with the field and offset unless --max-grid raises the limit
    expect_grep "heights not decoded: the grid is over 2048 x 2048" "info of a grid over the default" "$RELIC" info "$wtd"
    expect_rc 1 "convert without --max-grid" "$RELIC" convert "$wtd" "$tmp/refused.png"
    expect_grep "mapping.quad_extents.size_x @0xd: a 8192 x 8192 grid" "the refusal names the field" "$RELIC" convert "$wtd" "$tmp/refused.png"
    expect_grep "convert with --max-grid 8192" "the refusal names the option" "$RELIC" convert "$wtd" "$tmp/refused.png"
    if [ ! -e "$tmp/refused.png" ]; then ok; else bad "a refused conversion left its output"; fi
    expect_grep "over the limit of 4096 x 4096" "--max-grid below the grid" "$RELIC" convert "$wtd" "$tmp/refused.png" --max-grid 4096
    expect_grep "power of two" "--max-grid must be a power of two" "$RELIC" convert "$wtd" "$tmp/refused.png" --max-grid 3000
    expect_grep '"version": 1001' "dump prints the header" "$RELIC" dump "$wtd"
    expect_rc 0 "convert to PNG" "$RELIC" convert "$wtd" "$tmp/pv.png" --max-grid 8192
    # PNG signature, then IHDR: width 8192, height 8192, 16 bits, greyscale (type 0)
    sig=$(od -An -tx1 -N8 "$tmp/pv.png" | tr -d ' \n')
    ihdr=$(od -An -tx1 -j16 -N10 "$tmp/pv.png" | tr -d ' \n')
    if [ "$sig" = 89504e470d0a1a0a ] && [ "$ihdr" = 00002000000020001000 ]; then ok; else bad "PNG header $sig $ihdr"; fi
    # outputs: shaded relief (8-bit greyscale IHDR), leaf triangulation, JSON with tree statistics
    expect_rc 0 "convert to a shaded relief" "$RELIC" convert "$wtd" "$tmp/relief.png" --relief --max-grid 8192
    ihdr=$(od -An -tx1 -j16 -N10 "$tmp/relief.png" | tr -d ' \n')
    if [ "$ihdr" = 00002000000020000800 ]; then ok; else bad "relief PNG header $ihdr"; fi
    expect_rc 0 "convert to OBJ" "$RELIC" convert "$wtd" "$tmp/pv.obj" --max-grid 8192
    expect_grep "^f 1 2 " "the OBJ has 1-based faces" cat "$tmp/pv.obj"
    expect_rc 0 "convert to TRI" "$RELIC" convert "$wtd" "$tmp/pv.tri" --max-grid 8192
    expect_grep "74222 triangles, 37176 vertices" "the TRI reads back" "$RELIC" info "$tmp/pv.tri"
    expect_rc 0 "check the TRI" "$RELIC" check --strict "$tmp/pv.tri"
    expect_rc 0 "TRI to OBJ" "$RELIC" convert "$tmp/pv.tri" "$tmp/tri.obj"
    expect_grep '"significant": 9307' "the JSON has tree statistics" "$RELIC" dump "$wtd"
    # re-encoding reproduces the file byte for byte; a threshold makes it smaller and reports its error
    expect_rc 0 "re-encode" "$RELIC" convert "$wtd" "$tmp/again.wtd" --max-grid 8192
    if cmp -s "$wtd" "$tmp/again.wtd"; then ok; else bad "the re-encoded WTD differs from the original"; fi
    expect_grep "dropped .* height error max" "a threshold reports its error" "$RELIC" convert "$wtd" "$tmp/small.wtd" --threshold 8 --max-grid 8192
    if [ "$(wc -c < "$tmp/small.wtd")" -lt "$(wc -c < "$wtd")" ]; then ok; else bad "the threshold did not shrink the file"; fi
    expect_rc 0 "check the thresholded file" "$RELIC" check --strict "$tmp/small.wtd"
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
# No real file needed: a TRR point cloud -> WTD -> 16-bit PNG -> WTD -> PNG keeps every height
printf '0 0 1\n0.5 0 2\n1 0 2.5\n0 0.5 3\n0.5 0.5 4.5\n1 0.5 4\n0 1 5\n0.5 1 6\n1 1 10\n' > "$tmp/p.trr"
expect_grep "3 x 3 points on a 4 x 4 grid, 0.5 m spacing" "TRR info names the grid" "$RELIC" info "$tmp/p.trr"
expect_rc 0 "TRR to WTD" "$RELIC" convert "$tmp/p.trr" "$tmp/p.wtd"
expect_rc 0 "check the TRR's WTD" "$RELIC" check --strict "$tmp/p.wtd"
expect_rc 0 "WTD to PNG" "$RELIC" convert "$tmp/p.wtd" "$tmp/p.png"
expect_rc 0 "PNG to WTD" "$RELIC" convert "$tmp/p.png" "$tmp/p2.wtd"
expect_rc 0 "WTD to PNG again" "$RELIC" convert "$tmp/p2.wtd" "$tmp/p2.png"
if cmp -s "$tmp/p.png" "$tmp/p2.png"; then ok; else bad "heights or mapping changed through PNG -> WTD"; fi
expect_grep "world X 10..12, Y 20..22" "--extent sets the world rectangle" sh -c \
    "'$RELIC' convert '$tmp/p.png' '$tmp/p3.wtd' --extent 10,20,12,22 --max-height 50 && '$RELIC' info '$tmp/p3.wtd'"
expect_grep "0.000..50.000 m\|50.000 m" "--max-height sets the height scale" "$RELIC" info "$tmp/p3.wtd"
expect_rc 2 "--extent needs a value" "$RELIC" convert "$tmp/p.png" "$tmp/p4.wtd" --extent
expect_rc 1 "a bad --extent is refused" "$RELIC" convert "$tmp/p.png" "$tmp/p4.wtd" --extent 0,0,1
expect_grep "does not apply" "an option a conversion does not use is reported" "$RELIC" convert "$tmp/p.trr" "$tmp/p5.trr" --relief
expect_rc 0 "TRR re-written" "$RELIC" convert "$tmp/p.trr" "$tmp/p6.trr"
if cmp -s "$tmp/p.trr" "$tmp/p6.trr"; then ok; else bad "normalised TRR text differs"; fi
expect_grep '"point_count": 9' "TRR JSON" "$RELIC" dump "$tmp/p.trr"
printf '0 0 1\n1 0 x\n' > "$tmp/bad.trr"
expect_grep "bad.trr: @0xa: line 2, column 5: expected a coordinate, found 'x'" "a TRR error names line and column" "$RELIC" check "$tmp/bad.trr"
expect_rc 1 "a bad TRR fails check" "$RELIC" check "$tmp/bad.trr"
printf '1\n0 1 5\n3\n0 0 0\n1 0 0\n0 1 0\n' > "$tmp/bad.tri"
expect_grep "bad.tri: @0x6: line 2, column 5: vertex index 5 is not below the vertex count 3" "a TRI error names line and column" "$RELIC" check "$tmp/bad.tri"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
