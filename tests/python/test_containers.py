"""Containers written back from Python: ERF/MOD/HAK/SAV/RIM and BIF models
(relic dump's listing plus each member's bytes) through relic's C container
writers. For every corpus ERF/MOD/RIM: the listing equals `relic dump`, the
members' bytes are views of the mapping, an unchanged model writes the file
back byte for byte, and edits (bytes replaced, members added and removed)
give a container that re-opens with the new values and passes `relic
check`. BIF: the corpus BIF is cut after its tables (every resource lies
past its end, so it does not open); the BIF checks run on one that `relic
pack` makes."""
import json
import os

import numpy as np
import pytest

import relic
from conftest import corpus_files, relic_cmd

CONTAINER_EXTS = ('.erf', '.mod', '.hak', '.sav', '.rim')


def container_files():
    return [p for p in corpus_files('other') if p.values[0] is None or
            os.path.splitext(p.values[0])[1].lower() in CONTAINER_EXTS]


def listing(m):
    return json.loads(m.to_json())


def relic_check_passes(path):
    r = relic_cmd('check', str(path), check=False)
    assert r.returncode == 0, r.stdout.decode() + r.stderr.decode()


@pytest.mark.parametrize('path', container_files())
def test_unchanged_container_model_writes_the_input_back(path):
    v = relic.open(path)
    m = v.decode()
    assert isinstance(v, relic.Container) and m.kind in ('erf', 'rim')
    assert listing(m) == json.loads(relic_cmd('dump', path).stdout)
    original = open(path, 'rb').read()
    for e in m.entries:
        # each member's bytes: a read-only view of the mapped file, no copy
        assert bytes(e['data']) == original[e['offset']:e['offset'] + e['size']]
        if e['size']:
            assert np.shares_memory(np.frombuffer(e['data'], np.uint8), v.buffer) and e['data'].readonly
    assert relic.write(m) == original


@pytest.mark.parametrize('path', container_files())
def test_same_size_replacement_keeps_the_layout(path, tmp_path):
    m = relic.open(path).decode()
    i = max(range(len(m.entries)), key=lambda k: m.entries[k]['size'])
    old = bytes(m.data(i))
    new = bytes(b ^ 0x5A for b in old)
    m.replace(m.names()[i], new)
    out = relic.write(m)
    original = open(path, 'rb').read()
    off = m.entries[i]['offset']
    assert len(out) == len(original)
    assert out[off:off + len(new)] == new
    assert out[:off] + out[off + len(new):] == original[:off] + original[off + len(old):]


@pytest.mark.parametrize('path', container_files())
def test_edited_container_reopens_with_the_edits_and_passes_relic_check(path, tmp_path):
    m = relic.open(path).decode()
    names = m.names()
    grown = bytes(m.data(0)) + b'relic'  # a new size: the packed layout
    m.replace(names[0], grown)
    m.add('relictest.txt', b'added by relic')
    m.remove(names[-1])
    out = tmp_path / ('edited' + os.path.splitext(path)[1])
    m.save(out)
    relic_check_passes(out)
    back = relic.open(str(out)).decode()
    assert back.names() == names[:-1] + ['relictest.txt']
    assert bytes(back.data(0)) == grown
    assert bytes(back.data('RelicTest.TXT')) == b'added by relic'  # names compare without case
    assert back.entries[-1]['type'] == 10  # txt (xoreos, src/aurora/types.h)
    assert [e['id'] for e in back.entries] == list(range(len(names)))  # ResID = index, as relic pack renumbers
    # the header the model held is the output's
    for k in ('file_type', 'version', 'build_year', 'build_day', 'description_str_ref', 'localized_strings',
              'reserved_0'):
        assert back.get(k) == m.get(k), k
    # and the edited model, unchanged, writes itself back
    assert relic.write(back) == out.read_bytes()


def test_added_member_type_comes_from_the_extension_or_res_type():
    path = [p.values[0] for p in container_files()]
    if path[0] is None:
        pytest.skip('../shared/corpus absent: corpus part skipped')
    m = relic.open(path[0]).decode()
    m.add('Guard.UTC', b'x')  # ResRefs are stored lower case
    m.add('blob.bin', b'yz', res_type=9999)
    m.add('other.4242', b'')
    back = relic.open(relic.write(m)).decode()
    by_name = {e['resref']: e for e in back.entries}
    assert by_name['guard']['type'] == 2027
    assert by_name['blob']['type'] == 9999 and bytes(back.data(by_name['blob']['id'])) == b'yz'
    assert by_name['other']['type'] == 4242 and by_name['other']['size'] == 0


def test_bad_container_edits_raise_clear_errors():
    path = [p.values[0] for p in container_files()]
    if path[0] is None:
        pytest.skip('../shared/corpus absent: corpus part skipped')
    m = relic.open(path[0]).decode()
    first = m.names()[0]
    with pytest.raises(ValueError, match='already a member'):
        m.add(first.upper(), b'')
    with pytest.raises(ValueError, match='resref.ext'):
        m.add('noextension', b'')
    with pytest.raises(ValueError, match='bytes'):
        m.replace(first, 42)
    with pytest.raises(KeyError, match='no member named'):
        m.remove('absent.txt')
    m.add('x.nosuchext', b'')
    with pytest.raises(relic.FormatError) as e:
        relic.write(m)
    assert e.value.path == 'entries[%d].name' % (len(m.entries) - 1) and 'extension' in e.value.message
    m.remove('x.nosuchext')
    m.add('a' * 40 + '.txt', b'')
    with pytest.raises(relic.FormatError) as e:
        relic.write(m)
    assert 'ResRef' in e.value.message
    m.remove(-1)
    del m.entries[0]['data']
    with pytest.raises(ValueError, match='no data'):
        relic.write(m)


def test_plain_dict_of_a_container_is_written_as_a_container():
    path = [p.values[0] for p in container_files()]
    if path[0] is None:
        pytest.skip('../shared/corpus absent: corpus part skipped')
    m = relic.open(path[0]).decode()
    assert relic.write(dict(m)) == open(path[0], 'rb').read()


# ---------------------------------------------------------------- BIF

def test_packed_bif_model_writes_back_and_edits_validate(packed_key, tmp_path):
    _, bif = packed_key
    v = relic.open(str(bif))
    m = v.decode()
    assert m.kind == 'bif' and listing(m) == json.loads(relic_cmd('dump', str(bif)).stdout)
    assert all(np.shares_memory(np.frombuffer(r['data'], np.uint8), v.buffer) for r in m.variable_resources)
    original = bif.read_bytes()
    assert relic.write(m) == original
    n = len(m.variable_resources)
    first = bytes(m.data(0))
    m.replace(0, first + b'\0' * 3)
    m.add(None, b'new resource', res_type=10)
    m.remove(1)
    out = tmp_path / 'edited.bif'
    m.save(out)
    relic_check_passes(out)
    back = relic.open(str(out)).decode()
    assert len(back.variable_resources) == n
    assert bytes(back.data(0)) == first + b'\0' * 3 and bytes(back.data(-1)) == b'new resource'
    assert back.variable_resources[-1]['res_type'] == 10
    top = m.variable_resources[0]['id'] >> 20
    assert [r['id'] for r in back.variable_resources] == [top << 20 | i for i in range(n)]
    with pytest.raises(ValueError, match='resource type'):
        m.add(None, b'')


@pytest.mark.parametrize('path', corpus_files('bif'))
def test_corpus_bif_is_cut_after_its_tables(path):
    with pytest.raises(relic.FormatError):
        relic.open(path)
    pytest.skip('the corpus BIF is cut after its tables (its resources lie past its end): it does not open, '
                'so write-back is tested on a BIF relic pack makes')
