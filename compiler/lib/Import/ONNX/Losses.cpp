//===- Losses.cpp - NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss ----===//
//
// The inference forms of ONNX's two losses, written as their ONNX function bodies are, with the gathers as
// one-hot selections (Indexing.cpp): input [N, C, d1, ...] is viewed as [N, C, D] and the target [N, d1, ...]
// as [N, D], so every op works on at most 3 dims whatever the rank.
//
//===----------------------------------------------------------------------===//
#include "Converters.h"

using namespace mlir;
using namespace tx8be;
using namespace tx8be::onnx_import;

namespace {

/// ONNX NegativeLogLikelihoodLoss on `input` [N, C, d...] (log-probabilities) and `target` [N, d...]:
/// loss[n, d] = -input[n, target[n, d], d] * w, w = weight[target[n, d]] (1 without weight), 0 where target is
/// ignore_index; reduction none (shape [N, d...]), sum, or mean (the sum divided by the sum of the w).
FailureOr<Value> negativeLogLikelihood(NodeImporter &n, Value input, Value target, std::optional<Value> weight,
                                       std::optional<int64_t> ignoreIndex, StringRef reduction) {
  auto inType = cast<RankedTensorType>(input.getType()), tgtType = cast<RankedTensorType>(target.getType());
  ArrayRef<int64_t> inShape = inType.getShape();
  if (inType.getRank() < 2 || tgtType.getRank() != inType.getRank() - 1)
    return n.unsupported("input must be [N, C, d...] and target [N, d...]");
  if (!tgtType.getElementType().isInteger(32) && !tgtType.getElementType().isInteger(64))
    return n.unsupported("target must be int32 or int64");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return n.unsupported("reduction '" + reduction + "' is not an ONNX value");
  int64_t batch = inShape[0], classes = inShape[1], rest = product(inShape.drop_front(2));
  SmallVector<int64_t> flat{batch, rest};
  auto scores = n.reshape(input, {batch, classes, rest});
  auto labels = n.reshape(target, flat);
  auto mask = succeeded(labels) ? oneHotMask(n, *labels, 1, classes) : labels;
  auto picked = succeeded(scores) && succeeded(mask) ? selectAlong(n, *scores, *mask, 1, false) : mask;
  if (failed(picked))
    return failure();
  Type element = inType.getElementType();
  FailureOr<Value> w = failure();
  if (weight) {
    auto perClass = n.reshape(*weight, {1, classes, 1});
    auto full = succeeded(perClass) ? n.broadcastTo(*perClass, {batch, classes, rest}) : perClass;
    w = succeeded(full) ? selectAlong(n, *full, *mask, 1, false) : full;
  } else if (ignoreIndex || reduction == "mean") {
    w = splatConstant(n, element, flat, 1);
  }
  if (ignoreIndex && succeeded(w)) {
    auto ii = splatConstant(n, tgtType.getElementType(), {}, static_cast<double>(*ignoreIndex));
    auto ignored = binaryOf<EqualOp>(n, *labels, ii);
    auto zeros = splatConstant(n, element, flat, 0);
    if (failed(ignored) || failed(zeros))
      return failure();
    w = n.create<WhereOp>(ValueRange{*ignored, *zeros, *w});
  }
  auto negated = n.create<NegOp>(*picked);
  auto loss = (weight || ignoreIndex) ? binaryOf<MulOp>(n, negated, w) : negated;
  if (failed(loss))
    return failure();
  if (reduction == "none") {
    SmallVector<int64_t> shape(tgtType.getShape());
    return n.reshape(*loss, shape);
  }
  auto all = [&](FailureOr<Value> v) -> FailureOr<Value> {
    if (failed(v))
      return failure();
    return n.create<ReduceSumOp>(*v, {n.i64Array("axes", {0, 1}), n.boolean("keepdims", false)});
  };
  auto sum = all(loss);
  if (reduction == "sum")
    return sum;
  return binaryOf<DivOp>(n, sum, all(w));
}

/// The optional weight input `i` and the ignore_index attribute.
LogicalResult lossOptions(NodeImporter &n, int i, std::optional<Value> &weight, std::optional<int64_t> &ii) {
  if (n.hasInput(i)) {
    auto w = n.input(i);
    if (failed(w))
      return failure();
    weight = *w;
  }
  if (n.hasAttr("ignore_index"))
    ii = n.attrInt("ignore_index", 0);
  return success();
}

LogicalResult convertNegativeLogLikelihoodLoss(NodeImporter &n) {
  if (failed(n.onlyAttrs({"ignore_index", "reduction"})))
    return failure();
  auto input = n.input(0), target = n.input(1);
  std::optional<Value> weight;
  std::optional<int64_t> ii;
  if (failed(input) || failed(target) || failed(lossOptions(n, 2, weight, ii)))
    return failure();
  return bindResult(n, negativeLogLikelihood(n, *input, *target, weight, ii, n.attrString("reduction", "mean")));
}

/// SoftmaxCrossEntropyLoss: NegativeLogLikelihoodLoss of LogSoftmax(scores) over the classes (dim 1); output 1,
/// when used, is that log-probability.
LogicalResult convertSoftmaxCrossEntropyLoss(NodeImporter &n) {
  if (failed(n.onlyAttrs({"ignore_index", "reduction"})))
    return failure();
  auto scores = n.input(0), labels = n.input(1);
  std::optional<Value> weight;
  std::optional<int64_t> ii;
  if (failed(scores) || failed(labels) || failed(lossOptions(n, 2, weight, ii)))
    return failure();
  // on the [N, C, D] view too: a 3-D LogSoftmax's broadcasts stay within OpLib's 4-dim view
  auto shape = cast<RankedTensorType>(scores->getType()).getShape();
  auto labelShape = cast<RankedTensorType>(labels->getType()).getShape();
  if (shape.size() < 2 || labelShape.size() + 1 != shape.size())
    return n.unsupported("scores must be [N, C, d...] and labels [N, d...]");
  int64_t rest = product(shape.drop_front(2));
  auto view = n.reshape(*scores, {shape[0], shape[1], rest});
  auto labelView = n.reshape(*labels, {shape[0], rest});
  auto logProb = succeeded(view) ? n.create<LogSoftmaxOp>(*view, {n.i64("axis", 1)}) : view;
  if (failed(logProb) || failed(labelView))
    return failure();
  std::string reduction = n.attrString("reduction", "mean");
  auto loss = negativeLogLikelihood(n, *logProb, *labelView, weight, ii, reduction);
  if (succeeded(loss) && reduction == "none")
    loss = n.reshape(*loss, labelShape);
  if (failed(loss))
    return failure();
  n.setOutput(0, *loss);
  if (n.numOutputs() > 1 && n.outputUsed(1)) {
    auto logProbOut = n.reshape(*logProb, shape);
    if (failed(logProbOut))
      return failure();
    n.setOutput(1, *logProbOut);
  }
  return success();
}

} // namespace

void tx8be::onnx_import::addLossConverters(llvm::StringMap<NodeConverter> &converters) {
  converters["NegativeLogLikelihoodLoss"] = convertNegativeLogLikelihoodLoss;
  converters["SoftmaxCrossEntropyLoss"] = convertSoftmaxCrossEntropyLoss;
}
