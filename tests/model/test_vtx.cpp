// SPDX-License-Identifier: Apache-2.0
// Vertex transform model (cpp_model/vtx): the documented evaluation order against the host FPU
// (SSE mulss/addss under MXCSR.FTZ|DAZ, i.e. what plain C `m0*x + m1*y + m2*z + m3*w` gives
// without contraction), in-band matrix rows, pass-through fields, special values.
#include <cmath>
#include <cstdio>
#include <random>

#include "fp32.h"
#include "fp32_ref.h"
#include "fp32_vectors.h"
#include "test_util.h"
#include "vtx/vtx.h"

using namespace pineda;
using fp32::bits_of;
using Matrix = model::VertexTransform::Matrix;

namespace {

VtxInPkt vertex(uint32_t x, uint32_t y, uint32_t z, uint32_t w, uint32_t id) {
  VtxInPkt p;
  p.kind = VTX_KIND_VERTEX;
  p.pos.x = x;
  p.pos.y = y;
  p.pos.z = z;
  p.pos.w = w;
  p.color = 0x80402010u ^ id;
  p.tex0.u = bits_of(0.25f);
  p.tex0.v = 0x7FC00001u;  // a NaN payload passes through untouched
  p.tex1.u = 0x00000001u;  // so does a denormal
  p.tex1.v = bits_of(-3.0f);
  p.vtx_id = id;
  return p;
}

Matrix from_floats(const float (&f)[4][4]) {
  Matrix m{};
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) m[r][c] = bits_of(f[r][c]);
  }
  return m;
}

}  // namespace

TEST_CASE("vtx: evaluation order matches plain FP32 C code under FTZ/DAZ", "[vtx]") {
  const uint32_t seed = test::base_seed();
  std::printf("[model_tests] vtx order: seed=%u (replay: build/tests/model_tests --rng-seed %u \"[vtx]\")\n",
              seed, seed);
  test::OperandGen g(seed * 7u + 3u);
  uint64_t bad = 0;
  constexpr int kN = 200000;
  std::vector<Matrix> ms(kN);
  std::vector<FVec4> vs(kN), got(kN), want(kN);
  for (int i = 0; i < kN; ++i) {
    auto pick = [&]() -> uint32_t {
      switch (g.below(4)) {
        case 0: return g.structured();
        case 1: return g.special();
        default: return test::OperandGen::make(g.below(2), 120 + g.below(16), g.mantissa());  // ~[2^-7, 2^8)
      }
    };
    for (auto& row : ms[i]) {
      for (auto& c : row) c = pick();
    }
    vs[i].x = pick();
    vs[i].y = pick();
    vs[i].z = pick();
    vs[i].w = g.below(2) ? FP32_ONE : pick();
    got[i] = model::VertexTransform::transform(ms[i], vs[i]);
  }
#ifdef PINEDA_HOST_SSE
  {
    test::HostFtzDaz mode;
    for (int i = 0; i < kN; ++i) {
      const uint32_t v[4] = {static_cast<uint32_t>(vs[i].x), static_cast<uint32_t>(vs[i].y),
                             static_cast<uint32_t>(vs[i].z), static_cast<uint32_t>(vs[i].w)};
      uint32_t o[4];
      for (int r = 0; r < 4; ++r) {
        const auto& m = ms[i][r];
        o[r] = test::host_add(test::host_add(test::host_add(test::host_mul(m[0], v[0]), test::host_mul(m[1], v[1])),
                                             test::host_mul(m[2], v[2])),
                              test::host_mul(m[3], v[3]));
      }
      want[i].x = o[0];
      want[i].y = o[1];
      want[i].z = o[2];
      want[i].w = o[3];
    }
  }
  for (int i = 0; i < kN; ++i) {
    if (got[i] != want[i] && ++bad <= 4) {
      INFO("vertex " << i << " model " << got[i].str() << " host " << want[i].str());
      CHECK(got[i] == want[i]);
    }
  }
#else
  WARN("not x86-64: the host-FPU order check is skipped");
#endif
  CHECK(bad == 0);
}

TEST_CASE("vtx: the order is observable: ((a + b) + c) differs from a + (b + c)", "[vtx]") {
  // Row (1, 1, 1, 0) on (2^24, 1, 1, *): (2^24 + 1) ties to 2^24, + 1 ties to 2^24 again;
  // summed the other way it would be 2^24 + 2.
  Matrix m{};
  m[0] = {FP32_ONE, FP32_ONE, FP32_ONE, 0};
  FVec4 v;
  v.x = bits_of(16777216.0f);
  v.y = FP32_ONE;
  v.z = FP32_ONE;
  v.w = bits_of(123.0f);
  CHECK(model::VertexTransform::transform(m, v).x == bits_of(16777216.0f));
  // Row (1, 1, 1, 1) on (2^24, 1, 1, 2): ((2^24 + 1) + 1) + 2 = 2^24 + 2; with the last two
  // additions swapped it would be 2^24 + 4.
  m[2] = {FP32_ONE, FP32_ONE, FP32_ONE, FP32_ONE};
  v.w = bits_of(2.0f);
  CHECK(model::VertexTransform::transform(m, v).z == bits_of(16777218.0f));
  // M[r][3] * w is added last: a translation added to a large sum.
  m[1] = {FP32_ONE, 0, 0, bits_of(0.5f)};
  v.w = FP32_ONE;
  CHECK(model::VertexTransform::transform(m, v).y == bits_of(16777216.0f));  // + 0.5 is lost
}

TEST_CASE("vtx: matrix rows in band, identity at reset, pass-through, reserved kinds, tokens", "[vtx]") {
  model::VertexTransform t;
  const VtxInPkt a = vertex(bits_of(1.5f), bits_of(-2.0f), bits_of(0.25f), FP32_ONE, 7);
  auto o = t.process(a);
  REQUIRE(o);
  CHECK(o->pos == a.pos);  // identity, finite normal inputs: exact
  CHECK(o->color == a.color);
  CHECK(o->tex0 == a.tex0);
  CHECK(o->tex1 == a.tex1);
  CHECK(o->vtx_id == 7u);
  // Replace row 1 only: y' = 2*x + 3*y + 0*z + 1*w.
  VtxInPkt row;
  row.kind = VTX_KIND_MATRIX_ROW;
  row.row = 1;
  row.pos.x = bits_of(2.0f);
  row.pos.y = bits_of(3.0f);
  row.pos.z = 0;
  row.pos.w = FP32_ONE;
  CHECK_FALSE(t.process(row));
  VtxInPkt reserved = a;
  reserved.kind = 2;
  CHECK_FALSE(t.process(reserved));
  reserved.kind = 3;
  CHECK_FALSE(t.process(reserved));
  o = t.process(a);
  REQUIRE(o);
  CHECK(o->pos.x == a.pos.x);
  CHECK(o->pos.y == bits_of(2.0f * 1.5f + 3.0f * -2.0f + 1.0f));  // -2
  CHECK(o->pos.z == a.pos.z);
  CHECK(o->pos.w == FP32_ONE);
  CHECK(t.vertices() == 2u);
  // An end-of-pipe token leaves as a token (every other field 0) and changes nothing.
  VtxInPkt token = a;  // other fields are ignored when eop = 1
  token.eop = 1;
  o = t.process(token);
  REQUIRE(o);
  ClipVtxPkt want;
  want.eop = 1;
  CHECK(*o == want);
  CHECK(t.vertices() == 2u);
  CHECK(t.matrix()[1][1] == bits_of(3.0f));
  t.reset();
  CHECK(t.matrix() == model::VertexTransform::identity());
}

TEST_CASE("vtx: NaN, Inf and denormal positions", "[vtx]") {
  model::VertexTransform t;
  // Identity with an infinite x: 0 * Inf = NaN in every other row.
  auto o = t.process(vertex(fp32::INF, FP32_ONE, FP32_ONE, FP32_ONE, 1));
  REQUIRE(o);
  CHECK(o->pos.x == fp32::INF);
  CHECK(o->pos.y == FP32_QNAN);
  CHECK(o->pos.z == FP32_QNAN);
  CHECK(o->pos.w == FP32_QNAN);
  // A NaN input (any payload) makes every row the canonical NaN.
  o = t.process(vertex(FP32_ONE, 0xFFBADBAD, FP32_ONE, FP32_ONE, 2));
  REQUIRE(o);
  CHECK(o->pos.x == FP32_QNAN);
  CHECK(o->pos.w == FP32_QNAN);
  // Denormals read as zeros: x = -denormal gives -0 * 1 = -0, then -0 + (+0 * y) = +0.
  o = t.process(vertex(0x80000001, FP32_ONE, 0x00000005, FP32_ONE, 3));
  REQUIRE(o);
  CHECK(o->pos.x == 0u);
  CHECK(o->pos.y == FP32_ONE);
  CHECK(o->pos.z == 0u);
  // A product that underflows is flushed: 2^-70 * 2^-70.
  Matrix m = model::VertexTransform::identity();
  m[0][0] = 0x1C800000;  // 2^-70
  for (const auto& p : model::VertexTransform::matrix_packets(m)) CHECK_FALSE(t.process(p));
  o = t.process(vertex(0x1C800000, 0, 0, 0, 4));
  REQUIRE(o);
  CHECK(o->pos.x == 0u);
}

TEST_CASE("vtx: a perspective projection", "[vtx]") {
  // D3D-style left-handed perspective, written for column vectors (clip = M * v):
  // x' = xs*x, y' = ys*y, z' = zf/(zf-zn) * (z - zn), w' = z. 90 degrees, aspect 1, zn = 1, zf = 101.
  const float zn = 1.0f, zf = 101.0f, q = zf / (zf - zn);
  const float p[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, q, -q * zn}, {0, 0, 1, 0}};
  model::VertexTransform t;
  for (const auto& pk : model::VertexTransform::matrix_packets(from_floats(p))) t.process(pk);
  // On the near plane: z' = 0 exactly, w' = zn.
  auto o = t.process(vertex(bits_of(0.5f), bits_of(-0.5f), bits_of(zn), FP32_ONE, 1));
  REQUIRE(o);
  CHECK(o->pos.x == bits_of(0.5f));
  CHECK(o->pos.y == bits_of(-0.5f));
  CHECK(o->pos.z == 0u);
  CHECK(o->pos.w == bits_of(zn));
  // On the far plane z' ~ w' (clip z/w = 1 up to rounding); in the middle, within 1e-6 relative.
  for (float z : {2.0f, 10.0f, 50.0f, 101.0f}) {
    o = t.process(vertex(bits_of(3.0f), bits_of(4.0f), bits_of(z), FP32_ONE, 2));
    REQUIRE(o);
    const double zc = fp32::float_of(static_cast<uint32_t>(o->pos.z));
    const double exact = static_cast<double>(q) * z - static_cast<double>(q) * zn;
    CHECK(std::fabs(zc - exact) <= 1e-6 * std::fabs(exact) + 1e-6);
    CHECK(o->pos.w == bits_of(z));
  }
}
