#!/bin/sh
# install_test.sh — `make install` into a temporary prefix, then build the
# C example of README.md against the installed headers and shared library
# with pkg-config (dynamic, and static with --static), run it on a sample,
# and check that librelic.so needs only libc, libm and zlib. Prints "N passed, M failed".
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
check() { if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $*"; fi; }
make -s install BUILD="${BUILD:-build}" PREFIX="$tmp/usr" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; echo "0 passed, 1 failed"; exit 1; }
for f in include/relic/relic.h include/relic/bwm.h include/relic/relic_bwm.h lib/librelic.a lib/librelic.so lib/pkgconfig/relic.pc bin/relic \
         share/man/man1/relic.1 share/bash-completion/completions/relic; do
    check test -e "$tmp/usr/$f"
done
# the README example, verbatim: the ```c block that starts with "/* count walkable faces"
awk '/^```c$/ { grab = 0 } grab { print } /^```c$/ { getline line; if (line ~ /count walkable faces/) { grab = 1; print line } }' README.md | sed '/^```$/,$d' > "$tmp/ex.c"
check test -s "$tmp/ex.c"
export PKG_CONFIG_PATH="$tmp/usr/lib/pkgconfig"
if ${CC:-cc} -std=c11 -Wall -Wextra -Werror "$tmp/ex.c" $(pkg-config --cflags --libs relic) -o "$tmp/ex" 2>"$tmp/cc.log"; then
    pass=$((pass + 1))
    out=$(LD_LIBRARY_PATH="$tmp/usr/lib" "$tmp/ex" tests/samples/room.wok)
    check test "$out" = "48 faces, 44 walkable, first vertex x = 0"
    check test "$("$tmp/usr/bin/relic" --version | cut -d' ' -f1)" = relic
else
    fail=$((fail + 1)); echo "FAIL: the README example does not compile:"; cat "$tmp/cc.log"
fi
# the same example linked statically: what `pkg-config --static` lists (Libs.private) must be enough
static_libs=$(pkg-config --static --libs relic | sed "s|-lrelic\b|$tmp/usr/lib/librelic.a|")
if ${CC:-cc} -std=c11 -Wall -Wextra -Werror "$tmp/ex.c" $(pkg-config --cflags relic) $static_libs -o "$tmp/ex_static" 2>"$tmp/cc_static.log"; then
    pass=$((pass + 1))
    check test "$("$tmp/ex_static" tests/samples/room.wok)" = "48 faces, 44 walkable, first vertex x = 0"
    check test -z "$(ldd "$tmp/ex_static" | grep librelic)"
else
    fail=$((fail + 1)); echo "FAIL: the README example does not link with pkg-config --static:"; cat "$tmp/cc_static.log"
fi
# the Python package (README's lines) with Debian's python3, libraries from the prefix
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
    pydir=$(ls -d "$tmp"/usr/lib/python3*/dist-packages 2>/dev/null | head -1); top=$PWD
    check test "$(cd "$tmp" && env -u RELIC_LIB PYTHONPATH="$pydir" /usr/bin/python3 -c "import relic; w = relic.open('$top/tests/samples/room.wok'); print(w.vertices.shape, w.faces.dtype)")" = "(35, 3) uint32"
else
    echo "install_test: /usr/bin/python3 without numpy: the Python package's check skipped"
fi
# librelic.so needs libc, libm and zlib only (plus the vdso and the loader)
extra=$(ldd "${BUILD:-build}/librelic.so" | awk '{print $1}' | grep -Ev '^(linux-vdso\.so\..*|linux-gate\.so\..*|/.*ld-linux.*|libc\.so\..*|libm\.so\..*|libz\.so\..*)$')
check test -z "$extra"
[ -z "$extra" ] || echo "librelic.so also needs: $extra"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
