//===- test_tensor_io.cpp - .npy and TensorProto readers / writers --------===//

#include "RefTestUtil.h"
#include "tx8/Reference/TensorIO.h"

#include <onnx/onnx_pb.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <unistd.h>

using namespace reftest;
using namespace tx8::ref;

namespace {

const DType kAllTypes[] = {DType::F32, DType::F16, DType::BF16, DType::F64, DType::I8,
                           DType::U8,  DType::I32, DType::I64,  DType::Bool};
const Shape kShapes[] = {{}, {0}, {5}, {2, 3}, {2, 0, 3}, {1, 2, 3, 4}};

std::string tempPath(const std::string &name) {
  return ::testing::TempDir() + "tx8ref_" + std::to_string(getpid()) + "_" + name;
}

Tensor randomBits(DType dt, const Shape &s, std::mt19937 &rng) {
  Tensor t(dt, s);
  for (uint8_t &b : t.bytes)
    b = static_cast<uint8_t>(rng());
  if (dt == DType::Bool)
    for (uint8_t &b : t.bytes)
      b &= 1;
  return t;
}

std::vector<uint8_t> bytesOf(const std::string &s) { return std::vector<uint8_t>(s.begin(), s.end()); }

// A .npy file with the given header dict text and payload (format 1.0, header padded to `align`).
std::vector<uint8_t> npyFile(const std::string &dict, const std::vector<uint8_t> &payload, int major = 1,
                             size_t align = 64) {
  const size_t pre = major == 1 ? 10 : 12;
  std::string h = dict;
  while ((pre + h.size() + 1) % align)
    h += ' ';
  h += '\n';
  std::vector<uint8_t> f = {0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<uint8_t>(major), 0};
  for (size_t i = 0; i < pre - 8; ++i)
    f.push_back(static_cast<uint8_t>(h.size() >> (8 * i)));
  f.insert(f.end(), h.begin(), h.end());
  f.insert(f.end(), payload.begin(), payload.end());
  return f;
}

Status parseNpyBytes(const std::vector<uint8_t> &b, Tensor &t, const std::string &name = "x.npy",
                     NpyOptions o = {}) {
  return parseNpy(b.data(), b.size(), name, t, o);
}
Status parsePb(const std::vector<uint8_t> &b, Tensor &t, const std::string &name = "input_0.pb") {
  return parseTensorProto(b.data(), b.size(), name, t);
}

// Protobuf wire helpers to hand-craft encodings libprotobuf would not produce (unpacked fields, ...).
void varint(std::vector<uint8_t> &o, uint64_t v) {
  while (v >= 0x80) {
    o.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  o.push_back(static_cast<uint8_t>(v));
}
void tag(std::vector<uint8_t> &o, uint32_t field, uint32_t wt) { varint(o, (field << 3) | wt); }

} // namespace

//===----------------------------------------------------------------------===//
// .npy
//===----------------------------------------------------------------------===//

TEST(Npy, RoundTripEveryDtypeAndShape) {
  std::mt19937 rng(1);
  for (DType dt : kAllTypes)
    for (const Shape &s : kShapes) {
      Tensor t = randomBits(dt, s, rng), back;
      const std::string path = tempPath("rt.npy");
      ASSERT_OK(writeNpy(path, t));
      NpyOptions o;
      o.u2AsBF16 = dt == DType::BF16;
      ASSERT_OK(readNpy(path, back, o));
      EXPECT_EQ(back.dtype, dt);
      EXPECT_EQ(back.shape, s);
      EXPECT_EQ(back.bytes, t.bytes) << dtypeName(dt) << " " << str(s);
      std::remove(path.c_str());
    }
}

TEST(Npy, HeaderIsWhatNumpyWrites) {
  Tensor t(DType::F32, {2, 3});
  std::vector<uint8_t> f;
  ASSERT_OK(encodeNpy(t, f));
  ASSERT_GE(f.size(), 10u);
  EXPECT_EQ(std::string(f.begin(), f.begin() + 8), std::string("\x93NUMPY\x01\x00", 8));
  const size_t hlen = f[8] | (f[9] << 8);
  EXPECT_EQ((10 + hlen) % 64, 0u); // data 64-byte aligned, as numpy >= 1.? writes
  const std::string header(f.begin() + 10, f.begin() + 10 + static_cast<std::ptrdiff_t>(hlen));
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  EXPECT_EQ(header.substr(0, dict.size()), dict);
  EXPECT_EQ(header.back(), '\n');
  EXPECT_EQ(header.find_first_not_of(' ', dict.size()), hlen - 1);
  EXPECT_EQ(f.size(), 10 + hlen + 24);
  // Python's tuple spelling for rank 1 and rank 0.
  Tensor v(DType::I64, {5}), s(DType::Bool, {});
  ASSERT_OK(encodeNpy(v, f));
  EXPECT_NE(std::string(f.begin(), f.end()).find("'descr': '<i8', 'fortran_order': False, 'shape': (5,), }"),
            std::string::npos);
  ASSERT_OK(encodeNpy(s, f));
  EXPECT_NE(std::string(f.begin(), f.end()).find("'descr': '|b1', 'fortran_order': False, 'shape': (), }"),
            std::string::npos);
}

TEST(Npy, ReadsOtherHeaderVariants) {
  std::vector<uint8_t> payload = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0};
  Tensor t;
  // Old numpy: 16-byte alignment; keys in another order; double quotes; Python 2 long; format 2.0 / 3.0.
  for (auto f : {npyFile("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }", payload, 1, 16),
                 npyFile("{'shape': (3,), 'fortran_order': False, 'descr': '<i4'}", payload),
                 npyFile("{\"descr\": \"<i4\", \"fortran_order\": False, \"shape\": (3L,)}", payload),
                 npyFile("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }", payload, 2),
                 npyFile("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }", payload, 3)}) {
    ASSERT_OK(parseNpyBytes(f, t));
    EXPECT_EQ(t.dtype, DType::I32);
    EXPECT_TRUE(allClose(t, Shape{3}, {1, 2, 3}, Tol{0, 0}));
  }
  // One-byte types with either byte-order mark.
  ASSERT_OK(parseNpyBytes(npyFile("{'descr': '<u1', 'fortran_order': False, 'shape': (2,), }", {7, 200}), t));
  EXPECT_TRUE(allClose(t, Shape{2}, {7, 200}, Tol{0, 0}));
  // Bool bytes other than 0/1 are normalized.
  ASSERT_OK(parseNpyBytes(npyFile("{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", {0, 5}), t));
  EXPECT_EQ(t.bytes, (std::vector<uint8_t>{0, 1}));
}

TEST(Npy, ErrorsNameTheFileAndTheProblem) {
  Tensor t;
  const std::string f4 = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  EXPECT_EQ(parseNpyBytes(npyFile(f4, std::vector<uint8_t>(20)), t).message(),
            "x.npy: header says shape (2, 3) but file has 20 bytes of data, expected 24");
  EXPECT_EQ(parseNpyBytes(npyFile(f4, std::vector<uint8_t>(28)), t).message(),
            "x.npy: header says shape (2, 3) but file has 28 bytes of data, expected 24");
  EXPECT_EQ(parseNpyBytes(bytesOf("PK\x03\x04 this is a zip file"), t).message(), "x.npy: not a .npy file (bad magic)");
  EXPECT_EQ(parseNpyBytes(bytesOf("\x93NU"), t).message(), "x.npy: file too short to be a .npy file (3 bytes)");
  auto v4 = npyFile(f4, std::vector<uint8_t>(24));
  v4[6] = 4;
  EXPECT_EQ(parseNpyBytes(v4, t).message(), "x.npy: unsupported .npy format version 4.0");
  EXPECT_EQ(parseNpyBytes(npyFile("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }",
                                  std::vector<uint8_t>(24)), t).message(),
            "x.npy: fortran_order True is not supported (C order only)");
  EXPECT_EQ(parseNpyBytes(npyFile("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }",
                                  std::vector<uint8_t>(4)), t).message(),
            "x.npy: big-endian dtype '>f4' is not supported");
  EXPECT_EQ(parseNpyBytes(npyFile("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }",
                                  std::vector<uint8_t>(8)), t).message(),
            "x.npy: dtype '<c8' is not supported");
  EXPECT_EQ(parseNpyBytes(npyFile("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }",
                                  std::vector<uint8_t>(4)), t).message(),
            "x.npy: bad header: structured dtypes are not supported");
  EXPECT_EQ(parseNpyBytes(npyFile("{'descr': '<f4', 'fortran_order': False}", {}), t).message(),
            "x.npy: bad header: header lacks 'shape'");
  EXPECT_EQ(parseNpyBytes(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", {}), t).message(),
            "x.npy: bad header: 'shape' is not a tuple of non-negative integers");
  // '<u2' (our bf16 carrier) only with the option.
  auto u2 = npyFile("{'descr': '<u2', 'fortran_order': False, 'shape': (1,), }", {0x80, 0x3f});
  EXPECT_EQ(parseNpyBytes(u2, t).message(),
            "x.npy: dtype '<u2' (uint16) is not supported; if it holds bf16 bit patterns written by writeNpy, read "
            "it with NpyOptions::u2AsBF16");
  NpyOptions o;
  o.u2AsBF16 = true;
  ASSERT_OK(parseNpyBytes(u2, t, "x.npy", o));
  EXPECT_EQ(t.dtype, DType::BF16);
  EXPECT_TRUE(allClose(t, Shape{1}, {1.0}, Tol{0, 0}));
  // Header length pointing past the end.
  auto cut = npyFile(f4, {});
  cut.resize(40);
  EXPECT_EQ(parseNpyBytes(cut, t).message(), "x.npy: header length 118 runs past the end of the file (40 bytes)");
  Status s = readNpy(tempPath("does_not_exist.npy"), t);
  EXPECT_NE(s.message().find("does_not_exist.npy: cannot read the tensor file: No such file or directory"), std::string::npos)
      << s.message();
}

TEST(Npy, EveryTruncationIsAnErrorNotACrash) {
  std::mt19937 rng(2);
  for (DType dt : {DType::F32, DType::I64, DType::Bool}) {
    Tensor t = randomBits(dt, {3, 4}, rng), out;
    std::vector<uint8_t> f;
    ASSERT_OK(encodeNpy(t, f));
    for (size_t n = 0; n < f.size(); ++n) {
      std::vector<uint8_t> prefix(f.begin(), f.begin() + static_cast<std::ptrdiff_t>(n));
      Status s = parseNpyBytes(prefix, out, "t.npy");
      ASSERT_FALSE(s.ok()) << n;
      ASSERT_EQ(s.message().rfind("t.npy: ", 0), 0u) << s.message();
    }
  }
}

//===----------------------------------------------------------------------===//
// TensorProto
//===----------------------------------------------------------------------===//

TEST(TensorProto, RoundTripEveryDtypeAndShape) {
  std::mt19937 rng(3);
  for (DType dt : kAllTypes)
    for (const Shape &s : kShapes) {
      Tensor t = randomBits(dt, s, rng), back;
      const std::string path = tempPath("rt.pb");
      ASSERT_OK(writeTensorProto(path, t, "my_tensor"));
      std::string name;
      ASSERT_OK(readTensorProto(path, back, &name));
      EXPECT_EQ(name, "my_tensor");
      EXPECT_EQ(back.dtype, dt);
      EXPECT_EQ(back.shape, s);
      EXPECT_EQ(back.bytes, t.bytes) << dtypeName(dt) << " " << str(s);
      ASSERT_OK(readTensorFile(path, back));
      std::remove(path.c_str());
    }
}

// Our encoder and decoder against the protobuf code generated from onnx.proto.
TEST(TensorProto, AgreesWithLibonnx) {
  std::mt19937 rng(4);
  for (DType dt : kAllTypes) {
    Tensor t = randomBits(dt, {2, 3, 4}, rng);
    std::vector<uint8_t> ours;
    ASSERT_OK(encodeTensorProto(t, "x", ours));
    onnx::TensorProto p;
    ASSERT_TRUE(p.ParseFromArray(ours.data(), static_cast<int>(ours.size())));
    EXPECT_EQ(p.data_type(), onnxDataType(dt));
    EXPECT_EQ(p.name(), "x");
    ASSERT_EQ(p.dims_size(), 3);
    EXPECT_EQ(p.dims(0), 2);
    EXPECT_EQ(p.dims(2), 4);
    EXPECT_EQ(p.raw_data(), std::string(t.bytes.begin(), t.bytes.end()));
    std::string theirs;
    ASSERT_TRUE(p.SerializeToString(&theirs));
    Tensor back;
    ASSERT_OK(parsePb(bytesOf(theirs), back));
    EXPECT_EQ(back.bytes, t.bytes);
  }
}

TEST(TensorProto, TypedFieldsPackedByLibonnx) {
  Tensor t;
  onnx::TensorProto p;
  p.add_dims(3);
  p.set_data_type(onnx::TensorProto::FLOAT);
  for (float v : {1.5f, -2.f, 3.25f})
    p.add_float_data(v);
  ASSERT_OK(parsePb(bytesOf(p.SerializeAsString()), t));
  EXPECT_TRUE(allClose(t, Shape{3}, {1.5, -2, 3.25}, Tol{0, 0}));

  p.Clear();
  p.add_dims(2);
  p.add_dims(2);
  p.set_data_type(onnx::TensorProto::INT64);
  for (int64_t v : {int64_t{-5}, int64_t{1} << 40, int64_t{0}, int64_t{7}})
    p.add_int64_data(v);
  ASSERT_OK(parsePb(bytesOf(p.SerializeAsString()), t));
  EXPECT_EQ(t.shape, (Shape{2, 2}));
  EXPECT_EQ(t.data<int64_t>()[0], -5);
  EXPECT_EQ(t.data<int64_t>()[1], int64_t{1} << 40);

  p.Clear();
  p.add_dims(2);
  p.set_data_type(onnx::TensorProto::DOUBLE);
  p.add_double_data(0.1);
  p.add_double_data(-1e300);
  ASSERT_OK(parsePb(bytesOf(p.SerializeAsString()), t));
  EXPECT_EQ(t.data<double>()[0], 0.1);
  EXPECT_EQ(t.data<double>()[1], -1e300);

  // int32_data carries INT32, INT8, UINT8, BOOL, and the bit patterns of FLOAT16 / BFLOAT16.
  struct Case {
    onnx::TensorProto::DataType type;
    DType dt;
    std::vector<int32_t> stored;
    std::vector<double> expected;
  };
  const Case cases[] = {
      {onnx::TensorProto::INT32, DType::I32, {-7, 2147483647, 0}, {-7, 2147483647, 0}},
      {onnx::TensorProto::INT8, DType::I8, {-128, 127, -1}, {-128, 127, -1}},
      {onnx::TensorProto::UINT8, DType::U8, {0, 255, 9}, {0, 255, 9}},
      {onnx::TensorProto::BOOL, DType::Bool, {1, 0, 1}, {1, 0, 1}},
      {onnx::TensorProto::FLOAT16, DType::F16, {0x3c00, 0xc000, 0x3555}, {1, -2, halfToFloat(0x3555)}},
      {onnx::TensorProto::BFLOAT16, DType::BF16, {0x3f80, 0xc040, 0x0001}, {1, -3, bf16ToFloat(0x0001)}},
  };
  for (const Case &c : cases) {
    p.Clear();
    p.add_dims(3);
    p.set_data_type(c.type);
    for (int32_t v : c.stored)
      p.add_int32_data(v);
    ASSERT_OK(parsePb(bytesOf(p.SerializeAsString()), t));
    EXPECT_EQ(t.dtype, c.dt);
    EXPECT_TRUE(allClose(t, Shape{3}, c.expected, Tol{0, 0})) << dtypeName(c.dt);
  }
}

TEST(TensorProto, UnpackedRepeatedFieldsAndUnknownFields) {
  // proto2 writers may emit one tag per element; negative int32 values are 10-byte varints.
  std::vector<uint8_t> b;
  tag(b, 12, 2); // doc_string first: unknown-to-us fields are skipped
  varint(b, 3);
  b.insert(b.end(), {'d', 'o', 'c'});
  tag(b, 1, 0);
  varint(b, 2);
  tag(b, 2, 0);
  varint(b, 6); // INT32
  for (int32_t v : {-1, 300}) {
    tag(b, 5, 0);
    varint(b, static_cast<uint64_t>(static_cast<int64_t>(v)));
  }
  tag(b, 99, 5); // unknown fixed32 field
  b.insert(b.end(), {1, 2, 3, 4});
  Tensor t;
  ASSERT_OK(parsePb(b, t));
  EXPECT_TRUE(allClose(t, Shape{2}, {-1, 300}, Tol{0, 0}));

  std::vector<uint8_t> f;
  tag(f, 1, 0);
  varint(f, 2);
  tag(f, 2, 0);
  varint(f, 1); // FLOAT
  for (float v : {0.5f, -4.f}) {
    tag(f, 4, 5);
    uint32_t u;
    std::memcpy(&u, &v, 4);
    for (int i = 0; i < 4; ++i)
      f.push_back(static_cast<uint8_t>(u >> (8 * i)));
  }
  ASSERT_OK(parsePb(f, t));
  EXPECT_TRUE(allClose(t, Shape{2}, {0.5, -4}, Tol{0, 0}));
}

TEST(TensorProto, ErrorsNameTheFileAndTheProblem) {
  Tensor t;
  onnx::TensorProto p;
  p.add_dims(1);
  p.set_data_type(onnx::TensorProto::STRING);
  p.add_string_data("hello");
  EXPECT_EQ(parsePb(bytesOf(p.SerializeAsString()), t).message(), "input_0.pb: data_type 8 (STRING) is not supported");
  p.Clear();
  p.add_dims(2);
  p.add_dims(3);
  p.set_data_type(onnx::TensorProto::FLOAT);
  p.set_raw_data(std::string(20, '\0'));
  EXPECT_EQ(parsePb(bytesOf(p.SerializeAsString()), t).message(),
            "input_0.pb: raw_data has 20 bytes, dims (2, 3) of FLOAT need 24");
  p.clear_raw_data();
  EXPECT_EQ(parsePb(bytesOf(p.SerializeAsString()), t).message(),
            "input_0.pb: tensor of dims (2, 3) has neither raw_data nor float_data");
  p.add_float_data(1.f);
  EXPECT_EQ(parsePb(bytesOf(p.SerializeAsString()), t).message(),
            "input_0.pb: float_data has 1 values, dims (2, 3) need 6");
  p.set_data_location(onnx::TensorProto::EXTERNAL);
  EXPECT_EQ(parsePb(bytesOf(p.SerializeAsString()), t).message(),
            "input_0.pb: tensor data is stored externally (data_location EXTERNAL), which is not supported");
  p.Clear();
  p.add_dims(1);
  p.set_data_type(onnx::TensorProto::UINT16);
  p.set_raw_data(std::string("\x80\x3f", 2));
  EXPECT_EQ(parsePb(bytesOf(p.SerializeAsString()), t).message(), "input_0.pb: data_type 4 (UINT16) is not supported");
  TensorProtoOptions u16;
  u16.uint16AsBF16 = true; // how ONNX 1.12's test data stores bfloat16
  const std::string ser = p.SerializeAsString();
  ASSERT_OK(parseTensorProto(reinterpret_cast<const uint8_t *>(ser.data()), ser.size(), "bf.pb", t, nullptr, u16));
  EXPECT_EQ(t.dtype, DType::BF16);
  EXPECT_TRUE(allClose(t, Shape{1}, {1.0}, Tol{0, 0}));
  EXPECT_EQ(parsePb({}, t).message(), "input_0.pb: no data_type field (not a TensorProto?)");
  EXPECT_EQ(parsePb(bytesOf("\x93NUMPY\x01\x00"), t).message().rfind("input_0.pb: ", 0), 0u);
  std::vector<uint8_t> grp;
  tag(grp, 2, 3); // deprecated group
  EXPECT_EQ(parsePb(grp, t).message(), "input_0.pb: unsupported wire type 3 in field 2 (data_type) at offset 0");
  std::vector<uint8_t> neg;
  tag(neg, 1, 0);
  varint(neg, static_cast<uint64_t>(int64_t{-3}));
  tag(neg, 2, 0);
  varint(neg, 1);
  EXPECT_EQ(parsePb(neg, t).message(), "input_0.pb: dims (-3,) are negative or too large");
}

TEST(TensorProto, EveryTruncationIsAnErrorNotACrash) {
  std::mt19937 rng(5);
  Tensor t = randomBits(DType::F32, {3, 5}, rng), out;
  std::vector<uint8_t> f;
  ASSERT_OK(encodeTensorProto(t, "a_rather_long_tensor_name", f));
  for (size_t n = 0; n < f.size(); ++n) {
    std::vector<uint8_t> prefix(f.begin(), f.begin() + static_cast<std::ptrdiff_t>(n));
    Status s = parsePb(prefix, out, "cut.pb");
    ASSERT_FALSE(s.ok()) << n;
    ASSERT_EQ(s.message().rfind("cut.pb: ", 0), 0u) << s.message();
  }
  std::vector<uint8_t> cut(f.begin(), f.end() - 10);
  EXPECT_NE(parsePb(cut, out, "cut.pb").message().find("truncated field 9 (raw_data) at offset"), std::string::npos);
  // Random corruption never crashes (errors or, rarely, a different valid tensor).
  for (int i = 0; i < 2000; ++i) {
    std::vector<uint8_t> c = f;
    c[rng() % c.size()] = static_cast<uint8_t>(rng());
    Status s = parsePb(c, out, "bad.pb");
    if (!s.ok()) {
      ASSERT_EQ(s.message().rfind("bad.pb: ", 0), 0u) << s.message();
    }
  }
}

TEST(TensorFile, DispatchByExtension) {
  Tensor t;
  EXPECT_EQ(readTensorFile("weights.bin", t).message(),
            "weights.bin: unknown tensor file extension (expected .npy or .pb)");
}
