# SPDX-License-Identifier: Apache-2.0
# mk/san.mk — the model, runtime, scenes and their Catch2 tests built with AddressSanitizer and
# UndefinedBehaviorSanitizer into build/san/ (docs/verification.md, "Sanitizers").
#
#   $(SAN_MODEL_TEST_BIN)    build/san/tests/model_tests     tests/model/*.cpp
#   $(SAN_RUNTIME_TEST_BIN)  build/san/tests/runtime_tests   tests/runtime/*.cpp
# Any report aborts the binary (-fno-sanitize-recover=all), so run_all.py counts it as a failure.
# The Verilated models are not sanitized (see docs/verification.md).
SAN_BUILD := $(BUILD)/san
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# -Wno-maybe-uninitialized: GCC 12 reports a false positive inside std::regex (Catch2) when
# sanitizer instrumentation is on.
SAN_CXXFLAGS := $(CXXSTD) $(CXXWARN) -Wno-maybe-uninitialized -O1 -g $(SAN_FLAGS) -Icpp_model -Icpp_model/common -Isim -Iruntime -pthread

SAN_LIB_SRCS := $(MODEL_SRCS) $(RUNTIME_SRCS) $(SCENES_SRCS)
SAN_LIB_OBJS := $(patsubst %.cpp,$(SAN_BUILD)/obj/%.o,$(SAN_LIB_SRCS))
SAN_LIB := $(SAN_BUILD)/libpineda_san.a
SAN_MODEL_TEST_OBJS := $(patsubst %.cpp,$(SAN_BUILD)/obj/%.o,$(MODEL_TEST_SRCS))
SAN_RUNTIME_TEST_OBJS := $(patsubst %.cpp,$(SAN_BUILD)/obj/%.o,$(RUNTIME_TEST_SRCS))
SAN_MODEL_TEST_BIN := $(SAN_BUILD)/tests/model_tests
SAN_RUNTIME_TEST_BIN := $(SAN_BUILD)/tests/runtime_tests
SAN_ALL_OBJS := $(SAN_LIB_OBJS) $(SAN_MODEL_TEST_OBJS) $(SAN_RUNTIME_TEST_OBJS)

$(SAN_ALL_OBJS): $(SAN_BUILD)/obj/%.o: %.cpp
	@mkdir -p $(@D)
	$(OBJCACHE) $(CXX) $(SAN_CXXFLAGS) -MMD -MP -c $< -o $@

$(SAN_LIB): $(SAN_LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

$(SAN_MODEL_TEST_BIN): $(SAN_MODEL_TEST_OBJS) $(SAN_LIB)
	@mkdir -p $(@D)
	$(CXX) $(SAN_CXXFLAGS) -o $@ $(SAN_MODEL_TEST_OBJS) $(SAN_LIB) $(SCENES_IO_LDLIBS) $(RUNTIME_LDLIBS)

$(SAN_RUNTIME_TEST_BIN): $(SAN_RUNTIME_TEST_OBJS) $(SAN_LIB)
	@mkdir -p $(@D)
	$(CXX) $(SAN_CXXFLAGS) -o $@ $(SAN_RUNTIME_TEST_OBJS) $(SAN_LIB) $(SCENES_IO_LDLIBS) $(RUNTIME_LDLIBS)

SAN_ALL := $(SAN_MODEL_TEST_BIN) $(SAN_RUNTIME_TEST_BIN)
san: $(SAN_ALL)

-include $(SAN_ALL_OBJS:.o=.d)

.PHONY: san
