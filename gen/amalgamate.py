#!/usr/bin/env python3
"""amalgamate.py — one .c and one .h holding librelic for chosen formats.

The way SQLite ships sqlite3.c/sqlite3.h and Wuffs ships release/c/wuffs-vN.c:
an embedder copies two files and compiles them with `cc -c relic_bwm.c`, no
build system, no include path. Called by `make amalgamation FORMATS="..."`,
which passes the sources and public headers of those formats.

  amalgamate.py --out DIR --name relic_bwm [-I DIR]... [-D NAME=VALUE]...
                --header H [--header H]... -- SOURCE.c...

Every `#include "x.h"` found on the include path is replaced by the file's
text the first time and dropped afterwards; system includes stay. The .c is
self-contained (it carries the header's text too); feature-test macros of
the sources (_POSIX_C_SOURCE, ...) are hoisted to its top, before any system
header, and the -D macros (the format subset) follow them.
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
FEATURE = re.compile(r'^\s*#\s*define\s+(_POSIX_C_SOURCE|_DEFAULT_SOURCE|_GNU_SOURCE|_XOPEN_SOURCE)\b(.*)$')


STATIC_FN = re.compile(r'^(?:[A-Z_]+\s+)*static\s[^=;(]*?\b(\w+)\s*\(')
STATIC_VAR = re.compile(r'^(?:[A-Z_]+\s+)*static\s[^=;(]*?\b(\w+)\s*(\[[^\]]*\]\s*)*[=;]')
DEFINE = re.compile(r'^\s*#\s*define\s+(\w+)')
TYPEDEF_END = re.compile(r'^}\s*(\w+)\s*;')
TAG = re.compile(r'^(?:typedef\s+)?(?:struct|union|enum)\s+(\w+)\s*\{')
TYPEDEF_LINE = re.compile(r'^typedef\s+(?:struct|union|enum)\b.*}\s*(\w+)\s*;\s*$')
TYPEDEF_ONE = re.compile(r'^typedef\s[^;{]*?\b(\w+)\s*;')


def local_macros(path):
    """Macros a .c file defines for itself (undefined after it)."""
    found = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            m = DEFINE.match(line)
            if m and not FEATURE.match(line) and m.group(1) not in found:
                found.append(m.group(1))
    return found


def local_names(path):
    """File-scope names a .c file defines for itself alone."""
    found = set()
    with open(path, encoding='utf-8') as f:
        for line in f:
            for rx in (STATIC_FN, STATIC_VAR, TYPEDEF_END, TYPEDEF_ONE):
                m = rx.match(line)
                if m:
                    found.add(m.group(1))
                    break
            for rx in (TAG, TYPEDEF_LINE):
                m = rx.match(line)
                if m:
                    found.add(m.group(1))
    return found


class Amalgam:
    def __init__(self, path):
        self.path = path
        self.seen = set()
        self.features = {}

    def find(self, name, here):
        for d in [here] + self.path:
            p = os.path.normpath(os.path.join(d, name))
            if os.path.isfile(p):
                return p
        return None

    def expand(self, filename, out):
        real = os.path.normpath(filename)
        if real in self.seen:
            return
        self.seen.add(real)
        out.append('/* ---- %s ---- */\n' % real)
        with open(real, encoding='utf-8') as f:
            for line in f:
                m = FEATURE.match(line)
                if m:
                    self.features.setdefault(m.group(1), m.group(2).strip())
                    continue
                m = INCLUDE.match(line)
                if m:
                    p = self.find(m.group(1), os.path.dirname(real))
                    if p is None:
                        sys.exit('amalgamate: %s: "%s" not found on the include path' % (real, m.group(1)))
                    self.expand(p, out)
                    continue
                out.append(line)
        if out and not out[-1].endswith('\n'):
            out.append('\n')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True)
    ap.add_argument('--name', required=True)
    ap.add_argument('-I', dest='incs', action='append', default=[])
    ap.add_argument('-D', dest='defs', action='append', default=[])
    ap.add_argument('--header', action='append', default=[])
    ap.add_argument('sources', nargs='+')
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    banner = ('/* %s — relic, amalgamated (gen/amalgamate.py): do not edit.\n'
              ' * SPDX-License-Identifier: MIT (The relic authors)\n */\n') % a.name
    defines = ''.join('#ifndef %s\n#define %s %s\n#endif\n' % (d.split('=')[0], d.split('=')[0],
                      d.split('=', 1)[1] if '=' in d else '1') for d in a.defs)

    # the header: the public headers and what they include, nothing else
    hdr = Amalgam(a.incs)
    body = []
    for h in a.header:
        hdr.expand(h, body)
    guard = a.name.upper() + '_AMALGAMATION_H'
    with open(os.path.join(a.out, a.name + '.h'), 'w', encoding='utf-8') as f:
        f.write(banner + '#ifndef %s\n#define %s\n' % (guard, guard) + defines + ''.join(body) + '#endif\n')

    # the source: header text first, then every source, each include once
    src = Amalgam(a.incs)
    body = []
    for h in a.header:
        src.expand(h, body)
    # file-scope static names and typedefs defined by more than one source
    # (check_field, walk, ...) are renamed per file by a macro around it
    names = {s: local_names(s) for s in a.sources}
    count = {}
    for s in a.sources:
        for n in names[s]:
            count[n] = count.get(n, 0) + 1
    for i, s in enumerate(a.sources):
        clash = sorted(n for n in names[s] if count[n] > 1)
        body.extend('#define %s %s_amalg%d\n' % (n, n, i) for n in clash)
        src.expand(s, body)
        body.extend('#undef %s\n' % n for n in clash + local_macros(s))
    features = ''.join('#ifndef %s\n#define %s %s\n#endif\n' % (k, k, v) for k, v in sorted(src.features.items()))
    with open(os.path.join(a.out, a.name + '.c'), 'w', encoding='utf-8') as f:
        f.write(banner + features + '#define %s\n' % guard + defines + ''.join(body))


if __name__ == '__main__':
    main()
