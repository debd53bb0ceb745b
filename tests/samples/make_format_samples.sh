#!/bin/sh
# make_format_samples.sh DIR — one small file of every format relic reads,
# made by relic's own writers (no corpus needed), into DIR: BWM
# (tests/samples), GFF IFO/UTC (from JSON), ERF/MOD/RIM and an NWN2 HAK
# (relic pack), TRN (from JSON: one TRWH packet), GROFF: a scene with one
# hierarchy section and an empty level (from JSON), and their SZDD forms
# (.sc_ .gr_), TRR (text), WTD (relic convert from the TRR), TRI (from the
# WTD), PID + SWP (relic pack-textures from the WTD's heightmap PNG), SPZ,
# TPM (from tests/samples/room.obj), CAU and TPA (relic convert and relic
# pack-sounds from a 16-bit WAV written here). Reproducible: the same
# relic gives the same bytes. Used by tests/mutate_formats.sh and `make
# fuzz-seeds`. Environment: RELIC (the binary). Exit status 1 when a
# sample could not be made (the failures are printed).
# FORMAT_SAMPLES, FORMAT_SAMPLES_RELIC: a directory this script filled with
# the relic named by the second (tests/run_all.sh makes it once per pass,
# before the tests; nine shell tests call this script). For that same relic
# the samples are copied from there: the same bytes, as the writers are
# reproducible, for one process instead of thirty (1.0 CPU s each time
# with a sanitizer build's relic).
RELIC=${RELIC:-build/relic}
S=$1
[ -n "$S" ] || { echo "usage: make_format_samples.sh DIR" >&2; exit 2; }
mkdir -p "$S" || exit 1
if [ -n "$FORMAT_SAMPLES" ] && [ "$FORMAT_SAMPLES_RELIC" = "$RELIC" ] && [ -d "$FORMAT_SAMPLES" ]; then
    cp -R "$FORMAT_SAMPLES/." "$S/" && exit 0
    echo "make_format_samples.sh: copying $FORMAT_SAMPLES failed: making the samples" >&2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
bad() { status=1; echo "FAIL: $*"; }

cp tests/samples/room.wok tests/samples/crate.pwk tests/samples/door0.dwk "$S"/
cat >"$tmp/m.json" <<'JSON'
{"__data_type":"IFO ","Mod_Name":{"type":"cexolocstring","value":{"0":"Mutants"}},"Mod_XPScale":{"type":"byte","value":10},"Tile_List":{"type":"list","value":[{"__struct_id":1,"Tile_ID":{"type":"int","value":7}},{"__struct_id":1,"Tile_ID":{"type":"int","value":-3}}]}}
JSON
"$RELIC" convert "$tmp/m.json" "$S/module.ifo" >/dev/null 2>&1 || bad "make module.ifo"
printf '{"__data_type":"UTC ","FirstName":{"type":"cexolocstring","value":{"0":"Dog"}},"Str":{"type":"byte","value":12},"Tag":{"type":"cexostring","value":"DOG"}}\n' >"$tmp/c.json"
"$RELIC" convert "$tmp/c.json" "$S/dog.utc" >/dev/null 2>&1 || bad "make dog.utc"
mkdir -p "$tmp/pack"
cp "$S/module.ifo" "$S/dog.utc" "$tmp/pack"/
printf 'void main() {}\n' >"$tmp/pack/script.nss"
for c in mod erf rim; do
    env SOURCE_DATE_EPOCH=0 "$RELIC" pack "$tmp/pack" "$S/pack.$c" >/dev/null 2>&1 || bad "make pack.$c"
done
env SOURCE_DATE_EPOCH=0 "$RELIC" pack "$tmp/pack" "$S/pack2.hak" --nwn2 >/dev/null 2>&1 || bad "make pack2.hak"
cat >"$tmp/t.json" <<'JSON'
{"format":"trn","header":{"magic":"NWN2","version_major":2,"version_minor":3,"packet_count":1},"directory":[{"type":"trwh","offset":20}],"packets":[{"type":"trwh","size":12,"trwh":{"width":2,"height":4,"id":7}}]}
JSON
"$RELIC" convert "$tmp/t.json" "$S/area.trn" >/dev/null 2>&1 || bad "make area.trn"
# a scene with one hierarchy section (node 1, no parent) and an empty level
cat >"$tmp/g.json" <<'JSON'
{"format":"groff","header":{"magic":181320382,"file_size":110,"section_count":1,"symbol_count":1,"symbol_table_size":22,"symbol_table_offset":88,"timestamp":0,"flags":12,"version":10,"reserved":[0,0],"header_crc":0},
"sections":[{"name":1000,"flags":0,"data_offset":80,"data_size":8,"relocation_offset":0,"relocation_count":0,"content":2147483648,"handle":2147483648}],
"data":"0100000000000000",
"symbols":[{"handle":1000,"name_length":10,"reference_count":1,"name":"Hierarchy\u0000"}]}
JSON
"$RELIC" convert "$tmp/g.json" "$S/scene.scn" >/dev/null 2>&1 || bad "make scene.scn"
"$RELIC" convert "$S/scene.scn" "$S/scene.sc_" >/dev/null 2>&1 || bad "make scene.sc_"
printf '%s\n' '{"format":"groff","header":{"magic":181320382,"file_size":48,"section_count":0,"symbol_count":0,"symbol_table_size":0,"symbol_table_offset":48,"timestamp":0,"flags":12,"version":10,"reserved":[0,0],"header_crc":0},"sections":[],"data":"","symbols":[]}' >"$tmp/e.json"
"$RELIC" convert "$tmp/e.json" "$S/empty.grf" >/dev/null 2>&1 || bad "make empty.grf"
"$RELIC" convert "$S/empty.grf" "$S/empty.gr_" >/dev/null 2>&1 || bad "make empty.gr_"
printf '0 0 1\n1 0 2\n0 1 3\n1 1 4.5\n2.5 -1 0.125\n3 3 -2\n' >"$S/points.trr"
"$RELIC" convert "$S/points.trr" "$S/terrain.wtd" >/dev/null 2>&1 || bad "make terrain.wtd"
"$RELIC" convert "$S/terrain.wtd" "$S/terrain.tri" >/dev/null 2>&1 || bad "make terrain.tri"
mkdir -p "$tmp/tex"
"$RELIC" convert "$S/terrain.wtd" "$tmp/tex/1.png" >/dev/null 2>&1 || bad "make a PNG"
"$RELIC" pack-textures "$tmp/tex" "$S/level.pid" "$S/level.swp" >/dev/null 2>&1 || bad "make level.pid/swp"
"$RELIC" convert "$S/level.swp" "$S/level.spz" >/dev/null 2>&1 || bad "make level.spz"
"$RELIC" convert tests/samples/room.obj "$S/room.tpm" >/dev/null 2>&1 || bad "make room.tpm"
# a 16-bit mono WAV: RIFF header and 400 frames of a square wave
le32() { printf "\\$(printf %03o $(($1 & 255)))\\$(printf %03o $((($1 >> 8) & 255)))\\$(printf %03o $((($1 >> 16) & 255)))\\$(printf %03o $((($1 >> 24) & 255)))"; }
{
    printf 'RIFF'; le32 836; printf 'WAVEfmt '; le32 16; printf '\001\000\001\000'; le32 22050; le32 44100
    printf '\002\000\020\000data'; le32 800
    i=0; while [ $i -lt 200 ]; do printf '\000\020\000\360'; i=$((i + 1)); done
} >"$tmp/tone.wav"
"$RELIC" convert "$tmp/tone.wav" "$S/tone.cau" >/dev/null 2>&1 || bad "make tone.cau"
mkdir -p "$tmp/snd"
cp "$tmp/tone.wav" "$tmp/snd/0000BEEF.wav"
"$RELIC" pack-sounds "$tmp/snd" "$S/bank.tpa" >/dev/null 2>&1 || bad "make bank.tpa"

exit $status
