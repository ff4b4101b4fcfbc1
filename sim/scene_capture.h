// SPDX-License-Identifier: Apache-2.0
// Scenes as capture files (runtime/capture_file.h): a SceneImage is what a capture file holds;
// the result a replay must reproduce is the golden model's final memory digest and host
// registers (result_registers()).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "capture_file.h"
#include "image_diff.h"
#include "scenes.h"

namespace pineda {

rt::Capture scene_to_capture(const SceneImage& img);
SceneImage capture_to_scene(rt::Capture&& c);
TargetView scene_target(const SceneImage& img);

// The host registers a replay must reproduce: STATUS, ERROR_CAUSE, ERROR_ADDR, RING_RPTR,
// IRQ_STATUS, INT_PAYLOAD, IB_DEPTH and every fence.
std::vector<uint32_t> result_registers();
rt::CaptureResult replay_result(const Memory& mem, const std::function<uint32_t(uint32_t)>& reg_read);
// Empty when `got` reproduces `want`, else what differs (one line each).
std::string compare_result(const rt::CaptureResult& want, const rt::CaptureResult& got);

// A bound on a model run, the model's counterpart of the RTL harness's max_cycles: a command
// stream can loop for ever (a ring that jumps to itself) or hold a draw that takes hours
// (draw_instanced(3, 2^32 - 1)). 0 = no bound.
struct ModelBudget {
  uint64_t max_work = 0;    // units of model::PinedaTop::work(): deterministic
  double max_seconds = 0;   // wall clock, as the runtime's watchdog
};
// Thrown by run_model when the budget runs out; what() says which and how far the run got.
struct ModelBudgetExceeded : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The scene through the golden model alone (the trace kept when `trace`), as pineda_sim runs it.
struct ModelRun {
  Memory mem;
  std::unique_ptr<model::PinedaTop> gpu;
  rt::CaptureResult result;
};
ModelRun run_model(const SceneImage& img, uint32_t num_rast, bool trace, const ModelBudget& budget = {});

}  // namespace pineda
