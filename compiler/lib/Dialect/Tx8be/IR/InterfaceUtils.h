//===- InterfaceUtils.h - Helpers shared by the interface implementations -*- C++ -*-===//
//
// Private to the dialect library: element formats, layouts and the cycle estimates that
// OpLib.cpp and BatchNormInterfaces.cpp share.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_LIB_DIALECT_TX8BE_IR_INTERFACEUTILS_H
#define TX8_LIB_DIALECT_TX8BE_IR_INTERFACEUTILS_H

#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"
#include "tx8/Dialect/Tx8be/IR/Tx8be.h"

#include <optional>
#include <string>

#include "tx8/dtype.h"
#include "tx8/hw_config.h"

namespace tx8be::detail {

/// Elements of a static shape; nullopt if a dimension is dynamic.
std::optional<uint64_t> staticElements(mlir::Type type);

/// Bytes per element as stored on the device (the MLIR bit width rounded up to bytes).
unsigned elementBytes(mlir::Type type);

/// The device layout of an op's result: dev_info.mem_layout if the backend set it, else the op's compact
/// default (Tensor when dim 0 is 1, else NTensor).
LayoutMode resultLayout(mlir::Operation *op);


/// Cycle estimates from the hardware config. These are planning numbers (the cmodel's cycle model is the
/// truth): an engine instruction costs its start-up plus its data over the engine's per-cycle width.
struct CycleEstimate {
  const tx8_hw_config &hw;

  /// `passes` CT instructions over `elements` elements of `bytes` bytes each.
  uint64_t ct(uint64_t elements, unsigned bytes, uint64_t passes = 1) const;
  /// As ct(), for a transcendental function (exp, log, rsqrt, div, tanh, ...): ct_transcendental_passes each.
  uint64_t ctTranscendental(uint64_t elements, unsigned bytes, uint64_t passes = 1) const;
  /// `macs` multiply-accumulates on the NE at the rate of `elementType`.
  uint64_t ne(uint64_t macs, mlir::Type elementType) const;
  /// An SPM-to-SPM move (TDMA) of `bytes`.
  uint64_t tdma(uint64_t bytes) const;
  /// A DDR<->SPM transfer (RDMA/WDMA) of `bytes`, limited by the narrower of the port and DDR.
  uint64_t ddr(uint64_t bytes) const;
};


} // namespace tx8be::detail

#endif // TX8_LIB_DIALECT_TX8BE_IR_INTERFACEUTILS_H
