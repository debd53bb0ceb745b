#!/bin/sh
# make_install.sh DIR [MEMBERS] — a generated game install for `relic check -r`
# benchmarks: modules/*.mod ERF containers holding MEMBERS members in all
# (default 20000) plus an override/ folder of loose files, every file written
# by relic's own writers: the samples tests/samples/make_format_samples.sh
# makes, and each small corpus file (../shared/corpus, when present) sent
# through JSON and back (relic dump, relic convert). Corpus files are never
# copied as they are. Deterministic: the same inputs give the same tree.
# Needs RELIC (default build/relic).
set -eu
RELIC=${RELIC:-build/relic}
out=$1
members=${2:-20000}
per_module=500
corpus=${CORPUS:-../shared/corpus}
[ -x "$RELIC" ] || { echo "make_install: $RELIC not built" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out/pool" "$out/modules" "$out/override"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the pool: formats an ERF holds (its res types), each file written by relic
RELIC=$RELIC sh tests/samples/make_format_samples.sh "$tmp/s" >/dev/null
n=0
add() { # add FILE EXT: JSON round trip through relic's writer into the pool
    n=$((n + 1))
    if "$RELIC" dump "$1" -o "$tmp/x.json" 2>/dev/null && "$RELIC" convert "$tmp/x.json" "$out/pool/p$n.$2" >/dev/null 2>&1 &&
       "$RELIC" check -q "$out/pool/p$n.$2" >/dev/null 2>&1; then :; else rm -f "$out/pool/p$n.$2"; fi
}
for f in "$tmp"/s/*.utc "$tmp"/s/*.ifo "$tmp"/s/*.wok "$tmp"/s/*.pwk "$tmp"/s/*.dwk "$tmp"/s/*.trn; do
    [ -f "$f" ] && add "$f" "$(echo "${f##*.}" | tr A-Z a-z)"
done
if [ -d "$corpus" ]; then
    for f in $(find "$corpus/gff" "$corpus/bwm" "$corpus/trn" "$corpus/trx" -type f -size -24k 2>/dev/null | LC_ALL=C sort); do
        ext=$(echo "${f##*.}" | tr A-Z a-z)
        case $ext in res|gff|pth|ptm|ptt|bti|btc|btd|bte|btm|btp|btt|bts|btw|upe|ult|utr) continue ;; esac
        add "$f" "$ext"
    done
else
    echo "make_install: $corpus not found: the pool is the samples only" >&2
fi
# modules of per_module members each: the pool's files in turn under unique
# ResRefs (hard links where the filesystem has them); TRN/TRX (no ERF resource
# type) stay loose in override/ with the rest of the pool
python3 - "$out" "$members" "$per_module" "$tmp" <<'PY'
import os, shutil, sys
out, members, per, tmp = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
pool = sorted(f for f in os.listdir(out + "/pool") if f.rsplit(".", 1)[1] not in ("trn", "trx"))
if not pool: sys.exit("make_install: empty pool")
made, m = 0, 0
while made < members:
    m += 1
    d = "%s/modules/m%03d" % (tmp, m)
    os.makedirs(d)
    for k in range(min(per, members - made)):
        p = pool[(m * 7 + k) % len(pool)]
        dst = "%s/m%dr%d.%s" % (d, m, k, p.rsplit(".", 1)[1])
        try: os.link(out + "/pool/" + p, dst)
        except OSError: shutil.copyfile(out + "/pool/" + p, dst)
        made += 1
PY
m=0
for d in "$tmp"/modules/m*; do
    m=$((m + 1))
    SOURCE_DATE_EPOCH=0 "$RELIC" pack "$d" "$out/modules/module$(printf %03d $m).mod" >/dev/null
    rm -rf "$d"
done
npool=$(ls "$out/pool" | wc -l)
mv "$out/pool"/* "$out/override/"
rmdir "$out/pool"
made=$members
echo "make_install: $out: $made members in $m modules, $npool loose files"
