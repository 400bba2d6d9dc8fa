//===- Model.cpp - Loading models and their data for tx8-aot ---------------===//
#include "tx8/Reference/BoundedFile.h"
#include "tx8/Driver/Model.h"

#include "tx8/Conversion/Passes.h"
#include "tx8/Import/ONNX.h"
#include "tx8/Reference/TensorIO.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/DebugStringHelper.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <set>

using namespace mlir;
using namespace tx8be;
using tx8::ref::Status;
using tx8::ref::Tensor;

void tx8be::registerModelDialects(DialectRegistry &registry) {
  registry.insert<Tx8beDialect, func::FuncDialect, arith::ArithDialect, tensor::TensorDialect, tosa::TosaDialect>();
}

OwningOpRef<ModuleOp> tx8be::parseModelText(StringRef text, MLIRContext &context, StringRef name,
                                            bool verifyAfterParse) {
  // the keyword `sparse`, then `<` (whitespace between allowed), outside an identifier
  for (size_t at = text.find("sparse"); at != StringRef::npos; at = text.find("sparse", at + 1)) {
    auto identChar = [](char c) { return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.'; };
    if (at > 0 && identChar(text[at - 1]))
      continue;
    StringRef rest = text.drop_front(at + 6).ltrim(" \t\r\n");
    if (!rest.starts_with("<"))
      continue;
    StringRef before = text.take_front(at);
    unsigned line = before.count('\n') + 1, column = at - (before.rfind('\n') + 1) + 1;
    emitError(FileLineColLoc::get(&context, name, line, column))
        << "sparse elements attributes are not supported";
    return nullptr;
  }
  return parseSourceString<ModuleOp>(text, ParserConfig(&context, verifyAfterParse), name);
}

bool tx8be::isMLIRModel(StringRef path) { return path.ends_with(".mlir"); }

Status tx8be::parseInputShapes(const std::vector<std::string> &args, std::vector<InputShape> &shapes) {
  shapes.clear();
  std::set<std::string> names;
  for (const std::string &arg : args) {
    auto bad = [&](const std::string &why) {
      return Status::error("--input-shape " + arg + ": " + why + " (expected NAME=D0xD1x..., e.g. input=1x3x224x224)");
    };
    size_t eq = arg.rfind('=');
    if (eq == std::string::npos || eq == 0)
      return bad("no NAME=");
    InputShape shape;
    shape.name = arg.substr(0, eq);
    SmallVector<StringRef> dims;
    StringRef(arg).drop_front(eq + 1).split(dims, 'x');
    for (StringRef d : dims) {
      uint64_t v = 0;
      if (d.empty() || !llvm::all_of(d, llvm::isDigit) || d.getAsInteger(10, v))
        return bad(d.empty() ? "an extent is missing" : "'" + d.str() + "' is not an extent");
      if (v > 0x7fffffffu)
        return bad("extent " + d.str() + " is larger than 2^31 - 1");
      shape.dims.push_back(static_cast<int64_t>(v));
    }
    if (!names.insert(shape.name).second)
      return Status::error("--input-shape " + arg + ": input '" + shape.name + "' is given twice");
    shapes.push_back(std::move(shape));
  }
  return Status();
}

OwningOpRef<ModuleOp> tx8be::loadModel(StringRef path, MLIRContext &context,
                                       const std::vector<InputShape> &inputShapes, bool debugOutputs,
                                       const std::vector<ConstantInput> &constantInputs) {
  if (!isMLIRModel(path)) {
    ONNXImportOptions options;
    options.inputShapes = inputShapes;
    options.debugOutputs = debugOutputs;
    options.constantInputs = constantInputs;
    return importONNXFile(path, context, options);
  }
  if (!constantInputs.empty()) {
    emitError(FileLineColLoc::get(&context, path, 0, 0))
        << path << ": constant inputs are for ONNX models; an MLIR model's constants are in its text";
    return nullptr;
  }
  if (debugOutputs) {
    emitError(FileLineColLoc::get(&context, path, 0, 0))
        << path << ": debug outputs (each ONNX node's output) are for ONNX models, not MLIR";
    return nullptr;
  }
  if (!inputShapes.empty()) {
    emitError(FileLineColLoc::get(&context, path, 0, 0))
        << path << ": --input-shape is for ONNX models; an MLIR model's types are in its text";
    return nullptr;
  }
  DialectRegistry registry;
  registerModelDialects(registry);
  context.appendDialectRegistry(registry);
  std::string text;
  Status s = tx8::ref::readBoundedFile(path.str(), tx8::ref::kMaxModelFileBytes, "the model", text);
  if (!s.ok()) {
    emitError(FileLineColLoc::get(&context, path, 0, 0)) << s.message();
    return nullptr;
  }
  OwningOpRef<ModuleOp> module = parseModelText(text, context, path);
  if (!module)
    return nullptr;
  bool hasTosa = false;
  module->walk([&](Operation *op) {
    if (isa<tosa::TosaDialect>(op->getDialect()))
      hasTosa = true;
  });
  if (hasTosa) {
    PassManager pm(&context);
    pm.addNestedPass<func::FuncOp>(createConvertTosaToTx8be());
    if (failed(pm.run(*module)))
      return nullptr;
  }
  return module;
}

func::FuncOp tx8be::getEntryFunction(ModuleOp module) {
  func::FuncOp only, main;
  int count = 0;
  for (auto f : module.getOps<func::FuncOp>()) {
    ++count;
    only = f;
    if (f.getName() == "main")
      main = f;
  }
  func::FuncOp entry = main ? main : count == 1 ? only : func::FuncOp();
  if (!entry) {
    emitError(module.getLoc()) << "the module has " << count << " functions and none is @main";
    return nullptr;
  }
  if (entry.getNumResults() == 0) {
    entry.emitError() << "@" << entry.getName() << " has no results: nothing to compute";
    return nullptr;
  }
  return entry;
}

static std::vector<TensorSpec> specs(func::FuncOp func, bool results) {
  std::vector<TensorSpec> out;
  unsigned n = results ? func.getNumResults() : func.getNumArguments();
  for (unsigned i = 0; i < n; ++i) {
    auto name = results ? func.getResultAttrOfType<StringAttr>(i, getIONameAttrName())
                        : func.getArgAttrOfType<StringAttr>(i, getIONameAttrName());
    Type type = results ? func.getResultTypes()[i] : func.getArgumentTypes()[i];
    out.push_back({name ? name.str() : (results ? "output_" : "input_") + std::to_string(i),
                   dyn_cast<RankedTensorType>(type)});
  }
  return out;
}

std::vector<TensorSpec> tx8be::getInputSpecs(func::FuncOp func) { return specs(func, false); }
std::vector<TensorSpec> tx8be::getOutputSpecs(func::FuncOp func) { return specs(func, true); }

Status tx8be::checkTensorMatches(const Tensor &t, const TensorSpec &spec, const std::string &source) {
  if (!spec.type)
    return Status::error("input '" + spec.name + "' is not a ranked tensor");
  auto dtype = detail::refDTypeOf(spec.type);
  if (!dtype || *dtype != t.dtype || ArrayRef<int64_t>(t.shape) != spec.type.getShape())
    return Status::error(source + ": input '" + spec.name + "' is a " + tx8::ref::dtypeName(t.dtype) + " tensor of shape " +
                         tx8::ref::shapeToString(t.shape) + ", the model expects " + debugString(spec.type));
  return Status();
}

static bool exists(const std::string &path) { return llvm::sys::fs::exists(path); }

Status tx8be::readInputs(const std::vector<TensorSpec> &specs, const std::vector<std::string> &nameEqualsFile,
                         const std::string &inputsDir, std::vector<Tensor> &inputs) {
  inputs.assign(specs.size(), Tensor());
  std::vector<std::string> files(specs.size());
  if (!inputsDir.empty()) {
    if (!llvm::sys::fs::is_directory(inputsDir))
      return Status::error(inputsDir + ": not a directory");
    for (size_t i = 0; i < specs.size(); ++i) {
      std::string numbered = inputsDir + "/input_" + std::to_string(i) + ".pb";
      std::string npy = inputsDir + "/" + specs[i].name + ".npy", pb = inputsDir + "/" + specs[i].name + ".pb";
      files[i] = exists(numbered) ? numbered : exists(npy) ? npy : exists(pb) ? pb : "";
      if (files[i].empty())
        return Status::error(inputsDir + ": no file for input '" + specs[i].name + "' (input_" + std::to_string(i) +
                             ".pb, " + specs[i].name + ".npy or " + specs[i].name + ".pb)");
    }
  }
  for (const std::string &arg : nameEqualsFile) {
    size_t eq = arg.find('=');
    if (eq == std::string::npos)
      return Status::error("--input " + arg + ": expected NAME=FILE");
    std::string name = arg.substr(0, eq);
    auto it = std::find_if(specs.begin(), specs.end(), [&](const TensorSpec &s) { return s.name == name; });
    if (it == specs.end()) {
      std::string known;
      for (const auto &s : specs)
        known += (known.empty() ? "'" : ", '") + s.name + "'";
      return Status::error("--input " + arg + ": the model has no input '" + name + "' (inputs: " + known + ")");
    }
    if (!files[it - specs.begin()].empty())
      return Status::error("--input " + arg + ": input '" + name + "' is given twice");
    files[it - specs.begin()] = arg.substr(eq + 1);
  }
  for (size_t i = 0; i < specs.size(); ++i) {
    if (files[i].empty())
      return Status::error("no value given for input '" + specs[i].name + "' (--input " + specs[i].name + "=FILE)");
    Status s = tx8::ref::readTensorFile(files[i], inputs[i]);
    if (!s.ok())
      return s;
    s = checkTensorMatches(inputs[i], specs[i], files[i]);
    if (!s.ok())
      return s;
  }
  return Status();
}

Status tx8be::writeOutputs(const std::vector<TensorSpec> &specs, const std::vector<Tensor> &outputs,
                           const std::string &outDir, std::vector<std::string> *paths) {
  if (std::error_code ec = llvm::sys::fs::create_directories(outDir))
    return Status::error(outDir + ": cannot create: " + ec.message());
  std::set<std::string> used;
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::string name = i < specs.size() ? specs[i].name : "output_" + std::to_string(i);
    for (char &c : name)
      if (!llvm::isAlnum(c) && c != '.' && c != '_' && c != '-')
        c = '_';
    if (name.empty() || name[0] == '.' || !used.insert(name).second)
      name = "output_" + std::to_string(i);
    std::string path = outDir + "/" + name + ".npy";
    Status s = tx8::ref::writeNpy(path, outputs[i]);
    if (!s.ok())
      return s;
    if (paths)
      paths->push_back(path);
  }
  return Status();
}

std::vector<std::string> tx8be::listTestDataSets(const std::string &testDir) {
  std::vector<std::string> dirs;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(testDir, ec), end; it != end && !ec; it.increment(ec))
    if (llvm::sys::path::filename(it->path()).starts_with("test_data_set_") && llvm::sys::fs::is_directory(it->path()))
      dirs.push_back(it->path());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

Status tx8be::readNumberedTensors(const std::string &dir, const std::string &prefix, std::vector<Tensor> &tensors,
                                  std::vector<std::string> *names) {
  tensors.clear();
  if (names)
    names->clear();
  for (int i = 0;; ++i) {
    std::string path = dir + "/" + prefix + "_" + std::to_string(i) + ".pb";
    if (!exists(path))
      return Status();
    Tensor t;
    std::string name;
    Status s = tx8::ref::readTensorProto(path, t, &name);
    if (!s.ok())
      return s;
    tensors.push_back(std::move(t));
    if (names)
      names->push_back(std::move(name));
  }
}
