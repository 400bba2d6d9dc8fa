//===- Eltwise.cpp - ComputeInterface of the elementwise unary ops --------===//
//
// ref::unary (oneDNN eltwise or plain C++, Kernels.h's "Elementwise unary"): one UnaryModel per op, its
// ref::UnaryOp a template argument and its attributes translated by unaryParams; Rsqrt and Erf, which have
// no kernel of their own; PRelu (ref::prelu). Adding a unary op whose kernel exists: one attach line.
//
//===----------------------------------------------------------------------===//
#include "ComputeModel.h"

#include "tx8/Reference/Convert.h"

#include <cmath>

using namespace mlir;
using namespace tx8be;
using namespace tx8be::detail;

namespace {

using U = ref::UnaryOp;

/// The kernel parameters of a unary op: ONNX's defaults for Kind, unless an overload reads the op's
/// attributes.
template <typename OpT>
ref::UnaryParams unaryParams(OpT, U kind) {
  return ref::onnxDefaultParams(kind);
}
ref::UnaryParams unaryParams(LeakyReluOp op, U) { return {op.getAlpha().convertToFloat(), 0.f}; }
ref::UnaryParams unaryParams(EluOp op, U) { return {op.getAlpha().convertToFloat(), 0.f}; }
ref::UnaryParams unaryParams(SeluOp op, U) { return {op.getAlpha().convertToFloat(), op.getGamma().convertToFloat()}; }
ref::UnaryParams unaryParams(HardSigmoidOp op, U) {
  return {op.getAlpha().convertToFloat(), op.getBeta().convertToFloat()};
}
ref::UnaryParams unaryParams(ClipOp op, U) { return {op.getMin().convertToFloat(), op.getMax().convertToFloat()}; }
ref::UnaryParams unaryParams(CeluOp op, U) { return {op.getAlpha().convertToFloat(), 0.f}; }
ref::UnaryParams unaryParams(ThresholdedReluOp op, U) { return {op.getAlpha().convertToFloat(), 0.f}; }
ref::UnaryParams unaryParams(ShrinkOp op, U) { return {op.getBias().convertToFloat(), op.getLambd().convertToFloat()}; }

/// y = ref::unary(Kind, x).
template <typename OpT, U Kind>
struct UnaryModel : KernelModel<UnaryModel<OpT, Kind>, OpT> {
  static ref::Status run(OpT op, KernelInputs in, ref::Tensor &out) {
    return ref::unary(Kind, *in[0], unaryParams(op, Kind), out);
  }
};

template <typename OpT, U Kind>
void attachUnary(MLIRContext *ctx) {
  OpT::template attachInterface<UnaryModel<OpT, Kind>>(*ctx);
}

/// The kernel follows `approximate`.
struct GeluModel : KernelModel<GeluModel, GeluOp> {
  static ref::Status run(GeluOp op, KernelInputs in, ref::Tensor &out) {
    U kind = op.getApproximate() == "tanh" ? U::GeluTanh : U::GeluErf;
    return ref::unary(kind, *in[0], ref::onnxDefaultParams(kind), out);
  }
};

/// No rsqrt kernel: sqrt then reciprocal, both in f32 (two roundings for f16/bf16 results).
struct RsqrtModel : KernelModel<RsqrtModel, RsqrtOp> {
  static ref::Status run(RsqrtOp, KernelInputs in, ref::Tensor &out) {
    ref::Tensor root;
    ref::Status s = ref::unary(U::Sqrt, *in[0], root);
    return s.ok() ? ref::unary(U::Reciprocal, root, out) : s;
  }
};

/// Not a reference kernel: std::erf in f32, rounded to the input's dtype.
struct ErfModel : KernelModel<ErfModel, ErfOp> {
  static ref::Status run(ErfOp, KernelInputs in, ref::Tensor &out) {
    std::vector<float> values = ref::toFloatVector(*in[0]);
    for (float &v : values)
      v = std::erf(v);
    out = ref::fromFloatVector(values, in[0]->shape, in[0]->dtype);
    return ref::Status();
  }
};

struct PReluModel : KernelModel<PReluModel, PReluOp> {
  static ref::Status run(PReluOp, KernelInputs in, ref::Tensor &out) { return ref::prelu(*in[0], *in[1], out); }
};

} // namespace

void tx8be::detail::attachEltwiseComputeModels(MLIRContext *ctx) {
  attachUnary<ReluOp, U::Relu>(ctx);
  attachUnary<LeakyReluOp, U::LeakyRelu>(ctx);
  attachUnary<EluOp, U::Elu>(ctx);
  attachUnary<SeluOp, U::Selu>(ctx);
  attachUnary<HardSigmoidOp, U::HardSigmoid>(ctx);
  attachUnary<ClipOp, U::Clip>(ctx);
  attachUnary<SigmoidOp, U::Sigmoid>(ctx);
  attachUnary<TanhOp, U::Tanh>(ctx);
  attachUnary<SoftplusOp, U::Softplus>(ctx);
  attachUnary<SoftsignOp, U::Softsign>(ctx);
  attachUnary<ExpOp, U::Exp>(ctx);
  attachUnary<LogOp, U::Log>(ctx);
  attachUnary<AbsOp, U::Abs>(ctx);
  attachUnary<NegOp, U::Neg>(ctx);
  attachUnary<SqrtOp, U::Sqrt>(ctx);
  attachUnary<ReciprocalOp, U::Reciprocal>(ctx);
  attachUnary<HardSwishOp, U::HardSwish>(ctx);
  attachUnary<MishOp, U::Mish>(ctx);
  attachUnary<CeluOp, U::Celu>(ctx);
  attachUnary<ThresholdedReluOp, U::ThresholdedRelu>(ctx);
  attachUnary<ShrinkOp, U::Shrink>(ctx);
  attachUnary<SinOp, U::Sin>(ctx);
  attachUnary<CosOp, U::Cos>(ctx);
  attachUnary<TanOp, U::Tan>(ctx);
  attachUnary<AsinOp, U::Asin>(ctx);
  attachUnary<AcosOp, U::Acos>(ctx);
  attachUnary<AtanOp, U::Atan>(ctx);
  attachUnary<SinhOp, U::Sinh>(ctx);
  attachUnary<CoshOp, U::Cosh>(ctx);
  attachUnary<AsinhOp, U::Asinh>(ctx);
  attachUnary<AcoshOp, U::Acosh>(ctx);
  attachUnary<AtanhOp, U::Atanh>(ctx);
  attachUnary<FloorOp, U::Floor>(ctx);
  attachUnary<CeilOp, U::Ceil>(ctx);
  attachUnary<RoundOp, U::Round>(ctx);
  attachUnary<SignOp, U::Sign>(ctx);
  GeluOp::attachInterface<GeluModel>(*ctx);
  RsqrtOp::attachInterface<RsqrtModel>(*ctx);
  ErfOp::attachInterface<ErfModel>(*ctx);
  PReluOp::attachInterface<PReluModel>(*ctx);
}
