// SPDX-License-Identifier: Apache-2.0
// Example: draws a few triangles with the runtime on the golden model and writes a PNG.
//   build/runtime_example [out.png]
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "png_writer.h"
#include "runtime.h"

using namespace pineda;
using namespace pineda::rt;

int main(int argc, char** argv) {
  const std::string out = argc > 1 ? argv[1] : "out/runtime/example.png";
  if (std::filesystem::path(out).has_parent_path()) std::filesystem::create_directories(std::filesystem::path(out).parent_path());
  constexpr uint32_t W = 128, H = 96;
  constexpr int32_t PX = 256;  // one pixel in 16.8 fixed point

  GoldenBackend gpu;  // the bit-exact model; RtlBackend (runtime/rtl) is a drop-in replacement
  Device dev(gpu);
  ImmediateContext& ctx = dev.immediate();

  // A render target cleared by the CPU, and a dynamic vertex buffer.
  std::vector<uint32_t> clear(W * H, 0xFF302018u);
  Resource* rt = nullptr;
  Resource* vb = nullptr;
  if (dev.create_texture2d({W, H, 0, BIND_RENDER_TARGET}, clear.data(), &rt) != Result::OK ||
      dev.create_buffer({64 * 8, BIND_VERTEX_BUFFER}, nullptr, &vb) != Result::OK) {
    std::fprintf(stderr, "create failed: %s\n", dev.last_error().c_str());
    return 1;
  }
  const int32_t tris[][6] = {{8, 8, 60, 12, 20, 70}, {64, 10, 120, 40, 70, 88}, {10, 88, 50, 60, 90, 92}};
  Mapped m;
  ctx.map(vb, MapType::WRITE_DISCARD, 0, &m);
  for (size_t i = 0; i < 3; ++i) {
    for (size_t j = 0; j < 6; ++j) {
      const int32_t v = tris[i][j] * PX;
      std::memcpy(m.data + (i * 6 + j) * 4, &v, 4);
    }
  }
  ctx.unmap(vb);

  ctx.set_render_target(rt);
  ctx.set_pretransformed_vertex_buffer(vb);
  const uint32_t colours[] = {0xFF3C3CE6u, 0xFF4BB43Cu, 0xFFC88200u};
  for (uint32_t i = 0; i < 3; ++i) {
    ctx.set_color(colours[i]);
    if (ctx.draw_pretransformed(3, 3 * i) != Result::OK) std::fprintf(stderr, "draw: %s\n", ctx.last_error().c_str());
  }

  // A front-end draw: an indexed square in object space (position F32x3 + colour UNORM8x4 per
  // vertex), rotated by the transform, through the viewport of the right half of the target.
  struct Vtx {
    float x, y, z;
    uint32_t color;
  };
  const Vtx quad[4] = {{-1, -1, 0, 0xFF2020E0u}, {-1, 1, 0, 0xFF20E020u}, {1, 1, 0, 0xFFE02020u}, {1, -1, 0, 0xFF20E0E0u}};
  const uint16_t quad_idx[6] = {0, 1, 2, 0, 2, 3};  // clockwise: front faces
  Resource* qvb = nullptr;
  Resource* qib = nullptr;
  InputLayout layout;
  if (dev.create_buffer({sizeof(quad), BIND_VERTEX_BUFFER}, quad, &qvb) != Result::OK ||
      dev.create_buffer({sizeof(quad_idx), BIND_INDEX_BUFFER}, quad_idx, &qib) != Result::OK ||
      dev.create_input_layout({{Semantic::POSITION, VertexFormat::F32X3, 0, 0}, {Semantic::COLOR, VertexFormat::UNORM8X4, 0, 12}},
                              &layout) != Result::OK) {
    std::fprintf(stderr, "create failed: %s\n", dev.last_error().c_str());
    return 1;
  }
  ctx.set_input_layout(layout);
  ctx.set_vertex_buffer(0, qvb, sizeof(Vtx));
  ctx.set_index_buffer(qib, IndexFormat::R16_UINT);
  ctx.set_viewport({W / 2.0f, 0, W / 2.0f, static_cast<float>(H), 0, 1});
  Matrix4 rot;  // a rotation by 30 degrees about z, scaled by 0.5
  rot.m[0][0] = 0.433f, rot.m[0][1] = -0.25f, rot.m[1][0] = 0.25f, rot.m[1][1] = 0.433f;
  ctx.set_transform(rot);
  if (ctx.draw_indexed(6, 0, 0) != Result::OK) std::fprintf(stderr, "draw_indexed: %s\n", ctx.last_error().c_str());

  // A command list recorded on a deferred context: a scissored copy of the first triangle.
  std::unique_ptr<DeferredContext> dc;
  dev.create_deferred_context({}, &dc);
  dc->set_render_target(rt);
  dc->set_pretransformed_vertex_buffer(vb);
  dc->set_color(0xFFFFFFFFu);
  dc->set_scissor(20, 20, 44, 44);
  dc->draw_pretransformed(3, 0);
  CommandList* list = nullptr;
  dc->finish_command_list(false, &list);
  ctx.execute_command_list(list, true);
  list->release();

  // Read back (waits for the GPU) and write the image.
  if (ctx.map(rt, MapType::READ, 0, &m) != Result::OK) {
    std::fprintf(stderr, "map: %s\n", ctx.last_error().c_str());
    return 1;
  }
  Memory img;
  img.write(0, m.data, m.size);
  ctx.unmap(rt);
  write_png(out, img, 0, rt->pitch(), W, H);
  const DeviceStats st = dev.stats();
  std::printf("drew 5 draws into %ux%u: %llu command buffers, fence %llu, %s; wrote %s\n", W, H,
              static_cast<unsigned long long>(st.flushes), static_cast<unsigned long long>(dev.completed_fence()),
              dev.hardware_call() ? "command list as CALL" : "command list copied", out.c_str());
  ctx.clear_state();
  rt->release();
  vb->release();
  qvb->release();
  qib->release();
  return 0;
}
