// SPDX-License-Identifier: Apache-2.0
// Input assembly front end: index fetch (bounds, formats, cuts, base vertex, instancing) and the
// vertex cache tags (assembly, batching, ACMR) — docs/frontend.md.
#include <map>
#include <ostream>
#include <random>

#include "ia/index_fetch.h"
#include "ia/vertex_tags.h"
#include "test_util.h"

using namespace pineda;
using model::IndexFetch;
using model::VertexTags;

namespace {

constexpr uint32_t kIb = 0x00200000u;

IDrawPkt indexed(uint32_t first, uint32_t count, bool idx32, uint32_t ib_size) {
  IDrawPkt d;
  d.indexed = 1;
  d.index32 = idx32;
  d.ib_base = kIb;
  d.ib_size = ib_size;
  d.first = first;
  d.count = count;
  d.instance_count = 1;
  return d;
}

void put16(Memory& m, uint32_t addr, uint16_t v) {
  const uint32_t dw = m.read32(addr & ~3u);
  m.write32(addr & ~3u, (addr & 2u) ? (dw & 0xFFFFu) | (uint32_t{v} << 16) : (dw & 0xFFFF0000u) | v);
}

// A state write as it appears on the output streams: the triangles (or batches) before it.
struct WriteAt {
  size_t before;
  uint32_t idx, val;
  bool operator==(const WriteAt& o) const { return before == o.before && idx == o.idx && val == o.val; }
};
std::ostream& operator<<(std::ostream& os, const WriteAt& w) {
  return os << "{write [" << w.idx << "]=" << w.val << " after " << w.before << "}";
}

// Reference assembly: the triangles (as vertex indices) of an index stream, batches ignored.
// Tokens and state writes do not disturb assembly (docs/frontend.md §3); `writes` gets each
// write with the number of triangles assembled before it.
std::vector<std::array<uint32_t, 3>> ref_triangles(const std::vector<IndexPkt>& in,
                                                   std::vector<WriteAt>* writes = nullptr) {
  std::vector<std::array<uint32_t, 3>> out;
  std::vector<uint32_t> strip;
  for (const auto& p : in) {
    if (p.wr && writes) {
      writes->push_back({out.size(), static_cast<uint32_t>(p.wr_idx), static_cast<uint32_t>(p.wr_val)});
    }
    if (p.eop || p.wr) continue;
    if (p.cut) {
      strip.clear();
    } else {
      strip.push_back(static_cast<uint32_t>(p.index));
      if (!p.strip && strip.size() == 3) {
        out.push_back({strip[0], strip[1], strip[2]});
        strip.clear();
      } else if (p.strip && strip.size() >= 3) {
        const size_t k = strip.size() - 3;  // triangle number since the strip started
        const uint32_t a = strip[k], b = strip[k + 1], c = strip[k + 2];
        out.push_back((k & 1) ? std::array<uint32_t, 3>{b, a, c} : std::array<uint32_t, 3>{a, b, c});
      }
    }
    if (p.last) strip.clear();
  }
  return out;
}

struct TagRun {
  std::vector<VFetchPkt> v;
  std::vector<PrimPkt> p;
  VertexTags tags;
  void run(const std::vector<IndexPkt>& in) {
    for (const auto& i : in) {
      tags.process(i, [this](const VFetchPkt& x) { v.push_back(x); }, [this](const PrimPkt& x) { p.push_back(x); });
    }
  }
  // Triangles as vertex indices, rebuilt from the batches; checks the batch rules on the way.
  // State writes lie between batches on both streams: `tri_writes` gets each write on the
  // triangle stream with the triangles before it; the vertex stream must have the same writes
  // after the same number of batches as the triangle stream.
  std::vector<std::array<uint32_t, 3>> rebuild(std::vector<WriteAt>* tri_writes = nullptr) const {
    std::vector<std::array<uint32_t, 3>> out;
    std::vector<WriteAt> wv, wp;  // by batches before
    size_t vi = 0, pi = 0, batches = 0;
    while (true) {
      while (pi < p.size() && (p[pi].eop || p[pi].wr)) {
        if (p[pi].wr) {
          REQUIRE(p[pi].eop == 0u);
          REQUIRE(p[pi].last == 0u);
          wp.push_back({batches, static_cast<uint32_t>(p[pi].wr_idx), static_cast<uint32_t>(p[pi].wr_val)});
          if (tri_writes) {
            tri_writes->push_back({out.size(), static_cast<uint32_t>(p[pi].wr_idx), static_cast<uint32_t>(p[pi].wr_val)});
          }
        }
        ++pi;
      }
      while (vi < v.size() && v[vi].wr) {
        REQUIRE(v[vi].first == 0u);
        wv.push_back({batches, static_cast<uint32_t>(v[vi].wr_idx), static_cast<uint32_t>(v[vi].wr_val)});
        ++vi;
      }
      if (pi == p.size()) break;
      std::vector<uint32_t> slot_index;
      REQUIRE(vi < v.size());
      REQUIRE(v[vi].first == 1u);  // the batch's vertices: slots 0, 1, 2, ... in order
      do {
        REQUIRE(v[vi].wr == 0u);
        REQUIRE(v[vi].slot == slot_index.size());
        REQUIRE(v[vi].first == (slot_index.empty() ? 1u : 0u));
        slot_index.push_back(static_cast<uint32_t>(v[vi].index));
        ++vi;
      } while (vi < v.size() && !v[vi].wr && !v[vi].first);
      REQUIRE(slot_index.size() <= VTX_BATCH_SLOTS);
      // Slots hold distinct indices (a tag array never holds one twice).
      std::map<uint32_t, int> seen;
      for (uint32_t x : slot_index) REQUIRE(seen[x]++ == 0);
      while (true) {
        REQUIRE(pi < p.size());
        const PrimPkt& t = p[pi];
        REQUIRE_FALSE(t.eop);
        REQUIRE_FALSE(t.wr);
        REQUIRE(t.s0 < slot_index.size());
        REQUIRE(t.s1 < slot_index.size());
        REQUIRE(t.s2 < slot_index.size());
        out.push_back({slot_index[t.s0], slot_index[t.s1], slot_index[t.s2]});
        if (p[pi++].last) break;
      }
      ++batches;
    }
    REQUIRE(vi == v.size());
    CHECK(wv == wp);
    return out;
  }
};

}  // namespace

TEST_CASE("index fetch: 16- and 32-bit indices, bounds, base vertex, cuts", "[ia_front]") {
  Memory mem;
  for (uint32_t k = 0; k < 8; ++k) put16(mem, kIb + 2 * k, static_cast<uint16_t>(100 + k));
  put16(mem, kIb + 2 * 5, 0xFFFF);
  IndexFetch f;
  // Start at an odd position, run past the end of a 13-byte buffer (6 whole 16-bit indices).
  IDrawPkt d = indexed(3, 6, false, 13);
  d.base_vertex = 0xFFFFFFF0u;  // -16
  d.strip = 1;
  d.restart = 1;
  const auto out = f.process(d, mem);
  REQUIRE(out.size() == 6);
  CHECK(out[0].index == 103u - 16u);
  CHECK(out[1].index == 104u - 16u);
  CHECK(out[2].cut == 1u);   // 0xFFFF at position 5
  CHECK(out[2].index == 0u);
  CHECK(out[3].index == 0xFFFFFFF0u);  // position 6: out of bounds reads 0, + base vertex
  CHECK(out[5].last == 1u);
  CHECK(f.out_of_bounds() == 3u);
  CHECK(f.cuts() == 1u);
  // A list does not cut; without restart neither does a strip.
  d.strip = 0;
  CHECK(f.process(d, mem)[2].cut == 0u);
  CHECK(f.process(d, mem)[2].index == 0xFFFFu - 16u);
  d.strip = 1;
  d.restart = 0;
  CHECK(f.process(d, mem)[2].cut == 0u);
  // 32-bit indices, the cut value 0xFFFFFFFF.
  mem.write32(kIb, 7);
  mem.write32(kIb + 4, 0xFFFFFFFFu);
  IDrawPkt d32 = indexed(0, 3, true, 8);
  d32.strip = 1;
  d32.restart = 1;
  const auto o32 = f.process(d32, mem);
  CHECK(o32[0].index == 7u);
  CHECK(o32[1].cut == 1u);
  CHECK(o32[2].index == 0u);  // out of bounds
  // Non-indexed with instancing: first + k, instance ids from start_instance, last per instance.
  IDrawPkt n;
  n.first = 0xFFFFFFFEu;
  n.count = 3;
  n.instance_count = 2;
  n.start_instance = 0xFFFFFFFFu;
  n.draw_id = 9;
  const auto on = f.process(n, mem);
  REQUIRE(on.size() == 6);
  CHECK(on[2].index == 0u);  // wraps
  CHECK(on[2].last == 1u);
  CHECK(on[3].inst_id == 0u);
  CHECK(on[5].draw_id == 9u);
  // Zero instances or zero count: nothing. A token: one token.
  n.instance_count = 0;
  CHECK(f.process(n, mem).empty());
  IDrawPkt tok;
  tok.eop = 1;
  const auto ot = f.process(tok, mem);
  REQUIRE(ot.size() == 1);
  CHECK(ot[0].eop == 1u);
  // A state write: one index packet with the same write, every other field 0.
  IDrawPkt w;
  w.wr = 1;
  w.wr_idx = FE_VB0_BASE;
  w.wr_val = 0xDEADBEEFu;
  const auto ow = f.process(w, mem);
  REQUIRE(ow.size() == 1);
  IndexPkt ew;
  ew.wr = 1;
  ew.wr_idx = FE_VB0_BASE;
  ew.wr_val = 0xDEADBEEFu;
  CHECK(ow[0] == ew);
}

TEST_CASE("vertex tags: random index streams (with state writes) rebuild the same triangles in batches of <= 32",
          "[ia_front][property]") {
  const uint32_t seed = test::base_seed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  size_t total_writes = 0;
  const auto write = [&rng]() {
    IndexPkt w;
    w.wr = 1;
    w.wr_idx = NUM_STATE + rng() % (FE_STATE_END - NUM_STATE);
    w.wr_val = rng();
    return w;
  };
  for (int round = 0; round < 300; ++round) {
    std::vector<IndexPkt> in;
    const int draws = 1 + static_cast<int>(rng() % 4);
    for (int d = 0; d < draws; ++d) {
      const bool strip = rng() & 1;
      const uint32_t range = 1 + rng() % 200;  // small ranges: many hits
      const uint32_t count = rng() % 150;
      const uint32_t inst = 1 + rng() % 2;
      for (uint32_t i = 0; i < inst; ++i) {
        for (uint32_t k = 0; k < count; ++k) {
          IndexPkt p;
          p.strip = strip;
          p.cut = strip && rng() % 20 == 0;
          p.index = p.cut ? 0 : rng() % range;
          p.inst_id = i;
          p.last = k + 1 == count;
          p.draw_id = static_cast<uint32_t>(d);
          in.push_back(p);
          if (k + 1 < count && rng() % 100 == 0) in.push_back(write());  // mid-instance: defined too
        }
      }
      if (rng() % 3 == 0) {
        IndexPkt t;
        t.eop = 1;
        in.push_back(t);
      }
      while (rng() % 3 == 0) in.push_back(write());  // between draws, as the CP sends them
    }
    TagRun r;
    r.run(in);
    std::vector<WriteAt> w_out, w_ref;
    CHECK(r.rebuild(&w_out) == ref_triangles(in, &w_ref));
    // Every write, in order, with exactly the triangles before it that precede it in the input:
    // no batch spans a write.
    CHECK(w_out == w_ref);
    CHECK(r.tags.writes() == w_ref.size());
    total_writes += w_ref.size();
    CHECK(r.tags.triangles() == ref_triangles(in).size());
    CHECK(r.tags.references() == 3 * r.tags.triangles());
    CHECK(r.tags.vertices() + r.tags.hits() == r.tags.references());
    // Tokens stay in order on the triangle stream: as many as in the input.
    size_t tin = 0, tout = 0;
    for (const auto& p : in) tin += p.eop;
    for (const auto& p : r.p) tout += p.eop;
    CHECK(tin == tout);
  }
  CHECK(total_writes > 100);
}

TEST_CASE("vertex tags: a regular grid strip reuses vertices; a batch closes when a triangle does not fit",
          "[ia_front]") {
  // A triangle list over a 16 x 16 vertex grid, row by row: each inner vertex is used 6 times.
  std::vector<IndexPkt> in;
  const uint32_t n = 16;
  std::vector<uint32_t> idx;
  for (uint32_t y = 0; y + 1 < n; ++y) {
    for (uint32_t x = 0; x + 1 < n; ++x) {
      const uint32_t a = y * n + x, b = a + 1, c = a + n, d = c + 1;
      for (uint32_t v : {a, b, c, c, b, d}) idx.push_back(v);
    }
  }
  for (size_t k = 0; k < idx.size(); ++k) {
    IndexPkt p;
    p.index = idx[k];
    p.last = k + 1 == idx.size();
    in.push_back(p);
  }
  TagRun r;
  r.run(in);
  const double acmr = static_cast<double>(r.tags.vertices()) / static_cast<double>(r.tags.triangles());
  std::printf("  grid list 16x16: %llu triangles, %llu vertices, ACMR %.3f, hit rate %.3f, %llu batches\n",
              static_cast<unsigned long long>(r.tags.triangles()), static_cast<unsigned long long>(r.tags.vertices()),
              acmr, static_cast<double>(r.tags.hits()) / static_cast<double>(r.tags.references()),
              static_cast<unsigned long long>(r.tags.batches()));
  CHECK(r.tags.triangles() == 2u * 15u * 15u);
  CHECK(acmr < 1.2);  // a batch holds ~2 grid rows: each vertex is fetched about twice at most
  CHECK(acmr > 0.5);  // a vertex cache can do no better than 256 / 450
  CHECK(r.rebuild() == ref_triangles(in));
  // Every batch but the last is full or could not take one more triangle's misses.
  size_t batch_v = 0;
  for (const auto& v : r.v) {
    if (v.first) batch_v = 0;
    ++batch_v;
    CHECK(batch_v <= VTX_BATCH_SLOTS);
  }
}

// ---- Vertex fetch ---------------------------------------------------------------------------
#include <cmath>
#include <cstring>

#include "fp32.h"
#include "ia/vertex_fetch.h"

using model::VertexFetch;

namespace {
VFetchPkt wr(uint32_t idx, uint32_t val) {
  VFetchPkt p;
  p.wr = 1;
  p.wr_idx = idx;
  p.wr_val = val;
  return p;
}
VFetchPkt vert(uint32_t index, uint32_t inst, uint32_t slot, bool first) {
  VFetchPkt p;
  p.index = index;
  p.inst_id = inst;
  p.slot = slot;
  p.first = first;
  return p;
}
}  // namespace

TEST_CASE("vertex fetch: UNORM8 <-> FP32 conversions", "[ia_front][vf]") {
  for (uint32_t c = 0; c < 256; ++c) {
    INFO("c = " << c);
    CHECK(VertexFetch::unorm8_to_f32(c) == fp32::bits_of(static_cast<float>(c) / 255.0f));  // IEEE division, RNE
  }
  const auto ref = [](uint32_t u) -> uint32_t {
    const float f = fp32::float_of(u);
    if (std::isnan(f) || f <= 0.0f || ((u >> 23) & 0xFFu) == 0) return 0;
    if (f >= 1.0f) return 255;
    return static_cast<uint32_t>(std::nearbyint(static_cast<double>(f) * 255.0));  // exact product, RNE
  };
  std::mt19937 rng(test::base_seed());
  std::vector<uint32_t> vals = {0, 0x80000000u, 0x3F800000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x00000001u,
                                0x3F000000u, fp32::bits_of(0.5f / 255.0f), fp32::bits_of(1.5f / 255.0f), fp32::bits_of(254.5f / 255.0f)};
  for (uint32_t c = 0; c < 256; ++c) vals.push_back(VertexFetch::unorm8_to_f32(c));  // round trip
  for (int k = 0; k < 200000; ++k) vals.push_back(k % 2 ? rng() : (rng() % 0x3F900000u));
  for (uint32_t u : vals) {
    INFO("f = " << std::hex << u);
    CHECK(VertexFetch::f32_to_unorm8(u) == ref(u));
  }
  for (uint32_t c = 0; c < 256; ++c) CHECK(VertexFetch::f32_to_unorm8(VertexFetch::unorm8_to_f32(c)) == c);
}

TEST_CASE("vertex fetch: formats, defaults, bounds, per-instance data, matrix rows", "[ia_front][vf]") {
  Memory mem;
  const uint32_t vb0 = 0x00300000u, vb1 = 0x00310000u;
  // Vertex buffer 0: stride 24: position F32x3 at 0, colour UNORM8x4 at 12, tex0 F32x2 at 16.
  for (uint32_t v = 0; v < 4; ++v) {
    mem.write32(vb0 + 24 * v + 0, fp32::bits_of(1.0f + v));
    mem.write32(vb0 + 24 * v + 4, fp32::bits_of(2.0f + v));
    mem.write32(vb0 + 24 * v + 8, fp32::bits_of(3.0f + v));
    mem.write32(vb0 + 24 * v + 12, 0x80FF4000u + v);
    mem.write32(vb0 + 24 * v + 16, fp32::bits_of(0.25f * v));
    mem.write32(vb0 + 24 * v + 20, fp32::bits_of(0.5f));
  }
  // Vertex buffer 1 (per instance): colour as F32x4.
  for (uint32_t i = 0; i < 2; ++i) {
    mem.write32(vb1 + 16 * i + 0, fp32::bits_of(1.0f));
    mem.write32(vb1 + 16 * i + 4, fp32::bits_of(0.5f));
    mem.write32(vb1 + 16 * i + 8, fp32::bits_of(-1.0f));
    mem.write32(vb1 + 16 * i + 12, fp32::bits_of(2.0f));
  }
  VertexFetch vf;
  std::vector<VtxInPkt> out;
  const auto run = [&](const VFetchPkt& p) {
    for (const auto& v : vf.process(p, mem)) out.push_back(v);
  };
  run(wr(FE_VB0_BASE, vb0));
  run(wr(FE_VB0_STRIDE, 24));
  run(wr(FE_VB0_SIZE, 3 * 24));  // vertex 3 is outside
  run(wr(FE_VB1_BASE, vb1));
  run(wr(FE_VB1_STRIDE, 16));
  run(wr(FE_VB1_SIZE, 32));
  run(wr(FE_ATTR_POS, ATTR_FMT_F32X3 | (0u << 16)));
  run(wr(FE_ATTR_COLOR, ATTR_FMT_UNORM8X4 | (12u << 16)));
  run(wr(FE_ATTR_TEX0, ATTR_FMT_F32X2 | (16u << 16)));
  CHECK(out.empty());  // state writes other than the matrix send nothing
  run(vert(1, 0, 4, false));
  REQUIRE(out.size() == 1);
  CHECK(out[0].kind == VTX_KIND_VERTEX);
  CHECK(out[0].pos.x == fp32::bits_of(2.0f));
  CHECK(out[0].pos.z == fp32::bits_of(4.0f));
  CHECK(out[0].pos.w == fp32::bits_of(1.0f));  // default w
  CHECK(out[0].color == 0x80FF4001u);
  CHECK(out[0].tex0.u == fp32::bits_of(0.25f));
  CHECK(out[0].tex1.u == 0u);           // tex1 not fetched
  CHECK(out[0].vtx_id == 4u);
  run(vert(3, 0, 7, true));  // out of bounds: fetched components 0, defaults stay
  CHECK(out[1].pos.x == 0u);
  CHECK(out[1].pos.w == fp32::bits_of(1.0f));
  CHECK(out[1].color == 0u);
  CHECK(out[1].vtx_id == (7u | 32u));
  CHECK(vf.out_of_bounds() == 3u);
  // Colour from the per-instance buffer as F32x4, position as UNORM8x4 (colour dword of vb0).
  run(wr(FE_ATTR_COLOR, ATTR_FMT_F32X4 | 8u));
  run(wr(FE_ATTR_POS, ATTR_FMT_UNORM8X4 | (12u << 16)));
  run(vert(0, 1, 0, false));
  CHECK(out[2].color == (255u | (128u << 8) | (0u << 16) | (255u << 24)));  // 0.5 * 255 = 127.5 -> 128
  CHECK(out[2].pos.x == VertexFetch::unorm8_to_f32(0x00));
  CHECK(out[2].pos.y == VertexFetch::unorm8_to_f32(0x40));
  CHECK(out[2].pos.w == VertexFetch::unorm8_to_f32(0x80));
  run(vert(0, 2, 0, false));  // instance 2 is outside vb1 (32 bytes)
  CHECK(out[3].color == 0u);  // fetched components read 0; F32x4 has no defaulted component
  // A matrix write sends its row.
  run(wr(FE_MATRIX0 + 6, fp32::bits_of(7.0f)));
  REQUIRE(out.size() == 5);
  CHECK(out[4].kind == VTX_KIND_MATRIX_ROW);
  CHECK(out[4].row == 1u);
  CHECK(out[4].pos.x == 0u);
  CHECK(out[4].pos.y == fp32::bits_of(1.0f));
  CHECK(out[4].pos.z == fp32::bits_of(7.0f));
  // A disabled colour reads (0, 0, 0, 1): opaque black.
  run(wr(FE_ATTR_COLOR, ATTR_FMT_NONE));
  run(vert(0, 0, 0, false));
  CHECK(out.back().color == 0xFF000000u);
}
