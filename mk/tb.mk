# Verilator builds and the C++ harnesses that drive them.
#
# Each Verilated model (the full pineda_top and one per unit) is built once into
# build/vl/<top>/ and linked by every test that needs it. A model is rebuilt only when an RTL
# file, the waiver file or the flags below change (the flags are kept in a stamp file).
VERILATOR ?= verilator
VL_ROOT := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)
VL_INC := -isystem $(VL_ROOT)/include -isystem $(VL_ROOT)/include/vltstd
OBJCACHE := $(shell command -v ccache 2>/dev/null)
VL_FLAGS := --cc --build -j $(NPROC) --assert --x-assign unique --x-initial unique \
            --trace-fst --trace-structs -Wno-fatal -Wno-lint -Wno-style \
            -CFLAGS -std=c++17 -MAKEFLAGS "OPT_FAST=-O2 OPT_SLOW=-O1 OPT_GLOBAL=-O2 OBJCACHE=$(OBJCACHE)"
VL_TOPS := pineda_top setup coarse_raster fine_raster pixel_writer ia cp dma
TB_CXXFLAGS := $(CXXSTD) -Wall -Wextra -Wshadow -Werror -O2 -g -Icpp_model -Icpp_model/common \
               -Isim -Itb/common $(VL_INC) -DVM_TRACE=1 -DVM_TRACE_FST=1
TB_LDLIBS := -lz -lpthread

# Flags stamp: rebuild every model when VL_FLAGS change.
$(BUILD)/vl/flags.txt: FORCE
	@mkdir -p $(@D)
	@echo '$(VL_FLAGS)' | cmp -s - $@ || echo '$(VL_FLAGS)' > $@

# build/vl/<top>/V<top>__ALL.a. Verilator is given the package and the top's own file and finds
# every other module through -y, so its dependency list (V<top>__ver.d) names exactly the files
# the model uses; it becomes build/vl/<top>/deps.mk and a model rebuilds only when one of them,
# or the flags, change.
RTL_DIRS := $(sort $(dir $(RTL_FILES)))
define VL_MODEL
$(BUILD)/vl/$(1)/V$(1)__ALL.a: rtl/lint.vlt $(BUILD)/vl/flags.txt $$(if $$(wildcard $(BUILD)/vl/$(1)/deps.mk),,FORCE)
	@mkdir -p $$(@D)
	@echo "verilator: building $(1)"
	@$$(VERILATOR) $$(VL_FLAGS) --top-module $(1) --prefix V$(1) -Mdir $$(@D) rtl/lint.vlt \
	  rtl/common/pineda_pkg.sv $$(filter %/$(1).sv,$$(RTL_FILES)) $$(addprefix -y ,$$(RTL_DIRS)) > $$(@D)/build.log 2>&1 \
	  || { tail -40 $$(@D)/build.log; exit 1; }
	@{ printf '$$@:'; sed 's/.*: *//' $$(@D)/V$(1)__ver.d | tr ' ' '\n' | grep -E '\.(sv|vlt)$$$$' | tr '\n' ' '; echo; } > $$(@D)/deps.mk
-include $(BUILD)/vl/$(1)/deps.mk
endef
$(foreach t,$(VL_TOPS),$(eval $(call VL_MODEL,$(t))))

# The Verilator runtime, built once.
VL_RT_SRCS := verilated.cpp verilated_threads.cpp verilated_fst_c.cpp
VL_RT_OBJS := $(addprefix $(BUILD)/vl/rt/,$(VL_RT_SRCS:.cpp=.o))
$(BUILD)/vl/rt/%.o: $(VL_ROOT)/include/%.cpp
	@mkdir -p $(@D)
	$(OBJCACHE) $(CXX) $(CXXSTD) -O2 $(VL_INC) -DVM_TRACE=1 -DVM_TRACE_FST=1 -c $< -o $@
$(BUILD)/vl/libverilated.a: $(VL_RT_OBJS)
	ar rcs $@ $^

# Harness objects: tb/**/*.cpp and sim/pineda_sim.cpp, compiled against the model they use.
TB_COMMON_SRCS := tb/common/dram_model.cpp
TB_COMMON_OBJS := $(TB_COMMON_SRCS:%.cpp=$(BUILD)/obj/%.o)
$(BUILD)/obj/tb/common/%.o: tb/common/%.cpp
	@mkdir -p $(@D)
	$(OBJCACHE) $(CXX) $(TB_CXXFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/obj/tb/top/%.o: tb/top/%.cpp $(BUILD)/vl/pineda_top/Vpineda_top__ALL.a
	@mkdir -p $(@D)
	$(OBJCACHE) $(CXX) $(TB_CXXFLAGS) -I$(BUILD)/vl/pineda_top -Itb/top -MMD -MP -c $< -o $@
$(BUILD)/obj/sim/pineda_sim.o: sim/pineda_sim.cpp $(BUILD)/vl/pineda_top/Vpineda_top__ALL.a
	@mkdir -p $(@D)
	$(OBJCACHE) $(CXX) $(TB_CXXFLAGS) -I$(BUILD)/vl/pineda_top -Itb/top -MMD -MP -c $< -o $@

TOP_HARNESS_OBJS := $(BUILD)/obj/tb/top/top_harness.o $(TB_COMMON_OBJS)
PINEDA_SIM := $(BUILD)/pineda_sim
$(PINEDA_SIM): $(BUILD)/obj/sim/pineda_sim.o $(TOP_HARNESS_OBJS) $(SCENES_LIB) $(MODEL_LIB) \
               $(BUILD)/vl/pineda_top/Vpineda_top__ALL.a $(BUILD)/vl/libverilated.a
	$(CXX) -o $@ $(filter %.o,$^) $(SCENES_LIB) $(MODEL_LIB) $(BUILD)/vl/pineda_top/Vpineda_top__ALL.a \
	  $(BUILD)/vl/libverilated.a $(MODEL_LDLIBS) $(TB_LDLIBS)

# Unit harnesses: tb/<unit>/test_<unit>.cpp, one executable each, linked with its own model.
TB_UNITS := setup coarse_raster fine_raster pixel_writer ia cp dma
define TB_UNIT
$(BUILD)/obj/tb/unit/test_$(1).o: tb/$(2)/test_$(1).cpp $(BUILD)/vl/$(1)/V$(1)__ALL.a
	@mkdir -p $$(@D)
	$$(OBJCACHE) $$(CXX) $$(TB_CXXFLAGS) -I$(BUILD)/vl/$(1) -Itb/$(2) -MMD -MP -c $$< -o $$@
$(BUILD)/tests/rtl_$(1): $(BUILD)/obj/tb/unit/test_$(1).o $$(TB_COMMON_OBJS) $$(MODEL_LIB) \
                         $(BUILD)/vl/$(1)/V$(1)__ALL.a $(BUILD)/vl/libverilated.a
	@mkdir -p $$(@D)
	$$(CXX) -o $$@ $$(filter %.o,$$^) $$(MODEL_LIB) $(BUILD)/vl/$(1)/V$(1)__ALL.a $(BUILD)/vl/libverilated.a $$(MODEL_LDLIBS) $$(TB_LDLIBS)
endef
unit_dir = $(if $(filter coarse_raster fine_raster,$(1)),rast,$(if $(filter pixel_writer,$(1)),om,$(1)))
$(foreach u,$(TB_UNITS),$(eval $(call TB_UNIT,$(u),$(call unit_dir,$(u)))))
RTL_UNIT_TESTS := $(foreach u,$(TB_UNITS),$(if $(wildcard tb/$(call unit_dir,$(u))/test_$(u).cpp),$(BUILD)/tests/rtl_$(u)))

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

FORCE:
.PHONY: FORCE
