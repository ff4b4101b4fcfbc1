// SPDX-License-Identifier: Apache-2.0
// Misuse of sampled textures, views and samplers that test_texture.cpp's error case does not
// cover (docs/runtime.md "Textures", Errors): released textures, objects of another device, null
// outputs, the remaining sampler fields (address v, min_lod NaN, bias just outside its range),
// non-sampled resources (a depth buffer) and files that are not images. Every refusal leaves the
// output null, says why, and encodes nothing; the state bound before a refused bind is kept.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "rt_test_util.h"
#include "runtime.h"

using namespace pineda;
using namespace pineda::rt;
using namespace pineda::rt::test;

namespace {

Texture2DDesc small_desc() {
  Texture2DDesc d;
  d.width = 8;
  d.height = 8;
  return d;
}

}  // namespace

TEST_CASE_METHOD(ManualFixture, "texture misuse: released textures, null outputs and non-sampled resources",
                 "[runtime][texture][errors]") {
  // A view of a texture the application has released is refused (the handle is dead).
  Resource* t = nullptr;
  REQUIRE(dev.create_texture2d(small_desc(), nullptr, &t) == Result::OK);
  t->release();
  ShaderResourceView* v = nullptr;
  CHECK(dev.create_shader_resource_view(t, nullptr, &v) == Result::INVALID_ARG);
  CHECK(v == nullptr);
  CHECK(dev.last_error().find("live") != std::string::npos);

  // Null outputs.
  REQUIRE(dev.create_texture2d(small_desc(), nullptr, &t) == Result::OK);
  CHECK(dev.create_shader_resource_view(t, nullptr, nullptr) == Result::INVALID_ARG);
  CHECK(dev.create_sampler_state(SamplerDesc{}, nullptr) == Result::INVALID_ARG);

  // A depth-stencil texture and a plain buffer are not sampled textures.
  TextureDesc dd;
  dd.width = 8;
  dd.height = 8;
  dd.format = Format::D24_UNORM_S8_UINT;
  dd.bind = BIND_DEPTH_STENCIL;
  Resource* ds = nullptr;
  REQUIRE(dev.create_texture2d(dd, nullptr, &ds) == Result::OK);
  CHECK(dev.create_shader_resource_view(ds, nullptr, &v) == Result::INVALID_ARG);
  CHECK(v == nullptr);
  CHECK(dev.create_shader_resource_view(vb, nullptr, &v) == Result::INVALID_ARG);
  CHECK(v == nullptr);

  // The view keeps the texture alive: releasing the texture after making the view leaves a
  // usable view (D3D's reference), which binds and draws.
  REQUIRE(dev.create_shader_resource_view(t, nullptr, &v) == Result::OK);
  t->release();
  CHECK(ctx.set_shader_resource(0, v) == Result::OK);
  CHECK(ctx.set_shader_resource(0, nullptr) == Result::OK);
  v->release();
  ds->release();
}

TEST_CASE_METHOD(ManualFixture, "texture misuse: sampler fields outside their ranges", "[runtime][texture][errors]") {
  auto bad = [&](const SamplerDesc& s, const char* why) {
    INFO(why);
    SamplerState* st = nullptr;
    CHECK(dev.create_sampler_state(s, &st) == Result::INVALID_ARG);
    CHECK(st == nullptr);
    CHECK(!dev.last_error().empty());
  };
  SamplerDesc s;
  s.address_v = static_cast<TextureAddressMode>(6);
  bad(s, "address v 6");
  s = SamplerDesc{};
  s.address_v = static_cast<TextureAddressMode>(0);
  bad(s, "address v 0");
  s = SamplerDesc{};
  s.min_lod = NAN;
  bad(s, "min_lod NaN");
  s = SamplerDesc{};
  s.mip_lod_bias = -16.01f;
  bad(s, "bias below -16");
  s.mip_lod_bias = 15.995f;
  bad(s, "bias above 15.99");
  s.mip_lod_bias = INFINITY;
  bad(s, "bias infinite");
  s = SamplerDesc{};
  s.max_anisotropy = 0;
  bad(s, "anisotropy 0");
  s = SamplerDesc{};
  s.comparison_func = static_cast<ComparisonFunc>(9);
  bad(s, "comparison func 9");
  s = SamplerDesc{};
  s.filter = static_cast<Filter>(0x15 | 0x08);
  bad(s, "filter with an unknown bit");
  // The range ends themselves are accepted.
  s = SamplerDesc{};
  s.mip_lod_bias = -16.0f;
  SamplerState* st = nullptr;
  CHECK(dev.create_sampler_state(s, &st) == Result::OK);
  REQUIRE(st != nullptr);
  st->release();
  s.mip_lod_bias = 15.99f;
  s.min_lod = s.max_lod = 2.5f;  // equal LODs are fine
  CHECK(dev.create_sampler_state(s, &st) == Result::OK);
  REQUIRE(st != nullptr);
  st->release();
}

TEST_CASE_METHOD(ManualFixture, "texture misuse: views and samplers of another device", "[runtime][texture][errors]") {
  ManualBackend be2;
  Device dev2(be2, manual_desc());
  Resource* t2 = nullptr;
  REQUIRE(dev2.create_texture2d(small_desc(), nullptr, &t2) == Result::OK);
  ShaderResourceView* v2 = nullptr;
  REQUIRE(dev2.create_shader_resource_view(t2, nullptr, &v2) == Result::OK);
  SamplerState* s2 = nullptr;
  REQUIRE(dev2.create_sampler_state(SamplerDesc{}, &s2) == Result::OK);

  // Another device's texture cannot be viewed here, its view and sampler cannot be bound here.
  ShaderResourceView* v = nullptr;
  CHECK(dev.create_shader_resource_view(t2, nullptr, &v) == Result::INVALID_ARG);
  CHECK(v == nullptr);
  const size_t before = submitted_dwords(be).size();
  CHECK(ctx.set_shader_resource(0, v2) == Result::INVALID_ARG);
  CHECK(!ctx.last_error().empty());
  CHECK(ctx.set_sampler(0, s2) == Result::INVALID_ARG);
  CHECK(!ctx.last_error().empty());
  CHECK(ctx.flush() == Result::OK);
  CHECK(submitted_dwords(be).size() == before);  // nothing was encoded for the refused binds

  // A refused bind keeps what was bound: this device's view and sampler still make a valid draw
  // state (a textured front-end draw needs both).
  Resource* t = nullptr;
  REQUIRE(dev.create_texture2d(small_desc(), nullptr, &t) == Result::OK);
  REQUIRE(dev.create_shader_resource_view(t, nullptr, &v) == Result::OK);
  SamplerState* s = nullptr;
  REQUIRE(dev.create_sampler_state(SamplerDesc{}, &s) == Result::OK);
  REQUIRE(ctx.set_shader_resource(0, v) == Result::OK);
  REQUIRE(ctx.set_sampler(0, s) == Result::OK);
  CHECK(ctx.set_shader_resource(0, v2) == Result::INVALID_ARG);
  CHECK(ctx.set_sampler(0, s2) == Result::INVALID_ARG);
  InputLayout l;
  REQUIRE(dev.create_input_layout({{Semantic::POSITION, VertexFormat::F32X3, 0, 0}}, &l) == Result::OK);
  ctx.set_input_layout(l);
  const float pos[9] = {0, 0, 0.5f, 1, 0, 0.5f, 0, 1, 0.5f};
  Resource* fvb = nullptr;
  REQUIRE(dev.create_buffer({sizeof pos, BIND_VERTEX_BUFFER}, pos, &fvb) == Result::OK);
  REQUIRE(ctx.set_vertex_buffer(0, fvb, 12) == Result::OK);
  REQUIRE(ctx.set_texture_combine(0, TextureCombine::MODULATE) == Result::OK);
  CHECK(ctx.draw(3, 0) == Result::OK);
  ctx.clear_state();
  v->release();
  s->release();
  t->release();
  fvb->release();
  v2->release();
  s2->release();
  t2->release();
}

TEST_CASE_METHOD(ManualFixture, "texture misuse: files that are not images", "[runtime][texture][errors]") {
  Resource* t = nullptr;
  // A file that exists but is not an image (/proc/self/status always exists).
  CHECK(dev.create_texture2d_from_file("/proc/self/status", TexFormat::R8G8B8A8_UNORM, 0, &t) == Result::INVALID_ARG);
  CHECK(t == nullptr);
  CHECK(!dev.last_error().empty());
  // A directory and an empty path.
  CHECK(dev.create_texture2d_from_file("/tmp", TexFormat::R8G8B8A8_UNORM, 0, &t) == Result::INVALID_ARG);
  CHECK(t == nullptr);
  CHECK(dev.create_texture2d_from_file("", TexFormat::R8G8B8A8_UNORM, 0, &t) == Result::INVALID_ARG);
  CHECK(t == nullptr);
}
