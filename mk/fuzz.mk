# SPDX-License-Identifier: Apache-2.0
# mk/fuzz.mk — coverage-guided fuzzing with libFuzzer (Debian clang 14 + libclang-rt-14-dev), issue 12.
#
#   build/fuzz/fuzz_cp        command streams into model::PinedaTop             tests/fuzz/fuzz_cp.cpp
#   build/fuzz/fuzz_runtime   sequences of runtime API calls (golden)      tests/fuzz/fuzz_runtime.cpp
#   build/fuzz/fuzz_capture   capture files into rt::decode_capture        tests/fuzz/fuzz_capture.cpp
# The model and runtime are compiled with clang, -fsanitize=fuzzer-no-link,address,undefined into
# build/fuzz/obj. Seed corpora: tests/fuzz/corpus/<target>/ (committed, small); new inputs go to
# out/fuzz/<target>/ so the committed corpus only changes by hand.
#   make fuzz [FUZZ_TIME=600]      each target for FUZZ_TIME seconds (default 300)
#   make fuzz-smoke                each target for a fixed seed and input count (run by tests/run_all.py)
FUZZ_CXX ?= $(shell command -v clang++-14 2>/dev/null || command -v clang++ 2>/dev/null)
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CXXFLAGS := $(CXXSTD) $(CXXWARN) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
                 -Icpp_model -Icpp_model/common -Iruntime -pthread
FUZZ_LIB_SRCS := $(MODEL_SRCS) $(RUNTIME_SRCS)
FUZZ_LIB_OBJS := $(patsubst %.cpp,$(BUILD)/fuzz/obj/%.o,$(FUZZ_LIB_SRCS))
FUZZ_LIB := $(BUILD)/fuzz/libpineda_fuzz.a
FUZZ_TARGETS := cp runtime capture
FUZZ_BINS := $(addprefix $(BUILD)/fuzz/fuzz_,$(FUZZ_TARGETS))
FUZZ_TIME ?= 300

FUZZ_TARGET_OBJS := $(patsubst %,$(BUILD)/fuzz/obj/tests/fuzz/fuzz_%.o,$(FUZZ_TARGETS))
$(FUZZ_LIB_OBJS) $(FUZZ_TARGET_OBJS): $(BUILD)/fuzz/obj/%.o: %.cpp
	@mkdir -p $(@D)
	$(OBJCACHE) $(FUZZ_CXX) $(FUZZ_CXXFLAGS) -MMD -MP -c $< -o $@

$(FUZZ_LIB): $(FUZZ_LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/fuzz/fuzz_%: $(BUILD)/fuzz/obj/tests/fuzz/fuzz_%.o $(FUZZ_LIB)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB) $(RUNTIME_LDLIBS)

fuzz-build: $(FUZZ_BINS)

# One run per target; -timeout: one input longer than 10 s is a hang (a finding). The seed is
# printed ("INFO: Seed: N"); `make fuzz FUZZ_SEED=N` replays an exploration run's mutations.
FUZZ_SEED ?= 0
define FUZZ_RUN
	@mkdir -p out/fuzz/$(1)
	@echo "fuzz_$(1): $(2) s, corpus tests/fuzz/corpus/$(1) (new inputs in out/fuzz/$(1))"
	@$(BUILD)/fuzz/fuzz_$(1) -max_total_time=$(2) -seed=$(FUZZ_SEED) -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	  -artifact_prefix=out/fuzz/crash-$(1)- out/fuzz/$(1) tests/fuzz/corpus/$(1) 2>&1 | \
	  grep -E "^INFO: Seed:|^stat::number_of_executed_units|^stat::new_units_added|ERROR|SUMMARY|Test unit written|fuzz_$(1):|Done" ; \
	  test $${PIPESTATUS[0]} -eq 0
endef

# The smoke run in `make test` is reproducible: a fixed seed and a fixed number of inputs per
# target (6 to 11 s each here), from the committed seed corpus into an emptied scratch corpus,
# so a CI failure replays with the same command. Exploration (new seeds, growing corpora) is
# `make fuzz`.
FUZZ_SMOKE_SEED ?= 1
FUZZ_SMOKE_RUNS_cp ?= 1500
FUZZ_SMOKE_RUNS_runtime ?= 20000
FUZZ_SMOKE_RUNS_capture ?= 300000
define FUZZ_SMOKE_RUN
	@rm -rf out/fuzz-smoke/$(1) && mkdir -p out/fuzz-smoke/$(1) out/fuzz
	@echo "fuzz_$(1): $(FUZZ_SMOKE_RUNS_$(1)) inputs, seed $(FUZZ_SMOKE_SEED), corpus tests/fuzz/corpus/$(1)"
	@$(BUILD)/fuzz/fuzz_$(1) -runs=$(FUZZ_SMOKE_RUNS_$(1)) -seed=$(FUZZ_SMOKE_SEED) -timeout=10 -rss_limit_mb=2048 \
	  -print_final_stats=1 -artifact_prefix=out/fuzz/crash-$(1)- out/fuzz-smoke/$(1) tests/fuzz/corpus/$(1) 2>&1 | \
	  grep -E "^stat::number_of_executed_units|^stat::new_units_added|ERROR|SUMMARY|Test unit written|fuzz_$(1):|Done" ; \
	  test $${PIPESTATUS[0]} -eq 0
endef

fuzz: deps fuzz-build
	$(call FUZZ_RUN,cp,$(FUZZ_TIME))
	$(call FUZZ_RUN,runtime,$(FUZZ_TIME))
	$(call FUZZ_RUN,capture,$(FUZZ_TIME))

fuzz-smoke: fuzz-build
	$(call FUZZ_SMOKE_RUN,cp)
	$(call FUZZ_SMOKE_RUN,runtime)
	$(call FUZZ_SMOKE_RUN,capture)

-include $(FUZZ_LIB_OBJS:.o=.d) $(FUZZ_TARGET_OBJS:.o=.d)

.PHONY: fuzz fuzz-build fuzz-smoke

# RTL fuzz depth: FUZZ_RTL_N random, mutated and truncated command buffers through the Verilated
# CP against the model (tb/cp/test_cp.cpp; `make test` runs 200 of them in rtl_cp).
FUZZ_RTL_N ?= 10000
fuzz-rtl: deps $(BUILD)/tests/rtl_cp
	PINEDA_CP_FUZZ_N=$(FUZZ_RTL_N) $(BUILD)/tests/rtl_cp "cp: fuzz: random and mutated command buffers*"

.PHONY: fuzz-rtl
