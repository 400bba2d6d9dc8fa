//===- Compute.cpp - ComputeInterface of the tx8be ops --------------------===//
//
// The golden model: each op runs on host tensors through the reference kernels (tx8/Reference/Kernels.h,
// oneDNN or plain C++ with ONNX semantics). BatchNorm_Inference is in BatchNormInterfaces.cpp. The op's
// attributes are translated to the kernel's parameters here; the result is checked against the op's
// result type so that a kernel/IR disagreement cannot pass silently.
//
//===----------------------------------------------------------------------===//
#include "ComputeUtils.h"

#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace tx8be;

std::optional<tx8::ref::DType> tx8be::detail::refDTypeOf(Type type) {
  using tx8::ref::DType;
  Type t = getElementTypeOrSelf(type);
  if (t.isF32())
    return DType::F32;
  if (t.isF16())
    return DType::F16;
  if (t.isBF16())
    return DType::BF16;
  if (t.isF64())
    return DType::F64;
  if (t.isInteger(1))
    return DType::Bool;
  if (t.isUnsignedInteger(8))
    return DType::U8;
  if (t.isInteger(8))
    return DType::I8;
  if (t.isInteger(32))
    return DType::I32;
  if (t.isInteger(64))
    return DType::I64;
  return std::nullopt;
}

LogicalResult tx8be::detail::checkComputeInputs(Operation *op, ComputeParam &param) {
  if (param.inputs.size() != op->getNumOperands()) {
    param.error = op->getName().getStringRef().str() + ": compute got " + std::to_string(param.inputs.size()) +
                  " inputs, the op has " + std::to_string(op->getNumOperands()) + " operands";
    return failure();
  }
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    // An absent optional operand is not in getOperands(): every listed operand needs a tensor.
    if (!param.inputs[i]) {
      param.error = op->getName().getStringRef().str() + ": input #" + std::to_string(i) + " is null";
      return failure();
    }
    auto type = cast<ShapedType>(operand.getType());
    auto dtype = refDTypeOf(type);
    const tx8::ref::Tensor &t = *param.inputs[i];
    if (!dtype || *dtype != t.dtype || (type.hasStaticShape() && ArrayRef<int64_t>(t.shape) != type.getShape())) {
      std::string expected;
      llvm::raw_string_ostream os(expected);
      os << type;
      param.error = op->getName().getStringRef().str() + ": input #" + std::to_string(i) + " is a " +
                    tx8::ref::dtypeName(t.dtype) + " tensor of shape [" +
                    llvm::join(llvm::map_range(t.shape, [](int64_t d) { return std::to_string(d); }), ",") +
                    "], the operand is " + expected;
      return failure();
    }
  }
  return success();
}

LogicalResult tx8be::detail::finishCompute(Operation *op, ComputeParam &param, const tx8::ref::Status &status,
                                           tx8::ref::Tensor result) {
  if (!status.ok()) {
    param.error = status.message();
    return failure();
  }
  auto type = cast<ShapedType>(op->getResult(0).getType());
  auto dtype = refDTypeOf(type);
  if (!dtype || *dtype != result.dtype || (type.hasStaticShape() && ArrayRef<int64_t>(result.shape) != type.getShape())) {
    std::string expected;
    llvm::raw_string_ostream os(expected);
    os << type;
    param.error = op->getName().getStringRef().str() + ": the reference kernel produced a " +
                  tx8::ref::dtypeName(result.dtype) + " tensor that does not match the result type " + expected;
    return failure();
  }
  param.outputs.clear();
  param.outputs.push_back(std::move(result));
  return success();
}

#if TX8_HAVE_REFERENCE_KERNELS

#include "tx8/Reference/Kernels.h"

namespace ref = tx8::ref;

namespace {

std::vector<int64_t> vec(ArrayRef<int64_t> values) { return std::vector<int64_t>(values.begin(), values.end()); }

/// ONNX [b..., e...] pads (empty: zeros) split for the kernels.
void splitPads(ArrayRef<int64_t> pads, size_t nsp, std::vector<int64_t> &begin, std::vector<int64_t> &end) {
  begin.assign(nsp, 0);
  end.assign(nsp, 0);
  if (pads.size() == 2 * nsp)
    for (size_t i = 0; i < nsp; ++i) {
      begin[i] = pads[i];
      end[i] = pads[i + nsp];
    }
}

size_t spatialDims(Value input) { return cast<ShapedType>(input.getType()).getRank() - 2; }

/// Unary ops that map onto ref::unary.
std::optional<std::pair<ref::UnaryOp, ref::UnaryParams>> unaryKernel(Operation *op) {
  using U = ref::UnaryOp;
  auto dflt = [](U u) { return std::make_pair(u, ref::onnxDefaultParams(u)); };
  return llvm::TypeSwitch<Operation *, std::optional<std::pair<U, ref::UnaryParams>>>(op)
      .Case([&](ReluOp) { return dflt(U::Relu); })
      .Case([&](LeakyReluOp o) { return std::make_pair(U::LeakyRelu, ref::UnaryParams{o.getAlpha().convertToFloat(), 0.f}); })
      .Case([&](EluOp o) { return std::make_pair(U::Elu, ref::UnaryParams{o.getAlpha().convertToFloat(), 0.f}); })
      .Case([&](SeluOp o) {
        return std::make_pair(U::Selu, ref::UnaryParams{o.getAlpha().convertToFloat(), o.getGamma().convertToFloat()});
      })
      .Case([&](HardSigmoidOp o) {
        return std::make_pair(U::HardSigmoid, ref::UnaryParams{o.getAlpha().convertToFloat(), o.getBeta().convertToFloat()});
      })
      .Case([&](ClipOp o) {
        return std::make_pair(U::Clip, ref::UnaryParams{o.getMin().convertToFloat(), o.getMax().convertToFloat()});
      })
      .Case([&](GeluOp o) { return dflt(o.getApproximate() == "tanh" ? U::GeluTanh : U::GeluErf); })
      .Case([&](SigmoidOp) { return dflt(U::Sigmoid); })
      .Case([&](TanhOp) { return dflt(U::Tanh); })
      .Case([&](SoftplusOp) { return dflt(U::Softplus); })
      .Case([&](SoftsignOp) { return dflt(U::Softsign); })
      .Case([&](ExpOp) { return dflt(U::Exp); })
      .Case([&](LogOp) { return dflt(U::Log); })
      .Case([&](AbsOp) { return dflt(U::Abs); })
      .Case([&](NegOp) { return dflt(U::Neg); })
      .Case([&](SqrtOp) { return dflt(U::Sqrt); })
      .Case([&](ReciprocalOp) { return dflt(U::Reciprocal); })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<ref::BinaryOp> binaryKernel(Operation *op) {
  using B = ref::BinaryOp;
  return llvm::TypeSwitch<Operation *, std::optional<B>>(op)
      .Case([](AddOp) { return B::Add; })
      .Case([](SubOp) { return B::Sub; })
      .Case([](MulOp) { return B::Mul; })
      .Case([](DivOp) { return B::Div; })
      .Case([](MaxOp) { return B::Max; })
      .Case([](MinOp) { return B::Min; })
      .Case([](PowOp) { return B::Pow; })
      .Default([](Operation *) { return std::nullopt; });
}

/// Runs `op` on `in`; returns the kernel status and fills `out`.
ref::Status run(Operation *op, ArrayRef<const ref::Tensor *> in, ref::Tensor &out) {
  if (auto unary = unaryKernel(op))
    return ref::unary(unary->first, *in[0], unary->second, out);
  if (auto binary = binaryKernel(op))
    return ref::binary(*binary, *in[0], *in[1], out);
  return llvm::TypeSwitch<Operation *, ref::Status>(op)
      .Case([&](RsqrtOp) {
        // No rsqrt kernel: sqrt then reciprocal, both in f32 (two roundings for f16/bf16 results).
        ref::Tensor root;
        ref::Status s = ref::unary(ref::UnaryOp::Sqrt, *in[0], root);
        return s.ok() ? ref::unary(ref::UnaryOp::Reciprocal, root, out) : s;
      })
      .Case([&](ErfOp) {
        // Not a reference kernel: std::erf in f32, rounded to the input's dtype.
        std::vector<float> values = ref::toFloatVector(*in[0]);
        for (float &v : values)
          v = std::erf(v);
        out = ref::fromFloatVector(values, in[0]->shape, in[0]->dtype);
        return ref::Status();
      })
      .Case([&](PReluOp) { return ref::prelu(*in[0], *in[1], out); })
      .Case([&](SoftmaxOp o) { return ref::softmax(*in[0], o.getAxis(), out); })
      .Case([&](LogSoftmaxOp o) { return ref::logSoftmax(*in[0], o.getAxis(), out); })
      .Case([&](LayerNormOp o) {
        const ref::Tensor *bias = o.getBias() ? in[2] : nullptr;
        return ref::layerNorm(*in[0], *in[1], bias, o.getAxis(), o.getEpsilon().convertToFloat(), out);
      })
      .Case([&](GemmOp o) {
        ref::GemmParams p{o.getAlpha().convertToFloat(), o.getBeta().convertToFloat(), o.getTransA(), o.getTransB()};
        return ref::gemm(*in[0], *in[1], o.getC() ? in[2] : nullptr, p, out);
      })
      .Case([&](MatMulOp) { return ref::matmul(*in[0], *in[1], out); })
      .Case([&](ConvOp o) {
        ref::ConvParams p;
        p.strides = vec(o.getStrides());
        p.dilations = vec(o.getDilations());
        splitPads(o.getPads(), spatialDims(o.getInput()), p.padsBegin, p.padsEnd);
        p.group = o.getGroup();
        return ref::conv(*in[0], *in[1], o.getBias() ? in[2] : nullptr, p, out);
      })
      .Case([&](ConvTransposeOp o) {
        ref::ConvTransposeParams p;
        p.strides = vec(o.getStrides());
        p.dilations = vec(o.getDilations());
        splitPads(o.getPads(), spatialDims(o.getInput()), p.padsBegin, p.padsEnd);
        p.outputPadding = vec(o.getOutputPadding());
        p.group = o.getGroup();
        return ref::convTranspose(*in[0], *in[1], o.getBias() ? in[2] : nullptr, p, out);
      })
      .Case<MaxPoolOp, AvgPoolOp>([&](auto o) {
        ref::PoolParams p;
        p.kernel = vec(o.getKernelShape());
        p.strides = vec(o.getStrides());
        p.dilations = vec(o.getDilations());
        splitPads(o.getPads(), spatialDims(o.getInput()), p.padsBegin, p.padsEnd);
        p.ceilMode = o.getCeilMode();
        ref::PoolKind kind = ref::PoolKind::Max;
        if constexpr (std::is_same_v<decltype(o), AvgPoolOp>) {
          kind = ref::PoolKind::Avg;
          p.countIncludePad = o.getCountIncludePad();
        }
        return ref::pool(kind, *in[0], p, out);
      })
      .Case([&](GlobalAvgPoolOp) { return ref::globalPool(ref::PoolKind::Avg, *in[0], out); })
      .Case([&](GlobalMaxPoolOp) { return ref::globalPool(ref::PoolKind::Max, *in[0], out); })
      .Case<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp>([&](auto o) {
        ref::ReduceOp kind = std::is_same_v<decltype(o), ReduceSumOp>    ? ref::ReduceOp::Sum
                             : std::is_same_v<decltype(o), ReduceMeanOp> ? ref::ReduceOp::Mean
                             : std::is_same_v<decltype(o), ReduceMaxOp>  ? ref::ReduceOp::Max
                                                                         : ref::ReduceOp::Min;
        return ref::reduce(kind, *in[0], vec(o.getAxes()), o.getKeepdims(), out);
      })
      .Case([&](ReshapeOp o) { return ref::reshape(*in[0], vec(o.getOutput().getType().getShape()), out); })
      .Case([&](TransposeOp o) { return ref::transpose(*in[0], vec(o.getPerm()), out); })
      .Case([&](ConcatOp o) {
        return ref::concat(std::vector<const ref::Tensor *>(in.begin(), in.end()), o.getAxis(), out);
      })
      .Case([&](SliceOp o) {
        // offsets/sizes/strides -> ONNX starts/ends/steps. A negative-stride slice that runs to index 0 has
        // an end below 0, which ONNX would read as counted from the back: INT64_MIN means "past the front".
        std::vector<int64_t> starts, ends, steps;
        for (auto [offset, size, stride] : llvm::zip(o.getOffsets(), o.getSizes(), o.getStrides())) {
          int64_t end = offset + size * stride;
          starts.push_back(offset);
          ends.push_back(end < 0 ? std::numeric_limits<int64_t>::min() : end);
          steps.push_back(stride);
        }
        return ref::slice(*in[0], starts, ends, {}, steps, out);
      })
      .Case([&](GatherOp o) { return ref::gather(*in[0], *in[1], o.getAxis(), out); })
      .Case([&](PadOp o) {
        ref::PadMode mode = o.getMode() == PadMode::Reflect ? ref::PadMode::Reflect
                            : o.getMode() == PadMode::Edge  ? ref::PadMode::Edge
                                                            : ref::PadMode::Constant;
        return ref::pad(*in[0], vec(o.getPads()), mode, o.getValue().convertToFloat(), out);
      })
      .Case([&](CastOp o) {
        auto to = tx8be::detail::refDTypeOf(o.getOutput().getType());
        if (!to)
          return ref::Status::error("Cast: unsupported target element type");
        return ref::cast(*in[0], *to, out);
      })
      .Case<LoadVarOp, StoreVarOp, ChannelNormOp>([&](auto) {
        // Data movement and layout conversion do not change values.
        out = *in[0];
        return ref::Status();
      })
      .Case([&](LoadConstOp o) {
        return ref::Status::error("LoadConst: constant " + std::to_string(o.getConstMapId()) +
                                  " lives in the constant container; compute the tx8be.Constant before "
                                  "MoveConstantPass instead");
      })
      .Default([&](Operation *) {
        return ref::Status::error(op->getName().getStringRef().str() + ": no reference computation");
      });
}

} // namespace

LogicalResult tx8be::detail::compute(Operation *op, ComputeParam &param) {
  if (failed(checkComputeInputs(op, param)))
    return failure();
  ref::Tensor out;
  ref::Status status = run(op, param.inputs, out);
  return finishCompute(op, param, status, std::move(out));
}

#else // !TX8_HAVE_REFERENCE_KERNELS

LogicalResult tx8be::detail::compute(Operation *op, ComputeParam &param) {
  param.error = op->getName().getStringRef().str() +
                ": the compiler was built without the reference kernels (compiler/lib/Reference)";
  return failure();
}

#endif
