"""ctypes bindings of librelic's plain entry points (relic_abi.h).

The libraries are found, in order: $RELIC_LIB (a directory holding
librelic.so and librelic-json.so, or the path of librelic-json.so), the build
tree beside this package (../../build when run from a checkout), the prefix
`make install` used (<prefix>/lib/python3/dist-packages/relic -> <prefix>/lib),
then the system's library path.
"""
import ctypes
import ctypes.util
import os

_here = os.path.dirname(os.path.abspath(__file__))

PROBLEM = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64, ctypes.c_char_p, ctypes.c_char_p)
SINK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(ctypes.c_char), ctypes.c_size_t)


def _candidates():
    env = os.environ.get('RELIC_LIB')
    if env:
        yield os.path.dirname(env) if env.endswith('.so') else env
    yield os.path.normpath(os.path.join(_here, '..', '..', 'build'))
    yield os.path.normpath(os.path.join(_here, '..', '..', '..'))  # <prefix>/lib/python3*/dist-packages/relic -> <prefix>/lib


def _load():
    for d in _candidates():
        core, js = os.path.join(d, 'librelic.so'), os.path.join(d, 'librelic-json.so')
        if os.path.exists(core) and os.path.exists(js):
            # librelic first and global: librelic-json's NEEDED librelic.so.0 then resolves to it
            c = ctypes.CDLL(core, mode=ctypes.RTLD_GLOBAL)
            return c, ctypes.CDLL(js)
    name = ctypes.util.find_library('relic-json')
    if name:
        return ctypes.CDLL(ctypes.util.find_library('relic') or 'librelic.so.0', mode=ctypes.RTLD_GLOBAL), ctypes.CDLL(name)
    raise ImportError('relic: librelic.so and librelic-json.so not found (set RELIC_LIB to the directory holding them)')


core, json = _load()

core.relic_abi_detect.restype = ctypes.c_char_p
core.relic_abi_detect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]
core.relic_abi_check.restype = ctypes.c_int
core.relic_abi_check.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t, PROBLEM, ctypes.c_void_p]
core.relic_status_name.restype = ctypes.c_char_p
core.relic_status_name.argtypes = [ctypes.c_int]
for _f in (json.relic_abi_to_json, json.relic_abi_from_json):
    _f.restype = ctypes.c_int
    _f.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t, SINK, ctypes.c_void_p, PROBLEM, ctypes.c_void_p]


json.relic_abi_container_write.restype = ctypes.c_int
json.relic_abi_container_write.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_void_p),
                                           ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t, SINK, ctypes.c_void_p,
                                           PROBLEM, ctypes.c_void_p]


def status_name(code):
    return core.relic_status_name(code).decode()


def _collector():
    problems = []

    def on_problem(_user, code, offset, path, message):
        problems.append((code, offset, path.decode('utf-8', 'replace'), message.decode('utf-8', 'replace')))
    return problems, PROBLEM(on_problem)


def detect(address, size, name):
    r = core.relic_abi_detect(address, size, name.encode() if name else None)
    return r.decode() if r else None


def check(fmt, address, size):
    """(number of problems or -1 when fmt has no check, [(code, offset, path, message)])."""
    problems, cb = _collector()
    n = core.relic_abi_check(fmt.encode(), address, size, cb, None)
    return n, problems


def _run(fn, fmt, address, size):
    out = []

    def sink(_user, data, n):
        out.append(ctypes.string_at(data, n))
    problems, cb = _collector()
    sink_cb = SINK(sink)
    n = fn(fmt.encode(), address, size, sink_cb, None, cb, None)
    return n, (out[0] if out else None), problems


def to_json(fmt, address, size):
    return _run(json.relic_abi_to_json, fmt, address, size)


def from_json(fmt, text):
    buf = ctypes.create_string_buffer(text, len(text))
    return _run(json.relic_abi_from_json, fmt, ctypes.addressof(buf), len(text))


def container_write(text, arrays):
    """(problems or -1, container bytes, problems) of a listing (JSON bytes)
    and one uint8 array per entry, handed to C by address (no copy)."""
    out = []

    def sink(_user, data, n):
        out.append(ctypes.string_at(data, n))
    problems, cb = _collector()
    buf = ctypes.create_string_buffer(text, len(text))
    n = len(arrays)
    ptrs = (ctypes.c_void_p * max(n, 1))(*[a.ctypes.data if len(a) else None for a in arrays])
    sizes = (ctypes.c_uint64 * max(n, 1))(*[len(a) for a in arrays])
    r = json.relic_abi_container_write(ctypes.addressof(buf), len(text), ptrs, sizes, n, SINK(sink), None, cb, None)
    return r, (out[0] if out else None), problems


# ---- format algorithms (relic_abi.h, runtime/formats/abi_algo.c) ----
_P, _S = ctypes.c_void_p, ctypes.c_size_t
_SIG = {
    'relic_abi_bwm_build': [ctypes.c_uint32, _P, ctypes.c_uint32, _P, _P, ctypes.c_uint32],
    'relic_abi_bwm_rebuild': [_P, _S, ctypes.c_uint],
    'relic_abi_trn_bake': [_P, _S, ctypes.c_int, ctypes.c_int],
    'relic_abi_trn_path': [_P, _S, ctypes.c_double, ctypes.c_double, ctypes.c_double, ctypes.c_double],
    'relic_abi_trn_replace_aswm': [_P, _S, _P, _S, ctypes.c_int],
    'relic_abi_wtd_heights': [_P, _S, ctypes.c_uint32],
    'relic_abi_wtd_encode': [_P, _S, _P, ctypes.c_uint32, ctypes.c_uint32],
    'relic_abi_audio_pcm': [ctypes.c_char_p, _P, _S, ctypes.c_uint32],
}
# what follows the sink in each signature, before the problem callback
_AFTER = {'relic_abi_trn_path': [ctypes.POINTER(ctypes.c_double)],
          'relic_abi_wtd_heights': [ctypes.POINTER(ctypes.c_uint32)],
          'relic_abi_audio_pcm': [ctypes.POINTER(ctypes.c_uint32)]}
for _name, _args in _SIG.items():
    _f = getattr(core, _name)
    _f.restype = ctypes.c_int
    _f.argtypes = _args + [SINK, ctypes.c_void_p] + _AFTER.get(_name, []) + [PROBLEM, ctypes.c_void_p]


def call(name, *args, extra=()):
    """(problems count, output bytes or None, problems) of an algorithm entry point."""
    out = []

    def sink(_user, data, n):
        out.append(ctypes.string_at(data, n))
    problems, cb = _collector()
    n = getattr(core, name)(*args, SINK(sink), None, *extra, cb, None)
    return n, (out[0] if out else None), problems

RASTER = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint64, ctypes.c_uint32, ctypes.c_uint32,
                          ctypes.POINTER(ctypes.c_uint8))
core.relic_abi_swp_rasters.restype = ctypes.c_int
core.relic_abi_swp_rasters.argtypes = [_P, _S, _P, _S, ctypes.c_int, RASTER, ctypes.c_void_p, PROBLEM, ctypes.c_void_p]


def swp_rasters(pid, swp, spz):
    """(problems count, [(index, key, width, height, rgba bytes)], problems)."""
    out = []

    def on_raster(_user, index, key, w, h, rgba):
        out.append((index, key, w, h, ctypes.string_at(rgba, w * h * 4)))
    problems, cb = _collector()
    n = core.relic_abi_swp_rasters(pid, len(pid), swp, len(swp), int(spz), RASTER(on_raster), None, cb, None)
    return n, out, problems
