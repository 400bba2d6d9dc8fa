//===- Binary.cpp - ComputeInterface of the broadcasting binary ops -------===//
//
// ref::binary (oneDNN binary, numpy broadcasting; Kernels.h's "Elementwise binary"): one BinaryModel per op,
// its ref::BinaryOp a template argument. Adding a binary op whose kernel exists: one attach line.
//
//===----------------------------------------------------------------------===//
#include "ComputeModel.h"

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
}
