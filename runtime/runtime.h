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

namespace pineda::rt {

enum class Result : int {
  OK = 0,
  STILL_DRAWING,   // Map with DO_NOT_WAIT on a resource the GPU still uses
  INVALID_ARG,     // a bad argument (null, wrong bind flags, out of range, not alive)
  INVALID_CALL,    // a call not allowed in this state (Unmap of an unmapped resource, READ map on a deferred context)
  OUT_OF_MEMORY,   // GPU heap or deferred-context memory exhausted
  DEVICE_LOST,     // the fence stopped advancing past the timeout, or the CP reported an error
  NOT_SUPPORTED,   // valid in D3D11 but not on this hardware (e.g. indexed draws)
};
const char* result_name(Result r);

enum BindFlags : uint32_t {
  BIND_VERTEX_BUFFER = 1u << 0,
  BIND_INDEX_BUFFER = 1u << 1,
  BIND_CONSTANT_BUFFER = 1u << 2,
  BIND_SHADER_RESOURCE = 1u << 3,  // textures
  BIND_RENDER_TARGET = 1u << 4,
};

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
  uint32_t width = 0, height = 0;
  uint32_t pitch = 0;  // bytes per row, 0: width * 4 * samples; a multiple of 4, >= width * 4 * samples
  uint32_t bind = 0;
  uint32_t samples = 1;  // 1, or 4: a 4x MSAA render target (4 RGBA8 samples per pixel, docs/numerics.md section 6)
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

// The state a context binds; turned into SET_STATE at Draw.
struct ApiState {
  Resource* vb = nullptr;
  uint32_t vb_offset = 0;
  Resource* rt = nullptr;
  uint32_t color = 0;
  uint32_t scissor_x = ST_SCISSOR_X_RESET, scissor_y = ST_SCISSOR_Y_RESET;
};

// Shared by immediate and deferred contexts: state setters, draw encoding.
class Context {
 public:
  virtual ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  Result set_vertex_buffer(Resource* vb, uint32_t offset = 0);
  Result set_render_target(Resource* rt);
  void set_color(uint32_t rgba8) { api_.color = rgba8; }
  // Pixels x0 <= x < x1, y0 <= y < y1 (clipped to the target by the hardware).
  Result set_scissor(uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1);
  void clear_state();  // everything unbound, defaults (the device-creation state)
  // Triangle list of `vertex_count` vertices from `first_vertex` of the bound vertex buffer.
  Result draw(uint32_t vertex_count, uint32_t first_vertex);
  // Indexed draws: the v1 hardware has none.
  Result draw_indexed(uint32_t index_count, uint32_t first_index, int32_t base_vertex);
  // A DMA copy (COPY) of `bytes` bytes from `src` at byte `src_offset` to `dst` at `dst_offset`,
  // any alignment (D3D12's CopyBufferRegion; textures are linear, row y at y * pitch). It runs
  // after every earlier draw has finished and before any later command. The ranges must lie
  // inside the resources and must not overlap.
  Result copy_region(Resource* dst, uint32_t dst_offset, Resource* src, uint32_t src_offset, uint32_t bytes);
  // CopyResource: the whole of `src` into `dst` (same size).
  Result copy_resource(Resource* dst, Resource* src);
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
  virtual void on_state_emitted(size_t /*pos*/, const std::array<uint32_t, NUM_STATE>& /*hw*/,
                                uint32_t /*first*/, uint32_t /*last*/) {}
  // Dword `pos` of the recording holds address_of(r) + offset (deferred: patched at execution).
  virtual void on_address(size_t /*pos*/, Resource* /*r*/, uint32_t /*offset*/) {}
  virtual void on_use(Resource* r, bool write) = 0;  // fence/usage bookkeeping
  virtual void on_fence(Fence* f, uint64_t value) = 0;
  virtual bool recording_dropped() const { return false; }
  // Room for `dwords` more dwords: true to encode; false with *r = OK (a deferred context that
  // ran out of memory records nothing but accepts the call) or DEVICE_LOST.
  bool reserve(size_t dwords, Result* r);
  void emit_state();
  // SET_STATE of every used state register to its reset value (before a command list).
  void emit_reset_state();
  Result check_copy(Resource* dst, uint32_t dst_offset, Resource* src, uint32_t src_offset, uint32_t bytes);
  Result check_fence(Fence* f, const char* what);
  static std::array<uint32_t, NUM_STATE> default_hw_state();

  Device& dev_;
  ApiState api_;
  CommandWriter cw_;
  std::array<uint32_t, NUM_STATE> hw_{};  // what the hardware holds after the recorded commands
  bool hw_known_ = true;
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
  void on_state_emitted(size_t pos, const std::array<uint32_t, NUM_STATE>& hw, uint32_t first, uint32_t last) override;
  void on_address(size_t pos, Resource* r, uint32_t offset) override;
  void on_use(Resource* r, bool write) override;
  void on_fence(Fence* f, uint64_t value) override;
  bool renamed_in_list(const Resource* r) const;
  uint32_t address_of(Resource* r) override;
  bool recording_dropped() const override { return oom_; }
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
  Result create_deferred_context(const DeferredContextDesc& desc, std::unique_ptr<DeferredContext>* out);
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
