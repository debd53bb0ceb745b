"""GFF (BioWare Aurora Generic File Format) as a tree: structs, lists and
typed fields over relic's GFF reader, in nwn_gff's JSON form (the form
`relic dump` prints and `relic convert x.json y.git` reads).

    g = relic.open('area.git')
    g.root['Creature List'][2]['Tag']        # a field's value
    g.root['Creature List'][2].set('Tag', 'guard_02')
    g.save('area2.git')                      # through relic's C GFF writer

Source: BioWare, Aurora Generic File Format (GFF) (as docs/references.md
lists it); nwn_gff's JSON form (neverwinter.nim).
"""
import json as _json


class LocString:
    """A CExoLocString: strref (-1 for none) and the strings by language id
    (nwn_gff: language*2 + gender, as text)."""

    def __init__(self, raw):
        self._raw = raw

    @property
    def strref(self):
        return self._raw.get('id', -1)

    @property
    def strings(self):
        return {int(k): v for k, v in self._raw.get('value', {}).items()}

    def __getitem__(self, lang):
        return self._raw['value'][str(lang)]

    def __setitem__(self, lang, text):
        self._raw.setdefault('value', {})[str(lang)] = text

    def __repr__(self):
        return 'LocString(strref=%d, %r)' % (self.strref, self.strings)


class Struct:
    """One GFF struct: fields by label (`s['Tag']`), its struct id."""

    def __init__(self, raw):
        self._raw = raw

    @property
    def struct_id(self):
        return self._raw.get('__struct_id', -1)

    def labels(self):
        return [k for k in self._raw if not k.startswith('__')]

    def type_of(self, label):
        """nwn_gff's type name of a field: 'dword', 'cexostring', 'list' ..."""
        return self._raw[label]['type']

    def __contains__(self, label):
        return label in self._raw and not label.startswith('__')

    def __getitem__(self, label):
        field = self._raw[label]
        t, v = field['type'], field.get('value')
        if t == 'struct':
            return Struct(v)
        if t == 'list':
            return [Struct(s) for s in v]
        if t == 'cexolocstring':
            return LocString(field)
        return v

    def set(self, label, value, type=None):
        """Set a field's value; a new field needs its nwn_gff type name."""
        if label not in self._raw:
            if type is None:
                raise KeyError('%s: a new field needs its type' % label)
            self._raw[label] = {'type': type}
            if '__field_order' in self._raw:
                self._raw['__field_order'].append(label)
        if isinstance(value, Struct):
            value = value._raw
        elif isinstance(value, LocString):
            self._raw[label] = value._raw
            return
        elif isinstance(value, list):
            value = [v._raw if isinstance(v, Struct) else v for v in value]
        self._raw[label]['value'] = value

    __setitem__ = set

    def __repr__(self):
        return '<gff struct %d: %s>' % (self.struct_id, ', '.join(self.labels()))


class Gff:
    """A whole GFF file: file type ('GIT '), root struct, JSON both ways and
    byte-exact writes (an unchanged tree writes the file's bytes back)."""

    format = 'gff'

    def __init__(self, doc, path=None):
        self._doc = doc
        self.path = path

    @property
    def file_type(self):
        return self._doc['__data_type']

    @property
    def root(self):
        return Struct(self._doc)

    def to_json(self):
        """nwn_gff's JSON text of the tree."""
        return _json.dumps(self._doc, ensure_ascii=False)

    def decode(self):
        return self

    def typed(self):
        """The root read with the file type's typed schema (relic.gff.Typed)."""
        return typed(self)

    def to_bytes(self):
        from . import _write_json
        return _write_json('gff', self.to_json().encode())

    def save(self, path):
        from . import _atomic_write
        _atomic_write(path, self.to_bytes())


def from_json(text):
    """A Gff from nwn_gff JSON text (str or bytes)."""
    if isinstance(text, bytes):
        text = text.decode()
    return Gff(_json.loads(text))


def _typed_modules():
    """The generated typed-GFF modules (FIELDS tables) by file type, and the common one."""
    import importlib
    from ._gen import MODULES
    by_type, common = {}, {}
    for name in MODULES.values():
        m = importlib.import_module('relic._gen.' + name)
        if hasattr(m, 'FIELDS'):
            if getattr(m, 'GFF_TYPE', None):
                by_type[m.GFF_TYPE] = m
            else:
                common.update(m.FIELDS)
    return by_type, common


class Typed:
    """A GFF struct read with its typed schema (ARE, GIT, GIC, IFO, ITP):
    values by label with enums and flags wrapped, lists and structs typed in
    turn, documented ranges checked by set, docs by label."""

    def __init__(self, struct, fields, name):
        self.struct, self._all, self.name = struct, fields, name
        self.fields = fields.get(name, {})

    def __getitem__(self, label):
        v = self.struct[label]
        spec = self.fields.get(label)
        if spec is None:
            return v
        _type, _range, enum, stype, _doc = spec
        if enum is not None and isinstance(v, int):
            try:
                return enum(v)
            except ValueError:
                return v
        if stype is not None and isinstance(v, list):
            return [Typed(s, self._all, stype) for s in v]
        if stype is not None and isinstance(v, Struct):
            return Typed(v, self._all, stype)
        return v

    def set(self, label, value):
        """Set a field; a value outside the documented range raises ValueError."""
        spec = self.fields.get(label)
        if spec and spec[1] is not None and isinstance(value, int) and not spec[1][0] <= value <= spec[1][1]:
            raise ValueError('%s.%s: %d is outside %d..%d (%s)' % (self.name, label, value, spec[1][0], spec[1][1], spec[4]))
        self.struct.set(label, int(value) if isinstance(value, int) else value,
                        type=None if label in self.struct else (spec[0] if spec else None))

    __setitem__ = set

    def doc(self, label):
        return self.fields[label][4]

    def __repr__(self):
        return '<typed %s: %s>' % (self.name, ', '.join(self.struct.labels()))


def typed(g):
    """The root of g read with its typed schema (ARE, GIT, GIC, IFO, ITP
    files); KeyError for other file types."""
    by_type, common = _typed_modules()
    m = by_type[g.file_type]
    fields = dict(common)
    fields.update(m.FIELDS)
    return Typed(g.root, fields, m.ROOT)
