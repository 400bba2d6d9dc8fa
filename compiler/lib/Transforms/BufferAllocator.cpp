//===- BufferAllocator.cpp - Offsets for buffers with lifetimes -----------===//
#include "tx8/Transforms/BufferAllocator.h"

#include <algorithm>
#include <numeric>

using namespace tx8be;

BufferPlan tx8be::allocateBuffers(llvm::ArrayRef<BufferRequest> requests, uint64_t alignment) {
  BufferPlan plan;
  plan.offsets.assign(requests.size(), 0);
  std::vector<size_t> order(requests.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (requests[a].bytes != requests[b].bytes)
      return requests[a].bytes > requests[b].bytes;
    return requests[a].first < requests[b].first;
  });

  struct Placed {
    uint64_t begin, end;
  };
  std::vector<size_t> placed; // request indices already placed
  for (size_t i : order) {
    const BufferRequest &r = requests[i];
    if (r.bytes == 0)
      continue;
    // Memory ranges of the placed buffers live at the same time, by start offset.
    std::vector<Placed> busy;
    for (size_t j : placed)
      if (requests[j].first <= r.last && r.first <= requests[j].last)
        busy.push_back({plan.offsets[j], plan.offsets[j] + requests[j].bytes});
    std::sort(busy.begin(), busy.end(), [](const Placed &a, const Placed &b) { return a.begin < b.begin; });
    uint64_t offset = 0;
    for (const Placed &b : busy) {
      if (offset + r.bytes <= b.begin)
        break; // fits in the gap before b
      offset = std::max(offset, alignTo(b.end, alignment));
    }
    plan.offsets[i] = offset;
    plan.totalBytes = std::max(plan.totalBytes, offset + r.bytes);
    placed.push_back(i);
  }
  return plan;
}
