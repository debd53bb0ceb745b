#!/bin/sh
# run.sh — `relic-gen --report` on one schema edit of each kind: each
# tests/regen_report/<case>/new.schema is an edit of base.schema, and the
# report must equal <case>/expected.txt (checked by hand when written); a
# case with its own base.schema (typed GFF edits) is an edit of that one.
# Each report also lists the Python names (relic._gen module) that appear,
# disappear, are renamed or change. Also: a schema against itself reports no
# change, C or Python. Prints "N passed, M failed".
GEN=${1:-build/relic-gen}
dir=tests/regen_report
pass=0; fail=0
for c in "$dir"/*/; do
    c=${c%/}
    base=$dir/base.schema
    [ -f "$c/base.schema" ] && base=$c/base.schema
    out=$("$GEN" --report "$base" "$c/new.schema" 2>&1)
    if [ "$out" = "$(cat "$c/expected.txt")" ]; then pass=$((pass + 1))
    else fail=$((fail + 1)); echo "FAIL: report for $(basename "$c") differs from expected.txt:"; echo "$out" | diff "$c/expected.txt" - | head -20; fi
done
for s in schema/*/*.schema; do
    out=$("$GEN" --report "$s" "$s")
    if echo "$out" | grep -q "no change to types" && echo "$out" | grep -q "^python names (.*): unchanged$"; then pass=$((pass + 1))
    else fail=$((fail + 1)); echo "FAIL: $s against itself reports changes"; fi
done
echo "regen report: $pass passed, $fail failed"
[ $fail = 0 ]
