#!/bin/sh
# json_cli_test.sh — scripts' side of the `relic` command: --json of info,
# check, ls (ERF/RIM, KEY, BIF, TLK), diff, hash and path parsed and their
# documented keys present (docs/cli.md); convert IN - --to FORMAT and dump --to on standard output;
# - as input; the exit codes; the man page relic.1 says what --help says
# (every command's help, verbatim); the bash completion parses and knows
# every command; the top-level --help names every format relic reads.
# Prints "N passed, M failed". Env: RELIC (and RELIC_MAN, default relic.1
# beside RELIC).
RELIC=${RELIC:-build/relic}
# Debian's python3 (make deps): a python3 found first in PATH may be a wrapper (a pyenv shim
# costs 0.6 s of CPU per start)
PYTHON=${PYTHON:-/usr/bin/python3}; [ -x "$PYTHON" ] || PYTHON=python3
MAN=${RELIC_MAN:-$(dirname "$RELIC")/relic.1}
C=../shared/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
RELIC=$RELIC sh tests/samples/make_format_samples.sh "$tmp/s" >/dev/null 2>&1 || bad "make_format_samples.sh"
s=$tmp/s

# validate FILE PYTHON-EXPR: every line of FILE is JSON and EXPR holds for
# each object o (python3)
validate() {
    "$PYTHON" - "$1" "$2" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines, "no output"
for l in lines:
    o = json.loads(l)
    assert eval(sys.argv[2]), (sys.argv[2], o)
PY
}
json_ok() { # description file expr
    if validate "$2" "$3" 2>"$tmp/py.err"; then ok; else bad "$1: $(tail -1 "$tmp/py.err")"; fi
}

# ---- --json of each command ----
"$RELIC" info --json "$s/room.wok" "$s/module.ifo" "$s/pack.mod" >"$tmp/info.j"
json_ok "info --json" "$tmp/info.j" "set(o) >= {'file','format','size','known','ok','summary','details','problems'} and o['ok'] and isinstance(o['details'], list)"
grep -q '"summary": "KotOR BWM walkmesh, area (WOK)"' "$tmp/info.j" && ok || bad "info --json summary of room.wok: $(head -c 300 "$tmp/info.j")"
"$RELIC" mutate "$s/room.wok" -n 1 -o "$tmp/mut" --invalid --seed 7 >/dev/null 2>&1
"$RELIC" check --json "$s/room.wok" "$tmp"/mut/room-0000.wok >"$tmp/check.j"; rc=$?
[ "$rc" = 1 ] && ok || bad "check --json of a bad file: exit $rc, expected 1"
json_ok "check --json" "$tmp/check.j" "set(o) >= {'file','format','size','checked','ok','problems'} and all(set(p) == {'path','offset','message'} for p in o['problems']) and o['ok'] == (not o['problems'])"
[ "$(grep -c '"ok": false' "$tmp/check.j")" = 1 ] && ok || bad "check --json: one bad file"
"$RELIC" ls --json "$s/pack.mod" "$s/pack.rim" >"$tmp/ls.j"
json_ok "ls --json" "$tmp/ls.j" "set(o) == {'file','format','members'} and o['members'] and all(set(m) == {'name','resref','type','id','offset','size'} for m in o['members'])"
grep -q '"name": "module.ifo", "resref": "module", "type": 2014' "$tmp/ls.j" && ok || bad "ls --json lists module.ifo with its type"
cp "$s/module.ifo" "$tmp/m.ifo"
"$RELIC" set "$tmp/m.ifo" Mod_Name 'Mutants II' >/dev/null
"$RELIC" diff --json "$s/module.ifo" "$tmp/m.ifo" >"$tmp/diff.j"; rc=$?
[ "$rc" = 1 ] && ok || bad "diff --json of different files: exit $rc, expected 1"
json_ok "diff --json" "$tmp/diff.j" "set(o) == {'a','b','same','changes'} and not o['same'] and o['changes'] == [{'op': '~', 'path': 'Mod_Name', 'a': '{0: \"Mutants\"}', 'b': '{0: \"Mutants II\"}'}]"
"$RELIC" diff --json "$s/module.ifo" "$s/module.ifo" >"$tmp/same.j"; rc=$?
[ "$rc" = 0 ] && ok || bad "diff --json of equal files: exit $rc"
json_ok "diff --json, equal" "$tmp/same.j" "o['same'] and o['changes'] == []"
"$RELIC" hash --json Player --sound >"$tmp/hash.j"
json_ok "hash --json" "$tmp/hash.j" "set(o) == {'name','kind','hash','value'} and int(o['hash'], 16) == o['value']"
"$RELIC" hash --json --object Player >"$tmp/hash2.j"
json_ok "hash --json --object" "$tmp/hash2.j" "o == {'name': 'Player', 'kind': 'object', 'hash': '9FB57F53', 'value': 0x9FB57F53}"
house=$(ls "$C"/trn/* 2>/dev/null | grep -i 'edive_house_1' | head -1)
if [ -n "$house" ]; then
    "$RELIC" bake "$house" "$tmp/h.trx" >/dev/null 2>&1
    "$RELIC" path --json "$tmp/h.trx" 4 4 3 12 >"$tmp/path.j" 2>"$tmp/path.err"; rc=$?
    "$RELIC" path "$tmp/h.trx" 4 4 3 12 >"$tmp/path.txt" 2>/dev/null
    if [ "$rc" = 0 ]; then
        json_ok "path --json" "$tmp/path.j" "set(o) == {'file','from','to','triangles','length'} and set(o['from']) == {'x','y','triangle','island'} and o['triangles'][0] == o['from']['triangle']"
        n=$("$PYTHON" -c "import json,sys; print(len(json.load(open(sys.argv[1]))['triangles']))" "$tmp/path.j")
        grep -q ": $n triangles" "$tmp/path.txt" && ok || bad "path --json and the text form disagree"
    else
        [ "$rc" = 1 ] && [ ! -s "$tmp/path.j" ] && ok || bad "path --json with no route: exit $rc, output $(head -c 200 "$tmp/path.j")"
    fi
else
    echo "json_cli_test: $C/trn not found: path --json not tested"
fi

# ---- standard output and standard input ----
"$RELIC" convert "$s/room.wok" - --to json >"$tmp/c.json" && ok || bad "convert IN - --to json"
"$RELIC" dump "$s/room.wok" >"$tmp/d.json"
cmp -s "$tmp/c.json" "$tmp/d.json" && ok || bad "convert - --to json differs from dump"
"$RELIC" convert "$s/room.wok" - --to obj >"$tmp/c.obj" && head -1 "$tmp/c.obj" | grep -q '^# relic' && ok || bad "convert IN - --to obj"
"$RELIC" dump "$s/room.wok" --to svg >"$tmp/d.svg" && grep -q '^<svg' "$tmp/d.svg" && ok || bad "dump --to svg"
"$RELIC" convert "$s/room.wok" - >/dev/null 2>"$tmp/err"; rc=$?
[ "$rc" = 2 ] && grep -q -- "--to" "$tmp/err" && ok || bad "convert IN - without --to: exit $rc, $(cat "$tmp/err")"
"$RELIC" convert "$s/room.wok" - --to nosuch >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] && ok || bad "convert --to an unknown format: exit $rc, expected 2"
"$RELIC" info - <"$s/room.wok" | grep -q "^-: KotOR BWM walkmesh" && ok || bad "info - reads standard input"
"$RELIC" check - <"$s/module.ifo" | grep -q "^-: ok" && ok || bad "check - reads standard input"
cat "$s/room.wok" | "$RELIC" convert - "$tmp/p.json" && cmp -s "$tmp/p.json" "$tmp/d.json" && ok || bad "convert - OUT from a pipe"
cat "$s/room.wok" | "$RELIC" dump - | cmp -s - "$tmp/d.json" && ok || bad "dump - from a pipe"
"$RELIC" ls - <"$s/pack.mod" | grep -q "module.ifo" && ok || bad "ls - reads standard input"

# ---- exit codes ----
"$RELIC" check --nosuch "$s/room.wok" >/dev/null 2>&1; [ $? = 2 ] && ok || bad "unknown option: exit 2"
"$RELIC" nosuch >/dev/null 2>&1; [ $? = 2 ] && ok || bad "unknown command: exit 2"
"$RELIC" info "$tmp/none" >/dev/null 2>&1; [ $? = 1 ] && ok || bad "missing file: exit 1"
"$RELIC" --help >/dev/null; [ $? = 0 ] && ok || bad "--help: exit 0"

# ---- the man page is the --help text ----
if [ ! -f "$MAN" ]; then
    echo "json_cli_test: $MAN not built: made with relic help --man"
    "$RELIC" help --man >"$tmp/relic.1"
    MAN=$tmp/relic.1
fi
"$PYTHON" - "$RELIC" "$MAN" <<'PY' && ok || bad "relic.1 differs from --help"
import re, subprocess, sys
relic, man = sys.argv[1], sys.argv[2]
blocks, name, cur = {}, None, None
for line in open(man).read().split("\n"):
    if line.startswith(".SH DESCRIPTION"): name = ""
    elif line.startswith(".SS "): name = line[4:].strip()
    elif line == ".nf": cur = []
    elif line == ".fi": blocks[name] = "\n".join(cur) + "\n"; cur = None
    elif cur is not None:
        if line.startswith("\\&"): line = line[2:]
        cur.append(line.replace("\\-", "-").replace("\\e", "\\"))
top = subprocess.run([relic, "--help"], capture_output=True, text=True).stdout
assert blocks.get("") == top, "the top-level --help"
cmds = []
for l in top.split("commands:\n")[1].split("\n\n")[0].splitlines():
    if l.startswith("  ") and not l.startswith("   "):
        c = l.split()[0]
        if c not in cmds: cmds.append(c)
assert len(cmds) > 10, cmds
for c in cmds:
    h = subprocess.run([relic, c, "--help"], capture_output=True, text=True).stdout
    assert blocks.get(c) == h, "relic %s --help" % c
PY
# a drifted page must fail the comparison (the test can fail)
sed 's/^usage: relic check/usage: relic chekc/' "$MAN" >"$tmp/drift.1"
"$PYTHON" - "$RELIC" "$tmp/drift.1" <<'PY' && bad "a drifted man page passed" || ok
import subprocess, sys
relic, man = sys.argv[1], sys.argv[2]
text = open(man).read().replace("\\-", "-").replace("\\e", "\\")
h = subprocess.run([relic, "check", "--help"], capture_output=True, text=True).stdout
sys.exit(0 if h.splitlines()[0] in text else 1)
PY

# ---- bash completion ----
bash -n contrib/relic.bash && ok || bad "bash -n contrib/relic.bash"
cmds=$("$RELIC" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on && /^  [a-z]/ { print $1 }' | sort -u | tr '\n' ' ')
comp=$(sed -n 's/.*local commands="\([^"]*\)".*/\1/p' contrib/relic.bash | tr ' ' '\n' | grep -v '^help$' | sort -u | tr '\n' ' ')
[ "$cmds" = "$comp" ] && ok || bad "completion commands '$comp' != --help commands '$cmds'"
got=$(bash -c '. contrib/relic.bash; COMP_WORDS=(relic che); COMP_CWORD=1; _relic; echo "${COMPREPLY[*]}"')
[ "$got" = "check" ] && ok || bad "completing 'relic che' gave '$got'"

# ---- --help names every format relic reads ----
for f in bwm gff erf trn groff pid spz tpa cau wtd tpm tri trr; do
    "$RELIC" --help | sed -n '/^formats read/,/^$/p' | grep -q "\b$f (" || { bad "--help does not name $f"; continue; }
    ok
done

# ---- ls --json of a KEY, a BIF and a talk table (docs/cli.md keys) ----
mkdir -p "$tmp/keysrc" && cp "$s/room.wok" "$s/module.ifo" "$tmp/keysrc/" && "$RELIC" pack "$tmp/keysrc" "$tmp/k.key" >/dev/null 2>&1
"$RELIC" ls --json "$tmp/k.key" >"$tmp/lsk.j" 2>"$tmp/lsk.err"; rc=$?
[ "$rc" = 0 ] && [ ! -s "$tmp/lsk.err" ] && ok || bad "ls --json of a KEY: exit $rc, $(cat "$tmp/lsk.err")"
json_ok "ls --json KEY keys" "$tmp/lsk.j" "o['format'] == 'key' and o['file'].endswith('k.key') and [b['found'] for b in o['bifs']] == [True] and \
    [sorted(m) for m in o['members']] == [sorted(['name','resref','type','id','bif','bif_index','index','size'])] * 2 and \
    [(m['name'], m['resref'], m['type'], m['bif'], m['bif_index'], m['index']) for m in o['members']] == \
    [('module.ifo', 'module', 2014, o['bifs'][0]['name'], 0, 0), ('room.wok', 'room', 2016, o['bifs'][0]['name'], 0, 1)] and \
    o['members'][1]['size'] == $(wc -c <"$s/room.wok") and o['members'][0]['size'] == $(wc -c <"$s/module.ifo")"
bif=$(ls "$tmp"/data/*.bif 2>/dev/null | head -1)
"$RELIC" ls --json "$bif" >"$tmp/lsb.j" 2>"$tmp/lsb.err" && ok || bad "ls --json of a BIF: $(cat "$tmp/lsb.err")"
json_ok "ls --json BIF keys" "$tmp/lsb.j" "o['format'] == 'bif' and [sorted(m) for m in o['members']] == [sorted(['index','id','type','offset','size','past_end'])] * 2 and \
    [(m['index'], m['id'], m['type'], m['size'], m['past_end']) for m in o['members']] == [(0, 0, 2014, $(wc -c <"$s/module.ifo"), False), (1, 1, 2016, $(wc -c <"$s/room.wok"), False)]"
if [ -d "$C/key" ] && [ -d "$C/bif" ] && [ -d "$C/tlk" ]; then
    # a real chitin.key: every key, each naming its BIF from the BIF list (the BIFs are not beside it: size null)
    for k in "$C"/key/*.key; do
        "$RELIC" ls --json "$k" >"$tmp/lsck.j" 2>/dev/null && ok || bad "ls --json $k"
        n=$("$RELIC" ls "$k" | tail -n +2 | wc -l)
        json_ok "ls --json of $k: every key with its BIF" "$tmp/lsck.j" "len(o['members']) == $n and all(m['bif'] == o['bifs'][m['bif_index']]['name'] and m['size'] is None for m in o['members']) and not any(b['found'] for b in o['bifs'])"
    done
    # the BIF cut after its tables: the resources past its end marked, as the text listing marks them
    for b in "$C"/bif/*.bif; do
        "$RELIC" ls --json "$b" >"$tmp/lscb.j" 2>/dev/null && ok || bad "ls --json $b"
        n=$("$RELIC" ls "$b" | grep -c 'past the end')
        json_ok "ls --json of $b: past_end" "$tmp/lscb.j" "sum(m['past_end'] for m in o['members']) == $n > 0"
    done
    # talk tables: every entry as relic dump has it, the last one's text as relic get prints it
    for t in "$C"/tlk/*.tlk; do
        "$RELIC" ls --json "$t" >"$tmp/lst.j" 2>/dev/null && ok || bad "ls --json $t"
        "$RELIC" dump "$t" -o "$tmp/lst.dump" >/dev/null 2>&1
        last=$(($("$RELIC" ls "$t" | tail -n +2 | wc -l) - 1))
        THIRD=$("$RELIC" get "$t" $last) json_ok "ls --json of $t: entries" "$tmp/lst.j" "o['format'] == 'tlk' and \
            [(e['strref'], e['flags'], e['sound'], e['size']) for e in o['entries']] == \
            [(i, d['flags'], d['sound_res_ref'], d['string_size']) for i, d in enumerate(json.load(open('$tmp/lst.dump'))['entries'])] and \
            o['entries'][$last]['text'] == __import__('os').environ['THIRD']"
    done
else
    echo "note: ../shared/corpus/key, bif or tlk absent: ls --json of real KEY, BIF and TLK files skipped"
fi

echo "$pass passed, $fail failed"
