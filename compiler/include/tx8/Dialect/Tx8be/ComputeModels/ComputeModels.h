//===- ComputeModels.h - ComputeInterface of the tx8be ops --------*- C++ -*-===//
//
// The tx8be ops run on host tensors through the reference kernels (tx8/Reference/Kernels.h): one external
// model per op family, in the TX8ComputeModels library (lib/Dialect/Tx8be/ComputeModels), which links
// TX8Reference (oneDNN). The dialect promises ComputeInterface for its compute ops; a tool that evaluates ops
// (the reference runner, tx8be-fold-constants) registers the models before it loads the dialect:
//
//   mlir::DialectRegistry registry;
//   registry.insert<tx8be::Tx8beDialect>();
//   tx8be::registerComputeInterfaceExternalModels(registry);
//   context.appendDialectRegistry(registry);
//
// (Appending to a context that has already loaded tx8be attaches them at once.) Without them the runner and
// the pass fail with an error naming the op and this function.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_DIALECT_TX8BE_COMPUTEMODELS_COMPUTEMODELS_H
#define TX8_DIALECT_TX8BE_COMPUTEMODELS_COMPUTEMODELS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace tx8be {

/// Adds the extension that attaches a ComputeInterface model to every tx8be compute op.
void registerComputeInterfaceExternalModels(mlir::DialectRegistry &registry);

} // namespace tx8be

#endif // TX8_DIALECT_TX8BE_COMPUTEMODELS_COMPUTEMODELS_H
