# SPDX-License-Identifier: Apache-2.0
# mk/synth.mk — install step, area flow and the Yosys half of lint (see Makefile, synth/*.py).
#
#   make deps                         Debian packages + pinned npm Yosys (scripts/deps.sh; idempotent)
#   make synth [UNITS=cp,setup]       per-unit area table -> out/synth/area.json, logs out/synth/<unit>.log
#              [SYNTH_JOBS=N]         units in parallel (default: number of cores)
#              [SYNTH_FLAGS=...]      extra synth/synth.py flags, e.g. --allow-warnings
#   make lint-yosys                   Yosys read + hierarchy/proc/check of rtl/files.f, struct-width probe
#
# Yosys is npm @yowasp/yosys (WebAssembly, pinned in package-lock.json), run through
# synth/yosys.mjs; node_modules is (re)installed by scripts/deps.sh when package-lock.json
# is newer than its stamp.
NPM_STAMP := node_modules/.pineda-npm-ci.stamp
UNITS ?=
SYNTH_JOBS ?=
SYNTH_FLAGS ?=

deps:
	bash scripts/deps.sh

$(NPM_STAMP): package.json package-lock.json
	bash scripts/deps.sh

synth: $(NPM_STAMP)
	$(PYTHON) synth/synth.py $(if $(strip $(UNITS)),--units $(UNITS)) $(if $(strip $(SYNTH_JOBS)),--jobs $(SYNTH_JOBS)) $(SYNTH_FLAGS)

lint-yosys: $(NPM_STAMP)
	$(PYTHON) synth/yosys_read.py

.PHONY: deps synth lint-yosys
