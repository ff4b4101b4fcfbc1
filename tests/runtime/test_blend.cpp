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
  d.render_target.logic_op_enable = true;
  d.render_target.blend_enable = true;  // D3D11.1: not both
  CHECK(dev.create_blend_state(d, &st) == Result::INVALID_ARG);
  CHECK(dev.last_error().find("logic op") != std::string::npos);
  d = BlendDesc{};
  d.render_target.logic_op = static_cast<LogicOp>(16);
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

TEST_CASE("render-target formats: bytes per pixel, RT_FMT codes, CLEAR values", "[runtime][blend][formats]") {
  CHECK(format_bytes(Format::R8G8B8A8_UNORM) == 4);
  CHECK(format_bytes(Format::B8G8R8A8_UNORM) == 4);
  CHECK(format_bytes(Format::R8G8B8A8_UNORM_SRGB) == 4);
  CHECK(format_bytes(Format::B5G6R5_UNORM) == 2);
  CHECK(format_bytes(static_cast<Format>(99)) == 0);
  CHECK(rt_format_code(Format::B8G8R8A8_UNORM) == RT_FMT_BGRA8);
  CHECK(rt_format_code(Format::R8G8B8A8_UNORM_SRGB) == RT_FMT_RGBA8_SRGB);
  CHECK(rt_format_code(Format::B5G6R5_UNORM) == RT_FMT_B5G6R5);
  CHECK(rt_format_code(Format::D24_UNORM_S8_UINT) == RT_FMT_NONE);
  CHECK(clear_value(Format::R8G8B8A8_UNORM, 0x80402010u) == 0x80402010u);
  CHECK(clear_value(Format::B8G8R8A8_UNORM, 0x80402010u) == 0x80102040u);
  // sRGB: 0 and 255 stay, linear 128/255 is sRGB 187.84 -> 188, 64/255 -> 137.2 -> 137; alpha linear
  CHECK(clear_value(Format::R8G8B8A8_UNORM_SRGB, 0x7F40FF80u) == 0x7F89FFBCu);
  CHECK(clear_value(Format::R8G8B8A8_UNORM_SRGB, 0x00000000u) == 0u);
  // B5G6R5 in both halfwords: red F800, green 07E0, blue 001F; 128 -> 16 of 31 (15.56), 32 of 63
  CHECK(clear_value(Format::B5G6R5_UNORM, 0xFF0000FFu) == 0xF800F800u);
  CHECK(clear_value(Format::B5G6R5_UNORM, 0x0000FF00u) == 0x07E007E0u);
  CHECK(clear_value(Format::B5G6R5_UNORM, 0x00FF0000u) == 0x001F001Fu);
  CHECK(clear_value(Format::B5G6R5_UNORM, 0x00808080u) == ((16u << 11 | 32u << 5 | 16u) * 0x10001u));
}

TEST_CASE_METHOD(ManualFixture, "render targets of each format: creation checks, RT_FMT on draws, clears",
                 "[runtime][blend][formats][errors]") {
  TextureDesc td{15, 8, 0, BIND_RENDER_TARGET};
  td.format = Format::B5G6R5_UNORM;
  Resource* t565 = nullptr;
  REQUIRE(dev.create_texture2d(td, nullptr, &t565) == Result::OK);
  CHECK(t565->pitch() == 32u);  // 15 * 2 = 30, rounded up to a multiple of 4
  TextureDesc bad = td;
  bad.pitch = 28;  // < 30
  Resource* x = nullptr;
  CHECK(dev.create_texture2d(bad, nullptr, &x) == Result::INVALID_ARG);
  bad.pitch = 34;  // not a multiple of 4
  CHECK(dev.create_texture2d(bad, nullptr, &x) == Result::INVALID_ARG);
  bad = td;
  bad.format = static_cast<Format>(99);
  CHECK(dev.create_texture2d(bad, nullptr, &x) == Result::INVALID_ARG);
  CHECK(dev.last_error().find("format") != std::string::npos);
  bad = td;
  bad.bind = BIND_DEPTH_STENCIL;
  CHECK(dev.create_texture2d(bad, nullptr, &x) == Result::INVALID_ARG);
  TextureDesc tb{16, 8, 0, BIND_RENDER_TARGET};
  tb.format = Format::B8G8R8A8_UNORM;
  Resource* tbgra = nullptr;
  REQUIRE(dev.create_texture2d(tb, nullptr, &tbgra) == Result::OK);
  CHECK(tbgra->pitch() == 64u);

  // A front-end draw encodes the format in FE_RT_PITCH[18:17].
  Resource* pos = bind_clip_positions({-1, -1, 0.5f, 1, -1, 0.5f, -1, 1, 0.5f}, 15, 8);
  REQUIRE(ctx.set_render_target(t565) == Result::OK);
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  auto d = submitted_dwords(be);
  CHECK(std::find(d.begin(), d.end(), (32u << RT_PITCH_LSB) | (RT_FMT_B5G6R5 << RT_FMT_LSB)) != d.end());
  // The pre-transformed draw (OP_DRAW: RGBA8 only) refuses it.
  REQUIRE(ctx.set_pretransformed_vertex_buffer(vb) == Result::OK);
  CHECK(ctx.draw_pretransformed(3, 0) == Result::INVALID_CALL);
  CHECK(ctx.last_error().find("R8G8B8A8_UNORM") != std::string::npos);

  // Clears: the converted value; 1x B5G6R5 in pixel pairs (x0 / 2, ceil(x1 / 2)); 4x below.
  REQUIRE(ctx.clear_render_target_view(t565, 0xFF0000FFu) == Result::OK);
  REQUIRE(ctx.clear_view(t565, 0xFF00FF00u, ClearRect{2, 1, 6, 3}) == Result::OK);
  CHECK(ctx.clear_view(t565, 0xFF00FF00u, ClearRect{1, 0, 4, 2}) == Result::INVALID_ARG);  // odd x0
  CHECK(ctx.last_error().find("even") != std::string::npos);
  CHECK(ctx.clear_view(t565, 0xFF00FF00u, ClearRect{0, 0, 5, 2}) == Result::INVALID_ARG);  // odd x1 < width
  REQUIRE(ctx.clear_render_target_view(tbgra, 0x80402010u) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  d = submitted_dwords(be);
  CHECK(contains(d, {0u | (8u << 16), 0u | (8u << 16), 0xF800F800u}));   // the whole 15-pixel width
  CHECK(contains(d, {1u | (3u << 16), 1u | (3u << 16), 0x07E007E0u}));   // pixels 2..5 of rows 1, 2
  CHECK(contains(d, {0u | (16u << 16), 0u | (8u << 16), 0x80102040u}));  // BGRA8
  ctx.clear_state();
  pos->release();
  t565->release();
  tbgra->release();
}

TEST_CASE_METHOD(ManualFixture, "4x B5G6R5 clears: any x, encoded as 1x CLEARs of two dwords per pixel",
                 "[runtime][clear][blend]") {
  TextureDesc td;
  td.width = 15;
  td.height = 8;
  td.samples = 4;
  td.format = Format::B5G6R5_UNORM;
  td.bind = BIND_RENDER_TARGET;
  Resource* t = nullptr;
  REQUIRE(dev.create_texture2d(td, nullptr, &t) == Result::OK);
  CHECK(t->pitch() == 120u);
  REQUIRE(ctx.clear_render_target_view(t, 0xFF0000FFu) == Result::OK);
  REQUIRE(ctx.clear_view(t, 0xFF00FF00u, ClearRect{1, 2, 6, 5}) == Result::OK);  // odd x0 at 4x: fine
  REQUIRE(ctx.clear_view(t, 0xFF00FF00u, ClearRect{3, 0, 200, 1}) == Result::OK);  // clipped to the width
  REQUIRE(ctx.flush() == Result::OK);
  const auto d = submitted_dwords(be);
  const uint32_t base = t->gpu_address();
  // Header, base, pitch without the 4x flag, x in dwords ([2*x0, 2*x1)), y, value.
  CHECK(contains(d, {CommandWriter::header(OP_CLEAR, 1u << CLEAR_COLOR_BIT, OP_CLEAR_LEN), base, 120u, 0u | 30u << 16,
             0u | 8u << 16, 0xF800F800u}));
  CHECK(contains(d, {base, 120u, 2u | 12u << 16, 2u | 5u << 16, 0x07E007E0u}));
  CHECK(contains(d, {base, 120u, 6u | 30u << 16, 0u | 1u << 16, 0x07E007E0u}));
  t->release();
}

TEST_CASE_METHOD(ManualFixture, "logic ops and alpha to coverage: FE_LOGIC_OP, FE_COMBINE's bit, the sRGB check",
                 "[runtime][blend][logic]") {
  BlendDesc d;
  d.render_target.logic_op_enable = true;
  d.render_target.logic_op = LogicOp::XOR;
  d.render_target.render_target_write_mask = COLOR_WRITE_ENABLE_RED;
  BlendState st;
  REQUIRE(dev.create_blend_state(d, &st) == Result::OK);
  CHECK(st.logic_word() == (1u << LOGIC_ENABLE_BIT | LOP_XOR << LOGIC_OP_LSB));
  CHECK(st.word() == (FE_BLEND_RESET | 14u << BLEND_MASK_OFF_LSB));
  CHECK(!st.alpha_to_coverage());
  CHECK(encode_blend_state(BlendDesc{}).logic_word() == 0u);
  BlendDesc a;
  a.alpha_to_coverage_enable = true;
  BlendState sa;
  REQUIRE(dev.create_blend_state(a, &sa) == Result::OK);
  CHECK(sa.alpha_to_coverage());
  CHECK(sa.logic_word() == 0u);

  Resource* pos = bind_clip_positions({-1, -1, 0.5f, 1, -1, 0.5f, -1, 1, 0.5f}, 16, 16);
  REQUIRE(ctx.set_blend_state(&st) == Result::OK);
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  auto dw = submitted_dwords(be);
  CHECK(contains(dw, {CommandWriter::header(OP_SET_STATE, FE_LOGIC_OP, 1), st.logic_word()}));
  // a pre-transformed draw cannot take a logic op
  REQUIRE(ctx.set_pretransformed_vertex_buffer(vb) == Result::OK);
  CHECK(ctx.draw_pretransformed(3, 0) == Result::INVALID_CALL);
  // alpha to coverage: FE_COMBINE's bit 20, FE_LOGIC_OP back to 0
  REQUIRE(ctx.set_blend_state(&sa) == Result::OK);
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  dw = submitted_dwords(be);
  CHECK(contains(dw, {CommandWriter::header(OP_SET_STATE, FE_COMBINE, 1), 1u << COMB_ALPHA_TO_COVERAGE_BIT}));
  CHECK(contains(dw, {CommandWriter::header(OP_SET_STATE, FE_LOGIC_OP, 1), 0u}));
  // with a depth-stencil view bound, alpha to coverage makes the draw late-Z
  TextureDesc dd{16, 16, 0, BIND_DEPTH_STENCIL};
  dd.format = Format::D24_UNORM_S8_UINT;
  Resource* dtex = nullptr;
  REQUIRE(dev.create_texture2d(dd, nullptr, &dtex) == Result::OK);
  DepthStencilView dsv;
  REQUIRE(dev.create_depth_stencil_view(dtex, &dsv) == Result::OK);
  REQUIRE(ctx.set_render_targets(rt, &dsv) == Result::OK);
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  dw = submitted_dwords(be);
  const uint32_t depth_word = encode_depth_stencil_state(DepthStencilDesc{}).depth_word();
  CHECK((depth_word & (1u << DEPTH_LATE_BIT)) == 0u);
  CHECK(contains(dw, {dtex->pitch(), depth_word | 1u << DEPTH_LATE_BIT}));  // FE_DS_PITCH, FE_DEPTH
  REQUIRE(ctx.set_render_targets(rt, nullptr) == Result::OK);
  // sRGB targets take no logic op (D3D11.1: UNORM formats only)
  TextureDesc td{16, 16, 0, BIND_RENDER_TARGET};
  td.format = Format::R8G8B8A8_UNORM_SRGB;
  Resource* srgb = nullptr;
  REQUIRE(dev.create_texture2d(td, nullptr, &srgb) == Result::OK);
  REQUIRE(ctx.set_render_target(srgb) == Result::OK);
  REQUIRE(ctx.set_blend_state(&st) == Result::OK);
  CHECK(ctx.draw(3, 0) == Result::INVALID_CALL);
  CHECK(ctx.last_error().find("logic op") != std::string::npos);
  REQUIRE(ctx.set_blend_state(&sa) == Result::OK);
  CHECK(ctx.draw(3, 0) == Result::OK);
  ctx.clear_state();
  pos->release();
  srgb->release();
  dtex->release();
}
