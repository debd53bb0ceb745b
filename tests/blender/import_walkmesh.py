"""Blender (Debian's 3.4, system Python) as a client of relic's Python package:
run by `make test-blender` as
    blender -b --factory-startup --python-exit-code 1 --python tests/blender/import_walkmesh.py
It loads a corpus WOK and a TRX (tests/samples/room.wok without the corpus),
builds Blender meshes from relic's NumPy views (vertices, faces, the surface
material / triangle flags as an INT face attribute), checks the counts
against `relic info`, reads the mesh back out of Blender, writes the walkmesh
through relic's Python writer and checks the result with `relic check`.
Last line: "N passed, M failed"."""
import glob
import os
import re
import subprocess
import sys
import tempfile

import bpy
import numpy as np

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
sys.path.insert(0, os.path.join(ROOT, 'python'))
import relic  # noqa: E402

RELIC = os.environ.get('RELIC', os.path.join(ROOT, 'build', 'relic'))
CORPUS = os.path.join(ROOT, '..', 'shared', 'corpus')
results = [0, 0]


def ok(cond, what):
    results[0 if cond else 1] += 1
    print('%s: %s' % ('ok' if cond else 'FAILED', what))


def info(path):
    return subprocess.run([RELIC, 'info', path], capture_output=True, text=True, check=True).stdout


def build_mesh(name, verts, tris, face_ids, attr):
    """A Blender mesh from (N, 3) float32 vertices and (M, 3) indices, with
    face_ids as the INT face attribute attr (the fast foreach_set path)."""
    me = bpy.data.meshes.new(name)
    me.vertices.add(len(verts))
    me.vertices.foreach_set('co', np.ascontiguousarray(verts, np.float32).ravel())
    me.loops.add(3 * len(tris))
    me.loops.foreach_set('vertex_index', np.ascontiguousarray(tris, np.int32).ravel())
    me.polygons.add(len(tris))
    me.polygons.foreach_set('loop_start', np.arange(0, 3 * len(tris), 3, dtype=np.int32))
    me.polygons.foreach_set('loop_total', np.full(len(tris), 3, np.int32))
    me.update(calc_edges=True)
    a = me.attributes.new(name=attr, type='INT', domain='FACE')
    a.data.foreach_set('value', np.ascontiguousarray(face_ids, np.int32))
    ob = bpy.data.objects.new(name, me)
    bpy.context.scene.collection.objects.link(ob)
    return me


def read_mesh(me, attr):
    nv, nf = len(me.vertices), len(me.polygons)
    co = np.empty(3 * nv, np.float32)
    me.vertices.foreach_get('co', co)
    loops = np.empty(len(me.loops), np.int32)
    me.loops.foreach_get('vertex_index', loops)
    ids = np.empty(nf, np.int32)
    me.attributes[attr].data.foreach_get('value', ids)
    return co.reshape(nv, 3), loops.reshape(nf, 3), ids


def wok_case(path):
    w = relic.open(path)
    me = build_mesh('wok', w.vertices, w.faces, w.materials, 'material')
    m = re.search(r'(\d+) vertices, (\d+) faces', info(path))
    ok(m and (len(me.vertices), len(me.polygons)) == (int(m.group(1)), int(m.group(2))),
       '%s: %d vertices, %d faces as relic info says' % (os.path.basename(path), len(me.vertices), len(me.polygons)))
    co, faces, mats = read_mesh(me, 'material')
    ok(np.array_equal(co, w.vertices) and np.array_equal(faces, w.faces) and np.array_equal(mats, w.materials),
       'the Blender mesh holds the walkmesh unchanged')
    # back through relic's writer: the model from the file, geometry and materials from Blender
    model = w.decode()
    model['vertices'] = co
    model['faces'] = faces.astype(np.uint32)
    names = relic.schema('bwm').SurfaceMaterial
    model['materials'] = [names(int(x)).name.lower() if int(x) in names._value2member_map_ else int(x) for x in mats]
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'from_blender.wok')
        model.save(out)
        r = subprocess.run([RELIC, 'check', out], capture_output=True, text=True)
        ok(r.returncode == 0, 'the walkmesh written from Blender passes relic check')
        ok(open(out, 'rb').read() == open(path, 'rb').read(), 'and equals the input byte for byte')


def trx_case(path):
    t = relic.open(path)
    a = t.aswm
    tri = a.triangles
    me = build_mesh('trx', a.vertices, tri['vertices'], tri['flags'], 'flags')
    m = re.search(r'(\d+) vertices, \d+ edges, (\d+) triangles', info(path))
    ok(m and (len(me.vertices), len(me.polygons)) == (int(m.group(1)), int(m.group(2))),
       '%s: %d vertices, %d triangles as relic info says' % (os.path.basename(path), len(me.vertices), len(me.polygons)))
    co, faces, flags = read_mesh(me, 'flags')
    ok(np.array_equal(co, a.vertices) and np.array_equal(faces, tri['vertices']) and np.array_equal(flags, tri['flags']),
       'the Blender mesh holds the ASWM walkmesh unchanged')
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'from_blender.trx')
        t.decode().save(out)
        r = subprocess.run([RELIC, 'check', out], capture_output=True, text=True)
        ok(r.returncode == 0, 'the TRX written back through relic passes relic check')


bpy.ops.wm.read_factory_settings(use_empty=True)
woks = sorted(glob.glob(os.path.join(CORPUS, 'bwm', '*.wok')), key=os.path.getsize)
trxs = sorted(glob.glob(os.path.join(CORPUS, 'trx', '*.trx')), key=os.path.getsize)
if not woks:
    print('import_walkmesh: ../shared/corpus absent: tests/samples/room.wok only, no TRX')
wok_case(woks[-1] if woks else os.path.join(ROOT, 'tests', 'samples', 'room.wok'))
if trxs:
    trx_case(trxs[len(trxs) // 2])
print('%d passed, %d failed' % tuple(results))
sys.exit(1 if results[1] else 0)
