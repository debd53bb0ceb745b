"""pytest set-up for relic's Python package: the package from python/, the
libraries from $RELIC_LIB (default build/), the relic command from $RELIC,
the corpus from ../shared/corpus (its tests skip, saying so, without it)."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))
sys.path.insert(0, os.path.join(ROOT, 'python'))
os.environ.setdefault('RELIC_LIB', os.path.join(ROOT, 'build'))
RELIC = os.environ.get('RELIC', os.path.join(ROOT, 'build', 'relic'))
CORPUS = os.path.join(ROOT, '..', 'shared', 'corpus')
SAMPLES = os.path.join(ROOT, 'tests', 'samples')


def corpus_files(*dirs):
    """Corpus files under the given folders (sorted), or one skipped param."""
    if not os.path.isdir(CORPUS):
        return [pytest.param(None, marks=pytest.mark.skip(reason='../shared/corpus absent: corpus part skipped'))]
    out = []
    for d in dirs:
        p = os.path.join(CORPUS, d)
        if os.path.isdir(p):
            out += [os.path.join(p, f) for f in sorted(os.listdir(p))]
    return [pytest.param(f, id=os.path.basename(f)[-60:]) for f in out]


def relic_cmd(*args, check=True):
    return subprocess.run([RELIC, *args], capture_output=True, check=check)


@pytest.fixture(scope='session')
def samples(tmp_path_factory):
    """The small files tests/samples/make_format_samples.sh makes with relic
    (WTD, CAU, TPA, ...): a directory path."""
    d = tmp_path_factory.mktemp('samples') / 's'
    subprocess.run(['sh', os.path.join(ROOT, 'tests', 'samples', 'make_format_samples.sh'), str(d)],
                   env=dict(os.environ, RELIC=RELIC), capture_output=True, check=True, cwd=ROOT)
    return d


@pytest.fixture(scope='session')
def packed_key(tmp_path_factory):
    """A KEY and its BIF made by relic pack from tests/samples' walkmeshes
    (the corpus has no whole BIF)."""
    d = tmp_path_factory.mktemp('keybif')
    src = d / 'src'
    src.mkdir()
    for f in ('room.wok', 'crate.pwk', 'door0.dwk'):
        (src / f).write_bytes(open(os.path.join(SAMPLES, f), 'rb').read())
    relic_cmd('pack', str(src), str(d / 'chitin.key'))
    bifs = sorted((d / 'data').glob('*.bif'))
    assert bifs
    return d / 'chitin.key', bifs[0]
