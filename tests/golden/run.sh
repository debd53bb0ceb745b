#!/bin/sh
# run.sh — golden test of relic-gen: generate tests/golden/mini.schema (a
# small format using every schema construct) into a temporary directory,
# compare each artifact with tests/golden/expected/, and compile the
# generated C with -Wall -Wextra -Werror.
# Usage (from the repository root):
#   tests/golden/run.sh path/to/relic-gen            compare and compile
#   tests/golden/run.sh path/to/relic-gen --update   rewrite the expected files
gen=
update=0
for arg in "$@"; do
    case $arg in
        --update) update=1 ;;
        *) gen=$arg ;;
    esac
done
if [ -z "$gen" ]; then
    echo "usage: $0 path/to/relic-gen [--update]" >&2
    exit 2
fi
dir=tests/golden
if [ ! -f "$dir/mini.schema" ]; then
    echo "run.sh: run it from the repository root ($dir/mini.schema not found)" >&2
    exit 2
fi
CC=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/relic-golden.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

if ! "$gen" -o "$tmp" --docs "$tmp/docs" --fuzz "$tmp/fuzz" "$dir/mini.schema"; then
    echo "FAIL generate: relic-gen rejected $dir/mini.schema"
    echo "0 passed, 1 failed"
    exit 1
fi

pass=0
fail=0
# expected name, generated path (the schema's family is its directory: golden)
for pair in mini.h:golden/mini.h mini.c:golden/mini.c mini_json.c:golden/mini_json.c \
            mini.md:docs/mini.md gen_mini.c:fuzz/gen_mini.c \
            mini_mutate.c:golden/mini_mutate.c gen_mini.dict:fuzz/dict/gen_mini.dict; do
    want=$dir/expected/${pair%%:*}
    got=$tmp/${pair#*:}
    if [ ! -f "$got" ]; then
        echo "FAIL ${pair%%:*}: relic-gen did not write ${pair#*:}"
        fail=$((fail + 1))
    elif [ "$update" = 1 ]; then
        mkdir -p "$dir/expected"
        cp "$got" "$want"
        echo "updated $want"
    elif diff -u "$want" "$got" >"$tmp/diff" 2>&1; then
        echo "ok ${pair%%:*}"
        pass=$((pass + 1))
    else
        echo "FAIL ${pair%%:*}: differs from $want (run with --update if the change is intended):"
        head -n 40 "$tmp/diff"
        fail=$((fail + 1))
    fi
done

# The generated C must compile cleanly (hooks are only needed at link time).
for src in golden/mini.c golden/mini_json.c golden/mini_mutate.c fuzz/gen_mini.c; do
    if $CC -std=c11 -Wall -Wextra -Werror -c -Iruntime/include/relic -Iruntime/json -Ifuzz -I"$tmp/golden" "$tmp/$src" -o "$tmp/out.o" 2>"$tmp/cc.log"; then
        echo "ok compile $(basename "$src")"
        pass=$((pass + 1))
    else
        echo "FAIL compile $(basename "$src"):"
        head -n 20 "$tmp/cc.log"
        fail=$((fail + 1))
    fi
done

[ "$update" = 1 ] && [ "$fail" -eq 0 ] && exit 0
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
