//===- Tensor.h - Host tensors for the reference (golden) model -*- C++ -*-===//
//
// A dense, row-major, little-endian host tensor. It is the currency of the reference kernels
// (tx8/Reference/Kernels.h), of the tx8be ComputeInterface and of the .npy / TensorProto readers.
// Kept deliberately plain: a dtype, a shape in elements and the raw bytes.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_REFERENCE_TENSOR_H
#define TX8_REFERENCE_TENSOR_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace tx8::ref {

/// The element types (tx8/Reference/ElementTypes.def, the one table of them).
enum class DType {
#define TX8_ELEMENT_TYPE(dtype, name, bytes, onnx, npy, mlirType, format) dtype,
#include "tx8/Reference/ElementTypes.def"
#undef TX8_ELEMENT_TYPE
};

/// Every DType, in table order.
inline constexpr DType kAllDTypes[] = {
#define TX8_ELEMENT_TYPE(dtype, name, bytes, onnx, npy, mlirType, format) DType::dtype,
#include "tx8/Reference/ElementTypes.def"
#undef TX8_ELEMENT_TYPE
};

/// Bytes per element.
inline size_t dtypeBytes(DType t) {
  switch (t) {
#define TX8_ELEMENT_TYPE(dtype, name, bytes, onnx, npy, mlirType, format)                                      \
  case DType::dtype:                                                                                           \
    return bytes;
#include "tx8/Reference/ElementTypes.def"
#undef TX8_ELEMENT_TYPE
  }
  return 0;
}

/// Lower-case name as used in diagnostics and manifests ("f32", "bf16", "i64", ...).
inline const char *dtypeName(DType t) {
  switch (t) {
#define TX8_ELEMENT_TYPE(dtype, name, bytes, onnx, npy, mlirType, format)                                      \
  case DType::dtype:                                                                                           \
    return name;
#include "tx8/Reference/ElementTypes.def"
#undef TX8_ELEMENT_TYPE
  }
  return "?";
}

/// The DType named `name` (dtypeName's inverse), if there is one.
inline std::optional<DType> dtypeFromName(const std::string &name) {
  for (DType t : kAllDTypes)
    if (name == dtypeName(t))
      return t;
  return std::nullopt;
}

struct Tensor {
  DType dtype = DType::F32;
  std::vector<int64_t> shape; // elements per dimension, outermost first; empty = scalar
  std::vector<uint8_t> bytes; // numElements() * dtypeBytes(dtype) bytes, row-major

  Tensor() = default;
  Tensor(DType t, std::vector<int64_t> s) : dtype(t), shape(std::move(s)) {
    bytes.assign(static_cast<size_t>(numElements()) * dtypeBytes(dtype), 0);
  }

  int64_t numElements() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }

  template <typename T> T *data() { return reinterpret_cast<T *>(bytes.data()); }
  template <typename T> const T *data() const { return reinterpret_cast<const T *>(bytes.data()); }
};

} // namespace tx8::ref

#endif // TX8_REFERENCE_TENSOR_H
