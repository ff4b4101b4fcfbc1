// Host-side cost per draw: how many draws per second the runtime encodes into command buffers
// and submits to the ring, with the GPU taken out of the picture (a manual backend whose fence
// is completed as soon as the runtime waits). Printed as a table; `make bench` runs it.
//   build/runtime_bench [draws]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "runtime.h"

using namespace pineda;
using namespace pineda::rt;

namespace {

struct Case {
  const char* name;
  bool async;
  int state_changes;  // 0: draw only, 1: colour per draw, 2: colour + vertex buffer per draw
};

double run(const Case& c, uint32_t draws, DeviceStats* st) {
  ManualBackend be;
  be.on_poll = [&be] { be.complete(be.last_kicked_fence()); };  // the "GPU" finishes at once
  DeviceDesc dd;
  dd.async = c.async;
  dd.ring_size = 256 * 1024;
  Device dev(be, dd);
  ImmediateContext& ctx = dev.immediate();
  Resource* rt = nullptr;
  Resource* vb[2] = {nullptr, nullptr};
  dev.create_texture2d({256, 256, 0, BIND_RENDER_TARGET}, nullptr, &rt);
  for (auto& v : vb) dev.create_buffer({3 * 8 * 64, BIND_VERTEX_BUFFER}, nullptr, &v);
  ctx.set_render_target(rt);
  ctx.set_pretransformed_vertex_buffer(vb[0]);
  const auto t0 = std::chrono::steady_clock::now();
  for (uint32_t i = 0; i < draws; ++i) {
    if (c.state_changes >= 1) ctx.set_color(i);
    if (c.state_changes >= 2) ctx.set_pretransformed_vertex_buffer(vb[i & 1]);
    if (ctx.draw_pretransformed(3, 3 * (i & 63)) != Result::OK) {
      std::fprintf(stderr, "draw failed: %s\n", ctx.last_error().c_str());
      std::exit(1);
    }
  }
  ctx.flush();
  const auto t1 = std::chrono::steady_clock::now();
  ctx.wait_idle();
  *st = dev.stats();
  ctx.clear_state();
  rt->release();
  for (auto* v : vb) v->release();
  return std::chrono::duration<double>(t1 - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  const uint32_t draws = argc > 1 ? static_cast<uint32_t>(std::strtoul(argv[1], nullptr, 10)) : 2'000'000;
  const Case cases[] = {
      {"sync, draw only", false, 0},
      {"sync, colour per draw", false, 1},
      {"sync, colour + vertex buffer per draw", false, 2},
      {"async, colour per draw", true, 1},
      {"async, colour + vertex buffer per draw", true, 2},
  };
  std::printf("runtime_bench: host-side cost per draw (%u draws, GPU replaced by a fence that completes at once)\n",
              draws);
  std::printf("%-40s %14s %10s %12s %10s\n", "case", "draws/s", "ns/draw", "cmd buffers", "bytes/draw");
  for (const Case& c : cases) {
    DeviceStats st;
    const double s = run(c, draws, &st);
    std::printf("%-40s %14.0f %10.1f %12llu %10.1f\n", c.name, draws / s, s * 1e9 / draws,
                static_cast<unsigned long long>(st.flushes), static_cast<double>(st.bytes_submitted) / draws);
  }
  return 0;
}
