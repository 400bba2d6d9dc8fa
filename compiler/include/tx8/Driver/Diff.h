//===- Diff.h - tx8-aot diff: every node's output, device against reference -*- C++ -*-===//
//
// `tx8-aot diff MODEL --input ...` compiles an ONNX model with its debug outputs (ONNXImportOptions::debugOutputs:
// @main also returns the value of every node output), runs the bundle and the reference (golden) model on the same
// inputs, and compares them tensor by tensor in the model's topological order, like TPU-MLIR's
// `npz_tool compare`: the first node beyond the tolerance is where the device starts to go wrong.
//
// Numbers per tensor (TensorDiff): max |device - reference|, max |device - reference| / |reference| over the
// elements whose reference is finite and nonzero, and the cosine similarity over the elements finite on both
// sides (1 when both are all zeros). A NaN on both sides at one place, or the same infinity, is equal (error 0); a
// NaN or an infinity on one side only is an infinite error. The verdict follows `tx8-aot test-onnx`: every float
// element within |device - reference| <= atol + rtol * |reference| (with --precision's rule, toleranceFor);
// integers and bools (as 0/1) must be equal, byte for byte.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_DRIVER_DIFF_H
#define TX8_DRIVER_DIFF_H

#include "tx8/Reference/Compare.h"
#include "tx8/Reference/Status.h"
#include "tx8/Reference/Tensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tx8be {

/// test-onnx's tolerance for a --precision below fp32, relative to the format's unit roundoff u (2^-11 for tf32
/// and fp16, 10 stored mantissa bits; 2^-8 for bf16, 7 bits): 16u (0 for fp32, whose ONNX defaults apply). Each
/// NE product rounds both operands (relative error <= 2u), and the errors of a K-term sum grow like sqrt(K)
/// (random signs) relative to its terms, not to the sum, which may cancel: so the bound is relative to the
/// output's scale. 16u covers 2u * sqrt(K) for K up to 64, through a few layers.
double precisionRelTolerance(llvm::StringRef precision);

/// The largest |finite element| of an f32 tensor (0 for other dtypes, which --precision does not change, or when
/// empty).
double maxAbs(const tx8::ref::Tensor &t);

/// The tolerance `expected` is checked with: `base` (--rtol / --atol), raised for a reduced --precision to rtol =
/// 16u and atol = 16u * max|expected| (precisionRelTolerance), never lowered.
tx8::ref::Tolerance toleranceFor(const tx8::ref::Tensor &expected, tx8::ref::Tolerance base,
                                 llvm::StringRef precision);

/// One output of an ONNX node, as the importer's debug mode lists it (getDebugTensorsAttrName, tx8/Import/ONNX.h).
struct DebugTensor {
  std::string node, opType, tensor;
  std::string kind;    ///< "computed", "constant" (evaluated at import) or "unused" (not computed)
  int64_t result = -1; ///< computed: its index among @main's results
};

/// The node outputs of `func` (imported with debug outputs) in topological order; an error when it has none or
/// the list does not match the function's results.
tx8::ref::Status getDebugTensors(mlir::func::FuncOp func, std::vector<DebugTensor> &tensors);

/// How one tensor compares (the numbers of the file comment).
struct TensorDiff {
  bool compared = false; ///< false: nothing to compare (a constant, an unused output)
  bool ok = false;       ///< within the tolerance
  int64_t mismatches = 0;
  double maxAbsError = 0, maxRelError = 0, cosine = 1;
  std::string problem; ///< dtype or shape differ (then not ok)
};

/// `device` against `reference` with `tol`.
TensorDiff diffTensors(const tx8::ref::Tensor &device, const tx8::ref::Tensor &reference,
                       const tx8::ref::Tolerance &tol);

/// A row of the table: a node output and how it compares.
struct DiffRow {
  DebugTensor tensor;
  std::string dtype, shape; ///< the reference's ("-" when not compared)
  tx8::ref::Tolerance tol;
  TensorDiff diff;
  std::string file; ///< its .npy name under --out (device/ and reference/): safe, unique
};

/// The rows of `tensors`, the debug results of `device` and `reference` (one per result of @main) compared with
/// `base` and `precision` (toleranceFor).
tx8::ref::Status diffDebugOutputs(const std::vector<DebugTensor> &tensors,
                                  const std::vector<tx8::ref::Tensor> &device,
                                  const std::vector<tx8::ref::Tensor> &reference, tx8::ref::Tolerance base,
                                  llvm::StringRef precision, std::vector<DiffRow> &rows);

/// The index of the first row beyond the tolerance, or -1.
int64_t firstDivergence(llvm::ArrayRef<DiffRow> rows);

/// The table: aligned text (a header row, then one row per node output, the first divergence marked) or TSV
/// (a header line, then one line per row; fields without tabs or line breaks).
void printDiffTable(llvm::ArrayRef<DiffRow> rows, bool tsv, llvm::raw_ostream &os);

/// The one-line summary: "first divergence: node 'X' (Op) output 'Y': ..." or "all N tensors within tolerance".
std::string diffSummary(llvm::ArrayRef<DiffRow> rows);

/// --out DIR: DIR/device/<file> and DIR/reference/<file> for every compared row (earlier .npy files there
/// removed first) and DIR/diff.tsv.
tx8::ref::Status writeDiffFiles(const std::string &dir, llvm::ArrayRef<DiffRow> rows,
                                const std::vector<tx8::ref::Tensor> &device,
                                const std::vector<tx8::ref::Tensor> &reference);

} // namespace tx8be

#endif // TX8_DRIVER_DIFF_H
