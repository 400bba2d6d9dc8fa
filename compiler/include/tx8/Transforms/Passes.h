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

} // namespace tx8be

#endif // TX8_TRANSFORMS_PASSES_H
