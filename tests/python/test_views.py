"""The views against `relic dump`, zero-copy, and FormatError, over
tests/samples and every corpus file of every format relic opens from Python."""
import json
import mmap
import os

import numpy as np
import pytest

import relic
from conftest import SAMPLES, corpus_files, relic_cmd


def dump(path):
    return json.loads(relic_cmd('dump', path).stdout)


def base_of(a):
    while isinstance(a, np.ndarray) and a.base is not None:
        a = a.base
    return a


def test_room_wok_shapes_and_dtypes():
    w = relic.open(os.path.join(SAMPLES, 'room.wok'))
    assert w.format == 'bwm'
    assert w.vertices.shape == (w.header.vertex_count, 3) and w.vertices.dtype == np.float32
    assert w.faces.shape == (w.header.face_count, 3) and w.faces.dtype == np.uint32
    assert w.header.type is relic.schema('bwm').WalkmeshType.AREA
    assert w.aabb.dtype.names[:2] == ('box_min', 'box_max')


def test_views_share_the_mapping_and_are_read_only():
    w = relic.open(os.path.join(SAMPLES, 'room.wok'))
    for a in (w.vertices, w.faces, w.materials, w.aabb, w.adjacency, w.perimeters):
        assert np.shares_memory(a, w.buffer)
        assert not a.flags.writeable
    # the memory behind them is the file's mapping, not a copy
    assert isinstance(base_of(w.buffer).obj, mmap.mmap)
    with pytest.raises(ValueError):
        w.vertices[0, 0] = 1.0


def test_views_over_bytes_share_the_caller_buffer():
    data = open(os.path.join(SAMPLES, 'room.wok'), 'rb').read()
    w = relic.open(data)
    assert np.shares_memory(w.faces, np.frombuffer(data, np.uint8))
    w = relic.open(bytearray(data))  # a mutable buffer is still viewed read-only
    assert not w.faces.flags.writeable


def test_generated_enums_and_flags():
    bwm = relic.schema('bwm')
    assert bwm.SurfaceMaterial.GRASS == 3 and issubclass(bwm.AabbPlane, __import__('enum').IntFlag)
    assert bwm.header_dtype.itemsize == 136 and bwm.header_dtype.fields['vertex_offset'][1] == 76
    trn = relic.schema('trn')
    assert trn.triangle_dtype.itemsize == 64 and trn.TriangleFlags.WALKABLE == 1


def same_floats(view, values):
    return np.array_equal(view, np.asarray(values, dtype=view.dtype), equal_nan=True)


def check_bwm(w, d):
    for k, v in d['header'].items():
        got = w.header[k]
        if k == 'magic':
            assert got.decode() == v
        elif k == 'type':
            assert got.name.lower() == v
        elif isinstance(v, list):
            assert same_floats(got, v)
        else:
            assert got == v, k
    assert same_floats(w.vertices, d['vertices']) or w.vertices.size == len(d['vertices']) == 0
    assert np.array_equal(w.faces, np.asarray(d['faces'], np.uint32).reshape(-1, 3))
    names = relic.schema('bwm').SurfaceMaterial
    assert [names[m.upper()] if isinstance(m, str) else m for m in d['materials']] == w.materials.tolist()
    assert same_floats(w.normals, d['normals']) or w.normals.size == 0
    assert same_floats(w.distances, d['distances']) or w.distances.size == 0
    for node, j in zip(w.aabb, d['aabb']):
        assert same_floats(np.array(node['box_min'].tolist(), np.float32), j['box_min'])
        assert same_floats(np.array(node['box_max'].tolist(), np.float32), j['box_max'])
        assert (node['face'], node['child1'], node['child2']) == (j['face'], j['child1'], j['child2'])
    assert np.array_equal(w.adjacency, np.asarray(d['adjacency'], np.int32).reshape(-1, 3))
    assert [(e['edge'], e['transition']) for e in d['edges']] == w.edges.tolist()
    assert w.perimeters.tolist() == d['perimeters']


@pytest.mark.parametrize('path', corpus_files('bwm') + [os.path.join(SAMPLES, f) for f in ('room.wok', 'crate.pwk', 'door0.dwk')])
def test_bwm_views_equal_relic_dump(path):
    check_bwm(relic.open(path), dump(path))


@pytest.mark.parametrize('path', corpus_files('trx', 'trn'))
def test_trn_views_equal_relic_dump(path):
    t, d = relic.open(path), dump(path)
    assert (t.header.version_major, t.header.packet_count) == (d['header']['version_major'], d['header']['packet_count'])
    assert [e['offset'] for e in d['directory']] == t.directory['offset'].tolist()
    for p, j in zip(t.packets, d['packets']):
        assert p.size == j['size']
        if 'trwh' in j:
            assert (p.trwh.width, p.trwh.height, p.trwh.id) == (j['trwh']['width'], j['trwh']['height'], j['trwh']['id'])
        if 'aswm' in j:
            assert p.aswm_bytes.tobytes().hex() == j['aswm']
            w = p.aswm  # over the inflated walkmesh: a view of its own buffer, no copy of it
            assert w.vertices.shape == (w.vertex_count, 3) and w.vertices.dtype == np.float32
            assert w.triangles.shape == (w.triangle_count,) and w.triangles.dtype.itemsize == 64
            assert np.shares_memory(w.triangles, w._inflated)
            assert len(w.tiles) == w.grid_width * w.grid_height and len(w.islands) == w.island_count
            if w.triangle_count:
                assert int(w.triangles['vertices'].max()) < w.vertex_count
        elif 'data' in j:
            assert p.data.tobytes().hex() == j['data']


@pytest.mark.parametrize('path', corpus_files('cau', 'tpa', 'pid'))
def test_audio_and_pid_headers_equal_relic_dump(path):
    v, d = relic.open(path), dump(path)
    for k in v.fields():
        if k in d and isinstance(d[k], (int, float)) and not isinstance(d[k], bool):
            assert v[k] == d[k], k


def test_bad_bytes_raise_format_error_with_path_and_offset():
    data = bytearray(open(os.path.join(SAMPLES, 'room.wok'), 'rb').read())
    data[84:88] = (10**6).to_bytes(4, 'little')  # face_offset past the end
    with pytest.raises(relic.FormatError) as e:
        relic.open(bytes(data))
    assert e.value.path.startswith('faces') and e.value.offset >= 0 and e.value.code


def test_format_error_says_what_relic_check_says(tmp_path):
    bad = tmp_path / 'bad.wok'
    data = bytearray(open(os.path.join(SAMPLES, 'room.wok'), 'rb').read())
    data[556:560] = (999).to_bytes(4, 'little')  # faces[0].v[0] out of range
    bad.write_bytes(bytes(data))
    with pytest.raises(relic.FormatError) as e:
        relic.open(str(bad))
    printed = relic_cmd('check', str(bad), check=False).stdout.decode().splitlines()[0]
    assert str(e.value) == printed
    assert e.value.path == 'faces[0].v[0]' and e.value.offset == 556


@pytest.mark.parametrize('path', [p for p in corpus_files('gff') if p.values[0] and 'corrupted' in p.values[0]] or
                         corpus_files('none'))
def test_corrupted_corpus_gff_raises(path):
    with pytest.raises(relic.FormatError) as e:
        relic.open(path)
    assert e.value.path and e.value.offset > 0
    assert str(e.value) == relic_cmd('check', path, check=False).stdout.decode().splitlines()[0]


def test_view_with_a_generated_module_needs_no_librelic_format(tmp_path):
    """relic.view: the layout of a generated module alone (a user's own
    schema outside relic's tree works the same: tests/outoftree_test.sh)."""
    room = os.path.join(SAMPLES, 'room.wok')
    v, w = relic.view(relic.schema('bwm'), room), relic.open(room)
    assert np.array_equal(v.vertices, w.vertices) and np.shares_memory(v.vertices, v.buffer)
    assert v.header.type == w.header.type
    data = open(room, 'rb').read()
    for n in (0, 135, 300):
        with pytest.raises(ValueError, match='does not fit the bwm layout'):
            relic.view(relic.schema('bwm'), data[:n])
