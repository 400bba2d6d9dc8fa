//===- BufferAllocator.h - Offsets for buffers with lifetimes ------*- C++ -*-===//
//
// Seed "SPM management": each buffer lives over an interval of op positions; buffers whose intervals overlap
// must not overlap in memory, the others may share it. Used for the SPM of a Group and for the DDR of the
// whole graph. Deterministic: the same requests always give the same offsets.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_TRANSFORMS_BUFFERALLOCATOR_H
#define TX8_TRANSFORMS_BUFFERALLOCATOR_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace tx8be {

struct BufferRequest {
  int64_t first = 0; ///< first op position the buffer is live at
  int64_t last = 0;  ///< last op position (inclusive)
  uint64_t bytes = 0;
};

struct BufferPlan {
  std::vector<uint64_t> offsets; ///< per request, a multiple of the alignment
  uint64_t totalBytes = 0;       ///< end of the highest buffer
};

/// Places the requests: largest first (ties: earlier first, then request order), each at the lowest aligned
/// offset that does not overlap a placed buffer live at the same time. Zero-byte requests get offset 0.
BufferPlan allocateBuffers(llvm::ArrayRef<BufferRequest> requests, uint64_t alignment);

/// Rounds `bytes` up to a multiple of `alignment` (alignment 0 or 1: unchanged).
inline uint64_t alignTo(uint64_t bytes, uint64_t alignment) {
  return alignment > 1 ? (bytes + alignment - 1) / alignment * alignment : bytes;
}

} // namespace tx8be

#endif // TX8_TRANSFORMS_BUFFERALLOCATOR_H
