//===- Reduce.cpp - ComputeInterface of the reductions --------------------===//
//
// ref::reduce (oneDNN reduction; Kernels.h's "Reductions"): one ReduceModel per op, its ref::ReduceOp a
// template argument.
//
//===----------------------------------------------------------------------===//
#include "ComputeModel.h"

using namespace mlir;
using namespace tx8be;
using namespace tx8be::detail;

namespace {

using R = ref::ReduceOp;

/// y = ref::reduce(Kind, x, axes, keepdims) (empty axes: all of them).
template <typename OpT, R Kind>
struct ReduceModel : KernelModel<ReduceModel<OpT, Kind>, OpT> {
  static ref::Status run(OpT op, KernelInputs in, ref::Tensor &out) {
    return ref::reduce(Kind, *in[0], vec(op.getAxes()), op.getKeepdims(), out);
  }
};

/// y = ref::argReduce(IsMax, x, axis, keepdims, select_last_index).
template <typename OpT, bool IsMax>
struct ArgReduceModel : KernelModel<ArgReduceModel<OpT, IsMax>, OpT> {
  static ref::Status run(OpT op, KernelInputs in, ref::Tensor &out) {
    return ref::argReduce(IsMax, *in[0], op.getAxis(), op.getKeepdims(), op.getSelectLastIndex(), out);
  }
};

template <typename OpT, R Kind>
void attachReduce(MLIRContext *ctx) {
  OpT::template attachInterface<ReduceModel<OpT, Kind>>(*ctx);
}

} // namespace

void tx8be::detail::attachReduceComputeModels(MLIRContext *ctx) {
  attachReduce<ReduceSumOp, R::Sum>(ctx);
  attachReduce<ReduceMeanOp, R::Mean>(ctx);
  attachReduce<ReduceMaxOp, R::Max>(ctx);
  attachReduce<ReduceMinOp, R::Min>(ctx);
  ArgMaxOp::attachInterface<ArgReduceModel<ArgMaxOp, true>>(*ctx);
  ArgMinOp::attachInterface<ArgReduceModel<ArgMinOp, false>>(*ctx);
}
