#!/bin/bash -eu
# build.sh — build every relic fuzz target the way OSS-Fuzz and
# ClusterFuzzLite do: compile with the engine's $CC and $CFLAGS, link with
# $LIB_FUZZING_ENGINE (libFuzzer, AFL++, honggfuzz, centipede) into $OUT,
# and put beside each binary <target>_seed_corpus.zip (fuzz/corpus/<target>,
# fuzz/regressions/<target>, and the samples fuzz/run.sh adds), <target>.dict
# (fuzz/dict) and <target>.options (the limits `make fuzz` uses).
# Variables (set by the engines' images): CC, CXX, CFLAGS, CXXFLAGS,
# LIB_FUZZING_ENGINE, OUT, SRC, WORK. tests/oss_fuzz_build_test.sh (make
# oss-fuzz-check) runs it locally with clang and libFuzzer.
# RELIC_PREBUILT_LIBS (never set by the engines): the library's archives,
# already compiled with these CFLAGS, in link order; the library is then not
# compiled again. make test sets it to its sanitizer build's archives, so that
# the library and each target are compiled once for the sanitizer tests, the
# fuzz stage and this script together.
# The project's Makefile is not used: the engines' flags replace its own, and
# -Werror is left out so a newer compiler's new warning does not stop a build.
set -eu # as the first line asks, also when started as `bash build.sh`
SRC_DIR=${SRC_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
WORK=${WORK:-$(mktemp -d)}
CXX=${CXX:-clang++}
CXXFLAGS=${CXXFLAGS:-$CFLAGS}
cd "$SRC_DIR"
obj="$WORK/relic-obj"
rm -rf "$obj"
mkdir -p "$obj" "$OUT"
inc="-Iruntime/include/relic -Iruntime/formats/aurora -Iruntime/formats/nwn2 -Iruntime/formats/tres -Iruntime/json -Iruntime/mutate"
for d in generated/*/; do [ "$d" = generated/docs/ ] || inc="$inc -I${d%/}"; done
libs="-lyajl -lpng -lz -lm" # as the Makefile's LIBS

if [ -n "${RELIC_PREBUILT_LIBS:-}" ]; then
    lib=$RELIC_PREBUILT_LIBS
    for a in $lib; do [ -f "$a" ] || { echo "build.sh: RELIC_PREBUILT_LIBS: $a not found" >&2; exit 1; }; done
else
    # re2c lexers (the generated .c files are not committed)
    for re in gen/lexer.re runtime/*/*_lexer.re runtime/*/*/*_lexer.re; do
        [ -f "$re" ] || continue
        [ "$re" = gen/lexer.re ] && continue # the schema compiler is not fuzzed here
        re2c -W --no-generation-date -o "${re%.re}.c" "$re"
    done

    # the four libraries' sources (as the Makefile's CORE, JSON, EXPORT and MUTATE sources)
    srcs=$(ls runtime/core/*.c runtime/codec/*.c runtime/formats/*.c runtime/formats/*/*.c \
              runtime/json/*.c runtime/export/*.c runtime/mutate/*.c generated/*/*.c 2>/dev/null)
    pids=""
    jobs=${RELIC_BUILD_JOBS:-$(nproc 2>/dev/null || echo 2)}
    i=0
    for s in $srcs; do
        o="$obj/$(echo "$s" | tr / _).o"
        # shellcheck disable=SC2086
        $CC -std=c11 $CFLAGS $inc -c "$s" -o "$o" &
        pids="$pids $!"
        i=$((i + 1))
        if [ $((i % jobs)) = 0 ]; then for p in $pids; do wait "$p"; done; pids=""; fi
    done
    for p in $pids; do wait "$p"; done
    ar rcs "$WORK/librelic-fuzz.a" "$obj"/*.o
    lib="$WORK/librelic-fuzz.a"
fi

seeds_of() { # the directories fuzz/run.sh seeds a target with
    t=$1
    echo "fuzz/corpus/$t fuzz/regressions/$t"
    case $t in
        gen_bwm*|fuzz_bwm) echo tests/samples/*.wok tests/samples/*.pwk tests/samples/*.dwk fuzz/corpus/gen_bwm ;;
        *obj*) echo tests/samples/*.obj ;;
    esac
}

n=0
for f in fuzz/*.c; do
    t=$(basename "$f" .c)
    # shellcheck disable=SC2086
    $CC -std=c11 $CFLAGS $inc -c "$f" -o "$obj/target_$t.o"
    # shellcheck disable=SC2086
    $CXX $CXXFLAGS "$obj/target_$t.o" -o "$OUT/$t" $LIB_FUZZING_ENGINE $lib $libs '-Wl,-rpath,$ORIGIN/lib'
    # seed corpus: hand-made seeds, kept crash inputs, the project's own samples
    rm -f "$OUT/${t}_seed_corpus.zip"
    files=""
    for s in $(seeds_of "$t"); do
        if [ -d "$s" ]; then files="$files $(find "$s" -type f | tr '\n' ' ')"; elif [ -f "$s" ]; then files="$files $s"; fi
    done
    if [ -n "${files// /}" ]; then
        # shellcheck disable=SC2086
        zip -q -j "$OUT/${t}_seed_corpus.zip" $files
    else
        # a target without seeds of its own starts from one empty input
        : >"$WORK/empty"
        zip -q -j "$OUT/${t}_seed_corpus.zip" "$WORK/empty"
    fi
    dict=""
    [ -f "fuzz/dict/$t.dict" ] && dict="fuzz/dict/$t.dict"
    [ "$t" = fuzz_bwm ] && dict="fuzz/dict/gen_bwm.dict"
    if [ -n "$dict" ]; then cp "$dict" "$OUT/$t.dict"
    else printf '# no format tokens: sizes and counts at their edges\n"\\x00\\x00\\x00\\x00"\n"\\xff\\xff\\xff\\xff"\n"\\xff\\xff\\xff\\x7f"\n"\\x00\\x00\\x00\\x80"\n' >"$OUT/$t.dict"; fi
    # the limits of fuzz/run.sh
    if [ -f "fuzz/options/$t.options" ]; then cp "fuzz/options/$t.options" "$OUT/$t.options"
    else printf '[libfuzzer]\nmax_len = 262144\ntimeout = 10\nrss_limit_mb = 2048\n' >"$OUT/$t.options"; fi
    n=$((n + 1))
done
# the runner images have none of the -dev packages' shared libraries: ship
# them in $OUT/lib, found through the rpath above (libc's own stay out)
mkdir -p "$OUT/lib"
for t in "$OUT"/*; do [ -x "$t" ] && [ -f "$t" ] && ldd "$t" 2>/dev/null; done | awk '$3 ~ /^\// { print $3 }' | sort -u |
    grep -Ev '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*|libstdc\+\+|libgcc_s)\.so' | while read -r l; do cp -L "$l" "$OUT/lib/"; done
echo "build.sh: $n targets in $OUT"
