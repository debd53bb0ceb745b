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
    awk '{ printf "%-14s %8d %8d %8d\n", $1, $2, $3, $4; p += $2; f += $3; t += $4 }
         END { printf "%-14s %8s %8s %8d\n", "total", "", "", t; print p " passed, " f " failed"; exit f > 0 }' "$stages"
    exit $?
fi
name=$1; shift
mkdir -p "$(dirname "$stages")"
[ "$name" = --reset ] && { : >"$stages"; exit 0; }
out=$(mktemp)
start=$(date +%s)
{ "$@" 2>&1; echo $? >"$out.rc"; } | tee "$out"
rc=$(cat "$out.rc" 2>/dev/null || echo 1)
last=$(sed -n 's/^\([A-Za-z ]*: \)\{0,1\}\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\2 \3/p' "$out" | tail -1)
rm -f "$out" "$out.rc"
set -- ${last:-0 0}
p=$1 f=$2
[ "$rc" -ne 0 ] && [ "$f" = 0 ] && f=1
echo "$name $p $f $(($(date +%s) - start))" >>"$stages"
exit "$rc"
