//===- Kernels.h - Host reference (golden) kernels --------------*- C++ -*-===//
//
// One function per operator family, on host Tensors, with ONNX semantics. These produce the golden
// results that the TX8 compiler's ComputeInterface compares the chip against.
//
// Conventions
//  * Arithmetic kernels compute in f32. Their float inputs may be f32, f16 or bf16 (converted to f32
//    on entry); the result has the dtype of the first data input (rounded to nearest even). Other
//    dtypes are refused with a message. Data-movement kernels (transpose, slice, ...) accept every
//    dtype and copy bits.
//  * Where oneDNN has the operation (convolution, deconvolution, pooling, matmul, batch and layer
//    normalization, softmax, eltwise, binary, reduction, prelu) it is computed by oneDNN 2.x on the
//    CPU engine; the rest is plain C++. Which is which is noted per function. Exception: a few
//    transcendental eltwise functions whose oneDNN 2.6 approximation is far off in relative terms
//    somewhere in the range are computed in plain C++ (UnaryOp below, Eltwise.cpp).
//  * Determinism: every oneDNN call runs on one OpenMP thread (the calling thread's thread count is
//    set to 1 for the duration of the call and restored afterwards), so results do not depend on the
//    machine's core count or the load, and repeat bit for bit run to run. They can still differ in
//    the last bits between CPUs with different instruction sets (oneDNN picks AVX2 / AVX-512 code
//    paths with different accumulation orders): compare with golden data made on another machine
//    with a tolerance, not bitwise.
//  * Errors (bad shapes, unsupported parameters or dtypes) come back as a Status "<op>: <problem>";
//    nothing throws. Outputs are written only on success, and may alias inputs.
//  * Axes may be negative (counted from the end) wherever ONNX allows it.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_REFERENCE_KERNELS_H
#define TX8_REFERENCE_KERNELS_H

#include "tx8/Reference/Convert.h"
#include "tx8/Reference/Status.h"
#include "tx8/Reference/Tensor.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace tx8::ref {

//===----------------------------------------------------------------------===//
// Elementwise unary (Eltwise.cpp)
//===----------------------------------------------------------------------===//

enum class UnaryOp {
  // oneDNN eltwise (within a few f32 ulps of the exact result)
  Relu,
  LeakyRelu,   // alpha = negative slope (ONNX default 0.01)
  Sigmoid,     // logistic
  Tanh,
  Exp,
  Abs,
  Sqrt,
  Square,      // x * x (not an ONNX op; used by decompositions)
  HardSigmoid, // max(0, min(1, alpha x + beta)), alpha 0.2, beta 0.5; oneDNN linear followed by clip
  HardSwish,   // x * max(0, min(1, x / 6 + 1 / 2))
  Swish,       // x * sigmoid(alpha x), alpha 1
  Clip,        // min(max(x, alpha), beta); defaults -inf, +inf
  Round,       // half to even
  // plain C++, in double rounded once to f32: ops oneDNN lacks, and ops whose oneDNN 2.6 JIT
  // approximation has large relative errors in part of the range (see Eltwise.cpp)
  Elu,             // alpha (default 1)
  Selu,            // alpha (1.67326...), beta = gamma (1.05070...)
  Softplus,        // log(1 + e^x)
  Log,
  GeluErf,         // 0.5 x (1 + erf(x / sqrt 2))
  GeluTanh,        // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
  Mish,            // x tanh(softplus(x))
  Softsign,        // x / (1 + |x|)
  Neg,
  Reciprocal,
  ThresholdedRelu, // x > alpha ? x : 0, alpha 1
  Celu,            // max(0, x) + min(0, alpha (e^(x / alpha) - 1)), alpha 1
  Shrink,          // x < -beta ? x + alpha : x > beta ? x - alpha : 0; alpha = bias 0, beta = lambd 0.5
  Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh,
  Floor, Ceil,
  Sign,            // -1, 0, 1; NaN stays NaN
};

/// The op's two scalar parameters; meaning per op above.
struct UnaryParams {
  float alpha = 0.f;
  float beta = 0.f;
};

const char *unaryOpName(UnaryOp op);
/// The ONNX default attributes of `op` (e.g. LeakyRelu alpha 0.01, Clip -inf..+inf).
UnaryParams onnxDefaultParams(UnaryOp op);

/// y = op(x) with the ONNX default parameters, or with `p`.
Status unary(UnaryOp op, const Tensor &x, Tensor &y);
Status unary(UnaryOp op, const Tensor &x, const UnaryParams &p, Tensor &y);

/// ONNX PRelu: y = x < 0 ? slope * x : x, `slope` unidirectionally broadcastable to x. oneDNN prelu.
Status prelu(const Tensor &x, const Tensor &slope, Tensor &y);

//===----------------------------------------------------------------------===//
// Elementwise binary with NumPy broadcasting (Binary.cpp)
//===----------------------------------------------------------------------===//

enum class BinaryOp {
  Add, Sub, Mul, Div, Max, Min, // oneDNN binary
  Pow,                          // plain C++ (std::pow in f32)
};
const char *binaryOpName(BinaryOp op);

/// y = a op b, with multidirectional (NumPy) broadcasting. a and b must have the same dtype; integer dtypes are
/// computed exactly (ExactEltwise.h).
Status binary(BinaryOp op, const Tensor &a, const Tensor &b, Tensor &y);

/// ONNX Where: out = cond ? x : y, all three broadcast together; cond is bool, x / y any dtype
/// (identical). Plain C++.
Status where(const Tensor &cond, const Tensor &x, const Tensor &y, Tensor &out);

/// ONNX QuantizeLinear: out = saturate(round_half_even(x / scale) + zero_point) in binary32, out of zero_point's dtype
/// (i8 or u8); x and scale f32; scale and zero_point (one shape) broadcast to x (numpy). NaN gives the zero point.
/// ONNX DequantizeLinear: out = (f32(x) - f32(zero_point)) * scale, f32; x and zero_point i8, u8 or i32 alike.
/// Plain C++ (Quantize.cpp).
Status quantizeLinear(const Tensor &x, const Tensor &scale, const Tensor &zeroPoint, Tensor &out);
Status dequantizeLinear(const Tensor &x, const Tensor &scale, const Tensor &zeroPoint, Tensor &out);

/// The NumPy broadcast of two shapes, or an error naming both.
Status broadcastShapes(const std::vector<int64_t> &a, const std::vector<int64_t> &b, std::vector<int64_t> &out);

//===----------------------------------------------------------------------===//
// Softmax and normalizations (Normalization.cpp)
//===----------------------------------------------------------------------===//

/// ONNX Softmax / LogSoftmax (opset >= 13: along one axis). oneDNN softmax_v2 (accurate / log).
/// For opset < 13 semantics (coerce to 2-D at `axis`), reshape to 2-D first and use axis 1.
Status softmax(const Tensor &x, int64_t axis, Tensor &y);
Status logSoftmax(const Tensor &x, int64_t axis, Tensor &y);

/// ONNX BatchNormalization, inference mode: y = scale * (x - mean) / sqrt(var + epsilon) + bias per
/// channel (dim 1). x is N x C x D1 ... (rank >= 2); scale, bias, mean, var have C elements.
/// oneDNN batch_normalization (use_global_stats | use_scale | use_shift).
Status batchNormInference(const Tensor &x, const Tensor &scale, const Tensor &bias, const Tensor &mean,
                          const Tensor &var, float epsilon, Tensor &y);

/// ONNX LayerNormalization: normalize over dims [axis, rank); scale (and optional bias) broadcast
/// to x.shape[axis:]. Only the first output (Y) is produced. oneDNN layer_normalization on the
/// [prod(shape[:axis]), prod(shape[axis:])] view. rms: RMSNorm instead, y = x / sqrt(mean(x^2) + epsilon) *
/// scale (+ bias), computed in double per row (oneDNN's layer_normalization here has no RMS mode).
Status layerNorm(const Tensor &x, const Tensor &scale, const Tensor *bias, int64_t axis, float epsilon, Tensor &y,
                 bool rms = false);

//===----------------------------------------------------------------------===//
// Matrix products (Gemm.cpp)
//===----------------------------------------------------------------------===//

/// NumPy / ONNX MatMul: 1-D operands promoted and squeezed back, batch dims broadcast. oneDNN matmul. int8
/// operands (rank >= 2) give int32, the exact sums wrapped to 32 bits (plain C++: the NE's int8 path).
Status matmul(const Tensor &a, const Tensor &b, Tensor &y);

/// Scaled dot-product attention: y[..., Sq, Dv] = softmax(scale * q k^T + mask, last dim) v for q [..., Sq, D],
/// k [..., Skv, D], v [..., Skv, Dv], mask (optional) broadcastable to [..., Sq, Skv]; batch dims broadcast
/// (right-aligned). causal: query i sees keys j <= i + Skv - Sq. Computed in double, y in `outType` (f32, f16,
/// bf16). Plain C++.
Status attention(const Tensor &q, const Tensor &k, const Tensor &v, const Tensor *mask, float scale, bool causal,
                 DType outType, Tensor &y);

struct GemmParams {
  float alpha = 1.f;
  float beta = 1.f;
  bool transA = false;
  bool transB = false;
};
/// ONNX Gemm: Y = alpha * A' B' + beta * C, A and B 2-D, C (optional) unidirectionally broadcastable
/// to M x N. oneDNN matmul with an output scale (alpha) and a sum post-op (beta) over C prefilled
/// into the destination. With beta == 0, C is not read.
Status gemm(const Tensor &a, const Tensor &b, const Tensor *c, const GemmParams &p, Tensor &y);

//===----------------------------------------------------------------------===//
// Convolution (Conv.cpp) and pooling (Pool.cpp)
//===----------------------------------------------------------------------===//

/// Per-spatial-dimension window parameters. Empty vectors mean the ONNX default (strides 1,
/// dilations 1, pads 0). Dilations use the ONNX convention (1 = dense); pads are split into begin and
/// end (ONNX's `pads` attribute is [x1_begin, x2_begin, ..., x1_end, x2_end]: see splitOnnxPads).
struct ConvParams {
  std::vector<int64_t> strides;
  std::vector<int64_t> dilations;
  std::vector<int64_t> padsBegin;
  std::vector<int64_t> padsEnd;
  int64_t group = 1;
};

/// ONNX Conv, 1-D / 2-D / 3-D: x is N x C x D..., w is M x C/group x k..., bias (optional) has M
/// elements. oneDNN convolution_direct (dilation passed as d - 1; asymmetric pads as padding_l /
/// padding_r; groups as a 5-D/6-D grouped weight view of the same memory). int8 x and w give int32 (an int32
/// bias), the exact sums wrapped to 32 bits, zero padding (plain C++: the NE's int8 path).
Status conv(const Tensor &x, const Tensor &w, const Tensor *bias, const ConvParams &p, Tensor &y);

struct ConvTransposeParams {
  std::vector<int64_t> strides;
  std::vector<int64_t> dilations;
  std::vector<int64_t> padsBegin;
  std::vector<int64_t> padsEnd;
  std::vector<int64_t> outputPadding; // extra output rows at the end of each spatial dim
  int64_t group = 1;
};

/// ONNX ConvTranspose: x is N x C x D..., w is C x M/group x k... (ONNX layout), bias (optional) M.
/// Output size: stride * (in - 1) + outputPadding + (k - 1) * dilation + 1 - padBegin - padEnd.
/// oneDNN deconvolution_direct; output_padding beyond padEnd is added as bias-only rows.
Status convTranspose(const Tensor &x, const Tensor &w, const Tensor *bias, const ConvTransposeParams &p, Tensor &y);

enum class AutoPad { NotSet, Valid, SameUpper, SameLower };

/// Splits ONNX `pads` [b1, b2, ..., e1, e2, ...] into begin / end (odd size: error).
Status splitOnnxPads(const std::vector<int64_t> &pads, std::vector<int64_t> &begin, std::vector<int64_t> &end);

/// Pads implied by ONNX auto_pad for Conv and pooling: SAME_* gives output ceil(in / stride), the
/// odd padding unit going to the end (SAME_UPPER) or the beginning (SAME_LOWER); VALID gives 0.
/// NotSet leaves begin / end untouched. `dilations` may be empty.
Status resolveAutoPad(AutoPad mode, const std::vector<int64_t> &inSpatial, const std::vector<int64_t> &kernel,
                      const std::vector<int64_t> &strides, const std::vector<int64_t> &dilations,
                      std::vector<int64_t> &padsBegin, std::vector<int64_t> &padsEnd);

/// ConvTranspose with an ONNX output_shape (spatial sizes; empty = input * stride, as auto_pad SAME_*
/// implies): fills padsBegin / padsEnd / outputPadding of `p` (strides, dilations and output padding
/// already set) so that convTranspose produces that shape. The ONNX formula: total = stride * (in - 1)
/// + output_padding + (k - 1) * d + 1 - out; SAME_UPPER: begin = total / 2, end = total - begin;
/// otherwise (SAME_LOWER, NOTSET): end = total / 2, begin = total - end. A negative total (output larger
/// than the natural size) becomes extra output padding at the end with zero pads, which is what the
/// ONNX test data expects.
Status convTransposeResolvePads(AutoPad mode, const std::vector<int64_t> &inSpatial,
                                const std::vector<int64_t> &kernel, const std::vector<int64_t> &outputShape,
                                ConvTransposeParams &p);

enum class PoolKind { Max, Avg };

struct PoolParams {
  std::vector<int64_t> kernel; // required, one per spatial dim
  std::vector<int64_t> strides;
  std::vector<int64_t> dilations;
  std::vector<int64_t> padsBegin;
  std::vector<int64_t> padsEnd;
  bool ceilMode = false;
  bool countIncludePad = false; // AveragePool only
};

/// ONNX MaxPool / AveragePool on N x C x D... (1-D to 3-D). Output size
/// floor_or_ceil((in + padBegin + padEnd - ((k - 1) * d + 1)) / stride) + 1; with ceil_mode a last
/// window that would start inside the end padding is dropped (PyTorch's and ONNX's reference rule).
/// Average: count_include_pad counts the explicit pads but never the extra ceil_mode overhang (PyTorch
/// semantics). oneDNN pooling_v2: max directly; averages as oneDNN include_padding (window sum /
/// kernel size) rescaled by the ONNX divisor, because oneDNN's include_padding divisor counts the
/// ceil_mode overhang and its exclude_padding refuses some valid ONNX configurations (windows that
/// may lie entirely in padding, dilation gaps >= the input size).
Status pool(PoolKind kind, const Tensor &x, const PoolParams &p, Tensor &y);

/// ONNX GlobalMaxPool / GlobalAveragePool: N x C x D... -> N x C x 1 x ... x 1.
Status globalPool(PoolKind kind, const Tensor &x, Tensor &y);

//===----------------------------------------------------------------------===//
// Reductions (Reduce.cpp)
//===----------------------------------------------------------------------===//

enum class ReduceOp {
  Sum, Mean, Max, Min, Prod, // oneDNN reduction
  SumSquare, L1, L2,         // oneDNN reduction (norm_lp_power_p_sum p=2, norm_lp_sum p=1 / p=2)
  LogSum,                    // oneDNN reduction sum, then std::log (oneDNN's log is inaccurate near 1)
  LogSumExp,                 // plain C++, max-shifted for stability
};
const char *reduceOpName(ReduceOp op);

/// ONNX Reduce*: reduce over `axes` (empty: all axes, or none when noopWithEmptyAxes); keepDims keeps
/// the reduced dims as 1. Duplicate or out-of-range axes are errors.
Status reduce(ReduceOp op, const Tensor &x, const std::vector<int64_t> &axes, bool keepDims, Tensor &y,
              bool noopWithEmptyAxes = false);

/// ONNX ArgMax / ArgMin: the index (int64) of the max (isMax) or min of x along `axis`, the first one or the
/// last (selectLast); a NaN is the extreme (numpy's argmax / argmin). Plain C++.
Status argReduce(bool isMax, const Tensor &x, int64_t axis, bool keepDims, bool selectLast, Tensor &y);

//===----------------------------------------------------------------------===//
// Data movement, any dtype (DataMovement.cpp, plain C++)
//===----------------------------------------------------------------------===//

/// ONNX Transpose; empty perm reverses the dims.
Status transpose(const Tensor &x, const std::vector<int64_t> &perm, Tensor &y);

/// Reshape to a fully specified shape with the same element count (metadata only).
Status reshape(const Tensor &x, const std::vector<int64_t> &shape, Tensor &y);
/// ONNX Reshape's shape input: 0 copies the input dim (unless allowZero), one -1 is inferred.
Status resolveReshape(const std::vector<int64_t> &inShape, const std::vector<int64_t> &spec, bool allowZero,
                      std::vector<int64_t> &out);

/// ONNX Concat along `axis`; all inputs share dtype and the other dims.
Status concat(const std::vector<const Tensor *> &inputs, int64_t axis, Tensor &y);

/// ONNX Slice: starts / ends / axes / steps as in the ONNX inputs (axes empty = 0..n-1, steps empty =
/// 1). Negative starts / ends count from the end, then are clamped as the ONNX spec says: start into
/// [0, dim] (step > 0) or [0, dim - 1] (step < 0), end into [0, dim] or [-1, dim - 1]. INT64_MAX /
/// INT64_MIN work as "to the end". (This differs from NumPy only for a backward slice whose start lies
/// before the beginning: ONNX selects element 0, NumPy nothing.)
Status slice(const Tensor &x, const std::vector<int64_t> &starts, const std::vector<int64_t> &ends,
             const std::vector<int64_t> &axes, const std::vector<int64_t> &steps, Tensor &y);

/// ONNX Gather: indices (i32 or i64, negative counts from the end) select along `axis`; output shape
/// data.shape[:axis] + indices.shape + data.shape[axis+1:]. Out-of-range indices are errors.
Status gather(const Tensor &data, const Tensor &indices, int64_t axis, Tensor &y);

enum class PadMode { Constant, Reflect, Edge };

/// ONNX Pad: pads [b1, ..., bn, e1, ..., en] (negative values crop); reflect mirrors without repeating
/// the edge (NumPy 'reflect', periodic for large pads); edge repeats the border. `value` is the
/// constant for PadMode::Constant, converted to x's dtype.
Status pad(const Tensor &x, const std::vector<int64_t> &pads, PadMode mode, double value, Tensor &y);

/// ONNX Expand: broadcast x against `shape` (bidirectional, like x * ones(shape)).
Status expand(const Tensor &x, const std::vector<int64_t> &shape, Tensor &y);

// Cast is declared in tx8/Reference/Convert.h.

} // namespace tx8::ref

#endif // TX8_REFERENCE_KERNELS_H
