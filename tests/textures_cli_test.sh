#!/bin/sh
# textures_cli_test.sh — Trespasser textures with the `relic` command as a
# user runs it (Trespasser source, Lib/Loader/ImageLoader.cpp, Trespasser file formats, "PID", "SWP"): a PID
# written from JSON and an SWP written byte by byte here, with an 8-bit
# palettised raster (index 0 transparent), a 16-bit 4444 one and a
# bump-mapped one; extract from the SWP and from its SPZ give the same
# PNGs; pack-textures of the extracted PNGs and extract again give the same
# PNGs (to .swp and to .spz); errors and exit codes. Prints "N passed, M
# failed". Env: RELIC.
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
same_pngs() { # description dirA dirB
    what=$1; a=$2; b=$3; n=0
    for f in 0000ABCD.png 00001234.png 00005678.png 00005678.bump.png; do
        if cmp -s "$a/$f" "$b/$f"; then n=$((n + 1)); else bad "$what: $f differs or is missing"; fi
    done
    [ "$n" = 4 ] && ok
}

# the PID: palette 0 = pure blue (the key colour relic writes too) and 15 more colours
cols=""
i=0
while [ $i -lt 16 ]; do
    if [ $i = 0 ]; then c="[255, 0, 0, 0]"; else c="[$((i * 16)), $((255 - i * 16)), $((i * 8)), 0]"; fi
    cols="$cols${cols:+, }$c"
    i=$((i + 1))
done
raster() { # offset width height stride bpp transparent bump palette key
    printf '{"chunk_size": 56, "swp_offset": %s, "width": %s, "height": %s, "stride": %s, "bits_per_pixel": %s, "constant_colour": 0, "transparent": %s, "bump_map": %s, "occlusion": 0, "palette": %s, "padding": 0, "key": %s}' "$@"
}
cat >"$tmp/t.json" <<EOF
{"format": "pid",
 "header": {"version": 304, "bump_depth": 16, "raster_offset": 0, "raster_count": 3, "palette_offset": 32, "palette_count": 1,
            "first_pageable": 65536, "nonpageable_size": 1024},
 "palettes": [{"chunk_size": 80, "colours_used": 16, "hash": 0, "colours": [$cols], "trailer": "00000000"}],
 "rasters": [$(raster 0 16 16 16 8 8 0 0 43981), $(raster 256 8 4 16 16 8 0 4294967295 4660), $(raster 384 8 8 16 16 0 16 0 22136)]}
EOF
expect_rc 0 "PID from JSON" "$RELIC" convert "$tmp/t.json" "$tmp/t.pid"
expect_rc 0 "check --strict of the PID" "$RELIC" check --strict "$tmp/t.pid"

# the SWP: indices 0..15 (8-bit), any 4444 pixels, bump pixels with palette index < 16
i=0
: >"$tmp/t.swp"
while [ $i -lt 512 ]; do
    if [ $i -lt 256 ]; then b=$(((i * 7 + i / 16) % 16))
    elif [ $i -lt 384 ]; then b=$(((i * 37) % 256))
    elif [ $((i % 2)) = 0 ]; then b=$(((i * 5) % 256))
    else b=$(((i / 2) % 64)); fi
    printf "\\$(printf %o $b)" >>"$tmp/t.swp"
    i=$((i + 1))
done
expect_rc 0 "extract from the SWP" "$RELIC" extract "$tmp/t.pid" --swp "$tmp/t.swp" -C "$tmp/ex1"
expect_rc 0 "SWP -> SPZ" "$RELIC" convert "$tmp/t.swp" "$tmp/t.spz"
expect_rc 0 "extract from the SPZ" "$RELIC" extract "$tmp/t.pid" --swp "$tmp/t.spz" -C "$tmp/ex2"
same_pngs "SPZ stream = SWP" "$tmp/ex1" "$tmp/ex2"
expect_rc 0 "extract --mips" "$RELIC" extract "$tmp/t.pid" --swp "$tmp/t.swp" -C "$tmp/exm" --mips

# pack the PNGs again: the same images come back
expect_rc 0 "pack-textures to .swp" "$RELIC" pack-textures "$tmp/ex1" "$tmp/p.pid" "$tmp/p.swp"
expect_rc 0 "check --strict of the packed PID" "$RELIC" check --strict "$tmp/p.pid"
expect_rc 0 "extract the packed textures" "$RELIC" extract "$tmp/p.pid" --swp "$tmp/p.swp" -C "$tmp/ex3"
same_pngs "pack then extract" "$tmp/ex1" "$tmp/ex3"
expect_rc 0 "pack-textures to .spz" "$RELIC" pack-textures "$tmp/ex1" "$tmp/q.pid" "$tmp/q.spz"
expect_rc 0 "extract the packed SPZ" "$RELIC" extract "$tmp/q.pid" --swp "$tmp/q.spz" -C "$tmp/ex4"
same_pngs "pack to SPZ then extract" "$tmp/ex1" "$tmp/ex4"
if cmp -s "$tmp/p.pid" "$tmp/q.pid"; then ok; else bad "the PID does not depend on .swp or .spz"; fi
# only the 16x16 texture has a mip level (8x8): 4 rasters
if "$RELIC" info "$tmp/p.pid" | grep -q "3 textures and 1 mip levels"; then ok; else bad "packed PID rasters: $("$RELIC" info "$tmp/p.pid" | sed -n 2p)"; fi

# errors
head -c 300 "$tmp/t.swp" >"$tmp/short.swp"
expect_rc 1 "extract from a short SWP" "$RELIC" extract "$tmp/t.pid" --swp "$tmp/short.swp" -C "$tmp/ex5"
if grep -q 'rasters\[[0-9]*\].swp_offset @0x' "$tmp/err"; then ok; else bad "short SWP message (standard error): $(cat "$tmp/out" "$tmp/err")"; fi
expect_rc 2 "extract without -C" "$RELIC" extract "$tmp/t.pid" --swp "$tmp/t.swp"
expect_rc 2 "pack-textures without outputs" "$RELIC" pack-textures "$tmp/ex1"
expect_rc 2 "pack-textures to a .bin" "$RELIC" pack-textures "$tmp/ex1" "$tmp/x.pid" "$tmp/x.bin"
expect_rc 1 "pack-textures of a missing directory" "$RELIC" pack-textures "$tmp/nothere" "$tmp/x.pid" "$tmp/x.swp"
mkdir "$tmp/badpng" && echo "not a png" >"$tmp/badpng/x.png"
expect_rc 1 "pack-textures of a broken PNG" "$RELIC" pack-textures "$tmp/badpng" "$tmp/x.pid" "$tmp/x.swp"
expect_rc 0 "pack-textures --help" "$RELIC" pack-textures --help

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
