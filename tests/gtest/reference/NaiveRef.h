//===- NaiveRef.h - Naive double-precision references for the kernel tests ===//
//
// Deliberately simple loops in double, written from the ONNX operator definitions and sharing no
// code with the library (no oneDNN, no stride tricks): the kernels are checked against these.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_TESTS_REFERENCE_NAIVEREF_H
#define TX8_TESTS_REFERENCE_NAIVEREF_H

#include "RefTestUtil.h"
#include "tx8/Reference/Kernels.h"

#include <functional>

namespace naive {

using reftest::Shape;

struct Arr {
  Shape shape;
  std::vector<double> v;
};
Arr arr(const tx8::ref::Tensor &t);

Arr conv(const Arr &x, const Arr &w, const Arr *b, const Shape &strides, const Shape &dil, const Shape &pb,
         const Shape &pe, int64_t group);
Arr convTranspose(const Arr &x, const Arr &w, const Arr *b, const Shape &strides, const Shape &dil, const Shape &pb,
                  const Shape &pe, const Shape &outPad, int64_t group);
Arr pool(bool isMax, const Arr &x, const Shape &kernel, const Shape &strides, const Shape &dil, const Shape &pb,
         const Shape &pe, bool ceilMode, bool countIncludePad);

Arr matmul(const Arr &a, const Arr &b);
Arr gemm(const Arr &a, const Arr &b, const Arr *c, double alpha, double beta, bool transA, bool transB);

Arr softmax(const Arr &x, int64_t axis, bool log);
Arr batchNorm(const Arr &x, const Arr &scale, const Arr &bias, const Arr &mean, const Arr &var, double eps);
Arr layerNorm(const Arr &x, const Arr &scale, const Arr *bias, int64_t axis, double eps);
Arr reduce(tx8::ref::ReduceOp op, const Arr &x, const Shape &axes, bool keepDims);

Arr binary(const std::function<double(double, double)> &f, const Arr &a, const Arr &b);
double unary(tx8::ref::UnaryOp op, double x, double alpha, double beta);
Arr prelu(const Arr &x, const Arr &slope);

Arr transpose(const Arr &x, const Shape &perm);
Arr slice(const Arr &x, const Shape &starts, const Shape &ends, const Shape &axes, const Shape &steps);
Arr gather(const Arr &data, const std::vector<int64_t> &indices, const Shape &indShape, int64_t axis);
Arr pad(const Arr &x, const Shape &pads, tx8::ref::PadMode mode, double value);

} // namespace naive

#endif // TX8_TESTS_REFERENCE_NAIVEREF_H
