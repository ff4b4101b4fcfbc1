# SPDX-License-Identifier: Apache-2.0
# mk/cli.mk — the command-line tool build/pineda (tools/pineda/, README "The pineda tool"):
# render a model file (assimp), capture and replay command streams (runtime/capture_file.*) on the
# golden model, the Verilated RTL or both. Compiled like the harnesses (mk/tb.mk), linked with the
# Verilated pineda_top, CLI11 (header only), assimp and stb_image (textures).
PINEDA_CLI := $(BUILD)/pineda
CLI_SRCS := $(sort $(wildcard tools/pineda/*.cpp))
CLI_OBJS := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(CLI_SRCS))
CLI_LDLIBS := -lassimp -lstb

$(CLI_OBJS): $(BUILD)/obj/%.o: %.cpp $(BUILD)/vl/pineda_top/Vpineda_top__ALL.a
	@mkdir -p $(@D)
	$(OBJCACHE) $(CXX) $(TB_CXXFLAGS) -Iruntime -Itools/pineda -I$(BUILD)/vl/pineda_top -Itb/top -pthread -MMD -MP -c $< -o $@

$(PINEDA_CLI): $(CLI_OBJS) $(TOP_HARNESS_OBJS) $(SCENES_LIB) $(RUNTIME_LIB) $(MODEL_LIB) \
               $(BUILD)/vl/pineda_top/Vpineda_top__ALL.a $(BUILD)/vl/libverilated.a
	$(CXX) -pthread -o $@ $(CLI_OBJS) $(TOP_HARNESS_OBJS) $(SCENES_LIB) $(RUNTIME_LIB) $(MODEL_LIB) \
	  $(BUILD)/vl/pineda_top/Vpineda_top__ALL.a $(BUILD)/vl/libverilated.a $(MODEL_LDLIBS) $(CLI_LDLIBS) $(TB_LDLIBS)

# pineda_sim writes capture files (--capture) through the runtime's capture_file.h.
$(BUILD)/obj/sim/pineda_sim.o $(BUILD)/obj/sim_r2/sim/pineda_sim.o $(BUILD)/obj/sim_r4/sim/pineda_sim.o: TB_CXXFLAGS += -Iruntime

cli: $(PINEDA_CLI)
build-all: $(PINEDA_CLI)

-include $(CLI_OBJS:.o=.d)

.PHONY: cli
