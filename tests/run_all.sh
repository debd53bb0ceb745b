#!/bin/sh
# run_all.sh — run each test program given as an argument (cmocka or a
# script printing "N passed, M failed"), then print the totals as one line:
# "N passed, M failed". Exit status 1 when any test failed.
passed=0; failed=0; status=0
for t in "$@"; do
    echo "== $t"
    out=$(mktemp)
    # scripts run through sh so a lost execute bit cannot fail a test
    case "$t" in
        *.sh) sh "$t" >"$out" 2>&1; rc=$? ;;
        *) "$t" >"$out" 2>&1; rc=$? ;;
    esac
    cat "$out"
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -1)
    if [ -z "$p$f" ]; then
        p=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\1/p' "$out" | tail -1)
        f=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\2/p' "$out" | tail -1)
    fi
    passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
    if [ $rc -ne 0 ]; then
        status=1
        [ -z "$f" ] || [ "$f" = 0 ] && failed=$((failed + 1))
    fi
    rm -f "$out"
done
echo "tests: $passed passed, $failed failed"
exit $status
