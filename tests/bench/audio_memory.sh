# audio_memory.sh — peak RSS of the audio commands on a large input (target:
# <= 8 MiB whatever the size, the data streamed block by block): a WAV of
# >= 60 MB made from a corpus clip repeated (sox), `relic encode` to PCM and
# to IMA ADPCM, `relic pack-sounds` of a directory holding it (PCM and IMA
# ADPCM), and `relic extract` of the PCM bank. CPU time and peak RSS from
# wait4 (cpu_run).
# Usage: RELIC=build/relic sh tests/bench/audio_memory.sh
set -u
. tests/bench/rows.sh
RELIC=${RELIC:-build/relic}
C=$(ls -S ../shared/corpus/cau/*.cau 2>/dev/null | head -1)
[ -n "$C" ] || { echo "audio_memory: ../shared/corpus/cau not present: skipped"; exit 0; }
command -v sox >/dev/null 2>&1 || { echo "audio_memory: sox not installed: skipped (make deps installs it)"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$RELIC" convert "$C" "$tmp/clip.wav" >/dev/null || exit 1
set -- ; for i in $(seq 20); do set -- "$@" "$tmp/clip.wav"; done
mkdir -p "$tmp/dir" && sox "$@" "$tmp/dir/big.wav" || exit 1
mb=$(bench_div "$(wc -c < "$tmp/dir/big.wav")" 1000000 %.1f)
while IFS='|' read -r work args; do
    # shellcheck disable=SC2086
    set -- $(eval "echo $args")
    r=$("$CPU_RUN" "$RELIC" "$@") || { echo "audio_memory: relic $work failed"; continue; }
    t=${r% *} kib=${r#* }
    mib=$(bench_div "$kib" 1024 %.1f)
    echo "audio_memory: relic $work: $(bench_div "$t" 1 %.2f) s CPU, peak RSS $mib MiB"
    bench_row "relic $work, peak RSS" "a $mb MB WAV (a corpus clip 20 times)" "$mib MiB, $(bench_div "$t" 1 %.2f) s CPU" "-" "-" \
        "<= 8 MiB" "$(bench_verdict "$mib" "<=" 8)"
done <<CASES
encode WAV -> CAU (PCM)|encode \$tmp/dir/big.wav \$tmp/pcm.cau
encode WAV -> CAU (IMA ADPCM)|encode \$tmp/dir/big.wav \$tmp/adpcm.cau --adpcm
pack-sounds (PCM)|pack-sounds \$tmp/dir \$tmp/bank.tpa
pack-sounds (IMA ADPCM)|pack-sounds \$tmp/dir \$tmp/bank-adpcm.tpa --adpcm
extract of that bank|extract \$tmp/bank.tpa -C \$tmp/out
convert CAU (IMA ADPCM) -> WAV|convert \$tmp/adpcm.cau \$tmp/back.wav
CASES
