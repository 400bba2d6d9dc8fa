//===- Passes.h - Conversions into tx8be ------------------------*- C++ -*-===//
#ifndef TX8_CONVERSION_PASSES_H
#define TX8_CONVERSION_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

#include "tx8/Dialect/Tx8be/IR/Tx8be.h"

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace tx8be {

#define GEN_PASS_DECL
#include "tx8/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tx8/Conversion/Passes.h.inc"

/// The TOSA -> tx8be patterns (one named pattern per TOSA op).
void populateTosaToTx8bePatterns(mlir::RewritePatternSet &patterns);

} // namespace tx8be

#endif // TX8_CONVERSION_PASSES_H
