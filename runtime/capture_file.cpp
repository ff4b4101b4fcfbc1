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

// Bounds-checked reads; `what` names the section for the error message.
class Reader {
 public:
  Reader(const uint8_t* p, size_t n) : p_(p), n_(n) {}
  uint32_t u32(const char* what) {
    need(4, what);
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(p_[at_ + static_cast<size_t>(i)]) << (8 * i);
    at_ += 4;
    return v;
  }
  uint64_t u64(const char* what) {
    const uint64_t lo = u32(what);
    return lo | (uint64_t{u32(what)} << 32);
  }
  const uint8_t* bytes(size_t n, const char* what) {
    need(n, what);
    const uint8_t* r = p_ + at_;
    at_ += n;
    return r;
  }
  // A count of items of `item_bytes` each that must fit in what is left.
  uint32_t count(size_t item_bytes, const char* what) {
    const uint32_t n = u32(what);
    if (item_bytes != 0 && n > (n_ - at_) / item_bytes) {
      throw CaptureError(std::string("corrupted capture: ") + what + " count " + std::to_string(n) +
                         " does not fit in the payload");
    }
    return n;
  }
  RegWrites regs(const char* what) {
    RegWrites r(count(8, what));
    for (auto& [i, v] : r) {
      i = u32(what);
      v = u32(what);
    }
    return r;
  }
  size_t left() const { return n_ - at_; }

 private:
  void need(size_t n, const char* what) const {
    if (n > n_ - at_) throw CaptureError(std::string("corrupted capture: the payload ends inside ") + what);
  }
  const uint8_t* p_;
  size_t n_;
  size_t at_ = 0;
};

uint32_t get32(const uint8_t* p) { return p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<uint32_t>(p[3]) << 24); }
uint64_t get64(const uint8_t* p) { return get32(p) | (uint64_t{get32(p + 4)} << 32); }

std::string contract_name(uint32_t id) {
  if ((id >> 16) != (ID_VALUE >> 16)) return "an unknown device (REG_ID " + hex32(id) + ")";
  return "contract v" + std::to_string(id & 0xFFFFu);
}

}  // namespace

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
  const std::vector<uint8_t>& raw = w.out();

  uLongf zn = compressBound(static_cast<uLong>(raw.size()));
  std::vector<uint8_t> z(zn);
  if (compress2(z.data(), &zn, raw.data(), static_cast<uLong>(raw.size()), 6) != Z_OK) {
    throw CaptureError("capture: zlib compression failed");
  }
  z.resize(zn);

  Writer h;
  h.bytes(kMagic, sizeof kMagic);
  h.u32(CAPTURE_FORMAT_VERSION);
  h.u32(c.contract_id);
  h.u64(raw.size());
  h.u64(z.size());
  h.u32(crc32_of(raw.data(), raw.size()));
  h.u32(crc32_of(h.out().data(), h.out().size()));
  std::vector<uint8_t> out = std::move(h.out());
  out.insert(out.end(), z.begin(), z.end());
  return out;
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
    throw CaptureError("the capture was encoded for " + contract_name(c.contract_id) + ", this build is " +
                       contract_name(ID_VALUE) + " (capture it again, or replay anyway with --any-contract)");
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
  // zlib never inflates more than about 1032:1; a larger claim is a corrupted size (and must not
  // make us allocate it).
  if (raw_n > z_n * 1100 + 4096 || raw_n > (uint64_t{1} << 34)) {
    throw CaptureError("corrupted capture: implausible payload size " + std::to_string(raw_n) + " for " +
                       std::to_string(z_n) + " compressed bytes");
  }
  std::vector<uint8_t> raw(static_cast<size_t>(raw_n));
  uLongf out_n = static_cast<uLongf>(raw_n);
  const int zr = uncompress(raw.data(), &out_n, f.data() + CAPTURE_HEADER_BYTES, static_cast<uLong>(z_n));
  if (zr != Z_OK || out_n != raw_n) {
    throw CaptureError(std::string("corrupted capture: the compressed payload does not inflate (zlib: ") +
                       (zr == Z_OK ? "wrong size" : zError(zr)) + ")");
  }
  if (crc32_of(raw.data(), raw.size()) != crc) {
    throw CaptureError("corrupted capture: the payload checksum (CRC-32) does not match");
  }

  Reader r(raw.data(), raw.size());
  const uint32_t name_n = r.count(1, "the name");
  const uint8_t* name = r.bytes(name_n, "the name");
  c.name.assign(reinterpret_cast<const char*>(name), name_n);
  c.target.base = r.u32("the target");
  c.target.pitch = r.u32("the target");
  c.target.width = r.u32("the target");
  c.target.height = r.u32("the target");
  c.target.samples = r.u32("the target");
  c.target.fmt = r.u32("the target");
  c.fence_index = r.u32("the fence");
  c.fence_value = r.u32("the fence");
  c.eop_fence_mask = r.u32("the fence");
  c.reg_writes = r.regs("the register writes");
  c.wait_releases.resize(r.count(4, "the wait releases"));
  for (RegWrites& w : c.wait_releases) w = r.regs("the wait releases");
  const uint32_t pages = r.count(4 + Memory::PAGE_SIZE, "the memory pages");
  for (uint32_t i = 0; i < pages; ++i) {
    const uint32_t base = r.u32("the memory pages");
    if (base % Memory::PAGE_SIZE) throw CaptureError("corrupted capture: memory page at unaligned address " + hex32(base));
    c.mem.write(base, r.bytes(Memory::PAGE_SIZE, "the memory pages"), Memory::PAGE_SIZE);
  }
  const uint32_t has_result = r.u32("the expected result");
  if (has_result > 1) throw CaptureError("corrupted capture: bad expected-result flag");
  if (has_result) {
    c.expected.present = true;
    c.expected.memory_digest = r.u64("the expected result");
    c.expected.regs = r.regs("the expected result");
  }
  if (r.u32("the end marker") != kEndMarker || r.left() != 0) {
    throw CaptureError("corrupted capture: the payload does not end with its end marker");
  }
  if (c.target.samples != 1 && c.target.samples != 4) {
    throw CaptureError("corrupted capture: render target with " + std::to_string(c.target.samples) + " samples");
  }
  if (c.target.fmt > RT_FMT_B5G6R5) {
    throw CaptureError("corrupted capture: render target format " + std::to_string(c.target.fmt));
  }
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
