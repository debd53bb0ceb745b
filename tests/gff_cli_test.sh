#!/bin/sh
# gff_cli_test.sh — the `relic` command on BioWare GFF files as a user runs
# it: check (the corrupted PyKotor file rejected, the NWN2 duplicate label a
# warning that --strict counts), info, get (xoreos, src/aurora/gff3file.cpp; neverwinter.nim, gff.nim, issue 4:
# Mod_Name, Tile_List/3/Tile_ID), JSON round trips byte for byte (the binary
# rewrite of each file is gff_corpus_test.sh's)
# of every real GFF (../shared/corpus/gff, skipped when absent), exit codes.
# Prints "N passed, M failed". Env: RELIC.
RELIC=${RELIC:-build/relic}
# Debian's python3 (make deps): a python3 found first in PATH may be a wrapper (a pyenv shim
# costs 0.6 s of CPU per start)
PYTHON=${PYTHON:-/usr/bin/python3}; [ -x "$PYTHON" ] || PYTHON=python3
C=../shared/corpus/gff
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

# a GFF made from JSON: every path below works without the corpus
cat >"$tmp/m.json" <<'JSON'
{"__data_type":"IFO ","Mod_Name":{"type":"cexolocstring","value":{"0":"Test module"}},"Tile_List":{"type":"list","value":[{"__struct_id":1,"Tile_ID":{"type":"int","value":7}},{"__struct_id":1,"Tile_ID":{"type":"int","value":-3}}]}}
JSON
expect_rc 0 "JSON -> ifo" "$RELIC" convert "$tmp/m.json" "$tmp/m.ifo"
expect_out "Test module" "get Mod_Name" "$RELIC" get "$tmp/m.ifo" Mod_Name
expect_out "-3" "get Tile_List/1/Tile_ID" "$RELIC" get "$tmp/m.ifo" Tile_List/1/Tile_ID
expect_out "list of 2 structs" "get a list" "$RELIC" get "$tmp/m.ifo" Tile_List
expect_rc 1 "get a missing field" "$RELIC" get "$tmp/m.ifo" Tile_List/2/Tile_ID
expect_rc 2 "get without a path" "$RELIC" get "$tmp/m.ifo"
expect_rc 0 "ifo -> JSON" "$RELIC" dump "$tmp/m.ifo" -o "$tmp/m2.json"
expect_rc 0 "JSON is what was read (keys sorted, compact)" cmp "$tmp/m.json" "$tmp/m2.json"
expect_rc 0 "check" "$RELIC" check "$tmp/m.ifo"
# text encodings: cp1252 by default, UTF-8 when all text is UTF-8 (recorded), --encoding to override
printf '{"__data_type":"UTI ","N":{"type":"cexostring","value":"caf\303\251 \342\202\254"}}\n' >"$tmp/e.json"
expect_rc 0 "JSON with cp1252 text -> uti" "$RELIC" convert "$tmp/e.json" "$tmp/e.uti"
if grep -q "caf$(printf '\351') $(printf '\200')" "$tmp/e.uti"; then ok; else bad "cp1252 bytes in the GFF"; fi
expect_rc 0 "uti -> JSON (auto: cp1252)" "$RELIC" dump "$tmp/e.uti" -o "$tmp/e2.json"
expect_rc 0 "cp1252 text round trip" cmp "$tmp/e.json" "$tmp/e2.json"
expect_rc 0 "JSON -> uti as UTF-8" "$RELIC" convert "$tmp/e.json" "$tmp/u.uti" --encoding utf8
expect_rc 0 "uti -> JSON (auto: UTF-8)" "$RELIC" dump "$tmp/u.uti" -o "$tmp/u.json"
if grep -q '"__encoding":"utf-8"' "$tmp/u.json"; then ok; else bad "UTF-8 recorded: $(cat "$tmp/u.json")"; fi
expect_rc 0 "JSON (UTF-8 recorded) -> uti" "$RELIC" convert "$tmp/u.json" "$tmp/u2.uti"
expect_rc 0 "UTF-8 text round trip" cmp "$tmp/u.uti" "$tmp/u2.uti"
expect_rc 1 "UTF-8 bytes are not cp1252 text the other way round" "$RELIC" dump "$tmp/e.uti" --encoding utf8
if cat "$tmp/out" "$tmp/err" | grep -q "N @0x.*not valid UTF-8"; then ok; else bad "invalid UTF-8 error names the field: $(cat "$tmp/out" "$tmp/err")"; fi
printf '{"__data_type":"UTI ","N":{"type":"cexostring","value":"\344\270\255"}}\n' >"$tmp/c.json"
expect_rc 1 "a character cp1252 cannot hold" "$RELIC" convert "$tmp/c.json" "$tmp/c.uti" --encoding cp1252
if grep -q "N.value" "$tmp/err"; then ok; else bad "unrepresentable character error names the field (standard error): $(cat "$tmp/out" "$tmp/err")"; fi
expect_rc 1 "an unknown --encoding" "$RELIC" dump "$tmp/e.uti" --encoding koi8-r
printf 'GFF V3.2xxxx' >"$tmp/short.gff"
expect_rc 1 "check a truncated GFF" "$RELIC" check "$tmp/short.gff"

# typed files (schema/aurora/are.schema ...): check --strict warns about each departure from BioWare Aurora specs, with its path
printf '%s\n' '{"__data_type":"ARE ","ChanceRain":{"type":"int","value":150},"Tile_List":{"type":"list","value":[{"__struct_id":1,"Tile_Orientation":{"type":"int","value":4}}]},"Width":{"type":"int","value":1}}' >"$tmp/bad.json"
"$RELIC" convert "$tmp/bad.json" "$tmp/bad.are" >/dev/null 2>&1
expect_rc 0 "an out-of-range ARE field passes plain check" "$RELIC" check "$tmp/bad.are"
expect_rc 1 "an out-of-range ARE field fails check --strict" "$RELIC" check --strict "$tmp/bad.are"
grep -q "bad.are: ChanceRain @0x[0-9a-f]*: warning: 150 is outside 0..100" "$tmp/out" && ok || bad "strict range warning: $(cat "$tmp/out")"
grep -q "bad.are: Tile_List/0/Tile_Orientation @0x[0-9a-f]*: warning: 4 is outside 0..3" "$tmp/out" && ok || bad "strict nested warning: $(cat "$tmp/out")"
printf '%s\n' '{"__data_type":"ARE ","ChanceRain":{"type":"int","value":15},"Width":{"type":"int","value":1}}' >"$tmp/good.json"
"$RELIC" convert "$tmp/good.json" "$tmp/good.are" >/dev/null 2>&1
expect_rc 0 "a documented ARE passes check --strict" "$RELIC" check --strict "$tmp/good.are"
printf '%s\n' '{"__data_type":"GIT ","Creature List":{"type":"list","value":[{"__struct_id":4},{"__struct_id":4}]}}' >"$tmp/p.json"
"$RELIC" convert "$tmp/p.json" "$tmp/area.git" >/dev/null 2>&1
printf '%s\n' '{"__data_type":"GIC ","Creature List":{"type":"list","value":[{"__struct_id":4}]}}' >"$tmp/p.json"
"$RELIC" convert "$tmp/p.json" "$tmp/area.gic" >/dev/null 2>&1
expect_rc 1 "a GIC whose list is shorter than its GIT's fails check --strict" "$RELIC" check --strict "$tmp/area.gic"
grep -q "Creature List.*1 elements, the paired git file has 2" "$tmp/out" && ok || bad "pair warning: $(cat "$tmp/out")"
expect_rc 1 "the GIT beside a short GIC fails check --strict too" "$RELIC" check --strict "$tmp/area.git"
grep -q "area.git: Creature List.*in .*area.gic beside it: 1 elements, the paired git file has 2" "$tmp/out" && ok || bad "pair warning names the GIC: $(cat "$tmp/out")"

if [ -d $C ]; then
    expect_out "testtraps" "get Mod_Name of a real module" "$RELIC" get $C/calgacus__nwn-classical__module.ifo Mod_Name
    expect_out "5" "get Tile_List/3/Tile_ID of a real area" "$RELIC" get $C/calgacus__nwn-classical__area001.are Tile_List/3/Tile_ID
    expect_rc 1 "the corrupted PyKotor file is rejected" "$RELIC" check $C/NickHugi__PyKotor__tests__files__test_corrupted.gff
    if grep -q "structs\[0\].field_count @0x40: 18 field indices" "$tmp/out"; then ok; else bad "corrupted file message: $(cat "$tmp/out")"; fi
    expect_rc 0 "a duplicate label is a warning" "$RELIC" check $C/CromFr__nwn-lib-d__unittest__krogar.bic
    expect_rc 1 "a duplicate label fails --strict" "$RELIC" check --strict $C/CromFr__nwn-lib-d__unittest__krogar.bic
    if [ "${CORPUS_SWEEPS:-1}" = 0 ]; then
        echo "note: CORPUS_SWEEPS=0: the per-file sweep of $C is skipped (make test runs it once, in the plain pass)"
    else
    # every file: its dump (read by nwn_gff's rules below, all at once), the dump back to the
    # format and out again unchanged, and byte for byte when relic info names its layout
    # (the binary rewrite of each file is tests/gff_corpus_test.sh's)
    mkdir -p "$tmp/dumps"; i=0; known=0
    nl='
'
    # byte comparisons wait for one md5sum at the end ($tmp/pairs: the check and its two files)
    : >"$tmp/pairs"
    for f in $C/*; do
        case "$f" in *test_corrupted.gff|*README.md) continue ;; esac
        ext=${f##*.}
        case "$ext" in *[A-Z]*) ext=$(printf '%s' "$ext" | tr 'A-Z' 'a-z') ;; esac
        i=$((i + 1)); n="$tmp/dumps/$i.json"
        echo "$f" >"$tmp/dumps/$i.name"
        "$RELIC" dump "$f" -o "$n" >/dev/null 2>&1 || { bad "dump $f"; continue; }
        if "$RELIC" convert "$n" "$tmp/dumps/$i.y.$ext" >"$tmp/out" 2>&1 && "$RELIC" dump "$tmp/dumps/$i.y.$ext" -o "$tmp/dumps/$i.y.json"; then
            printf 'JSON round trip %s\n%s\n%s\n' "$f" "$n" "$tmp/dumps/$i.y.json" >>"$tmp/pairs"
        else bad "JSON round trip $f"; fi
        # a file in a family's layout, with or without its own record order, comes back byte for byte
        layout=
        while IFS= read -r line; do case "$line" in *"layout: "*) layout=$line ;; esac; done <<EOF
$("$RELIC" info "$f")
EOF
        case "$layout" in ''|*"layout: other"*) ;; *)
            printf 'GFF -> JSON -> GFF of %s, whose layout relic info names\n%s\n%s\n' "$f" "$f" "$tmp/dumps/$i.y.$ext" >>"$tmp/pairs"
            known=$((known + 1)) ;;
        esac
    done
    # the comparisons: one md5sum over every pair's files, read back in order
    sed -n '2~3p;3~3p' "$tmp/pairs" | tr '\n' '\0' | xargs -0 md5sum >"$tmp/sums"
    exec 3<"$tmp/sums"
    while IFS= read -r what && IFS= read -r a && IFS= read -r b; do
        read -r sa _ <&3; read -r sb _ <&3
        [ "$sa" = "$sb" ] && ok || bad "$what"
    done <"$tmp/pairs"
    exec 3<&-
    # nwn_gff's reader rules (tests/nwn_gff_reader.py) accept what relic dump prints: one line
    # per file it has something to say about ("holds ... orientation/vector": KotOR, exit 3)
    "$PYTHON" tests/nwn_gff_reader.py "$tmp"/dumps/*[0-9].json >"$tmp/nwn.out"
    nwn=0; kotor=0
    for n in "$tmp"/dumps/*[0-9].json; do
        said=; holds=0
        while IFS= read -r line; do
            case "$line" in "$n: "*)
                said="$said$line$nl"
                case "$line" in *": holds "*"nwn_gff has no such type"*) holds=1 ;; esac ;;
            esac
        done <"$tmp/nwn.out"
        if [ -z "$said" ]; then ok; nwn=$((nwn + 1))
        elif [ $holds = 1 ]; then kotor=$((kotor + 1))
        else bad "nwn_gff would refuse the dump of $(cat "${n%.json}.name"): $(printf '%s' "$said" | head -3)"; fi
    done
    echo "note: nwn_gff's reader rules accept the dumps of $nwn corpus GFFs; $kotor hold KotOR orientation/vector fields, which nwn_gff has no type for"
    echo "note: $known corpus GFFs in a known layout (relic info) came back byte for byte through JSON"
    fi
else
    echo "note: $C not found: real-file checks skipped"
fi
# the checker itself refuses what nwn_gff refuses: a double written as an integer, an unknown type
printf '%s\n' '{"__data_type":"UTI ","D":{"type":"double","value":1}}' >"$tmp/refuse1.json"
printf '%s\n' '{"__data_type":"UTI ","D":{"type":"bogus","value":1}}' >"$tmp/refuse2.json"
for j in refuse1 refuse2; do
    "$PYTHON" tests/nwn_gff_reader.py "$tmp/$j.json" >/dev/null; [ $? = 1 ] && ok || bad "nwn_gff_reader.py accepted $j.json"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
