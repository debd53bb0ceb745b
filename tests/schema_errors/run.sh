#!/bin/sh
# run.sh — schema error tests: every NN_name.schema here is malformed on
# purpose and starts with a line "# expect: FILE:LINE:COL: MESSAGE", the exact
# first line relic-gen must print on stderr. Each must also exit with status 1.
# Usage (from the repository root): tests/schema_errors/run.sh path/to/relic-gen
gen=${1:?usage: $0 path/to/relic-gen}
dir=tests/schema_errors
if [ ! -d "$dir" ]; then
    echo "run.sh: run it from the repository root ($dir not found)" >&2
    exit 2
fi
pass=0
fail=0
tmp=${TMPDIR:-/tmp}/relic-schema-errors.$$
trap 'rm -f "$tmp"' EXIT
trap 'exit 130' INT TERM
for schema in "$dir"/*.schema; do
    name=$(basename "$schema" .schema)
    expect=$(sed -n '1s/^# expect: //p' "$schema")
    if [ -z "$expect" ]; then
        printf '%s\n' "FAIL $name: first line is not '# expect: FILE:LINE:COL: MESSAGE'"
        fail=$((fail + 1))
        continue
    fi
    "$gen" --check "$schema" 2>"$tmp" >/dev/null
    status=$?
    got=$(head -n 1 "$tmp")
    if [ "$status" -ne 1 ]; then
        printf '%s\n' "FAIL $name: expected exit status 1, got $status (first error: $got)"
        fail=$((fail + 1))
    elif [ "$got" != "$expect" ]; then
        printf '%s\n' "FAIL $name: expected $expect got $got"
        fail=$((fail + 1))
    else
        printf '%s\n' "ok $name"
        pass=$((pass + 1))
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
