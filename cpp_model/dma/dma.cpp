// SPDX-License-Identifier: Apache-2.0
#include "dma/dma.h"

namespace pineda::model {

void Dma::copy(const CopyJob& job, Memory& mem) {
  for (uint32_t i = 0; i < job.len; ++i) mem.write8(job.dst + i, mem.read8(job.src + i));
  bytes_ += job.len;
}

}  // namespace pineda::model
