// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "allocator.h"
#include "fence.h"

using namespace pineda::rt;

TEST_CASE("allocator: first fit, alignment, coalescing", "[runtime][allocator]") {
  Allocator a(0x1000, 0x1000);
  auto x = a.allocate(100, 256);
  auto y = a.allocate(16, 16);
  auto z = a.allocate(300, 1024);
  REQUIRE(x);
  REQUIRE(y);
  REQUIRE(z);
  CHECK(x->addr == 0x1000);
  CHECK(x->size == 112);           // rounded to the 16-byte granule
  CHECK(y->addr == 0x1070);        // first fit right after x
  CHECK(z->addr == 0x1400);        // 1 KiB aligned
  CHECK(a.free_blocks() == 2);     // the gap before z and the tail after it
  a.free(*y);
  a.free(*x);                      // merges with y's block and the gap up to z
  CHECK(a.free_blocks() == 2);
  auto w = a.allocate(0x400 - 16, 16);
  REQUIRE(w);
  CHECK(w->addr == 0x1000);        // the merged block is reused from its start
  a.free(*w);
  a.free(*z);
  CHECK(a.free_blocks() == 1);     // everything coalesced
  CHECK(a.bytes_free() == 0x1000);
  CHECK_FALSE(a.allocate(0x1001, 16));
  CHECK(a.allocate(0x1000, 16));
  CHECK_FALSE(a.allocate(16, 16));
  CHECK_THROWS(a.free(Allocation{0x1234, 16}));
}

TEST_CASE("fences: 32-bit hardware values extend wrap-safely", "[runtime][fence]") {
  CHECK(fence32_reached(5, 5));
  CHECK(fence32_reached(0x00000002u, 0xFFFFFFF0u));  // past the wrap
  CHECK_FALSE(fence32_reached(0xFFFFFFF0u, 0x00000002u));
  const uint64_t newest = 0x100000010ull;
  CHECK(fence_extend(0x00000010u, newest) == 0x100000010ull);
  CHECK(fence_extend(0xFFFFFFF0u, newest) == 0x0FFFFFFF0ull);
  CHECK(fence_plausible(0xFFFFFFF0u, newest));
  CHECK_FALSE(fence_plausible(0x00000011u, newest));  // ahead of anything submitted
}
