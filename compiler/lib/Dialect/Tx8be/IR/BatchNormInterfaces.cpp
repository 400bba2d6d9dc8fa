//===- BatchNormInterfaces.cpp - The seed interfaces of BatchNorm_Inference ===//
//
// Seed: BatchNorm_Interface.cpp: its ShapeInference, Sharding and OpLib interfaces (its ComputeInterface is
// the normalisation family's model in TX8ComputeModels, ComputeModels/Normalization.cpp). The op normalises
// each channel with its own scale/offset/mean/variance, so it may be sharded only along the channel and split
// only along the other dims (the per-channel vectors are then loaded whole at every step: split (1, ..., 1)).
// The channel is always dim 1 (NCHW, as imported from ONNX); only OpLib's view of the device image
// (opLibShape) is channel-last.
//
//===----------------------------------------------------------------------===//
#include "InterfaceUtils.h"

#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"

#include "tx8/ops.h"

using namespace mlir;
using namespace tx8be;

//===----------------------------------------------------------------------===//
// ShapeInferenceOpInterface
//===----------------------------------------------------------------------===//

LogicalResult BatchNorm_InferenceOp::inferLayout() {
  // The output has the input's layout (seed).
  Operation *inOp = getInput().getDefiningOp();
  if (!inOp)
    return failure();
  tx8be::setLayoutStr(*this, tx8be::getLayoutStr(inOp));
  if (auto layout = getDevInfoLayoutMode(inOp))
    setDevInfoWithLayout(getContext(), *this, *layout);
  return success();
}

LogicalResult BatchNorm_InferenceOp::inferShapes(DynamicShapeParam &) {
  // The output is the input's type (seed); the per-channel operands are checked on the way.
  SmallVector<Type> types;
  if (failed(computeResultTypes(types)))
    return failure();
  getOutput().setType(getInput().getType());
  return success();
}

//===----------------------------------------------------------------------===//
// ShardingInterface
//===----------------------------------------------------------------------===//

std::vector<ShardingSplitParam> BatchNorm_InferenceOp::tileShardingSplit(ShardingSplitParam &param) {
  auto shape = getOutput().getType().getShape();
  int32_t shapeSize = static_cast<int32_t>(shape.size());
  if (param.outSharding.size() != shape.size() || param.outSplit.size() != shape.size())
    return {};
  int32_t c = static_cast<int32_t>(getChannelDim());

  std::vector<ShardingSplitParam> result;
  result.emplace_back(param); // input
  for (int32_t i = 0; i < shapeSize; ++i) {
    if (i != c && !result[0].outSharding.empty() && result[0].outSharding[i] != 1) // can only shard in dim C
      result[0].outSharding.clear();
  }
  if (!result[0].outSplit.empty() && result[0].outSplit[c] != 1) // can only split except dim C
    result[0].outSplit.clear();

  // scale/offset/mean/variance: viewed as 1x..xC (seed), sharded like the input's C, never split.
  ShardingSplitParam paramMean;
  if (!result[0].outSharding.empty())
    paramMean.outSharding = result[0].outSharding;
  paramMean.outSplit = std::vector<int32_t>(shapeSize, 1);

  ShardingSplitParam paramVar = paramMean;
  ShardingSplitParam paramScale = paramMean;
  ShardingSplitParam paramShift = paramMean;

  result.emplace_back(paramScale);
  result.emplace_back(paramShift);
  result.emplace_back(paramMean);
  result.emplace_back(paramVar);
  return result;
}

static int64_t ceilDivDim(int64_t extent, int64_t parts) {
  return extent == ShapedType::kDynamic ? extent : (extent + parts - 1) / parts;
}

std::vector<SliceParam> BatchNorm_InferenceOp::temporalSliceShape(SliceParam &param) {
  ShardingSplitParam request{param.sharding, param.split};
  std::vector<ShardingSplitParam> factors = tileShardingSplit(request);
  if (factors.size() != 5 || factors[0].outSharding.empty() || factors[0].outSplit.empty())
    return {};
  int64_t c = getChannelDim();
  ArrayRef<int64_t> shape = getInput().getType().getShape();
  std::vector<SliceParam> result;
  SliceParam input{factors[0].outSharding, factors[0].outSplit, {}};
  for (auto [d, extent] : llvm::enumerate(shape))
    input.sliceShape.push_back(ceilDivDim(extent, int64_t{input.sharding[d]} * input.split[d]));
  result.push_back(input);
  // A per-channel vector holds this tile's share of the channels, in its own shape ([C] or 1x..xC).
  int64_t channels = ceilDivDim(shape[c], factors[0].outSharding[c]);
  for (Value v : {getScale(), getOffset(), getMean(), getVariance()}) {
    auto vShape = cast<ShapedType>(v.getType()).getShape();
    SliceParam p{factors[1].outSharding, factors[1].outSplit, {}};
    for (int64_t extent : vShape)
      p.sliceShape.push_back(extent == 1 ? 1 : channels);
    result.push_back(p);
  }
  SliceParam output = input;
  result.push_back(output);
  return result;
}

std::vector<WindowParam> BatchNorm_InferenceOp::backWindow(const WindowParam &param) {
  ArrayRef<int64_t> shape = getOutput().getType().getShape();
  if (param.start.size() != shape.size() || param.size.size() != shape.size())
    return {};
  int64_t c = getChannelDim();
  std::vector<WindowParam> result;
  WindowParam input{param.start, param.size, std::vector<int64_t>(shape.size(), 0),
                    std::vector<int64_t>(shape.size(), 0)};
  result.push_back(input);
  for (Value v : {getScale(), getOffset(), getMean(), getVariance()}) {
    auto vShape = cast<ShapedType>(v.getType()).getShape();
    WindowParam w;
    for (int64_t extent : vShape) {
      bool isChannel = extent != 1 || vShape.size() == 1;
      w.start.push_back(isChannel ? param.start[c] : 0);
      w.size.push_back(isChannel ? param.size[c] : 1);
    }
    w.padLow.assign(vShape.size(), 0);
    w.padHigh.assign(vShape.size(), 0);
    result.push_back(w);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// OpLibInterface
//===----------------------------------------------------------------------===//

OpAttr BatchNorm_InferenceOp::queryOpAttr() {
  OpAttr attr;
  attr.alignMode = ALIGN_MODE::NPU_ALIGN; // in/out may be Cx/NCx
  attr.needPresetToNPU = true;
  auto batch = cast<ShapedType>(getOperand(0).getType()).getShape()[0];
  attr.defaultLayout = batch == 1 ? "Tensor" : "NTensor";
  return attr;
}

/// The input as OpLib sees it: the device image [N][HW][C], i.e. the shape in the op's dim order (layout_str)
/// with the dims between the first and the last merged. op_batchnorm_inference normalises the innermost dim,
/// so an order that does not put the channel last (identity before the layout passes ran) is read as the
/// channel-last order layoutInitPass gives the op. `slice` (logical order; empty: the whole tensor) is the
/// extent of one step.
static SmallVector<int64_t> opLibShape(BatchNorm_InferenceOp op, ArrayRef<int64_t> slice) {
  SmallVector<int64_t> shape(op.getInput().getType().getShape());
  if (slice.size() == shape.size())
    shape.assign(slice.begin(), slice.end());
  int64_t rank = static_cast<int64_t>(shape.size());
  int64_t c = op.getChannelDim();
  auto order = parseDimOrder(op.getLayoutStr(), rank);
  if (!order || order->back() != c)
    order = parseDimOrder(featureMapLayoutName(rank, /*channelLast=*/true), rank);
  SmallVector<int64_t, 6> device = order && order->back() == c ? toDeviceOrder(shape, *order)
                                                                : SmallVector<int64_t, 6>(shape.begin(), shape.end());
  if (rank == 2)
    return {device[0], device[1]};
  int64_t hw = 1;
  for (int64_t d = 1; d + 1 < rank; ++d)
    hw *= device[d];
  return {device[0], hw, device[rank - 1]};
}

uint32_t BatchNorm_InferenceOp::getImmSpSize(const tx8_hw_config &hw, ArrayRef<int64_t> slice) {
  auto format = tx8be::detail::dataFormatOf(getInput().getType().getElementType());
  if (!format || !getInput().getType().hasStaticShape())
    return 0;
  SmallVector<int64_t> shape = opLibShape(*this, slice);
  SmallVector<int32_t> shape32(shape.begin(), shape.end());
  L_SHAPE lshape;
  if (tx8_lshape_init(&lshape, shape32.data(), static_cast<int32_t>(shape32.size())) != 0)
    return 0;
  TSR in{*format, 0, &lshape};
  BATCHNORM_INFER_PARAM param{static_cast<LAYOUT_MODE>(tx8be::detail::resultLayout(*this)), getEpsilon().convertToFloat()};
  // The size is OpLib's to define: ask its planner.
  uint64_t bytes = op_batchnorm_inference_imm_size(&hw, &param, &in);
  return bytes > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(bytes);
}

uint64_t BatchNorm_InferenceOp::getOpClockCycle(const tx8_hw_config &hw) {
  // Seed flow: x - mean, * rstd, * scale, + shift over the tensor (4 CT passes); var + eps and rsqrt over C.
  auto type = getInput().getType();
  if (!type.hasStaticShape())
    return 0;
  tx8be::detail::CycleEstimate est{hw};
  uint64_t elements = static_cast<uint64_t>(type.getNumElements());
  uint64_t channels = static_cast<uint64_t>(type.getDimSize(getChannelDim()));
  unsigned bytes = tx8be::detail::elementBytes(type);
  uint64_t cycles = est.ct(elements, bytes, 4) + est.ct(channels, 4) + est.ctTranscendental(channels, 4);
  if (!type.getElementType().isF32()) // fp16/bf16: convert to fp32 and back
    cycles += est.ct(elements, 4, 2);
  return cycles;
}

/// scale/offset/mean/variance are per-channel vectors, 1 x C to OpLib; the input and the output its default view.
SmallVector<int64_t> BatchNorm_InferenceOp::getOpLibViewShape(unsigned index, ArrayRef<int64_t> deviceShape) {
  if (index >= 1 && index < getNumOperands()) {
    int64_t c = 1;
    for (int64_t d : deviceShape)
      c *= d;
    return {1, c};
  }
  return tx8be::detail::defaultOpLibViewShape(deviceShape);
}

LogicalResult BatchNorm_InferenceOp::genOpCode(OpCall &call) {
  call.function = "op_batchnorm_inference";
  call.paramType = "BATCHNORM_INFER_PARAM";
  call.field("layout", OpCallValue::ofEnumerator(layoutModeCName(tx8be::detail::resultLayout(*this))))
      .field("epsilon", OpCallValue::ofFloat(getEpsilon().convertToFloat()));
  for (unsigned i = 0; i < 5; ++i) // in, scale, shift, mean, var
    call.arg(OpCallArg::Kind::Operand, i);
  call.arg(OpCallArg::Kind::Imm).arg(OpCallArg::Kind::Result, 0);
  return success();
}
