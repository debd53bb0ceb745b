"""make bench rows for the Python package: every vertex and face of the
largest corpus WOK and TRX read through relic's NumPy views vs a plain
struct.unpack_from reader of the same fields (same run, ratio); and
relic.open + a sum over all corpus GFFs vs json.loads of `relic dump`.
Usage: bench_python.py [RELIC] (libraries from $RELIC_LIB or build/)."""
import glob
import os
import struct
import subprocess
import sys
import time
import zlib

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
sys.path.insert(0, os.path.join(ROOT, 'python'))
import relic  # noqa: E402

RELIC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, 'build', 'relic')
CORPUS = os.path.join(ROOT, '..', 'shared', 'corpus')


def best(fn, reps=5):
    t = []
    for _ in range(reps):
        s = time.perf_counter()
        r = fn()
        t.append(time.perf_counter() - s)
    return min(t), r


def wok_relic(path, w=None):
    w = w or relic.open(path)
    return float(w.vertices.sum(dtype='f8')) + int(w.faces.sum(dtype='u8'))


def wok_struct(path):
    data = open(path, 'rb').read()
    nv, vo, nf, fo = struct.unpack_from('<4I', data, 72)
    s = 0.0
    for x, y, z in struct.iter_unpack('<3f', data[vo:vo + 12 * nv]):
        s += x + y + z
    k = 0
    for a, b, c in struct.iter_unpack('<3I', data[fo:fo + 12 * nf]):
        k += a + b + c
    return s + k


def trx_relic(path, t=None):
    w = (t or relic.open(path)).aswm
    return float(w.vertices.sum(dtype='f8')) + int(w.triangles['vertices'].sum(dtype='u8'))


def trx_struct(path):
    data = open(path, 'rb').read()
    (count,) = struct.unpack_from('<I', data, 8)
    s = 0.0
    for i in range(count):
        typ, off = struct.unpack_from('<4sI', data, 12 + 8 * i)
        if typ != b'ASWM':
            continue
        csize, usize = struct.unpack_from('<II', data, off + 12)
        w = zlib.decompress(data[off + 20:off + 20 + csize])
        nv, ne, nt = struct.unpack_from('<3I', w, 37)
        p = 53
        for x, y, z in struct.iter_unpack('<3f', w[p:p + 12 * nv]):
            s += x + y + z
        p += 12 * nv + 16 * ne
        for t in range(nt):
            a, b, c = struct.unpack_from('<3I', w, p + 64 * t)
            s += a + b + c
        break
    return s


def gff_files():
    out = []
    for f in sorted(glob.glob(os.path.join(CORPUS, 'gff', '*'))):
        try:
            relic.open(f)
            out.append(f)
        except (relic.FormatError, ValueError):
            pass
    return out


INTS = ('byte', 'char', 'word', 'short', 'dword', 'int')


def gff_relic(files):
    total = 0
    for f in files:
        r = relic.open(f).root
        total += sum(r[l] for l in r.labels() if r.type_of(l) in INTS)
    return total


def gff_json(files):
    import json
    total = 0
    for f in files:
        d = json.loads(subprocess.run([RELIC, 'dump', f], capture_output=True, check=True).stdout)
        total += sum(v['value'] for k, v in d.items() if not k.startswith('__') and v['type'] in INTS)
    return total


def main():
    if not os.path.isdir(CORPUS):
        print('bench_python: ../shared/corpus absent: skipped')
        return
    wok = max(glob.glob(os.path.join(CORPUS, 'bwm', '*.wok')), key=os.path.getsize)
    trx = max(glob.glob(os.path.join(CORPUS, 'trx', '*.trx')), key=os.path.getsize)
    for what, path, a, b in (('WOK', wok, wok_relic, wok_struct), ('TRX', trx, trx_relic, trx_struct)):
        ta, ra = best(lambda: a(path))
        tb, rb = best(lambda: b(path))
        opened = relic.open(path)
        tv, rv = best(lambda: a(path, opened))
        assert abs(ra - rb) <= 1e-6 * max(1.0, abs(rb)) and ra == rv, (ra, rb, rv)
        print('python %s %s (%d bytes): relic.open (C checks, map, views) + read %.2f ms, struct.unpack_from '
              '(no checks) %.2f ms, ratio %.2fx; reading the open views alone %.3f ms, ratio %.0fx'
              % (what, os.path.basename(path)[-40:], os.path.getsize(path), ta * 1e3, tb * 1e3, tb / ta,
                 tv * 1e3, tb / tv))
    files = gff_files()
    ta, ra = best(lambda: gff_relic(files), 3)
    tb, rb = best(lambda: gff_json(files), 3)
    assert ra == rb, (ra, rb)
    print('python GFF (%d corpus files, sum of the root integer fields): relic.open %.0f ms, '
          'json.loads(relic dump) %.0f ms, ratio %.1fx' % (len(files), ta * 1e3, tb * 1e3, tb / ta))


main()
