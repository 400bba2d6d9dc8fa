//===- Passes.h - tx8be transformation passes -------------------*- C++ -*-===//
#ifndef TX8_TRANSFORMS_PASSES_H
#define TX8_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

#include "tx8/Dialect/Tx8be/IR/Tx8be.h"

namespace tx8be {

#define GEN_PASS_DECL
#include "tx8/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tx8/Transforms/Passes.h.inc"

/// The layout stage of the backend on a module (its passes nested on every func.func): tx8be-fold-constants,
/// tx8be-infer-shapes, tx8be-layout-init, tx8be-layout-transmit, tx8be-layout-align-to-npu,
/// tx8be-layout-align-opt. Afterwards every value has its device image (DeviceLayout.h). A `precision` other
/// than fp32 adds tx8be-ne-precision before the constant folding (tx8-aot --precision).
void buildLayoutPipeline(mlir::OpPassManager &pm, llvm::StringRef precision = "fp32");

} // namespace tx8be

#endif // TX8_TRANSFORMS_PASSES_H
