#!/bin/sh
# output_cli_test.sh — where `relic` writes and what it says when it cannot
# (issue 18 items 1-3, 5, 6): a device, FIFO, symlink or standard output is
# written in place and the node stays what it was; a write error names the
# output and the system's reason ("No space left on device", "File too
# large"), never "out of memory", and leaves no temporary file; a multi-file
# output on a full 64 KiB tmpfs (extract, GRF -> OBJ + MTL, pack-textures'
# PID + SWP, pack-sounds) leaves none of its files; a NaN in a walkmesh
# and control bytes or separators in a container member's name are reported
# with their field and byte offset, and never reach the terminal raw, nor
# do a caption's (info) or a GFF label's (diff).
# Root-only parts (mknod, mount) say "skipped" when they cannot run.
# Prints "N passed, M failed". Env: RELIC.
RELIC=${RELIC:-build/relic}
S=tests/samples
tmp=$(mktemp -d)
mnt=
trap '[ -n "$mnt" ] && umount "$mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { # description command... (succeeds)
    what=$1; shift
    if "$@" >/dev/null; then ok; else bad "$what"; fi
}
no_temp_in() { # dir: no ".NAME.XXXXXX" temporary left
    left=$(find "$1" -maxdepth 1 -name '.*.??????' 2>/dev/null)
    [ -z "$left" ] || { echo "  left behind: $left"; return 1; }
}
u32le() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
poke() { # file offset bytes-as-printf-escapes
    printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

"$RELIC" dump $S/room.wok -o "$tmp/want.json" || { echo "cannot dump $S/room.wok"; exit 1; }

# ---- a FIFO with its reader waiting gets the bytes; the FIFO stays ----
mkfifo "$tmp/fifo"
cat "$tmp/fifo" >"$tmp/from_fifo" &
reader=$!
check "dump into a FIFO succeeds" "$RELIC" dump $S/room.wok -o "$tmp/fifo"
wait $reader
check "the FIFO is still a FIFO" test -p "$tmp/fifo"
check "the reader got the JSON" cmp -s "$tmp/from_fifo" "$tmp/want.json"

# ---- a symlink: the target is written through the link, the link stays ----
echo old >"$tmp/target.json"
ln -s target.json "$tmp/link.json"
check "dump through a symlink succeeds" "$RELIC" dump $S/room.wok -o "$tmp/link.json"
check "the link is still a link" test -L "$tmp/link.json"
check "the target got the JSON" cmp -s "$tmp/target.json" "$tmp/want.json"
ln -s dangling.json "$tmp/dangle.json"
check "dump through a dangling symlink succeeds" "$RELIC" dump $S/room.wok -o "$tmp/dangle.json"
check "the dangling link is still a link" test -L "$tmp/dangle.json"
check "its target was created with the JSON" cmp -s "$tmp/dangling.json" "$tmp/want.json"
check "no temporary left beside the links" no_temp_in "$tmp"

# ---- standard output: "-", /dev/stdout ----
"$RELIC" dump $S/room.wok -o - >"$tmp/dash.json" && ok || bad "dump -o -"
check "-o - delivers the JSON" cmp -s "$tmp/dash.json" "$tmp/want.json"
"$RELIC" dump $S/room.wok -o /dev/stdout >"$tmp/stdout.json" && ok || bad "dump -o /dev/stdout"
check "-o /dev/stdout delivers the JSON" cmp -s "$tmp/stdout.json" "$tmp/want.json"
check "/dev/stdout is still a symlink" test -L /dev/stdout
"$RELIC" dump $S/room.wok -o /dev/stdout | cat >"$tmp/pipe.json" && ok || bad "dump -o /dev/stdout into a pipe"
check "a pipe behind /dev/stdout gets the JSON" cmp -s "$tmp/pipe.json" "$tmp/want.json"

# ---- a character device: written in place, never replaced ----
if [ "$(id -u)" = 0 ] && mknod "$tmp/null" c 1 3 2>/dev/null && mknod "$tmp/full" c 1 7 2>/dev/null; then
    check "dump into a device node succeeds" "$RELIC" dump $S/room.wok -o "$tmp/null"
    check "the device node is still a character device" test -c "$tmp/null"
    "$RELIC" dump $S/room.wok -o "$tmp/full" 2>"$tmp/err" && bad "dump into a full device succeeded" || ok
    check "the full device is still a character device" test -c "$tmp/full"
    grep -q "No space left on device" "$tmp/err" && ok || bad "full device error: $(cat "$tmp/err")"
else
    echo "note: not root or no mknod: scratch device nodes skipped (/dev/null and /dev/full used as they are)"
fi
check "dump into /dev/null succeeds" "$RELIC" dump $S/room.wok -o /dev/null
check "/dev/null is still a character device" test -c /dev/null

# ---- write errors name the cause and the output ----
if [ -c /dev/full ]; then
    "$RELIC" dump $S/room.wok >/dev/full 2>"$tmp/err" && bad "dump > /dev/full succeeded" || ok
    grep -q "No space left on device" "$tmp/err" && ok || bad "dump > /dev/full: $(cat "$tmp/err")"
    grep -q "out of memory" "$tmp/err" && bad "dump > /dev/full blames memory" || ok
    "$RELIC" dump $S/room.wok -o /dev/full 2>"$tmp/err" && bad "dump -o /dev/full succeeded" || ok
    grep -q "/dev/full.*No space left on device" "$tmp/err" && ok || bad "dump -o /dev/full: $(cat "$tmp/err")"
    check "/dev/full is still a character device" test -c /dev/full
    # a GFF (its printer used to say "out of memory printing JSON")
    printf '%s' '{"__data_type":"UTC ","Tag":{"type":"cexostring","value":"T"}}' >"$tmp/c.json"
    "$RELIC" convert "$tmp/c.json" "$tmp/c.utc" >/dev/null 2>&1
    "$RELIC" dump "$tmp/c.utc" >/dev/full 2>"$tmp/err" && bad "GFF dump > /dev/full succeeded" || ok
    grep -q "No space left on device" "$tmp/err" && ok || bad "GFF dump > /dev/full: $(cat "$tmp/err")"
    grep -q "out of memory" "$tmp/err" && bad "GFF dump > /dev/full blames memory: $(cat "$tmp/err")" || ok
else
    echo "note: no /dev/full: full-device checks skipped"
fi

# ---- ulimit -f: a clean EFBIG error, no temporary file ----
mkdir "$tmp/small"
(ulimit -f 1; exec "$RELIC" dump $S/room.wok -o "$tmp/small/out.json") 2>"$tmp/err"
rc=$?
[ "$rc" = 1 ] && ok || bad "under ulimit -f: exit $rc, expected 1 (no signal): $(cat "$tmp/err")"
grep -q "out.json.*File too large" "$tmp/err" && ok || bad "under ulimit -f: $(cat "$tmp/err")"
check "under ulimit -f no temporary is left" no_temp_in "$tmp/small"
check "under ulimit -f no output is left" test ! -e "$tmp/small/out.json"

# ---- a multi-file output on a full filesystem leaves none of its files ----
mkdir "$tmp/pack" "$tmp/mnt"
head -c 40000 /dev/urandom >"$tmp/pack/aaa.txt"
head -c 40000 /dev/urandom >"$tmp/pack/bbb.txt"
"$RELIC" pack "$tmp/pack" "$tmp/two.erf" >/dev/null 2>&1
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$tmp/mnt" 2>/dev/null; then
    mnt="$tmp/mnt"
    "$RELIC" extract "$tmp/two.erf" -C "$mnt/x" >/dev/null 2>"$tmp/err" && bad "extract onto a full tmpfs succeeded" || ok
    grep -q "No space left on device" "$tmp/err" && ok || bad "extract onto a full tmpfs: $(cat "$tmp/err")"
    check "a failed extract leaves no member" test -z "$(ls -A "$mnt/x" 2>/dev/null)"
    grf=$(ls ../shared/corpus/grf/*.grf 2>/dev/null | head -1)
    if [ -n "$grf" ]; then
        "$RELIC" convert "$grf" "$mnt/level.obj" >/dev/null 2>"$tmp/err" && bad "GRF -> OBJ onto a full tmpfs succeeded" || ok
        grep -q "level.*No space left on device" "$tmp/err" && ok || bad "GRF -> OBJ onto a full tmpfs: $(cat "$tmp/err")"
        check "a failed GRF -> OBJ leaves neither OBJ nor MTL" test -z "$(ls -A "$mnt" | grep -v '^x$')"
    else
        echo "note: ../shared/corpus/grf not found: GRF -> OBJ + MTL on a full tmpfs skipped"
    fi
    # a texture directory and its swap file (PID + SWP): both or neither; a sound bank: all or nothing
    if RELIC=$RELIC sh tests/samples/make_format_samples.sh "$tmp/fs" >/dev/null 2>&1 &&
        "$RELIC" extract "$tmp/fs/level.pid" --swp "$tmp/fs/level.swp" -C "$tmp/tex" >/dev/null 2>&1 &&
        "$RELIC" extract "$tmp/fs/bank.tpa" -C "$tmp/bank" >/dev/null 2>&1; then
        "$RELIC" pack-textures "$tmp/tex" "$mnt/t.pid" "$mnt/t.swp" >/dev/null 2>"$tmp/err" && bad "pack-textures onto a full tmpfs succeeded" || ok
        grep -q "t.swp.*No space left on device" "$tmp/err" && ok || bad "pack-textures onto a full tmpfs: $(cat "$tmp/err")"
        check "a failed pack-textures leaves neither PID nor SWP" test -z "$(ls -A "$mnt" | grep -v '^x$')"
        wav=$(ls "$tmp/bank"/*.wav | head -1)   # the sample's WAV, grown past the 64 KiB (same format, more frames)
        head -c 44 "$wav" >"$tmp/big.wav"; head -c 200000 /dev/urandom >>"$tmp/big.wav"
        printf '\100\015\003\000' | dd of="$tmp/big.wav" bs=1 seek=40 conv=notrunc 2>/dev/null   # data size 200000
        printf '\144\015\003\000' | dd of="$tmp/big.wav" bs=1 seek=4 conv=notrunc 2>/dev/null    # RIFF size 200036
        mv "$tmp/big.wav" "$wav"
        "$RELIC" pack-sounds "$tmp/bank" "$mnt/b.tpa" >/dev/null 2>"$tmp/err" && bad "pack-sounds onto a full tmpfs succeeded" || ok
        grep -q "b.tpa.*No space left on device" "$tmp/err" && ok || bad "pack-sounds onto a full tmpfs: $(cat "$tmp/err")"
        check "a failed pack-sounds leaves no bank" test -z "$(ls -A "$mnt" | grep -v '^x$')"
        "$RELIC" pack-sounds "$tmp/bank" "$tmp/b.tpa" >/dev/null 2>"$tmp/err" && ok || bad "pack-sounds of the grown WAV off the tmpfs: $(cat "$tmp/err")"
    else
        bad "make the PID/SWP and TPA samples"
    fi
    umount "$mnt" && mnt=
else
    echo "note: cannot mount a tmpfs here: full-filesystem multi-file checks skipped"
fi

# ---- non-finite floats in a walkmesh: check says where ----
cp $S/room.wok "$tmp/nan.wok"
voff=$(u32le "$tmp/nan.wok" 76)
poke "$tmp/nan.wok" $((voff + 16)) '\000\000\300\177'   # vertices[1].y = NaN
"$RELIC" check "$tmp/nan.wok" >"$tmp/out" 2>&1 && bad "check accepts a NaN vertex" || ok
grep -q "vertices\[1\] @0x$(printf %x $((voff + 16))): y is NaN" "$tmp/out" && ok || bad "NaN vertex report: $(cat "$tmp/out")"
"$RELIC" check --strict "$tmp/nan.wok" >/dev/null 2>&1 && bad "check --strict accepts a NaN vertex" || ok
cp $S/room.wok "$tmp/inf.wok"
poke "$tmp/inf.wok" $((voff + 8)) '\000\000\200\377'    # vertices[0].z = -infinity
"$RELIC" check "$tmp/inf.wok" >"$tmp/out" 2>&1 && bad "check accepts an infinite vertex" || ok
grep -q "vertices\[0\] @0x$(printf %x $((voff + 8))): z is -infinity" "$tmp/out" && ok || bad "infinite vertex report: $(cat "$tmp/out")"

# ---- member names: control bytes, separators, ".." ----
koff=$(u32le "$tmp/two.erf" 24)
cp "$tmp/two.erf" "$tmp/ctl.erf"
poke "$tmp/ctl.erf" $((koff + 1)) '\n\033[31m'            # "a\n\e[31m..." : newline and a terminal escape
"$RELIC" check "$tmp/ctl.erf" >"$tmp/out" 2>&1 && bad "check accepts a control byte in a resref" || ok
grep -q "keys\[0\].resref @0x$(printf %x $((koff + 1))): .*control character" "$tmp/out" && ok || bad "control byte report: $(cat "$tmp/out")"
"$RELIC" ls "$tmp/ctl.erf" >"$tmp/out" 2>&1
check "ls prints no raw control byte" sh -c "! LC_ALL=C grep -q \"\$(printf '\\033')\" '$tmp/out'"
grep -q 'a\\n\\x1b\[31m' "$tmp/out" && ok || bad "ls shows the name escaped: $(cat "$tmp/out")"
"$RELIC" check "$tmp/ctl.erf" >"$tmp/out" 2>&1
check "check prints no raw control byte" sh -c "! LC_ALL=C grep -q \"\$(printf '\\033')\" '$tmp/out'"
cp "$tmp/two.erf" "$tmp/sep.erf"
poke "$tmp/sep.erf" $((koff + 1)) '/'                    # "a/a"
"$RELIC" check "$tmp/sep.erf" >"$tmp/out" 2>&1 && bad "check accepts a separator in a resref" || ok
grep -q "keys\[0\].resref @0x$(printf %x $((koff + 1))): .*path separator" "$tmp/out" && ok || bad "separator report: $(cat "$tmp/out")"
cp "$tmp/two.erf" "$tmp/dots.erf"
poke "$tmp/dots.erf" "$koff" '..\000'                     # ".."
"$RELIC" check "$tmp/dots.erf" >"$tmp/out" 2>&1 && bad "check accepts a resref '..'" || ok
grep -q "keys\[0\].resref .*'\.\.'" "$tmp/out" && ok || bad "'..' report: $(cat "$tmp/out")"
cp "$tmp/two.erf" "$tmp/colon.erf"
poke "$tmp/colon.erf" $((koff + 1)) ':'                  # "a:a": the game takes it, Windows cannot hold it
check "plain check accepts a ':' in a resref" "$RELIC" check "$tmp/colon.erf"
"$RELIC" check --strict "$tmp/colon.erf" >"$tmp/out" 2>&1 && bad "check --strict accepts a ':' in a resref" || ok
grep -q "Windows" "$tmp/out" && ok || bad "':' report under --strict: $(cat "$tmp/out")"
check "the clean container passes --strict" "$RELIC" check --strict "$tmp/two.erf"

# ---- text from a file never reaches the terminal raw ----
esc=$(printf '\033')
no_esc() { ! LC_ALL=C grep -q "$esc" "$1"; }
# a caption line holding a newline and a terminal escape (relic info prints the captions)
mkdir "$tmp/snd"
printf 'RIFF\136\021\000\000WAVEfmt \020\000\000\000\001\000\001\000\042\126\000\000\104\254\000\000\002\000\020\000data\072\021\000\000' >"$tmp/snd/s.wav"   # 2205 frames of silence
head -c 4410 /dev/zero >>"$tmp/snd/s.wav"
printf '%s' '{"captions": [{"duration": 1.0, "text": "M\n\u001b[31marquez?"}]}' >"$tmp/snd/c.json"
if "$RELIC" encode "$tmp/snd/s.wav" "$tmp/snd/s.cau" --captions "$tmp/snd/c.json" >"$tmp/out" 2>&1; then
    "$RELIC" info "$tmp/snd/s.cau" >"$tmp/out" 2>&1
    check "info prints no raw control byte from a caption" no_esc "$tmp/out"
    grep -q 'M\\n\\x1b\[31marquez?' "$tmp/out" && ok || bad "info shows the caption escaped: $(cat "$tmp/out")"
else
    bad "encode a sample with captions: $(cat "$tmp/out")"
fi
# a GFF label holding a newline and a terminal escape (relic diff prints the field paths)
printf '%s' '{"__data_type":"UTC ","Tag":{"type":"cexostring","value":"T"}}' >"$tmp/c.json"
"$RELIC" convert "$tmp/c.json" "$tmp/c.utc" >/dev/null 2>&1
cp "$tmp/c.utc" "$tmp/lab.utc"
loff=$(LC_ALL=C grep -obUa 'Tag' "$tmp/lab.utc" | head -1 | cut -d: -f1)
poke "$tmp/lab.utc" $((loff + 1)) '\n\033'                    # "T\n\e"
"$RELIC" diff "$tmp/c.utc" "$tmp/lab.utc" >"$tmp/out" 2>&1
check "diff prints no raw control byte from a label" no_esc "$tmp/out"
grep -q '^+ T\\n\\x1b:' "$tmp/out" && ok || bad "diff shows the label escaped: $(cat "$tmp/out")"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
