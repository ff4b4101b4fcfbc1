// SPDX-License-Identifier: Apache-2.0
#include "replay.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <sstream>

#include "scene_top.h"
#include "top_harness.h"

namespace pineda::cli {

namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

ReplayOutcome replay(const SceneImage& img, const ReplayOptions& o) {
  ReplayOutcome out;
  const bool model = o.backend != Backend::RTL, rtl = o.backend != Backend::MODEL;
  if (model) {
    const auto t0 = std::chrono::steady_clock::now();
    // The trace is kept only when the RTL is compared with it (it can be large).
    out.model = std::make_unique<ModelRun>(run_model(img, tb::kNumRast, o.backend == Backend::BOTH, o.model_budget));
    out.model_seconds = since(t0);
  }
  if (!rtl) return out;

  const auto t0 = std::chrono::steady_clock::now();
  out.rtl_mem = img.mem;
  tb::TopConfig cfg = tb::scene_top_config(img, o);
  cfg.max_cycles = o.max_cycles;
  // The progress line: every ~2 s of wall time, PW line writes so far (of the model's, when known).
  const size_t want_px = out.model ? out.model->gpu->trace().pw_mem.size() : 0;
  const bool tty = isatty(STDERR_FILENO) != 0;
  auto last = t0;
  bool printed = false;
  if (o.progress) {
    cfg.progress = [&](uint64_t cycles, const std::array<uint64_t, tb::kNumBoundaries>& tr) {
      const auto now = std::chrono::steady_clock::now();
      if (std::chrono::duration<double>(now - last).count() < 2.0) return;
      last = now;
      const uint64_t px = tr[static_cast<size_t>(Boundary::PW_MEM)];
      const double s = since(t0);
      std::fprintf(stderr, "%srtl: %llu cycles (%.0f k/s), %llu PW line writes", tty ? "\r" : "",
                   static_cast<unsigned long long>(cycles), static_cast<double>(cycles) / s / 1000.0,
                   static_cast<unsigned long long>(px));
      if (want_px) std::fprintf(stderr, " of %zu (%.0f%%)", want_px, 100.0 * static_cast<double>(px) / static_cast<double>(want_px));
      std::fprintf(stderr, ", %.0f s%s", s, tty ? "   " : "\n");
      printed = true;
    };
  }
  tb::TopHarness h(out.rtl_mem, cfg, tb::RunId{img.name, o.seed, "pineda replay (see --help)"});
  for (const auto& [idx, val] : img.reg_writes) h.reg_write(idx, val);
  tb::ExpectedStreams exp;
  if (o.backend == Backend::BOTH) exp = tb::expect_all(out.model->gpu->trace());
  const tb::TopResult r = h.run(exp);
  if (printed && tty) std::fputc('\n', stderr);
  out.have_rtl = true;
  out.cycles = r.cycles;
  out.rtl_result = replay_result(out.rtl_mem, [&h](uint32_t reg) { return h.reg_read(reg); });
  out.rtl_seconds = since(t0);
  std::ostringstream why;
  if (!r.ok) why << r.report;
  if (r.ok && o.backend == Backend::BOTH) {
    const std::string d = compare_result(out.model->result, out.rtl_result);
    if (!d.empty()) why << "RTL and model differ: " << d;
    if (auto a = out.model->mem.first_difference(out.rtl_mem)) {
      why << "MEMORY MISMATCH test=" << img.name << " addr=" << bits::hex(*a) << " expected="
          << bits::hex(out.model->mem.read32(*a)) << " actual=" << bits::hex(out.rtl_mem.read32(*a)) << "\n";
    }
  }
  out.report = why.str();
  out.ok = out.report.empty();
  return out;
}

}  // namespace pineda::cli
