// SPDX-License-Identifier: Apache-2.0
// Input assembler and pixel writer.
#include <random>

#include "ia/ia.h"
#include "om/pixel_writer.h"
#include "test_util.h"

using namespace pineda;

TEST_CASE("ia: saturation of int32 16.8 coordinates", "[ia]") {
  using model::InputAssembler;
  CHECK(InputAssembler::saturate(0) == 0);
  CHECK(InputAssembler::saturate(0xFFFFFFFFu) == -1);
  CHECK(InputAssembler::saturate(0x007FFFFFu) == 8388607);
  CHECK(InputAssembler::saturate(0x00800000u) == 8388607);
  CHECK(InputAssembler::saturate(0x7FFFFFFFu) == 8388607);
  CHECK(InputAssembler::saturate(0xFF800000u) == -8388608);
  CHECK(InputAssembler::saturate(0xFF7FFFFFu) == -8388608);
  CHECK(InputAssembler::saturate(0x80000000u) == -8388608);
  CHECK(InputAssembler::saturate(0x12345u) == 0x12345);
}

TEST_CASE("ia: triangle list assembly, leftovers, tri_id, address wrap", "[ia]") {
  Memory mem;
  const uint32_t vb = 0x01000000u;
  for (uint32_t i = 0; i < 32; ++i) {
    mem.write32(vb + i * 8, i * 256 + 1);
    mem.write32(vb + i * 8 + 4, i == 4 ? 0x80000000u : i * 512);
  }
  model::InputAssembler ia;
  DrawPkt d;
  d.vb_base = vb;
  d.first_vertex = 2;
  d.vertex_count = 8;  // 2 triangles, 2 leftover vertices
  d.color = 0xCAFEBABEu;
  d.target.base = 0x10000000u;
  d.target.pitch = 1024;
  d.clip = test::rect(1, 2, 3, 4);
  auto tris = ia.process(d, mem);
  REQUIRE(tris.size() == 2);
  CHECK(tris[0].v[0].x == 2 * 256 + 1);
  CHECK(tris[0].v[2].y == -8388608);  // vertex 4: y saturated
  CHECK(tris[1].v[0].x == 5 * 256 + 1);
  CHECK(tris[1].v[2].y == 7 * 512);
  CHECK(tris[0].tri_id == 0u);
  CHECK(tris[1].tri_id == 1u);
  CHECK(tris[1].color == 0xCAFEBABEu);
  CHECK(tris[1].target == d.target);
  CHECK(tris[1].clip == d.clip);
  CHECK(tris[0] == tris[0].canonical());
  d.vertex_count = 2;
  CHECK(ia.process(d, mem).empty());
  d.vertex_count = 3;
  tris = ia.process(d, mem);
  REQUIRE(tris.size() == 1);
  CHECK(tris[0].tri_id == 2u);  // counts since reset, across draws
  ia.reset();
  CHECK(ia.process(d, mem)[0].tri_id == 0u);

  // 32-bit address arithmetic wraps.
  mem.write32(0xFFFFFFF8u, 7);
  mem.write32(0xFFFFFFFCu, 8);
  mem.write32(0x0u, 9);
  d.vb_base = 0xFFFFFFF8u;
  d.first_vertex = 0x20000000u;  // * 8 = 2^32 = 0
  tris = ia.process(d, mem);
  REQUIRE(tris.size() == 1);
  CHECK(tris[0].v[0].x == 7);
  CHECK(tris[0].v[0].y == 8);
  CHECK(tris[0].v[1].x == 9);
}

TEST_CASE("pw: one dword write per set bit, lowest first, wrapping address", "[pw]") {
  model::PixelWriter pw;
  QuadPkt c;
  c.qx = 12;
  c.qy = 8;
  c.mask = 0x8u | 0x2u | 0x1u | 0xFFF0u;  // 1x: bits 4..15 are not pixels
  c.color = 0x80402010u;
  c.target.base = 0xFFFFF000u;
  c.target.pitch = 0x1000;
  const auto reqs = model::PixelWriter::pixel_writes(c);
  pw.process(c);
  REQUIRE(reqs.size() == 3);
  // bit 0: (24, 16); bit 1: (25, 16); bit 3: (25, 17)
  CHECK(reqs[0].addr == ((0xFFFFF000u + 16u * 0x1000u + 24u * 4u) & 0xFFFFFFFFu));
  CHECK(reqs[1].addr == ((0xFFFFF000u + 16u * 0x1000u + 25u * 4u) & 0xFFFFFFFFu));
  CHECK(reqs[2].addr == ((0xFFFFF000u + 17u * 0x1000u + 25u * 4u) & 0xFFFFFFFFu));
  for (const model::PixelWrite& r : reqs) CHECK(r.data == 0x80402010u);
  Memory m;
  model::PixelWriter::apply(reqs[1], m);
  CHECK(m.read32(reqs[1].addr) == 0x80402010u);
  CHECK(m.read8(reqs[1].addr) == 0x10);  // R at the lowest address
  CHECK(pw.pixels_written() == 3u);
  // 4x MSAA: bit 4*p + s is sample s of pixel p, at base + y*pitch + x*16 + s*4.
  c.target.msaa = 1;
  c.mask = (1u << 15) | (1u << 6) | 1u;  // (24, 16) s0; (25, 16) s2; (25, 17) s3
  const auto ms = model::PixelWriter::pixel_writes(c);
  REQUIRE(ms.size() == 3);
  CHECK(ms[0].addr == ((0xFFFFF000u + 16u * 0x1000u + 24u * 16u) & 0xFFFFFFFFu));
  CHECK(ms[1].addr == ((0xFFFFF000u + 16u * 0x1000u + 25u * 16u + 8u) & 0xFFFFFFFFu));
  CHECK(ms[2].addr == ((0xFFFFF000u + 17u * 0x1000u + 25u * 16u + 12u) & 0xFFFFFFFFu));
}

TEST_CASE("pw: the colour cache's line writes equal the pixel writes", "[pw]") {
  // Random quads near a moving point on a few targets (line-aligned, odd, tiny and aliasing
  // pitches, 1x and 4x), tokens and flushes: after the last flush, memory written through the
  // line writes equals memory written pixel by pixel, every line write has be = its dirty dwords
  // and wdata 0 elsewhere, and a token leaves nothing dirty.
  std::mt19937_64 rng(5);
  auto rnd = [&rng](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  for (const uint32_t entries : {2u, 32u}) {
    model::PixelWriter pw(entries);
    Memory by_pixel, by_line;
    uint64_t lines = 0;
    const auto emit = [&](const MemLineReq& r) {
      ++lines;
      CHECK((r.addr & 63u) == 0);
      for (int k = 0; k < 16; ++k) {
        const uint64_t be = (r.be >> (4 * k)) & 0xFu;
        CHECK((be == 0 || be == 0xF));
        if (be == 0) CHECK(r.wdata[k].data == 0u);
      }
      model::PixelWriter::apply(r, by_line);
    };
    const uint32_t pitches[] = {1024, 12, 0, 4, 164, 4100, 60};
    uint32_t cx = 0, cy = 0;
    for (int i = 0; i < 20000; ++i) {
      if (rnd(50) == 0) cx = rnd(8192), cy = rnd(8192);
      QuadPkt q;
      if (rnd(100) == 0) {
        q.eop = 1;
        pw.process(q, emit);
        CHECK(pw.clean());
        continue;
      }
      q.qx = (cx + rnd(10)) & 8191u;
      q.qy = (cy + rnd(10)) & 8191u;
      q.target.pitch = pitches[rnd(7)];
      q.target.base = 0x10000u * rnd(4) + 4u * rnd(16);
      q.target.msaa = rnd(3) == 0;
      q.mask = rnd(2) ? 0xFFFFu : static_cast<uint32_t>(rng() & 0xFFFFu);
      q.color = static_cast<uint32_t>(rng());
      for (const model::PixelWrite& w : model::PixelWriter::pixel_writes(q)) model::PixelWriter::apply(w, by_pixel);
      pw.process(q, emit);
    }
    pw.flush(emit);
    CHECK(pw.clean());
    CHECK(by_line == by_pixel);
    CHECK(lines == pw.lines_written());
    CHECK(pw.hits() > 0);
  }
}

TEST_CASE("pw: a quad's pieces: straddling rows, merged rows of a small pitch", "[pw]") {
  QuadPkt q;
  q.qx = 7;  // x = 14, 15: bytes 56..63 of a 64-aligned row: one line
  q.qy = 0;
  q.mask = 0xF;
  q.target.base = 0x1000;
  q.target.pitch = 256;
  auto p = model::PixelWriter::pieces(q);
  REQUIRE(p.size() == 2);
  CHECK(p[0].line == 0x1000u / 64);
  CHECK(p[0].mask == 0xF0000000u);  // halfwords 28..31
  CHECK(p[1].line == (0x1000u + 256u) / 64);
  CHECK(p[1].bank == 1u);
  q.target.base = 0x1004;  // now each row straddles two lines
  p = model::PixelWriter::pieces(q);
  REQUIRE(p.size() == 4);
  CHECK(p[0].mask == 0xC0000000u);
  CHECK(p[1].mask == 0x00000003u);
  q.target.pitch = 8;  // both rows in the same two lines: merged into the row-0 pieces
  p = model::PixelWriter::pieces(q);
  REQUIRE(p.size() == 2);
  CHECK(p[0].mask == 0xC0000000u);
  CHECK(p[1].mask == 0x0000003Fu);
  q.target.pitch = 0;  // both rows on the same dwords
  q.target.msaa = 1;
  q.mask = 0x0F0Fu;  // pixel 0 and pixel 2, all samples
  q.target.base = 0x2000;
  q.qx = 0;
  p = model::PixelWriter::pieces(q);
  REQUIRE(p.size() == 1);
  CHECK(p[0].mask == 0x000000FFu);
  // B5G6R5 (2-byte pixels): x = 2, 3 at 4x: halfwords 8..15 of row 0 (both rows at pitch 0)
  q.om.fmt = RT_FMT_B5G6R5;
  q.qx = 1;
  q.mask = 0xFF00u;
  p = model::PixelWriter::pieces(q);
  REQUIRE(p.size() == 1);
  CHECK(p[0].mask == 0x0000FF00u);
  q.target.msaa = 0;  // 1x, base 2 bytes into a line: x = 30, 31 -> halfwords 31 and 0 of the next line
  q.target.base = 0x2002;
  q.target.pitch = 4096;
  q.qx = 15;
  q.mask = 0x3u;
  p = model::PixelWriter::pieces(q);
  REQUIRE(p.size() == 2);
  CHECK(p[0].mask == 0x80000000u);
  CHECK(p[1].line == 0x2040u / 64);
  CHECK(p[1].mask == 0x00000001u);
}
