#!/bin/sh
# demo.sh — relic's main job on the project's samples and, when
# ../shared/corpus exists, on the real files: check, info, and JSON, OBJ and
# SVG exports into out/, plus an OBJ -> WOK build.
RELIC=${1:-build/relic}
set -e
mkdir -p out/samples out/corpus
echo "== samples (tests/samples)"
for f in tests/samples/*.wok tests/samples/*.pwk tests/samples/*.dwk; do
    b=$(basename "$f"); n=${b%.*}
    "$RELIC" check "$f"
    "$RELIC" info "$f"
    "$RELIC" convert "$f" "out/samples/$b.json"
    "$RELIC" convert "$f" "out/samples/$n.obj"
    "$RELIC" convert "$f" "out/samples/$n.svg"
done
"$RELIC" convert tests/samples/room.obj out/samples/room_from_obj.wok
"$RELIC" check --strict out/samples/room_from_obj.wok
if [ -d ../shared/corpus/bwm ]; then
    echo "== real files (../shared/corpus/bwm)"
    count=0
    for f in ../shared/corpus/bwm/*.wok; do
        b=$(basename "$f"); n=${b%.*}
        "$RELIC" check -q "$f"
        "$RELIC" convert "$f" "out/corpus/$n.json"
        "$RELIC" convert "$f" "out/corpus/$n.obj"
        "$RELIC" convert "$f" "out/corpus/$n.svg"
        count=$((count + 1))
    done
    echo "checked and exported $count real walkmeshes"
else
    echo "note: ../shared/corpus not found: only the samples were processed"
fi
echo "outputs: $(find out -type f | wc -l) files in out/ (JSON, OBJ, SVG)"
