// SPDX-License-Identifier: Apache-2.0
// DeferredContext: records command lists for later execution on the immediate context.

#include <algorithm>

#include "runtime.h"

namespace pineda::rt {

// ---- DeferredContext ---------------------------------------------------------------------------

DeferredContext::DeferredContext(Device& dev, const DeferredContextDesc& desc) : Context(dev), desc_(desc) {
  begin_list();
}

DeferredContext::~DeferredContext() {
  clear_state();
  if (list_) dev_.release_list(list_);  // the list being recorded (never handed out)
}

void DeferredContext::begin_list() {
  list_ = dev_.new_list();
  use_idx_.clear();
  tail_call_pos_ = SIZE_MAX;
  cw_.clear();
  hw_ = default_hw_state();
  known_.set();
  written_.reset();
}

void DeferredContext::set_oom(const std::string& why) {
  if (oom_) return;
  oom_ = true;
  oom_msg_ = why;
  // The partly built list is dropped; recording continues into nothing.
  if (list_) dev_.release_list(list_);  // never handed out: not in live_lists_
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
  patch(FE_DS_BASE, api_.ds, 0);
  patch(FE_TEX0, api_.srv_desc[0], 0);
  patch(FE_SAMP0, api_.samp_desc[0], 0);
  patch(FE_TEX1, api_.srv_desc[1], 0);
  patch(FE_SAMP1, api_.samp_desc[1], 0);
}

bool DeferredContext::mapped_at_record(Resource* r) {
  // Only its own Map is visible here (as in D3D11): the immediate context's map state is checked
  // when the list is executed.
  if (!list_) return false;
  for (const auto& o : list_->owned_) {
    if (o.res == r && o.mapped) return true;
  }
  return false;
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
  {
    Device::Lock lk(dev_.mu_);
    if (!dev_.list_alive_locked(inner))
      return fail(Result::INVALID_ARG, "execute_command_list: not a live command list of this device");
  }
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
          if (p.list && p.pos + OP_JUMP_LEN == d.size() && d[p.pos - 1] == CommandWriter::header(OP_JUMP, 0, OP_JUMP_LEN))
            d[p.pos - 1] = CommandWriter::header(OP_CALL, 0, OP_CALL_LEN);
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
  if (r->sampled()) return fail(Result::INVALID_ARG, "map: a sampled texture is not mappable (use update_subresource)");
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
    list_->dwords_[tail_call_pos_] = CommandWriter::header(OP_JUMP, 0, OP_JUMP_LEN);
  }
  for (auto& o : list_->owned_) std::vector<uint8_t>().swap(o.shadow);  // CPU copy no longer needed
  *out = list_;
  {
    Device::Lock lk(dev_.mu_);
    dev_.live_lists_.insert(list_);
  }
  list_ = nullptr;
  begin_list();
  return Result::OK;
}

}  // namespace pineda::rt
