//===- tx8-opt.cpp - The tx8 compiler's mlir-opt ---------------------------===//
//
// Parses, verifies, transforms and prints tx8be (and TOSA, func, arith, tensor) IR; runs any registered
// tx8 pass. The driver of the lit tests.
//
//===----------------------------------------------------------------------===//
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

#include "tx8/Conversion/Passes.h"
#include "tx8/Dialect/Tx8be/ComputeModels/ComputeModels.h"
#include "tx8/Dialect/Tx8be/IR/Tx8be.h"
#include "tx8/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<tx8be::Tx8beDialect, mlir::func::FuncDialect, mlir::arith::ArithDialect,
                  mlir::tensor::TensorDialect, mlir::tosa::TosaDialect>();
  tx8be::registerComputeInterfaceExternalModels(registry); // tx8be-fold-constants evaluates ops
  tx8be::registerTx8TransformsPasses();
  tx8be::registerTx8ConversionPasses();
  // Generic cleanups are handy in pipelines and tests.
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, "tx8 optimizer driver\n", registry));
}
