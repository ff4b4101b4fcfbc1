#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "fence.h"
#include "runtime.h"

namespace pineda::rt {

namespace {
constexpr uint32_t kStateUsed = 7;  // SET_STATE indices the pre-transformed draw uses: VB_BASE .. SCISSOR_Y
constexpr uint64_t kLegacyMask = (1ull << kStateUsed) - 1;
constexpr uint64_t kFeMask = ~((1ull << NUM_STATE) - 1);  // [NUM_STATE, FE_STATE_END = 64)
static_assert(FE_STATE_END == 64, "the state masks are 64-bit");

constexpr uint64_t bit(uint32_t i) { return 1ull << i; }
constexpr uint64_t bits(uint32_t first, uint32_t n) { return ((n >= 64 ? 0ull : 1ull << n) - 1) << first; }

uint32_t f32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
constexpr size_t kListPoolMax = 64;
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

void CommandList::release() { dev_->release_list(this); }

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
  state_written_ = 0;
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
  const auto ring = heap_.allocate(desc_.ring_size, 256);
  if (!ring) throw std::invalid_argument("DeviceDesc: the heap cannot hold the ring");
  ring_ = *ring;
  flushed_ = submitted_ = completed_ = desc_.initial_fence;
  fence_regs_ = 1u << desc_.fence_index;
  const uint32_t id = backend_.read_reg(REG_ID);
  call_ = desc_.use_call && (id >> 16) == 0x5049u && (id & 0xFFFFu) >= 2;
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
    delete r.list;
    delete r.fence;
  }
  retire_.clear();
  for (CommandList* l : list_pool_) delete l;
  list_pool_.clear();
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
  if (d.samples != 1 && d.samples != 4)
    return error(Result::INVALID_ARG, "create_texture2d: samples must be 1 or 4");
  const uint32_t texel = 4 * d.samples;  // RGBA8 per sample; 4x MSAA: a pixel's samples side by side
  const uint32_t pitch = d.pitch ? d.pitch : d.width * texel;
  if (pitch < d.width * texel || (pitch & 3u) || pitch > 0xFFFFu)
    return error(Result::INVALID_ARG, "create_texture2d: pitch must be a multiple of 4, >= width * 4 * samples and < 65536");
  if (d.bind & (BIND_VERTEX_BUFFER | BIND_INDEX_BUFFER | BIND_CONSTANT_BUFFER))
    return error(Result::INVALID_ARG, "create_texture2d: buffer bind flags on a texture");
  const Result r = create_resource(ResourceKind::TEXTURE2D, pitch * d.height, d.width, d.height, pitch, d.bind, init, out);
  if (r == Result::OK) (*out)->samples_ = d.samples;
  return r;
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
    l.attr_[sem] = fmt | (e.slot << 3) | (e.offset << 16);
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
      if (r.list->dwords_.capacity() * 4 <= desc_.small_list_bytes && list_pool_.size() < kListPoolMax) {
        r.list->reset();
        list_pool_.push_back(r.list);
      } else {
        delete r.list;
      }
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

// ---- Context -----------------------------------------------------------------------------------

Context::Context(Device& dev) : dev_(dev), hw_(default_hw_state()) {}

Context::~Context() = default;

HwState Context::default_hw_state() {
  HwState s{};
  s[ST_VB_BASE] = ST_VB_BASE_RESET;
  s[ST_COLOR] = ST_COLOR_RESET;
  s[ST_RT_BASE] = ST_RT_BASE_RESET;
  s[ST_RT_PITCH] = ST_RT_PITCH_RESET;
  s[ST_RT_SIZE] = ST_RT_SIZE_RESET;
  s[ST_SCISSOR_X] = ST_SCISSOR_X_RESET;
  s[ST_SCISSOR_Y] = ST_SCISSOR_Y_RESET;
  // Front end: everything 0 but the matrix (identity) and the scissor (everything).
  for (uint32_t r = 0; r < 4; ++r) s[FE_MATRIX0 + 5 * r] = f32_bits(1.0f);
  s[FE_SCISSOR_X] = ST_SCISSOR_X_RESET;
  s[FE_SCISSOR_Y] = ST_SCISSOR_Y_RESET;
  return s;
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

Result Context::set_render_target(Resource* rt) {
  if (rt) {
    if (!dev_.alive(rt)) return fail(Result::INVALID_ARG, "set_render_target: not a live resource of this device");
    if (rt->kind() != ResourceKind::TEXTURE2D || !(rt->bind_flags() & BIND_RENDER_TARGET))
      return fail(Result::INVALID_ARG, "set_render_target: the resource is not a texture created with BIND_RENDER_TARGET");
  }
  bind(api_.rt, rt);
  return Result::OK;
}

Result Context::set_scissor(uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1) {
  if (x0 > 0xFFFFu || x1 > 0xFFFFu || y0 > 0xFFFFu || y1 > 0xFFFFu)
    return fail(Result::INVALID_ARG, "set_scissor: coordinates are 16 bits");
  api_.scissor_x = (x1 << 16) | x0;
  api_.scissor_y = (y1 << 16) | y0;
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
  for (auto& b : api_.vbs) bind(b.buffer, nullptr);
  bind(api_.ib, nullptr);
  api_ = ApiState{};
}

Result Context::draw_pretransformed(uint32_t vertex_count, uint32_t first_vertex) {
  if (dev_.lost()) return fail(Result::DEVICE_LOST, "device lost");
  if (recording_dropped()) return Result::OK;  // deferred context out of memory: keeps "recording"
  if (!api_.rt) return fail(Result::INVALID_CALL, "draw_pretransformed: no render target bound");
  if (!api_.pt_vb) return fail(Result::INVALID_CALL, "draw_pretransformed: no pre-transformed vertex buffer bound");
  const uint64_t end = (uint64_t{first_vertex} + vertex_count) * VERTEX_BYTES + api_.pt_vb_offset;
  if (end > api_.pt_vb->size())
    return fail(Result::INVALID_ARG, "draw_pretransformed: vertices " + std::to_string(first_vertex) + ".." +
                                         std::to_string(uint64_t{first_vertex} + vertex_count) +
                                         " lie outside the vertex buffer");
  Result r;
  if (!reserve(1 + kStateUsed + 3, &r)) return r;
  emit_pretransformed_state();
  cw_.raw(CommandWriter::header(OP_DRAW, 0, 2)).raw(first_vertex).raw(vertex_count);
  on_use(api_.pt_vb, false);
  on_use(api_.rt, true);
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

  // What the hardware must hold for this draw, at the indices of `used`.
  HwState d = hw_;
  uint64_t used = 0;
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
    for (uint32_t c = 0; c < 4; ++c) d[FE_MATRIX0 + 4 * r + c] = f32_bits(api_.transform.m[r][c]);
  }
  used |= bits(FE_MATRIX0, 16);
  const Viewport& vp = api_.viewport;
  d[FE_VP_X] = f32_bits(vp.x);
  d[FE_VP_Y] = f32_bits(vp.y);
  d[FE_VP_W] = f32_bits(vp.width);
  d[FE_VP_H] = f32_bits(vp.height);
  d[FE_VP_ZMIN] = f32_bits(vp.min_depth);
  d[FE_VP_ZMAX] = f32_bits(vp.max_depth);
  d[FE_RASTER] = static_cast<uint32_t>(api_.raster.cull) | (api_.raster.front_ccw ? 4u : 0u) |
                 (api_.raster.depth_clip ? 0u : 8u);
  d[FE_RT_BASE] = address_of(api_.rt);
  d[FE_RT_PITCH] = api_.rt->pitch() | (api_.rt->samples() == 4 ? 1u << 16 : 0u);  // [16]: 4x MSAA
  d[FE_RT_SIZE] = (api_.rt->height() << 16) | api_.rt->width();
  d[FE_SCISSOR_X] = api_.scissor_x;
  d[FE_SCISSOR_Y] = api_.scissor_y;
  used |= bits(FE_VP_X, FE_SCISSOR_Y - FE_VP_X + 1);

  Result r;
  if (!reserve(state_dwords(d, used) + 6, &r)) return r;
  emit_state_runs(d, used);
  // Strip restart only where it means something: indexed strips.
  const bool strip = api_.topology == PrimitiveTopology::TRIANGLE_STRIP;
  const uint32_t arg = (indexed ? 1u : 0u) | (indexed && api_.ib_format == IndexFormat::R32_UINT ? 2u : 0u) |
                       (strip ? 4u : 0u) | (strip && indexed && api_.strip_restart ? 8u : 0u);
  cw_.raw(CommandWriter::header(OP_DRAW_FE, arg, 5))
      .raw(first)
      .raw(count)
      .raw(base_vertex)
      .raw(instance_count)
      .raw(start_instance);
  for (uint32_t slot = 0; slot < NUM_VERTEX_SLOTS; ++slot) {
    if (api_.layout.uses_slot(slot)) on_use(api_.vbs[slot].buffer, false);
  }
  if (indexed) on_use(api_.ib, false);
  on_use(api_.rt, true);
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
  Result r;
  if (!reserve(1 + n, &r)) return r;
  cw_.raw(CommandWriter::header(OP_NOP, 0, static_cast<uint32_t>(n)));
  for (size_t i = 0; i < n; ++i) {
    uint32_t d = 0;
    for (size_t k = 0; k < 4 && 4 * i + k < text.size(); ++k) d |= uint32_t{static_cast<uint8_t>(text[4 * i + k])} << (8 * k);
    cw_.raw(d);
  }
  return Result::OK;
}

size_t Context::reset_state_dwords() const {
  return 1 + kStateUsed + state_dwords(default_hw_state(), kFeMask);
}

void Context::emit_reset_state() {
  const HwState def = default_hw_state();
  cw_.raw(CommandWriter::header(OP_SET_STATE, 0, kStateUsed));
  for (uint32_t i = 0; i < kStateUsed; ++i) cw_.raw(def[i]);
  for (uint32_t i = 0; i < kStateUsed; ++i) hw_[i] = def[i];
  known_ |= kLegacyMask;
  written_ |= kLegacyMask;
  emit_state_runs(def, kFeMask);
}

void Context::forget_state(uint64_t written) { known_ &= ~(kLegacyMask | written); }

void Context::emit_pretransformed_state() {
  HwState d = hw_;
  d[ST_VB_BASE] = address_of(api_.pt_vb) + api_.pt_vb_offset;
  d[ST_COLOR] = api_.color;
  d[ST_RT_BASE] = address_of(api_.rt);
  d[ST_RT_PITCH] = api_.rt->pitch() | (api_.rt->samples() == 4 ? 1u << 16 : 0u);  // [16]: 4x MSAA
  d[ST_RT_SIZE] = (api_.rt->height() << 16) | api_.rt->width();
  d[ST_SCISSOR_X] = api_.scissor_x;
  d[ST_SCISSOR_Y] = api_.scissor_y;
  uint32_t first = kStateUsed, last = 0;
  for (uint32_t i = 0; i < kStateUsed; ++i) {
    if (!(known_ & bit(i)) || d[i] != hw_[i]) {
      first = std::min(first, i);
      last = i;
    }
  }
  if (first == kStateUsed) return;
  const size_t pos = cw_.dwords().size();
  cw_.raw(CommandWriter::header(OP_SET_STATE, first, last - first + 1));
  for (uint32_t i = first; i <= last; ++i) cw_.raw(d[i]);
  for (uint32_t i = first; i <= last; ++i) hw_[i] = d[i];
  known_ |= bits(first, last - first + 1);
  written_ |= bits(first, last - first + 1);
  on_state_emitted(pos, first, last);
}

size_t Context::state_dwords(const HwState& desired, uint64_t used) const {
  size_t n = 0;
  bool in_run = false;
  for (uint32_t i = 0; i < FE_STATE_END; ++i) {
    const bool dirty = (used & bit(i)) && (!(known_ & bit(i)) || desired[i] != hw_[i]);
    if (dirty) n += in_run ? 1 : 2;
    in_run = dirty;
  }
  return n;
}

void Context::emit_state_runs(const HwState& desired, uint64_t used) {
  // Each front-end register written travels down the front end as a state write, so only the
  // registers that change are written: one SET_STATE per run of them.
  uint32_t i = 0;
  while (i < FE_STATE_END) {
    auto dirty = [&](uint32_t k) { return (used & bit(k)) && (!(known_ & bit(k)) || desired[k] != hw_[k]); };
    if (!dirty(i)) {
      ++i;
      continue;
    }
    uint32_t j = i;
    while (j + 1 < FE_STATE_END && dirty(j + 1)) ++j;
    const size_t pos = cw_.dwords().size();
    cw_.raw(CommandWriter::header(OP_SET_STATE, i, j - i + 1));
    for (uint32_t k = i; k <= j; ++k) {
      cw_.raw(desired[k]);
      hw_[k] = desired[k];
    }
    known_ |= bits(i, j - i + 1);
    written_ |= bits(i, j - i + 1);
    on_state_emitted(pos, i, j);
    i = j + 1;
  }
}

// ---- ImmediateContext --------------------------------------------------------------------------

ImmediateContext::ImmediateContext(Device& dev) : Context(dev) {}

ImmediateContext::~ImmediateContext() { clear_state(); }

uint64_t ImmediateContext::open_fence() const { return dev_.flushed_.load() + 1; }

bool ImmediateContext::ensure_space(size_t dwords) {
  const size_t limit = std::min<size_t>(dev_.desc_.max_command_buffer, dev_.ring_.size - 16) / 4;
  if (cw_.dwords().size() + dwords + 2 <= limit) return true;
  return flush_impl(false) == Result::OK;
}

void ImmediateContext::on_use(Resource* r, bool write) { (write ? r->last_write_ : r->last_read_).store(open_fence()); }

void ImmediateContext::on_fence(Fence* f, uint64_t value) {
  Device::Lock lk(dev_.mu_);
  f->last_use_ = open_fence();
  f->highest_ = std::max(f->highest_, value);
}

Result ImmediateContext::flush() { return flush_impl(true); }

Result ImmediateContext::flush_impl(bool process_retire) {
  if (dev_.lost()) return fail(Result::DEVICE_LOST, "device lost: " + dev_.last_error());
  Device::Lock lk(dev_.mu_);
  Result r = Result::OK;
  if (!cw_.dwords().empty()) {
    const uint64_t f = dev_.flushed_.load() + 1;
    cw_.write_reg(dev_.desc_.fence_index, fence_lo32(f), true);
    std::vector<uint32_t> buf;
    if (!dev_.buffer_pool_.empty()) {
      buf = std::move(dev_.buffer_pool_.back());
      dev_.buffer_pool_.pop_back();
    }
    buf.assign(cw_.dwords().begin(), cw_.dwords().end());
    cw_.clear();
    dev_.flushed_.store(f);
    r = dev_.submit_locked(lk, std::move(buf), f);
  }
  if (process_retire) {
    dev_.poll_locked();
    dev_.process_retirements_locked();
  }
  if (r != Result::OK) return fail(r, dev_.last_error_);
  return r;
}

Result ImmediateContext::wait_idle() {
  Result r = flush();
  if (r != Result::OK) return r;
  Device::Lock lk(dev_.mu_);
  r = dev_.wait_locked(lk, dev_.flushed_.load(), false);
  if (r != Result::OK) return fail(r, dev_.last_error_);
  return r;
}

Result ImmediateContext::map(Resource* r, MapType type, uint32_t flags, Mapped* out) {
  if (!out || !r) return fail(Result::INVALID_ARG, "map: null argument");
  *out = Mapped{};
  if (dev_.lost()) return fail(Result::DEVICE_LOST, "device lost: " + dev_.last_error());
  if (!dev_.alive(r)) return fail(Result::INVALID_ARG, "map: not a live resource of this device");
  const bool no_wait = flags & MAP_FLAG_DO_NOT_WAIT;
  uint64_t need = 0;  // fence the CPU access must wait for
  if (type == MapType::READ) need = r->last_gpu_write();
  if (type == MapType::WRITE || type == MapType::READ_WRITE) need = r->last_gpu_use();
  bool shared = false;  // the storage also holds a command list's DISCARD data (copy on write)
  {
    Device::Lock lk(dev_.mu_);
    shared = dev_.shared_locked(r->alloc_);
  }
  // NO_OVERWRITE copies shared storage first: that copy must include every GPU write.
  if (shared && type == MapType::WRITE_NO_OVERWRITE) need = r->last_gpu_write();
  // The work the access depends on is still in the open command buffer: submit it first.
  if (need > dev_.flushed_.load()) {
    const Result fr = flush_impl(true);
    if (fr != Result::OK) return fr;
  }
  Device::Lock lk(dev_.mu_);
  if (r->mapped_) return fail(Result::INVALID_CALL, "map: the resource is already mapped");
  dev_.poll_locked();
  if (need > dev_.completed_) {
    if (no_wait) return fail(Result::STILL_DRAWING, "map: the GPU still uses the resource (fence " +
                                                        std::to_string(need) + ", completed " +
                                                        std::to_string(dev_.completed_) + ")");
    const Result wr = dev_.wait_locked(lk, need, false);
    if (wr != Result::OK) return fail(wr, dev_.last_error_);
  }
  Memory& mem = dev_.backend_.memory();
  shared = dev_.shared_locked(r->alloc_);
  if (type == MapType::WRITE_DISCARD && (r->last_gpu_use() > dev_.completed_ || shared)) {
    // Busy (or the storage belongs to a command list too): rename instead of waiting. The old
    // storage retires at its last use.
    Allocation na;
    const Result ar = dev_.allocate_locked(lk, r->size_, &na);
    if (ar != Result::OK) return fail(ar, "map: out of GPU memory renaming a discarded resource");
    dev_.rename_locked(r, na, r->last_gpu_use());
    ++dev_.stats_.renames;
  } else if (shared && type != MapType::READ) {
    // The storage is a command list's DISCARD data, which a later execution of the list must
    // still find as recorded: copy it to new storage and write there.
    Allocation na;
    const Result ar = dev_.allocate_locked(lk, r->size_, &na);
    if (ar != Result::OK) return fail(ar, "map: out of GPU memory copying storage shared with a command list");
    std::vector<uint8_t> data(r->size_);
    mem.read(r->alloc_.addr, data.data(), r->size_);
    mem.write(na.addr, data.data(), r->size_);
    dev_.rename_locked(r, na, r->last_gpu_use());
    ++dev_.stats_.copy_on_write;
  }
  if (r->shadow_.size() != r->size_) r->shadow_.resize(r->size_);
  if (type != MapType::WRITE_DISCARD) mem.read(r->alloc_.addr, r->shadow_.data(), r->size_);
  if (type == MapType::WRITE_NO_OVERWRITE) r->snapshot_ = r->shadow_;
  r->mapped_ = true;
  r->map_type_ = type;
  out->data = r->shadow_.data();
  out->size = r->size_;
  out->row_pitch = r->kind_ == ResourceKind::TEXTURE2D ? r->pitch_ : r->size_;
  return Result::OK;
}

Result ImmediateContext::unmap(Resource* r) {
  if (!r) return fail(Result::INVALID_ARG, "unmap: null resource");
  Device::Lock lk(dev_.mu_);
  if (!r->mapped_) return fail(Result::INVALID_CALL, "unmap: the resource is not mapped");
  Memory& mem = dev_.backend_.memory();
  const uint32_t base = r->alloc_.addr;
  switch (r->map_type_) {
    case MapType::READ: break;
    case MapType::WRITE:
    case MapType::READ_WRITE:
    case MapType::WRITE_DISCARD: mem.write(base, r->shadow_.data(), r->size_); break;
    case MapType::WRITE_NO_OVERWRITE: {
      // Only what the CPU changed: the rest may be in use by the GPU.
      const uint8_t* s = r->shadow_.data();
      const uint8_t* o = r->snapshot_.data();
      uint32_t i = 0;
      while (i < r->size_) {
        if (s[i] == o[i]) {
          ++i;
          continue;
        }
        uint32_t j = i;
        while (j < r->size_ && s[j] != o[j]) ++j;
        mem.write(base + i, s + i, j - i);
        i = j;
      }
      r->snapshot_.clear();
      break;
    }
  }
  r->mapped_ = false;
  return Result::OK;
}

void ImmediateContext::stamp_list(CommandList* list, uint64_t f) {
  for (const auto& u : list->uses_) (u.write ? u.res->last_write_ : u.res->last_read_).store(f);
  for (Fence* fc : list->fences_) fc->last_use_ = f;
  list->last_use_ = f;
  for (CommandList* n : list->nested_) stamp_list(n, f);
}

std::vector<uint32_t> ImmediateContext::patched_dwords(const CommandList& list) const {
  std::vector<uint32_t> patched = list.dwords_;
  for (const auto& p : list.patches_) {
    patched[p.pos] = p.list ? p.list->gpu_copy_.addr : p.res->gpu_address() + p.offset;
  }
  return patched;
}

Result ImmediateContext::upload_list_locked(Device::Lock& lk, CommandList* list) {
  for (const auto& p : list->patches_) {
    if (!p.list) continue;
    const Result r = upload_list_locked(lk, p.list);
    if (r != Result::OK) return r;
  }
  const std::vector<uint32_t> patched = patched_dwords(*list);
  if (list->gpu_copy_.valid() && list->uploaded_ == patched) return Result::OK;
  Allocation a;
  const Result ar = dev_.allocate_locked(lk, static_cast<uint32_t>(std::max<size_t>(patched.size(), 1) * 4), &a);
  if (ar != Result::OK) return ar;
  if (list->gpu_copy_.valid()) dev_.retire_locked(list->last_use_, Device::Retiree{list->gpu_copy_, nullptr, nullptr});
  dev_.backend_.memory().write(a.addr, patched.data(), patched.size() * 4);
  list->gpu_copy_ = a;
  list->uploaded_ = patched;
  return Result::OK;
}

Result ImmediateContext::execute_command_list(CommandList* list, bool restore_state) {
  if (!list) return fail(Result::INVALID_ARG, "execute_command_list: null list");
  if (dev_.lost()) return fail(Result::DEVICE_LOST, "device lost: " + dev_.last_error());
  // What the list's DISCARDs leave each resource with: the last rename per resource.
  std::vector<std::pair<Resource*, Allocation>> finals;
  for (auto it = list->renames_.rbegin(); it != list->renames_.rend(); ++it) {
    bool seen = false;
    for (const auto& f : finals) seen = seen || f.first == it->first;
    if (!seen) finals.push_back(*it);
  }
  {
    Device::Lock lk(dev_.mu_);
    for (const auto& [r, a] : finals) {
      if (r->mapped_) return fail(Result::INVALID_CALL, "execute_command_list: the list discards a resource that is mapped");
    }
  }
  // The list starts from the device-creation state.
  if (!ensure_space(reset_state_dwords() + 3)) return fail(Result::DEVICE_LOST, "device lost: " + dev_.last_error());
  emit_reset_state();
  uint64_t f = open_fence();
  // Addresses as they are now (a resource may have been renamed since recording); the list's own
  // DISCARDs take effect after it.
  if (dev_.hardware_call() && !list->dwords_.empty()) {
    Device::Lock lk(dev_.mu_);
    const Result ur = upload_list_locked(lk, list);
    if (ur != Result::OK) return fail(ur, "execute_command_list: out of GPU memory for the command list");
    ++dev_.stats_.list_calls;
    lk.unlock();
    cw_.call(list->gpu_copy_.addr, static_cast<uint32_t>(list->dwords_.size()));
  } else {
    {
      Device::Lock lk(dev_.mu_);
      ++dev_.stats_.list_copies;
    }
    // Fallback: the list's commands copied into the ring, command by command (a flush may fall
    // between two commands; later commands then carry a later fence). Lists recorded without
    // hardware CALL have their nested lists copied in, so there is no list patch here.
    const std::vector<uint32_t> patched = patched_dwords(*list);
    size_t pos = 0;
    while (pos < patched.size()) {
      const size_t n = 1 + (patched[pos] & 0xFFFu);
      if (!ensure_space(n)) return fail(Result::DEVICE_LOST, "device lost: " + dev_.last_error());
      for (size_t i = 0; i < n && pos + i < patched.size(); ++i) cw_.raw(patched[pos + i]);
      pos += n;
    }
    f = open_fence();
  }
  {
    Device::Lock lk(dev_.mu_);
    // D3D11: after the list the resources it discarded hold its data. Their storage becomes the
    // list's (shared with it: freed when both have let go); what they held retires after the list.
    for (const auto& [r, a] : finals) {
      if (r->alloc_.addr == a.addr) continue;
      dev_.rename_locked(r, a, std::max(r->last_gpu_use(), f));
      dev_.share_alloc_locked(a);
      ++dev_.stats_.list_renames;
    }
    stamp_list(list, f);
  }
  ++list->executions_;
  forget_state(list->state_written_);  // whatever the list left; the next draw sets it again
  if (!restore_state) clear_state();
  return Result::OK;
}

// ---- DeferredContext ---------------------------------------------------------------------------

DeferredContext::DeferredContext(Device& dev, const DeferredContextDesc& desc) : Context(dev), desc_(desc) {
  begin_list();
}

DeferredContext::~DeferredContext() {
  clear_state();
  if (list_) list_->release();
}

void DeferredContext::begin_list() {
  list_ = dev_.new_list();
  use_idx_.clear();
  tail_call_pos_ = SIZE_MAX;
  cw_.clear();
  hw_ = default_hw_state();
  known_ = ~0ull;
  written_ = 0;
}

void DeferredContext::set_oom(const std::string& why) {
  if (oom_) return;
  oom_ = true;
  oom_msg_ = why;
  // The partly built list is dropped; recording continues into nothing.
  if (list_) list_->release();
  list_ = nullptr;
  use_idx_.clear();
  cw_.clear();
}

bool DeferredContext::ensure_space(size_t dwords) {
  if (oom_) return false;
  size_t owned = 0;
  for (const auto& o : list_->owned_) owned += o.alloc.size;
  if ((cw_.dwords().size() + dwords) * 4 + owned > desc_.max_command_bytes) {
    set_oom("the command list exceeds the deferred context's " + std::to_string(desc_.max_command_bytes) +
            " bytes");
    return false;
  }
  return true;
}

uint32_t DeferredContext::address_of(Resource* r) {
  if (list_) {
    for (auto it = list_->renames_.rbegin(); it != list_->renames_.rend(); ++it) {
      if (it->first == r) return it->second.addr;
    }
  }
  return r->gpu_address();
}

bool DeferredContext::renamed_in_list(const Resource* r) const {
  if (!list_) return false;
  for (const auto& rn : list_->renames_) {
    if (rn.first == r) return true;
  }
  return false;
}

void DeferredContext::on_address(size_t pos, Resource* r, uint32_t offset) {
  // Storage renamed in the list has its final address; anything else is patched at execution.
  if (!renamed_in_list(r)) list_->patches_.push_back({static_cast<uint32_t>(pos), r, offset, nullptr});
}

void DeferredContext::on_fence(Fence* f, uint64_t /*value*/) {
  for (Fence* g : list_->fences_) {
    if (g == f) return;
  }
  f->add_ref();
  list_->fences_.push_back(f);
}

void DeferredContext::on_state_emitted(size_t pos, uint32_t first, uint32_t last) {
  // The registers that hold a resource address: patched when the list runs.
  auto patch = [&](uint32_t idx, Resource* r, uint32_t offset) {
    if (r && idx >= first && idx <= last) on_address(pos + 1 + idx - first, r, offset);
  };
  patch(ST_VB_BASE, api_.pt_vb, api_.pt_vb_offset);
  patch(ST_RT_BASE, api_.rt, 0);
  patch(FE_VB0_BASE, api_.vbs[0].buffer, api_.vbs[0].offset);
  patch(FE_VB1_BASE, api_.vbs[1].buffer, api_.vbs[1].offset);
  patch(FE_IB_BASE, api_.ib, api_.ib_offset);
  patch(FE_RT_BASE, api_.rt, 0);
}

void DeferredContext::on_use(Resource* r, bool write) {
  auto it = use_idx_.find(r);
  if (it == use_idx_.end()) {
    r->add_ref();
    use_idx_[r] = list_->uses_.size();
    list_->uses_.push_back({r, write});
  } else if (write) {
    list_->uses_[it->second].write = true;
  }
}

Result DeferredContext::execute_command_list(CommandList* inner, bool restore_state) {
  if (!inner) return fail(Result::INVALID_ARG, "execute_command_list: null list");
  if (inner == list_) return fail(Result::INVALID_ARG, "execute_command_list: the list being recorded");
  if (dev_.lost()) return fail(Result::DEVICE_LOST, "device lost");
  if (!oom_) {
    // CALL when the hardware has it, the nesting fits the return stack (the immediate context's
    // CALL of the outermost list takes one level) and the inner list's patched addresses are what
    // they will be when this list runs: a resource this list has renamed so far would need this
    // list's storage in them, so such a list is copied in with those addresses resolved now.
    bool call = dev_.hardware_call() && !inner->dwords_.empty() && inner->depth_ + 1 <= RET_STACK_DEPTH;
    for (const auto& p : inner->patches_) call = call && (p.list || !renamed_in_list(p.res));
    const size_t need = reset_state_dwords() + (call ? 3 : inner->dwords_.size());
    if (ensure_space(need)) {
      emit_reset_state();
      if (call) {
        const size_t pos = cw_.dwords().size();
        cw_.call(0, static_cast<uint32_t>(inner->dwords_.size()));
        list_->patches_.push_back({static_cast<uint32_t>(pos + 1), nullptr, 0, inner});
        tail_call_pos_ = pos;
        list_->depth_ = std::max(list_->depth_, inner->depth_ + 1);
      } else {
        const size_t base = cw_.dwords().size();
        std::vector<uint32_t> d = inner->dwords_;
        for (const auto& p : inner->patches_) {
          const uint32_t pos = static_cast<uint32_t>(base + p.pos);
          if (p.list) {
            list_->patches_.push_back({pos, nullptr, 0, p.list});
          } else if (renamed_in_list(p.res)) {
            d[p.pos] = address_of(p.res) + p.offset;
          } else {
            list_->patches_.push_back({pos, p.res, p.offset, nullptr});
          }
        }
        // A tail call at the end of the inner list must return here: CALL again.
        for (const auto& p : inner->patches_) {
          if (p.list && p.pos + 2 == d.size() && d[p.pos - 1] == CommandWriter::header(OP_JUMP, 0, 2))
            d[p.pos - 1] = CommandWriter::header(OP_CALL, 0, 2);
        }
        for (uint32_t v : d) cw_.raw(v);
        list_->depth_ = std::max(list_->depth_, inner->depth_);
      }
      inner->refs_.fetch_add(1);
      list_->nested_.push_back(inner);
      written_ |= inner->state_written_;
      // After the inner list its DISCARDs hold (its storage stays valid: the reference above).
      list_->renames_.insert(list_->renames_.end(), inner->renames_.begin(), inner->renames_.end());
    }
  }
  forget_state(inner->state_written_);
  if (!restore_state) clear_state();
  return Result::OK;
}

Result DeferredContext::map(Resource* r, MapType type, uint32_t /*flags*/, Mapped* out) {
  if (!out || !r) return fail(Result::INVALID_ARG, "map: null argument");
  *out = Mapped{};
  if (type != MapType::WRITE_DISCARD && type != MapType::WRITE_NO_OVERWRITE)
    return fail(Result::INVALID_CALL, "map: a deferred context allows only WRITE_DISCARD and WRITE_NO_OVERWRITE");
  if (!dev_.alive(r)) return fail(Result::INVALID_ARG, "map: not a live resource of this device");
  auto scratch = [&]() {
    scratch_.assign(r->size(), 0);
    out->data = scratch_.data();
    out->size = r->size();
    out->row_pitch = r->kind() == ResourceKind::TEXTURE2D ? r->pitch() : r->size();
    return Result::OK;
  };
  if (oom_) return scratch();
  CommandList::Owned* owned = nullptr;
  for (auto it = list_->owned_.rbegin(); it != list_->owned_.rend(); ++it) {
    if (it->res == r) {
      owned = &*it;
      break;
    }
  }
  if (type == MapType::WRITE_NO_OVERWRITE && !owned)
    return fail(Result::INVALID_CALL,
                "map: WRITE_NO_OVERWRITE on a deferred context needs an earlier WRITE_DISCARD of the resource in "
                "the same command list");
  if (owned && owned->mapped) return fail(Result::INVALID_CALL, "map: the resource is already mapped");
  if (type == MapType::WRITE_NO_OVERWRITE && address_of(r) != owned->alloc.addr)
    return fail(Result::INVALID_CALL, "map: WRITE_NO_OVERWRITE after a nested command list discarded the resource");
  if (type == MapType::WRITE_DISCARD) {
    if (!ensure_space(r->size() / 4)) return scratch();
    Allocation a;
    Result ar;
    {
      Device::Lock lk(dev_.mu_);
      ar = dev_.allocate_locked(lk, r->size(), &a);
    }
    if (ar != Result::OK) {
      set_oom("out of GPU memory for a WRITE_DISCARD of " + std::to_string(r->size()) + " bytes");
      return scratch();
    }
    r->add_ref();
    list_->owned_.push_back({r, a, std::vector<uint8_t>(r->size()), false});
    list_->renames_.emplace_back(r, a);
    owned = &list_->owned_.back();
  }
  owned->mapped = true;
  out->data = owned->shadow.data();
  out->size = r->size();
  out->row_pitch = r->kind() == ResourceKind::TEXTURE2D ? r->pitch() : r->size();
  return Result::OK;
}

Result DeferredContext::unmap(Resource* r) {
  if (!r) return fail(Result::INVALID_ARG, "unmap: null resource");
  if (oom_) return Result::OK;
  for (auto it = list_->owned_.rbegin(); it != list_->owned_.rend(); ++it) {
    if (it->res != r || !it->mapped) continue;
    it->mapped = false;
    // The storage belongs to the list and no GPU work uses it yet: write it now.
    Device::Lock lk(dev_.mu_);
    dev_.backend_.memory().write(it->alloc.addr, it->shadow.data(), it->shadow.size());
    return Result::OK;
  }
  return fail(Result::INVALID_CALL, "unmap: the resource is not mapped on this deferred context");
}

Result DeferredContext::finish_command_list(bool restore_state, CommandList** out) {
  if (!out) return fail(Result::INVALID_ARG, "finish_command_list: out is null");
  *out = nullptr;
  if (!restore_state) clear_state();
  if (oom_) {
    oom_ = false;
    const std::string msg = "finish_command_list: out of memory while recording: " + oom_msg_;
    begin_list();
    return fail(Result::OUT_OF_MEMORY, msg);
  }
  for (auto& o : list_->owned_) {  // FinishCommandList unmaps what is still mapped
    if (!o.mapped) continue;
    o.mapped = false;
    Device::Lock lk(dev_.mu_);
    dev_.backend_.memory().write(o.alloc.addr, o.shadow.data(), o.shadow.size());
  }
  list_->dwords_.assign(cw_.dwords().begin(), cw_.dwords().end());
  list_->state_written_ = written_;
  // A list that ends with a nested list continues there with JUMP (a tail call: it returns where
  // this list would have, and takes no return-stack level of its own).
  if (tail_call_pos_ != SIZE_MAX && tail_call_pos_ + 3 == list_->dwords_.size()) {
    list_->dwords_[tail_call_pos_] = CommandWriter::header(OP_JUMP, 0, 2);
  }
  for (auto& o : list_->owned_) std::vector<uint8_t>().swap(o.shadow);  // CPU copy no longer needed
  *out = list_;
  list_ = nullptr;
  begin_list();
  return Result::OK;
}

}  // namespace pineda::rt
