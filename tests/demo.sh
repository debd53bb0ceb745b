#!/bin/sh
# demo.sh — relic's main job on every format it reads: for every sample
# relic makes (tests/samples/make_format_samples.sh: one small file of each
# format, made by relic's own writers) and, when ../shared/corpus exists,
# every real file there: `info` and `check`, a JSON round trip (binary ->
# JSON -> binary, compared byte for byte; a binary re-write where a format
# has no JSON way back), and the format's picture or export into out/: SVG
# walkmeshes, PNG heightmaps (colour preview) and textures, WAV sounds, OBJ
# meshes and levels. Then a table per format (files, ok, byte-exact round
# trips, outputs written) and three pictures worth opening.
#
# usage: sh tests/demo.sh [RELIC] [--samples-only]
# Env: OUT (default out), CORPUS (default ../shared/corpus), DEMO_FULL=1 also
# decodes the demo's 8192 x 8192 pv.wtd into a colour preview (about 30 s and
# 256 MiB; skipped by default, saying so). Exit status 1 when a made sample
# fails its check or round trip (real files may be broken on purpose: the
# corpus holds a deliberately corrupted GFF, and a BIF cut after its tables).
RELIC=build/relic
samples_only=0
for a in "$@"; do
    case "$a" in --samples-only) samples_only=1 ;; *) RELIC=$a ;; esac
done
OUT=${OUT:-out}
CORPUS=${CORPUS:-../shared/corpus}
[ -x "$RELIC" ] || { echo "demo: $RELIC not found (make all)" >&2; exit 2; }
rm -rf "$OUT"
mkdir -p "$OUT" || exit 2
rows=$OUT/.demo-rows   # one line per file: source format ok exact outputs
log=$OUT/demo.log      # what failed, with relic's message
: >"$rows"; : >"$log"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the format a file is, by extension (what relic's detection also uses after the magic)
format_of() {
    ext=$(printf '%s' "${1##*.}" | tr 'A-Z' 'a-z')
    case "$ext" in
    wok|pwk|dwk) echo bwm ;; trn|trx) echo trn ;; wtd) echo wtd ;; pid) echo pid ;; swp|spz) echo swp ;;
    cau) echo cau ;; tpa) echo tpa ;; grf|scn|gr_|sc_) echo groff ;; tpm) echo tpm ;; tri) echo tri ;; trr) echo trr ;;
    mod|erf|hak|sav|nwm|rim) echo erf ;; key) echo key ;; bif) echo bif ;; tlk) echo tlk ;;
    json|obj|png|wav|svg|sh|c|md|txt) echo - ;;
    *) echo gff ;;
    esac
}

# run: a relic command whose failure is logged, not fatal; a file with
# nothing to draw (a TRN without a walkmesh or terrain, a GROFF that is no level) is no failure
run() {
    if "$RELIC" "$@" >"$tmp/out" 2>&1; then return 0; fi
    grep -qE 'no ASWM walkmesh packet|no .region section|no TRRN packet' "$tmp/out" && return 1
    { echo "relic $*"; sed 's/^/    /' "$tmp/out" | head -3; } >>"$log"
    return 1
}

# one file: info, check, round trip, exports into $dir
one() { # source path
    src=$1; f=$2
    fmt=$(format_of "$f")
    [ "$fmt" = - ] && return
    b=$(basename "$f"); n=${b%.*}; e=${b##*.}
    dir=$OUT/$src/$fmt
    mkdir -p "$dir"
    before=$(find "$dir" -type f | wc -l)
    ok=0; exact=-
    if run info "$f" && run check -q "$f"; then ok=1; fi
    # the round trip: through JSON where the format comes back from it, else a re-write
    case "$fmt" in
    bwm|trn|gff|groff|pid|cau|tpa)
        exact=0
        if run convert "$f" "$dir/$b.json" && run convert "$dir/$b.json" "$tmp/back.$e"; then
            if cmp -s "$f" "$tmp/back.$e"; then exact=1; else echo "round trip differs: $f" >>"$log"; fi
        fi ;;
    erf)
        exact=0
        run convert "$f" "$dir/$b.json"
        if run convert "$f" "$tmp/back.$e" && cmp -s "$f" "$tmp/back.$e"; then exact=1; fi ;;
    esac
    # the picture or export
    case "$fmt" in
    bwm) run convert "$f" "$dir/$n.svg"; run convert "$f" "$dir/$n.obj" ;;
    trn) run convert "$f" "$dir/$n.svg"; run convert "$f" "$dir/$n.obj"; run convert "$f" "$dir/$n.terrain.preview.png" ;;
    wtd)
        # a grid over the default limit (the demo's 8192 x 8192 pv.wtd) is refused, not broken: no log line
        if "$RELIC" convert "$f" "$dir/$n.preview.png" --preview >/dev/null 2>&1; then run convert "$f" "$dir/$n.png"
        elif [ "${DEMO_FULL:-0}" = 1 ]; then run convert "$f" "$dir/$n.preview.png" --preview --max-grid 8192
        else echo "note: $b is larger than the default grid limit: its preview is made with DEMO_FULL=1 (about 30 s)"
        fi ;;
    cau) run convert "$f" "$dir/$n.wav" ;;
    tpa) run extract "$f" -C "$dir/$n" ;;
    pid)
        # textures need the swap file beside the directory (same name, .swp or .spz)
        for s in "${f%.*}.swp" "${f%.*}.spz"; do
            if [ -f "$s" ]; then run extract "$f" --swp "$s" -C "$dir/$n"; break; fi
        done ;;
    groff) case "$e" in grf|GRF) run convert "$f" "$dir/$n.obj" ;; esac ;;
    tpm|tri) run convert "$f" "$dir/$n.obj" ;;
    trr) run convert "$f" "$tmp/$n.wtd" && run convert "$tmp/$n.wtd" "$dir/$n.preview.png" --preview ;;
    esac
    after=$(find "$dir" -type f | wc -l)
    echo "$src $fmt $ok $exact $((after - before))" >>"$rows"
}

echo "== samples relic makes (tests/samples/make_format_samples.sh)"
RELIC="$RELIC" sh tests/samples/make_format_samples.sh "$tmp/samples" >"$tmp/samples.log" 2>&1 || { cat "$tmp/samples.log"; exit 1; }
cp tests/samples/room.obj "$tmp/samples/"
# a terrain worth a look: hills and a hollow on a 256 m square, from a TRR point grid
awk 'BEGIN { for (y = 0; y < 256; y++) for (x = 0; x < 256; x++)
    printf "%d %d %.2f\n", x, y, 30 * sin(x / 36.0) * cos(y / 44.0) + 45 * exp(-((x - 160) ^ 2 + (y - 88) ^ 2) / 1900.0) \
        - 20 * exp(-((x - 56) ^ 2 + (y - 184) ^ 2) / 1400.0) }' >"$tmp/hills.trr"
run convert "$tmp/hills.trr" "$tmp/samples/hills.wtd"
for f in "$tmp/samples"/*; do one samples "$f"; done
# a walkmesh built from an OBJ, as a modder makes one
run convert tests/samples/room.obj "$OUT/samples/bwm/room_from_obj.wok" && run check --strict "$OUT/samples/bwm/room_from_obj.wok"
if [ "$samples_only" = 0 ] && [ -d "$CORPUS" ]; then
    echo "== real files ($CORPUS)"
    for f in "$CORPUS"/*/*; do [ -f "$f" ] && one corpus "$f"; done
elif [ "$samples_only" = 0 ]; then
    echo "note: $CORPUS not found: only the samples were processed"
fi

# the table: one row per source and format
awk '
{ k = $1 " " $2; if (!(k in files)) order[++n] = k; files[k]++; ok[k] += $3; out[k] += $5
  if ($4 == "-") na[k] = 1; else { rt[k] += $4; tried[k]++ } }
END {
  printf "%-8s %-6s %6s %6s %12s %8s\n", "source", "format", "files", "ok", "round trips", "outputs"
  for (i = 1; i <= n; i++) { k = order[i]; split(k, p, " ")
    r = tried[k] ? sprintf("%d/%d", rt[k], tried[k]) : "-"
    printf "%-8s %-6s %6d %6d %12s %8d\n", p[1], p[2], files[k], ok[k], r, out[k]
    F += files[k]; O += ok[k]; R += rt[k]; T += tried[k]; W += out[k] }
  printf "%-8s %-6s %6d %6d %12s %8d\n", "all", "", F, O, R "/" T, W
}' "$rows"
echo "(round trips: binary -> JSON -> binary byte for byte; ERF/MOD/RIM: re-written; '-': no way back from JSON)"
problems=$(grep -c '^relic ' "$log")
[ "$problems" = 0 ] || echo "$problems commands failed: see $log (real files include broken ones on purpose)"

# three pictures worth opening: the largest KotOR and NWN2 walkmesh pictures, and a terrain preview
largest() { find "$OUT" -path "$1" -type f -exec ls -S {} + 2>/dev/null | head -1; }
echo "pictures worth opening:"
for p in "$(largest '*/bwm/*.svg')" "$(largest '*/trn/*.svg')" "$(largest '*.preview.png')"; do
    [ -n "$p" ] && echo "  $p"
done
echo "outputs: $(find "$OUT" -type f ! -name '.demo-rows' ! -name demo.log | wc -l) files in $OUT/"
# the samples are relic's own: each must check and come back exact
awk '$1 == "samples" && ($3 != 1 || $4 == "0") { bad = 1; print "demo: sample problem: " $0 > "/dev/stderr" } END { exit bad }' "$rows"
