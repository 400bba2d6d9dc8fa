//===- ReferenceRunner.cpp - Run a tx8be function on the host --------------===//
#include "tx8/Interpreter/ReferenceRunner.h"

#include "tx8/Dialect/Tx8be/IR/Tx8be.h"
#include "tx8/Reference/TensorIO.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Support/DebugStringHelper.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tx8be;
using tx8::ref::Tensor;

namespace {

std::string describe(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "'" << op->getName() << "' at " << op->getLoc();
  return s;
}

} // namespace

DenseElementsAttr tx8be::elementsAttrFromTensor(const Tensor &t, RankedTensorType type) {
  if (t.dtype == tx8::ref::DType::Bool) {
    SmallVector<bool> values;
    for (uint8_t v : t.bytes)
      values.push_back(v != 0);
    return DenseElementsAttr::get(type, values);
  }
  ArrayRef<char> raw(reinterpret_cast<const char *>(t.bytes.data()), t.bytes.size());
  return DenseElementsAttr::getFromRawBuffer(type, raw);
}

LogicalResult tx8be::tensorFromElementsAttr(ElementsAttr attr, Tensor &out, std::string &error) {
  auto type = cast<ShapedType>(attr.getType());
  auto dtype = detail::refDTypeOf(type);
  if (!dtype) {
    error = "constant of type " + debugString(type) + " has no reference dtype";
    return failure();
  }
  out = Tensor(*dtype, std::vector<int64_t>(type.getShape().begin(), type.getShape().end()));
  size_t bytes = out.bytes.size();
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (*dtype == tx8::ref::DType::Bool) {
      size_t i = 0;
      for (bool v : dense.getValues<bool>())
        out.bytes[i++] = v ? 1 : 0;
      return success();
    }
    ArrayRef<char> raw = dense.getRawData();
    if (dense.isSplat()) { // one element stored for all
      for (size_t at = 0; at < bytes; at += raw.size())
        std::memcpy(out.bytes.data() + at, raw.data(), raw.size());
      return success();
    }
    if (raw.size() != bytes) {
      error = "constant data has " + std::to_string(raw.size()) + " bytes, expected " + std::to_string(bytes);
      return failure();
    }
    if (bytes != 0) // an empty tensor has no data pointer to copy from
      std::memcpy(out.bytes.data(), raw.data(), bytes);
    return success();
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || blob->getData().size() != bytes) {
      error = "constant resource '" + resource.getRawHandle().getKey().str() + "' is missing or has the wrong size";
      return failure();
    }
    std::memcpy(out.bytes.data(), blob->getData().data(), bytes);
    return success();
  }
  error = "unsupported constant attribute";
  return failure();
}

LogicalResult tx8be::runReference(func::FuncOp func, const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs,
                                  std::string &error) {
  if (func.getBody().getBlocks().size() != 1) {
    error = "function @" + func.getName().str() + " must have one block";
    return failure();
  }
  Block &entry = func.getBody().front();
  if (inputs.size() != entry.getNumArguments()) {
    error = "@" + func.getName().str() + " takes " + std::to_string(entry.getNumArguments()) + " inputs, got " +
            std::to_string(inputs.size());
    return failure();
  }
  llvm::DenseMap<Value, Tensor> env;
  for (auto [arg, t] : llvm::zip(entry.getArguments(), inputs))
    env[arg] = t;

  for (Operation &op : entry) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      outputs.clear();
      for (Value v : ret.getOperands())
        outputs.push_back(env.lookup(v));
      return success();
    }
    if (auto constant = dyn_cast<ConstantOp>(op)) {
      Tensor t;
      if (failed(tensorFromElementsAttr(cast<ElementsAttr>(constant.getValue()), t, error))) {
        error = describe(&op) + ": " + error;
        return failure();
      }
      env[constant.getResult()] = std::move(t);
      continue;
    }
    std::string why;
    ComputeInterface computeOp = lookupComputeInterface(&op, why);
    if (!computeOp) {
      error = describe(&op) + ": the reference runner cannot execute this op (" + why + ")";
      return failure();
    }
    ComputeParam param;
    for (Value v : op.getOperands()) {
      auto it = env.find(v);
      param.inputs.push_back(it == env.end() ? nullptr : &it->second);
    }
    if (failed(computeOp.compute(param))) {
      error = describe(&op) + ": " + param.error;
      return failure();
    }
    if (param.outputs.size() != op.getNumResults()) {
      error = describe(&op) + ": compute returned " + std::to_string(param.outputs.size()) + " results";
      return failure();
    }
    for (auto [result, t] : llvm::zip(op.getResults(), param.outputs))
      env[result] = std::move(t);
  }
  error = "@" + func.getName().str() + " has no func.return";
  return failure();
}
