//===- DataMovement.cpp - ComputeInterface of the shape and data-movement ops ===//
//
// Kernels.h's "Data movement" (plain C++, any dtype) and Convert.h's cast: Reshape, Transpose, Concat, Slice,
// Expand, Gather, Pad, Cast; LoadVar, StoreVar and ChannelNorm, which move or re-layout data without changing
// values; LoadConst, which cannot be computed (its data is in the constant container, not the IR).
//
//===----------------------------------------------------------------------===//
#include "ComputeModel.h"

#include "tx8/Reference/Convert.h"

#include <limits>

using namespace mlir;
using namespace tx8be;
using namespace tx8be::detail;

namespace {

struct ReshapeModel : KernelModel<ReshapeModel, ReshapeOp> {
  static ref::Status run(ReshapeOp op, KernelInputs in, ref::Tensor &out) {
    return ref::reshape(*in[0], vec(op.getOutput().getType().getShape()), out);
  }
};

struct TransposeModel : KernelModel<TransposeModel, TransposeOp> {
  static ref::Status run(TransposeOp op, KernelInputs in, ref::Tensor &out) {
    return ref::transpose(*in[0], vec(op.getPerm()), out);
  }
};

struct ConcatModel : KernelModel<ConcatModel, ConcatOp> {
  static ref::Status run(ConcatOp op, KernelInputs in, ref::Tensor &out) {
    return ref::concat(std::vector<const ref::Tensor *>(in.begin(), in.end()), op.getAxis(), out);
  }
};

/// offsets/sizes/strides -> ONNX starts/ends/steps. A negative-stride slice that runs to index 0 has an end
/// below 0, which ONNX would read as counted from the back: INT64_MIN means "past the front".
struct SliceModel : KernelModel<SliceModel, SliceOp> {
  static ref::Status run(SliceOp op, KernelInputs in, ref::Tensor &out) {
    std::vector<int64_t> starts, ends, steps;
    for (auto [offset, size, stride] : llvm::zip(op.getOffsets(), op.getSizes(), op.getStrides())) {
      int64_t end = offset + size * stride;
      starts.push_back(offset);
      ends.push_back(end < 0 ? std::numeric_limits<int64_t>::min() : end);
      steps.push_back(stride);
    }
    return ref::slice(*in[0], starts, ends, {}, steps, out);
  }
};

struct ExpandModel : KernelModel<ExpandModel, ExpandOp> {
  static ref::Status run(ExpandOp op, KernelInputs in, ref::Tensor &out) {
    return ref::expand(*in[0], vec(op.getOutput().getType().getShape()), out);
  }
};

struct GatherModel : KernelModel<GatherModel, GatherOp> {
  static ref::Status run(GatherOp op, KernelInputs in, ref::Tensor &out) {
    return ref::gather(*in[0], *in[1], op.getAxis(), out);
  }
};

struct PadModel : KernelModel<PadModel, PadOp> {
  static ref::Status run(PadOp op, KernelInputs in, ref::Tensor &out) {
    ref::PadMode mode = op.getMode() == PadMode::Reflect ? ref::PadMode::Reflect
                        : op.getMode() == PadMode::Edge  ? ref::PadMode::Edge
                                                         : ref::PadMode::Constant;
    return ref::pad(*in[0], vec(op.getPads()), mode, op.getValue().convertToFloat(), out);
  }
};

/// To the result's element type.
struct CastModel : KernelModel<CastModel, CastOp> {
  static ref::Status run(CastOp op, KernelInputs in, ref::Tensor &out) {
    auto to = refDTypeOf(op.getOutput().getType());
    if (!to)
      return ref::Status::error("Cast: unsupported target element type");
    return ref::cast(*in[0], *to, out);
  }
};

/// Data movement and layout conversion do not change values.
template <typename OpT>
struct IdentityModel : KernelModel<IdentityModel<OpT>, OpT> {
  static ref::Status run(OpT, KernelInputs in, ref::Tensor &out) {
    out = *in[0];
    return ref::Status();
  }
};

struct LoadConstModel : KernelModel<LoadConstModel, LoadConstOp> {
  static ref::Status run(LoadConstOp op, KernelInputs, ref::Tensor &) {
    return ref::Status::error("LoadConst: constant " + std::to_string(op.getConstMapId()) +
                              " lives in the constant container; compute the tx8be.Constant before "
                              "MoveConstantPass instead");
  }
};

} // namespace

void tx8be::detail::attachDataMovementComputeModels(MLIRContext *ctx) {
  ReshapeOp::attachInterface<ReshapeModel>(*ctx);
  TransposeOp::attachInterface<TransposeModel>(*ctx);
  ConcatOp::attachInterface<ConcatModel>(*ctx);
  SliceOp::attachInterface<SliceModel>(*ctx);
  ExpandOp::attachInterface<ExpandModel>(*ctx);
  GatherOp::attachInterface<GatherModel>(*ctx);
  PadOp::attachInterface<PadModel>(*ctx);
  CastOp::attachInterface<CastModel>(*ctx);
  LoadVarOp::attachInterface<IdentityModel<LoadVarOp>>(*ctx);
  StoreVarOp::attachInterface<IdentityModel<StoreVarOp>>(*ctx);
  ChannelNormOp::attachInterface<IdentityModel<ChannelNormOp>>(*ctx);
  LoadConstOp::attachInterface<LoadConstModel>(*ctx);
}
