//===- fuzz_tensorproto.cpp - libFuzzer: bytes -> tx8::ref::parseTensorProto ===//
//
// ONNX TensorProto files (.pb: `tx8-aot run --input`, test-onnx's test_data_set_*) are hostile input. Every input
// must give a Status, never a crash; a tensor that parses must encode (encodeTensorProto) and parse back to the
// same dtype, shape, bytes and name.
//
//===----------------------------------------------------------------------===//
#include "tx8/Reference/TensorIO.h"

#include <cstdio>
#include <cstdlib>

using namespace tx8::ref;

static void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_tensorproto: %s\n", what);
    std::abort();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  for (bool uint16AsBF16 : {false, true}) {
    TensorProtoOptions options;
    options.uint16AsBF16 = uint16AsBF16;
    Tensor t;
    std::string name;
    Status s = parseTensorProto(data, size, "fuzz.pb", t, &name, options);
    if (!s.ok()) {
      check(s.message().rfind("fuzz.pb", 0) == 0, "an error message does not start with the file name");
      continue;
    }
    check(t.bytes.size() == static_cast<size_t>(t.numElements()) * dtypeBytes(t.dtype),
          "a parsed tensor's byte count does not match its shape");
    std::vector<uint8_t> encoded;
    check(encodeTensorProto(t, name, encoded).ok(), "a parsed tensor does not encode");
    Tensor u;
    std::string name2;
    check(parseTensorProto(encoded.data(), encoded.size(), "again.pb", u, &name2).ok(),
          "an encoded tensor does not parse");
    check(u.dtype == t.dtype && u.shape == t.shape && u.bytes == t.bytes && name2 == name,
          "encode + parse changed the tensor");
  }
  return 0;
}
