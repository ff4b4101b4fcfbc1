// SPDX-License-Identifier: Apache-2.0
// Pixel writer (docs/contract.md section 5, numerics.md section 6, docs/architecture.md "Colour
// cache"): a write-back colour cache of 64-byte lines in front of the line port.
//
// Memory effect of a quad (the reference, `pixel_writes`): one pixel write per covered pixel
// (1x) or sample (4x MSAA), lowest mask bit first, of bytes_per_pixel(om.fmt) = b bytes (4, or 2
// for B5G6R5) at (target.base + y*target.pitch + x*b [4x: x*4b + s*b]) mod 2^32, the address
// aligned down to b.
//
// The cache (`process`, `flush`) turns the quad stream into line requests; their sequence
// depends only on the quads, the end-of-pipe tokens among them and the flush requests, so the
// model predicts the RTL's line-request stream exactly:
// - Two banks of `entries` lines each (default PW_ENTRIES = 32: 4 KiB), fully associative
//   (a line is in at most one entry of either bank). An entry holds a line address (26 bits), its
//   32 halfwords and a halfword dirty mask; valid 0 = empty.
// - A quad is split into pieces: each of its two pixel rows covers 2 (1x) or 8 (4x) consecutive
//   pixels (2 halfwords each, or 1 for B5G6R5), which fall in one line or straddle two. Up to four
//   pieces (row 0 line, row 0 next line, row 1 line, row 1 next line); pieces with no covered
//   halfword are dropped, and a row-1 piece whose line equals a row-0 piece's is merged into it
//   (small or aliasing pitches).
// - Pieces are applied in that order. A hit writes the pixels and ORs the piece's mask into the
//   dirty and valid masks. A miss allocates in bank (row of the piece: 0 or 1) the entry at that
//   bank's round-robin pointer (then advanced); if that entry is dirty it is evicted first.
// - A flush (end-of-pipe token, or an explicit flush: COPY, end of frame) writes every dirty entry
//   back, one step at a time: bank 0's lowest dirty entry, then bank 1's; every entry becomes
//   empty (clean lines are dropped too: memory may change behind the cache).
// - A line write: we = 1, addr = line << 6, wdata = the line's dirty halfwords (0 elsewhere),
//   be = their bytes, src = 0, tag = 0.
//
// Output merger (docs/om.md section 5): a quad whose om state blends, has a logic op or masks
// channels (`rmw`) needs the destination. A plain quad's piece writes the encoded colour (om::blend_pixel with
// blending off). An rmw piece whose line is present with every halfword of the piece valid
// replaces each pixel d by om::blend_pixel(om, colour, d); otherwise the line is first filled:
// on a miss the entry at the bank's pointer is taken (written back first when dirty, as above),
// then one line read (we = 0, addr = line << 6, wdata 0, be 0, tag = the entry's bank: the RTL
// routes the data by it) whose data fills the halfwords not valid (valid = all).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "mem/memory.h"
#include "pineda_contract.h"

namespace pineda::model {

constexpr uint32_t PW_BANKS = 2;
constexpr uint32_t PW_ENTRIES = 32;  // lines per bank (RTL parameter EntriesPerBank)

// One pixel's (or sample's) colour write of the reference: all its bytes
// (addr[1:0] ignored). Model-internal: no port carries it.
struct PixelWrite {
  uint32_t addr = 0;
  uint32_t data = 0;  // low 16 bits when size = 2
  uint32_t size = 4;  // 4: the dword at addr (addr[1:0] ignored); 2 (B5G6R5): the halfword (addr[0] ignored)
};

// Per-pixel source colours of a quad (INTERP's interp_pkt_t.pcolor), pixel p = 0..3.
using PixColors = std::array<uint32_t, 4>;

class PixelWriter {
 public:
  using LineFn = std::function<void(const MemLineReq&)>;
  // Reads the dword at a byte address of memory as it is before the quad (fills, blending).
  using ReadFn = std::function<uint32_t(uint32_t)>;

  explicit PixelWriter(uint32_t entries_per_bank = PW_ENTRIES);

  // One quad into the cache (a token flushes it); the line writes it causes go to `emit`, in order.
  // `read` is needed only by quads that read the destination (rmw): without one they throw.
  // `pcolor` (INTERP's per-pixel colours, pixel p = 0..3 of the quad) replaces q.color when given.
  void process(const QuadPkt& q, const LineFn& emit, const ReadFn& read = nullptr, const PixColors* pcolor = nullptr);
  std::vector<MemLineReq> process(const QuadPkt& q, const ReadFn& read = nullptr);
  // Whether a quad's pixels depend on the destination (blending on, or a write mask).
  static bool rmw(const QuadPkt& q) { return q.om.blend != 0 || q.om.lop_en != 0 || q.om.mask_off != 0; }
  // Writes back every dirty line (COPY, end of frame, host read).
  void flush(const LineFn& emit);
  std::vector<MemLineReq> flush();
  bool clean() const;

  // The memory effect of a quad: one pixel write per covered pixel or sample, lowest bit first:
  // om::blend_pixel(q.om, q.color, the pixel before it) (`read`; needed only when rmw(q)).
  static void pixel_writes(const QuadPkt& q, const std::function<void(const PixelWrite&)>& emit,
                           const ReadFn& read = nullptr, const PixColors* pcolor = nullptr);
  static std::vector<PixelWrite> pixel_writes(const QuadPkt& q, const ReadFn& read = nullptr);
  // pixel_writes applied to memory one after the other (each reads what the previous wrote).
  static void apply_quad(const QuadPkt& q, Memory& mem, const PixColors* pcolor = nullptr);
  // The source colour of pixel p (0..3) of a quad: pcolor[p] if given, else q.color.
  static uint32_t src_color(const QuadPkt& q, const PixColors* pcolor, int p) {
    return pcolor ? (*pcolor)[static_cast<size_t>(p)] : static_cast<uint32_t>(q.color);
  }
  // Applies a pixel write, or a line write as the memory port does, to memory.
  static void apply(const PixelWrite& w, Memory& mem);
  static void apply(const MemLineReq& r, Memory& mem);

  uint64_t pixels_written() const { return pixels_; }  // pixels at 1x, samples at 4x
  uint64_t lines_written() const { return lines_; }
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }
  uint64_t fills() const { return fills_; }  // line reads
  uint64_t rmw_pixels() const { return rmw_pixels_; }
  uint64_t rmw_quads() const { return rmw_quads_; }  // quads that blend or mask (read the destination)
  void reset_counters() { pixels_ = lines_ = hits_ = misses_ = fills_ = rmw_pixels_ = rmw_quads_ = 0; }

  struct Piece {
    uint32_t line = 0;   // line address (byte address >> 6, 26 bits)
    uint32_t mask = 0;   // halfwords of the line (32 bits; a 4-byte pixel covers an aligned pair)
    uint32_t bank = 0;   // preferred bank: the pixel row of the quad it comes from
  };
  // The pieces of a quad, in application order (0..4 of them).
  static std::vector<Piece> pieces(const QuadPkt& q);

 private:
  struct Entry {
    uint32_t line = 0;
    uint32_t mask = 0;   // dirty halfwords
    uint32_t valid = 0;  // halfwords whose data is known (mask is a subset); 0 = empty
    std::array<uint16_t, 32> data{};
  };
  void evict(Entry& e, const LineFn& emit);
  uint32_t entries_;
  std::array<std::vector<Entry>, PW_BANKS> bank_;
  std::array<uint32_t, PW_BANKS> ptr_{};
  uint64_t pixels_ = 0, lines_ = 0, hits_ = 0, misses_ = 0, fills_ = 0, rmw_pixels_ = 0, rmw_quads_ = 0;
};

}  // namespace pineda::model
