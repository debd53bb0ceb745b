#!/bin/sh
# stage.sh — one stage of `make test`: run a command, show its output, and
# note its closing "N passed, M failed" line (or its exit status) in
# $STAGES (default build/test-stages) with its wall-clock seconds and the CPU
# seconds (user + system) of its processes, so the last stage can print one
# table. Stages may overlap (make test runs some beside the others), so the
# table's total is the wall time since --reset, not the sum of the rows.
#   sh tests/stage.sh NAME command...    run a stage
#   sh tests/stage.sh --report           the table and "N passed, M failed"
#   sh tests/stage.sh --reset            forget earlier stages
stages=${STAGES:-build/test-stages}
# CPU seconds of this shell's finished children, from the `times` builtin's second line
# ("XmY.Zs XmY.Zs"), which must run in this shell itself (a subshell has no children) into a file
cpu_of() { awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%d\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] + 0.5 }' "$1"; }
if [ "$1" = --report ]; then
    echo "== make test: stages"
    printf '%-14s %8s %8s %8s %8s\n' stage passed failed seconds cpu-s
    start=$(cat "$stages.start" 2>/dev/null || date +%s)
    # a failed stage's closing line (which tests or targets failed) under the table, the sum last
    awk -v wall=$(($(date +%s) - start)) '
         { printf "%-14s %8d %8d %8d %8d\n", $1, $2, $3, $4, $5; p += $2; f += $3; c += $5
           if ($3 > 0) { why = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ [^ ]+ [^ ]+ ?/, "", why); bad = bad "failed stage " $1 ": " why "\n" } }
         END { printf "%-14s %8s %8s %8d %8d   (wall seconds since the first stage; CPU: %.1f min, %.0f s on 2 cores)\n%s",
                      "total", "", "", wall, c, c / 60, c / 2, bad; exit f > 0 }' "$stages"
    st=$?
    # the last lines of each failed stage (a CI log that keeps only its tail still shows them)
    for t in "$stages".*.tail; do [ -f "$t" ] && { n=${t#"$stages".}; echo "== last lines of stage ${n%.tail}"; cat "$t"; }; done
    awk '{ p += $2; f += $3 } END { print p " passed, " f " failed" }' "$stages"
    exit $st
fi
name=$1; shift
mkdir -p "$(dirname "$stages")"
[ "$name" = --reset ] && { : >"$stages"; rm -f "$stages".*.tail; date +%s >"$stages.start"; exit 0; }
out=$(mktemp)
start=$(date +%s)
times >"$out.cpu"; cpu0=$(cpu_of "$out.cpu")
{ "$@" 2>&1; echo $? >"$out.rc"; } | tee "$out"
times >"$out.cpu"; cpu=$(($(cpu_of "$out.cpu") - cpu0))
rc=$(cat "$out.rc" 2>/dev/null || echo 1)
closing=$(grep -E '^([A-Za-z ]*: )?[0-9]+ passed, [0-9]+ failed' "$out" | tail -1)
last=$(printf '%s\n' "$closing" | sed -n 's/^\([A-Za-z ]*: \)\{0,1\}\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\2 \3/p')
set -- ${last:-0 0}
p=$1 f=$2
[ "$rc" -ne 0 ] && [ "$f" = 0 ] && f=1
[ "$f" != 0 ] && [ -z "$closing" ] && closing="exit status $rc"
[ "$f" != 0 ] && tail -8 "$out" >"$stages.$name.tail"
echo "$name $p $f $(($(date +%s) - start)) $cpu $closing" >>"$stages"
rm -f "$out" "$out.rc" "$out.cpu"
exit "$rc"
