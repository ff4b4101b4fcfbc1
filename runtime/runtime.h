// SPDX-License-Identifier: Apache-2.0
// Pineda host runtime: a D3D11-style device, immediate and deferred contexts, resources with
// CPU/GPU hazard tracking, command lists and deferred destruction, over a Backend (golden model,
// Verilated RTL, or a manual test GPU). See docs/runtime.md.
//
// Threading: Device methods (create, release, deferred-context creation) are free-threaded. The
// immediate context and each deferred context are used by one thread at a time, like D3D11's.
// With DeviceDesc::async, flushed command buffers go through a bounded producer/consumer queue to
// a submission thread that places them in the ring and kicks the backend.
#pragma once

#include <array>
#include <bitset>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "allocator.h"
#include "backend.h"
#include "command_writer.h"
#include "pineda_contract.h"
#include "texture.h"

namespace pineda::rt {

enum class Result : int {
  OK = 0,
  STILL_DRAWING,   // Map with DO_NOT_WAIT on a resource the GPU still uses
  INVALID_ARG,     // a bad argument (null, wrong bind flags, out of range, not alive)
  INVALID_CALL,    // a call not allowed in this state (Unmap of an unmapped resource, READ map on a deferred context)
  OUT_OF_MEMORY,   // GPU heap or deferred-context memory exhausted
  DEVICE_LOST,     // the fence stopped advancing past the timeout, or the CP reported an error
  NOT_SUPPORTED,   // valid in D3D11 but not on this hardware
};
const char* result_name(Result r);

enum BindFlags : uint32_t {
  BIND_VERTEX_BUFFER = 1u << 0,
  BIND_INDEX_BUFFER = 1u << 1,
  BIND_CONSTANT_BUFFER = 1u << 2,
  BIND_SHADER_RESOURCE = 1u << 3,  // textures
  BIND_RENDER_TARGET = 1u << 4,
  BIND_DEPTH_STENCIL = 1u << 5,    // a D24_UNORM_S8_UINT texture a depth-stencil view is made of
};

// Texture formats (DXGI_FORMAT): the colour render-target formats R8G8B8A8_UNORM, B8G8R8A8_UNORM,
// R8G8B8A8_UNORM_SRGB (4 bytes per pixel or sample) and B5G6R5_UNORM (2 bytes; docs/om.md
// section 1), or the depth-stencil format D24_UNORM_S8_UINT (one dword per sample: depth [23:0],
// stencil [31:24]; docs/depth.md section 2).
enum class Format : uint32_t {
  R8G8B8A8_UNORM = 0,
  D24_UNORM_S8_UINT = 1,
  B8G8R8A8_UNORM = 2,
  R8G8B8A8_UNORM_SRGB = 3,
  B5G6R5_UNORM = 4,
};
// Bytes per pixel (per sample at 4x) of a format; 0 for a value that is not one.
uint32_t format_bytes(Format f);
// The render-target format code (RT_FMT_*) of a colour format; RT_FMT_NONE for the others.
constexpr uint32_t RT_FMT_NONE = ~0u;
uint32_t rt_format_code(Format f);
// The CLEAR value that fills a colour target of format f with the linear RGBA8 colour `rgba8`
// (R in byte 0): the pixel a draw of that colour stores (sRGB encoded through the hardware's
// table, B and R swapped, B5G6R5 rounded to 5/6/5 bits), for B5G6R5 in both halfwords, since the
// CLEAR fills dwords (a 1x pixel pair, or two samples of a 4x pixel; docs/om.md section 6).
uint32_t clear_value(Format f, uint32_t rgba8);

enum class ResourceKind { BUFFER, TEXTURE2D };

enum class MapType { READ, WRITE, READ_WRITE, WRITE_DISCARD, WRITE_NO_OVERWRITE };
enum class SignalStage { END_OF_PIPE, TOP_OF_PIPE };
enum MapFlags : uint32_t { MAP_FLAG_NONE = 0, MAP_FLAG_DO_NOT_WAIT = 1 };

struct Mapped {
  uint8_t* data = nullptr;
  uint32_t row_pitch = 0;  // textures: bytes per row; buffers: size
  uint32_t size = 0;
};

struct BufferDesc {
  uint32_t size = 0;   // bytes
  uint32_t bind = 0;   // BindFlags
};

struct TextureDesc {
  uint32_t width = 0, height = 0;  // height <= 16384; width <= 16383 (1x) or 4095 (4x): the pitch is 16-bit
  uint32_t pitch = 0;  // bytes per row, 0: width * b * samples (b = format_bytes); a multiple of 4, >= that
  uint32_t bind = 0;
  uint32_t samples = 1;  // 1, or 4: a 4x MSAA render target (4 RGBA8 samples per pixel, docs/numerics.md section 6)
  Format format = Format::R8G8B8A8_UNORM;  // D24_UNORM_S8_UINT: BIND_DEPTH_STENCIL, no BIND_RENDER_TARGET
};

struct DeviceDesc {
  uint32_t heap_base = 0x00100000u;   // GPU memory managed by the allocator
  uint32_t heap_size = 0x3FF00000u;
  uint32_t ring_size = 64 * 1024;     // bytes, allocated from the heap
  uint32_t fence_index = 15;          // FENCE register the runtime owns
  uint64_t initial_fence = 0;         // completed fence at creation (wrap tests start near 2^32)
  uint32_t max_command_buffer = 16 * 1024;  // bytes; the immediate context flushes when full
  bool async = false;                 // submission thread (producer/consumer) or synchronous
  size_t queue_depth = 8;             // command buffers queued for the submission thread
  std::chrono::milliseconds timeout{5000};  // fence not advancing this long: device lost
  bool use_call = true;               // ExecuteCommandList as a hardware CALL when available
  uint32_t small_list_bytes = 4096;   // command lists up to this size are recycled
};

struct FenceDesc {
  uint64_t initial_value = 0;
  bool interrupt = false;  // every GPU signal is followed by an INTERRUPT (payload: the register index)
};

struct DeferredContextDesc {
  size_t max_command_bytes = 1u << 20;  // recording memory; exceeded: FinishCommandList = OUT_OF_MEMORY
};

struct DeviceStats {
  uint64_t flushes = 0;             // command buffers closed with a fence
  uint64_t kicks = 0;               // submissions placed in the ring
  uint64_t bytes_submitted = 0;     // command bytes placed in the ring
  uint64_t waits = 0;               // blocking fence waits (Map, ring space, heap space, idle)
  uint64_t ring_waits = 0;          // of which: waiting for ring space
  uint64_t last_wait_fence = 0;     // target of the most recent wait
  uint64_t renames = 0;             // DISCARD maps that got new storage
  uint64_t retired = 0;             // allocations/objects freed by deferred destruction
  uint64_t lists_created = 0;       // command lists built from fresh memory
  uint64_t lists_recycled = 0;      // command lists built from a recycled one
  uint64_t list_calls = 0;          // ExecuteCommandList as CALL
  uint64_t list_copies = 0;         // ExecuteCommandList by copying dwords (fallback)
  uint64_t list_renames = 0;        // resources that took a command list's DISCARD storage at execution
  uint64_t copy_on_write = 0;       // maps that copied storage shared with a command list first
};

class Device;
class Fence;
class Context;
class ImmediateContext;
class DeferredContext;
class CommandList;

// A buffer or texture. Created by the Device with one reference; release() drops one. Contexts
// and command lists hold their own references while they use it.
class Resource {
 public:
  ResourceKind kind() const { return kind_; }
  uint32_t bind_flags() const { return bind_; }
  uint32_t size() const { return size_; }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  uint32_t pitch() const { return pitch_; }
  uint32_t samples() const { return samples_; }
  Format format() const { return format_; }
  // Sampled textures (Texture2DDesc): their mip levels (0 for every other resource) and format.
  bool sampled() const { return levels_ != 0; }
  uint32_t mip_levels() const { return levels_; }
  TexFormat tex_format() const { return tex_format_; }
  uint32_t gpu_address() const { return addr_.load(); }  // the current allocation
  uint64_t last_gpu_read() const { return last_read_.load(); }
  uint64_t last_gpu_write() const { return last_write_.load(); }
  uint64_t last_gpu_use() const;
  void add_ref() { refs_.fetch_add(1); }
  void release();
  int ref_count() const { return refs_.load(); }

 private:
  friend class Device;
  friend class Context;
  friend class ImmediateContext;
  friend class DeferredContext;
  Resource() = default;

  Device* dev_ = nullptr;
  ResourceKind kind_ = ResourceKind::BUFFER;
  uint32_t bind_ = 0, size_ = 0, width_ = 0, height_ = 0, pitch_ = 0, samples_ = 1;
  Format format_ = Format::R8G8B8A8_UNORM;
  uint32_t levels_ = 0;
  TexFormat tex_format_ = TexFormat::R8G8B8A8_UNORM;
  uint32_t tex_misc_ = 0;  // TextureMiscFlags of a sampled texture
  std::atomic<int> refs_{1};
  std::atomic<uint32_t> addr_{0};
  std::atomic<uint64_t> last_read_{0}, last_write_{0};
  // Guarded by the Device lock.
  Allocation alloc_;
  std::vector<uint8_t> shadow_;    // CPU view handed out by Map (one per allocation)
  std::vector<uint8_t> snapshot_;  // NO_OVERWRITE: what Map handed out, to write back changes only
  bool mapped_ = false;
  MapType map_type_ = MapType::READ;
};

// A user fence (D3D11.4's ID3D11Fence): a 64-bit value signalled by the GPU (Context::signal, a
// WRITE_REG) or the CPU (signal, a host register write) and waited on by the GPU (Context::wait,
// a WAIT_REG). It owns one FENCE register that the Device does not use itself; the register holds
// the low 32 bits. Created with one reference; contexts' command lists hold their own.
class Fence {
 public:
  uint32_t register_index() const { return reg_; }
  bool interrupt() const { return interrupt_; }
  // The value reached so far (polls the register): the largest value not above the highest
  // value ever signalled whose low 32 bits the register holds.
  uint64_t completed_value();
  // CPU-side signal: writes the register now (D3D12's ID3D12Fence::Signal).
  Result signal(uint64_t value);
  void add_ref() { refs_.fetch_add(1); }
  void release();

 private:
  friend class Device;
  friend class Context;
  friend class ImmediateContext;
  Fence() = default;

  Device* dev_ = nullptr;
  uint32_t reg_ = 0;
  bool interrupt_ = false;
  std::atomic<int> refs_{1};
  // Guarded by the Device lock.
  uint64_t highest_ = 0;   // initial value or the largest value signalled (encoded or by the CPU)
  uint64_t last_use_ = 0;  // fence (Device fence) of the last command buffer that uses it
};

// ---- Geometry front end (docs/runtime.md "Front-end draws") -----------------------------------

// Vertex attribute formats (the hardware's ATTR_FMT_*): one to four FP32, or four UNORM8 in one
// dword (x in bits [7:0]).
enum class VertexFormat : uint32_t {
  F32X1 = ATTR_FMT_F32X1,
  F32X2 = ATTR_FMT_F32X2,
  F32X3 = ATTR_FMT_F32X3,
  F32X4 = ATTR_FMT_F32X4,
  UNORM8X4 = ATTR_FMT_UNORM8X4,
};
// The attributes the fixed-function front end reads (D3D semantic names). A missing component
// reads (0, 0, 0, 1); a position with three components gets w = 1.
enum class Semantic : uint32_t { POSITION = 0, COLOR = 1, TEXCOORD0 = 2, TEXCOORD1 = 3 };
constexpr uint32_t NUM_SEMANTICS = 4;
// Vertex buffer slots: slot 0 is per vertex (element = vertex index), slot 1 per instance
// (element = instance id, D3D11's INSTANCE_DATA with a step rate of 1).
constexpr uint32_t NUM_VERTEX_SLOTS = 2;

// One element of an input layout (D3D11_INPUT_ELEMENT_DESC): which attribute, its format, the
// vertex buffer slot it comes from and its byte offset in that buffer's element (a multiple of 4,
// at most 0xFFFF).
struct InputElement {
  Semantic semantic = Semantic::POSITION;
  VertexFormat format = VertexFormat::F32X3;
  uint32_t slot = 0;
  uint32_t offset = 0;
};

// A validated input layout (Device::create_input_layout): a small immutable value, copied by
// set_input_layout. An attribute the layout does not name is not fetched (its default is used).
class InputLayout {
 public:
  // The FE_ATTR_* register values: [2:0] format, [3] buffer 1, [31:16] byte offset.
  const std::array<uint32_t, NUM_SEMANTICS>& attr_words() const { return attr_; }
  bool has(Semantic s) const { return attr_[static_cast<uint32_t>(s)] != ATTR_FMT_NONE; }
  bool uses_slot(uint32_t slot) const;

 private:
  friend class Device;
  std::array<uint32_t, NUM_SEMANTICS> attr_{};
};

enum class IndexFormat : uint32_t { R16_UINT = 0, R32_UINT = 1 };
enum class PrimitiveTopology : uint32_t { TRIANGLE_LIST = 0, TRIANGLE_STRIP = 1 };
enum class CullMode : uint32_t { NONE = PA_CULL_NONE, FRONT = PA_CULL_FRONT, BACK = PA_CULL_BACK };

// D3D11_RASTERIZER_DESC's fixed-function part; the defaults are D3D11's.
struct RasterizerDesc {
  CullMode cull = CullMode::BACK;
  bool front_ccw = false;   // front faces are counter-clockwise on screen (D3D default: clockwise)
  bool depth_clip = true;   // clip against the near and far planes (0 <= z <= w)
};

// D3D11_VIEWPORT: pixels and the depth range. screen x = x + (clip.x / clip.w + 1) * width / 2,
// screen y = y + (1 - clip.y / clip.w) * height / 2, z = min_depth + clip.z / clip.w *
// (max_depth - min_depth).
struct Viewport {
  float x = 0, y = 0, width = 0, height = 0, min_depth = 0, max_depth = 1;
};

// The position transform, row-major: clip = M * (x, y, z, w) with the position as a column vector
// (so clip.x = m[0][0] * x + m[0][1] * y + m[0][2] * z + m[0][3] * w). A D3DX-style row-vector
// matrix (v * M) is passed transposed.
struct Matrix4 {
  float m[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  static Matrix4 identity() { return {}; }
};

// ---- Depth and stencil (docs/runtime.md "Depth and stencil", docs/depth.md) ---------------------

// D3D11_COMPARISON_FUNC and D3D11_STENCIL_OP, with D3D11's values (the hardware's CMP_* and SOP_*
// are these minus one).
enum class ComparisonFunc : uint32_t {
  NEVER = 1, LESS = 2, EQUAL = 3, LESS_EQUAL = 4, GREATER = 5, NOT_EQUAL = 6, GREATER_EQUAL = 7, ALWAYS = 8
};
enum class StencilOp : uint32_t { KEEP = 1, ZERO = 2, REPLACE = 3, INCR_SAT = 4, DECR_SAT = 5, INVERT = 6, INCR = 7, DECR = 8 };

// D3D11_DEPTH_STENCILOP_DESC.
struct DepthStencilOpDesc {
  StencilOp fail = StencilOp::KEEP;
  StencilOp depth_fail = StencilOp::KEEP;
  StencilOp pass = StencilOp::KEEP;
  ComparisonFunc func = ComparisonFunc::ALWAYS;
};

// D3D11_DEPTH_STENCIL_DESC (defaults are D3D11's), plus two Pineda switches.
struct DepthStencilDesc {
  bool depth_enable = true;
  bool depth_write = true;  // D3D11_DEPTH_WRITE_MASK_ALL (false: ZERO)
  ComparisonFunc depth_func = ComparisonFunc::LESS;
  bool stencil_enable = false;
  uint8_t stencil_read_mask = 0xFF;
  uint8_t stencil_write_mask = 0xFF;
  DepthStencilOpDesc front, back;
  bool late_z = false;  // FE_DEPTH.DEPTH_LATE: test after the pixel stage (same results)
  bool hiz = true;      // FE_DEPTH.DEPTH_HIZ: hierarchical Z may reject tiles (with the depth test on)
};

// A validated depth-stencil state (Device::create_depth_stencil_state): a small immutable value
// (like InputLayout), copied by set_depth_stencil_state. It holds the FE_DEPTH, FE_STENCIL (without
// the reference) and FE_STENCIL_OPS words.
class DepthStencilState {
 public:
  friend DepthStencilState encode_depth_stencil_state(const DepthStencilDesc& d);
  uint32_t depth_word() const { return depth_; }
  uint32_t stencil_word() const { return stencil_; }  // STENCIL_REF = 0
  uint32_t stencil_ops_word() const { return ops_; }

 private:
  friend class Device;
  friend class Context;
  uint32_t depth_ = 0, stencil_ = FE_STENCIL_RESET, ops_ = FE_STENCIL_OPS_RESET;
};
// The state words of a desc (the caller has validated it: Device::create_depth_stencil_state).
DepthStencilState encode_depth_stencil_state(const DepthStencilDesc& d);

// ---- Sampled textures (docs/runtime.md "Textures", docs/tex.md) ---------------------------------

// D3D11_TEXTURE2D_DESC for a texture the sampler reads: stored as a mip chain of 4x4 blocks
// (docs/tex.md section 2), not linearly like the render targets of TextureDesc, so it can only be
// bound through a shader-resource view and updated with update_subresource (not mapped).
enum TextureMiscFlags : uint32_t {
  TEX_MISC_NONE = 0,
  TEX_MISC_INIT_RGBA8 = 1,     // initial / update data are RGBA8 rows for every format (converted, BC-encoded)
  TEX_MISC_GENERATE_MIPS = 2,  // only level 0's data is given: levels 1.. are made on the host (stb_image_resize)
};
struct Texture2DDesc {
  uint32_t width = 0, height = 0;  // 1..TEX_MAX_DIM; BC formats: multiples of 4 (D3D's rule for level 0)
  uint32_t mip_levels = 1;         // 1..full chain; 0: the full chain (floor(log2(max(w, h))) + 1)
  TexFormat format = TexFormat::R8G8B8A8_UNORM;
  uint32_t bind = BIND_SHADER_RESOURCE;  // only BIND_SHADER_RESOURCE
  uint32_t misc = TEX_MISC_NONE;         // TextureMiscFlags
};
// D3D11_SUBRESOURCE_DATA: one mip level's data and the bytes between its rows (rows of texels,
// or rows of 4x4 blocks for BC data).
struct SubresourceData {
  const void* data = nullptr;
  uint32_t row_pitch = 0;
};
// D3D11_BOX without the depth: texels left <= x < right, top <= y < bottom of one level.
struct Box {
  uint32_t left = 0, top = 0, right = 0, bottom = 0;
};
// D3D11_TEX2D_SRV: levels [most_detailed_mip, most_detailed_mip + mip_levels) of the texture;
// mip_levels UINT32_MAX (D3D's -1): every level from most_detailed_mip on.
struct ShaderResourceViewDesc {
  uint32_t most_detailed_mip = 0;
  uint32_t mip_levels = UINT32_MAX;
};
// D3D11_FILTER (values as D3D11's): bit 0 mip linear, bit 2 mag linear, bit 4 min linear. The
// anisotropic and comparison filters are NOT_SUPPORTED.
enum class Filter : uint32_t {
  MIN_MAG_MIP_POINT = 0x00, MIN_MAG_POINT_MIP_LINEAR = 0x01, MIN_POINT_MAG_LINEAR_MIP_POINT = 0x04,
  MIN_POINT_MAG_MIP_LINEAR = 0x05, MIN_LINEAR_MAG_MIP_POINT = 0x10, MIN_LINEAR_MAG_POINT_MIP_LINEAR = 0x11,
  MIN_MAG_LINEAR_MIP_POINT = 0x14, MIN_MAG_MIP_LINEAR = 0x15, ANISOTROPIC = 0x55,
  COMPARISON_MIN_MAG_MIP_POINT = 0x80, COMPARISON_MIN_MAG_MIP_LINEAR = 0x95, COMPARISON_ANISOTROPIC = 0xD5,
};
// D3D11_TEXTURE_ADDRESS_MODE (the hardware's TEX_ADDR_* are these minus one).
enum class TextureAddressMode : uint32_t { WRAP = 1, MIRROR = 2, CLAMP = 3, BORDER = 4, MIRROR_ONCE = 5 };
// D3D11_SAMPLER_DESC, D3D11's defaults. address_w is validated and ignored (2D textures);
// comparison_func must be NEVER unless a comparison filter is used (NOT_SUPPORTED anyway).
struct SamplerDesc {
  Filter filter = Filter::MIN_MAG_MIP_LINEAR;
  TextureAddressMode address_u = TextureAddressMode::CLAMP;
  TextureAddressMode address_v = TextureAddressMode::CLAMP;
  TextureAddressMode address_w = TextureAddressMode::CLAMP;
  float mip_lod_bias = 0.0f;      // [-16, 15.99] (D3D11_MIP_LOD_BIAS_MIN/MAX), stored as signed 8.8
  uint32_t max_anisotropy = 1;    // 1..16 (only meaningful for ANISOTROPIC)
  ComparisonFunc comparison_func = ComparisonFunc::NEVER;
  float border_color[4] = {1.0f, 1.0f, 1.0f, 1.0f};  // RGBA, stored as UNORM8 (float_to_unorm8)
  float min_lod = -3.402823466e+38f;  // min_lod <= max_lod; stored clamped to [0, 4095/256] in 4.8
  float max_lod = 3.402823466e+38f;
};

// A shader-resource view (Device::create_shader_resource_view) of a sampled texture: its texture
// descriptor (tex_desc_t, docs/tex.md section 3) lives in 32 bytes of GPU memory written at
// creation. The view holds a reference on the texture; binding it holds references on the texture
// and the descriptor, so release() may come while the GPU still uses them (deferred destruction).
class ShaderResourceView {
 public:
  Resource* resource() const { return tex_; }
  uint32_t most_detailed_mip() const { return first_; }
  uint32_t mip_levels() const { return count_; }
  const TexDesc& descriptor() const { return desc_; }
  uint32_t descriptor_address() const { return mem_->gpu_address(); }
  void add_ref() { refs_.fetch_add(1); }
  void release();

 private:
  friend class Device;
  friend class Context;
  ShaderResourceView() = default;
  Resource* tex_ = nullptr;
  Resource* mem_ = nullptr;  // 32-byte buffer holding desc_
  uint32_t first_ = 0, count_ = 0;
  TexDesc desc_;
  std::atomic<int> refs_{1};
};

// A sampler state (Device::create_sampler_state): its sampler descriptor (samp_desc_t) lives in
// 32 bytes of GPU memory written at creation; lifetime as ShaderResourceView.
class SamplerState {
 public:
  const SampDesc& descriptor() const { return desc_; }
  uint32_t descriptor_address() const { return mem_->gpu_address(); }
  void add_ref() { refs_.fetch_add(1); }
  void release();

 private:
  friend class Device;
  friend class Context;
  SamplerState() = default;
  Resource* mem_ = nullptr;
  SampDesc desc_;
  std::atomic<int> refs_{1};
};
// The samp_desc_t of a sampler desc (the caller has validated it: Device::create_sampler_state).
SampDesc encode_sampler_desc(const SamplerDesc& d);

// ---- Blending (docs/om.md) ----------------------------------------------------------------------

// D3D11_BLEND and D3D11_BLEND_OP, with D3D11's values (the hardware's BF_* and BOP_* are these
// minus one). The dual-source factors (SRC1_*) are not supported.
enum class Blend : uint32_t {
  ZERO = 1, ONE = 2, SRC_COLOR = 3, INV_SRC_COLOR = 4, SRC_ALPHA = 5, INV_SRC_ALPHA = 6, DEST_ALPHA = 7,
  INV_DEST_ALPHA = 8, DEST_COLOR = 9, INV_DEST_COLOR = 10, SRC_ALPHA_SAT = 11, BLEND_FACTOR = 14,
  INV_BLEND_FACTOR = 15, SRC1_COLOR = 16, INV_SRC1_COLOR = 17, SRC1_ALPHA = 18, INV_SRC1_ALPHA = 19
};
enum class BlendOp : uint32_t { ADD = 1, SUBTRACT = 2, REV_SUBTRACT = 3, MIN = 4, MAX = 5 };
// D3D11_LOGIC_OP (D3D11.1), with D3D's values (= the hardware's LOP_*): s the source encoded for
// the target, d the stored pixel.
enum class LogicOp : uint32_t {
  CLEAR = 0, SET = 1, COPY = 2, COPY_INVERTED = 3, NOOP = 4, INVERT = 5, AND = 6, NAND = 7, OR = 8, NOR = 9,
  XOR = 10, EQUIV = 11, AND_REVERSE = 12, AND_INVERTED = 13, OR_REVERSE = 14, OR_INVERTED = 15
};
// D3D11_COLOR_WRITE_ENABLE.
enum ColorWriteEnable : uint8_t {
  COLOR_WRITE_ENABLE_RED = 1, COLOR_WRITE_ENABLE_GREEN = 2, COLOR_WRITE_ENABLE_BLUE = 4,
  COLOR_WRITE_ENABLE_ALPHA = 8, COLOR_WRITE_ENABLE_ALL = 15
};
// D3D11_RENDER_TARGET_BLEND_DESC (defaults are D3D11's).
struct RenderTargetBlendDesc {
  bool blend_enable = false;
  Blend src_blend = Blend::ONE;
  Blend dest_blend = Blend::ZERO;
  BlendOp blend_op = BlendOp::ADD;
  Blend src_blend_alpha = Blend::ONE;
  Blend dest_blend_alpha = Blend::ZERO;
  BlendOp blend_op_alpha = BlendOp::ADD;
  uint8_t render_target_write_mask = COLOR_WRITE_ENABLE_ALL;
  // D3D11_RENDER_TARGET_BLEND_DESC1 (D3D11.1): a logic op instead of blending (not both); UNORM
  // targets only (a draw to an sRGB target with a logic op fails).
  bool logic_op_enable = false;
  LogicOp logic_op = LogicOp::NOOP;
};
// D3D11_BLEND_DESC1 for Pineda's one render target. Alpha to coverage (docs/comb.md section 3b):
// 4x targets keep n = round(4 * alpha) of the pixel's samples in a fixed pattern; 1x targets
// keep the pixel when alpha >= 128/255.
struct BlendDesc {
  bool alpha_to_coverage_enable = false;
  RenderTargetBlendDesc render_target;
};
// A validated blend state (Device::create_blend_state): the FE_BLEND and FE_LOGIC_OP words and
// FE_COMBINE.COMB_ALPHA_TO_COVERAGE.
class BlendState {
 public:
  friend BlendState encode_blend_state(const BlendDesc& d);
  uint32_t word() const { return word_; }              // FE_BLEND
  uint32_t logic_word() const { return logic_word_; }  // FE_LOGIC_OP
  bool alpha_to_coverage() const { return a2c_; }
  bool is_default() const { return word_ == FE_BLEND_RESET && logic_word_ == 0 && !a2c_; }

 private:
  uint32_t word_ = FE_BLEND_RESET;
  uint32_t logic_word_ = 0;  // FE_LOGIC_OP reset: off
  bool a2c_ = false;
};
// The FE_BLEND word of a desc (the caller has validated it: Device::create_blend_state).
BlendState encode_blend_state(const BlendDesc& d);
// A float in [0, 1] as UNORM8 (clamped, NaN 0; round to nearest, as D3D's FLOAT -> UNORM).
uint32_t float_to_unorm8(float v);

// A depth-stencil view (Device::create_depth_stencil_view) of a D24_UNORM_S8_UINT texture created
// with BIND_DEPTH_STENCIL. A small value that names the texture; it holds no reference (binding it
// does, like binding the texture).
class DepthStencilView {
 public:
  Resource* resource() const { return res_; }

 private:
  friend class Device;
  Resource* res_ = nullptr;
};

// ClearDepthStencilView flags (D3D11_CLEAR_FLAG).
enum ClearFlags : uint32_t { CLEAR_FLAG_DEPTH = 1, CLEAR_FLAG_STENCIL = 2 };

// A rectangle of pixels, half-open (D3D11_RECT): x0 <= x < x1, y0 <= y < y1.
struct ClearRect {
  uint32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// D24 UNORM of a depth in [0, 1] (clamped; NaN is 0): round(depth * DEPTH_MAX), ties away from 0.
uint32_t depth_to_d24(float depth);

struct VertexBufferBinding {
  Resource* buffer = nullptr;
  uint32_t stride = 0;   // bytes between elements (a multiple of 4, at most 0xFFFF; 0: every element the same)
  uint32_t offset = 0;   // byte offset of element 0 (a multiple of 4, inside the buffer)
};

// ---- Texture combiner and alpha test (docs/comb.md, docs/runtime.md "Combiner and alpha test") --

// D3D9's texture-stage operation (D3DTSS_COLOROP with the matching ALPHAOP), the subset the
// combiner implements: DISABLE (the stage passes its colour), MODULATE (texel x colour),
// SELECTARG1 with D3DTA_TEXTURE (REPLACE), ADD (rgb sum saturated, alpha modulated) and
// BLENDTEXTUREALPHA with the colour's alpha (DECAL).
enum class TextureCombine : uint32_t { DISABLE = 0, MODULATE = 1, REPLACE = 2, ADD = 3, DECAL = 4 };

// The pixel stage's texture slots: slot s feeds combiner stage s (docs/comb.md): slot 0 is
// sampled with uv0 (TEXCOORD0), slot 1 with uv1 (TEXCOORD1).
constexpr uint32_t NUM_TEXTURE_SLOTS = 2;

// The FE_COMBINE word of the two stages' operations and the alpha test (D3DRS_ALPHATESTENABLE,
// D3DRS_ALPHAFUNC with D3D11 ComparisonFunc values, D3DRS_ALPHAREF). As in D3D9, a DISABLE
// stage 0 disables stage 1 too: stage 1 is on only when both ops are not DISABLE (stage1_on).
struct CombineState {
  TextureCombine op = TextureCombine::DISABLE;   // stage 0: texel0 with the colour
  TextureCombine op1 = TextureCombine::DISABLE;  // stage 1: texel1 with stage 0's result
  bool alpha_test = false;
  uint32_t alpha_func = 8;  // ComparisonFunc value (D3D11: the hardware CMP_* + 1); 8 = ALWAYS
  uint32_t alpha_ref = 0;
  bool stage1_on() const { return op != TextureCombine::DISABLE && op1 != TextureCombine::DISABLE; }
  uint32_t word() const;  // FE_COMBINE
};

// The state a context binds; turned into SET_STATE at Draw.
struct ApiState {
  // Pre-transformed draws (draw_pretransformed: 16.8 screen-space vertices, OP_DRAW).
  Resource* pt_vb = nullptr;
  uint32_t pt_vb_offset = 0;
  uint32_t color = 0;
  // Shared by both kinds of draw.
  Resource* rt = nullptr;
  Resource* ds = nullptr;  // the depth-stencil view's texture (front-end draws only)
  DepthStencilState ds_state = encode_depth_stencil_state(DepthStencilDesc{});  // D3D11's default state
  uint32_t stencil_ref = 0;
  BlendState blend;                    // D3D11's default: off, all channels written
  uint32_t blend_factor = 0xFFFFFFFFu;  // RGBA8 (1, 1, 1, 1)
  bool gouraud = false;                // FE_SHADE.SHADE_GOURAUD (front-end draws; docs/interp.md)
  uint32_t scissor_x = ST_SCISSOR_X_RESET, scissor_y = ST_SCISSOR_Y_RESET;
  // The geometry front end (draw, draw_indexed, draw_instanced, draw_indexed_instanced: OP_DRAW_FE).
  InputLayout layout;
  bool layout_set = false;
  std::array<VertexBufferBinding, NUM_VERTEX_SLOTS> vbs{};
  Resource* ib = nullptr;
  IndexFormat ib_format = IndexFormat::R16_UINT;
  uint32_t ib_offset = 0;
  PrimitiveTopology topology = PrimitiveTopology::TRIANGLE_LIST;
  bool strip_restart = false;
  Matrix4 transform;
  Viewport viewport;
  RasterizerDesc raster;
  // The pixel stage's texture slots 0 (FE_TEX0, FE_SAMP0) and 1 (FE_TEX1, FE_SAMP1): the view's
  // texture and descriptor buffer, the sampler's descriptor buffer (one reference each while
  // bound), indexed by slot.
  std::array<Resource*, NUM_TEXTURE_SLOTS> srv_tex{};
  std::array<Resource*, NUM_TEXTURE_SLOTS> srv_desc{};
  std::array<Resource*, NUM_TEXTURE_SLOTS> samp_desc{};
  CombineState combine;  // FE_COMBINE (front-end draws)
};

// Every SET_STATE index the runtime shadows: the pre-transformed path's ST_* state [0, NUM_STATE) and the front-end
// state [NUM_STATE, FE_STATE_END).
using HwState = std::array<uint32_t, FE_STATE_END>;
using StateMask = std::bitset<FE_STATE_END>;  // bit i: SET_STATE index i

// Shared by immediate and deferred contexts: state setters, draw encoding.
class Context {
 public:
  virtual ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  // ---- state shared by both kinds of draw
  // OMSetRenderTargets with no depth-stencil view (one bound before is unbound).
  Result set_render_target(Resource* rt);
  // OMSetRenderTargets: a render target and a depth-stencil view (null: none). Both bound must
  // have the same width, height and sample count. The depth-stencil view is used by front-end
  // draws (draw*): pre-transformed draws have no depth.
  Result set_render_targets(Resource* rt, const DepthStencilView* dsv);
  // OMSetDepthStencilState: null sets D3D11's default state (depth test LESS with writes, no
  // stencil). Depth and stencil only act while a depth-stencil view is bound.
  Result set_depth_stencil_state(const DepthStencilState* state, uint32_t stencil_ref);
  // OMSetBlendState: null sets D3D11's default (no blending, all channels); a null factor is
  // (1, 1, 1, 1) (stored as RGBA8); the sample mask must be 0xFFFFFFFF (others: not supported).
  // Blending acts on front-end draws (draw*); a pre-transformed draw with a non-default blend
  // state fails (OP_DRAW carries no output-merger state).
  Result set_blend_state(const BlendState* state, const float* blend_factor = nullptr,
                         uint32_t sample_mask = 0xFFFFFFFFu);
  // The blend constant alone (Pineda extension): RGBA8, R in [7:0].
  void set_blend_factor(uint32_t rgba8) { api_.blend_factor = rgba8; }
  // Colour shading of front-end draws (FE_SHADE): false = flat, the first vertex's colour (the
  // reset state); true = Gouraud, the vertex colours interpolated perspective-correct.
  void set_gouraud(bool on) { api_.gouraud = on; }
  // ClearRenderTargetView (an OP_CLEAR of the whole target) and D3D11.1's ClearView with one
  // rectangle (clipped to the target; an empty one clears nothing). RGBA8 value.
  Result clear_render_target_view(Resource* rt, uint32_t rgba8);
  Result clear_view(Resource* rt, uint32_t rgba8, const ClearRect& rect);
  // ClearDepthStencilView: CLEAR_FLAG_DEPTH and/or CLEAR_FLAG_STENCIL (not 0), the depth (in [0, 1],
  // stored as depth_to_d24) and the stencil value; optionally only a rectangle (Pineda extension).
  Result clear_depth_stencil_view(const DepthStencilView& dsv, uint32_t flags, float depth, uint8_t stencil);
  Result clear_depth_stencil_rect(const DepthStencilView& dsv, uint32_t flags, float depth, uint8_t stencil,
                                  const ClearRect& rect);
  // Pixels x0 <= x < x1, y0 <= y < y1 (clipped to the target by the hardware).
  Result set_scissor(uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1);
  void clear_state();  // everything unbound, defaults (the device-creation state)

  // ---- the geometry front end (D3D11's IA, RS and a fixed-function vertex transform)
  // IASetInputLayout: `layout` comes from Device::create_input_layout.
  void set_input_layout(const InputLayout& layout);
  // IASetVertexBuffers: slots [start_slot, start_slot + count) of NUM_VERTEX_SLOTS; a null buffer
  // unbinds its slot. The hardware sees the range [offset, size) of each buffer: elements whose
  // attribute reaches past it read 0 (the D3D10 rule).
  Result set_vertex_buffers(uint32_t start_slot, uint32_t count, Resource* const* buffers, const uint32_t* strides,
                            const uint32_t* offsets);
  Result set_vertex_buffer(uint32_t slot, Resource* vb, uint32_t stride, uint32_t offset = 0);
  // IASetIndexBuffer: indices from byte `offset` (a multiple of the index size); indices at or past
  // the end of the buffer read 0. Null unbinds.
  Result set_index_buffer(Resource* ib, IndexFormat format, uint32_t offset = 0);
  // IASetPrimitiveTopology. With `strip_restart`, the index 0xFFFF (R16) or 0xFFFFFFFF (R32) of an
  // indexed strip starts a new strip (D3D12's IBStripCutValue); lists never cut (the flag is
  // accepted and has no effect there).
  Result set_primitive_topology(PrimitiveTopology topology, bool strip_restart = false);
  // The position transform (object space to clip space), for the draws that follow.
  void set_transform(const Matrix4& m) { api_.transform = m; }
  // RSSetViewports (one viewport): finite values, width and height >= 0, inside D3D11's viewport
  // bounds [-32768, 32767], depths in [0, 1].
  Result set_viewport(const Viewport& vp);
  // RSSetState.
  Result set_rasterizer_state(const RasterizerDesc& desc);
  // D3D11 draws through the front end: vertex indices start_vertex + k (non-indexed) or the index
  // buffer's values at start_index + k plus base_vertex (indexed), for instances start_instance +
  // i, i < instance_count. A render target, an input layout with a POSITION element, a vertex
  // buffer in every slot the layout reads and, for indexed draws, an index buffer must be bound.
  Result draw(uint32_t vertex_count, uint32_t start_vertex);
  Result draw_instanced(uint32_t vertex_count_per_instance, uint32_t instance_count, uint32_t start_vertex,
                        uint32_t start_instance);
  Result draw_indexed(uint32_t index_count, uint32_t start_index, int32_t base_vertex);
  Result draw_indexed_instanced(uint32_t index_count_per_instance, uint32_t instance_count, uint32_t start_index,
                                int32_t base_vertex, uint32_t start_instance);

  // ---- textures of the pixel stage (docs/runtime.md "Textures")
  // PSSetShaderResources / PSSetSamplers for one slot, 0 or 1 (NUM_TEXTURE_SLOTS; others
  // INVALID_ARG); null unbinds. Slot s is combiner stage s's texture: front-end draws write
  // FE_TEX0 / FE_SAMP0 (slot 0) and FE_TEX1 / FE_SAMP1 (slot 1) with the descriptors' addresses.
  Result set_shader_resource(uint32_t slot, ShaderResourceView* view);
  Result set_sampler(uint32_t slot, SamplerState* sampler);
  // UpdateSubresource of mip level `level` of a sampled texture: the whole level (box null) or a
  // box of whole 4x4 blocks (left, top multiples of 4; right, bottom multiples of 4 or the level's
  // edge). `data`/`row_pitch` as Texture2DDesc's initial data (RGBA8 rows when the texture was
  // created with TEX_MISC_INIT_RGBA8). The blocks go through a staging buffer and one DMA COPY
  // per block row, in order with the draws around it.
  Result update_subresource(Resource* tex, uint32_t level, const Box* box, const void* data, uint32_t row_pitch);
  // D3D9's SetTextureStageState(stage, COLOROP/ALPHAOP): how texture stage `stage` (0 or 1)
  // combines its texel with its colour (docs/comb.md): stage 0 the texel of slot 0 (uv0) with
  // the pixel's colour, stage 1 the texel of slot 1 (uv1) with stage 0's result. As in D3D9, a
  // DISABLE stage 0 disables stage 1 as well (its op is kept for when stage 0 is on again).
  // Other stages and unknown ops are INVALID_ARG. A front-end draw with stage s on needs a view
  // and a sampler bound in slot s, and with stage 1 on an input layout with a TEXCOORD1 element
  // (INVALID_CALL otherwise).
  Result set_texture_combine(uint32_t stage, TextureCombine op);
  // D3D9's D3DRS_ALPHATESTENABLE, D3DRS_ALPHAFUNC, D3DRS_ALPHAREF: a pixel whose combined alpha
  // fails (alpha FUNC ref) is killed; depth and stencil then run late (docs/comb.md). `ref` is
  // UNORM8 (0..255); a function outside ComparisonFunc or a larger ref is INVALID_ARG.
  Result set_alpha_test(bool enable, ComparisonFunc func = ComparisonFunc::ALWAYS, uint32_t ref = 0);

  // ---- pre-transformed draws (D3D9's XYZRHW vertices): int32 16.8 screen-space x, y, snapped
  // Vertex buffer of 8-byte vertices (VERTEX_BYTES) read by draw_pretransformed, from `offset`.
  Result set_pretransformed_vertex_buffer(Resource* vb, uint32_t offset = 0);
  void set_color(uint32_t rgba8) { api_.color = rgba8; }  // the flat colour of pre-transformed draws
  // Triangle list of `vertex_count` vertices from `first_vertex` of that buffer (OP_DRAW).
  Result draw_pretransformed(uint32_t vertex_count, uint32_t first_vertex);

  // A DMA copy (COPY) of `bytes` bytes from `src` at byte `src_offset` to `dst` at `dst_offset`,
  // any alignment (D3D12's CopyBufferRegion; textures are linear, row y at y * pitch). It runs
  // after every earlier draw has finished and before any later command. The ranges must lie
  // inside the resources and must not overlap.
  Result copy_region(Resource* dst, uint32_t dst_offset, Resource* src, uint32_t src_offset, uint32_t bytes);
  // CopyResource: the whole of `src` into `dst` (same size).
  Result copy_resource(Resource* dst, Resource* src);
  // ResolveSubresource (docs/om.md section 7): `src`, a 4x MSAA render target, averaged into
  // `dst`, a 1x render target of the same size, by the GPU's resolve engine (OP_RESOLVE), after
  // every earlier draw and before any later command. Render targets have one subresource (0).
  // `format` must be the format of both (R8G8B8A8_UNORM, B8G8R8A8_UNORM, R8G8B8A8_UNORM_SRGB,
  // averaged in linear space as D3D does, or B5G6R5_UNORM); anything else is INVALID_ARG with a
  // message, a mapped resource INVALID_CALL.
  Result resolve_subresource(Resource* dst, uint32_t dst_subresource, Resource* src, uint32_t src_subresource,
                             Format format);
  // The GPU writes `value` to the fence (WRITE_REG): END_OF_PIPE once every earlier draw has
  // finished (D3D11.4 Signal), TOP_OF_PIPE as soon as the CP reaches it. A fence created with
  // `interrupt` also raises an INTERRUPT whose payload is its register index.
  Result signal(Fence* fence, uint64_t value, SignalStage stage = SignalStage::END_OF_PIPE);
  // The GPU waits until the fence has reached `value` (WAIT_REG, wrap-safe >=; D3D11.4 Wait). A
  // later CPU wait on work behind it (Map, wait_idle) waits until somebody signals the fence.
  Result wait(Fence* fence, uint64_t value);
  // A debug marker (D3D11.1 SetMarker): a NOP whose payload holds the text (at most 4095 dwords).
  Result set_marker(const std::string& text);
  // The message of the last call that did not return OK.
  const std::string& last_error() const { return err_; }
  const ApiState& state() const { return api_; }

 protected:
  explicit Context(Device& dev);
  Result fail(Result r, std::string msg);
  void bind(Resource*& slot, Resource* r);
  // The GPU address the next draw uses for `r` (deferred contexts: storage renamed in the list).
  virtual uint32_t address_of(Resource* r) { return r->gpu_address(); }
  virtual bool ensure_space(size_t dwords) = 0;  // before encoding (immediate: may flush)
  // A SET_STATE of indices [first, last] was recorded with its header at dword `pos`.
  virtual void on_state_emitted(size_t /*pos*/, uint32_t /*first*/, uint32_t /*last*/) {}
  // Dword `pos` of the recording holds address_of(r) + offset (deferred: patched at execution).
  virtual void on_address(size_t /*pos*/, Resource* /*r*/, uint32_t /*offset*/) {}
  virtual void on_use(Resource* r, bool write) = 0;  // fence/usage bookkeeping
  virtual void on_fence(Fence* f, uint64_t value) = 0;
  virtual bool recording_dropped() const { return false; }
  // `r` is mapped where this context can tell at record time (immediate: Map on the device;
  // deferred: its own Map, not yet unmapped); a draw using it is refused (docs/runtime.md "Map").
  virtual bool mapped_at_record(Resource* r) = 0;
  // INVALID_CALL naming the first resource the draw reads or writes that is mapped; else OK.
  Result check_draw_unmapped(const std::string& what, bool front_end, bool indexed);
  // Room for `dwords` more dwords: true to encode; false with *r = OK (a deferred context that
  // ran out of memory records nothing but accepts the call) or DEVICE_LOST.
  bool reserve(size_t dwords, Result* r);
  // Pre-transformed draw: one SET_STATE covering the ST_* registers that differ from the hardware's.
  void emit_pretransformed_state();
  // The state a front-end draw needs, `desired` at the indices of `used`: one SET_STATE per run of
  // registers that differ from (or are not known to be) what the hardware holds.
  size_t state_dwords(const HwState& desired, const StateMask& used) const;
  void emit_state_runs(const HwState& desired, const StateMask& used);
  // One SET_STATE of desired[first..last]; the hardware holds them from now on.
  void emit_state_run(const HwState& desired, uint32_t first, uint32_t last);
  Result draw_fe(const char* what, bool indexed, uint32_t first, uint32_t count, uint32_t base_vertex,
                 uint32_t instance_count, uint32_t start_instance);
  // SET_STATE of the state registers to their reset values before a command list: the ST_*
  // registers always, front-end registers where the hardware may hold something else.
  size_t reset_state_dwords() const;
  void emit_reset_state();
  // After a command list that wrote the registers of `written` (and the ST_* registers, always).
  void forget_state(const StateMask& written);
  Result check_copy(Resource* dst, uint32_t dst_offset, Resource* src, uint32_t src_offset, uint32_t bytes);
  // A CLEAR's rectangle in its own units (4-byte pixels; 16-byte ones when msaa), clipped.
  struct ClearUnits {
    uint32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool msaa = false;
  };
  static ClearUnits clear_units(const Resource* r, const ClearRect& rect);  // pixels clipped to r
  // One OP_CLEAR of `r` over `u`, `flags` = CLEAR_COLOR or CLEAR_DEPTH | CLEAR_STENCIL bits.
  Result encode_clear(const char* what, Resource* r, uint32_t flags, uint32_t value, const ClearUnits& u);
  Result check_fence(Fence* f, const char* what);
  static HwState default_hw_state();

  Device& dev_;
  ApiState api_;
  CommandWriter cw_;
  HwState hw_{};            // what the hardware holds after the recorded commands
  StateMask known_ = StateMask().set();  // bit i: hw_[i] is known
  StateMask written_;                    // bit i: register i written by SET_STATE since the recording began (lists)
  std::string err_;
};

class ImmediateContext : public Context {
 public:
  ~ImmediateContext() override;
  // Closes the open command buffer with an end-of-pipe fence and submits it; processes deferred
  // destruction (also when there is nothing to submit).
  Result flush();
  // Flushes, then waits until the GPU has finished everything submitted.
  Result wait_idle();
  Result map(Resource* r, MapType type, uint32_t flags, Mapped* out);
  Result unmap(Resource* r);
  // Runs `list` (as a CALL when the hardware has one, else copied into the ring). Hardware state
  // is reset to the device-creation state before it; afterwards the context's state is restored
  // (restore_state) or cleared to defaults.
  Result execute_command_list(CommandList* list, bool restore_state);
  // The fence number the open command buffer will signal.
  uint64_t open_fence() const;
  size_t open_dwords() const { return cw_.dwords().size(); }

 private:
  friend class Device;
  explicit ImmediateContext(Device& dev);
  bool ensure_space(size_t dwords) override;
  void on_use(Resource* r, bool write) override;
  void on_fence(Fence* f, uint64_t value) override;
  bool mapped_at_record(Resource* r) override;
  // A resource `list` or a list it calls uses that is mapped, or nullptr (device lock held).
  static const Resource* mapped_use_locked(const CommandList* list);
  Result flush_impl(bool process_retire);
  // Stamps the resources and fences of `list` and of the lists it runs with fence `f`.
  void stamp_list(CommandList* list, uint64_t f);
  // Uploads `list` (and first the lists it CALLs) with its patches resolved now.
  Result upload_list_locked(std::unique_lock<std::mutex>& lk, CommandList* list);
  std::vector<uint32_t> patched_dwords(const CommandList& list) const;
};

class DeferredContext : public Context {
 public:
  ~DeferredContext() override;
  // Only WRITE_DISCARD and WRITE_NO_OVERWRITE (the latter after a DISCARD of the same resource
  // in this list). Data goes to storage owned by the command list.
  Result map(Resource* r, MapType type, uint32_t flags, Mapped* out);
  Result unmap(Resource* r);
  // Produces an immutable command list (or OUT_OF_MEMORY if recording ran out of memory, in which
  // case *out is null). The context starts a new, empty list either way; restore_state keeps its
  // bound state, else it is cleared.
  Result finish_command_list(bool restore_state, CommandList** out);
  // Records `list` into the one being recorded (D3D11 allows ExecuteCommandList on a deferred
  // context): as a nested CALL when the hardware has CALL and the nesting fits the return stack,
  // else its commands are copied in. State is reset before it and restored or cleared after, as
  // on the immediate context. The recording holds a reference to `list`.
  Result execute_command_list(CommandList* list, bool restore_state);
  bool out_of_memory() const { return oom_; }

 private:
  friend class Device;
  DeferredContext(Device& dev, const DeferredContextDesc& desc);
  bool ensure_space(size_t dwords) override;
  void on_state_emitted(size_t pos, uint32_t first, uint32_t last) override;
  void on_address(size_t pos, Resource* r, uint32_t offset) override;
  void on_use(Resource* r, bool write) override;
  void on_fence(Fence* f, uint64_t value) override;
  bool renamed_in_list(const Resource* r) const;
  uint32_t address_of(Resource* r) override;
  bool recording_dropped() const override { return oom_; }
  bool mapped_at_record(Resource* r) override;
  void set_oom(const std::string& why);
  void begin_list();

  DeferredContextDesc desc_;
  CommandList* list_ = nullptr;  // being recorded
  bool oom_ = false;
  std::string oom_msg_;
  std::vector<uint8_t> scratch_;  // Map target after out-of-memory (contents dropped)
  std::unordered_map<Resource*, size_t> use_idx_;  // resource -> index in list_->uses_
  size_t tail_call_pos_ = SIZE_MAX;  // position of the last nested CALL recorded
};

// An immutable recording. Release it with release(); it is recycled (small) or freed once the
// GPU has finished its last execution.
class CommandList {
 public:
  void release();
  size_t size_bytes() const { return dwords_.size() * 4; }
  const std::vector<uint32_t>& dwords() const { return dwords_; }
  uint64_t executions() const { return executions_; }
  // CALL levels an execution needs: 1, plus the deepest list it CALLs.
  uint32_t call_depth() const { return depth_; }

 private:
  friend class Device;
  friend class ImmediateContext;
  friend class DeferredContext;
  CommandList() = default;
  struct Patch {  // dword `pos` holds res's address + offset at execution, or list's GPU copy
    uint32_t pos;
    Resource* res;
    uint32_t offset;
    CommandList* list;  // non-null: the address of this nested list's uploaded commands
  };
  struct Use {
    Resource* res;
    bool write;
  };
  struct Owned {  // storage of a resource renamed by a deferred DISCARD
    Resource* res;
    Allocation alloc;
    std::vector<uint8_t> shadow;
    bool mapped = false;
  };
  void reset();

  Device* dev_ = nullptr;
  std::vector<uint32_t> dwords_;
  std::vector<Patch> patches_;
  std::vector<Use> uses_;          // one reference held on each
  std::vector<Owned> owned_;
  // In execution order: the storage each DISCARD (this list's and its nested lists') leaves a
  // resource with. At execution the last one per resource becomes its current allocation.
  std::vector<std::pair<Resource*, Allocation>> renames_;
  std::vector<CommandList*> nested_;  // lists this one runs (CALLed or copied in), one reference each
  std::vector<Fence*> fences_;        // fences it signals or waits on, one reference each
  std::atomic<int> refs_{1};
  uint32_t depth_ = 1;
  StateMask state_written_;        // SET_STATE indices it (or a list it runs) writes
  Allocation gpu_copy_;            // uploaded dwords for CALL
  std::vector<uint32_t> uploaded_; // patched dwords in gpu_copy_
  uint64_t last_use_ = 0;          // fence of the last execution
  uint64_t executions_ = 0;
};

class Device {
 public:
  Device(Backend& backend, const DeviceDesc& desc = {});
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  Result create_buffer(const BufferDesc& desc, const void* init, Resource** out);
  Result create_texture2d(const TextureDesc& desc, const void* init, Resource** out);
  // CreateTexture2D of a sampled texture (docs/runtime.md "Textures"). `init`: null (zeros), or
  // one SubresourceData per level (level 0 only with TEX_MISC_GENERATE_MIPS).
  Result create_texture2d(const Texture2DDesc& desc, const SubresourceData* init, Resource** out);
  // A sampled texture from an image file (stb_image, as RGBA8) with a full host-generated mip
  // chain (mip_levels 0) or `mip_levels` levels, in `format` (BC formats encoded with stb_dxt).
  Result create_texture2d_from_file(const std::string& path, TexFormat format, uint32_t mip_levels, Resource** out);
  // CreateShaderResourceView: a sampled texture and a level range inside its chain (null desc:
  // every level).
  Result create_shader_resource_view(Resource* tex, const ShaderResourceViewDesc* desc, ShaderResourceView** out);
  // CreateSamplerState: D3D11's validation (filter, address modes, LOD bias range, anisotropy,
  // finite LODs with min <= max); anisotropic and comparison filters are NOT_SUPPORTED.
  Result create_sampler_state(const SamplerDesc& desc, SamplerState** out);
  Result create_deferred_context(const DeferredContextDesc& desc, std::unique_ptr<DeferredContext>* out);
  // CreateInputLayout: at most one element per semantic, a valid format, slot 0 or 1, an offset
  // that is a multiple of 4 and at most 0xFFFF.
  Result create_input_layout(const InputElement* elements, uint32_t count, InputLayout* out);
  Result create_input_layout(const std::vector<InputElement>& elements, InputLayout* out) {
    return create_input_layout(elements.data(), static_cast<uint32_t>(elements.size()), out);
  }
  // CreateDepthStencilState: valid functions and operations.
  Result create_depth_stencil_state(const DepthStencilDesc& desc, DepthStencilState* out);
  // CreateBlendState(1): D3D11's factors and ops; no dual-source factors, no *_COLOR factor for
  // alpha, write mask <= 15, a LogicOp value <= 15, not blending and a logic op together (D3D11.1's
  // rule) (each an INVALID_ARG with a message). Alpha to coverage is taken.
  Result create_blend_state(const BlendDesc& desc, BlendState* out);
  // CreateDepthStencilView: `tex` must be a live D24_UNORM_S8_UINT texture created with
  // BIND_DEPTH_STENCIL (a depth view of a colour texture is INVALID_ARG).
  Result create_depth_stencil_view(Resource* tex, DepthStencilView* out);
  // A user fence in a free FENCE register (host-written with the initial value). OUT_OF_MEMORY
  // when all 15 registers besides the Device's own are taken (or still retiring).
  Result create_fence(const FenceDesc& desc, Fence** out);
  ImmediateContext& immediate() { return *imm_; }

  uint64_t completed_fence();  // polls the backend
  uint64_t flushed_fence() const;
  uint64_t submitted_fence() const;
  // Waits until `fence` has completed (it must have been flushed). DEVICE_LOST on timeout.
  Result wait_fence(uint64_t fence);
  bool lost() const { return lost_.load(); }
  std::string last_error() const;
  DeviceStats stats() const;
  // Test hooks: the next `n` GPU allocations fail (out of memory).
  void inject_allocation_failures(int n);
  uint64_t heap_bytes_free() const;
  bool hardware_call() const { return call_; }  // ExecuteCommandList as CALL (ID >= v2 and use_call)
  const DeviceDesc& desc() const { return desc_; }
  Backend& backend() { return backend_; }
  Allocation ring() const { return ring_; }

 private:
  friend class Resource;
  friend class Fence;
  friend class Context;
  friend class ImmediateContext;
  friend class DeferredContext;
  friend class CommandList;

  struct Submission {
    std::vector<uint32_t> dwords;
    uint64_t fence = 0;
  };
  struct Retiree {
    Allocation alloc;          // freed (if valid)
    Resource* res = nullptr;   // deleted
    CommandList* list = nullptr;  // recycled or deleted
    Fence* fence = nullptr;    // deleted, its register freed
  };
  struct Shared {  // an allocation held by a resource (current storage) and a command list
    int holders = 0;
    uint64_t retire_at = 0;  // the largest last-use fence of the holders that let go
  };
  using Lock = std::unique_lock<std::mutex>;

  Result create_resource(ResourceKind kind, uint32_t size, uint32_t w, uint32_t h, uint32_t pitch, uint32_t bind,
                         const void* init, Resource** out);
  // Allocation from the heap; when full, waits for pending retirements and retries.
  Result allocate_locked(Lock& lk, uint32_t size, Allocation* out);
  void retire_locked(uint64_t fence, const Retiree& r);
  // A holder lets go of an allocation it used until `fence`: retired then, or, while a resource
  // and a command list share it, when the last holder lets go (at the largest such fence).
  void drop_alloc_locked(const Allocation& a, uint64_t fence);
  void share_alloc_locked(const Allocation& a);  // one more holder (a resource took a list's storage)
  bool shared_locked(const Allocation& a) const;  // held by a resource and a command list
  // Replaces r's current storage by `a` (its old storage retires at `old_until`); fences reset.
  void rename_locked(Resource* r, const Allocation& a, uint64_t old_until);
  void process_retirements_locked();
  void on_final_release(Resource* r);
  void release_list(CommandList* l);
  CommandList* new_list();
  bool alive_locked(const Resource* r) const { return live_.count(r) != 0; }
  bool list_alive_locked(const CommandList* l) const { return live_lists_.count(l) != 0; }
  bool alive(const Resource* r) const;
  void poll_locked();
  Result wait_locked(Lock& lk, uint64_t fence, bool ring_space);
  // Immediate context: hands a closed command buffer to the ring (sync) or the queue (async).
  Result submit_locked(Lock& lk, std::vector<uint32_t>&& dwords, uint64_t fence);
  Result place_in_ring_locked(Lock& lk, Submission& s);
  void submission_thread();
  void set_lost_locked(const std::string& why);
  Result error(Result r, std::string msg);  // sets last_error (locks)

  Backend& backend_;
  DeviceDesc desc_;
  mutable std::mutex mu_;
  std::condition_variable cv_;  // completed/submitted fence, queue changes
  Allocator heap_;
  Allocation ring_;
  uint32_t wptr_ = 0, tail_ = 0;  // ring write offset; start of the oldest unfinished submission
  std::deque<std::pair<uint64_t, uint32_t>> in_ring_;  // (fence, end offset) not yet complete
  std::atomic<uint64_t> flushed_{0};
  uint64_t submitted_ = 0, completed_ = 0;
  std::atomic<bool> lost_{false};
  std::string last_error_;
  std::unordered_set<const Resource*> live_;
  std::unordered_set<const Fence*> live_fences_;
  // Command lists handed out by finish_command_list and not yet released by the application.
  // Checked (by pointer, never dereferenced) before a list is executed or released, so a list of
  // another device or one already released is INVALID_ARG / ignored. List objects are kept (in
  // list_pool_ or all_lists_) until the Device dies, so `this` of a stale list stays readable.
  std::unordered_set<const CommandList*> live_lists_;
  std::vector<CommandList*> all_lists_;
  std::multimap<uint64_t, Retiree> retire_;
  std::vector<CommandList*> list_pool_;
  std::unordered_map<uint32_t, Shared> shared_;  // by allocation address
  uint32_t fence_regs_ = 0;  // FENCE registers in use (the Device's own, user fences, retiring)
  std::vector<std::vector<uint32_t>> buffer_pool_;
  std::deque<Submission> queue_;
  bool stop_ = false;
  bool thread_busy_ = false;
  std::thread thread_;
  int inject_failures_ = 0;
  bool call_ = false;
  DeviceStats stats_;
  std::unique_ptr<ImmediateContext> imm_;
};

}  // namespace pineda::rt
