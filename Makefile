# relic — one build for the library, the CLI, the generator, tests, fuzzing
# and benchmarks. `make help` lists the targets.

CC      ?= cc
CLANG   ?= clang
RE2C    ?= re2c
PREFIX  ?= /usr/local
# where Debian's python3 looks: /usr/lib/python3/dist-packages, else <prefix>/lib/python3.N/dist-packages
PYVER ?= $(shell /usr/bin/python3 -c 'import sys; print("python%d.%d" % sys.version_info[:2])' 2>/dev/null || echo python3)
PYTHON_DIR ?= $(if $(filter /usr,$(PREFIX)),$(PREFIX)/lib/python3/dist-packages,$(PREFIX)/lib/$(PYVER)/dist-packages)
# the python3 that runs gen/amalgamate.py and the tests' scripts: Debian's (make deps), not whatever
# python3 PATH finds first, which may be a wrapper (a pyenv shim costs 0.6 s of CPU per start)
PYTHON ?= $(if $(wildcard /usr/bin/python3),/usr/bin/python3,python3)
BUILD   ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
CSTD     = -std=c11
WARN     = -Wall -Wextra -Werror
OPT     ?= -O2 -g
CFLAGS  ?= $(OPT)
ALL_CFLAGS = $(CSTD) $(WARN) $(CFLAGS) -fPIC
FAMILIES = $(notdir $(wildcard generated/*))
GEN_FAMILIES = $(filter-out docs,$(FAMILIES))
# runtime/ is one folder per layer; includes only point down (tests/check_layers.sh):
# cli -> json/export/mutate -> formats -> codec -> core, public headers in include/relic/
RUNTIME_INC = runtime/include/relic runtime/formats/aurora runtime/formats/nwn2 runtime/formats/tres runtime/json runtime/mutate
CPPFLAGS += $(addprefix -I,$(RUNTIME_INC)) $(addprefix -Igenerated/,$(GEN_FAMILIES))
# what each library links (librelic: libc, libm and zlib only)
CORE_LIBS   = -lz -lm
JSON_LIBS   = -lyajl
EXPORT_LIBS = -lpng
LIBS     = $(JSON_LIBS) $(EXPORT_LIBS) $(CORE_LIBS)
FUZZ_SECONDS ?= 5
# make test fuzzes from a fixed seed, so a pass or a failure repeats; make fuzz draws a new one
FUZZ_SEED ?= 1
# seconds per target in make test's fuzz stage (each first replays its regressions and runs its
# whole seed corpus; the soak is make fuzz's)
TEST_FUZZ_SECONDS ?= 1
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
VERSION  = 0.1.0

SCHEMAS      = $(sort $(wildcard schema/*/*.schema))
GEN_SRCS     = gen/lexer.c gen/parser.c gen/sema.c gen/util.c gen/emit_common.c gen/emit_types.c \
               gen/emit_source.c gen/emit_reader.c gen/emit_writer.c gen/emit_json.c gen/emit_docs.c \
               gen/emit_fuzz.c gen/emit_mutate.c gen/emit_detect.c gen/emit_gff.c gen/emit_python.c gen/sema_gff.c gen/report.c gen/main.c
LEXERS       = $(wildcard runtime/*/*_lexer.re runtime/*/*/*_lexer.re)
RE2C_OUT     = gen/lexer.c $(LEXERS:.re=.c)
layer_srcs   = $(sort $(filter-out $(RE2C_OUT),$(wildcard $(addsuffix /*.c,$(1)))) $(patsubst %.re,%.c,$(filter $(addsuffix /%,$(1)),$(LEXERS))))
GEN_JSON_C   = $(sort $(wildcard generated/*/*_json.c))
GEN_MUTATE_C = $(sort $(wildcard generated/*/*_mutate.c))
GEN_CORE_C   = $(sort $(filter-out $(GEN_JSON_C) $(GEN_MUTATE_C),$(wildcard generated/*/*.c)))
# the four libraries: librelic (core, codecs, formats), librelic-json, librelic-export, librelic-mutate
CORE_SRCS    = $(call layer_srcs,runtime/core runtime/codec runtime/formats $(wildcard runtime/formats/*)) $(GEN_CORE_C)
JSON_SRCS    = $(call layer_srcs,runtime/json) $(GEN_JSON_C)
EXPORT_SRCS  = $(call layer_srcs,runtime/export)
MUTATE_SRCS  = $(call layer_srcs,runtime/mutate) $(GEN_MUTATE_C)
LIB_SRCS     = $(CORE_SRCS) $(JSON_SRCS) $(EXPORT_SRCS) $(MUTATE_SRCS)
CLI_SRCS     = $(sort $(wildcard runtime/cli/*.c))

# ==== embedding (1/2): format subsets. `make FORMATS="bwm gff"` builds librelic.a/.so with only
# those formats and the codecs they need (detection knows only those: runtime/formats/detect.c)
# into build/formats-bwm-gff/. Formats: bwm gff erf trn tres (tres: every Trespasser format). ====
FORMATS_ALL   = bwm gff erf trn tres
gen_plain     = $(filter-out %_json.c %_mutate.c,$(wildcard generated/$(1)/*.c))
FORMAT_SRCS_bwm  = generated/kotor/bwm.c $(wildcard runtime/formats/kotor/*.c)
FORMAT_SRCS_gff  = $(addprefix generated/aurora/,gff.c gff_common.c are.c gic.c git.c ifo.c itp.c) $(wildcard runtime/formats/aurora/gff_*.c)
FORMAT_SRCS_erf  = generated/aurora/erf.c generated/aurora/rim.c $(wildcard runtime/formats/aurora/erf_*.c)
FORMAT_SRCS_trn  = $(call gen_plain,nwn2) $(wildcard runtime/formats/nwn2/*.c) runtime/codec/codec_zlib.c
FORMAT_SRCS_tres = $(call gen_plain,tres) $(call layer_srcs,runtime/formats/tres) $(filter-out runtime/codec/codec_zlib.c,$(call layer_srcs,runtime/codec))
# the generated detection table (generated/registry/formats.c) holds the formats named by -DRELIC_WITH_*
FORMAT_DEFS_tres = TRES CAU GROFF PID TPA WTD
subset_srcs   = $(call layer_srcs,runtime/core) runtime/formats/detect.c generated/registry/formats.c $(foreach f,$(1),$(FORMAT_SRCS_$(f)))
subset_defs   = -DRELIC_FORMATS_SUBSET $(foreach f,$(1),$(foreach d,$(or $(FORMAT_DEFS_$(f)),$(shell echo $(f) | tr a-z A-Z)),-DRELIC_WITH_$(d)=1))
ifneq ($(strip $(FORMATS)),)
ifneq ($(filter-out $(FORMATS_ALL),$(FORMATS)),)
$(error FORMATS: unknown $(filter-out $(FORMATS_ALL),$(FORMATS)); known: $(FORMATS_ALL))
endif
ifeq ($(origin BUILD),file)
BUILD := build/formats-$(subst $(eval) ,-,$(strip $(FORMATS)))
endif
CORE_SRCS := $(call subset_srcs,$(FORMATS))
CPPFLAGS  += $(call subset_defs,$(FORMATS))
.DEFAULT_GOAL := subset
endif
.PHONY: subset
subset: $(BUILD)/librelic.a $(BUILD)/librelic.so
# ==== end embedding (1/2) ====

TEST_SRCS    = $(sort $(wildcard tests/test_*.c))
FUZZ_SRCS    = $(sort $(wildcard fuzz/*.c))

objs_of   = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
LIB_OBJS  = $(call objs_of,$(LIB_SRCS))
LIBNAMES  = relic relic-json relic-export relic-mutate
# static archives in link order (a library before the ones it needs)
LIB_ARCHIVES = $(BUILD)/librelic-mutate.a $(BUILD)/librelic-export.a $(BUILD)/librelic-json.a $(BUILD)/librelic.a
CLI_OBJS  = $(patsubst %.c,$(BUILD)/obj/%.o,$(CLI_SRCS))
TESTS     = $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRCS))


.PHONY: unit-progs san-unit-progs san-progs bench-bombs oss-fuzz-check print-libs all help deps demo test check-unit check-asan check-regen check-fuzz regen fuzz fuzz-seeds bench bake-report install clean samples

all: $(foreach l,$(LIBNAMES),$(BUILD)/lib$(l).a $(BUILD)/lib$(l).so) $(BUILD)/relic $(BUILD)/relic-gen $(BUILD)/librelic-afl.so $(BUILD)/relic.1

help:
	@echo "make            build the four libraries (librelic, -json, -export, -mutate; .a and .so), relic and relic-gen into $(BUILD)/"
	@echo "make deps       install missing Debian packages (apt-get as root; else print the command)"
	@echo "make demo       relic on every format: samples it makes and ../shared/corpus (when present): info, check, JSON round trip, pictures and exports into out/, a table per format"
	@echo "make test       deps, build, unit/round-trip tests, ASan+UBSan rerun, regen check, short fuzz run; a table of stages (docs/testing.md)"
	@echo "make regen      regenerate generated/, generated/docs and fuzz/gen_* from schema/"
	@echo "make fuzz       run every fuzz target for FUZZ_SECONDS (default 5)"
	@echo "make fuzz-seeds write the seeds of the generated fuzz targets (fuzz/corpus/gen_*/seed-*)"
	@echo "make bench      benchmarks (results go in docs/benchmarks.md by hand)"
	@echo "make bench-bombs  CPU and peak RSS as each declared size grows (docs/security.md, "Worst cases measured")"
	@echo "make oss-fuzz-check  fuzz/oss-fuzz/build.sh with clang+libFuzzer, each target run on its seeds"
	@echo "make install    PREFIX=$(PREFIX): headers, libraries, relic.pc, relic, its man page and bash completion, relic-gen (+ relic-gen.pc), the Python package (PYTHON_DIR)"
	@echo "make test-blender  Blender 3.4 imports a corpus WOK and TRX through the Python package (needs blender)"

# ---- dependencies (Debian 12) ----
DEB_PACKAGES = make gcc clang libclang-rt-14-dev lld re2c zlib1g-dev libpng-dev libcmocka-dev pkg-config sox ffmpeg libyajl-dev assimp-utils python3 python3-numpy python3-pytest afl++ clang-format
deps:
	@missing=""; for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then echo "deps: all present"; \
	elif [ "$$(id -u)" = 0 ]; then echo "deps: installing$$missing"; \
	  DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	else echo "deps: missing$$missing; run: sudo apt-get install -y$$missing"; exit 1; fi

# ---- re2c lexers ----
%.c: %.re
	$(RE2C) -W --no-generation-date -o $@ $<

# ---- generator ----
$(BUILD)/relic-gen: $(GEN_SRCS) gen/ast.h gen/emit.h gen/lexer.h
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -Igen $(GEN_SRCS) -o $@

regen: $(BUILD)/relic-gen
	$(BUILD)/relic-gen -o generated --docs generated/docs --fuzz fuzz --python python/relic/_gen $(SCHEMAS)
	@# what changed for users of the bindings, for each schema edited since the last commit
	@# (the old one beside the old versions of its family, for `use`)
	@if git rev-parse --git-dir >/dev/null 2>&1; then for s in $(SCHEMAS); do \
	  git cat-file -e HEAD:$$s 2>/dev/null && ! git diff --quiet HEAD -- $$s || continue; \
	  tmp=$$(mktemp -d); mkdir -p $$tmp/$$(dirname $$s); \
	  for o in $$(git ls-tree --name-only HEAD $$(dirname $$s)/); do git show HEAD:$$o > $$tmp/$$o; done; \
	  echo "regen: $$s changed since HEAD:"; $(BUILD)/relic-gen --report $$tmp/$$s $$s; rm -rf $$tmp; done; fi

# ---- library and CLI ----
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CPPFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/librelic.a: $(call objs_of,$(CORE_SRCS))
$(BUILD)/librelic-json.a: $(call objs_of,$(JSON_SRCS))
$(BUILD)/librelic-export.a: $(call objs_of,$(EXPORT_SRCS))
$(BUILD)/librelic-mutate.a: $(call objs_of,$(MUTATE_SRCS))
$(LIB_ARCHIVES):
	@rm -f $@
	ar rcs $@ $^

# shared libraries: every symbol resolved (--no-undefined), each linking only what it needs; a
# sanitizer build leaves the sanitizer runtime to the program that loads it
NO_UNDEFINED = $(if $(findstring -fsanitize,$(OPT) $(CFLAGS)),,-Wl,--no-undefined)
$(BUILD)/librelic.so: $(call objs_of,$(CORE_SRCS))
	$(CC) -shared -Wl,-soname,librelic.so.0 $(NO_UNDEFINED) $^ $(CORE_LIBS) -o $@
$(BUILD)/librelic-json.so: $(call objs_of,$(JSON_SRCS)) $(BUILD)/librelic.so
	$(CC) -shared -Wl,-soname,librelic-json.so.0 $(NO_UNDEFINED) $(filter %.o,$^) -L$(BUILD) -lrelic $(JSON_LIBS) $(CORE_LIBS) -o $@
$(BUILD)/librelic-export.so: $(call objs_of,$(EXPORT_SRCS)) $(BUILD)/librelic.so
	$(CC) -shared -Wl,-soname,librelic-export.so.0 $(NO_UNDEFINED) $(filter %.o,$^) -L$(BUILD) -lrelic $(EXPORT_LIBS) $(CORE_LIBS) -o $@
$(BUILD)/librelic-mutate.so: $(call objs_of,$(MUTATE_SRCS)) $(BUILD)/librelic.so
	$(CC) -shared -Wl,-soname,librelic-mutate.so.0 $(NO_UNDEFINED) $(filter %.o,$^) -L$(BUILD) -lrelic $(CORE_LIBS) -o $@

# the AFL++ custom mutator library (fuzz/afl/relic_afl.c, docs/fuzzing.md): librelic-mutate
# and librelic linked in, so AFL_CUSTOM_MUTATOR_LIBRARY needs no other relic library
$(BUILD)/librelic-afl.so: fuzz/afl/relic_afl.c $(call objs_of,$(MUTATE_SRCS)) $(call objs_of,$(CORE_SRCS))
	$(CC) $(ALL_CFLAGS) $(CPPFLAGS) -shared $(NO_UNDEFINED) $^ $(CORE_LIBS) -o $@

# The relic command is linked statically (RELIC_LINK=static, the default): no dynamic loader, no
# symbol lookup or relocation of libc, zlib, libpng and yajl at every start. Measured (CPU time,
# 200 runs, same run; docs/benchmarks.md "Start-up"): `relic --version` 1.1x a static hello world
# linked static, 1.7x with only libc dynamic and non-PIE, 2.4x with libc dynamic (PIE), 2.9x with
# every library dynamic. The Debian -dev packages of DEB_PACKAGES ship the archives (libyajl_s.a,
# libpng16.a, libz.a, libc.a). Sanitizer builds (and RELIC_LINK=dynamic) link the shared libraries.
RELIC_LINK ?= $(if $(findstring -fsanitize,$(OPT) $(CFLAGS)),dynamic,static)
ifeq ($(RELIC_LINK),static)
RELIC_LDFLAGS = -static
RELIC_LDLIBS  = -lyajl_s -lpng16 $(CORE_LIBS)
else
# a sanitizer build's relic is not position-independent: a PIE holds ~120,000 relative
# relocations (the sanitizers' metadata) that the loader applies at every start; without them
# `relic --version` under ASan+UBSan took 34 ms of CPU instead of 43, 938 page faults instead
# of 1,445 (perf stat -r 20), and the sanitizer pass's shell tests start thousands of relic
RELIC_LDFLAGS = $(if $(findstring -fsanitize,$(OPT) $(CFLAGS)),-no-pie)
RELIC_LDLIBS  = $(LIBS)
endif
$(BUILD)/relic: $(CLI_OBJS) $(LIB_ARCHIVES)
	$(CC) $(CFLAGS) $(RELIC_LDFLAGS) $(CLI_OBJS) $(LIB_ARCHIVES) $(RELIC_LDLIBS) -pthread -o $@

# the man page: printed by relic itself from the text of its --help (runtime/cli/help.c)
$(BUILD)/relic.1: $(BUILD)/relic
	$(BUILD)/relic help --man > $@.tmp && mv $@.tmp $@

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# ---- tests ----
# Sanitizer test programs and fuzz targets link with lld when it is installed: the sanitizer and
# libFuzzer runtimes make each such link long, and lld does it in about half of ld.bfd's CPU time
# (a test 0.23 s instead of 0.35, a fuzz target 0.25 instead of 0.47: 47 tests and 58 targets in
# make test; docs/testing.md). Plain test links take 0.1 s with either and keep the default.
# lld is in DEB_PACKAGES; the test is made when a recipe uses it (=, not :=), so after make deps
# has installed it on a fresh machine.
ifeq ($(origin SAN_LDFLAGS),undefined)
SAN_LDFLAGS = $(if $(shell command -v ld.lld 2>/dev/null),-fuse-ld=lld)
endif
TEST_LDFLAGS = $(if $(findstring -fsanitize,$(OPT) $(CFLAGS)),$(SAN_LDFLAGS))
$(BUILD)/tests/%: tests/%.c $(LIB_ARCHIVES)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(TEST_LDFLAGS) $(CPPFLAGS) $< $(LIB_ARCHIVES) $(LIBS) -lcmocka -o $@

# the longest first, so that running them in parallel ends soonest
CLI_TESTS = tests/gff_cli_test.sh tests/gff_corpus_test.sh tests/audio_cli_test.sh tests/mutate_formats.sh tests/wtd_cli_test.sh \
            tests/mutate_cli_test.sh tests/cli_test.sh tests/grf_cli_test.sh tests/tres_cli_test.sh \
            tests/textures_cli_test.sh tests/erf_cli_test.sh tests/tpm_cli_test.sh tests/trn_cli_test.sh \
            tests/output_cli_test.sh tests/outputs_cli_test.sh tests/demo_cli_test.sh tests/bombs_cli_test.sh \
            tests/errors_cli_test.sh tests/keybif_cli_test.sh tests/check_layers.sh tests/python_test.sh tests/afl_test.sh \
            tests/batch_cli_test.sh tests/json_cli_test.sh tests/nonfinite_cli_test.sh
# CORPUS_SWEEPS=0 skips the shell tests' sweeps of ../shared/corpus (thousands of
# relic processes, and 8192^2 terrains): `make test` runs them once, in the plain
# pass, where a process costs a tenth of an instrumented one (the library's
# in-process corpus tests run in both passes)
CORPUS_SWEEPS ?= 1
# what the tests run: the libraries, relic and its man page, the AFL++ mutator library, the test
# programs (the sanitizer pass builds only these: not relic-gen, which no test of this list runs)
UNIT_PROGS = $(foreach l,$(LIBNAMES),$(BUILD)/lib$(l).a $(BUILD)/lib$(l).so) $(BUILD)/relic $(BUILD)/relic.1 \
             $(BUILD)/librelic-afl.so $(TESTS) $(BUILD)/tests/make_samples
UNIT_ALL ?= all
unit-progs: $(UNIT_PROGS)
check-unit: $(UNIT_ALL) $(UNIT_PROGS)
	@TESTS_TABLE=$(BUILD)/tests-run CORPUS_SWEEPS=$(CORPUS_SWEEPS) RELIC=$(BUILD)/relic MAKE_SAMPLES=$(BUILD)/tests/make_samples JOBS=$(JOBS) sh tests/run_all.sh $(CLI_TESTS) $(TESTS)

# Everything again under AddressSanitizer + UndefinedBehaviorSanitizer. The
# library is compiled once for this and for the fuzz targets (FUZZ_BUILD):
# coverage instrumentation (fuzzer-no-link) costs the tests little and saves
# a third compile of every source.
SAN_FLAGS   = -gline-tables-only -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS = $(SAN_FLAGS)
SAN_MAKE    = $(MAKE) --no-print-directory CC=$(CLANG) BUILD=$(FUZZ_BUILD) OPT="$(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link"
check-asan:
	+@$(SAN_MAKE) check-unit UNIT_ALL= CORPUS_SWEEPS=$(CORPUS_SWEEPS)

# make regen must leave generated/ exactly as committed.
check-regen: $(BUILD)/relic-gen
	@tmp=$$(mktemp -d); \
	$(BUILD)/relic-gen -o $$tmp/generated --docs $$tmp/generated/docs --fuzz $$tmp/fuzz --python $$tmp/python/relic/_gen $(SCHEMAS) || exit 1; \
	ok=0; bad=0; \
	for f in $$(cd $$tmp && find generated fuzz python -type f); do \
	  if cmp -s $$tmp/$$f $$f; then ok=$$((ok + 1)); else echo "regen: $$f is out of date (run make regen)"; bad=$$((bad + 1)); fi; done; \
	rm -rf $$tmp; \
	if [ $$bad = 0 ]; then echo "regen: generated/ is up to date"; fi; \
	echo "regen: $$ok passed, $$bad failed"; [ $$bad = 0 ]

# ---- fuzzing (libFuzzer, clang) ----
# the targets link the sanitizer build of the four libraries (check-asan's)
FUZZ_ARCHIVES = $(patsubst $(BUILD)/%,$(FUZZ_BUILD)/%,$(LIB_ARCHIVES))
# where check-fuzz finds the targets: the Makefile builds them into FUZZ_BUILD; make test's fuzz
# stage takes those its oss-fuzz stage built (build.sh, the same flags and archives: OSS_FUZZ_OUT)
FUZZ_BIN_DIR ?= $(FUZZ_BUILD)
FUZZ_BINS = $(patsubst fuzz/%.c,$(FUZZ_BIN_DIR)/%,$(FUZZ_SRCS))
OSS_FUZZ_OUT = $(FUZZ_BUILD)/oss-fuzz
ifneq ($(BUILD),$(FUZZ_BUILD))
.PHONY: fuzz-libs
fuzz-libs:
	+@$(SAN_MAKE) $(FUZZ_ARCHIVES)
$(FUZZ_ARCHIVES): fuzz-libs ;
$(FUZZ_BUILD)/%: fuzz/%.c $(FUZZ_ARCHIVES)
	$(CLANG) $(CSTD) $(WARN) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(SAN_LDFLAGS) $(CPPFLAGS) $< $(FUZZ_ARCHIVES) $(LIBS) -o $@
endif

# each target first replays its kept crash inputs (fuzz/regressions/<target>/, once each)
check-fuzz fuzz: $(FUZZ_BINS)
	@for d in fuzz/regressions/*/; do [ -d "$$d" ] || continue; t=$$(basename "$$d"); echo "== replay $$d"; \
	  $(FUZZ_BIN_DIR)/$$t "$$d"* >$(FUZZ_BUILD)/$$t.replay.log 2>&1 || { tail -30 $(FUZZ_BUILD)/$$t.replay.log; exit 1; }; done
	@FUZZ_TABLE=$(FUZZ_BUILD)/fuzz-run FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_BUILD=$(FUZZ_BUILD) JOBS=$(JOBS) FUZZ_ARGS="$(FUZZ_ARGS)" sh fuzz/run.sh $(FUZZ_BINS)

# ---- the two commands of README.md ----
# every stage notes its "N passed, M failed" (tests/stage.sh); a failing stage
# does not stop the later ones; the last line of `make test` is their sum, after
# a table of the stages (wall and CPU seconds of each).
# Two lanes keep both cores busy: the stages below run one after the other, while
# a second lane at the lowest priority (nice 19, so it takes only the CPU the
# stages leave) builds the sanitizer pass's programs (san-unit-progs), then runs
# the oss-fuzz stage: build.sh compiles the fuzz targets with the sanitizer
# build's flags and links them with its archives (the library and each target are
# compiled once), into OSS_FUZZ_OUT, where the fuzz stage runs them. The asan
# stage waits for san-unit-progs, the fuzz stage for the oss-fuzz stage (whose
# output is shown when it ends).
STAGE = STAGES=$(BUILD)/test-stages sh tests/stage.sh
LANE_STAGE = STAGES=$(BUILD)/test-stages nice -n 19 sh tests/stage.sh
TEST_LANE = $(BUILD)/test-lane
test: deps
	@$(STAGE) --reset; rm -f $(BUILD)/tests-run $(FUZZ_BUILD)/tests-run $(FUZZ_BUILD)/fuzz-run $(TEST_LANE).*
	@$(STAGE) build $(MAKE) --no-print-directory -j$(JOBS) all
	@( $(LANE_STAGE) san-build $(MAKE) --no-print-directory -j$(JOBS) san-unit-progs >$(TEST_LANE).san-build.log 2>&1; \
	  echo $$? >$(TEST_LANE).san-build; \
	  $(LANE_STAGE) oss-fuzz env OSS_FUZZ_QUICK=1 OSS_FUZZ_CFLAGS="$(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(WARN)" \
	    OSS_FUZZ_LDFLAGS="$(SAN_LDFLAGS)" RELIC_PREBUILT_LIBS="$(FUZZ_ARCHIVES)" OSS_FUZZ_OUT=$(OSS_FUZZ_OUT) \
	    sh tests/oss_fuzz_build_test.sh >$(TEST_LANE).oss-fuzz.log 2>&1 ) & lane=$$!; \
	$(STAGE) unit $(MAKE) --no-print-directory -j$(JOBS) check-unit; \
	$(STAGE) format sh tests/check_format.sh; \
	$(STAGE) schema-errors sh tests/schema_errors/run.sh $(BUILD)/relic-gen; \
	$(STAGE) golden sh tests/golden/run.sh $(BUILD)/relic-gen; \
	$(STAGE) regen-report sh tests/regen_report/run.sh $(BUILD)/relic-gen; \
	$(STAGE) install env BUILD=$(BUILD) sh tests/install_test.sh; \
	$(STAGE) out-of-tree env BUILD=$(BUILD) sh tests/outoftree_test.sh; \
	$(STAGE) embed $(MAKE) --no-print-directory check-embed; \
	$(STAGE) blender $(MAKE) --no-print-directory test-blender; \
	$(STAGE) regen $(MAKE) --no-print-directory check-regen; \
	echo "== waiting for the sanitizer build (san-progs, built beside the stages above; $(TEST_LANE).san-build.log)"; \
	while [ ! -f $(TEST_LANE).san-build ] && kill -0 $$lane 2>/dev/null; do sleep 1; done; \
	$(STAGE) asan $(MAKE) --no-print-directory -j$(JOBS) check-asan CORPUS_SWEEPS=0; \
	echo "== waiting for the oss-fuzz stage (run beside the stages above; its targets are the fuzz stage's)"; wait $$lane; \
	cat $(TEST_LANE).oss-fuzz.log 2>/dev/null || echo "oss-fuzz: the stage did not run"; \
	grep -q '^oss-fuzz ' $(BUILD)/test-stages || echo "oss-fuzz 0 1 0 0 the second lane ended early" >>$(BUILD)/test-stages; \
	$(STAGE) fuzz $(MAKE) --no-print-directory -j$(JOBS) check-fuzz FUZZ_BIN_DIR=$(OSS_FUZZ_OUT) FUZZ_SECONDS=$(TEST_FUZZ_SECONDS) FUZZ_ARGS="-seed=$(FUZZ_SEED)"; \
	for t in $(BUILD)/tests-run $(FUZZ_BUILD)/tests-run $(FUZZ_BUILD)/fuzz-run; do [ -f $$t ] && { echo "== $$t"; cat $$t; }; done; \
	$(STAGE) --report

# the asan and fuzz stages' programs, built ahead: the sanitizer pass's (unit-progs), then the
# fuzz targets, which link its libraries (make test builds those through build.sh instead)
san-unit-progs:
	+@$(SAN_MAKE) unit-progs
san-progs: san-unit-progs
	@$(MAKE) --no-print-directory $(FUZZ_BINS)

demo: deps
	@$(MAKE) --no-print-directory all
	@sh tests/demo.sh $(BUILD)/relic

$(BUILD)/tests/make_samples: tests/samples/make_samples.c $(LIB_ARCHIVES)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(CPPFLAGS) $< $(LIB_ARCHIVES) $(LIBS) -o $@

samples: all $(BUILD)/tests/make_samples
	$(BUILD)/tests/make_samples tests/samples

# seeds of the generated fuzz targets (fuzz/corpus/gen_<f>/seed-*): the smallest model of each
# schema and the samples relic's writers make, each with structure-aware mutants (tests/make_fuzz_seeds.c)
fuzz-seeds: all $(BUILD)/tests/make_fuzz_seeds
	@tmp=$$(mktemp -d); RELIC=$(BUILD)/relic sh tests/samples/make_format_samples.sh $$tmp/s >/dev/null && \
	  $(BUILD)/tests/make_fuzz_seeds fuzz/corpus $$tmp/s/*; status=$$?; rm -rf $$tmp; exit $$status

# ---- benchmarks ----
$(BUILD)/bench/%: tests/bench/%.c $(LIB_ARCHIVES)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -O2 -g $(CPPFLAGS) $< $(LIB_ARCHIVES) $(LIBS) -o $@

# the whole-command benchmarks' helpers: CPU time of a command (wait4), the static hello world
$(BUILD)/bench/cpu_run: tests/bench/cpu_run.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -O2 $< -o $@
$(BUILD)/bench/hello_static: tests/bench/hello.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -O2 -static $< -o $@

# every benchmark appends its rows to BENCH_ROWS; make bench ends with their one table (summary.sh)
BENCH_ROWS = $(BUILD)/bench/rows.tsv
BENCH_ENV  = BENCH_ROWS=$(BENCH_ROWS) CPU_RUN=$(BUILD)/bench/cpu_run RELIC=$(BUILD)/relic
bench: deps
	@$(MAKE) --no-print-directory all $(BUILD)/bench/cpu_run $(BUILD)/bench/hello_static
	@rm -f $(BENCH_ROWS)
	$(BENCH_ENV) HELLO=$(BUILD)/bench/hello_static sh tests/bench/startup.sh
	$(BENCH_ENV) sh tests/bench/terrain.sh
	$(BENCH_ENV) sh tests/bench/bake.sh
	$(BENCH_ENV) sh tests/bench/gff_commands.sh
	$(BENCH_ENV) sh tests/bench/audio_memory.sh
	@$(MAKE) --no-print-directory all $(BUILD)/bench/bench_bwm $(BUILD)/bench/bench_lzss $(BUILD)/bench/bench_audio $(BUILD)/bench/bench_gff $(BUILD)/bench/bench_trn $(BUILD)/bench/bench_grf $(BUILD)/bench/bench_mutate $(BUILD)/bench/bench_wtd $(BUILD)/bench/bench_tpm
	$(BENCH_ENV) $(BUILD)/bench/bench_bwm
	@$(MAKE) --no-print-directory $(BUILD)/bench/bench_float_text
	$(BENCH_ENV) $(BUILD)/bench/bench_float_text
	$(BUILD)/bench/bench_lzss
	$(BENCH_ENV) $(BUILD)/bench/bench_audio
	$(BENCH_ENV) $(BUILD)/bench/bench_gff
	$(BUILD)/bench/bench_trn
	$(BUILD)/bench/bench_grf
	$(BUILD)/bench/bench_mutate
	$(BUILD)/bench/bench_wtd
	$(BUILD)/bench/bench_tpm
	@if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then RELIC_LIB=$(BUILD) /usr/bin/python3 tests/bench/bench_python.py $(BUILD)/relic; \
	else echo "bench_python: /usr/bin/python3 without numpy: skipped"; fi
	RELIC=$(BUILD)/relic BENCH_INSTALL=$(BUILD)/bench/install sh tests/bench/bench_batch.sh
	@$(MAKE) --no-print-directory footprint
	@if command -v $(CLANG) >/dev/null 2>&1; then $(MAKE) --no-print-directory -j$(JOBS) $(FUZZ_BINS) >/dev/null && \
	  FUZZ_BUILD=$(FUZZ_BUILD) sh tests/bench/bench_fuzz.sh $(FUZZ_BINS); \
	else echo "bench_fuzz: $(CLANG) not found: fuzz executions per second skipped"; fi
	@BENCH_ROWS=$(BENCH_ROWS) sh tests/bench/summary.sh

# ==== embedding (2/2): amalgamation, embed build, footprint ====
# `make amalgamation FORMATS="bwm"` writes build/amalgamation/relic_bwm.c and relic_bwm.h: one
# self-contained .c (cc -c relic_bwm.c, nothing else) and its header, made by gen/amalgamate.py.
AMALG_DIR      = build/amalgamation
AMALG_FORMATS  = $(if $(strip $(FORMATS)),$(strip $(FORMATS)),bwm)
AMALG_NAME     = relic_$(subst $(eval) ,_,$(AMALG_FORMATS))
HDRS_bwm  = relic_bwm.h
HDRS_gff  = relic_gff.h
HDRS_erf  = relic_erf.h
HDRS_trn  = relic_trn.h
HDRS_tres = relic_audio.h relic_groff.h relic_grf.h relic_swp.h relic_wtd.h relic_tpm.h relic_tri.h relic_trr.h relic_lzss.h relic_adpcm.h
amalgamation:
	@mkdir -p $(AMALG_DIR)
	$(PYTHON) gen/amalgamate.py --out $(AMALG_DIR) --name $(AMALG_NAME) $(addprefix -I,$(RUNTIME_INC) $(addprefix generated/,$(GEN_FAMILIES))) \
	  $(patsubst -D%,-D %,$(call subset_defs,$(AMALG_FORMATS))) \
	  $(addprefix --header runtime/include/relic/,relic.h $(foreach f,$(AMALG_FORMATS),$(HDRS_$(f)))) \
	  $(call subset_srcs,$(AMALG_FORMATS))
	@echo "amalgamation: $(AMALG_DIR)/$(AMALG_NAME).c $(AMALG_DIR)/$(AMALG_NAME).h"

# `make embed [FORMATS=...] [NO_ERRMSG=1]`: librelic for embedding into build/embed/: -Os, one
# section per function and object (-ffunction-sections -fdata-sections) so that a program linked
# with -Wl,--gc-sections keeps only what it calls; NO_ERRMSG=1 compiles error text out
# (RELIC_NO_ERRMSG: codes and byte offsets stay). Also builds the README BWM example, so linked.
# (gcc's -Os inlining brings maybe-uninitialized false positives the -O2 build has not: not errors here)
EMBED_OPT = -Os -ffunction-sections -fdata-sections -Wno-maybe-uninitialized $(if $(NO_ERRMSG),-DRELIC_NO_ERRMSG -Wno-unused)
embed:
	@$(MAKE) --no-print-directory BUILD=build/embed$(if $(NO_ERRMSG),-no-errmsg) OPT="$(EMBED_OPT)" FORMATS="$(FORMATS)" subset
	@d=build/embed$(if $(NO_ERRMSG),-no-errmsg); \
	awk '/^```c$$/ { grab = 0 } grab { print } /^```c$$/ { getline line; if (line ~ /count walkable faces/) { grab = 1; print line } }' README.md | \
	  sed '/^```$$/,$$d' | sed 's|#include <relic/relic_bwm.h>|#include <stdio.h>\n#include "relic_bwm.h"|' > $$d/ex_bwm.c && \
	$(CC) $(CSTD) $(EMBED_OPT) $(CPPFLAGS) $$d/ex_bwm.c -Wl,--gc-sections $$d/librelic.a -lz -lm -o $$d/ex_bwm && \
	echo "embed: $$d/librelic.a, $$d/ex_bwm (README example, --gc-sections)"

# footprint rows of make bench (tests/bench/footprint.sh)
footprint: $(BUILD)/relic
	@$(MAKE) --no-print-directory amalgamation FORMATS=bwm
	@$(MAKE) --no-print-directory amalgamation FORMATS=gff
	@$(MAKE) --no-print-directory amalgamation FORMATS=trn
	@AMALG=$(AMALG_DIR) RELIC=$(BUILD)/relic sh tests/bench/footprint.sh

# CI proof (make test): a FORMATS="bwm" library and the amalgamation, each running the README example
check-embed:
	@$(MAKE) --no-print-directory -j$(JOBS) FORMATS=bwm subset
	@$(MAKE) --no-print-directory amalgamation FORMATS=bwm
	@sh tests/embed_test.sh build/formats-bwm $(AMALG_DIR)/relic_bwm.c
.PHONY: amalgamation embed footprint check-embed
# ==== end embedding (2/2) ====

# relic's NWN2 walkmesh bake against the toolset's TRX files (README "Bake report")

# worst cases of each declared size: CPU time and peak RSS as the size grows (docs/security.md, "Worst cases measured")
bench-bombs: all
	RELIC=$(BUILD)/relic sh tests/bench/bombs.sh

# fuzz/oss-fuzz/build.sh under OSS-Fuzz's libFuzzer+ASan variables, then each target on its seeds
# (slow: the library compiled again and every target linked; make test runs the quick form)
oss-fuzz-check:
	sh tests/oss_fuzz_build_test.sh

# relic's NWN2 walkmesh bake against the toolset's TRX files (docs/benchmarks.md, "Bake compared with the toolset")
bake-report: all $(BUILD)/tests/bake_report
	$(BUILD)/tests/bake_report ../shared/corpus

# the libraries the relic command links (fuzz/coverage.sh builds targets by hand)
print-libs:
	@echo $(LIBS)

# ---- install ----
# relic-gen, the headers generated code includes (relic_gen.h, relic_json.h,
# relic_json_table.h, relic_mutate.h) and relic-gen.pc: a user's own schema
# generated and built outside this tree (docs/adding-a-format.md, tests/outoftree_test.sh)
GEN_RUNTIME_HEADERS = runtime/json/relic_json.h runtime/json/relic_json_table.h runtime/json/relic_schema_ops.h
install: all
	install -d $(DESTDIR)$(PREFIX)/include/relic $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin \
	  $(DESTDIR)$(PREFIX)/share/licenses/relic $(DESTDIR)$(PREFIX)/share/doc/relic
	install -m 644 runtime/include/relic/*.h $(GEN_RUNTIME_HEADERS) $(wildcard generated/*/*.h) $(DESTDIR)$(PREFIX)/include/relic/
	install -m 755 $(BUILD)/relic-gen $(DESTDIR)$(PREFIX)/bin/
	install -m 644 gen/SCHEMA.md $(DESTDIR)$(PREFIX)/share/doc/relic/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' runtime/pkgconfig/relic-gen.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/relic-gen.pc
	for l in $(LIBNAMES); do \
	  install -m 644 $(BUILD)/lib$$l.a $(DESTDIR)$(PREFIX)/lib/ && \
	  install -m 755 $(BUILD)/lib$$l.so $(DESTDIR)$(PREFIX)/lib/lib$$l.so.$(VERSION) && \
	  ln -sf lib$$l.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/lib$$l.so.0 && \
	  ln -sf lib$$l.so.0 $(DESTDIR)$(PREFIX)/lib/lib$$l.so && \
	  sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' runtime/pkgconfig/$$l.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/$$l.pc || exit 1; done
	install -m 755 $(BUILD)/relic $(DESTDIR)$(PREFIX)/bin/
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 $(BUILD)/relic.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 contrib/relic.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/relic
	install -m 644 LICENSE $(DESTDIR)$(PREFIX)/share/licenses/relic/
	@# the Python package where Debian's python3 looks (docs/python.md)
	install -d $(DESTDIR)$(PYTHON_DIR)/relic/_gen
	install -m 644 python/relic/*.py $(DESTDIR)$(PYTHON_DIR)/relic/
	install -m 644 python/relic/_gen/*.py $(DESTDIR)$(PYTHON_DIR)/relic/_gen/

# Blender (Debian's blender 3.4, system Python) imports a corpus WOK and TRX through the Python
# package, builds meshes, writes the walkmesh back and checks it; make test runs it when blender is
# installed; not in make deps: installing blender took 176 s and 0.8 GB here (docs/python.md)
.PHONY: test-blender
test-blender: all
	@if command -v blender >/dev/null 2>&1; then \
	  RELIC=$(BUILD)/relic RELIC_LIB=$(BUILD) PYTHONPATH=python blender -b --factory-startup --python-exit-code 1 \
	    --python-use-system-env --python tests/blender/import_walkmesh.py; \
	else echo "test-blender: blender not installed (apt-get install -y blender): skipped"; echo "0 passed, 0 failed"; fi

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) out $(RE2C_OUT)
