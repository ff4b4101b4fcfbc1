// SPDX-License-Identifier: Apache-2.0
// Hierarchical Z over the full model pipeline (docs/depth.md section 6): random depth scenes
// (sim/scenes_depth.cpp ds_hiz_random: both directions, changes of direction, clears of
// rectangles, stencil, late Z, 1x and 4x MSAA) give bit-identical memory (render target, depth
// buffer, everything) with FE_DEPTH.DEPTH_HIZ on and off, with 1, 2 and 4 rasterizers, while
// Hi-Z does reject tiles. (RTL == model with Hi-Z on: the ds_hiz_random scene of `make sim`.)
#include <cstdio>

#include "scene_list.h"
#include "scenes.h"
#include "test_util.h"
#include "top/pineda_top.h"

using namespace pineda;

namespace {

struct Run {
  Memory mem;
  model::Stats stats;
};

Run run(SceneImage img, uint32_t num_rast) {  // by value: the scene's memory is run in place
  model::PinedaTop gpu(img.mem);
  gpu.set_num_rast(num_rast);
  gpu.set_trace_enabled(false);
  for (const auto& [i, v] : img.reg_writes) gpu.reg_write(i, v);
  std::vector<model::HostAction> actions;
  for (const auto& w : img.wait_releases) actions.push_back({w, 0});
  REQUIRE(gpu.run_with_host(actions) == model::RunResult::HALTED);
  REQUIRE(gpu.reg_read(REG_ERROR_CAUSE) == ERR_NONE);
  return {img.mem, gpu.stats()};
}

}  // namespace

TEST_CASE("hiz: random depth scenes give identical memory with Hi-Z on and off", "[hiz][scenes][nosan]") {
  const uint32_t seed0 = test::base_seed();
  uint64_t tested = 0, rejected = 0;
  for (uint32_t k = 0; k < 12; ++k) {
    const uint32_t seed = seed0 + k;
    const uint32_t nr = 1u << (k % 3);
    INFO("scene seed " << seed << " rasterizers " << nr << " (replay: --rng-seed " << seed0 << ")");
    const SceneImage img_on = scenes::scene_ds_hiz_random("on", seed, true);
    const SceneImage img_off = scenes::scene_ds_hiz_random("off", seed, false);
    const Run on = run(img_on, nr);
    Run off = run(img_off, nr);
    CHECK(off.stats.hiz_tested == 0);
    // The command buffers differ in the FE_DEPTH words (the DEPTH_HIZ bit) and nothing else:
    // those dwords are taken from the other run before the comparison.
    Memory init_off = img_off.mem;
    uint32_t cmd_words = 0;
    while (const auto a = img_on.mem.first_difference(init_off)) {
      REQUIRE(++cmd_words < 1000);
      init_off.write32(*a & ~3u, img_on.mem.read32(*a & ~3u));
      off.mem.write32(*a & ~3u, on.mem.read32(*a & ~3u));
    }
    CHECK(cmd_words > 0);
    const auto d = on.mem.first_difference(off.mem);
    INFO("first difference at " << (d ? *d : 0u));
    CHECK_FALSE(d.has_value());
    CHECK(on.stats.pixels_written == off.stats.pixels_written);
    CHECK(on.stats.zs_samples_passed == off.stats.zs_samples_passed);
    tested += on.stats.hiz_tested;
    rejected += on.stats.hiz_rejected;
  }
  std::printf("  hiz on/off scenes: %llu tiles tested, %llu rejected\n", static_cast<unsigned long long>(tested),
              static_cast<unsigned long long>(rejected));
  CHECK(rejected > 0);
}
