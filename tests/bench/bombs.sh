#!/bin/sh
# bombs.sh — the real worst cases of relic's declared sizes: grow each one
# (ASWM decompressed size, WTD grid side, SPZ size at the LZSS bound, IMA
# ADPCM data size, TPM line length, GFF nesting depth, GFF fields sharing or
# overlapping locstrings) and record the CPU time (user + system) and
# peak RSS of `relic check` (and `relic info` for WTD, which decodes the
# grid) with GNU time. Prints a Markdown table (docs/security.md, "Worst cases measured").
# BOMBS_FULL=1 adds the 16384^2 WTD grid decode (1 GiB, several seconds).
# usage: RELIC=build/relic sh tests/bench/bombs.sh   (make bench-bombs)
RELIC=${RELIC:-build/relic}
TIME=${TIME_BIN:-/usr/bin/time}
[ -x "$TIME" ] && command -v python3 >/dev/null 2>&1 || { echo "bombs.sh: needs $TIME and python3" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/relic-bombs.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
mkdir "$tmp/s"
RELIC=$RELIC sh tests/samples/make_format_samples.sh "$tmp/s" >/dev/null 2>&1 || { echo "bombs.sh: samples failed" >&2; exit 1; }

# make KIND SIZE FILE: one input of KIND declaring SIZE
make() {
    python3 - "$1" "$2" "$3" "$tmp/s" <<'EOF'
import struct, sys, zlib
kind, size, path, samples = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
def trn(t, payload):
    return b'NWN2' + struct.pack('<HHI', 2, 3, 1) + t + struct.pack('<I', 20) + t + struct.pack('<I', len(payload)) + payload
if kind == 'aswm':      # a zlib stream of `size` zeros declaring it (inflated, then refused: version 0)
    c = zlib.compressobj(9); z = b''; chunk = bytes(min(size, 16 << 20)); left = size
    while left > 0:
        k = min(left, len(chunk)); z += c.compress(chunk[:k]); left -= k
    z += c.flush()
    b = trn(b'ASWM', b'COMP' + struct.pack('<II', len(z), size) + z)
elif kind == 'wtd':     # the sample's tree under a header declaring a size x size grid
    b = open(samples + '/terrain.wtd', 'rb').read()
    L = bytearray(b[k ^ 3] for k in range(len(b)))
    for off in (22, 26): L[off:off + 4] = struct.pack('<I', size)
    b = bytes(L[k ^ 3] for k in range(len(L)))
elif kind == 'spz':     # an SPZ at LZSS's best ratio: flag groups of eight 18-byte matches (17 bytes -> 144 zeros) decoding to `size`
    b = struct.pack('<I', size // 144 * 144) + (b'\x00' + b'\x00\x0f' * 8) * (size // 144)
elif kind == 'wav':     # `size` frames of 16-bit mono noise (encoded to an IMA ADPCM CAU by relic encode)
    import random
    random.seed(1)
    data = bytes(random.getrandbits(8) for _ in range(2 * size))
    b = b'RIFF' + struct.pack('<I', 36 + len(data)) + b'WAVEfmt ' + struct.pack('<IHHIIHH', 16, 1, 1, 22050, 44100, 2, 16) + b'data' + struct.pack('<I', len(data)) + data
elif kind == 'tpm':     # one comment line of `size` bytes
    b = b'//' + b'x' * size + b'\n'
elif kind == 'gff':     # `size` structs, each nesting the next; the last one empty (no cycle)
    n = size
    structs = b''.join(struct.pack('<III', 0, i, 1) for i in range(n - 1)) + struct.pack('<III', 0, 0xFFFFFFFF, 0)
    fields = b''.join(struct.pack('<III', 14, 0, i + 1) for i in range(n - 1))
    labels = b'Next'.ljust(16, b'\0')
    so = 56; fo = so + len(structs); lo = fo + len(fields); fdo = lo + len(labels)
    b = b'UTC V3.2' + struct.pack('<12I', so, n, fo, n - 1, lo, 1, fdo, 0, fdo, 0, fdo, 0) + structs + fields + labels
elif kind in ('gffloc', 'gffsuf'):  # `size` fields at one locstring of 40000 substrings, or `size` overlapping ones
    if kind == 'gffloc':
        k = 40000
        fd = struct.pack('<III', 8 + 8 * k, 0xFFFFFFFF, k) + b''.join(struct.pack('<II', i, 0) for i in range(k))
        fl = [(12, 0)] * size
    else:
        k = size
        fd = b''.join(struct.pack('<III', 8 + 12 * (k - j), 4, k - j) for j in range(k)) + struct.pack('<III', 0, 4, 0)
        fl = [(12, 12 * j) for j in range(k)]
    n = len(fl)
    fields = b''.join(struct.pack('<III', t, 0, d) for t, d in fl)
    fi = b''.join(struct.pack('<I', i) for i in range(n))
    so = 56; fo = so + 12; lo = fo + len(fields); fdo = lo + 16; fio = fdo + len(fd); lio = fio + len(fi)
    b = (b'GIT V3.2' + struct.pack('<12I', so, 1, fo, n, lo, 1, fdo, len(fd), fio, len(fi), lio, 0)
         + struct.pack('<III', 0xFFFFFFFF, 0, n) + fields + b'Name'.ljust(16, b'\0') + fd + fi)
open(path, 'wb').write(b)
EOF
}

row() { # KIND SIZE COMMAND LABEL (COMMAND "convert EXT": relic convert IN OUT.EXT)
    f=$tmp/in.$1
    make "$1" "$2" "$f" || return
    if [ "$1" = wav ]; then "$RELIC" encode "$f" "$tmp/in.cau" --adpcm >/dev/null || return; f=$tmp/in.cau; fi
    bytes=$(wc -c <"$f")
    case $3 in
        convert*) "$TIME" -f '%U %S %M' -o "$tmp/time" "$RELIC" convert "$f" "$tmp/out.${3#convert }" >"$tmp/out" 2>&1 ;;
        *) "$TIME" -f '%U %S %M' -o "$tmp/time" "$RELIC" $3 "$f" >"$tmp/out" 2>&1 ;;
    esac
    [ -s "$tmp/out" ] || echo ok >"$tmp/out"
    set -- "$@" $(tail -1 "$tmp/time")
    res=$(head -1 "$tmp/out" | sed "s|^$f: *||; s|^$f||" | cut -c1-70)
    awk -v l="$4" -v c="$3" -v b="$bytes" -v u="$5" -v s="$6" -v m="$7" -v r="$res" \
        'BEGIN { printf "| %s | %s | %d | %.2f | %.1f | %s |\n", l, c, b, u + s, m / 1024, r }'
}

echo "| declared | command | input bytes | CPU s | peak RSS MiB | result |"
echo "|---|---|---:|---:|---:|---|"
for mib in 1 4 16; do row aswm $((mib << 20)) check "ASWM $mib MiB"; done
row aswm $((64 << 20)) check "ASWM 64 MiB"
for n in 512 1024 2048 4096 8192; do row wtd $n check "WTD grid ${n}^2"; row wtd $n info "WTD grid ${n}^2"; done
row wtd 16384 check "WTD grid 16384^2"
[ "${BOMBS_FULL:-0}" = 1 ] && row wtd 16384 info "WTD grid 16384^2"
for n in 147456 1179648 8470512; do row spz $n check "SPZ $n bytes"; row spz $n "convert swp" "SPZ $n bytes"; done
for n in 262144 1048576 1966080; do row wav $n check "ADPCM $n frames"; row wav $n "convert wav" "ADPCM $n frames"; done
for kb in 1 1024 16384 65536; do row tpm $((kb << 10)) check "TPM line $kb KiB"; done
for n in 50 101 102 20000; do row gff $n check "GFF nesting $n"; done
for n in 1000 10000 40000; do row gffloc $n check "GFF $n fields at one locstring"; done
for n in 1000 10000 35000; do row gffsuf $n check "GFF $n overlapping locstrings"; done
