// SPDX-License-Identifier: Apache-2.0
// Scenes as capture files (runtime/capture_file.h): a SceneImage is what a capture file holds;
// the result a replay must reproduce is the golden model's final memory digest and host
// registers (result_registers()).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
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

// The scene through the golden model alone (the trace kept when `trace`), as pineda_sim runs it.
struct ModelRun {
  Memory mem;
  std::unique_ptr<model::Gpu> gpu;
  rt::CaptureResult result;
};
ModelRun run_model(const SceneImage& img, uint32_t num_rast, bool trace);

}  // namespace pineda
