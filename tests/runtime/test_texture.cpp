// SPDX-License-Identifier: Apache-2.0
// The runtime's sampled textures (docs/runtime.md "Textures", docs/tex.md sections 2-3): the
// bytes create_texture2d writes to GPU memory (4x4 block layout of a known image in every format,
// mip chain sizes and offsets, host-generated mips, BC blocks the decoder reads back), the view
// and sampler descriptors, the SET_STATE of FE_TEX0 / FE_SAMP0 a draw encodes, deferred
// destruction, update_subresource, and every invalid description's error.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "rt_test_util.h"
#include "runtime.h"
#include "tex/tex.h"
#include "tex/tex_bc_decode.h"

using namespace pineda;
using namespace pineda::rt;
using namespace pineda::rt::test;

namespace {

// A w x h RGBA8 image whose texel (x, y) is (x * 16 + 1, y * 16 + 2, x ^ y, 200 + x + y).
std::vector<uint8_t> known_image(uint32_t w, uint32_t h) {
  std::vector<uint8_t> p(static_cast<size_t>(w) * h * 4);
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t x = 0; x < w; ++x) {
      uint8_t* t = &p[(static_cast<size_t>(y) * w + x) * 4];
      t[0] = static_cast<uint8_t>(x * 16 + 1);
      t[1] = static_cast<uint8_t>(y * 16 + 2);
      t[2] = static_cast<uint8_t>(x ^ y);
      t[3] = static_cast<uint8_t>(200 + x + y);
    }
  }
  return p;
}

std::vector<uint8_t> read_mem(Device& dev, uint32_t addr, uint32_t n) {
  std::vector<uint8_t> b(n);
  dev.backend().memory().read(addr, b.data(), n);
  return b;
}

// Byte offset, inside a level, of texel (x, y): its block, then (4 * ty + tx) * bytes per texel.
uint32_t texel_offset(const tex::Level& L, uint32_t x, uint32_t y, uint32_t bpb, uint32_t bpt) {
  return ((y / 4) * L.blocks_x + x / 4) * bpb + ((y % 4) * 4 + x % 4) * bpt;
}

bool contains(const std::vector<uint32_t>& d, const std::vector<uint32_t>& seq) {
  return std::search(d.begin(), d.end(), seq.begin(), seq.end()) != d.end();
}

Resource* make_tex(Device& dev, const Texture2DDesc& d, const void* data, uint32_t pitch) {
  Resource* r = nullptr;
  const SubresourceData init{data, pitch};
  if (dev.create_texture2d(d, data ? &init : nullptr, &r) != Result::OK) return nullptr;
  return r;
}

}  // namespace

TEST_CASE("texture chain layout: D3D level sizes, 4x4 blocks, 64-byte aligned levels", "[runtime][texture]") {
  CHECK(tex::full_chain_levels(1, 1) == 1);
  CHECK(tex::full_chain_levels(5, 3) == 3);
  CHECK(tex::full_chain_levels(4096, 1) == 13);
  CHECK(tex::full_chain_levels(4096, 4096) == TEX_MAX_LEVELS);
  uint32_t total = 0;
  const auto L = tex::chain_layout(13, 7, 4, TexFormat::R8G8B8A8_UNORM, &total);
  REQUIRE(L.size() == 4);
  const uint32_t want[4][4] = {{13, 7, 4, 2}, {6, 3, 2, 1}, {3, 1, 1, 1}, {1, 1, 1, 1}};
  uint32_t off = 0;
  for (int l = 0; l < 4; ++l) {
    CHECK(L[l].width == want[l][0]);
    CHECK(L[l].height == want[l][1]);
    CHECK(L[l].blocks_x == want[l][2]);
    CHECK(L[l].blocks_y == want[l][3]);
    CHECK(L[l].offset == off);
    CHECK(L[l].bytes == want[l][2] * want[l][3] * 64);
    off = (L[l].offset + L[l].bytes + 63) & ~63u;
  }
  CHECK(total == L[3].offset + 64);
  // BC1: 8-byte blocks, level 1 of 8x8 starts at 64 (32 bytes rounded up)
  const auto B = tex::chain_layout(8, 8, 4, TexFormat::BC1_UNORM, &total);
  CHECK(B[0].bytes == 32);
  CHECK(B[1].offset == 64);
  CHECK(B[1].bytes == 8);
  CHECK(B[2].offset == 128);
  CHECK(total == 192 + 8);
}

TEST_CASE("texture chain layout: the runtime's equals the sampler model's (pineda::model::tex::chain)",
          "[runtime][texture]") {
  const uint32_t sizes[][2] = {{1, 1}, {4, 4}, {13, 7}, {40, 12}, {4096, 3}, {5, 4096}, {1000, 999}, {4096, 4096}};
  for (const auto& wh : sizes) {
    for (uint32_t f = 0; f <= TEX_FMT_BC3; ++f) {
      const uint32_t levels = tex::full_chain_levels(wh[0], wh[1]);
      REQUIRE(levels == model::tex::full_levels(wh[0], wh[1]));
      TexDesc td;
      td.base = 0x10000;
      td.width = wh[0];
      td.height = wh[1];
      td.fmt = f;
      td.levels = levels;
      const model::tex::Chain mc = model::tex::chain(td);
      uint32_t total = 0;
      const auto L = tex::chain_layout(wh[0], wh[1], levels, static_cast<TexFormat>(f), &total);
      INFO(wh[0] << " x " << wh[1] << " fmt " << f);
      CHECK(mc.end == 0x10000u + total);
      for (uint32_t l = 0; l < levels; ++l) {
        CHECK(mc.lv[l].base == 0x10000u + L[l].offset);
        CHECK(mc.lv[l].bytes == L[l].bytes);
        CHECK(mc.lv[l].w == L[l].width);
        CHECK(mc.lv[l].h == L[l].height);
      }
    }
  }
}

TEST_CASE_METHOD(ManualFixture, "create_texture2d writes a known image in 4x4 blocks, every uncompressed format",
                 "[runtime][texture]") {
  const uint32_t W = 6, H = 5;  // not block multiples: the edge blocks repeat the last column / row
  const std::vector<uint8_t> img = known_image(W, H);
  for (TexFormat f : {TexFormat::R8G8B8A8_UNORM, TexFormat::R8G8B8A8_UNORM_SRGB, TexFormat::B8G8R8A8_UNORM,
                      TexFormat::B5G6R5_UNORM}) {
    INFO(tex::format_name(f));
    Texture2DDesc d;
    d.width = W;
    d.height = H;
    d.format = f;
    d.misc = TEX_MISC_INIT_RGBA8;
    Resource* t = make_tex(dev, d, img.data(), W * 4);
    REQUIRE(t);
    CHECK(t->sampled());
    CHECK(t->mip_levels() == 1);
    const auto L = tex::chain_layout(W, H, 1, f);
    const uint32_t bpb = tex::bytes_per_block(f), bpt = tex::bytes_per_texel(f);
    CHECK(t->size() == 4 * bpb);  // 2 x 2 blocks
    const std::vector<uint8_t> mem = read_mem(dev, t->gpu_address(), t->size());
    for (uint32_t y = 0; y < 8; ++y) {
      for (uint32_t x = 0; x < 8; ++x) {
        const uint8_t* s = &img[(std::min(y, H - 1) * W + std::min(x, W - 1)) * 4];
        const uint8_t* m = &mem[texel_offset(L[0], x, y, bpb, bpt)];
        if (f == TexFormat::B8G8R8A8_UNORM) {
          CHECK((m[0] == s[2] && m[1] == s[1] && m[2] == s[0] && m[3] == s[3]));
        } else if (f == TexFormat::B5G6R5_UNORM) {
          const uint32_t v = m[0] | m[1] << 8;
          const uint32_t r = (s[0] * 31u + 127u) / 255u, g = (s[1] * 63u + 127u) / 255u, b = (s[2] * 31u + 127u) / 255u;
          CHECK(v == (r << 11 | g << 5 | b));
        } else {
          CHECK(std::memcmp(m, s, 4) == 0);
        }
      }
    }
    t->release();
  }
}

TEST_CASE_METHOD(ManualFixture, "create_texture2d: the format's own data is swizzled unchanged, BC blocks copied",
                 "[runtime][texture]") {
  // B5G6R5 texels as 16-bit values v = 100 * y + x
  std::vector<uint16_t> px(8 * 4);
  for (uint32_t i = 0; i < px.size(); ++i) px[i] = static_cast<uint16_t>(100 * (i / 8) + i % 8);
  Texture2DDesc d;
  d.width = 8;
  d.height = 4;
  d.format = TexFormat::B5G6R5_UNORM;
  Resource* t = make_tex(dev, d, px.data(), 16);
  REQUIRE(t);
  const auto L = tex::chain_layout(8, 4, 1, d.format);
  const std::vector<uint8_t> mem = read_mem(dev, t->gpu_address(), t->size());
  for (uint32_t y = 0; y < 4; ++y) {
    for (uint32_t x = 0; x < 8; ++x) {
      const uint32_t o = texel_offset(L[0], x, y, 32, 2);
      CHECK(static_cast<uint32_t>(mem[o] | mem[o + 1] << 8) == 100 * y + x);
    }
  }
  t->release();
  // BC3 blocks given as rows of blocks (8x8: 2 x 2 blocks of 16 bytes, pitch 40 with padding)
  std::vector<uint8_t> blocks(2 * 40);
  for (size_t i = 0; i < blocks.size(); ++i) blocks[i] = static_cast<uint8_t>(i * 7 + 3);
  d = Texture2DDesc{};
  d.width = 8;
  d.height = 8;
  d.format = TexFormat::BC3_UNORM;
  t = make_tex(dev, d, blocks.data(), 40);
  REQUIRE(t);
  const std::vector<uint8_t> bm = read_mem(dev, t->gpu_address(), 64);
  CHECK(std::memcmp(&bm[0], &blocks[0], 32) == 0);
  CHECK(std::memcmp(&bm[32], &blocks[40], 32) == 0);
  t->release();
}

TEST_CASE_METHOD(ManualFixture, "create_texture2d encodes RGBA8 as BC1/BC3 that the decoder reads back",
                 "[runtime][texture][bc]") {
  // Two colours that 565 holds exactly, alpha 0x40 / 0xC0 (BC3), in a pattern: decoded exactly.
  const uint32_t W = 8, H = 8;
  std::vector<uint8_t> img(W * H * 4);
  const uint8_t ca[4] = {0x84, 0x41, 0x10, 0x40}, cb[4] = {0x21, 0xC3, 0xFF, 0xC0};  // r5 16 / 4, g6 16 / 48, b5 2 / 31
  for (uint32_t i = 0; i < W * H; ++i) std::memcpy(&img[4 * i], ((i * 5) % 3) ? ca : cb, 4);
  for (TexFormat f : {TexFormat::BC1_UNORM, TexFormat::BC3_UNORM}) {
    INFO(tex::format_name(f));
    Texture2DDesc d;
    d.width = W;
    d.height = H;
    d.format = f;
    d.misc = TEX_MISC_INIT_RGBA8;
    Resource* t = make_tex(dev, d, img.data(), W * 4);
    REQUIRE(t);
    const bool bc3 = f == TexFormat::BC3_UNORM;
    const uint32_t bpb = tex::bytes_per_block(f);
    CHECK(t->size() == 4 * bpb);
    const std::vector<uint8_t> mem = read_mem(dev, t->gpu_address(), t->size());
    for (uint32_t b = 0; b < 4; ++b) {
      uint64_t lo = 0, hi = 0;
      std::memcpy(&lo, &mem[b * bpb], 8);
      if (bc3) std::memcpy(&hi, &mem[b * bpb + 8], 8);
      const model::tex::BcTexels tx = model::tex::bc_decode_block(lo, hi, bc3);
      for (uint32_t k = 0; k < 16; ++k) {
        const uint32_t x = (b % 2) * 4 + k % 4, y = (b / 2) * 4 + k / 4;
        uint32_t want = 0;
        std::memcpy(&want, &img[(y * W + x) * 4], 4);
        if (!bc3) want |= 0xFF000000u;
        CHECK(tx[k] == want);
      }
    }
    t->release();
  }
}

TEST_CASE_METHOD(ManualFixture, "mip chains: 0 levels is the full chain, host-generated levels", "[runtime][texture][mips]") {
  const uint32_t W = 64, H = 32;
  std::vector<uint8_t> flat(W * H * 4);
  for (uint32_t i = 0; i < W * H; ++i) {
    flat[4 * i] = 10;
    flat[4 * i + 1] = 120;
    flat[4 * i + 2] = 250;
    flat[4 * i + 3] = 77;
  }
  for (TexFormat f : {TexFormat::R8G8B8A8_UNORM, TexFormat::R8G8B8A8_UNORM_SRGB, TexFormat::B5G6R5_UNORM}) {
    INFO(tex::format_name(f));
    Texture2DDesc d;
    d.width = W;
    d.height = H;
    d.mip_levels = 0;
    d.format = f;
    d.misc = TEX_MISC_INIT_RGBA8 | TEX_MISC_GENERATE_MIPS;
    Resource* t = make_tex(dev, d, flat.data(), W * 4);
    REQUIRE(t);
    REQUIRE(t->mip_levels() == 7);  // 64x32 .. 1x1
    uint32_t total = 0;
    const auto L = tex::chain_layout(W, H, 7, f, &total);
    CHECK(t->size() == total);
    CHECK(L[6].width == 1);
    CHECK(L[6].height == 1);
    CHECK(L[5].width == 2);
    CHECK(L[5].height == 1);
    // a flat image stays flat at every level (first texel of each level)
    const std::vector<uint8_t> mem = read_mem(dev, t->gpu_address(), t->size());
    for (uint32_t l = 0; l < 7; ++l) {
      const uint8_t* m = &mem[L[l].offset];
      if (f == TexFormat::B5G6R5_UNORM) {
        CHECK(static_cast<uint32_t>(m[0] | m[1] << 8) == ((1u << 11) | (30u << 5) | 30u));  // (c * 31 or 63 + 127) / 255: 10 -> 1, 120 -> 30, 250 -> 30
      } else {
        CHECK((m[0] == 10 && m[1] == 120 && m[2] == 250 && m[3] == 77));
      }
    }
    t->release();
  }
  // a 2x2 checker of black and white averages to grey at level 1 (linear) and brighter in sRGB
  std::vector<uint8_t> chk(4 * 4 * 4);
  for (uint32_t i = 0; i < 16; ++i) {
    const uint8_t v = ((i % 4) + (i / 4)) % 2 ? 255 : 0;
    chk[4 * i] = chk[4 * i + 1] = chk[4 * i + 2] = v;
    chk[4 * i + 3] = 255;
  }
  uint8_t lin = 0, srgb = 0;
  for (TexFormat f : {TexFormat::R8G8B8A8_UNORM, TexFormat::R8G8B8A8_UNORM_SRGB}) {
    Texture2DDesc d;
    d.width = 4;
    d.height = 4;
    d.mip_levels = 2;
    d.format = f;
    d.misc = TEX_MISC_GENERATE_MIPS;  // RGBA8 formats: the data are RGBA8 already
    Resource* t = make_tex(dev, d, chk.data(), 16);
    REQUIRE(t);
    const auto L = tex::chain_layout(4, 4, 2, f);
    const uint8_t v = read_mem(dev, t->gpu_address() + L[1].offset, 4)[0];
    (f == TexFormat::R8G8B8A8_UNORM ? lin : srgb) = v;
    t->release();
  }
  CHECK(std::abs(lin - 128) <= 1);   // (0 + 255) / 2 = 127.5
  CHECK(std::abs(srgb - 188) <= 1);  // linear 0.5 encoded as sRGB: 187.5
}

TEST_CASE_METHOD(ManualFixture, "shader-resource view and sampler descriptors in GPU memory", "[runtime][texture]") {
  Texture2DDesc d;
  d.width = 40;
  d.height = 12;
  d.mip_levels = 0;  // 6 levels
  d.format = TexFormat::BC3_UNORM;
  Resource* t = make_tex(dev, d, nullptr, 0);
  REQUIRE(t);
  REQUIRE(t->mip_levels() == 6);
  const auto L = tex::chain_layout(40, 12, 6, d.format);
  ShaderResourceView* v = nullptr;
  ShaderResourceViewDesc vd;
  vd.most_detailed_mip = 2;
  REQUIRE(dev.create_shader_resource_view(t, &vd, &v) == Result::OK);
  CHECK(v->mip_levels() == 4);
  uint32_t w[8];
  dev.backend().memory().read(v->descriptor_address(), w, 32);
  CHECK(v->descriptor_address() % 32 == 0);
  CHECK(w[0] == t->gpu_address() + L[2].offset);
  CHECK(w[0] % 64 == 0);
  CHECK(w[1] == (10u | 3u << 16));
  CHECK(w[2] == (TEX_FMT_BC3 | 4u << 4));
  for (int i = 3; i < 8; ++i) CHECK(w[i] == 0);
  // the texture descriptor of a view of a chain from level k is that of a w_k x h_k texture
  const TexDesc td = TexDesc::unpack(w);
  CHECK(td == v->descriptor());

  SamplerDesc sd;
  sd.filter = Filter::MIN_LINEAR_MAG_POINT_MIP_LINEAR;
  sd.address_u = TextureAddressMode::WRAP;
  sd.address_v = TextureAddressMode::MIRROR_ONCE;
  sd.mip_lod_bias = -1.5f;
  sd.min_lod = 0.5f;
  sd.border_color[0] = 1.0f;
  sd.border_color[1] = 0.0f;
  sd.border_color[2] = 0.5f;
  sd.border_color[3] = 0.25f;
  SamplerState* s = nullptr;
  REQUIRE(dev.create_sampler_state(sd, &s) == Result::OK);
  dev.backend().memory().read(s->descriptor_address(), w, 32);
  CHECK(w[0] == (1u | 0u << 1 | TEX_MIP_LINEAR << 2 | TEX_ADDR_WRAP << 4 | TEX_ADDR_MIRROR_ONCE << 7));
  CHECK(w[1] == 0xFE80u);                 // -1.5 in signed 8.8
  CHECK(w[2] == (128u | 4095u << 16));    // 0.5; FLT_MAX clamped to 15.996
  CHECK(w[3] == 0x408000FFu);
  for (int i = 4; i < 8; ++i) CHECK(w[i] == 0);
  // D3D11's default sampler: trilinear, CLAMP, LODs [0, max], white border
  const SampDesc def = encode_sampler_desc(SamplerDesc{});
  CHECK(def.min == TEX_FILTER_LINEAR);
  CHECK(def.mag == TEX_FILTER_LINEAR);
  CHECK(def.mip == TEX_MIP_LINEAR);
  CHECK(def.addr_u == TEX_ADDR_CLAMP);
  CHECK(def.min_lod == 0);
  CHECK(def.max_lod == 4095);
  CHECK(def.border == 0xFFFFFFFFu);
  v->release();
  s->release();
  t->release();
}

TEST_CASE_METHOD(ManualFixture, "binding slot 0: draws write FE_TEX0 and FE_SAMP0; deferred destruction",
                 "[runtime][texture]") {
  Resource* pos = bind_clip_positions({-1, -1, 0.5f, 1, -1, 0.5f, -1, 1, 0.5f}, 16, 16);
  Texture2DDesc d;
  d.width = 16;
  d.height = 16;
  Resource* t = make_tex(dev, d, nullptr, 0);
  REQUIRE(t);
  ShaderResourceView* v = nullptr;
  SamplerState* s = nullptr;
  REQUIRE(dev.create_shader_resource_view(t, nullptr, &v) == Result::OK);
  REQUIRE(dev.create_sampler_state(SamplerDesc{}, &s) == Result::OK);
  const uint32_t vaddr = v->descriptor_address(), saddr = s->descriptor_address();
  REQUIRE(ctx.set_shader_resource(0, v) == Result::OK);
  REQUIRE(ctx.set_sampler(0, s) == Result::OK);
  // the application lets go of everything while it is bound and about to be used
  v->release();
  s->release();
  t->release();
  const uint64_t free_before = dev.heap_bytes_free();
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  CHECK(contains(submitted_dwords(be), {CommandWriter::header(OP_SET_STATE, FE_TEX0, 2), vaddr, saddr}));
  // unbound and flushed: still in use by the GPU (fence not complete), so nothing is freed yet
  REQUIRE(ctx.set_shader_resource(0, nullptr) == Result::OK);
  REQUIRE(ctx.set_sampler(0, nullptr) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  CHECK(dev.heap_bytes_free() == free_before);
  be.complete(be.last_kicked_fence());
  REQUIRE(ctx.flush() == Result::OK);
  CHECK(dev.heap_bytes_free() > free_before);  // the texture and both descriptors retired
  // a draw with nothing bound writes neither register again
  const size_t n = be.kicks().size();
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  const auto k = be.kicks();
  for (size_t i = n; i < k.size(); ++i) {
    for (uint32_t w : k[i].dwords) CHECK(w != CommandWriter::header(OP_SET_STATE, FE_TEX0, 2));
  }
  pos->release();
}

TEST_CASE_METHOD(ManualFixture, "a deferred context's list patches FE_TEX0 / FE_SAMP0", "[runtime][texture]") {
  Texture2DDesc d;
  d.width = 8;
  d.height = 8;
  Resource* t = make_tex(dev, d, nullptr, 0);
  ShaderResourceView* v = nullptr;
  SamplerState* s = nullptr;
  REQUIRE(dev.create_shader_resource_view(t, nullptr, &v) == Result::OK);
  REQUIRE(dev.create_sampler_state(SamplerDesc{}, &s) == Result::OK);
  Resource* buf = nullptr;
  const std::unique_ptr<DeferredContext> dc = deferred_triangle(buf);
  REQUIRE(dc->set_shader_resource(0, v) == Result::OK);
  REQUIRE(dc->set_sampler(0, s) == Result::OK);
  REQUIRE(dc->draw(3, 0) == Result::OK);
  CommandList* list = nullptr;
  REQUIRE(dc->finish_command_list(false, &list) == Result::OK);
  REQUIRE(ctx.execute_command_list(list, false) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  // copied into the ring, or run as a CALL of the list's dwords
  const std::vector<uint32_t> want = {CommandWriter::header(OP_SET_STATE, FE_TEX0, 2), v->descriptor_address(),
                                      s->descriptor_address()};
  CHECK((contains(submitted_dwords(be), want) || contains(list->dwords(), want)));
  list->release();
  v->release();
  s->release();
  t->release();
  buf->release();
}

TEST_CASE("update_subresource: a block-aligned box and a whole level, through DMA copies", "[runtime][texture]") {
  GoldenFixture fx;
  Device& dev = fx.dev;
  Texture2DDesc d;
  d.width = 16;
  d.height = 12;
  d.mip_levels = 2;
  d.format = TexFormat::R8G8B8A8_UNORM;
  Resource* t = make_tex(dev, d, nullptr, 0);
  REQUIRE(t);
  const auto L = tex::chain_layout(16, 12, 2, d.format);
  // box x [4, 12), y [8, 12): blocks (1, 2) and (2, 2)
  const std::vector<uint8_t> img = known_image(8, 4);
  const Box box{4, 8, 12, 12};
  REQUIRE(fx.ctx.update_subresource(t, 0, &box, img.data(), 8 * 4) == Result::OK);
  // level 1 (8 x 6) whole, from a pitch with padding
  const std::vector<uint8_t> img1 = known_image(10, 6);
  REQUIRE(fx.ctx.update_subresource(t, 1, nullptr, img1.data(), 10 * 4) == Result::OK);
  REQUIRE(fx.ctx.wait_idle() == Result::OK);
  const std::vector<uint8_t> mem = read_mem(dev, t->gpu_address(), t->size());
  for (uint32_t y = 0; y < 12; ++y) {
    for (uint32_t x = 0; x < 16; ++x) {
      const uint8_t* m = &mem[texel_offset(L[0], x, y, 64, 4)];
      if (x >= 4 && x < 12 && y >= 8) {
        CHECK(std::memcmp(m, &img[((y - 8) * 8 + (x - 4)) * 4], 4) == 0);
      } else {
        CHECK((m[0] | m[1] | m[2] | m[3]) == 0);
      }
    }
  }
  for (uint32_t y = 0; y < 6; ++y) {
    for (uint32_t x = 0; x < 8; ++x) {
      CHECK(std::memcmp(&mem[L[1].offset + texel_offset(L[1], x, y, 64, 4)], &img1[(y * 10 + x) * 4], 4) == 0);
    }
  }
  // BC1 from RGBA8 (TEX_MISC_INIT_RGBA8): a box reaching the level's edge is encoded
  Texture2DDesc b;
  b.width = 8;
  b.height = 8;
  b.format = TexFormat::BC1_UNORM;
  b.misc = TEX_MISC_INIT_RGBA8;
  Resource* bt = make_tex(dev, b, nullptr, 0);
  REQUIRE(bt);
  std::vector<uint8_t> white(4 * 4 * 4, 255);
  const Box bb{4, 4, 8, 8};
  REQUIRE(fx.ctx.update_subresource(bt, 0, &bb, white.data(), 16) == Result::OK);
  REQUIRE(fx.ctx.wait_idle() == Result::OK);
  uint64_t blk[4];
  dev.backend().memory().read(bt->gpu_address(), blk, 32);
  CHECK(blk[0] == 0);
  CHECK(model::tex::bc_decode_block(blk[3], 0, false)[0] == 0xFFFFFFFFu);
  t->release();
  bt->release();
}

TEST_CASE_METHOD(ManualFixture, "invalid texture, view and sampler descriptions return errors with a message",
                 "[runtime][texture][errors]") {
  Resource* t = nullptr;
  auto bad_tex = [&](Texture2DDesc d, const char* why, const SubresourceData* init = nullptr) {
    INFO(why);
    CHECK(dev.create_texture2d(d, init, &t) == Result::INVALID_ARG);
    CHECK(t == nullptr);
    CHECK(!dev.last_error().empty());
  };
  Texture2DDesc ok;
  ok.width = 16;
  ok.height = 16;
  Texture2DDesc d = ok;
  d.width = 0;
  bad_tex(d, "zero width");
  d = ok;
  d.height = 4097;
  bad_tex(d, "height above 4096");
  d = ok;
  d.format = static_cast<TexFormat>(9);
  bad_tex(d, "unknown format");
  d = ok;
  d.mip_levels = 6;  // 16x16 has 5
  bad_tex(d, "too many levels");
  d = ok;
  d.width = 6;
  d.format = TexFormat::BC1_UNORM;
  bad_tex(d, "BC with a width that is not a multiple of 4");
  d = ok;
  d.bind = BIND_SHADER_RESOURCE | BIND_RENDER_TARGET;
  bad_tex(d, "render-target bind on a sampled texture");
  d = ok;
  d.format = TexFormat::B8G8R8A8_UNORM;
  d.misc = TEX_MISC_GENERATE_MIPS;
  std::vector<uint8_t> px(16 * 16 * 4);
  const SubresourceData init{px.data(), 64};
  bad_tex(d, "GENERATE_MIPS from BGRA8 data", &init);
  d = ok;
  const SubresourceData short_pitch{px.data(), 60};
  bad_tex(d, "row pitch below the row", &short_pitch);
  d = ok;
  d.misc = TEX_MISC_GENERATE_MIPS;
  bad_tex(d, "GENERATE_MIPS without data");
  CHECK(dev.create_texture2d(ok, nullptr, nullptr) == Result::INVALID_ARG);

  REQUIRE(dev.create_texture2d(ok, nullptr, &t) == Result::OK);  // one level
  ShaderResourceView* v = nullptr;
  ShaderResourceViewDesc vd;
  vd.most_detailed_mip = 1;
  CHECK(dev.create_shader_resource_view(t, &vd, &v) == Result::INVALID_ARG);
  vd.most_detailed_mip = 0;
  vd.mip_levels = 0;
  CHECK(dev.create_shader_resource_view(t, &vd, &v) == Result::INVALID_ARG);
  vd.mip_levels = 2;
  CHECK(dev.create_shader_resource_view(t, &vd, &v) == Result::INVALID_ARG);
  CHECK(dev.create_shader_resource_view(rt, nullptr, &v) == Result::INVALID_ARG);  // a linear render target
  CHECK(dev.create_shader_resource_view(nullptr, nullptr, &v) == Result::INVALID_ARG);
  CHECK(v == nullptr);

  auto bad_samp = [&](SamplerDesc s, Result want, const char* why) {
    INFO(why);
    SamplerState* st = nullptr;
    CHECK(dev.create_sampler_state(s, &st) == want);
    CHECK(st == nullptr);
    CHECK(!dev.last_error().empty());
  };
  SamplerDesc s;
  s.filter = Filter::ANISOTROPIC;
  bad_samp(s, Result::NOT_SUPPORTED, "anisotropic");
  s.filter = Filter::COMPARISON_MIN_MAG_MIP_LINEAR;
  bad_samp(s, Result::NOT_SUPPORTED, "comparison");
  s.filter = static_cast<Filter>(0x02);
  bad_samp(s, Result::INVALID_ARG, "unknown filter");
  s = SamplerDesc{};
  s.address_u = static_cast<TextureAddressMode>(0);
  bad_samp(s, Result::INVALID_ARG, "address u 0");
  s = SamplerDesc{};
  s.address_w = static_cast<TextureAddressMode>(6);
  bad_samp(s, Result::INVALID_ARG, "address w 6");
  s = SamplerDesc{};
  s.mip_lod_bias = 16.0f;
  bad_samp(s, Result::INVALID_ARG, "bias 16");
  s.mip_lod_bias = NAN;
  bad_samp(s, Result::INVALID_ARG, "bias NaN");
  s = SamplerDesc{};
  s.min_lod = 3.0f;
  s.max_lod = 2.0f;
  bad_samp(s, Result::INVALID_ARG, "min_lod > max_lod");
  s = SamplerDesc{};
  s.max_lod = NAN;
  bad_samp(s, Result::INVALID_ARG, "max_lod NaN");
  s = SamplerDesc{};
  s.max_anisotropy = 17;
  bad_samp(s, Result::INVALID_ARG, "anisotropy 17");
  s = SamplerDesc{};
  s.comparison_func = static_cast<ComparisonFunc>(0);
  bad_samp(s, Result::INVALID_ARG, "comparison func 0");
  s = SamplerDesc{};
  s.border_color[2] = NAN;
  bad_samp(s, Result::INVALID_ARG, "NaN border");

  // binding and updating
  CHECK(ctx.set_shader_resource(2, nullptr) == Result::INVALID_ARG);  // slots 0 and 1
  CHECK(ctx.set_sampler(3, nullptr) == Result::INVALID_ARG);
  Mapped m;
  CHECK(ctx.map(t, MapType::WRITE_DISCARD, 0, &m) == Result::INVALID_ARG);
  CHECK(!ctx.last_error().empty());
  const Box unaligned{2, 0, 8, 4};
  CHECK(ctx.update_subresource(t, 0, &unaligned, px.data(), 64) == Result::INVALID_ARG);
  const Box outside{0, 0, 20, 4};
  CHECK(ctx.update_subresource(t, 0, &outside, px.data(), 80) == Result::INVALID_ARG);
  CHECK(ctx.update_subresource(t, 1, nullptr, px.data(), 64) == Result::INVALID_ARG);
  CHECK(ctx.update_subresource(t, 0, nullptr, px.data(), 32) == Result::INVALID_ARG);
  CHECK(ctx.update_subresource(rt, 0, nullptr, px.data(), 64) == Result::INVALID_ARG);
  CHECK(ctx.update_subresource(t, 0, nullptr, nullptr, 64) == Result::INVALID_ARG);
  t->release();
}

TEST_CASE_METHOD(ManualFixture, "create_texture2d_from_file: the crate texture as BC1 with a full chain",
                 "[runtime][texture][file]") {
  const char* path = "/usr/share/glmark2/textures/crate-base.png";
  Resource* t = nullptr;
  CHECK(dev.create_texture2d_from_file("/nonexistent.png", TexFormat::BC1_UNORM, 0, &t) == Result::INVALID_ARG);
  if (!std::fopen(path, "rb")) {
    WARN("glmark2-data is not installed: " << path);
    return;
  }
  std::vector<uint8_t> rgba;
  uint32_t w = 0, h = 0;
  std::string why;
  REQUIRE(tex::load_image_rgba8(path, &rgba, &w, &h, &why));
  REQUIRE(dev.create_texture2d_from_file(path, TexFormat::BC1_UNORM, 0, &t) == Result::OK);
  CHECK(t->mip_levels() == tex::full_chain_levels(w, h));
  // level 0 decodes close to the image (BC1 of a photo-like texture: RMS error a few units)
  const auto L = tex::chain_layout(w, h, t->mip_levels(), TexFormat::BC1_UNORM);
  const std::vector<uint8_t> mem = read_mem(dev, t->gpu_address(), L[0].bytes);
  double sq = 0;
  for (uint32_t by = 0; by < L[0].blocks_y; ++by) {
    for (uint32_t bx = 0; bx < L[0].blocks_x; ++bx) {
      uint64_t lo = 0;
      std::memcpy(&lo, &mem[(by * L[0].blocks_x + bx) * 8], 8);
      const auto tx = model::tex::bc_decode_block(lo, 0, false);
      for (uint32_t k = 0; k < 16; ++k) {
        const uint8_t* s = &rgba[((by * 4 + k / 4) * w + bx * 4 + k % 4) * 4];
        for (int c = 0; c < 3; ++c) {
          const int e = static_cast<int>((tx[k] >> (8 * c)) & 255u) - s[c];
          sq += e * e;
        }
      }
    }
  }
  const double rms = std::sqrt(sq / (3.0 * w * h));
  std::printf("  crate-base.png %ux%u as BC1: %u levels, level 0 RMS error %.2f\n", w, h, t->mip_levels(), rms);
  CHECK(rms < 8.0);
  t->release();
}
