#!/bin/sh
# bombs_cli_test.sh — amplification bombs: one crafted input per codec and
# format (tests/bombs/make_bombs.py: zlib/ASWM, TRRN, LZSS/SPZ, SZDD, ADPCM,
# WTD zerotree, TPM, TRI, TRR, GFF nesting and shared values, ERF, GROFF, KEY, BIF, TLK,
# RIM, BWM, PID, TPA), each under 1 MB and
# declaring far more than it holds. `relic check` must finish each in under
# 1 s of CPU (user + system) and 64 MiB of peak RSS (GNU time) (the WTD grid
# bomb also through `relic info` and a PNG conversion), and either
# refuse it with an error naming the field and byte offset (or line:column
# for text) or accept it where the accept is documented (the limits and why
# are in docs/security.md, "Worst cases measured").
# usage: RELIC=build/relic sh tests/bombs_cli_test.sh
RELIC=${RELIC:-build/relic}
# Debian's python3 (make deps): a python3 found first in PATH may be a wrapper (a pyenv shim
# costs 0.6 s of CPU per start)
PYTHON=${PYTHON:-/usr/bin/python3}; [ -x "$PYTHON" ] || PYTHON=python3
TIME=${TIME_BIN:-/usr/bin/time}
CPU_MAX=${BOMB_CPU_MAX:-1.0}
RSS_MAX_KB=${BOMB_RSS_MAX_KB:-65536}
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
finish() { echo "$pass passed, $fail failed"; [ "$fail" = 0 ]; exit $?; }
if [ ! -x "$TIME" ] || ! command -v "$PYTHON" >/dev/null 2>&1; then
    echo "skip: $TIME or python3 missing (GNU time measures CPU and peak RSS; python3 crafts the bombs)"
    finish
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/relic-bombs.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
mkdir "$tmp/s" "$tmp/b"
RELIC=$RELIC sh tests/samples/make_format_samples.sh "$tmp/s" >/dev/null 2>&1 || { bad "make_format_samples.sh"; finish; }
"$PYTHON" tests/bombs/make_bombs.py "$tmp/s" "$tmp/b" || { bad "make_bombs.py"; finish; }

# run NAME EXPECT [COMMAND]: EXPECT is "error" (exit 1, a message with @0x or LINE:COL)
# or "accept" (exit 0, "ok"): the documented accepts; "info" (exit 0, the
# paragraph of relic info); "done" (exit 0: a conversion within the limits). COMMAND: check (default), info, png (relic
# convert NAME to a PNG) or dump (relic dump NAME -o a JSON file).
run() {
    f=$tmp/b/$1
    size=$(wc -c <"$f")
    if [ "$size" -ge 1048576 ]; then bad "$1: $size bytes, not under 1 MB"; return; fi
    pattern=${4:-}
    case ${3:-check} in
        png) set -- "$1" "$2" "$3" convert "$f" "$tmp/out.png" ;;
        dump) set -- "$1" "$2" "$3" dump "$f" -o "$tmp/out.json" ;;
        *) set -- "$1" "$2" "${3:-check}" "${3:-check}" "$f" ;;
    esac
    name="$1 ($3)"
    expect=$2
    shift 3
    "$TIME" -f '%U %S %M' -o "$tmp/time" "$RELIC" "$@" >"$tmp/out" 2>&1
    rc=$?
    set -- $(tail -1 "$tmp/time")
    cpu=$(awk -v u="$1" -v s="$2" 'BEGIN { printf "%.2f", u + s }')
    rss=$3
    set -- "$name" "$expect"
    what="$1 ($size bytes: ${cpu} s, $rss KB)"
    if awk -v c="$cpu" -v m="$CPU_MAX" 'BEGIN { exit !(c >= m) }'; then bad "$what: over $CPU_MAX s of CPU"; return; fi
    if [ "$rss" -ge "$RSS_MAX_KB" ]; then bad "$what: over $RSS_MAX_KB KB of peak RSS"; return; fi
    case $2 in
        error)
            if [ "$rc" = 1 ] && grep -Eq '@0x[0-9a-f]+: |:[0-9]+:[0-9]+: ' "$tmp/out"; then ok "$what: $(head -1 "$tmp/out" | sed 's|.*/||')"
            else bad "$what: exit $rc, expected a located error: $(head -3 "$tmp/out")"; fi ;;
        accept)
            if [ "$rc" = 0 ] && grep -q ': ok$' "$tmp/out"; then ok "$what: accepted (documented)"
            else bad "$what: exit $rc, expected ok: $(head -3 "$tmp/out")"; fi ;;
        done)
            if [ "$rc" = 0 ]; then ok "$what: done within the budget"
            else bad "$what: exit $rc, expected success: $(head -3 "$tmp/out")"; fi ;;
        info)
            if [ "$rc" = 0 ] && grep -q "$pattern" "$tmp/out"; then ok "$what: $(grep -o "$pattern.*" "$tmp/out" | head -1 | cut -c1-60)"
            else bad "$what: exit $rc, expected '$pattern': $(head -3 "$tmp/out")"; fi ;;
    esac
}

run aswm_limit.trn error     # declares 1 GiB: over RELIC_TRN_ASWM_DEFAULT_LIMIT, refused before allocating
run aswm_inflate.trn error   # 16 KiB of zlib inflating to the 16 MiB limit, once, then refused (version 0)
run aswm_ratio.trn error     # 1000 compressed bytes declaring 16 MiB: past deflate's 1032:1
run trrn_counts.trn error    # 2^32-1 vertices in 600 bytes
run lzss_size.spz error      # SPZ declaring 4 GiB - 1: past the LZSS bound
run szdd_size.gr_ error      # SZDD declaring 4 GiB - 1
run adpcm_size.cau error     # ADPCM sample declaring 4 GiB of data
run wtd_grid.wtd accept      # 16384^2 grid (1 GiB) declared by 412 bytes: check walks the tree only
run wtd_grid.wtd info info 'heights not decoded' # info: header and tree, no grid over RELIC_WTD_DEFAULT_MAX_N
run wtd_grid.wtd error png   # a PNG needs the grid: refused at mapping.quad_extents.size_x before allocating
run wtd_grid2048.wtd done png # the largest grid decoded by default (16 MiB): heightmap PNG within the budget
run wtd_grid2048.wtd info info 'heights -' # info decodes it for the height range
run tpm_comment.tpm accept   # a 900 KB comment line: memory linear in the file
run tri_count.tri error      # 2^32-1 triangles declared
run trr_extent.trr accept    # points 10^6 m apart: check reads points; a grid is built only on convert (refused)
run gff_nesting.utc error    # a chain of 20000 nested structs: over the depth limit
run gff_shared_loc.git accept     # 40000 fields at one 40000-substring locstring: each offset checked once
run gff_overlap_loc.git error     # 35000 overlapping locstrings: past the shared-value work limit
run gff_shared_list.git accept    # 40000 unlisted fields at one list of 120000 entries
run gff_overlap_list.git error    # 35000 overlapping list records: past the shared-value work limit
# its JSON prints the shared value once per field (16 GB): stopped at --max-output's default, 32 x
# the file + 16 MiB. In the plain pass only: printing those 47.5 MB is 0.3 s plain, 3 s under ASan
# (make test's sanitizer pass sets CORPUS_SWEEPS=0); test_gff_bomb prints such files under ASan.
if [ "${CORPUS_SWEEPS:-1}" != 0 ]; then run gff_shared_loc.git error dump; fi
run erf_count.erf error      # 2^31 entries declared in 732 bytes
run groff_count.grf error    # a GROFF header declaring 2^28 bytes
run key_count.key error      # 2^32-1 keys declared in 264 bytes
run key_bifs.key error       # 2^32-1 BIFs declared in 264 bytes
run bif_count.bif error      # 2^31 resources declared in 220 bytes
run tlk_count.tlk error      # 2^31 string entries declared in 220 bytes
run rim_count.rim error      # 2^31 entries declared in the 692-byte sample
run bwm_count.wok error      # 2^32-1 vertices and faces declared in a 7 KB walkmesh
run pid_count.pid error      # 2^31 raster chunks declared in 200 bytes
run tpa_count.tpa error      # 2^31 samples declared in a 916-byte bank
finish
