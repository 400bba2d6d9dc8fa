//===- TensorIO.cpp - .npy and ONNX TensorProto readers / writers ---------===//

#include "tx8/Reference/TensorIO.h"
#include "tx8/Reference/BoundedFile.h"

#include <google/protobuf/io/coded_stream.h>
#include <onnx/onnx_pb.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>

namespace tx8::ref {

namespace {

Status fail(const std::string &name, const std::string &what) { return Status::error(name + ": " + what); }

// Element count of `shape`, refusing negative dims and counts whose byte size would overflow.
bool checkedCount(const std::vector<int64_t> &shape, size_t elemBytes, int64_t &count) {
  const int64_t limit = std::numeric_limits<int64_t>::max() / static_cast<int64_t>(elemBytes);
  count = 1;
  for (int64_t d : shape) {
    if (d < 0)
      return false;
    if (d != 0 && count > limit / d)
      return false;
    count *= d;
  }
  return true;
}

} // namespace

std::string shapeToString(const std::vector<int64_t> &shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1)
    s += ",";
  return s + ")";
}

Status readFileBytes(const std::string &path, std::vector<uint8_t> &out) {
  std::string bytes;
  Status s = readBoundedFile(path, kMaxDataFileBytes, "the tensor file", bytes);
  out.assign(bytes.begin(), bytes.end());
  return s;
}

Status writeFileBytes(const std::string &path, const std::vector<uint8_t> &bytes) {
  return writeFileBytes(path, bytes.data(), bytes.size());
}

Status writeFileBytes(const std::string &path, const void *data, size_t size) {
  std::FILE *f = std::fopen(path.c_str(), "wb");
  if (!f)
    return fail(path, std::string("cannot create: ") + std::strerror(errno));
  bool ok = size == 0 || std::fwrite(data, 1, size, f) == size;
  ok = (std::fclose(f) == 0) && ok;
  if (!ok)
    return fail(path, "write error");
  return Status();
}

//===----------------------------------------------------------------------===//
// .npy
//===----------------------------------------------------------------------===//

namespace {

const char kNpyMagic[] = "\x93NUMPY";

// Parser for the Python dict literal of a .npy header, e.g.
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
class NpyHeaderParser {
public:
  explicit NpyHeaderParser(const std::string &text) : s_(text) {}

  // On failure returns false and sets error().
  bool parse(std::string &descr, bool &fortran, std::vector<int64_t> &shape) {
    bool haveDescr = false, haveFortran = false, haveShape = false;
    skipWs();
    if (!eat('{'))
      return err("header is not a dict");
    for (;;) {
      skipWs();
      if (eat('}'))
        break;
      std::string key;
      if (!parseString(key))
        return err("expected a quoted key in the header dict");
      skipWs();
      if (!eat(':'))
        return err("expected ':' after key '" + key + "'");
      skipWs();
      if (key == "descr") {
        if (peek() == '[')
          return err("structured dtypes are not supported");
        if (!parseString(descr))
          return err("'descr' is not a string");
        haveDescr = true;
      } else if (key == "fortran_order") {
        if (word("True"))
          fortran = true;
        else if (word("False"))
          fortran = false;
        else
          return err("'fortran_order' is neither True nor False");
        haveFortran = true;
      } else if (key == "shape") {
        if (!parseTuple(shape))
          return err("'shape' is not a tuple of non-negative integers");
        haveShape = true;
      } else {
        return err("unexpected key '" + key + "' in the header dict");
      }
      skipWs();
      if (eat(','))
        continue;
      skipWs();
      if (eat('}'))
        break;
      return err("expected ',' or '}' in the header dict");
    }
    if (!haveDescr || !haveFortran || !haveShape)
      return err(std::string("header lacks '") + (!haveDescr ? "descr" : !haveFortran ? "fortran_order" : "shape") +
                 "'");
    return true;
  }

  const std::string &error() const { return error_; }

private:
  bool err(const std::string &m) {
    error_ = m;
    return false;
  }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  bool eat(char c) {
    if (peek() != c)
      return false;
    ++pos_;
    return true;
  }
  void skipWs() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_])))
      ++pos_;
  }
  bool word(const char *w) {
    size_t n = std::strlen(w);
    if (s_.compare(pos_, n, w) != 0)
      return false;
    pos_ += n;
    return true;
  }
  bool parseString(std::string &out) {
    char q = peek();
    if (q != '\'' && q != '"')
      return false;
    size_t end = s_.find(q, pos_ + 1);
    if (end == std::string::npos)
      return false;
    out = s_.substr(pos_ + 1, end - pos_ - 1);
    pos_ = end + 1;
    return true;
  }
  bool parseTuple(std::vector<int64_t> &out) {
    out.clear();
    if (!eat('('))
      return false;
    for (;;) {
      skipWs();
      if (eat(')'))
        return true;
      if (!std::isdigit(static_cast<unsigned char>(peek())))
        return false;
      int64_t v = 0;
      while (std::isdigit(static_cast<unsigned char>(peek()))) {
        if (v > (std::numeric_limits<int64_t>::max() - 9) / 10)
          return false;
        v = v * 10 + (s_[pos_++] - '0');
      }
      if (peek() == 'L') // Python 2 longs
        ++pos_;
      out.push_back(v);
      skipWs();
      if (eat(','))
        continue;
      skipWs();
      if (eat(')'))
        return true;
      return false;
    }
  }

  const std::string &s_;
  size_t pos_ = 0;
  std::string error_;
};

const char *npyDescr(DType t) {
  switch (t) {
#define TX8_ELEMENT_TYPE(dtype, name, bytes, onnx, npy, mlirType, format)                                      \
  case DType::dtype:                                                                                           \
    return npy;
#include "tx8/Reference/ElementTypes.def"
#undef TX8_ELEMENT_TYPE
  }
  return "?";
}

} // namespace

Status parseNpy(const uint8_t *data, size_t size, const std::string &name, Tensor &out, const NpyOptions &options) {
  if (size < 10 || std::memcmp(data, kNpyMagic, 6) != 0)
    return fail(name, size < 6 ? "file too short to be a .npy file (" + std::to_string(size) + " bytes)"
                               : std::string("not a .npy file (bad magic)"));
  const unsigned major = data[6], minor = data[7];
  size_t headerStart, headerLen;
  if (major == 1) {
    headerStart = 10;
    headerLen = static_cast<size_t>(data[8]) | static_cast<size_t>(data[9]) << 8;
  } else if (major == 2 || major == 3) {
    if (size < 12)
      return fail(name, "truncated .npy preamble");
    headerStart = 12;
    headerLen = static_cast<size_t>(data[8]) | static_cast<size_t>(data[9]) << 8 |
                static_cast<size_t>(data[10]) << 16 | static_cast<size_t>(data[11]) << 24;
  } else {
    return fail(name, "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor));
  }
  if (headerLen > size - headerStart)
    return fail(name, "header length " + std::to_string(headerLen) + " runs past the end of the file (" +
                          std::to_string(size) + " bytes)");

  std::string header(reinterpret_cast<const char *>(data + headerStart), headerLen);
  std::string descr;
  bool fortran = false;
  std::vector<int64_t> shape;
  NpyHeaderParser parser(header);
  if (!parser.parse(descr, fortran, shape))
    return fail(name, "bad header: " + parser.error());
  if (fortran)
    return fail(name, "fortran_order True is not supported (C order only)");

  // Byte-order prefix: '<' little, '|' not applicable (1-byte types), '=' native (little on our hosts).
  if (descr.size() < 2)
    return fail(name, "dtype '" + descr + "' is not supported");
  char order = descr[0];
  std::string code = descr.substr(1);
  // The table's descr without its byte-order mark; u2 is bf16 only when asked (numpy has no bf16).
  std::optional<DType> found;
  for (DType t : kAllDTypes)
    if (code == npyDescr(t) + 1 && (t != DType::BF16 || options.u2AsBF16))
      found = t;
  if (!found && code == "u2")
    return fail(name, "dtype '" + descr + "' (uint16) is not supported; if it holds bf16 bit patterns written "
                      "by writeNpy, read it with NpyOptions::u2AsBF16");
  if (!found)
    return fail(name, "dtype '" + descr + "' is not supported");
  DType dtype = *found;
  const size_t elem = dtypeBytes(dtype);
  if (order == '>' && elem > 1)
    return fail(name, "big-endian dtype '" + descr + "' is not supported");
  if (order != '<' && order != '|' && order != '=' && !(order == '>' && elem == 1))
    return fail(name, "dtype '" + descr + "' has an unknown byte-order mark");

  int64_t count;
  if (!checkedCount(shape, elem, count))
    return fail(name, "shape " + shapeToString(shape) + " is too large");
  const size_t dataBytes = size - headerStart - headerLen;
  const size_t expected = static_cast<size_t>(count) * elem;
  if (dataBytes != expected)
    return fail(name, "header says shape " + shapeToString(shape) + " but file has " + std::to_string(dataBytes) +
                          " bytes of data, expected " + std::to_string(expected));
  Tensor t;
  t.dtype = dtype;
  t.shape = shape;
  t.bytes.assign(data + headerStart + headerLen, data + size);
  if (dtype == DType::Bool)
    for (uint8_t &b : t.bytes)
      b = b ? 1 : 0;
  out = std::move(t);
  return Status();
}

Status readNpy(const std::string &path, Tensor &out, const NpyOptions &options) {
  std::vector<uint8_t> bytes;
  Status s = readFileBytes(path, bytes);
  if (!s.ok())
    return s;
  return parseNpy(bytes.data(), bytes.size(), path, out, options);
}

Status encodeNpy(const Tensor &t, std::vector<uint8_t> &out) {
  const size_t expected = static_cast<size_t>(t.numElements()) * dtypeBytes(t.dtype);
  if (t.bytes.size() != expected)
    return Status::error("encodeNpy: tensor holds " + std::to_string(t.bytes.size()) + " bytes, shape " +
                         shapeToString(t.shape) + " of " + dtypeName(t.dtype) + " needs " + std::to_string(expected));
  std::string header = std::string("{'descr': '") + npyDescr(t.dtype) + "', 'fortran_order': False, 'shape': " +
                       shapeToString(t.shape) + ", }";
  // NumPy pads the header with spaces and a final '\n' so that the data starts 64-byte aligned.
  size_t preamble = 10;
  size_t total = preamble + header.size() + 1;
  if ((total + 63) / 64 * 64 - preamble > 65535) {
    preamble = 12; // format 2.0: 4-byte header length
    total = preamble + header.size() + 1;
  }
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  out.assign(kNpyMagic, kNpyMagic + 6);
  out.push_back(preamble == 10 ? 1 : 2);
  out.push_back(0);
  size_t hl = header.size();
  out.push_back(static_cast<uint8_t>(hl));
  out.push_back(static_cast<uint8_t>(hl >> 8));
  if (preamble == 12) {
    out.push_back(static_cast<uint8_t>(hl >> 16));
    out.push_back(static_cast<uint8_t>(hl >> 24));
  }
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), t.bytes.begin(), t.bytes.end());
  return Status();
}

Status writeNpy(const std::string &path, const Tensor &t) {
  std::vector<uint8_t> bytes;
  Status s = encodeNpy(t, bytes);
  if (!s.ok())
    return fail(path, s.message());
  return writeFileBytes(path, bytes);
}

//===----------------------------------------------------------------------===//
// ONNX TensorProto (libonnx's generated onnx::TensorProto; a hand encoder for raw_data files)
//===----------------------------------------------------------------------===//

namespace {

// onnx.proto TensorProto field numbers.
enum : uint32_t {
  kDims = 1, kDataType = 2, kSegment = 3, kFloatData = 4, kInt32Data = 5, kStringData = 6, kInt64Data = 7,
  kName = 8, kRawData = 9, kDoubleData = 10, kUint64Data = 11, kDocString = 12, kExternalData = 13,
  kDataLocation = 14,
};
enum : uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kStartGroup = 3, kEndGroup = 4, kFixed32 = 5 };

const char *fieldName(uint32_t f) {
  switch (f) {
  case kDims: return "dims";
  case kDataType: return "data_type";
  case kSegment: return "segment";
  case kFloatData: return "float_data";
  case kInt32Data: return "int32_data";
  case kStringData: return "string_data";
  case kInt64Data: return "int64_data";
  case kName: return "name";
  case kRawData: return "raw_data";
  case kDoubleData: return "double_data";
  case kUint64Data: return "uint64_data";
  case kDocString: return "doc_string";
  case kExternalData: return "external_data";
  case kDataLocation: return "data_location";
  }
  return "unknown";
}

// The wire type of one element of a field this reader interprets (repeated numeric fields may also come
// packed, length-delimited); nullopt for the fields it skips whatever their encoding.
std::optional<uint32_t> elementWireType(uint32_t field) {
  switch (field) {
  case kDims: case kDataType: case kInt32Data: case kInt64Data: case kUint64Data: case kDataLocation:
    return kVarint;
  case kFloatData: return kFixed32;
  case kDoubleData: return kFixed64;
  case kName: case kRawData: return kLengthDelimited;
  }
  return std::nullopt;
}
bool isPackable(uint32_t field) {
  return field == kDims || field == kFloatData || field == kInt32Data || field == kInt64Data ||
         field == kDoubleData || field == kUint64Data;
}

// libprotobuf says only that a message does not parse. This walks the framing (tags, wire types, lengths,
// packed payloads, external_data entries) to name the first field that breaks it; "" if it all holds.
std::string framingError(const uint8_t *data, int size) {
  google::protobuf::io::CodedInputStream in(data, size);
  std::string nested;
  while (in.CurrentPosition() < size) {
    const int tagAt = in.CurrentPosition();
    uint64_t key;
    if (!in.ReadVarint64(&key))
      return "truncated or corrupt field tag at offset " + std::to_string(tagAt);
    const uint32_t field = static_cast<uint32_t>(key >> 3), wt = static_cast<uint32_t>(key & 7);
    if (field == 0 || key >> 32)
      return "corrupt field tag at offset " + std::to_string(tagAt) + " (not a TensorProto?)";
    const std::string what = std::string("field ") + std::to_string(field) + " (" + fieldName(field) + ") at offset " +
                             std::to_string(tagAt);
    uint64_t value;
    switch (wt) {
    case kVarint:
      if (!in.ReadVarint64(&value))
        return "truncated " + what;
      break;
    case kFixed64:
      if (!in.ReadLittleEndian64(&value))
        return "truncated " + what;
      break;
    case kFixed32: {
      uint32_t v32;
      if (!in.ReadLittleEndian32(&v32))
        return "truncated " + what;
      break;
    }
    case kLengthDelimited: {
      if (!in.ReadVarint64(&value))
        return "truncated length of " + what;
      const int left = size - in.CurrentPosition();
      if (value > static_cast<uint64_t>(left))
        return "truncated " + what + ": needs " + std::to_string(value) + " bytes, " + std::to_string(left) + " left";
      // The one nested message libprotobuf parses (segment is refused below); reported only if the framing
      // holds everywhere else.
      if (field == kExternalData && nested.empty() &&
          !onnx::StringStringEntryProto().ParseFromArray(data + in.CurrentPosition(), static_cast<int>(value)))
        nested = "corrupt " + what;
      if (!isPackable(field)) {
        in.Skip(static_cast<int>(value));
        break;
      }
      // A packed block: whole elements only.
      const uint32_t elemWt = *elementWireType(field);
      auto limit = in.PushLimit(static_cast<int>(value));
      while (in.BytesUntilLimit() > 0) {
        uint64_t v;
        uint32_t v32;
        bool ok = elemWt == kVarint    ? in.ReadVarint64(&v)
                  : elemWt == kFixed32 ? in.ReadLittleEndian32(&v32)
                                       : in.ReadLittleEndian64(&v);
        if (!ok)
          return "corrupt packed " + what;
      }
      in.PopLimit(limit);
      break;
    }
    default:
      return "unsupported wire type " + std::to_string(wt) + " in " + what;
    }
    if (field == kSegment)
      return "segmented tensors (field 3, segment) are not supported";
    std::optional<uint32_t> elemWt = elementWireType(field);
    if (elemWt && wt != *elemWt && !(wt == kLengthDelimited && isPackable(field)))
      return "wrong wire type " + std::to_string(wt) + " for " + what;
  }
  return nested;
}

// The typed field onnx.proto stores a data_type's values in when there is no raw_data, as raw bytes of
// `dtype`: float_data, double_data and int64_data as they are, int32_data narrowed (INT32, INT8, UINT8, BOOL,
// and the bit patterns of FLOAT16 / BFLOAT16).
Status typedData(const onnx::TensorProto &p, DType dtype, const std::vector<int64_t> &dims, int64_t count,
                 const std::string &name, std::vector<uint8_t> &bytes) {
  const char *srcName = dtype == DType::F32   ? "float_data"
                        : dtype == DType::F64 ? "double_data"
                        : dtype == DType::I64 ? "int64_data"
                                              : "int32_data";
  const int size = dtype == DType::F32   ? p.float_data_size()
                   : dtype == DType::F64 ? p.double_data_size()
                   : dtype == DType::I64 ? p.int64_data_size()
                                         : p.int32_data_size();
  if (size != count) {
    if (count > 0 && size == 0)
      return fail(name, std::string("tensor of dims ") + shapeToString(dims) + " has neither raw_data nor " + srcName);
    return fail(name, std::string(srcName) + " has " + std::to_string(size) + " values, dims " + shapeToString(dims) +
                          " need " + std::to_string(count));
  }
  const size_t elem = dtypeBytes(dtype);
  bytes.assign(static_cast<size_t>(count) * elem, 0);
  if (count == 0)
    return Status();
  switch (dtype) {
  case DType::F32: std::memcpy(bytes.data(), p.float_data().data(), bytes.size()); break;
  case DType::F64: std::memcpy(bytes.data(), p.double_data().data(), bytes.size()); break;
  case DType::I64: std::memcpy(bytes.data(), p.int64_data().data(), bytes.size()); break;
  default:
    for (int64_t i = 0; i < count; ++i) {
      const int32_t v = p.int32_data(static_cast<int>(i));
      uint8_t *dst = bytes.data() + static_cast<size_t>(i) * elem;
      switch (dtype) {
      case DType::I32: std::memcpy(dst, &v, 4); break;
      case DType::F16: case DType::BF16: { uint16_t b = static_cast<uint16_t>(v); std::memcpy(dst, &b, 2); break; }
      case DType::I8: case DType::U8: *dst = static_cast<uint8_t>(v); break;
      case DType::Bool: *dst = v ? 1 : 0; break;
      default: break;
      }
    }
  }
  return Status();
}

void putVarint(std::vector<uint8_t> &out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<uint8_t>(v));
}
void putTag(std::vector<uint8_t> &out, uint32_t field, uint32_t wt) { putVarint(out, (field << 3) | wt); }

} // namespace

int onnxDataType(DType t) {
  switch (t) {
#define TX8_ELEMENT_TYPE(dtype, name, bytes, onnx, npy, mlirType, format)                                      \
  case DType::dtype:                                                                                           \
    return onnx;
#include "tx8/Reference/ElementTypes.def"
#undef TX8_ELEMENT_TYPE
  }
  return 0;
}

const char *onnxDataTypeName(int code) {
  static const char *const names[] = {"UNDEFINED", "FLOAT",  "UINT8",  "INT8",      "UINT16",     "INT16",
                                      "INT32",     "INT64",  "STRING", "BOOL",      "FLOAT16",    "DOUBLE",
                                      "UINT32",    "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16"};
  if (code >= 0 && code < static_cast<int>(sizeof names / sizeof names[0]))
    return names[code];
  return "unknown";
}

Status parseTensorProto(const uint8_t *data, size_t size, const std::string &name, Tensor &out,
                        std::string *tensorName, const TensorProtoOptions &options) {
  if (size > static_cast<size_t>(std::numeric_limits<int>::max()))
    return fail(name, std::to_string(size) + " bytes is more than a TensorProto can hold (2 GiB)");
  const int bytes = static_cast<int>(size);
  onnx::TensorProto p;
  if (!p.ParseFromArray(data, bytes)) {
    std::string why = framingError(data, bytes);
    return fail(name, why.empty() ? "not a valid TensorProto (protobuf parse failed)" : why);
  }
  // A known field with the wrong wire type parses as an unknown field: refuse it as the framing check does.
  if (p.unknown_fields().field_count() > 0)
    if (std::string why = framingError(data, bytes); !why.empty())
      return fail(name, why);
  if (p.has_segment())
    return fail(name, "segmented tensors (field 3, segment) are not supported");
  if (p.data_location() == onnx::TensorProto::EXTERNAL)
    return fail(name, "tensor data is stored externally (data_location EXTERNAL), which is not supported");
  if (!p.has_data_type())
    return fail(name, "no data_type field (not a TensorProto?)");
  const int64_t dataType = p.data_type();
  std::optional<DType> found;
  for (DType t : kAllDTypes)
    if (dataType == onnxDataType(t))
      found = t;
  if (!found && dataType == onnx::TensorProto::UINT16 && options.uint16AsBF16)
    found = DType::BF16;
  if (!found)
    return fail(name, "data_type " + std::to_string(dataType) + " (" + onnxDataTypeName(static_cast<int>(dataType)) +
                          ") is not supported");
  DType dtype = *found;

  const std::vector<int64_t> dims(p.dims().begin(), p.dims().end());
  const size_t elem = dtypeBytes(dtype);
  int64_t count;
  if (!checkedCount(dims, elem, count))
    return fail(name, "dims " + shapeToString(dims) + " are negative or too large");
  Tensor t;
  t.dtype = dtype;
  t.shape = dims;
  const size_t nbytes = static_cast<size_t>(count) * elem;

  if (p.has_raw_data()) {
    const std::string &raw = p.raw_data();
    if (raw.size() != nbytes)
      return fail(name, "raw_data has " + std::to_string(raw.size()) + " bytes, dims " + shapeToString(dims) + " of " +
                            onnxDataTypeName(static_cast<int>(dataType)) + " need " + std::to_string(nbytes));
    t.bytes.assign(raw.begin(), raw.end());
    if (dtype == DType::Bool)
      for (uint8_t &b : t.bytes)
        b = b ? 1 : 0;
  } else if (Status s = typedData(p, dtype, dims, count, name, t.bytes); !s.ok()) {
    return s;
  }
  if (tensorName)
    *tensorName = p.name();
  out = std::move(t);
  return Status();
}

Status readTensorProto(const std::string &path, Tensor &out, std::string *tensorName,
                       const TensorProtoOptions &options) {
  std::vector<uint8_t> bytes;
  Status s = readFileBytes(path, bytes);
  if (!s.ok())
    return s;
  return parseTensorProto(bytes.data(), bytes.size(), path, out, tensorName, options);
}

Status encodeTensorProto(const Tensor &t, const std::string &tensorName, std::vector<uint8_t> &out) {
  const size_t expected = static_cast<size_t>(t.numElements()) * dtypeBytes(t.dtype);
  if (t.bytes.size() != expected)
    return Status::error("encodeTensorProto: tensor holds " + std::to_string(t.bytes.size()) + " bytes, shape " +
                         shapeToString(t.shape) + " of " + dtypeName(t.dtype) + " needs " + std::to_string(expected));
  out.clear();
  for (int64_t d : t.shape) {
    putTag(out, kDims, kVarint);
    putVarint(out, static_cast<uint64_t>(d));
  }
  putTag(out, kDataType, kVarint);
  putVarint(out, static_cast<uint64_t>(onnxDataType(t.dtype)));
  if (!tensorName.empty()) {
    putTag(out, kName, kLengthDelimited);
    putVarint(out, tensorName.size());
    out.insert(out.end(), tensorName.begin(), tensorName.end());
  }
  putTag(out, kRawData, kLengthDelimited);
  putVarint(out, t.bytes.size());
  out.insert(out.end(), t.bytes.begin(), t.bytes.end());
  return Status();
}

Status writeTensorProto(const std::string &path, const Tensor &t, const std::string &tensorName) {
  std::vector<uint8_t> bytes;
  Status s = encodeTensorProto(t, tensorName, bytes);
  if (!s.ok())
    return fail(path, s.message());
  return writeFileBytes(path, bytes);
}

Status readTensorFile(const std::string &path, Tensor &out) {
  auto endsWith = [&](const char *suffix) {
    size_t n = std::strlen(suffix);
    return path.size() >= n && path.compare(path.size() - n, n, suffix) == 0;
  };
  if (endsWith(".npy"))
    return readNpy(path, out);
  if (endsWith(".pb"))
    return readTensorProto(path, out);
  return fail(path, "unknown tensor file extension (expected .npy or .pb)");
}

} // namespace tx8::ref
