// SPDX-License-Identifier: Apache-2.0
// The front-end API (input layout, vertex and index buffers, topology, transform, viewport,
// rasterizer state, draw / draw_indexed / draw_instanced / draw_indexed_instanced): the command
// dwords it produces, decoded and replayed against the hardware's reset state, its validation, its
// hazard bookkeeping and the state reset around command lists.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>

#include "fp32.h"
#include "rt_test_util.h"
#include "runtime.h"

using namespace pineda;
using namespace pineda::rt;
using namespace pineda::rt::test;

namespace {


// The hardware's state after reset (contract: ST_* resets; front end 0, identity matrix, scissor
// everything), written independently of the runtime's own copy.
HwState reset_state() {
  HwState s{};
  s[ST_SCISSOR_X] = s[ST_SCISSOR_Y] = 0xFFFF0000u;
  s[FE_SCISSOR_X] = s[FE_SCISSOR_Y] = 0xFFFF0000u;
  for (uint32_t r = 0; r < 4; ++r) s[FE_MATRIX0 + 5 * r] = fp32::bits_of(1.0f);
  return s;
}

struct Cmd {
  uint32_t op = 0, arg = 0;
  std::vector<uint32_t> payload;
};

// Splits dwords into commands; CALL and JUMP are followed into `mem` (the lists the runtime
// uploaded), so the result is what the CP decodes.
void decode_into(const Memory& mem, const std::vector<uint32_t>& d, std::vector<Cmd>& out, int depth = 0) {
  size_t i = 0;
  while (i < d.size()) {
    Cmd c;
    c.op = d[i] >> CMD_OP_LSB;
    c.arg = (d[i] >> CMD_ARG_LSB) & 0xFFFu;
    const uint32_t len = (d[i] >> CMD_LEN_LSB) & 0xFFFu;
    REQUIRE(i + 1 + len <= d.size());
    c.payload.assign(d.begin() + static_cast<long>(i + 1), d.begin() + static_cast<long>(i + 1 + len));
    i += 1 + len;
    if ((c.op == OP_CALL || c.op == OP_JUMP) && depth < 8) {
      std::vector<uint32_t> ib(c.payload[1]);
      for (uint32_t k = 0; k < c.payload[1]; ++k) ib[k] = mem.read32(c.payload[0] + 4 * k);
      out.push_back(c);
      decode_into(mem, ib, out, depth + 1);
      if (c.op == OP_JUMP) return;  // the IB replaces the rest
      continue;
    }
    out.push_back(c);
  }
}

std::vector<Cmd> decode(const ManualBackend& be) {
  std::vector<Cmd> out;
  decode_into(const_cast<ManualBackend&>(be).memory(), submitted_dwords(be), out);
  return out;
}

// A front-end draw as the CP sees it: its command and the state it runs with.
struct FeDraw {
  uint32_t arg = 0;
  std::vector<uint32_t> payload;
  HwState state{};
};

struct Replay {
  std::vector<FeDraw> draws;
  std::vector<HwState> pretransformed_draws;  // state at each OP_DRAW
  std::vector<std::pair<uint32_t, uint32_t>> writes;  // (index, value) of every SET_STATE register
  HwState state = reset_state();
};

Replay replay(const std::vector<Cmd>& cmds) {
  Replay r;
  for (const Cmd& c : cmds) {
    if (c.op == OP_SET_STATE) {
      REQUIRE(c.arg + c.payload.size() <= FE_STATE_END);
      for (size_t i = 0; i < c.payload.size(); ++i) {
        r.state[c.arg + i] = c.payload[i];
        r.writes.emplace_back(static_cast<uint32_t>(c.arg + i), c.payload[i]);
      }
    } else if (c.op == OP_DRAW_FE) {
      REQUIRE(c.payload.size() == 5);
      r.draws.push_back({c.arg, c.payload, r.state});
    } else if (c.op == OP_DRAW) {
      r.pretransformed_draws.push_back(r.state);
    }
  }
  return r;
}

// Flushes the immediate context and decodes everything submitted so far.
std::vector<Cmd> flush_and_decode(ManualFixture& f) {
  REQUIRE(f.ctx.flush() == Result::OK);
  return decode(f.be);
}

Resource* make_buffer(Device& dev, uint32_t bytes, uint32_t bind) {
  Resource* r = nullptr;
  REQUIRE(dev.create_buffer({bytes, bind}, nullptr, &r) == Result::OK);
  return r;
}

// Position F32x3 and colour UNORM8x4 from slot 0 (16-byte vertices), texture coordinate 0 (F32x2)
// from slot 1 at offset 4.
InputLayout standard_layout(Device& dev) {
  InputLayout l;
  const std::vector<InputElement> el = {{Semantic::POSITION, VertexFormat::F32X3, 0, 0},
                                        {Semantic::COLOR, VertexFormat::UNORM8X4, 0, 12},
                                        {Semantic::TEXCOORD0, VertexFormat::F32X2, 1, 4}};
  REQUIRE(dev.create_input_layout(el, &l) == Result::OK);
  return l;
}

size_t count_op(const std::vector<Cmd>& cmds, uint32_t op) {
  size_t n = 0;
  for (const Cmd& c : cmds) n += c.op == op;
  return n;
}

}  // namespace

TEST_CASE_METHOD(ManualFixture, "input layouts encode the FE_ATTR registers", "[runtime][fe]") {
  InputLayout l = standard_layout(dev);
  CHECK(l.attr_words()[0] == (ATTR_FMT_F32X3 | 0u << 3 | 0u << 16));
  CHECK(l.attr_words()[1] == (ATTR_FMT_UNORM8X4 | 0u << 3 | 12u << 16));
  CHECK(l.attr_words()[2] == (ATTR_FMT_F32X2 | 1u << 3 | 4u << 16));
  CHECK(l.attr_words()[3] == ATTR_FMT_NONE);
  CHECK(l.uses_slot(0));
  CHECK(l.uses_slot(1));
  CHECK(l.has(Semantic::POSITION));
  CHECK_FALSE(l.has(Semantic::TEXCOORD1));
  InputLayout e;
  REQUIRE(dev.create_input_layout(std::vector<InputElement>{}, &e) == Result::OK);  // empty: valid, fetches nothing
  CHECK_FALSE(e.uses_slot(0));
  CHECK_FALSE(e.uses_slot(1));

  auto bad = [&](std::vector<InputElement> el, const char* msg) {
    InputLayout x;
    CHECK(dev.create_input_layout(el, &x) == Result::INVALID_ARG);
    CHECK(dev.last_error().find(msg) != std::string::npos);
  };
  bad({{Semantic::POSITION, VertexFormat::F32X3, 0, 0}, {Semantic::POSITION, VertexFormat::F32X4, 0, 0}}, "second POSITION");
  bad({{Semantic::COLOR, static_cast<VertexFormat>(0), 0, 0}}, "format");
  bad({{Semantic::COLOR, static_cast<VertexFormat>(6), 0, 0}}, "format");
  bad({{static_cast<Semantic>(4), VertexFormat::F32X1, 0, 0}}, "semantic");
  bad({{Semantic::TEXCOORD1, VertexFormat::F32X2, 2, 0}}, "slot 2");
  bad({{Semantic::TEXCOORD1, VertexFormat::F32X2, 0, 6}}, "multiple of 4");
  bad({{Semantic::TEXCOORD1, VertexFormat::F32X2, 0, 0x10000}}, "0xFFFF");
  CHECK(dev.create_input_layout(nullptr, 1, &e) == Result::INVALID_ARG);
  CHECK(dev.create_input_layout(nullptr, 0, nullptr) == Result::INVALID_ARG);
}

TEST_CASE_METHOD(ManualFixture, "a front-end draw sets the state it needs and encodes DRAW_FE", "[runtime][fe]") {
  Resource* vb0 = make_buffer(dev, 4096, BIND_VERTEX_BUFFER);
  Resource* vb1 = make_buffer(dev, 256, BIND_VERTEX_BUFFER);
  Resource* ib = make_buffer(dev, 1000, BIND_INDEX_BUFFER);
  ctx.set_input_layout(standard_layout(dev));
  REQUIRE(ctx.set_vertex_buffer(0, vb0, 16, 64) == Result::OK);
  REQUIRE(ctx.set_vertex_buffer(1, vb1, 8) == Result::OK);
  REQUIRE(ctx.set_index_buffer(ib, IndexFormat::R16_UINT, 2) == Result::OK);
  REQUIRE(ctx.set_primitive_topology(PrimitiveTopology::TRIANGLE_STRIP, true) == Result::OK);
  Matrix4 m;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) m.m[r][c] = static_cast<float>(r * 10 + c) + 0.5f;
  }
  ctx.set_transform(m);
  REQUIRE(ctx.set_viewport({8.0f, 4.0f, 320.0f, 240.0f, 0.25f, 0.75f}) == Result::OK);
  REQUIRE(ctx.set_rasterizer_state({CullMode::FRONT, true, false}) == Result::OK);
  REQUIRE(ctx.set_scissor(1, 2, 300, 200) == Result::OK);
  REQUIRE(ctx.draw_indexed_instanced(36, 3, 5, -7, 2) == Result::OK);

  const Replay r = replay(flush_and_decode(*this));
  REQUIRE(r.draws.size() == 1);
  const FeDraw& d = r.draws[0];
  CHECK(d.arg == (1u | 4u | 8u));  // indexed, 16-bit, strip, restart
  CHECK(d.payload == std::vector<uint32_t>{5, 36, static_cast<uint32_t>(-7), 3, 2});
  const HwState& s = d.state;
  CHECK(s[FE_VB0_BASE] == vb0->gpu_address() + 64);
  CHECK(s[FE_VB0_STRIDE] == 16);
  CHECK(s[FE_VB0_SIZE] == 4096 - 64);
  CHECK(s[FE_VB1_BASE] == vb1->gpu_address());
  CHECK(s[FE_VB1_STRIDE] == 8);
  CHECK(s[FE_VB1_SIZE] == 256);
  CHECK(s[FE_ATTR_POS] == ATTR_FMT_F32X3);
  CHECK(s[FE_ATTR_COLOR] == (ATTR_FMT_UNORM8X4 | 12u << 16));
  CHECK(s[FE_ATTR_TEX0] == (ATTR_FMT_F32X2 | 8u | 4u << 16));
  CHECK(s[FE_ATTR_TEX1] == 0);
  CHECK(s[FE_IB_BASE] == ib->gpu_address() + 2);
  CHECK(s[FE_IB_SIZE] == 998);
  for (uint32_t k = 0; k < 16; ++k) CHECK(s[FE_MATRIX0 + k] == fp32::bits_of(static_cast<float>((k / 4) * 10 + k % 4) + 0.5f));
  CHECK(s[FE_VP_X] == fp32::bits_of(8.0f));
  CHECK(s[FE_VP_Y] == fp32::bits_of(4.0f));
  CHECK(s[FE_VP_W] == fp32::bits_of(320.0f));
  CHECK(s[FE_VP_H] == fp32::bits_of(240.0f));
  CHECK(s[FE_VP_ZMIN] == fp32::bits_of(0.25f));
  CHECK(s[FE_VP_ZMAX] == fp32::bits_of(0.75f));
  CHECK(s[FE_RASTER] == (PA_CULL_FRONT | 4u | 8u));
  CHECK(s[FE_RT_BASE] == rt->gpu_address());
  CHECK(s[FE_RT_PITCH] == rt->pitch());
  CHECK(s[FE_RT_SIZE] == (16u << 16 | 16u));
  CHECK(s[FE_SCISSOR_X] == (300u << 16 | 1u));
  CHECK(s[FE_SCISSOR_Y] == (200u << 16 | 2u));
  // The pre-transformed draw's registers are left alone.
  for (uint32_t k = 0; k < NUM_STATE; ++k) CHECK(s[k] == reset_state()[k]);
  // Hazards: every buffer the draw reads, the target it writes.
  const uint64_t f = dev.flushed_fence();
  CHECK(vb0->last_gpu_read() == f);
  CHECK(vb1->last_gpu_read() == f);
  CHECK(ib->last_gpu_read() == f);
  CHECK(rt->last_gpu_write() == f);
  ctx.clear_state();
  for (Resource* x : {vb0, vb1, ib}) x->release();
}

TEST_CASE_METHOD(ManualFixture, "front-end draws write only the registers that change", "[runtime][fe]") {
  Resource* vb0 = make_buffer(dev, 4096, BIND_VERTEX_BUFFER);
  Resource* vb1 = make_buffer(dev, 256, BIND_VERTEX_BUFFER);
  Resource* ib = make_buffer(dev, 1024, BIND_INDEX_BUFFER);
  InputLayout pos_only;
  REQUIRE(dev.create_input_layout({{Semantic::POSITION, VertexFormat::F32X4, 0, 0}}, &pos_only) == Result::OK);
  ctx.set_input_layout(pos_only);
  REQUIRE(ctx.set_vertex_buffer(0, vb0, 16) == Result::OK);
  REQUIRE(ctx.set_vertex_buffer(1, vb1, 4) == Result::OK);  // bound, but the layout does not read it
  REQUIRE(ctx.set_viewport({0, 0, 16, 16, 0, 1}) == Result::OK);
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  const size_t first_cmds = decode(be).size();
  {
    const Replay r = replay(decode(be));
    REQUIRE(r.draws.size() == 1);
    CHECK(r.draws[0].arg == 0);
    CHECK(r.draws[0].payload == std::vector<uint32_t>{0, 3, 0, 1, 0});
    // Only what differs from the reset state: VB0 (3), the position attribute, viewport W, H and
    // ZMAX, the rasterizer (cull back), the target. Not VB1, the IB, the matrix (identity) or the
    // scissor (unchanged: everything).
    std::map<uint32_t, uint32_t> w(r.writes.begin(), r.writes.end());
    CHECK(w.size() == r.writes.size());  // each register once
    CHECK(w.count(FE_VB0_BASE));
    CHECK(w.count(FE_ATTR_POS));
    CHECK_FALSE(w.count(FE_ATTR_COLOR));  // 0, as after reset
    CHECK_FALSE(w.count(FE_VB1_BASE));
    CHECK_FALSE(w.count(FE_IB_BASE));
    CHECK_FALSE(w.count(FE_MATRIX0));
    CHECK_FALSE(w.count(FE_VP_X));
    CHECK(w.at(FE_VP_W) == fp32::bits_of(16.0f));
    CHECK(w.at(FE_VP_ZMAX) == fp32::bits_of(1.0f));
    CHECK(w.at(FE_RASTER) == PA_CULL_BACK);
    CHECK(w.count(FE_RT_BASE));
    CHECK_FALSE(w.count(FE_SCISSOR_X));
    CHECK(w.size() == 3 + 1 + 3 + 1 + 3);
    CHECK(vb0->last_gpu_read() == dev.flushed_fence());
    CHECK(vb1->last_gpu_read() == 0);  // not read by the draw
  }
  // The same draw again: no state at all, one DRAW_FE of 6 dwords.
  REQUIRE(ctx.draw(6, 3) == Result::OK);
  CHECK(ctx.open_dwords() == 6);
  // One matrix element: one register.
  Matrix4 m;
  m.m[1][2] = 2.0f;
  ctx.set_transform(m);
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  CHECK(ctx.open_dwords() == 6 + 2 + 6);
  // An indexed draw adds the index buffer registers; 32-bit indices and a strip without restart.
  REQUIRE(ctx.set_index_buffer(ib, IndexFormat::R32_UINT, 8) == Result::OK);
  REQUIRE(ctx.set_primitive_topology(PrimitiveTopology::TRIANGLE_STRIP) == Result::OK);
  REQUIRE(ctx.draw_indexed(4, 1, 100) == Result::OK);
  CHECK(ctx.open_dwords() == 6 + 2 + 6 + 3 + 6);
  // Restart on a list has no effect; on a non-indexed strip neither.
  REQUIRE(ctx.set_primitive_topology(PrimitiveTopology::TRIANGLE_LIST, true) == Result::OK);
  REQUIRE(ctx.draw_indexed(3, 0, 0) == Result::OK);
  REQUIRE(ctx.set_primitive_topology(PrimitiveTopology::TRIANGLE_STRIP, true) == Result::OK);
  REQUIRE(ctx.draw_instanced(4, 2, 0, 0) == Result::OK);
  REQUIRE(ctx.draw_indexed(4, 0, 0) == Result::OK);
  // The scissor and the target are shared with pre-transformed draws.
  REQUIRE(ctx.set_scissor(0, 0, 8, 8) == Result::OK);
  REQUIRE(ctx.draw_pretransformed(3, 0) == Result::OK);
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  const std::vector<Cmd> all = flush_and_decode(*this);
  const Replay r = replay(all);
  REQUIRE(r.draws.size() == 8);
  CHECK(r.draws[2].state[FE_MATRIX0 + 6] == fp32::bits_of(2.0f));
  CHECK(r.draws[3].arg == (1u | 2u | 4u));
  CHECK(r.draws[3].payload == std::vector<uint32_t>{1, 4, 100, 1, 0});
  CHECK(r.draws[3].state[FE_IB_BASE] == ib->gpu_address() + 8);
  CHECK(r.draws[3].state[FE_IB_SIZE] == 1016);
  CHECK(r.draws[4].arg == (1u | 2u));       // list: no restart bit
  CHECK(r.draws[5].arg == 4u);              // non-indexed strip: no restart bit
  CHECK(r.draws[5].payload == std::vector<uint32_t>{0, 4, 0, 2, 0});
  CHECK(r.draws[6].arg == (1u | 2u | 4u | 8u));
  REQUIRE(r.pretransformed_draws.size() == 1);
  CHECK(r.pretransformed_draws[0][ST_SCISSOR_X] == (8u << 16));
  CHECK(r.pretransformed_draws[0][ST_RT_BASE] == rt->gpu_address());
  CHECK(r.draws[7].state[FE_SCISSOR_X] == (8u << 16));
  CHECK(r.draws[7].state[FE_SCISSOR_Y] == (8u << 16));
  CHECK(all.size() > first_cmds);
  ctx.clear_state();
  for (Resource* x : {vb0, vb1, ib}) x->release();
}

TEST_CASE_METHOD(ManualFixture, "front-end setters and draws are validated", "[runtime][fe][errors]") {
  Resource* vb0 = make_buffer(dev, 256, BIND_VERTEX_BUFFER);
  Resource* ib = make_buffer(dev, 64, BIND_INDEX_BUFFER);
  Resource* cb = make_buffer(dev, 64, BIND_CONSTANT_BUFFER);
  auto err = [&](Result got, Result want, const char* msg) {
    CHECK(got == want);
    CHECK(ctx.last_error().find(msg) != std::string::npos);
  };
  // Vertex buffers.
  err(ctx.set_vertex_buffer(2, vb0, 16), Result::INVALID_ARG, "slots");
  Resource* two[2] = {vb0, vb0};
  const uint32_t st[2] = {16, 16}, of[2] = {0, 0};
  err(ctx.set_vertex_buffers(1, 2, two, st, of), Result::INVALID_ARG, "slots");
  err(ctx.set_vertex_buffers(0, 2, two, nullptr, of), Result::INVALID_ARG, "null");
  err(ctx.set_vertex_buffer(0, vb0, 6), Result::INVALID_ARG, "stride");
  err(ctx.set_vertex_buffer(0, vb0, 0x10000), Result::INVALID_ARG, "stride");
  err(ctx.set_vertex_buffer(0, vb0, 16, 2), Result::INVALID_ARG, "offset");
  err(ctx.set_vertex_buffer(0, vb0, 16, 256), Result::INVALID_ARG, "offset");
  err(ctx.set_vertex_buffer(0, cb, 16), Result::INVALID_ARG, "BIND_VERTEX_BUFFER");
  err(ctx.set_vertex_buffer(1, rt, 16), Result::INVALID_ARG, "BIND_VERTEX_BUFFER");
  CHECK(ctx.state().vbs[0].buffer == nullptr);  // nothing changed by a failing call
  REQUIRE(ctx.set_vertex_buffers(0, 2, two, st, of) == Result::OK);
  CHECK(ctx.set_vertex_buffer(1, nullptr, 0) == Result::OK);  // unbinds
  CHECK(ctx.state().vbs[1].buffer == nullptr);
  CHECK(ctx.set_vertex_buffer(0, vb0, 0) == Result::OK);      // stride 0: every element the same
  // Index buffers.
  err(ctx.set_index_buffer(ib, IndexFormat::R16_UINT, 1), Result::INVALID_ARG, "multiple of the index size");
  err(ctx.set_index_buffer(ib, IndexFormat::R32_UINT, 2), Result::INVALID_ARG, "multiple of the index size");
  err(ctx.set_index_buffer(ib, IndexFormat::R32_UINT, 64), Result::INVALID_ARG, "inside");
  err(ctx.set_index_buffer(ib, static_cast<IndexFormat>(2)), Result::INVALID_ARG, "R16_UINT or R32_UINT");
  err(ctx.set_index_buffer(vb0, IndexFormat::R16_UINT), Result::INVALID_ARG, "BIND_INDEX_BUFFER");
  // Topology, viewport, rasterizer.
  err(ctx.set_primitive_topology(static_cast<PrimitiveTopology>(2)), Result::INVALID_ARG, "TRIANGLE_LIST");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  err(ctx.set_viewport({0, 0, nan, 16, 0, 1}), Result::INVALID_ARG, "finite");
  err(ctx.set_viewport({0, 0, INFINITY, 16, 0, 1}), Result::INVALID_ARG, "finite");
  err(ctx.set_viewport({0, 0, -1, 16, 0, 1}), Result::INVALID_ARG, "negative");
  err(ctx.set_viewport({0, 0, 16, 16, 0, 1.5f}), Result::INVALID_ARG, "[0, 1]");
  err(ctx.set_viewport({0, 0, 16, 16, -0.5f, 1}), Result::INVALID_ARG, "[0, 1]");
  err(ctx.set_viewport({32000, 0, 1000, 16, 0, 1}), Result::INVALID_ARG, "bounds");
  err(ctx.set_viewport({-40000, 0, 16, 16, 0, 1}), Result::INVALID_ARG, "bounds");
  CHECK(ctx.set_viewport({-100, -100, 400, 400, 1, 0}) == Result::OK);  // reversed depth range
  err(ctx.set_rasterizer_state({static_cast<CullMode>(3), false, true}), Result::INVALID_ARG, "cull");
  // Draws.
  REQUIRE(ctx.set_render_target(nullptr) == Result::OK);
  err(ctx.draw(3, 0), Result::INVALID_CALL, "render target");
  REQUIRE(ctx.set_render_target(rt) == Result::OK);
  err(ctx.draw(3, 0), Result::INVALID_CALL, "no input layout");
  InputLayout no_pos, slot1;
  REQUIRE(dev.create_input_layout({{Semantic::COLOR, VertexFormat::UNORM8X4, 0, 0}}, &no_pos) == Result::OK);
  REQUIRE(dev.create_input_layout({{Semantic::POSITION, VertexFormat::F32X3, 0, 0},
                                   {Semantic::COLOR, VertexFormat::UNORM8X4, 1, 0}},
                                  &slot1) == Result::OK);
  ctx.set_input_layout(no_pos);
  err(ctx.draw(3, 0), Result::INVALID_CALL, "POSITION");
  ctx.set_input_layout(slot1);
  err(ctx.draw_instanced(3, 2, 0, 0), Result::INVALID_CALL, "slot 1");
  REQUIRE(ctx.set_vertex_buffer(1, vb0, 4) == Result::OK);
  REQUIRE(ctx.set_index_buffer(nullptr, IndexFormat::R16_UINT) == Result::OK);
  err(ctx.draw_indexed(3, 0, 0), Result::INVALID_CALL, "index buffer");
  err(ctx.draw_indexed_instanced(3, 1, 0, 0, 0), Result::INVALID_CALL, "index buffer");
  CHECK(ctx.open_dwords() == 0);  // nothing encoded by a failing draw
  REQUIRE(ctx.set_index_buffer(ib, IndexFormat::R16_UINT) == Result::OK);
  CHECK(ctx.draw_indexed_instanced(3, 2, 0, 0, 0) == Result::OK);
  // Counts of 0 and indices past the buffer are valid (the hardware draws nothing / reads 0).
  CHECK(ctx.draw_indexed(0, 1000, 0) == Result::OK);
  CHECK(ctx.draw_instanced(3, 0, 0, 0) == Result::OK);
  CHECK(ctx.draw(3, 0xFFFFFFF0u) == Result::OK);
  // A released buffer stays alive while bound; a dead handle is rejected.
  Resource* gone = make_buffer(dev, 64, BIND_INDEX_BUFFER);
  gone->release();
  err(ctx.set_index_buffer(gone, IndexFormat::R16_UINT), Result::INVALID_ARG, "live");
  ctx.clear_state();
  CHECK(ctx.state().ib == nullptr);
  CHECK(ctx.state().layout_set == false);
  CHECK(ctx.state().raster.cull == CullMode::BACK);
  for (Resource* x : {vb0, ib, cb}) x->release();
}

TEST_CASE("command lists: front-end state is reset before and re-sent after", "[runtime][fe][list]") {
  const bool call = GENERATE(false, true);
  CAPTURE(call);
  ManualBackend be;
  if (call) be.write_reg(REG_ID, ID_VALUE);  // CALL-capable hardware
  Device dev(be, manual_desc());
  REQUIRE(dev.hardware_call() == call);
  ImmediateContext& ctx = dev.immediate();
  Resource* rt = make_rt(dev, 16, 16);
  Resource* vb0 = make_buffer(dev, 1024, BIND_VERTEX_BUFFER);
  Resource* ib = make_buffer(dev, 1024, BIND_INDEX_BUFFER | BIND_VERTEX_BUFFER);
  InputLayout l;
  REQUIRE(dev.create_input_layout({{Semantic::POSITION, VertexFormat::F32X3, 0, 0}}, &l) == Result::OK);
  auto bind_all = [&](Context& c, float vp_x) {
    REQUIRE(c.set_render_target(rt) == Result::OK);
    c.set_input_layout(l);
    REQUIRE(c.set_vertex_buffer(0, vb0, 12) == Result::OK);
    REQUIRE(c.set_index_buffer(ib, IndexFormat::R16_UINT) == Result::OK);
    REQUIRE(c.set_viewport({vp_x, 0, 16, 16, 0, 1}) == Result::OK);
  };
  // The list: recorded against the reset state; it changes the viewport X and the matrix.
  std::unique_ptr<DeferredContext> dc;
  REQUIRE(dev.create_deferred_context({}, &dc) == Result::OK);
  bind_all(*dc, 3.0f);
  Matrix4 m;
  m.m[0][3] = 0.5f;
  dc->set_transform(m);
  REQUIRE(dc->draw_indexed(3, 0, 0) == Result::OK);
  CommandList* list = nullptr;
  REQUIRE(dc->finish_command_list(false, &list) == Result::OK);

  // The immediate context draws with a scissor and another viewport first.
  bind_all(ctx, 5.0f);
  REQUIRE(ctx.set_scissor(1, 1, 9, 9) == Result::OK);
  REQUIRE(ctx.draw_indexed(3, 0, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  const size_t before = decode(be).size();
  // Rename the vertex buffer after recording: the list's FE_VB0_BASE is patched at execution.
  Mapped mp;
  REQUIRE(ctx.map(vb0, MapType::WRITE_DISCARD, 0, &mp) == Result::OK);
  REQUIRE(ctx.unmap(vb0) == Result::OK);
  REQUIRE(dev.stats().renames == 1);
  REQUIRE(ctx.execute_command_list(list, true) == Result::OK);
  REQUIRE(ctx.draw_indexed(3, 0, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  const std::vector<Cmd> all = decode(be);
  const std::vector<Cmd> tail(all.begin() + static_cast<long>(before), all.end());
  const Replay r = replay(all);
  REQUIRE(r.draws.size() == 3);
  // In the list: the reset state plus what the list set.
  const HwState& in_list = r.draws[1].state;
  CHECK(in_list[FE_VP_X] == fp32::bits_of(3.0f));
  CHECK(in_list[FE_MATRIX0 + 3] == fp32::bits_of(0.5f));
  CHECK(in_list[FE_SCISSOR_X] == 0xFFFF0000u);  // reset before the list, not set by it
  CHECK(in_list[FE_VB0_BASE] == vb0->gpu_address());  // the renamed storage
  CHECK(in_list[FE_IB_BASE] == ib->gpu_address());
  // After it: the immediate context's state again.
  const HwState& after = r.draws[2].state;
  CHECK(after[FE_VP_X] == fp32::bits_of(5.0f));
  CHECK(after[FE_MATRIX0 + 3] == 0u);
  CHECK(after[FE_SCISSOR_X] == (9u << 16 | 1u));
  CHECK(after[FE_VB0_BASE] == vb0->gpu_address());
  // The reset before the list wrote the front-end registers the immediate context had changed
  // (and the 7 ST_* registers); the draw after it re-sent what the reset or the list changed.
  std::map<uint32_t, int> writes;
  for (const Cmd& c : tail) {
    if (c.op != OP_SET_STATE) continue;
    for (size_t i = 0; i < c.payload.size(); ++i) ++writes[static_cast<uint32_t>(c.arg + i)];
  }
  CHECK(writes[FE_SCISSOR_X] == 2);  // reset, re-sent
  CHECK(writes[FE_VP_X] == 3);       // reset, the list, re-sent
  CHECK(writes[FE_MATRIX0 + 3] == 2);  // the list, re-sent (identity again)
  CHECK(writes[FE_MATRIX0] == 0);    // never changed
  CHECK(writes[FE_ATTR_COLOR] == 0);
  CHECK(count_op(tail, OP_CALL) == (call ? 1u : 0u));
  CHECK(vb0->last_gpu_read() == dev.flushed_fence());
  list->release();
  dc.reset();
  ctx.clear_state();
  vb0->release();
  ib->release();
  rt->release();
  be.on_poll = [&be] { be.complete(be.last_kicked_fence()); };
}

TEST_CASE_METHOD(ManualFixture, "a pre-transformed-only stream is unchanged by the front end", "[runtime][fe]") {
  // No front-end state is written by pre-transformed draws or around their command lists.
  std::unique_ptr<DeferredContext> dc;
  REQUIRE(dev.create_deferred_context({}, &dc) == Result::OK);
  REQUIRE(dc->set_render_target(rt) == Result::OK);
  REQUIRE(dc->set_pretransformed_vertex_buffer(vb) == Result::OK);
  REQUIRE(dc->draw_pretransformed(3, 0) == Result::OK);
  CommandList* list = nullptr;
  REQUIRE(dc->finish_command_list(false, &list) == Result::OK);
  REQUIRE(draw(rgba(1, 2, 3)) == Result::OK);
  REQUIRE(ctx.execute_command_list(list, false) == Result::OK);
  REQUIRE(ctx.set_render_target(rt) == Result::OK);
  REQUIRE(ctx.set_pretransformed_vertex_buffer(vb) == Result::OK);
  REQUIRE(draw(rgba(1, 2, 3)) == Result::OK);
  const Replay r = replay(flush_and_decode(*this));
  for (const auto& w : r.writes) CHECK(w.first < NUM_STATE);
  CHECK(r.pretransformed_draws.size() == 3);
  list->release();
}

namespace {
// Renders with the golden model: a 6x5-vertex grid in clip space (identity transform), black
// (no colour attribute: opaque black) on white, culling off; `draw` issues the draw.
std::vector<uint32_t> render_grid(const std::function<void(Context&, Device&)>& draw) {
  GoldenFixture f(GoldenFixture::defaults().target(32, 32, 0xFFFFFFFFu));
  std::vector<float> v;
  for (int r = 0; r < 5; ++r) {
    for (int c = 0; c < 6; ++c) {
      v.push_back(-0.9f + 0.36f * c + 0.05f * static_cast<float>(r % 2));
      v.push_back(-0.9f + 0.45f * r);
      v.push_back(0.5f);
    }
  }
  Resource* vb = f.bind_clip_positions(v, 32, 32);
  draw(f.ctx, f.dev);
  std::vector<uint32_t> px = f.pixels();
  f.ctx.clear_state();
  vb->release();
  return px;
}
Resource* make_ib(Device& dev, const std::vector<uint32_t>& idx, bool r16) {
  std::vector<uint8_t> bytes;
  for (uint32_t i : idx) {
    for (uint32_t k = 0; k < (r16 ? 2u : 4u); ++k) bytes.push_back(static_cast<uint8_t>(i >> (8 * k)));
  }
  Resource* r = nullptr;
  REQUIRE(dev.create_buffer({static_cast<uint32_t>(bytes.size()), BIND_INDEX_BUFFER}, bytes.data(), &r) == Result::OK);
  return r;
}
}  // namespace

TEST_CASE("front-end draws on the golden model: lists, strips with restart, non-indexed and instanced agree",
          "[runtime][fe][golden]") {
  // The reference: an indexed triangle list over the 4 rows of cells, 16-bit indices.
  std::vector<uint32_t> list, strips16, strips32, flat;
  auto at = [](int r, int c) { return static_cast<uint32_t>(r * 6 + c); };
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 5; ++c) list.insert(list.end(), {at(r, c), at(r + 1, c), at(r, c + 1), at(r, c + 1), at(r + 1, c), at(r + 1, c + 1)});
    if (r) {
      strips16.push_back(INDEX_CUT_16);
      strips32.push_back(INDEX_CUT_32);
    }
    for (int c = 0; c < 6; ++c) {
      for (auto* s : {&strips16, &strips32}) s->insert(s->end(), {at(r, c), at(r + 1, c)});
    }
  }
  const std::vector<uint32_t> ref = render_grid([&](Context& c, Device& d) {
    Resource* ib = make_ib(d, list, true);
    REQUIRE(c.set_index_buffer(ib, IndexFormat::R16_UINT) == Result::OK);
    REQUIRE(c.draw_indexed(static_cast<uint32_t>(list.size()), 0, 0) == Result::OK);
    ib->release();
  });
  size_t black = 0;
  for (uint32_t p : ref) black += p == 0xFF000000u;
  CHECK(black > 400);
  CHECK(black < 32 * 32);
  // Strips with restart, 16- and 32-bit (with base_vertex and an index-buffer offset).
  CHECK(render_grid([&](Context& c, Device& d) {
          Resource* ib = make_ib(d, strips16, true);
          REQUIRE(c.set_index_buffer(ib, IndexFormat::R16_UINT) == Result::OK);
          REQUIRE(c.set_primitive_topology(PrimitiveTopology::TRIANGLE_STRIP, true) == Result::OK);
          REQUIRE(c.draw_indexed(static_cast<uint32_t>(strips16.size()), 0, 0) == Result::OK);
          ib->release();
        }) == ref);
  CHECK(render_grid([&](Context& c, Device& d) {
          std::vector<uint32_t> s = {7, 7};  // skipped by the offset
          for (uint32_t i : strips32) s.push_back(i == INDEX_CUT_32 ? i : i + 5);
          Resource* ib = make_ib(d, s, false);
          REQUIRE(c.set_index_buffer(ib, IndexFormat::R32_UINT, 8) == Result::OK);
          REQUIRE(c.set_primitive_topology(PrimitiveTopology::TRIANGLE_STRIP, true) == Result::OK);
          REQUIRE(c.draw_indexed(static_cast<uint32_t>(strips32.size()), 0, -5) == Result::OK);
          ib->release();
        }) == ref);
  // Non-indexed strips, one draw per row (first vertex = the row's), through an expanded buffer.
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 6; ++c) flat.insert(flat.end(), {at(r, c), at(r + 1, c)});
  }
  CHECK(render_grid([&](Context& c, Device& d) {
          // Vertex buffer slot 0 re-bound to an expanded copy of the positions.
          std::vector<float> v;
          Mapped m;
          Resource* src = c.state().vbs[0].buffer;
          REQUIRE(d.immediate().map(src, MapType::READ, 0, &m) == Result::OK);
          for (uint32_t i : flat) {
            float p[3];
            std::memcpy(p, m.data + 12 * i, 12);
            v.insert(v.end(), p, p + 3);
          }
          d.immediate().unmap(src);
          Resource* vb = nullptr;
          REQUIRE(d.create_buffer({static_cast<uint32_t>(v.size() * 4), BIND_VERTEX_BUFFER}, v.data(), &vb) == Result::OK);
          REQUIRE(c.set_vertex_buffer(0, vb, 12) == Result::OK);
          REQUIRE(c.set_primitive_topology(PrimitiveTopology::TRIANGLE_STRIP, true) == Result::OK);
          for (uint32_t r = 0; r < 4; ++r) REQUIRE(c.draw(12, 12 * r) == Result::OK);
          vb->release();
        }) == ref);
  // Instanced with the colour per instance from slot 1: the last instance's colour, everywhere
  // the reference is black.
  const std::vector<uint32_t> inst = render_grid([&](Context& c, Device& d) {
    const std::vector<uint32_t> colours = {0xFF0000FFu, 0xFF00FF00u, 0xFFFF0000u, 0xFF00FFFFu};
    Resource* cb = nullptr;
    REQUIRE(d.create_buffer({16, BIND_VERTEX_BUFFER}, colours.data(), &cb) == Result::OK);
    InputLayout l;
    REQUIRE(d.create_input_layout({{Semantic::POSITION, VertexFormat::F32X3, 0, 0},
                                   {Semantic::COLOR, VertexFormat::UNORM8X4, 1, 0}},
                                  &l) == Result::OK);
    c.set_input_layout(l);
    REQUIRE(c.set_vertex_buffer(1, cb, 4) == Result::OK);
    Resource* ib = make_ib(d, list, false);
    REQUIRE(c.set_index_buffer(ib, IndexFormat::R32_UINT) == Result::OK);
    REQUIRE(c.draw_indexed_instanced(static_cast<uint32_t>(list.size()), 2, 0, 0, 1) == Result::OK);  // instances 1, 2
    ib->release();
    cb->release();
  });
  for (size_t i = 0; i < ref.size(); ++i) CHECK(inst[i] == (ref[i] == 0xFF000000u ? 0xFFFF0000u : ref[i]));
}
