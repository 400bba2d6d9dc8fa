//===- TensorBox.h - A box of a tensor, one per schedule step ----*- C++ -*-===//
#ifndef TX8_DIALECT_TX8BE_IR_TENSORBOX_H
#define TX8_DIALECT_TX8BE_IR_TENSORBOX_H

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

} // namespace tx8be

#endif // TX8_DIALECT_TX8BE_IR_TENSORBOX_H
