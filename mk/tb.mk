# SPDX-License-Identifier: Apache-2.0
# Verilator builds and the C++ harnesses that drive them.
#
# Each Verilated model (the full pineda_top and one per unit) is built once into
# build/vl/<top>/ and linked by every test that needs it. A model is rebuilt only when an RTL
# file, the waiver file or the flags below change (the flags are kept in a stamp file).
VERILATOR ?= verilator
VL_ROOT := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)
VL_INC := -isystem $(VL_ROOT)/include -isystem $(VL_ROOT)/include/vltstd
OBJCACHE := $(shell command -v ccache 2>/dev/null)
VL_FLAGS := --cc --build --assert --x-assign unique --x-initial unique \
            --trace-fst --trace-structs -Wno-fatal -Wno-lint -Wno-style \
            -CFLAGS -std=c++17 -MAKEFLAGS "OPT_FAST=-O2 OPT_SLOW=-O1 OPT_GLOBAL=-O2 OBJCACHE=$(OBJCACHE)" $(VL_COV)
TB_CXXFLAGS := $(CXXSTD) -Wall -Wextra -Wshadow -Werror -O2 -g -Icpp_model -Icpp_model/common \
               -Isim -Iharness $(VL_INC) -DVM_TRACE=1 -DVM_TRACE_FST=1
TB_LDLIBS := -lz -lpthread
# Only the tests see tb/common (unit bench, random primitives): the product compiles without it.
$(BUILD)/obj/tb/%.o: TB_CXXFLAGS += -Itb/common

# Flags stamp: rebuild every model when VL_FLAGS change.
$(BUILD)/vl/flags.txt: FORCE
	@mkdir -p $(@D)
	@echo '$(VL_FLAGS)' | cmp -s - $@ || echo '$(VL_FLAGS)' > $@

# build/vl/<model>/<prefix>__ALL.a for every Verilated model of units.toml (VL_MODELS, through
# build/units.mk): a unit's top with its default parameters, or a [[model]] with -G overrides and
# its own class prefix. Verilator is given the package and the top's own file (and its bind file)
# and finds every other module through -y, so its dependency list (<prefix>__ver.d) names exactly
# the files the model uses; it becomes build/vl/<model>/deps.mk and a model rebuilds only when
# one of them, or the flags, change. Each of those files also gets an empty rule there (gcc's -MP),
# so that a source deleted since the last build rebuilds the model instead of stopping make.
RTL_DIRS := $(sort $(dir $(RTL_FILES)))
define VL_MODEL
$(BUILD)/vl/$(1)/$(VL_PREFIX_$(1))__ALL.a: rtl/lint.vlt $(BUILD)/vl/flags.txt $$(if $$(wildcard $(BUILD)/vl/$(1)/deps.mk),,FORCE)
	@mkdir -p $$(@D)
	@echo "verilator: building $(1)"
	+@$$(VERILATOR) $$(VL_FLAGS) $(VL_PARAMS_$(1)) --top-module $(VL_TOP_$(1)) --prefix $(VL_PREFIX_$(1)) -Mdir $$(@D) rtl/lint.vlt \
	  rtl/common/pineda_pkg.sv $$(filter %/$(VL_TOP_$(1)).sv %/$(VL_TOP_$(1))_bind.sv,$$(RTL_FILES) $$(RTL_BIND_FILES)) $$(addprefix -y ,$$(RTL_DIRS)) \
	  > $$(@D)/build.log 2>&1 \
	  || { tail -40 $$(@D)/build.log; exit 1; }
	@d="$$$$(sed 's/.*: *//' $$(@D)/$(VL_PREFIX_$(1))__ver.d | tr ' ' '\n' | grep -E '\.(sv|vlt)$$$$' | sort -u)"; \
	  { printf '$$@:'; for f in $$$$d; do printf ' %s' "$$$$f"; done; echo; for f in $$$$d; do echo "$$$$f:"; done; } > $$(@D)/deps.mk
-include $(BUILD)/vl/$(1)/deps.mk
endef
$(foreach m,$(VL_MODELS),$(eval $(call VL_MODEL,$(m))))
vl_lib = $(BUILD)/vl/$(1)/$(VL_PREFIX_$(1))__ALL.a

# The Verilator runtime, built once.
VL_RT_SRCS := verilated.cpp verilated_threads.cpp verilated_fst_c.cpp
VL_RT_OBJS := $(addprefix $(BUILD)/vl/rt/,$(VL_RT_SRCS:.cpp=.o))
$(BUILD)/vl/rt/%.o: $(VL_ROOT)/include/%.cpp
	@mkdir -p $(@D)
	$(OBJCACHE) $(CXX) $(CXXSTD) -O2 $(VL_INC) -DVM_TRACE=1 -DVM_TRACE_FST=1 -c $< -o $@
$(BUILD)/vl/libverilated.a: $(VL_RT_OBJS)
	ar rcs $@ $^

# The harness library (harness/: the Verilated pineda_top driven with the line-port DRAM model,
# stream taps and per-boundary comparison), which the product (build/pineda, the runtime's RTL
# backend) and the tests share; the unit tests' own helpers stay in tb/common. Harness and test
# objects are compiled against the Verilated model they use.
TB_COMMON_SRCS := harness/line_dram.cpp
TB_COMMON_OBJS := $(TB_COMMON_SRCS:%.cpp=$(BUILD)/obj/%.o)
$(BUILD)/obj/harness/line_dram.o: harness/line_dram.cpp
	@mkdir -p $(@D)
	$(OBJCACHE) $(CXX) $(TB_CXXFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/obj/harness/top_harness.o: harness/top_harness.cpp $(BUILD)/vl/pineda_top/Vpineda_top__ALL.a
	@mkdir -p $(@D)
	$(OBJCACHE) $(CXX) $(TB_CXXFLAGS) -I$(BUILD)/vl/pineda_top -MMD -MP -c $< -o $@
$(BUILD)/obj/sim/pineda_sim.o: sim/pineda_sim.cpp $(BUILD)/vl/pineda_top/Vpineda_top__ALL.a
	@mkdir -p $(@D)
	$(OBJCACHE) $(CXX) $(TB_CXXFLAGS) -I$(BUILD)/vl/pineda_top -MMD -MP -c $< -o $@

TOP_HARNESS_OBJS := $(BUILD)/obj/harness/top_harness.o $(TB_COMMON_OBJS)
PINEDA_SIM := $(BUILD)/pineda_sim
$(PINEDA_SIM): $(BUILD)/obj/sim/pineda_sim.o $(TOP_HARNESS_OBJS) $(SCENES_LIB) $(RUNTIME_LIB) $(MODEL_LIB) \
               $(BUILD)/vl/pineda_top/Vpineda_top__ALL.a $(BUILD)/vl/libverilated.a
	$(CXX) -o $@ $(filter %.o,$^) $(SCENES_LIB) $(RUNTIME_LIB) $(MODEL_LIB) $(BUILD)/vl/pineda_top/Vpineda_top__ALL.a \
	  $(BUILD)/vl/libverilated.a $(SCENES_IO_LDLIBS) $(RUNTIME_LDLIBS) $(TB_LDLIBS)


# Unit harnesses (units.toml [[unit.tests]], through build/units.mk): one executable each,
# compiled against the Verilated models it links (their folders on its include path) and linked
# with the model library, or with the scenes, runtime and model libraries ("scenes"), or with the
# pineda_top harness ("top_harness").
unit_test_libs = $(if $(filter scenes,$(UNIT_TEST_LINKS_$(1))),$(SCENES_LIB) $(RUNTIME_LIB)) $(MODEL_LIB)
unit_test_ldlibs = $(if $(filter scenes,$(UNIT_TEST_LINKS_$(1))),$(SCENES_LDLIBS)) $(TB_LDLIBS)
define UNIT_TEST
$(BUILD)/obj/tb/unit/$(1).o: $(UNIT_TEST_SRC_$(1)) $(foreach m,$(UNIT_TEST_VL_$(1)),$(call vl_lib,$(m)))
	@mkdir -p $$(@D)
	$$(OBJCACHE) $$(CXX) $$(TB_CXXFLAGS) $(foreach m,$(UNIT_TEST_VL_$(1)),-I$(BUILD)/vl/$(m)) $(UNIT_TEST_INC_$(1)) -MMD -MP -c $$< -o $$@
$(BUILD)/$(UNIT_TEST_BIN_$(1)): $(BUILD)/obj/tb/unit/$(1).o $(if $(filter top_harness,$(UNIT_TEST_LINKS_$(1))),$$(TOP_HARNESS_OBJS),$$(TB_COMMON_OBJS)) \
    $(call unit_test_libs,$(1)) $(foreach m,$(UNIT_TEST_VL_$(1)),$(call vl_lib,$(m))) $(BUILD)/vl/libverilated.a
	@mkdir -p $$(@D)
	$$(CXX) -o $$@ $$(filter %.o,$$^) $(call unit_test_libs,$(1)) $(foreach m,$(UNIT_TEST_VL_$(1)),$(call vl_lib,$(m))) \
	  $(BUILD)/vl/libverilated.a $(call unit_test_ldlibs,$(1))
endef
$(foreach t,$(UNIT_TESTS) $(UNIT_BENCHES),$(eval $(call UNIT_TEST,$(t))))
RTL_UNIT_TESTS := $(foreach t,$(UNIT_TESTS),$(BUILD)/$(UNIT_TEST_BIN_$(t)))

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

FORCE:
.PHONY: FORCE
# ---- Several rasterizers: pineda_sim_r<N> (N = 2, 4) links the Verilated pineda_top_r<N>
# (units.toml [[model]], class Vpineda_top like the 1-rasterizer build) with the harness and
# pineda_sim compiled with PINEDA_NUM_RAST=<N>.
PINEDA_SIM_RAST := $(BUILD)/pineda_sim_r2 $(BUILD)/pineda_sim_r4
define SIM_RAST
$(BUILD)/obj/sim_r$(1)/%.o: %.cpp $(call vl_lib,pineda_top_r$(1))
	@mkdir -p $$(@D)
	$$(OBJCACHE) $$(CXX) $$(TB_CXXFLAGS) -DPINEDA_NUM_RAST=$(1) -I$(BUILD)/vl/pineda_top_r$(1) -MMD -MP -c $$< -o $$@
$(BUILD)/pineda_sim_r$(1): $(BUILD)/obj/sim_r$(1)/sim/pineda_sim.o $(BUILD)/obj/sim_r$(1)/harness/top_harness.o \
                           $(TB_COMMON_OBJS) $(SCENES_LIB) $(RUNTIME_LIB) $(MODEL_LIB) \
                           $(call vl_lib,pineda_top_r$(1)) $(BUILD)/vl/libverilated.a
	$$(CXX) -o $$@ $$(filter %.o,$$^) $(SCENES_LIB) $(SCENES_LDLIBS) $(call vl_lib,pineda_top_r$(1)) \
	  $(BUILD)/vl/libverilated.a $(TB_LDLIBS)
endef
$(foreach n,2 4,$(eval $(call SIM_RAST,$(n))))
# The default suite builds and runs the 4-rasterizer top; the 2-rasterizer one is opt-in
# (`make test-long`, tests/run_all.py --long: about 7 minutes of a fresh-clone CI run).
build-all: $(BUILD)/pineda_sim_r4
build-long: $(PINEDA_SIM_RAST)
.PHONY: build-long
