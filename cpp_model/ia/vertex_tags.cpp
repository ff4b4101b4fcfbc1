// SPDX-License-Identifier: Apache-2.0
#include "ia/vertex_tags.h"

namespace pineda::model {

void VertexTags::reset() {
  used_ = have_ = parity_ = prim_id_ = 0;
  bp_.clear();
  refs_ = hits_ = verts_ = tris_ = batches_ = writes_ = 0;
}

void VertexTags::close(const EmitV& ev, const EmitP& ep) {
  (void)ev;
  if (bp_.empty()) return;  // a batch always has a triangle (and so a vertex)
  bp_.back().last = 1;
  for (const auto& t : bp_) ep(t);
  bp_.clear();
  used_ = 0;
  ++batches_;
}

void VertexTags::triangle(uint32_t i0, uint32_t i1, uint32_t i2, const IndexPkt& p, const EmitV& ev,
                          const EmitP& ep) {
  const std::array<uint32_t, 3> idx{i0, i1, i2};
  const auto find = [this](uint32_t v) -> int {
    for (uint32_t s = 0; s < used_; ++s) {
      if (tag_[s] == v) return static_cast<int>(s);
    }
    return -1;
  };
  // Distinct indices of the triangle not in the batch.
  uint32_t misses = 0;
  for (int k = 0; k < 3; ++k) {
    bool dup = false;
    for (int j = 0; j < k; ++j) dup = dup || idx[j] == idx[k];
    if (!dup && find(idx[k]) < 0) ++misses;
  }
  // A batch closes when the triangle's distinct misses do not fit, or when it already holds
  // VTX_BATCH_TRIS triangles (the triangle FIFO in front of PA holds one whole batch).
  if (used_ + misses > VTX_BATCH_SLOTS || bp_.size() >= VTX_BATCH_TRIS) close(ev, ep);
  std::array<uint32_t, 3> slot{};
  for (int k = 0; k < 3; ++k) {
    ++refs_;
    const int s = find(idx[k]);
    if (s >= 0) {
      ++hits_;
      slot[k] = static_cast<uint32_t>(s);
      continue;
    }
    VFetchPkt v;
    v.index = idx[k];
    v.inst_id = p.inst_id;
    v.slot = used_;
    v.first = used_ == 0 ? 1 : 0;
    v.draw_id = p.draw_id;
    ev(v);  // sent at once: the vertex stream never waits for the batch to close
    tag_[used_] = idx[k];
    slot[k] = used_++;
    ++verts_;
  }
  PrimPkt t;
  t.s0 = slot[0];
  t.s1 = slot[1];
  t.s2 = slot[2];
  t.prim_id = prim_id_++;
  t.draw_id = p.draw_id;
  bp_.push_back(t);
  ++tris_;
}

void VertexTags::process(const IndexPkt& p, const EmitV& ev, const EmitP& ep) {
  if (p.eop) {
    close(ev, ep);
    PrimPkt token;
    token.eop = 1;
    ep(token);
    return;
  }
  if (p.wr) {
    // A front-end state write closes the batch like a token and goes out on both streams. The
    // assembly window is kept: a write in the middle of an instance (the CP sends writes only
    // between draws) does not disturb the list triangle or strip in progress.
    close(ev, ep);
    VFetchPkt wv;
    wv.wr = 1;
    wv.wr_idx = p.wr_idx;
    wv.wr_val = p.wr_val;
    ev(wv);
    PrimPkt wp;
    wp.wr = 1;
    wp.wr_idx = p.wr_idx;
    wp.wr_val = p.wr_val;
    ep(wp);
    ++writes_;
    return;
  }
  const uint32_t i = static_cast<uint32_t>(p.index);
  if (p.cut) {
    have_ = 0;
    parity_ = 0;
  } else if (!p.strip) {
    if (have_ == 2) {
      triangle(win_[0], win_[1], i, p, ev, ep);
      have_ = 0;
    } else {
      win_[have_++] = i;
    }
  } else {
    if (have_ == 2) {
      if (parity_ == 0) {
        triangle(win_[0], win_[1], i, p, ev, ep);
      } else {
        triangle(win_[1], win_[0], i, p, ev, ep);
      }
      parity_ ^= 1u;
      win_[0] = win_[1];
      win_[1] = i;
    } else {
      win_[have_++] = i;
    }
  }
  if (p.last) {
    close(ev, ep);
    have_ = 0;
    parity_ = 0;
  }
}

}  // namespace pineda::model
