// SPDX-License-Identifier: Apache-2.0
// RTL vs model: the vertex transform (rtl/vtx/vtx.sv vs cpp_model/vtx), every stream under the
// four stall patterns of tb::check_unit (random gaps on the input, random back-pressure on the
// output). The hidden "[.bench]" case prints vertices per clock without stalls.
#define CATCH_CONFIG_MAIN
#include <algorithm>
#include <string>
#include <vector>

#include "fp32.h"
#include "fp32_vectors.h"
#include "pineda_contract.h"
#include "vtx/vtx.h"

#include "Vvtx.h"
#include "unit_test_main.h"

using namespace pineda;
using fp32::bits_of;
using Matrix = model::VertexTransform::Matrix;

namespace {

std::vector<ClipVtxPkt> expected(const std::vector<VtxInPkt>& in) {
  model::VertexTransform t;
  std::vector<ClipVtxPkt> out;
  for (const auto& p : in) {
    if (auto o = t.process(p)) out.push_back(*o);
  }
  return out;
}

class VtxGen {
 public:
  explicit VtxGen(uint64_t seed) : g_(seed) {}

  // Mostly ordinary magnitudes, with every special class mixed in.
  uint32_t value() {
    switch (g_.below(10)) {
      case 0: return g_.special();
      case 1: case 2: return g_.structured();
      case 3: return g_.below(2) ? FP32_ONE : 0u;
      default: return test::OperandGen::make(g_.below(2), 115 + g_.below(25), g_.mantissa());
    }
  }
  Matrix matrix() {
    Matrix m{};
    const bool sparse = g_.below(3) == 0;  // affine-like: zeros and ones in places
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 4; ++c) m[r][c] = (sparse && g_.below(2)) ? (r == c ? FP32_ONE : 0u) : value();
    }
    return m;
  }
  VtxInPkt vertex(uint32_t id) {
    VtxInPkt p;
    p.kind = VTX_KIND_VERTEX;
    p.pos.x = value();
    p.pos.y = value();
    p.pos.z = value();
    p.pos.w = g_.below(2) ? FP32_ONE : value();
    p.color = g_.u32();
    p.tex0.u = g_.u32();
    p.tex0.v = g_.u32();
    p.tex1.u = g_.u32();
    p.tex1.v = g_.u32();
    p.vtx_id = id;
    p.row = g_.below(4);  // ignored for vertices
    return p;
  }
  // n vertices with matrix loads (all four rows in a random order, or single rows),
  // reserved-kind packets and end-of-pipe tokens (sometimes several in a row) mixed in.
  std::vector<VtxInPkt> stream(uint32_t n) {
    std::vector<VtxInPkt> s;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t r = g_.below(100);
      if (r < 6 || i == 0) {
        auto rows = model::VertexTransform::matrix_packets(matrix());
        for (int k = 3; k > 0; --k) std::swap(rows[k], rows[g_.below(k + 1)]);
        for (const auto& p : rows) s.push_back(p);
      } else if (r < 10) {
        VtxInPkt p = model::VertexTransform::matrix_packets(matrix())[g_.below(4)];
        s.push_back(p);
      } else if (r < 12) {
        VtxInPkt p = vertex(0xDEAD0000u + i);
        p.kind = 2 + g_.below(2);  // reserved: consumed, no output
        s.push_back(p);
      } else if (r < 15) {
        VtxInPkt token;
        token.eop = 1;
        for (uint32_t k = g_.below(3); k < 3; ++k) s.push_back(token);
      }
      s.push_back(vertex(i));
    }
    return s;
  }

 private:
  test::OperandGen g_;
};

VtxInPkt vtx_of(float x, float y, float z, float w, uint32_t id) {
  VtxInPkt p;
  p.kind = VTX_KIND_VERTEX;
  p.pos.x = bits_of(x);
  p.pos.y = bits_of(y);
  p.pos.z = bits_of(z);
  p.pos.w = bits_of(w);
  p.color = 0xFF00FF00u + id;
  p.tex0.u = bits_of(0.5f);
  p.tex0.v = bits_of(0.25f);
  p.tex1.u = 0x7FA00001u;
  p.tex1.v = 0x00000003u;
  p.vtx_id = id;
  return p;
}

}  // namespace

TEST_CASE("vtx: random vertices and matrices, matrix rows between vertices") {
  const uint64_t seed = tb::announce_seed("rtl_vtx");
  VtxGen g(seed);
  const std::vector<VtxInPkt> in = g.stream(3000);
  tb::check_unit<Vvtx>("vtx.random", in, expected(in), seed);
}

TEST_CASE("vtx: directed identity, perspective, NaN/Inf/denormal, matrix rows and tokens") {
  const uint64_t seed = tb::announce_seed("rtl_vtx");
  std::vector<VtxInPkt> in;
  uint32_t id = 0;
  // Identity from reset: positions pass through (except specials, see numerics.md 7.5).
  in.push_back(vtx_of(1.5f, -2.0f, 0.25f, 1.0f, id++));
  VtxInPkt p = vtx_of(0, 0, 0, 1, id++);
  for (uint32_t s : {fp32::INF, fp32::INF | fp32::SIGN, 0x7FC00000u, 0xFFBADBADu, 0x00000001u,
                     0x80000001u, 0x007FFFFFu, 0x7F7FFFFFu, 0x00800000u, 0x80000000u}) {
    p.pos.x = s;
    p.vtx_id = id++;
    in.push_back(p);
    p.pos.x = FP32_ONE;
    p.pos.w = s;
    p.vtx_id = id++;
    in.push_back(p);
    p.pos.w = FP32_ONE;
  }
  // A perspective projection (clip = M * v): 90 degrees, zn = 1, zf = 101.
  const float q = 101.0f / 100.0f;
  const float persp[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, q, -q}, {0, 0, 1, 0}};
  Matrix m{};
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) m[r][c] = bits_of(persp[r][c]);
  }
  for (const auto& row : model::VertexTransform::matrix_packets(m)) in.push_back(row);
  for (float z : {1.0f, 2.0f, 50.0f, 101.0f, 0.0f, -1.0f, 1e30f}) in.push_back(vtx_of(0.5f, -0.5f, z, 1.0f, id++));
  // Matrix rows changing between every vertex, including products that underflow and overflow.
  for (int k = 0; k < 16; ++k) {
    VtxInPkt row = model::VertexTransform::matrix_packets(m)[k & 3];
    row.pos.x = k & 1 ? 0x1C800000u : 0x5F800000u;  // 2^-70 or 2^64
    row.pos.w = bits_of(static_cast<float>(k));
    in.push_back(row);
    in.push_back(vtx_of(k & 2 ? 1e-30f : 1e30f, 1.0f, 2.0f, 1.0f, id++));
  }
  // The order is observable: row (1, 1, 1, 1) on (2^24, 1, 1, 2) is ((2^24 + 1) + 1) + 2 =
  // 2^24 + 2 (each + 1 ties to even); adding the 2 before the last 1 would give 2^24 + 4.
  VtxInPkt ones = model::VertexTransform::matrix_packets(m)[0];
  ones.pos.x = ones.pos.y = ones.pos.z = ones.pos.w = FP32_ONE;
  in.push_back(ones);
  in.push_back(vtx_of(16777216.0f, 1.0f, 1.0f, 2.0f, id++));
  // Matrix rows back to back with vertices in between and a reserved kind.
  for (const auto& row : model::VertexTransform::matrix_packets(model::VertexTransform::identity())) in.push_back(row);
  VtxInPkt reserved = vtx_of(9, 9, 9, 9, 0xFFFFFFFFu);
  reserved.kind = 3;
  in.push_back(reserved);
  // End-of-pipe tokens: alone, back to back, between vertices, right after matrix rows.
  VtxInPkt token;
  token.eop = 1;
  for (int k = 0; k < 8; ++k) {
    in.push_back(vtx_of(static_cast<float>(k), 1.0f, -1.0f, 1.0f, id++));
    if (k & 1) in.push_back(token);
    if (k == 4) {
      in.push_back(token);
      in.push_back(token);
      in.push_back(model::VertexTransform::matrix_packets(m)[2]);
      in.push_back(token);
    }
  }
  in.push_back(token);
  tb::check_unit<Vvtx>("vtx.directed", in, expected(in), seed);
}

// Benchmark (hidden tag): vertices per clock without stalls, one matrix for all vertices and a
// new matrix every 16 vertices.
TEST_CASE("vtx: throughput benchmark", "[.bench]") {
  const uint64_t seed = tb::announce_seed("rtl_vtx");
  VtxGen g(seed);
  constexpr uint32_t kN = 4096;
  for (const uint32_t every : {0u, 16u}) {
    std::vector<VtxInPkt> in;
    for (uint32_t i = 0; i < kN; ++i) {
      if (i == 0 || (every && i % every == 0)) {
        for (const auto& row : model::VertexTransform::matrix_packets(g.matrix())) in.push_back(row);
      }
      in.push_back(g.vertex(i));
    }
    tb::UnitBenchConfig cfg;
    cfg.seed = seed;
    cfg.in_gap = 0.0;
    cfg.out_stall = 0.0;
    cfg.test = "vtx.bench";
    const auto exp = expected(in);
    const tb::UnitBenchResult r = tb::run_unit_bench<Vvtx>(in, exp, cfg);
    INFO(r.report);
    REQUIRE(r.ok);
    std::printf("  vtx bench: %u vertices, matrix %s: %llu cycles, %.4f vertices/clock\n", kN,
                every ? "reloaded every 16 vertices" : "loaded once",
                static_cast<unsigned long long>(r.cycles), static_cast<double>(kN) / static_cast<double>(r.cycles));
  }
}
