// SPDX-License-Identifier: Apache-2.0
// The runtime's blend state (docs/om.md section 1): create_blend_state's D3D11 desc and its
// FE_BLEND word, set_blend_state's factor and sample mask, the SET_STATE a draw encodes, and the
// combinations it rejects with a message.
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
}  // namespace

TEST_CASE("blend state words: D3D11 values minus one, the write mask inverted", "[runtime][blend]") {
  CHECK(encode_blend_state(BlendDesc{}).word() == FE_BLEND_RESET);
  BlendDesc d;
  d.render_target.blend_enable = true;
  d.render_target.src_blend = Blend::SRC_ALPHA;
  d.render_target.dest_blend = Blend::INV_SRC_ALPHA;
  d.render_target.blend_op = BlendOp::REV_SUBTRACT;
  d.render_target.src_blend_alpha = Blend::BLEND_FACTOR;
  d.render_target.dest_blend_alpha = Blend::SRC_ALPHA_SAT;
  d.render_target.blend_op_alpha = BlendOp::MAX;
  d.render_target.render_target_write_mask = COLOR_WRITE_ENABLE_RED | COLOR_WRITE_ENABLE_ALPHA;
  const uint32_t want = (1u << BLEND_ENABLE_BIT) | (BF_SRC_ALPHA << BLEND_SRC_LSB) | (BF_INV_SRC_ALPHA << BLEND_DST_LSB) |
                        (BOP_REV_SUBTRACT << BLEND_OP_LSB) | (BF_BLEND_FACTOR << BLEND_SRC_A_LSB) |
                        (BF_SRC_ALPHA_SAT << BLEND_DST_A_LSB) | (BOP_MAX << BLEND_OP_A_LSB) | (6u << BLEND_MASK_OFF_LSB);
  CHECK(encode_blend_state(d).word() == want);
  CHECK(float_to_unorm8(0.5f) == 128);
  CHECK(float_to_unorm8(-1.0f) == 0);
  CHECK(float_to_unorm8(2.0f) == 255);
}

TEST_CASE_METHOD(ManualFixture, "set_blend_state is encoded as FE_BLEND and FE_BLEND_FACTOR on draws", "[runtime][blend]") {
  Resource* pos = bind_clip_positions({-1, -1, 0.5f, 1, -1, 0.5f, -1, 1, 0.5f}, 16, 16);
  BlendDesc desc;
  desc.render_target.blend_enable = true;
  desc.render_target.src_blend = Blend::SRC_ALPHA;
  desc.render_target.dest_blend = Blend::INV_SRC_ALPHA;
  BlendState st;
  REQUIRE(dev.create_blend_state(desc, &st) == Result::OK);
  const float k[4] = {1.0f, 0.0f, 0.5f, 0.25f};
  REQUIRE(ctx.set_blend_state(&st, k) == Result::OK);
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  auto d = submitted_dwords(be);
  CHECK(contains(d, {CommandWriter::header(OP_SET_STATE, FE_BLEND, 2), st.word(), 0x408000FFu}));
  // The default again (null): the reset words.
  REQUIRE(ctx.set_blend_state(nullptr) == Result::OK);
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  d = submitted_dwords(be);
  CHECK(contains(d, {CommandWriter::header(OP_SET_STATE, FE_BLEND, 2), FE_BLEND_RESET, 0xFFFFFFFFu}));
  pos->release();
}

TEST_CASE_METHOD(ManualFixture, "invalid blend states and uses are rejected with a message", "[runtime][blend][errors]") {
  BlendDesc d;
  BlendState st;
  d.render_target.src_blend = Blend::SRC1_ALPHA;
  CHECK(dev.create_blend_state(d, &st) == Result::INVALID_ARG);
  CHECK(dev.last_error().find("dual-source") != std::string::npos);
  d = BlendDesc{};
  d.render_target.dest_blend = static_cast<Blend>(12);
  CHECK(dev.create_blend_state(d, &st) == Result::INVALID_ARG);
  d = BlendDesc{};
  d.render_target.src_blend_alpha = Blend::DEST_COLOR;
  CHECK(dev.create_blend_state(d, &st) == Result::INVALID_ARG);
  CHECK(dev.last_error().find("alpha") != std::string::npos);
  d = BlendDesc{};
  d.render_target.blend_op_alpha = static_cast<BlendOp>(6);
  CHECK(dev.create_blend_state(d, &st) == Result::INVALID_ARG);
  d = BlendDesc{};
  d.render_target.render_target_write_mask = 16;
  CHECK(dev.create_blend_state(d, &st) == Result::INVALID_ARG);
  d = BlendDesc{};
  d.alpha_to_coverage_enable = true;
  CHECK(dev.create_blend_state(d, &st) == Result::INVALID_ARG);
  CHECK(dev.create_blend_state(BlendDesc{}, nullptr) == Result::INVALID_ARG);
  // A sample mask is not supported; a pre-transformed draw cannot blend.
  CHECK(ctx.set_blend_state(nullptr, nullptr, 0x1u) == Result::INVALID_ARG);
  d = BlendDesc{};
  d.render_target.blend_enable = true;
  REQUIRE(dev.create_blend_state(d, &st) == Result::OK);
  REQUIRE(ctx.set_blend_state(&st) == Result::OK);
  REQUIRE(ctx.set_render_target(rt) == Result::OK);
  REQUIRE(ctx.set_pretransformed_vertex_buffer(vb) == Result::OK);
  CHECK(ctx.draw_pretransformed(3, 0) == Result::INVALID_CALL);
  CHECK(ctx.last_error().find("front-end") != std::string::npos);
  REQUIRE(ctx.set_blend_state(nullptr) == Result::OK);
  CHECK(ctx.draw_pretransformed(3, 0) == Result::OK);
}
