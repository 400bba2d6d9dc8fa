//===- TensorBox.h - A box of a tensor, one per schedule step ----*- C++ -*-===//
#ifndef TX8_DIALECT_TX8BE_IR_TENSORBOX_H
#define TX8_DIALECT_TX8BE_IR_TENSORBOX_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace tx8be {

/// A box of a tensor in logical dims: [start, start + size); padLow/padHigh: the part of a conv/pool window
/// that lies in the padding (all zero for a box that needs none).
struct TensorBox {
  llvm::SmallVector<int64_t, 6> start, size, padLow, padHigh;

  friend bool operator==(const TensorBox &a, const TensorBox &b) {
    return a.start == b.start && a.size == b.size && a.padLow == b.padLow && a.padHigh == b.padHigh;
  }
  friend bool operator!=(const TensorBox &a, const TensorBox &b) { return !(a == b); }
};

/// The box of a Transpose's input that `box` of its output reads (output dim d is input dim perm[d]); pads go
/// with their dims.
inline TensorBox transposedSourceBox(const TensorBox &box, llvm::ArrayRef<int64_t> perm) {
  TensorBox source = box;
  for (size_t d = 0; d < perm.size() && d < box.size.size(); ++d) {
    auto to = static_cast<size_t>(perm[d]);
    source.start[to] = box.start[d];
    source.size[to] = box.size[d];
    if (!box.padLow.empty())
      source.padLow[to] = box.padLow[d], source.padHigh[to] = box.padHigh[d];
  }
  return source;
}

/// The box of a Transpose's output that holds `box` of its input (output dim d is input dim perm[d]): the
/// input box of the inverse Transpose.
inline TensorBox transposedResultBox(const TensorBox &box, llvm::ArrayRef<int64_t> perm) {
  llvm::SmallVector<int64_t, 6> inverse(perm.size());
  for (size_t d = 0; d < perm.size(); ++d)
    inverse[static_cast<size_t>(perm[d])] = static_cast<int64_t>(d);
  return transposedSourceBox(box, inverse);
}

/// Whether `box` of a Transpose's output holds, row-major, the same elements in the same order as its source
/// box in the input: the dims longer than 1 keep their order through `perm`.
inline bool transposeKeepsBoxOrder(const TensorBox &box, llvm::ArrayRef<int64_t> perm) {
  int64_t last = -1;
  for (size_t d = 0; d < perm.size() && d < box.size.size(); ++d) {
    if (box.size[d] <= 1)
      continue;
    if (perm[d] < last)
      return false;
    last = perm[d];
  }
  return true;
}

} // namespace tx8be

#endif // TX8_DIALECT_TX8BE_IR_TENSORBOX_H
