#!/bin/sh
# mutate_formats.sh — `relic mutate` on a file of every format relic reads
# (issue 8, "Done when": distinct files; `relic check` accepts every
# valid-mode one and rejects every --invalid one with an error; nothing
# crashes). Samples are made by relic's own writers
# (tests/samples/make_format_samples.sh), so the test needs no corpus: BWM,
# GFF, ERF/MOD/HAK/RIM, TRN, GROFF GRF/SCN and SZDD .gr_/.sc_, PID, SWP,
# SPZ, WTD, TRI, TRR, TPM, TPA, CAU. With ../shared/corpus, the smallest
# real file of each format too.
# Per file: valid mode, N outputs: all distinct, none equal to the input,
# each accepted by `relic check` (exit 0); --invalid, N outputs: each
# rejected by `relic check` with exit status 1 and an error line naming
# the file. No exit status of 2 or more anywhere and no sanitizer report
# (the test also runs under ASan+UBSan in make test). Documented
# exception: `--invalid` on a raw .swp exits 1 with a message (any bytes
# are an SWP). Prints one table row per file, then "N passed, M failed".
# Environment: RELIC (the binary).
RELIC=${RELIC:-build/relic}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
S="$tmp/s"
mkdir -p "$S"

# a sanitizer report or a crash in the log of one command
sane() { # rc log what
    report=0
    while IFS= read -r line; do case "$line" in *Sanitizer*|*"runtime error:"*) report=1; break ;; esac; done <"$2"
    if [ "$1" -ge 2 ] || [ $report = 1 ]; then
        bad "$3: exit $1 or a sanitizer report"; head -5 "$2"; return 1
    fi
    return 0
}

# ---- samples made by relic's writers ----
RELIC="$RELIC" sh tests/samples/make_format_samples.sh "$S" >"$tmp/log" 2>&1 || { bad "making the samples"; cat "$tmp/log"; }

files=$(ls "$S"/* | grep -v '\.swp$')
swp="$S/level.swp"
if [ -d ../shared/corpus ]; then
    for d in bwm gff other trn trx scn grf pid tpa cau wtd; do
        [ -d "../shared/corpus/$d" ] || continue
        f=$(ls -S "../shared/corpus/$d"/* 2>/dev/null | tail -1)
        [ -n "$f" ] && files="$files $f"
    done
    # the other containers: the smallest ERF and RIM next to the smallest file
    for x in erf rim; do
        f=$(ls -S ../shared/corpus/other/*.$x 2>/dev/null | tail -1)
        case " $files " in *" $f "*) ;; *) [ -n "$f" ] && files="$files $f" ;; esac
    done
else
    echo "note: ../shared/corpus not found: real files skipped (samples made here only)"
fi

N=3
# under ASan (make test runs this twice), real files whose every check takes
# seconds (a WTD's whole grid, a GRF of megabytes) run in the plain build only
asan=0
grep -q __asan_init "$RELIC" 2>/dev/null && asan=1
# the outputs of one mutate run (its manifest.json aside) into $outs, and their count into $made
outputs() {
    outs=; made=0
    for m in "$1"/*; do
        [ -f "$m" ] && [ "${m##*/}" != manifest.json ] || continue
        outs="$outs $m"; made=$((made + 1))
    done
}
printf '%-44s %-8s %-8s\n' "file" "valid" "invalid"
k=0
for f in $files; do
    k=$((k + 1))
    n=$N
    size=$(wc -c <"$f")
    # every check of a real WTD decodes its whole grid (pv.wtd: 8192 x 8192, 256 MB)
    case "$f" in *.wtd) [ "$size" -gt 4096 ] && n=1 ;; esac
    name=${f##*/}
    if [ $asan = 1 ] && { [ $n = 1 ] || [ "$size" -gt 1048576 ]; }; then
        echo "note: $name: skipped under ASan (slow; checked by the plain build's run)"; continue
    fi
    # valid mode
    out="$tmp/v$k"
    "$RELIC" mutate "$f" -n $n -o "$out" --seed 7 >"$tmp/log" 2>&1; rc=$?
    sane $rc "$tmp/log" "mutate $name" || continue
    if [ $rc = 0 ]; then ok; else bad "mutate $name: exit $rc"; head -3 "$tmp/log"; continue; fi
    outputs "$out"
    if [ "$made" = $n ]; then ok; else bad "mutate $name: $made files, expected $n"; fi
    # distinct outputs, none equal to the input: one cksum over the input and the outputs (a
    # CRC and size equal to the input's is then compared byte for byte)
    # shellcheck disable=SC2086
    cksum "$f" $outs >"$tmp/sums"
    { read -r crc0 size0 _; sums=; same=0
      while read -r crc sz m; do
          sums="$sums$crc.$sz "
          [ "$crc.$sz" = "$crc0.$size0" ] && cmp -s "$m" "$f" && same=1
      done; } <"$tmp/sums"
    distinct=$(printf '%s\n' $sums | sort -u | wc -l)
    if [ "$distinct" = $n ]; then ok; else bad "mutate $name: $distinct distinct files of $n"; fi
    if [ $same = 0 ]; then ok; else bad "mutate $name: an output equals the input"; fi
    # one relic check over the outputs: "FILE: ok" for each accepted one
    # shellcheck disable=SC2086
    "$RELIC" check $outs >"$tmp/check" 2>&1; crc=$?
    sane $crc "$tmp/check" "check of the valid-mode $name outputs" || continue
    acc=0
    while IFS= read -r line; do case "$line" in *": ok") acc=$((acc + 1)) ;; esac; done <"$tmp/check"
    if [ $crc = 0 ] && [ "$acc" = $n ]; then ok
    else bad "mutate $name: relic check (exit $crc) accepted $acc of $n valid-mode files"; grep -v ': ok$' "$tmp/check" | head -3; fi
    # invalid mode
    out="$tmp/i$k"
    "$RELIC" mutate "$f" -n $n -o "$out" --seed 7 --invalid >"$tmp/log" 2>&1; rc=$?
    sane $rc "$tmp/log" "mutate --invalid $name" || continue
    if [ $rc = 0 ]; then ok; else bad "mutate --invalid $name: exit $rc"; head -3 "$tmp/log"; continue; fi
    outputs "$out"
    # shellcheck disable=SC2086
    "$RELIC" check $outs >"$tmp/check" 2>&1; crc=$?
    sane $crc "$tmp/check" "check of the invalid-mode $name outputs" || continue
    [ $crc = 1 ] || bad "check of the invalid-mode $name outputs: exit $crc, expected 1"
    # each output: an error line naming the file, and no "ok" for it
    rej=0
    for m in $outs; do
        named=0
        while IFS= read -r line; do
            case "$line" in "$m: ok") named=0; break ;; "$m:"*) named=1 ;; esac
        done <"$tmp/check"
        if [ $named = 1 ]; then rej=$((rej + 1)); else echo "  $m: no error line"; fi
    done
    if [ $rej = $n ]; then ok; else bad "mutate --invalid $name: relic check rejected $rej of $n with an error line"; fi
    printf '%-44s %-8s %-8s\n' "$(printf '%s' "$name" | tail -c 44)" "$acc/$n" "$rej/$n"
done

# a raw SWP: valid mode only; --invalid is refused with a reason (exit 1)
out="$tmp/swp"
"$RELIC" mutate "$swp" -n $N -o "$out" --seed 7 >"$tmp/log" 2>&1; rc=$?
sane $rc "$tmp/log" "mutate level.swp" && { if [ $rc = 0 ]; then ok; else bad "mutate level.swp: exit $rc"; fi; }
distinct=$(cd "$out" 2>/dev/null && ls | grep -v '^manifest.json$' | xargs cksum | awk '{print $1, $2}' | sort -u | wc -l)
if [ "$distinct" = $N ]; then ok; else bad "mutate level.swp: $distinct distinct files of $N"; fi
acc=0
for m in "$out"/*.swp; do "$RELIC" check "$m" >/dev/null 2>&1 && acc=$((acc + 1)); done
if [ $acc = $N ]; then ok; else bad "level.swp mutants: $acc of $N accepted"; fi
"$RELIC" mutate "$swp" -n 1 -o "$tmp/swpi" --invalid >"$tmp/log" 2>&1; rc=$?
if [ $rc = 1 ] && grep -q 'no invalid swp file exists' "$tmp/log"; then ok; else bad "mutate --invalid level.swp: exit $rc: $(head -1 "$tmp/log")"; fi
printf '%-44.44s %-8s %-8s\n' "level.swp" "$acc/$N" "(none)"

# valid mode refuses an input relic check rejects (and says so)
printf 'not a triangle file\n' >"$tmp/junk.tri"
"$RELIC" mutate "$tmp/junk.tri" -n 1 -o "$tmp/j" >"$tmp/log" 2>&1; rc=$?
if [ $rc = 1 ] && grep -q 'junk.tri: @0x0: ' "$tmp/log"; then ok; else bad "mutate of a broken TRI: exit $rc"; cat "$tmp/log"; fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
