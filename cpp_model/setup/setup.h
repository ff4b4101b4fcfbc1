// SPDX-License-Identifier: Apache-2.0
// Triangle setup (docs/numerics.md section 3): orientation, edge functions with the top-left
// bias, sample bounding box, clip, culling. Every intermediate is checked against its documented
// width; a violation throws std::logic_error (a contract bug, not a data error).
#pragma once

#include <cstdint>
#include <optional>

#include "pineda_contract.h"

namespace pineda::model {

class Setup {
 public:
  // The SetupPkt for a triangle that can cover a sample in its clip rectangle, else nothing.
  std::optional<SetupPkt> process(const TriPkt& tri);

  // E(X, Y) = A*(X - xi) + B*(Y - yi) + bias for the edge v[i] -> v[j] (numerics section 2).
  struct EdgeFn {
    int64_t a = 0, b = 0, bias = 0, xi = 0, yi = 0;
    int64_t eval(int64_t x, int64_t y) const { return a * (x - xi) + b * (y - yi) + bias; }
  };
  static EdgeFn edge_fn(const Vtx& vi, const Vtx& vj);
  static int64_t area2(const Vtx& v0, const Vtx& v1, const Vtx& v2);

  uint64_t triangles() const { return triangles_; }
  uint64_t culled_zero_area() const { return culled_zero_area_; }
  uint64_t culled_empty() const { return culled_empty_; }
  void reset_counters() { triangles_ = culled_zero_area_ = culled_empty_ = 0; }

 private:
  uint64_t triangles_ = 0, culled_zero_area_ = 0, culled_empty_ = 0;
};

// Throws std::logic_error naming `what` when v does not fit a width-bit signed value.
void check_signed(int64_t v, int width, const char* what);
void check_signed(bits::i128 v, int width, const char* what);

}  // namespace pineda::model
