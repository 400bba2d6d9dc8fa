//===- fuzz_manifest.cpp - libFuzzer: manifest.json -> tx8be::loadBundle --===//
//
// `tx8-aot run BUNDLE` reads BUNDLE/manifest.json, which may be hostile. loadBundle reads it from disk, so each
// input is written as manifest.json into a per-process temporary bundle directory beside a valid set of the other
// bundle files: those of a tiny model (a 2x4 Relu, embedded below) compiled once at start-up with the library API,
// as `tx8-aot compile` does (loadModel's ONNX path, setHwConfig, compileModule). Each input is loaded twice:
//   1. as it is: the JSON, format, version and hardware checks, then the checksums and the digest (which a mutated
//      manifest almost never passes);
//   2. if it is a JSON object: "files" set to the real checksums and model.h rewritten to record the input's digest
//      (tx8::codegen::manifestDigest), so that the inputs/outputs descriptions (checkedIO, imageDesc) are reached.
// Nothing may crash; nothing is built or run. The directory is removed at exit.
//
//===----------------------------------------------------------------------===//
#include "tx8/Codegen/Bundle.h"
#include "tx8/Dialect/Tx8be/ComputeModels/ComputeModels.h"
#include "tx8/Dialect/Tx8be/IR/HwConfig.h"
#include "tx8/Driver/Compile.h"
#include "tx8/Driver/Model.h"
#include "tx8/Import/ONNX.h"
#include "tx8/Reference/BoundedFile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {

// tests/bad-inputs/models/relu.onnxtxt
constexpr const char kModel[] = R"(ir_version: 7
opset_import { version: 13 }
graph {
  name: "relu"
  node { op_type: "Relu" input: "x" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 4 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 4 } } } } }
}
)";

std::string gDir;
tx8::codegen::BundleFiles gFiles; // the compiled bundle, manifest.json included

[[noreturn]] void die(const std::string &why) {
  std::fprintf(stderr, "fuzz_manifest: %s\n", why.c_str());
  std::abort();
}

void writeFile(const std::string &name, llvm::StringRef data) {
  std::ofstream out(gDir + "/" + name, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  if (!out)
    die("cannot write " + gDir + "/" + name);
}

void removeDir() {
  if (gDir.empty())
    return;
  for (const char *name : tx8::codegen::kChecksummedFiles)
    llvm::sys::fs::remove(gDir + "/" + name);
  llvm::sys::fs::remove(gDir + "/manifest.json");
  llvm::sys::fs::remove(gDir);
}

/// The bundle of kModel, as `tx8-aot compile relu.onnxtxt -o DIR` writes it.
void compileBundle() {
  mlir::DialectRegistry registry;
  tx8be::registerModelDialects(registry);
  tx8be::registerComputeInterfaceExternalModels(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  std::string diagnostics;
  context.getDiagEngine().registerHandler([&](mlir::Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module = tx8be::importONNXBytes(kModel, /*textFormat=*/true, "relu.onnxtxt", context);
  if (!module)
    die("cannot import the embedded model: " + diagnostics);
  tx8be::setHwConfig(*module, tx8_hw_config_default());
  tx8::codegen::BundleOptions options;
  options.target = "cmodel";
  options.sourceFile = "relu.onnxtxt";
  options.modelName = "relu";
  options.compilerVersion = TX8_FUZZ_COMPILER_VERSION;
  if (mlir::failed(tx8be::compileModule(*module, options, gFiles)))
    die("cannot compile the embedded model: " + diagnostics);
  for (const char *name : tx8::codegen::kChecksummedFiles)
    if (!gFiles.count(name))
      die(std::string("the compiled bundle has no ") + name);
}

/// model.h recording `digest` instead of the compiled manifest's.
std::string modelHWithDigest(const std::string &digest) {
  const std::string &h = gFiles.at("model.h");
  const std::string key = "#define TX8_MANIFEST_DIGEST \"";
  size_t at = h.find(key);
  if (at == std::string::npos)
    die("model.h has no TX8_MANIFEST_DIGEST");
  at += key.size();
  size_t end = h.find('"', at);
  return h.substr(0, at) + digest + h.substr(end);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  compileBundle();
  llvm::SmallString<128> dir;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("tx8-fuzz-manifest", dir))
    die("cannot create a temporary directory: " + ec.message());
  gDir = dir.str().str();
  std::atexit(removeDir);
  for (const char *name : tx8::codegen::kChecksummedFiles)
    writeFile(name, gFiles.at(name));
  // The compiled bundle must load as it is: otherwise every input fails for the fuzzer's own reasons.
  writeFile("manifest.json", gFiles.at("manifest.json"));
  tx8be::BundleInfo info;
  if (tx8::ref::Status s = tx8be::loadBundle(gDir, info); !s.ok())
    die("the compiled bundle does not load: " + s.message());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  writeFile("manifest.json", text);
  {
    tx8be::BundleInfo info;
    (void)tx8be::loadBundle(gDir, info);
  }
  // 2. The same content with checksums and digest that hold (parsed only as loadBundle would: depth first).
  if (!tx8::ref::checkJsonDepth(text, "fuzz").ok())
    return 0;
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json) {
    llvm::consumeError(json.takeError());
    return 0;
  }
  llvm::json::Object *root = json->getAsObject();
  if (!root)
    return 0;
  std::string modelH = modelHWithDigest(tx8::codegen::manifestDigest(*root));
  llvm::json::Object files;
  for (const char *name : tx8::codegen::kChecksummedFiles)
    files[name] = tx8::codegen::checksum(llvm::StringRef(name) == "model.h" ? modelH : gFiles.at(name));
  (*root)["files"] = std::move(files);
  std::string fixed;
  {
    llvm::raw_string_ostream os(fixed);
    os << llvm::json::Value(std::move(*root));
  }
  writeFile("model.h", modelH);
  writeFile("manifest.json", fixed);
  {
    tx8be::BundleInfo info;
    (void)tx8be::loadBundle(gDir, info);
  }
  writeFile("model.h", gFiles.at("model.h"));
  return 0;
}
