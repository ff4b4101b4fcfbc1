// SPDX-License-Identifier: Apache-2.0
// Context: state setters, draws, copies and fences shared by the immediate and deferred contexts;
// encodes commands and emits only the state a draw needs that the hardware does not already hold.

#include <algorithm>
#include <cmath>

#include "fence.h"
#include "fp32.h"
#include "runtime.h"

namespace pineda::rt {

namespace {
constexpr uint32_t kStateUsed = 7;  // SET_STATE indices the pre-transformed draw uses: VB_BASE .. SCISSOR_Y
StateMask bits(uint32_t first, uint32_t n) {
  StateMask m;
  for (uint32_t i = first; i < first + n && i < FE_STATE_END; ++i) m.set(i);
  return m;
}
StateMask bit(uint32_t i) { return bits(i, 1); }
const StateMask kPretransformedMask = bits(0, kStateUsed);
const StateMask kFeMask = bits(NUM_STATE, FE_STATE_END - NUM_STATE);  // [NUM_STATE, FE_STATE_END)

}  // namespace

// ---- Context -----------------------------------------------------------------------------------

Context::Context(Device& dev) : dev_(dev), hw_(default_hw_state()) {}

Context::~Context() = default;

HwState Context::default_hw_state() {
  return STATE_RESET;  // the hardware's reset values of every SET_STATE index (generated)
}

Result Context::fail(Result r, std::string msg) {
  err_ = std::move(msg);
  return r;
}

void Context::bind(Resource*& slot, Resource* r) {
  if (r == slot) return;
  if (r) r->add_ref();
  Resource* old = slot;
  slot = r;
  if (old) old->release();
}

Result Context::set_pretransformed_vertex_buffer(Resource* vb, uint32_t offset) {
  if (vb) {
    if (!dev_.alive(vb)) return fail(Result::INVALID_ARG, "set_pretransformed_vertex_buffer: not a live resource of this device");
    if (vb->kind() != ResourceKind::BUFFER || !(vb->bind_flags() & BIND_VERTEX_BUFFER))
      return fail(Result::INVALID_ARG, "set_pretransformed_vertex_buffer: the resource was not created with BIND_VERTEX_BUFFER");
    if ((offset & 3u) || offset >= vb->size())
      return fail(Result::INVALID_ARG, "set_pretransformed_vertex_buffer: offset must be dword aligned and inside the buffer");
  }
  bind(api_.pt_vb, vb);
  api_.pt_vb_offset = vb ? offset : 0;
  return Result::OK;
}

Result Context::set_render_target(Resource* rt) { return set_render_targets(rt, nullptr); }

Result Context::set_render_targets(Resource* rt, const DepthStencilView* dsv) {
  Resource* ds = dsv ? dsv->resource() : nullptr;
  if (dsv) {
    if (!ds || !dev_.alive(ds)) return fail(Result::INVALID_ARG, "set_render_targets: the depth-stencil view's texture is not live");
    if (ds->format() != Format::D24_UNORM_S8_UINT || !(ds->bind_flags() & BIND_DEPTH_STENCIL))
      return fail(Result::INVALID_ARG, "set_render_targets: the depth-stencil view is not of a D24_UNORM_S8_UINT depth-stencil texture");
  }
  if (rt && ds && dev_.alive(rt)) {
    if (rt->samples() != ds->samples())
      return fail(Result::INVALID_ARG, "set_render_targets: the render target has " + std::to_string(rt->samples()) +
                                           " samples, the depth-stencil view " + std::to_string(ds->samples()));
    if (rt->width() != ds->width() || rt->height() != ds->height())
      return fail(Result::INVALID_ARG, "set_render_targets: the render target is " + std::to_string(rt->width()) + "x" +
                                           std::to_string(rt->height()) + ", the depth-stencil view " +
                                           std::to_string(ds->width()) + "x" + std::to_string(ds->height()));
  }
  if (rt) {
    if (!dev_.alive(rt)) return fail(Result::INVALID_ARG, "set_render_target: not a live resource of this device");
    if (rt->kind() != ResourceKind::TEXTURE2D || !(rt->bind_flags() & BIND_RENDER_TARGET))
      return fail(Result::INVALID_ARG, "set_render_target: the resource is not a texture created with BIND_RENDER_TARGET");
  }
  bind(api_.rt, rt);
  bind(api_.ds, ds);
  return Result::OK;
}

Result Context::set_depth_stencil_state(const DepthStencilState* state, uint32_t stencil_ref) {
  if (stencil_ref > 0xFFu) return fail(Result::INVALID_ARG, "set_depth_stencil_state: the stencil reference is 8 bits");
  api_.ds_state = state ? *state : encode_depth_stencil_state(DepthStencilDesc{});
  api_.stencil_ref = stencil_ref;
  return Result::OK;
}

Result Context::set_blend_state(const BlendState* state, const float* blend_factor, uint32_t sample_mask) {
  if (sample_mask != 0xFFFFFFFFu) return fail(Result::INVALID_ARG, "set_blend_state: sample masks are not supported");
  api_.blend = state ? *state : BlendState{};
  api_.blend_factor = 0xFFFFFFFFu;
  if (blend_factor) {
    api_.blend_factor = 0;
    for (uint32_t c = 0; c < 4; ++c) api_.blend_factor |= float_to_unorm8(blend_factor[c]) << (8 * c);
  }
  return Result::OK;
}

Result Context::encode_clear(const char* what, Resource* r, uint32_t flags, uint32_t value, const ClearUnits& u) {
  // u is already clipped to the target and in the CLEAR's units (4-byte "pixels", 16-byte ones
  // with u.msaa): the CLEAR writes exactly those bytes of each row.
  const std::string w(what);
  {
    Device::Lock lk(dev_.mu_);
    if (r->mapped_) return fail(Result::INVALID_CALL, w + ": the resource is mapped");
  }
  if (u.x0 >= u.x1 || u.y0 >= u.y1) return Result::OK;  // nothing to clear
  Result res;
  if (!reserve(1 + OP_CLEAR_LEN, &res)) return res;
  const size_t pos = cw_.dwords().size();
  cw_.clear(flags, address_of(r), r->pitch(), u.msaa, u.x0, u.y0, u.x1, u.y1, value);
  on_address(pos + 1, r, 0);
  on_use(r, true);
  return Result::OK;
}

Context::ClearUnits Context::clear_units(const Resource* r, const ClearRect& rect) {
  ClearUnits u;
  u.x0 = std::min(rect.x0, r->width());
  u.x1 = std::min(rect.x1, r->width());
  u.y0 = std::min(rect.y0, r->height());
  u.y1 = std::min(rect.y1, r->height());
  u.msaa = r->samples() == 4;
  return u;
}

Result Context::clear_render_target_view(Resource* rt, uint32_t rgba8) {
  return clear_view(rt, rgba8, ClearRect{0, 0, MAX_RT_DIM, MAX_RT_DIM});
}

Result Context::clear_view(Resource* rt, uint32_t rgba8, const ClearRect& rect) {
  if (dev_.lost()) return fail(Result::DEVICE_LOST, "device lost");
  if (recording_dropped()) return Result::OK;
  if (!rt || !dev_.alive(rt)) return fail(Result::INVALID_ARG, "clear_render_target_view: not a live resource of this device");
  if (rt->kind() != ResourceKind::TEXTURE2D || !(rt->bind_flags() & BIND_RENDER_TARGET))
    return fail(Result::INVALID_ARG, "clear_render_target_view: the resource is not a texture created with BIND_RENDER_TARGET");
  // The CLEAR fills 4-byte pixels, 16-byte ones with its 4x flag (docs/om.md section 6): the
  // colour as the target stores it. A B5G6R5 pixel is 2 bytes, 8 at 4x:
  // - 4x: every sample holds the same 16-bit value, so a pixel is exactly two 4-byte CLEAR
  //   pixels and the rectangle is cleared as a 1x CLEAR of x in [2*x0, 2*x1): exactly the
  //   target's bytes, any x (2*x1 <= 16382: the widest 4x B5G6R5 target is 8191, the pitch is
  //   16-bit; below MAX_RT_DIM).
  // - 1x: in pixel pairs, so a rectangle must start and end on a pair (an odd right edge only at
  //   the target's width: the pair's other half is row padding, which every such row has).
  const uint32_t value = clear_value(rt->format(), rgba8);
  ClearUnits u = clear_units(rt, rect);
  if (rt->format() == Format::B5G6R5_UNORM && u.x0 < u.x1 && u.y0 < u.y1) {
    if (u.msaa) {
      u.x0 *= 2;
      u.x1 *= 2;
      u.msaa = false;
    } else {
      if ((u.x0 & 1u) || ((u.x1 & 1u) && u.x1 != rt->width()))
        return fail(Result::INVALID_ARG, "clear_render_target_view: a 1x B5G6R5 rectangle must start and end on an even x "
                                         "(the CLEAR writes pixel pairs), or end at the target's width");
      u.x0 /= 2;
      u.x1 = (u.x1 + 1) / 2;
    }
  }
  return encode_clear("clear_render_target_view", rt, 1u << CLEAR_COLOR_BIT, value, u);
}

Result Context::clear_depth_stencil_view(const DepthStencilView& dsv, uint32_t flags, float depth, uint8_t stencil) {
  return clear_depth_stencil_rect(dsv, flags, depth, stencil, ClearRect{0, 0, MAX_RT_DIM, MAX_RT_DIM});
}

Result Context::clear_depth_stencil_rect(const DepthStencilView& dsv, uint32_t flags, float depth, uint8_t stencil,
                                         const ClearRect& rect) {
  if (dev_.lost()) return fail(Result::DEVICE_LOST, "device lost");
  if (recording_dropped()) return Result::OK;
  Resource* ds = dsv.resource();
  if (!ds || !dev_.alive(ds)) return fail(Result::INVALID_ARG, "clear_depth_stencil_view: the view's texture is not live");
  if (flags == 0 || (flags & ~uint32_t{CLEAR_FLAG_DEPTH | CLEAR_FLAG_STENCIL}))
    return fail(Result::INVALID_ARG, "clear_depth_stencil_view: flags must be CLEAR_FLAG_DEPTH and/or CLEAR_FLAG_STENCIL");
  if (std::isnan(depth) || depth < 0.0f || depth > 1.0f)
    return fail(Result::INVALID_ARG, "clear_depth_stencil_view: the depth must be in [0, 1]");
  const uint32_t hw = ((flags & CLEAR_FLAG_DEPTH) ? 1u << CLEAR_DEPTH_BIT : 0u) |
                      ((flags & CLEAR_FLAG_STENCIL) ? 1u << CLEAR_STENCIL_BIT : 0u);
  return encode_clear("clear_depth_stencil_view", ds, hw, depth_to_d24(depth) | (uint32_t{stencil} << 24),
                      clear_units(ds, rect));
}

Result Context::set_scissor(uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1) {
  if (x0 > 0xFFFFu || x1 > 0xFFFFu || y0 > 0xFFFFu || y1 > 0xFFFFu)
    return fail(Result::INVALID_ARG, "set_scissor: coordinates are 16 bits");
  ScissorReg sx, sy;
  sx.lo = x0;
  sx.hi = x1;
  sy.lo = y0;
  sy.hi = y1;
  api_.scissor_x = sx.word();
  api_.scissor_y = sy.word();
  return Result::OK;
}

void Context::set_input_layout(const InputLayout& layout) {
  api_.layout = layout;
  api_.layout_set = true;
}

Result Context::set_vertex_buffers(uint32_t start_slot, uint32_t count, Resource* const* buffers,
                                   const uint32_t* strides, const uint32_t* offsets) {
  if (start_slot >= NUM_VERTEX_SLOTS || count > NUM_VERTEX_SLOTS - start_slot)
    return fail(Result::INVALID_ARG, "set_vertex_buffers: slots " + std::to_string(start_slot) + ".." +
                                         std::to_string(uint64_t{start_slot} + count) + " are not all in 0..1");
  if (count && (!buffers || !strides || !offsets)) return fail(Result::INVALID_ARG, "set_vertex_buffers: null array");
  for (uint32_t i = 0; i < count; ++i) {  // all checked before anything changes
    Resource* vb = buffers[i];
    if (!vb) continue;
    const std::string at = "set_vertex_buffers: slot " + std::to_string(start_slot + i) + ": ";
    if (!dev_.alive(vb)) return fail(Result::INVALID_ARG, at + "not a live resource of this device");
    if (vb->kind() != ResourceKind::BUFFER || !(vb->bind_flags() & BIND_VERTEX_BUFFER))
      return fail(Result::INVALID_ARG, at + "the resource was not created with BIND_VERTEX_BUFFER");
    if ((strides[i] & 3u) || strides[i] > 0xFFFFu)
      return fail(Result::INVALID_ARG, at + "stride " + std::to_string(strides[i]) + " must be a multiple of 4 and at most 0xFFFF");
    if ((offsets[i] & 3u) || offsets[i] >= vb->size())
      return fail(Result::INVALID_ARG, at + "offset must be dword aligned and inside the buffer");
  }
  for (uint32_t i = 0; i < count; ++i) {
    VertexBufferBinding& b = api_.vbs[start_slot + i];
    bind(b.buffer, buffers[i]);
    b.stride = buffers[i] ? strides[i] : 0;
    b.offset = buffers[i] ? offsets[i] : 0;
  }
  return Result::OK;
}

Result Context::set_vertex_buffer(uint32_t slot, Resource* vb, uint32_t stride, uint32_t offset) {
  return set_vertex_buffers(slot, 1, &vb, &stride, &offset);
}

Result Context::set_index_buffer(Resource* ib, IndexFormat format, uint32_t offset) {
  if (format != IndexFormat::R16_UINT && format != IndexFormat::R32_UINT)
    return fail(Result::INVALID_ARG, "set_index_buffer: the format must be R16_UINT or R32_UINT");
  if (ib) {
    const uint32_t size = format == IndexFormat::R32_UINT ? 4 : 2;
    if (!dev_.alive(ib)) return fail(Result::INVALID_ARG, "set_index_buffer: not a live resource of this device");
    if (ib->kind() != ResourceKind::BUFFER || !(ib->bind_flags() & BIND_INDEX_BUFFER))
      return fail(Result::INVALID_ARG, "set_index_buffer: the resource was not created with BIND_INDEX_BUFFER");
    if (offset % size || offset >= ib->size())
      return fail(Result::INVALID_ARG, "set_index_buffer: offset must be a multiple of the index size and inside the buffer");
  }
  bind(api_.ib, ib);
  api_.ib_format = format;
  api_.ib_offset = ib ? offset : 0;
  return Result::OK;
}

Result Context::set_primitive_topology(PrimitiveTopology topology, bool strip_restart) {
  if (topology != PrimitiveTopology::TRIANGLE_LIST && topology != PrimitiveTopology::TRIANGLE_STRIP)
    return fail(Result::INVALID_ARG, "set_primitive_topology: TRIANGLE_LIST or TRIANGLE_STRIP");
  api_.topology = topology;
  api_.strip_restart = strip_restart;
  return Result::OK;
}

Result Context::set_viewport(const Viewport& vp) {
  for (float v : {vp.x, vp.y, vp.width, vp.height, vp.min_depth, vp.max_depth}) {
    if (!std::isfinite(v)) return fail(Result::INVALID_ARG, "set_viewport: a value is not finite");
  }
  if (vp.width < 0 || vp.height < 0) return fail(Result::INVALID_ARG, "set_viewport: negative width or height");
  if (vp.x < -32768.0f || vp.y < -32768.0f || double{vp.x} + vp.width > 32767.0 || double{vp.y} + vp.height > 32767.0)
    return fail(Result::INVALID_ARG, "set_viewport: the viewport leaves the bounds [-32768, 32767]");
  if (vp.min_depth < 0 || vp.min_depth > 1 || vp.max_depth < 0 || vp.max_depth > 1)
    return fail(Result::INVALID_ARG, "set_viewport: depths must lie in [0, 1]");
  api_.viewport = vp;
  return Result::OK;
}

Result Context::set_rasterizer_state(const RasterizerDesc& d) {
  if (d.cull != CullMode::NONE && d.cull != CullMode::FRONT && d.cull != CullMode::BACK)
    return fail(Result::INVALID_ARG, "set_rasterizer_state: cull must be NONE, FRONT or BACK");
  api_.raster = d;
  return Result::OK;
}

void Context::clear_state() {
  bind(api_.pt_vb, nullptr);
  bind(api_.rt, nullptr);
  bind(api_.ds, nullptr);
  for (auto& b : api_.vbs) bind(b.buffer, nullptr);
  bind(api_.ib, nullptr);
  for (uint32_t slot = 0; slot < NUM_TEXTURE_SLOTS; ++slot) {
    bind(api_.srv_tex[slot], nullptr);
    bind(api_.srv_desc[slot], nullptr);
    bind(api_.samp_desc[slot], nullptr);
  }
  api_ = ApiState{};
}

Result Context::draw_pretransformed(uint32_t vertex_count, uint32_t first_vertex) {
  if (dev_.lost()) return fail(Result::DEVICE_LOST, "device lost");
  if (recording_dropped()) return Result::OK;  // deferred context out of memory: keeps "recording"
  if (!api_.rt) return fail(Result::INVALID_CALL, "draw_pretransformed: no render target bound");
  if (!api_.pt_vb) return fail(Result::INVALID_CALL, "draw_pretransformed: no pre-transformed vertex buffer bound");
  if (!api_.blend.is_default())
    return fail(Result::INVALID_CALL, "draw_pretransformed: blending, logic ops, write masks and alpha to coverage need a front-end draw (draw*)");
  if (api_.combine.word() != 0)
    return fail(Result::INVALID_CALL, "draw_pretransformed: texture combining and the alpha test need a front-end draw (draw*)");
  if (api_.rt->format() != Format::R8G8B8A8_UNORM)
    return fail(Result::INVALID_CALL, "draw_pretransformed: it writes R8G8B8A8_UNORM targets only; other formats need a front-end draw (draw*)");
  Result mr = check_draw_unmapped("draw_pretransformed", false, false);
  if (mr != Result::OK) return mr;
  const uint64_t end = (uint64_t{first_vertex} + vertex_count) * VERTEX_BYTES + api_.pt_vb_offset;
  if (end > api_.pt_vb->size())
    return fail(Result::INVALID_ARG, "draw_pretransformed: vertices " + std::to_string(first_vertex) + ".." +
                                         std::to_string(uint64_t{first_vertex} + vertex_count) +
                                         " lie outside the vertex buffer");
  Result r;
  if (!reserve(1 + kStateUsed + 3, &r)) return r;
  emit_pretransformed_state();
  cw_.draw(first_vertex, vertex_count);
  on_use(api_.pt_vb, false);
  on_use(api_.rt, true);
  return Result::OK;
}

Result Context::check_draw_unmapped(const std::string& what, bool front_end, bool indexed) {
  // D3D11: a resource may not be used by the GPU while it is mapped (the draw would overwrite,
  // or read, what the application is writing before Unmap). Every resource the draw reads or
  // writes, as the draw's on_use calls name them.
  auto refuse = [&](const std::string& which) {
    return fail(Result::INVALID_CALL, what + ": " + which + " is mapped (unmap it before drawing)");
  };
  if (mapped_at_record(api_.rt)) return refuse("the render target");
  if (!front_end) return mapped_at_record(api_.pt_vb) ? refuse("the pre-transformed vertex buffer") : Result::OK;
  if (api_.ds && mapped_at_record(api_.ds)) return refuse("the depth-stencil view's texture");
  for (uint32_t slot = 0; slot < NUM_VERTEX_SLOTS; ++slot) {
    if (api_.layout.uses_slot(slot) && mapped_at_record(api_.vbs[slot].buffer))
      return refuse("the vertex buffer in slot " + std::to_string(slot));
  }
  if (indexed && mapped_at_record(api_.ib)) return refuse("the index buffer");
  for (uint32_t slot = 0; slot < NUM_TEXTURE_SLOTS; ++slot) {
    // Sampled textures cannot be mapped (map refuses them); checked all the same, with the
    // descriptors the draw reads.
    if (api_.srv_tex[slot] && mapped_at_record(api_.srv_tex[slot]))
      return refuse("the texture of the shader-resource view in slot " + std::to_string(slot));
    if ((api_.srv_desc[slot] && mapped_at_record(api_.srv_desc[slot])) ||
        (api_.samp_desc[slot] && mapped_at_record(api_.samp_desc[slot])))
      return refuse("a descriptor bound in texture slot " + std::to_string(slot));
  }
  return Result::OK;
}

Result Context::draw(uint32_t vertex_count, uint32_t start_vertex) {
  return draw_fe("draw", false, start_vertex, vertex_count, 0, 1, 0);
}

Result Context::draw_instanced(uint32_t vertex_count_per_instance, uint32_t instance_count, uint32_t start_vertex,
                               uint32_t start_instance) {
  return draw_fe("draw_instanced", false, start_vertex, vertex_count_per_instance, 0, instance_count, start_instance);
}

Result Context::draw_indexed(uint32_t index_count, uint32_t start_index, int32_t base_vertex) {
  return draw_fe("draw_indexed", true, start_index, index_count, static_cast<uint32_t>(base_vertex), 1, 0);
}

Result Context::draw_indexed_instanced(uint32_t index_count_per_instance, uint32_t instance_count,
                                       uint32_t start_index, int32_t base_vertex, uint32_t start_instance) {
  return draw_fe("draw_indexed_instanced", true, start_index, index_count_per_instance,
                 static_cast<uint32_t>(base_vertex), instance_count, start_instance);
}

Result Context::draw_fe(const char* what, bool indexed, uint32_t first, uint32_t count, uint32_t base_vertex,
                        uint32_t instance_count, uint32_t start_instance) {
  const std::string w(what);
  if (dev_.lost()) return fail(Result::DEVICE_LOST, "device lost");
  if (recording_dropped()) return Result::OK;
  if (!api_.rt) return fail(Result::INVALID_CALL, w + ": no render target bound");
  if (!api_.layout_set) return fail(Result::INVALID_CALL, w + ": no input layout set");
  if (!api_.layout.has(Semantic::POSITION)) return fail(Result::INVALID_CALL, w + ": the input layout has no POSITION element");
  for (uint32_t slot = 0; slot < NUM_VERTEX_SLOTS; ++slot) {
    if (api_.layout.uses_slot(slot) && !api_.vbs[slot].buffer)
      return fail(Result::INVALID_CALL, w + ": the input layout reads vertex buffer slot " + std::to_string(slot) +
                                            ", which has no buffer bound");
  }
  if (indexed && !api_.ib) return fail(Result::INVALID_CALL, w + ": no index buffer bound");
  const Result mr = check_draw_unmapped(w, true, indexed);
  if (mr != Result::OK) return mr;

  // What the hardware must hold for this draw, at the indices of `used`.
  HwState d = hw_;
  StateMask used;
  for (uint32_t slot = 0; slot < NUM_VERTEX_SLOTS; ++slot) {
    if (!api_.layout.uses_slot(slot)) continue;  // a slot the layout does not read: left as it is
    const VertexBufferBinding& b = api_.vbs[slot];
    const uint32_t base = slot ? FE_VB1_BASE : FE_VB0_BASE;
    d[base] = address_of(b.buffer) + b.offset;
    d[base + 1] = b.stride;
    d[base + 2] = b.buffer->size() - b.offset;
    used |= bits(base, 3);
  }
  for (uint32_t a = 0; a < NUM_SEMANTICS; ++a) d[FE_ATTR_POS + a] = api_.layout.attr_words()[a];
  used |= bits(FE_ATTR_POS, NUM_SEMANTICS);
  if (indexed) {
    d[FE_IB_BASE] = address_of(api_.ib) + api_.ib_offset;
    d[FE_IB_SIZE] = api_.ib->size() - api_.ib_offset;
    used |= bits(FE_IB_BASE, 2);
  }
  for (uint32_t r = 0; r < 4; ++r) {
    for (uint32_t c = 0; c < 4; ++c) d[FE_MATRIX0 + 4 * r + c] = fp32::bits_of(api_.transform.m[r][c]);
  }
  used |= bits(FE_MATRIX0, 16);
  const Viewport& vp = api_.viewport;
  d[FE_VP_X] = fp32::bits_of(vp.x);
  d[FE_VP_Y] = fp32::bits_of(vp.y);
  d[FE_VP_W] = fp32::bits_of(vp.width);
  d[FE_VP_H] = fp32::bits_of(vp.height);
  d[FE_VP_ZMIN] = fp32::bits_of(vp.min_depth);
  d[FE_VP_ZMAX] = fp32::bits_of(vp.max_depth);
  RasterReg raster;
  raster.cull = static_cast<uint32_t>(api_.raster.cull);
  raster.front_ccw = api_.raster.front_ccw;
  raster.depth_clip_off = !api_.raster.depth_clip;
  d[FE_RASTER] = raster.word();
  d[FE_RT_BASE] = address_of(api_.rt);
  FePitchReg pitch;
  pitch.pitch = api_.rt->pitch();
  pitch.msaa = api_.rt->samples() == 4;
  pitch.fmt = rt_format_code(api_.rt->format());
  d[FE_RT_PITCH] = pitch.word();
  SizeReg size;
  size.width = api_.rt->width();
  size.height = api_.rt->height();
  d[FE_RT_SIZE] = size.word();
  d[FE_SCISSOR_X] = api_.scissor_x;
  d[FE_SCISSOR_Y] = api_.scissor_y;
  used |= bits(FE_VP_X, FE_SCISSOR_Y - FE_VP_X + 1);
  // Depth and stencil: on only with a depth-stencil view bound (else the reset state, so draws
  // without one encode no depth state at all).
  d[FE_DEPTH] = STATE_RESET[FE_DEPTH];
  d[FE_STENCIL] = STATE_RESET[FE_STENCIL];
  d[FE_STENCIL_OPS] = STATE_RESET[FE_STENCIL_OPS];
  if (api_.ds) {
    if (api_.ds->samples() != api_.rt->samples() || api_.ds->width() != api_.rt->width() ||
        api_.ds->height() != api_.rt->height())
      return fail(Result::INVALID_CALL, w + ": the depth-stencil view does not match the render target");
    d[FE_DS_BASE] = address_of(api_.ds);
    d[FE_DS_PITCH] = api_.ds->pitch();
    used |= bits(FE_DS_BASE, 2);
    const DepthStencilState& st = api_.ds_state;
    d[FE_DEPTH] = st.depth_word();
    StencilReg stencil = StencilReg::from_word(st.stencil_word());
    if (stencil.enable) stencil.ref_val = api_.stencil_ref;
    d[FE_STENCIL] = stencil.word();
    d[FE_STENCIL_OPS] = st.stencil_ops_word();
    // Alpha to coverage removes samples in the pixel stage (COMB): depth and stencil must be
    // tested and written after it (docs/comb.md section 3b).
    DepthReg depth = DepthReg::from_word(d[FE_DEPTH]);
    if (api_.blend.alpha_to_coverage()) depth.late = 1;
    d[FE_DEPTH] = depth.word();
  }
  used |= bit(FE_DEPTH) | bit(FE_STENCIL) | bit(FE_STENCIL_OPS);
  // Output merger: the blend state and constant; the format is FE_RT_PITCH.RT_FMT (above).
  if (rt_format_code(api_.rt->format()) == RT_FMT_NONE)
    return fail(Result::INVALID_CALL, w + ": the render target has no colour format");
  if (api_.blend.logic_word() != 0 && api_.rt->format() == Format::R8G8B8A8_UNORM_SRGB)
    return fail(Result::INVALID_CALL, w + ": logic ops need a UNORM render target (the bound one is R8G8B8A8_UNORM_SRGB)");
  d[FE_BLEND] = api_.blend.word();
  d[FE_BLEND_FACTOR] = api_.blend_factor;
  d[FE_LOGIC_OP] = api_.blend.logic_word();
  used |= bit(FE_BLEND) | bit(FE_BLEND_FACTOR) | bit(FE_LOGIC_OP);
  ShadeReg shade;
  shade.gouraud = api_.gouraud;
  d[FE_SHADE] = shade.word();
  used |= bit(FE_SHADE);
  // The pixel stage's texture slots 0 and 1: the addresses of the bound views' and samplers'
  // descriptors (docs/runtime.md "Textures"); a register is left as it is when its slot has
  // nothing bound.
  static constexpr uint32_t kTexReg[NUM_TEXTURE_SLOTS] = {FE_TEX0, FE_TEX1};
  static constexpr uint32_t kSampReg[NUM_TEXTURE_SLOTS] = {FE_SAMP0, FE_SAMP1};
  for (uint32_t slot = 0; slot < NUM_TEXTURE_SLOTS; ++slot) {
    if (api_.srv_desc[slot]) {
      d[kTexReg[slot]] = address_of(api_.srv_desc[slot]);
      used |= bit(kTexReg[slot]);
    }
    if (api_.samp_desc[slot]) {
      d[kSampReg[slot]] = address_of(api_.samp_desc[slot]);
      used |= bit(kSampReg[slot]);
    }
  }
  // The combiner and the alpha test (docs/comb.md): a texturing stage needs something to sample,
  // and stage 1 samples uv1, which only a TEXCOORD1 element of the layout provides (D3D11 refuses
  // a layout that lacks an input the shader reads).
  const bool stage_on[NUM_TEXTURE_SLOTS] = {api_.combine.op != TextureCombine::DISABLE, api_.combine.stage1_on()};
  for (uint32_t slot = 0; slot < NUM_TEXTURE_SLOTS; ++slot) {
    if (!stage_on[slot] || (api_.srv_desc[slot] && api_.samp_desc[slot])) continue;
    const char* missing = api_.srv_desc[slot]   ? "no sampler is"
                          : api_.samp_desc[slot] ? "no shader-resource view is"
                                                 : "no shader-resource view and no sampler are";
    return fail(Result::INVALID_CALL, w + ": texture stage " + std::to_string(slot) + " combines a texture but " +
                                          missing + " bound in slot " + std::to_string(slot));
  }
  if (stage_on[1] && !api_.layout.has(Semantic::TEXCOORD1))
    return fail(Result::INVALID_CALL, w + ": texture stage 1 samples with uv1, but the input layout has no TEXCOORD1 element");
  CombineReg combine = CombineReg::from_word(api_.combine.word());
  combine.alpha_to_coverage = api_.blend.alpha_to_coverage();
  d[FE_COMBINE] = combine.word();
  used |= bit(FE_COMBINE);

  Result r;
  if (!reserve(state_dwords(d, used) + 6, &r)) return r;
  emit_state_runs(d, used);
  // Strip restart only where it means something: indexed strips.
  const bool strip = api_.topology == PrimitiveTopology::TRIANGLE_STRIP;
  const uint32_t flags = (indexed ? CommandWriter::FE_INDEXED : 0u) |
                         (indexed && api_.ib_format == IndexFormat::R32_UINT ? CommandWriter::FE_INDEX32 : 0u) |
                         (strip ? CommandWriter::FE_STRIP : 0u) |
                         (strip && indexed && api_.strip_restart ? CommandWriter::FE_RESTART : 0u);
  cw_.draw_fe(flags, first, count, base_vertex, instance_count, start_instance);
  for (uint32_t slot = 0; slot < NUM_VERTEX_SLOTS; ++slot) {
    if (api_.layout.uses_slot(slot)) on_use(api_.vbs[slot].buffer, false);
  }
  if (indexed) on_use(api_.ib, false);
  on_use(api_.rt, true);
  if (api_.ds) on_use(api_.ds, true);
  for (uint32_t slot = 0; slot < NUM_TEXTURE_SLOTS; ++slot) {
    for (Resource* t : {api_.srv_tex[slot], api_.srv_desc[slot], api_.samp_desc[slot]}) {
      if (t) on_use(t, false);
    }
  }
  return Result::OK;
}

Result Context::check_copy(Resource* dst, uint32_t dst_offset, Resource* src, uint32_t src_offset, uint32_t bytes) {
  if (!dst || !src) return fail(Result::INVALID_ARG, "copy: null resource");
  if (!dev_.alive(dst) || !dev_.alive(src)) return fail(Result::INVALID_ARG, "copy: not a live resource of this device");
  if (uint64_t{dst_offset} + bytes > dst->size() || uint64_t{src_offset} + bytes > src->size())
    return fail(Result::INVALID_ARG, "copy: the range lies outside a resource");
  if (dst == src && dst_offset < src_offset + uint64_t{bytes} && src_offset < dst_offset + uint64_t{bytes})
    return fail(Result::INVALID_ARG, "copy: source and destination ranges overlap");
  Device::Lock lk(dev_.mu_);
  if (dst->mapped_ || src->mapped_) return fail(Result::INVALID_CALL, "copy: a resource is mapped");
  return Result::OK;
}

bool Context::reserve(size_t dwords, Result* r) {
  *r = Result::OK;
  if (recording_dropped()) return false;
  if (ensure_space(dwords)) return true;
  if (!recording_dropped()) *r = fail(Result::DEVICE_LOST, "device lost: " + dev_.last_error());
  return false;
}

Result Context::copy_region(Resource* dst, uint32_t dst_offset, Resource* src, uint32_t src_offset, uint32_t bytes) {
  if (dev_.lost()) return fail(Result::DEVICE_LOST, "device lost");
  Result r = check_copy(dst, dst_offset, src, src_offset, bytes);
  if (r != Result::OK || !reserve(4, &r)) return r;
  const size_t pos = cw_.dwords().size();
  cw_.copy(address_of(src) + src_offset, address_of(dst) + dst_offset, bytes);
  on_address(pos + 1, src, src_offset);
  on_address(pos + 2, dst, dst_offset);
  on_use(src, false);
  on_use(dst, true);
  return Result::OK;
}

Result Context::copy_resource(Resource* dst, Resource* src) {
  if (dst && src && dst->size() != src->size())
    return fail(Result::INVALID_ARG, "copy_resource: the resources differ in size");
  return copy_region(dst, 0, src, 0, src ? src->size() : 0);
}

Result Context::resolve_subresource(Resource* dst, uint32_t dst_subresource, Resource* src, uint32_t src_subresource,
                                    Format format) {
  const std::string w = "resolve_subresource: ";
  if (dev_.lost()) return fail(Result::DEVICE_LOST, "device lost");
  if (recording_dropped()) return Result::OK;
  if (!dst || !src) return fail(Result::INVALID_ARG, w + "null resource");
  if (!dev_.alive(dst) || !dev_.alive(src)) return fail(Result::INVALID_ARG, w + "not a live resource of this device");
  if (dst == src) return fail(Result::INVALID_ARG, w + "the source and the destination are the same resource");
  for (Resource* r : {dst, src}) {
    if (r->kind() != ResourceKind::TEXTURE2D || !(r->bind_flags() & BIND_RENDER_TARGET))
      return fail(Result::INVALID_ARG, w + "the resources must be textures created with BIND_RENDER_TARGET");
  }
  if (dst_subresource != 0 || src_subresource != 0)
    return fail(Result::INVALID_ARG, w + "a render target has one subresource (0)");
  if (src->samples() != 4) return fail(Result::INVALID_ARG, w + "the source is not a 4x MSAA target");
  if (dst->samples() != 1) return fail(Result::INVALID_ARG, w + "the destination is not a 1x target");
  const uint32_t code = rt_format_code(format);
  if (code == RT_FMT_NONE)
    return fail(Result::INVALID_ARG, w + "the format is not a colour render-target format (R8G8B8A8_UNORM, "
                                         "B8G8R8A8_UNORM, R8G8B8A8_UNORM_SRGB, B5G6R5_UNORM)");
  if (src->format() != format || dst->format() != format)
    return fail(Result::INVALID_ARG, w + "the format differs from the source's or the destination's");
  if (src->width() != dst->width() || src->height() != dst->height())
    return fail(Result::INVALID_ARG, w + "the source and the destination differ in size");
  // The engine's alignment (a 4x pixel: 16 bytes, 8 for B5G6R5; allocations are 256-aligned).
  const uint32_t px4 = format_bytes(format) * 4;
  if (src->pitch() % px4 != 0)
    return fail(Result::INVALID_ARG, w + "the source pitch is not a multiple of a 4x pixel (" + std::to_string(px4) + " bytes)");
  if (src->pitch() > 0xFFFFu || dst->pitch() > 0xFFFFu)
    return fail(Result::NOT_SUPPORTED, w + "a pitch above 65535 bytes");
  {
    Device::Lock lk(dev_.mu_);
    if (dst->mapped_ || src->mapped_) return fail(Result::INVALID_CALL, w + "a resource is mapped");
  }
  Result r;
  if (!reserve(1 + OP_RESOLVE_LEN, &r)) return r;
  const size_t pos = cw_.dwords().size();
  cw_.resolve(code, address_of(src), src->pitch(), address_of(dst), dst->pitch(), 0, 0, src->width(), src->height());
  on_address(pos + 1, src, 0);
  on_address(pos + 2, dst, 0);
  on_use(src, false);
  on_use(dst, true);
  return Result::OK;
}

Result Context::check_fence(Fence* f, const char* what) {
  if (!f) return fail(Result::INVALID_ARG, std::string(what) + ": null fence");
  if (f->dev_ != &dev_) return fail(Result::INVALID_ARG, std::string(what) + ": a fence of another device");
  Device::Lock lk(dev_.mu_);
  if (!dev_.live_fences_.count(f)) return fail(Result::INVALID_ARG, std::string(what) + ": not a live fence");
  return Result::OK;
}

Result Context::signal(Fence* f, uint64_t value, SignalStage stage) {
  if (dev_.lost()) return fail(Result::DEVICE_LOST, "device lost");
  Result r = check_fence(f, "signal");
  if (r != Result::OK || !reserve(4, &r)) return r;
  cw_.write_reg(f->reg_, fence_lo32(value), stage == SignalStage::END_OF_PIPE);
  if (f->interrupt_) cw_.interrupt(f->reg_);
  on_fence(f, value);
  return Result::OK;
}

Result Context::wait(Fence* f, uint64_t value) {
  if (dev_.lost()) return fail(Result::DEVICE_LOST, "device lost");
  Result r = check_fence(f, "wait");
  if (r != Result::OK || !reserve(2, &r)) return r;
  cw_.wait_reg(f->reg_, fence_lo32(value), true);
  on_fence(f, 0);
  return Result::OK;
}

Result Context::set_marker(const std::string& text) {
  if (dev_.lost()) return fail(Result::DEVICE_LOST, "device lost");
  const size_t n = (text.size() + 4) / 4;  // with a terminating zero
  if (n > 0xFFFu) return fail(Result::INVALID_ARG, "set_marker: longer than 4095 dwords");
  // One command must fit one command buffer in the ring (with its fence write): else the flush
  // could never place it and the device would be lost.
  const size_t cap = std::min<size_t>(dev_.desc_.max_command_buffer, dev_.ring_.size - 16) / 4;
  if (1 + n + 8 > cap) return fail(Result::INVALID_ARG, "set_marker: larger than a command buffer in the ring");
  Result r;
  if (!reserve(1 + n, &r)) return r;
  std::vector<uint32_t> payload(n, 0u);
  for (size_t i = 0; i < text.size(); ++i) payload[i / 4] |= uint32_t{static_cast<uint8_t>(text[i])} << (8 * (i % 4));
  cw_.nop(payload);
  return Result::OK;
}

size_t Context::reset_state_dwords() const {
  return 1 + kStateUsed + state_dwords(default_hw_state(), kFeMask);
}

void Context::emit_reset_state() {
  const HwState def = default_hw_state();
  cw_.set_state_range(0, def.data(), kStateUsed);
  for (uint32_t i = 0; i < kStateUsed; ++i) hw_[i] = def[i];
  known_ |= kPretransformedMask;
  written_ |= kPretransformedMask;
  emit_state_runs(def, kFeMask);
}

void Context::forget_state(const StateMask& written) { known_ &= ~(kPretransformedMask | written); }

void Context::emit_pretransformed_state() {
  HwState d = hw_;
  d[ST_VB_BASE] = address_of(api_.pt_vb) + api_.pt_vb_offset;
  d[ST_COLOR] = api_.color;
  d[ST_RT_BASE] = address_of(api_.rt);
  PitchReg pitch;
  pitch.pitch = api_.rt->pitch();
  pitch.msaa = api_.rt->samples() == 4;
  d[ST_RT_PITCH] = pitch.word();
  SizeReg size;
  size.width = api_.rt->width();
  size.height = api_.rt->height();
  d[ST_RT_SIZE] = size.word();
  d[ST_SCISSOR_X] = api_.scissor_x;
  d[ST_SCISSOR_Y] = api_.scissor_y;
  uint32_t first = kStateUsed, last = 0;
  for (uint32_t i = 0; i < kStateUsed; ++i) {
    if (!known_[i] || d[i] != hw_[i]) {
      first = std::min(first, i);
      last = i;
    }
  }
  if (first != kStateUsed) emit_state_run(d, first, last);
}

size_t Context::state_dwords(const HwState& desired, const StateMask& used) const {
  size_t n = 0;
  bool in_run = false;
  for (uint32_t i = 0; i < FE_STATE_END; ++i) {
    const bool dirty = used[i] && (!known_[i] || desired[i] != hw_[i]);
    if (dirty) n += in_run ? 1 : 2;
    in_run = dirty;
  }
  return n;
}

void Context::emit_state_runs(const HwState& desired, const StateMask& used) {
  // Each front-end register written travels down the front end as a state write, so only the
  // registers that change are written: one SET_STATE per run of them.
  uint32_t i = 0;
  while (i < FE_STATE_END) {
    auto dirty = [&](uint32_t k) { return used[k] && (!known_[k] || desired[k] != hw_[k]); };
    if (!dirty(i)) {
      ++i;
      continue;
    }
    uint32_t j = i;
    while (j + 1 < FE_STATE_END && dirty(j + 1)) ++j;
    emit_state_run(desired, i, j);
    i = j + 1;
  }
}

void Context::emit_state_run(const HwState& desired, uint32_t first, uint32_t last) {
  const size_t pos = cw_.dwords().size();
  cw_.set_state_range(first, desired.data() + first, last - first + 1);
  for (uint32_t k = first; k <= last; ++k) hw_[k] = desired[k];
  known_ |= bits(first, last - first + 1);
  written_ |= bits(first, last - first + 1);
  on_state_emitted(pos, first, last);
}

}  // namespace pineda::rt
