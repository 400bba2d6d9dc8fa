//===- OpLibInterface.h - The bridge between tx8be ops and OpLib -*- C++ -*-===//
#ifndef TX8_INTERFACES_OPLIBINTERFACE_H
#define TX8_INTERFACES_OPLIBINTERFACE_H

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/SmallVector.h"

#include "tx8/hw_config.h"

namespace tx8be {

/// Alignment an op requires of its tensors (seed: some NPU ops only take the compact layouts
/// (Tensor/NTensor), some only the channel-aligned ones (Cx/NCx), some either).
enum ALIGN_MODE { NPU_UNKNOWN = 0, NPU_COMPACT = 1, NPU_ALIGN = 2, NPU_BOTH = 3 };

/// Engine that runs the op's compute (seed: NPU_ENGINE_CT default).
enum ENGINE_TYPE { NPU_ENGINE_CT = 0, NPU_ENGINE_NE = 1, NPU_ENGINE_LSU = 2, NPU_ENGINE_DTE = 3 };

/// The op's OpLib properties (seed struct OpAttr; field comments translated from it). The seed's memInplace,
/// parallel and alignCx are not here: nothing reads them until buffer reuse and the sharding search do.
struct OpAttr {
  ALIGN_MODE alignMode{ALIGN_MODE::NPU_UNKNOWN}; ///< alignment requirement (Cx / NCx / don't care)
  std::string defaultLayout{"Tensor"};          ///< the op's default layout
  bool needPresetToNPU{false}; ///< must be preset to the hardware layout (instructions with an NHWC config)
  ENGINE_TYPE engine{NPU_ENGINE_CT};
  uint64_t needLoad{0xFFFFFFFFFFFFFFFF};   ///< bit i: operand i needs a load op (0: skip LoadVar/LoadConst)
  uint64_t needStore{0xFFFFFFFFFFFFFFFF};  ///< bit i: result i needs a store op
  /// Whether operand `i` needs a load. A variadic op (a Concat of 128 windows) may have more operands than
  /// the mask has bits: those past 63 share bit 63 (shifting a uint64_t by 64 or more is undefined).
  bool loads(unsigned i) const { return (needLoad >> std::min(i, 63u)) & 1; }
  /// Whether result `i` needs a store (results past 63 share bit 63).
  bool stores(unsigned i) const { return (needStore >> std::min(i, 63u)) & 1; }
  /// The kernel works in any dim order as long as every tensor shares it (the elementwise CT ops; not in the
  /// seed): what isLayoutAgnostic (DeviceLayout.h) asks.
  bool anyDimOrder{false};
};

/// A member of an OpLib *_PARAM initializer, as genOpCode describes it. Codegen prints it (the only place that
/// writes C), so nothing an op says becomes text before it is checked.
struct OpCallValue {
  enum class Kind {
    Int,        ///< an integer
    Float,      ///< a float (must be finite to be printed)
    Enumerator, ///< a C enumerator of OpLib's headers (LAYOUT_TENSOR, RND_NEAREST_EVEN): compiler text only
    StepPad,    ///< this step's pad on side `index` (0 top, 1 left, 2 bottom, 3 right): a border slice keeps
                ///< the op's padding there, an inner slice has none
    IntArray,   ///< an int array member ({0, 2, 1})
    StepAccumulate ///< 1 on a step that adds to the partial sum an earlier step left in the output (a split
                   ///< reduction, StepsOp reduce_steps), else 0
  };
  Kind kind = Kind::Int;
  int64_t integer = 0;
  float real = 0;
  std::string enumerator;
  llvm::SmallVector<int64_t, 6> ints;

  static OpCallValue ofInt(int64_t v) { return {Kind::Int, v, 0, {}, {}}; }
  static OpCallValue ofFloat(float v) { return {Kind::Float, 0, v, {}, {}}; }
  static OpCallValue ofEnumerator(llvm::StringRef name) { return {Kind::Enumerator, 0, 0, name.str(), {}}; }
  static OpCallValue ofStepPad(unsigned side) { return {Kind::StepPad, side, 0, {}, {}}; }
  static OpCallValue ofInts(llvm::ArrayRef<int64_t> v) { return {Kind::IntArray, 0, 0, {}, {v.begin(), v.end()}}; }
  static OpCallValue ofStepAccumulate() { return {Kind::StepAccumulate, 0, 0, {}, {}}; }
};

/// An argument of the call after `&param`: a TSR* of the op's operand / result `index`, its scratch (imm), NULL
/// (an absent optional operand), or every operand as an array (`TSR *const *`, for a variadic op such as Concat).
struct OpCallArg {
  enum class Kind { Operand, Result, Imm, Null, OperandArray };
  Kind kind = Kind::Null;
  unsigned index = 0;
};

/// The OpLib call one op makes per step: `function(&param, args...)` with `param` a `paramType` initialised
/// member by member. What codegen asks of genOpCode; codegen names the tensors and prints it.
struct OpCall {
  std::string function;  ///< OpLib entry point (tx8/ops.h, tx8/lsu.h), e.g. "op_conv"
  std::string paramType; ///< its parameter struct, e.g. "CONV_PARAM"
  llvm::SmallVector<std::pair<std::string, OpCallValue>, 12> fields; ///< member name -> value, in declaration order
  llvm::SmallVector<OpCallArg, 6> args;

  OpCall &field(llvm::StringRef name, OpCallValue value) {
    fields.emplace_back(name.str(), std::move(value));
    return *this;
  }
  OpCall &arg(OpCallArg::Kind kind, unsigned index = 0) {
    args.push_back({kind, index});
    return *this;
  }
  /// True if some field takes this step's padding (codegen then provides a per-step pad table).
  bool usesStepPads() const;
};

namespace detail {
/// The shape OpLib's op_* call expects for operand `index` (index >= operands: result index - operands) of
/// `op`, given that tensor's shape in device memory order: the op's getOpLibViewShape (per-channel vectors as
/// 1 x C, softmax rows as [R][L], ChannelNorm's as they are), else defaultOpLibViewShape.
llvm::SmallVector<int64_t> opLibViewShape(mlir::Operation *op, unsigned index, llvm::ArrayRef<int64_t> deviceShape);
/// The device shape, ranks above 4 with the middle dims merged ([N][D*H*W][C]), ranks below 2 with leading 1s
/// ([1][N]: OpLib takes 2 to 4 dims); ranks 2 to 4 as they are.
llvm::SmallVector<int64_t> defaultOpLibViewShape(llvm::ArrayRef<int64_t> deviceShape);
/// Attaches the OpLibInterface models of the op families (OpLib.cpp); Tx8beDialect::initialize calls it.
void attachOpLibModels(mlir::MLIRContext *ctx);
} // namespace detail
} // namespace tx8be

#include "tx8/Interfaces/OpLibInterface.h.inc"

#endif // TX8_INTERFACES_OPLIBINTERFACE_H
