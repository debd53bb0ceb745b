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

# one awk pass: header names first (FILENAME "-" lists "name path" pairs),
# then every #include line of every source ("file:#include ...")
files=$(find runtime generated \( -name '*.[ch]' -o -name '*.re' \) ! -name '*_lexer.c' | sort)
find runtime generated -name '*.h' | awk -F/ '{ print $NF, $0 }' |
awk '
function layer(p) {
    if (p ~ /^runtime\/include\/relic\/(relic|relic_gen|relic_stream)\.h$/) return "core"
    if (p ~ /^runtime\/include\/relic\/(relic_codec|relic_lzss|relic_adpcm)\.h$/) return "codec"
    if (p ~ /^runtime\/include\/relic\/(relic_png|bwm_export|obj)\.h$/) return "export"
    if (p ~ /^runtime\/include\/relic\/relic_mutate/) return "mutate"
    if (p ~ /^runtime\/include\/relic\//) return "formats"
    if (p ~ /^runtime\/(core|codec|formats|json|export|mutate|cli)\//) { split(p, d, "/"); return d[2] }
    if (p ~ /^generated\/.*_json\.c$/) return "json"
    if (p ~ /^generated\/.*_mutate\.[ch]$/) return "mutate"
    if (p ~ /^generated\//) return "formats"
    return "unknown"
}
function rank(l) {
    return l == "core" ? 0 : l == "codec" ? 1 : l == "formats" ? 2 : (l == "json" || l == "export" || l == "mutate") ? 3 : l == "cli" ? 4 : 9
}
FILENAME == "-" { where[$1] = $2; next }
FNR == 1 { nfiles++; seen[FILENAME] = 1 }
/^#include "/ {
    inc = $0; sub(/^#include "/, "", inc); sub(/".*/, "", inc)
    me = layer(FILENAME); path = where[inc]
    if (path == "") { print FILENAME ": includes \"" inc "\", which is not in runtime/ or generated/"; bad[FILENAME] = 1; next }
    them = layer(path)
    if (rank(them) > rank(me) || (rank(them) == rank(me) && them != me)) {
        print FILENAME " (" me "): includes " path " (" them "): includes must point down"; bad[FILENAME] = 1
    }
}
/^#include </ {
    sys = $0; sub(/^#include </, "", sys); sub(/>.*/, "", sys)
    me = layer(FILENAME)
    if ((sys ~ /^(json-c|yajl)\// && me != "json" && me != "cli") || ((sys == "png.h" || sys == "sndfile.h") && me != "export" && me != "cli")) {
        print FILENAME " (" me "): includes <" sys ">, a library of another layer"; bad[FILENAME] = 1
    }
}
END {
    nbad = 0; for (f in bad) nbad++
    print nfiles - nbad " passed, " nbad " failed"
    exit nbad > 0
}' - $files
