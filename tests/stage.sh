#!/bin/sh
# stage.sh — one stage of `make test`: run a command, show its output, and
# note its closing "N passed, M failed" line (or its exit status) in
# $STAGES (default build/test-stages) with its wall-clock seconds, so the last
# stage can print one table.
#   sh tests/stage.sh NAME command...    run a stage
#   sh tests/stage.sh --report           the table and "N passed, M failed"
#   sh tests/stage.sh --reset            forget earlier stages
stages=${STAGES:-build/test-stages}
if [ "$1" = --report ]; then
    echo "== make test: stages"
    printf '%-14s %8s %8s %8s\n' stage passed failed seconds
    # a failed stage's closing line (which tests or targets failed) under the table, the sum last
    awk '{ printf "%-14s %8d %8d %8d\n", $1, $2, $3, $4; p += $2; f += $3; t += $4
           if ($3 > 0) { why = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ [^ ]+ ?/, "", why); bad = bad "failed stage " $1 ": " why "\n" } }
         END { printf "%-14s %8s %8s %8d\n%s", "total", "", "", t, bad; exit f > 0 }' "$stages"
    st=$?
    # the last lines of each failed stage (a CI log that keeps only its tail still shows them)
    for t in "$stages".*.tail; do [ -f "$t" ] && { n=${t#"$stages".}; echo "== last lines of stage ${n%.tail}"; cat "$t"; }; done
    awk '{ p += $2; f += $3 } END { print p " passed, " f " failed" }' "$stages"
    exit $st
fi
name=$1; shift
mkdir -p "$(dirname "$stages")"
[ "$name" = --reset ] && { : >"$stages"; rm -f "$stages".*.tail; exit 0; }
out=$(mktemp)
start=$(date +%s)
{ "$@" 2>&1; echo $? >"$out.rc"; } | tee "$out"
rc=$(cat "$out.rc" 2>/dev/null || echo 1)
closing=$(grep -E '^([A-Za-z ]*: )?[0-9]+ passed, [0-9]+ failed' "$out" | tail -1)
last=$(printf '%s\n' "$closing" | sed -n 's/^\([A-Za-z ]*: \)\{0,1\}\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\2 \3/p')
set -- ${last:-0 0}
p=$1 f=$2
[ "$rc" -ne 0 ] && [ "$f" = 0 ] && f=1
[ "$f" != 0 ] && [ -z "$closing" ] && closing="exit status $rc"
[ "$f" != 0 ] && tail -8 "$out" >"$stages.$name.tail"
echo "$name $p $f $(($(date +%s) - start)) $closing" >>"$stages"
rm -f "$out" "$out.rc"
exit "$rc"
