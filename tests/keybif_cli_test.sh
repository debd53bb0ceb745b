#!/bin/sh
# keybif_cli_test.sh — the `relic` command on KEY/BIF and TLK files as a
# user runs them: pack a directory into a KEY and its BIF, then info, ls,
# check (every member through its own format; a broken member and a BIF
# cut short reported with their offsets), extract by name, type and glob;
# the real chitin.key listed key by key with its BIF and written back byte
# for byte; talk tables dumped, re-written and read by StrRef; --tlk showing
# a locstring's text in get, dump and diff; get --install finding a resource
# in override/, then modules/, then chitin.key.
# Real files: ../shared/corpus/{key,bif,tlk,bwm,gff} (each part skipped,
# saying so, when absent). Prints "N passed, M failed". Env: RELIC.
RELIC=${RELIC:-build/relic}
C=../shared/corpus
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
expect_out() { # expected-stdout description command...
    want=$1; shift; what=$1; shift
    got=$("$@" 2>&1)
    if [ "$got" = "$want" ]; then ok; else bad "$what: got '$got', expected '$want'"; fi
}
first() { ls "$C/$1" 2>/dev/null | grep -i "$2\$" | head -1; }

# ---- members: corpus files where present, else files relic makes ----
mkdir -p "$tmp/src"
wok=$(first bwm .wok); tlkf=$(first tlk dialog.tlk)
if [ -n "$wok" ]; then cp "$C/bwm/$wok" "$tmp/src/m10aa.wok"; else echo "note: no corpus walkmesh: a GFF stands in"; fi
if [ -n "$tlkf" ]; then cp "$C/tlk/$tlkf" "$tmp/src/dialog.tlk"; fi
cat >"$tmp/m.json" <<'JSON'
{"__data_type":"IFO ","Mod_Name":{"type":"cexolocstring","value":{"id":13,"0":"Test module"}},"Mod_Tag":{"type":"cexostring","value":"TAG"}}
JSON
"$RELIC" convert "$tmp/m.json" "$tmp/src/module.ifo" >/dev/null 2>&1 && ok || bad "JSON -> ifo"
printf 'plain text' >"$tmp/src/readme.txt"
[ -f "$tmp/src/m10aa.wok" ] || cp "$tmp/src/module.ifo" "$tmp/src/m10aa.utc"
n=$(ls "$tmp/src" | wc -l)

# ---- pack, info, ls, check, extract ----
mkdir -p "$tmp/game"
expect_rc 0 "pack a directory into a KEY and its BIF" env SOURCE_DATE_EPOCH=0 "$RELIC" pack "$tmp/src" "$tmp/game/chitin.key"
expect_rc 0 "the BIF lies in data/ beside the KEY" test -f "$tmp/game/data/chitin.bif"
expect_rc 0 "info of the KEY" "$RELIC" info "$tmp/game/chitin.key"
grep -q "1 BIFs, $n keys" "$tmp/out" && ok || bad "info counts BIFs and keys: $(head -1 "$tmp/out")"
expect_rc 0 "ls of the KEY" "$RELIC" ls "$tmp/game/chitin.key"
[ "$(($(wc -l <"$tmp/out") - 1))" = "$n" ] && ok || bad "ls lists every key"
grep -q "^module.ifo .* data/chitin.bif " "$tmp/out" && ok || bad "ls names each key's BIF: $(grep module "$tmp/out")"
expect_rc 0 "check of the KEY" "$RELIC" check "$tmp/game/chitin.key"
grep -q "members checked through their formats" "$tmp/err" && ok || bad "check goes through the members: $(cat "$tmp/err")"
expect_rc 0 "check of the BIF alone" "$RELIC" check "$tmp/game/data/chitin.bif"
expect_rc 0 "extract by name" "$RELIC" extract "$tmp/game/chitin.key" MODULE.IFO -C "$tmp/x1"
expect_rc 0 "the extracted member is the packed file" cmp "$tmp/x1/module.ifo" "$tmp/src/module.ifo"
expect_rc 0 "extract by type" "$RELIC" extract "$tmp/game/chitin.key" txt -C "$tmp/x2"
expect_out "readme.txt" "only the members of that type" ls "$tmp/x2"
expect_rc 0 "extract by glob" "$RELIC" extract "$tmp/game/chitin.key" 'mod*' -C "$tmp/x3"
expect_out "module.ifo" "only the members matching" ls "$tmp/x3"
expect_rc 0 "extract everything" "$RELIC" extract "$tmp/game/chitin.key" -C "$tmp/x4"
expect_rc 0 "every member back, byte for byte" diff -r "$tmp/src" "$tmp/x4"
expect_rc 1 "extract of a name not in the KEY" "$RELIC" extract "$tmp/game/chitin.key" nothere.utc -C "$tmp/x5"
expect_rc 0 "KEY re-written byte for byte" "$RELIC" convert "$tmp/game/chitin.key" "$tmp/rw.key"
expect_rc 0 "  same bytes" cmp "$tmp/rw.key" "$tmp/game/chitin.key"
expect_rc 0 "KEY to JSON" "$RELIC" dump "$tmp/game/chitin.key" -o "$tmp/k.json"
expect_rc 0 "  and back" "$RELIC" convert "$tmp/k.json" "$tmp/back.key"
expect_rc 0 "  same bytes" cmp "$tmp/back.key" "$tmp/game/chitin.key"
expect_rc 0 "BIF re-written byte for byte" "$RELIC" convert "$tmp/game/data/chitin.bif" "$tmp/rw.bif"
expect_rc 0 "  same bytes" cmp "$tmp/rw.bif" "$tmp/game/data/chitin.bif"

# ---- a member broken inside the BIF: reported through its own format ----
cp -r "$tmp/game" "$tmp/broken"
off=$(grep -ab -o 'IFO V3.2' "$tmp/broken/data/chitin.bif" | head -1 | cut -d: -f1)
printf 'XXXX' | dd of="$tmp/broken/data/chitin.bif" bs=1 seek=$((off + 4)) conv=notrunc 2>/dev/null
expect_rc 1 "check finds the broken member" "$RELIC" check "$tmp/broken/chitin.key"
grep -q "chitin.bif:module.ifo" "$tmp/out" && ok || bad "the problem names the BIF and member: $(head -2 "$tmp/out")"
# a BIF cut short: each resource past the end named with its table entry's offset
head -c $((off + 10)) "$tmp/game/data/chitin.bif" >"$tmp/broken/data/chitin.bif"
expect_rc 1 "check of a BIF cut short" "$RELIC" check "$tmp/broken/data/chitin.bif"
grep -q "variable_resources\[[0-9]*\] @0x[0-9a-f]*: data .* pass the end of the file" "$tmp/out" && ok || bad "cut BIF: $(head -2 "$tmp/out")"
# a KEY whose key points past its BIF list: rejected with the field and offset
cp "$tmp/game/chitin.key" "$tmp/bad.key"
ktab=$(od -An -tu4 -j20 -N4 "$tmp/bad.key" | tr -d ' ')
printf '\000\000\120\000' | dd of="$tmp/bad.key" bs=1 seek=$((ktab + 18)) conv=notrunc 2>/dev/null
expect_rc 1 "a KEY entry in BIF 5 of 1" "$RELIC" check "$tmp/bad.key"
grep -q "keys\[0\].res_id @0x$(printf '%x' $((ktab + 18))): BIF index 5 >= BIFCount 1" "$tmp/out" && ok || bad "bad key: $(cat "$tmp/out")"

# ---- get --install: override, then modules, then chitin.key ----
mkdir -p "$tmp/game/Override" "$tmp/game/modules" "$tmp/msrc"
printf 'override copy' >"$tmp/game/Override/readme.txt"
printf 'module copy' >"$tmp/msrc/readme.txt"
printf 'module only' >"$tmp/msrc/extra.txt"
"$RELIC" pack "$tmp/msrc" "$tmp/game/modules/m01.mod" >/dev/null 2>&1 && ok || bad "pack a module"
expect_out "override copy" "override/ first" sh -c "'$RELIC' get --install '$tmp/game' README.txt 2>/dev/null"
expect_out "module only" "then the modules" sh -c "'$RELIC' get --install '$tmp/game' extra.txt 2>/dev/null"
expect_out "plain text" "then chitin.key" sh -c "rm '$tmp/game/Override/readme.txt' '$tmp/game/modules/m01.mod'; '$RELIC' get --install '$tmp/game' readme.txt 2>/dev/null"
expect_out "TAG" "a GFF value from the install" sh -c "'$RELIC' get --install '$tmp/game' module.ifo Mod_Tag 2>/dev/null"
expect_rc 1 "a resource nowhere" "$RELIC" get --install "$tmp/game" nothere.utc

# ---- talk tables ----
if [ -n "$tlkf" ]; then
    T="$C/tlk/$tlkf"
    expect_out "Prêtre" "get dialog.tlk 4" "$RELIC" get "$T" 4
    expect_rc 1 "a StrRef past the table" "$RELIC" get "$T" 55
    expect_rc 0 "ls of a talk table" "$RELIC" ls "$T"
    grep -q "^      4     1                  Prêtre$" "$tmp/out" && ok || bad "ls lists StrRef 4: $(sed -n 6p "$tmp/out")"
    [ "$(($(wc -l <"$tmp/out") - 1))" = 55 ] && ok || bad "ls: one line per string (line breaks escaped)"
    expect_out "strref 13
tlk: Paladins
0: Test module" "get --tlk shows the StrRef's text" "$RELIC" get "$tmp/src/module.ifo" Mod_Name --tlk "$T"
    expect_rc 0 "dump --tlk" "$RELIC" dump "$tmp/src/module.ifo" --tlk "$T" -o "$tmp/t.json"
    grep -q '"__tlk":"Paladins"' "$tmp/t.json" && ok || bad "dump --tlk: $(cat "$tmp/t.json")"
    expect_rc 0 "  and it converts back byte for byte" "$RELIC" convert "$tmp/t.json" "$tmp/t.ifo"
    expect_rc 0 "  same bytes" cmp "$tmp/t.ifo" "$tmp/src/module.ifo"
    sed 's/"id":13/"id":4/' "$tmp/m.json" >"$tmp/m2.json"
    "$RELIC" convert "$tmp/m2.json" "$tmp/m2.ifo" >/dev/null 2>&1
    expect_out '~ Mod_Name: {strref 13 "Paladins", 0: "Test module"} -> {strref 4 "Prêtre", 0: "Test module"}' \
        "diff --tlk" "$RELIC" diff "$tmp/src/module.ifo" "$tmp/m2.ifo" --tlk "$T"
else
    echo "note: no dialog.tlk in $C/tlk: the StrRef checks are skipped"
fi
for f in "$C"/tlk/*.tlk; do
    [ -f "$f" ] || continue
    expect_rc 0 "check $f" "$RELIC" check "$f"
    expect_rc 0 "dump $f" "$RELIC" dump "$f" -o "$tmp/tlk.json"
    expect_rc 0 "  and back" "$RELIC" convert "$tmp/tlk.json" "$tmp/back.tlk"
    expect_rc 0 "  same bytes" cmp "$tmp/back.tlk" "$f"
done

# ---- the real chitin.key and the real BIF cut after its table ----
key=$(first key .key)
if [ -n "$key" ]; then
    K="$C/key/$key"
    expect_rc 0 "ls of the real chitin.key" "$RELIC" ls "$K"
    expect_out 43871 "  lists every key" sh -c "tail -n +2 '$tmp/out' | wc -l"
    expect_out 43871 "  each with its BIF" sh -c "grep -c ' data/[a-z0-9_]*\.bif ' '$tmp/out'"
    expect_rc 0 "check of the real chitin.key (its BIFs absent: noted)" "$RELIC" check "$K"
    grep -q "26 of 26 BIFs not found" "$tmp/err" && ok || bad "missing BIFs noted: $(cat "$tmp/err")"
    expect_rc 0 "the real chitin.key re-written" "$RELIC" convert "$K" "$tmp/real.key"
    expect_rc 0 "  byte for byte" cmp "$tmp/real.key" "$K"
    expect_rc 0 "  and through JSON" sh -c "'$RELIC' dump '$K' -o '$tmp/real.json' && '$RELIC' convert '$tmp/real.json' '$tmp/real2.key' && cmp '$tmp/real2.key' '$K'"
else
    echo "note: no KEY in $C/key: the real-KEY checks are skipped"
fi
bif=$(first bif .bif)
if [ -n "$bif" ]; then
    expect_rc 1 "check of the real BIF cut after its table" "$RELIC" check "$C/bif/$bif"
    expect_out 375 "  every resource past the end reported" sh -c "grep -c 'pass the end of the file' '$tmp/out'"
    grep -q "variable_resources\[378\] @0x17b4: data 0x" "$tmp/out" && ok || bad "the last resource with its offset"
    expect_rc 0 "ls of the cut BIF" "$RELIC" ls "$C/bif/$bif"
    expect_out 375 "  marks the resources past the end" sh -c "grep -c 'past the end of the file' '$tmp/out'"
else
    echo "note: no BIF in $C/bif: the cut-BIF checks are skipped"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
