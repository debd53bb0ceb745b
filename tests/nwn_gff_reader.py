#!/usr/bin/env python3
"""nwn_gff_reader.py — does nwn_gff accept this JSON? The rules neverwinter.nim's
JSON reader applies (neverwinter/gffjson.nim, gffRootFromJson and
gffStructFromJson; neverwinter.nim, gffjson.nim; xoreos-tools, src/xml/gff3dumper.cpp), checked independently of relic's own
reader: the root has "__data_type" (a string); keys starting with "__" are
skipped, other than "__struct_id", which must be an integer; every other key
is an object with a "type" among nwn_gff's type names and a "value" of the
JSON kind that type needs (integers for byte..int64 except float/double;
float accepts an integer or a float, double only a float, as Nim's JSON
tells them apart by a '.' or exponent; strings for cexostring and resref; an
object for struct; an array of objects for list; for void a base64
"value64" or a string "value"; for cexolocstring an object whose keys are
decimal StringIDs with string values, or "id" with an integer). nwn_gff
knows no orientation or vector type (KotOR): a file holding one is reported
as such, exit status 3. Prints one line per problem; exit 1 when any.

usage: nwn_gff_reader.py FILE.json...
"""
import base64
import binascii
import json
import sys

INTEGER_TYPES = {"byte", "char", "word", "short", "dword", "int", "dword64", "int64"}
KNOWN = INTEGER_TYPES | {"float", "double", "cexostring", "resref", "void", "struct", "cexolocstring", "list"}


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def check_struct(obj, path, problems, kotor):
    if not isinstance(obj, dict):
        problems.append(f"{path}: a struct must be an object")
        return
    if "__struct_id" in obj and not is_int(obj["__struct_id"]):
        problems.append(f"{path}/__struct_id: not an integer")
    for key, field in obj.items():
        if key.startswith("__"):
            continue
        where = f"{path}/{key}" if path else key
        if not isinstance(field, dict) or not isinstance(field.get("type"), str):
            problems.append(f"{where}: a field must be an object with a string \"type\"")
            continue
        t = field["type"]
        if t in ("orientation", "vector"):
            kotor.append(where)
            continue
        if t not in KNOWN:
            problems.append(f"{where}: unknown field type {t!r}")
            continue
        if t == "void":
            if isinstance(field.get("value64"), str):
                try:
                    base64.b64decode(field["value64"], validate=True)
                except binascii.Error:
                    problems.append(f"{where}: value64 is not base64")
            elif not isinstance(field.get("value"), str):
                problems.append(f"{where}: void needs a string value64 or value")
            continue
        if "value" not in field:
            problems.append(f"{where}: no \"value\"")
            continue
        v = field["value"]
        if t in INTEGER_TYPES:
            ok = is_int(v)
        elif t == "float":
            ok = is_int(v) or isinstance(v, float)
        elif t == "double":
            ok = isinstance(v, float)
        elif t in ("cexostring", "resref"):
            ok = isinstance(v, str)
        elif t == "struct":
            ok = isinstance(v, dict)
            if ok:
                check_struct(v, where, problems, kotor)
        elif t == "list":
            ok = isinstance(v, list)
            if ok:
                for i, elem in enumerate(v):
                    check_struct(elem, f"{where}/{i}", problems, kotor)
        else:  # cexolocstring
            ok = isinstance(v, dict)
            if ok:
                for kk, vv in v.items():
                    if kk == "id":
                        if not is_int(vv):
                            problems.append(f"{where}/id: not an integer")
                    elif not kk.isdigit() or not isinstance(vv, str):
                        problems.append(f"{where}/{kk}: a substring key must be a decimal StringID with a string")
        if not ok:
            problems.append(f"{where}: a {t} value cannot be {json.dumps(v)[:40]}")


def main(paths):
    status = 0
    for p in paths:
        with open(p, encoding="utf-8") as f:
            root = json.load(f)
        problems, kotor = [], []
        if not isinstance(root, dict) or not isinstance(root.get("__data_type"), str):
            problems.append("root: no string \"__data_type\"")
        else:
            check_struct(root, "", problems, kotor)
        for line in problems:
            print(f"{p}: {line}")
        if problems:
            status = 1
        elif kotor:
            print(f"{p}: holds {kotor[0]} ({len(kotor)} orientation/vector fields): nwn_gff has no such type")
            status = status or 3
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
