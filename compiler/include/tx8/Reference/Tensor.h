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
#include <string>
#include <vector>

namespace tx8::ref {

enum class DType { F32, F16, BF16, F64, I8, U8, I32, I64, Bool };

/// Bytes per element.
inline size_t dtypeBytes(DType t) {
  switch (t) {
  case DType::F32: case DType::I32: return 4;
  case DType::F16: case DType::BF16: return 2;
  case DType::F64: case DType::I64: return 8;
  case DType::I8: case DType::U8: case DType::Bool: return 1;
  }
  return 0;
}

/// Lower-case name as used in diagnostics and manifests ("f32", "bf16", "i64", ...).
inline const char *dtypeName(DType t) {
  switch (t) {
  case DType::F32: return "f32";
  case DType::F16: return "f16";
  case DType::BF16: return "bf16";
  case DType::F64: return "f64";
  case DType::I8: return "i8";
  case DType::U8: return "u8";
  case DType::I32: return "i32";
  case DType::I64: return "i64";
  case DType::Bool: return "bool";
  }
  return "?";
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
