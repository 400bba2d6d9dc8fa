//===- DeviceLayout.h - How a tx8be tensor is laid out in device memory -*- C++ -*-===//
//
// tx8be shapes stay in ONNX order through the whole backend (NCHW feature maps, OIHW weights), so every stage
// of the pipeline can still be run by the reference interpreter. Where the bytes go on the device is a
// separate property of each value, set by the layout passes:
//
//   dim order   layout_str of the defining op. A letter string names the logical dims by letter and lists them
//               outermost first: "NCHW" is the identity of a rank-4 feature map, "NHWC" its channel-last image;
//               "OIHW" / "HWIO" the same for conv weights (HWIO = OpLib's [KH][KW][C/g][O]). The letters of a
//               feature map are N C (D) (H) W, of a weight O I (D) (H) W, in that logical order. Any other
//               string ("Unknown", "Tensor", "NTensor", "Cx", "NCx") means the identity order.
//   alignment   dev_info.mem_layout (Tensor / NTensor compact, Cx / NCx channel-aligned) of the image in that
//               order, viewed as [N][HW][C] with C the innermost dim (runtime/include/tx8/layout.h).
//
// Function arguments and results carry the same two facts as the argument / result attributes
// "tx8be.layout_str" and "tx8be.mem_layout"; a Group's block argument has its operand's layout.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_DIALECT_TX8BE_IR_DEVICELAYOUT_H
#define TX8_DIALECT_TX8BE_IR_DEVICELAYOUT_H

#include "tx8/Dialect/Tx8be/IR/Tx8be.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

#include "tx8/dtype.h"

namespace tx8be {

namespace detail {
/// OpLib's element format for an MLIR element type (fp32/fp16/bf16/i8/i32), if it has one.
std::optional<Data_Format> dataFormatOf(mlir::Type elementType);
} // namespace detail

/// Argument / result attribute names on func.func for the graph's inputs and outputs.
inline constexpr llvm::StringLiteral kArgLayoutStrAttr = "tx8be.layout_str";
inline constexpr llvm::StringLiteral kArgMemLayoutAttr = "tx8be.mem_layout";

struct DeviceLayout {
  /// order[i] = the logical dim stored at memory position i (outermost first); the identity for row-major.
  llvm::SmallVector<int64_t, 6> order;
  LayoutMode mode = LayoutMode::NTensor;

  bool isIdentityOrder() const;
  /// Compact (Tensor / NTensor) in the identity order: a box's bytes are its elements row-major.
  bool isCompactRowMajor() const {
    return (mode == LayoutMode::Tensor || mode == LayoutMode::NTensor) && isIdentityOrder();
  }
  bool operator==(const DeviceLayout &o) const { return order == o.order && mode == o.mode; }
  bool operator!=(const DeviceLayout &o) const { return !(*this == o); }
};

/// The dim order a layout_str names for a tensor of `rank` (see the file comment). nullopt when the string is
/// a letter string that does not fit `rank` (wrong letters or length).
std::optional<llvm::SmallVector<int64_t, 6>> parseDimOrder(llvm::StringRef layoutStr, int64_t rank);

/// Names of the feature-map orders: rank 3 "NCW"/"NWC", 4 "NCHW"/"NHWC", 5 "NCDHW"/"NDHWC"; other ranks
/// "Tensor" (identity) for both.
std::string featureMapLayoutName(int64_t rank, bool channelLast);
/// Name of the OpLib conv weight order for a weight of `rank`: 3 "WIO", 4 "HWIO", 5 "DHWIO".
std::string convWeightLayoutName(int64_t rank);

/// The device layout of `value` (see the file comment). Values nobody has decided on: identity order and the
/// compact default (Tensor when dim 0 is 1, else NTensor). A LoadVar / StoreVar whose layout_str is "Unknown"
/// copies its input and so has the input's order (and, without dev_info, its mem_layout).
DeviceLayout getDeviceLayout(mlir::Value value);

/// The logical shape in memory order: result[i] = shape[order[i]].
llvm::SmallVector<int64_t, 6> toDeviceOrder(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> order);

/// True when the two orders put the elements of a tensor of `shape` at the same offsets (they differ only in
/// where extent-1 dims go), so converting between them moves no bytes.
bool sameMemoryOrder(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);

/// The layout_str that names `order` (the inverse of parseDimOrder): the identity is featureMapLayoutName's
/// row-major name ("NCHW", "Tensor" for rank <= 2 or > 5); other orders are spelt with the feature-map
/// letters N C (D) (H) W, or with the weight letters O I (D) (H) W when `weight` is set ("HWIO"). nullopt for a
/// non-identity order of a rank that has no letters (< 2 or > 5).
std::optional<std::string> dimOrderName(llvm::ArrayRef<int64_t> order, bool weight = false);

/// True for the elementwise ops that work in any dim order as long as every operand and the result share it
/// (OpLib.cpp's isElementwise set: unary, binary, PRelu, Cast) and whose operands all have the result's shape:
/// a broadcasting operand is indexed row-major, so such an op needs the identity order.
bool isLayoutAgnostic(mlir::Operation *op);

/// The dim order in which `op` reads its operand `operand`, given the op's own layout_str (the order of its
/// result); nullopt when the op takes any image (ChannelNorm, LoadVar, StoreVar, LoadConst, Group, Return,
/// non-tx8be ops such as func.return) or the operand is not a ranked tensor. The rules (OpLib's kernels):
///   rank <= 2 operand            identity (always row-major)
///   Conv                         input: the op's order; weight: HWIO (convWeightLayoutName) when the op is
///                                channel-last, else identity; bias: identity
///   BatchNorm_Inference          input: the op's order; scale/offset/mean/variance: identity
///   isLayoutAgnostic ops, Concat every operand: the op's order
///   anything else                operand 0: the op's order if it has the result's rank, else identity;
///                                other operands: identity
/// layoutAlignToNpuPass inserts a ChannelNorm where a value's order differs from this; codegen packs the
/// operands it hands OpLib in this order.
std::optional<llvm::SmallVector<int64_t, 6>> requiredOperandOrder(mlir::Operation *op, unsigned operand);

/// The layout in which `op` reads its operand `operand`: the value's own (getDeviceLayout), with the order the op
/// requires (requiredOperandOrder) where the two put the bytes at the same offsets (they differ only in where
/// extent-1 dims go, so layout-align-to-npu inserted no ChannelNorm: an SE block's [N,C,1,1] scale stored NHWC
/// and read NCHW). Codegen describes the operand to OpLib in this order, and its view (opLibViewShape) reads the
/// operand's device shape in it: both must use this one function.
DeviceLayout operandReadLayout(mlir::Operation *op, unsigned operand);

/// "LAYOUT_TENSOR", ...: the LAYOUT_MODE enumerator (runtime/include/tx8/tensor.h) generated C uses.
const char *layoutModeCName(LayoutMode mode);

/// Bytes of the device image of a tensor with `deviceShape` (memory order) of `elementType` in `mode`.
/// Compact layouts: elements x element bytes. Cx / NCx: tx8_layout_init's total (dims between the first and
/// the last are merged into HW), each batch starting on `batchAlignBytes` (tx8_hw_batch_align_bytes). nullopt
/// if the shape is not static or the layout cannot hold it.
std::optional<uint64_t> deviceImageBytes(llvm::ArrayRef<int64_t> deviceShape, mlir::Type elementType,
                                         LayoutMode mode, uint32_t batchAlignBytes);

} // namespace tx8be

#endif // TX8_DIALECT_TX8BE_IR_DEVICELAYOUT_H
