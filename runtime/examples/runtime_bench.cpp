// SPDX-License-Identifier: Apache-2.0
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
  bool front_end = false;  // DRAW_FE draws (draw_indexed); state change 1 is then the transform
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
  Resource* ib = nullptr;
  for (auto& v : vb) dev.create_buffer({3 * 8 * 64, BIND_VERTEX_BUFFER}, nullptr, &v);
  dev.create_buffer({3 * 64 * 2, BIND_INDEX_BUFFER}, nullptr, &ib);
  ctx.set_render_target(rt);
  ctx.set_pretransformed_vertex_buffer(vb[0]);
  if (c.front_end) {
    InputLayout layout;
    dev.create_input_layout({{Semantic::POSITION, VertexFormat::F32X3, 0, 0}}, &layout);
    ctx.set_input_layout(layout);
    ctx.set_vertex_buffer(0, vb[0], 12);
    ctx.set_index_buffer(ib, IndexFormat::R16_UINT);
    ctx.set_viewport({0, 0, 256, 256, 0, 1});
  }
  Matrix4 m;
  const auto t0 = std::chrono::steady_clock::now();
  for (uint32_t i = 0; i < draws; ++i) {
    Result r = Result::OK;
    if (c.front_end) {
      if (c.state_changes >= 1) {
        m.m[0][3] = static_cast<float>(i & 255);
        ctx.set_transform(m);
      }
      if (c.state_changes >= 2) ctx.set_vertex_buffer(0, vb[i & 1], 12);
      r = ctx.draw_indexed(3, 3 * (i & 63), 0);
    } else {
      if (c.state_changes >= 1) ctx.set_color(i);
      if (c.state_changes >= 2) ctx.set_pretransformed_vertex_buffer(vb[i & 1]);
      r = ctx.draw_pretransformed(3, 3 * (i & 63));
    }
    if (r != Result::OK) {
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
  ib->release();
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
      {"sync, front end: draw_indexed only", false, 0, true},
      {"sync, front end: transform per draw", false, 1, true},
      {"sync, front end: transform + VB per draw", false, 2, true},
      {"async, front end: transform per draw", true, 1, true},
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
