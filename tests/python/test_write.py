"""Edit and write through the C writers: unchanged models write their input
back byte for byte (or exactly what `relic convert` makes from relic's JSON
where that is not the input), edits are laid out again and validate; the GFF
tree API."""
import json
import os

import numpy as np
import pytest

import relic
from conftest import SAMPLES, corpus_files, relic_cmd


def cli_roundtrip(path, tmp_path):
    """What the relic command writes from the file's JSON form."""
    j, out = tmp_path / 'x.json', tmp_path / ('x' + os.path.splitext(path)[1])
    j.write_bytes(relic_cmd('dump', path).stdout)
    relic_cmd('convert', str(j), str(out))
    return out.read_bytes()


@pytest.mark.parametrize('path', corpus_files('bwm', 'trx', 'trn', 'cau', 'tpa', 'pid', 'gff') +
                         [os.path.join(SAMPLES, 'room.wok')])
def test_unchanged_model_writes_the_input_back(path, tmp_path):
    try:
        v = relic.open(path)
    except relic.FormatError:
        pytest.skip('not a valid file (the FormatError tests cover it)')
    data = relic.write(v.decode())
    original = open(path, 'rb').read()
    if data != original:
        # only where relic's own JSON round trip does not give the input either
        assert data == cli_roundtrip(path, tmp_path)
        assert cli_roundtrip(path, tmp_path) != original


def test_moved_vertex_is_written_and_validates(tmp_path):
    m = relic.open(os.path.join(SAMPLES, 'room.wok')).decode()
    assert m.vertices.shape == (35, 3)
    m.vertices[8] += (0.0, 0.0, 0.25)
    m.header['position'] = [1.5, 2.5, 0.0]
    out = tmp_path / 'moved.wok'
    m.save(out)
    w = relic.open(str(out))
    assert np.isclose(w.vertices[8, 2], 0.25) and list(w.header.position) == [1.5, 2.5, 0.0]
    assert relic_cmd('check', str(out)).returncode == 0


def test_counts_are_the_writers_and_a_deleted_offset_is_laid_out(tmp_path):
    m = relic.open(os.path.join(SAMPLES, 'room.wok')).decode()
    m.header['vertex_count'] = 999  # derived: the writer counts the vertices
    del m.header['vertex_offset']
    w = relic.open(relic.write(m))
    assert w.header.vertex_count == 35 and w.header.vertex_offset == 136


def test_view_values_placed_in_a_model_are_written_as_their_json(tmp_path):
    """A model edited with values taken from a view or from NumPy, nested in
    its dicts and lists (an IntEnum, a float32 row, NumPy scalars), writes
    them as relic's JSON does: the enum by name, the rest as numbers."""
    path = os.path.join(SAMPLES, 'room.wok')
    v, m = relic.open(path), relic.open(path).decode()
    m.header['type'] = v.header.type
    m.header['relative_use_position_1'] = v.header.relative_use_position_1
    m.header['position'] = [np.float32(10), np.float64(20), np.int64(0)]
    m['extra'] = {'nested': [[np.uint16(7), v.header.type], {'row': np.arange(2, dtype=np.int8)}]}
    header = json.loads(m.to_json())['header']
    assert header['type'] == 'area' and header['position'] == [10, 20, 0]
    assert header['relative_use_position_1'] == [0, 0, 0]
    assert json.loads(m.to_json())['extra'] == {'nested': [[7, 'area'], {'row': [0, 1]}]}
    del m['extra']
    assert relic.write(m) == open(path, 'rb').read()


def test_model_that_breaks_a_rule_raises(tmp_path):
    m = relic.open(os.path.join(SAMPLES, 'room.wok')).decode()
    m.faces[0, 0] = 10**6
    with pytest.raises(relic.FormatError):
        relic.write(m)


@pytest.mark.parametrize('path', [p for p in corpus_files('gff') if p.values[0] is None or p.values[0].endswith('.git')][:4])
def test_gff_tree(path, tmp_path):
    g = relic.open(path)
    assert g.file_type == 'GIT '
    assert g.to_json() and relic.gff.from_json(g.to_json()).root.labels() == g.root.labels()
    creatures = g.root['Creature List']
    if creatures and 'TemplateResRef' in creatures[0]:
        tag = creatures[0]['TemplateResRef']
        creatures[0].set('TemplateResRef', tag[:10] + '_x')
        g2 = relic.open(g.to_bytes())
        assert g2.root['Creature List'][0]['TemplateResRef'] == tag[:10] + '_x'


def test_gff_locstring_and_new_field(tmp_path):
    ifo = [p.values[0] for p in corpus_files('gff') if p.values[0] and p.values[0].endswith('.ifo')]
    if not ifo:
        pytest.skip('../shared/corpus absent: corpus part skipped')
    g = relic.open(ifo[0])
    root = g.root
    names = [l for l in root.labels() if root.type_of(l) == 'cexolocstring']
    assert names
    loc = root[names[0]]
    loc[0] = 'relic test'
    root.set(names[0], loc)
    root.set('RelicTest', 7, type='int')
    out = tmp_path / 'x.ifo'
    g.save(out)
    back = relic.open(str(out)).root
    assert back[names[0]][0] == 'relic test' and back['RelicTest'] == 7


def test_typed_gff_wraps_enums_and_checks_ranges(tmp_path):
    are = [p.values[0] for p in corpus_files('gff') if p.values[0] and p.values[0].lower().endswith('.are')]
    if not are:
        pytest.skip('../shared/corpus absent: corpus part skipped')
    g = relic.open(are[0])
    t = g.typed()
    assert isinstance(t['Flags'], relic.schema('are').AreFlags)
    with pytest.raises(ValueError):
        t.set('ChanceRain', 101)  # documented 0..100
    t.set('ChanceRain', 42)
    assert relic.open(g.to_bytes()).root['ChanceRain'] == 42
