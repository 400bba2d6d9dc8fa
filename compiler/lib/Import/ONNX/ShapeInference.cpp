//===- ShapeInference.cpp - ONNX shape inference that cannot take the importer down --------===//
//
// See ShapeInference.h for why: guards in front of the conv/pool family's inference functions, and the
// inference in a forked child whose death is an import error.
//
//===----------------------------------------------------------------------===//
#include "ShapeInference.h"

#include "llvm/Support/FormatVariadic.h"

#include <onnx/common/version.h>
#include <onnx/defs/schema.h>
#include <onnx/defs/shape_inference.h>
#include <onnx/shape_inference/implementation.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>
#include <set>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace tx8be::onnx_import;

namespace {

//===----------------------------------------------------------------------===//
// Guards
//===----------------------------------------------------------------------===//

/// The operators whose libonnx 1.12 inference indexes shapes by attribute lengths or the weight's rank
/// without checking them (convPoolShapeInference, convTransposeShapeInference, maxUnpoolShapeInference).
struct ConvPoolOp {
  const char *name;
  int weightInput; // the kernel tensor's input index, or -1 (pools take kernel_shape)
};
constexpr ConvPoolOp kConvPoolOps[] = {
    {"Conv", 1},         {"ConvInteger", 1}, {"QLinearConv", 3}, {"ConvTranspose", 1},
    {"AveragePool", -1}, {"MaxPool", -1},    {"LpPool", -1},     {"MaxUnpool", -1},
};

const onnx::TensorShapeProto *knownShape(onnx::InferenceContext &ctx, int index) {
  if (index < 0 || static_cast<size_t>(index) >= ctx.getNumInputs())
    return nullptr;
  const onnx::TypeProto *type = ctx.getInputType(static_cast<size_t>(index));
  if (!type || !type->has_tensor_type() || !type->tensor_type().has_shape())
    return nullptr;
  return &type->tensor_type().shape();
}

/// Throws onnx::InferenceError (lenient inference then leaves the node's outputs uninferred) unless the
/// node's ranks and window attributes are consistent: what the library's functions assume.
void checkConvPoolNode(onnx::InferenceContext &ctx, int weightInput) {
  auto ints = [&](const char *name) -> const onnx::AttributeProto * {
    const onnx::AttributeProto *attr = ctx.getAttribute(name);
    return attr && attr->type() == onnx::AttributeProto::INTS ? attr : nullptr;
  };
  for (const char *name : {"strides", "dilations", "kernel_shape"})
    if (const auto *attr = ints(name))
      for (int64_t v : attr->ints())
        if (v < 1)
          fail_shape_inference("attribute ", name, " has a value ", v, " < 1");
  if (const auto *attr = ints("pads"))
    for (int64_t v : attr->ints())
      if (v < 0)
        fail_shape_inference("attribute pads has a negative value ", v);

  const onnx::TensorShapeProto *x = knownShape(ctx, 0);
  if (!x)
    return;
  int rank = x->dim_size();
  if (rank < 2)
    fail_shape_inference("input 0 has rank ", rank, "; this operator needs N x C x D1 x ... x Dn");
  if (const onnx::TensorShapeProto *w = knownShape(ctx, weightInput); w && w->dim_size() != rank)
    fail_shape_inference("the kernel (input ", weightInput, ") has rank ", w->dim_size(), ", the data ", rank);
  int spatial = rank - 2;
  for (const char *name : {"strides", "dilations", "kernel_shape", "output_padding", "output_shape"})
    if (const auto *attr = ints(name); attr && attr->ints_size() != spatial)
      fail_shape_inference("attribute ", name, " has ", attr->ints_size(), " values for ", spatial,
                           " spatial dimensions");
  if (const auto *attr = ints("pads"); attr && attr->ints_size() != 2 * spatial)
    fail_shape_inference("attribute pads has ", attr->ints_size(), " values for ", spatial, " spatial dimensions");
}

//===----------------------------------------------------------------------===//
// Opset-18 forms (NewerOpsets.h)
//===----------------------------------------------------------------------===//
//
// The linked ONNX knows Pad, Split and Resize as of opset 13; a model of opsets 18-21 is inferred with the new
// forms of their nodes kept (the legacy view shows the checker an opset-13 form). The inference functions of
// those schemas are wrapped: a node in a new form (Pad's axes input #3, Split's num_outputs, Resize's axes) is
// inferred here, as the newer ONNX does; any other node by the library. An operand that is not a constant leaves
// the extents it decides unknown (the rank is still set).

/// The integer values of a constant operand (INT64 or INT32), or nullopt.
std::optional<std::vector<int64_t>> intData(const onnx::TensorProto *t) {
  if (!t || t->data_location() == onnx::TensorProto::EXTERNAL)
    return std::nullopt;
  std::vector<int64_t> v;
  if (t->data_type() == onnx::TensorProto::INT64) {
    if (t->has_raw_data()) {
      if (t->raw_data().size() % 8)
        return std::nullopt;
      v.resize(t->raw_data().size() / 8);
      std::memcpy(v.data(), t->raw_data().data(), t->raw_data().size());
    } else {
      v.assign(t->int64_data().begin(), t->int64_data().end());
    }
  } else if (t->data_type() == onnx::TensorProto::INT32) {
    if (t->has_raw_data()) {
      if (t->raw_data().size() % 4)
        return std::nullopt;
      std::vector<int32_t> w(t->raw_data().size() / 4);
      std::memcpy(w.data(), t->raw_data().data(), t->raw_data().size());
      v.assign(w.begin(), w.end());
    } else {
      v.assign(t->int32_data().begin(), t->int32_data().end());
    }
  } else {
    return std::nullopt;
  }
  return v;
}

/// The values of a FLOAT constant operand, or nullopt.
std::optional<std::vector<float>> floatData(const onnx::TensorProto *t) {
  if (!t || t->data_type() != onnx::TensorProto::FLOAT || t->data_location() == onnx::TensorProto::EXTERNAL)
    return std::nullopt;
  if (!t->has_raw_data())
    return std::vector<float>(t->float_data().begin(), t->float_data().end());
  if (t->raw_data().size() % 4)
    return std::nullopt;
  std::vector<float> v(t->raw_data().size() / 4);
  std::memcpy(v.data(), t->raw_data().data(), t->raw_data().size());
  return v;
}

bool givenInput(onnx::InferenceContext &ctx, size_t i) { return i < ctx.getNumInputs() && ctx.getInputType(i); }

/// Extents past this are a malformed model (they would overflow the sums below).
constexpr int64_t kMaxExtent = int64_t{1} << 40;

/// Output 0 with input 0's element type and `rank` dims; returns its shape to fill.
onnx::TensorShapeProto &outputLikeInput(onnx::InferenceContext &ctx, size_t output, int rank) {
  propagateElemTypeFromInputToOutput(ctx, 0, output);
  onnx::TensorShapeProto &shape = *ctx.getOutputType(output)->mutable_tensor_type()->mutable_shape();
  shape.clear_dim();
  for (int k = 0; k < rank; ++k)
    shape.add_dim();
  return shape;
}

/// Normalised axes, or a failure of the node's inference.
std::vector<int64_t> normalizedAxes(const std::vector<int64_t> &axes, int rank) {
  std::vector<int64_t> out;
  for (int64_t a : axes) {
    if (a < -rank || a >= rank)
      fail_shape_inference("axis ", a, " is out of range for rank ", rank);
    out.push_back(a < 0 ? a + rank : a);
  }
  return out;
}

/// Pad-18: pads for the axes of input #3 only.
void inferPadWithAxes(onnx::InferenceContext &ctx) {
  if (!hasInputShape(ctx, 0)) {
    propagateElemTypeFromInputToOutput(ctx, 0, 0);
    return;
  }
  const onnx::TensorShapeProto in = getInputShape(ctx, 0);
  onnx::TensorShapeProto &out = outputLikeInput(ctx, 0, in.dim_size());
  auto pads = intData(ctx.getInputData(1)), axesData = intData(ctx.getInputData(3));
  if (!pads || !axesData)
    return;
  std::vector<int64_t> axes = normalizedAxes(*axesData, in.dim_size());
  if (pads->size() != 2 * axes.size())
    fail_shape_inference("pads has ", pads->size(), " values for ", axes.size(), " axes");
  std::vector<int64_t> add(in.dim_size(), 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t b = (*pads)[i], e = (*pads)[i + axes.size()];
    if (std::abs(b) > kMaxExtent || std::abs(e) > kMaxExtent)
      fail_shape_inference("a pad is larger than 2^40");
    add[axes[i]] += b + e;
  }
  for (int k = 0; k < in.dim_size(); ++k)
    if (in.dim(k).has_dim_value() && in.dim(k).dim_value() <= kMaxExtent) {
      int64_t v = in.dim(k).dim_value() + add[k];
      if (v < 0)
        fail_shape_inference("dim ", k, " would have the negative extent ", v);
      out.mutable_dim(k)->set_dim_value(v);
    }
}

/// Split-18 with num_outputs (no split input): equal parts, the last one smaller if they do not divide.
void inferSplitNumOutputs(onnx::InferenceContext &ctx) {
  size_t outputs = ctx.getNumOutputs();
  for (size_t i = 0; i < outputs; ++i)
    propagateElemTypeFromInputToOutput(ctx, 0, i);
  if (!hasInputShape(ctx, 0) || outputs == 0)
    return;
  const onnx::TensorShapeProto in = getInputShape(ctx, 0);
  int64_t axis = normalizedAxes({onnx::getAttribute(ctx, "axis", 0)}, in.dim_size())[0];
  if (onnx::getAttribute(ctx, "num_outputs", 0) != static_cast<int64_t>(outputs))
    fail_shape_inference("num_outputs is not the number of outputs");
  const auto &d = in.dim(static_cast<int>(axis));
  bool known = d.has_dim_value() && d.dim_value() >= 0 && d.dim_value() <= kMaxExtent;
  int64_t extent = known ? d.dim_value() : 0, n = static_cast<int64_t>(outputs), part = (extent + n - 1) / n;
  if (known && extent - part * (n - 1) < 0)
    fail_shape_inference("an extent of ", extent, " does not split into ", n, " parts");
  for (size_t i = 0; i < outputs; ++i) {
    onnx::TensorShapeProto &out = *ctx.getOutputType(i)->mutable_tensor_type()->mutable_shape();
    out = in;
    if (known)
      out.mutable_dim(static_cast<int>(axis))->set_dim_value(i + 1 < outputs ? part : extent - part * (n - 1));
    else
      out.mutable_dim(static_cast<int>(axis))->Clear();
  }
}

/// Resize-18 with axes: scales or sizes for those axes only (the others keep their extent).
void inferResizeWithAxes(onnx::InferenceContext &ctx) {
  if (!hasInputShape(ctx, 0)) {
    propagateElemTypeFromInputToOutput(ctx, 0, 0);
    return;
  }
  const onnx::TensorShapeProto in = getInputShape(ctx, 0);
  onnx::TensorShapeProto &out = outputLikeInput(ctx, 0, in.dim_size());
  const onnx::AttributeProto *axesAttr = ctx.getAttribute("axes");
  std::vector<int64_t> axes = normalizedAxes({axesAttr->ints().begin(), axesAttr->ints().end()}, in.dim_size());
  std::vector<bool> resized(in.dim_size(), false);
  for (int64_t a : axes)
    resized[a] = true;
  for (int k = 0; k < in.dim_size(); ++k)
    if (!resized[k])
      *out.mutable_dim(k) = in.dim(k);
  auto sizes = givenInput(ctx, 3) ? intData(ctx.getInputData(3)) : std::nullopt;
  auto scales = givenInput(ctx, 2) ? floatData(ctx.getInputData(2)) : std::nullopt;
  if (sizes && !sizes->empty()) {
    if (sizes->size() != axes.size())
      fail_shape_inference("sizes has ", sizes->size(), " values for ", axes.size(), " axes");
    for (size_t i = 0; i < axes.size(); ++i)
      if ((*sizes)[i] >= 0 && (*sizes)[i] <= kMaxExtent)
        out.mutable_dim(static_cast<int>(axes[i]))->set_dim_value((*sizes)[i]);
  } else if (scales && !scales->empty()) {
    if (scales->size() != axes.size())
      fail_shape_inference("scales has ", scales->size(), " values for ", axes.size(), " axes");
    for (size_t i = 0; i < axes.size(); ++i) {
      const auto &d = in.dim(static_cast<int>(axes[i]));
      float product = static_cast<float>(d.dim_value()) * (*scales)[i]; // as ONNX: in float
      if (d.has_dim_value() && std::isfinite(product) && product >= 0 && product < 0x1p40f)
        out.mutable_dim(static_cast<int>(axes[i]))->set_dim_value(static_cast<int64_t>(std::floor(product)));
    }
  }
}

/// Wraps the inference function of every schema of `op`: `isNewForm(ctx)` nodes go to `infer`.
void wrapInference(const char *op, bool (*isNewForm)(onnx::InferenceContext &), void (*infer)(onnx::InferenceContext &),
                   std::set<const onnx::OpSchema *> &wrapped) {
  int newest = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map().at("").second;
  for (int version = 1; version <= newest; ++version) {
    const onnx::OpSchema *schema = onnx::OpSchemaRegistry::Schema(op, version, "");
    if (!schema || !wrapped.insert(schema).second || !schema->has_type_and_shape_inference_function())
      continue;
    onnx::InferenceFunction original = schema->GetTypeAndShapeInferenceFunction();
    const_cast<onnx::OpSchema *>(schema)->TypeAndShapeInferenceFunction(
        [original, isNewForm, infer](onnx::InferenceContext &ctx) { isNewForm(ctx) ? infer(ctx) : original(ctx); });
  }
}

void installGuards() {
  int newest = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map().at("").second;
  std::set<const onnx::OpSchema *> guarded;
  for (const ConvPoolOp &op : kConvPoolOps) {
    for (int version = 1; version <= newest; ++version) {
      const onnx::OpSchema *schema = onnx::OpSchemaRegistry::Schema(op.name, version, "");
      if (!schema || !guarded.insert(schema).second || !schema->has_type_and_shape_inference_function())
        continue;
      // The registry hands out const schemas and has no way to replace one (libonnx 1.12): the inference
      // function is the one member changed, once, before any inference runs.
      auto *mutableSchema = const_cast<onnx::OpSchema *>(schema);
      onnx::InferenceFunction original = schema->GetTypeAndShapeInferenceFunction();
      int weightInput = op.weightInput;
      mutableSchema->TypeAndShapeInferenceFunction([original, weightInput](onnx::InferenceContext &ctx) {
        checkConvPoolNode(ctx, weightInput);
        original(ctx);
      });
    }
  }
  std::set<const onnx::OpSchema *> wrapped;
  wrapInference(
      "Pad", [](onnx::InferenceContext &ctx) { return givenInput(ctx, 3); }, inferPadWithAxes, wrapped);
  wrapInference(
      "Split", [](onnx::InferenceContext &ctx) { return ctx.getAttribute("num_outputs") != nullptr && !givenInput(ctx, 1); },
      inferSplitNumOutputs, wrapped);
  wrapInference(
      "Resize", [](onnx::InferenceContext &ctx) { return ctx.getAttribute("axes") != nullptr; }, inferResizeWithAxes,
      wrapped);
}

//===----------------------------------------------------------------------===//
// The child
//===----------------------------------------------------------------------===//

/// The reply is the graph's value_info and outputs: types only, no tensor data.
constexpr size_t kMaxReplyBytes = size_t(1) << 30;

bool writeAll(int fd, const std::string &bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

/// Runs in the forked child: infers, replies 'O' + a GraphProto holding value_info and outputs, or 'E' +
/// the library's message, and leaves without running the parent's exit handlers.
[[noreturn]] void runChild(onnx::ModelProto &model, int fd, unsigned timeoutSeconds) {
  // The parent's handlers (LLVM's stack dump, libFuzzer's crash report) must not run for a crash here: the
  // parent reports it.
  for (int sig : {SIGSEGV, SIGFPE, SIGBUS, SIGILL, SIGABRT, SIGALRM})
    std::signal(sig, SIG_DFL);
  struct rlimit noCore = {0, 0};
  setrlimit(RLIMIT_CORE, &noCore);
  alarm(timeoutSeconds);
  std::string reply, error;
  if (inferShapes(model, error)) {
    onnx::GraphProto inferred;
    *inferred.mutable_value_info() = model.graph().value_info();
    *inferred.mutable_output() = model.graph().output();
    reply = "O" + inferred.SerializeAsString();
  } else {
    reply = "E" + error;
  }
  _exit(writeAll(fd, reply) ? 0 : 1);
}

std::string describeStatus(int status, unsigned timeoutSeconds) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    if (sig == SIGALRM)
      return llvm::formatv("did not finish in {0} s", timeoutSeconds).str();
    return llvm::formatv("crashed (signal {0}, {1})", sig, strsignal(sig)).str();
  }
  return llvm::formatv("ended with exit status {0}", WEXITSTATUS(status)).str();
}

} // namespace

void tx8be::onnx_import::installShapeInferenceGuards() {
  static std::once_flag once;
  std::call_once(once, installGuards);
}

bool tx8be::onnx_import::inferShapes(onnx::ModelProto &model, std::string &error) {
  installShapeInferenceGuards();
  try {
    // Lenient: exporters write models that strict inference rejects (pytorch 0.3 emits opset-6 int64
    // Constants, which that opset's schema does not allow). tx8be's shape rules check every op anyway.
    onnx::ShapeInferenceOptions options(/*check_type=*/false, /*error_mode=*/0, /*enable_data_propagation=*/true);
    onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception &e) {
    error = std::string("ONNX shape inference fails: ") + e.what();
    return false;
  }
  return true;
}

bool tx8be::onnx_import::inferShapesIsolated(onnx::ModelProto &model, std::string &error,
                                             unsigned timeoutSeconds) {
  installShapeInferenceGuards();
  int fds[2];
  if (::pipe(fds) != 0) {
    error = std::string("cannot run ONNX shape inference: pipe: ") + std::strerror(errno);
    return false;
  }
  std::fflush(nullptr); // the child leaves with _exit, but buffered output must not be doubled by fork
  pid_t pid = ::fork();
  if (pid < 0) {
    error = std::string("cannot run ONNX shape inference: fork: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return false;
  }
  if (pid == 0) {
    ::close(fds[0]);
    runChild(model, fds[1], timeoutSeconds);
  }
  ::close(fds[1]);

  std::string reply;
  bool tooLong = false;
  char buffer[1 << 16];
  for (;;) {
    ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    if (reply.size() + static_cast<size_t>(n) > kMaxReplyBytes) {
      tooLong = true;
      ::kill(pid, SIGKILL);
      break;
    }
    reply.append(buffer, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }

  if (tooLong) {
    error = llvm::formatv("ONNX shape inference produced more than {0} bytes of types", kMaxReplyBytes).str();
    return false;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || reply.empty()) {
    error = "ONNX shape inference (libonnx " + std::string(ONNX_NAMESPACE::LAST_RELEASE_VERSION) + ") " +
            describeStatus(status, timeoutSeconds) +
            " on this model: it is malformed in a way the library does not check";
    return false;
  }
  if (reply[0] == 'E') {
    error = reply.substr(1);
    return false;
  }
  onnx::GraphProto inferred;
  if (reply[0] != 'O' || !inferred.ParseFromArray(reply.data() + 1, static_cast<int>(reply.size() - 1)) ||
      inferred.output_size() != model.graph().output_size()) {
    error = "ONNX shape inference returned an unreadable reply";
    return false;
  }
  onnx::GraphProto &graph = *model.mutable_graph();
  graph.mutable_value_info()->Swap(inferred.mutable_value_info());
  for (int i = 0; i < graph.output_size(); ++i)
    *graph.mutable_output(i)->mutable_type() = inferred.output(i).type();
  return true;
}
