//===- CastAfterDefinition.h - A Cast right after a value's definition ---*- C++ -*-===//
//
// tx8be-ne-precision and tx8be-reduced-activations convert a value once, where it is made: the Cast follows the
// op that computed it (so tx8be-group-fuse can put it in that op's Group) or starts the block for an argument.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_TRANSFORMS_CASTAFTERDEFINITION_H
#define TX8_TRANSFORMS_CASTAFTERDEFINITION_H

#include "tx8/Dialect/Tx8be/IR/Tx8be.h"

namespace tx8be {

/// A new tx8be.Cast of `v` (a ranked tensor) to `element`, right after `v`'s definition.
inline mlir::Value castAfterDefinition(mlir::Value v, mlir::Type element) {
  mlir::OpBuilder b(v.getContext());
  if (mlir::Operation *def = v.getDefiningOp())
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(mlir::cast<mlir::BlockArgument>(v).getOwner());
  auto type = mlir::cast<mlir::RankedTensorType>(v.getType()).clone(element);
  return b.create<CastOp>(v.getLoc(), mlir::TypeRange{type}, mlir::ValueRange{v}).getResult();
}

} // namespace tx8be

#endif // TX8_TRANSFORMS_CASTAFTERDEFINITION_H
