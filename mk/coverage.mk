# SPDX-License-Identifier: Apache-2.0
# mk/coverage.mk — `make coverage`: the default RTL unit suite rebuilt with Verilator line and
# toggle coverage into build/cov/ (its own Verilated models, runtime and harness objects), run,
# merged with verilator_coverage, annotated, and summarised per unit (scripts/coverage_report.py).
# Opt-in: not part of `make test`. Outputs in out/coverage/: merged.dat, annotated/ (sources
# with counts; lines under 1 hit marked), coverage.json, rtl_<unit>.log.
# The harnesses are unchanged: tests/coverage/cov_dump.cpp wraps VerilatedContext's destructor
# at link time so every context writes its coverage before it goes.
COV_BUILD := $(BUILD)/cov
COV_OUT := out/coverage
COV_UNITS := cp dma ia setup coarse_raster fine_raster pixel_writer raster_array fp32 vtx index_fetch \
             vertex_tags vertex_fetch pa
COV_DUMP_OBJ := $(COV_BUILD)/obj/tests/coverage/cov_dump.o

$(BUILD)/obj/tests/coverage/cov_dump.o: tests/coverage/cov_dump.cpp
	@mkdir -p $(@D)
	$(CXX) $(TB_CXXFLAGS) -c $< -o $@

coverage: deps
	@$(MAKE) -s BUILD=$(COV_BUILD) VL_COV="--coverage-line --coverage-toggle" \
	  VL_RT_SRCS="verilated.cpp verilated_threads.cpp verilated_fst_c.cpp verilated_cov.cpp" \
	  TB_LDLIBS="-lz -lpthread $(COV_DUMP_OBJ) -Wl,--wrap=_ZN16VerilatedContextD1Ev" \
	  $(COV_DUMP_OBJ) $(patsubst %,$(COV_BUILD)/tests/rtl_%,$(COV_UNITS))
	@rm -rf $(COV_OUT) && mkdir -p $(COV_OUT)/raw
	@for t in $(COV_UNITS); do \
	  PINEDA_COV_DIR=$(COV_OUT)/raw $(COV_BUILD)/tests/rtl_$$t > $(COV_OUT)/rtl_$$t.log 2>&1 \
	    && echo "rtl_$$t: ok" || echo "rtl_$$t: FAILED (see $(COV_OUT)/rtl_$$t.log)"; done
	@find $(COV_OUT)/raw -name '*.dat' > $(COV_OUT)/raw.list
	@verilator_coverage --write $(COV_OUT)/merged.dat $$(cat $(COV_OUT)/raw.list) > /dev/null
	@verilator_coverage --annotate $(COV_OUT)/annotated --annotate-min 1 $(COV_OUT)/merged.dat | tail -2
	@$(PYTHON) scripts/coverage_report.py $(COV_OUT)/merged.dat --json $(COV_OUT)/coverage.json

.PHONY: coverage
