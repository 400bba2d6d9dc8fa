//===- tx8-aot.cpp - The tx8 ahead-of-time compiler driver ----------------===//
//
//   tx8-aot import MODEL [-o FILE]                       the model as tx8be MLIR
//   tx8-aot reference MODEL (--input NAME=FILE ... | --inputs-dir DIR) --out DIR
//                                                         run the golden model, write .npy outputs
//   tx8-aot compile MODEL -o DIR [--target cmodel|riscv] [--hw FILE] [--precision fp32|tf32|bf16|fp16]
//                                                         compile to a firmware bundle (main.c, consts.bin, ...)
//   tx8-aot run DIR [--target cmodel|riscv] (--input NAME=FILE ... | --inputs-dir DIR) --out DIR
//                                                         build the bundle, run it, write .npy outputs
//   tx8-aot test-onnx TESTDIR [--target reference|cmodel|riscv] [--constant-input NAME ...]
//                                                         run an ONNX backend test directory
//   tx8-aot memory DIR                                    a bundle's SPM, DDR and file sizes on one page
//   tx8-aot diff MODEL (--input NAME=FILE ... | --inputs-dir DIR) [--target cmodel|riscv] [--out DIR]
//                                                         every ONNX node's output, device against reference
//   tx8-aot report DIR --trace FILE -o FILE.html          a run of the bundle as one HTML page (per-group cycles
//                                                         against the estimate, roofline, engines, memory, graph)
//
// compile shows its insides LLVM-style: --mlir-timing, --mlir-print-ir-after-all, --mlir-print-ir-after=PASS,
// --mlir-pass-statistics (on stderr), --dump-dir DIR (the module after each pass, a file each), --print-memory;
// --quiet prints nothing but diagnostics and what these ask for. Steps that take over a second print a
// progress line on stderr when it is a terminal (TX8_PROGRESS forces them: tests).
//
// compile and test-onnx take --precision: the format the NE reads an fp32 model's conv/gemm inputs in (fp32
// accumulation; default fp32). test-onnx then compares with a tolerance tied to the format (precisionTolerance).
//
// import, reference, compile and test-onnx take --input-shape NAME=D0xD1x... (repeatable): the extents of an ONNX
// graph input whose shape is symbolic (without it a symbolic batch dim 0 is compiled as 1, with a warning).
//
// compile --debug-outputs makes @main also return every ONNX node's output (what diff compares); the hidden,
// test-only --test-inject-error=NODE (compile, diff) makes the bundle perturb NODE's output on the device.
//
// compile, run, diff and report are front ends of the public API (tx8/Api/: what the Python module calls too): this
// file parses the command line, prints what the API returns and maps its errors to exit codes.
//
// Exit codes: 0 success; 1 the model, an input, the build or the run failed (one-line error on stderr);
// 2 bad command line; 3 test-onnx: an output differs from the expected one; diff: a node's output is beyond the
// tolerance.
//
//===----------------------------------------------------------------------===//
#include "tx8/Api/Bundle.h"
#include "tx8/Api/Compile.h"
#include "tx8/Api/Context.h"
#include "tx8/Api/Diff.h"
#include "tx8/Driver/Compile.h"
#include "tx8/Driver/Diff.h"
#include "tx8/Driver/Model.h"
#include "tx8/Interpreter/ReferenceRunner.h"
#include "tx8/Reference/Compare.h"
#include "tx8/Reference/TensorIO.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <optional>

using namespace mlir;
namespace cl = llvm::cl;

namespace {

enum ExitCode { kOk = 0, kFailed = 1, kUsage = 2, kMismatch = 3 };

constexpr const char *kVersion = "0.1.0";

cl::OptionCategory category("tx8-aot options");

cl::SubCommand importCmd("import", "Import a model and print it as tx8be MLIR");
cl::SubCommand referenceCmd("reference", "Run a model on the host reference (golden) model; write .npy outputs");
cl::SubCommand compileCmd("compile", "Compile a model into a firmware bundle directory");
cl::SubCommand runCmd("run", "Build a bundle for a target, run it on inputs and write .npy outputs");
cl::SubCommand testOnnxCmd("test-onnx", "Run an ONNX backend test directory and compare with its expected outputs");
cl::SubCommand memoryCmd("memory", "Print a bundle's memory use: SPM peak per tile, DDR, file sizes");
cl::SubCommand diffCmd("diff", "Compile an ONNX model with every node's output, run it and the reference on the "
                               "same inputs, and compare each node's output (the first beyond tolerance marked)");
cl::SubCommand reportCmd("report", "Write a run of a bundle as one self-contained HTML page: per-group cycles "
                                   "against the estimate, roofline, engine utilisation, SPM and DDR over time, graph");

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

cl::opt<std::string> compileModel(cl::Positional, cl::desc("MODEL"), cl::Required, cl::sub(compileCmd));
cl::opt<std::string> compileOut("o", cl::desc("Bundle directory to write (replaced if it holds an older bundle)"),
                                cl::value_desc("DIR"), cl::Required, cl::sub(compileCmd), cl::cat(category));
cl::opt<std::string> compileTarget("target", cl::desc("Target recorded in the bundle: cmodel or riscv"),
                                   cl::init("cmodel"), cl::sub(compileCmd), cl::cat(category));
cl::opt<std::string> compileHw("hw", cl::desc("JSON file of hardware config fields to change"),
                               cl::value_desc("FILE"), cl::sub(compileCmd), cl::cat(category));
cl::opt<std::string> compileDumpIR("dump-ir", cl::desc("Also write the module after the backend pipeline"),
                                   cl::value_desc("FILE"), cl::sub(compileCmd), cl::cat(category));
cl::opt<bool> compileTiming("mlir-timing",
                            cl::desc("Print on stderr the time of each step of the compile and of each pass"),
                            cl::sub(compileCmd), cl::cat(category));
cl::opt<bool> compilePrintIRAfterAll("mlir-print-ir-after-all", cl::desc("Print on stderr the module after every pass"),
                                     cl::sub(compileCmd), cl::cat(category));
cl::list<std::string> compilePrintIRAfter(
    "mlir-print-ir-after",
    cl::desc("Print on stderr the module after the pass PASS, e.g. tx8be-group-cost (repeatable, or comma-separated)"),
    cl::value_desc("PASS"), cl::CommaSeparated, cl::sub(compileCmd), cl::cat(category));
cl::opt<bool> compileStatistics("mlir-pass-statistics",
                                cl::desc("Print on stderr what the passes counted (BatchNorms folded, groups merged, "
                                         "groups planned, ...)"),
                                cl::sub(compileCmd), cl::cat(category));
cl::opt<std::string> compileDumpDir("dump-dir",
                                    cl::desc("Write the module after each pass to DIR/NN_<pass>.mlir, numbered in "
                                             "pipeline order (earlier NN_*.mlir files there are removed)"),
                                    cl::value_desc("DIR"), cl::sub(compileCmd), cl::cat(category));
cl::opt<bool> compilePrintMemory("print-memory",
                                 cl::desc("Print the bundle's memory use: SPM peak per tile, DDR, file sizes"),
                                 cl::sub(compileCmd), cl::cat(category));
cl::opt<bool> compileDebugOutputs(
    "debug-outputs",
    cl::desc("Also store and return every ONNX node's output (after the model's outputs, in topological order, "
             "named by their tensors; for tx8-aot diff); every node output then goes to DDR (no fusion or "
             "BatchNorm folding across them)"),
    cl::sub(importCmd), cl::sub(compileCmd), cl::cat(category));
cl::opt<bool> compileQuiet("quiet",
                           cl::desc("Print nothing but errors, warnings and what other options ask for (no summary "
                                    "line, no progress)"),
                           cl::sub(compileCmd), cl::cat(category));

cl::opt<std::string> memoryDir(cl::Positional, cl::desc("BUNDLE_DIR"), cl::Required, cl::sub(memoryCmd));

cl::opt<std::string> reportDir(cl::Positional, cl::desc("BUNDLE_DIR"), cl::Required, cl::sub(reportCmd));
cl::opt<std::string> reportTrace("trace",
                                 cl::desc("A trace of a run of the bundle (tx8-aot run --trace); without it report "
                                          "runs the bundle on --input/--inputs-dir (default: zeros) with a trace"),
                                 cl::value_desc("FILE"), cl::sub(reportCmd), cl::cat(category));
cl::opt<std::string> reportOut("o", cl::desc("The HTML file to write"), cl::value_desc("FILE"), cl::Required,
                               cl::sub(reportCmd), cl::cat(category));

cl::opt<std::string> runDir(cl::Positional, cl::desc("BUNDLE_DIR"), cl::Required, cl::sub(runCmd));
cl::opt<std::string> runTarget("target", cl::desc("cmodel or riscv (default: the bundle's)"), cl::sub(runCmd), cl::sub(reportCmd),
                               cl::cat(category));
cl::list<std::string> runInputs("input", cl::desc("An input tensor (.npy or TensorProto .pb)"),
                                cl::value_desc("NAME=FILE"), cl::sub(runCmd), cl::sub(reportCmd), cl::cat(category));
cl::opt<std::string> runInputsDir("inputs-dir",
                                  cl::desc("Directory with input_<k>.pb (ONNX test layout) or <name>.npy files"),
                                  cl::value_desc("DIR"), cl::sub(runCmd), cl::sub(reportCmd), cl::cat(category));
cl::opt<std::string> runOut("out", cl::desc("Directory for the outputs (<name>.npy)"), cl::value_desc("DIR"),
                            cl::Required, cl::sub(runCmd), cl::cat(category));

cl::opt<std::string> traceArg("trace",
                              cl::desc("Write the run's timeline as a Chrome / Perfetto trace (JSON): a process per "
                                       "tile, a track per engine (test-onnx: of the first data set)"),
                              cl::value_desc("FILE"), cl::sub(runCmd), cl::sub(testOnnxCmd), cl::sub(diffCmd),
                              cl::cat(category));

cl::opt<std::string> testDir(cl::Positional, cl::desc("TESTDIR (model.onnx + test_data_set_*)"), cl::Required,
                             cl::sub(testOnnxCmd));
enum class Target { Reference, Cmodel, Riscv };
cl::opt<Target> testTarget("target", cl::desc("Where to run"),
                           cl::values(clEnumValN(Target::Reference, "reference", "the host reference model"),
                                      clEnumValN(Target::Cmodel, "cmodel", "compile, run on the chip model (x86)"),
                                      clEnumValN(Target::Riscv, "riscv", "compile, run as RISC-V firmware under QEMU")),
                           cl::init(Target::Reference), cl::sub(testOnnxCmd), cl::cat(category));
cl::list<std::string> testConstantInputs(
    "constant-input",
    cl::desc("Compile graph input NAME as the constant its test data gives it (the same in every data set): what a "
             "model holds constant but ONNX's node tests feed as an input, e.g. Dropout's ratio and training_mode"),
    cl::value_desc("NAME"), cl::sub(testOnnxCmd), cl::cat(category));
cl::opt<std::string> testHw("hw", cl::desc("cmodel/riscv: JSON file of hardware config fields to change"),
                            cl::value_desc("FILE"), cl::sub(testOnnxCmd), cl::sub(diffCmd), cl::cat(category));
cl::opt<std::string> testKeep("keep-bundle", cl::desc("cmodel/riscv: write the bundle here and keep it"),
                              cl::value_desc("DIR"), cl::sub(testOnnxCmd), cl::sub(diffCmd), cl::cat(category));
cl::opt<double> testRtol("rtol",
                         cl::desc("Relative tolerance: |actual - expected| <= atol + rtol * |expected| (default 1e-3)"),
                         cl::init(1e-3), cl::sub(testOnnxCmd), cl::sub(diffCmd), cl::cat(category));
cl::opt<double> testAtol("atol", cl::desc("Absolute tolerance (default 1e-7)"), cl::init(1e-7), cl::sub(testOnnxCmd),
                         cl::sub(diffCmd), cl::cat(category));

cl::opt<std::string> diffModel(cl::Positional, cl::desc("MODEL (ONNX)"), cl::Required, cl::sub(diffCmd));
cl::list<std::string> diffInputs("input", cl::desc("An input tensor (.npy or TensorProto .pb)"),
                                 cl::value_desc("NAME=FILE"), cl::sub(diffCmd), cl::cat(category));
cl::opt<std::string> diffInputsDir("inputs-dir",
                                   cl::desc("Directory with input_<k>.pb (ONNX test layout) or <name>.npy files"),
                                   cl::value_desc("DIR"), cl::sub(diffCmd), cl::cat(category));
cl::opt<std::string> diffTarget("target", cl::desc("cmodel or riscv"), cl::init("cmodel"), cl::sub(diffCmd),
                                cl::cat(category));
cl::opt<std::string> diffOut("out",
                             cl::desc("Write DIR/device/<tensor>.npy, DIR/reference/<tensor>.npy and DIR/diff.tsv"),
                             cl::value_desc("DIR"), cl::sub(diffCmd), cl::cat(category));
enum class TableFormat { Text, Tsv };
cl::opt<TableFormat> diffFormat("format", cl::desc("How the table is printed"),
                                cl::values(clEnumValN(TableFormat::Text, "text", "aligned columns (default)"),
                                           clEnumValN(TableFormat::Tsv, "tsv", "tab-separated, the summary on stderr")),
                                cl::init(TableFormat::Text), cl::sub(diffCmd), cl::cat(category));

cl::opt<std::string> precisionArg(
    "precision",
    cl::desc("fp32 | tf32 | bf16 | fp16: the format the NE reads the conv/gemm inputs of an fp32 model in, with "
             "fp32 accumulation (default fp32)"),
    cl::value_desc("FORMAT"), cl::init("fp32"), cl::sub(compileCmd), cl::sub(testOnnxCmd), cl::sub(diffCmd),
    cl::cat(category));

cl::opt<unsigned> tilesArg("tiles",
                           cl::desc("Tiles the plan may use (1..16: a rectangle of the chip's mesh, e.g. 1, 2, 4, 8, 16; "
                                    "default: every tile of the chip)"),
                           cl::value_desc("N"), cl::init(0), cl::sub(compileCmd), cl::sub(testOnnxCmd),
                           cl::sub(diffCmd), cl::cat(category));
cl::opt<int> optSearchArg("opt-search",
                          cl::desc("How much of the sharding space the planner searches: 0 (first fit), 1 (the "
                                   "two best levels, default), 2 (all)"),
                          cl::value_desc("0|1|2"), cl::init(1), cl::sub(compileCmd), cl::sub(testOnnxCmd),
                          cl::sub(diffCmd), cl::cat(category));
cl::opt<bool> swPipelineArg("sw-pipeline",
                            cl::desc("Overlap each step's DMA with the compute of its neighbours (default true)"),
                            cl::init(true), cl::sub(compileCmd), cl::sub(testOnnxCmd), cl::sub(diffCmd),
                            cl::cat(category));

cl::opt<bool> prefetchWeightsArg("prefetch-weights",
                                 cl::desc("Copy a group's constant boxes (weights, biases) into SPM during the group "
                                          "before it (default true)"),
                                 cl::init(true), cl::sub(compileCmd), cl::sub(testOnnxCmd), cl::sub(diffCmd),
                                 cl::cat(category));

cl::opt<bool> transposedLoadsArg("transposed-loads",
                                 cl::desc("Read a transposed tensor (an attention's heads) through the loads of the "
                                          "groups that read it, not through a transpose group (default true)"),
                                 cl::init(true), cl::sub(compileCmd), cl::sub(testOnnxCmd), cl::sub(diffCmd),
                                 cl::cat(category));

cl::opt<bool> blockWeightsArg("block-weights",
                              cl::desc("Store a weight the tiles read by column blocks block by block, each box one "
                                       "DDR run (default true)"),
                              cl::init(true), cl::sub(compileCmd), cl::sub(testOnnxCmd), cl::sub(diffCmd),
                              cl::cat(category));

cl::opt<bool> fuseArg("fuse",
                      cl::desc("Run an op and the elementwise ops after it as one group, the intermediate values in "
                               "SPM (default true)"),
                      cl::init(true), cl::sub(compileCmd), cl::sub(testOnnxCmd), cl::sub(diffCmd),
                      cl::cat(category));

cl::opt<bool> profileArg("profile", cl::desc("main.c prints each group's simulated cycles"), cl::init(false),
                         cl::sub(compileCmd), cl::sub(testOnnxCmd), cl::cat(category));

cl::list<std::string> inputShapeArgs(
    "input-shape",
    cl::desc("Extents of an ONNX graph input with symbolic dims (repeatable; default: a symbolic batch dim 0 is 1)"),
    cl::value_desc("NAME=D0xD1x..."), cl::sub(importCmd), cl::sub(referenceCmd), cl::sub(compileCmd),
    cl::sub(testOnnxCmd), cl::sub(diffCmd), cl::cat(category));

cl::opt<std::string> testInjectError(
    "test-inject-error",
    cl::desc("TEST ONLY: the bundle perturbs element 0 of node NODE's output in DDR right after the group "
             "computing it, as a wrong kernel would (compile: needs --debug-outputs); its results are wrong"),
    cl::value_desc("NODE"), cl::Hidden, cl::sub(compileCmd), cl::sub(diffCmd), cl::cat(category));

/// Prints a diagnostic as "tx8-aot: error: WHERE: ...", one line each (notes indented below).
void printDiagnostic(const tx8::api::Diagnostic &d) {
  llvm::errs() << "tx8-aot: " << tx8::api::severityName(d.severity) << ": " << d.line << "\n";
  for (const std::string &line : d.more)
    llvm::errs() << line << "\n";
}

int fail(const std::string &message) {
  llvm::errs() << "tx8-aot: error: " << message << "\n";
  return kFailed;
}

/// A command line that cannot be right whatever the files hold (exit 2).
int usage(const std::string &message) {
  llvm::errs() << "tx8-aot: error: " << message << "\n";
  return kUsage;
}

/// An API error: printed unless the diagnostics said it already; exit 2 for a usage error, else 1.
int apiError(const tx8::api::Status &s) {
  if (!s.reported())
    llvm::errs() << "tx8-aot: error: " << s.message() << "\n";
  return s.kind() == tx8::api::ErrorKind::Usage ? kUsage : kFailed;
}

/// The inputs a command is given: --input NAME=FILE (each name once) or --inputs-dir, not both. 0 if fine,
/// else the exit code after the error.
int checkInputArgs(const cl::list<std::string> &inputs, const std::string &inputsDir) {
  tx8::api::Status s = tx8::api::checkInputFiles({inputs.begin(), inputs.end()}, inputsDir);
  return s.ok() ? kOk : apiError(s);
}

/// The parsed --input-shape values (checkInputShapes fills them).
std::vector<tx8be::InputShape> inputShapes;

/// --input-shape: well formed, each input once, and for an ONNX model. 0 if fine, else the exit code after the error.
int checkInputShapes(const std::string &model) {
  tx8::ref::Status s = tx8be::parseInputShapes(inputShapeArgs, inputShapes);
  if (!s.ok())
    return usage(s.message());
  if (!inputShapes.empty() && tx8be::isMLIRModel(model))
    return usage("--input-shape is for ONNX models; " + model + " is MLIR, whose types are in its text");
  return 0;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int runImport(MLIRContext &context) {
  if (int rc = checkInputShapes(importModel))
    return rc;
  OwningOpRef<ModuleOp> module = tx8be::loadModel(importModel, context, inputShapes, compileDebugOutputs);
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
  if (int rc = checkInputArgs(refInputs, refInputsDir))
    return rc;
  if (int rc = checkInputShapes(refModel))
    return rc;
  OwningOpRef<ModuleOp> module = tx8be::loadModel(refModel, context, inputShapes);
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

/// The compile options the command line sets (compile, test-onnx and diff share the plan's).
tx8::api::CompileOptions compileOptions(const std::string &target) {
  tx8::api::CompileOptions options;
  options.target = target;
  options.precision = precisionArg;
  if (tilesArg.getNumOccurrences())
    options.tiles = tilesArg;
  options.optSearch = optSearchArg;
  options.swPipeline = swPipelineArg;
  options.fuse = fuseArg;
  options.prefetchWeights = prefetchWeightsArg;
  options.blockWeights = blockWeightsArg;
  options.transposedLoads = transposedLoadsArg;
  options.profile = profileArg;
  options.testInjectError = testInjectError;
  options.inputShapes = inputShapeArgs;
  return options;
}

/// Progress lines for the steps of a compile ("tx8-aot: running the passes... 1.4 s" on stderr), printed as a
/// step ends if it took at least the least time returned: when someone watches (stderr a terminal: 1 s), never
/// with --quiet. The environment variable TX8_PROGRESS forces them on whatever stderr is (a test's is a pipe); its
/// value is that least time in seconds (0: every step; not a number: 1). None: no lines.
std::optional<double> progressSeconds(bool quiet) {
  if (quiet)
    return std::nullopt;
  if (const char *forced = std::getenv("TX8_PROGRESS"); forced && *forced) {
    double seconds = 1;
    if (llvm::StringRef(forced).getAsDouble(seconds) || seconds < 0) // getAsDouble: true on error
      seconds = 1;
    return seconds;
  }
  if (llvm::sys::Process::StandardErrIsDisplayed())
    return 1.0;
  return std::nullopt;
}

bool validTarget(const std::string &t) { return t == "cmodel" || t == "riscv"; }

/// --precision names a format (the pass says which are implemented).
bool validPrecision(const std::string &p) { return p == "fp32" || p == "tf32" || p == "bf16" || p == "fp16"; }

/// --tiles and --opt-search in range (whether the tiles make a rectangle of the mesh depends on --hw: the
/// compiler says).
int checkPlanOptions() {
  if (tilesArg.getNumOccurrences() && (tilesArg < 1 || tilesArg > 16))
    return usage("--tiles " + std::to_string(tilesArg) + ": expected 1 to 16");
  if (optSearchArg < 0 || optSearchArg > 2)
    return usage("--opt-search " + std::to_string(optSearchArg) + ": expected 0, 1 or 2");
  return kOk;
}

int runCompile() {
  tx8::api::CompileOptions options = compileOptions(compileTarget);
  options.hwFile = compileHw;
  options.debugOutputs = compileDebugOutputs;
  options.dumpIR = compileDumpIR;
  options.printIRAfterAll = compilePrintIRAfterAll;
  options.printIRAfter = compilePrintIRAfter;
  options.dumpDir = compileDumpDir;
  options.statistics = compileStatistics;
  // --mlir-timing: the manager prints its report on stderr when it goes (after `root`, declared below).
  std::optional<DefaultTimingManager> timing;
  std::optional<TimingScope> root;
  if (compileTiming)
    options.timing = [&] {
      timing.emplace();
      timing->setEnabled(true);
      root.emplace(timing->getRootScope());
      return &*root;
    };
  if (std::optional<double> seconds = progressSeconds(compileQuiet)) {
    options.progress = [](const std::string &what, double s) {
      llvm::errs() << "tx8-aot: " << what << llvm::format("... %.1f s\n", s);
    };
    options.progressMinSeconds = *seconds;
  }
  tx8::api::ModelSource model = tx8::api::ModelSource::file(compileModel);
  tx8::api::CompileResult result;
  if (tx8::api::Status s = tx8::api::compile(model, compileOut, options, result, printDiagnostic); !s.ok())
    return apiError(s);
  if (!compileQuiet)
    llvm::outs() << tx8::api::compileSummary(model, result) << "\n";
  if (compilePrintMemory)
    if (tx8::ref::Status s = tx8be::printBundleMemory(compileOut, llvm::outs()); !s.ok())
      return fail(s.message());
  return kOk;
}

int runMemory() {
  tx8::ref::Status s = tx8be::printBundleMemory(memoryDir, llvm::outs());
  return s.ok() ? kOk : fail(s.message());
}

int runReport() {
  if (!reportTrace.empty() && (!runInputs.empty() || !runInputsDir.empty() || !runTarget.empty()))
    return usage("--input, --inputs-dir and --target are for a run of the bundle, not with --trace");
  if (!runTarget.empty() && !validTarget(runTarget))
    return usage("--target " + runTarget + ": expected cmodel or riscv");
  if (int rc = checkInputArgs(runInputs, runInputsDir))
    return rc;
  tx8::api::Bundle bundle;
  tx8::api::Bundle::ReportSummary summary;
  tx8::api::Status s = tx8::api::Bundle::load(reportDir, bundle);
  if (s.ok() && !reportTrace.empty()) {
    s = bundle.writeReportFromTraceFile(reportTrace, reportOut, summary);
  } else if (s.ok()) {
    // A run of the bundle with a trace: on the given inputs, or zeros (the chip model's cycles do not depend on
    // the values).
    std::vector<tx8::ref::Tensor> inputs = bundle.zeroInputs();
    if (!runInputs.empty() || !runInputsDir.empty())
      s = bundle.readInputFiles(runInputs, runInputsDir, inputs);
    tx8::api::RunOptions options;
    options.target = runTarget;
    options.trace = true;
    tx8::api::RunResult run;
    if (s.ok())
      s = bundle.run(inputs, options, run);
    if (s.ok())
      s = bundle.writeReport(run, reportOut, summary);
  }
  if (!s.ok())
    return fail(s.message());
  if (reportOut != "-")
    llvm::outs() << tx8::api::reportSummaryLine(bundle, reportOut, summary) << "\n";
  return kOk;
}

int runRun() {
  if (int rc = checkInputArgs(runInputs, runInputsDir))
    return rc;
  if (!runTarget.empty() && !validTarget(runTarget))
    return usage("--target " + runTarget + ": expected cmodel or riscv");
  tx8::api::Bundle bundle;
  tx8::api::Status s = tx8::api::Bundle::load(runDir, bundle);
  std::vector<tx8::ref::Tensor> inputs;
  if (s.ok())
    s = bundle.readInputFiles(runInputs, runInputsDir, inputs);
  tx8::api::RunOptions options;
  options.target = runTarget;
  options.trace = !traceArg.empty();
  tx8::api::RunResult result;
  if (s.ok())
    s = bundle.run(inputs, options, result);
  std::string traceSummary;
  if (s.ok() && !traceArg.empty())
    s = bundle.writeTrace(result, traceArg, traceSummary);
  if (!s.ok())
    return fail(s.message());
  std::vector<tx8be::TensorSpec> outSpecs;
  for (size_t i = 0; i < result.outputs.size(); ++i)
    outSpecs.push_back({result.outputNames[i], RankedTensorType()});
  std::vector<std::string> paths;
  if (tx8::ref::Status w = tx8be::writeOutputs(outSpecs, result.outputs, runOut, &paths); !w.ok())
    return fail(w.message());
  for (size_t i = 0; i < paths.size(); ++i)
    llvm::outs() << "output '" << result.outputNames[i] << "' " << tx8::ref::dtypeName(result.outputs[i].dtype) << " "
                 << tx8::ref::shapeToString(result.outputs[i].shape) << " -> " << paths[i] << "\n";
  if (!bundle.testInjectError().empty())
    llvm::errs() << "tx8-aot: warning: the bundle was compiled with --test-inject-error " << bundle.testInjectError()
                 << ": its results are wrong on purpose\n";
  if (bundle.precision() != "fp32")
    llvm::outs() << "precision: " << bundle.precision() << " NE inputs, fp32 accumulation (compiled with --precision "
                 << bundle.precision() << ")\n";
  for (const std::string &line : result.groupCycles) // a --profile bundle's
    llvm::outs() << line << "\n";
  if (!traceSummary.empty())
    llvm::outs() << traceSummary << "\n";
  llvm::outs() << tx8::api::runSummaryLine(bundle, result) << "\n";
  return kOk;
}

/// A directory under the system's temporary one, removed with everything in it when this goes.
struct ScratchDir {
  SmallString<256> path;
  ~ScratchDir() {
    if (!path.empty())
      llvm::sys::fs::remove_directories(path);
  }
};

/// test-onnx on a device target: compiles `module` (loaded from `model`, in place) for `target` with the
/// command line's options and --hw into a bundle (in --keep-bundle, else in `scratch`), and builds it. 0 if fine,
/// else the exit code after the error.
int compileAndBuild(ModuleOp module, const std::string &model, const std::string &target, ScratchDir &scratch,
                    tx8::api::Bundle &bundle) {
  tx8::api::CompileOptions options = compileOptions(target);
  options.hwFile = testHw;
  std::string dir = testKeep;
  if (dir.empty()) {
    SmallString<256> prefix;
    llvm::sys::path::system_temp_directory(true, prefix);
    llvm::sys::path::append(prefix, "tx8-test");
    if (auto ec = llvm::sys::fs::createUniqueDirectory(prefix, scratch.path))
      return fail("cannot create a scratch directory: " + ec.message());
    dir = (scratch.path + "/bundle").str();
  }
  tx8::api::CompileResult result;
  tx8::api::Status s = tx8::api::compileModule(module, model, dir, options, result);
  if (s.ok())
    s = tx8::api::Bundle::load(dir, bundle);
  double seconds = 0;
  if (s.ok())
    s = bundle.build(target, seconds);
  return s.ok() ? kOk : apiError(s);
}

int runTestOnnx(MLIRContext &context) {
  std::string modelPath = testDir + "/model.onnx";
  if (!validPrecision(precisionArg))
    return usage("--precision " + precisionArg + ": expected fp32, tf32, bf16 or fp16");
  if (precisionArg != "fp32" && testTarget == Target::Reference)
    return usage("--precision " + precisionArg + " is for the device targets (cmodel, riscv); the reference is fp32");
  if (int rc = checkPlanOptions())
    return rc;
  if (!traceArg.empty() && testTarget == Target::Reference)
    return usage("--trace is for the device targets (cmodel, riscv)");
  if (int rc = checkInputShapes(modelPath))
    return rc;
  std::vector<std::string> sets = tx8be::listTestDataSets(testDir);
  // --constant-input: the first data set's values (input_<k>.pb named so) are compiled in.
  std::vector<tx8be::ConstantInput> constants;
  if (!testConstantInputs.empty() && !sets.empty()) {
    std::vector<tx8::ref::Tensor> first;
    std::vector<std::string> names;
    if (tx8::ref::Status s = tx8be::readNumberedTensors(sets.front(), "input", first, &names); !s.ok())
      return fail(s.message());
    for (const std::string &name : testConstantInputs) {
      if (llvm::any_of(constants, [&](const tx8be::ConstantInput &c) { return c.name == name; }))
        return usage("--constant-input " + name + ": given twice");
      auto it = llvm::find(names, name);
      if (it == names.end())
        return fail("--constant-input " + name + ": no input_<k>.pb of " + sets.front() + " holds a tensor named '" +
                    name + "'");
      constants.push_back({name, first[it - names.begin()]});
    }
  }
  OwningOpRef<ModuleOp> module = tx8be::loadModel(modelPath, context, inputShapes, /*debugOutputs=*/false, constants);
  if (!module)
    return kFailed;
  func::FuncOp func = tx8be::getEntryFunction(*module);
  if (!func)
    return kFailed;
  auto inSpecs = tx8be::getInputSpecs(func), outSpecs = tx8be::getOutputSpecs(func);
  if (sets.empty())
    return fail(testDir + ": no test_data_set_* directories");
  // cmodel / riscv: compile into a bundle (kept with --keep-bundle, else a scratch directory), build it once.
  std::string targetName = testTarget == Target::Cmodel ? "cmodel" : testTarget == Target::Riscv ? "riscv" : "reference";
  tx8::api::Bundle bundle;
  uint64_t totalCycles = 0;
  ScratchDir scratch;
  if (testTarget != Target::Reference)
    // The module loaded above (its input/output specs are taken): loading it again would repeat its warnings.
    if (int rc = compileAndBuild(*module, modelPath, targetName, scratch, bundle))
      return rc;
  tx8::ref::Tolerance tol{testRtol, testAtol};
  int failures = 0;
  for (const std::string &set : sets) {
    std::vector<tx8::ref::Tensor> inputs, expected, outputs;
    std::vector<std::string> names;
    tx8::ref::Status s = tx8be::readNumberedTensors(set, "input", inputs, &names);
    // The constant inputs are compiled in: each data set must give the values the first one gave.
    for (const tx8be::ConstantInput &c : constants) {
      auto it = llvm::find(names, c.name);
      if (!s.ok())
        break;
      if (it == names.end()) {
        s = tx8::ref::Status::error(set + ": no input_<k>.pb holds the constant input '" + c.name + "'");
      } else if (const tx8::ref::Tensor &t = inputs[it - names.begin()];
                 t.dtype != c.value.dtype || t.shape != c.value.shape || t.bytes != c.value.bytes) {
        s = tx8::ref::Status::error(set + ": input '" + c.name + "' is not the value compiled in (" + sets.front() +
                                    "'s; --constant-input)");
      } else {
        inputs.erase(inputs.begin() + (it - names.begin()));
        names.erase(it);
      }
    }
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
    if (testTarget == Target::Reference) {
      if (failed(tx8be::runReference(func, inputs, outputs, error)))
        return fail(set + ": " + error);
    } else {
      tx8::api::RunResult result;
      tx8::api::RunOptions options;
      options.target = targetName;
      options.trace = !traceArg.empty() && &set == &sets.front();
      tx8::api::Status r = bundle.run(inputs, options, result);
      std::string summary;
      if (r.ok() && options.trace)
        r = bundle.writeTrace(result, traceArg, summary);
      if (!r.ok())
        return fail(set + ": " + r.message());
      if (!summary.empty())
        llvm::outs() << summary << "\n";
      outputs = std::move(result.outputs);
      totalCycles = result.cycles;
    }
    std::string name = llvm::sys::path::filename(set).str();
    for (size_t i = 0; i < expected.size(); ++i) {
      // --precision below fp32: rtol = 16u, atol = 16u * max|expected| (tx8be::toleranceFor)
      tx8::ref::Tolerance t = tx8be::toleranceFor(expected[i], tol, precisionArg);
      double scale = tx8be::maxAbs(expected[i]), fmtTol = tx8be::precisionRelTolerance(precisionArg);
      tx8::ref::Comparison c = tx8::ref::compare(outputs[i], expected[i], t);
      failures += !c.ok;
      llvm::outs() << (c.ok ? "PASS " : "FAIL ") << name << " output '" << outSpecs[i].name << "': " << c.message
                   << "\n";
      if (fmtTol > 0)
        llvm::outs() << llvm::format("  precision %s vs the fp32 reference: max |err| %.3g, max |err| / max|expected| "
                                     "%.3g (max|expected| %.3g); rule: |err| <= atol + rtol*|expected|, rtol = 16u = "
                                     "%.3g, atol = 16u*max|expected| = %.3g\n",
                                     precisionArg.c_str(), c.maxAbsError, scale > 0 ? c.maxAbsError / scale : 0.0,
                                     scale, t.rtol, t.atol);
    }
  }
  llvm::outs() << (failures ? "FAILED" : "PASSED") << ": " << testDir << " on " << targetName << " (" << sets.size()
               << " data set(s)";
  if (testTarget != Target::Reference)
    llvm::outs() << ", " << totalCycles << " simulated cycles per run";
  if (precisionArg != "fp32")
    llvm::outs() << ", precision " << precisionArg;
  llvm::outs() << ")\n";
  return failures ? kMismatch : kOk;
}

int runDiff() {
  tx8::api::ModelSource model = tx8::api::ModelSource::file(diffModel);
  tx8::api::DiffInputs inputs;
  inputs.files = diffInputs;
  inputs.dir = diffInputsDir;
  tx8::api::DiffOptions options;
  options.target = diffTarget;
  options.rtol = testRtol;
  options.atol = testAtol;
  options.keepBundle = testKeep;
  options.trace = traceArg;
  options.compile = compileOptions(diffTarget);
  options.compile.hwFile = testHw;
  if (tx8::api::Status s = tx8::api::checkDiffOptions(model, inputs, options); !s.ok())
    return apiError(s);
  if (!diffOut.empty()) { // before the long part
    std::error_code ec = llvm::sys::fs::create_directories(diffOut);
    if (ec || !llvm::sys::fs::is_directory(diffOut))
      return fail(diffOut + ": cannot create the directory" + (ec ? ": " + ec.message() : ": a file is in the way"));
  }
  tx8::api::DiffResult result;
  if (tx8::api::Status s = tx8::api::diff(model, inputs, options, result, printDiagnostic); !s.ok())
    return apiError(s);

  bool tsv = diffFormat == TableFormat::Tsv;
  if (!tsv) {
    llvm::outs() << "diff " << diffModel << " on " << diffTarget << ": " << result.nodeOutputs << " node outputs, "
                 << result.computed << " computed; " << result.cycles << " simulated cycles\n";
    llvm::outs() << llvm::format("tolerance: |device - reference| <= atol + rtol * |reference|, rtol %g, atol %g",
                                 testRtol.getValue(), testAtol.getValue());
    if (double u16 = tx8be::precisionRelTolerance(precisionArg); u16 > 0)
      llvm::outs() << llvm::format(" (precision %s: rtol >= %g, atol >= %g * max|reference| of the tensor)",
                                   precisionArg.c_str(), u16, u16);
    llvm::outs() << "; integers and bools equal\n";
    if (!result.traceSummary.empty())
      llvm::outs() << result.traceSummary << " (the debug build: every node output stored)\n";
  }
  llvm::outs() << result.table(tsv);
  (tsv ? llvm::errs() : llvm::outs()) << result.summary() << "\n";
  if (!diffOut.empty())
    if (tx8::api::Status s = result.writeFiles(diffOut); !s.ok())
      return fail(s.message());
  return result.firstDivergence >= 0 ? kMismatch : kOk;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::SetVersionPrinter([](llvm::raw_ostream &os) { os << "tx8-aot " << kVersion << " (MLIR 19)\n"; });
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(argc, argv, "tx8 ahead-of-time compiler\n", &llvm::errs()))
    return kUsage;

  // compile, run, diff, memory and report are the API's (each makes its context); import, reference and
  // test-onnx work on a module in this one.
  std::unique_ptr<MLIRContext> context = tx8::api::createContext();
  std::string model = importCmd      ? importModel.getValue()
                      : referenceCmd ? refModel.getValue()
                      : testOnnxCmd  ? testDir + "/model.onnx"
                                     : std::string();
  tx8::api::attachDiagnostics(*context, model, printDiagnostic);

  if (importCmd)
    return runImport(*context);
  if (referenceCmd)
    return runReferenceCmd(*context);
  if (compileCmd)
    return runCompile();
  if (runCmd)
    return runRun();
  if (testOnnxCmd)
    return runTestOnnx(*context);
  if (memoryCmd)
    return runMemory();
  if (diffCmd)
    return runDiff();
  if (reportCmd)
    return runReport();
  llvm::errs() << "tx8-aot: error: no command given (import, reference, compile, run, test-onnx, memory, diff, report); see "
                  "tx8-aot --help\n";
  return kUsage;
}
