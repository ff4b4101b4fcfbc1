// SPDX-License-Identifier: Apache-2.0
// A scene (sim/scenes.h SceneImage: built by a scene or read from a capture file) on the Verilated
// top: what the regression driver (sim/pineda_sim.cpp) and `pineda replay` (tools/pineda/replay.cpp)
// both set up before tb::TopHarness runs it.
#pragma once

#include <cstdint>
#include <string>

#include "line_dram.h"
#include "scenes.h"
#include "top_harness.h"

namespace pineda::tb {

// The RTL run's options both command lines take: DRAM model, boundary throttle, seed, waveform.
struct TopRunOptions {
  LineDramConfig dram;      // line-port DRAM: bytes/clock, latency, jitter
  double throttle = 0.0;    // chance per cycle of stalling each tapped boundary
  uint64_t seed = 1;        // stalls, memory jitter, X initialisation
  std::string fst_path;     // RTL waveform (FST), with the cycle window below; empty: none
  uint64_t wave_from = 0;
  uint64_t wave_to = UINT64_MAX;
};

// The harness configuration for `img` under `o` (its target for pixel coordinates in reports, its
// WAIT_REG releases and end-of-pipe fences).
inline TopConfig scene_top_config(const SceneImage& img, const TopRunOptions& o) {
  TopConfig cfg;
  cfg.dram = o.dram;
  cfg.throttle = o.throttle;
  cfg.seed = o.seed;
  cfg.fst_path = o.fst_path;
  cfg.wave_from = o.wave_from;
  cfg.wave_to = o.wave_to;
  cfg.rt_base = img.rt_base;
  cfg.rt_pitch = img.rt_pitch;
  cfg.wait_releases = img.wait_releases;
  cfg.eop_fence_mask = img.eop_fence_mask;
  return cfg;
}

}  // namespace pineda::tb
