#!/bin/sh
# outoftree_test.sh — relic-gen for a user's own format, outside relic's
# tree: `make install` into a scratch prefix, then, in a scratch directory
# holding only a schema (fixed records, a counted array at an offset, an
# enum, a derived count and offset), run the installed relic-gen, build
# its C with `pkg-config relic-gen` against the installed librelic (no
# path into this tree), and round-trip a file through the generated
# validator, decoder and writer; a damaged file must be refused with its
# offset. Prints "N passed, M failed".
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { if "$@"; then ok; else bad "$*"; fi; }
CC=${CC:-cc}
make -s install BUILD="${BUILD:-build}" PREFIX="$tmp/usr" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; echo "0 passed, 1 failed"; exit 1; }
for f in bin/relic-gen lib/pkgconfig/relic-gen.pc include/relic/relic_gen.h include/relic/relic_json_table.h share/doc/relic/SCHEMA.md; do
    check test -e "$tmp/usr/$f"
done
export PKG_CONFIG_PATH="$tmp/usr/lib/pkgconfig"
gen=$(pkg-config --variable=relic_gen relic-gen)
check test "$gen" = "$tmp/usr/bin/relic-gen"
# the user's project: nothing of relic's tree in it
mkdir -p "$tmp/proj/schema/mine"
cd "$tmp/proj" || exit 1
cat >schema/mine/wpt.schema <<'EOF'
# Waypoint list (.wpt), the example format of docs/adding-a-format.md.
format wpt "Waypoint list: named spots of a level with a kind and a link" {
    source "docs/adding-a-format.md, example format";
    extensions wpt;
    endian little;
    root wpt;
}

enum point_kind : u16 "What a waypoint marks." {
    spawn = 0 "where the player starts";
    door = 1 "a door or transition";
    treasure = 2 "an item on the ground";
}

struct header size 16 "File header." {
    char[4] magic = "WPT1" "File type and version";
    u32 flags "Reserved; 0";
    u32 point_count = count(points) "Number of waypoints";
    u32 point_offset = offset(points) "Byte offset of the waypoint array";
}

struct point size 20 "One waypoint." {
    f32 x "East (metres)";
    f32 y "North (metres)";
    f32 z "Up (metres)";
    u16 kind : point_kind "What the waypoint marks";
    u16 radius in 0..1000 "Trigger radius (centimetres)";
    u32 next check (it == 0xFFFFFFFF || it < header.point_count) "Next waypoint on a route, 0xFFFFFFFF for none";
}

struct wpt "A whole file: the header and the waypoints placed by its offset." {
    header header;
    point points[header.point_count] at header.point_offset "The waypoints";
}
EOF
if "$gen" -o gen --docs gen/docs --fuzz gen/fuzz schema/mine/wpt.schema >gen.log 2>&1; then ok; else bad "relic-gen: $(cat gen.log)"; fi
check test -s gen/mine/wpt.h
check test -s gen/mine/wpt.c
check test -s gen/docs/wpt.md
# the root model's type, as this relic-gen names it (the decoder's output)
model=$(tr '\n' ' ' <gen/mine/wpt.h | grep -o 'relic_wpt_decode([^)]*)' | sed 's/.*relic_arena \*[a-z_]*, *\(relic_wpt_[a-z_0-9]*\) \*.*/\1/')
case "$model" in relic_wpt_*) ok ;; *) bad "no decoder in the generated header ($model)" ;; esac
cat >main.c <<'EOF'
/* a user's program: make a waypoint file by hand, validate, decode, write
 * it back byte for byte; drop a point and check the derived count */
#include <stdio.h>
#include <string.h>

#include "wpt.h"

static size_t put_u32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); return 4; }
static size_t put_f32(uint8_t *p, float f) { uint32_t v; memcpy(&v, &f, 4); return put_u32(p, v); }

int main(int argc, char **argv)
{
    (void)argv;
    uint8_t file[16 + 3 * 20];
    size_t n = 0;
    memcpy(file, "WPT1", 4), n = 4;
    n += put_u32(file + n, 0);
    n += put_u32(file + n, 3);
    n += put_u32(file + n, 16);
    for (uint32_t i = 0; i < 3; i++) {
        n += put_f32(file + n, 1.5f * (float)i);
        n += put_f32(file + n, -2.0f);
        n += put_f32(file + n, 0.25f);
        file[n++] = (uint8_t)i, file[n++] = 0;                 /* kind */
        file[n++] = (uint8_t)(100 + i), file[n++] = 0;         /* radius */
        n += put_u32(file + n, i + 1 < 3 ? i + 1 : 0xFFFFFFFFu); /* next */
    }
    if (argc > 1) file[16 + 20 + 12] = 7; /* damaged: an unknown kind in points[1] */
    relic_wpt_view v;
    relic_error err;
    if (relic_wpt_validate(file, n, &v, &err) != RELIC_OK) {
        printf("invalid: %s @0x%llx: %s\n", err.path, (unsigned long long)err.offset, err.message);
        return 1;
    }
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    WPT_MODEL m;
    relic_buf out;
    relic_buf_init(&out, 0);
    if (relic_wpt_decode(&v, &a, &m, &err) != RELIC_OK || relic_wpt_write(&m, &out, &err) != RELIC_OK) {
        printf("round trip failed: %s: %s\n", err.path, err.message);
        return 1;
    }
    int same = out.size == n && memcmp(out.data, file, n) == 0;
    printf("%zu points, round trip %s\n", v.points_count, same ? "byte-exact" : "DIFFERS");
    /* drop the last point (and the link to it): the writer recomputes the count */
    m.points_count = 2;
    m.points[1].next = 0xFFFFFFFFu;
    out.size = 0;
    if (relic_wpt_write(&m, &out, &err) != RELIC_OK || relic_wpt_validate(out.data, out.size, &v, &err) != RELIC_OK) {
        printf("edited write failed: %s: %s\n", err.path, err.message);
        return 1;
    }
    printf("after the edit: %zu points in %zu bytes\n", v.points_count, out.size);
    relic_buf_free(&out);
    relic_arena_release(&a);
    return same ? 0 : 1;
}
EOF
# only the installed files: pkg-config's flags, no -I or -L into relic's tree
if $CC -std=c11 -Wall -Wextra -Werror -DWPT_MODEL="$model" -Igen/mine main.c gen/mine/wpt.c \
      $(pkg-config --cflags --libs relic-gen) -o wpt_demo 2>cc.log; then ok; else bad "the generated C does not build: $(cat cc.log)"; fi
# the generated JSON printer/reader builds against the installed librelic-json too
if $CC -std=c11 -Wall -Wextra -Werror -Igen/mine -c gen/mine/wpt_json.c $(pkg-config --cflags relic-gen relic-json) -o wpt_json.o 2>ccj.log; then ok; else bad "the generated JSON code does not build: $(cat ccj.log)"; fi
out=$(LD_LIBRARY_PATH="$tmp/usr/lib" ./wpt_demo 2>&1)
check test "$out" = "3 points, round trip byte-exact
after the edit: 2 points in 56 bytes"
[ "$fail" = 0 ] || echo "wpt_demo said: $out"
out=$(LD_LIBRARY_PATH="$tmp/usr/lib" ./wpt_demo damaged 2>&1)
case "$out" in "invalid: points[1].kind @0x30:"*) ok ;; *) bad "damaged file: $out" ;; esac
# the Python module of the same schema, used beside the installed package
# (relic.view: the generated layout, no librelic format needed)
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
    pydir=$(ls -d "$tmp"/usr/lib/python3*/dist-packages 2>/dev/null | head -1)
    if "$gen" -o gen --python py schema/mine/wpt.schema >genpy.log 2>&1; then ok; else bad "relic-gen --python: $(cat genpy.log)"; fi
    out=$(env -u RELIC_LIB PYTHONPATH="$pydir:py" /usr/bin/python3 -c '
import struct, numpy as np, relic, mine_wpt as w
pts = b"".join(struct.pack("<3fHHI", 1.5 * i, -2.0, 0.25, i, 100 + i, i + 1 if i < 2 else 0xFFFFFFFF) for i in range(3))
v = relic.view(w, b"WPT1" + struct.pack("<3I", 0, 3, 16) + pts)
print(len(v.points), w.PointKind(v.points["kind"][2]).name, v.points["x"].tolist(), np.shares_memory(v.points, v.buffer))
' 2>&1)
    check test "$out" = "3 TREASURE [0.0, 1.5, 3.0] True"
    [ "$out" = "3 TREASURE [0.0, 1.5, 3.0] True" ] || echo "python said: $out"
else
    echo "outoftree_test: /usr/bin/python3 without numpy: the Python module's check skipped"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
