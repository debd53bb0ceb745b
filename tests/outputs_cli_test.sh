#!/bin/sh
# outputs_cli_test.sh — the outputs people open, as a user makes them:
# the WTD colour preview (--preview: 8-bit RGB) beside the grey relief and
# the exact 16-bit heightmap; the NWN2 walkmesh SVG's legend, scale bar and
# tile labels; the Trespasser level as OBJ + MTL with its textures as PNG
# (--textures PID --swp SPZ), opened by assimp (Debian assimp-utils; that
# part skipped, saying so, when absent) with every map_Kd file present, and
# all files or none; relic set F P "$(relic get F P)" on every text field
# of every corpus .bic, every locstring language through --id. Real files:
# ../shared/corpus (skipped, saying so, when absent). Samples: made here by
# tests/samples/make_format_samples.sh. Prints "N passed, M failed". Env: RELIC.
RELIC=${RELIC:-build/relic}
C=${CORPUS:-../shared/corpus}
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
# bytes 24-25 of a PNG: bit depth and colour type (0 grey, 6 RGBA)
png_kind() { od -An -tu1 -j24 -N2 "$1" | tr -s ' ' | sed 's/^ //'; }

RELIC="$RELIC" sh tests/samples/make_format_samples.sh "$tmp/s" >"$tmp/samples.log" 2>&1 || { cat "$tmp/samples.log"; bad "make the samples"; }

# ---- heightmaps: exact, grey relief, colour preview ----
expect_rc 0 "WTD -> 16-bit heightmap" "$RELIC" convert "$tmp/s/terrain.wtd" "$tmp/h.png"
if [ "$(png_kind "$tmp/h.png")" = "16 0" ]; then ok; else bad "heightmap PNG kind $(png_kind "$tmp/h.png")"; fi
expect_rc 0 "WTD -> grey relief" "$RELIC" convert "$tmp/s/terrain.wtd" "$tmp/r.png" --relief
if [ "$(png_kind "$tmp/r.png")" = "8 0" ]; then ok; else bad "relief PNG kind $(png_kind "$tmp/r.png")"; fi
expect_rc 0 "WTD -> colour preview" "$RELIC" convert "$tmp/s/terrain.wtd" "$tmp/p.png" --preview
if [ "$(png_kind "$tmp/p.png")" = "8 2" ]; then ok; else bad "preview PNG kind $(png_kind "$tmp/p.png")"; fi
expect_grep "preview" "convert --help names --preview" "$RELIC" convert --help
expect_rc 1 "a TRN without terrain has no preview" "$RELIC" convert "$tmp/s/area.trn" "$tmp/a.png" --preview
expect_grep "no TRRN packet" "the TRN preview says why" cat "$tmp/err"
expect_rc 1 "--max-grid of a TRN preview must be a number" "$RELIC" convert "$tmp/s/area.trn" "$tmp/a.png" --max-grid x
expect_grep "does not apply" "--preview on a conversion without a heightmap is reported" "$RELIC" convert "$tmp/s/room.wok" "$tmp/w.svg" --preview

# ---- the NWN2 walkmesh SVG ----
trx=$(ls "$C"/trx/*.[tT][rR][xX] 2>/dev/null | head -1)
if [ -z "$trx" ]; then
    echo "note: $C/trx not found: the walkmesh SVG command test is skipped (tests/test_outputs.c covers the picture)"
else
    expect_rc 0 "TRX -> SVG" "$RELIC" convert "$trx" "$tmp/t.svg"
    for pat in 'class="legend"' 'not walkable: ' 'class="scale-bar"' 'class="tile-labels"' 'tiles of '; do
        expect_grep "$pat" "walkmesh SVG: $pat" cat "$tmp/t.svg"
    done
fi

# ---- the textured level ----
grf=$C/grf/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__demo.grf
if [ ! -f "$grf" ]; then
    echo "note: $grf not found: the textured level tests are skipped"
else
    # a texture directory with five of the level's textures (the demo ships no public SWP/SPZ):
    # PNGs named by the texture IDs of the level's texture paths, packed by relic
    "$RELIC" convert "$grf" "$tmp/plain.obj" >/dev/null 2>&1 || bad "plain GRF -> OBJ"
    mkdir -p "$tmp/tex" "$tmp/lvl" "$tmp/none"
    grep '^# texture ' "$tmp/plain.mtl" | sed 's/^# texture //' | head -5 >"$tmp/names"
    while IFS= read -r t; do cp "$tmp/p.png" "$tmp/tex/$("$RELIC" hash --texture "$t").png"; done <"$tmp/names"
    expect_rc 0 "pack the level's textures" "$RELIC" pack-textures "$tmp/tex" "$tmp/t.pid" "$tmp/t.spz"
    expect_rc 0 "GRF -> OBJ with textures" "$RELIC" convert "$grf" "$tmp/lvl/level.obj" --textures "$tmp/t.pid" --swp "$tmp/t.spz"
    expect_grep "5 textures as PNG" "the conversion says how many textures it wrote" cat "$tmp/out"
    n=$(grep -c '^map_Kd ' "$tmp/lvl/level.mtl")
    if [ "$n" = 5 ]; then ok; else bad "$n map_Kd lines, expected 5"; fi
    missing=0
    for m in $(sed -n 's/^map_Kd //p' "$tmp/lvl/level.mtl"); do
        [ -f "$tmp/lvl/$m" ] && [ "$(png_kind "$tmp/lvl/$m")" = "8 6" ] || { missing=$((missing + 1)); echo "  missing or not RGBA: $m"; }
    done
    if [ "$missing" = 0 ]; then ok; else bad "$missing map_Kd files missing"; fi
    grep -v '^mtllib ' "$tmp/plain.obj" >"$tmp/a.obj"; grep -v '^mtllib ' "$tmp/lvl/level.obj" >"$tmp/b.obj"
    if cmp -s "$tmp/a.obj" "$tmp/b.obj"; then ok; else bad "the textured OBJ differs from the plain one (only the MTL should)"; fi
    # the same from the uncompressed SWP
    "$RELIC" convert "$tmp/t.spz" "$tmp/t.swp" >/dev/null 2>&1
    expect_rc 0 "GRF -> OBJ with textures from an SWP" "$RELIC" convert "$grf" "$tmp/lvl2.obj" --textures "$tmp/t.pid" --swp "$tmp/t.swp"
    if command -v assimp >/dev/null 2>&1; then
        if (cd "$tmp/lvl" && assimp info level.obj >"$tmp/assimp.log" 2>&1); then ok; else bad "assimp info failed: $(tail -3 "$tmp/assimp.log")"; fi
        expect_grep "Materials: " "assimp reads the materials" cat "$tmp/assimp.log"
        if grep -q "tex.file" "$tmp/assimp.log"; then ok; else bad "assimp sees no texture file"; fi
    else
        echo "note: assimp (Debian assimp-utils) not installed: the assimp import check is skipped"
    fi
    # all files or none: a broken SPZ leaves no OBJ, MTL or PNG behind
    head -c 200 "$tmp/t.spz" >"$tmp/short.spz"
    expect_rc 1 "a cut SPZ fails the conversion" "$RELIC" convert "$grf" "$tmp/none/level.obj" --textures "$tmp/t.pid" --swp "$tmp/short.spz"
    if [ -z "$(ls "$tmp/none")" ]; then ok; else bad "a failed conversion left: $(ls "$tmp/none" | tr '\n' ' ')"; fi
    expect_rc 1 "--textures without --swp" "$RELIC" convert "$grf" "$tmp/none/level.obj" --textures "$tmp/t.pid"
    expect_grep "go together" "--textures without --swp says what is missing" cat "$tmp/err"
fi

# ---- get -> set on the corpus .bic files (cp1252 and UTF-8 text) ----
bics=$(ls "$C"/gff/*.bic 2>/dev/null)
# make test's sanitizer pass (CORPUS_SWEEPS=0) takes the first file: the sweep over all of them
# runs once, in the plain pass (a sanitizer relic costs about 30 ms of CPU a start)
if [ "${CORPUS_SWEEPS:-1}" = 0 ] && [ -n "$bics" ]; then
    echo "note: CORPUS_SWEEPS=0: get -> set on the first of $(echo "$bics" | wc -l) .bic files (make test's plain pass takes all)"
    bics=$(echo "$bics" | head -1)
fi
if [ -z "$bics" ]; then
    echo "note: $C/gff not found: the get -> set tests are skipped"
else
    sets=0; skipped=0
    for f in $bics; do
        cp "$f" "$tmp/x.bic"
        "$RELIC" get "$f" "" | tr ' ' '\n' | grep -E ':(cexostring|cexolocstring)$' >"$tmp/fields"
        while IFS= read -r fl; do
            label=${fl%:*}
            if [ "${fl##*:}" = cexostring ]; then ids=-; else ids=$("$RELIC" get "$f" "$label" | sed -n 's/^\([0-9][0-9]*\): .*/\1/p'); [ -n "$ids" ] || ids=0; fi
            for id in $ids; do
                if [ "$id" = - ]; then set -- ; else set -- --id "$id"; fi
                "$RELIC" get "$tmp/x.bic" "$label" "$@" >"$tmp/v" 2>/dev/null || continue
                value=$(cat "$tmp/v")
                # "$(...)" drops the text's own trailing newlines: not expressible this way
                if [ "$(printf '%s\n' "$value" | wc -c)" != "$(wc -c <"$tmp/v")" ]; then skipped=$((skipped + 1)); continue; fi
                if "$RELIC" set "$tmp/x.bic" "$label" "$value" "$@" >/dev/null 2>"$tmp/err" && cmp -s "$f" "$tmp/x.bic"; then
                    sets=$((sets + 1))
                else
                    bad "set $(basename "$f") $label $* \"\$(get)\": $(head -1 "$tmp/err")"; cp "$f" "$tmp/x.bic"
                fi
            done
        done <"$tmp/fields"
    done
    if [ "$sets" -gt 0 ]; then ok; else bad "no get -> set was tried"; fi
    echo "get -> set unchanged on $sets text fields of $(echo "$bics" | wc -l) .bic files ($skipped ending in a newline, which \"\$(...)\" drops)"
    f=$(echo "$bics" | head -1)
    expect_rc 1 "get --id of a missing language" "$RELIC" get "$C/gff/CromFr__nwn-lib-d__unittest__krogar.bic" FirstName --id 9
    expect_rc 1 "get --id of a field that is no locstring" "$RELIC" get "$C/gff/CromFr__nwn-lib-d__unittest__krogar.bic" Tag --id 0
    expect_rc 2 "get --id without a number" "$RELIC" get "$f" FirstName --id x
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
