"""The schema's layout as the generated modules (relic/_gen/) state it, and the
walker that lays zero-copy NumPy views over validated bytes.

The walker trusts its input: relic.open runs the C validator first, so every
count, offset and branch below has been checked against the buffer once.
Fixed-size arrays become read-only ndarrays over the same memory (structured
dtypes from the schema, or plain (N, k) arrays for tuple structs such as
vec3f); variable-size structs become Node objects; a zlib region is inflated
once and its decoded struct viewed the same way over the inflated bytes.
"""
import math as _math
import struct as _struct
import zlib

import numpy as np

_prod = _math.prod


class Field:
    """One field of a struct: a primitive (fmt: NumPy code) or a struct, with
    fixed dims, a count and a placement (Python callables over R, L)."""

    __slots__ = ('name', 'fmt', 'struct', 'dims', 'count', 'rest', 'at', 'enum', 'codec', 'codec_size',
                 'codec_as', 'hook', 'derived', 'doc', 'unpack')

    def __init__(self, name, fmt=None, struct=None, dims=(), count=None, rest=False, at=None, enum=None,
                 codec=None, codec_size=None, codec_as=None, hook=None, derived=False, doc=''):
        self.name, self.fmt, self.struct, self.dims = name, fmt, struct, tuple(dims)
        self.count, self.rest, self.at, self.enum = count, rest, at, enum
        self.codec, self.codec_size, self.codec_as, self.hook = codec, codec_size, codec_as, hook
        self.derived, self.doc = derived, doc
        self.unpack = None
        if fmt and not fmt.startswith('S') and not dims:
            self.unpack = _struct.Struct(_struct_code(fmt)).unpack_from


def _struct_code(fmt):
    order = '>' if fmt.startswith('>') else '<'
    return order + {'u1': 'B', 'i1': 'b', 'u2': 'H', 'i2': 'h', 'u4': 'I', 'i4': 'i', 'u8': 'Q', 'i8': 'q',
                    'f4': 'f', 'f8': 'd'}[fmt.lstrip('<>|')]


class If:
    """`if (cond) { then } else { else_ }`."""
    __slots__ = ('cond', 'then', 'else_')

    def __init__(self, cond, then, else_):
        self.cond, self.then, self.else_ = cond, then, else_


class Switch:
    """`switch (tag) { case ...: }`: cases are (values or None for default, members)."""
    __slots__ = ('tag', 'cases')

    def __init__(self, tag, cases):
        self.tag, self.cases = tag, cases


class Struct:
    """A struct of the schema: its members, its dtype when fixed-size, and
    (fmt, k) when it is k numbers of one type (viewed as plain (N, k) arrays)."""

    def __init__(self, name, size=None, dtype=None, homogeneous=None, tuple=False, doc='', members=()):
        self.name, self.size, self.dtype, self.homogeneous = name, size, dtype, homogeneous
        self.tuple, self.doc, self.members = tuple, doc, list(members)


class Format:
    """A format: name, extensions, root struct and every struct by name."""

    def __init__(self, name, extensions, root, structs, doc=''):
        self.name, self.extensions, self.root, self.structs, self.doc = name, extensions, root, structs, doc


class Node:
    """The values of one struct in a file: attributes with the schema's field
    names (also as items: node['header']['vertex_count'])."""

    def __init__(self, struct_name):
        self._struct = struct_name
        self._names = []

    def _set(self, name, value):
        if name not in self.__dict__:
            self._names.append(name)
        self.__dict__[name] = value

    def __getitem__(self, name):
        return self.__dict__[name]

    def __contains__(self, name):
        return name in self.__dict__ and not name.startswith('_')

    def _fields(self):
        """The field names in file order (a method name no schema field takes)."""
        return list(self._names)

    def __repr__(self):
        return '<%s: %s>' % (self._struct, ', '.join(self._names))


class Walker:
    """Walks validated bytes (buf: a read-only uint8 ndarray over the
    mapping, mem: a memoryview of the same bytes) for one format."""

    def __init__(self, fmt):
        self.fmt = fmt

    def root(self, buf, mem):
        st = self.fmt.structs[self.fmt.root]
        node = Node(st.name)
        self._members(st.members, buf, mem, 0, len(mem), node, node)
        return node

    def view_struct(self, name, buf, mem):
        """A struct of the schema as the root of buf (a codec target)."""
        st = self.fmt.structs[name]
        node = Node(st.name)
        self._members(st.members, buf, mem, 0, len(mem), node, node)
        return node

    def _members(self, members, buf, mem, pos, end, L, R):
        for m in members:
            if isinstance(m, Field):
                pos = self._field(m, buf, mem, pos, end, L, R)
            elif isinstance(m, If):
                pos = self._members(m.then if m.cond(R, L) else m.else_, buf, mem, pos, end, L, R)
            else:
                tag = m.tag(R, L)
                chosen = None
                for values, body in m.cases:
                    if values is None:
                        if chosen is None:
                            chosen = body
                    elif tag in values:
                        chosen = body
                        break
                if chosen is not None:
                    pos = self._members(chosen, buf, mem, pos, end, L, R)
        return pos

    def _field(self, f, buf, mem, pos, end, L, R):
        p = int(f.at(R, L)) if f.at else pos
        n = int(f.count(R, L)) if f.count else None
        if f.struct:
            st = self.fmt.structs[f.struct]
            if st.size is not None and st.dtype is not None:
                if f.rest:
                    n = (end - p) // st.size
                if n is None and not f.dims:
                    if st.homogeneous:
                        val = np.ndarray((st.homogeneous[1],), st.homogeneous[0], buf, p)
                    else:
                        val = Node(st.name)
                        self._members(st.members, buf, mem, p, p + st.size, val, R)
                    size = st.size
                else:
                    shape = ((n,) if n is not None else ()) + f.dims
                    count = _prod(shape) if shape else 1
                    if st.homogeneous:
                        val = np.ndarray(shape + (st.homogeneous[1],), st.homogeneous[0], buf, p)
                    else:
                        val = np.ndarray(shape, st.dtype, buf, p)
                    size = count * st.size
            else:
                count = n if n is not None else 1
                items = []
                q = p
                if f.rest:
                    while q < end:
                        node = Node(st.name)
                        q = self._members(st.members, buf, mem, q, end, node, R)
                        items.append(node)
                else:
                    for _ in range(count * (_prod(f.dims) if f.dims else 1)):
                        node = Node(st.name)
                        q = self._members(st.members, buf, mem, q, end, node, R)
                        items.append(node)
                val = items if (n is not None or f.rest or f.dims) else items[0]
                size = q - p
        elif f.fmt.startswith('S'):
            width = int(f.fmt[1:])
            if width == 0 and n is not None and not f.dims:
                # char name[count]: one string of count bytes (ERF V1.1 ResRefs, GROFF names)
                val = bytes(mem[p:p + n])
                size = n
            elif n is None and not f.dims:
                val = bytes(mem[p:p + width])
                size = width
            else:
                shape = ((n,) if n is not None else ()) + f.dims
                val = np.ndarray(shape, f.fmt, buf, p)
                size = _prod(shape) * width
        else:
            itemsize = np.dtype(f.fmt).itemsize
            if f.rest:
                n = (end - p) // itemsize
            if n is None and not f.dims:
                val = f.unpack(mem, p)[0]
                if f.enum is not None:
                    try:
                        val = f.enum(val)
                    except ValueError:
                        pass  # an open enum: values outside the list are allowed
                size = itemsize
            else:
                shape = ((n,) if n is not None else ()) + f.dims
                val = np.ndarray(shape, f.fmt, buf, p)
                size = _prod(shape) * itemsize
            if f.codec == 'zlib':
                L._set(f.name + '_bytes', val)
                raw = zlib.decompress(mem[p:p + size])
                inflated = np.frombuffer(raw, np.uint8)
                val = self.view_struct(f.codec_as, inflated, memoryview(raw))
                val.__dict__['_inflated'] = inflated  # keeps the buffer the views share
        L._set(f.name, val)
        return pos if f.at else p + size
