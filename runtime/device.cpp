// SPDX-License-Identifier: Apache-2.0
// Device: resource and fence creation, the heap and its retirement, the ring and the submission thread;
// also result_name and the small Resource, CommandList and Fence methods.

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "fence.h"
#include "runtime.h"

namespace pineda::rt {

namespace {
constexpr size_t kListPoolMax = 64;
constexpr uint64_t kMaxInitialFence = uint64_t{1} << 63;
constexpr size_t kBufferPoolMax = 16;

std::string hex(uint64_t v) {
  std::ostringstream o;
  o << "0x" << std::hex << v;
  return o.str();
}
}  // namespace

const char* result_name(Result r) {
  switch (r) {
    case Result::OK: return "OK";
    case Result::STILL_DRAWING: return "STILL_DRAWING";
    case Result::INVALID_ARG: return "INVALID_ARG";
    case Result::INVALID_CALL: return "INVALID_CALL";
    case Result::OUT_OF_MEMORY: return "OUT_OF_MEMORY";
    case Result::DEVICE_LOST: return "DEVICE_LOST";
    case Result::NOT_SUPPORTED: return "NOT_SUPPORTED";
  }
  return "?";
}

// ---- Resource ----------------------------------------------------------------------------------

uint64_t Resource::last_gpu_use() const { return std::max(last_read_.load(), last_write_.load()); }

void Resource::release() {
  if (refs_.fetch_sub(1) == 1) dev_->on_final_release(this);
}

// ---- CommandList -------------------------------------------------------------------------------

void CommandList::release() {
  {
    // The application's reference: a second release (or one of a list that is not live) is
    // ignored instead of dropping a reference some other holder owns.
    Device::Lock lk(dev_->mu_);
    if (dev_->live_lists_.erase(this) == 0) return;
  }
  dev_->release_list(this);
}

// ---- Fence -------------------------------------------------------------------------------------

uint64_t Fence::completed_value() {
  std::lock_guard<std::mutex> lk(dev_->mu_);
  const uint32_t hw = dev_->backend_.read_reg(REG_FENCE0 + reg_);
  if (!fence_plausible(hw, highest_)) return 0;
  return fence_extend(hw, highest_);
}

Result Fence::signal(uint64_t value) {
  if (dev_->lost()) return Result::DEVICE_LOST;
  std::lock_guard<std::mutex> lk(dev_->mu_);
  highest_ = std::max(highest_, value);
  dev_->backend_.write_reg(REG_FENCE0 + reg_, fence_lo32(value));
  dev_->cv_.notify_all();
  return Result::OK;
}

void Fence::release() {
  if (refs_.fetch_sub(1) != 1) return;
  Device::Lock lk(dev_->mu_);
  dev_->live_fences_.erase(this);
  dev_->poll_locked();
  dev_->retire_locked(last_use_, Device::Retiree{{}, nullptr, nullptr, this});
}

void CommandList::reset() {
  dwords_.clear();
  patches_.clear();
  uses_.clear();
  owned_.clear();
  renames_.clear();
  nested_.clear();
  fences_.clear();
  refs_ = 1;
  depth_ = 1;
  state_written_.reset();
  gpu_copy_ = {};
  uploaded_.clear();
  last_use_ = 0;
  executions_ = 0;
}

// ---- Device ------------------------------------------------------------------------------------

Device::Device(Backend& backend, const DeviceDesc& desc)
    : backend_(backend), desc_(desc), heap_(desc.heap_base, desc.heap_size) {
  if (desc_.ring_size < 256 || (desc_.ring_size & 3u)) throw std::invalid_argument("DeviceDesc: ring_size");
  if (desc_.fence_index >= NUM_FENCES) throw std::invalid_argument("DeviceDesc: fence_index");
  // GPU addresses are 32-bit: a heap crossing 4 GiB would hand out truncated addresses.
  if (uint64_t{desc_.heap_base} + desc_.heap_size > (uint64_t{1} << 32))
    throw std::invalid_argument("DeviceDesc: heap_base + heap_size beyond the 32-bit address space");
  // Fences count up from initial_fence and must never wrap 2^64 (a wrapped fence compares as done).
  if (desc_.initial_fence > kMaxInitialFence) throw std::invalid_argument("DeviceDesc: initial_fence above 2^63");
  const auto ring = heap_.allocate(desc_.ring_size, 256);
  if (!ring) throw std::invalid_argument("DeviceDesc: the heap cannot hold the ring");
  ring_ = *ring;
  flushed_ = submitted_ = completed_ = desc_.initial_fence;
  fence_regs_ = 1u << desc_.fence_index;
  const uint32_t id = backend_.read_reg(REG_ID);
  call_ = desc_.use_call && (id >> 16) == (ID_VALUE >> 16) && (id & 0xFFFFu) >= 2;  // a Pineda, contract >= 2
  backend_.set_watchdog(desc_.timeout);
  backend_.start(ring_.addr, ring_.size, desc_.fence_index, fence_lo32(desc_.initial_fence));
  imm_.reset(new ImmediateContext(*this));
  if (desc_.async) thread_ = std::thread(&Device::submission_thread, this);
}

Device::~Device() {
  imm_->clear_state();
  if (!lost_) {
    imm_->flush();
    Lock lk(mu_);
    wait_locked(lk, flushed_, false);
  }
  {
    Lock lk(mu_);
    stop_ = true;
    cv_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
  Lock lk(mu_);
  for (auto& [f, r] : retire_) {
    delete r.res;
    delete r.fence;  // lists: deleted below with all_lists_
  }
  retire_.clear();
  list_pool_.clear();
  for (CommandList* l : all_lists_) delete l;  // every list object, pooled or not
  all_lists_.clear();
  live_lists_.clear();
  for (const Resource* r : live_) delete r;
  live_.clear();
  for (const Fence* f : live_fences_) delete f;
  live_fences_.clear();
  lk.unlock();
  imm_.reset();
}

std::string Device::last_error() const {
  Lock lk(mu_);
  return last_error_;
}

DeviceStats Device::stats() const {
  Lock lk(mu_);
  return stats_;
}

void Device::inject_allocation_failures(int n) {
  Lock lk(mu_);
  inject_failures_ = n;
}

uint64_t Device::heap_bytes_free() const {
  Lock lk(mu_);
  return heap_.bytes_free();
}

bool Device::alive(const Resource* r) const {
  Lock lk(mu_);
  return alive_locked(r);
}

uint64_t Device::flushed_fence() const { return flushed_.load(); }

uint64_t Device::submitted_fence() const {
  Lock lk(mu_);
  return submitted_;
}

uint64_t Device::completed_fence() {
  Lock lk(mu_);
  poll_locked();
  return completed_;
}

Result Device::wait_fence(uint64_t fence) {
  if (fence > flushed_) {
    Lock lk(mu_);
    last_error_ = "wait_fence: fence " + std::to_string(fence) + " has not been flushed";
    return Result::INVALID_ARG;
  }
  Lock lk(mu_);
  return wait_locked(lk, fence, false);
}

Result Device::create_buffer(const BufferDesc& d, const void* init, Resource** out) {
  if (!out) return error(Result::INVALID_ARG, "create_buffer: out is null");
  *out = nullptr;
  if (d.size == 0) return error(Result::INVALID_ARG, "create_buffer: size is 0");
  if (d.bind & (BIND_RENDER_TARGET | BIND_SHADER_RESOURCE))
    return error(Result::INVALID_ARG, "create_buffer: RENDER_TARGET and SHADER_RESOURCE are texture bind flags");
  return create_resource(ResourceKind::BUFFER, d.size, 0, 0, 0, d.bind, init, out);
}

Result Device::create_texture2d(const TextureDesc& d, const void* init, Resource** out) {
  if (!out) return error(Result::INVALID_ARG, "create_texture2d: out is null");
  *out = nullptr;
  if (d.width == 0 || d.height == 0 || d.width > MAX_RT_DIM || d.height > MAX_RT_DIM)
    return error(Result::INVALID_ARG, "create_texture2d: width and height must be 1.." + std::to_string(MAX_RT_DIM));
  const uint32_t bytes = format_bytes(d.format);
  if (bytes == 0) return error(Result::INVALID_ARG, "create_texture2d: unknown format");
  // The 16-bit pitch (RT_PITCH[15:0]) caps the width below MAX_RT_DIM: 16,383 at 1x, 4,095 at 4x
  // (twice that for B5G6R5, capped by MAX_RT_DIM).
  if (d.samples == 1 || d.samples == 4) {
    const uint32_t max_w = std::min<uint32_t>(MAX_RT_DIM, 0xFFFCu / (bytes * d.samples));
    if (d.width > max_w)
      return error(Result::INVALID_ARG, "create_texture2d: width must be at most " + std::to_string(max_w) + " at " +
                                            std::to_string(d.samples) + "x (the pitch is 16-bit)");
  }
  if (d.samples != 1 && d.samples != 4)
    return error(Result::INVALID_ARG, "create_texture2d: samples must be 1 or 4");
  const uint32_t texel = bytes * d.samples;  // per sample; 4x MSAA: a pixel's samples side by side
  const uint32_t pitch = d.pitch ? d.pitch : (d.width * texel + 3u) & ~3u;
  if (pitch < d.width * texel || (pitch & 3u) || pitch > 0xFFFFu)
    return error(Result::INVALID_ARG, "create_texture2d: pitch must be a multiple of 4, >= width * " +
                                          std::to_string(bytes) + " * samples and < 65536");
  if (d.bind & (BIND_VERTEX_BUFFER | BIND_INDEX_BUFFER | BIND_CONSTANT_BUFFER))
    return error(Result::INVALID_ARG, "create_texture2d: buffer bind flags on a texture");
  if (d.format == Format::D24_UNORM_S8_UINT && (d.bind & (BIND_RENDER_TARGET | BIND_SHADER_RESOURCE)))
    return error(Result::INVALID_ARG, "create_texture2d: a D24_UNORM_S8_UINT texture cannot be a render target or shader resource");
  if (d.format != Format::D24_UNORM_S8_UINT && (d.bind & BIND_DEPTH_STENCIL))
    return error(Result::INVALID_ARG, "create_texture2d: BIND_DEPTH_STENCIL needs the D24_UNORM_S8_UINT format");
  const Result r = create_resource(ResourceKind::TEXTURE2D, pitch * d.height, d.width, d.height, pitch, d.bind, init, out);
  if (r == Result::OK) {
    (*out)->samples_ = d.samples;
    (*out)->format_ = d.format;
  }
  return r;
}

DepthStencilState encode_depth_stencil_state(const DepthStencilDesc& d) {
  const auto cmp = [](ComparisonFunc f) { return static_cast<uint32_t>(f) - 1; };
  const auto sop = [](StencilOp o) { return static_cast<uint32_t>(o) - 1; };
  const auto face = [&](const DepthStencilOpDesc& f) {
    StencilFace r;
    r.func = cmp(f.func);
    r.fail = sop(f.fail);
    r.zfail = sop(f.depth_fail);
    r.pass = sop(f.pass);
    return r;
  };
  DepthStencilState s;
  DepthReg z;  // off: all 0
  if (d.depth_enable) {
    z.enable = 1;
    z.func = cmp(d.depth_func);
    z.write = d.depth_write;
    z.late = d.late_z;
    z.hiz = d.hiz;
  }
  s.depth_ = z.word();
  StencilReg st = StencilReg::from_word(FE_STENCIL_RESET);
  StencilOpsReg ops = StencilOpsReg::from_word(FE_STENCIL_OPS_RESET);
  if (d.stencil_enable) {
    st = StencilReg{};
    st.enable = 1;
    st.read_mask = d.stencil_read_mask;
    st.write_mask = d.stencil_write_mask;
    ops = StencilOpsReg{};
    ops.front = face(d.front);
    ops.back = face(d.back);
  }
  s.stencil_ = st.word();
  s.ops_ = ops.word();
  return s;
}

BlendState encode_blend_state(const BlendDesc& d) {
  const RenderTargetBlendDesc& r = d.render_target;
  const auto f = [](Blend b) { return static_cast<uint32_t>(b) - 1; };
  const auto o = [](BlendOp b) { return static_cast<uint32_t>(b) - 1; };
  BlendState s;
  BlendReg b;
  b.enable = r.blend_enable;
  b.src = f(r.src_blend);
  b.dst = f(r.dest_blend);
  b.op = o(r.blend_op);
  b.src_a = f(r.src_blend_alpha);
  b.dst_a = f(r.dest_blend_alpha);
  b.op_a = o(r.blend_op_alpha);
  b.mask_off = ~uint32_t{r.render_target_write_mask} & 0xFu;
  s.word_ = b.word();
  LogicOpReg l;  // off: 0
  if (r.logic_op_enable) {
    l.enable = 1;
    l.op = static_cast<uint32_t>(r.logic_op);
  }
  s.logic_word_ = l.word();
  s.a2c_ = d.alpha_to_coverage_enable;
  return s;
}

uint32_t float_to_unorm8(float v) {
  if (!(v > 0.0f)) return 0;  // also NaN
  if (v >= 1.0f) return 255;
  return static_cast<uint32_t>(std::lround(static_cast<double>(v) * 255.0));
}

Result Device::create_blend_state(const BlendDesc& d, BlendState* out) {
  if (!out) return error(Result::INVALID_ARG, "create_blend_state: out is null");
  const RenderTargetBlendDesc& r = d.render_target;
  if (static_cast<uint32_t>(r.logic_op) > static_cast<uint32_t>(LogicOp::OR_INVERTED))
    return error(Result::INVALID_ARG, "create_blend_state: bad logic op");
  if (r.logic_op_enable && r.blend_enable)
    return error(Result::INVALID_ARG, "create_blend_state: blending and a logic op cannot both be enabled");
  const auto known = [](Blend b) {
    const uint32_t v = static_cast<uint32_t>(b);
    return (v >= 1 && v <= 11) || v == 14 || v == 15;
  };
  const auto dual = [](Blend b) { return static_cast<uint32_t>(b) >= 16 && static_cast<uint32_t>(b) <= 19; };
  const auto color = [](Blend b) {
    return b == Blend::SRC_COLOR || b == Blend::INV_SRC_COLOR || b == Blend::DEST_COLOR || b == Blend::INV_DEST_COLOR;
  };
  const auto op_ok = [](BlendOp o) { return static_cast<uint32_t>(o) >= 1 && static_cast<uint32_t>(o) <= 5; };
  for (Blend b : {r.src_blend, r.dest_blend, r.src_blend_alpha, r.dest_blend_alpha}) {
    if (dual(b)) return error(Result::INVALID_ARG, "create_blend_state: dual-source blending (SRC1_*) is not supported");
    if (!known(b)) return error(Result::INVALID_ARG, "create_blend_state: bad blend factor");
  }
  if (color(r.src_blend_alpha) || color(r.dest_blend_alpha))
    return error(Result::INVALID_ARG, "create_blend_state: a *_COLOR factor is not allowed for alpha");
  if (!op_ok(r.blend_op) || !op_ok(r.blend_op_alpha)) return error(Result::INVALID_ARG, "create_blend_state: bad blend op");
  if (r.render_target_write_mask > COLOR_WRITE_ENABLE_ALL)
    return error(Result::INVALID_ARG, "create_blend_state: the write mask has 4 bits");
  *out = encode_blend_state(d);
  return Result::OK;
}

uint32_t depth_to_d24(float depth) {
  if (!(depth > 0.0f)) return 0;  // also NaN
  if (depth >= 1.0f) return DEPTH_MAX;
  return static_cast<uint32_t>(std::lround(static_cast<double>(depth) * DEPTH_MAX));
}

Result Device::create_depth_stencil_state(const DepthStencilDesc& d, DepthStencilState* out) {
  if (!out) return error(Result::INVALID_ARG, "create_depth_stencil_state: out is null");
  const auto cmp_ok = [](ComparisonFunc f) { return static_cast<uint32_t>(f) >= 1 && static_cast<uint32_t>(f) <= 8; };
  const auto op_ok = [](StencilOp o) { return static_cast<uint32_t>(o) >= 1 && static_cast<uint32_t>(o) <= 8; };
  if (!cmp_ok(d.depth_func)) return error(Result::INVALID_ARG, "create_depth_stencil_state: bad depth function");
  for (const DepthStencilOpDesc* f : {&d.front, &d.back}) {
    const char* which = f == &d.front ? "front" : "back";
    if (!cmp_ok(f->func))
      return error(Result::INVALID_ARG, std::string("create_depth_stencil_state: bad ") + which + " stencil function");
    if (!op_ok(f->fail) || !op_ok(f->depth_fail) || !op_ok(f->pass))
      return error(Result::INVALID_ARG, std::string("create_depth_stencil_state: bad ") + which + " stencil operation");
  }
  *out = encode_depth_stencil_state(d);
  return Result::OK;
}

Result Device::create_depth_stencil_view(Resource* tex, DepthStencilView* out) {
  if (!out) return error(Result::INVALID_ARG, "create_depth_stencil_view: out is null");
  if (!tex || !alive(tex)) return error(Result::INVALID_ARG, "create_depth_stencil_view: not a live resource of this device");
  if (tex->kind() != ResourceKind::TEXTURE2D || tex->format() != Format::D24_UNORM_S8_UINT ||
      !(tex->bind_flags() & BIND_DEPTH_STENCIL))
    return error(Result::INVALID_ARG,
                 "create_depth_stencil_view: the resource is not a D24_UNORM_S8_UINT texture created with BIND_DEPTH_STENCIL");
  out->res_ = tex;
  return Result::OK;
}

Result Device::create_resource(ResourceKind kind, uint32_t size, uint32_t w, uint32_t h, uint32_t pitch,
                               uint32_t bind, const void* init, Resource** out) {
  if (lost_) return error(Result::DEVICE_LOST, "device lost");
  Lock lk(mu_);
  Allocation a;
  const Result r = allocate_locked(lk, size, &a);
  if (r != Result::OK) {
    if (r == Result::OUT_OF_MEMORY) last_error_ = "out of GPU memory allocating " + std::to_string(size) + " bytes";
    return r;
  }
  Resource* res = new Resource();
  res->dev_ = this;
  res->kind_ = kind;
  res->bind_ = bind;
  res->size_ = size;
  res->width_ = w;
  res->height_ = h;
  res->pitch_ = pitch;
  res->alloc_ = a;
  res->addr_ = a.addr;
  if (init) backend_.memory().write(a.addr, init, size);
  live_.insert(res);
  *out = res;
  return Result::OK;
}

Result Device::create_deferred_context(const DeferredContextDesc& desc, std::unique_ptr<DeferredContext>* out) {
  if (!out) return error(Result::INVALID_ARG, "create_deferred_context: out is null");
  if (lost_) return error(Result::DEVICE_LOST, "device lost");
  out->reset(new DeferredContext(*this, desc));
  return Result::OK;
}

bool InputLayout::uses_slot(uint32_t slot) const {
  for (uint32_t a : attr_) {
    if (a != ATTR_FMT_NONE && ((a >> 3) & 1u) == slot) return true;
  }
  return false;
}

Result Device::create_input_layout(const InputElement* elements, uint32_t count, InputLayout* out) {
  if (!out) return error(Result::INVALID_ARG, "create_input_layout: out is null");
  if (count && !elements) return error(Result::INVALID_ARG, "create_input_layout: elements is null");
  InputLayout l;
  static const char* const names[NUM_SEMANTICS] = {"POSITION", "COLOR", "TEXCOORD0", "TEXCOORD1"};
  for (uint32_t i = 0; i < count; ++i) {
    const InputElement& e = elements[i];
    const std::string at = "create_input_layout: element " + std::to_string(i) + ": ";
    const uint32_t sem = static_cast<uint32_t>(e.semantic);
    const uint32_t fmt = static_cast<uint32_t>(e.format);
    if (sem >= NUM_SEMANTICS) return error(Result::INVALID_ARG, at + "unknown semantic " + std::to_string(sem));
    if (l.attr_[sem] != ATTR_FMT_NONE)
      return error(Result::INVALID_ARG, at + "a second " + names[sem] + " element");
    if (fmt < ATTR_FMT_F32X1 || fmt > ATTR_FMT_UNORM8X4)
      return error(Result::INVALID_ARG, at + "format " + std::to_string(fmt) + " is not F32X1..4 or UNORM8X4");
    if (e.slot >= NUM_VERTEX_SLOTS)
      return error(Result::INVALID_ARG, at + "slot " + std::to_string(e.slot) + ": the slots are 0 (per vertex) and 1 (per instance)");
    if ((e.offset & 3u) || e.offset > 0xFFFFu)
      return error(Result::INVALID_ARG, at + "offset " + std::to_string(e.offset) + " must be a multiple of 4 and at most 0xFFFF");
    AttrReg a;
    a.fmt = fmt;
    a.buf1 = e.slot;
    a.offset = e.offset;
    l.attr_[sem] = a.word();
  }
  *out = l;
  return Result::OK;
}

Result Device::create_fence(const FenceDesc& desc, Fence** out) {
  if (!out) return error(Result::INVALID_ARG, "create_fence: out is null");
  *out = nullptr;
  if (lost_) return error(Result::DEVICE_LOST, "device lost");
  Lock lk(mu_);
  poll_locked();
  process_retirements_locked();
  uint32_t reg = 0;
  while (reg < NUM_FENCES && (fence_regs_ >> reg & 1u)) ++reg;
  if (reg == NUM_FENCES) {
    last_error_ = "create_fence: every FENCE register is in use";
    return Result::OUT_OF_MEMORY;
  }
  Fence* f = new Fence();
  f->dev_ = this;
  f->reg_ = reg;
  f->interrupt_ = desc.interrupt;
  f->highest_ = desc.initial_value;
  fence_regs_ |= 1u << reg;
  backend_.write_reg(REG_FENCE0 + reg, fence_lo32(desc.initial_value));
  live_fences_.insert(f);
  *out = f;
  return Result::OK;
}

Result Device::error(Result r, std::string msg) {
  Lock lk(mu_);
  last_error_ = std::move(msg);
  return r;
}

Result Device::allocate_locked(Lock& lk, uint32_t size, Allocation* out) {
  while (true) {
    if (inject_failures_ > 0) {
      --inject_failures_;
      return Result::OUT_OF_MEMORY;
    }
    if (auto a = heap_.allocate(size, 256)) {
      *out = *a;
      return Result::OK;
    }
    // Full: free what has retired, then wait for the oldest pending retirement (if submitted).
    poll_locked();
    const size_t before = retire_.size();
    process_retirements_locked();
    if (retire_.size() != before) continue;
    if (retire_.empty() || retire_.begin()->first > submitted_) return Result::OUT_OF_MEMORY;
    const Result r = wait_locked(lk, retire_.begin()->first, false);
    if (r != Result::OK) return r;
  }
}

void Device::retire_locked(uint64_t fence, const Retiree& r) {
  retire_.emplace(fence, r);
  process_retirements_locked();
}

void Device::process_retirements_locked() {
  while (!retire_.empty() && retire_.begin()->first <= completed_) {
    Retiree r = retire_.begin()->second;
    retire_.erase(retire_.begin());
    ++stats_.retired;
    if (r.alloc.valid()) heap_.free(r.alloc);
    delete r.res;
    if (r.fence) {
      fence_regs_ &= ~(1u << r.fence->reg_);
      delete r.fence;
    }
    if (r.list) {
      // Every list object goes back to the pool (none is deleted before the Device, so a stale
      // pointer the application still holds stays readable); a large one loses its memory first.
      const bool large = r.list->dwords_.capacity() * 4 > desc_.small_list_bytes;
      r.list->reset();
      if (large || list_pool_.size() >= kListPoolMax) {
        std::vector<uint32_t>().swap(r.list->dwords_);
        std::vector<uint32_t>().swap(r.list->uploaded_);
      }
      list_pool_.push_back(r.list);
    }
  }
}

void Device::on_final_release(Resource* r) {
  Lock lk(mu_);
  live_.erase(r);
  poll_locked();
  const Allocation a = r->alloc_;
  r->alloc_ = {};
  drop_alloc_locked(a, r->last_gpu_use());
  retire_locked(r->last_gpu_use(), Retiree{{}, r, nullptr});
}

void Device::drop_alloc_locked(const Allocation& a, uint64_t fence) {
  if (!a.valid()) return;
  const auto it = shared_.find(a.addr);
  if (it == shared_.end()) {
    retire_locked(fence, Retiree{a, nullptr, nullptr});
    return;
  }
  it->second.retire_at = std::max(it->second.retire_at, fence);
  if (--it->second.holders > 0) return;
  const uint64_t at = it->second.retire_at;
  shared_.erase(it);
  retire_locked(at, Retiree{a, nullptr, nullptr});
}

void Device::share_alloc_locked(const Allocation& a) {
  Shared& s = shared_[a.addr];
  s.holders = s.holders == 0 ? 2 : s.holders + 1;  // a new entry: the list and the resource
}

bool Device::shared_locked(const Allocation& a) const {
  const auto it = shared_.find(a.addr);
  return it != shared_.end() && it->second.holders >= 2;
}

void Device::rename_locked(Resource* r, const Allocation& a, uint64_t old_until) {
  drop_alloc_locked(r->alloc_, old_until);
  r->alloc_ = a;
  r->addr_.store(a.addr);
  r->last_read_.store(0);
  r->last_write_.store(0);
  std::vector<uint8_t> fresh(r->size_);
  r->shadow_.swap(fresh);  // a new CPU view for the new storage (distinct pointer)
}

CommandList* Device::new_list() {
  Lock lk(mu_);
  CommandList* l;
  if (!list_pool_.empty()) {
    l = list_pool_.back();
    list_pool_.pop_back();
    ++stats_.lists_recycled;
  } else {
    l = new CommandList();
    all_lists_.push_back(l);
    ++stats_.lists_created;
  }
  l->dev_ = this;
  return l;
}

void Device::release_list(CommandList* l) {
  if (l->refs_.fetch_sub(1) != 1) return;  // a list that CALLs it still holds it
  // References first (outside the lock: a final release retires the resource, the list).
  for (const auto& u : l->uses_) u.res->release();
  for (const auto& o : l->owned_) o.res->release();
  for (Fence* f : l->fences_) f->release();
  for (CommandList* n : l->nested_) release_list(n);
  Lock lk(mu_);
  poll_locked();
  for (auto& o : l->owned_) {
    drop_alloc_locked(o.alloc, l->last_use_);
    o.alloc = {};
  }
  l->renames_.clear();
  l->nested_.clear();
  l->fences_.clear();
  if (l->gpu_copy_.valid()) retire_locked(l->last_use_, Retiree{l->gpu_copy_, nullptr, nullptr});
  l->gpu_copy_ = {};
  l->uses_.clear();
  l->owned_.clear();
  retire_locked(l->last_use_, Retiree{{}, nullptr, l});
}

void Device::set_lost_locked(const std::string& why) {
  if (!lost_) last_error_ = "device lost: " + why;
  lost_ = true;
  cv_.notify_all();
}

void Device::poll_locked() {
  const uint32_t hw = backend_.read_fence();
  if (!fence_plausible(hw, submitted_)) return;
  const uint64_t c = fence_extend(hw, submitted_);
  if (c <= completed_) return;
  completed_ = c;
  while (!in_ring_.empty() && in_ring_.front().first <= completed_) {
    tail_ = in_ring_.front().second;
    in_ring_.pop_front();
  }
  cv_.notify_all();
}

Result Device::wait_locked(Lock& lk, uint64_t fence, bool ring_space) {
  ++stats_.waits;
  if (ring_space) ++stats_.ring_waits;
  stats_.last_wait_fence = fence;
  using Clock = std::chrono::steady_clock;
  auto last_change = Clock::now();
  uint64_t seen_c = completed_, seen_s = submitted_;
  while (true) {
    poll_locked();
    if (completed_ >= fence) {
      process_retirements_locked();
      return Result::OK;
    }
    if (lost_) return Result::DEVICE_LOST;
    bool progressed = false;
    if (fence <= submitted_) {
      progressed = backend_.advance();
      poll_locked();
      if (completed_ >= fence) {
        process_retirements_locked();
        return Result::OK;
      }
      const uint32_t st = backend_.read_reg(REG_STATUS);
      if ((st >> STATUS_ERROR) & 1u) {
        set_lost_locked("the command processor stopped with error cause " +
                        std::to_string(backend_.read_reg(REG_ERROR_CAUSE)) + " at " +
                        hex(backend_.read_reg(REG_ERROR_ADDR)));
        return Result::DEVICE_LOST;
      }
    } else if (!desc_.async) {
      last_error_ = "wait for fence " + std::to_string(fence) + " that was never submitted";
      return Result::INVALID_CALL;
    }
    const auto now = Clock::now();
    if (completed_ != seen_c || submitted_ != seen_s) {
      seen_c = completed_;
      seen_s = submitted_;
      last_change = now;
    } else if (now - last_change > desc_.timeout) {
      set_lost_locked("fence " + std::to_string(fence) + " not reached: the GPU's fence stayed at " +
                      std::to_string(completed_) + " for " + std::to_string(desc_.timeout.count()) + " ms");
      return Result::DEVICE_LOST;
    }
    if (!progressed) cv_.wait_for(lk, std::chrono::microseconds(200));
  }
}

Result Device::submit_locked(Lock& lk, std::vector<uint32_t>&& dwords, uint64_t fence) {
  ++stats_.flushes;
  Submission s{std::move(dwords), fence};
  if (!desc_.async) {
    const Result r = place_in_ring_locked(lk, s);
    if (buffer_pool_.size() < kBufferPoolMax) {
      s.dwords.clear();
      buffer_pool_.push_back(std::move(s.dwords));
    }
    return r;
  }
  while (queue_.size() >= desc_.queue_depth && !lost_) cv_.wait(lk);
  if (lost_) return Result::DEVICE_LOST;
  queue_.push_back(std::move(s));
  cv_.notify_all();
  return Result::OK;
}

Result Device::place_in_ring_locked(Lock& lk, Submission& s) {
  const uint32_t R = ring_.size;
  const uint64_t bytes = uint64_t{s.dwords.size()} * 4;
  if (bytes + 4 > R) {
    set_lost_locked("a command buffer of " + std::to_string(bytes) + " bytes does not fit the ring");
    return Result::DEVICE_LOST;
  }
  while (true) {
    poll_locked();
    const uint32_t used = (wptr_ + R - tail_) % R;
    if (uint64_t{R} - 4 - used >= bytes) break;
    const Result r = wait_locked(lk, in_ring_.front().first, true);
    if (r != Result::OK) return r;
  }
  Memory& mem = backend_.memory();
  for (uint32_t d : s.dwords) {
    mem.write32(ring_.addr + wptr_, d);
    wptr_ = (wptr_ + 4 == R) ? 0 : wptr_ + 4;
  }
  in_ring_.emplace_back(s.fence, wptr_);
  submitted_ = s.fence;
  ++stats_.kicks;
  stats_.bytes_submitted += bytes;
  backend_.kick(wptr_, s.fence);
  cv_.notify_all();
  return Result::OK;
}

void Device::submission_thread() {
  Lock lk(mu_);
  while (true) {
    cv_.wait(lk, [this] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) break;  // stop_ and drained
    Submission s = std::move(queue_.front());
    queue_.pop_front();
    thread_busy_ = true;
    cv_.notify_all();
    if (!lost_) place_in_ring_locked(lk, s);
    if (buffer_pool_.size() < kBufferPoolMax) {
      s.dwords.clear();
      buffer_pool_.push_back(std::move(s.dwords));
    }
    thread_busy_ = false;
    cv_.notify_all();
  }
}


uint32_t format_bytes(Format f) {
  switch (f) {
    case Format::R8G8B8A8_UNORM:
    case Format::B8G8R8A8_UNORM:
    case Format::R8G8B8A8_UNORM_SRGB:
    case Format::D24_UNORM_S8_UINT: return 4;
    case Format::B5G6R5_UNORM: return 2;
  }
  return 0;
}

uint32_t rt_format_code(Format f) {
  switch (f) {
    case Format::R8G8B8A8_UNORM: return RT_FMT_RGBA8;
    case Format::B8G8R8A8_UNORM: return RT_FMT_BGRA8;
    case Format::R8G8B8A8_UNORM_SRGB: return RT_FMT_RGBA8_SRGB;
    case Format::B5G6R5_UNORM: return RT_FMT_B5G6R5;
    case Format::D24_UNORM_S8_UINT: break;
  }
  return RT_FMT_NONE;
}

uint32_t clear_value(Format f, uint32_t rgba8) {
  const auto ch = [rgba8](int c) { return (rgba8 >> (8 * c)) & 0xFFu; };
  // an UNORM8 channel x as a U16 (x * 257) to sRGB: the number of codes c in 1..255 whose
  // threshold LIN16_TO_SRGB_T[c] is <= it (docs/om.md section 3, as the hardware encodes)
  const auto srgb = [](uint32_t x) {
    uint32_t n = 0;
    for (uint32_t c = 1; c < 256; ++c) n += LIN16_TO_SRGB_T[c] <= x * 257u ? 1u : 0u;
    return n;
  };
  // round(x * bits / 255), the hardware's div65535r(x * 257 * bits)
  const auto field = [](uint32_t x, uint32_t bits) { return (x * bits * 2u + 255u) / 510u; };
  switch (f) {
    case Format::B8G8R8A8_UNORM: return ch(2) | (ch(1) << 8) | (ch(0) << 16) | (ch(3) << 24);
    case Format::R8G8B8A8_UNORM_SRGB: return srgb(ch(0)) | (srgb(ch(1)) << 8) | (srgb(ch(2)) << 16) | (ch(3) << 24);
    case Format::B5G6R5_UNORM: {
      const uint32_t p = field(ch(2), 31) | (field(ch(1), 63) << 5) | (field(ch(0), 31) << 11);
      return p | (p << 16);
    }
    default: return rgba8;
  }
}

}  // namespace pineda::rt
