# SPDX-License-Identifier: Apache-2.0
# mk/runtime.mk — the host runtime (runtime/, docs/runtime.md), its tests, example and benchmark.
#
#   $(RUNTIME_LIB)        build/libpineda_runtime.a   runtime/*.cpp (device, context, immediate_context,
#                                                     deferred_context, allocator, backends); no Verilator
#   $(RUNTIME_TEST_BIN)   build/tests/runtime_tests   Catch2, manual and golden backends
#   $(RUNTIME_RTL_TEST_BIN) build/tests/runtime_rtl_tests  Catch2, golden vs Verilated RTL backend
#   $(RUNTIME_EXAMPLE)    build/runtime_example       draws a few triangles, writes a PNG
#   $(RUNTIME_BENCH)      build/runtime_bench         host-side cost per draw (draws/s encoded)
# Link order for users: $(RUNTIME_LIB) $(MODEL_LIB) $(RUNTIME_LDLIBS) -pthread
RUNTIME_INC := -Iruntime
RUNTIME_CXXFLAGS := $(CXXFLAGS_COMMON) $(RUNTIME_INC) -Isim -pthread
RUNTIME_SRCS := $(sort $(wildcard runtime/*.cpp))
RUNTIME_OBJS := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(RUNTIME_SRCS))
# RUNTIME_LIB (build/libpineda_runtime.a) is named in mk/model.mk: the scenes library uses it.

RUNTIME_TEST_SRCS := $(sort $(wildcard tests/runtime/*.cpp))
RUNTIME_TEST_OBJS := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(RUNTIME_TEST_SRCS))
RUNTIME_TEST_BIN := $(BUILD)/tests/runtime_tests

RUNTIME_EXAMPLE := $(BUILD)/runtime_example
RUNTIME_BENCH := $(BUILD)/runtime_bench
RUNTIME_TOOL_OBJS := $(BUILD)/obj/runtime/examples/triangles.o $(BUILD)/obj/runtime/examples/runtime_bench.o

$(RUNTIME_OBJS) $(RUNTIME_TEST_OBJS) $(RUNTIME_TOOL_OBJS): $(BUILD)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(RUNTIME_CXXFLAGS) -MMD -MP -c $< -o $@

$(RUNTIME_LIB): $(RUNTIME_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(RUNTIME_TEST_BIN): $(RUNTIME_TEST_OBJS) $(RUNTIME_LIB) $(MODEL_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(RUNTIME_CXXFLAGS) -o $@ $(RUNTIME_TEST_OBJS) $(RUNTIME_LIB) $(MODEL_LIB) $(RUNTIME_LDLIBS)

$(RUNTIME_EXAMPLE): $(BUILD)/obj/runtime/examples/triangles.o $(RUNTIME_LIB) $(SCENES_LIB) $(MODEL_LIB)
	$(CXX) $(RUNTIME_CXXFLAGS) -o $@ $< $(SCENES_LIB) $(SCENES_LDLIBS)

$(RUNTIME_BENCH): $(BUILD)/obj/runtime/examples/runtime_bench.o $(RUNTIME_LIB) $(MODEL_LIB)
	$(CXX) $(RUNTIME_CXXFLAGS) -o $@ $< $(RUNTIME_LIB) $(MODEL_LIB) $(RUNTIME_LDLIBS)

# The RTL backend and its test: compiled like the harnesses (mk/tb.mk), linked with the
# Verilated pineda_top.
RUNTIME_RTL_OBJS := $(BUILD)/obj/runtime/rtl/rtl_backend.o \
                    $(patsubst %.cpp,$(BUILD)/obj/%.o,$(sort $(wildcard tests/runtime/rtl/*.cpp)))
RUNTIME_RTL_TEST_BIN := $(BUILD)/tests/runtime_rtl_tests
$(RUNTIME_RTL_OBJS): $(BUILD)/obj/%.o: %.cpp $(BUILD)/vl/pineda_top/Vpineda_top__ALL.a
	@mkdir -p $(@D)
	$(OBJCACHE) $(CXX) $(TB_CXXFLAGS) $(RUNTIME_INC) -Iruntime/rtl -Itests/runtime -I$(BUILD)/vl/pineda_top -pthread \
	  -MMD -MP -c $< -o $@
$(RUNTIME_RTL_TEST_BIN): $(RUNTIME_RTL_OBJS) $(TOP_HARNESS_OBJS) $(RUNTIME_LIB) $(MODEL_LIB) \
                         $(BUILD)/vl/pineda_top/Vpineda_top__ALL.a $(BUILD)/vl/libverilated.a
	@mkdir -p $(@D)
	$(CXX) -pthread -o $@ $(RUNTIME_RTL_OBJS) $(TOP_HARNESS_OBJS) $(RUNTIME_LIB) $(MODEL_LIB) \
	  $(BUILD)/vl/pineda_top/Vpineda_top__ALL.a $(BUILD)/vl/libverilated.a $(RUNTIME_LDLIBS) $(TB_LDLIBS)

RUNTIME_ALL := $(RUNTIME_LIB) $(RUNTIME_TEST_BIN) $(RUNTIME_RTL_TEST_BIN) $(RUNTIME_EXAMPLE) $(RUNTIME_BENCH)
runtime: $(RUNTIME_ALL)

runtime-test: $(RUNTIME_TEST_BIN)
	$(RUNTIME_TEST_BIN) $(RUNTIME_TEST_ARGS)

# Host-side cost per draw (also run by `make bench`).
runtime-bench: $(RUNTIME_BENCH)
	$(RUNTIME_BENCH)

-include $(RUNTIME_OBJS:.o=.d) $(RUNTIME_TEST_OBJS:.o=.d) $(RUNTIME_TOOL_OBJS:.o=.d)

.PHONY: runtime runtime-test runtime-bench
