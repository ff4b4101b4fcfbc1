# SPDX-License-Identifier: Apache-2.0
# mk/cli.mk — the command-line tool build/pineda (tools/pineda/, README "The pineda tool"):
# render a model file (assimp), capture and replay command streams (runtime/capture_file.*) on the
# golden model, the Verilated RTL or both. Compiled like the harnesses (mk/tb.mk), linked with the
# Verilated pineda_top, CLI11 (header only), assimp and stb_image (textures).
PINEDA_CLI := $(BUILD)/pineda
CLI_SRCS := $(sort $(wildcard tools/pineda/*.cpp))
CLI_OBJS := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(CLI_SRCS))
CLI_LDLIBS :=

$(CLI_OBJS): $(BUILD)/obj/%.o: %.cpp $(BUILD)/vl/pineda_top/Vpineda_top__ALL.a
	@mkdir -p $(@D)
	$(OBJCACHE) $(CXX) $(TB_CXXFLAGS) -Iruntime -Itools/pineda -I$(BUILD)/vl/pineda_top -pthread -MMD -MP -c $< -o $@

$(PINEDA_CLI): $(CLI_OBJS) $(TOP_HARNESS_OBJS) $(SCENES_LIB) $(RUNTIME_LIB) $(MODEL_LIB) \
               $(BUILD)/vl/pineda_top/Vpineda_top__ALL.a $(BUILD)/vl/libverilated.a
	$(CXX) -pthread -o $@ $(CLI_OBJS) $(TOP_HARNESS_OBJS) $(SCENES_LIB) $(RUNTIME_LIB) $(MODEL_LIB) \
	  $(BUILD)/vl/pineda_top/Vpineda_top__ALL.a $(BUILD)/vl/libverilated.a $(SCENES_IO_LDLIBS) $(RUNTIME_LDLIBS) $(CLI_LDLIBS) $(TB_LDLIBS)

# pineda_sim writes capture files (--capture) through the runtime's capture_file.h.
$(BUILD)/obj/sim/pineda_sim.o $(BUILD)/obj/sim_r2/sim/pineda_sim.o $(BUILD)/obj/sim_r4/sim/pineda_sim.o: TB_CXXFLAGS += -Iruntime

cli: $(PINEDA_CLI)
build-all: $(PINEDA_CLI)

-include $(CLI_OBJS:.o=.d)

.PHONY: cli

# ---- VCD and a GTKWave save file for `make waves` (the Makefile's waves target runs waves-files).
# FORMAT=vcd: the FST window is converted to VCD with GTKWave's fst2vcd; with no WAVE_TO the window
# is VCD_WINDOW cycles from WAVE_FROM (a whole scene's VCD runs to gigabytes). Either way
# waves/<scene>.gtkw groups the signals per stream and per unit (scripts/gtkw.py, generated from
# contracts/defs.py BOUNDARIES and the waveform's own signal list).
FORMAT ?= fst
VCD_WINDOW ?= 4000
WAVE_TO_DEFAULT := 18446744073709551615
WAVE_TO_EFF = $(if $(and $(filter vcd,$(FORMAT)),$(filter $(WAVE_TO_DEFAULT),$(WAVE_TO))),$(shell echo $$(($(WAVE_FROM) + $(VCD_WINDOW)))),$(WAVE_TO))
waves-files:
	@case "$(FORMAT)" in fst|vcd) ;; *) echo "FORMAT must be fst or vcd"; exit 2;; esac
	@dump=waves/$(TEST).fst; \
	if [ "$(FORMAT)" = vcd ]; then \
	  fst2vcd -f waves/$(TEST).fst -o waves/$(TEST).vcd > /dev/null && dump=waves/$(TEST).vcd && \
	  echo "VCD:      waves/$(TEST).vcd ($$(du -h waves/$(TEST).vcd | cut -f1), cycles $(WAVE_FROM)..$(WAVE_TO_EFF))"; \
	fi; \
	fst2vcd -f waves/$(TEST).fst 2>/dev/null | sed '/^\$$enddefinitions/q' | $(PYTHON) scripts/gtkw.py - --dump $$dump -o waves/$(TEST).gtkw > /dev/null && \
	echo "signals:  waves/$(TEST).gtkw (grouped per stream and per unit)" && \
	echo "open it:  gtkwave waves/$(TEST).gtkw"
.PHONY: waves-files
