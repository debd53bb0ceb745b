#!/bin/sh
# audio_cli_test.sh — the `relic` command on Trespasser audio as a user runs
# it: check --strict, JSON and binary round trips byte for byte on every
# real TPA and CAU (../shared/corpus/tpa and cau, skipped when absent), CAU
# -> WAV accepted by sox (when installed), extract with --names and
# captions.json, encode WAV -> CAU (PCM and --adpcm with captions) and
# back, convert WAV -> CAU with --adpcm --captions, extracted WAVs accepted
# by FFmpeg (when installed), extract -> pack-sounds giving every real bank
# back byte for byte (identifier table, shared samples, captions and their
# slack bytes, Foley table), pack-sounds from a plain directory of WAVs
# (each sample the bytes `relic encode` writes; samples stored in the order
# identifiers first name them; to standard output),
# exit codes. Prints "N passed, M failed". Environment: RELIC.
RELIC=${RELIC:-build/relic}
# Debian's python3 (make deps): a python3 found first in PATH may be a wrapper (a pyenv shim
# costs 0.6 s of CPU per start)
PYTHON=${PYTHON:-/usr/bin/python3}; [ -x "$PYTHON" ] || PYTHON=python3
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
have_ffprobe=0
command -v ffprobe >/dev/null 2>&1 && command -v ffmpeg >/dev/null 2>&1 && have_ffprobe=1
[ $have_ffprobe = 1 ] || echo "note: ffprobe or ffmpeg not installed: WAV acceptance by FFmpeg skipped"
# WAV...: FFmpeg's demuxer sees a PCM stream in each and reports no error (ffprobe -v error
# prints nothing), one check per file. One ffmpeg -i per file, all in one process: ffprobe took
# 0.15-0.25 s of CPU per file, nearly all of it start-up. When ffmpeg reports an error (it
# stops at the first bad input), ffprobe checks each file of the batch, naming the bad ones.
ffmpeg_accepts() {
    inputs=
    for w in "$@"; do inputs="$inputs -i $w"; done
    # shellcheck disable=SC2086
    ffmpeg -hide_banner -nostdin -loglevel level+info $inputs >"$tmp/ffm" 2>&1
    pcm=" "; err=0
    while IFS= read -r line; do
        case "$line" in
        "[info]   Stream #"*": Audio: pcm_"[su]*) k=${line#"[info]   Stream #"}; pcm="$pcm${k%%:*} " ;;
        "[fatal] At least one output file must be specified") ;;
        "[error]"*|"[fatal]"*|"[panic]"*) err=1 ;;
        esac
    done <"$tmp/ffm"
    k=0
    for w in "$@"; do
        case "$pcm" in *" $k "*) [ $err = 0 ] && { ok; k=$((k + 1)); continue; } ;; esac
        # one PCM stream and no error, as ffprobe sees the file
        if ffprobe -v error -show_entries stream=codec_name,duration -of csv=p=0 "$w" 2>"$tmp/ffp" | grep -q '^pcm_[su]' && [ ! -s "$tmp/ffp" ]; then ok
        else bad "ffprobe rejects $w"; head -3 "$tmp/ffp"; fi
        k=$((k + 1))
    done
}
# make test's sanitizer pass (CORPUS_SWEEPS=0) hands sox and ffprobe one extracted WAV in 8: the
# plain pass hands them every one, and their runs are the same in both passes
wav_stride=1
if [ "${CORPUS_SWEEPS:-1}" = 0 ]; then
    wav_stride=8
    echo "note: CORPUS_SWEEPS=0: sox and ffprobe check one extracted WAV in $wav_stride (make test's plain pass checks all)"
fi

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
    k=0; wavs=
    for w in "$tmp/x$n"/*.wav; do
        k=$((k + 1))
        [ $(((k - 1) % wav_stride)) = 0 ] || continue
        if [ $have_sox = 1 ]; then
            if sox "$w" -n stat >/dev/null 2>&1; then ok; else bad "sox rejects $w"; fi
        fi
        wavs="$wavs $w"
    done
    # shellcheck disable=SC2086
    [ $have_ffprobe = 1 ] && [ -n "$wavs" ] && ffmpeg_accepts $wavs
    if [ "$ext" = tpa ]; then
        # the extracted directory packs back to the same bank
        expect_rc 0 "pack-sounds $f" "$RELIC" pack-sounds "$tmp/x$n" "$tmp/$n.packed.tpa"
        if cmp -s "$f" "$tmp/$n.packed.tpa"; then ok; else bad "extract -> pack-sounds of $f is not byte-exact"; fi
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
            # convert takes the same options and makes the same sample
            expect_rc 0 "convert $f with --adpcm --captions" "$RELIC" convert "$tmp/$n.wav" "$tmp/$n.conv.cau" --adpcm --captions "$tmp/x$n/captions.json"
            if cmp -s "$tmp/$n.adpcm.cau" "$tmp/$n.conv.cau"; then ok; else bad "$f: convert --adpcm --captions differs from encode"; fi
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

# pack-sounds from a plain directory: IDs from file names (8 hex digits, or
# a sound name hashed), PCM by default, IMA ADPCM with --adpcm
if [ $have_sox = 1 ]; then
    mkdir -p "$tmp/plain"
    sox -n -r 22050 -b 16 -c 1 "$tmp/plain/MISSING.wav" synth 0.5 sine 300 2>/dev/null
    sox -n -r 11025 -b 16 -c 2 "$tmp/plain/0000BEEF.wav" synth 0.3 sine 500 sine 700 2>/dev/null
    expect_rc 0 "pack-sounds of plain WAVs" "$RELIC" pack-sounds "$tmp/plain" "$tmp/plain.tpa" --adpcm
    expect_rc 0 "check --strict the packed bank" "$RELIC" check --strict "$tmp/plain.tpa"
    "$RELIC" info "$tmp/plain.tpa" > "$tmp/out" 2>&1
    if grep -q '0x0000BEEF .*ima_adpcm 16-bit stereo 11025 Hz' "$tmp/out" && grep -q '0xF0A07BD9 .*ima_adpcm 16-bit mono' "$tmp/out"; then ok
    else bad "plain pack-sounds: identifiers or storage"; cat "$tmp/out"; fi
    # a sounds.json naming one sample twice stores it once
    printf '{"format": "tpa sounds", "sounds": [{"name": "MISSING", "file": "MISSING.wav", "master_volume": -6},\n {"sound_id": "0x12", "same_sample_as": "0xF0A07BD9", "attenuation": 0.5}]}\n' > "$tmp/plain/sounds.json"
    expect_rc 0 "pack-sounds with a shared sample" "$RELIC" pack-sounds "$tmp/plain" "$tmp/shared.tpa"
    if "$RELIC" info "$tmp/shared.tpa" | grep -q '2 identifiers, 1 distinct samples (0 IMA ADPCM, 1 PCM'; then ok; else bad "shared sample not stored once"; "$RELIC" info "$tmp/shared.tpa"; fi
    printf '{"format": "tpa sounds", "sounds": [{"sound_id": "0x12", "file": "MISSING.wav", "bits": 12}]}\n' > "$tmp/plain/sounds.json"
    expect_rc 1 "pack-sounds with bad bits" "$RELIC" pack-sounds "$tmp/plain" "$tmp/bad.tpa"
    if grep -q 'sounds.json: sounds\[0\].bits' "$tmp/err"; then ok; else bad "bad sounds.json: no field path"; cat "$tmp/err"; fi
fi
# pack-sounds writes each sample as `relic encode` writes the CAU, byte for
# byte (a one-sound bank holds the 24-byte header, one 56-byte identifier,
# then the sample), for each kind of WAV it reads, PCM and IMA ADPCM; a
# shared identifier naming a later sample first stores it first; writing to
# standard output gives the same bytes as writing to a file (the summary
# line follows them)
if [ $have_sox = 1 ]; then
    sox -n -r 22050 -b 8 -c 1 "$tmp/w8.wav" synth 0.4 sine 200 2>/dev/null
    sox -n -r 22050 -b 24 -c 2 "$tmp/w24.wav" synth 0.4 sine 200 sine 900 2>/dev/null
    sox -n -r 44100 -e floating-point -b 32 -c 1 "$tmp/wf.wav" synth 0.3 sine 200 2>/dev/null
    for w in w8 w24 wf; do
        for mode in "" --adpcm; do
            rm -rf "$tmp/one" && mkdir -p "$tmp/one" && cp "$tmp/$w.wav" "$tmp/one/0000CAFE.wav"
            # shellcheck disable=SC2086
            "$RELIC" pack-sounds "$tmp/one" "$tmp/one.tpa" $mode >/dev/null && "$RELIC" encode "$tmp/$w.wav" "$tmp/one.cau" $mode >/dev/null
            if tail -c +81 "$tmp/one.tpa" | cmp -s - "$tmp/one.cau"; then ok; else bad "pack-sounds $w $mode: the sample differs from relic encode's CAU"; fi
        done
    done
    rm -rf "$tmp/order" && mkdir -p "$tmp/order" && cp "$tmp/w8.wav" "$tmp/order/a.wav" && cp "$tmp/wf.wav" "$tmp/order/b.wav"
    printf '{"format": "tpa sounds", "sounds": [{"sound_id": "0x1", "file": "a.wav"},\n {"sound_id": "0x2", "same_sample_as": "0x3"},\n {"sound_id": "0x3", "file": "b.wav", "compression": "ima_adpcm"}]}\n' > "$tmp/order/sounds.json"
    expect_rc 0 "pack-sounds, a shared identifier first" "$RELIC" pack-sounds "$tmp/order" "$tmp/order.tpa"
    expect_rc 0 "check --strict that bank" "$RELIC" check --strict "$tmp/order.tpa"
    "$RELIC" pack-sounds "$tmp/order" - > "$tmp/order.stdout.tpa" 2>/dev/null
    if head -c "$(wc -c < "$tmp/order.tpa")" "$tmp/order.stdout.tpa" | cmp -s - "$tmp/order.tpa"; then ok; else bad "pack-sounds to standard output differs from the file"; fi
    expect_rc 0 "extract that bank" "$RELIC" extract "$tmp/order.tpa" -C "$tmp/order2"
    expect_rc 0 "pack-sounds it again" "$RELIC" pack-sounds "$tmp/order2" "$tmp/order2.tpa"
    if cmp -s "$tmp/order.tpa" "$tmp/order2.tpa"; then ok; else bad "extract -> pack-sounds of a bank with a shared sample first is not byte-exact"; fi
fi
expect_rc 1 "pack-sounds of a missing directory" "$RELIC" pack-sounds "$tmp/nonexistent" "$tmp/none.tpa"
expect_rc 2 "pack-sounds without OUT" "$RELIC" pack-sounds "$tmp/plain"
expect_rc 2 "convert --adpcm to a non-cau" "$RELIC" convert "$tmp/plain/MISSING.wav" "$tmp/x.json" --adpcm

# foley: a bank holding only a collision record (impact 1 and slide)
{ printf '\120\001\000\000\000\000\000\000\030\000\000\000\001\000\000\000\030\000\000\000\000\000\000\000'
  printf '\001\000\000\000\002\000\000\000\201\000\000\000'; head -c 8 /dev/zero
  printf '\013\000\000\000\026\000\000\000\041\000\000\000'
  printf '\000\000\200\077'; head -c 116 /dev/zero; } > "$tmp/fx.tpa"
expect_rc 0 "check a bank with a collision record" "$RELIC" check --strict "$tmp/fx.tpa"
expect_rc 0 "foley" "$RELIC" foley "$tmp/fx.tpa" --velocity 3.5
if grep -q '2 sounds' "$tmp/out" && grep -q 'slide  0x00000021' "$tmp/out"; then ok; else bad "foley output"; cat "$tmp/out"; fi
expect_rc 2 "foley without --velocity" "$RELIC" foley "$tmp/fx.tpa"
# its Foley table goes through extract (foley.json) and pack-sounds unchanged
expect_rc 0 "extract a bank with a collision table" "$RELIC" extract "$tmp/fx.tpa" -C "$tmp/fx"
if [ -f "$tmp/fx/foley.json" ]; then ok; else bad "extract wrote no foley.json"; fi
expect_rc 0 "pack-sounds with foley.json" "$RELIC" pack-sounds "$tmp/fx" "$tmp/fx2.tpa"
if cmp -s "$tmp/fx.tpa" "$tmp/fx2.tpa"; then ok; else bad "Foley table changed through extract -> pack-sounds"; fi

# CAU -> WAV (the streaming decoder) equals sox decoding the same blocks in
# an IMA ADPCM WAV, sample for sample, on every real ADPCM sample
if [ $have_sox = 1 ] && command -v "$PYTHON" >/dev/null 2>&1 && [ -d ../shared/corpus/cau ]; then
    for f in ../shared/corpus/cau/*.cau; do
        "$RELIC" convert "$f" "$tmp/dec.wav" || { bad "convert $f to WAV"; continue; }
        # the sample's whole blocks in a WAV IMA ADPCM container (tag 0x11)
        "$PYTHON" - "$f" "$tmp/ima.wav" <<'PY' || continue
import struct, sys
d = open(sys.argv[1], 'rb').read()
doff, ba, dsize = struct.unpack_from('<III', d, 8)
rate, bits, ch, comp = struct.unpack_from('<IBBB', d, 24)
if comp != 1: sys.exit(1)  # PCM: nothing to compare
data = d[doff:doff + dsize // ba * ba]
spb = 1 + 8 * ((ba - 8) // 8) if ch == 2 else 1 + 2 * (ba - 4)
fmt = struct.pack('<HHIIHHHH', 0x11, ch, rate, rate * ba // spb, ba, 4, 2, spb)
body = b'WAVEfmt ' + struct.pack('<I', len(fmt)) + fmt + b'fact' + struct.pack('<II', 4, len(data) // ba * spb)
body += b'data' + struct.pack('<I', len(data)) + data
open(sys.argv[2], 'wb').write(b'RIFF' + struct.pack('<I', len(body)) + body)
PY
        sox "$tmp/ima.wav" -t raw -e signed -b 16 -L "$tmp/sox.raw" 2>/dev/null
        n=$(wc -c < "$tmp/sox.raw")
        if [ "$n" -gt 0 ] && tail -c +45 "$tmp/dec.wav" | head -c "$n" | cmp -s - "$tmp/sox.raw"; then ok
        else bad "relic convert $f differs from sox ($n bytes)"; fi
    done
fi

# WAV inputs relic reads itself: 24-bit PCM, 32-bit float, 8-bit; other
# sound formats are refused with the command that converts them
if [ $have_sox = 1 ]; then
    sox -n -r 11025 -b 24 -c 2 "$tmp/w24.wav" synth 0.4 sine 440 2>/dev/null
    sox -n -r 11025 -e floating-point -b 32 -c 1 "$tmp/wf.wav" synth 0.4 sine 440 2>/dev/null
    sox -n -r 11025 -b 8 -c 1 "$tmp/w8.wav" synth 0.4 sine 440 2>/dev/null
    for w in w24 wf w8; do
        expect_rc 0 "encode $w.wav" "$RELIC" encode "$tmp/$w.wav" "$tmp/$w.cau"
        expect_rc 0 "convert $w.cau back to WAV" "$RELIC" convert "$tmp/$w.cau" "$tmp/$w.back.wav"
        if [ "$(sox --i -s "$tmp/$w.wav")" = "$(sox --i -s "$tmp/$w.back.wav")" ]; then ok
        else bad "$w: sample count changed through CAU"; fi
    done
    if "$RELIC" info "$tmp/w8.cau" | grep -q '8-bit mono'; then ok; else bad "8-bit WAV not stored as 8-bit PCM"; fi
    cmp -s "$tmp/w8.wav" "$tmp/w8.back.wav" && ok || bad "8-bit WAV -> CAU -> WAV not byte-exact"
    if sox -n -r 11025 -c 1 "$tmp/x.flac" synth 0.1 sine 300 2>/dev/null; then
        expect_rc 1 "encode from FLAC" "$RELIC" encode "$tmp/x.flac" "$tmp/flac.cau"
        if grep -q 'FLAC' "$tmp/err" && grep -q 'sox' "$tmp/err" && grep -q 'ffmpeg' "$tmp/err"; then ok
        else bad "FLAC input: no conversion hint"; cat "$tmp/err"; fi
    fi
fi

# extract reads a bank's tables without its sample data and checks what it
# relies on: an identifier whose header copy differs from its sample's is
# refused with the entry's offset
if command -v "$PYTHON" >/dev/null 2>&1 && [ -d ../shared/corpus/cau ]; then
    cau=$(ls ../shared/corpus/cau/*.cau | head -1)
    "$PYTHON" - "$cau" "$tmp/one.tpa" "$tmp/badcopy.tpa" <<'PY'
import struct, sys
c = open(sys.argv[1], 'rb').read()
hdr = c[:36]
def bank(copy):
    return struct.pack('<IIIIII', 0x150, 1, 24, 0, 80 + len(c), 1) + struct.pack('<IIIff', 0x1234, 80, len(c), 0.0, 0.0) + copy + c
open(sys.argv[2], 'wb').write(bank(hdr))
open(sys.argv[3], 'wb').write(bank(hdr[:24] + struct.pack('<I', 12345) + hdr[28:]))
PY
    expect_rc 0 "extract a one-sample bank" "$RELIC" extract "$tmp/one.tpa" -C "$tmp/one"
    if [ -f "$tmp/one/00001234.wav" ]; then ok; else bad "one-sample bank: no 00001234.wav"; fi
    expect_rc 1 "extract a bank whose header copy differs" "$RELIC" extract "$tmp/badcopy.tpa" -C "$tmp/badcopy"
    if grep -q 'badcopy.tpa: ids\[0\].header @0x18' "$tmp/err"; then ok; else bad "bad header copy: no ids[0].header @0x18"; cat "$tmp/out" "$tmp/err"; fi
fi

# a bad block deep in the stream: exit 1, FILE @0xOFFSET of the step index,
# and no output left behind
{ printf 'WBOR'; printf 'n\000\000\000'; printf '$\000\000\000'; printf '\004\004\000\000'
  printf '\020\020\000\000'; printf '\010\100\000\000'; printf '"V\000\000'; printf '\020\001\001\000'
  printf '\000\000\000\000'; head -c 1028 /dev/zero; printf '\000\000Y\000'; head -c 3080 /dev/zero; } > "$tmp/badstep.cau"
expect_rc 1 "convert a CAU with a bad step index" "$RELIC" convert "$tmp/badstep.cau" "$tmp/badstep.wav"
if grep -q 'badstep.cau: .*@0x42a' "$tmp/err"; then ok; else bad "bad step index: no @0x42a"; cat "$tmp/err"; fi
[ -e "$tmp/badstep.wav" ] && bad "a failed convert left its output" || ok

# errors and usage
printf 'WBOR' > "$tmp/short.cau"
expect_rc 1 "truncated cau" "$RELIC" check "$tmp/short.cau"
if grep -q 'short.cau: .*@0x' "$tmp/out"; then ok; else bad "truncated cau: no FILE: field @0xOFFSET line"; fi
# (extract reads its input first: which options it needs depends on the format)
expect_rc 2 "extract a sample without -C" "$RELIC" extract "$tmp/badstep.cau"
expect_rc 1 "extract a missing file" "$RELIC" extract "$tmp/missing.tpa" -C "$tmp/none"
expect_rc 2 "encode with an unknown option" "$RELIC" encode --bogus a.wav b.cau
expect_rc 1 "encode from a non-sound file" "$RELIC" encode "$tmp/short.cau" "$tmp/z.cau"
expect_rc 0 "extract --help" "$RELIC" extract --help
echo "$pass passed, $fail failed"
[ $fail = 0 ]
