#!/bin/sh
# nonfinite_cli_test.sh — NaN and infinity planted in every format that
# carries geometry or heights (issue 18, "What to build" 3): BWM vertices,
# TRRN and WATR vertices, ASWM vertices (a real TRX from ../shared/corpus,
# skipped, saying so, when absent), WTD parameters, and the number tokens
# of TPM, TRI and TRR text. `relic check` and `relic check --strict` must
# both refuse each file with the field path and the byte offset (line and
# column for text). GRF geometry is covered by tests/test_grf.c.
# Samples: tests/samples/make_format_samples.sh. Prints "N passed, M failed".
# Env: RELIC, CORPUS.
RELIC=${RELIC:-build/relic}
# Debian's python3 (make deps): a python3 found first in PATH may be a wrapper (a pyenv shim
# costs 0.6 s of CPU per start)
PYTHON=${PYTHON:-/usr/bin/python3}; [ -x "$PYTHON" ] || PYTHON=python3
C=${CORPUS:-../shared/corpus}
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
command -v "$PYTHON" >/dev/null 2>&1 || { echo "skip: python3 missing (it plants the floats)"; echo "0 passed, 0 failed"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/relic-nonfinite.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/s" "$tmp/b"
RELIC=$RELIC sh tests/samples/make_format_samples.sh "$tmp/s" >"$tmp/samples.log" 2>&1 || { cat "$tmp/samples.log"; bad "make the samples"; }

"$PYTHON" - "$tmp/s" "$C" "$tmp/b" <<'PY'
import struct, zlib, sys, os, glob
S, C, O = sys.argv[1:4]
NAN = struct.pack('<f', float('nan')); INF = struct.pack('<f', float('inf')); NINF = struct.pack('<f', float('-inf'))
def w(n, b): open(os.path.join(O, n), 'wb').write(b)
def trn(packets):
    n = len(packets); pos = 12 + 8 * n; d = b''; body = b''
    for t, payload in packets:
        d += t + struct.pack('<I', pos); body += t + struct.pack('<I', len(payload)) + payload; pos += 8 + len(payload)
    return b'NWN2' + struct.pack('<HHI', 2, 3, n) + d + body
def plant(b, at, v): b = bytearray(b); b[at:at + 4] = v; return bytes(b)
trwh = (b'TRWH', struct.pack('<III', 1, 1, 0))
# BWM: vertices[2].x = +inf (the sample's vertex table offset is at 76)
b = open(S + '/room.wok', 'rb').read(); vo = struct.unpack_from('<I', b, 76)[0]
w('inf.wok', plant(b, vo + 24, INF))
# TRRN: one triangle of three 44-byte vertices after the 392-byte name, textures and colours, and 8 bytes of counts
v = b''.join(struct.pack('<11f', x, y, 0, 0, 0, 1, 1, 0, 0, 0, 0) for x, y in ((0, 0), (1, 0), (0, 1)))
t = bytes(392) + struct.pack('<II', 3, 1) + v + struct.pack('<3H', 0, 1, 2) + struct.pack('<III', 0, 0, 0)
w('ok_trrn.trn', trn([trwh, (b'TRRN', t)]))
w('nan_trrn.trn', trn([trwh, (b'TRRN', plant(t, 400 + 4, NAN))]))          # vertices[0].position[1]
w('inf_trrn.trn', trn([trwh, (b'TRRN', plant(t, 400 + 44 + 8, NINF))]))    # vertices[1].position[2]
# WATR: 320 bytes of name, colours, waves; counts; three 28-byte vertices; a triangle and its flag; an empty mask; megatile x, y
v = b''.join(struct.pack('<7f', x, y, 0, 0, 0, 0, 0) for x, y in ((0, 0), (1, 0), (0, 1)))
t = bytes(320) + struct.pack('<II', 3, 1) + v + struct.pack('<3H', 0, 1, 2) + struct.pack('<IIII', 0, 0, 0, 0)
w('ok_watr.trn', trn([trwh, (b'WATR', t)]))
w('nan_watr.trn', trn([trwh, (b'WATR', plant(t, 328 + 28, NAN))]))         # vertices[1].position[0]
# ASWM of a real TRX: inflate, plant vertices[1].y, deflate
trx = sorted(glob.glob(C + '/trx/*.trx'))
if trx:
    b = open(trx[0], 'rb').read(); n = struct.unpack_from('<I', b, 8)[0]; pk = []
    for i in range(n):
        o = struct.unpack_from('<I', b, 16 + 8 * i)[0]; size = struct.unpack_from('<I', b, o + 4)[0]
        pk.append((b[o:o + 4], b[o + 8:o + 8 + size]))
    for k, (typ, pay) in enumerate(pk):
        if typ == b'ASWM':
            comp = struct.unpack_from('<I', pay, 4)[0]
            a = zlib.decompress(pay[12:12 + comp])
            a = plant(a, 53 + 12 + 4, NAN)                                # after version, name, owns_data, four counts
            z = zlib.compress(a, 9)
            pk[k] = (typ, b'COMP' + struct.pack('<II', len(z), len(a)) + z)
    w('nan_aswm.trx', trn(pk))
# WTD: NaN in the world extents' size x (7f c0 c0 7f reads as NaN in either byte order)
b = open(S + '/terrain.wtd', 'rb').read(); L = bytearray(b[k ^ 3] for k in range(len(b)))
L[38:42] = b'\x7f\xc0\xc0\x7f'; w('nan.wtd', bytes(L[k ^ 3] for k in range(len(L))))
# text: nan, inf and an out-of-range number where a coordinate belongs
t = open(S + '/room.tpm').read()
for name, tok in (('nan', 'nan'), ('inf', 'inf'), ('big', '1e39')):
    w(name + '.tpm', t.replace('v = (1,0,0)', 'v = (%s,0,0)' % tok, 1).encode())
t = open(S + '/terrain.tri').read().split('\n'); vl = int(t[0]) + 2
for name, tok in (('nan', 'nan'), ('inf', '-inf'), ('big', '1e999')):
    u = list(t); x = u[vl].split(); x[2] = tok; u[vl] = ' '.join(x); w(name + '.tri', '\n'.join(u).encode())
t = open(S + '/points.trr').read().split('\n')
for name, tok in (('nan', 'NaN'), ('inf', 'Infinity'), ('big', '1e999')):
    u = list(t); x = u[1].split(); x[2] = tok; u[1] = ' '.join(x); w(name + '.trr', '\n'.join(u).encode())
PY
[ $? = 0 ] || bad "plant the floats"

# refused FILE PATTERN: check and check --strict exit 1 with PATTERN (field and offset) in the report
refused() {
    f=$tmp/b/$1
    for strict in "" --strict; do
        "$RELIC" check $strict "$f" >"$tmp/out" 2>&1; rc=$?
        if [ "$rc" = 1 ] && grep -Eq -- "$2" "$tmp/out"; then ok; else bad "check $strict $1: exit $rc, expected '$2': $(head -2 "$tmp/out")"; fi
    done
}
for f in ok_trrn.trn ok_watr.trn; do
    "$RELIC" check --strict "$tmp/b/$f" >"$tmp/out" 2>&1 && ok || bad "the unplanted $f fails: $(head -2 "$tmp/out")"
done
refused inf.wok       'vertices\[2\] @0x[0-9a-f]+: x is \+?infinity'
refused nan_trrn.trn  'packets\[1\]\.trrn\.vertices\[0\]\.position\[1\] @0x194: .*NaN'
refused inf_trrn.trn  'packets\[1\]\.trrn\.vertices\[1\]\.position\[2\] @0x1c4: .*infinity'
refused nan_watr.trn  'packets\[1\]\.watr\.vertices\[1\]\.position\[0\] @0x164: .*NaN'
if [ -f "$tmp/b/nan_aswm.trx" ]; then
    refused nan_aswm.trx 'aswm\.vertices\[1\]\.y @0x45: NaN'
else
    echo "note: $C/trx not found: the ASWM NaN check is skipped (tests/test_trn.c covers it)"
fi
refused nan.wtd       'mapping\.world_extents\.size_x @0x[0-9a-f]+: NaN'
for k in tpm tri trr; do
    for v in nan inf big; do refused $v.$k '@0x[0-9a-f]+: line [0-9]+, column [0-9]+: '; done
done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
