// SPDX-License-Identifier: Apache-2.0
// Per-vertex attributes through the front end on the golden model (issue 15): a draw whose input
// layout binds POSITION (F32x4), COLOR (UNORM8x4), TEXCOORD0 and TEXCOORD1 (F32x2) reaches PA
// with them, and PA's triangles reach SETUP with them in tri_pkt_t.a (model::pa_to_tri).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

#include "fp32.h"
#include "pa/pa.h"
#include "rt_test_util.h"
#include "runtime.h"
#include "top/pineda_top.h"

using namespace pineda;
using namespace pineda::rt;
using namespace pineda::rt::test;

namespace {

struct Vertex {  // 36 bytes: x y z w, RGBA8, u0 v0, u1 v1
  float p[4];
  uint32_t color;
  float t0[2], t1[2];
};
static_assert(sizeof(Vertex) == 36, "packed vertex");

}  // namespace

TEST_CASE("front-end draws carry colour and both texture coordinates to PA and into tri_pkt_t.a",
          "[runtime][fe][golden]") {
  GoldenFixture f(GoldenFixture::defaults().target(64, 64, 0));
  f.be.gpu().set_trace_enabled(true);  // the golden backend runs without a trace
  // Triangle 0 in view (w = 2, 1, 4: perspective); triangle 1 with its v2 behind the near
  // plane (z < 0): clipped into two fan triangles with two new vertices.
  const std::vector<Vertex> verts = {
      {{-1.0f, -1.0f, 0.5f, 2.0f}, 0xFF0000FFu, {0.0f, 0.0f}, {10.0f, -1.0f}},
      {{0.5f, -0.5f, 0.25f, 1.0f}, 0x8000FF00u, {1.0f, 0.0f}, {20.0f, -2.0f}},
      {{0.0f, 3.0f, 1.0f, 4.0f}, 0x40FF0000u, {0.5f, 1.0f}, {30.0f, -3.0f}},
      {{-0.5f, -0.5f, 0.5f, 1.0f}, 0xFF000000u, {0.0f, 0.0f}, {8.0f, -8.0f}},
      {{0.5f, -0.5f, 0.5f, 1.0f}, 0x10203040u, {1.0f, 0.0f}, {16.0f, -4.0f}},
      {{0.0f, 1.0f, -0.5f, 2.0f}, 0xFFFFFFFFu, {0.5f, 1.0f}, {-2.0f, 100.0f}},
  };
  Resource* vb = nullptr;
  REQUIRE(f.dev.create_buffer({static_cast<uint32_t>(verts.size() * sizeof(Vertex)), BIND_VERTEX_BUFFER},
                              verts.data(), &vb) == Result::OK);
  InputLayout l;
  REQUIRE(f.dev.create_input_layout({{Semantic::POSITION, VertexFormat::F32X4, 0, 0},
                                     {Semantic::COLOR, VertexFormat::UNORM8X4, 0, 16},
                                     {Semantic::TEXCOORD0, VertexFormat::F32X2, 0, 20},
                                     {Semantic::TEXCOORD1, VertexFormat::F32X2, 0, 28}},
                                    &l) == Result::OK);
  f.ctx.set_input_layout(l);
  REQUIRE(f.ctx.set_vertex_buffer(0, vb, sizeof(Vertex)) == Result::OK);
  REQUIRE(f.ctx.set_viewport({0, 0, 64, 64, 0, 1}) == Result::OK);
  REQUIRE(f.ctx.set_rasterizer_state({CullMode::NONE, false, true}) == Result::OK);
  REQUIRE(f.ctx.draw(6, 0) == Result::OK);
  const std::vector<uint32_t> px = f.pixels();  // waits for the GPU
  std::vector<PaTriPkt> tris;
  for (const PaTriPkt& t : f.be.gpu().trace().pa_tri) {
    if (!t.eop) tris.push_back(t);
  }
  REQUIRE(tris.size() == 3);
  // Triangle 0: the vertices' attributes unchanged, 1/w = rcp(w).
  for (int k = 0; k < 3; ++k) {
    const Vertex& v = verts[static_cast<size_t>(k)];
    const PaAttr& a = tris[0].attr[k];
    CHECK(a.rhw == fp32::rcp(fp32::bits_of(v.p[3])));
    CHECK(a.color == v.color);
    CHECK(a.tex0.u == fp32::bits_of(v.t0[0]));
    CHECK(a.tex0.v == fp32::bits_of(v.t0[1]));
    CHECK(a.tex1.u == fp32::bits_of(v.t1[0]));
    CHECK(a.tex1.v == fp32::bits_of(v.t1[1]));
  }
  // Triangle 1, clipped at t = 1/2 on both crossing edges (numerics.md section 8.2):
  // fan (v3, v4, n45), (v3, n45, n53).
  const PaAttr &n45 = tris[1].attr[2], &n53 = tris[2].attr[2];
  CHECK(tris[2].attr[1] == n45);
  CHECK(n45.rhw == fp32::rcp(fp32::bits_of(1.5f)));
  CHECK(n45.color == 0x889098A0u);
  CHECK(n53.color == 0xFF808080u);
  CHECK(n45.tex0.u == fp32::bits_of(0.75f));
  CHECK(n45.tex1.v == fp32::bits_of(48.0f));
  CHECK(n53.tex0.u == fp32::bits_of(0.25f));
  CHECK(n53.tex1.u == fp32::bits_of(3.0f));
  // The merge in front of SETUP: tri_pkt_t.a is PA's rhw, colour, tex0, tex1 per vertex.
  for (const PaTriPkt& t : tris) {
    const TriPkt s = model::pa_to_tri(t);
    for (int k = 0; k < 3; ++k) {
      CHECK(s.a[k].rhw == t.attr[k].rhw);
      CHECK(s.a[k].color == t.attr[k].color);
      CHECK(s.a[k].uv0 == t.attr[k].tex0);
      CHECK(s.a[k].uv1 == t.attr[k].tex1);
    }
  }
  CHECK(std::count(px.begin(), px.end(), 0u) < static_cast<long>(px.size()));  // something was drawn
  f.ctx.clear_state();
  vb->release();
}
