// SPDX-License-Identifier: Apache-2.0
// Renders a regression scene with the golden model alone and writes a PNG of its render target.
//   model_run <scene> [--seed N] [--out file.png] [--no-trace]
//   model_run --list
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "png_writer.h"
#include "scenes.h"
#include "dma/resolve.h"
#include "top/pineda_top.h"

namespace {

int usage() {
  std::fprintf(stderr, "usage: model_run <scene> [--seed N] [--out file.png] [--no-trace]\n       model_run --list\n");
  return 2;
}

const char* result_name(pineda::model::RunResult r) {
  switch (r) {
    case pineda::model::RunResult::RING_EMPTY: return "ring empty";
    case pineda::model::RunResult::HALTED: return "halted";
    case pineda::model::RunResult::ERROR: return "error";
    case pineda::model::RunResult::DISABLED: return "disabled";
    case pineda::model::RunResult::BUDGET: return "budget";
    case pineda::model::RunResult::WAITING: return "waiting";
  }
  return "?";
}

}  // namespace

int main(int argc, char** argv) {
  std::string scene, out;
  uint32_t seed = 1;
  bool trace = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--list") {
      for (const auto& s : pineda::scene_registry()) std::printf("%-14s %s\n", s.name.c_str(), s.description.c_str());
      return 0;
    } else if (a == "--seed" && i + 1 < argc) {
      seed = static_cast<uint32_t>(std::strtoul(argv[++i], nullptr, 0));
    } else if (a == "--out" && i + 1 < argc) {
      out = argv[++i];
    } else if (a == "--no-trace") {
      trace = false;
    } else if (!a.empty() && a[0] != '-' && scene.empty()) {
      scene = a;
    } else {
      return usage();
    }
  }
  if (scene.empty()) return usage();
  if (out.empty()) out = scene + ".png";
  try {
    pineda::SceneImage img = pineda::build_scene(scene, seed);
    pineda::model::PinedaTop gpu(img.mem);
    gpu.set_trace_enabled(trace);
    for (const auto& [idx, val] : img.reg_writes) gpu.reg_write(idx, val);
    const auto t0 = std::chrono::steady_clock::now();
    const auto res = gpu.run();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const auto& s = gpu.stats();
    std::printf("scene %s seed %u: %s after %.1f ms, STATUS=0x%x FENCE0=0x%x irq=%d\n", scene.c_str(), seed,
                result_name(res), ms, gpu.reg_read(pineda::REG_STATUS), gpu.reg_read(pineda::REG_FENCE0), gpu.irq() ? 1 : 0);
    std::printf("  draws %llu, triangles %llu (culled: %llu zero-area, %llu empty), setup %llu\n",
                static_cast<unsigned long long>(s.draws), static_cast<unsigned long long>(s.triangles_in),
                static_cast<unsigned long long>(s.triangles_culled_area),
                static_cast<unsigned long long>(s.triangles_culled_empty),
                static_cast<unsigned long long>(s.triangles_setup));
    std::printf("  tiles visited %llu, emitted %llu, accepted %llu, covered %llu; pixels written %llu\n",
                static_cast<unsigned long long>(s.tiles_visited), static_cast<unsigned long long>(s.tiles_emitted),
                static_cast<unsigned long long>(s.tiles_accepted), static_cast<unsigned long long>(s.tiles_covered),
                static_cast<unsigned long long>(s.pixels_written));
    std::printf("  quads %llu; colour cache: %llu line writes (%.2f bytes of port per pixel or sample)\n",
                static_cast<unsigned long long>(s.quads), static_cast<unsigned long long>(s.pw_lines),
                s.pixels_written ? 64.0 * static_cast<double>(s.pw_lines) / static_cast<double>(s.pixels_written) : 0.0);
    std::printf("  memory digest 0x%016llx\n", static_cast<unsigned long long>(img.mem.digest()));
    if (img.samples == 4) {  // 4x MSAA: the resolved image
      pineda::Memory resolved;
      const uint32_t dbpp = pineda::model::resolve_dst_bpp(img.fmt);
      pineda::model::resolve_msaa4(img.mem, img.rt_base, img.rt_pitch, resolved, 0, img.width * dbpp, img.width,
                                   img.height, img.fmt);
      pineda::write_png(out, resolved, 0, img.width * dbpp, img.width, img.height, img.fmt);
    } else {
      pineda::write_png(out, img.mem, img.rt_base, img.rt_pitch, img.width, img.height);
    }
    std::printf("  wrote %s (%ux%u)\n", out.c_str(), img.width, img.height);
    return res == pineda::model::RunResult::HALTED ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "model_run: %s\n", e.what());
    return 1;
  }
}
