#!/bin/sh
# erf_cli_test.sh — the `relic` command on BioWare containers and GFF edits
# as a user runs them (issue 4 items 3, 7, 8): ls, extract (all members with
# the manifest, or named ones), pack (from an extracted directory: byte for
# byte; from a plain directory: sorted, packed layout), check/info/dump, get
# into a member, convert (re-write, own layout kept); set (in place for
# fixed-size values, rewrite for strings; the input untouched on errors) and
# diff (exactly the change made; exit 0 equal, 1 different, 2 trouble).
# Real containers: ../shared/corpus/other (skipped when absent).
# Prints "N passed, M failed". Env: RELIC.
RELIC=${RELIC:-build/relic}
C=../shared/corpus/other
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

# ---- GFF edits on a file made from JSON (no corpus needed) ----
cat >"$tmp/m.json" <<'JSON'
{"__data_type":"IFO ","Mod_Name":{"type":"cexolocstring","value":{"0":"Test module"}},"Mod_Tag":{"type":"cexostring","value":"TAG"},"Mod_XPScale":{"type":"byte","value":10},"Mod_Big":{"type":"dword64","value":5},"Tile_List":{"type":"list","value":[{"__struct_id":1,"Tile_ID":{"type":"int","value":7}},{"__struct_id":1,"Tile_ID":{"type":"int","value":-3}}]}}
JSON
expect_rc 0 "JSON -> ifo" "$RELIC" convert "$tmp/m.json" "$tmp/a.ifo"
cp "$tmp/a.ifo" "$tmp/b.ifo"
expect_rc 0 "diff of equal files" "$RELIC" diff "$tmp/a.ifo" "$tmp/b.ifo"
expect_out "" "diff of equal files prints nothing" "$RELIC" diff "$tmp/a.ifo" "$tmp/b.ifo"
expect_out "$tmp/b.ifo: Tile_List/1/Tile_ID = 42 (int, patched in place)" "set an int in place" "$RELIC" set "$tmp/b.ifo" Tile_List/1/Tile_ID 42
expect_out "42" "get it back" "$RELIC" get "$tmp/b.ifo" Tile_List/1/Tile_ID
expect_out "~ Tile_List/1/Tile_ID: -3 -> 42" "diff shows exactly that change" "$RELIC" diff "$tmp/a.ifo" "$tmp/b.ifo"
expect_rc 1 "diff exits 1 on a difference" "$RELIC" diff "$tmp/a.ifo" "$tmp/b.ifo"
expect_rc 0 "same size after an in-place set" test "$(wc -c <"$tmp/a.ifo")" = "$(wc -c <"$tmp/b.ifo")"
expect_rc 0 "set a dword64 in the field data" "$RELIC" set "$tmp/b.ifo" Mod_Big 18446744073709551615
expect_out "18446744073709551615" "get the dword64" "$RELIC" get "$tmp/b.ifo" Mod_Big
cp "$tmp/b.ifo" "$tmp/before.ifo"
expect_rc 1 "set out of range" "$RELIC" set "$tmp/b.ifo" Mod_XPScale 256
expect_rc 1 "set not a number" "$RELIC" set "$tmp/b.ifo" Mod_XPScale ten
expect_rc 1 "set a missing field" "$RELIC" set "$tmp/b.ifo" Nope 1
expect_rc 1 "set a list" "$RELIC" set "$tmp/b.ifo" Tile_List 1
expect_rc 0 "the input is untouched after errors" cmp "$tmp/b.ifo" "$tmp/before.ifo"
expect_rc 2 "set without a value" "$RELIC" set "$tmp/b.ifo" Mod_XPScale
"$RELIC" set "$tmp/b.ifo" Mod_Tag "A much longer tag" >"$tmp/out" 2>&1 && ok || bad "set a string"
grep -q "file rewritten" "$tmp/out" && ok || bad "a string set says the file was rewritten: $(cat "$tmp/out")"
expect_out "A much longer tag" "get the string back" "$RELIC" get "$tmp/b.ifo" Mod_Tag
expect_rc 0 "the rewritten file validates" "$RELIC" check "$tmp/b.ifo"
expect_rc 0 "set a locstring substring" "$RELIC" set "$tmp/b.ifo" Mod_Name "Nom" --id 2
expect_out "0: Test module
2: Nom" "get the locstring" "$RELIC" get "$tmp/b.ifo" Mod_Name
# text: UTF-8 on the command line, windows-1252 in an NWN1/KotOR file
cp "$tmp/a.ifo" "$tmp/e.ifo"
expect_rc 0 "set text with accents" "$RELIC" set "$tmp/e.ifo" Mod_Tag "Café €"
expect_out "Café €" "get shows it as UTF-8 again (the form set takes)" "$RELIC" get "$tmp/e.ifo" Mod_Tag
expect_out "$(printf 'Caf\351 \200')" "stored as windows-1252 bytes" sh -c "head -c 100000 '$tmp/e.ifo' | grep -ao \"$(printf 'Caf\351 \200')\""
expect_out '~ Mod_Tag: "TAG" -> "Café €"' "diff shows it as UTF-8" "$RELIC" diff "$tmp/a.ifo" "$tmp/e.ifo"
cp "$tmp/e.ifo" "$tmp/before.ifo"
expect_rc 1 "a character windows-1252 cannot hold" "$RELIC" set "$tmp/e.ifo" Mod_Tag "snow ☃"
expect_rc 0 "... leaves the file untouched" cmp "$tmp/e.ifo" "$tmp/before.ifo"
expect_rc 0 "--encoding utf8 stores UTF-8" "$RELIC" set "$tmp/e.ifo" Mod_Tag "snow ☃" --encoding utf8
expect_out "snow ☃" "get the UTF-8 text" "$RELIC" get "$tmp/e.ifo" Mod_Tag
cp "$tmp/a.ifo" "$tmp/c.ifo"
"$RELIC" set "$tmp/c.ifo" Mod_Tag "XY" >/dev/null 2>&1
expect_out '~ Mod_Tag: "TAG" -> "XY"' "diff of a string change" "$RELIC" diff "$tmp/a.ifo" "$tmp/c.ifo"
cat >"$tmp/n.json" <<'JSON'
{"__data_type":"IFO ","Mod_Name":{"type":"cexolocstring","value":{"0":"Test module"}},"Mod_New":{"type":"int","value":1},"Mod_XPScale":{"type":"word","value":10},"Tile_List":{"type":"list","value":[{"__struct_id":2,"Tile_ID":{"type":"int","value":7}}]}}
JSON
"$RELIC" convert "$tmp/n.json" "$tmp/n.ifo" >/dev/null
"$RELIC" diff "$tmp/a.ifo" "$tmp/n.ifo" | sort >"$tmp/d.txt"
printf '%s\n' '+ Mod_New: 1' '- Mod_Big: 5' '- Mod_Tag: "TAG"' '- Tile_List/1: struct (1 fields)' \
    '~ Mod_XPScale: byte 10 -> word 10' '~ Tile_List/0/__struct_id: 1 -> 2' | sort >"$tmp/d.want"
expect_rc 0 "diff: removed, added, type changed, struct id, list length" cmp "$tmp/d.txt" "$tmp/d.want"
expect_rc 2 "diff of a missing file" "$RELIC" diff "$tmp/a.ifo" "$tmp/missing.ifo"
expect_rc 2 "diff usage" "$RELIC" diff "$tmp/a.ifo"

# ---- containers made by pack (no corpus needed) ----
mkdir "$tmp/src"
cp "$tmp/a.ifo" "$tmp/src/module.ifo"
cp "$tmp/c.ifo" "$tmp/src/Zeta.IFO"
printf 'void main() {}\n' >"$tmp/src/script1.nss"
printf 'x' >"$tmp/src/odd.12345"
expect_rc 0 "pack a directory" env SOURCE_DATE_EPOCH=0 "$RELIC" pack "$tmp/src" "$tmp/p.mod"
expect_out "name                                   type       size     offset
module.ifo                             2014        $(wc -c <"$tmp/a.ifo" | tr -d ' ')        $((160 + 4 * 24 + 4 * 8))
odd.12345                             12345          1        $((160 + 4 * 24 + 4 * 8 + $(wc -c <"$tmp/a.ifo")))
script1.nss                            2009         15        $((160 + 4 * 24 + 4 * 8 + $(wc -c <"$tmp/a.ifo") + 1))
zeta.ifo                               2014        $(wc -c <"$tmp/c.ifo" | tr -d ' ')        $((160 + 4 * 24 + 4 * 8 + $(wc -c <"$tmp/a.ifo") + 16))" \
    "ls: sorted by ResRef, lower-cased, packed layout" "$RELIC" ls "$tmp/p.mod"
expect_rc 0 "check the packed module (member GFFs too)" "$RELIC" check "$tmp/p.mod"
expect_out "Test module" "get into a member" "$RELIC" get "$tmp/p.mod" module.ifo/Mod_Name
expect_out "XY" "get into another member" "$RELIC" get "$tmp/p.mod" zeta.ifo/Mod_Tag
expect_rc 0 "pack is deterministic" env SOURCE_DATE_EPOCH=0 "$RELIC" pack "$tmp/src" "$tmp/p2.mod"
expect_rc 0 "same bytes twice" cmp "$tmp/p.mod" "$tmp/p2.mod"
expect_rc 0 "extract all" "$RELIC" extract "$tmp/p.mod" -C "$tmp/x"
expect_rc 0 "extracted member equals its source" cmp "$tmp/x/module.ifo" "$tmp/a.ifo"
expect_rc 0 "extract writes the manifest" test -f "$tmp/x/.relic-container.json"
expect_rc 0 "pack the extracted directory" "$RELIC" pack "$tmp/x" "$tmp/p3.mod"
expect_rc 0 "extract + pack gives the container back" cmp "$tmp/p.mod" "$tmp/p3.mod"
printf 'changed' >"$tmp/x/script1.nss"
expect_out "$tmp/p4.mod: 4 members, $(($(wc -c <"$tmp/p.mod") - 8)) bytes (members changed size: packed layout)" \
    "pack after a member changed size" "$RELIC" pack "$tmp/x" "$tmp/p4.mod"
"$RELIC" extract "$tmp/p4.mod" script1.nss -C "$tmp/four" >/dev/null
expect_out "changed" "the changed member is in" cat "$tmp/four/script1.nss"
rm "$tmp/x/odd.12345"
"$RELIC" pack "$tmp/x" "$tmp/p5.mod" >"$tmp/out" 2>&1 && grep -q "3 members.*members added or removed" "$tmp/out" && ok || bad "pack after a member was removed: $(cat "$tmp/out")"
mkdir "$tmp/bm" && cp "$tmp/x/.relic-container.json" "$tmp/bm/" && sed -i 's/"type": 2009/"type": "nss"/' "$tmp/bm/.relic-container.json"
expect_out "$tmp/bm/.relic-container.json: entries[2].type @0x0: expected an integer" \
    "a bad manifest entry is named by its member" "$RELIC" pack "$tmp/bm" "$tmp/bm.mod"
expect_rc 0 "extract one member" "$RELIC" extract "$tmp/p.mod" script1.nss -C "$tmp/one"
expect_out "script1.nss" "only that member, no manifest" ls -A "$tmp/one"
expect_rc 1 "extract a missing member" "$RELIC" extract "$tmp/p.mod" nope.nss -C "$tmp/one"
expect_rc 0 "set inside a member, in place" "$RELIC" set "$tmp/p.mod" module.ifo/Mod_XPScale 77
expect_out "77" "get it back from the member" "$RELIC" get "$tmp/p.mod" module.ifo/Mod_XPScale
expect_out "~ Mod_XPScale: 10 -> 77" "diff two members" "$RELIC" diff "$tmp/p3.mod:module.ifo" "$tmp/p.mod:module.ifo"
expect_rc 0 "set a string inside a member (container rewritten)" "$RELIC" set "$tmp/p.mod" zeta.ifo/Mod_Tag "LONGER TAG"
expect_out "LONGER TAG" "get the member string" "$RELIC" get "$tmp/p.mod" zeta.ifo/Mod_Tag
expect_rc 0 "the rewritten container validates" "$RELIC" check "$tmp/p.mod"
expect_rc 0 "pack a RIM" "$RELIC" pack "$tmp/src" "$tmp/p.rim"
expect_rc 0 "check the RIM" "$RELIC" check "$tmp/p.rim"
expect_rc 0 "pack an NWN2 hak" "$RELIC" pack "$tmp/src" "$tmp/p.hak" --nwn2
"$RELIC" info "$tmp/p.hak" | grep -q 'type "HAK ", V1.1' && ok || bad "info of the NWN2 hak"
expect_rc 0 "dump a container" "$RELIC" dump "$tmp/p.hak" -o "$tmp/p.json"
grep -q '"name": "zeta.ifo"' "$tmp/p.json" && ok || bad "dump lists the members"
mkdir "$tmp/dup"
printf 'a' >"$tmp/dup/A.txt"; printf 'b' >"$tmp/dup/a.txt"
expect_rc 1 "pack refuses two files giving the same ResRef" "$RELIC" pack "$tmp/dup" "$tmp/dup.erf"
expect_rc 1 "... and writes nothing" test -e "$tmp/dup.erf"
mkdir "$tmp/xy"
printf 'x' >"$tmp/xy/x.txt"; printf 'y' >"$tmp/xy/y.txt"
"$RELIC" pack "$tmp/xy" "$tmp/xy.erf" >/dev/null
printf 'x' | dd of="$tmp/xy.erf" bs=1 seek=184 conv=notrunc 2>/dev/null # second key's ResRef: "x"
expect_rc 0 "a container with a repeated name is valid" "$RELIC" check "$tmp/xy.erf"
expect_out "$tmp/xy.erf: keys[1] @0xb8: 'x.txt' is also entry 0 (the game loads one of them)" "check --strict reports it" \
    "$RELIC" check --strict "$tmp/xy.erf"
expect_rc 1 "extract refuses to overwrite one member with another" "$RELIC" extract "$tmp/xy.erf" -C "$tmp/xyd"
expect_rc 2 "pack to an unknown extension" "$RELIC" pack "$tmp/src" "$tmp/p.zip"
printf 'MOD V1.0' >"$tmp/short.mod"
expect_rc 1 "check a truncated container" "$RELIC" check "$tmp/short.mod"
expect_rc 1 "ls a non-container" "$RELIC" ls "$tmp/a.ifo"

# ---- the real containers ----
if [ -d "$C" ]; then
    for f in "$C"/*; do
        case "$f" in *.mod|*.erf|*.rim|*.hak|*.sav) ;; *) continue ;; esac
        ext=${f##*.}
        "$RELIC" check "$f" >"$tmp/out" 2>&1 && ok || bad "check $f: $(head -2 "$tmp/out")"
        "$RELIC" convert "$f" "$tmp/rw.$ext" >"$tmp/out" 2>&1 && cmp -s "$f" "$tmp/rw.$ext" && ok || bad "re-write byte for byte $f"
        rm -rf "$tmp/d"
        "$RELIC" extract "$f" -C "$tmp/d" >"$tmp/out" 2>&1 && "$RELIC" pack "$tmp/d" "$tmp/back.$ext" >"$tmp/out" 2>&1 \
            && cmp -s "$f" "$tmp/back.$ext" && ok || bad "extract + pack byte for byte $f"
        "$RELIC" ls "$f" >"$tmp/out" 2>&1 && [ "$(($(wc -l <"$tmp/out") - 1))" = "$(ls -A "$tmp/d" | grep -vc '^\.relic-container.json$')" ] \
            && ok || bad "ls lists every member of $f"
    done
    expect_out "strref 74951" "get 001ebo.are/Name in a KotOR module" "$RELIC" get "$C/NickHugi__PyKotor__tests__files__capsule.mod" 001ebo.are/Name
else
    echo "note: $C not found: real-container checks skipped"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
