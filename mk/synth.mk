# SPDX-License-Identifier: Apache-2.0
# mk/synth.mk — install step, area flow and the Yosys half of lint (see Makefile, synth/*.py).
#
#   make deps                         Debian packages + pinned npm Yosys (scripts/deps.sh; idempotent)
#   make synth                        whole-GPU table: every module of pineda_top synthesised once
#                                     (cached in out/synth/cache), pineda_top with NumRast 1/2/4,
#                                     block RAM, flip-flop arrays, logic depth -> out/synth/area.json
#              [SYNTH_JOBS=N]         modules in parallel (default: number of cores)
#              [SYNTH_FLAGS=...]      extra synth/synth.py flags, e.g. --allow-warnings, --rast 1
#   make synth SYNTH_TOP=tex          the same flow for one unit as its top (children black-boxed,
#                                     same cache) -> out/synth/area-tex.json; SYNTH_TOP=om_blend@Lanes=4
#   make synth UNITS=cp,setup         the old per-unit flow: each unit flattened on its own with its
#                                     default parameters (out/synth/units.json, logs out/synth/<unit>.log)
#   make synth-check                  make synth, then compare with synth/baseline.json (5% margin)
#   make synth-baseline               make synth, then rewrite synth/baseline.json (commit it)
#   make synth-selftest               fast test of the flow's bookkeeping (no Yosys)
#   make lint-yosys                   Yosys read + hierarchy/proc/check of the RTL files (units.toml), struct-width probe
#
# Yosys is npm @yowasp/yosys (WebAssembly, pinned in package-lock.json), run through
# synth/yosys.mjs; node_modules is (re)installed by scripts/deps.sh when package-lock.json
# is newer than its stamp.
NPM_STAMP := node_modules/.pineda-npm-ci.stamp
UNITS ?=
SYNTH_JOBS ?=
SYNTH_FLAGS ?=
SYNTH_TOP ?=

deps:
	bash scripts/deps.sh

$(NPM_STAMP): package.json package-lock.json
	bash scripts/deps.sh

synth: $(NPM_STAMP)
	$(PYTHON) synth/synth.py $(if $(strip $(UNITS)),--units $(UNITS)) $(if $(strip $(SYNTH_JOBS)),--jobs $(SYNTH_JOBS)) $(if $(strip $(SYNTH_TOP)),--top $(SYNTH_TOP)) $(SYNTH_FLAGS)

SYNTH_MARGIN ?= 5

synth-check: synth
	$(PYTHON) synth/check_baseline.py --margin $(SYNTH_MARGIN)
	$(PYTHON) synth/check_budget.py

# Per unit: LUT4 today against its budget, FF, BRAM, logic levels against the 16-level limit
# (synth/budget.json; fails only for groups marked "enforce"). Reads out/synth/area.json.
synth-budget:
	$(PYTHON) synth/check_budget.py

synth-baseline: synth
	$(PYTHON) synth/check_baseline.py --update

synth-selftest:
	$(PYTHON) synth/test_synth_flow.py

# Modules read and parsed but kept black boxes (no proc) in the Yosys read; none today (ZS's
# state update is per-entry since its whole-array process kept proc_dlatch busy > 10 minutes).
LINT_YOSYS_BLACKBOX ?=
lint-yosys: $(NPM_STAMP)
	$(PYTHON) synth/yosys_read.py --blackbox "$(LINT_YOSYS_BLACKBOX)"

.PHONY: deps synth synth-check synth-budget synth-baseline synth-selftest lint-yosys
