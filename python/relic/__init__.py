"""relic for Python: classic game file formats (KotOR BWM walkmeshes, NWN2
TRN/TRX terrain, BioWare GFF, Trespasser CAU/PID/TPA ...) as zero-copy NumPy
views, validated once by relic's C validator, written back by its C writers.

    import relic
    w = relic.open('room.wok')           # detect, validate (C), map
    w.vertices.shape, w.faces.dtype      # (N, 3) float32, uint32: views over the file
    m = w.decode(); m.save('copy.wok')   # plain objects -> C writer -> same bytes

The layouts (dtypes, enums, flags, counts and placements) are generated from
relic's schemas into relic._gen; librelic.so does detection, validation and
writing (relic_abi.h).
"""
import builtins as _builtins
import enum as _enum
import importlib
import json as _json
import mmap as _mmap
import os as _os
import struct as _struct

import numpy as np

from . import _lib
from ._gen import MODULES as _MODULES
from ._layout import Walker

__all__ = ['open', 'view', 'write', 'FormatError', 'View', 'Model', 'Container', 'schema', 'bwm_build', 'bwm_rebuild', 'trn_bake',
           'trn_path', 'wtd_heights', 'wtd_encode', 'audio_samples', 'textures', 'trn_replace_aswm']


class FormatError(ValueError):
    """An input relic refuses: code (relic_status name), field path, byte
    offset and message of the first problem, as `relic check` prints them;
    problems lists them all as (code, path, offset, message)."""

    def __init__(self, file, problems):
        self.file = file or '-'
        self.problems = [(_lib.status_name(c), p, o, m) for c, o, p, m in problems]
        self.code, self.path, self.offset, self.message = self.problems[0] if self.problems else ('error', '', 0, '')
        super().__init__(str(self))

    def __str__(self):
        # relic_error_print's line: file: path @0xOFFSET: message
        return '%s: %s@0x%x: %s' % (self.file, self.path + ' ' if self.path else '', self.offset, self.message)


def schema(format_name):
    """The generated module of a format: enums, dtypes, STRUCTS, FORMAT."""
    return importlib.import_module('relic._gen.' + _MODULES[format_name])


def _address(buf):
    return buf.ctypes.data if len(buf) else None


def _map(src):
    """(uint8 ndarray over the bytes, memoryview, path): a read-only mapping of
    a file, or the caller's bytes as they are."""
    if isinstance(src, (bytes, bytearray, memoryview)):
        # read-only even over a bytearray: views never write into what was validated
        mem = memoryview(src).cast('B').toreadonly()
        return np.frombuffer(mem, np.uint8), mem, None
    path = _os.fspath(src)
    with _builtin_open(path, 'rb') as f:
        size = _os.fstat(f.fileno()).st_size
        if size == 0:
            mem = memoryview(b'')
        else:
            mem = memoryview(_mmap.mmap(f.fileno(), 0, access=_mmap.ACCESS_READ))
    return np.frombuffer(mem, np.uint8), mem, path


_builtin_open = _builtins.open  # relic.open shadows it in this module


def _raise(path, problems):
    raise FormatError(path, problems)


def _write_json(fmt, text):
    n, out, problems = _lib.from_json(fmt, text)
    if n == -1:
        raise NotImplementedError('relic: no writer for %s from Python' % fmt)
    if n:
        _raise('<model>', problems)
    return out


def _atomic_write(path, data):
    path = _os.fspath(path)
    tmp = '%s.tmp%d' % (path, _os.getpid())
    with _builtin_open(tmp, 'wb') as f:
        f.write(data)
    _os.replace(tmp, path)


class View:
    """A validated file: the schema's fields as attributes (scalars as ints,
    floats and enums; fixed-size arrays as read-only ndarrays over the mapped
    bytes), format name, path and the raw bytes (buffer)."""

    def __init__(self, fmt, buf, mem, path, walker):
        self.format, self.buffer, self.path = fmt, buf, path
        self._mem = mem
        self._walker = walker
        self._root = walker.root(buf, mem)

    def __getattr__(self, name):
        if name.startswith('_'):
            raise AttributeError(name)
        return getattr(self._root, name)

    def __getitem__(self, name):
        return self._root[name]

    def fields(self):
        """The root struct's field names, in file order."""
        return self._root._fields()

    def to_json(self):
        """relic's JSON text of the file (what `relic dump` prints)."""
        n, out, problems = _lib.to_json(self.format, _address(self.buffer), len(self.buffer))
        if n == -1:
            raise NotImplementedError('relic: no JSON form of %s from Python' % self.format)
        if n:
            _raise(self.path, problems)
        return out.decode('utf-8')

    def decode(self):
        """A Model: plain Python objects (dicts, lists; each top-level array
        the view holds as a plain ndarray becomes a writable NumPy array of
        the same dtype) that relic.write turns back into a file through the
        C writer."""
        m = Model.from_json(self.to_json())
        for k, v in list(m.items()):
            view = self._root.__dict__.get(k)
            if isinstance(view, np.ndarray) and view.dtype.names is None and isinstance(v, list) and \
                    all(_numeric(x) or isinstance(x, list) for x in v):
                m[k] = np.array(v, dtype=view.dtype.newbyteorder('=')).reshape((-1,) + view.shape[1:])
        return m

    def __repr__(self):
        return '<relic %s %s>' % (self.format, self.path or '(bytes)')


class Walkmesh(View):
    """A KotOR BWM walkmesh (.wok .pwk .dwk): vertices (N, 3) float32,
    faces (M, 3) uint32, materials (M,) uint32 (SurfaceMaterial), normals,
    distances, aabb, adjacency (K, 3) int32, edges, perimeters."""


class Terrain(View):
    """An NWN2 TRN/TRX: header, directory, packets; aswm is the first ASWM
    packet's walkmesh, viewed over its inflated bytes (vertices (N, 3)
    float32, triangles (structured: vertices, linked_edges, ..., flags),
    tiles, islands)."""

    @property
    def aswm(self):
        for p in self._root.packets:
            if 'aswm' in p:
                return p.aswm
        return None

    def aswm_copy(self):
        """A writable copy of the walkmesh: the same views over a private
        copy of the inflated bytes (fixed-size fields may be changed in
        place: vertices, triangle flags, ...); relic.trn_replace_aswm
        writes it back into the file."""
        w = self.aswm
        if w is None:
            return None
        raw = bytearray(w._inflated.tobytes())
        node = _walker('trn').view_struct('aswm', np.frombuffer(raw, np.uint8), memoryview(raw))
        node.__dict__['_inflated'] = np.frombuffer(raw, np.uint8)
        return node


class Wavelet(View):
    """A Trespasser WTD: version, node_count, vertex_count, root_coefficient
    and mapping (quad and world extents, the linear maps), read from the
    logical header. The file stores its bytes in 32-bit words in reverse
    order (logical byte i at file byte i ^ 3), so these fields are read
    from a 92-byte un-swapped copy of the header, not viewed in place;
    buffer is still the mapped file (heights: relic.wtd_heights)."""

    def __init__(self, fmt, buf, mem, path, walker):
        self.format, self.buffer, self.path = fmt, buf, path
        self._mem = mem
        self._walker = walker
        size = schema('wtd').STRUCTS['wtd'].size
        words = (size + 3) // 4
        raw = buf[:4 * words].reshape(words, 4)[:, ::-1].tobytes()  # the validator checked the size
        self.header_bytes = raw
        self._root = walker.root(np.frombuffer(raw, np.uint8), memoryview(raw))


class Container(View):
    """An ERF/MOD/HAK/SAV/NWM or RIM container, or a BIF: the header and
    tables as views; decode() gives a relic.containers.ContainerModel, the
    listing with each member's bytes (memoryviews of the mapping), which
    relic.write turns back into the container through the C writer."""

    def decode(self):
        from . import containers
        return containers.decode(self)


_VIEWS = {'bwm': Walkmesh, 'trn': Terrain, 'wtd': Wavelet, 'erf': Container, 'bif': Container}
_WALKERS = {}


def _walker(fmt):
    if fmt not in _WALKERS:
        _WALKERS[fmt] = Walker(schema(fmt).FORMAT)
    return _WALKERS[fmt]


def open(src, format=None):
    """Open a file (path) or bytes: detect the format (magic, then the
    extension), validate it once with relic's C checks (those of `relic
    check`), and return its zero-copy view (GFF: a relic.gff.Gff tree).
    Raises FormatError (code, path, offset, message) for an invalid file,
    ValueError for an unknown format."""
    buf, mem, path = _map(src)
    fmt = format or _lib.detect(_address(buf), len(buf), _os.path.basename(path) if path else None)
    if fmt is None:
        raise ValueError('%s: not a format relic knows' % (path or '<bytes>'))
    n, problems = _lib.check(fmt, _address(buf), len(buf))
    if n == -1:
        raise ValueError('%s: relic has no Python view of %s files' % (path or '<bytes>', fmt))
    if n:
        _raise(path, problems)
    if fmt == 'gff':
        from . import gff
        g = gff.Gff(None, path)
        nj, out, problems = _lib.to_json('gff', _address(buf), len(buf))
        if nj:
            _raise(path, problems)
        g._doc = _json.loads(out)
        return g
    layout = fmt
    if fmt == 'erf' and bytes(mem[:4]) == b'RIM ':
        layout = 'rim'  # RIM archives share ERF's detection and checks, not its layout
    return _VIEWS.get(fmt, View)(fmt, buf, mem, path, _walker(layout))


def view(module, src):
    """Zero-copy views of a file (path or bytes) laid out by a generated
    module: one made by `relic-gen --python DIR` from a schema of your own,
    outside relic's tree (docs/adding-a-format.md), or relic.schema(name).
    librelic does not know such a format, so no C check runs here: validate
    the bytes first (with the C validator generated from the same schema).
    Bytes that do not fit the layout raise ValueError; nothing is read
    outside them (NumPy and struct check every range)."""
    buf, mem, path = _map(src)
    fmt = getattr(module, 'FORMAT', module)
    try:
        return View(fmt.name, buf, mem, path, Walker(fmt))
    except (ValueError, TypeError, IndexError, OverflowError, _struct.error) as e:
        raise ValueError('%s: does not fit the %s layout (%s); validate it with the generated C validator first'
                         % (path or '<bytes>', fmt.name, e)) from None


def _numeric(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


# the types json writes as they are: a decoded model is mostly these, and
# _to_plain returns them without a call per value
_PLAIN = frozenset((str, int, float, bool, type(None)))


def _to_plain(v):
    t = type(v)
    if t in _PLAIN:
        return v
    if t is list:
        return [x if type(x) in _PLAIN else _to_plain(x) for x in v]
    if t is dict:
        return {k: x if type(x) in _PLAIN else _to_plain(x) for k, x in v.items()}
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, _enum.Enum):
        return v.name.lower()
    if isinstance(v, dict):
        return {k: _to_plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_to_plain(x) for x in v]
    return v


class Model(dict):
    """A decoded file as plain Python values (relic's JSON form; numeric
    arrays as NumPy arrays): change it, then save(path) or relic.write(model).
    Counts and sizes are the writer's: they need no update. Offsets the
    model holds are kept as the file's layout (so that an unchanged model
    writes its input back byte for byte); delete one (del m.header['...'])
    to have the writer place that array itself."""

    __getattr__ = dict.__getitem__

    @classmethod
    def from_json(cls, text):
        return cls(_json.loads(text))

    def to_json(self):
        return _json.dumps(_to_plain(dict(self)))

    def to_bytes(self):
        return _write_json(self['format'], self.to_json().encode())

    def save(self, path):
        _atomic_write(path, self.to_bytes())


def write(model, path=None):
    """The file of a Model, ContainerModel or Gff through relic's C writer:
    bytes, also written to path (atomically) when given. The output is
    validated again by the C validator before it is returned. Raises
    FormatError when the model does not make a valid file."""
    if not hasattr(model, 'to_bytes'):  # a plain dict of relic's JSON form
        from .containers import ContainerModel, _ENTRIES
        model = (ContainerModel if model.get('format') in _ENTRIES else Model)(model)
    data = model.to_bytes()
    if path is not None:
        _atomic_write(path, data)
    return data


from .algorithms import (audio_samples, bwm_build, bwm_rebuild, textures, trn_bake, trn_path,  # noqa: E402
                         trn_replace_aswm, wtd_encode, wtd_heights)
