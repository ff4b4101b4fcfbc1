# SPDX-License-Identifier: Apache-2.0
# mk/rtl.mk — RTL file list and Verilator lint (see Makefile).
# RTL_FILES (every RTL source, package first) and RTL_LINT_TOPS (the modules also linted as their
# own top) come from units.toml through build/units.mk.
# Simulation-only checkers bound into a top by rtl/<dir>/<top>_bind.sv: only Verilator reads
# them (the models of mk/tb.mk, this lint), never Yosys.
RTL_BIND_FILES := $(wildcard rtl/*/*_bind.sv)
RTL_CHK_FILES := $(wildcard rtl/*/*_chk.sv)
VERILATOR ?= verilator

# -Wall lint of the full top and of every unit as its own top; any warning fails.
lint-verilator: units.toml rtl/lint.vlt $(RTL_FILES) $(RTL_BIND_FILES) $(RTL_CHK_FILES)
	@set -e; for t in $(RTL_LINT_TOPS); do \
	  echo "verilator lint: $$t"; \
	  $(VERILATOR) --lint-only -Wall --top-module $$t rtl/lint.vlt $(RTL_FILES) $(RTL_CHK_FILES) \
	    $$(ls rtl/*/$${t}_bind.sv 2>/dev/null); \
	done
	@# --lint-only stops before Verilator orders the logic, so circular combinational logic
	@# (UNOPTFLAT: e.g. a false loop through an always block that reads a ready and writes a
	@# valid) shows only when a model is generated: the whole top's C++ as the simulation builds
	@# it (assertions on, the lint and style warnings left to the -Wall runs above), no compile;
	@# any warning fails.
	@echo "verilator --cc: pineda_top (UNOPTFLAT and the other scheduling warnings)"
	@rm -rf $(BUILD)/lint_cc && $(VERILATOR) --cc --assert -Wno-lint -Wno-style --top-module pineda_top \
	  -Mdir $(BUILD)/lint_cc rtl/lint.vlt $(RTL_FILES) $(RTL_CHK_FILES) rtl/top/pineda_top_bind.sv > /dev/null

.PHONY: lint-verilator
