#!/bin/sh
# tres_cli_test.sh — the `relic` command on Trespasser levels and textures
# as a user runs it: hash (Trespasser source, Lib/Std/Hash.cpp), check --strict, JSON and
# binary round trips byte for byte of every real GRF, SCN and PID
# (../shared/corpus, skipped when absent), SZDD GRFs (.gr_) both ways,
# SWP -> SPZ -> SWP, exit codes. Prints "N passed, M failed". Env: RELIC.
RELIC=${RELIC:-build/relic}
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

expect_out 9FB57F53 "hash --object Player" "$RELIC" hash --object Player
expect_out A9AC56AE "hash of an SCN system section" "$RELIC" hash "AI System"
expect_out F0A07BD9 "hash --sound MISSING" "$RELIC" hash --sound MISSING
expect_out CBF43926 "hash is CRC-32" "$RELIC" hash 123456789
expect_rc 2 "hash without a name" "$RELIC" hash
expect_rc 2 "hash --bump without --texture" "$RELIC" hash --bump b.bmp x

grf=$(ls ../shared/corpus/grf/*.grf 2>/dev/null | head -1)
if [ -n "$grf" ]; then
    expect_out "31519BCE RaptorB" "hash --names resolves an SCN section name" "$RELIC" hash --names "$grf" 31519BCE
    expect_rc 1 "hash --names with an unknown hash" "$RELIC" hash --names "$grf" 1
    expect_rc 2 "hash --names with a non-hex name" "$RELIC" hash --names "$grf" Header
fi

files=""
for d in grf scn pid; do
    if [ -d ../shared/corpus/$d ]; then files="$files $(ls ../shared/corpus/$d/*.$d)"
    else echo "note: ../shared/corpus/$d not found: real-file checks skipped"; fi
done
for f in $files; do
    ext=${f##*.}
    expect_rc 0 "check --strict $f" "$RELIC" check --strict "$f"
    expect_rc 0 "info $f" "$RELIC" info "$f"
    expect_rc 0 "to JSON $f" "$RELIC" convert "$f" "$tmp/x.json"
    expect_rc 0 "from JSON $f" "$RELIC" convert "$tmp/x.json" "$tmp/back.$ext"
    if cmp -s "$f" "$tmp/back.$ext"; then ok; else bad "JSON round trip of $f differs"; fi
    expect_rc 0 "rewrite $f" "$RELIC" convert "$f" "$tmp/again.$ext"
    if cmp -s "$f" "$tmp/again.$ext"; then ok; else bad "rewrite of $f differs"; fi
    rm -f "$tmp/x.json" "$tmp/back.$ext" "$tmp/again.$ext"
    head -c 100 "$f" > "$tmp/cut.$ext"
    expect_rc 1 "check of a cut $f" "$RELIC" check "$tmp/cut.$ext"
done

# SZDD: compress an SCN as COMPRESS.EXE names it, read it back everywhere
scn=$(ls ../shared/corpus/scn/*.scn 2>/dev/null | head -1)
if [ -n "$scn" ]; then
    expect_rc 0 "compress to .sc_" "$RELIC" convert "$scn" "$tmp/level.sc_"
    if [ "$(head -c 4 "$tmp/level.sc_")" = SZDD ]; then ok; else bad ".sc_ is not SZDD"; fi
    expect_rc 0 "check --strict .sc_" "$RELIC" check --strict "$tmp/level.sc_"
    expect_rc 0 "decompress .sc_" "$RELIC" convert "$tmp/level.sc_" "$tmp/level.scn"
    if cmp -s "$scn" "$tmp/level.scn"; then ok; else bad "SZDD round trip differs"; fi
fi
# SWP -> SPZ -> SWP: a SWP is raw rasters (no magic)
{ yes 'palette index rows 0123456789' | head -c 60000; head -c 5000 /dev/urandom; } > "$tmp/tex.swp"
if true; then
    expect_rc 0 "compress a SWP" "$RELIC" convert "$tmp/tex.swp" "$tmp/tex.spz"
    expect_rc 0 "check the SPZ" "$RELIC" check "$tmp/tex.spz"
    expect_rc 0 "expand the SPZ" "$RELIC" convert "$tmp/tex.spz" "$tmp/back.swp"
    if cmp -s "$tmp/tex.swp" "$tmp/back.swp"; then ok; else bad "SPZ round trip differs"; fi
    head -c 1000 "$tmp/tex.spz" > "$tmp/cut.spz"
    expect_rc 1 "check of a cut SPZ" "$RELIC" check "$tmp/cut.spz"
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
