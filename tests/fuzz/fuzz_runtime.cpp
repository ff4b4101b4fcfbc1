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
// The pixel-stage API too (issues 15, 16): sampled textures of every format (and unknown ones),
// sizes, mip counts, initial data with odd row pitches, mip generation; views with odd level
// ranges, samplers with unknown filters, modes and LOD ranges; bindings into slots 0..2; both
// combiner stages with unknown ops; alpha test; update_subresource with odd levels and boxes;
// blend and depth-stencil states with unknown enums; depth-stencil views; resolves; input
// layouts with texture coordinates; render targets of every format, 1x and 4x.
// The seed corpus/runtime/textured_draw reaches TEX: byte 0 = 0 (synchronous), then the calls
// (op, a, arguments) 1: 32x32 render target in res[0]; 5: bind it; 19: viewport 64x64, no culling;
// 0 with a = 3: 1 KiB buffer of floats in [-1, 1] in res[3]; 18 with a = 0x0B: position F32x2,
// colour, uv0 F32x2 at 8, res[3] with stride 16; 24: 16x16 RGBA8 texture, full chain, initial
// data, in res[5]; 25: a view of it; 26: a trilinear WRAP sampler; 27: both in slot 0;
// 28: stage 0 MODULATE; 21: draw 12 vertices; 10: wait_idle.
// Not included (the application's undefined behaviour, as in D3D11): a resource, view or sampler
// released more often than referenced, or handed to the other setters after its release.
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
                              BIND_VERTEX_BUFFER | BIND_RENDER_TARGET, 0, BIND_DEPTH_STENCIL, BIND_RENDER_TARGET | BIND_DEPTH_STENCIL};

// An enum value: mostly a valid one of [lo, hi], sometimes anything.
template <typename E>
E any_enum(Input& in, uint32_t lo, uint32_t hi) {
  const uint8_t k = in.u8();
  return static_cast<E>(k < 224 ? lo + k % (hi - lo + 1) : in.u8());
}

// Texel data for initial contents and updates: larger than any level the fuzzer makes at any
// row pitch it passes (at most 72 rows of at most 299 bytes).
const std::vector<uint8_t>& texel_data() {
  static const std::vector<uint8_t> d = [] {
    std::vector<uint8_t> v(80 * 300);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint8_t>(i * 37 + (i >> 8));
    return v;
  }();
  return d;
}

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
  std::array<ShaderResourceView*, 3> views{};
  std::array<SamplerState*, 2> samplers{};
  DepthStencilView dsv;
  bool have_dsv = false;
  std::array<CommandList*, 4> lists{};
  std::vector<CommandList*> dead_lists;
  std::array<bool, 8> mapped_imm{};
  Context* cur = &ctx;
  int steps = 0;
  while (in.more() && steps++ < 64) {
    const uint8_t op = in.u8();
    const uint8_t a = in.u8();
    Resource*& r = res[a % res.size()];
    switch (op % 32) {
      case 0: {  // create a buffer
        if (r) break;
        const uint32_t sz = (in.u8() + 1u) * 16u;
        std::vector<uint8_t> init(sz, a);
        if (a & 2) {  // vertices that draw something: floats in [-1, 1] (positions, uvs; colours)
          for (uint32_t i = 0; i + 4 <= sz; i += 4) {
            const float f = static_cast<float>(static_cast<int>((i * 2654435761u ^ a * 40503u) % 2001u) - 1000) / 1000.0f;
            std::memcpy(&init[i], &f, 4);
          }
        }
        const uint32_t bind = BINDS[in.u8() % 8];
        check(dev.create_buffer({sz, bind}, (a & 1) ? init.data() : nullptr, &r));
        break;
      }
      case 1: {  // create a texture
        if (r) break;
        TextureDesc t;
        t.width = in.u8() % 40 + (a & 0x80 ? 0 : 1);
        t.height = in.u8() % 40 + 1;
        t.samples = (a & 2) ? 4 : 1;
        t.bind = BINDS[in.u8() % 8];
        if (a & 0x20) t.format = any_enum<Format>(in, 0, 4);
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
        if (a & 2) els.push_back({Semantic::TEXCOORD0, static_cast<VertexFormat>(in.u8() % 6), 0, in.u8() % 8u * 4u});
        if (a & 4) els.push_back({Semantic::TEXCOORD1, static_cast<VertexFormat>(in.u8() % 6), in.u8() % 2u, 0});
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
      case 24: {  // a sampled texture: any format, size, chain length and initial data
        if (r) break;
        Texture2DDesc t;
        t.width = in.u8() % 70 + (a & 0x80 ? 0 : 1);
        t.height = in.u8() % 70 + 1;
        t.mip_levels = in.u8() % 9;
        t.format = any_enum<TexFormat>(in, 0, 5);
        t.bind = (a & 0x40) ? BINDS[in.u8() % 8] : BIND_SHADER_RESOURCE;
        t.misc = in.u8() % 4;
        std::array<SubresourceData, 16> init{};
        const uint32_t pitch = t.width * 4 + in.u8() % 20 - 4;  // sometimes too short
        for (auto& d : init) d = {texel_data().data(), pitch};
        check(dev.create_texture2d(t, (a & 1) ? init.data() : nullptr, &r));
        break;
      }
      case 25: {  // a view of a resource (any kind, even none), or the release of one
        ShaderResourceView*& v = views[a % views.size()];
        if (v && (a & 0x80)) {
          v->release();
          v = nullptr;
        } else if (!v) {
          ShaderResourceViewDesc d;
          d.most_detailed_mip = in.u8() % 10;
          d.mip_levels = (a & 8) ? UINT32_MAX : in.u8() % 10;
          check(dev.create_shader_resource_view(r, (a & 16) ? &d : nullptr, &v));
        }
        break;
      }
      case 26: {  // a sampler state: unknown filters and modes, odd LODs, or the release of one
        SamplerState*& smp = samplers[a % samplers.size()];
        if (smp && (a & 0x80)) {
          smp->release();
          smp = nullptr;
        } else if (!smp) {
          static const uint32_t filters[] = {0x00, 0x01, 0x04, 0x05, 0x10, 0x11, 0x14, 0x15, 0x55, 0x80, 0x95, 0xD5, 0x02, 0xFF};
          SamplerDesc d;
          d.filter = static_cast<Filter>(filters[in.u8() % 14]);
          d.address_u = any_enum<TextureAddressMode>(in, 1, 5);
          d.address_v = any_enum<TextureAddressMode>(in, 1, 5);
          d.address_w = any_enum<TextureAddressMode>(in, 1, 5);
          d.mip_lod_bias = in.f();
          d.max_anisotropy = in.u8() % 18;
          d.comparison_func = any_enum<ComparisonFunc>(in, 1, 8);
          for (float& c : d.border_color) c = in.f();
          d.min_lod = in.f();
          d.max_lod = in.f();
          check(dev.create_sampler_state(d, &smp));
        }
        break;
      }
      case 27: {  // bind views and samplers (slot 2 does not exist)
        const uint32_t vslot = in.u8() % 3;
        ShaderResourceView* v = views[in.u8() % views.size()];
        check(cur->set_shader_resource(vslot, (a & 1) ? nullptr : v));
        const uint32_t sslot = in.u8() % 3;
        SamplerState* smp = samplers[in.u8() % samplers.size()];
        check(cur->set_sampler(sslot, (a & 2) ? nullptr : smp));
        break;
      }
      case 28: {  // combiner stages, alpha test, shading
        const uint32_t stage = in.u8() % 3;
        check(cur->set_texture_combine(stage, any_enum<TextureCombine>(in, 0, 4)));
        const ComparisonFunc func = any_enum<ComparisonFunc>(in, 1, 8);
        check(cur->set_alpha_test(a & 1, func, in.u16() % 300));
        cur->set_gouraud(a & 2);
        break;
      }
      case 29: {  // update a level of a sampled texture (or of anything else), whole or a box
        Box b;
        b.left = in.u8() % 72u;
        b.top = in.u8() % 72u;
        b.right = in.u8() % 72u;
        b.bottom = in.u8() % 72u;
        const uint32_t level = in.u8() % 10;
        check(cur->update_subresource(r, level, (a & 1) ? &b : nullptr, texel_data().data(), in.u8() % 300u));
        break;
      }
      case 30: {  // blend and depth-stencil states with any enum, depth-stencil views
        if (a & 1) {
          BlendDesc d;
          d.alpha_to_coverage_enable = a & 2;
          RenderTargetBlendDesc& t = d.render_target;
          t.blend_enable = a & 4;
          t.src_blend = any_enum<Blend>(in, 1, 19);
          t.dest_blend = any_enum<Blend>(in, 1, 19);
          t.blend_op = any_enum<BlendOp>(in, 1, 5);
          t.src_blend_alpha = any_enum<Blend>(in, 1, 19);
          t.dest_blend_alpha = any_enum<Blend>(in, 1, 19);
          t.blend_op_alpha = any_enum<BlendOp>(in, 1, 5);
          t.render_target_write_mask = in.u8();
          t.logic_op_enable = a & 8;
          t.logic_op = any_enum<LogicOp>(in, 0, 15);
          BlendState st;
          const Result x = dev.create_blend_state(d, &st);
          check(x);
          float factor[4];
          for (float& f : factor) f = in.f();
          if (x == Result::OK) check(cur->set_blend_state(&st, (a & 16) ? factor : nullptr, (a & 32) ? in.u32() : 0xFFFFFFFFu));
          else check(cur->set_blend_state(nullptr));
        } else if (a & 2) {
          DepthStencilDesc d;
          d.depth_enable = a & 4;
          d.depth_write = a & 8;
          d.depth_func = any_enum<ComparisonFunc>(in, 1, 8);
          d.stencil_enable = a & 16;
          d.stencil_read_mask = in.u8();
          d.stencil_write_mask = in.u8();
          for (DepthStencilOpDesc* o : {&d.front, &d.back}) {
            o->fail = any_enum<StencilOp>(in, 1, 8);
            o->depth_fail = any_enum<StencilOp>(in, 1, 8);
            o->pass = any_enum<StencilOp>(in, 1, 8);
            o->func = any_enum<ComparisonFunc>(in, 1, 8);
          }
          d.late_z = a & 32;
          d.hiz = a & 64;
          DepthStencilState st;
          const Result x = dev.create_depth_stencil_state(d, &st);
          check(x);
          const uint32_t ref = in.u8();
          check(cur->set_depth_stencil_state(x == Result::OK ? &st : nullptr, ref));
        } else {
          DepthStencilView v;
          const Result x = dev.create_depth_stencil_view(r, &v);
          check(x);
          if (x == Result::OK) {
            dsv = v;
            have_dsv = true;
          }
          Resource* t = res[in.u8() % res.size()];
          check(cur->set_render_targets(t, have_dsv && (a & 4) ? &dsv : nullptr));
        }
        break;
      }
      case 31: {  // a resolve between any two resources, any format
        Resource* s = res[in.u8() % res.size()];
        const uint32_t dsub = in.u8() % 2, ssub = in.u8() % 2;
        check(cur->resolve_subresource(r, dsub, s, ssub, any_enum<Format>(in, 0, 4)));
        break;
      }
    }
  }
  // Tear down: unbind, release what is held; the Device destructor waits (or is lost).
  ctx.clear_state();
  dc->clear_state();
  for (CommandList* l : lists) if (l) l->release();
  for (ShaderResourceView* v : views) if (v) v->release();
  for (SamplerState* smp : samplers) if (smp) smp->release();
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
