#!/bin/sh
# errors_cli_test.sh — every `relic` command that reads a file, fed a
# malformed file of a format it accepts, prints its error as the one line
# of the command (FILE: field @0xOFFSET: message): the line names the file
# and carries an @0x byte offset, and the exit status is non-zero. The line
# is on standard output for check and info, on standard error (and not on
# standard output) for every other command. The
# malformed files are relic's own samples (tests/samples/make_format_samples.sh)
# truncated or with a count corrupted, made here, and real KEY, BIF and TLK
# files truncated (when ../shared/corpus is here). The --json forms of info
# and check report problems as JSON objects carrying the file and an offset.
# Environment: RELIC (the binary).
RELIC=${RELIC:-build/relic}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
S=$tmp/s
B=$tmp/bad
mkdir -p "$B"
if ! RELIC=$RELIC sh tests/samples/make_format_samples.sh "$S" >"$tmp/make.log" 2>&1; then
    cat "$tmp/make.log"
    echo "0 passed, 1 failed"
    exit 1
fi

# truncate IN OUT BYTES: the first BYTES bytes of IN
truncate_to() { head -c "$3" "$1" >"$2"; }
# poke FILE OFFSET: four 0xFF bytes over FILE at OFFSET (a count or offset
# far past the end of the file)
poke() { printf '\377\377\377\377' | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }

# error_line LINE: LINE matches the ERE "^[^ ]*: ([^ ]+ )?@0x[0-9a-f]+: "
# (FILE: @0xN: ... or FILE: field @0xN: ...), told with shell builtins: the
# check runs 136 times in each pass, and three grep processes a check were a
# tenth of this test's CPU time
at_offset() { # "@0x", lower-case hex digits, ": "
    case $1 in @0x*) ;; *) return 1 ;; esac
    set -- "${1#@0x}"
    [ "${1%%": "*}" != "$1" ] || return 1
    case ${1%%": "*} in "" | *[!0-9a-f]*) return 1 ;; esac
}
error_line() {
    head=${1%%" "*}
    [ "$head" != "$1" ] || return 1
    case $head in *:) ;; *) return 1 ;; esac
    rest=${1#*" "}
    at_offset "$rest" && return 0
    [ "${rest%%" "*}" != "$rest" ] && [ -n "${rest%%" "*}" ] && at_offset "${rest#*" "}"
}

# expect NAME FILE CMD...: CMD fails (exit status not 0) and prints a line
# that starts with FILE and carries an @0x offset (FILE: ... @0xN: ...): on
# standard output for check and info (the lines are their report), on
# standard error for every other command, whose standard output must carry
# no such line (it may be the output itself: `relic convert x - --to json`)
expect() {
    name=$1 file=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    case $2 in check | info) want=out other=err ;; *) want=err other=out ;; esac
    if [ $rc -eq 0 ]; then
        fail=$((fail + 1)); echo "FAIL: $name: exit status 0"; cat "$tmp/out" "$tmp/err" | sed 's/^/    /'; return
    fi
    # a sanitizer report anywhere, and a line naming FILE with its offset in each stream
    crashed=0 named_out=0 named_err=0
    for stream in out err; do
        while IFS= read -r line || [ -n "$line" ]; do
            case $line in *Sanitizer* | *"runtime error:"*) crashed=1 ;; esac
            case $line in *"$file"*) error_line "$line" && eval "named_$stream=1" ;; esac
        done <"$tmp/$stream"
    done
    eval "named=\$named_$want leaked=\$named_$other"
    [ $want = out ] && leaked=0 # check and info may say more on standard error
    if [ $rc -gt 2 ] || [ $crashed = 1 ]; then
        fail=$((fail + 1)); echo "FAIL: $name: exit status $rc (a crash?)"; cat "$tmp/out" "$tmp/err" | sed 's/^/    /'; return
    fi
    if [ $named = 1 ] && [ $leaked = 0 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $name: no 'FILE: field @0xOFFSET: message' line naming $file on standard $(echo $want | sed 's/out/output/;s/err/error/')$([ $leaked = 1 ] && echo ', and one on standard output')"
        cat "$tmp/out" "$tmp/err" | sed 's/^/    /'
    fi
}

# the malformed inputs: each format's sample truncated past its header
truncate_to "$S/room.wok" "$B/room.wok" 100
truncate_to "$S/module.ifo" "$B/module.ifo" 60
truncate_to "$S/dog.utc" "$B/dog.utc" 60
truncate_to "$S/pack.mod" "$B/pack.mod" 100
truncate_to "$S/pack.rim" "$B/pack.rim" 100
truncate_to "$S/area.trn" "$B/area.trn" 20
truncate_to "$S/scene.scn" "$B/scene.scn" 40
truncate_to "$S/empty.grf" "$B/empty.grf" 40
truncate_to "$S/terrain.wtd" "$B/terrain.wtd" 30
truncate_to "$S/level.pid" "$B/level.pid" 30
truncate_to "$S/level.spz" "$B/level.spz" 3
truncate_to "$S/tone.cau" "$B/tone.cau" 30
truncate_to "$S/bank.tpa" "$B/bank.tpa" 40
cp "$S/scene.sc_" "$B/scene.sc_"; poke "$B/scene.sc_" 10
cp "$S/points.trr" "$B/points.trr"; printf '1 2 x\n' >>"$B/points.trr"
printf '2 3\n0 0 0\n1 0 0\n0 1 0\n0 1 2\n' >"$B/terrain.tri"
printf 'mesh "a" {\n  v = (1,2\n' >"$B/room.tpm"
printf 'v 0 0 0\nv 1 0 0\nf 1 2 9\n' >"$B/room.obj"
printf '{"__data_type":"UTC ","Str":{"type":"byte","value":' >"$B/dog.json"
# a WAV whose fmt chunk claims more bytes than the file holds
printf 'RIFF\044\000\000\000WAVEfmt \377\000\000\000\001\000' >"$B/tone.wav"

# check, info, dump and convert on every format
for f in room.wok module.ifo dog.utc pack.mod pack.rim area.trn scene.scn scene.sc_ empty.grf terrain.wtd \
         level.pid level.spz tone.cau bank.tpa points.trr terrain.tri room.tpm; do
    expect "check $f" "$B/$f" "$RELIC" check "$B/$f"
    expect "check --strict $f" "$B/$f" "$RELIC" check --strict "$B/$f"
    expect "info $f" "$B/$f" "$RELIC" info "$B/$f"
    expect "dump $f" "$B/$f" "$RELIC" dump "$B/$f" -o "$tmp/out.json"
done
for f in room.wok module.ifo pack.mod area.trn scene.scn terrain.wtd level.pid tone.cau bank.tpa points.trr terrain.tri room.tpm; do
    ext=${f##*.}
    expect "convert $f -> json" "$B/$f" "$RELIC" convert "$B/$f" "$tmp/out.json"
    expect "convert $f -> $ext" "$B/$f" "$RELIC" convert "$B/$f" "$tmp/out.$ext"
done
expect "convert room.wok -> obj" "$B/room.wok" "$RELIC" convert "$B/room.wok" "$tmp/out.obj"
expect "convert terrain.wtd -> png" "$B/terrain.wtd" "$RELIC" convert "$B/terrain.wtd" "$tmp/out.png"
expect "convert tone.cau -> wav" "$B/tone.cau" "$RELIC" convert "$B/tone.cau" "$tmp/out.wav"
expect "convert level.spz -> swp" "$B/level.spz" "$RELIC" convert "$B/level.spz" "$tmp/out.swp"
expect "convert dog.json -> utc" "$B/dog.json" "$RELIC" convert "$B/dog.json" "$tmp/out.utc"
expect "convert room.obj -> wok" "$B/room.obj" "$RELIC" convert "$B/room.obj" "$tmp/out.wok"
expect "convert tone.wav -> cau" "$B/tone.wav" "$RELIC" convert "$B/tone.wav" "$tmp/out.cau"
expect "encode tone.wav" "$B/tone.wav" "$RELIC" encode "$B/tone.wav" "$tmp/out.cau"

# the commands on one kind of file
expect "ls pack.mod" "$B/pack.mod" "$RELIC" ls "$B/pack.mod"
expect "extract pack.mod" "$B/pack.mod" "$RELIC" extract "$B/pack.mod" -C "$tmp/x1"
expect "extract bank.tpa" "$B/bank.tpa" "$RELIC" extract "$B/bank.tpa" -C "$tmp/x2"
expect "extract tone.cau" "$B/tone.cau" "$RELIC" extract "$B/tone.cau" -C "$tmp/x3"
expect "extract level.pid --swp" "$B/level.pid" "$RELIC" extract "$B/level.pid" --swp "$S/level.swp" -C "$tmp/x4"
expect "get module.ifo" "$B/module.ifo" "$RELIC" get "$B/module.ifo" Mod_Name
expect "set module.ifo" "$B/module.ifo" "$RELIC" set "$B/module.ifo" Mod_XPScale 5
expect "diff module.ifo" "$B/module.ifo" "$RELIC" diff "$B/module.ifo" "$S/module.ifo"
expect "bake area.trn" "$B/area.trn" "$RELIC" bake "$B/area.trn" "$tmp/out.trx"
expect "path area.trn" "$B/area.trn" "$RELIC" path "$B/area.trn" 0 0 1 1
expect "foley bank.tpa" "$B/bank.tpa" "$RELIC" foley "$B/bank.tpa" --velocity 1
expect "hash --names scene.scn" "$B/scene.scn" "$RELIC" hash --names "$B/scene.scn"
expect "mutate room.wok" "$B/room.wok" "$RELIC" mutate "$B/room.wok" -n 1 -o "$tmp/m"
# mutate names where the validator stopped, not only that it refused
if grep -q "room.wok: header @0x0: header needs 136 bytes" "$tmp/err"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: mutate room.wok: no validator error line"; cat "$tmp/out" "$tmp/err" | sed 's/^/    /'; fi

# the --json, -r and --to forms: problems as JSON carry the file and an
# offset; errors outside a JSON document are the one line
expect_json() {
    name=$1 file=$2
    shift 2
    "$@" >"$tmp/out" 2>&1
    rc=$?
    if [ $rc -eq 0 ] || [ $rc -gt 2 ] || grep -q "Sanitizer\|runtime error:" "$tmp/out"; then
        fail=$((fail + 1)); echo "FAIL: $name: exit status $rc"; sed 's/^/    /' "$tmp/out"; return
    fi
    if grep -F "\"file\": \"$file\"" "$tmp/out" | grep -Eq '"offset": [0-9]+'; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL: $name: no JSON problem with the file and an offset"; sed 's/^/    /' "$tmp/out"; fi
}
expect_json "info --json room.wok" "$B/room.wok" "$RELIC" info --json "$B/room.wok"
expect_json "check --json room.wok" "$B/room.wok" "$RELIC" check --json "$B/room.wok"
expect "ls --json pack.mod" "$B/pack.mod" "$RELIC" ls --json "$B/pack.mod"
expect "info -r pack.mod" "$B/pack.mod" "$RELIC" info -r "$B/pack.mod"
expect "check -r pack.mod" "$B/pack.mod" "$RELIC" check -r "$B/pack.mod"
expect "diff --json module.ifo" "$B/module.ifo" "$RELIC" diff --json "$B/module.ifo" "$S/module.ifo"
expect "path --json area.trn" "$B/area.trn" "$RELIC" path --json "$B/area.trn" 0 0 1 1
expect "hash --json --names scene.scn" "$B/scene.scn" "$RELIC" hash --json --names "$B/scene.scn"
expect "dump --to json room.wok" "$B/room.wok" "$RELIC" dump "$B/room.wok" --to json

# KEY, BIF and TLK (ls, extract, get with a talk table or an install):
# real files truncated, when the corpus is here
C=../shared/corpus
tlk=$(ls "$C"/tlk/*.tlk 2>/dev/null | head -1)
key=$(ls "$C"/key/*.key 2>/dev/null | head -1)
bif=$(ls "$C"/bif/*.bif 2>/dev/null | head -1)
if [ -n "$tlk" ] && [ -n "$key" ] && [ -n "$bif" ]; then
    truncate_to "$tlk" "$B/dialog.tlk" 30
    truncate_to "$key" "$B/chitin.key" 30
    truncate_to "$bif" "$B/data.bif" 10
    mkdir -p "$tmp/install"
    cp "$B/chitin.key" "$tmp/install/chitin.key"
    for f in dialog.tlk chitin.key data.bif; do
        expect "ls $f" "$B/$f" "$RELIC" ls "$B/$f"
        expect "ls --json $f" "$B/$f" "$RELIC" ls --json "$B/$f"
    done
    expect "extract chitin.key" "$B/chitin.key" "$RELIC" extract "$B/chitin.key" -C "$tmp/x5"
    expect "get dialog.tlk STRREF" "$B/dialog.tlk" "$RELIC" get "$B/dialog.tlk" 5
    expect "get --tlk dialog.tlk" "$B/dialog.tlk" "$RELIC" get "$S/dog.utc" FirstName --tlk "$B/dialog.tlk"
    expect "get --install (bad chitin.key)" "$tmp/install/chitin.key" "$RELIC" get --install "$tmp/install" module.ifo
else
    echo "note: $C/tlk, key or bif not present: ls, extract and get on KEY, BIF and TLK skipped"
fi

# the pack commands: a malformed file inside the directory they read
mkdir -p "$tmp/pk" "$tmp/ps" "$tmp/pt"
cp "$S/module.ifo" "$tmp/pk/"
printf '{"format":' >"$tmp/pk/.relic-container.json"
expect "pack (bad manifest)" "$tmp/pk/.relic-container.json" "$RELIC" pack "$tmp/pk" "$tmp/out.mod"
cp "$B/tone.wav" "$tmp/ps/0000BEEF.wav"
expect "pack-sounds (bad WAV)" "$tmp/ps/0000BEEF.wav" "$RELIC" pack-sounds "$tmp/ps" "$tmp/out.tpa"
printf '\211PNG\r\n\032\n\000\000' >"$tmp/pt/1.png"
expect "pack-textures (bad PNG)" "$tmp/pt/1.png" "$RELIC" pack-textures "$tmp/pt" "$tmp/out.pid" "$tmp/out.swp"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
