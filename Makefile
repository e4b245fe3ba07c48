# apns-mock: `make run` serves on the embedded defaults, `make test` runs everything CI runs.
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)

VENV := Tests/integration/.venv
PYTHON := $(VENV)/bin/python
DEBUG_BIN := .build/debug/apns-mock
RELEASE_BIN := .build/release/apns-mock
# The release binary links the Swift runtime and Foundation statically: it starts faster (no symbol lookups in a
# dozen Swift libraries), calls the runtime directly, and runs without /opt/swift on the machine
# (docs/performance.md).
RELEASE_BUILD := swift build -c release --static-swift-stdlib
# Bounded runs: no test may hang CI.
SWIFT_TEST_TIMEOUT ?= 900
PYTEST_TIMEOUT ?= 900

.PHONY: all deps deps-test build run test test-swift test-integration test-asan test-tsan venv bench bench-check clean conformance stress crash-test fuzz fuzz-build test-fuzz

all: build

deps:
	@scripts/install-deps

# The test suite also drives the web inspector in headless Chromium.
deps-test:
	@scripts/install-deps --with-browser

build: deps
	$(RELEASE_BUILD)

run: build
	$(RELEASE_BIN) serve

# `make install` (PREFIX=/usr/local by default; DESTDIR for packaging) puts `apns-mock` on the PATH.
PREFIX ?= /usr/local
.PHONY: install
install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/apns-mock

# `make dist`: the release tarball in .build/dist (binary with the Swift runtime linked in, stripped; README;
# SHA-256 sums). `make test-dist` runs it in a minimal Debian 12 root (debootstrap; root needed); `make
# test-container` builds ./Dockerfile with buildah on that root and pushes through the container. Both need the
# release build, so CI's `make test` runs neither (times in the README, "Install it anywhere").
DIST_DIR := .build/dist
.PHONY: dist test-dist test-container
dist: build
	scripts/make-dist $(RELEASE_BIN) $(DIST_DIR)

test-dist: dist
	scripts/test-dist $$(ls -t $(DIST_DIR)/apns-mock-*.tar.gz | head -1)

test-container: test-dist
	scripts/test-container $$(ls -t $(DIST_DIR)/apns-mock-*.tar.gz | head -1)

$(VENV)/.installed: Tests/integration/requirements.txt
	@scripts/install-deps
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r Tests/integration/requirements.txt
	touch $@

venv: $(VENV)/.installed

# Build once (debug, tests included), then run the Swift suite and the real-client suite against that binary.
test: deps-test venv
	swift build --build-tests
	$(MAKE) --no-print-directory test-swift test-integration test-fuzz

test-swift:
	timeout $(SWIFT_TEST_TIMEOUT) swift test --skip-build

test-integration:
	APNS_MOCK_BIN=$(abspath $(DEBUG_BIN)) timeout $(PYTEST_TIMEOUT) $(PYTHON) -m pytest -q Tests/integration

test-asan: deps
	swift build --build-tests --sanitize=address --scratch-path .build-asan
	LSAN_OPTIONS=suppressions=$(abspath .lsan-suppressions):print_suppressions=0 \
	  timeout $(SWIFT_TEST_TIMEOUT) swift test --skip-build --sanitize=address --scratch-path .build-asan

# The Swift suite under ThreadSanitizer (shared state is guarded by HTTPContract.Locked, a pthread mutex TSan sees).
test-tsan: deps
	swift build --build-tests --sanitize=thread --scratch-path .build-tsan
	timeout $(SWIFT_TEST_TIMEOUT) swift test --skip-build --sanitize=thread --scratch-path .build-tsan

bench: build
	scripts/bench

# The thresholds a change must keep (scripts/bench-thresholds.json): instructions per push under callgrind and the
# durable LA update's h2load ratio to nghttpd; exit 1 when one is not met (docs/performance.md, "Thresholds").
bench-check: build
	@scripts/install-deps --with-valgrind
	scripts/bench --check

# The same, plus cost as work grows: 1,000,000 Live Activity updates per store, to one token and to 100,000 tokens.
.PHONY: bench-long
bench-long: build
	scripts/bench --long

# The attack round (docs/reliability.md): each attack bounded, a normal client alongside; prints the table.
# `make test` runs the short round (Tests/integration/test_attack_round.py).
stress: deps venv
	$(RELEASE_BUILD)
	APNS_MOCK_BIN=$(abspath $(RELEASE_BIN)) $(PYTHON) Tests/stress/attack_round.py

# libFuzzer targets for every parser of untrusted bytes (Fuzz/Targets), each from its seed corpus in Fuzz/Corpus:
# `make fuzz SECONDS=600` runs each for SECONDS (default 10). `make test` runs each for FUZZ_TEST_SECONDS.
SECONDS_PER_TARGET := $(if $(SECONDS),$(SECONDS),10)
FUZZ_TEST_SECONDS ?= 3
fuzz-build: deps
	APNS_MOCK_FUZZ=1 swift build --product apns-mock-fuzz

fuzz: fuzz-build
	scripts/fuzz $(SECONDS_PER_TARGET)

test-fuzz: fuzz-build
	scripts/fuzz $(FUZZ_TEST_SECONDS)

# `make crash-test N=20` (or `make crash-test 20`): N kill -9 cycles under load; every acknowledged delivery and
# PRAGMA integrity_check are checked after each restart. `make test` runs 3.
ifneq ($(filter crash-test,$(MAKECMDGOALS)),)
CRASH_CYCLES := $(filter-out crash-test,$(MAKECMDGOALS))
N ?= $(if $(CRASH_CYCLES),$(firstword $(CRASH_CYCLES)),3)
$(CRASH_CYCLES): ; @:
endif
crash-test: deps venv
	$(RELEASE_BUILD)
	APNS_MOCK_BIN=$(abspath $(RELEASE_BIN)) $(PYTHON) Tests/stress/crash_test.py $(N)

clean:
	rm -rf .build .build-asan .build-tsan .build-fuzz $(VENV)

# Every sender adapter through every scenario; writes the adapter × rule matrix (docs/conformance.md).
# An adapter failing rules is a finding (exit 1); the runner failing to run (exit 2) stops the target.
CONFORMANCE_ADAPTERS ?= curl aioapns kalyke pyapns-client apns2 django-push-notifications apns-mock-push
conformance: deps venv
	swift build
	mkdir -p .build/conformance
	@for adapter in $(CONFORMANCE_ADAPTERS); do \
	  if [ $$adapter = apns-mock-push ] && ! $(DEBUG_BIN) --help | grep -q "^ *push "; then \
	    echo "$$adapter: skipped (this build has no apns-mock push)"; rm -f .build/conformance/$$adapter.json; continue; fi; \
	  $(DEBUG_BIN) conformance sender --adapter $$adapter --json .build/conformance/$$adapter.json > .build/conformance/$$adapter.txt 2>&1; \
	  status=$$?; echo "$$adapter: exit $$status"; \
	  if [ $$status -gt 1 ]; then tail -5 .build/conformance/$$adapter.txt; exit 1; fi; \
	done
	python3 scripts/conformance-matrix .build/conformance docs/conformance-matrix.md docs/conformance-matrix.html
