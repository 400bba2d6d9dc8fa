//===- tx8-aot.cpp - The tx8 ahead-of-time compiler driver ----------------===//
//
//   tx8-aot import MODEL [-o FILE]                       the model as tx8be MLIR
//   tx8-aot reference MODEL (--input NAME=FILE ... | --inputs-dir DIR) --out DIR
//                                                         run the golden model, write .npy outputs
//   tx8-aot test-onnx TESTDIR [--target reference]        run an ONNX backend test directory
//
// Exit codes: 0 success; 1 the model, an input or the run failed (one-line error on stderr);
// 2 bad command line; 3 test-onnx: an output differs from the expected one.
//
//===----------------------------------------------------------------------===//
#include "tx8/Driver/Model.h"
#include "tx8/Interpreter/ReferenceRunner.h"
#include "tx8/Reference/Compare.h"
#include "tx8/Reference/TensorIO.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;
namespace cl = llvm::cl;

namespace {

enum ExitCode { kOk = 0, kFailed = 1, kUsage = 2, kMismatch = 3 };

constexpr const char *kVersion = "0.1.0";

cl::OptionCategory category("tx8-aot options");

cl::SubCommand importCmd("import", "Import a model and print it as tx8be MLIR");
cl::SubCommand referenceCmd("reference", "Run a model on the host reference (golden) model; write .npy outputs");
cl::SubCommand testOnnxCmd("test-onnx", "Run an ONNX backend test directory and compare with its expected outputs");

cl::opt<std::string> importModel(cl::Positional, cl::desc("MODEL"), cl::Required, cl::sub(importCmd));
cl::opt<std::string> importOut("o", cl::desc("Output file (default: stdout)"), cl::value_desc("FILE"), cl::init("-"),
                               cl::sub(importCmd), cl::cat(category));

cl::opt<bool> importLocs("print-locs", cl::desc("Print each op's location (ONNX node name and op_type)"),
                         cl::sub(importCmd), cl::cat(category));

cl::opt<std::string> refModel(cl::Positional, cl::desc("MODEL"), cl::Required, cl::sub(referenceCmd));
cl::list<std::string> refInputs("input", cl::desc("An input tensor (.npy or TensorProto .pb)"),
                                cl::value_desc("NAME=FILE"), cl::sub(referenceCmd), cl::cat(category));
cl::opt<std::string> refInputsDir("inputs-dir",
                                  cl::desc("Directory with input_<k>.pb (ONNX test layout) or <name>.npy files"),
                                  cl::value_desc("DIR"), cl::sub(referenceCmd), cl::cat(category));
cl::opt<std::string> refOut("out", cl::desc("Directory for the outputs (<name>.npy)"), cl::value_desc("DIR"),
                            cl::Required, cl::sub(referenceCmd), cl::cat(category));

cl::opt<std::string> testDir(cl::Positional, cl::desc("TESTDIR (model.onnx + test_data_set_*)"), cl::Required,
                             cl::sub(testOnnxCmd));
enum class Target { Reference };
cl::opt<Target> testTarget("target", cl::desc("Where to run"),
                           cl::values(clEnumValN(Target::Reference, "reference", "the host reference model")),
                           cl::init(Target::Reference), cl::sub(testOnnxCmd), cl::cat(category));
cl::opt<double> testRtol("rtol", cl::desc("Relative tolerance"), cl::init(1e-3), cl::sub(testOnnxCmd),
                         cl::cat(category));
cl::opt<double> testAtol("atol", cl::desc("Absolute tolerance"), cl::init(1e-7), cl::sub(testOnnxCmd),
                         cl::cat(category));

/// Prints diagnostics as "tx8-aot: error: ...". Errors about a whole file carry their file in the message,
/// so the location is only printed when it says more (an op's location).
void installDiagnosticPrinter(MLIRContext &context) {
  context.getDiagEngine().registerHandler([](Diagnostic &d) {
    const char *kind = d.getSeverity() == DiagnosticSeverity::Error     ? "error"
                       : d.getSeverity() == DiagnosticSeverity::Warning ? "warning"
                                                                        : "note";
    llvm::errs() << "tx8-aot: " << kind << ": ";
    auto file = dyn_cast<FileLineColLoc>(d.getLocation());
    if (!file || file.getLine() != 0)
      llvm::errs() << d.getLocation() << ": ";
    llvm::errs() << d.str() << "\n";
    for (const Diagnostic &note : d.getNotes())
      llvm::errs() << "  note: " << note.getLocation() << ": " << note.str() << "\n";
    return success();
  });
}

int fail(const std::string &message) {
  llvm::errs() << "tx8-aot: error: " << message << "\n";
  return kFailed;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int runImport(MLIRContext &context) {
  OwningOpRef<ModuleOp> module = tx8be::loadModel(importModel, context);
  if (!module)
    return kFailed;
  std::string error;
  auto out = openOutputFile(importOut, &error);
  if (!out)
    return fail(error);
  OpPrintingFlags flags;
  if (importLocs)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  module->print(out->os(), flags);
  out->os() << "\n";
  out->keep();
  return kOk;
}

int runReferenceCmd(MLIRContext &context) {
  if (!refInputs.empty() && !refInputsDir.empty())
    return fail("give either --input NAME=FILE ... or --inputs-dir DIR, not both");
  OwningOpRef<ModuleOp> module = tx8be::loadModel(refModel, context);
  if (!module)
    return kFailed;
  func::FuncOp func = tx8be::getEntryFunction(*module);
  if (!func)
    return kFailed;
  std::vector<tx8::ref::Tensor> inputs, outputs;
  auto inSpecs = tx8be::getInputSpecs(func), outSpecs = tx8be::getOutputSpecs(func);
  tx8::ref::Status s = tx8be::readInputs(inSpecs, refInputs, refInputsDir, inputs);
  if (!s.ok())
    return fail(s.message());
  std::string error;
  auto start = std::chrono::steady_clock::now();
  if (failed(tx8be::runReference(func, inputs, outputs, error)))
    return fail(error);
  double seconds = secondsSince(start);
  std::vector<std::string> paths;
  s = tx8be::writeOutputs(outSpecs, outputs, refOut, &paths);
  if (!s.ok())
    return fail(s.message());
  for (size_t i = 0; i < paths.size(); ++i)
    llvm::outs() << "output '" << outSpecs[i].name << "' " << tx8::ref::dtypeName(outputs[i].dtype) << " "
                 << tx8::ref::shapeToString(outputs[i].shape) << " -> " << paths[i] << "\n";
  llvm::outs() << llvm::format("reference run: %.3f s\n", seconds);
  return kOk;
}

int runTestOnnx(MLIRContext &context) {
  std::string modelPath = testDir + "/model.onnx";
  OwningOpRef<ModuleOp> module = tx8be::loadModel(modelPath, context);
  if (!module)
    return kFailed;
  func::FuncOp func = tx8be::getEntryFunction(*module);
  if (!func)
    return kFailed;
  auto inSpecs = tx8be::getInputSpecs(func), outSpecs = tx8be::getOutputSpecs(func);
  std::vector<std::string> sets = tx8be::listTestDataSets(testDir);
  if (sets.empty())
    return fail(testDir + ": no test_data_set_* directories");
  tx8::ref::Tolerance tol{testRtol, testAtol};
  int failures = 0;
  for (const std::string &set : sets) {
    std::vector<tx8::ref::Tensor> inputs, expected, outputs;
    tx8::ref::Status s = tx8be::readNumberedTensors(set, "input", inputs);
    if (s.ok())
      s = tx8be::readNumberedTensors(set, "output", expected);
    for (size_t i = 0; s.ok() && i < inputs.size() && i < inSpecs.size(); ++i)
      s = tx8be::checkTensorMatches(inputs[i], inSpecs[i], set + "/input_" + std::to_string(i) + ".pb");
    if (s.ok() && (inputs.size() != inSpecs.size() || expected.size() != outSpecs.size()))
      s = tx8::ref::Status::error(set + ": " + std::to_string(inputs.size()) + " inputs and " +
                                  std::to_string(expected.size()) + " outputs, the model has " +
                                  std::to_string(inSpecs.size()) + " and " + std::to_string(outSpecs.size()));
    if (!s.ok())
      return fail(s.message());
    std::string error;
    if (failed(tx8be::runReference(func, inputs, outputs, error)))
      return fail(set + ": " + error);
    std::string name = llvm::sys::path::filename(set).str();
    for (size_t i = 0; i < expected.size(); ++i) {
      tx8::ref::Comparison c = tx8::ref::compare(outputs[i], expected[i], tol);
      failures += !c.ok;
      llvm::outs() << (c.ok ? "PASS " : "FAIL ") << name << " output '" << outSpecs[i].name << "': " << c.message
                   << "\n";
    }
  }
  llvm::outs() << (failures ? "FAILED" : "PASSED") << ": " << testDir << " on reference (" << sets.size()
               << " data set(s))\n";
  return failures ? kMismatch : kOk;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::SetVersionPrinter([](llvm::raw_ostream &os) { os << "tx8-aot " << kVersion << " (MLIR 19)\n"; });
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(argc, argv, "tx8 ahead-of-time compiler\n", &llvm::errs()))
    return kUsage;

  MLIRContext context;
  DialectRegistry registry;
  tx8be::registerModelDialects(registry);
  context.appendDialectRegistry(registry);
  installDiagnosticPrinter(context);

  if (importCmd)
    return runImport(context);
  if (referenceCmd)
    return runReferenceCmd(context);
  if (testOnnxCmd)
    return runTestOnnx(context);
  llvm::errs() << "tx8-aot: error: no command given (import, reference, test-onnx); see tx8-aot --help\n";
  return kUsage;
}
