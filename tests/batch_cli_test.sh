#!/bin/sh
# batch_cli_test.sh — `relic check -r` and `relic info -r` over a small tree:
# the per-format table matches checking every file and every extracted
# container member one by one; the output is the same on 1 and 2 threads
# (walk order); a bad member is named CONTAINER:member; --json is one valid
# JSON object per file and member; the progress line shows on a terminal
# (script(1) gives a pty) and never when standard error is a pipe or with -q;
# exit status 0 clean, 1 problems, 2 usage; an interrupt leaves only whole lines.
# Prints "N passed, M failed". Env: RELIC.
RELIC=${RELIC:-build/relic}
# Debian's python3 (make deps): a python3 found first in PATH may be a wrapper (a pyenv shim
# costs 0.6 s of CPU per start)
PYTHON=${PYTHON:-/usr/bin/python3}; [ -x "$PYTHON" ] || PYTHON=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# ---- the tree: every sample format, a module holding a broken member, and broken loose files ----
t=$tmp/tree
RELIC=$RELIC sh tests/samples/make_format_samples.sh "$t" >/dev/null 2>&1 || bad "make_format_samples.sh"
"$RELIC" mutate "$t/room.wok" "$t/module.ifo" -n 2 -o "$tmp/mut" --invalid --seed 7 >/dev/null 2>&1
mkdir -p "$t/broken" "$tmp/moddir"
cp "$tmp"/mut/*.wok "$tmp"/mut/*.ifo "$t/broken/"
cp "$t/dog.utc" "$tmp/moddir/good.utc"
cp "$(ls "$tmp"/mut/*.ifo | head -1)" "$tmp/moddir/bad.ifo"
cp "$t/room.wok" "$tmp/moddir/room.wok"
SOURCE_DATE_EPOCH=0 "$RELIC" pack "$tmp/moddir" "$t/broken/withbad.mod" >/dev/null || bad "pack a module with a broken member"

# ---- exit status and the problem lines ----
"$RELIC" check -r -j 2 "$t" >"$tmp/r2" 2>"$tmp/r2.err"; rc=$?
[ "$rc" = 1 ] && ok || bad "check -r on a tree with broken files: exit $rc, expected 1"
grep -q "^$t/broken/withbad.mod:bad.ifo: " "$tmp/r2" && ok || bad "a broken member is named CONTAINER:member"
[ ! -s "$tmp/r2.err" ] && ok || { bad "check -r wrote to standard error when piped"; head -3 "$tmp/r2.err"; }
"$RELIC" check -r -j 1 "$t" >"$tmp/r1" 2>/dev/null
# the table's time column differs run to run; everything else is in walk order
strip() { sed -e 's/ *[0-9.]*$//' -e 's/ in [0-9.]* s on [0-9]* threads*: [0-9]* files\/s//' "$1"; }
if [ "$(strip "$tmp/r1")" = "$(strip "$tmp/r2")" ]; then ok; else bad "-j 1 and -j 2 print differently"; diff "$tmp/r1" "$tmp/r2" | head -5; fi
"$RELIC" check -r -q "$t/room.wok" "$t/module.ifo" >"$tmp/clean"; rc=$?
[ "$rc" = 0 ] && [ ! -s "$tmp/clean" ] && ok || bad "check -r -q on valid files: exit $rc, output '$(head -2 "$tmp/clean")'"
"$RELIC" check -r -j 0 "$t" >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] && ok || bad "-j 0 is a usage error (exit $rc)"
"$RELIC" check -r "$tmp/nonexistent" >/dev/null 2>&1; rc=$?
[ "$rc" = 1 ] && ok || bad "a missing root: exit $rc, expected 1"

# ---- the table matches a per-file loop (members extracted and checked one by one) ----
"$PYTHON" - "$RELIC" "$t" "$tmp/r2" "$tmp/x" <<'PY' && ok || bad "the table of check -r does not match the per-file loop"
import json, os, subprocess, sys
relic, tree, table, xdir = sys.argv[1:5]
rows = {}
def add(fmt, ok, problems, size):
    r = rows.setdefault(fmt, [0, 0, 0, 0])
    r[0] += 1; r[1] += ok; r[2] += problems; r[3] += size
def check(path):
    out = subprocess.run([relic, "check", "--json", path], capture_output=True, text=True).stdout
    o = json.loads(out)
    if not o["checked"] and "not a file relic can check" in o["problems"][0]["message"]:
        add("(other)", 0, 0, o["size"]); return o
    if o["format"] != "erf": add(o["format"], o["ok"], len(o["problems"]), o["size"])
    return o
n = 0
for d, subdirs, files in os.walk(tree):
    subdirs.sort()
    for f in sorted(files):
        p = os.path.join(d, f)
        if check(p)["format"] == "erf":
            # the container's own tables: relic ls reads them (the members are checked below)
            ls = subprocess.run([relic, "ls", "--json", p], capture_output=True, text=True)
            add("erf", ls.returncode == 0, 0 if ls.returncode == 0 else 1, os.path.getsize(p))
            n += 1
            x = os.path.join(xdir, str(n))
            os.makedirs(x)
            subprocess.run([relic, "extract", p, "-C", x], capture_output=True, check=True)
            for m in sorted(os.listdir(x)):
                if not m.startswith("."): check(os.path.join(x, m))
got = {}
in_table = False
for line in open(table):
    w = line.split()
    if w and w[0] == "format": in_table = True; continue
    if w and w[0] == "total": in_table = False
    if in_table:
        if w[2] == "-": got.setdefault("(other)", [0, 0, 0, 0]); g = got["(other)"]; g[0] += int(w[1]); g[3] += int(w[4]); continue
        got[w[0]] = [int(w[1]), int(w[2]), int(w[3]), int(w[4])]
if got != rows:
    print("check -r:", sorted(got.items())); print("per file:", sorted(rows.items())); sys.exit(1)
PY

# ---- --json: one object per file and member, each line valid JSON ----
"$RELIC" check -r --json "$t" >"$tmp/j" 2>"$tmp/j.err"
"$PYTHON" - "$tmp/j" "$tmp/r2" <<'PY' && ok || bad "check -r --json lines"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
total = [int(l.split()[1]) for l in open(sys.argv[2]) if l.startswith("total")][0]
assert len(objs) == total, (len(objs), total)
for o in objs:
    assert set(o) >= {"file", "format", "size", "checked", "ok", "problems", "time_ms"}, o
    for p in o["problems"]: assert set(p) == {"path", "offset", "message"}, p
bad = [o for o in objs if o["file"].endswith("withbad.mod:bad.ifo")]
assert bad and not bad[0]["ok"] and bad[0]["container"].endswith("withbad.mod"), bad
PY
grep -q "^total" "$tmp/j.err" && ok || bad "check -r --json puts the table on standard error"
"$RELIC" info -r --json "$t" >"$tmp/ij" 2>/dev/null
"$PYTHON" -c "
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
assert any(o['file'].endswith('pack.mod:module.ifo') and o['format'] == 'gff' and o['ok'] for o in objs), objs[:3]
assert all({'file', 'format', 'size', 'ok', 'summary', 'details', 'problems'} <= set(o) for o in objs)
" "$tmp/ij" && ok || bad "info -r --json lines"
"$RELIC" info -r "$t/pack.mod" >"$tmp/info" 2>&1
grep -q "^$t/pack.mod:module.ifo: BioWare GFF" "$tmp/info" && ok || bad "info -r describes the members"

# ---- progress: on a terminal only ----
if command -v script >/dev/null 2>&1; then
    script -qc "$RELIC check -r -j 1 $t >/dev/null" /dev/null >"$tmp/pty" 2>&1
    grep -q "relic check: [0-9]*/[0-9]* files" "$tmp/pty" && ok || bad "no progress line on a terminal: $(head -c 200 "$tmp/pty")"
    script -qc "$RELIC check -r -q -j 1 $t >/dev/null" /dev/null >"$tmp/ptyq" 2>&1
    ! grep -q "files" "$tmp/ptyq" && ok || bad "a progress line with -q"
else
    echo "batch_cli_test: script(1) not found: progress on a terminal not tested"
fi
"$RELIC" check -r -j 1 "$t" 2>"$tmp/piped" >/dev/null
! grep -q "files," "$tmp/piped" && ok || bad "a progress line on a pipe"

# ---- a KEY and its BIF (relic pack DIR OUT.key): the KEY's members are walked ----
mkdir -p "$tmp/keysrc" "$tmp/inst"
cp "$t/room.wok" "$tmp/keysrc/"
"$RELIC" pack "$tmp/keysrc" "$tmp/inst/chitin.key" >/dev/null 2>&1 || bad "relic pack of a KEY"
"$RELIC" check -r --json "$tmp/inst" >"$tmp/key.ndjson" 2>/dev/null && ok || bad "check -r of a KEY install fails"
grep -q '"file": "[^"]*chitin.key:room.wok", "format": "bwm"' "$tmp/key.ndjson" && ok \
    || bad "check -r did not walk into the KEY: $(cat "$tmp/key.ndjson")"
# a BIF resource cut off: the BIF and the KEY report it, its member is not walked
size=$(wc -c <"$tmp/inst/data/chitin.bif")
head -c $((size - 100)) "$tmp/inst/data/chitin.bif" >"$tmp/cut.bif" && mv "$tmp/cut.bif" "$tmp/inst/data/chitin.bif"
"$RELIC" check -r "$tmp/inst" >"$tmp/key.out" 2>&1; rc=$?
[ "$rc" = 1 ] && ok || bad "check -r of a cut BIF: exit $rc, expected 1"
grep -q 'chitin.key:room.wok' "$tmp/key.out" && bad "a member past the end of its BIF was walked" || ok

# ---- an interrupt: exit 130, a message, and no partial output ----
# relic waits on standard input (a FIFO held open) while it walks; SIGINT
# then, and the FIFO closed: it must stop with 130 and print no result
mkfifo "$tmp/fifo"
(sleep 5 >"$tmp/fifo") & holder=$!
"$RELIC" check -r -j 2 --json "$t/room.wok" - <"$tmp/fifo" >"$tmp/int" 2>"$tmp/int.err" & pid=$!
sleep 0.5
kill -INT $pid
kill $holder 2>/dev/null
wait $pid; rc=$?
[ "$rc" = 130 ] && ok || bad "interrupted check -r: exit $rc, expected 130"
grep -q "relic check: interrupted" "$tmp/int.err" && ok || bad "interrupted check -r says so: '$(cat "$tmp/int.err")'"
[ ! -s "$tmp/int" ] && ok || bad "interrupted check -r printed results: $(head -c 200 "$tmp/int")"

echo "$pass passed, $fail failed"
