// SPDX-License-Identifier: Apache-2.0
#include "scene_capture.h"

#include <chrono>
#include <iomanip>
#include <sstream>

#include "pineda_contract.h"

namespace pineda {

rt::Capture scene_to_capture(const SceneImage& img) {
  rt::Capture c;
  c.name = img.name;
  c.mem = img.mem;
  c.reg_writes = img.reg_writes;
  c.wait_releases = img.wait_releases;
  c.eop_fence_mask = img.eop_fence_mask;
  c.fence_index = img.fence_index;
  c.fence_value = img.fence_value;
  c.target = {img.rt_base, img.rt_pitch, img.width, img.height, img.samples, img.fmt};
  return c;
}

SceneImage capture_to_scene(rt::Capture&& c) {
  SceneImage img;
  img.name = std::move(c.name);
  img.mem = std::move(c.mem);
  img.reg_writes = std::move(c.reg_writes);
  img.wait_releases = std::move(c.wait_releases);
  img.eop_fence_mask = c.eop_fence_mask;
  img.fence_index = c.fence_index;
  img.fence_value = c.fence_value;
  img.rt_base = c.target.base;
  img.rt_pitch = c.target.pitch;
  img.width = c.target.width;
  img.height = c.target.height;
  img.samples = c.target.samples;
  img.fmt = c.target.fmt;
  return img;
}

TargetView scene_target(const SceneImage& img) {
  return {img.rt_base, img.rt_pitch, img.width, img.height, img.samples, img.fmt};
}

std::vector<uint32_t> result_registers() {
  std::vector<uint32_t> r = {REG_STATUS, REG_ERROR_CAUSE, REG_ERROR_ADDR, REG_RING_RPTR,
                             REG_IRQ_STATUS, REG_INT_PAYLOAD, REG_IB_DEPTH};
  for (uint32_t i = 0; i < NUM_FENCES; ++i) r.push_back(REG_FENCE0 + i);
  return r;
}

rt::CaptureResult replay_result(const Memory& mem, const std::function<uint32_t(uint32_t)>& reg_read) {
  rt::CaptureResult r;
  r.present = true;
  r.memory_digest = mem.digest();
  for (uint32_t reg : result_registers()) r.regs.emplace_back(reg, reg_read(reg));
  return r;
}

std::string compare_result(const rt::CaptureResult& want, const rt::CaptureResult& got) {
  std::ostringstream os;
  if (want.memory_digest != got.memory_digest) {
    os << "memory digest " << bits::hex(got.memory_digest) << ", the capture recorded " << bits::hex(want.memory_digest)
       << "\n";
  }
  for (const auto& [reg, v] : want.regs) {
    for (const auto& [reg2, v2] : got.regs) {
      if (reg2 == reg && v2 != v) {
        os << "register " << reg << " = " << bits::hex(v2) << ", the capture recorded " << bits::hex(v) << "\n";
      }
    }
  }
  return os.str();
}

ModelRun run_model(const SceneImage& img, uint32_t num_rast, bool trace, const ModelBudget& budget) {
  ModelRun m;
  m.mem = img.mem;
  m.gpu = std::make_unique<model::PinedaTop>(m.mem);
  m.gpu->set_num_rast(num_rast);
  m.gpu->set_trace_enabled(trace);
  const model::PinedaTop* g = m.gpu.get();
  const auto t0 = std::chrono::steady_clock::now();
  const auto seconds = [t0] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  if (budget.max_work || budget.max_seconds > 0) {
    m.gpu->set_abort_check([g, budget, seconds] {
      return (budget.max_work && g->work() >= budget.max_work) || (budget.max_seconds > 0 && seconds() > budget.max_seconds);
    });
  }
  for (const auto& [idx, val] : img.reg_writes) m.gpu->reg_write(idx, val);
  std::vector<model::HostAction> actions;
  for (const auto& w : img.wait_releases) actions.push_back({w, 0});
  try {
    m.gpu->run_with_host(actions);
  } catch (const model::GpuAborted&) {
    std::ostringstream os;
    os << "the model stopped " << img.name << " unfinished after " << g->work() << " units of work and "
       << std::fixed << std::setprecision(1) << seconds() << " s (the budget: "
       << (budget.max_work ? std::to_string(budget.max_work) + " units" : std::string("no work limit")) << ", "
       << (budget.max_seconds > 0 ? std::to_string(static_cast<uint64_t>(budget.max_seconds)) + " s" : std::string("no time limit"))
       << "), ring read pointer " << bits::hex(g->reg_read(REG_RING_RPTR))
       << ": the command stream loops (a JUMP or CALL back to itself) or holds a draw larger than the budget";
    throw ModelBudgetExceeded(os.str());
  }
  m.result = replay_result(m.mem, [g](uint32_t r) { return g->reg_read(r); });
  return m;
}

}  // namespace pineda
