//===- ExactEltwise.h - Exact elementwise ops, comparisons and logic -*- C++ -*-===//
//
// The elementwise ops whose result is exact by definition, in plain C++ (no oneDNN): integer arithmetic
// (two's-complement wrap-around in the dtype, as numpy), comparisons of any dtype (a bool result), the logical
// ops on bools, and Mod of any dtype. Float arithmetic is computed in double and rounded once to the dtype.
// The reference kernels run these for the dtypes oneDNN does not take; the ONNX importer folds constants with
// them, so both follow one rule.
//
// Integer Div truncates toward zero (ONNX), and Div or Mod by zero gives 0 (numpy's result); INT_MIN / -1
// wraps. Integer Pow is the exact power wrapped to the dtype; a negative exponent gives the truncated real
// result (1, -1 or 0). Mod takes the divisor's sign, FMod the dividend's (C fmod); a float Mod by 0 is NaN.
// Comparisons with NaN are false. And, Or, Xor and Not take bools.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_REFERENCE_EXACTELTWISE_H
#define TX8_REFERENCE_EXACTELTWISE_H

#include "tx8/Reference/Status.h"
#include "tx8/Reference/Tensor.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tx8::ref {

enum class ExactOp {
  // unary
  Neg, Abs, Sign, Not,
  // binary, the operands' dtype
  Add, Sub, Mul, Div, Max, Min, Pow, Mod, FMod,
  // binary, a bool result
  Equal, Less, LessOrEqual, Greater, GreaterOrEqual,
  // binary on bools
  And, Or, Xor,
};

/// The op of an ONNX op type ("Add", "Equal", ...; "Mod" is Mod: FMod is Mod with fmod = 1), or nullopt.
std::optional<ExactOp> exactOpNamed(std::string_view onnxName);
const char *exactOpName(ExactOp op);
bool isExactUnary(ExactOp op);

/// The numpy broadcast of two shapes, or nullopt when they do not broadcast.
std::optional<std::vector<int64_t>> numpyBroadcast(const std::vector<int64_t> &a, const std::vector<int64_t> &b);
/// Element index in a tensor of shape `in` (right-aligned, broadcast to `out`) of out's element `linear`.
int64_t broadcastIndex(const std::vector<int64_t> &out, const std::vector<int64_t> &in, int64_t linear);

/// y = op(a) or op(a, b) with numpy broadcasting; `b` is null for the unary ops. a and b have one dtype.
Status exactElementwise(ExactOp op, const Tensor &a, const Tensor *b, Tensor &y);

} // namespace tx8::ref

#endif // TX8_REFERENCE_EXACTELTWISE_H
