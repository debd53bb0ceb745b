#!/bin/sh
# tpm_cli_test.sh — the `relic` command on TPM model text (Trespasser file formats, "TPM -
# Models") as a user runs it: info, check (--strict), dump to JSON, TPM ->
# TPM (normalised text, a fixed point), TPM -> OBJ -> TPM (positions, UVs,
# normals, faces and materials kept), GRF level -> TPM (the corpus demo GRF,
# skipped saying so when ../shared/corpus is absent), errors as FILE:LINE:COL, exit codes. The input is the
# seed's Mesh and Bone examples, typed here. Prints "N passed, M failed".
# Environment: RELIC.
RELIC=${RELIC:-build/relic}
# Debian's python3 (make deps): a python3 found first in PATH may be a wrapper (a pyenv shim
# costs 0.6 s of CPU per start)
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

cat > "$tmp/model.tpm" <<'TPM'
// Trespasser file formats, TPM examples
fileinfo
{
 formatversion = 1.0.1
 date = 7/2/2007 6:03:23 PM
}

mesh "Plane01"
{
 m = "wood04"
 m = "stone03"
 v = (-1.0,-0.5,0.0)
 v = (1.0,-0.5,0.0)
 v = (-1.0,0.5,0.0)
 v = (1.0,0.5,0.0)
 t = (0.0,0.0)
 t = (1.0,0.0)
 t = (0.0,1.0)
 t = (1.0,1.0)
 n = (0.0,0.0,1.0)
 f = (3,1,4),(3,1,4),(1,1,1),2
 f = (2,4,1),(2,4,1),(1,1,1),1
}

bone "$JRaptorB23"
{
 position = (0.002930,1.740082,0.810120)
 Anim00 = 7
 Ratio = 0.500000
}
TPM

expect_rc 0 "info" "$RELIC" info "$tmp/model.tpm"
if grep -q 'mesh "Plane01": 4 vertices, 4 texture coordinates, 1 normals, 2 faces, 2 materials' "$tmp/out"; then ok; else bad "info output"; cat "$tmp/out"; fi
expect_rc 0 "check --strict" "$RELIC" check --strict "$tmp/model.tpm"
expect_rc 0 "dump" "$RELIC" dump "$tmp/model.tpm" -o "$tmp/model.json"
if grep -q '"format": "tpm"' "$tmp/model.json" && grep -q '"text": "0.500000"' "$tmp/model.json"; then ok; else bad "dump content"; fi
if command -v "$PYTHON" >/dev/null 2>&1; then
    if "$PYTHON" -m json.tool "$tmp/model.json" >/dev/null 2>&1; then ok; else bad "dump is not valid JSON"; fi
fi
expect_rc 0 "tpm -> tpm" "$RELIC" convert "$tmp/model.tpm" "$tmp/a.tpm"
expect_rc 0 "tpm -> tpm again" "$RELIC" convert "$tmp/a.tpm" "$tmp/b.tpm"
if cmp -s "$tmp/a.tpm" "$tmp/b.tpm"; then ok; else bad "normalised TPM is not a fixed point"; fi
if grep -q '^ Ratio = 0.500000$' "$tmp/a.tpm" && grep -q '^// Trespasser file formats, TPM examples$' "$tmp/a.tpm"; then ok; else bad "extra bone values or comments not kept"; fi
expect_rc 0 "tpm -> obj" "$RELIC" convert "$tmp/model.tpm" "$tmp/model.obj"
if grep -q '^f 3/3/1 1/1/1 4/4/1$' "$tmp/model.obj" && grep -q '^usemtl stone03$' "$tmp/model.obj"; then ok; else bad "OBJ faces"; cat "$tmp/model.obj"; fi
expect_rc 0 "obj -> tpm" "$RELIC" convert "$tmp/model.obj" "$tmp/back.tpm"
"$RELIC" info "$tmp/back.tpm" > "$tmp/out" 2>&1
if grep -q 'mesh "model": 4 vertices, 4 texture coordinates, 1 normals, 2 faces, 2 materials' "$tmp/out"; then ok; else bad "OBJ -> TPM"; cat "$tmp/out"; fi
expect_rc 0 "check --strict of the imported model" "$RELIC" check --strict "$tmp/back.tpm"
# the mesh block's v, t, n and f lines survive TPM -> OBJ -> TPM (the OBJ numbers materials by first use,
# so the m lines and the faces' material index are compared by name in test_tpm.c instead)
sed -n '/^mesh "Plane01"/,/^}/p' "$tmp/a.tpm" | grep '^ [vtnf] =' | sed 's/),[0-9]*$/)/' > "$tmp/mesh_a"
sed -n '/^mesh "model"/,/^}/p' "$tmp/back.tpm" | grep '^ [vtnf] =' | sed 's/),[0-9]*$/)/' > "$tmp/mesh_b"
if [ -s "$tmp/mesh_a" ] && cmp -s "$tmp/mesh_a" "$tmp/mesh_b"; then ok; else bad "TPM -> OBJ -> TPM mesh differs"; diff "$tmp/mesh_a" "$tmp/mesh_b" | head; fi

# a GRF level -> TPM: one mesh per distinct model, one instance per region entry
grf=../shared/corpus/grf/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__demo.grf
if [ -f "$grf" ]; then
    expect_rc 0 "grf -> tpm" "$RELIC" convert "$grf" "$tmp/demo.tpm"
    expect_rc 0 "check of the level's TPM" "$RELIC" check "$tmp/demo.tpm"
    "$RELIC" info "$tmp/demo.tpm" > "$tmp/out" 2>&1
    meshes=$(grep -c '^  mesh "' "$tmp/out"); instances=$(grep -c '^instance "' "$tmp/demo.tpm")
    if [ "$meshes" -gt 0 ] && [ "$instances" -ge "$meshes" ]; then ok; else bad "level TPM: $meshes meshes, $instances instances"; fi
else
    echo "note: $grf not found: the GRF -> TPM part is skipped"
fi

# errors: FILE: @0xOFFSET: line L, column C: message, exit 1
printf 'mesh "x"\n{\n v = (1,2,3)\n f = (1,1,2),(0,0,0),(0,0,0),0\n}\n' > "$tmp/bad.tpm"
expect_rc 1 "face index past the vertices" "$RELIC" check "$tmp/bad.tpm"
if grep -q "bad.tpm: @0x22: line 4, column 11: vertex index 2 is past the 1 vertices" "$tmp/out"; then ok; else bad "error position"; cat "$tmp/out"; fi
printf 'mesh "x"\n{\n v = (1,2\n}\n' > "$tmp/bad2.tpm"
expect_rc 1 "unterminated tuple" "$RELIC" info "$tmp/bad2.tpm"
if grep -q "bad2.tpm: @0x14: line 3, column 10: expected ','" "$tmp/out"; then ok; else bad "tuple error position"; cat "$tmp/out"; fi
printf 'mesh "x"\n{\n n = (0,0,2)\n}\n' > "$tmp/warn.tpm"
expect_rc 1 "check --strict finds an unnormalised normal and no fileinfo" "$RELIC" check --strict "$tmp/warn.tpm"
if grep -q "normal 1 has length 2" "$tmp/out" && grep -q "no fileinfo" "$tmp/out"; then ok; else bad "strict findings"; cat "$tmp/out"; fi
expect_rc 0 "check without --strict" "$RELIC" check "$tmp/warn.tpm"
expect_rc 1 "tpm -> png is not offered" "$RELIC" convert "$tmp/model.tpm" "$tmp/x.png"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
