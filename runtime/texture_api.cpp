// SPDX-License-Identifier: Apache-2.0
// The runtime's sampled textures, views and samplers (docs/runtime.md "Textures"): Device
// creation and validation, the pixel stage's slot 0 / slot 1 binding, the combiner's stages and
// update_subresource. The texel data work (layout, conversion, BC encoding, mips, image loading)
// is texture.cpp.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "runtime.h"

namespace pineda::rt {

namespace {

std::string str(uint32_t v) { return std::to_string(v); }

// Bytes of one row the application passes: RGBA8 texels, the format's texels, or BC blocks.
uint32_t min_row_pitch(TexFormat f, bool rgba8, uint32_t level_w) {
  if (rgba8) return 4 * level_w;
  if (tex::is_bc(f)) return (level_w + 3) / 4 * tex::bytes_per_block(f);
  return tex::bytes_per_texel(f) * level_w;
}

// round(v * 256) of v clamped to [lo, hi], as an integer (v finite).
int32_t fix8(float v, float lo, float hi) {
  const double c = std::min<double>(std::max<double>(v, lo), hi);
  return static_cast<int32_t>(std::lround(c * 256.0));
}

}  // namespace

void ShaderResourceView::release() {
  if (refs_.fetch_sub(1) != 1) return;
  tex_->release();
  mem_->release();  // the descriptor's memory retires once the GPU is done with it
  delete this;
}

void SamplerState::release() {
  if (refs_.fetch_sub(1) != 1) return;
  mem_->release();
  delete this;
}

SampDesc encode_sampler_desc(const SamplerDesc& d) {
  const uint32_t f = static_cast<uint32_t>(d.filter);
  SampDesc s;
  s.min = (f >> 4) & 1u;
  s.mag = (f >> 2) & 1u;
  s.mip = (f & 1u) ? TEX_MIP_LINEAR : TEX_MIP_POINT;
  s.addr_u = static_cast<uint32_t>(d.address_u) - 1;
  s.addr_v = static_cast<uint32_t>(d.address_v) - 1;
  s.lod_bias = fix8(d.mip_lod_bias, -128.0f, 32767.0f / 256.0f);
  s.min_lod = static_cast<uint64_t>(fix8(d.min_lod, 0.0f, 4095.0f / 256.0f));
  s.max_lod = static_cast<uint64_t>(fix8(d.max_lod, 0.0f, 4095.0f / 256.0f));
  s.border = float_to_unorm8(d.border_color[0]) | float_to_unorm8(d.border_color[1]) << 8 |
             float_to_unorm8(d.border_color[2]) << 16 | float_to_unorm8(d.border_color[3]) << 24;
  return s;
}

Result Device::create_texture2d(const Texture2DDesc& d, const SubresourceData* init, Resource** out) {
  const std::string w = "create_texture2d: ";
  if (!out) return error(Result::INVALID_ARG, w + "out is null");
  *out = nullptr;
  if (d.width == 0 || d.height == 0 || d.width > TEX_MAX_DIM || d.height > TEX_MAX_DIM)
    return error(Result::INVALID_ARG, w + "width and height must be 1.." + str(TEX_MAX_DIM) + " (got " + str(d.width) +
                                          " x " + str(d.height) + ")");
  if (!tex::format_valid(d.format))
    return error(Result::INVALID_ARG, w + "unknown format " + str(static_cast<uint32_t>(d.format)));
  if (tex::is_bc(d.format) && (d.width % 4 || d.height % 4))
    return error(Result::INVALID_ARG, w + tex::format_name(d.format) +
                                          " needs a width and height that are multiples of 4 (D3D11's block-compression rule)");
  const uint32_t full = tex::full_chain_levels(d.width, d.height);
  const uint32_t levels = d.mip_levels ? d.mip_levels : full;
  if (levels > full)
    return error(Result::INVALID_ARG, w + str(levels) + " mip levels; a " + str(d.width) + " x " + str(d.height) +
                                          " chain has " + str(full));
  if (d.bind != BIND_SHADER_RESOURCE)
    return error(Result::INVALID_ARG, w + "a sampled texture is bound as BIND_SHADER_RESOURCE only (render targets and "
                                          "depth buffers are linear: TextureDesc)");
  if (d.misc & ~static_cast<uint32_t>(TEX_MISC_INIT_RGBA8 | TEX_MISC_GENERATE_MIPS))
    return error(Result::INVALID_ARG, w + "unknown misc flags");
  const bool rgba8 = (d.misc & TEX_MISC_INIT_RGBA8) != 0;
  const bool gen = (d.misc & TEX_MISC_GENERATE_MIPS) != 0;
  const bool rgba8_like = rgba8 || d.format == TexFormat::R8G8B8A8_UNORM || d.format == TexFormat::R8G8B8A8_UNORM_SRGB;
  if (gen && !rgba8_like)
    return error(Result::INVALID_ARG, w + "TEX_MISC_GENERATE_MIPS needs RGBA8 data (TEX_MISC_INIT_RGBA8 or an RGBA8 format)");
  if (gen && (!init || !init[0].data)) return error(Result::INVALID_ARG, w + "TEX_MISC_GENERATE_MIPS needs level 0's data");

  uint32_t total = 0;
  const std::vector<tex::Level> lv = tex::chain_layout(d.width, d.height, levels, d.format, &total);
  std::vector<uint8_t> bytes(total, 0);
  if (init) {
    std::vector<std::vector<uint8_t>> mips;
    std::vector<uint8_t> level0;  // tight RGBA8 rows for the resizer
    if (gen && levels > 1) {
      const uint32_t pitch = init[0].row_pitch;
      if (pitch < 4 * d.width) return error(Result::INVALID_ARG, w + "level 0's row pitch is below width * 4");
      level0.resize(static_cast<size_t>(d.width) * d.height * 4);
      for (uint32_t y = 0; y < d.height; ++y)
        std::memcpy(&level0[static_cast<size_t>(y) * d.width * 4], static_cast<const uint8_t*>(init[0].data) + static_cast<size_t>(y) * pitch,
                    static_cast<size_t>(d.width) * 4);
      mips = tex::generate_mips_rgba8(level0.data(), d.width, d.height, levels,
                                      d.format == TexFormat::R8G8B8A8_UNORM_SRGB);
    }
    for (uint32_t l = 0; l < levels; ++l) {
      const void* src = nullptr;
      uint32_t pitch = 0;
      bool src_rgba8 = rgba8;
      if (gen && l > 0) {
        src = mips[l - 1].data();
        pitch = 4 * lv[l].width;
        src_rgba8 = true;
      } else {
        src = init[l].data;
        pitch = init[l].row_pitch;
      }
      if (!src) return error(Result::INVALID_ARG, w + "no data for level " + str(l));
      if (pitch < min_row_pitch(d.format, src_rgba8, lv[l].width))
        return error(Result::INVALID_ARG, w + "level " + str(l) + "'s row pitch " + str(pitch) + " is below " +
                                              str(min_row_pitch(d.format, src_rgba8, lv[l].width)));
      const std::vector<uint8_t> blk =
          tex::encode_blocks(d.format, src_rgba8, src, pitch, {0, 0, lv[l].blocks_x, lv[l].blocks_y}, lv[l].width, lv[l].height);
      std::memcpy(&bytes[lv[l].offset], blk.data(), blk.size());
    }
  }
  const Result r = create_resource(ResourceKind::TEXTURE2D, total, d.width, d.height, 0, d.bind, bytes.data(), out);
  if (r == Result::OK) {
    (*out)->levels_ = levels;
    (*out)->tex_format_ = d.format;
    (*out)->tex_misc_ = d.misc;
  }
  return r;
}

Result Device::create_texture2d_from_file(const std::string& path, TexFormat format, uint32_t mip_levels, Resource** out) {
  if (!out) return error(Result::INVALID_ARG, "create_texture2d_from_file: out is null");
  *out = nullptr;
  std::vector<uint8_t> rgba;
  uint32_t iw = 0, ih = 0;
  std::string why;
  if (!tex::load_image_rgba8(path, &rgba, &iw, &ih, &why)) return error(Result::INVALID_ARG, "create_texture2d_from_file: " + why);
  Texture2DDesc d;
  d.width = iw;
  d.height = ih;
  d.mip_levels = mip_levels;
  d.format = format;
  d.misc = TEX_MISC_INIT_RGBA8 | (mip_levels == 1 ? 0u : static_cast<uint32_t>(TEX_MISC_GENERATE_MIPS));
  const SubresourceData init{rgba.data(), 4 * iw};
  return create_texture2d(d, &init, out);
}

Result Device::create_shader_resource_view(Resource* t, const ShaderResourceViewDesc* desc, ShaderResourceView** out) {
  const std::string w = "create_shader_resource_view: ";
  if (!out) return error(Result::INVALID_ARG, w + "out is null");
  *out = nullptr;
  if (!t || !alive(t)) return error(Result::INVALID_ARG, w + "not a live resource of this device");
  if (!t->sampled())
    return error(Result::INVALID_ARG, w + "the resource is not a sampled texture (create it with Texture2DDesc)");
  const ShaderResourceViewDesc v = desc ? *desc : ShaderResourceViewDesc{};
  if (v.most_detailed_mip >= t->levels_)
    return error(Result::INVALID_ARG, w + "most_detailed_mip " + str(v.most_detailed_mip) + " is past the texture's " +
                                          str(t->levels_) + " levels");
  const uint32_t count = v.mip_levels == UINT32_MAX ? t->levels_ - v.most_detailed_mip : v.mip_levels;
  if (count == 0 || count > t->levels_ - v.most_detailed_mip)
    return error(Result::INVALID_ARG, w + "levels [" + str(v.most_detailed_mip) + ", +" + str(v.mip_levels) +
                                          ") do not fit the texture's " + str(t->levels_) + " levels");
  const std::vector<tex::Level> lv = tex::chain_layout(t->width(), t->height(), t->levels_, t->tex_format_);
  TexDesc td;
  td.base = t->gpu_address() + lv[v.most_detailed_mip].offset;
  td.width = lv[v.most_detailed_mip].width;
  td.height = lv[v.most_detailed_mip].height;
  td.fmt = static_cast<uint32_t>(t->tex_format_);
  td.levels = count;
  const TexDesc::Words words = td.pack();
  Resource* mem = nullptr;
  const Result r = create_buffer({TEX_DESC_BYTES, 0}, words.data(), &mem);
  if (r != Result::OK) return r;
  ShaderResourceView* view = new ShaderResourceView();
  t->add_ref();
  view->tex_ = t;
  view->mem_ = mem;
  view->first_ = v.most_detailed_mip;
  view->count_ = count;
  view->desc_ = td;
  *out = view;
  return Result::OK;
}

Result Device::create_sampler_state(const SamplerDesc& d, SamplerState** out) {
  const std::string w = "create_sampler_state: ";
  if (!out) return error(Result::INVALID_ARG, w + "out is null");
  *out = nullptr;
  const uint32_t f = static_cast<uint32_t>(d.filter);
  if (f & ~0x15u) {
    const bool known = f == 0x55u || ((f & 0x80u) && (f & ~0xD5u) == 0) || (f >= 0x100u && (f & ~0x1D5u) == 0);
    return error(known ? Result::NOT_SUPPORTED : Result::INVALID_ARG,
                 w + (known ? "anisotropic, comparison and min/max filters are not supported (filter 0x"
                            : "unknown filter 0x") + [&] { char b[16]; std::snprintf(b, sizeof b, "%x)", f); return std::string(b); }());
  }
  const TextureAddressMode modes[3] = {d.address_u, d.address_v, d.address_w};
  for (int i = 0; i < 3; ++i) {
    const uint32_t m = static_cast<uint32_t>(modes[i]);
    if (m < 1 || m > 5) return error(Result::INVALID_ARG, w + "address mode " + "uvw"[i] + " is " + str(m) + " (1..5)");
  }
  if (!std::isfinite(d.mip_lod_bias) || d.mip_lod_bias < -16.0f || d.mip_lod_bias > 15.99f)
    return error(Result::INVALID_ARG, w + "mip_lod_bias must be in [-16, 15.99]");
  if (d.max_anisotropy < 1 || d.max_anisotropy > 16) return error(Result::INVALID_ARG, w + "max_anisotropy must be 1..16");
  const uint32_t cf = static_cast<uint32_t>(d.comparison_func);
  if (cf < 1 || cf > 8) return error(Result::INVALID_ARG, w + "comparison_func is not a D3D11_COMPARISON_FUNC");
  if (std::isnan(d.min_lod) || std::isnan(d.max_lod)) return error(Result::INVALID_ARG, w + "min_lod and max_lod must not be NaN");
  if (d.min_lod > d.max_lod) return error(Result::INVALID_ARG, w + "min_lod is above max_lod");
  for (float c : d.border_color) {
    if (std::isnan(c)) return error(Result::INVALID_ARG, w + "border_color has a NaN");
  }
  const SampDesc sd = encode_sampler_desc(d);
  const SampDesc::Words words = sd.pack();
  Resource* mem = nullptr;
  const Result r = create_buffer({TEX_DESC_BYTES, 0}, words.data(), &mem);
  if (r != Result::OK) return r;
  SamplerState* s = new SamplerState();
  s->mem_ = mem;
  s->desc_ = sd;
  *out = s;
  return Result::OK;
}

Result Context::set_shader_resource(uint32_t slot, ShaderResourceView* view) {
  if (slot >= NUM_TEXTURE_SLOTS)
    return fail(Result::INVALID_ARG, "set_shader_resource: slot " + str(slot) + " (the pixel stage has slots 0 and 1)");
  if (view && !dev_.alive(view->tex_))
    return fail(Result::INVALID_ARG, "set_shader_resource: the view's texture is not a live resource of this device");
  bind(api_.srv_tex[slot], view ? view->tex_ : nullptr);
  bind(api_.srv_desc[slot], view ? view->mem_ : nullptr);
  return Result::OK;
}

Result Context::set_sampler(uint32_t slot, SamplerState* sampler) {
  if (slot >= NUM_TEXTURE_SLOTS)
    return fail(Result::INVALID_ARG, "set_sampler: slot " + str(slot) + " (the pixel stage has slots 0 and 1)");
  if (sampler && !dev_.alive(sampler->mem_))
    return fail(Result::INVALID_ARG, "set_sampler: not a live sampler of this device");
  bind(api_.samp_desc[slot], sampler ? sampler->mem_ : nullptr);
  return Result::OK;
}

uint32_t CombineState::word() const {
  // TextureCombine's values are COMB_* + 1 (DISABLE: the stage is off). Stage 1 only behind an
  // enabled stage 0 (D3D9: DISABLE disables every later stage).
  CombineReg w;
  if (op != TextureCombine::DISABLE) {
    w.tex_enable = 1;
    w.mode = static_cast<uint32_t>(op) - 1u;
  }
  if (stage1_on()) {
    w.comb1_tex_enable = 1;
    w.comb1_mode = static_cast<uint32_t>(op1) - 1u;
  }
  if (alpha_test) {
    w.alpha_test = 1;
    w.alpha_func = alpha_func - 1u;
    w.alpha_ref = alpha_ref;
  }
  return w.word();
}

Result Context::set_texture_combine(uint32_t stage, TextureCombine op) {
  if (stage >= NUM_TEXTURE_SLOTS)
    return fail(Result::INVALID_ARG, "set_texture_combine: stage " + str(stage) + " (stages 0 and 1)");
  if (static_cast<uint32_t>(op) > static_cast<uint32_t>(TextureCombine::DECAL))
    return fail(Result::INVALID_ARG, "set_texture_combine: unknown operation " + str(static_cast<uint32_t>(op)) +
                                         " for stage " + str(stage));
  (stage ? api_.combine.op1 : api_.combine.op) = op;
  return Result::OK;
}

Result Context::set_alpha_test(bool enable, ComparisonFunc func, uint32_t ref) {
  const uint32_t f = static_cast<uint32_t>(func);
  if (f < 1 || f > 8) return fail(Result::INVALID_ARG, "set_alpha_test: unknown comparison function " + str(f));
  if (ref > 255) return fail(Result::INVALID_ARG, "set_alpha_test: reference " + str(ref) + " is not UNORM8 (0..255)");
  api_.combine.alpha_test = enable;
  api_.combine.alpha_func = f;
  api_.combine.alpha_ref = ref;
  return Result::OK;
}

Result Context::update_subresource(Resource* t, uint32_t level, const Box* box, const void* data, uint32_t row_pitch) {
  const std::string w = "update_subresource: ";
  if (dev_.lost()) return fail(Result::DEVICE_LOST, "device lost");
  if (!t || !dev_.alive(t)) return fail(Result::INVALID_ARG, w + "not a live resource of this device");
  if (!t->sampled()) return fail(Result::INVALID_ARG, w + "only sampled textures (Texture2DDesc); buffers and render targets: map or copy_region");
  if (level >= t->mip_levels()) return fail(Result::INVALID_ARG, w + "level " + str(level) + " of " + str(t->mip_levels()));
  if (!data) return fail(Result::INVALID_ARG, w + "data is null");
  const TexFormat f = t->tex_format();
  const std::vector<tex::Level> lv = tex::chain_layout(t->width(), t->height(), t->mip_levels(), f);
  const tex::Level& L = lv[level];
  Box b = box ? *box : Box{0, 0, L.width, L.height};
  if (b.left >= b.right || b.top >= b.bottom || b.right > L.width || b.bottom > L.height)
    return fail(Result::INVALID_ARG, w + "the box is empty or outside the level (" + str(L.width) + " x " + str(L.height) + ")");
  if (b.left % 4 || b.top % 4 || (b.right % 4 && b.right != L.width) || (b.bottom % 4 && b.bottom != L.height))
    return fail(Result::INVALID_ARG, w + "the box must cover whole 4x4 blocks (left, top multiples of 4; right, bottom "
                                         "multiples of 4 or the level's edge)");
  const bool rgba8 = (t->tex_misc_ & TEX_MISC_INIT_RGBA8) != 0;
  if (row_pitch < min_row_pitch(f, rgba8, b.right - b.left))
    return fail(Result::INVALID_ARG, w + "row pitch " + str(row_pitch) + " is below " + str(min_row_pitch(f, rgba8, b.right - b.left)));
  const tex::BlockRect rect{b.left / 4, b.top / 4, (b.right + 3) / 4, (b.bottom + 3) / 4};
  const std::vector<uint8_t> blk = tex::encode_blocks(f, rgba8, data, row_pitch, rect, L.width, L.height);
  Resource* stg = nullptr;
  if (dev_.create_buffer({static_cast<uint32_t>(blk.size()), 0}, blk.data(), &stg) != Result::OK)
    return fail(Result::OUT_OF_MEMORY, w + "staging buffer: " + dev_.last_error());
  const uint32_t bpb = tex::bytes_per_block(f), nbx = rect.bx1 - rect.bx0, nby = rect.by1 - rect.by0;
  Result r = Result::OK;
  if (nbx == L.blocks_x) {  // whole block rows: one contiguous copy
    r = copy_region(t, L.offset + rect.by0 * L.blocks_x * bpb, stg, 0, nby * nbx * bpb);
  } else {
    for (uint32_t y = 0; y < nby && r == Result::OK; ++y)
      r = copy_region(t, L.offset + ((rect.by0 + y) * L.blocks_x + rect.bx0) * bpb, stg, y * nbx * bpb, nbx * bpb);
  }
  stg->release();  // retires once the copies have run
  return r;
}

}  // namespace pineda::rt
