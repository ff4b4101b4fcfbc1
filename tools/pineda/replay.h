// SPDX-License-Identifier: Apache-2.0
// Runs a scene (a memory image and host register writes, built by `render` or read from a capture
// file) on the golden model, the Verilated RTL (tb::TopHarness: pineda_top with the DRAM model),
// or both; with both, every stream boundary is compared packet by packet, then the host
// registers and the whole memory, as pineda_sim does.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "line_dram.h"
#include "scene_top.h"
#include "scene_capture.h"
#include "scenes.h"

namespace pineda::cli {

enum class Backend { MODEL, RTL, BOTH };

// The model's default work budget (model::PinedaTop::work()): about 2 minutes of model time here, far
// above the largest regression scene or model render (docs/runtime.md "Capture files").
inline constexpr uint64_t kDefaultModelWork = 1'000'000'000;

// The RTL run's options (dram, throttle, seed, fst_path, wave_from, wave_to) are tb::TopRunOptions.
struct ReplayOptions : tb::TopRunOptions {
  Backend backend = Backend::MODEL;
  bool progress = true;       // a progress line on stderr during RTL runs
  ModelBudget model_budget{kDefaultModelWork, 0};  // the model's bound (ModelBudgetExceeded)
  uint64_t max_cycles = 200'000'000;               // the RTL's bound (a TIMEOUT report)
};

struct ReplayOutcome {
  bool ok = true;
  std::string report;          // what differs (both backends), or why the RTL run failed
  std::unique_ptr<ModelRun> model;  // MODEL and BOTH
  Memory rtl_mem;              // RTL and BOTH
  rt::CaptureResult rtl_result;
  bool have_rtl = false;
  uint64_t cycles = 0;         // RTL cycles
  double model_seconds = 0, rtl_seconds = 0;
  // The memory and result of the backend whose image is shown (the RTL's when it ran).
  const Memory& shown_mem() const { return have_rtl ? rtl_mem : model->mem; }
  const rt::CaptureResult& shown_result() const { return have_rtl ? rtl_result : model->result; }
};

ReplayOutcome replay(const SceneImage& img, const ReplayOptions& o);

}  // namespace pineda::cli
