// SPDX-License-Identifier: Apache-2.0
#include "capture_file.h"

#include <zlib.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "backend.h"

namespace pineda::rt {

namespace {

constexpr char kMagic[8] = {'P', 'N', 'D', 'A', 'C', 'A', 'P', '\n'};
constexpr uint32_t kEndMarker = 0x21444E45u;  // "END!"

std::string hex32(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

uint32_t crc32_of(const uint8_t* p, size_t n) {
  uLong c = crc32(0L, Z_NULL, 0);
  while (n > 0) {  // crc32 takes a uInt length
    const uInt k = static_cast<uInt>(std::min<size_t>(n, 1u << 30));
    c = crc32(c, p, k);
    p += k;
    n -= k;
  }
  return static_cast<uint32_t>(c);
}

class Writer {
 public:
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) b_.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void u64(uint64_t v) {
    u32(static_cast<uint32_t>(v));
    u32(static_cast<uint32_t>(v >> 32));
  }
  void bytes(const void* p, size_t n) {
    const auto* c = static_cast<const uint8_t*>(p);
    b_.insert(b_.end(), c, c + n);
  }
  void regs(const RegWrites& r) {
    u32(static_cast<uint32_t>(r.size()));
    for (const auto& [i, v] : r) {
      u32(i);
      u32(v);
    }
  }
  std::vector<uint8_t>& out() { return b_; }

 private:
  std::vector<uint8_t> b_;
};

uint32_t get32(const uint8_t* p) { return p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<uint32_t>(p[3]) << 24); }
uint64_t get64(const uint8_t* p) { return get32(p) | (uint64_t{get32(p + 4)} << 32); }

[[noreturn]] void corrupted(const std::string& why) { throw CaptureError("corrupted capture: " + why); }

// The payload, inflated a piece at a time as it is parsed (never more than one 64 KiB chunk
// ahead), with its CRC-32 and byte count kept on the way: a claim in the payload is checked
// against the format's limits before anything is allocated for it, and a payload that inflates to
// more than the header announced stops there. `what` names the section for the error message.
class Reader {
 public:
  Reader(const uint8_t* z, uint64_t z_n, uint64_t raw_n) : raw_n_(raw_n) {
    zs_.next_in = const_cast<Bytef*>(z);  // zlib's API is not const-correct; it only reads
    zs_.avail_in = 0;
    z_left_ = z_n;
    if (inflateInit(&zs_) != Z_OK) throw CaptureError("capture: zlib initialisation failed");
    crc_ = static_cast<uint32_t>(crc32(0L, Z_NULL, 0));
  }
  ~Reader() { inflateEnd(&zs_); }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  uint32_t u32(const char* what) {
    uint8_t b[4];
    read(b, 4, what);
    return get32(b);
  }
  uint64_t u64(const char* what) {
    const uint64_t lo = u32(what);
    return lo | (uint64_t{u32(what)} << 32);
  }
  void read(uint8_t* dst, size_t n, const char* what) {
    while (n > 0) {
      if (pos_ == buf_.size()) refill(what);
      const size_t k = std::min(n, buf_.size() - pos_);
      std::memcpy(dst, buf_.data() + pos_, k);
      pos_ += k;
      dst += k;
      n -= k;
    }
  }
  // A count that must be at most `limit` (the format's) and whose items of `item_bytes` each must
  // fit in what the header says is left of the payload.
  uint32_t count(uint64_t item_bytes, uint64_t limit, const char* what) {
    const uint32_t n = u32(what);
    if (n > limit) corrupted(std::string(what) + " count " + std::to_string(n) + " is above the format's limit of " + std::to_string(limit));
    if (n * item_bytes > raw_n_ - consumed()) {
      corrupted(std::string(what) + " count " + std::to_string(n) + " does not fit in the payload");
    }
    return n;
  }
  // Register pairs, the total over the file bounded by CAPTURE_MAX_REG_WRITES.
  RegWrites regs(const char* what) {
    const uint32_t n = count(8, CAPTURE_MAX_REG_WRITES - reg_pairs_, what);
    reg_pairs_ += n;
    RegWrites r;
    r.reserve(std::min<uint32_t>(n, 4096));  // grows with what is actually read
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t i = u32(what);
      r.emplace_back(i, u32(what));
    }
    return r;
  }
  // The whole payload has been read: the stream ends here, at the size and CRC the header gave.
  void finish(uint32_t crc) {
    if (ended_ && pos_ == buf_.size() && out_ < raw_n_) {
      corrupted("the payload inflates to " + std::to_string(out_) + " bytes, the header announces " + std::to_string(raw_n_));
    }
    if (pos_ != buf_.size() || consumed() != raw_n_) corrupted("the payload goes on after its end marker");
    // Inflate on: the stream must end without a byte more.
    uint8_t extra = 0;
    zs_.next_out = &extra;
    zs_.avail_out = 1;
    const int zr = step();
    if (zr != Z_STREAM_END || zs_.avail_out == 0) {
      corrupted(zr == Z_OK || zs_.avail_out == 0 ? "the payload inflates to more than its announced size"
                                                  : std::string("the compressed payload does not inflate (zlib: ") + zError(zr) + ")");
    }
    if (zs_.avail_in != 0 || z_left_ != 0) corrupted("the compressed stream ends before the compressed payload does");
    if (crc_ != crc) corrupted("the payload checksum (CRC-32) does not match");
  }

 private:
  uint64_t consumed() const { return out_ - (buf_.size() - pos_); }
  int step() {
    if (zs_.avail_in == 0 && z_left_ > 0) {  // inflate takes a uInt length
      zs_.avail_in = static_cast<uInt>(std::min<uint64_t>(z_left_, 1u << 30));
      z_left_ -= zs_.avail_in;
    }
    return inflate(&zs_, Z_NO_FLUSH);
  }
  void refill(const char* what) {
    if (out_ == raw_n_) corrupted(std::string("the payload ends inside ") + what);
    buf_.resize(static_cast<size_t>(std::min<uint64_t>(kChunk, raw_n_ - out_)));
    pos_ = 0;
    zs_.next_out = buf_.data();
    zs_.avail_out = static_cast<uInt>(buf_.size());
    while (zs_.avail_out > 0) {
      const int zr = step();
      if (zr == Z_STREAM_END) {
        ended_ = true;
        break;
      }
      if (zr != Z_OK) {
        corrupted(std::string("the compressed payload does not inflate (zlib: ") + (zr == Z_BUF_ERROR ? "truncated stream" : zError(zr)) + ")");
      }
    }
    buf_.resize(buf_.size() - zs_.avail_out);
    if (buf_.empty()) {
      corrupted("the payload inflates to " + std::to_string(out_) + " bytes, the header announces " + std::to_string(raw_n_) +
                " (it ends inside " + what + ")");
    }
    crc_ = static_cast<uint32_t>(crc32(crc_, buf_.data(), static_cast<uInt>(buf_.size())));
    out_ += buf_.size();
  }

  static constexpr uint64_t kChunk = 64 * 1024;
  z_stream zs_{};
  uint64_t z_left_ = 0;  // compressed bytes not yet handed to zlib
  uint64_t raw_n_;       // the payload's announced size
  uint64_t out_ = 0;     // bytes inflated so far
  uint32_t crc_ = 0;
  uint64_t reg_pairs_ = 0;
  bool ended_ = false;  // inflate has reached the stream's end
  std::vector<uint8_t> buf_;
  size_t pos_ = 0;
};

// The render target a replay shows (and reads back from memory): sizes the hardware allows, a
// pitch that holds a row, and every row inside the 32-bit address space (64-bit arithmetic).
void check_target(const CaptureTarget& t) {
  if (t.samples != 1 && t.samples != 4) corrupted("render target with " + std::to_string(t.samples) + " samples");
  if (t.fmt > RT_FMT_B5G6R5) corrupted("render target format " + std::to_string(t.fmt));
  if (t.width == 0 || t.height == 0 || t.width > MAX_RT_DIM || t.height > MAX_RT_DIM) {
    corrupted("render target of " + std::to_string(t.width) + "x" + std::to_string(t.height) + " pixels (1.." +
              std::to_string(MAX_RT_DIM) + " each)");
  }
  const uint64_t row = uint64_t{t.width} * (t.fmt == RT_FMT_B5G6R5 ? 2u : 4u) * t.samples;
  if (t.pitch < row) {
    corrupted("render target pitch " + std::to_string(t.pitch) + " is less than a row of " + std::to_string(row) + " bytes");
  }
  if (uint64_t{t.base} + uint64_t{t.pitch} * (t.height - 1) + row > (uint64_t{1} << 32)) {
    corrupted("render target at " + hex32(t.base) + " (pitch " + std::to_string(t.pitch) + ", " + std::to_string(t.height) +
              " rows) runs past the 4 GiB address space");
  }
}

}  // namespace

std::string describe_contract(uint32_t id) {
  if ((id >> 16) != (ID_VALUE >> 16)) return "an unknown device (REG_ID " + hex32(id) + ")";
  return "contract v" + std::to_string(id & 0xFFFFu);
}

Capture capture_from_backend(CaptureBackend& be) {
  Capture c;
  c.mem = be.memory();
  c.reg_writes = be.reg_writes();
  return c;
}

std::vector<uint8_t> encode_capture(const Capture& c) {
  Writer w;
  w.u32(static_cast<uint32_t>(c.name.size()));
  w.bytes(c.name.data(), c.name.size());
  w.u32(c.target.base);
  w.u32(c.target.pitch);
  w.u32(c.target.width);
  w.u32(c.target.height);
  w.u32(c.target.samples);
  w.u32(c.target.fmt);
  w.u32(c.fence_index);
  w.u32(c.fence_value);
  w.u32(c.eop_fence_mask);
  w.regs(c.reg_writes);
  w.u32(static_cast<uint32_t>(c.wait_releases.size()));
  for (const RegWrites& r : c.wait_releases) w.regs(r);
  // Memory: every page that is not all zero (an absent page reads 0), ascending.
  std::vector<uint32_t> pages;
  for (uint32_t base : c.mem.page_bases()) {
    const uint8_t* d = c.mem.page_data(base);
    bool zero = true;
    for (uint32_t i = 0; i < Memory::PAGE_SIZE && zero; ++i) zero = d[i] == 0;
    if (!zero) pages.push_back(base);
  }
  w.u32(static_cast<uint32_t>(pages.size()));
  for (uint32_t base : pages) {
    w.u32(base);
    w.bytes(c.mem.page_data(base), Memory::PAGE_SIZE);
  }
  w.u32(c.expected.present ? 1 : 0);
  if (c.expected.present) {
    w.u64(c.expected.memory_digest);
    w.regs(c.expected.regs);
  }
  w.u32(kEndMarker);
  return wrap_capture_payload(w.out(), c.contract_id);
}

std::vector<uint8_t> wrap_capture_payload(const std::vector<uint8_t>& raw, uint32_t contract_id) {
  uLongf zn = compressBound(static_cast<uLong>(raw.size()));
  std::vector<uint8_t> z(zn);
  if (compress2(z.data(), &zn, raw.data(), static_cast<uLong>(raw.size()), 6) != Z_OK) {
    throw CaptureError("capture: zlib compression failed");
  }
  z.resize(zn);

  Writer h;
  h.bytes(kMagic, sizeof kMagic);
  h.u32(CAPTURE_FORMAT_VERSION);
  h.u32(contract_id);
  h.u64(raw.size());
  h.u64(z.size());
  h.u32(crc32_of(raw.data(), raw.size()));
  h.u32(crc32_of(h.out().data(), h.out().size()));
  std::vector<uint8_t> out = std::move(h.out());
  out.insert(out.end(), z.begin(), z.end());
  return out;
}

std::vector<uint8_t> capture_payload(const std::vector<uint8_t>& f) {
  if (f.size() < CAPTURE_HEADER_BYTES) throw CaptureError("truncated capture: no header");
  const uint64_t raw_n = get64(f.data() + 16);
  if (raw_n > CAPTURE_MAX_PAYLOAD) throw CaptureError("corrupted capture: payload size above the format's limit");
  std::vector<uint8_t> raw(static_cast<size_t>(raw_n));
  uLongf n = static_cast<uLongf>(raw_n);
  if (uncompress(raw.data(), &n, f.data() + CAPTURE_HEADER_BYTES, static_cast<uLong>(f.size() - CAPTURE_HEADER_BYTES)) != Z_OK ||
      n != raw_n) {
    throw CaptureError("corrupted capture: the compressed payload does not inflate to its announced size");
  }
  return raw;
}

Capture decode_capture(const std::vector<uint8_t>& f, bool allow_other_contract) {
  if (f.size() < sizeof kMagic || std::memcmp(f.data(), kMagic, sizeof kMagic) != 0) {
    throw CaptureError("not a Pineda capture file (no PNDACAP header)");
  }
  if (f.size() < CAPTURE_HEADER_BYTES) {
    throw CaptureError("truncated capture: the header needs " + std::to_string(CAPTURE_HEADER_BYTES) +
                       " bytes, the file has " + std::to_string(f.size()));
  }
  // The version first: another version's header may be laid out differently.
  const uint32_t version = get32(f.data() + 8);
  if (version != CAPTURE_FORMAT_VERSION) {
    throw CaptureError("capture format version " + std::to_string(version) + ": this build reads version " +
                       std::to_string(CAPTURE_FORMAT_VERSION) + " only (capture it again with this build)");
  }
  if (get32(f.data() + 36) != crc32_of(f.data(), 36)) {
    throw CaptureError("corrupted capture: the header checksum does not match");
  }
  Capture c;
  c.contract_id = get32(f.data() + 12);
  if (c.contract_id != ID_VALUE && !allow_other_contract) {
    throw CaptureError("the capture was encoded for " + describe_contract(c.contract_id) + ", this build is " +
                       describe_contract(ID_VALUE) + " (capture it again, or replay anyway with --any-contract)");
  }
  const uint64_t raw_n = get64(f.data() + 16), z_n = get64(f.data() + 24);
  const uint32_t crc = get32(f.data() + 32);
  const uint64_t have = f.size() - CAPTURE_HEADER_BYTES;
  if (have < z_n) {
    throw CaptureError("truncated capture: the header announces " + std::to_string(z_n) +
                       " compressed bytes, the file holds " + std::to_string(have));
  }
  if (have > z_n) {
    throw CaptureError("corrupted capture: " + std::to_string(have - z_n) + " bytes after the compressed payload");
  }
  // zlib never inflates more than about 1032:1, and the format's limits bound the payload: a
  // larger claim is a corrupted size. Nothing is allocated for the claim itself.
  if (raw_n > CAPTURE_MAX_PAYLOAD) {
    throw CaptureError("corrupted capture: payload size " + std::to_string(raw_n) + " is above the format's limit of " +
                       std::to_string(CAPTURE_MAX_PAYLOAD) + " bytes");
  }
  if (raw_n > z_n * 1100 + 4096) {
    throw CaptureError("corrupted capture: implausible payload size " + std::to_string(raw_n) + " for " +
                       std::to_string(z_n) + " compressed bytes");
  }

  Reader r(f.data() + CAPTURE_HEADER_BYTES, z_n, raw_n);
  const uint32_t name_n = r.count(1, CAPTURE_MAX_NAME, "the name");
  std::vector<uint8_t> name(name_n);
  r.read(name.data(), name_n, "the name");
  c.name.assign(name.begin(), name.end());
  c.target.base = r.u32("the target");
  c.target.pitch = r.u32("the target");
  c.target.width = r.u32("the target");
  c.target.height = r.u32("the target");
  c.target.samples = r.u32("the target");
  c.target.fmt = r.u32("the target");
  check_target(c.target);
  c.fence_index = r.u32("the fence");
  c.fence_value = r.u32("the fence");
  c.eop_fence_mask = r.u32("the fence");
  if (c.fence_index >= NUM_FENCES) {
    corrupted("fence index " + std::to_string(c.fence_index) + " (the device has " + std::to_string(NUM_FENCES) + ")");
  }
  c.reg_writes = r.regs("the register writes");
  const uint32_t waits = r.count(4, CAPTURE_MAX_WAIT_RELEASES, "the wait releases");
  for (uint32_t k = 0; k < waits; ++k) c.wait_releases.push_back(r.regs("the wait releases"));
  const uint32_t pages = r.count(4 + Memory::PAGE_SIZE, CAPTURE_MAX_PAGES, "the memory pages");
  std::vector<uint8_t> page(Memory::PAGE_SIZE);
  uint64_t next = 0;  // pages are strictly ascending: no address twice
  for (uint32_t i = 0; i < pages; ++i) {
    const uint32_t base = r.u32("the memory pages");
    if (base % Memory::PAGE_SIZE) corrupted("memory page at unaligned address " + hex32(base));
    if (base < next) corrupted("memory page " + hex32(base) + " out of ascending order");
    next = uint64_t{base} + Memory::PAGE_SIZE;
    r.read(page.data(), page.size(), "the memory pages");
    c.mem.write(base, page.data(), page.size());
  }
  const uint32_t has_result = r.u32("the expected result");
  if (has_result > 1) corrupted("bad expected-result flag");
  if (has_result) {
    c.expected.present = true;
    c.expected.memory_digest = r.u64("the expected result");
    c.expected.regs = r.regs("the expected result");
  }
  if (r.u32("the end marker") != kEndMarker) corrupted("the payload does not end with its end marker");
  r.finish(crc);
  return c;
}

void save_capture(const std::string& path, const Capture& c) {
  const std::vector<uint8_t> b = encode_capture(c);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw CaptureError("cannot write " + path);
  f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  f.close();
  if (!f) throw CaptureError("writing " + path + " failed");
}

Capture load_capture(const std::string& path, bool allow_other_contract) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw CaptureError("cannot open " + path);
  std::vector<uint8_t> b((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  try {
    return decode_capture(b, allow_other_contract);
  } catch (const CaptureError& e) {
    throw CaptureError(path + ": " + e.what());
  }
}

}  // namespace pineda::rt
