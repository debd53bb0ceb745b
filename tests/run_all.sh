#!/bin/sh
# run_all.sh — run each test program given as an argument (cmocka, or a
# script printing "N passed, M failed"), up to $JOBS at a time (default: all
# cores), then print each test's output in the order given, a table of the
# tests run (passed, failed, wall seconds, CPU seconds of its processes and
# the system part of them) and the totals as one line:
# "tests: N passed, M failed" (also into the file $TESTS_TABLE when set, for
# make test's closing summary). Exit status 1 when any test failed.
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# one test: its output, exit code and wall seconds into $dir/<index>.*
run_one() {
    i=$1 t=$2
    start=$(date +%s)
    # scripts run through sh so a lost execute bit cannot fail a test.
    # Their relic processes skip LeakSanitizer's exit-time scan (in a
    # sanitizer build it is half of each process's cost, and the CLI may
    # use the heap); the library's leaks are caught by the cmocka tests and
    # the fuzz targets, which keep it.
    case "$t" in
        *.sh) ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" sh "$t" >"$dir/$i.out" 2>&1 ;;
        *) "$t" >"$dir/$i.out" 2>&1 ;;
    esac
    echo $? >"$dir/$i.rc"
    echo $(($(date +%s) - start)) >"$dir/$i.sec"
    # CPU seconds (user + system) of the test's whole process tree: this shell's
    # finished children, from the `times` builtin's second line ("XmY.Zs XmY.Zs"),
    # which must run in this shell itself (a pipeline's subshell has no children)
    times >"$dir/$i.times"
    awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.1f %.1f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2], s[1] * 60 + s[2] }' "$dir/$i.times" >"$dir/$i.cpu"
}

# xargs runs the tests in parallel, each through this script (--one)
if [ "$1" = --one ]; then dir=$2; run_one "$3" "$4"; exit 0; fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM

# the samples of tests/samples/make_format_samples.sh, made once with $RELIC for the shell tests
# that make them (it copies them from here for that relic); when making them fails, each test
# makes its own and reports the failure as before
case " $* " in *.sh\ *)
    if [ -n "$RELIC" ] && [ -z "$FORMAT_SAMPLES" ] &&
       ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" RELIC=$RELIC \
           sh tests/samples/make_format_samples.sh "$dir/format-samples" >"$dir/format-samples.log" 2>&1; then
        FORMAT_SAMPLES=$dir/format-samples FORMAT_SAMPLES_RELIC=$RELIC
        export FORMAT_SAMPLES FORMAT_SAMPLES_RELIC
    fi ;;
esac
i=0
for t in "$@"; do i=$((i + 1)); printf '%s %s\n' "$i" "$t"; done |
    xargs -P "$jobs" -L 1 sh "$0" --one "$dir"

passed=0; failed=0; status=0; i=0; names=""
table=""
for t in "$@"; do
    i=$((i + 1))
    out="$dir/$i.out"
    echo "== $t"
    cat "$out"
    rc=$(cat "$dir/$i.rc" 2>/dev/null || echo 1)
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -1)
    if [ -z "$p$f" ]; then
        p=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\1/p' "$out" | tail -1)
        f=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\2/p' "$out" | tail -1)
    fi
    p=${p:-0}; f=${f:-0}
    if [ "$rc" -ne 0 ]; then
        status=1
        [ "$f" = 0 ] && f=1
    fi
    [ "$f" = 0 ] || names="$names ${t##*/}"
    passed=$((passed + p)); failed=$((failed + f))
    set -- $(cat "$dir/$i.cpu" 2>/dev/null)
    table="$table$(printf '%6s %6s %5ss %7s %6s  %s' "$p" "$f" "$(cat "$dir/$i.sec" 2>/dev/null)" "${1:--}" "${2:--}" "$t")
"
done
{
echo "== tests run ($jobs at a time)"
printf '%6s %6s %6s %7s %6s  %s\n' passed failed time cpu-s sys-s test
printf '%s' "$table"
echo "tests: $passed passed, $failed failed${names:+ (failed:$names)}"
} | if [ -n "$TESTS_TABLE" ]; then tee "$TESTS_TABLE"; else cat; fi
exit $status
