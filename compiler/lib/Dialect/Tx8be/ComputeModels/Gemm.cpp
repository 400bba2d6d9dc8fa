//===- Gemm.cpp - ComputeInterface of the matrix products -----------------===//
//
// Kernels.h's "Matrix products" (oneDNN matmul): Gemm (alpha, beta, transA/B, optional C) and MatMul.
//
//===----------------------------------------------------------------------===//
#include "ComputeModel.h"

using namespace mlir;
using namespace tx8be;
using namespace tx8be::detail;

namespace {

struct GemmModel : KernelModel<GemmModel, GemmOp> {
  static ref::Status run(GemmOp op, KernelInputs in, ref::Tensor &out) {
    ref::GemmParams p{op.getAlpha().convertToFloat(), op.getBeta().convertToFloat(), op.getTransA(),
                      op.getTransB()};
    return ref::gemm(*in[0], *in[1], op.getC() ? in[2] : nullptr, p, out);
  }
};

struct MatMulModel : KernelModel<MatMulModel, MatMulOp> {
  static ref::Status run(MatMulOp, KernelInputs in, ref::Tensor &out) { return ref::matmul(*in[0], *in[1], out); }
};

/// Its own kernel (plain C++ in double), the result in the op's element type (f32 after tx8be-ne-precision).
struct AttentionModel : KernelModel<AttentionModel, AttentionOp> {
  static ref::Status run(AttentionOp op, KernelInputs in, ref::Tensor &out) {
    auto dtype = refDTypeOf(op.getOutput().getType());
    return ref::attention(*in[0], *in[1], *in[2], op.getMask() ? in[3] : nullptr,
                          op.getScale().convertToFloat(), op.getCausal(), dtype ? *dtype : ref::DType::F32, out);
  }
};

} // namespace

void tx8be::detail::attachGemmComputeModels(MLIRContext *ctx) {
  GemmOp::attachInterface<GemmModel>(*ctx);
  MatMulOp::attachInterface<MatMulModel>(*ctx);
  AttentionOp::attachInterface<AttentionModel>(*ctx);
}
