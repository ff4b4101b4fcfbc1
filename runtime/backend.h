// SPDX-License-Identifier: Apache-2.0
// What the runtime needs from a GPU: GPU memory, the ring registers, a kick (RING_WPTR), the
// completed fence, and a way to let the GPU run (a simulator only runs when asked).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "mem/memory.h"
#include "pineda_contract.h"

namespace pineda::model {
class PinedaTop;
}

namespace pineda::rt {

class Backend {
 public:
  virtual ~Backend() = default;
  virtual const char* name() const = 0;
  // GPU memory, shared by host and GPU. The Device touches it only under its lock, between
  // calls to advance().
  virtual Memory& memory() = 0;
  // Programs RING_BASE, RING_SIZE, RING_WPTR = 0, FENCE[fence_index] = initial_fence and
  // CONTROL = 1. The ring is empty (RPTR = 0) when this is called.
  virtual void start(uint32_t ring_base, uint32_t ring_size, uint32_t fence_index, uint32_t initial_fence) = 0;
  // The host has written the ring up to byte offset `wptr`; the submission ends with an EOP
  // WRITE_REG of `fence` (low 32 bits) to the fence register (informational for simulators).
  virtual void kick(uint32_t wptr, uint64_t fence) = 0;
  // The 32-bit value of FENCE[fence_index].
  virtual uint32_t read_fence() = 0;
  // Lets the GPU make some progress; returns true when it may have (a simulator ran). A backend
  // whose GPU runs on its own (or never, like the manual one) returns false and the Device sleeps
  // briefly between polls.
  virtual bool advance() = 0;
  // The Device's DeviceDesc::timeout: a simulator whose advance() could run longer than this
  // (one huge draw) gives up, stops making progress, and the Device then reports DEVICE_LOST.
  virtual void set_watchdog(std::chrono::milliseconds) {}
  // Host register reads (STATUS and ERROR_CAUSE for diagnostics, REG_ID, fence registers).
  virtual uint32_t read_reg(uint32_t idx) = 0;
  // A host register write (user fences: initial value, CPU-side signal).
  virtual void write_reg(uint32_t idx, uint32_t value) = 0;

 protected:
  // What start() writes, in order, through write_reg.
  void write_start_regs(uint32_t ring_base, uint32_t ring_size, uint32_t fence_index, uint32_t initial_fence);
};

// A GPU reached through its host registers (the golden model, the RTL): start() writes the
// start registers, kick() RING_WPTR, and read_fence() reads the fence register.
class RegisterBackend : public Backend {
 public:
  void start(uint32_t ring_base, uint32_t ring_size, uint32_t fence_index, uint32_t initial_fence) override;
  void kick(uint32_t wptr, uint64_t fence) override;
  uint32_t read_fence() override;

 private:
  uint32_t fence_index_ = 0;
};

// The golden model (model::PinedaTop over a Memory). advance() decodes up to `dwords_per_advance`
// ring dwords, every draw running to completion.
class GoldenBackend : public RegisterBackend {
 public:
  explicit GoldenBackend(uint64_t dwords_per_advance = 4096);
  ~GoldenBackend() override;
  const char* name() const override { return "golden"; }
  Memory& memory() override { return mem_; }
  bool advance() override;
  void set_watchdog(std::chrono::milliseconds t) override { watchdog_ = t; }
  uint32_t read_reg(uint32_t idx) override;
  void write_reg(uint32_t idx, uint32_t value) override;
  model::PinedaTop& gpu() { return *gpu_; }
  bool hung() const { return hung_; }  // a draw ran past the watchdog and was abandoned
  // Runs until the ring is empty (no budget).
  void run_to_idle();

 private:
  Memory mem_;
  std::unique_ptr<model::PinedaTop> gpu_;
  uint64_t budget_;
  std::chrono::milliseconds watchdog_{0};  // 0: none
  bool hung_ = false;
};

// A GPU that never executes anything: the test sets the completed fence by hand (from any
// thread, or from on_poll, which the Device calls - holding its lock - every time it polls while
// waiting). Records every kick and can check that the ring bytes of every submission that is not
// yet complete are unchanged (ring overrun checks).
class ManualBackend : public Backend {
 public:
  struct Kick {
    uint32_t begin = 0, end = 0;  // ring byte offsets [begin, end) (wrapping)
    uint64_t fence = 0;
    std::vector<uint32_t> dwords; // ring contents at kick time
  };

  const char* name() const override { return "manual"; }
  Memory& memory() override { return mem_; }
  void start(uint32_t ring_base, uint32_t ring_size, uint32_t fence_index, uint32_t initial_fence) override;
  void kick(uint32_t wptr, uint64_t fence) override;
  uint32_t read_fence() override;
  bool advance() override;
  uint32_t read_reg(uint32_t idx) override;
  void write_reg(uint32_t idx, uint32_t value) override;  // recorded; read_reg returns it

  // Test side.
  void set_fence(uint32_t value);
  void complete(uint64_t fence) { set_fence(static_cast<uint32_t>(fence)); }
  std::function<void()> on_poll;  // called under the Device lock: must not call the Device
  uint64_t polls() const;
  std::vector<Kick> kicks() const;
  size_t kick_count() const;
  uint64_t last_kicked_fence() const;
  // For every kick whose fence has not been reached: do the ring bytes still hold what was
  // kicked? Returns the number of kicks checked; throws std::runtime_error on corruption.
  size_t verify_outstanding();

 private:
  mutable std::mutex mu_;
  Memory mem_;
  uint32_t ring_base_ = 0, ring_size_ = 0, wptr_ = 0, fence_index_ = 0;
  uint32_t fence_ = 0;
  uint64_t polls_ = 0;
  std::vector<Kick> kicks_;
  std::map<uint32_t, uint32_t> regs_;  // host-written registers other than the runtime's fence
};

// Captures what the runtime hands a GPU without running anything: GPU memory and every host
// register write, in order (start, kicks, user-fence writes). Used to build a command stream and
// memory image with the runtime and replay it elsewhere (the regression scenes, sim/scene_builder.h).
// Its fence never moves, so any wait of the Device on it fails (device lost after
// DeviceDesc::timeout; waits() counts the polls): a captured stream must be built without
// waiting on the GPU. release() completes every submitted fence so that the Device can be
// destroyed afterwards.
class CaptureBackend : public Backend {
 public:
  // `id`: what REG_ID reads (the default, the current contract, makes the Device use CALL).
  explicit CaptureBackend(uint32_t id = ID_VALUE) : id_(id) {}
  const char* name() const override { return "capture"; }
  Memory& memory() override { return mem_; }
  void start(uint32_t ring_base, uint32_t ring_size, uint32_t fence_index, uint32_t initial_fence) override;
  void kick(uint32_t wptr, uint64_t fence) override;
  uint32_t read_fence() override { return fence_; }
  bool advance() override;
  uint32_t read_reg(uint32_t idx) override;
  void write_reg(uint32_t idx, uint32_t value) override;

  // Every host register write so far, in order.
  const std::vector<std::pair<uint32_t, uint32_t>>& reg_writes() const { return writes_; }
  uint32_t ring_base() const { return ring_base_; }
  uint32_t ring_size() const { return ring_size_; }
  uint32_t wptr() const { return wptr_; }
  uint64_t last_kicked_fence() const { return last_fence_; }
  uint64_t kicks() const { return kicks_; }
  uint64_t waits() const { return waits_; }
  // Appends END after the last submission and records the RING_WPTR write that submits it, for
  // a replay that must stop (the regression harness runs until END). Call it after the last
  // flush. Throws std::logic_error when the ring has no room for it.
  void append_end();
  // Lets the Device finish: the fence register reads the last kicked fence from now on.
  void release() { fence_ = static_cast<uint32_t>(last_fence_); }

 private:
  void record(uint32_t idx, uint32_t value) { writes_.emplace_back(idx, value); }

  uint32_t id_;
  Memory mem_;
  uint32_t ring_base_ = 0, ring_size_ = 0, wptr_ = 0, fence_index_ = 0, fence_ = 0;
  uint64_t last_fence_ = 0, kicks_ = 0, waits_ = 0;
  std::vector<std::pair<uint32_t, uint32_t>> writes_;
};

}  // namespace pineda::rt
