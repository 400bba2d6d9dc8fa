//===- DeviceImage.h - Host tensors to and from their device images -*- C++ -*-===//
//
// A tensor's device image (tx8/Dialect/Tx8be/IR/DeviceLayout.h) is its row-major logical data with the dims
// reordered to the memory order, then, for Cx/NCx, packed with the channel padding of runtime/layout.h. The
// compiler writes constants this way into consts.bin; `tx8-aot run` packs inputs and unpacks outputs with the
// same functions. No MLIR here: the run side only has the manifest.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_CODEGEN_DEVICEIMAGE_H
#define TX8_CODEGEN_DEVICEIMAGE_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tx8/dtype.h"
#include "tx8/tensor.h"

namespace tx8::codegen {

struct ImageDesc {
  std::vector<int64_t> shape; ///< logical shape
  std::vector<int64_t> order; ///< order[i] = logical dim at memory position i
  unsigned elementBytes = 4;
  LAYOUT_MODE mode = LAYOUT_NTENSOR;
  std::optional<Data_Format> format; ///< needed for Cx / NCx only
  uint32_t batchAlignBytes = 0;      ///< Cx / NCx only: tx8_hw_batch_align_bytes of the config compiled for
};

/// Bytes of the device image, or nullopt if the description is inconsistent (order not a permutation, Cx
/// without a format or batch alignment, a shape the layout cannot hold).
std::optional<uint64_t> imageBytes(const ImageDesc &desc);

/// Row-major logical bytes -> device image. Returns false (with `error`) on a size or description mismatch.
bool packImage(const ImageDesc &desc, llvm::ArrayRef<uint8_t> logical, std::vector<uint8_t> &image,
               std::string &error);
/// Device image -> row-major logical bytes.
bool unpackImage(const ImageDesc &desc, llvm::ArrayRef<uint8_t> image, std::vector<uint8_t> &logical,
                 std::string &error);

} // namespace tx8::codegen

#endif // TX8_CODEGEN_DEVICEIMAGE_H
