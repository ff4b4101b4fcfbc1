// SPDX-License-Identifier: Apache-2.0
// Draws that would use a mapped resource are refused (issue 28 item 5; docs/runtime.md "Map"):
// D3D11's rule that a resource may not be used by the GPU while mapped, for every draw path and
// every binding a draw reads or writes, like clears, copies and resolves; Unmap makes the draw
// valid again. Deferred contexts: their own Map at record time, the immediate context's when the
// list is executed.
#include <catch2/catch.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rt_test_util.h"
#include "runtime.h"

using namespace pineda;
using namespace pineda::rt;
using namespace pineda::rt::test;

namespace {

bool mentions(const std::string& msg, const std::string& what) { return msg.find(what) != std::string::npos; }

// A refused call encodes nothing: flush before and after, no new submission.
template <typename F>
void check_refused(ImmediateContext& ctx, ManualBackend& be, F&& call, const std::string& what) {
  REQUIRE(ctx.flush() == Result::OK);
  const size_t kicks = be.kicks().size();
  CHECK(call() == Result::INVALID_CALL);
  INFO(ctx.last_error());
  CHECK(mentions(ctx.last_error(), what));
  CHECK(mentions(ctx.last_error(), "mapped"));
  REQUIRE(ctx.flush() == Result::OK);
  CHECK(be.kicks().size() == kicks);
}

// The manual backend's GPU finishes whatever was submitted when the device polls (Map waits).
void auto_complete(ManualBackend& be) {
  be.on_poll = [&be] { be.complete(be.last_kicked_fence()); };
}

Resource* make_buffer(Device& dev, uint32_t size, uint32_t bind) {
  std::vector<uint8_t> zeros(size, 0);
  Resource* r = nullptr;
  if (dev.create_buffer({size, bind}, zeros.data(), &r) != Result::OK) return nullptr;
  return r;
}

}  // namespace

TEST_CASE_METHOD(ManualFixture, "mapped resources: draw_pretransformed refuses a mapped target or vertex buffer",
                 "[runtime][map][errors]") {
  auto_complete(be);
  Mapped m;
  for (Resource* r : {rt, vb}) {
    REQUIRE(ctx.map(r, MapType::WRITE, 0, &m) == Result::OK);
    check_refused(ctx, be, [&] { return draw(rgba(255, 0, 0)); },
                  r == rt ? "the render target" : "the pre-transformed vertex buffer");
    REQUIRE(ctx.unmap(r) == Result::OK);
    CHECK(draw(rgba(255, 0, 0)) == Result::OK);
  }
  // Map(READ) too: the draw would change what the application reads.
  REQUIRE(ctx.map(rt, MapType::READ, 0, &m) == Result::OK);
  CHECK(draw(rgba(0, 255, 0)) == Result::INVALID_CALL);
  REQUIRE(ctx.unmap(rt) == Result::OK);
}

TEST_CASE_METHOD(ManualFixture, "mapped resources: every front-end draw refuses every mapped binding",
                 "[runtime][map][errors]") {
  auto_complete(be);
  // Slot 0: positions; slot 1: a per-instance colour; an index buffer; a depth-stencil view; a
  // texture in both combiner slots.
  Resource* pos = bind_clip_positions({-1, -1, 0.5f, 1, -1, 0.5f, -1, 1, 0.5f}, 16, 16);
  Resource* inst = make_buffer(dev, 64, BIND_VERTEX_BUFFER);
  Resource* ib = make_buffer(dev, 64, BIND_INDEX_BUFFER);
  REQUIRE(inst);
  REQUIRE(ib);
  InputLayout layout;
  REQUIRE(dev.create_input_layout({{Semantic::POSITION, VertexFormat::F32X3, 0, 0},
                                   {Semantic::COLOR, VertexFormat::UNORM8X4, 1, 0}},
                                  &layout) == Result::OK);
  ctx.set_input_layout(layout);
  REQUIRE(ctx.set_vertex_buffer(1, inst, 4) == Result::OK);
  REQUIRE(ctx.set_index_buffer(ib, IndexFormat::R16_UINT, 0) == Result::OK);
  TextureDesc dd;
  dd.width = 16;
  dd.height = 16;
  dd.format = Format::D24_UNORM_S8_UINT;
  dd.bind = BIND_DEPTH_STENCIL;
  Resource* ds = nullptr;
  REQUIRE(dev.create_texture2d(dd, nullptr, &ds) == Result::OK);
  DepthStencilView dsv;
  REQUIRE(dev.create_depth_stencil_view(ds, &dsv) == Result::OK);
  REQUIRE(ctx.set_render_targets(rt, &dsv) == Result::OK);
  Texture2DDesc td;
  td.width = 8;
  td.height = 8;
  Resource* tex = nullptr;
  REQUIRE(dev.create_texture2d(td, nullptr, &tex) == Result::OK);
  ShaderResourceView* srv = nullptr;
  REQUIRE(dev.create_shader_resource_view(tex, nullptr, &srv) == Result::OK);
  SamplerState* samp = nullptr;
  REQUIRE(dev.create_sampler_state(SamplerDesc{}, &samp) == Result::OK);
  for (uint32_t slot = 0; slot < NUM_TEXTURE_SLOTS; ++slot) {
    REQUIRE(ctx.set_shader_resource(slot, srv) == Result::OK);
    REQUIRE(ctx.set_sampler(slot, samp) == Result::OK);
  }

  struct DrawCall {
    const char* name;
    bool indexed;
    std::function<Result()> call;
  };
  const std::vector<DrawCall> draws = {
      {"draw", false, [&] { return ctx.draw(3, 0); }},
      {"draw_instanced", false, [&] { return ctx.draw_instanced(3, 2, 0, 0); }},
      {"draw_indexed", true, [&] { return ctx.draw_indexed(3, 0, 0); }},
      {"draw_indexed_instanced", true, [&] { return ctx.draw_indexed_instanced(3, 2, 0, 0, 0); }},
  };
  struct Binding {
    Resource* res;
    const char* what;
    bool indexed_only;
  };
  const std::vector<Binding> bindings = {
      {rt, "the render target", false},
      {ds, "the depth-stencil view's texture", false},
      {pos, "the vertex buffer in slot 0", false},
      {inst, "the vertex buffer in slot 1", false},
      {ib, "the index buffer", true},
  };
  for (const DrawCall& d : draws) {
    INFO(d.name);
    REQUIRE(d.call() == Result::OK);
    for (const Binding& b : bindings) {
      INFO(b.what);
      Mapped m;
      REQUIRE(ctx.map(b.res, MapType::READ_WRITE, 0, &m) == Result::OK);
      if (b.indexed_only && !d.indexed) {
        CHECK(d.call() == Result::OK);  // a non-indexed draw does not read the index buffer
      } else {
        check_refused(ctx, be, d.call, std::string(d.name) + ": " + b.what + " is mapped");
      }
      REQUIRE(ctx.unmap(b.res) == Result::OK);
      CHECK(d.call() == Result::OK);
    }
  }
  // A vertex buffer bound in a slot the layout does not read is not used by the draw.
  InputLayout pos_only;
  REQUIRE(dev.create_input_layout({{Semantic::POSITION, VertexFormat::F32X3, 0, 0}}, &pos_only) == Result::OK);
  ctx.set_input_layout(pos_only);
  Mapped m;
  REQUIRE(ctx.map(inst, MapType::WRITE, 0, &m) == Result::OK);
  CHECK(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.unmap(inst) == Result::OK);
  // Sampled textures (both combiner slots' views) cannot be mapped at all: Map refuses them, so a
  // draw can never sample a mapped texture.
  CHECK(ctx.map(tex, MapType::READ, 0, &m) == Result::INVALID_ARG);
  CHECK(ctx.map(tex, MapType::WRITE_DISCARD, 0, &m) == Result::INVALID_ARG);

  ctx.clear_state();
  srv->release();
  samp->release();
  tex->release();
  ds->release();
  ib->release();
  inst->release();
  pos->release();
}

TEST_CASE_METHOD(ManualFixture, "mapped resources: deferred contexts check their own Map when recording and the "
                                "immediate context's when the list runs",
                 "[runtime][map][errors][deferred]") {
  auto_complete(be);
  std::unique_ptr<DeferredContext> dc;
  REQUIRE(dev.create_deferred_context({}, &dc) == Result::OK);
  REQUIRE(dc->set_render_target(rt) == Result::OK);
  REQUIRE(dc->set_pretransformed_vertex_buffer(vb) == Result::OK);
  // The immediate context's Map is not visible when recording (as in D3D11)...
  Mapped m;
  REQUIRE(ctx.map(rt, MapType::WRITE, 0, &m) == Result::OK);
  CHECK(dc->draw_pretransformed(3, 0) == Result::OK);
  CommandList* list = nullptr;
  REQUIRE(dc->finish_command_list(false, &list) == Result::OK);
  // ... but executing the list while the target is mapped is refused, and encodes nothing.
  check_refused(ctx, be, [&] { return ctx.execute_command_list(list, true); }, "execute_command_list: the list uses");
  CHECK(mentions(ctx.last_error(), "16x16 texture"));
  REQUIRE(ctx.unmap(rt) == Result::OK);
  CHECK(ctx.execute_command_list(list, true) == Result::OK);
  // A list calling one that uses a mapped buffer is refused too.
  REQUIRE(dc->execute_command_list(list, true) == Result::OK);
  CommandList* outer = nullptr;
  REQUIRE(dc->finish_command_list(false, &outer) == Result::OK);
  REQUIRE(ctx.map(vb, MapType::READ, 0, &m) == Result::OK);
  CHECK(ctx.execute_command_list(outer, true) == Result::INVALID_CALL);
  CHECK(mentions(ctx.last_error(), "buffer"));
  REQUIRE(ctx.unmap(vb) == Result::OK);
  CHECK(ctx.execute_command_list(outer, true) == Result::OK);
  outer->release();
  list->release();

  // The deferred context's own Map (WRITE_DISCARD) of a bound buffer: refused until its Unmap.
  REQUIRE(dc->set_render_target(rt) == Result::OK);
  REQUIRE(dc->set_pretransformed_vertex_buffer(vb) == Result::OK);
  REQUIRE(dc->map(vb, MapType::WRITE_DISCARD, 0, &m) == Result::OK);
  CHECK(dc->draw_pretransformed(3, 0) == Result::INVALID_CALL);
  CHECK(mentions(dc->last_error(), "the pre-transformed vertex buffer is mapped"));
  REQUIRE(dc->unmap(vb) == Result::OK);
  CHECK(dc->draw_pretransformed(3, 0) == Result::OK);
  REQUIRE(dc->finish_command_list(false, &list) == Result::OK);
  CHECK(ctx.execute_command_list(list, false) == Result::OK);
  list->release();
  dc.reset();
}
