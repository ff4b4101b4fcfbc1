# SPDX-License-Identifier: Apache-2.0
# Pineda top-level Makefile. Targets: deps test sim lint synth waves bench (see README.md).
# Each part of the build lives in mk/<part>.mk; this file only ties them together.
SHELL := /bin/bash
.DEFAULT_GOAL := help
BUILD ?= build
CXX ?= g++
NPROC := $(shell nproc 2>/dev/null || echo 2)
CXXSTD := -std=c++17
CXXWARN := -Wall -Wextra -Wpedantic -Wshadow -Werror
CXXOPT ?= -O2
CXXFLAGS_COMMON := $(CXXSTD) $(CXXWARN) $(CXXOPT) -g -Icpp_model -Icpp_model/common
PYTHON ?= python3

help:
	@echo "make deps   install Debian packages and the pinned npm Yosys (idempotent)"
	@echo "make test   every test; ends with 'N passed, N failed'"
	@echo "make test-quick  the developers' tier: changed units, model, runtime, a few scenes (minutes)"
	@echo "make test-long  the tests and the opt-in suites (2 rasterizers)"
	@echo "make sim    the regression: every scene through RTL and model, PNGs in out/sim"
	@echo "make lint   Verilator -Wall lint and a Yosys read of every RTL module"
	@echo "make synth  whole-GPU area/depth table (out/synth/area.json; docs/synthesis.md)"
	@echo "make waves TEST=<scene> [FORMAT=vcd]  re-run one scene with an FST (or VCD) dump and a GTKWave save file"
	@echo "make bench  per-scene cycles and unit utilisation (out/bench/bench.json)"

# The unit manifest (units.toml) as make variables: RTL_FILES, RTL_LINT_TOPS, the Verilated models
# and the unit harnesses (scripts/units.py; make regenerates it when the manifest changes).
-include $(BUILD)/units.mk
$(BUILD)/units.mk: units.toml scripts/units.py
	@$(PYTHON) scripts/units.py make --out $@
include mk/contract.mk
include mk/model.mk
include mk/rtl.mk
include mk/tb.mk
include mk/synth.mk
include mk/runtime.mk
include mk/san.mk
include mk/fuzz.mk
include mk/coverage.mk
include mk/cli.mk

# ---------------------------------------------------------------- the user-facing targets
SIM_ARGS ?=
TEST ?=
SEED ?= 1
SCENE_SEED ?= 1
LATENCY ?= 200
JITTER ?= 0
BANDWIDTH ?= 32
THROTTLE ?= 0
WAVE_FROM ?= 0
WAVE_TO ?= 18446744073709551615

build-all: $(PINEDA_SIM) $(MODEL_TEST_BIN) $(RTL_UNIT_TESTS) $(RUNTIME_ALL) $(SAN_ALL) $(FUZZ_BINS)

# The regression: every scene through RTL and model, PNGs in out/sim, a table and a summary.
sim: deps
	@$(MAKE) -s $(PINEDA_SIM)
	$(PINEDA_SIM) --out out/sim --seed $(SEED) --scene-seed $(SCENE_SEED) --latency $(LATENCY) --jitter $(JITTER) --bandwidth $(BANDWIDTH) \
	  --throttle $(THROTTLE) $(SIM_ARGS) $(TEST)

# Every test; the last line is "N passed, N failed".
test: deps
	@$(MAKE) -s -j$(NPROC) build-all
	@$(PYTHON) tests/run_all.py --build $(BUILD)

# The developers' quick tier (a few minutes with warm builds; CI runs `make test`): contract, lint
# when rtl/ changed, model and runtime tests, the RTL unit tests of the units changed since
# QUICK_BASE (default: the merge base with main; uncommitted files count), a handful of scenes.
QUICK_BASE ?=
test-quick: deps
	@$(MAKE) -s -j$(NPROC) $$($(PYTHON) tests/run_all.py --build $(BUILD) --quick --base "$(QUICK_BASE)" --targets)
	@$(PYTHON) tests/run_all.py --build $(BUILD) --quick --base "$(QUICK_BASE)"

# The default suite and the opt-in suites (tests/run_all.py LONG_SUITES: the 2-rasterizer scenes).
test-long: deps
	@$(MAKE) -s -j$(NPROC) build-all build-long
	@$(PYTHON) tests/run_all.py --build $(BUILD) --long
# Per scene: cycles, per-unit busy/stalled/starved from the RTL counters, rates vs peak; then the
# depth scenes again with CONTROL.NO_FAST_CLEAR (depth bytes per pixel with and without fast clear).
DEPTH_BENCH ?= ds_bunny ds_bunny_4x ds_interpenetrate ds_interpenetrate_4x
bench: deps
	@$(MAKE) -s $(PINEDA_SIM)
	$(PINEDA_SIM) --out out/bench --json out/bench/bench.json --label bench --latency $(LATENCY) \
	  --bandwidth $(BANDWIDTH) $(SIM_ARGS) $(TEST)
	@$(PYTHON) scripts/bench_table.py out/bench/bench.json
	$(PINEDA_SIM) --out out/bench/no_fast_clear --json out/bench/no_fast_clear.json --label no_fast_clear \
	  --latency $(LATENCY) --bandwidth $(BANDWIDTH) --no-fast-clear $(SIM_ARGS) $(DEPTH_BENCH) > /dev/null
	@$(PYTHON) scripts/bench_table.py --fast-clear out/bench/bench.json out/bench/no_fast_clear.json
	@$(MAKE) -s $(BUILD)/tests/rtl_cp && $(BUILD)/tests/rtl_cp "[.bench]" | sed -n '/^buffer/,/^(dw/p'
	@$(MAKE) -s $(RUNTIME_BENCH) && $(RUNTIME_BENCH)

# Re-runs one scene with an FST dump (optionally a cycle window), FORMAT=vcd also as VCD (mk/cli.mk),
# writes a GTKWave save file grouping the signals, and says how to open it.
waves: deps
	@test -n "$(TEST)" || { echo "usage: make waves TEST=<scene> [FORMAT=fst|vcd SEED= LATENCY= JITTER= BANDWIDTH= THROTTLE= WAVE_FROM= WAVE_TO=]"; exit 2; }
	@$(MAKE) -s $(PINEDA_SIM)
	@mkdir -p waves
	@$(PINEDA_SIM) --out out/waves --seed $(SEED) --scene-seed $(SCENE_SEED) --latency $(LATENCY) --jitter $(JITTER) --bandwidth $(BANDWIDTH) \
	  --throttle $(THROTTLE) --fst waves/$(TEST).fst --wave-from $(WAVE_FROM) --wave-to $(WAVE_TO_EFF) $(TEST) | tail -3
	@echo "waveform: waves/$(TEST).fst ($$(du -h waves/$(TEST).fst | cut -f1))"
	@$(MAKE) -s --no-print-directory waves-files
	@if [ -n "$(WAVE_CHECK)" ]; then fst2vcd -f waves/$(TEST).fst 2>/dev/null | grep -q 'enddefinitions' \
	  && echo "fst2vcd (GTKWave) reads waves/$(TEST).fst" || { echo "waves/$(TEST).fst is not readable"; exit 1; }; fi

# Both halves at once (Verilator and Yosys are single-threaded here): about half the wall time.
lint:
	@$(MAKE) --no-print-directory -j2 lint-verilator lint-yosys

clean:
	rm -rf $(BUILD) out

.PHONY: help sim test test-quick test-long bench waves lint clean build-all
