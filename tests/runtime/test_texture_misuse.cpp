// SPDX-License-Identifier: Apache-2.0
// Misuse of sampled textures, views and samplers that test_texture.cpp's error case does not
// cover (docs/runtime.md "Textures", Errors): released textures, objects of another device, null
// outputs, the remaining sampler fields (address v, min_lod NaN, bias just outside its range),
// non-sampled resources (a depth buffer) and files that are not images, or corrupt or truncated PNGs. Every refusal leaves the
// output null, says why, and encodes nothing; the state bound before a refused bind is kept.
#include <catch2/catch.hpp>

#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "rt_test_util.h"
#include "runtime.h"
#include "texture.h"

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

namespace {

// A PNG chunk: length, type, data, CRC-32 of type and data.
void put_chunk(std::vector<uint8_t>& f, const char* type, const std::vector<uint8_t>& data) {
  auto put32 = [&f](uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) f.push_back(static_cast<uint8_t>(v >> s));
  };
  put32(static_cast<uint32_t>(data.size()));
  const size_t start = f.size();
  f.insert(f.end(), type, type + 4);
  f.insert(f.end(), data.begin(), data.end());
  put32(static_cast<uint32_t>(crc32(0L, f.data() + start, static_cast<uInt>(f.size() - start))));
}

// A valid 4x4 RGBA8 PNG; `idat_at` gets the offset of its IDAT chunk.
std::vector<uint8_t> small_png(size_t* idat_at) {
  std::vector<uint8_t> f = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  put_chunk(f, "IHDR", {0, 0, 0, 4, 0, 0, 0, 4, 8, 6, 0, 0, 0});  // 4x4, 8-bit RGBA
  std::vector<uint8_t> raw;
  for (uint32_t y = 0; y < 4; ++y) {
    raw.push_back(0);  // filter: none
    for (uint32_t x = 0; x < 4; ++x) raw.insert(raw.end(), {uint8_t(60 * x), uint8_t(60 * y), 128, 255});
  }
  std::vector<uint8_t> z(compressBound(static_cast<uLong>(raw.size())));
  uLongf zn = static_cast<uLongf>(z.size());
  compress2(z.data(), &zn, raw.data(), static_cast<uLong>(raw.size()), 9);
  z.resize(zn);
  *idat_at = f.size();
  put_chunk(f, "IDAT", z);
  put_chunk(f, "IEND", {});
  return f;
}

void fix_crc(std::vector<uint8_t>& f, size_t chunk_at) {
  const uint32_t len = uint32_t{f[chunk_at]} << 24 | uint32_t{f[chunk_at + 1]} << 16 | uint32_t{f[chunk_at + 2]} << 8 | f[chunk_at + 3];
  const uint32_t c = static_cast<uint32_t>(crc32(0L, &f[chunk_at + 4], len + 4));
  for (int i = 0; i < 4; ++i) f[chunk_at + 8 + len + i] = static_cast<uint8_t>(c >> (24 - 8 * i));
}

std::string write_file(const std::string& dir, const char* name, const std::vector<uint8_t>& bytes) {
  const std::string path = dir + "/" + name;
  std::FILE* fp = std::fopen(path.c_str(), "wb");
  REQUIRE(fp);
  if (!bytes.empty()) REQUIRE(std::fwrite(bytes.data(), 1, bytes.size(), fp) == bytes.size());  // data() may be null
  std::fclose(fp);
  return path;
}

// The message load_image_rgba8 gives for a file (it must fail).
std::string load_error(const std::string& path) {
  std::vector<uint8_t> rgba;
  uint32_t w = 0, h = 0;
  std::string why;
  CHECK_FALSE(tex::load_image_rgba8(path, &rgba, &w, &h, &why));
  return why;
}

bool has(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

}  // namespace

TEST_CASE_METHOD(ManualFixture, "texture misuse: corrupt and truncated PNG files are explained",
                 "[runtime][texture][errors][file]") {
  char tmpl[] = "/tmp/pineda_png_XXXXXX";
  REQUIRE(mkdtemp(tmpl));
  const std::string dir = tmpl;
  size_t idat = 0;
  const std::vector<uint8_t> good = small_png(&idat);
  std::vector<std::string> files;

  // The writer is right: the file loads.
  files.push_back(write_file(dir, "good.png", good));
  std::vector<uint8_t> rgba;
  uint32_t w = 0, h = 0;
  std::string why;
  REQUIRE(tex::load_image_rgba8(files.back(), &rgba, &w, &h, &why));
  CHECK((w == 4 && h == 4 && rgba[4 * 5 + 0] == 60 && rgba[4 * 5 + 1] == 60));

  // A damaged IDAT CRC.
  std::vector<uint8_t> bad_crc = good;
  const uint32_t idat_len = uint32_t{good[idat]} << 24 | uint32_t{good[idat + 1]} << 16 | uint32_t{good[idat + 2]} << 8 | good[idat + 3];
  bad_crc[idat + 8 + idat_len] ^= 0x01;
  files.push_back(write_file(dir, "bad_crc.png", bad_crc));
  std::string msg = load_error(files.back());
  INFO(msg);
  CHECK(has(msg, files.back().c_str()));
  CHECK(has(msg, "corrupt PNG"));
  CHECK(has(msg, "IDAT"));
  CHECK(has(msg, "CRC"));
  // Through the device: the same explanation in last_error().
  Resource* t = nullptr;
  CHECK(dev.create_texture2d_from_file(files.back(), TexFormat::R8G8B8A8_UNORM, 0, &t) == Result::INVALID_ARG);
  CHECK(t == nullptr);
  CHECK(has(dev.last_error(), "corrupt PNG"));
  CHECK(has(dev.last_error(), files.back().c_str()));

  // Damaged compressed data with a consistent CRC: the decoder's reason, as a sentence.
  std::vector<uint8_t> bad_zlib = good;
  bad_zlib[idat + 8] = 0x00;  // the zlib header's CMF
  fix_crc(bad_zlib, idat);
  files.push_back(write_file(dir, "bad_zlib.png", bad_zlib));
  msg = load_error(files.back());
  INFO(msg);
  CHECK(has(msg, "corrupt PNG"));
  CHECK(has(msg, "IDAT: incorrect header check"));  // zlib's reason, through libpng

  // A chunk type damaged into an unknown critical chunk (stb said just "IDA" or the like).
  std::vector<uint8_t> bad_name = good;
  bad_name[idat + 7] = 'X';  // IDAT -> IDAX
  fix_crc(bad_name, idat);
  files.push_back(write_file(dir, "bad_name.png", bad_name));
  msg = load_error(files.back());
  INFO(msg);
  CHECK(has(msg, "corrupt PNG"));
  CHECK(has(msg, "IDAX"));

  // Truncated inside the IDAT chunk, before IEND, and inside the signature.
  files.push_back(write_file(dir, "cut_idat.png", std::vector<uint8_t>(good.begin(), good.begin() + idat + 20)));
  msg = load_error(files.back());
  INFO(msg);
  CHECK(has(msg, "truncated PNG"));
  CHECK(has(msg, "ends inside its image data"));
  // Without its IEND trailer but with all its image data, a PNG still loads (as in browsers).
  files.push_back(write_file(dir, "cut_iend.png", std::vector<uint8_t>(good.begin(), good.end() - 12)));
  CHECK(tex::load_image_rgba8(files.back(), &rgba, &w, &h, &why));
  files.push_back(write_file(dir, "cut_sig.png", std::vector<uint8_t>(good.begin(), good.begin() + 5)));
  msg = load_error(files.back());
  INFO(msg);
  CHECK(has(msg, "truncated or not an image file"));

  // Empty, missing, a directory.
  files.push_back(write_file(dir, "empty.png", {}));
  CHECK(has(load_error(files.back()), "empty"));
  CHECK(has(load_error(dir + "/missing.png"), "No such file or directory"));
  CHECK(has(load_error(dir), "directory"));

  for (const std::string& f : files) std::remove(f.c_str());
  ::rmdir(dir.c_str());
}
