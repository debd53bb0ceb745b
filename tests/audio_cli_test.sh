#!/bin/sh
# audio_cli_test.sh — the `relic` command on Trespasser audio as a user runs
# it: check --strict, JSON and binary round trips byte for byte on every
# real TPA and CAU (../shared/corpus/tpa and cau, skipped when absent), CAU
# -> WAV accepted by sox (when installed), extract with --names and
# captions.json, encode WAV -> CAU (PCM and --adpcm with captions) and
# back, exit codes. Prints "N passed, M failed". Environment: RELIC.
RELIC=${RELIC:-build/relic}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
expect_rc() { # expected-rc description command...
    want=$1; shift; what=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ "$rc" = "$want" ]; then ok; else bad "$what: exit $rc, expected $want"; cat "$tmp/out" "$tmp/err" | head -5; fi
}
have_sox=0
command -v sox >/dev/null 2>&1 && have_sox=1
[ $have_sox = 1 ] || echo "note: sox not installed: WAV acceptance by sox skipped"

files=""
for d in tpa cau; do
    if [ -d ../shared/corpus/$d ]; then files="$files $(ls ../shared/corpus/$d/*.$d)"
    else echo "note: ../shared/corpus/$d not found: real-file checks skipped"; fi
done

n=0
for f in $files; do
    n=$((n + 1))
    ext=${f##*.}
    expect_rc 0 "check --strict $f" "$RELIC" check --strict "$f"
    if "$RELIC" convert "$f" "$tmp/$n.json" && "$RELIC" convert "$tmp/$n.json" "$tmp/$n.$ext" && cmp -s "$f" "$tmp/$n.$ext"; then ok
    else bad "JSON round trip of $f is not byte-exact"; fi
    if "$RELIC" convert "$f" "$tmp/$n.again.$ext" && cmp -s "$f" "$tmp/$n.again.$ext"; then ok
    else bad "binary round trip of $f is not byte-exact"; fi
    expect_rc 0 "info $f" "$RELIC" info "$f"
    expect_rc 0 "extract $f" "$RELIC" extract "$f" -C "$tmp/x$n"
    if [ $have_sox = 1 ]; then
        for w in "$tmp/x$n"/*.wav; do
            if sox "$w" -n stat >/dev/null 2>&1; then ok; else bad "sox rejects $w"; fi
        done
    fi
    if [ "$ext" = cau ]; then
        expect_rc 0 "convert $f to wav" "$RELIC" convert "$f" "$tmp/$n.wav"
        # the WAV back to a PCM sample, then to WAV again: the same samples
        expect_rc 0 "wav of $f to cau" "$RELIC" convert "$tmp/$n.wav" "$tmp/$n.pcm.cau"
        expect_rc 0 "pcm cau to wav" "$RELIC" convert "$tmp/$n.pcm.cau" "$tmp/$n.pcm.wav"
        if cmp -s "$tmp/$n.wav" "$tmp/$n.pcm.wav"; then ok; else bad "$f: WAV -> CAU -> WAV changed the WAV"; fi
        if [ -f "$tmp/x$n/captions.json" ]; then
            # captions survive encode --adpcm --captions and extract again
            expect_rc 0 "encode $f with captions" "$RELIC" encode "$tmp/$n.wav" "$tmp/$n.adpcm.cau" --adpcm --captions "$tmp/x$n/captions.json"
            expect_rc 0 "check encoded $f" "$RELIC" check --strict "$tmp/$n.adpcm.cau"
            expect_rc 0 "extract encoded $f" "$RELIC" extract "$tmp/$n.adpcm.cau" -C "$tmp/y$n"
            if [ "$(tail -n +3 "$tmp/x$n/captions.json")" = "$(tail -n +3 "$tmp/y$n/captions.json")" ]; then ok
            else bad "$f: captions changed through encode"; fi
        fi
    fi
done

# names: "MISSING" hashes to the fallback ID every bank starts with
if [ -d ../shared/corpus/tpa ]; then
    printf 'MISSING\n' > "$tmp/names.txt"
    bank=$(ls ../shared/corpus/tpa/*.tpa | head -1)
    expect_rc 0 "extract --names" "$RELIC" extract "$bank" -C "$tmp/named" --names "$tmp/names.txt"
    if [ -f "$tmp/named/MISSING.wav" ]; then ok; else bad "extract --names did not write MISSING.wav"; fi
fi

# a generated WAV through encode --adpcm
if [ $have_sox = 1 ]; then
    sox -n -r 22050 -b 16 -c 2 "$tmp/tone.wav" synth 1.5 sine 440 sine 660 2>/dev/null
    expect_rc 0 "encode stereo --adpcm" "$RELIC" encode "$tmp/tone.wav" "$tmp/tone.cau" --adpcm
    expect_rc 0 "check stereo adpcm" "$RELIC" check --strict "$tmp/tone.cau"
    if "$RELIC" info "$tmp/tone.cau" | grep -q 'ima_adpcm, 16-bit stereo'; then ok; else bad "tone.cau is not stereo ADPCM"; fi
fi

# foley: a bank holding only a collision record (impact 1 and slide)
{ printf '\120\001\000\000\000\000\000\000\030\000\000\000\001\000\000\000\030\000\000\000\000\000\000\000'
  printf '\001\000\000\000\002\000\000\000\201\000\000\000'; head -c 8 /dev/zero
  printf '\013\000\000\000\026\000\000\000\041\000\000\000'
  printf '\000\000\200\077'; head -c 116 /dev/zero; } > "$tmp/fx.tpa"
expect_rc 0 "check a bank with a collision record" "$RELIC" check --strict "$tmp/fx.tpa"
expect_rc 0 "foley" "$RELIC" foley "$tmp/fx.tpa" --velocity 3.5
if grep -q '2 sounds' "$tmp/out" && grep -q 'slide  0x00000021' "$tmp/out"; then ok; else bad "foley output"; cat "$tmp/out"; fi
expect_rc 2 "foley without --velocity" "$RELIC" foley "$tmp/fx.tpa"

# errors and usage
printf 'WBOR' > "$tmp/short.cau"
expect_rc 1 "truncated cau" "$RELIC" check "$tmp/short.cau"
if grep -q 'short.cau: .*@0x' "$tmp/out"; then ok; else bad "truncated cau: no FILE: field @0xOFFSET line"; fi
expect_rc 2 "extract without -C" "$RELIC" extract x.tpa
expect_rc 2 "encode with an unknown option" "$RELIC" encode --bogus a.wav b.cau
expect_rc 1 "encode from a non-sound file" "$RELIC" encode "$tmp/short.cau" "$tmp/z.cau"
expect_rc 0 "extract --help" "$RELIC" extract --help
echo "$pass passed, $fail failed"
[ $fail = 0 ]
