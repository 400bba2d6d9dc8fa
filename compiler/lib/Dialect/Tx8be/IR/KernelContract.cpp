//===- KernelContract.cpp - OpLib's kernel contracts at compile time ------===//
//
// checkKernelCall: an OpCall (genOpCode) and the TSRs of one step become the call main.c makes, and OpLib's own
// check of that kernel (tx8/check.h) says whether the kernel accepts it. The *_PARAMs are built here from the
// OpCall's members, one small builder per param type (the member names are the C ones codegen prints), and the
// kernels are found by the function name codegen prints: the table at the end lists every kernel genOpCode can
// name. A kernel, param type or member missing here is an error, not a silent pass.
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/IR/KernelContract.h"

#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"

#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstring>
#include <deque>
#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "tx8/check.h"

using namespace mlir;
using namespace tx8be;

SmallVector<int64_t> tx8be::opLibBoxView(Operation *op, unsigned index, ArrayRef<int64_t> size) {
  DeviceLayout layout =
      index < op->getNumOperands() ? operandReadLayout(op, index) : getDeviceLayout(op->getResult(0));
  // A rank-0 value is one element of rank 1 (an L_SHAPE has 1 to MAX_SHAPE_DIM dims).
  SmallVector<int64_t, 6> device = size.empty() ? SmallVector<int64_t, 6>{1} : toDeviceOrder(size, layout.order);
  return detail::opLibViewShape(op, index, device);
}

Data_Format tx8be::kernelOperandFormat(Operation *op, unsigned index, Data_Format stored) {
  if (index < 2 && stored == Fmt_FP32)
    if (auto fmt = op->getAttrOfType<StringAttr>("ne_in_fmt"); fmt && fmt.getValue() == "tf32")
      return Fmt_TF32;
  return stored;
}

std::array<int64_t, 4> tx8be::stepPads(const TensorBox &box, int64_t rank) {
  if (rank == 4)
    return {box.padLow[2], box.padLow[3], box.padHigh[2], box.padHigh[3]};
  return {0, box.padLow[2], 0, box.padHigh[2]};
}

void tx8be::applyReducePart(KernelCallArgs &args, ArrayRef<int64_t> reduceDims, int64_t part, int64_t parts) {
  if (parts <= 1)
    return;
  args.accumulate = part != 0;
  if (part != parts - 1)
    for (auto [k, operand] : llvm::enumerate(args.operands))
      if (k >= reduceDims.size() || reduceDims[k] < 0)
        operand.reset();
}

namespace {

//===----------------------------------------------------------------------===//
// *_PARAM members from an OpCall
//===----------------------------------------------------------------------===//

/// The C enumerators genOpCode names, with their values from OpLib's headers.
std::optional<int64_t> enumeratorValue(StringRef name) {
  static const llvm::StringMap<int64_t> kValues = {
      {"LAYOUT_TENSOR", LAYOUT_TENSOR},
      {"LAYOUT_NTENSOR", LAYOUT_NTENSOR},
      {"LAYOUT_CX", LAYOUT_CX},
      {"LAYOUT_NCX", LAYOUT_NCX},
      {"RND_NEAREST_EVEN", RND_NEAREST_EVEN},
      {"RND_ZERO", RND_ZERO},
      {"RND_POS_INF", RND_POS_INF},
      {"RND_NEG_INF", RND_NEG_INF},
      {"RND_NEAREST_AWAY", RND_NEAREST_AWAY},
      {"REDUCE_SUM", REDUCE_SUM},
      {"REDUCE_MEAN", REDUCE_MEAN},
      {"REDUCE_MAX", REDUCE_MAX},
      {"REDUCE_MIN", REDUCE_MIN},
      {"COMPARE_EQ", COMPARE_EQ},
      {"COMPARE_NE", COMPARE_NE},
      {"COMPARE_LT", COMPARE_LT},
      {"COMPARE_LE", COMPARE_LE},
      {"COMPARE_GT", COMPARE_GT},
      {"COMPARE_GE", COMPARE_GE},
      {"LOGICAL_AND", LOGICAL_AND},
      {"LOGICAL_OR", LOGICAL_OR},
      {"LOGICAL_XOR", LOGICAL_XOR},
      {"PAD_CONSTANT", PAD_CONSTANT},
      {"PAD_REFLECT", PAD_REFLECT},
      {"PAD_EDGE", PAD_EDGE},
      {"UNARY_LOG", UNARY_LOG},
      {"UNARY_ERF", UNARY_ERF},
      {"UNARY_GELU_ERF", UNARY_GELU_ERF},
      {"UNARY_SOFTPLUS", UNARY_SOFTPLUS},
      {"UNARY_SOFTSIGN", UNARY_SOFTSIGN},
      {"UNARY_ELU", UNARY_ELU},
      {"UNARY_CELU", UNARY_CELU},
      {"UNARY_SELU", UNARY_SELU},
      {"UNARY_THRESHOLDED_RELU", UNARY_THRESHOLDED_RELU},
      {"UNARY_SHRINK", UNARY_SHRINK},
      {"UNARY_HARD_SWISH", UNARY_HARD_SWISH},
      {"UNARY_MISH", UNARY_MISH},
      {"UNARY_SIN", UNARY_SIN},
      {"UNARY_COS", UNARY_COS},
      {"UNARY_TAN", UNARY_TAN},
      {"UNARY_ASIN", UNARY_ASIN},
      {"UNARY_ACOS", UNARY_ACOS},
      {"UNARY_ATAN", UNARY_ATAN},
      {"UNARY_SINH", UNARY_SINH},
      {"UNARY_COSH", UNARY_COSH},
      {"UNARY_ASINH", UNARY_ASINH},
      {"UNARY_ACOSH", UNARY_ACOSH},
      {"UNARY_ATANH", UNARY_ATANH},
      {"UNARY_FLOOR", UNARY_FLOOR},
      {"UNARY_CEIL", UNARY_CEIL},
      {"UNARY_ROUND", UNARY_ROUND},
      {"UNARY_SIGN", UNARY_SIGN},
      {"UNARY_RSQRT", UNARY_RSQRT},
      {"UNARY_GELU_TANH", UNARY_GELU_TANH},
  };
  auto it = kValues.find(name);
  return it == kValues.end() ? std::nullopt : std::optional<int64_t>(it->second);
}

/// One member's value at a step: what the printed initialiser evaluates to.
struct FieldValue {
  enum class Kind { Integer, Real, Array } kind = Kind::Integer;
  int64_t integer = 0;
  float real = 0;
  ArrayRef<int64_t> ints;
};

LogicalResult resolve(const OpCallValue &v, const KernelCallArgs &args, FieldValue &out, std::string &error) {
  switch (v.kind) {
  case OpCallValue::Kind::Int:
    out.integer = v.integer;
    return success();
  case OpCallValue::Kind::Float:
    out.kind = FieldValue::Kind::Real;
    out.real = v.real;
    return success();
  case OpCallValue::Kind::Enumerator:
    if (std::optional<int64_t> value = enumeratorValue(v.enumerator)) {
      out.integer = *value;
      return success();
    }
    error = "no value for the enumerator " + v.enumerator;
    return failure();
  case OpCallValue::Kind::StepPad:
    if (v.integer < 0 || v.integer > 3) {
      error = "a step pad of side " + std::to_string(v.integer);
      return failure();
    }
    out.integer = args.pads[static_cast<size_t>(v.integer)];
    return success();
  case OpCallValue::Kind::StepAccumulate:
    out.integer = args.accumulate ? 1 : 0;
    return success();
  case OpCallValue::Kind::IntArray:
    out.kind = FieldValue::Kind::Array;
    out.ints = v.ints;
    return success();
  }
  return failure();
}

/// Stores `v` into a member as C's initialiser would (an integer into an integer or enum member, a float or an
/// integer into a float member, a list into an int32_t array whose other entries stay 0).
template <typename T> LogicalResult assign(T &member, const FieldValue &v, std::string &error) {
  if constexpr (std::is_floating_point_v<T>) {
    if (v.kind == FieldValue::Kind::Array) {
      error = "a list for a float member";
      return failure();
    }
    member = v.kind == FieldValue::Kind::Real ? static_cast<T>(v.real) : static_cast<T>(v.integer);
  } else {
    static_assert(std::is_integral_v<T> || std::is_enum_v<T>, "a scalar member");
    if (v.kind != FieldValue::Kind::Integer) {
      error = "a float or a list for an integer member";
      return failure();
    }
    member = static_cast<T>(v.integer);
  }
  return success();
}
template <size_t N> LogicalResult assign(int32_t (&member)[N], const FieldValue &v, std::string &error) {
  if (v.kind != FieldValue::Kind::Array || v.ints.size() > N) {
    error = "not a list of at most " + std::to_string(N) + " integers for an array member";
    return failure();
  }
  for (auto [i, x] : llvm::enumerate(v.ints))
    member[i] = static_cast<int32_t>(x);
  return success();
}

/// A member by its C name.
template <typename P, typename M> struct Member {
  const char *name;
  M P::*pointer;
};
template <typename P, typename M> Member<P, M> member(const char *name, M P::*pointer) { return {name, pointer}; }

/// Sets the member of `param` called `name` (one of `members`).
template <typename P, typename... Ms>
LogicalResult setMember(P &param, StringRef name, const FieldValue &v, std::string &error, Member<P, Ms>... members) {
  bool found = false;
  LogicalResult result = success();
  auto one = [&](auto m) {
    if (found || name != m.name)
      return;
    found = true;
    result = assign(param.*(m.pointer), v, error);
  };
  (one(members), ...);
  if (!found) {
    error = "no member " + name.str();
    return failure();
  }
  return result;
}

// One builder per *_PARAM (tx8/ops.h, tx8/lsu.h): its members by name.
#define TX8_M(P, m) member(#m, &P::m)
LogicalResult setField(ELTWISE_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(ELTWISE_PARAM, layout), TX8_M(ELTWISE_PARAM, rnd));
}
LogicalResult setField(MOD_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(MOD_PARAM, layout), TX8_M(MOD_PARAM, fmod));
}
LogicalResult setField(COMPARE_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(COMPARE_PARAM, layout), TX8_M(COMPARE_PARAM, kind));
}
LogicalResult setField(LOGICAL_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(LOGICAL_PARAM, layout), TX8_M(LOGICAL_PARAM, kind));
}
LogicalResult setField(UNARY_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(UNARY_PARAM, layout), TX8_M(UNARY_PARAM, rnd), TX8_M(UNARY_PARAM, kind),
                   TX8_M(UNARY_PARAM, alpha), TX8_M(UNARY_PARAM, beta));
}
LogicalResult setField(LEAKY_RELU_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(LEAKY_RELU_PARAM, layout), TX8_M(LEAKY_RELU_PARAM, rnd),
                   TX8_M(LEAKY_RELU_PARAM, alpha));
}
LogicalResult setField(CLIP_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(CLIP_PARAM, layout), TX8_M(CLIP_PARAM, rnd), TX8_M(CLIP_PARAM, has_min),
                   TX8_M(CLIP_PARAM, has_max), TX8_M(CLIP_PARAM, min), TX8_M(CLIP_PARAM, max));
}
LogicalResult setField(HARD_SIGMOID_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(HARD_SIGMOID_PARAM, layout), TX8_M(HARD_SIGMOID_PARAM, rnd),
                   TX8_M(HARD_SIGMOID_PARAM, alpha), TX8_M(HARD_SIGMOID_PARAM, beta));
}
LogicalResult setField(CAST_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(CAST_PARAM, layout), TX8_M(CAST_PARAM, to_bool));
}
LogicalResult setField(WHERE_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(WHERE_PARAM, layout));
}
LogicalResult setField(QUANTIZE_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(QUANTIZE_PARAM, layout));
}
LogicalResult setField(REDUCE_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(REDUCE_PARAM, kind), TX8_M(REDUCE_PARAM, rnd));
}
LogicalResult setField(SOFTMAX_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(SOFTMAX_PARAM, layout));
}
LogicalResult setField(LAYERNORM_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(LAYERNORM_PARAM, layout), TX8_M(LAYERNORM_PARAM, rms),
                   TX8_M(LAYERNORM_PARAM, epsilon));
}
LogicalResult setField(ATTENTION_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(ATTENTION_PARAM, scale), TX8_M(ATTENTION_PARAM, causal));
}
LogicalResult setField(POOL_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(POOL_PARAM, layout), TX8_M(POOL_PARAM, kernel_h), TX8_M(POOL_PARAM, kernel_w),
                   TX8_M(POOL_PARAM, stride_h), TX8_M(POOL_PARAM, stride_w), TX8_M(POOL_PARAM, dilation_h),
                   TX8_M(POOL_PARAM, dilation_w), TX8_M(POOL_PARAM, pad_top), TX8_M(POOL_PARAM, pad_left),
                   TX8_M(POOL_PARAM, pad_bottom), TX8_M(POOL_PARAM, pad_right),
                   TX8_M(POOL_PARAM, count_include_pad));
}
LogicalResult setField(GLOBAL_POOL_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(GLOBAL_POOL_PARAM, layout));
}
LogicalResult setField(BATCHNORM_INFER_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(BATCHNORM_INFER_PARAM, layout), TX8_M(BATCHNORM_INFER_PARAM, epsilon));
}
LogicalResult setField(GEMM_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(GEMM_PARAM, accumulate), TX8_M(GEMM_PARAM, relu_en));
}
LogicalResult setField(CONV_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(CONV_PARAM, layout), TX8_M(CONV_PARAM, stride_h), TX8_M(CONV_PARAM, stride_w),
                   TX8_M(CONV_PARAM, dilation_h), TX8_M(CONV_PARAM, dilation_w), TX8_M(CONV_PARAM, pad_top),
                   TX8_M(CONV_PARAM, pad_left), TX8_M(CONV_PARAM, pad_bottom), TX8_M(CONV_PARAM, pad_right),
                   TX8_M(CONV_PARAM, group), TX8_M(CONV_PARAM, accumulate), TX8_M(CONV_PARAM, relu_en));
}
LogicalResult setField(PERMUTE_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(PERMUTE_PARAM, perm));
}
LogicalResult setField(SLICE_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(SLICE_PARAM, start), TX8_M(SLICE_PARAM, step));
}
LogicalResult setField(PAD_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(PAD_PARAM, mode), TX8_M(PAD_PARAM, begin), TX8_M(PAD_PARAM, end),
                   TX8_M(PAD_PARAM, value));
}
LogicalResult setField(CONCAT_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(CONCAT_PARAM, axis), TX8_M(CONCAT_PARAM, count));
}
LogicalResult setField(GATHER_ROWS_PARAM &p, StringRef n, const FieldValue &v, std::string &e) {
  return setMember(p, n, v, e, TX8_M(GATHER_ROWS_PARAM, layout));
}
#undef TX8_M

/// `param` as main.c initialises it from call.fields at this step (designated initialisers: the rest 0).
template <typename P>
LogicalResult buildParam(const OpCall &call, const KernelCallArgs &args, P &param, std::string &error) {
  std::memset(&param, 0, sizeof param);
  for (const auto &[name, value] : call.fields) {
    FieldValue v;
    std::string why;
    if (failed(resolve(value, args, v, why)) || failed(setField(param, name, v, why))) {
      error = call.paramType + "." + name + ": " + why;
      return failure();
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// The kernels
//===----------------------------------------------------------------------===//

/// Runs one kernel's check on the call's TSR arguments (in the call's order; OperandArray's operands first when
/// the call takes one, `arrayCount` of them). Returns the check's result, with `why` its reason.
using Runner = std::function<LogicalResult(const OpCall &, const KernelCallArgs &, ArrayRef<const TSR *>, size_t,
                                           const tx8_hw_config &, int &, char *, std::string &)>;

struct Kernel {
  const char *paramType;
  Runner run;
};

/// A check's parameter struct and TSR count: int(const tx8_hw_config *, const P *, const TSR *..., char *, size_t).
template <typename F> struct CheckOf;
template <typename... Args> struct CheckOf<int(Args...)> {
  using Param = std::remove_const_t<std::remove_pointer_t<std::tuple_element_t<1, std::tuple<Args...>>>>;
  static constexpr size_t kTensors = sizeof...(Args) - 4;
};

template <typename F, typename P, size_t... I>
int invoke(F *fn, const tx8_hw_config &hw, const P &param, ArrayRef<const TSR *> t, char *why,
           std::index_sequence<I...>) {
  return fn(&hw, &param, t[I]..., why, TX8_CHECK_WHY_BYTES);
}

/// A kernel whose check takes its TSRs one by one.
template <typename F> Kernel kernel(const char *paramType, F *fn) {
  using P = typename CheckOf<F>::Param;
  constexpr size_t kTensors = CheckOf<F>::kTensors;
  return {paramType, [fn](const OpCall &call, const KernelCallArgs &args, ArrayRef<const TSR *> t, size_t arrayCount,
                          const tx8_hw_config &hw, int &rc, char *why, std::string &error) -> LogicalResult {
            if (arrayCount != 0 || t.size() != kTensors) {
              error = call.function + " takes " + std::to_string(kTensors) + " TSRs, the call passes " +
                      std::to_string(t.size());
              return failure();
            }
            P param;
            if (failed(buildParam(call, args, param, error)))
              return failure();
            rc = invoke(fn, hw, param, t, why, std::make_index_sequence<kTensors>{});
            return success();
          }};
}

/// op_concat: the inputs as an array, then out.
Kernel concatKernel() {
  return {"CONCAT_PARAM", [](const OpCall &call, const KernelCallArgs &args, ArrayRef<const TSR *> t,
                             size_t arrayCount, const tx8_hw_config &hw, int &rc, char *why,
                             std::string &error) -> LogicalResult {
            if (t.size() != arrayCount + 1) {
              error = "op_concat takes its inputs and out, the call passes " + std::to_string(t.size()) + " TSRs";
              return failure();
            }
            CONCAT_PARAM param;
            if (failed(buildParam(call, args, param, error)))
              return failure();
            if (param.count > arrayCount) {
              error = "op_concat: param.count = " + std::to_string(param.count) + " with " +
                      std::to_string(arrayCount) + " inputs";
              return failure();
            }
            rc = tx8_check_concat(&hw, &param, t.data(), t[arrayCount], why, TX8_CHECK_WHY_BYTES);
            return success();
          }};
}

/// Every kernel genOpCode names (OpLib.cpp, BatchNormInterfaces.cpp), by its function.
const llvm::StringMap<Kernel> &kernels() {
  static const llvm::StringMap<Kernel> kTable = {
      {"op_add", kernel("ELTWISE_PARAM", tx8_check_add)},
      {"op_sub", kernel("ELTWISE_PARAM", tx8_check_sub)},
      {"op_mul", kernel("ELTWISE_PARAM", tx8_check_mul)},
      {"op_div", kernel("ELTWISE_PARAM", tx8_check_div)},
      {"op_max", kernel("ELTWISE_PARAM", tx8_check_max)},
      {"op_min", kernel("ELTWISE_PARAM", tx8_check_min)},
      {"op_pow", kernel("ELTWISE_PARAM", tx8_check_pow)},
      {"op_mod", kernel("MOD_PARAM", tx8_check_mod)},
      {"op_compare", kernel("COMPARE_PARAM", tx8_check_compare)},
      {"op_logical", kernel("LOGICAL_PARAM", tx8_check_logical)},
      {"op_relu", kernel("ELTWISE_PARAM", tx8_check_relu)},
      {"op_abs", kernel("ELTWISE_PARAM", tx8_check_abs)},
      {"op_neg", kernel("ELTWISE_PARAM", tx8_check_neg)},
      {"op_exp", kernel("ELTWISE_PARAM", tx8_check_exp)},
      {"op_sqrt", kernel("ELTWISE_PARAM", tx8_check_sqrt)},
      {"op_reciprocal", kernel("ELTWISE_PARAM", tx8_check_reciprocal)},
      {"op_sigmoid", kernel("ELTWISE_PARAM", tx8_check_sigmoid)},
      {"op_tanh", kernel("ELTWISE_PARAM", tx8_check_tanh)},
      {"op_not", kernel("ELTWISE_PARAM", tx8_check_not)},
      {"op_unary", kernel("UNARY_PARAM", tx8_check_unary)},
      {"op_leaky_relu", kernel("LEAKY_RELU_PARAM", tx8_check_leaky_relu)},
      {"op_clip", kernel("CLIP_PARAM", tx8_check_clip)},
      {"op_hard_sigmoid", kernel("HARD_SIGMOID_PARAM", tx8_check_hard_sigmoid)},
      {"op_cast", kernel("CAST_PARAM", tx8_check_cast)},
      {"op_where", kernel("WHERE_PARAM", tx8_check_where)},
      {"op_quantize_linear", kernel("QUANTIZE_PARAM", tx8_check_quantize_linear)},
      {"op_dequantize_linear", kernel("QUANTIZE_PARAM", tx8_check_dequantize_linear)},
      {"op_reduce", kernel("REDUCE_PARAM", tx8_check_reduce)},
      {"op_softmax", kernel("SOFTMAX_PARAM", tx8_check_softmax)},
      {"op_layernorm", kernel("LAYERNORM_PARAM", tx8_check_layernorm)},
      {"op_attention", kernel("ATTENTION_PARAM", tx8_check_attention)},
      {"op_maxpool", kernel("POOL_PARAM", tx8_check_maxpool)},
      {"op_avgpool", kernel("POOL_PARAM", tx8_check_avgpool)},
      {"op_global_avgpool", kernel("GLOBAL_POOL_PARAM", tx8_check_global_avgpool)},
      {"op_batchnorm_inference", kernel("BATCHNORM_INFER_PARAM", tx8_check_batchnorm_inference)},
      {"op_gemm", kernel("GEMM_PARAM", tx8_check_gemm)},
      {"op_conv", kernel("CONV_PARAM", tx8_check_conv)},
      {"op_permute", kernel("PERMUTE_PARAM", tx8_check_permute)},
      {"op_slice", kernel("SLICE_PARAM", tx8_check_slice)},
      {"op_pad", kernel("PAD_PARAM", tx8_check_pad)},
      {"op_concat", concatKernel()},
      {"op_gather_rows", kernel("GATHER_ROWS_PARAM", tx8_check_gather_rows)},
  };
  return kTable;
}

} // namespace

LogicalResult tx8be::checkKernelCall(const OpCall &call, const KernelCallArgs &args, const tx8_hw_config &hw,
                                     std::string &why, std::string &error) {
  why.clear();
  auto it = kernels().find(call.function);
  if (it == kernels().end()) {
    error = "no contract for the OpLib kernel " + call.function;
    return failure();
  }
  if (call.paramType != it->second.paramType) {
    error = call.function + " takes a " + it->second.paramType + ", not a " + call.paramType;
    return failure();
  }
  // The TSRs main.c builds (their L_SHAPEs live as long as the call): whole tensors of the view's extents.
  std::deque<L_SHAPE> shapes;
  std::deque<TSR> tsrs;
  auto make = [&](const KernelTensor &k) -> FailureOr<const TSR *> {
    if (k.view.empty() || k.view.size() > MAX_SHAPE_DIM) {
      error = call.function + ": a view of rank " + std::to_string(k.view.size());
      return failure();
    }
    SmallVector<int32_t, 6> extents;
    for (int64_t e : k.view) {
      if (e < INT32_MIN || e > INT32_MAX) {
        error = call.function + ": a view extent " + std::to_string(e) + " outside int32";
        return failure();
      }
      extents.push_back(static_cast<int32_t>(e));
    }
    L_SHAPE &shape = shapes.emplace_back();
    tx8_lshape_init(&shape, extents.data(), static_cast<int32_t>(extents.size()));
    return &tsrs.emplace_back(TSR{k.format, k.addr, &shape});
  };
  SmallVector<const TSR *, 8> t;
  size_t arrayCount = 0;
  for (const OpCallArg &arg : call.args) {
    switch (arg.kind) {
    case OpCallArg::Kind::OperandArray:
      if (!t.empty()) {
        error = call.function + ": the operand array must come first";
        return failure();
      }
      for (const std::optional<KernelTensor> &operand : args.operands) {
        if (!operand) {
          t.push_back(nullptr);
          continue;
        }
        FailureOr<const TSR *> tsr = make(*operand);
        if (failed(tsr))
          return failure();
        t.push_back(*tsr);
      }
      arrayCount = t.size();
      continue;
    case OpCallArg::Kind::Null:
      t.push_back(nullptr);
      continue;
    case OpCallArg::Kind::Operand:
    case OpCallArg::Kind::Result:
    case OpCallArg::Kind::Imm: {
      const KernelTensor *k = nullptr;
      if (arg.kind == OpCallArg::Kind::Operand) {
        if (arg.index >= args.operands.size()) {
          error = call.function + ": no operand " + std::to_string(arg.index);
          return failure();
        }
        k = args.operands[arg.index] ? &*args.operands[arg.index] : nullptr;
      } else if (arg.kind == OpCallArg::Kind::Result) {
        if (arg.index >= args.results.size()) {
          error = call.function + ": no result " + std::to_string(arg.index);
          return failure();
        }
        k = &args.results[arg.index];
      } else {
        k = args.imm ? &*args.imm : nullptr;
      }
      if (!k) {
        t.push_back(nullptr);
        continue;
      }
      FailureOr<const TSR *> tsr = make(*k);
      if (failed(tsr))
        return failure();
      t.push_back(*tsr);
      continue;
    }
    }
  }
  char reason[TX8_CHECK_WHY_BYTES] = {0};
  int rc = 0;
  if (failed(it->second.run(call, args, t, arrayCount, hw, rc, reason, error)))
    return failure();
  if (rc != 0)
    why = reason[0] ? reason : call.function + ": refused (no reason given)";
  return success();
}
