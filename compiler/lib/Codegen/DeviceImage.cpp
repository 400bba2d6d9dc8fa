//===- DeviceImage.cpp - Host tensors to and from their device images -----===//
#include "tx8/Codegen/DeviceImage.h"

#include <cstring>

#include "tx8/hw_config.h"
#include "tx8/layout.h"

using namespace tx8::codegen;

namespace {

bool isPermutation(const std::vector<int64_t> &order) {
  std::vector<bool> seen(order.size(), false);
  for (int64_t d : order) {
    if (d < 0 || d >= static_cast<int64_t>(order.size()) || seen[d])
      return false;
    seen[d] = true;
  }
  return true;
}

uint64_t elementsOf(const std::vector<int64_t> &shape) {
  uint64_t n = 1;
  for (int64_t d : shape)
    n *= static_cast<uint64_t>(d);
  return n;
}

bool aligned(LAYOUT_MODE mode) { return mode == LAYOUT_CX || mode == LAYOUT_NCX; }

/// The layout of the [N][HW][C] view of the memory-order shape.
bool viewLayout(const ImageDesc &desc, tx8_layout &l) {
  std::vector<int64_t> mem;
  for (int64_t d : desc.order)
    mem.push_back(desc.shape[d]);
  int64_t hw = 1;
  for (size_t i = 1; i + 1 < mem.size(); ++i)
    hw *= mem[i];
  int32_t v[3] = {static_cast<int32_t>(mem.empty() ? 1 : mem.front()), static_cast<int32_t>(hw),
                  static_cast<int32_t>(mem.size() < 2 ? 1 : mem.back())};
  return desc.format && desc.batchAlignBytes &&
         tx8_layout_init(&l, desc.mode, *desc.format, v, 3, desc.batchAlignBytes) == 0;
}

/// Moves elements between logical row-major and memory order (toMemory: logical -> memory).
void permute(const ImageDesc &desc, const uint8_t *src, uint8_t *dst, bool toMemory) {
  size_t rank = desc.shape.size();
  uint64_t total = elementsOf(desc.shape);
  std::vector<uint64_t> logicalStride(rank, 1);
  for (size_t i = rank; i-- > 1;)
    logicalStride[i - 1] = logicalStride[i] * static_cast<uint64_t>(desc.shape[i]);
  // Walk the memory order; idx = memory-order counters.
  std::vector<int64_t> idx(rank, 0);
  unsigned eb = desc.elementBytes;
  for (uint64_t m = 0; m < total; ++m) {
    uint64_t l = 0;
    for (size_t i = 0; i < rank; ++i)
      l += static_cast<uint64_t>(idx[i]) * logicalStride[desc.order[i]];
    if (toMemory)
      std::memcpy(dst + m * eb, src + l * eb, eb);
    else
      std::memcpy(dst + l * eb, src + m * eb, eb);
    for (size_t i = rank; i-- > 0;) {
      if (++idx[i] < desc.shape[desc.order[i]])
        break;
      idx[i] = 0;
    }
  }
}

} // namespace

std::optional<uint64_t> tx8::codegen::imageBytes(const ImageDesc &desc) {
  if (desc.order.size() != desc.shape.size() || !isPermutation(desc.order))
    return std::nullopt;
  for (int64_t d : desc.shape)
    if (d < 0)
      return std::nullopt;
  if (!aligned(desc.mode) || desc.shape.size() < 2)
    return elementsOf(desc.shape) * desc.elementBytes;
  tx8_layout l;
  if (!viewLayout(desc, l))
    return std::nullopt;
  return l.total_bytes;
}

bool tx8::codegen::packImage(const ImageDesc &desc, llvm::ArrayRef<uint8_t> logical, std::vector<uint8_t> &image,
                             std::string &error) {
  std::optional<uint64_t> bytes = imageBytes(desc);
  uint64_t logicalBytes = elementsOf(desc.shape) * desc.elementBytes;
  if (!bytes) {
    error = "inconsistent device layout description";
    return false;
  }
  if (logical.size() != logicalBytes) {
    error = "data has " + std::to_string(logical.size()) + " bytes, the tensor " + std::to_string(logicalBytes);
    return false;
  }
  std::vector<uint8_t> memory(logicalBytes);
  permute(desc, logical.data(), memory.data(), true);
  if (!aligned(desc.mode) || desc.shape.size() < 2) {
    image = std::move(memory);
    return true;
  }
  tx8_layout l;
  viewLayout(desc, l);
  image.assign(*bytes, 0);
  tx8_layout_pack(&l, memory.data(), image.data());
  return true;
}

bool tx8::codegen::unpackImage(const ImageDesc &desc, llvm::ArrayRef<uint8_t> image, std::vector<uint8_t> &logical,
                               std::string &error) {
  std::optional<uint64_t> bytes = imageBytes(desc);
  if (!bytes) {
    error = "inconsistent device layout description";
    return false;
  }
  if (image.size() != *bytes) {
    error = "image has " + std::to_string(image.size()) + " bytes, the layout " + std::to_string(*bytes);
    return false;
  }
  uint64_t logicalBytes = elementsOf(desc.shape) * desc.elementBytes;
  std::vector<uint8_t> memory(logicalBytes);
  if (!aligned(desc.mode) || desc.shape.size() < 2) {
    memory.assign(image.begin(), image.end());
  } else {
    tx8_layout l;
    viewLayout(desc, l);
    tx8_layout_unpack(&l, image.data(), memory.data());
  }
  logical.assign(logicalBytes, 0);
  permute(desc, memory.data(), logical.data(), false);
  return true;
}
