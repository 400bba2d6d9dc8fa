//===- TensorIO.h - .npy and ONNX TensorProto files for host tensors -*- C++ -*-===//
//
// Readers and writers for the two tensor file formats the tool chain meets:
//
//  * NumPy .npy (format versions 1.0, 2.0 and 3.0 read; 1.0 written, 2.0 when the header needs it).
//    Little-endian, C order only. dtypes: <f4 <f2 <f8 |i1 |u1 <i4 <i8 |b1 ('<' and '|' are both
//    accepted for one-byte types). bf16 has no NumPy dtype: writeNpy stores a bf16 tensor as '<u2'
//    holding the raw bit patterns (in NumPy: `(a.astype(np.uint32) << 16).view(np.float32)`), and
//    readNpy reads '<u2' back as bf16 only when asked to (NpyOptions::u2AsBF16); otherwise '<u2' is
//    refused, since the library has no u16 dtype.
//
//  * ONNX TensorProto (.pb, as in the ONNX backend test data). Read: dims, data_type, raw_data and the
//    typed fields (float_data, int32_data, int64_data, double_data; packed or not), name. Written:
//    dims, data_type, name, raw_data (what onnx.numpy_helper.from_array produces). Element types:
//    FLOAT FLOAT16 BFLOAT16 DOUBLE INT8 UINT8 INT32 INT64 BOOL. Read with libonnx's generated
//    onnx::TensorProto; when that fails, the framing is walked to name the field at fault, so that a
//    truncated or corrupt file yields a precise message instead of a bare "parse failed".
//
// Errors never throw: they come back as a Status whose message starts with the file name given by the
// caller, e.g. "input_0.pb: data_type 8 (STRING) is not supported" or
// "x.npy: header says shape (2, 3) but file has 20 bytes of data, expected 24".
//
//===----------------------------------------------------------------------===//
#ifndef TX8_REFERENCE_TENSORIO_H
#define TX8_REFERENCE_TENSORIO_H

#include "tx8/Reference/Convert.h"
#include "tx8/Reference/Status.h"
#include "tx8/Reference/Tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tx8::ref {

struct NpyOptions {
  /// Interpret '<u2' data as bf16 bit patterns (the way writeNpy stores bf16).
  bool u2AsBF16 = false;
};

/// Parse .npy bytes; `name` is used in error messages.
Status parseNpy(const uint8_t *data, size_t size, const std::string &name, Tensor &out,
                const NpyOptions &options = {});
Status readNpy(const std::string &path, Tensor &out, const NpyOptions &options = {});
/// Encode `t` as .npy bytes (bf16 as '<u2', see above).
Status encodeNpy(const Tensor &t, std::vector<uint8_t> &out);
Status writeNpy(const std::string &path, const Tensor &t);

/// ONNX TensorProto.DataType code of a dtype (FLOAT = 1, ...), and the name of any code ("STRING").
int onnxDataType(DType t);
const char *onnxDataTypeName(int code);

struct TensorProtoOptions {
  /// Read UINT16 tensors as bf16 bit patterns. The ONNX <= 1.12 backend test data stores its BFLOAT16
  /// tensors that way (test_cast_*BFLOAT16*): the model says BFLOAT16, the .pb says UINT16.
  bool uint16AsBF16 = false;
};

/// Parse serialized TensorProto bytes; `name` is used in error messages. If `tensorName` is given it
/// receives the proto's name field.
Status parseTensorProto(const uint8_t *data, size_t size, const std::string &name, Tensor &out,
                        std::string *tensorName = nullptr, const TensorProtoOptions &options = {});
Status readTensorProto(const std::string &path, Tensor &out, std::string *tensorName = nullptr,
                       const TensorProtoOptions &options = {});
Status encodeTensorProto(const Tensor &t, const std::string &tensorName, std::vector<uint8_t> &out);
Status writeTensorProto(const std::string &path, const Tensor &t, const std::string &tensorName = "");

/// Read by extension: ".npy" or ".pb".
Status readTensorFile(const std::string &path, Tensor &out);

/// Whole-file helpers (also used by the readers); messages name the path.
Status readFileBytes(const std::string &path, std::vector<uint8_t> &out);
Status writeFileBytes(const std::string &path, const std::vector<uint8_t> &bytes);
Status writeFileBytes(const std::string &path, const void *data, size_t size);

/// "(2, 3)"-style rendering of a shape, as used in messages.
std::string shapeToString(const std::vector<int64_t> &shape);

} // namespace tx8::ref

#endif // TX8_REFERENCE_TENSORIO_H
