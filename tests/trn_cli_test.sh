#!/bin/sh
# trn_cli_test.sh — the `relic` command on NWN2 TRN/TRX walkmeshes as a user
# runs it (nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp): bake a TRN into a TRX that passes
# check --strict (deterministically), re-bake a toolset TRX, path queries
# with their SVG, the walkmesh to SVG and OBJ, the JSON round trip, and
# the water (WATR) to OBJ with --terrain.
# Real files: ../shared/corpus/trn and trx (skipped,
# saying so, when absent). Prints "N passed, M failed". Env: RELIC.
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

trn=../shared/corpus/trn/CromFr__NWN2-SpecialAttacks__area.trn
trx=../shared/corpus/trx/teemul__ALFA-017-Amn__maztica_crypt_level_2.TRX
if [ ! -f "$trn" ] || [ ! -f "$trx" ]; then
    echo "note: ../shared/corpus/trn or trx not found: the TRN/TRX command tests are skipped"
else
    expect_rc 0 "bake a TRN" "$RELIC" bake "$trn" "$tmp/a.trx"
    expect_rc 0 "the baked TRX passes check --strict" "$RELIC" check --strict "$tmp/a.trx"
    expect_grep "36 islands" "info counts the baked islands" "$RELIC" info "$tmp/a.trx"
    expect_rc 0 "bake again" "$RELIC" bake "$trn" "$tmp/b.trx"
    if cmp -s "$tmp/a.trx" "$tmp/b.trx"; then ok; else bad "two bakes differ"; fi
    expect_rc 0 "re-bake a toolset TRX" "$RELIC" bake "$trx" "$tmp/c.trx"
    expect_rc 0 "the re-baked TRX passes check --strict" "$RELIC" check --strict "$tmp/c.trx"
    expect_rc 0 "the toolset TRX passes check --strict" "$RELIC" check --strict "$trx"
    expect_rc 0 "bake at --level 1" "$RELIC" bake "$trx" "$tmp/c1.trx" --level 1
    if cmp -s "$tmp/c.trx" "$tmp/c1.trx"; then ok; else bad "the default bake differs from --level 1"; fi
    expect_rc 0 "bake at the toolset's --level 6" "$RELIC" bake "$trx" "$tmp/c6.trx" --level 6
    expect_rc 0 "the level-6 TRX passes check --strict" "$RELIC" check --strict "$tmp/c6.trx"
    if [ "$(wc -c < "$tmp/c6.trx")" -lt "$(wc -c < "$tmp/c.trx")" ]; then ok; else bad "--level 6 is not smaller than the default"; fi
    expect_rc 0 "water of the re-baked TRX" "$RELIC" convert "$tmp/c.trx" "$tmp/water_c.obj" --terrain
    expect_rc 0 "water of the toolset TRX" "$RELIC" convert "$trx" "$tmp/water_t.obj" --terrain
    if cmp -s "$tmp/water_c.obj" "$tmp/water_t.obj"; then ok; else bad "the bake changed the WATR packets"; fi
    expect_rc 1 "bake refuses to write over its input" "$RELIC" bake "$tmp/c.trx" "$tmp/c.trx"
    expect_rc 0 "the refused input is left whole" "$RELIC" check --strict "$tmp/c.trx"
    expect_grep "80 triangles, length 92.960" "path across islands" "$RELIC" path "$tmp/a.trx" 20 20 60 60 --svg "$tmp/p.svg"
    expect_grep "polyline" "the path SVG draws the route" cat "$tmp/p.svg"
    expect_grep "lies on no triangle" "a point off the walkmesh is named" "$RELIC" path "$tmp/a.trx" 5 5 60 60
    expect_rc 1 "a point off the walkmesh fails" "$RELIC" path "$tmp/a.trx" 5 5 60 60
    expect_rc 2 "path needs four numbers" "$RELIC" path "$tmp/a.trx" 20 20 60
    expect_rc 0 "walkmesh to SVG" "$RELIC" convert "$trx" "$tmp/w.svg"
    expect_grep "<svg" "the SVG is an SVG" head -c 100 "$tmp/w.svg"
    expect_rc 0 "walkmesh to OBJ" "$RELIC" convert "$trx" "$tmp/w.obj"
    expect_grep "^g nonwalkable" "the OBJ has a non-walkable group" cat "$tmp/w.obj"
    expect_grep "^g walkable" "the OBJ has a walkable group" cat "$tmp/w.obj"
    faces=$(grep -c '^f ' "$tmp/w.obj")
    if [ "$faces" = 2250 ]; then ok; else bad "OBJ faces $faces, expected 2250"; fi
    expect_rc 0 "the TRX round-trips through JSON" "$RELIC" convert "$trx" "$tmp/t.json"
    expect_rc 0 "JSON back to TRX" "$RELIC" convert "$tmp/t.json" "$tmp/t.trx"
    if cmp -s "$trx" "$tmp/t.trx"; then ok; else bad "TRX -> JSON -> TRX differs"; fi
    expect_rc 0 "water to OBJ (--terrain)" "$RELIC" convert "$trx" "$tmp/water.obj" --terrain
    groups=$(grep -c '^g water_' "$tmp/water.obj")
    if [ "$groups" = 38 ]; then ok; else bad "terrain OBJ water groups $groups, expected 38"; fi
    expect_grep "no TRRN or WATR packet" "--terrain on a file without terrain says so" "$RELIC" convert "$trn" "$tmp/none.obj" --terrain
    expect_rc 1 "--terrain on a file without terrain fails" "$RELIC" convert "$trn" "$tmp/none.obj" --terrain
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
