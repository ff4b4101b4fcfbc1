// SPDX-License-Identifier: Apache-2.0
// ImmediateContext: records into the device's ring, flushes, maps and executes command lists.

#include <algorithm>

#include "fence.h"
#include "runtime.h"

namespace pineda::rt {

// ---- ImmediateContext --------------------------------------------------------------------------

ImmediateContext::ImmediateContext(Device& dev) : Context(dev) {}

ImmediateContext::~ImmediateContext() { clear_state(); }

uint64_t ImmediateContext::open_fence() const { return dev_.flushed_.load() + 1; }

bool ImmediateContext::ensure_space(size_t dwords) {
  const size_t limit = std::min<size_t>(dev_.desc_.max_command_buffer, dev_.ring_.size - 16) / 4;
  if (cw_.dwords().size() + dwords + 2 <= limit) return true;
  return flush_impl(false) == Result::OK;
}

bool ImmediateContext::mapped_at_record(Resource* r) {
  // mapped_ is written only by this context's map and unmap (on this thread), so reading it
  // here needs no lock (others read it under the device's lock).
  return r->mapped_;
}

const Resource* ImmediateContext::mapped_use_locked(const CommandList* list) {
  for (const auto& u : list->uses_) {
    if (u.res->mapped_) return u.res;
  }
  for (const CommandList* n : list->nested_) {
    if (const Resource* r = mapped_use_locked(n)) return r;
  }
  return nullptr;
}

namespace {
std::string describe(const Resource* r) {
  if (r->kind() == ResourceKind::BUFFER) return "a buffer of " + std::to_string(r->size()) + " bytes";
  return "a " + std::to_string(r->width()) + "x" + std::to_string(r->height()) + " texture";
}
}  // namespace

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
  if (r->sampled()) return fail(Result::INVALID_ARG, "map: a sampled texture is not mappable (use update_subresource)");
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
  if (!dev_.alive_locked(r)) return fail(Result::INVALID_ARG, "unmap: not a live resource of this device");
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
  {
    Device::Lock lk(dev_.mu_);
    if (!dev_.list_alive_locked(list))
      return fail(Result::INVALID_ARG, "execute_command_list: not a live command list of this device");
  }
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
    // D3D11: no GPU use of a mapped resource. A deferred context cannot see this context's Map
    // when it records, so its draws, clears and copies are checked here.
    if (const Resource* m = mapped_use_locked(list))
      return fail(Result::INVALID_CALL, "execute_command_list: the list uses " + describe(m) +
                                            " that is mapped (unmap it first)");
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

}  // namespace pineda::rt
