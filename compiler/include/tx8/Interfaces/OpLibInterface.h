//===- OpLibInterface.h - The bridge between tx8be ops and OpLib -*- C++ -*-===//
#ifndef TX8_INTERFACES_OPLIBINTERFACE_H
#define TX8_INTERFACES_OPLIBINTERFACE_H

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

/// The op's OpLib properties (seed struct OpAttr; field comments translated from it).
struct OpAttr {
  ALIGN_MODE alignMode{ALIGN_MODE::NPU_UNKNOWN}; ///< alignment requirement (Cx / NCx / don't care)
  std::string defaultLayout{"Tensor"};          ///< the op's default layout
  bool needPresetToNPU{false}; ///< must be preset to the hardware layout (instructions with an NHWC config)
  ENGINE_TYPE engine{NPU_ENGINE_CT};
  bool memInplace{false};                  ///< output may reuse an input's memory (e.g. add's out uses in0's)
  uint64_t needLoad{0xFFFFFFFFFFFFFFFF};   ///< bit i: operand i needs a load op (0: skip LoadVar/LoadConst)
  uint64_t needStore{0xFFFFFFFFFFFFFFFF};  ///< bit i: result i needs a store op
  bool parallel{1};                        ///< may run in parallel mode
  bool alignCx{1};                         ///< the lowest dimension's split goes down to 64/128 (i8)
};

/// What codegen tells genOpCode about the surrounding main.c.
struct OpCodeParam {
  std::vector<std::string> inputs;  ///< C expressions of type TSR* for each operand ("NULL" if absent)
  std::vector<std::string> outputs; ///< C expressions of type TSR* for each result
  std::string imm{"NULL"};          ///< TSR* of the getImmSpSize()-byte SPM scratch buffer
  std::string name{"op"};           ///< unique C identifier prefix for the locals the op declares
  std::string cycles{"cycles"};     ///< uint64_t lvalue that accumulates the op's cycles
  /// Conv/pool: C expression of a `const int32_t *` to this step's {pad_top, pad_left, pad_bottom, pad_right}
  /// (a slice at a border keeps the op's padding there, an inner slice has none). Empty: the op's own pads.
  std::string pads;
};

namespace detail {
std::string genOpCode(mlir::Operation *op, const OpCodeParam &param);
uint64_t getOpClockCycle(mlir::Operation *op, const tx8_hw_config &hw);
uint32_t getImmSpSize(mlir::Operation *op, const tx8_hw_config &hw, llvm::ArrayRef<int64_t> slice);
/// The shape OpLib's op_* call expects for operand `index` (index >= operands: result index - operands) of
/// `op`, given that tensor's shape in device memory order: per-channel vectors as 1 x C, softmax rows as
/// [R][L], ranks above 4 with the middle dims merged; otherwise the device shape itself.
llvm::SmallVector<int64_t> opLibViewShape(mlir::Operation *op, unsigned index, llvm::ArrayRef<int64_t> deviceShape);
OpAttr queryOpAttr(mlir::Operation *op);
} // namespace detail
} // namespace tx8be

#include "tx8/Interfaces/OpLibInterface.h.inc"

#endif // TX8_INTERFACES_OPLIBINTERFACE_H
