// SPDX-License-Identifier: Apache-2.0
// The runtime's texture combiner and alpha test (docs/runtime.md "Combiner and alpha test",
// docs/comb.md): set_texture_combine / set_alpha_test write FE_COMBINE through the state masks
// (only when it changes, on immediate and deferred contexts), every operation's and function's
// encoding, and every invalid value's error; stage 1 with texture slot 1 (FE_TEX1 / FE_SAMP1,
// COMB1_*, uv1 from TEXCOORD1), its errors, references and deferred lists.
#include <catch2/catch.hpp>

#include <algorithm>

#include "rt_test_util.h"
#include "runtime.h"

using namespace pineda;
using namespace pineda::rt;
using namespace pineda::rt::test;

namespace {

bool contains(const std::vector<uint32_t>& d, const std::vector<uint32_t>& seq) {
  return std::search(d.begin(), d.end(), seq.begin(), seq.end()) != d.end();
}

size_t count(const std::vector<uint32_t>& d, uint32_t w) { return static_cast<size_t>(std::count(d.begin(), d.end(), w)); }

// The FE_COMBINE word by hand (docs/comb.md section 1).
uint32_t word(bool tex, uint32_t mode, bool at, uint32_t cmp, uint32_t ref) {
  return (tex ? 1u : 0u) | mode << 1 | (at ? 1u << 4 : 0u) | cmp << 5 | ref << 8;
}

struct Tex {
  Resource* t = nullptr;
  ShaderResourceView* v = nullptr;
  SamplerState* s = nullptr;
  explicit Tex(Device& dev) {
    Texture2DDesc d;
    d.width = 8;
    d.height = 8;
    REQUIRE(dev.create_texture2d(d, nullptr, &t) == Result::OK);
    REQUIRE(dev.create_shader_resource_view(t, nullptr, &v) == Result::OK);
    REQUIRE(dev.create_sampler_state(SamplerDesc{}, &s) == Result::OK);
  }
  ~Tex() {
    s->release();
    v->release();
    t->release();
  }
};

}  // namespace

TEST_CASE_METHOD(ManualFixture, "combiner: operations and the alpha test encode FE_COMBINE, written when it changes",
                 "[runtime][combine]") {
  Resource* pos = bind_clip_positions({-1, -1, 0.5f, 1, -1, 0.5f, -1, 1, 0.5f}, 16, 16);
  Tex tx(dev);
  const uint32_t hdr = CommandWriter::header(OP_SET_STATE, FE_COMBINE, 1);
  // the reset state: nothing written
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  CHECK(count(submitted_dwords(be), hdr) == 0);
  REQUIRE(ctx.set_shader_resource(0, tx.v) == Result::OK);
  REQUIRE(ctx.set_sampler(0, tx.s) == Result::OK);
  REQUIRE(ctx.set_texture_combine(0, TextureCombine::MODULATE) == Result::OK);
  REQUIRE(ctx.set_alpha_test(true, ComparisonFunc::GREATER_EQUAL, 128) == Result::OK);
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  // FE_TEX0, FE_SAMP0 and FE_COMBINE change together: one run of three
  const uint32_t w1 = word(true, COMB_MODULATE, true, CMP_GREATER_EQUAL, 128);
  CHECK(w1 == 0x80D1u);
  CHECK(contains(submitted_dwords(be), {CommandWriter::header(OP_SET_STATE, FE_TEX0, 3), tx.v->descriptor_address(),
                                        tx.s->descriptor_address(), w1}));
  // unchanged: not written again
  size_t n = submitted_dwords(be).size();
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  {
    const auto d = submitted_dwords(be);
    CHECK(count(std::vector<uint32_t>(d.begin() + static_cast<long>(n), d.end()), hdr) == 0);
  }
  // every operation and every function
  const std::pair<TextureCombine, uint32_t> ops[] = {{TextureCombine::REPLACE, COMB_REPLACE},
                                                     {TextureCombine::ADD, COMB_ADD},
                                                     {TextureCombine::DECAL, COMB_DECAL},
                                                     {TextureCombine::MODULATE, COMB_MODULATE}};
  for (const auto& [op, mode] : ops) {
    REQUIRE(ctx.set_texture_combine(0, op) == Result::OK);
    for (uint32_t f = 1; f <= 8; ++f) {
      const uint32_t ref = (f * 37) & 255;
      REQUIRE(ctx.set_alpha_test(true, static_cast<ComparisonFunc>(f), ref) == Result::OK);
      REQUIRE(ctx.draw(3, 0) == Result::OK);
      REQUIRE(ctx.flush() == Result::OK);
      INFO("mode " << mode << " func " << f);
      CHECK(contains(submitted_dwords(be), {hdr, word(true, mode, true, f - 1, ref)}));
    }
  }
  // alpha test off, texturing off: back to 0
  REQUIRE(ctx.set_alpha_test(false) == Result::OK);
  REQUIRE(ctx.set_texture_combine(0, TextureCombine::DISABLE) == Result::OK);
  n = submitted_dwords(be).size();
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  {
    const auto d = submitted_dwords(be);
    CHECK(contains(std::vector<uint32_t>(d.begin() + static_cast<long>(n), d.end()), {hdr, 0u}));
  }
  // an alpha test without texturing: the colour's own alpha
  REQUIRE(ctx.set_alpha_test(true, ComparisonFunc::NOT_EQUAL, 0) == Result::OK);
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  CHECK(contains(submitted_dwords(be), {hdr, word(false, 0, true, CMP_NOT_EQUAL, 0)}));
  // clear_state: the reset state again
  ctx.clear_state();
  CHECK(ctx.set_render_target(rt) == Result::OK);
  pos->release();
}

TEST_CASE_METHOD(ManualFixture, "combiner: invalid values and draws without a texture return errors", "[runtime][combine]") {
  CHECK(ctx.set_texture_combine(2, TextureCombine::MODULATE) == Result::INVALID_ARG);
  CHECK(ctx.set_texture_combine(0, static_cast<TextureCombine>(5)) == Result::INVALID_ARG);
  CHECK(ctx.last_error().find("unknown operation") != std::string::npos);
  CHECK(ctx.set_alpha_test(true, static_cast<ComparisonFunc>(0), 0) == Result::INVALID_ARG);
  CHECK(ctx.set_alpha_test(true, static_cast<ComparisonFunc>(9), 0) == Result::INVALID_ARG);
  CHECK(ctx.set_alpha_test(true, ComparisonFunc::LESS, 256) == Result::INVALID_ARG);
  CHECK(ctx.last_error().find("UNORM8") != std::string::npos);
  // the failed calls changed nothing: a draw writes no FE_COMBINE
  Resource* pos = bind_clip_positions({-1, -1, 0.5f, 1, -1, 0.5f, -1, 1, 0.5f}, 16, 16);
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  CHECK(count(submitted_dwords(be), CommandWriter::header(OP_SET_STATE, FE_COMBINE, 1)) == 0);
  // texturing with nothing bound: the draw fails
  REQUIRE(ctx.set_texture_combine(0, TextureCombine::REPLACE) == Result::OK);
  CHECK(ctx.draw(3, 0) == Result::INVALID_CALL);
  CHECK(ctx.last_error().find("slot 0") != std::string::npos);
  Tex tx(dev);
  REQUIRE(ctx.set_shader_resource(0, tx.v) == Result::OK);
  CHECK(ctx.draw(3, 0) == Result::INVALID_CALL);  // a view but no sampler
  REQUIRE(ctx.set_sampler(0, tx.s) == Result::OK);
  CHECK(ctx.draw(3, 0) == Result::OK);
  // pre-transformed draws (OP_DRAW) carry no combiner state
  REQUIRE(ctx.set_texture_combine(0, TextureCombine::DISABLE) == Result::OK);
  REQUIRE(ctx.set_alpha_test(true, ComparisonFunc::GREATER, 10) == Result::OK);
  CHECK(draw(0xFF0000FFu) == Result::INVALID_CALL);
  REQUIRE(ctx.set_alpha_test(false) == Result::OK);
  CHECK(draw(0xFF0000FFu) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  pos->release();
}

TEST_CASE_METHOD(ManualFixture, "combiner: a deferred context's list writes FE_COMBINE", "[runtime][combine]") {
  Resource* buf = nullptr;
  const std::unique_ptr<DeferredContext> dc = deferred_triangle(buf);
  REQUIRE(dc->set_alpha_test(true, ComparisonFunc::LESS_EQUAL, 200) == Result::OK);
  REQUIRE(dc->draw(3, 0) == Result::OK);
  REQUIRE(dc->set_alpha_test(false) == Result::OK);
  REQUIRE(dc->draw(3, 0) == Result::OK);
  CommandList* list = nullptr;
  REQUIRE(dc->finish_command_list(false, &list) == Result::OK);
  const uint32_t hdr = CommandWriter::header(OP_SET_STATE, FE_COMBINE, 1);
  CHECK(contains(list->dwords(), {hdr, word(false, 0, true, CMP_LESS_EQUAL, 200)}));
  CHECK(contains(list->dwords(), {hdr, 0u}));
  REQUIRE(ctx.execute_command_list(list, false) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  list->release();
  buf->release();
}

// ---- stage 1: texture slot 1 --------------------------------------------------------------------

namespace {

uint32_t word1(uint32_t mode0, uint32_t mode1) { return 1u | mode0 << 1 | 1u << 16 | mode1 << 17; }

// A clip-space triangle with uv1 (position F32X3 at 0, TEXCOORD1 F32X2 at 12), bound on `c` with a
// 16x16 viewport; `with_uv1` false: a layout of the position alone. The caller releases the buffer.
Resource* bind_uv1_triangle(Device& dev, Context& c, bool with_uv1 = true) {
  const std::vector<float> v = {-1, -1, 0.5f, 0, 0, 1, -1, 0.5f, 1, 0, -1, 1, 0.5f, 0, 1};
  Resource* buf = nullptr;
  REQUIRE(dev.create_buffer({static_cast<uint32_t>(v.size() * 4), BIND_VERTEX_BUFFER}, v.data(), &buf) == Result::OK);
  InputLayout l;
  std::vector<InputElement> e = {{Semantic::POSITION, VertexFormat::F32X3, 0, 0}};
  if (with_uv1) e.push_back({Semantic::TEXCOORD1, VertexFormat::F32X2, 0, 12});
  REQUIRE(dev.create_input_layout(e, &l) == Result::OK);
  c.set_input_layout(l);
  REQUIRE(c.set_vertex_buffer(0, buf, 20) == Result::OK);
  REQUIRE(c.set_viewport({0, 0, 16, 16, 0, 1}) == Result::OK);
  REQUIRE(c.set_rasterizer_state({CullMode::NONE, false, true}) == Result::OK);
  return buf;
}

}  // namespace

TEST_CASE_METHOD(ManualFixture, "combiner stage 1: slot 1 writes FE_TEX1 / FE_SAMP1 and COMB1_* when it changes",
                 "[runtime][combine][texpipe]") {
  Resource* buf = bind_uv1_triangle(dev, ctx);
  Tex t0(dev), t1(dev);
  REQUIRE(ctx.set_shader_resource(0, t0.v) == Result::OK);
  REQUIRE(ctx.set_sampler(0, t0.s) == Result::OK);
  REQUIRE(ctx.set_shader_resource(1, t1.v) == Result::OK);
  REQUIRE(ctx.set_sampler(1, t1.s) == Result::OK);
  // binding holds a reference on the texture (and on both descriptor buffers)
  CHECK(t1.t->ref_count() == 3);  // the application's, the view's, slot 1's
  REQUIRE(ctx.set_texture_combine(0, TextureCombine::MODULATE) == Result::OK);
  REQUIRE(ctx.set_texture_combine(1, TextureCombine::MODULATE) == Result::OK);
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  // FE_TEX0, FE_SAMP0, FE_COMBINE, FE_TEX1, FE_SAMP1 (64..68) all change: one run of five
  CHECK(word1(COMB_MODULATE, COMB_MODULATE) == 0x10001u);
  CHECK(contains(submitted_dwords(be), {CommandWriter::header(OP_SET_STATE, FE_TEX0, 5), t0.v->descriptor_address(),
                                        t0.s->descriptor_address(), 0x10001u, t1.v->descriptor_address(),
                                        t1.s->descriptor_address()}));
  // every stage-1 op over every stage-0 op
  const std::pair<TextureCombine, uint32_t> ops[] = {{TextureCombine::MODULATE, COMB_MODULATE},
                                                     {TextureCombine::REPLACE, COMB_REPLACE},
                                                     {TextureCombine::ADD, COMB_ADD},
                                                     {TextureCombine::DECAL, COMB_DECAL}};
  const uint32_t hdr = CommandWriter::header(OP_SET_STATE, FE_COMBINE, 1);
  for (const auto& [op0, mode0] : ops) {
    for (const auto& [op1, mode1] : ops) {
      REQUIRE(ctx.set_texture_combine(0, op0) == Result::OK);
      REQUIRE(ctx.set_texture_combine(1, op1) == Result::OK);
      const size_t n = submitted_dwords(be).size();
      REQUIRE(ctx.draw(3, 0) == Result::OK);
      REQUIRE(ctx.flush() == Result::OK);
      INFO("modes " << mode0 << ", " << mode1);
      const auto d = submitted_dwords(be);
      const std::vector<uint32_t> tail(d.begin() + static_cast<long>(n), d.end());
      if (mode0 == COMB_MODULATE && mode1 == COMB_MODULATE) {
        CHECK(count(tail, hdr) == 0);  // unchanged from the draw before
      } else {
        CHECK(contains(tail, {hdr, word1(mode0, mode1)}));
      }
    }
  }
  // a new view in slot 1 alone: FE_TEX1 alone
  Tex t2(dev);
  REQUIRE(ctx.set_shader_resource(1, t2.v) == Result::OK);
  size_t n = submitted_dwords(be).size();
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  {
    const auto d = submitted_dwords(be);
    const std::vector<uint32_t> tail(d.begin() + static_cast<long>(n), d.end());
    CHECK(contains(tail, {CommandWriter::header(OP_SET_STATE, FE_TEX1, 1), t2.v->descriptor_address()}));
    CHECK(count(tail, CommandWriter::header(OP_SET_STATE, FE_TEX0, 1)) == 0);
  }
  CHECK(t1.t->ref_count() == 2);  // slot 1 let go of t1
  // stage 1 DISABLE: COMB1_TEX_ENABLE clear
  REQUIRE(ctx.set_texture_combine(1, TextureCombine::DISABLE) == Result::OK);
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  CHECK(contains(submitted_dwords(be), {hdr, word(true, COMB_DECAL, false, 0, 0)}));
  // D3D9: a DISABLE stage 0 disables stage 1 too; nothing needs to be bound in slot 1 then, and
  // the stage-1 op comes back with stage 0
  REQUIRE(ctx.set_texture_combine(1, TextureCombine::ADD) == Result::OK);
  REQUIRE(ctx.set_texture_combine(0, TextureCombine::DISABLE) == Result::OK);
  REQUIRE(ctx.set_shader_resource(1, nullptr) == Result::OK);
  REQUIRE(ctx.set_sampler(1, nullptr) == Result::OK);
  CHECK(t2.t->ref_count() == 2);
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  CHECK(contains(submitted_dwords(be), {hdr, 0u}));
  REQUIRE(ctx.set_texture_combine(0, TextureCombine::REPLACE) == Result::OK);
  CHECK(ctx.draw(3, 0) == Result::INVALID_CALL);  // stage 1 (ADD) is on again: slot 1 is empty
  REQUIRE(ctx.set_shader_resource(1, t2.v) == Result::OK);
  REQUIRE(ctx.set_sampler(1, t2.s) == Result::OK);
  n = submitted_dwords(be).size();
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  {
    const auto d = submitted_dwords(be);
    CHECK(contains(std::vector<uint32_t>(d.begin() + static_cast<long>(n), d.end()), {hdr, word1(COMB_REPLACE, COMB_ADD)}));
  }
  // clear_state unbinds slot 1
  CHECK(t2.t->ref_count() == 3);
  ctx.clear_state();
  CHECK(t2.t->ref_count() == 2);
  CHECK(ctx.set_render_target(rt) == Result::OK);
  buf->release();
}

TEST_CASE_METHOD(ManualFixture, "combiner stage 1: slot 2, unknown ops, an empty slot 1 and a layout without TEXCOORD1 are errors",
                 "[runtime][combine][texpipe]") {
  Tex t0(dev), t1(dev);
  // slots and stages above 1
  CHECK(ctx.set_shader_resource(2, t1.v) == Result::INVALID_ARG);
  CHECK(ctx.last_error().find("slots 0 and 1") != std::string::npos);
  CHECK(ctx.set_sampler(2, t1.s) == Result::INVALID_ARG);
  CHECK(ctx.last_error().find("slots 0 and 1") != std::string::npos);
  CHECK(ctx.set_shader_resource(UINT32_MAX, nullptr) == Result::INVALID_ARG);
  CHECK(ctx.set_texture_combine(2, TextureCombine::MODULATE) == Result::INVALID_ARG);
  CHECK(ctx.last_error().find("stages 0 and 1") != std::string::npos);
  CHECK(t1.t->ref_count() == 2);  // nothing was bound
  // an unknown stage-1 op
  CHECK(ctx.set_texture_combine(1, static_cast<TextureCombine>(5)) == Result::INVALID_ARG);
  CHECK(ctx.last_error().find("unknown operation 5 for stage 1") != std::string::npos);
  CHECK(ctx.set_texture_combine(1, static_cast<TextureCombine>(0xFFFFFFFFu)) == Result::INVALID_ARG);
  // the failed calls changed nothing: stage 1 is off, slot 1 empty, the draw writes no COMB1 bits
  Resource* buf = bind_uv1_triangle(dev, ctx);
  REQUIRE(ctx.set_shader_resource(0, t0.v) == Result::OK);
  REQUIRE(ctx.set_sampler(0, t0.s) == Result::OK);
  REQUIRE(ctx.set_texture_combine(0, TextureCombine::MODULATE) == Result::OK);
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  CHECK(contains(submitted_dwords(be), {CommandWriter::header(OP_SET_STATE, FE_TEX0, 3), t0.v->descriptor_address(),
                                        t0.s->descriptor_address(), word(true, COMB_MODULATE, false, 0, 0)}));
  CHECK(count(submitted_dwords(be), CommandWriter::header(OP_SET_STATE, FE_TEX1, 1)) == 0);
  // stage 1 on with nothing in slot 1, a view alone, a sampler alone: the draw fails, nothing encoded
  REQUIRE(ctx.set_texture_combine(1, TextureCombine::MODULATE) == Result::OK);
  const size_t n = submitted_dwords(be).size();
  CHECK(ctx.draw(3, 0) == Result::INVALID_CALL);
  CHECK(ctx.last_error().find("texture stage 1") != std::string::npos);
  CHECK(ctx.last_error().find("no shader-resource view and no sampler are bound in slot 1") != std::string::npos);
  REQUIRE(ctx.set_shader_resource(1, t1.v) == Result::OK);
  CHECK(ctx.draw(3, 0) == Result::INVALID_CALL);
  CHECK(ctx.last_error().find("no sampler is bound in slot 1") != std::string::npos);
  REQUIRE(ctx.set_shader_resource(1, nullptr) == Result::OK);
  REQUIRE(ctx.set_sampler(1, t1.s) == Result::OK);
  CHECK(ctx.draw(3, 0) == Result::INVALID_CALL);
  CHECK(ctx.last_error().find("no shader-resource view is bound in slot 1") != std::string::npos);
  REQUIRE(ctx.set_shader_resource(1, t1.v) == Result::OK);
  // stage 1 samples uv1: a layout without TEXCOORD1 fails (D3D11: the layout lacks an input)
  Resource* buf2 = bind_uv1_triangle(dev, ctx, false);
  CHECK(ctx.draw(3, 0) == Result::INVALID_CALL);
  CHECK(ctx.last_error().find("TEXCOORD1") != std::string::npos);
  REQUIRE(ctx.flush() == Result::OK);
  CHECK(submitted_dwords(be).size() == n);
  // ... and is fine with stage 1 off (stage 0 alone needs no uv1)
  REQUIRE(ctx.set_texture_combine(1, TextureCombine::DISABLE) == Result::OK);
  CHECK(ctx.draw(3, 0) == Result::OK);
  // back with TEXCOORD1: drawn
  REQUIRE(ctx.set_texture_combine(1, TextureCombine::MODULATE) == Result::OK);
  buf->release();
  buf = bind_uv1_triangle(dev, ctx);
  CHECK(ctx.draw(3, 0) == Result::OK);
  // pre-transformed draws carry no combiner state
  CHECK(draw(0xFF0000FFu) == Result::INVALID_CALL);
  REQUIRE(ctx.flush() == Result::OK);
  buf->release();
  buf2->release();
}

TEST_CASE_METHOD(ManualFixture, "combiner stage 1: a deferred context's list writes and patches FE_TEX1 / FE_SAMP1 and holds slot 1",
                 "[runtime][combine][texpipe]") {
  Tex t0(dev);
  Tex* t1 = new Tex(dev);
  std::unique_ptr<DeferredContext> dc;
  REQUIRE(dev.create_deferred_context({}, &dc) == Result::OK);
  Resource* buf = bind_uv1_triangle(dev, *dc);
  REQUIRE(dc->set_render_target(rt) == Result::OK);
  REQUIRE(dc->set_shader_resource(0, t0.v) == Result::OK);
  REQUIRE(dc->set_sampler(0, t0.s) == Result::OK);
  REQUIRE(dc->set_shader_resource(1, t1->v) == Result::OK);
  REQUIRE(dc->set_sampler(1, t1->s) == Result::OK);
  REQUIRE(dc->set_texture_combine(0, TextureCombine::MODULATE) == Result::OK);
  REQUIRE(dc->set_texture_combine(1, TextureCombine::ADD) == Result::OK);
  REQUIRE(dc->draw(3, 0) == Result::OK);
  CommandList* list = nullptr;
  REQUIRE(dc->finish_command_list(false, &list) == Result::OK);
  const std::vector<uint32_t> want = {CommandWriter::header(OP_SET_STATE, FE_TEX0, 5), t0.v->descriptor_address(),
                                      t0.s->descriptor_address(), word1(COMB_MODULATE, COMB_ADD),
                                      t1->v->descriptor_address(), t1->s->descriptor_address()};
  CHECK(contains(list->dwords(), want));
  // the application lets go of slot 1's texture, view and sampler: the list holds them (its
  // finish_command_list(false) unbound the context's slots)
  const uint64_t free_before = dev.heap_bytes_free();
  delete t1;
  REQUIRE(ctx.flush() == Result::OK);
  CHECK(dev.heap_bytes_free() == free_before);
  REQUIRE(ctx.execute_command_list(list, false) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  // copied into the ring with the addresses patched in, or run as a CALL of the list's dwords
  CHECK((contains(submitted_dwords(be), want) || contains(list->dwords(), want)));
  // the list released and its execution's fence passed: slot 1's memory retires
  list->release();
  be.complete(be.last_kicked_fence());
  REQUIRE(ctx.flush() == Result::OK);
  CHECK(dev.heap_bytes_free() > free_before);
  buf->release();
}
