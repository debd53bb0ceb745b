#!/bin/sh
# check_layers.sh — the include rule of runtime/: includes only point down.
#   cli (4) -> json, export, mutate (3) -> formats (2) -> codec (1) -> core (0)
# A file may include headers of its own layer or of a lower one, never of a
# sibling (json, export and mutate know nothing of each other) or a higher
# one; the library dependencies are layers' too: only json includes a JSON
# library, only export includes libpng or libsndfile. Generated code counts
# as formats, except *_json.c (json) and *_mutate.[ch] (mutate).
# Prints one line per broken rule, then "N passed, M failed".
cd "$(dirname "$0")/.." || exit 2

layer_of_path() {   # layer of a source or header, by where it lives
    case "$1" in
        runtime/include/relic/relic.h|runtime/include/relic/relic_gen.h) echo core ;;
        runtime/include/relic/relic_codec.h|runtime/include/relic/relic_lzss.h|runtime/include/relic/relic_adpcm.h) echo codec ;;
        runtime/include/relic/relic_png.h|runtime/include/relic/bwm_export.h|runtime/include/relic/obj.h) echo export ;;
        runtime/include/relic/relic_mutate*.h) echo mutate ;;
        runtime/include/relic/*) echo formats ;;
        runtime/core/*) echo core ;;
        runtime/codec/*) echo codec ;;
        runtime/formats/*) echo formats ;;
        runtime/json/*) echo json ;;
        runtime/export/*) echo export ;;
        runtime/mutate/*) echo mutate ;;
        runtime/cli/*) echo cli ;;
        generated/*_json.c) echo json ;;
        generated/*_mutate.[ch]) echo mutate ;;
        generated/*) echo formats ;;
        *) echo unknown ;;
    esac
}
rank() { case "$1" in core) echo 0 ;; codec) echo 1 ;; formats) echo 2 ;; json|export|mutate) echo 3 ;; cli) echo 4 ;; *) echo 9 ;; esac; }

# every header name -> its path (names are unique across the include path)
index=$(mktemp); trap 'rm -f "$index"' EXIT
find runtime generated -name '*.h' | while read -r h; do echo "$(basename "$h") $h"; done > "$index"

pass=0; fail=0
for f in $(find runtime generated -name '*.[ch]' -o -name '*.re' | sort); do
    case "$f" in *_lexer.c) continue ;; esac       # re2c output: its .re is checked
    me=$(layer_of_path "$f"); r=$(rank "$me")
    bad=0
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
        path=$(awk -v n="$inc" '$1 == n { print $2; exit }' "$index")
        [ -n "$path" ] || { echo "$f: includes \"$inc\", which is not in runtime/ or generated/"; bad=1; continue; }
        them=$(layer_of_path "$path"); tr=$(rank "$them")
        if [ "$tr" -gt "$r" ] || { [ "$tr" = "$r" ] && [ "$them" != "$me" ]; }; then
            echo "$f ($me): includes $path ($them): includes must point down"; bad=1
        fi
    done
    for sys in $(sed -n 's/^#include <\([^>]*\)>.*/\1/p' "$f"); do
        case "$sys:$me" in
            json-c/*:json|yajl/*:json|json-c/*:cli|yajl/*:cli) ;;
            png.h:export|sndfile.h:export|png.h:cli|sndfile.h:cli) ;;
            json-c/*:*|yajl/*:*|png.h:*|sndfile.h:*) echo "$f ($me): includes <$sys>, a library of another layer"; bad=1 ;;
        esac
    done
    if [ $bad = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
