#!/usr/bin/env python3
# make_bombs.py — one crafted input per codec and format, each under 1 MB,
# declaring far more than it holds (tests/bombs_cli_test.sh runs relic on
# each under a CPU and memory budget). Built from the small files
# tests/samples/make_format_samples.sh writes, so no game file is copied.
# usage: make_bombs.py SAMPLES_DIR OUT_DIR
import struct, zlib, sys, os
S = sys.argv[1]   # samples dir (make_format_samples.sh output)
O = sys.argv[2]
def w(name, b):
    assert len(b) < 1 << 20, name
    open(os.path.join(O, name), 'wb').write(b)
def rd(name): return bytearray(open(os.path.join(S, name), 'rb').read())
def trn(packets):
    n = len(packets); pos = 12 + 8 * n; d = b''; body = b''
    for t, payload in packets:
        d += t + struct.pack('<I', pos); body += t + struct.pack('<I', len(payload)) + payload; pos += 8 + len(payload)
    return b'NWN2' + struct.pack('<HHI', 2, 3, n) + d + body
def aswm(declared, raw):
    z = zlib.compress(raw, 9)
    return (b'ASWM', b'COMP' + struct.pack('<II', len(z), declared) + z)
def gib_zeros():
    # a zlib stream of 1 GiB of zeros in under 1 MiB, without deflating 1 GiB: after a
    # full flush the same 16 MiB chunk always compresses to the same bytes, and the
    # Adler-32 of n zeros is (n mod 65521) << 16 | 1
    chunk = bytes(16 << 20)
    c = zlib.compressobj(9)
    first = c.compress(chunk) + c.flush(zlib.Z_FULL_FLUSH)
    again = c.compress(chunk) + c.flush(zlib.Z_FULL_FLUSH)
    tail = c.flush(zlib.Z_FINISH)[:-4]
    n = 1 << 30
    return first + again * (n // len(chunk) - 1) + tail + struct.pack('>I', (n % 65521) << 16 | 1)
# zlib/ASWM: a 1 MB stream of 1 GiB of zeros declaring it (over the limit), a 16 KiB stream of 16 MiB declaring its
# 16 MiB (inflated, then refused: version 0), and 1 KiB of stream declaring 16 MiB (past 1032:1)
zeros = bytes(16 << 20)
z = gib_zeros()
w('aswm_limit.trn', trn([(b'ASWM', b'COMP' + struct.pack('<II', len(z), 1 << 30) + z)]))
w('aswm_inflate.trn', trn([aswm(16 << 20, zeros)]))
w('aswm_ratio.trn', trn([(b'ASWM', b'COMP' + struct.pack('<II', 1000, 16 << 20) + zlib.compress(bytes(1000))[:1000].ljust(1000, b'\0'))]))
# TRRN: a megatile declaring 2^32-1 vertices in 1 KiB
trrn = bytes(128 + 6 * 32 + 6 * 12) + struct.pack('<II', 0xFFFFFFFF, 0xFFFFFFFF) + bytes(600)
w('trrn_counts.trn', trn([(b'TRRN', trrn)]))
# LZSS/SPZ: the sample's stream declaring 4 GiB - 1 (past the LZSS bound, over the limit)
b = rd('level.spz'); b[0:4] = struct.pack('<I', 0xFFFFFFFF); w('lzss_size.spz', b)
# SZDD: same for COMPRESS.EXE's container
b = rd('empty.gr_'); b[10:14] = struct.pack('<I', 0xFFFFFFFF); w('szdd_size.gr_', b)
# ADPCM: a CAU sample declaring 4 GiB of decoded PCM and 4 GiB of data
b = rd('tone.cau'); b[20:24] = struct.pack('<I', 0xFFFFFFFF); b[16:20] = struct.pack('<I', 0xFFFFFFF0); w('adpcm_size.cau', b)
# WTD zerotree: the sample's tree under a header declaring a 16384 x 16384 grid (1 GiB)
b = rd('terrain.wtd')
logical = bytearray(b[k ^ 3] for k in range(len(b)))
for off in (14 + 8, 14 + 12):          # quad_extents.size_x, size_y (as the sample stores them)
    logical[off:off + 4] = struct.pack('<I', 16384)
w('wtd_grid.wtd', bytes(logical[k ^ 3] for k in range(len(logical))))
# ... and 2048 x 2048, the largest grid the command decodes by default (RELIC_WTD_DEFAULT_MAX_N)
for off in (14 + 8, 14 + 12):
    logical[off:off + 4] = struct.pack('<I', 2048)
w('wtd_grid2048.wtd', bytes(logical[k ^ 3] for k in range(len(logical))))
# TPM: one comment line of 900 KB (accepted: memory linear in the line)
w('tpm_comment.tpm', b'//' + b'x' * 900000 + b'\n')
# TRI: a 900 KB vertex count line and nothing behind it
w('tri_count.tri', b'4294967295\n' + b'0 0 0\n' * 1000)
# TRR: two points 10^6 m apart (a grid would be huge)
w('trr_extent.trr', b'0 0 1\n1000000 1000000 2\n0.001 0 3\n')
# GFF nesting: a chain of 20000 structs, each holding the next in a struct field (too deep)
n = 20000
structs = b''.join(struct.pack('<III', 0, i, 1) for i in range(n))
fields = b''.join(struct.pack('<III', 14, 0, min(i + 1, n - 1)) for i in range(n))
labels = b'Next'.ljust(16, b'\0')
hdr_size = 56
so = hdr_size; fo = so + len(structs); lo = fo + len(fields); fdo = lo + len(labels)
fio = fdo; lio = fio
hdr = b'UTC V3.2' + struct.pack('<12I', so, n, fo, n, lo, 1, fdo, 0, fio, 0, lio, 0)
w('gff_nesting.utc', hdr + structs + fields + labels)
# GFF values shared or overlapping (checking each field's value alone costs fields x value size)
def gff(nstructs, fields, fd, li, listed):
    structs = struct.pack('<III', 0xFFFFFFFF, 0, len(fields) if listed else 0) + b'\0' * 12 * (nstructs - 1)
    fb = b''.join(struct.pack('<III', t, 0, d) for t, d in fields)
    fi = b''.join(struct.pack('<I', i) for i in range(len(fields))) if listed else b''
    lb = b''.join(struct.pack('<I', x) for x in li)
    so = 56; fo = so + len(structs); lo = fo + len(fb); fdo = lo + 16; fio = fdo + len(fd); lio = fio + len(fi)
    return (b'GIT V3.2' + struct.pack('<12I', so, nstructs, fo, len(fields), lo, 1, fdo, len(fd), fio, len(fi), lio, len(lb))
            + structs + fb + b'Name'.ljust(16, b'\0') + fd + fi + lb)
k = 40000  # 40000 fields listed by the root, all at one locstring of 40000 substrings
fd = struct.pack('<III', 8 + 8 * k, 0xFFFFFFFF, k) + b''.join(struct.pack('<II', i, 0) for i in range(k))
w('gff_shared_loc.git', gff(1, [(12, 0)] * 40000, fd, [], True))
k = 35000  # locstrings at 0, 12, 24, ...: each substring (12 bytes) the header of the next locstring
fd = b''.join(struct.pack('<III', 8 + 12 * (k - j), 4, k - j) for j in range(k)) + struct.pack('<III', 0, 4, 0)
w('gff_overlap_loc.git', gff(1, [(12, 12 * j) for j in range(k)], fd, [], True))
w('gff_shared_list.git', gff(1, [(15, 0)] * 40000, b'', [120000] + [0] * 120000, False))  # 40000 unlisted fields, one list
k = 35000  # list records at words 0, 1, 2, ...: each entry the count of the next record
w('gff_overlap_list.git', gff(k, [(15, 4 * j) for j in range(k)], b'', [k - 1 - j for j in range(k)], False))
# ERF: 2^31 entries declared in a 732-byte file
b = rd('pack.erf'); b[16:20] = struct.pack('<I', 0x7FFFFFFF); w('erf_count.erf', b)
# GROFF: a section directory declaring 2^28 sections
b = rd('empty.grf'); b[4:8] = struct.pack('<I', 0x10000000); w('groff_count.grf', b)
# KEY: 2^32-1 keys (22 bytes each) declared by a 64-byte header and 200 bytes; and 2^32-1 BIFs
w('key_count.key', b'KEY V1  ' + struct.pack('<6I', 0, 0xFFFFFFFF, 64, 64, 126, 0) + bytes(32) + bytes(200))
w('key_bifs.key', b'KEY V1  ' + struct.pack('<6I', 0xFFFFFFFF, 0, 64, 264, 126, 0) + bytes(32) + bytes(200))
# BIF: 2^31 variable resources declared in a 20-byte header and 200 bytes
w('bif_count.bif', b'BIFFV1  ' + struct.pack('<3I', 0x7FFFFFFF, 0, 20) + bytes(200))
# TLK: 2^31 string entries (40 bytes each) declared in 220 bytes
w('tlk_count.tlk', b'TLK V3.0' + struct.pack('<3I', 0, 0x7FFFFFFF, 20) + bytes(200))
# RIM: the sample with 2^31 entries declared
b = rd('pack.rim'); b[12:16] = struct.pack('<I', 0x7FFFFFFF); w('rim_count.rim', b)
# BWM: the sample walkmesh declaring 2^32-1 vertices (and faces)
b = rd('room.wok')
b[72:76] = struct.pack('<I', 0xFFFFFFFF); b[80:84] = struct.pack('<I', 0xFFFFFFFF); w('bwm_count.wok', b)
# PID: the sample palette index declaring 2^31 raster chunks
b = rd('level.pid'); b[12:16] = struct.pack('<I', 0x7FFFFFFF); w('pid_count.pid', b)
# TPA: the sample sound bank declaring 2^31 samples
b = rd('bank.tpa'); b[4:8] = struct.pack('<I', 0x7FFFFFFF); w('tpa_count.tpa', b)
