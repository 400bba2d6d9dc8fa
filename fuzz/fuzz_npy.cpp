//===- fuzz_npy.cpp - libFuzzer: .npy bytes -> tx8::ref::parseNpy ---------===//
//
// A tensor file given to `tx8-aot run --input` / `reference` is hostile input. Every input must give a Status,
// never a crash; a tensor that parses must encode (encodeNpy) and parse back to the same dtype, shape and bytes.
//
//===----------------------------------------------------------------------===//
#include "tx8/Reference/TensorIO.h"

#include <cstdio>
#include <cstdlib>

using namespace tx8::ref;

static void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_npy: %s\n", what);
    std::abort();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  for (bool u2AsBF16 : {false, true}) {
    NpyOptions options;
    options.u2AsBF16 = u2AsBF16;
    Tensor t;
    Status s = parseNpy(data, size, "fuzz.npy", t, options);
    if (!s.ok()) {
      check(s.message().rfind("fuzz.npy", 0) == 0, "an error message does not start with the file name");
      continue;
    }
    check(t.bytes.size() == static_cast<size_t>(t.numElements()) * dtypeBytes(t.dtype),
          "a parsed tensor's byte count does not match its shape");
    // bf16 is written as '<u2' and only read back as bf16 when asked to.
    std::vector<uint8_t> encoded;
    check(encodeNpy(t, encoded).ok(), "a parsed tensor does not encode");
    NpyOptions back;
    back.u2AsBF16 = t.dtype == DType::BF16;
    Tensor u;
    check(parseNpy(encoded.data(), encoded.size(), "again.npy", u, back).ok(), "an encoded tensor does not parse");
    check(u.dtype == t.dtype && u.shape == t.shape && u.bytes == t.bytes, "encode + parse changed the tensor");
  }
  return 0;
}
