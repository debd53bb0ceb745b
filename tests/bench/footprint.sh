#!/bin/sh
# footprint.sh — relic's share of small embedding programs, and peak RSS.
#
# Each program is built from the amalgamation (make amalgamation) with the
# embedding flags (-Os -ffunction-sections -fdata-sections, linked with
# --gc-sections, as make embed). relic's share is text + rodata + data of the
# relic object kept in the linker map (-Wl,-Map); libc, libm and zlib are not
# counted. Rows: the README BWM example (validate, walk every face) with full
# error messages and with RELIC_NO_ERRMSG; a GFF reader finding one field by
# label; a TRX reader inflating its ASWM walkmesh. Then peak RSS (/usr/bin/time %M, whole `relic check` process, mapped
# pages touched included) of validating the largest corpus file per format.
#
# usage: AMALG=build/amalgamation RELIC=build/relic sh tests/bench/footprint.sh
AMALG=${AMALG:-build/amalgamation}
RELIC=${RELIC:-build/relic}
CC=${CC:-cc}
CORPUS=${CORPUS:-/work/shared/corpus}
EMBED="-std=c11 -Os -ffunction-sections -fdata-sections"
tmp=$(mktemp -d)
trap '[ -n "$KEEP" ] || rm -rf "$tmp"' EXIT
met=0; missed=0; broken=0

# text/rodata/data of the input sections of object $2 in GNU ld map $1
share() {
    awk -v obj="$2" '
    function hex(s,   i, v) { v = 0; s = tolower(s); sub(/^0x/, "", s)
        for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
        return v }
    /^Linker script and memory map/ { on = 1; next }
    on && /^ \.[a-z]/ {
        sec = $1; if (NF == 1) { getline; sz = $2; o = $3 } else { sz = $3; o = $4 }
        if (o != obj) next
        k = sec ~ /^\.text/ ? "text" : sec ~ /^\.rodata/ ? "rodata" : sec ~ /^\.data/ ? "data" : ""
        if (k != "") t[k] += hex(sz)
    }
    END { printf "%d %d %d %d\n", t["text"] + t["rodata"] + t["data"], t["text"], t["rodata"], t["data"] }' "$1"
}

# row NAME AMALGAMATION PROGRAM.c LIMIT_BYTES(0: none) EXTRA_CFLAGS RUN_ARGS...
row() {
    name=$1 am=$2 prog=$3 limit=$4 extra=$5; shift 5
    d=$tmp/$name; mkdir -p "$d"
    if ! $CC $EMBED $extra -w -c "$AMALG/$am.c" -o "$d/relic.o" 2>"$d/cc.log" ||
       ! $CC $EMBED $extra -I"$AMALG" -c "$prog" -o "$d/prog.o" 2>>"$d/cc.log" ||
       ! $CC -Wl,--gc-sections -Wl,-Map,"$d/map" "$d/prog.o" "$d/relic.o" -lz -lm -o "$d/prog" 2>>"$d/cc.log"; then
        echo "footprint $name: build failed"; cat "$d/cc.log"; broken=$((broken + 1)); return
    fi
    set -- $(share "$d/map" "$d/relic.o") "$@"
    total=$1 text=$2 rodata=$3 data=$4; shift 4
    out=""; [ $# -gt 0 ] && out=$("$d/prog" "$@" 2>&1)
    verdict=""
    if [ "$limit" != 0 ]; then
        if [ "$total" -le "$limit" ]; then verdict=" (target <= $limit: ok)"; met=$((met + 1))
        else verdict=" (target <= $limit: MISSED)"; missed=$((missed + 1)); fi
    fi
    printf 'footprint %-22s %6d bytes = text %d + rodata %d + data %d%s%s\n' "$name" "$total" "$text" "$rodata" "$data" \
        "$verdict" "${out:+  [ran: $out]}"
}

# the README example, verbatim, with the amalgamation's header
awk '/^```c$/ { grab = 0 } grab { print } /^```c$/ { getline line; if (line ~ /count walkable faces/) { grab = 1; print line } }' README.md |
    sed '/^```$/,$d' | sed 's|#include <relic/relic_bwm.h>|#include <stdio.h>\n#include "relic_bwm.h"|' > "$tmp/ex_bwm.c"

row bwm relic_bwm "$tmp/ex_bwm.c" 6144 "" tests/samples/room.wok
row bwm-no-errmsg relic_bwm "$tmp/ex_bwm.c" 4096 "-DRELIC_NO_ERRMSG" tests/samples/room.wok
if [ -f "$AMALG/relic_gff.c" ]; then
    gff=$(ls "$CORPUS"/gff/*.[Gg][Ii][Tt] 2>/dev/null | head -1)
    row gff-find relic_gff tests/bench/footprint/gff_find.c 0 "" ${gff:+"$gff" AreaProperties}
    row gff-find-no-errmsg relic_gff tests/bench/footprint/gff_find.c 0 "-DRELIC_NO_ERRMSG" ${gff:+"$gff" AreaProperties}
fi
if [ -f "$AMALG/relic_trn.c" ]; then
    trx=$(ls "$CORPUS"/trx/*.trx 2>/dev/null | head -1)
    [ -n "$trx" ] || echo "footprint trx-inflate: no corpus TRX ($CORPUS absent): built, not run"
    row trx-inflate relic_trn tests/bench/footprint/trx_inflate.c 0 "" ${trx:+"$trx"}
    row trx-inflate-no-errmsg relic_trn tests/bench/footprint/trx_inflate.c 0 "-DRELIC_NO_ERRMSG" ${trx:+"$trx"}
fi
echo "footprint: relic's objects only; zlib (inflate), libm and libc are not counted"

# peak RSS of validating the largest corpus file of each format
if [ -d "$CORPUS" ] && [ -x "$RELIC" ] && [ -x /usr/bin/time ]; then
    for dir in "$CORPUS"/*/; do
        f=$(find "$dir" -type f -printf '%s %p\n' 2>/dev/null | sort -n | tail -1 | cut -d' ' -f2-)
        [ -n "$f" ] || continue
        rss=$(/usr/bin/time -f %M "$RELIC" check "$f" 2>&1 >/dev/null | tail -1)
        printf 'peak-rss %-8s %8s KiB  relic check %s (%s bytes)\n' "$(basename "$dir")" "$rss" "$(basename "$f")" "$(wc -c < "$f")"
    done
else
    echo "peak-rss: skipped ($CORPUS, $RELIC or /usr/bin/time missing)"
fi
# a missed size target is a figure to report, not a broken build: only builds fail the script
echo "footprint targets: $met met, $missed missed; $broken programs failed to build"
[ "$broken" = 0 ]
