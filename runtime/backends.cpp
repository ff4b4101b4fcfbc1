// SPDX-License-Identifier: Apache-2.0
#include <stdexcept>
#include <string>

#include "backend.h"
#include "command_writer.h"
#include "fence.h"
#include "pineda_contract.h"
#include "top/pineda_top.h"

namespace pineda::rt {

void Backend::write_start_regs(uint32_t ring_base, uint32_t ring_size, uint32_t fence_index, uint32_t initial_fence) {
  write_reg(REG_FENCE0 + fence_index, initial_fence);
  write_reg(REG_RING_BASE, ring_base);
  write_reg(REG_RING_SIZE, ring_size);
  write_reg(REG_RING_WPTR, 0);
  write_reg(REG_CONTROL, 1);
}

// ---- register ----------------------------------------------------------------------------------

void RegisterBackend::start(uint32_t ring_base, uint32_t ring_size, uint32_t fence_index, uint32_t initial_fence) {
  fence_index_ = fence_index;
  write_start_regs(ring_base, ring_size, fence_index, initial_fence);
}

void RegisterBackend::kick(uint32_t wptr, uint64_t /*fence*/) { write_reg(REG_RING_WPTR, wptr); }

uint32_t RegisterBackend::read_fence() { return read_reg(REG_FENCE0 + fence_index_); }

// ---- golden ------------------------------------------------------------------------------------

GoldenBackend::GoldenBackend(uint64_t dwords_per_advance)
    : gpu_(std::make_unique<model::PinedaTop>(mem_)), budget_(dwords_per_advance) {
  gpu_->set_trace_enabled(false);
}

GoldenBackend::~GoldenBackend() = default;

bool GoldenBackend::advance() {
  if (hung_) return false;  // the abandoned draw left the model in no defined state
  const uint32_t before = gpu_->reg_read(REG_RING_RPTR);
  if (watchdog_.count() > 0) {
    const auto deadline = std::chrono::steady_clock::now() + watchdog_;
    gpu_->set_abort_check([deadline] { return std::chrono::steady_clock::now() > deadline; });
  }
  try {
    gpu_->run(budget_);
  } catch (const model::GpuAborted&) {
    hung_ = true;
    return false;
  }
  return gpu_->reg_read(REG_RING_RPTR) != before;
}

void GoldenBackend::run_to_idle() { gpu_->run(); }

uint32_t GoldenBackend::read_reg(uint32_t idx) { return gpu_->reg_read(idx); }

void GoldenBackend::write_reg(uint32_t idx, uint32_t value) { gpu_->reg_write(idx, value); }

// ---- manual ------------------------------------------------------------------------------------

void ManualBackend::start(uint32_t ring_base, uint32_t ring_size, uint32_t fence_index, uint32_t initial_fence) {
  std::lock_guard<std::mutex> lk(mu_);
  ring_base_ = ring_base;
  ring_size_ = ring_size;
  fence_index_ = fence_index;
  fence_ = initial_fence;
  wptr_ = 0;
}

void ManualBackend::kick(uint32_t wptr, uint64_t fence) {
  std::lock_guard<std::mutex> lk(mu_);
  Kick k;
  k.begin = wptr_;
  k.end = wptr;
  k.fence = fence;
  for (uint32_t off = wptr_; off != wptr; off = (off + 4 == ring_size_) ? 0 : off + 4) {
    k.dwords.push_back(mem_.read32(ring_base_ + off));
  }
  wptr_ = wptr;
  kicks_.push_back(std::move(k));
}

uint32_t ManualBackend::read_fence() {
  std::lock_guard<std::mutex> lk(mu_);
  return fence_;
}

bool ManualBackend::advance() {
  std::function<void()> hook;
  {
    std::lock_guard<std::mutex> lk(mu_);
    ++polls_;
    hook = on_poll;
  }
  if (hook) hook();
  return false;
}

uint32_t ManualBackend::read_reg(uint32_t idx) {
  std::lock_guard<std::mutex> lk(mu_);
  if (idx == REG_FENCE0 + fence_index_) return fence_;
  if (idx == REG_RING_WPTR) return wptr_;
  if (idx == REG_STATUS) return 1u << STATUS_RUNNING;
  const auto it = regs_.find(idx);
  return it == regs_.end() ? 0 : it->second;
}

void ManualBackend::write_reg(uint32_t idx, uint32_t value) {
  std::lock_guard<std::mutex> lk(mu_);
  if (idx == REG_FENCE0 + fence_index_) {
    fence_ = value;
  } else {
    regs_[idx] = value;
  }
}

void ManualBackend::set_fence(uint32_t value) {
  std::lock_guard<std::mutex> lk(mu_);
  fence_ = value;
}

uint64_t ManualBackend::polls() const {
  std::lock_guard<std::mutex> lk(mu_);
  return polls_;
}

std::vector<ManualBackend::Kick> ManualBackend::kicks() const {
  std::lock_guard<std::mutex> lk(mu_);
  return kicks_;
}

size_t ManualBackend::kick_count() const {
  std::lock_guard<std::mutex> lk(mu_);
  return kicks_.size();
}

uint64_t ManualBackend::last_kicked_fence() const {
  std::lock_guard<std::mutex> lk(mu_);
  return kicks_.empty() ? 0 : kicks_.back().fence;
}

size_t ManualBackend::verify_outstanding() {
  std::lock_guard<std::mutex> lk(mu_);
  size_t n = 0;
  for (const Kick& k : kicks_) {
    if (fence32_reached(fence_, fence_lo32(k.fence))) continue;
    ++n;
    uint32_t off = k.begin;
    for (size_t i = 0; i < k.dwords.size(); ++i) {
      if (mem_.read32(ring_base_ + off) != k.dwords[i]) {
        throw std::runtime_error("ring corruption: submission with fence " + std::to_string(k.fence) +
                                 " overwritten at ring offset " + std::to_string(off) + " before its fence");
      }
      off = (off + 4 == ring_size_) ? 0 : off + 4;
    }
  }
  return n;
}

// ---- capture -----------------------------------------------------------------------------------

void CaptureBackend::start(uint32_t ring_base, uint32_t ring_size, uint32_t fence_index, uint32_t initial_fence) {
  ring_base_ = ring_base;
  ring_size_ = ring_size;
  fence_index_ = fence_index;
  last_fence_ = initial_fence;
  wptr_ = 0;
  write_start_regs(ring_base, ring_size, fence_index, initial_fence);
}

void CaptureBackend::kick(uint32_t wptr, uint64_t fence) {
  wptr_ = wptr;
  last_fence_ = fence;
  ++kicks_;
  record(REG_RING_WPTR, wptr);
}

bool CaptureBackend::advance() {
  ++waits_;
  return false;
}

uint32_t CaptureBackend::read_reg(uint32_t idx) {
  if (idx == REG_ID) return id_;
  if (idx == REG_FENCE0 + fence_index_) return fence_;
  if (idx == REG_STATUS) return 1u << STATUS_RUNNING;
  if (idx == REG_RING_WPTR) return wptr_;
  uint32_t v = 0;  // the last value the host wrote (fences), else 0
  for (const auto& [i, val] : writes_) {
    if (i == idx) v = val;
  }
  return v;
}

void CaptureBackend::write_reg(uint32_t idx, uint32_t value) {
  if (idx == REG_FENCE0 + fence_index_) fence_ = value;
  record(idx, value);
}

void CaptureBackend::append_end() {
  if (ring_size_ == 0) throw std::logic_error("CaptureBackend::append_end: the ring was never started");
  const uint32_t next = (wptr_ + 4 == ring_size_) ? 0 : wptr_ + 4;
  // The Device keeps one free dword before the oldest unfinished submission; nothing has finished
  // here, so the ring's start (offset 0) is that submission's start.
  if (next == 0) throw std::logic_error("CaptureBackend::append_end: the ring is full");
  mem_.write32(ring_base_ + wptr_, CommandWriter::header(OP_END, 0, 0));
  wptr_ = next;
  record(REG_RING_WPTR, wptr_);
}

}  // namespace pineda::rt
