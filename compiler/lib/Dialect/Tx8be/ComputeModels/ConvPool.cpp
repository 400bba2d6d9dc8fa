//===- ConvPool.cpp - ComputeInterface of the convolutions and pooling ----===//
//
// Kernels.h's "Convolution and pooling" (oneDNN convolution, deconvolution, pooling): Conv, ConvTranspose,
// MaxPool, AvgPool, GlobalAvgPool, GlobalMaxPool. ONNX pads [b..., e...] are split for the kernels here.
//
//===----------------------------------------------------------------------===//
#include "ComputeModel.h"

using namespace mlir;
using namespace tx8be;
using namespace tx8be::detail;

namespace {

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

struct ConvModel : KernelModel<ConvModel, ConvOp> {
  static ref::Status run(ConvOp op, KernelInputs in, ref::Tensor &out) {
    ref::ConvParams p;
    p.strides = vec(op.getStrides());
    p.dilations = vec(op.getDilations());
    splitPads(op.getPads(), spatialDims(op.getInput()), p.padsBegin, p.padsEnd);
    p.group = op.getGroup();
    return ref::conv(*in[0], *in[1], op.getBias() ? in[2] : nullptr, p, out);
  }
};

struct ConvTransposeModel : KernelModel<ConvTransposeModel, ConvTransposeOp> {
  static ref::Status run(ConvTransposeOp op, KernelInputs in, ref::Tensor &out) {
    ref::ConvTransposeParams p;
    p.strides = vec(op.getStrides());
    p.dilations = vec(op.getDilations());
    splitPads(op.getPads(), spatialDims(op.getInput()), p.padsBegin, p.padsEnd);
    p.outputPadding = vec(op.getOutputPadding());
    p.group = op.getGroup();
    return ref::convTranspose(*in[0], *in[1], op.getBias() ? in[2] : nullptr, p, out);
  }
};

/// MaxPool, AvgPool (which adds count_include_pad).
template <typename OpT, ref::PoolKind Kind>
struct PoolModel : KernelModel<PoolModel<OpT, Kind>, OpT> {
  static ref::Status run(OpT op, KernelInputs in, ref::Tensor &out) {
    ref::PoolParams p;
    p.kernel = vec(op.getKernelShape());
    p.strides = vec(op.getStrides());
    p.dilations = vec(op.getDilations());
    splitPads(op.getPads(), spatialDims(op.getInput()), p.padsBegin, p.padsEnd);
    p.ceilMode = op.getCeilMode();
    if constexpr (std::is_same_v<OpT, AvgPoolOp>)
      p.countIncludePad = op.getCountIncludePad();
    return ref::pool(Kind, *in[0], p, out);
  }
};

template <typename OpT, ref::PoolKind Kind>
struct GlobalPoolModel : KernelModel<GlobalPoolModel<OpT, Kind>, OpT> {
  static ref::Status run(OpT, KernelInputs in, ref::Tensor &out) { return ref::globalPool(Kind, *in[0], out); }
};

} // namespace

void tx8be::detail::attachConvPoolComputeModels(MLIRContext *ctx) {
  using P = ref::PoolKind;
  ConvOp::attachInterface<ConvModel>(*ctx);
  ConvTransposeOp::attachInterface<ConvTransposeModel>(*ctx);
  MaxPoolOp::attachInterface<PoolModel<MaxPoolOp, P::Max>>(*ctx);
  AvgPoolOp::attachInterface<PoolModel<AvgPoolOp, P::Avg>>(*ctx);
  GlobalAvgPoolOp::attachInterface<GlobalPoolModel<GlobalAvgPoolOp, P::Avg>>(*ctx);
  GlobalMaxPoolOp::attachInterface<GlobalPoolModel<GlobalMaxPoolOp, P::Max>>(*ctx);
}
