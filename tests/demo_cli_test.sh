#!/bin/sh
# demo_cli_test.sh — `make demo`'s script (tests/demo.sh) on the samples
# relic makes, quickly (--samples-only): it exits 0, its table has a row for
# every format relic makes a sample of, every sample checks and comes back
# exact, and the pictures and exports are written (SVG, PNG, WAV, OBJ).
# Prints "N passed, M failed". Env: RELIC.
RELIC=${RELIC:-build/relic}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
if OUT="$tmp/out" sh tests/demo.sh "$RELIC" --samples-only >"$tmp/demo.log" 2>&1; then ok; else bad "demo.sh failed: $(tail -5 "$tmp/demo.log")"; fi
for fmt in bwm trn wtd pid swp cau tpa groff tpm tri trr erf gff; do
    if grep -qE "^samples +$fmt +[0-9]" "$tmp/demo.log"; then ok; else bad "no table row for $fmt"; fi
done
# the total row: every sample ok, every round trip exact
set -- $(grep '^all ' "$tmp/demo.log")
if [ "$#" = 5 ] && [ "$2" = "$3" ] && [ "${4%/*}" = "${4#*/}" ] && [ "$5" -gt 0 ]; then ok; else bad "total row: $*"; fi
for kind in svg png wav obj json; do
    n=$(find "$tmp/out" -name "*.$kind" | wc -l)
    if [ "$n" -gt 0 ]; then ok; else bad "no .$kind output"; fi
done
if grep -q "^pictures worth opening:" "$tmp/demo.log" && grep -q "preview.png" "$tmp/demo.log"; then ok; else bad "no pictures named"; fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
