//===- DeviceFormat.h - The chip's element format of a dtype -----*- C++ -*-===//
//
// The deviceFormat column of tx8/Reference/ElementTypes.def: which Data_Format (tx8/dtype.h) the chip stores a
// dtype in. Header-only, no MLIR: the compiler, codegen and `tx8-aot run`'s packer share it.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_REFERENCE_DEVICEFORMAT_H
#define TX8_REFERENCE_DEVICEFORMAT_H

#include <optional>
#include <string_view>

#include "tx8/Reference/Tensor.h"
#include "tx8/dtype.h"

namespace tx8::ref {

/// The chip's format of `t`; nullopt where the chip has none (f64). A bool is int8 0/1; an i64 is stored as
/// Fmt_INT64, which only the CT's convert computes with (tx8be-narrow-int64 works in i32).
inline std::optional<Data_Format> deviceFormatOf(DType t) {
  constexpr std::nullopt_t NoDeviceFormat = std::nullopt;
  switch (t) {
#define TX8_ELEMENT_TYPE(dtype, name, bytes, onnx, npy, mlirType, format)                                      \
  case DType::dtype:                                                                                           \
    return format;
#include "tx8/Reference/ElementTypes.def"
#undef TX8_ELEMENT_TYPE
  }
  return std::nullopt;
}

/// "Fmt_FP32", ...: the C enumerator generated code names the format by; nullptr where there is none.
inline const char *deviceFormatName(DType t) {
  switch (t) {
#define TX8_ELEMENT_TYPE(dtype, name, bytes, onnx, npy, mlirType, format)                                      \
  case DType::dtype:                                                                                           \
    return std::string_view(#format) == "NoDeviceFormat" ? nullptr : #format;
#include "tx8/Reference/ElementTypes.def"
#undef TX8_ELEMENT_TYPE
  }
  return nullptr;
}

} // namespace tx8::ref

#endif // TX8_REFERENCE_DEVICEFORMAT_H
