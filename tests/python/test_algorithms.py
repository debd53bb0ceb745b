"""The format algorithms from Python give what the relic command gives:
BWM tables from geometry, NWN2 bake and path, WTD heights both ways,
Trespasser samples as int16."""
import os
import re

import numpy as np
import pytest

import relic
from conftest import SAMPLES, corpus_files, relic_cmd

ROOM = os.path.join(SAMPLES, 'room.wok')


def test_bwm_build_from_geometry_makes_the_same_tables():
    w = relic.open(ROOM)
    b = relic.open(relic.bwm_build(w.vertices, w.faces, w.materials, type=1))
    for name in ('vertices', 'faces', 'materials', 'normals', 'distances', 'aabb', 'adjacency', 'perimeters'):
        assert np.array_equal(getattr(b, name), getattr(w, name)), name
    assert np.array_equal(b.edges['edge'], w.edges['edge'])


def test_bwm_build_orders_walkable_first_and_checks(tmp_path):
    w = relic.open(ROOM)
    faces, mats = w.faces[::-1].copy(), w.materials[::-1].copy()
    out = tmp_path / 'rev.wok'
    out.write_bytes(relic.bwm_build(w.vertices, faces, mats))
    assert relic_cmd('check', str(out)).returncode == 0
    b = relic.open(str(out))
    walk = np.isin(b.materials, [7, 2, 8, 0, 15, 17, 19], invert=True)
    assert walk[:b.header.adjacency_count].all() and not walk[b.header.adjacency_count:].any()


def test_bwm_build_refuses_a_bad_index():
    w = relic.open(ROOM)
    faces = w.faces.copy()
    faces[3, 1] = 10**6
    with pytest.raises(relic.FormatError) as e:
        relic.bwm_build(w.vertices, faces, w.materials)
    assert 'faces' in e.value.path


@pytest.mark.parametrize('path', corpus_files('bwm'))
def test_bwm_rebuild_of_an_edited_model(path):
    m = relic.open(path).decode()
    m['vertices'][:, 2] += 1.0  # the whole walkmesh one metre up: planes and boxes follow
    w = relic.open(relic.bwm_rebuild(m))
    assert np.allclose(w.vertices[:, 2], relic.open(path).vertices[:, 2] + 1.0)
    if len(w.faces) and relic.open(path).header.type == 1:
        lo, hi = w.vertices.min(axis=0), w.vertices.max(axis=0)  # the root box holds the moved walkmesh
        box_lo = np.array(w.aabb['box_min'][0].tolist()); box_hi = np.array(w.aabb['box_max'][0].tolist())
        assert (box_lo <= lo + 1e-5).all() and (box_hi >= hi - 1e-5).all() and (lo - box_lo < 0.05).all()


@pytest.mark.parametrize('path', corpus_files('trn')[:3])
def test_trn_bake_equals_relic_bake(path, tmp_path):
    out = tmp_path / 'baked.trx'
    # the same zlib level on both sides: the command's default is 1, the binding's (-1) the toolset's 6
    relic_cmd('bake', path, str(out), '--level', '6')
    assert relic.trn_bake(path) == out.read_bytes()
    relic_cmd('bake', path, str(out))
    assert relic.trn_bake(path, level=1) == out.read_bytes()


@pytest.mark.parametrize('path', corpus_files('trx')[:3])
def test_trn_path_equals_relic_path(path):
    a = relic.open(path).aswm
    tri = a.triangles
    ok = np.nonzero((tri['flags'] & 1) & (tri['island'] != 0xFFFF))[0]
    if len(ok) < 2:
        pytest.skip('fewer than two walkable triangles on islands')
    p1, p2 = tri['center'][ok[0]], tri['center'][ok[-1]]
    try:
        route, length = relic.trn_path(path, *p1, *p2)
    except relic.FormatError as e:
        pytest.skip('no route: %s' % e.message)
    printed = relic_cmd('path', path, *map(repr, map(float, p1)), *map(repr, map(float, p2))).stdout.decode()
    n = int(re.search(r'(\d+) triangles', printed).group(1))
    assert len(route) == n and route[0] == ok[0]
    assert printed.splitlines()[1].split()[:5] == [str(t) for t in route[:5]]


def test_wtd_heights_round_trip_byte_for_byte(samples):
    wtd = str(samples / 'terrain.wtd')
    h = relic.wtd_heights(wtd)
    assert h.dtype == np.int32 and h.ndim == 2 and h.shape[0] == h.shape[1]
    assert relic.wtd_encode(h, wtd) == open(wtd, 'rb').read()
    h2 = h.copy()
    h2[0, 0] += 5
    assert np.array_equal(relic.wtd_heights(relic.wtd_encode(h2, wtd)), h2)


def test_wtd_limit_is_a_format_error(samples):
    with pytest.raises(relic.FormatError) as e:
        relic.wtd_heights(str(samples / 'terrain.wtd'), max_n=1)
    assert e.value.code == 'limit' or 'limit' in e.value.message


def test_cau_and_tpa_samples_equal_the_wav_relic_writes(samples, tmp_path):
    cau = str(samples / 'tone.cau')
    pcm, rate = relic.audio_samples(cau)
    assert pcm.dtype == np.int16 and rate > 0
    wav = tmp_path / 'tone.wav'
    relic_cmd('convert', cau, str(wav))
    data = wav.read_bytes()
    at = data.index(b'data') + 8
    assert np.array_equal(np.frombuffer(data[at:at + pcm.nbytes], '<i2').reshape(pcm.shape), pcm)
    bank, rate = relic.audio_samples(str(samples / 'bank.tpa'), 0)
    assert bank.dtype == np.int16 and len(bank) > 0


def test_textures_from_swp_and_spz_agree_with_the_pid(samples):
    pid = relic.open(str(samples / 'level.pid'))
    from_swp = relic.textures(str(samples / 'level.pid'), str(samples / 'level.swp'))
    from_spz = relic.textures(str(samples / 'level.pid'), (samples / 'level.spz').read_bytes(), spz=True)
    assert len(from_swp) == len(pid.rasters) == len(from_spz)
    by_key = {int(r['key']): r for r in pid.rasters}
    for (k1, a1), (k2, a2) in zip(from_swp, from_spz):
        assert k1 == k2 and np.array_equal(a1, a2) and a1.dtype == np.uint8
        assert a1.shape == (by_key[k1]['height'], by_key[k1]['width'], 4)


def test_textures_refuse_a_short_swp(samples):
    with pytest.raises(relic.FormatError) as e:
        relic.textures(str(samples / 'level.pid'), (samples / 'level.swp').read_bytes()[:100])
    assert e.value.path.startswith('rasters')


@pytest.mark.parametrize('path', corpus_files('trx')[:6])
def test_unchanged_walkmesh_copy_writes_the_trx_back(path):
    assert relic.trn_replace_aswm(path, relic.open(path).aswm_copy()) == open(path, 'rb').read()


@pytest.mark.parametrize('path', corpus_files('trx')[:1])
def test_edited_walkmesh_is_written_and_checked(path, tmp_path):
    t = relic.open(path)
    w = t.aswm_copy()
    assert w.vertices.flags.writeable and not t.aswm.vertices.flags.writeable
    w.vertices[:, 2] += 1.5
    out = tmp_path / 'up.trx'
    out.write_bytes(relic.trn_replace_aswm(path, w))
    assert np.allclose(relic.open(str(out)).aswm.vertices[:, 2], t.aswm.vertices[:, 2] + 1.5)
    assert relic_cmd('check', str(out)).returncode == 0
    w.triangles['vertices'][0, 0] = 10**7
    with pytest.raises(relic.FormatError) as e:
        relic.trn_replace_aswm(path, w)
    assert e.value.path == 'aswm.triangles[0].vertices[0]'
