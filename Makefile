# posenc — plain GNU Make. `make` builds the libraries and the CLI;
# `make run` runs the tour; `make test` builds and runs every test;
# `make asan` runs the tests under ASan+UBSan, `make valgrind` the C tests
# under memcheck; `make install PREFIX=… DESTDIR=…`.
#
# The build prints one short line per file ("  CC src/rope.c"); `make V=1`
# shows the full commands. Debian packages are installed per target by
# scripts/setup-deps.sh (a no-op when all are present), each target asking
# only for the groups it uses, in one apt call: `make run` and `make test`
# before anything else; `make`, `lib`, `cli` and `python` before their first
# file (with -j on a fresh machine, run `make deps` first).

# V=1: full command lines. Otherwise $(Q) hides a command and $(call
# say,TAG,FILE) prints the short line in its place.
V ?= 0
ifeq ($(V),1)
Q :=
say =
else
Q := @
say = printf '  %s %s\n' '$(1)' '$(2)';
endif

PREFIX ?= /usr/local
DESTDIR ?=
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin

CC ?= cc
CFLAGS ?= -O2 -g
# IEEE semantics and portable code: no -ffast-math, no -march=native, and no
# contraction of a*b+c into FMA behind the code's back (the exact angle
# reduction in src/kernels/angle.h relies on separately rounded products).
FPFLAGS := -ffp-contract=off
WARNFLAGS := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
             -Wmissing-prototypes -Wvla -Wformat=2
PE_CPPFLAGS := -Iinclude -D_POSIX_C_SOURCE=200809L
# The library starts threads only when a call asks for them (pthreads).
THREADFLAGS := -pthread
ALL_CFLAGS = $(WARNFLAGS) $(FPFLAGS) $(PE_CPPFLAGS) $(THREADFLAGS) $(CPPFLAGS) $(CFLAGS) \
             $(EXTRA_CFLAGS) $(ISAFLAGS)
LDLIBS_LIB := -lcjson -lm
# cairo draws the CLI's figures (cli/plot/): its flags go to the CLI's
# objects and links only, never to the library. Deferred (=) so pkg-config
# runs after setup-deps.sh has installed it.
CAIRO_CFLAGS = $(shell pkg-config --cflags cairo)
CAIRO_LIBS = $(shell pkg-config --libs cairo)

BUILD ?= build

VERSION_MAJOR := $(shell sed -n 's/^\#define PE_VERSION_MAJOR \([0-9]*\)/\1/p' include/posenc.h)
VERSION_MINOR := $(shell sed -n 's/^\#define PE_VERSION_MINOR \([0-9]*\)/\1/p' include/posenc.h)
VERSION_PATCH := $(shell sed -n 's/^\#define PE_VERSION_PATCH \([0-9]*\)/\1/p' include/posenc.h)
VERSION := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)
# Before 1.0 every minor version may change the ABI (README "ABI and versions"),
# so the soname carries it: libposenc.so.0.3; from 1.0 on, the major alone.
SONAME := libposenc.so.$(if $(filter 0,$(VERSION_MAJOR)),0.$(VERSION_MINOR),$(VERSION_MAJOR))

LIB_SRC := $(wildcard src/*.c src/io/*.c src/kernels/*.c)
# cli/ holds the thin commands; cli/plot/ the plotting layer, cli/figures/
# the named figures above it and cli/tour/ the tour above both.
CLI_SRC := $(wildcard cli/*.c cli/plot/*.c cli/figures/*.c cli/tour/*.c bench/*.c)
TEST_SRC := $(wildcard tests/*.c)

# Per-file instruction sets: only the vector kernel files (and the bench
# baselines that must use the same instructions) are compiled for AVX2 or
# AVX-512, and run only after the CPU check in src/kernels/dispatch.c; the
# rest of the build runs on any x86-64. Elsewhere they compile to nothing.
ifneq ($(filter x86_64-% amd64-%,$(shell $(CC) -dumpmachine)),)
ISA_AVX2 := -mavx2 -mfma -mf16c
ISA_AVX512 := -mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx2 -mfma -mf16c
endif
$(BUILD)/src/kernels/avx2.o $(BUILD)/bench/base_avx2.o: ISAFLAGS = $(ISA_AVX2)
$(BUILD)/src/kernels/avx512.o $(BUILD)/bench/base_avx512.o: ISAFLAGS = $(ISA_AVX512)

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
PLOT_OBJ := $(filter $(BUILD)/cli/plot/%.o,$(CLI_OBJ))
FIGURES_OBJ := $(filter $(BUILD)/cli/figures/%.o,$(CLI_OBJ))
TOUR_OBJ := $(filter $(BUILD)/cli/tour/%.o,$(CLI_OBJ))
PLOT_TEST_OBJ := $(BUILD)/tests/plot/test_plot.o
# `posenc experiment` (experiment/): the trainer, a client of the public API,
# linked into the CLI and into its own test binary, never into the library.
# Its matrix products are its own (experiment/matmul.c: one fixed order of
# operations, so results do not depend on the CPU's BLAS kernel); one thread
# per job.
EXP_SRC := $(wildcard experiment/*.c)
EXP_OBJ := $(EXP_SRC:%.c=$(BUILD)/%.o)
EXP_TEST_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/experiment/*.c))
EXP_TEST_BIN := $(BUILD)/experiment_tests
EXP_LIBS := -lpthread

STATIC_LIB := $(BUILD)/libposenc.a
SHARED_LIB := $(BUILD)/libposenc.so.$(VERSION)
POSENC := $(BUILD)/posenc
TEST_BIN := $(BUILD)/posenc_tests
PLOT_TEST_BIN := $(BUILD)/test_plot

.PHONY: all lib cli run run-tour bench bench-ggml test test-parts test-c test-cli test-example test-plot asan valgrind install uninstall clean
.PHONY: test-experiment deps

all: lib cli

# Only these top-level goals wait for `deps`; no object or link rule does.
lib: $(STATIC_LIB) $(SHARED_LIB) $(BUILD)/posenc.pc | deps
cli: $(POSENC) | deps

# The Debian packages each target needs (scripts/setup-deps.sh names the
# groups): checked once per checkout through stamps in build/ (shared by the
# sanitizer trees), redone when the script changes or after `make clean`.
# A target that needs several groups asks for them in one call, so apt (and
# sudo) run once: `make run` installs build + web, `make test` build +
# python + python-test, and nothing else.
SETUP_DEPS := bash scripts/setup-deps.sh --stamps build
deps:
	@$(SETUP_DEPS) build
.PHONY: deps-test deps-run deps-python
deps-python:
	@$(SETUP_DEPS) build python
deps-test:
	@$(SETUP_DEPS) build python python-test
deps-run:
	@$(SETUP_DEPS) build web

# Objects are position-independent so one set serves both libraries. Each
# object depends on the headers it includes, as the compiler found them
# (-MMD writes build/<file>.d beside the object; -MP adds an empty rule per
# header, so a header that is removed or renamed does not stop the build).
# The .d files live in each build tree (asan, tsan, arm64 keep their own):
# only this tree's are read, one per C source that has been compiled.
$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$<)$(CC) $(ALL_CFLAGS) -MMD -MP -fPIC -c $< -o $@
OBJ_SRC := $(shell find src cli bench tests experiment fuzz -name '*.c')
-include $(wildcard $(OBJ_SRC:%.c=$(BUILD)/%.d))
# An object built before this rule had -MMD has no .d yet: it depends on
# every header until it is next compiled.
$(filter-out $(patsubst %.d,%.o,$(wildcard $(OBJ_SRC:%.c=$(BUILD)/%.d))),$(wildcard $(OBJ_SRC:%.c=$(BUILD)/%.o))): \
  $(wildcard include/*.h src/*.h src/*/*.h cli/*.h cli/*/*.h tests/*.h bench/*.h experiment/*.h fuzz/*.h)

$(CLI_OBJ) $(PLOT_TEST_OBJ): private PE_CPPFLAGS += $(CAIRO_CFLAGS)

$(STATIC_LIB): $(LIB_OBJ)
	@rm -f $@
	$(Q)$(call say,AR,$@)$(AR) rcs $@ $^

$(SHARED_LIB): $(LIB_OBJ) src/exports.map
	$(Q)$(call say,LD,$@)$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=src/exports.map \
	  -o $@ $(LIB_OBJ) $(LDLIBS_LIB) $(LDFLAGS)
	$(Q)ln -sf libposenc.so.$(VERSION) $(BUILD)/$(SONAME)
	$(Q)ln -sf $(SONAME) $(BUILD)/libposenc.so

# For the build tree; `make install` writes its own with the PREFIX it is given.
$(BUILD)/posenc.pc: posenc.pc.in include/posenc.h
	@mkdir -p $(BUILD)
	$(Q)$(call say,GEN,$@)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' $< > $@

# The CLI links the static library: the binary runs from the build tree.
$(POSENC): $(CLI_OBJ) $(EXP_OBJ) $(STATIC_LIB)
	$(Q)$(call say,LD,$@)$(CC) $(ALL_CFLAGS) -o $@ $(CLI_OBJ) $(EXP_OBJ) $(STATIC_LIB) $(LDLIBS_LIB) $(CAIRO_LIBS) \
	  $(EXP_LIBS) $(LDFLAGS)

$(TEST_BIN): $(TEST_OBJ) $(STATIC_LIB)
	$(Q)$(call say,LD,$@)$(CC) $(ALL_CFLAGS) -o $@ $(TEST_OBJ) $(STATIC_LIB) $(LDLIBS_LIB) $(LDFLAGS)

# Tour options pass through: make run ARGS="--no-experiment" (or TOUR_ARGS=...).
ARGS ?=
TOUR_ARGS ?=
# `make run`: the packages first (once), then the tour. The explorer goes
# in first, so the tour's page links to it.
run: deps-run
	+@$(MAKE) --no-print-directory run-tour
# The tour exits 3 when it ran to the end and a claim did not hold: the
# claims are the lesson's verdicts on this run, printed and marked on the
# page, not a failed build; any other non-zero status fails `make run`.
run-tour: $(POSENC) explorer
	mkdir -p tour/explorer && cp $(EXPLORER) tour/explorer/index.html
	@rc=0; $(POSENC) tour $(ARGS) $(TOUR_ARGS) || rc=$$?; \
	if [ $$rc -eq 3 ]; then \
	  echo "make run: the tour ran; the claims marked FAILED above did not hold on this run"; \
	elif [ $$rc -ne 0 ]; then exit $$rc; fi

# Each case against its baseline, measured in the same run (posenc bench --help).
bench: $(POSENC)
	$(POSENC) bench

# posenc against ggml's CPU RoPE in one process, with each case's floor (an
# in-place scale of the same bytes): bench/ggml/compare.c. Needs a ggml
# source tree built in $(GGML_DIR)/build (cmake -DCMAKE_BUILD_TYPE=Release
# -DGGML_NATIVE=ON -DGGML_OPENMP=ON; docs/PERFORMANCE.md "Against ggml");
# posenc never fetches it, and `make` never builds this.
bench-ggml: $(STATIC_LIB)
	@test -n "$(GGML_DIR)" -a -f "$(GGML_DIR)/build/src/libggml-cpu.a" || { \
	  echo "make bench-ggml: set GGML_DIR to a ggml source tree built in GGML_DIR/build" \
	       "(docs/PERFORMANCE.md \"Against ggml\")" >&2; exit 2; }
	$(CC) -std=c11 -O3 -fopenmp -Iinclude -I$(GGML_DIR)/include \
	  bench/ggml/compare.c $(STATIC_LIB) $(GGML_DIR)/build/src/libggml.a \
	  $(GGML_DIR)/build/src/libggml-cpu.a $(GGML_DIR)/build/src/libggml-base.a \
	  $$(pkg-config --libs libcjson) -lm -lstdc++ -pthread -o $(BUILD)/ggml_compare
	$(BUILD)/ggml_compare

# `make test`: the packages first (once), then every part. The sanitizer
# builds (asan, which recurses into `make test` with -fsanitize in
# EXTRA_CFLAGS) skip the Python parts: an instrumented module cannot load
# into an uninstrumented interpreter.
TEST_PARTS := test-includes test-c test-cli test-example test-install test-plot test-experiment \
              test-fuzz test-readme test-tour test-exports
ifeq ($(findstring -fsanitize,$(EXTRA_CFLAGS)),)
TEST_PARTS += test-python test-pip test-readme-c
endif
test: deps-test
	+@bash tests/run_parts.sh $(BUILD)/test-logs $(MAKE) -- $(TEST_PARTS)
test-parts: $(TEST_PARTS)

# The include rules of docs/ARCHITECTURE.md ("Build"): no new include
# cycles, experiment/ sees only posenc.h, kernels include no new headers.
.PHONY: test-includes
test-includes:
	bash tests/check_includes.sh

# Install into a staging prefix, then build the README's example the way a
# user would (pkg-config, shared library) and run it.
STAGE := $(abspath $(BUILD))/stage
test-install:
	rm -rf $(STAGE)
	$(MAKE) --no-print-directory install PREFIX=$(STAGE) DESTDIR=
	$(Q)$(call say,LD,$(BUILD)/rope_example_installed)$(CC) $(WARNFLAGS) $(CFLAGS) $(EXTRA_CFLAGS) -o $(BUILD)/rope_example_installed examples/rope_example.c \
	  $$(PKG_CONFIG_PATH=$(STAGE)/lib/pkgconfig pkg-config --cflags --libs posenc) -Wl,-rpath,$(STAGE)/lib \
	  $(LDFLAGS)
	$(BUILD)/rope_example_installed
	$(STAGE)/bin/posenc --version
	# The static archive with cJSON shared, as posenc.pc and the README say.
	PKG_CONFIG_PATH=$(STAGE)/lib/pkgconfig pkg-config --static --libs posenc | grep -- '-pthread' | grep -q -- '-lcjson'
	$(Q)$(call say,LD,$(BUILD)/rope_example_static)$(CC) $(WARNFLAGS) $(CFLAGS) -o $(BUILD)/rope_example_static examples/rope_example.c \
	  $$(PKG_CONFIG_PATH=$(STAGE)/lib/pkgconfig pkg-config --cflags posenc) \
	  $$(PKG_CONFIG_PATH=$(STAGE)/lib/pkgconfig pkg-config --variable=archive posenc) \
	  $$(pkg-config --libs libcjson) -lm -pthread $(LDFLAGS)
	$(BUILD)/rope_example_static
	! ldd $(BUILD)/rope_example_static | grep -q libposenc
	# Static through pkg-config --static alone: a libdir holding only the
	# archive, so -lposenc resolves to libposenc.a and Libs.private /
	# Requires.private must bring in everything it needs.
	rm -rf $(STAGE)/static-only && mkdir -p $(STAGE)/static-only && cp $(STAGE)/lib/libposenc.a $(STAGE)/static-only/
	$(Q)$(call say,LD,$(BUILD)/rope_example_pkgstatic)$(CC) $(WARNFLAGS) $(CFLAGS) -o $(BUILD)/rope_example_pkgstatic examples/rope_example.c \
	  $$(PKG_CONFIG_PATH=$(STAGE)/lib/pkgconfig pkg-config --static --define-variable=libdir=$(STAGE)/static-only --cflags --libs posenc) \
	  $(LDFLAGS)
	$(BUILD)/rope_example_pkgstatic
	! ldd $(BUILD)/rope_example_pkgstatic | grep -q libposenc

# The shared library exports the public API only (src/exports.map).
.PHONY: test-exports
test-exports: $(SHARED_LIB)
	bash tests/check_exports.sh $(SHARED_LIB)

# The README's C example must build against the installed-style header and run.
test-example: $(STATIC_LIB)
	$(Q)$(call say,LD,$(BUILD)/rope_example)$(CC) $(ALL_CFLAGS) -o $(BUILD)/rope_example examples/rope_example.c $(STATIC_LIB) $(LDLIBS_LIB) $(LDFLAGS)
	$(BUILD)/rope_example

test-c: $(TEST_BIN)
	$(TEST_BIN)

test-cli: $(POSENC)
	bash tests/cli/run.sh $(POSENC)

# The plotting layer alone: draws every element to PNG and SVG and checks the files.
# plot_figure_save writes through cli/atomic_file.c, which uses the library's pe_output.
$(PLOT_TEST_BIN): $(PLOT_TEST_OBJ) $(PLOT_OBJ) $(BUILD)/cli/atomic_file.o $(STATIC_LIB)
	$(Q)$(call say,LD,$@)$(CC) $(ALL_CFLAGS) -o $@ $^ $(CAIRO_LIBS) $(LDLIBS_LIB) $(LDFLAGS)

test-plot: $(PLOT_TEST_BIN)
	$(PLOT_TEST_BIN)

# The trainer: gradient checks in double, determinism, and a tiny model that
# must learn. -O3 -fno-trapping-math let gcc vectorize its elementwise loops
# (GELU's clamp is a conditional), which makes a training step 1.5x faster;
# IEEE results are unchanged (no reassociation, no contraction).
$(EXP_OBJ): ISAFLAGS = -O3 -fno-trapping-math
$(EXP_OBJ) $(EXP_TEST_OBJ) $(BUILD)/cli/cmd_experiment.o $(BUILD)/bench/train_step.o: \
  $(wildcard experiment/*.h)

$(EXP_TEST_BIN): $(EXP_TEST_OBJ) $(BUILD)/tests/runner.o $(EXP_OBJ) $(STATIC_LIB)
	$(Q)$(call say,LD,$@)$(CC) $(ALL_CFLAGS) -o $@ $(EXP_TEST_OBJ) $(BUILD)/tests/runner.o $(EXP_OBJ) $(STATIC_LIB) \
	  $(LDLIBS_LIB) $(EXP_LIBS) $(LDFLAGS)

test-experiment: $(EXP_TEST_BIN)
	$(EXP_TEST_BIN)

# Same tests, instrumented, in their own build directory. A failed
# allocation must reach the library as NULL (tests/test_errors_core.c asks
# for 2^62 bytes on purpose), not abort the run.
asan: deps-test
	ASAN_OPTIONS=allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 \
	LSAN_OPTIONS=print_suppressions=0 \
	$(MAKE) --no-print-directory BUILD=build/asan \
	  EXTRA_CFLAGS="-O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	  LDFLAGS="-fsanitize=address,undefined" test

# --------------------------------------------------------------- fuzzing
# One libFuzzer target per parser (fuzz/fuzz_*.c). `make test` links each
# with fuzz/replay.c and replays its corpus, fuzz/corpus/<target>/ (the
# seeds and every input that ever found a bug); `make fuzz FUZZ_SECONDS=N`
# links them with libFuzzer under ASan+UBSan (clang) and fuzzes each for N
# seconds, keeping what it learns in build/fuzz/corpus-<target>/ and
# crashing inputs in build/fuzz/artifacts-<target>/.
FUZZ_TARGETS := npy config args safetensors gguf api plan
FUZZ_SECONDS ?= 60
FUZZ_OBJ := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%.o) $(BUILD)/fuzz/replay.o
FUZZ_REPLAY := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/replay_%)
FUZZ_BIN := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/libfuzzer_%)
# The CLI minus main(), as an archive: fuzz_args pulls in only the commands'
# specs and what they reference (so the CLI's own libraries follow it).
FUZZ_CLI_LIB := $(BUILD)/fuzz/libcli.a
FUZZ_LIBS = $(STATIC_LIB) $(LDLIBS_LIB) $(CAIRO_LIBS) $(EXP_LIBS)
FUZZ_FLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
              -fno-omit-frame-pointer

# The C tests and the fuzz corpora under valgrind's memcheck (leaks are
# errors). Valgrind emulates x87 long double as double: the tests scale the
# tolerances that rest on long double with pe_test_ld_eps().
VALGRIND := valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect
valgrind: $(TEST_BIN) $(FUZZ_REPLAY) | deps
	@$(SETUP_DEPS) valgrind
	$(VALGRIND) $(TEST_BIN)
	$(foreach t,$(FUZZ_TARGETS),$(VALGRIND) $(BUILD)/fuzz/replay_$(t) fuzz/corpus/$(t) &&) true

# The C tests under ThreadSanitizer (tests/test_threads.c runs every public
# function from 8 threads on shared read-only state), in their own tree.
tsan: deps
	$(MAKE) --no-print-directory BUILD=build/tsan EXTRA_CFLAGS="-O1 -fsanitize=thread -fno-omit-frame-pointer" \
	  LDFLAGS="-fsanitize=thread" build/tsan/posenc_tests
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 allocator_may_return_null=1" \
	  build/tsan/posenc_tests

.PHONY: test-fuzz fuzz fuzz-bins tsan test-readme

# The README's C program, built and run through its install-and-link lines
# exactly as printed (a scratch $$HOME; `make install PREFIX="$$HOME/.local"`
# forwarded to this tree), and its Python blocks (tests/readme_install.sh).
.PHONY: test-readme-c
test-readme-c: $(PY_EXT)
	bash tests/readme_install.sh $(BUILD)/python

# Every `posenc ...` line of the README's fenced blocks, run as written.
test-readme: $(POSENC)
	bash tests/readme_examples.sh $(POSENC)

$(FUZZ_OBJ): fuzz/fuzz.h

$(FUZZ_CLI_LIB): $(filter-out $(BUILD)/cli/main.o,$(CLI_OBJ) $(EXP_OBJ))
	@rm -f $@
	$(Q)$(call say,AR,$@)$(AR) rcs $@ $^

$(BUILD)/fuzz/replay_%: $(BUILD)/fuzz/fuzz_%.o $(BUILD)/fuzz/replay.o $(FUZZ_CLI_LIB) $(STATIC_LIB)
	$(Q)$(call say,LD,$@)$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/fuzz/replay.o $(FUZZ_CLI_LIB) $(FUZZ_LIBS) $(LDFLAGS)

$(BUILD)/fuzz/libfuzzer_%: $(BUILD)/fuzz/fuzz_%.o $(FUZZ_CLI_LIB) $(STATIC_LIB)
	$(Q)$(call say,LD,$@)$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_CLI_LIB) $(FUZZ_LIBS) $(LDFLAGS)

test-fuzz: $(FUZZ_REPLAY)
	$(foreach t,$(FUZZ_TARGETS),$(BUILD)/fuzz/replay_$(t) fuzz/corpus/$(t) &&) true

fuzz-bins: $(FUZZ_BIN)

fuzz:
	@$(SETUP_DEPS) build clang libclang-rt-14-dev
	$(MAKE) --no-print-directory BUILD=build/fuzz CC=clang EXTRA_CFLAGS="$(FUZZ_FLAGS)" \
	  LDFLAGS="-fsanitize=address,undefined" fuzz-bins
	$(foreach t,$(FUZZ_TARGETS),mkdir -p build/fuzz/corpus-$(t) build/fuzz/artifacts-$(t) && \
	  build/fuzz/fuzz/libfuzzer_$(t) -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	    -rss_limit_mb=2048 -print_final_stats=1 $(patsubst %,-dict=%,$(wildcard fuzz/$(t).dict)) \
	    -artifact_prefix=build/fuzz/artifacts-$(t)/ build/fuzz/corpus-$(t) fuzz/corpus/$(t) &&) true

# ---------------------------------------------------------------- python
# The CPython extension `posenc` for Debian's /usr/bin/python3 (never the
# python3 first on PATH), built against python3-dev and linked with the
# static library (its symbols kept private) so that $(BUILD)/python/posenc*.so
# is self-contained. `make test-python` runs python/tests with pytest;
# scripts/setup-deps.sh installs python3-dev and -numpy (group python; the
# test stack: group python-test) with apt when missing. Sanitizer builds skip it: an instrumented module cannot load
# into an uninstrumented interpreter.
PYTHON := /usr/bin/python3
PY_SRC := $(wildcard python/*.c)
PY_OBJ := $(PY_SRC:python/%.c=$(BUILD)/python/obj/%.o)
PY_SUFFIX = $(shell $(PYTHON) -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))" 2>/dev/null || echo .so)
PY_INCLUDE = $(shell $(PYTHON) -c "import sysconfig; print(sysconfig.get_paths()['include'])")
PY_EXT := $(BUILD)/python/posenc$(PY_SUFFIX)
PY_CFLAGS = $(WARNFLAGS) $(FPFLAGS) -Iinclude -isystem $(PY_INCLUDE) $(CPPFLAGS) $(CFLAGS) -fPIC -fvisibility=hidden

.PHONY: python test-python
python: $(PY_EXT) | deps-python

# The generic object rule does not see headers under src/io/.
$(BUILD)/src/io/safetensors.o $(BUILD)/src/io/safetensors_write.o: src/io/safetensors_internal.h
$(BUILD)/src/io/gguf.o $(BUILD)/tests/test_gguf.o $(BUILD)/fuzz/fuzz_gguf.o: src/io/gguf.h

$(BUILD)/python/obj/%.o: python/%.c $(wildcard python/*.h) include/posenc.h
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$<)$(CC) $(PY_CFLAGS) -c $< -o $@

$(PY_EXT): $(PY_OBJ) $(STATIC_LIB)
	$(Q)$(call say,LD,$@)$(CC) -shared $(THREADFLAGS) -o $@ $(PY_OBJ) $(STATIC_LIB) -Wl,--exclude-libs,ALL $(LDLIBS_LIB) $(LDFLAGS)

# -P: the current directory stays off sys.path, so a posenc*.so that
# `pip install -e .` left at the top of the tree cannot shadow the build's.
test-python: $(PY_EXT) $(POSENC) | deps-test
	PYTHONPATH=$(BUILD)/python PYTHONDONTWRITEBYTECODE=1 POSENC=$(POSENC) \
	  $(PYTHON) -P -m pytest -q -p no:cacheprovider python/tests

# `pip install .` as the README says it, offline (no index, no machine
# pip settings): into a fresh venv that sees Debian's numpy, setuptools and
# wheel, built from the sources by setup.py; then import it and call it.
PIP_VENV := $(BUILD)/pip-venv
.PHONY: test-pip
test-pip: | deps-test
	rm -rf $(PIP_VENV)
	$(PYTHON) -m venv --system-site-packages --without-pip $(PIP_VENV)
	env -u PIP_FIND_LINKS PIP_NO_INDEX=1 PIP_CONFIG_FILE=/dev/null \
	  $(PIP_VENV)/bin/python -m pip install -q --no-build-isolation .
	cd $(PIP_VENV) && bin/python -c "import sys, numpy as np, posenc; \
	  assert posenc.__file__.startswith(sys.prefix), posenc.__file__; \
	  y = posenc.rope_apply(np.ones((2, 3, 4, 8), np.float32), posenc.freqs_default(8), token_axis=1); \
	  assert y.shape == (2, 3, 4, 8) and np.array_equal(y[0], y[1]); \
	  print('pip-installed posenc', posenc.__version__, posenc.kernels_name(), 'in', sys.prefix)"


# -------------------------------------------------------------- explorer
# The interactive page (explorer/, docs/EXPLORER.md): libposenc's portable C
# (the scalar kernel set; no AVX files, no cJSON config reader) and the shim
# explorer/explorer.c compiled to WebAssembly by Debian's emscripten, its
# .wasm embedded in the .js (-sSINGLE_FILE), then that, uPlot (npm, pinned in
# package-lock.json) and the page's own script and CSS inlined into one
# build/explorer/index.html that opens from file://. `make run` copies it to
# tour/explorer/index.html. `make test-browser` (run by .ci/run) loads the
# tour and the explorer in Debian's chromium through playwright-core and
# holds the page's numbers against the CLI's JSON (tests/browser/).
EMCC ?= emcc
# Debian's emcc runs its optimizer under this machine's node, which finds
# Debian's JavaScript modules only here.
EM_ENV := NODE_PATH=/usr/share/nodejs
EM_SRC := $(filter-out src/config%.c src/plan%.c src/families%.c src/check.c,$(wildcard src/*.c)) \
          $(addprefix src/kernels/,dispatch.c scalar.c half.c pass_through.c) cli/random.c explorer/explorer.c
EM_FLAGS := $(WARNFLAGS) $(FPFLAGS) $(PE_CPPFLAGS) -O2 -sSINGLE_FILE=1 -sMODULARIZE=1 \
            -sEXPORT_NAME=createPosenc -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=web,node \
            -sEXPORTED_FUNCTIONS=_malloc,_free -sEXPORTED_RUNTIME_METHODS=ccall,UTF8ToString
EXPLORER := $(BUILD)/explorer/index.html
WEB_STAMP := build/.deps-web-ok
NPM_STAMP := node_modules/.posenc-npm-ci

$(WEB_STAMP): scripts/setup-deps.sh
	@$(SETUP_DEPS) web

# npm ci: exactly the locked versions, node_modules/ rebuilt from the lockfile.
$(NPM_STAMP): package.json package-lock.json | $(WEB_STAMP)
	npm ci --no-audit --no-fund
	@touch $@

$(BUILD)/explorer/posenc_wasm.js: $(EM_SRC) $(wildcard include/*.h src/*.h src/kernels/*.h cli/random.h) explorer/explorer.h | $(WEB_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(call say,EMCC,$@)$(EM_ENV) $(EMCC) $(EM_FLAGS) $(EM_SRC) -o $@

$(EXPLORER): explorer/index.html explorer/app.js explorer/explorer.css explorer/bundle.mjs \
             $(BUILD)/explorer/posenc_wasm.js $(NPM_STAMP)
	$(Q)$(call say,GEN,$@)node explorer/bundle.mjs explorer/index.html $@ explorer $(BUILD)/explorer node_modules/uplot/dist

BROWSER_OUT := $(BUILD)/browser
BROWSER_STAMP := build/.deps-browser-ok
$(BROWSER_STAMP): scripts/setup-deps.sh
	@$(SETUP_DEPS) browser

test-browser: $(EXPLORER) $(POSENC) $(NPM_STAMP) | $(BROWSER_STAMP)
	rm -rf $(BROWSER_OUT) && mkdir -p $(BROWSER_OUT)
	mkdir -p $(BROWSER_OUT)/tour/explorer && cp $(EXPLORER) $(BROWSER_OUT)/tour/explorer/index.html
	$(POSENC) tour --no-experiment --out $(BROWSER_OUT)/tour >/dev/null
	node tests/browser/run.mjs --posenc $(POSENC) --tour $(BROWSER_OUT)/tour --out $(BROWSER_OUT)

.PHONY: explorer test-browser
explorer: $(EXPLORER) | deps

install: lib cli
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(BINDIR) \
	           $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 644 include/posenc.h $(DESTDIR)$(INCLUDEDIR)/
	install -m 644 $(STATIC_LIB) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED_LIB) $(DESTDIR)$(LIBDIR)/
	ln -sf libposenc.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libposenc.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|' posenc.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/posenc.pc
	install -m 755 $(POSENC) $(DESTDIR)$(BINDIR)/
	@if [ -z "$(DESTDIR)" ]; then bash scripts/after-install.sh "$(LIBDIR)" "$(BINDIR)"; fi

uninstall:
	rm -f $(DESTDIR)$(INCLUDEDIR)/posenc.h $(DESTDIR)$(LIBDIR)/libposenc.* \
	      $(DESTDIR)$(LIBDIR)/pkgconfig/posenc.pc $(DESTDIR)$(BINDIR)/posenc

clean:
	rm -rf build
	rm -f posenc.*.so  # left by `pip install -e .` (setup.py)

# The tour's experiment claims judged on made-up tables, and its fault hook
# (tests/cli/test_tour.c): the tour's, figures' and plot objects, no main.
TOUR_TEST_BIN := $(BUILD)/tour_tests
TOUR_TEST_OBJ := $(BUILD)/tests/cli/test_tour.o
TOUR_TEST_CLI_OBJ := $(TOUR_OBJ) $(FIGURES_OBJ) $(PLOT_OBJ) $(BUILD)/cli/random.o $(BUILD)/cli/atomic_file.o
$(BUILD)/cli/tour/tour_experiment.o $(TOUR_TEST_OBJ): $(wildcard experiment/*.h)
$(TOUR_TEST_BIN): $(TOUR_TEST_OBJ) $(BUILD)/tests/runner.o $(STATIC_LIB) $(EXP_OBJ) $(TOUR_TEST_CLI_OBJ)
	$(Q)$(call say,LD,$@)$(CC) $(ALL_CFLAGS) -o $@ $(TOUR_TEST_OBJ) $(BUILD)/tests/runner.o \
	  $(TOUR_TEST_CLI_OBJ) $(EXP_OBJ) $(STATIC_LIB) $(LDLIBS_LIB) $(CAIRO_LIBS) $(EXP_LIBS) $(LDFLAGS)
.PHONY: test-tour
test-tour: $(TOUR_TEST_BIN)
	$(TOUR_TEST_BIN)
# --------------------------------------------------------------- arm64
# make test-arm64 (run by .ci/run): the library, the C tests and the
# fuzz-corpus replay cross-built for AArch64 (Debian's gcc-aarch64-linux-gnu,
# cJSON through multiarch; scripts/setup-deps.sh --arm64 installs them on
# first use) in build/arm64/, run under qemu-aarch64-static: about two
# minutes on 2 shared cores. There the NEON kernel set is the automatic
# choice (getauxval(AT_HWCAP) reports Advanced SIMD), so the kernel tests
# check it against the scalar reference and against the stored AVX-512
# rotations (tests/test_kernels_x86_fixture.c), and every rotation, shift,
# M-RoPE and cache test runs through it. Emulation proves correctness, not
# speed. The replay leaves out fuzz_args: it needs the CLI, whose figures
# need an arm64 cairo. make bench-arm64 builds the whole CLI for AArch64
# (adding libcairo2-dev:arm64) and runs `posenc bench --quick` under qemu:
# it shows that bench builds and reports its ratios on ARM; under emulation
# the ratios mean nothing.
ARM64_CC ?= aarch64-linux-gnu-gcc
ARM64_BUILD := $(BUILD)/arm64
# The arm64 programs run with Debian's multiarch loader and C library
# (/lib/ld-linux-aarch64.so.1, libc6:arm64), not with `-L
# /usr/aarch64-linux-gnu`: that prefix supplies the cross toolchain's ld.so,
# which then loads the multiarch libc.so.6 of another Debian revision through
# /etc/ld.so.cache, and the mismatched pair hangs in the first pthread_create
# (2.36-8cross1 against 2.36-9+deb12u14): the suite never finished.
ARM64_RUN := qemu-aarch64-static
ARM64_FUZZ := $(filter-out args,$(FUZZ_TARGETS))
ARM64_MAKE = $(MAKE) --no-print-directory BUILD=$(ARM64_BUILD) CC=$(ARM64_CC)
.PHONY: test-arm64 bench-arm64
test-arm64:
	@$(SETUP_DEPS) build arm64
	+$(ARM64_MAKE) $(ARM64_BUILD)/posenc_tests $(ARM64_FUZZ:%=$(ARM64_BUILD)/fuzz/arm64_replay_%)
	$(ARM64_RUN) $(ARM64_BUILD)/posenc_tests
	$(foreach t,$(ARM64_FUZZ),$(ARM64_RUN) $(ARM64_BUILD)/fuzz/arm64_replay_$(t) fuzz/corpus/$(t) &&) true
bench-arm64:
	@$(SETUP_DEPS) build arm64 libcairo2-dev:arm64
	+$(ARM64_MAKE) $(ARM64_BUILD)/posenc
	$(ARM64_RUN) $(ARM64_BUILD)/posenc bench --quick

# Debian 12's gcc 12.2 for aarch64 stops with an internal compiler error
# (vect_transform_reduction) vectorizing fmax reductions in the figures and
# the tour (cli/figures_toy.c, cli/tour_claims.c); the commands' loops do not
# need vectors (bench/ keeps them: its baselines are loops to vectorize).
ifneq ($(filter aarch64-%,$(shell $(CC) -dumpmachine)),)
$(filter $(BUILD)/cli/%,$(CLI_OBJ)): ISAFLAGS += -fno-tree-vectorize
endif

# A replay without the CLI archive (no cairo for arm64 in make test-arm64).
$(BUILD)/fuzz/arm64_replay_%: $(BUILD)/fuzz/fuzz_%.o $(BUILD)/fuzz/replay.o $(STATIC_LIB)
	$(Q)$(call say,LD,$@)$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/fuzz/replay.o $(STATIC_LIB) $(LDLIBS_LIB) $(LDFLAGS)
