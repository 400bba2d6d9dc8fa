//===- Normalization.cpp - ComputeInterface of softmax and the normalisations ===//
//
// Kernels.h's "Softmax and normalizations" (oneDNN softmax_v2, batch_normalization, layer_normalization):
// Softmax, LogSoftmax, BatchNorm_Inference (seed: its compute was in BatchNorm_Interface.cpp), LayerNorm.
//
//===----------------------------------------------------------------------===//
#include "ComputeModel.h"

using namespace mlir;
using namespace tx8be;
using namespace tx8be::detail;

namespace {

struct SoftmaxModel : KernelModel<SoftmaxModel, SoftmaxOp> {
  static ref::Status run(SoftmaxOp op, KernelInputs in, ref::Tensor &out) {
    return ref::softmax(*in[0], op.getAxis(), out);
  }
};

struct LogSoftmaxModel : KernelModel<LogSoftmaxModel, LogSoftmaxOp> {
  static ref::Status run(LogSoftmaxOp op, KernelInputs in, ref::Tensor &out) {
    return ref::logSoftmax(*in[0], op.getAxis(), out);
  }
};

/// The kernel normalises dim 1 (the op's channel) and takes [C] vectors: the 1xCx1x1 ones are flattened.
struct BatchNormModel : KernelModel<BatchNormModel, BatchNorm_InferenceOp> {
  static ref::Status run(BatchNorm_InferenceOp op, KernelInputs in, ref::Tensor &out) {
    std::vector<ref::Tensor> vectors(4);
    ref::Status s;
    for (int i = 0; i < 4 && s.ok(); ++i)
      s = ref::reshape(*in[i + 1], {in[i + 1]->numElements()}, vectors[i]);
    if (s.ok())
      s = ref::batchNormInference(*in[0], vectors[0], vectors[1], vectors[2], vectors[3],
                                  op.getEpsilon().convertToFloat(), out);
    return s;
  }
};

struct LayerNormModel : KernelModel<LayerNormModel, LayerNormOp> {
  static ref::Status run(LayerNormOp op, KernelInputs in, ref::Tensor &out) {
    const ref::Tensor *bias = op.getBias() ? in[2] : nullptr;
    return ref::layerNorm(*in[0], *in[1], bias, op.getAxis(), op.getEpsilon().convertToFloat(), out, op.getRms());
  }
};

} // namespace

void tx8be::detail::attachNormalizationComputeModels(MLIRContext *ctx) {
  SoftmaxOp::attachInterface<SoftmaxModel>(*ctx);
  LogSoftmaxOp::attachInterface<LogSoftmaxModel>(*ctx);
  BatchNorm_InferenceOp::attachInterface<BatchNormModel>(*ctx);
  LayerNormOp::attachInterface<LayerNormModel>(*ctx);
}
