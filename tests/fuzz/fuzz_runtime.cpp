// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: sequences of runtime API calls (issue 12) on the golden backend.
//
// Each input byte pair is one call (opcode byte, argument byte; some calls take more bytes) on
// a small set of handles: resources, fences, command lists, one deferred context. Asserted: no
// crash or sanitizer report, every Result is one of the defined values, a mapped pointer is
// writable over the size Map reported, and the Device is destroyed cleanly at the end.
// Deliberate misuse included: released resources and lists passed back to map, unmap,
// execute_command_list and release (lists); wrong bind flags; out-of-range offsets and counts;
// maps of mapped resources; waits on fences nobody signals (DeviceDesc::timeout is short).
// Not included (the application's undefined behaviour, as in D3D11): a resource released more
// often than referenced, or a released resource handed to the other setters.
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "backend.h"
#include "runtime.h"

using namespace pineda;
using namespace pineda::rt;

namespace {

struct Input {
  const uint8_t* d;
  size_t n, i = 0;
  bool more() const { return i < n; }
  uint8_t u8() { return i < n ? d[i++] : 0; }
  uint32_t u16() { return u8() | (uint32_t{u8()} << 8); }
  uint32_t u32() { return u16() | (u16() << 16); }
  float f() {
    static const float vals[] = {0.0f, 1.0f, -1.0f, 0.5f, 2.0f, -3.0f, 1e30f, -1e30f, 3e38f, 1e-30f, 0.25f, 64.0f};
    return vals[u8() % (sizeof(vals) / sizeof(vals[0]))];
  }
};

void check(Result r) {
  const int v = static_cast<int>(r);
  if (v < 0 || v > static_cast<int>(Result::NOT_SUPPORTED)) {
    std::fprintf(stderr, "fuzz_runtime: undefined Result %d\n", v);
    std::abort();
  }
}

constexpr uint32_t BINDS[] = {BIND_VERTEX_BUFFER, BIND_INDEX_BUFFER, BIND_RENDER_TARGET, BIND_SHADER_RESOURCE,
                              BIND_VERTEX_BUFFER | BIND_RENDER_TARGET, 0};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in{data, size};
  GoldenBackend be;
  DeviceDesc dd;
  dd.timeout = std::chrono::milliseconds(20);
  dd.ring_size = 4096;
  dd.max_command_buffer = 2048;
  const uint8_t cfg = in.u8();
  dd.async = cfg & 1u;
  dd.use_call = cfg & 2u;
  Device dev(be, dd);
  ImmediateContext& ctx = dev.immediate();
  std::unique_ptr<DeferredContext> dc;
  check(dev.create_deferred_context({}, &dc));
  std::array<Resource*, 8> res{};
  std::vector<Resource*> dead;  // released: still passed to calls that check liveness
  std::array<Fence*, 2> fences{};
  std::array<CommandList*, 4> lists{};
  std::vector<CommandList*> dead_lists;
  std::array<bool, 8> mapped_imm{};
  Context* cur = &ctx;
  int steps = 0;
  while (in.more() && steps++ < 64) {
    const uint8_t op = in.u8();
    const uint8_t a = in.u8();
    Resource*& r = res[a % res.size()];
    switch (op % 24) {
      case 0: {  // create a buffer
        if (r) break;
        const uint32_t sz = (in.u8() + 1u) * 16u;
        std::vector<uint8_t> init(sz, a);
        check(dev.create_buffer({sz, BINDS[in.u8() % 6]}, (a & 1) ? init.data() : nullptr, &r));
        break;
      }
      case 1: {  // create a texture
        if (r) break;
        TextureDesc t;
        t.width = in.u8() % 40 + (a & 0x80 ? 0 : 1);
        t.height = in.u8() % 40 + 1;
        t.samples = (a & 2) ? 4 : 1;
        t.bind = BINDS[in.u8() % 6];
        check(dev.create_texture2d(t, nullptr, &r));
        break;
      }
      case 2:  // release
        if (r) {
          dead.push_back(r);
          r->release();
          r = nullptr;
        }
        break;
      case 3: {  // map on the immediate context (or a dead resource)
        Resource* t = (a & 0x40) && !dead.empty() ? dead[a % dead.size()] : r;
        Mapped m;
        const Result x = ctx.map(t, static_cast<MapType>(in.u8() % 5), in.u8() & 1, &m);
        check(x);
        if (x == Result::OK) {
          if (!m.data || m.size == 0) std::abort();
          std::memset(m.data, a, m.size);  // the whole mapping must be writable
          if (t == r) mapped_imm[a % 8] = true;
        }
        break;
      }
      case 4: {  // unmap
        Resource* t = (a & 0x40) && !dead.empty() ? dead[a % dead.size()] : r;
        check(ctx.unmap(t));
        break;
      }
      case 5: check(cur->set_render_target(r)); break;
      case 6: check(cur->set_pretransformed_vertex_buffer(r, in.u8() * 4u)); break;
      case 7:
        cur->set_color(in.u32());
        check(cur->draw_pretransformed(in.u8(), in.u8()));
        break;
      case 8: check(cur->set_scissor(in.u8(), in.u8(), in.u8(), in.u8())); break;
      case 9: check(ctx.flush()); break;
      case 10: check(ctx.wait_idle()); break;
      case 11: {  // fences
        Fence*& f = fences[a % 2];
        if (!f) {
          check(dev.create_fence({in.u8(), (a & 4) != 0}, &f));
        } else if (a & 8) {
          check(cur->signal(f, in.u8()));
        } else if (a & 16) {
          check(cur->wait(f, in.u8()));
        } else if (a & 32) {
          check(f->signal(in.u8()));
        } else {
          f->release();
          f = nullptr;
        }
        break;
      }
      case 12: cur = (a & 1) ? static_cast<Context*>(dc.get()) : &ctx; break;
      case 13: {  // finish a command list
        CommandList*& l = lists[a % 4];
        if (l) break;
        check(dc->finish_command_list(a & 8, &l));
        break;
      }
      case 14: {  // execute a list (live, dead or null) on either context
        CommandList* l = (a & 0x40) && !dead_lists.empty() ? dead_lists[a % dead_lists.size()] : lists[a % 4];
        if (a & 0x80) check(dc->execute_command_list(l, a & 1));
        else check(ctx.execute_command_list(l, a & 1));
        break;
      }
      case 15: {  // release a list (a dead one again: must be ignored)
        if ((a & 0x40) && !dead_lists.empty()) {
          dead_lists[a % dead_lists.size()]->release();
        } else if (CommandList*& l = lists[a % 4]) {
          dead_lists.push_back(l);
          l->release();
          l = nullptr;
        }
        break;
      }
      case 16: check(cur->set_marker(std::string(in.u16() % 6000, 'x'))); break;
      case 17: {
        Resource* s = res[in.u8() % res.size()];
        check(cur->copy_region(r, in.u16(), s, in.u16(), in.u16()));
        break;
      }
      case 18: {  // front-end setup
        InputLayout l;
        std::vector<InputElement> els = {{Semantic::POSITION, static_cast<VertexFormat>(in.u8() % 5), 0, in.u8() % 8u * 4u}};
        if (a & 1) els.push_back({Semantic::COLOR, VertexFormat::UNORM8X4, in.u8() % 2u, 0});
        const Result x = dev.create_input_layout(els, &l);
        check(x);
        if (x == Result::OK) cur->set_input_layout(l);
        check(cur->set_vertex_buffer(in.u8() % 3, r, in.u8() * 4u, in.u8() * 4u));
        break;
      }
      case 19:
        check(cur->set_viewport({in.f(), in.f(), in.f(), in.f(), in.f(), in.f()}));
        check(cur->set_rasterizer_state({static_cast<CullMode>(in.u8() % 4), (a & 1) != 0, (a & 2) != 0}));
        break;
      case 20: check(cur->set_primitive_topology(static_cast<PrimitiveTopology>(in.u8() % 3), a & 1)); break;
      case 21:
        if (a & 1) check(cur->draw_instanced(in.u8(), in.u8() % 4, in.u8(), in.u8()));
        else check(cur->draw(in.u8(), in.u8()));
        break;
      case 22:
        check(cur->set_index_buffer(r, (a & 1) ? IndexFormat::R32_UINT : IndexFormat::R16_UINT, in.u8() * 2u));
        check(cur->draw_indexed(in.u8(), in.u8(), static_cast<int8_t>(in.u8())));
        break;
      case 23: cur->clear_state(); break;
    }
  }
  // Tear down: unbind, release what is held; the Device destructor waits (or is lost).
  ctx.clear_state();
  dc->clear_state();
  for (CommandList* l : lists) if (l) l->release();
  for (Resource* r : res) {
    if (!r) continue;
    check(ctx.unmap(r));  // INVALID_CALL when not mapped: fine
    r->release();
  }
  for (Fence* f : fences) if (f) f->release();
  dc.reset();
  (void)mapped_imm;
  return 0;
}
