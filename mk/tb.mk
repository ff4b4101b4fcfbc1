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
VL_TOPS := pineda_top setup coarse_raster fine_raster pixel_writer zs ia cp dma resolve hiz
TB_CXXFLAGS := $(CXXSTD) -Wall -Wextra -Wshadow -Werror -O2 -g -Icpp_model -Icpp_model/common \
               -Isim -Iharness $(VL_INC) -DVM_TRACE=1 -DVM_TRACE_FST=1
TB_LDLIBS := -lz -lpthread
# Only the tests see tb/common (unit bench, random primitives): the product compiles without it.
$(BUILD)/obj/tb/%.o: TB_CXXFLAGS += -Itb/common

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
	+@$$(VERILATOR) $$(VL_FLAGS) --top-module $(1) --prefix V$(1) -Mdir $$(@D) rtl/lint.vlt \
	  rtl/common/pineda_pkg.sv $$(filter %/$(1).sv %/$(1)_bind.sv,$$(RTL_FILES) $$(RTL_BIND_FILES)) $$(addprefix -y ,$$(RTL_DIRS)) \
	  > $$(@D)/build.log 2>&1 \
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
$(BUILD)/obj/tb/top/%.o: tb/top/%.cpp $(BUILD)/vl/pineda_top/Vpineda_top__ALL.a
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

# The geometry front end inside pineda_top: hand-built DRAW_FE command buffers, RTL vs model.
RTL_FRONT_END := $(BUILD)/tests/rtl_front_end
$(RTL_FRONT_END): $(BUILD)/obj/tb/top/test_front_end.o $(TOP_HARNESS_OBJS) $(MODEL_LIB) \
                  $(BUILD)/vl/pineda_top/Vpineda_top__ALL.a $(BUILD)/vl/libverilated.a
	@mkdir -p $(@D)
	$(CXX) -o $@ $(filter %.o,$^) $(MODEL_LIB) $(BUILD)/vl/pineda_top/Vpineda_top__ALL.a \
	  $(BUILD)/vl/libverilated.a $(TB_LDLIBS)
RTL_TOP_TESTS := $(RTL_FRONT_END)

# Unit harnesses: tb/<unit>/test_<unit>.cpp, one executable each, linked with its own model.
TB_UNITS := setup coarse_raster fine_raster pixel_writer zs ia cp dma resolve hiz
define TB_UNIT
$(BUILD)/obj/tb/unit/test_$(1).o: tb/$(2)/test_$(1).cpp $(BUILD)/vl/$(1)/V$(1)__ALL.a
	@mkdir -p $$(@D)
	$$(OBJCACHE) $$(CXX) $$(TB_CXXFLAGS) -I$(BUILD)/vl/$(1) -Itb/$(2) -MMD -MP -c $$< -o $$@
$(BUILD)/tests/rtl_$(1): $(BUILD)/obj/tb/unit/test_$(1).o $$(TB_COMMON_OBJS) $$(MODEL_LIB) \
                         $(BUILD)/vl/$(1)/V$(1)__ALL.a $(BUILD)/vl/libverilated.a
	@mkdir -p $$(@D)
	$$(CXX) -o $$@ $$(filter %.o,$$^) $$(MODEL_LIB) $(BUILD)/vl/$(1)/V$(1)__ALL.a $(BUILD)/vl/libverilated.a $$(TB_LDLIBS)
endef
unit_dir = $(if $(filter coarse_raster fine_raster,$(1)),rast,$(if $(filter pixel_writer,$(1)),om,$(if $(filter resolve,$(1)),dma,$(1))))
$(foreach u,$(TB_UNITS),$(eval $(call TB_UNIT,$(u),$(call unit_dir,$(u)))))
RTL_UNIT_TESTS := $(foreach u,$(TB_UNITS),$(if $(wildcard tb/$(call unit_dir,$(u))/test_$(u).cpp),$(BUILD)/tests/rtl_$(u)))

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

FORCE:
.PHONY: FORCE

# ---- Vertex transform and FP32 primitives, as units.
# rtl_vtx: the usual unit harness. rtl_fp32: one harness linking the four combinational
# primitives, each Verilated as its own top, and the model tests' operand generator
# (tests/model/fp32_vectors.h).
FP32_VL_TOPS := fp32_add fp32_mul fp32_rcp fp32_to_fix16_8
$(foreach t,vtx $(FP32_VL_TOPS),$(eval $(call VL_MODEL,$(t))))
$(eval $(call TB_UNIT,vtx,vtx))
$(BUILD)/obj/tb/unit/test_vtx.o: TB_CXXFLAGS += -Itests/model
FP32_VL_LIBS := $(foreach t,$(FP32_VL_TOPS),$(BUILD)/vl/$(t)/V$(t)__ALL.a)
$(BUILD)/obj/tb/unit/test_fp32.o: tb/fp32/test_fp32.cpp $(FP32_VL_LIBS)
	@mkdir -p $(@D)
	$(OBJCACHE) $(CXX) $(TB_CXXFLAGS) $(addprefix -I$(BUILD)/vl/,$(FP32_VL_TOPS)) -Itests/model -Itb/fp32 -MMD -MP -c $< -o $@
$(BUILD)/tests/rtl_fp32: $(BUILD)/obj/tb/unit/test_fp32.o $(TB_COMMON_OBJS) $(MODEL_LIB) $(FP32_VL_LIBS) \
                         $(BUILD)/vl/libverilated.a
	@mkdir -p $(@D)
	$(CXX) -o $@ $(filter %.o,$^) $(MODEL_LIB) $(FP32_VL_LIBS) $(BUILD)/vl/libverilated.a $(TB_LDLIBS)
RTL_UNIT_TESTS += $(BUILD)/tests/rtl_vtx $(BUILD)/tests/rtl_fp32

# ---- Input assembly front end, as units: index fetch, the
# vertex cache tags and vertex fetch, each Verilated as its own top with the usual unit harness.
FE_IA_UNITS := index_fetch vertex_tags vertex_fetch
$(foreach t,$(FE_IA_UNITS),$(eval $(call VL_MODEL,$(t))))
$(foreach t,$(FE_IA_UNITS),$(eval $(call TB_UNIT,$(t),ia)))
RTL_UNIT_TESTS += $(foreach t,$(FE_IA_UNITS),$(BUILD)/tests/rtl_$(t))

# ---- Primitive assembly, as a unit: rtl/pa/pa.sv with its own
# two-input harness (tb/pa/test_pa.cpp).
$(eval $(call VL_MODEL,pa))
$(eval $(call TB_UNIT,pa,pa))
RTL_UNIT_TESTS += $(BUILD)/tests/rtl_pa
$(BUILD)/obj/tb/unit/test_pa.o: TB_CXXFLAGS += -Itests/model

# ---- Rasterizer: the property cases of tests/model/raster_cases.h run through the
# setup, coarse and fine unit benches too.
$(BUILD)/obj/tb/unit/test_setup.o $(BUILD)/obj/tb/unit/test_coarse_raster.o \
  $(BUILD)/obj/tb/unit/test_fine_raster.o: TB_CXXFLAGS += -Itests/model

# ---- Several rasterizers: pineda_top with NumRast = 2 and 4, Verilated with the same
# class name (Vpineda_top) into build/vl/pineda_top_r<N>, and a pineda_sim for each
# (build/pineda_sim_r<N>), its harness compiled with PINEDA_NUM_RAST=<N>.
PINEDA_SIM_RAST := $(BUILD)/pineda_sim_r2 $(BUILD)/pineda_sim_r4
define VL_TOP_RAST
$(BUILD)/vl/pineda_top_r$(1)/Vpineda_top__ALL.a: rtl/lint.vlt $(BUILD)/vl/flags.txt $$(if $$(wildcard $(BUILD)/vl/pineda_top_r$(1)/deps.mk),,FORCE)
	@mkdir -p $$(@D)
	@echo "verilator: building pineda_top (NumRast=$(1))"
	+@$$(VERILATOR) $$(VL_FLAGS) -GNumRast=$(1) --top-module pineda_top --prefix Vpineda_top -Mdir $$(@D) rtl/lint.vlt \
	  rtl/common/pineda_pkg.sv rtl/top/pineda_top.sv rtl/top/pineda_top_bind.sv $$(addprefix -y ,$$(RTL_DIRS)) \
	  > $$(@D)/build.log 2>&1 \
	  || { tail -40 $$(@D)/build.log; exit 1; }
	@{ printf '$$@:'; sed 's/.*: *//' $$(@D)/Vpineda_top__ver.d | tr ' ' '\n' | grep -E '\.(sv|vlt)$$$$' | tr '\n' ' '; echo; } > $$(@D)/deps.mk
-include $(BUILD)/vl/pineda_top_r$(1)/deps.mk
$(BUILD)/obj/sim_r$(1)/%.o: %.cpp $(BUILD)/vl/pineda_top_r$(1)/Vpineda_top__ALL.a
	@mkdir -p $$(@D)
	$$(OBJCACHE) $$(CXX) $$(TB_CXXFLAGS) -DPINEDA_NUM_RAST=$(1) -I$(BUILD)/vl/pineda_top_r$(1) -MMD -MP -c $$< -o $$@
$(BUILD)/pineda_sim_r$(1): $(BUILD)/obj/sim_r$(1)/sim/pineda_sim.o $(BUILD)/obj/sim_r$(1)/harness/top_harness.o \
                           $(TB_COMMON_OBJS) $(SCENES_LIB) $(RUNTIME_LIB) $(MODEL_LIB) \
                           $(BUILD)/vl/pineda_top_r$(1)/Vpineda_top__ALL.a $(BUILD)/vl/libverilated.a
	$$(CXX) -o $$@ $$(filter %.o,$$^) $(SCENES_LIB) $(SCENES_LDLIBS) $(BUILD)/vl/pineda_top_r$(1)/Vpineda_top__ALL.a \
	  $(BUILD)/vl/libverilated.a $(TB_LDLIBS)
endef
$(foreach n,2 4,$(eval $(call VL_TOP_RAST,$(n))))
# The default suite builds and runs the 4-rasterizer top; the 2-rasterizer one is opt-in
# (`make test-long`, tests/run_all.py --long: about 7 minutes of a fresh-clone CI run).
build-all: $(BUILD)/pineda_sim_r4
build-long: $(PINEDA_SIM_RAST)
.PHONY: build-long

# rtl_raster_array: raster_array with NumRast = 1, 2, 4 (classes Vraster_array_r<N>), one harness.
define VL_ARRAY_RAST
$(BUILD)/vl/raster_array_r$(1)/Vraster_array_r$(1)__ALL.a: rtl/lint.vlt $(BUILD)/vl/flags.txt $$(if $$(wildcard $(BUILD)/vl/raster_array_r$(1)/deps.mk),,FORCE)
	@mkdir -p $$(@D)
	@echo "verilator: building raster_array (NumRast=$(1))"
	+@$$(VERILATOR) $$(VL_FLAGS) -GNumRast=$(1) --top-module raster_array --prefix Vraster_array_r$(1) -Mdir $$(@D) rtl/lint.vlt \
	  rtl/common/pineda_pkg.sv rtl/rast/raster_array.sv $$(addprefix -y ,$$(RTL_DIRS)) > $$(@D)/build.log 2>&1 \
	  || { tail -40 $$(@D)/build.log; exit 1; }
	@{ printf '$$@:'; sed 's/.*: *//' $$(@D)/Vraster_array_r$(1)__ver.d | tr ' ' '\n' | grep -E '\.(sv|vlt)$$$$' | tr '\n' ' '; echo; } > $$(@D)/deps.mk
-include $(BUILD)/vl/raster_array_r$(1)/deps.mk
endef
$(foreach n,1 2 4,$(eval $(call VL_ARRAY_RAST,$(n))))
ARRAY_VL_LIBS := $(foreach n,1 2 4,$(BUILD)/vl/raster_array_r$(n)/Vraster_array_r$(n)__ALL.a)
$(BUILD)/obj/tb/unit/test_raster_array.o: tb/rast/test_raster_array.cpp $(ARRAY_VL_LIBS)
	@mkdir -p $(@D)
	$(OBJCACHE) $(CXX) $(TB_CXXFLAGS) $(foreach n,1 2 4,-I$(BUILD)/vl/raster_array_r$(n)) -Itests/model -Itb/rast -MMD -MP -c $< -o $@
$(BUILD)/tests/rtl_raster_array: $(BUILD)/obj/tb/unit/test_raster_array.o $(TB_COMMON_OBJS) $(SCENES_LIB) $(RUNTIME_LIB) \
                                 $(MODEL_LIB) $(ARRAY_VL_LIBS) $(BUILD)/vl/libverilated.a
	@mkdir -p $(@D)
	$(CXX) -o $@ $(filter %.o,$^) $(ARRAY_VL_LIBS) $(SCENES_LIB) $(SCENES_LDLIBS) $(BUILD)/vl/libverilated.a $(TB_LDLIBS)
RTL_UNIT_TESTS += $(BUILD)/tests/rtl_raster_array

# ---- rtl/common primitives (SRAMs, SRAM FIFO) each Verilated with its default parameters, and
# the line-port DRAM model, in one harness (tb/common/test_common.cpp).
COMMON_VL_TOPS := sram_1r1w sram_sp sram_fifo
$(foreach t,$(COMMON_VL_TOPS),$(eval $(call VL_MODEL,$(t))))
COMMON_VL_LIBS := $(foreach t,$(COMMON_VL_TOPS),$(BUILD)/vl/$(t)/V$(t)__ALL.a)
$(BUILD)/obj/tb/unit/test_common.o: tb/common/test_common.cpp $(COMMON_VL_LIBS)
	@mkdir -p $(@D)
	$(OBJCACHE) $(CXX) $(TB_CXXFLAGS) $(addprefix -I$(BUILD)/vl/,$(COMMON_VL_TOPS)) -MMD -MP -c $< -o $@
$(BUILD)/tests/rtl_common: $(BUILD)/obj/tb/unit/test_common.o $(TB_COMMON_OBJS) $(MODEL_LIB) $(COMMON_VL_LIBS) \
                           $(BUILD)/vl/libverilated.a
	@mkdir -p $(@D)
	$(CXX) -o $@ $(filter %.o,$^) $(MODEL_LIB) $(COMMON_VL_LIBS) $(BUILD)/vl/libverilated.a $(TB_LDLIBS)
RTL_UNIT_TESTS += $(BUILD)/tests/rtl_common

# ---- line_stream_reader (the line-port successor of mem_stream_reader) in three builds:
# OutDwords 1 / DepthLines 16, 4 / 4 and 16 / 2 (Vlsr_w<N>), one harness (tb/common/test_line_reader.cpp).
define VL_LSR
$(BUILD)/vl/lsr_w$(1)/Vlsr_w$(1)__ALL.a: rtl/lint.vlt $(BUILD)/vl/flags.txt $$(if $$(wildcard $(BUILD)/vl/lsr_w$(1)/deps.mk),,FORCE)
	@mkdir -p $$(@D)
	@echo "verilator: building line_stream_reader OutDwords=$(1) DepthLines=$(2)"
	+@$$(VERILATOR) $$(VL_FLAGS) -GOutDwords=$(1) -GDepthLines=$(2) --top-module line_stream_reader --prefix Vlsr_w$(1) -Mdir $$(@D) rtl/lint.vlt \
	  rtl/common/pineda_pkg.sv rtl/common/line_stream_reader.sv $$(addprefix -y ,$$(RTL_DIRS)) > $$(@D)/build.log 2>&1 \
	  || { tail -40 $$(@D)/build.log; exit 1; }
	@{ printf '$$@:'; sed 's/.*: *//' $$(@D)/Vlsr_w$(1)__ver.d | tr ' ' '\n' | grep -E '\.(sv|vlt)$$$$' | tr '\n' ' '; echo; } > $$(@D)/deps.mk
-include $(BUILD)/vl/lsr_w$(1)/deps.mk
endef
$(eval $(call VL_LSR,1,16))
$(eval $(call VL_LSR,4,4))
$(eval $(call VL_LSR,16,2))
LSR_VL_LIBS := $(foreach n,1 4 16,$(BUILD)/vl/lsr_w$(n)/Vlsr_w$(n)__ALL.a)
$(BUILD)/obj/tb/unit/test_line_reader.o: tb/common/test_line_reader.cpp $(LSR_VL_LIBS)
	@mkdir -p $(@D)
	$(OBJCACHE) $(CXX) $(TB_CXXFLAGS) $(addprefix -I$(BUILD)/vl/lsr_w,1 4 16) -MMD -MP -c $< -o $@
$(BUILD)/tests/rtl_line_reader: $(BUILD)/obj/tb/unit/test_line_reader.o $(TB_COMMON_OBJS) $(MODEL_LIB) $(LSR_VL_LIBS) \
                                $(BUILD)/vl/libverilated.a
	@mkdir -p $(@D)
	$(CXX) -o $@ $(filter %.o,$^) $(MODEL_LIB) $(LSR_VL_LIBS) $(BUILD)/vl/libverilated.a $(TB_LDLIBS)
RTL_UNIT_TESTS += $(BUILD)/tests/rtl_line_reader

# ---- bench_fe_lines: the front end alone (index fetch and vertex fetch on their line ports,
# one shared LineDram), fed the CP's idraw packets of a scene from the model
# and checked against its pa_tri packets: the front end's rate on the line port
# (tb/fe/bench_fe_lines.cpp). Built on demand, not part of `make test`.
$(BUILD)/vl/front_end_lines/Vfront_end__ALL.a: rtl/lint.vlt $(BUILD)/vl/flags.txt $(if $(wildcard $(BUILD)/vl/front_end_lines/deps.mk),,FORCE)
	@mkdir -p $(@D)
	@echo "verilator: building front_end"
	+@$(VERILATOR) $(VL_FLAGS) --top-module front_end --prefix Vfront_end -Mdir $(@D) rtl/lint.vlt \
	  rtl/common/pineda_pkg.sv rtl/top/front_end.sv $(addprefix -y ,$(RTL_DIRS)) > $(@D)/build.log 2>&1 \
	  || { tail -40 $(@D)/build.log; exit 1; }
	@{ printf '$@:'; sed 's/.*: *//' $(@D)/Vfront_end__ver.d | tr ' ' '\n' | grep -E '\.(sv|vlt)$$' | tr '\n' ' '; echo; } > $(@D)/deps.mk
-include $(BUILD)/vl/front_end_lines/deps.mk
$(BUILD)/obj/tb/fe/%.o: tb/fe/%.cpp $(BUILD)/vl/front_end_lines/Vfront_end__ALL.a
	@mkdir -p $(@D)
	$(OBJCACHE) $(CXX) $(TB_CXXFLAGS) -I$(BUILD)/vl/front_end_lines -Isim -MMD -MP -c $< -o $@
$(BUILD)/bench_fe_lines: $(BUILD)/obj/tb/fe/bench_fe_lines.o $(TB_COMMON_OBJS) $(SCENES_LIB) $(RUNTIME_LIB) $(MODEL_LIB) \
                         $(BUILD)/vl/front_end_lines/Vfront_end__ALL.a $(BUILD)/vl/libverilated.a
	$(CXX) -o $@ $(filter %.o,$^) $(SCENES_LIB) $(SCENES_LDLIBS) $(BUILD)/vl/front_end_lines/Vfront_end__ALL.a \
	  $(BUILD)/vl/libverilated.a $(TB_LDLIBS)

# ---- The line arbiter (rtl/mem/mem_line_arbiter.sv, default 5 clients) with its own harness
# (tb/mem/test_mem_line_arbiter.cpp).
$(eval $(call VL_MODEL,mem_line_arbiter))
$(eval $(call TB_UNIT,mem_line_arbiter,mem))
RTL_UNIT_TESTS += $(BUILD)/tests/rtl_mem_line_arbiter

# ---- Output merger blend arithmetic (rtl/om/om_blend.sv, combinational) as a unit, driven
# directly against cpp_model/om/om_blend (tb/om/test_om_blend.cpp).
$(eval $(call VL_MODEL,om_blend))
$(eval $(call TB_UNIT,om_blend,om))
RTL_UNIT_TESTS += $(BUILD)/tests/rtl_om_blend

# ---- Attribute interpolation (docs/interp.md): rtl/interp/interp.sv as a unit.
$(eval $(call VL_MODEL,interp))
$(eval $(call TB_UNIT,interp,interp))
RTL_UNIT_TESTS += $(BUILD)/tests/rtl_interp

# ---- Texture sampler (rtl/tex/tex.sv) as a unit against cpp_model/tex (tb/tex/test_tex.cpp;
# `[.bench]` reports samples per clock, L1 hit rate and bytes per sample).
$(eval $(call VL_MODEL,tex))
$(eval $(call TB_UNIT,tex,tex))
RTL_UNIT_TESTS += $(BUILD)/tests/rtl_tex

# ---- Texture: the BC1/BC3 block decoder (rtl/tex/tex_bc_decode.sv, combinational) driven directly
# against cpp_model/tex/tex_bc_decode, and the model against stb_dxt (tb/tex/test_tex_bc_decode.cpp).
$(eval $(call VL_MODEL,tex_bc_decode))
$(eval $(call TB_UNIT,tex_bc_decode,tex))
RTL_UNIT_TESTS += $(BUILD)/tests/rtl_tex_bc_decode

# ---- Texture combiner and alpha test (rtl/comb/combiner.sv) as a unit against cpp_model/comb
# (tb/comb/test_combiner.cpp: every mode, every alpha function, edge values, random streams).
$(eval $(call VL_MODEL,combiner))
$(eval $(call TB_UNIT,combiner,comb))
RTL_UNIT_TESTS += $(BUILD)/tests/rtl_combiner
