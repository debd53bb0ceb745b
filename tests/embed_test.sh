#!/bin/sh
# embed_test.sh — the README BWM example against a FORMATS="bwm" librelic
# (static archive) and against the amalgamation alone (cc ex.c relic_bwm.c),
# run on tests/samples/room.wok; the subset's detection knows BWM only.
# usage: sh tests/embed_test.sh SUBSET_BUILD_DIR AMALGAMATION.c
# Prints "N passed, M failed".
lib=$1 amalg=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
check() { if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $*"; fi; }
expected="48 faces, 44 walkable, first vertex x = 0"
awk '/^```c$/ { grab = 0 } grab { print } /^```c$/ { getline line; if (line ~ /count walkable faces/) { grab = 1; print line } }' README.md | sed '/^```$/,$d' > "$tmp/ex.c"
check test -s "$tmp/ex.c"
# the FORMATS="bwm" library: only libc, libm (and zlib) needed, no other format inside
if ${CC:-cc} -std=c11 -Wall -Wextra -Werror -I"$tmp/inc" -Iruntime/include -Iruntime/include/relic -Igenerated/kotor \
     "$tmp/ex.c" "$lib/librelic.a" -lz -lm -o "$tmp/ex_lib" 2>"$tmp/cc.log"; then
    check test "$("$tmp/ex_lib" tests/samples/room.wok)" = "$expected"
else
    fail=$((fail + 1)); echo "FAIL: the README example does not build against $lib/librelic.a"; cat "$tmp/cc.log"
fi
check test -z "$(nm "$lib/librelic.a" 2>/dev/null | grep -E ' T relic_(gff|trn|erf|wtd)_')"
# its detection table holds BWM alone: a GFF is unknown, a walkmesh is found
cat > "$tmp/det.c" <<'EOC'
#include <stdio.h>
#include "relic.h"
int main(void)
{
    size_t n = 0;
    while (relic_formats[n]) n++;
    printf("%zu %s %s %s\n", n, relic_formats[0] ? relic_formats[0]->name : "-",
           relic_format_name(relic_detect((const uint8_t *)"BWM V1.0", 8, NULL)),
           relic_format_name(relic_detect((const uint8_t *)"ARE V3.2", 8, "x.are")));
    return 0;
}
EOC
if ${CC:-cc} -std=c11 -Wall -Werror -Iruntime/include/relic "$tmp/det.c" "$lib/librelic.a" -lz -lm -o "$tmp/det" 2>"$tmp/cc3.log"; then
    check test "$("$tmp/det")" = "1 bwm bwm unknown"
else
    fail=$((fail + 1)); echo "FAIL: detection program does not build"; cat "$tmp/cc3.log"
fi
# the amalgamation: two files, no include path, no library but libm
cp "$amalg" "${amalg%.c}.h" "$tmp/"
sed 's|#include <relic/relic_bwm.h>|#include <stdio.h>\n#include "relic_bwm.h"|' "$tmp/ex.c" > "$tmp/ex_am.c"
if (cd "$tmp" && ${CC:-cc} -c relic_bwm.c -o relic_bwm.o && ${CC:-cc} ex_am.c relic_bwm.o -lm -o ex_am) 2>"$tmp/cc2.log"; then
    check test "$("$tmp/ex_am" tests/samples/room.wok)" = "$expected"
else
    fail=$((fail + 1)); echo "FAIL: the amalgamation does not build"; cat "$tmp/cc2.log"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
