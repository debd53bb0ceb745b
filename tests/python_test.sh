#!/bin/sh
# python_test.sh — the Python package's pytest suite (tests/python/) with
# Debian's python3, NumPy and pytest, against the libraries in build/ and
# $RELIC; skipped, saying so, when python3-numpy or python3-pytest is missing.
# Last line: "N passed, M failed".
PY=${PYTHON:-/usr/bin/python3}
here=$(cd "$(dirname "$0")/.." && pwd)
RELIC=${RELIC:-build/relic}
case $RELIC in /*) ;; *) RELIC=$here/$RELIC ;; esac
if ! "$PY" -c 'import numpy, pytest' 2>/dev/null; then
    echo "python_test: $PY lacks numpy or pytest (apt-get install python3-numpy python3-pytest): skipped"
    echo "0 passed, 0 failed"
    exit 0
fi
lib=${RELIC_LIB:-$(dirname "$RELIC")}
# a sanitizer build's librelic.so needs the sanitizer runtimes, which python3 does
# not load (the ASan pass covers the same entry points in build-*/tests/test_abi)
if nm -D "$lib/librelic.so" 2>/dev/null | grep -q ' U __\(asan\|sancov\|ubsan\)_'; then
    echo "note: $lib/librelic.so is a sanitizer build: the Python tests run in the plain pass only"
    echo "0 passed, 0 failed"
    exit 0
fi
out=$(cd "$here" && RELIC=$RELIC RELIC_LIB=$lib "$PY" -m pytest -q -p no:cacheprovider tests/python 2>&1)
status=$?
echo "$out" | tail -15
passed=$(echo "$out" | tail -1 | grep -o '[0-9]* passed' | grep -o '[0-9]*')
failed=$(echo "$out" | tail -1 | grep -o '[0-9]* \(failed\|error\)' | awk '{ n += $1 } END { print n + 0 }')
[ -n "$failed" ] || failed=0
[ $status = 0 ] || [ "$failed" != 0 ] || failed=1
echo "${passed:-0} passed, $failed failed"
[ "$failed" = 0 ]
