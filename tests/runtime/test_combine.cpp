// SPDX-License-Identifier: Apache-2.0
// The runtime's texture combiner and alpha test (docs/runtime.md "Combiner and alpha test",
// docs/comb.md): set_texture_combine / set_alpha_test write FE_COMBINE through the state masks
// (only when it changes, on immediate and deferred contexts), every operation's and function's
// encoding, and every invalid value's error.
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
  CHECK(ctx.set_texture_combine(1, TextureCombine::MODULATE) == Result::NOT_SUPPORTED);
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
  std::unique_ptr<DeferredContext> dc;
  REQUIRE(dev.create_deferred_context({}, &dc) == Result::OK);
  Resource* buf = nullptr;
  const std::vector<float> xyz = {-1, -1, 0.5f, 1, -1, 0.5f, -1, 1, 0.5f};
  REQUIRE(dev.create_buffer({36, BIND_VERTEX_BUFFER}, xyz.data(), &buf) == Result::OK);
  InputLayout l;
  REQUIRE(dev.create_input_layout({{Semantic::POSITION, VertexFormat::F32X3, 0, 0}}, &l) == Result::OK);
  dc->set_input_layout(l);
  REQUIRE(dc->set_vertex_buffer(0, buf, 12) == Result::OK);
  REQUIRE(dc->set_render_target(rt) == Result::OK);
  REQUIRE(dc->set_viewport({0, 0, 16, 16, 0, 1}) == Result::OK);
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
