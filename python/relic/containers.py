"""Containers from Python: ERF/MOD/HAK/SAV/NWM, RIM and BIF as a listing plus
each member's bytes, written back through relic's C container writers.

    c = relic.open('module.mod')          # a Container view (validated, mapped)
    m = c.decode()                        # ContainerModel: relic dump's listing ...
    m.entries[0]['data']                  # ... with each member's bytes (a memoryview of the mapping)
    m.replace('module.ifo', new_bytes)    # or m.add('extra.utc', b'...'), m.remove('old.git')
    m.save('new.mod')                     # relic_abi_container_write: validated, atomic

An unchanged model keeps the container's own layout (tables and data where
the listing says: the input back byte for byte); once members are added,
removed or change size the writer lays the file out as real files are
(tables, then the data back to back in entry order), and, as `relic pack`
does when the member set changed, ResIDs become the entries' indices.
Sources: xoreos, src/aurora/erffile.cpp, rimfile.cpp, biffile.cpp;
BioWare, "Key and BIF File Formats" 3.
"""
import json as _json

import numpy as np

from . import _lib

# per container format: the listing's entry list, and each entry's size key
_ENTRIES = {'erf': ('entries', 'size'), 'rim': ('entries', 'size'), 'bif': ('variable_resources', 'file_size')}
_RES_INDEX_BITS = 20  # a BIF ResID's low 20 bits index its resource (Key and BIF File Formats, 2.3)


def _bytes_view(data, what):
    """A read-only uint8 array over data (bytes, bytearray, memoryview or a
    contiguous ndarray), no copy."""
    if isinstance(data, np.ndarray):
        return np.ascontiguousarray(data).view(np.uint8).reshape(-1)
    try:
        return np.frombuffer(memoryview(data).cast('B'), np.uint8)
    except TypeError:
        raise ValueError('%s: member bytes must be bytes, bytearray, memoryview or an ndarray, not %s'
                         % (what, type(data).__name__)) from None


class ContainerModel(dict):
    """A container as plain Python values: the listing `relic dump` prints
    (header fields; ERF localized strings; entries, or a BIF's
    variable_resources) where every entry also holds 'data', the member's
    bytes. Change 'data' (replace), add or remove members, then save(path)
    or relic.write(model)."""

    __getattr__ = dict.__getitem__

    @property
    def kind(self):
        """'erf', 'rim' or 'bif'."""
        return self['format']

    def _list(self):
        return self[_ENTRIES[self.kind][0]]

    def names(self):
        """ERF/RIM: the members' names (resref.ext) in table order; BIF: the
        indices."""
        if self.kind == 'bif':
            return list(range(len(self._list())))
        return [e.get('name') or '%s.%s' % (e['resref'], e['type']) for e in self._list()]

    def index(self, name):
        """Position of a member: an index, or (ERF/RIM) its name resref.ext,
        compared without regard to case as the games do. KeyError when absent."""
        entries = self._list()
        if isinstance(name, int):
            if not -len(entries) <= name < len(entries):
                raise KeyError('%s: no member %d (%d members)' % (self.kind, name, len(entries)))
            return name % len(entries)
        want = name.lower()
        for i, n in enumerate(self.names()):
            if n.lower() == want:
                return i
        raise KeyError('%s: no member named %r' % (self.kind, name))

    def data(self, name):
        """The bytes of a member (index or name)."""
        return self._list()[self.index(name)]['data']

    def replace(self, name, data):
        """Give a member new bytes; a new size lays the file out again."""
        _bytes_view(data, str(name))
        self._list()[self.index(name)]['data'] = data

    def add(self, name, data, res_type=None):
        """Append a member. ERF/RIM: name is resref.ext (the type from the
        extension, or res_type); BIF: name is ignored (None), res_type the
        resource type id. ValueError when an ERF/RIM name is already there."""
        _bytes_view(data, str(name))
        if self.kind == 'bif':
            if res_type is None:
                raise ValueError('bif: add(None, data, res_type=...): a BIF member needs its resource type id')
            self._list().append({'id': 0, 'offset': 0, 'file_size': 0, 'res_type': int(res_type), 'data': data})
        else:
            if not isinstance(name, str) or '.' not in name:
                raise ValueError('%s: a member is named resref.ext, not %r' % (self.kind, name))
            if any(n.lower() == name.lower() for n in self.names()):
                raise ValueError('%s: %r is already a member (replace() changes its bytes)' % (self.kind, name))
            # ResRefs lower case, as in real files and relic pack's
            e = {'name': name, 'resref': name.rsplit('.', 1)[0].lower(), 'data': data}
            if res_type is not None:
                e['type'] = int(res_type)
            self._list().append(e)
        self._relayout()

    def remove(self, name):
        """Remove a member (index or name)."""
        del self._list()[self.index(name)]
        self._relayout()

    def _relayout(self):
        # the member set changed: the packed layout, ResIDs the new indices (relic pack's rule)
        entries = self._list()
        if self.kind == 'bif':
            top = entries[0]['id'] >> _RES_INDEX_BITS if entries else 0
            for i, e in enumerate(entries):
                e['id'], e['offset'] = top << _RES_INDEX_BITS | i, 0
        else:
            for i, e in enumerate(entries):
                e['id'] = i
                e.pop('offset', None)

    def to_json(self):
        """The listing without the members' bytes (what `relic dump` prints)."""
        key = _ENTRIES[self.kind][0]
        doc = {k: v for k, v in self.items() if k != key}
        doc[key] = [{k: v for k, v in e.items() if k != 'data'} for e in self[key]]
        return _json.dumps(doc)

    def to_bytes(self):
        """The container through relic_abi_container_write: bytes, validated."""
        from . import FormatError
        arrays = []
        for i, e in enumerate(self._list()):
            if 'data' not in e:
                raise ValueError('%s: member %d (%s) has no data' % (self.kind, i, e.get('name', i)))
            arrays.append(_bytes_view(e['data'], str(e.get('name', i))))
        n, out, problems = _lib.container_write(self.to_json().encode(), arrays)
        if n == -1:
            raise ValueError('relic: %r is not a container relic writes from Python' % self.get('format'))
        if n:
            raise FormatError('<model>', problems)
        return out

    def save(self, path):
        from . import _atomic_write
        _atomic_write(path, self.to_bytes())


def decode(view):
    """A ContainerModel of an open ERF/RIM or BIF view: relic's listing, and
    for each entry 'data', a read-only memoryview of its bytes in the
    mapping (no copy)."""
    n, out, problems = _lib.to_json(view.format, view.buffer.ctypes.data if len(view.buffer) else None,
                                    len(view.buffer))
    if n:
        from . import FormatError
        raise FormatError(view.path, problems)
    m = ContainerModel(_json.loads(out))
    key, size = _ENTRIES[m.kind]
    mem = view._mem
    for e in m[key]:
        e['data'] = mem[e['offset']:e['offset'] + e[size]] if e[size] else mem[0:0]
    return m
