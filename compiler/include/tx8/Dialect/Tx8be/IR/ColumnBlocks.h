//===- ColumnBlocks.h - A constant stored as contiguous blocks of columns -*- C++ -*-===//
//
// A linear layer cut by output columns reads, on each tile, w columns of every row of its weight: in the plain
// row-major image that is one w-element run per row, and DDR moves whole bursts, so a run of 48 bf16 (96 bytes)
// costs two 64-byte bursts. A LoadConst with `column_block` = w (tx8be-block-weights) has its image stored as
// [N / w][d0 .. d(r-2)][w] instead of [d0 .. d(r-2)][N]: a box of one whole block is then one contiguous run.
// consts.bin writes that image; codegen addresses it with the blocked shape and boxes below.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_DIALECT_TX8BE_IR_COLUMNBLOCKS_H
#define TX8_DIALECT_TX8BE_IR_COLUMNBLOCKS_H

#include "tx8/Dialect/Tx8be/IR/TensorBox.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <cstring>

namespace tx8be {

/// The blocked image's shape: [N / w, d0 .. d(r-2), w] for a logical [d0 .. d(r-2), N] (N a multiple of w).
inline llvm::SmallVector<int64_t, 6> columnBlockedShape(llvm::ArrayRef<int64_t> shape, int64_t w) {
  llvm::SmallVector<int64_t, 6> blocked{shape.back() / w};
  blocked.append(shape.begin(), shape.end() - 1);
  blocked.push_back(w);
  return blocked;
}

/// Whether `box` (of a tensor whose last dim is cut into blocks of `w`) is whole blocks of one block: what a
/// blocked constant's reader may load.
inline bool isOneColumnBlock(const TensorBox &box, int64_t w) {
  return !box.size.empty() && box.size.back() == w && box.start.back() % w == 0 &&
         llvm::all_of(box.padLow, [](int64_t p) { return p == 0; }) &&
         llvm::all_of(box.padHigh, [](int64_t p) { return p == 0; });
}

/// `box` (one whole block, isOneColumnBlock) as a box of the blocked image.
inline TensorBox columnBlockedBox(const TensorBox &box, int64_t w) {
  TensorBox blocked;
  blocked.start.push_back(box.start.back() / w);
  blocked.start.append(box.start.begin(), box.start.end() - 1);
  blocked.start.push_back(0);
  blocked.size.push_back(1);
  blocked.size.append(box.size.begin(), box.size.end() - 1);
  blocked.size.push_back(w);
  return blocked;
}

/// Row-major logical bytes of a [rows, N] tensor (rows = the product of the leading dims; elements of
/// `elementBytes`) -> the blocked image's bytes [N / w][rows][w]. `out` holds as many bytes as `in`.
inline void columnBlockBytes(const uint8_t *in, uint8_t *out, uint64_t rows, uint64_t n, uint64_t w,
                             uint64_t elementBytes) {
  const uint64_t run = w * elementBytes;
  for (uint64_t b = 0; b < n / w; ++b)
    for (uint64_t r = 0; r < rows; ++r)
      std::memcpy(out + (b * rows + r) * run, in + (r * n + b * w) * elementBytes, run);
}

} // namespace tx8be

#endif // TX8_DIALECT_TX8BE_IR_COLUMNBLOCKS_H
