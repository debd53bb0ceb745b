#!/bin/sh
# check_format.sh — every hand-written C file is formatted as .clang-format
# says (clang-format 14, Debian 12's); generated code (generated/, fuzz/gen_*,
# tests/golden/expected/, re2c output) is the generator's to format.
# Apply with: sh tests/check_format.sh --fix
# Prints the first lines of each difference and a final "N passed, M failed".
command -v clang-format >/dev/null 2>&1 || { echo "check_format: clang-format not found: skipped"; echo "0 passed, 0 failed"; exit 0; }
if git rev-parse --git-dir >/dev/null 2>&1; then files=$(git ls-files '*.c' '*.h')
else files=$(find gen runtime tests fuzz -name '*.[ch]'); fi
files=$(printf '%s\n' $files | grep -v -e '^generated/' -e '^fuzz/gen_' -e '^tests/golden/expected/' -e '_lexer\.c$' -e '^gen/lexer\.c$')
pass=0 fail=0
for f in $files; do
    [ -f "$f" ] || continue
    if [ "$1" = --fix ]; then clang-format -i "$f"; fi
    if clang-format "$f" | cmp -s - "$f"; then pass=$((pass + 1))
    else fail=$((fail + 1)); echo "FAIL $f is not formatted (sh tests/check_format.sh --fix):"; clang-format "$f" | diff "$f" - | head -6; fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
