# SPDX-License-Identifier: Apache-2.0
# mk/model.mk — the C++ golden model, the regression scenes and their unit tests.
#
# Libraries (link order: $(SCENES_LIB) $(RUNTIME_LIB) $(MODEL_LIB), then $(SCENES_IO_LDLIBS) $(RUNTIME_LDLIBS)
# for what each links, -pthread):
#   $(MODEL_LIB)   build/libpineda_model.a   every cpp_model/**/*.cpp (Memory, CommandWriter, units, PinedaTop)
#   $(SCENES_LIB)  build/libpineda_scenes.a  sim/*.cpp but pineda_sim.cpp: the scenes and png_writer
#                                            (needs libpng); the scenes are built with the host runtime
#                                            (mk/runtime.mk)
# Compile flags for users: $(CXXFLAGS_COMMON) $(MODEL_INC)
# Targets: model (libraries, tools, tests), model-test (runs the Catch2 model tests), model-run.
MODEL_INC := -Icpp_model -Icpp_model/common -Isim
# External libraries per library. The model is pure C++ and links none (no I/O). The runtime:
# zlib (capture files, runtime/capture_file.cpp) and libpng (PNG textures, runtime/texture.cpp;
# stb_image for other formats is compiled in). The scenes: assimp (model files: sim/mesh_load.cpp,
# sim/model_render.cpp), tinyobjloader and meshoptimizer (bunny.obj and its vertex-cache
# optimisation: sim/meshes.cpp), stb, and libpng for the PNG writer.
MODEL_LDLIBS :=
RUNTIME_LDLIBS := -lpng -lz
SCENES_IO_LDLIBS := -ltinyobjloader -lmeshoptimizer -lassimp -lstb
MODEL_DEPFLAGS = -MMD -MP

MODEL_SRCS := $(shell find cpp_model -name '*.cpp' | sort)
MODEL_OBJS := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(MODEL_SRCS))
MODEL_LIB := $(BUILD)/libpineda_model.a

SCENES_SRCS := $(filter-out sim/pineda_sim.cpp,$(sort $(wildcard sim/*.cpp)))
SCENES_OBJS := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(SCENES_SRCS))
SCENES_LIB := $(BUILD)/libpineda_scenes.a
# Named here because this file is read before mk/runtime.mk, which builds it.
RUNTIME_LIB := $(BUILD)/libpineda_runtime.a
SCENES_LDLIBS := $(RUNTIME_LIB) $(MODEL_LIB) $(SCENES_IO_LDLIBS) $(RUNTIME_LDLIBS) -pthread

MODEL_TEST_SRCS := $(sort $(wildcard tests/model/*.cpp))
MODEL_TEST_OBJS := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(MODEL_TEST_SRCS))
MODEL_TEST_BIN := $(BUILD)/tests/model_tests

MODEL_RUN_BIN := $(BUILD)/model_run
MODEL_RUN_OBJS := $(BUILD)/obj/tools/model_run.o

MODEL_ALL_OBJS := $(MODEL_OBJS) $(SCENES_OBJS) $(MODEL_TEST_OBJS) $(MODEL_RUN_OBJS)

$(MODEL_ALL_OBJS): $(BUILD)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_COMMON) -Isim $(MODEL_EXTRA_INC) $(MODEL_DEPFLAGS) -c $< -o $@
$(SCENES_OBJS): MODEL_EXTRA_INC := -Iruntime
# The capture-file property test replays captures through sim/scene_capture.h.
$(BUILD)/obj/tests/model/test_capture_replay.o: MODEL_EXTRA_INC := -Iruntime

$(MODEL_LIB): $(MODEL_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SCENES_LIB): $(SCENES_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(MODEL_TEST_BIN): $(MODEL_TEST_OBJS) $(SCENES_LIB) $(RUNTIME_LIB) $(MODEL_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_COMMON) -o $@ $(MODEL_TEST_OBJS) $(SCENES_LIB) $(SCENES_LDLIBS)

$(MODEL_RUN_BIN): $(MODEL_RUN_OBJS) $(SCENES_LIB) $(RUNTIME_LIB) $(MODEL_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_COMMON) -o $@ $(MODEL_RUN_OBJS) $(SCENES_LIB) $(SCENES_LDLIBS)

model: $(MODEL_LIB) $(SCENES_LIB) $(MODEL_TEST_BIN) $(MODEL_RUN_BIN)

model-test: $(MODEL_TEST_BIN)
	$(MODEL_TEST_BIN) $(MODEL_TEST_ARGS)

# make model-run SCENE=grid_mesh [SEED=1]  ->  out/model/<scene>.png
model-run: $(MODEL_RUN_BIN)
	@mkdir -p out/model
	$(MODEL_RUN_BIN) $(or $(SCENE),grid_mesh) --seed $(or $(SEED),1) --out out/model/$(or $(SCENE),grid_mesh).png

-include $(MODEL_ALL_OBJS:.o=.d)

.PHONY: model model-test model-run
