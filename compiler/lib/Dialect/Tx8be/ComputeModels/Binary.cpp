//===- Binary.cpp - ComputeInterface of the broadcasting binary ops -------===//
//
// ref::binary (oneDNN binary, numpy broadcasting; Kernels.h's "Elementwise binary"): one BinaryModel per op,
// its ref::BinaryOp a template argument; the comparisons, logic and Mod: ref::exactElementwise; Where: ref::where;
// QuantizeLinear / DequantizeLinear: ref::quantizeLinear / ref::dequantizeLinear.
// Adding a binary op whose kernel exists: one attach line.
//
//===----------------------------------------------------------------------===//
#include "ComputeModel.h"

#include "tx8/Reference/ExactEltwise.h"

#include <type_traits>

using namespace mlir;
using namespace tx8be;
using namespace tx8be::detail;

namespace {

using B = ref::BinaryOp;

/// y = ref::binary(Kind, lhs, rhs).
template <typename OpT, B Kind>
struct BinaryModel : KernelModel<BinaryModel<OpT, Kind>, OpT> {
  static ref::Status run(OpT, KernelInputs in, ref::Tensor &out) { return ref::binary(Kind, *in[0], *in[1], out); }
};

/// The exact ops (comparisons, logic, Mod): ref::exactElementwise (ExactEltwise.h).
template <typename OpT, ref::ExactOp Kind>
struct ExactModel : KernelModel<ExactModel<OpT, Kind>, OpT> {
  static ref::Status run(OpT op, KernelInputs in, ref::Tensor &out) {
    ref::ExactOp kind = Kind;
    if constexpr (std::is_same_v<OpT, ModOp>)
      kind = op.getFmod() ? ref::ExactOp::FMod : ref::ExactOp::Mod;
    return ref::exactElementwise(kind, *in[0], in.size() > 1 ? in[1] : nullptr, out);
  }
};

struct WhereModel : KernelModel<WhereModel, WhereOp> {
  static ref::Status run(WhereOp, KernelInputs in, ref::Tensor &out) { return ref::where(*in[0], *in[1], *in[2], out); }
};

/// QuantizeLinear / DequantizeLinear: ref::quantizeLinear / ref::dequantizeLinear (scale and zero point broadcast).
struct QuantizeLinearModel : KernelModel<QuantizeLinearModel, QuantizeLinearOp> {
  static ref::Status run(QuantizeLinearOp, KernelInputs in, ref::Tensor &out) {
    return ref::quantizeLinear(*in[0], *in[1], *in[2], out);
  }
};
struct DequantizeLinearModel : KernelModel<DequantizeLinearModel, DequantizeLinearOp> {
  static ref::Status run(DequantizeLinearOp, KernelInputs in, ref::Tensor &out) {
    return ref::dequantizeLinear(*in[0], *in[1], *in[2], out);
  }
};

template <typename OpT, ref::ExactOp Kind>
void attachExact(MLIRContext *ctx) {
  OpT::template attachInterface<ExactModel<OpT, Kind>>(*ctx);
}

template <typename OpT, B Kind>
void attachBinary(MLIRContext *ctx) {
  OpT::template attachInterface<BinaryModel<OpT, Kind>>(*ctx);
}

} // namespace

void tx8be::detail::attachBinaryComputeModels(MLIRContext *ctx) {
  attachBinary<AddOp, B::Add>(ctx);
  attachBinary<SubOp, B::Sub>(ctx);
  attachBinary<MulOp, B::Mul>(ctx);
  attachBinary<DivOp, B::Div>(ctx);
  attachBinary<MaxOp, B::Max>(ctx);
  attachBinary<MinOp, B::Min>(ctx);
  attachBinary<PowOp, B::Pow>(ctx);
  using E = ref::ExactOp;
  attachExact<ModOp, E::Mod>(ctx);
  attachExact<EqualOp, E::Equal>(ctx);
  attachExact<LessOp, E::Less>(ctx);
  attachExact<LessOrEqualOp, E::LessOrEqual>(ctx);
  attachExact<GreaterOp, E::Greater>(ctx);
  attachExact<GreaterOrEqualOp, E::GreaterOrEqual>(ctx);
  attachExact<AndOp, E::And>(ctx);
  attachExact<OrOp, E::Or>(ctx);
  attachExact<XorOp, E::Xor>(ctx);
  attachExact<NotOp, E::Not>(ctx);
  WhereOp::attachInterface<WhereModel>(*ctx);
  QuantizeLinearOp::attachInterface<QuantizeLinearModel>(*ctx);
  DequantizeLinearOp::attachInterface<DequantizeLinearModel>(*ctx);
}
