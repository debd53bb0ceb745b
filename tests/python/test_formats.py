"""The formats beyond BWM, TRN/TRX, GFF and TPA/CAU/PID: ERF/MOD/RIM,
GROFF (GRF/SCN), WTD, KEY, BIF and TLK. For every corpus file of each (and
files relic's own writers make where the corpus has none: a whole BIF):
the views give the values of `relic dump`, fixed-size arrays are views of
the mapping, an unchanged model writes the input back byte for byte (GROFF,
KEY, TLK, BIF; ERF/MOD/RIM in test_containers.py), and a damaged file raises
FormatError naming the field and byte offset, as `relic check` prints it.
docs/python.md has the table of formats x checks."""
import enum
import json
import os

import numpy as np
import pytest

import relic
from conftest import SAMPLES, corpus_files, relic_cmd


def dump(path):
    return json.loads(relic_cmd('dump', path).stdout)


def text(b):
    """A fixed char[N] or bytes field as relic's JSON prints it: the bytes up
    to the first NUL, Latin-1 (the names here are ASCII)."""
    return bytes(b).split(b'\0', 1)[0].decode('latin-1')


def same(view, j, where='', skip=()):
    """Mismatches between a view (Node, ndarray, scalar) and relic's JSON of
    it: every key the JSON has and the view has too is compared."""
    bad = []
    if isinstance(j, dict):
        for k, v in j.items():
            if k in skip or k == 'format':
                continue
            if isinstance(view, np.void) or (isinstance(view, np.ndarray) and view.dtype.names):
                if k in view.dtype.names:
                    bad += same(view[k], v, where + '.' + k, skip)
            elif hasattr(view, '__contains__') and k in view:
                bad += same(view[k], v, where + '.' + k, skip)
    elif isinstance(j, list):
        if isinstance(view, np.ndarray) and view.dtype.names is None and view.dtype.kind in 'iuf':
            got = view.reshape(len(j), -1) if view.ndim > 1 and j and isinstance(j[0], list) else view
            if not np.array_equal(np.asarray(got, np.float64).ravel(), np.asarray(j, np.float64).ravel(), equal_nan=True):
                bad.append(where)
        elif len(view) != len(j):
            bad.append('%s: %d items, JSON %d' % (where, len(view), len(j)))
        else:
            for i, (a, b) in enumerate(zip(view, j)):
                bad += same(a, b, '%s[%d]' % (where, i), skip)
    elif isinstance(j, str):
        if isinstance(view, enum.Enum):
            ok = view.name.lower() == j
        elif isinstance(view, (bytes, np.bytes_)):
            ok = text(view) == j.split('\0', 1)[0] or bytes(view).hex() == j
        elif isinstance(view, np.ndarray):
            ok = view.tobytes().hex() == j or text(view.tobytes()) == j.split('\0', 1)[0]
        else:
            ok = False
        if not ok:
            bad.append('%s: %r vs %r' % (where, view, j))
    elif isinstance(j, bool):
        if bool(view) != j:
            bad.append(where)
    elif isinstance(j, (int, float)):
        if isinstance(j, float) or isinstance(view, (float, np.floating)):
            ok = np.float32(view) == np.float32(j) or (np.isnan(view) and np.isnan(j))
        else:
            ok = int(view) == j
        if not ok:
            bad.append('%s: %r vs %r' % (where, view, j))
    return bad


def arrays_of(node):
    """Every ndarray a view holds (one level of nodes deep)."""
    out = []
    for k in node.fields() if hasattr(node, 'fields') else node._fields():
        v = node[k]
        if isinstance(v, np.ndarray):
            out.append(v)
        elif isinstance(v, relic._layout.Node):
            out += [x for x in (v[f] for f in v._fields()) if isinstance(x, np.ndarray)]
    return out


def zero_copy(v):
    arrays = arrays_of(v)
    for a in arrays:
        assert np.shares_memory(a, v.buffer) and not a.flags.writeable
    return len(arrays)


def damaged_raises_like_relic_check(path, offset, tmp_path, value=b'\xff\xff\xff\x7f'):
    data = bytearray(open(path, 'rb').read())
    data[offset:offset + len(value)] = value
    bad = tmp_path / ('bad' + os.path.splitext(path)[1])
    bad.write_bytes(bytes(data))
    with pytest.raises(relic.FormatError) as e:
        relic.open(str(bad))
    assert e.value.path and e.value.offset >= 0 and e.value.code
    assert str(e.value) == relic_cmd('check', str(bad), check=False).stdout.decode().splitlines()[0]
    return e.value


# ---------------------------------------------------------------- ERF, MOD, RIM

def erf_files():
    return [p for p in corpus_files('other') if p.values[0] is None or
            os.path.splitext(p.values[0])[1].lower() in ('.erf', '.mod', '.hak', '.sav', '.rim')]


@pytest.mark.parametrize('path', erf_files())
def test_erf_views_equal_relic_dump(path):
    v, d = relic.open(path), dump(path)
    assert v.format == 'erf'
    assert d['file_size'] == len(v.buffer)
    if d['format'] == 'rim':
        h = v.header
        assert (h.reserved_0, h.offset_to_entries) == (d['reserved_0'], d['offset_to_entries'])
        e = v.entries
        assert [text(r) for r in e['resref']] == [x['resref'] for x in d['entries']]
        for k, jk in (('res_type', 'type'), ('res_id', 'id'), ('offset', 'offset'), ('size', 'size')):
            assert e[k].tolist() == [x[jk] for x in d['entries']], k
    else:
        h = v.header
        version = int(h.file_version).to_bytes(4, 'little').decode()  # a u32 in the schema: 'V1.0' or 'V1.1'
        assert (text(h.file_type), version) == (d['file_type'], d['version'])
        for k in ('build_year', 'build_day', 'description_str_ref', 'offset_to_localized_string',
                  'offset_to_key_list', 'offset_to_resource_list'):
            assert h[k] == d[k], k
        assert [(s.language_id, bytes(s.text).decode('cp1252')) for s in v.localized_strings] == \
            [(s['language_id'], s['text']) for s in d['localized_strings']]
        assert [(text(k.resref), int(k.res_type), k.res_id) for k in v.keys] == \
            [(x['resref'], x['type'], x['id']) for x in d['entries']]
        assert v.resources['offset_to_resource'].tolist() == [x['offset'] for x in d['entries']]
        assert v.resources['resource_size'].tolist() == [x['size'] for x in d['entries']]
    assert zero_copy(v) >= 1


@pytest.mark.parametrize('path', erf_files()[:1])
def test_damaged_erf_raises_format_error(path, tmp_path):
    if path is None:
        pytest.skip('../shared/corpus absent: corpus part skipped')
    e = damaged_raises_like_relic_check(path, 0, tmp_path, b'XXXX')  # the file type
    assert e.offset == 0


# ---------------------------------------------------------------- GROFF (GRF, SCN)

@pytest.mark.parametrize('path', corpus_files('grf', 'scn'))
def test_groff_views_equal_relic_dump(path):
    v, d = relic.open(path), dump(path)
    assert v.format == 'groff'
    assert same(v.header, d['header']) == []
    assert same(v.sections, d['sections']) == []
    assert [(s.handle, s.name_length, s.reference_count) for s in v.symbols] == \
        [(s['handle'], s['name_length'], s['reference_count']) for s in d['symbols']]
    assert [s.name.decode('latin-1') for s in v.symbols] == [s['name'] for s in d['symbols']]
    # unchanged, the model goes back through relic's GROFF writer byte for byte
    assert relic.write(v.decode()) == open(path, 'rb').read()
    # each section's bytes, as a view of the mapping
    for s in v.sections[:8]:
        part = v.buffer[s['data_offset']:s['data_offset'] + s['data_size']]
        assert np.shares_memory(part, v.buffer)
    assert zero_copy(v) >= 2


@pytest.mark.parametrize('path', corpus_files('scn')[:1])
def test_damaged_groff_raises_format_error(path, tmp_path):
    if path is None:
        pytest.skip('../shared/corpus absent: corpus part skipped')
    e = damaged_raises_like_relic_check(path, 8, tmp_path)  # section_count
    assert e.path == 'sections' and e.offset == 0x30


# ---------------------------------------------------------------- WTD

def wtd_files():
    return corpus_files('wtd')


def check_wtd(v, d):
    assert v.format == 'wtd'
    for k in ('version', 'node_count', 'vertex_count', 'root_coefficient'):
        assert v[k] == d[k], k
    assert same(v.mapping, d['mapping']) == []


@pytest.mark.parametrize('path', wtd_files())
def test_wtd_header_equals_relic_dump(path):
    check_wtd(relic.open(path), dump(path))


def test_sample_wtd_header_equals_relic_dump(samples):
    for p in sorted(samples.glob('*.wtd')):
        check_wtd(relic.open(str(p)), dump(str(p)))


@pytest.mark.parametrize('path', wtd_files())
def test_damaged_wtd_raises_format_error(path, tmp_path):
    if path is None:
        pytest.skip('../shared/corpus absent: corpus part skipped')
    # logical bytes 0-1 (the version) are file bytes 3 and 2
    e = damaged_raises_like_relic_check(path, 2, tmp_path, b'\x00\x00')
    assert e.path == 'version'


# ---------------------------------------------------------------- KEY, BIF, TLK

def check_schema_file(path, write_back=True):
    v, d = relic.open(path), dump(path)
    assert same(v, d) == []
    n = zero_copy(v)
    if write_back:
        assert relic.write(v.decode()) == open(path, 'rb').read()
    return v, n


@pytest.mark.parametrize('path', corpus_files('key'))
def test_key_views_equal_relic_dump_and_write_back(path):
    v, n = check_schema_file(path)
    assert v.format == 'key' and n >= 1
    assert len(v['keys']) == v.header.key_count


@pytest.mark.parametrize('path', corpus_files('tlk'))
def test_tlk_views_equal_relic_dump_and_write_back(path):
    v, n = check_schema_file(path)
    assert v.format == 'tlk' and n >= 1
    assert len(v.entries) == v.header.string_count


def test_packed_key_and_bif_views_equal_relic_dump_and_write_back(packed_key):
    key, bif = packed_key
    check_schema_file(str(key))
    # the model carries each resource's bytes (relic.containers): written back whole
    v, n = check_schema_file(str(bif))
    assert v.format == 'bif' and n >= 1
    # a resource's bytes through the view are the member file's
    r = v.variable_resources[0]
    assert bytes(v.buffer[r['offset']:r['offset'] + r['file_size']]) in \
        [open(os.path.join(SAMPLES, f), 'rb').read() for f in ('room.wok', 'crate.pwk', 'door0.dwk')]


@pytest.mark.parametrize('path', corpus_files('bif'))
def test_cut_bif_raises_format_error_for_every_resource_past_its_end(path):
    with pytest.raises(relic.FormatError) as e:
        relic.open(path)
    printed = relic_cmd('check', path, check=False).stdout.decode().splitlines()
    assert str(e.value) == printed[0]
    assert e.value.path.startswith('variable_resources[') and e.value.offset > 0
    assert len(e.value.problems) == min(len([l for l in printed if 'variable_resources[' in l]), 100)


@pytest.mark.parametrize('path', corpus_files('tlk')[:1])
def test_damaged_tlk_raises_format_error(path, tmp_path):
    if path is None:
        pytest.skip('../shared/corpus absent: corpus part skipped')
    e = damaged_raises_like_relic_check(path, 16, tmp_path)  # StringEntriesOffset
    assert e.offset > 0


@pytest.mark.parametrize('path', corpus_files('key'))
def test_damaged_key_raises_format_error(path, tmp_path):
    e = damaged_raises_like_relic_check(path, 8, tmp_path)  # BIFCount
    assert e.offset >= 0
