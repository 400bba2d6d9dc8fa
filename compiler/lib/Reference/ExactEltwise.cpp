//===- ExactEltwise.cpp - Exact elementwise ops, comparisons and logic ----===//
#include "tx8/Reference/ExactEltwise.h"

#include "tx8/Reference/Convert.h"
#include "tx8/Reference/TensorIO.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace tx8::ref {

namespace {

Status fail(ExactOp op, const std::string &message) {
  return Status::error(std::string(exactOpName(op)) + ": " + message);
}

bool isBoolResult(ExactOp op) { return op >= ExactOp::Equal; }
bool isLogical(ExactOp op) { return op == ExactOp::Not || op >= ExactOp::And; }

/// Two's-complement arithmetic without undefined overflow.
uint64_t bits(int64_t v) { return static_cast<uint64_t>(v); }
int64_t wrapAdd(int64_t u, int64_t v) { return static_cast<int64_t>(bits(u) + bits(v)); }
int64_t wrapSub(int64_t u, int64_t v) { return static_cast<int64_t>(bits(u) - bits(v)); }
int64_t wrapMul(int64_t u, int64_t v) { return static_cast<int64_t>(bits(u) * bits(v)); }

int64_t integerPow(int64_t base, int64_t exponent) {
  if (exponent < 0) // the truncated real power
    return base == 1 ? 1 : base == -1 ? (exponent % 2 ? -1 : 1) : 0;
  int64_t result = 1;
  for (; exponent > 0; exponent >>= 1) {
    if (exponent & 1)
      result = wrapMul(result, base);
    base = wrapMul(base, base);
  }
  return result;
}

int64_t integerOp(ExactOp op, int64_t u, int64_t v) {
  switch (op) {
  case ExactOp::Neg: return wrapSub(0, u);
  case ExactOp::Abs: return u < 0 ? wrapSub(0, u) : u;
  case ExactOp::Sign: return u > 0 ? 1 : u < 0 ? -1 : 0;
  case ExactOp::Not: return u == 0;
  case ExactOp::Add: return wrapAdd(u, v);
  case ExactOp::Sub: return wrapSub(u, v);
  case ExactOp::Mul: return wrapMul(u, v);
  case ExactOp::Div:
    if (v == 0)
      return 0;
    return (u == std::numeric_limits<int64_t>::min() && v == -1) ? u : u / v;
  case ExactOp::Max: return std::max(u, v);
  case ExactOp::Min: return std::min(u, v);
  case ExactOp::Pow: return integerPow(u, v);
  case ExactOp::Mod:
  case ExactOp::FMod: {
    if (v == 0)
      return 0;
    int64_t r = v == -1 ? 0 : u % v;
    return op == ExactOp::Mod && r != 0 && ((r < 0) != (v < 0)) ? r + v : r;
  }
  case ExactOp::Equal: return u == v;
  case ExactOp::Less: return u < v;
  case ExactOp::LessOrEqual: return u <= v;
  case ExactOp::Greater: return u > v;
  case ExactOp::GreaterOrEqual: return u >= v;
  case ExactOp::And: return u && v;
  case ExactOp::Or: return u || v;
  case ExactOp::Xor: return (u != 0) != (v != 0);
  }
  return 0;
}

double floatOp(ExactOp op, double x, double z) {
  bool nan = std::isnan(x) || std::isnan(z);
  switch (op) {
  case ExactOp::Neg: return -x;
  case ExactOp::Abs: return std::fabs(x);
  case ExactOp::Sign: return x > 0 ? 1 : x < 0 ? -1 : x;
  case ExactOp::Add: return x + z;
  case ExactOp::Sub: return x - z;
  case ExactOp::Mul: return x * z;
  case ExactOp::Div: return x / z;
  case ExactOp::Max: return nan ? NAN : std::max(x, z);
  case ExactOp::Min: return nan ? NAN : std::min(x, z);
  case ExactOp::Pow: return std::pow(x, z);
  case ExactOp::Mod:
  case ExactOp::FMod: {
    double r = std::fmod(x, z);
    return op == ExactOp::Mod && r != 0 && ((r < 0) != (z < 0)) ? r + z : r;
  }
  case ExactOp::Equal: return x == z;
  case ExactOp::Less: return x < z;
  case ExactOp::LessOrEqual: return x <= z;
  case ExactOp::Greater: return x > z;
  case ExactOp::GreaterOrEqual: return x >= z;
  default: return 0;
  }
}

} // namespace

std::optional<std::vector<int64_t>> numpyBroadcast(const std::vector<int64_t> &a, const std::vector<int64_t> &b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t k = 0; k < rank; ++k) {
    int64_t da = k < rank - a.size() ? 1 : a[k - (rank - a.size())];
    int64_t db = k < rank - b.size() ? 1 : b[k - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    out[k] = da == 1 ? db : da;
  }
  return out;
}

int64_t broadcastIndex(const std::vector<int64_t> &out, const std::vector<int64_t> &in, int64_t linear) {
  int64_t index = 0, stride = 1;
  size_t offset = out.size() - in.size();
  for (size_t d = out.size(); d-- > 0;) {
    int64_t coord = linear % out[d];
    linear /= out[d];
    if (d >= offset) {
      int64_t extent = in[d - offset];
      index += (extent == 1 ? 0 : coord) * stride;
      stride *= extent;
    }
  }
  return index;
}

std::optional<ExactOp> exactOpNamed(std::string_view name) {
  static const std::pair<std::string_view, ExactOp> kNames[] = {
      {"Neg", ExactOp::Neg}, {"Abs", ExactOp::Abs}, {"Sign", ExactOp::Sign}, {"Not", ExactOp::Not},
      {"Add", ExactOp::Add}, {"Sub", ExactOp::Sub}, {"Mul", ExactOp::Mul}, {"Div", ExactOp::Div},
      {"Max", ExactOp::Max}, {"Min", ExactOp::Min}, {"Pow", ExactOp::Pow}, {"Mod", ExactOp::Mod},
      {"Equal", ExactOp::Equal}, {"Less", ExactOp::Less},
      {"LessOrEqual", ExactOp::LessOrEqual}, {"Greater", ExactOp::Greater},
      {"GreaterOrEqual", ExactOp::GreaterOrEqual}, {"And", ExactOp::And}, {"Or", ExactOp::Or},
      {"Xor", ExactOp::Xor}};
  for (const auto &[n, op] : kNames)
    if (n == name)
      return op;
  return std::nullopt;
}

const char *exactOpName(ExactOp op) {
  static const char *const kNames[] = {"Neg", "Abs", "Sign", "Not", "Add", "Sub", "Mul", "Div", "Max", "Min", "Pow",
                                       "Mod", "FMod", "Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual",
                                       "And", "Or", "Xor"};
  return kNames[static_cast<int>(op)];
}

bool isExactUnary(ExactOp op) { return op <= ExactOp::Not; }

Status exactElementwise(ExactOp op, const Tensor &a, const Tensor *b, Tensor &y) {
  bool unary = isExactUnary(op);
  if (unary != (b == nullptr))
    return fail(op, unary ? "takes one operand" : "takes two operands");
  const Tensor &rhs = b ? *b : a;
  if (a.dtype != rhs.dtype)
    return fail(op, std::string("operand dtypes differ (") + dtypeName(a.dtype) + " and " + dtypeName(rhs.dtype) + ")");
  if (isLogical(op) && a.dtype != DType::Bool)
    return fail(op, std::string("takes bool operands, not ") + dtypeName(a.dtype));
  for (const Tensor *t : {&a, &rhs})
    if (static_cast<int64_t>(t->bytes.size()) != t->numElements() * static_cast<int64_t>(dtypeBytes(t->dtype)))
      return fail(op, "an operand's byte count does not match its shape");
  std::optional<std::vector<int64_t>> broadcast = numpyBroadcast(a.shape, rhs.shape);
  if (!broadcast)
    return fail(op, "operand shapes " + shapeToString(a.shape) + " and " + shapeToString(rhs.shape) +
                        " do not broadcast");
  const std::vector<int64_t> &shape = *broadcast;
  Tensor out(isBoolResult(op) ? DType::Bool : a.dtype, shape);
  bool fp = isFloatType(a.dtype);
  for (int64_t i = 0; i < out.numElements(); ++i) {
    int64_t ia = broadcastIndex(shape, a.shape, i), ib = broadcastIndex(shape, rhs.shape, i);
    if (fp) {
      double r = floatOp(op, elementAsDouble(a, ia), elementAsDouble(rhs, ib));
      setElementFromDouble(out, i, r);
    } else {
      setElementFromInt64(out, i, integerOp(op, elementAsInt64(a, ia), elementAsInt64(rhs, ib)));
    }
  }
  y = std::move(out);
  return Status();
}

} // namespace tx8::ref
