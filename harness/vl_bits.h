// SPDX-License-Identifier: Apache-2.0
// Conversions between Verilator port types and contract packets (pineda_contract.h).
// A packed struct port is IData/QData up to 64 bits and VlWide<N> above; word 0 holds bits
// [31:0] in every case, which is the layout Pkt::pack/unpack use.
#pragma once

#include <verilated.h>

#include <array>
#include <cstddef>
#include <cstdint>

namespace pineda::tb {

constexpr size_t kMaxWords = 96;  // comb_in_pkt_t is 2566 bits (81 words)
using WordBuf = std::array<uint32_t, kMaxWords>;

template <size_t N>
inline void sig_to_words(const VlWide<N>& s, uint32_t* w) {
  for (size_t i = 0; i < N; ++i) w[i] = s.at(i);
}
inline void sig_to_words(QData s, uint32_t* w) {
  w[0] = static_cast<uint32_t>(s);
  w[1] = static_cast<uint32_t>(s >> 32);
}
inline void sig_to_words(IData s, uint32_t* w) { w[0] = s; }
inline void sig_to_words(SData s, uint32_t* w) { w[0] = s; }
inline void sig_to_words(CData s, uint32_t* w) { w[0] = s; }

template <size_t N>
inline void words_to_sig(const uint32_t* w, VlWide<N>& s) {
  for (size_t i = 0; i < N; ++i) s.at(i) = w[i];
}
inline void words_to_sig(const uint32_t* w, QData& s) {
  s = static_cast<QData>(w[0]) | (static_cast<QData>(w[1]) << 32);
}
inline void words_to_sig(const uint32_t* w, IData& s) { s = w[0]; }

// Reads a packet from an output port.
template <class Pkt, class Sig>
Pkt unpack_sig(const Sig& s) {
  static_assert(Pkt::WORDS <= static_cast<int>(kMaxWords), "packet too wide for WordBuf");
  WordBuf w{};
  sig_to_words(s, w.data());
  return Pkt::unpack(w.data());
}

// Drives an input port with a packet (bits above the packet width are cleared).
template <class Pkt, class Sig>
void pack_sig(const Pkt& p, Sig& s) {
  static_assert(Pkt::WORDS <= static_cast<int>(kMaxWords), "packet too wide for WordBuf");
  WordBuf w{};
  p.pack_at(w.data(), 0);
  words_to_sig(w.data(), s);
}

}  // namespace pineda::tb
