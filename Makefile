# iwarp-ns3 top-level Makefile: a thin wrapper around scripts/install-deps.sh, CMake and CTest.
#
#   make / make build   install missing Debian packages, configure build/ (Release) if needed, build
#   make test           build, run all CTest suites, then the Python tests in analysis/tests (if any)
#   make build-asan     the sanitizer build build-san/ (clang, ASan + UBSan + libFuzzer coverage): what CTest runs
#   make test-asan      the CTest suites in build-san/ (no pytest)
#   make demo           build and run $(DEMO_SCENARIO) with iwarp-sim into a new results/demo-<timestamp>
#   make bench          build and run scripts/bench.sh (if present)
#   make attributes-doc build and regenerate doc/attributes.md (iwarp-sim attributes --markdown)
#   make keys-doc       build and regenerate doc/scenario-format.md's key tables and doc/scenario.schema.json
#   make install        build and install into $(PREFIX) (default /usr/local; DESTDIR=... stages it)
#   make package        build and write the Debian package $(BUILD_DIR)/iwarp-ns3_<version>_<arch>.deb (CPack)
#   make fuzz           build the libFuzzer targets in build-san/ and run each for $(FUZZ_SECONDS) s,
#                       $(FUZZ_JOBS) at a time
#   make fuzz-smoke     the same for $(FUZZ_SMOKE_SECONDS) s each with libFuzzer seed 1 (FUZZ_SEED) (what .ci/run runs);
#                       doc/fuzzing.md
#   make fuzz-seeds     regenerate the protocol targets' seed corpora in fuzz/corpus/
#   make clean          remove build/ and build-san/ (and build-asan/, build-fuzz/ of older versions)

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

PYTHON      ?= /usr/bin/python3
BUILD_DIR   ?= build
ASAN_DIR    ?= build-san
JOBS        ?= $(shell nproc)
CTEST_JOBS  ?= 2
# What `make test-asan` leaves out: the tests labelled release-only (CMakeLists.txt says why); ASAN_CTEST_ARGS= runs all.
ASAN_CTEST_ARGS ?= -LE release-only
# The sanitizer build, one for the sanitized suites and the fuzz targets (doc/ci.md): clang, ASan + UBSan, the
# library at -O1 with libFuzzer's coverage (what libFuzzer's documentation suggests) and line tables only, the
# test runner's own code at -O0 (CMakeLists.txt), no Python bindings (a sanitized module cannot be imported).
ASAN_CXX ?= clang++
ASAN_CMAKE_ARGS ?= -DCMAKE_CXX_COMPILER=$(ASAN_CXX) -DIWARP_SANITIZE=ON -DIWARP_FUZZ=ON -DIWARP_PYTHON=OFF \
                   -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only"
PYTEST_DIR  ?= analysis/tests
PREFIX      ?= /usr/local
DESTDIR     ?=

# The scenario `make demo` runs.  Each run writes a new folder results/demo-<UTC timestamp> (the runner
# refuses to overwrite one); iwarp-sim prints a short summary ending with that folder.
DEMO_SCENARIO ?= scenarios/two-hosts-latency.yaml
DEMO_OUT      ?= results/demo-$$(date -u +%Y%m%d-%H%M%S-%N | cut -c1-19)
BENCH_SCRIPT ?= scripts/bench.sh
# Fuzzing (doc/fuzzing.md): the targets live in the sanitizer build; FUZZ_TARGETS empty means every target.
FUZZ_DIR      ?= $(ASAN_DIR)
FUZZ_SECONDS  ?= 300
# The CI smoke: every committed reproducer whole, then each target this long (doc/ci.md says what 30 s costs).
FUZZ_SMOKE_SECONDS ?= 30
FUZZ_TARGETS  ?=
# Targets fuzzed at once: each fuzzes for FUZZ_SECONDS of wall time whatever runs beside it.
FUZZ_JOBS     ?= $(JOBS)

# LeakSanitizer works on this machine (checked: ptrace is allowed, ns-3's own allocations do not trip it), so
# leaks are reported.  Set ASAN_OPTIONS=detect_leaks=0 on a machine where LSan cannot run (e.g. some containers).
ASAN_OPTIONS  ?= detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1
UBSAN_OPTIONS ?= print_stacktrace=1:halt_on_error=1

.PHONY: all build deps configure test test-asan build-asan pytest demo bench attributes-doc keys-doc install package clean \
        build-fuzz fuzz fuzz-smoke fuzz-seeds

all: build

deps:
	@./scripts/install-deps.sh

# configure_dir(DIR, EXTRA_CMAKE_ARGS): configure when DIR holds no usable CMake build yet, or afresh (with a
# message) when it was configured with other arguments, as recorded in DIR/iwarp-configure-args (a build from
# before that record is taken as configured with these). Later changes to CMakeLists.txt or the globbed sources
# are picked up by `cmake --build` itself.
define configure_dir
	@if [ ! -f "$(1)/CMakeCache.txt" ] || { [ ! -f "$(1)/Makefile" ] && [ ! -f "$(1)/build.ninja" ]; }; then \
		echo "cmake -S . -B $(1) $(2)"; \
		cmake -S . -B "$(1)" $(2); \
	elif [ -f "$(1)/iwarp-configure-args" ] && [ "$$(cat "$(1)/iwarp-configure-args")" != '$(2)' ]; then \
		echo "$(1)/ was configured with other arguments; configuring it afresh:"; \
		echo "cmake --fresh -S . -B $(1) $(2)"; \
		cmake --fresh -S . -B "$(1)" $(2); \
	fi
	@printf '%s\n' '$(2)' > "$(1)/iwarp-configure-args"
endef

configure: deps
	$(call configure_dir,$(BUILD_DIR),-DCMAKE_BUILD_TYPE=Release)

build: configure
	cmake --build $(BUILD_DIR) -j$(JOBS)

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j$(CTEST_JOBS)
	@$(MAKE) --no-print-directory pytest

# Python tests (analysis scripts); skipped when there are none.
pytest:
	@if [ -d "$(PYTEST_DIR)" ] && [ -n "$$(find "$(PYTEST_DIR)" -name 'test_*.py' -o -name '*_test.py' | head -n1)" ]; then \
		if ! $(PYTHON) -c 'import pytest' 2>/dev/null; then \
			echo "pytest is not installed for $(PYTHON): add python3-pytest to PACKAGES in scripts/install-deps.sh" >&2; \
			exit 1; \
		fi; \
		echo "PYTHONPATH=$(BUILD_DIR)/python $(PYTHON) -m pytest -q $(PYTEST_DIR)"; \
		PYTHONPATH="$(CURDIR)/$(BUILD_DIR)/python$${PYTHONPATH:+:$$PYTHONPATH}" $(PYTHON) -m pytest -q "$(PYTEST_DIR)"; \
	else \
		echo "no Python tests in $(PYTEST_DIR), skipping pytest"; \
	fi

build-asan:
	@./scripts/install-deps.sh fuzz
	$(call configure_dir,$(ASAN_DIR),$(ASAN_CMAKE_ARGS))
	cmake --build $(ASAN_DIR) -j$(JOBS) --target iwarp-tested

test-asan: build-asan
	cd $(ASAN_DIR) && ASAN_OPTIONS='$(ASAN_OPTIONS)' UBSAN_OPTIONS='$(UBSAN_OPTIONS)' \
		ctest --output-on-failure -j$(CTEST_JOBS) $(ASAN_CTEST_ARGS)

build-fuzz:
	@./scripts/install-deps.sh fuzz
	$(call configure_dir,$(FUZZ_DIR),$(ASAN_CMAKE_ARGS))
	cmake --build $(FUZZ_DIR) --target fuzz-all -j$(JOBS)

fuzz: build-fuzz
	fuzz/run.sh -s $(FUZZ_SECONDS) -b $(FUZZ_DIR) -j $(FUZZ_JOBS) $(FUZZ_TARGETS)

fuzz-smoke:
	@FUZZ_SEED=$${FUZZ_SEED:-1} $(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS)

fuzz-seeds: build-fuzz
	$(FUZZ_DIR)/fuzz/make-seeds fuzz/corpus

demo: build
	@out="$(DEMO_OUT)"; \
	echo "$(BUILD_DIR)/iwarp-sim run $(DEMO_SCENARIO) --out $$out"; \
	$(BUILD_DIR)/iwarp-sim run "$(DEMO_SCENARIO)" --out "$$out"

bench: build
	@if [ -f "$(BENCH_SCRIPT)" ]; then \
		echo "bash $(BENCH_SCRIPT)"; \
		bash "$(BENCH_SCRIPT)"; \
	else \
		echo "no benchmarks yet ($(BENCH_SCRIPT) does not exist)"; \
	fi

# The attribute reference; the CTest iwarp-attributes-doc fails while doc/attributes.md differs from it.
attributes-doc: build
	$(BUILD_DIR)/iwarp-sim attributes --markdown > doc/attributes.md.tmp
	mv doc/attributes.md.tmp doc/attributes.md

# The key tables and the JSON Schema; the CTest iwarp-keys-doc fails while the files differ from them.
keys-doc: build
	cmake -DSIM=$(BUILD_DIR)/iwarp-sim -DSOURCE_DIR=$(CURDIR) -DMODE=update -P test/check-keys-doc.cmake

# What gets installed where: cmake/iwarp-install.cmake. The Python package goes where /usr/bin/python3 reads it for
# $(PREFIX) (/usr, /usr/local, or a venv made with --system-site-packages).
install: build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD_DIR) --prefix "$(PREFIX)"

# Install it with: apt-get install ./$(BUILD_DIR)/iwarp-ns3_<version>_<arch>.deb (cmake/iwarp-package.cmake)
package: build
	cmake --build $(BUILD_DIR) --target package

clean:
	rm -rf $(BUILD_DIR) $(ASAN_DIR) $(FUZZ_DIR) build-asan build-fuzz
