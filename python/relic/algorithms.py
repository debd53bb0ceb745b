"""relic's format algorithms from Python, each running the C code of the
relic command: BWM tables rebuilt from geometry, NWN2 walkmesh baking and
path queries, WTD heights both ways, Trespasser samples as int16 PCM.
Every function takes a path, bytes or an open view; invalid input raises
relic.FormatError as relic.open does."""
import ctypes
import os

import numpy as np

from . import _lib


def _bytes(src):
    from . import View
    if isinstance(src, View):
        return src.buffer.tobytes() if src.path is None else open(src.path, 'rb').read()
    if isinstance(src, (bytes, bytearray, memoryview)):
        return bytes(src)
    return open(src, 'rb').read()


def _run(name, *args, extra=(), what='<input>'):
    from . import FormatError
    n, out, problems = _lib.call(name, *args, extra=extra)
    if n:
        raise FormatError(what, problems)
    return out if out is not None else b''


def _c(a, dtype, cols=None):
    a = np.ascontiguousarray(a, dtype=dtype)
    if cols is not None and (a.ndim != 2 or a.shape[1] != cols):
        a = a.reshape(-1, cols)
    return a


def bwm_build(vertices, faces, materials, type=1):
    """A complete BWM walkmesh (bytes) from geometry: vertices (N, 3)
    float32 metres, faces (M, 3) vertex indices, materials (M,) surface
    material ids; type 1 area (WOK: adjacency, perimeters, AABB tree too),
    0 placeable/door. Faces are reordered walkable first."""
    v, f, m = _c(vertices, np.float32, 3), _c(faces, np.uint32, 3), _c(materials, np.uint32)
    if len(m) != len(f):
        raise ValueError('bwm_build: %d materials for %d faces' % (len(m), len(f)))
    return _run('relic_abi_bwm_build', int(type), v.ctypes.data, len(v), f.ctypes.data, m.ctypes.data, len(f))


REBUILD_PLANES, REBUILD_ADJACENCY, REBUILD_PERIMETERS, REBUILD_AABB, REBUILD_ALL = 1, 2, 4, 8, 15


def bwm_rebuild(src, what=REBUILD_ALL):
    """A BWM file (bytes) with its derived tables recomputed from its
    vertices, faces and materials (edge transitions kept by edge id). src: a
    path, bytes, an open view or a Model (written first)."""
    from . import Model, write
    data = write(src) if isinstance(src, Model) else _bytes(src)
    return _run('relic_abi_bwm_rebuild', data, len(data), int(what))


def trn_bake(src, keep_borders=False, level=-1):
    """`relic bake`: the TRN/TRX with its walkmesh baked (bytes)."""
    data = _bytes(src)
    return _run('relic_abi_trn_bake', data, len(data), int(bool(keep_borders)), int(level))


def trn_replace_aswm(src, aswm, level=-1):
    """The TRN/TRX (bytes) with its walkmesh replaced by aswm: a writable
    copy from Terrain.aswm_copy() (changed in place) or the decompressed
    ASWM bytes; checked by the ASWM rules, packed with zlib at level (-1:
    the toolset's 6: an unchanged walkmesh gives the file back)."""
    data = _bytes(src)
    raw = aswm._inflated.tobytes() if hasattr(aswm, '_inflated') else bytes(aswm)
    return _run('relic_abi_trn_replace_aswm', data, len(data), raw, len(raw), int(level))


def trn_path(src, x1, y1, x2, y2):
    """`relic path`: (triangle indices as a uint32 array, length in metres)
    of the route over a baked TRX's tables between two points."""
    data = _bytes(src)
    length = ctypes.c_double(0)
    out = _run('relic_abi_trn_path', data, len(data), float(x1), float(y1), float(x2), float(y2),
               extra=(ctypes.byref(length),))
    return np.frombuffer(out, np.uint32), length.value


def wtd_heights(src, max_n=0):
    """The quantised heights of a WTD terrain: an (n, n) int32 array
    (row y, column x); a side over max_n (0: 2048) raises FormatError."""
    data = _bytes(src)
    n = ctypes.c_uint32(0)
    out = _run('relic_abi_wtd_heights', data, len(data), int(max_n), extra=(ctypes.byref(n),))
    return np.frombuffer(out, np.int32).reshape(n.value, n.value)


def wtd_encode(heights, like, threshold=0):
    """A WTD file (bytes) of an (n, n) int32 height grid with the parameter
    block of the WTD file like; threshold 0 is lossless."""
    h = np.ascontiguousarray(heights, np.int32)
    if h.ndim != 2 or h.shape[0] != h.shape[1]:
        raise ValueError('wtd_encode: heights must be an (n, n) grid')
    ref = _bytes(like)
    return _run('relic_abi_wtd_encode', ref, len(ref), h.ctypes.data, h.shape[0], int(threshold))


def audio_samples(src, index=0):
    """A CAU sample or sample `index` of a TPA bank decoded: (int16 array of
    shape (frames, channels), sample rate in Hz)."""
    from . import open as _open
    data = _bytes(src)
    fmt = _open(data).format
    info = (ctypes.c_uint32 * 3)()
    out = _run('relic_abi_audio_pcm', fmt.encode(), data, len(data), int(index), extra=(info,))
    return np.frombuffer(out, np.int16).reshape(-1, max(1, info[1])), info[0]


def textures(pid, swp, spz=None):
    """The texture rasters of a Trespasser PID directory, pixels from its
    SWP swap file or LZSS-compressed SPZ (spz None: by the name's extension;
    bytes are an SWP unless spz=True): a list of (key, image)
    with key the texture id (mip level in the high bits) and image an
    (height, width, 4) uint8 RGBA array, top row first."""
    from . import FormatError
    p, s = _bytes(pid), _bytes(swp)
    if spz is None:
        spz = isinstance(swp, (str, os.PathLike)) and os.fspath(swp).lower().endswith('.spz')
    n, rasters, problems = _lib.swp_rasters(p, s, spz)
    if n:
        raise FormatError('<input>', problems)
    return [(key, np.frombuffer(rgba, np.uint8).reshape(h, w, 4)) for _, key, w, h, rgba in rasters]
