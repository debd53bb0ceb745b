#!/bin/sh
# grf_cli_test.sh — the `relic` command on the contents of Trespasser levels
# and scenes as a user runs it (Trespasser source, Lib/Groff/GroffIO.cpp, Lib/Loader/SaveFile.cpp; Trespasser file formats):
# `relic dump` decodes every section by kind and gives each instance its
# value-table properties; JSON -> GRF is byte for byte; `relic convert
# x.grf x.obj` writes the whole level (one object per region instance,
# every index in range) with its MTL, and assimp loads it (skipped when
# assimp is missing); a broken section is reported with its path. Real
# files: ../shared/corpus/{grf,scn} (skipped, saying so, when absent).
# Prints "N passed, M failed". Env: RELIC.
RELIC=${RELIC:-build/relic}
# Debian's python3 (make deps): a python3 found first in PATH may be a pyenv shim
PYTHON=${PYTHON:-/usr/bin/python3}; [ -x "$PYTHON" ] || PYTHON=python3
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
contains() { # file text description
    if grep -qF -- "$2" "$1"; then ok; else bad "$3: '$2' not found"; fi
}

grf=$(ls ../shared/corpus/grf/*.grf 2>/dev/null | head -1)
if [ -z "$grf" ]; then
    echo "note: ../shared/corpus/grf not found: level checks skipped"
else
    expect_rc 0 "dump the demo level" "$RELIC" dump "$grf" -o "$tmp/demo.json"
    contains "$tmp/demo.json" '"kind": "mesh"' "optimised geometry decoded"
    contains "$tmp/demo.json" '"kind": "geometry"' "plain geometry decoded"
    contains "$tmp/demo.json" '"kind": "value_table"' "value table decoded"
    contains "$tmp/demo.json" '{"name": "PMac10-00", "object": "PMac10-00"' "instances listed by name"
    contains "$tmp/demo.json" '"Class": "CGun"' "instance properties by name"
    expect_rc 0 "JSON back to GRF" "$RELIC" convert "$tmp/demo.json" "$tmp/demo.grf"
    if cmp -s "$grf" "$tmp/demo.grf"; then ok; else bad "decoded JSON round trip differs"; fi
    # a section's value is read from the document's one parse: an error in it is
    # named by its path in the whole document, as when it was parsed on its own
    "$PYTHON" - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
doc = json.load(open(tmp + '/demo.json'))
def first(d, kind):
    return next(e for e in d['contents'] if e['kind'] == kind)
d = json.load(open(tmp + '/demo.json')); del first(d, 'header')['value']['version']
json.dump(d, open(tmp + '/no_version.json', 'w'))
d = json.load(open(tmp + '/demo.json')); first(d, 'value_table')['value']['records'][0]['type'] = 'quux'
json.dump(d, open(tmp + '/bad_type.json', 'w'))
d = json.load(open(tmp + '/demo.json')); first(d, 'header')['value']['format'] = 'grf_mesh'
json.dump(d, open(tmp + '/wrong_format.json', 'w'))
PY
    expect_rc 1 "a section value without a member" "$RELIC" convert "$tmp/no_version.json" "$tmp/x.grf"
    contains "$tmp/err" 'contents[0].value @0x0: version: missing member "version"' "the missing member named by its path"
    expect_rc 1 "a value-table record of no type" "$RELIC" convert "$tmp/bad_type.json" "$tmp/x.grf"
    contains "$tmp/err" 'contents[2696].value @0x0: records[0].type: not a value type' "the value table's record named by its path"
    expect_rc 1 "a section value of another format" "$RELIC" convert "$tmp/wrong_format.json" "$tmp/x.grf"
    contains "$tmp/err" 'this JSON is not the grf_header format ("format": "grf_mesh")' "the section's format checked"
    if [ -e "$tmp/x.grf" ]; then bad "a refused conversion left an output"; else ok; fi

    expect_rc 0 "level to OBJ" "$RELIC" convert "$grf" "$tmp/demo.obj"
    if [ -s "$tmp/demo.mtl" ]; then ok; else bad "no MTL beside the OBJ"; fi
    contains "$tmp/demo.obj" "mtllib demo.mtl" "OBJ names its MTL"
    # every region instance is an object (the demo's region has 2747); every face index is in range
    objects=$(grep -c '^o ' "$tmp/demo.obj")
    instances=$(grep -c '^  {"name": ' "$tmp/demo.json")
    if [ "$objects" = 2747 ] && [ "$instances" = 2747 ]; then ok; else bad "OBJ has $objects objects, JSON $instances instances, the region 2747"; fi
    awk 'BEGIN{bad=0} /^v /{v++} /^vt /{t++} /^vn /{n++}
         /^f /{ for (i = 2; i <= NF; i++) { split($i, p, "/");
                if (p[1] < 1 || p[1] > v || (p[2] != "" && (p[2] < 1 || p[2] > t)) || (p[3] != "" && (p[3] < 1 || p[3] > n))) bad++ } }
         END{ exit bad != 0 }' "$tmp/demo.obj" && ok || bad "OBJ face index out of range"
    if command -v assimp >/dev/null 2>&1; then
        assimp info "$tmp/demo.obj" >"$tmp/assimp" 2>&1; rc=$?
        if [ $rc = 0 ] && grep -q '^Meshes: *[1-9]' "$tmp/assimp"; then ok; else bad "assimp info does not load the OBJ (exit $rc)"; tail -5 "$tmp/assimp"; fi
        # one node per instance under the root
        if grep -q '^Nodes: *2748$' "$tmp/assimp"; then ok; else bad "assimp sees $(grep '^Nodes' "$tmp/assimp"), expected 2748 (2747 instances + root)"; fi
    else
        echo "note: assimp not installed (apt-get install assimp-utils): assimp load check skipped"
    fi

    # a region record whose object handle is 0: check names the field
    cp "$grf" "$tmp/broken.grf"
    off=$(od -An -tu4 -j $((48 + 32 + 8)) -N4 "$grf" | tr -d ' ')   # data offset of section 1 (.region)
    printf '\000\000\000\000' | dd of="$tmp/broken.grf" bs=1 seek=$((off + 4)) conv=notrunc 2>/dev/null
    expect_rc 1 "check of a broken region" "$RELIC" check "$tmp/broken.grf"
    contains "$tmp/out" "sections[1].instances[0].object" "the broken field is named"
fi

scn=$(ls ../shared/corpus/scn/*demo.scn 2>/dev/null | head -1)
if [ -n "$scn" ]; then
    expect_rc 0 "dump a scene" "$RELIC" dump "$scn" -o "$tmp/scn.json"
    contains "$tmp/scn.json" '"kind": "scn_header"' "scene header decoded"
    contains "$tmp/scn.json" '"kind": "scn_instance"' "instance states decoded"
    contains "$tmp/scn.json" 'Demo\\Candidate\\demo.grf' "level path readable"
    expect_rc 0 "JSON back to SCN" "$RELIC" convert "$tmp/scn.json" "$tmp/back.scn"
    if cmp -s "$scn" "$tmp/back.scn"; then ok; else bad "scene JSON round trip differs"; fi
    expect_rc 1 "a scene is not a level for OBJ" "$RELIC" convert "$scn" "$tmp/scene.obj"
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
