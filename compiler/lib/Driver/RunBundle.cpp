//===- RunBundle.cpp - Build a bundle for a target and run it -------------===//
//
// The bundle is built with its own CMakeLists.txt against the SDK of the target (cmake + ninja; in a configured
// tree shared with other bundles unless it has one of its own, BuildCache.h), then run in a scratch directory
// holding consts.bin and the inputs' device images: directly on the cmodel, under QEMU (tx8-qemu-run,
// semihosting file I/O relative to that directory) on riscv.
//
//===----------------------------------------------------------------------===//
#include "tx8/Driver/Compile.h"

#include "tx8/Codegen/DeviceImage.h"
#include "tx8/Reference/BoundedFile.h"
#include "tx8/Reference/DeviceFormat.h"
#include "tx8/Reference/TensorIO.h"
#include "tx8/trace_format.h"

#include "BuildCache.h"
#include "Spawn.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <chrono>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

using namespace tx8be;
using tx8::ref::Status;
using tx8::ref::Tensor;
using llvm::SmallString;
using tx8be::detail::runIn;

namespace {
/// An address inside this program, for getMainExecutable.
void exeAnchor() {}
} // namespace

/// setToolDirectory's.
static std::string &toolDirectory() {
  static std::string dir;
  return dir;
}

void tx8be::setToolDirectory(const std::string &binDir) { toolDirectory() = binDir; }

Status tx8be::findSdk(const std::string &target, SdkPaths &paths) {
  SmallString<256> bin(toolDirectory());
  if (bin.empty())
    bin = llvm::sys::path::parent_path(
        llvm::sys::fs::getMainExecutable("tx8-aot", reinterpret_cast<void *>(&exeAnchor)));
  SmallString<256> prefix(llvm::sys::path::parent_path(bin));
  std::vector<std::string> candidates;
  if (const char *env = std::getenv("TX8_SDK_DIR"))
    candidates.push_back(env);
  else
    candidates = {(prefix + "/lib/cmake/tx8").str(),
                  (prefix + (target == "riscv" ? "/riscv-gcc/sdk" : "/sdk")).str()};
  std::string looked;
  for (const std::string &dir : candidates) {
    if (!llvm::sys::fs::exists(dir + "/tx8Target-" + target + ".cmake")) {
      looked += (looked.empty() ? "" : ", ") + dir;
      continue;
    }
    paths.sdkDir = dir;
    paths.toolchainFile = dir + "/riscv64-gcc.cmake";
    paths.qemuRun = (bin + "/tx8-qemu-run").str();
    if (target == "riscv" && !llvm::sys::fs::can_execute(paths.qemuRun))
      return Status::error("the tx8 SDK for riscv needs " + paths.qemuRun + ", which is missing");
    return Status();
  }
  return Status::error("no tx8 SDK for target " + target + " (looked in " + looked +
                       std::string(std::getenv("TX8_SDK_DIR") ? ", from TX8_SDK_DIR" : "") +
                       "): build tx8-aot's tree, install it, or set TX8_SDK_DIR");
}

namespace {

double since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// A bundle file or a file the run wrote: regular, bounded (BoundedFile.h).
Status readFile(const std::string &path, std::string &data, uint64_t maxBytes = tx8::ref::kMaxDataFileBytes) {
  return tx8::ref::readBoundedFile(path, maxBytes, "the file", data);
}

Status writeFile(const std::string &path, llvm::StringRef data) {
  return tx8::ref::writeFileBytes(path, data.data(), data.size());
}

Status checkedIO(const llvm::json::Object *o, BundleInfo::IO &io, const std::string &where) {
  if (!o)
    return Status::error(where + ": not an object");
  auto str = [&](const char *key, std::string &out) {
    auto v = o->getString(key);
    if (v)
      out = v->str();
    return v.has_value();
  };
  auto ints = [&](const char *key, std::vector<int64_t> &out) {
    const llvm::json::Array *a = o->getArray(key);
    if (!a)
      return false;
    for (const llvm::json::Value &v : *a) {
      auto i = v.getAsInteger();
      if (!i || *i < 0)
        return false;
      out.push_back(*i);
    }
    return true;
  };
  auto bytes = o->getInteger("bytes");
  if (!str("name", io.name) || !str("dtype", io.dtype) || !str("file", io.file) || !str("layout", io.layout) ||
      !str("mem_layout", io.memLayout) || !ints("shape", io.shape) || !ints("order", io.order) || !bytes ||
      *bytes < 0)
    return Status::error(where + ": missing or malformed field (name, dtype, shape, order, layout, mem_layout, "
                                 "bytes, file)");
  io.bytes = static_cast<uint64_t>(*bytes);
  if (io.file.find('/') != std::string::npos || io.file.empty() || io.file[0] == '.')
    return Status::error(where + ": file name '" + io.file + "' is not a plain file name");
  return Status();
}

std::optional<LAYOUT_MODE> layoutOf(const std::string &name) {
  for (int m = 0; m < LAYOUT_COUNT; ++m)
    if (name == tx8_layout_name(static_cast<LAYOUT_MODE>(m)))
      return static_cast<LAYOUT_MODE>(m);
  return std::nullopt;
}

Status imageDesc(const BundleInfo::IO &io, const tx8_hw_config &hw, tx8::codegen::ImageDesc &desc) {
  auto dtype = tx8::ref::dtypeFromName(io.dtype);
  auto mode = layoutOf(io.memLayout);
  if (!dtype || !mode)
    return Status::error("tensor '" + io.name + "': unknown dtype '" + io.dtype + "' or mem_layout '" + io.memLayout +
                         "'");
  desc.shape = io.shape;
  desc.order = io.order;
  desc.elementBytes = static_cast<unsigned>(tx8::ref::dtypeBytes(*dtype));
  desc.mode = *mode;
  desc.batchAlignBytes = tx8_hw_batch_align_bytes(&hw);
  desc.format = tx8::ref::deviceFormatOf(*dtype);
  auto bytes = tx8::codegen::imageBytes(desc);
  if (!bytes || *bytes != io.bytes)
    return Status::error("tensor '" + io.name + "': the manifest's size " + std::to_string(io.bytes) +
                         " does not match its shape and layout");
  return Status();
}

} // namespace

Status tx8be::loadBundle(const std::string &dir, BundleInfo &info) {
  info.dir = dir;
  std::string path = dir + "/manifest.json", text;
  if (!llvm::sys::fs::is_directory(dir))
    return Status::error(dir + ": not a bundle directory");
  Status s = readFile(path, text, tx8::ref::kMaxTextFileBytes);
  if (!s.ok())
    return Status::error("bundle " + dir + ": cannot read manifest.json (" + s.message() + ")");
  if (s = tx8::ref::checkJsonDepth(text, path + ": corrupt manifest"); !s.ok())
    return s;
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json)
    return Status::error(path + ": corrupt manifest (not valid JSON: " + llvm::toString(json.takeError()) + ")");
  const llvm::json::Object *root = json->getAsObject();
  if (!root || root->getString("format") != llvm::StringRef("tx8-bundle"))
    return Status::error(path + ": not a tx8 bundle manifest (no \"format\": \"tx8-bundle\")");
  auto version = root->getInteger("format_version");
  if (version != tx8::codegen::kBundleFormatVersion)
    return Status::error(path + ": bundle format version " + (version ? std::to_string(*version) : "missing") +
                         ", this tx8-aot reads version " + std::to_string(tx8::codegen::kBundleFormatVersion) +
                         "; recompile the model");
  const llvm::json::Object *compiler = root->getObject("compiler");
  auto compilerVersion = compiler ? compiler->getString("version") : std::nullopt;
  if (!compilerVersion || *compilerVersion != TX8_COMPILER_VERSION)
    return Status::error(path + ": made by tx8-aot " + (compilerVersion ? compilerVersion->str() : "?") +
                         ", this is " TX8_COMPILER_VERSION "; recompile the model");
  if (auto target = root->getString("target"))
    info.target = target->str();
  if (auto precision = root->getString("precision"))
    info.precision = precision->str();
  if (const llvm::json::Object *inject = root->getObject("test_inject_error"))
    info.testInjectError = inject->getString("node").value_or("?").str();
  if (const llvm::json::Object *model = root->getObject("model"))
    if (auto name = model->getString("name"))
      info.modelName = name->str();
  const llvm::json::Object *hw = root->getObject("hardware");
  if (!hw)
    return Status::error(path + ": corrupt manifest (no \"hardware\" config)");
  info.hw = tx8_hw_config_default();
  if (Status s = parseHwConfigJson(*hw, path + ": manifest \"hardware\"", info.hw); !s.ok())
    return s;
  // Every file of the bundle (names fixed by the format; the number of C sources in "sources", which the
  // digest covers) must be the one the compiler wrote, and the manifest's own content the one model.h
  // records the digest of.
  const llvm::json::Array *sourceList = root->getArray("sources");
  if (!sourceList || sourceList->empty() || sourceList->size() > (1u << 20))
    return Status::error(path + ": corrupt manifest (no \"sources\" list)");
  std::vector<std::string> sources =
      tx8::codegen::bundleSources(static_cast<unsigned>(sourceList->size() * tx8::codegen::kGroupsPerSource));
  for (size_t i = 0; i < sourceList->size(); ++i)
    if ((*sourceList)[i].getAsString() != llvm::StringRef(sources[i]))
      return Status::error(path + ": corrupt manifest (\"sources\"[" + std::to_string(i) + "] is not " + sources[i] +
                           ")");
  std::vector<std::string> checked(std::begin(tx8::codegen::kChecksummedFiles),
                                   std::end(tx8::codegen::kChecksummedFiles));
  checked.insert(checked.end(), sources.begin() + 1, sources.end()); // main.c is in kChecksummedFiles
  const llvm::json::Object *files = root->getObject("files");
  if (!files)
    return Status::error(path + ": corrupt manifest (no \"files\" checksums)");
  for (const auto &[name, sum] : *files)
    if (!llvm::is_contained(checked, name.str()))
      return Status::error(path + ": corrupt manifest (\"files\" lists '" + name.str() + "', not a bundle file)");
  std::string modelH;
  for (const std::string &name : checked) {
    const llvm::json::Value *sum = files->get(name);
    if (!sum)
      return Status::error(path + ": corrupt manifest (\"files\" has no checksum of " + name + ")");
    std::string data;
    if (!llvm::sys::fs::exists(dir + "/" + name))
      return Status::error("bundle " + dir + ": missing file " + name);
    s = readFile(dir + "/" + name, data);
    if (!s.ok())
      return Status::error("bundle " + dir + ": " + s.message());
    if (sum->getAsString() != llvm::StringRef(tx8::codegen::checksum(data)))
      return Status::error("bundle " + dir + ": " + name + " is corrupt (checksum " + tx8::codegen::checksum(data) +
                           ", the manifest says " + sum->getAsString().value_or("?").str() + ")");
    if (llvm::StringRef(name) == "model.h")
      modelH = std::move(data);
  }
  llvm::StringRef recorded = llvm::StringRef(modelH).split("#define TX8_MANIFEST_DIGEST \"").second.split('"').first;
  std::string digest = tx8::codegen::manifestDigest(*root);
  if (recorded != digest)
    return Status::error(path + ": edited after compile (its digest is " + digest + ", model.h records " +
                         (recorded.empty() ? std::string("none") : recorded.str()) + "); recompile the model");
  if (auto tiles = root->getInteger("tiles"); tiles && *tiles > 0)
    info.tiles = static_cast<uint64_t>(*tiles);
  if (const llvm::json::Array *groups = root->getArray("groups"))
    for (const llvm::json::Value &v : *groups) {
      BundleInfo::Group g;
      if (const llvm::json::Object *o = v.getAsObject()) {
        g.op = o->getString("op").value_or("").str();
        if (const llvm::json::Array *nodes = o->getArray("nodes"))
          for (const llvm::json::Value &n : *nodes)
            if (auto name = n.getAsString())
              g.nodes.push_back(name->str());
        auto count = [&](const char *key) {
          auto i = o->getInteger(key);
          return i && *i > 0 ? static_cast<uint64_t>(*i) : 0;
        };
        g.tiles = count("tiles"), g.spmBytes = count("spm_bytes"), g.estimateCycles = count("estimate_cycles");
      }
      info.groups.push_back(std::move(g));
    }
  for (auto [key, list] : {std::make_pair("inputs", &info.inputs), std::make_pair("outputs", &info.outputs)}) {
    const llvm::json::Array *a = root->getArray(key);
    if (!a)
      return Status::error(path + ": corrupt manifest (no \"" + std::string(key) + "\")");
    for (size_t i = 0; i < a->size(); ++i) {
      BundleInfo::IO io;
      s = checkedIO((*a)[i].getAsObject(), io, path + ": " + key + "[" + std::to_string(i) + "]");
      if (s.ok()) {
        tx8::codegen::ImageDesc desc;
        s = imageDesc(io, info.hw, desc);
      }
      if (!s.ok())
        return s;
      list->push_back(std::move(io));
    }
  }
  return Status();
}

Status tx8be::buildBundle(const BundleInfo &bundle, const std::string &target, std::string &program,
                          double &seconds) {
  auto start = std::chrono::steady_clock::now();
  SdkPaths sdk;
  if (Status s = findSdk(target, sdk); !s.ok())
    return s;
  SmallString<256> dir(bundle.dir);
  llvm::sys::fs::make_absolute(dir);
  std::string buildDir = (dir + "/build-" + target).str(), error;
  // A bundle we may not write to (read-only media, another user's) builds in a directory of ours instead,
  // one per bundle path and target, so that a second run reuses it.
  if (::access(dir.c_str(), W_OK) != 0) {
    SmallString<256> cache;
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, cache);
    llvm::sys::path::append(cache, "tx8-aot-" + std::to_string(::getuid()),
                            tx8::codegen::checksum(dir.str()) + "-" + target);
    if (auto ec = llvm::sys::fs::create_directories(llvm::sys::path::parent_path(cache)))
      return Status::error("bundle " + dir.str().str() + " is read-only and " + cache.str().str() +
                           " cannot be created to build it: " + ec.message());
    buildDir = cache.str().str();
  }
  std::string log = buildDir + ".log";
  auto cmake = llvm::sys::findProgramByName("cmake");
  if (!cmake)
    return Status::error("cmake is not installed (scripts/install-deps.sh installs it)");
  std::vector<std::string> options = {"-DCMAKE_BUILD_TYPE=Release", "-DTX8_SDK_DIR=" + sdk.sdkDir};
  if (target == "riscv")
    options.push_back("-DCMAKE_TOOLCHAIN_FILE=" + sdk.toolchainFile);
  // A bundle with a build tree of its own (configured by an earlier tx8-aot, or by hand) builds there; any
  // other in a configured tree it shares with bundles of the same SDK and target (BuildCache.h).
  if (!llvm::sys::fs::exists(buildDir + "/CMakeCache.txt")) {
    bool shared = false;
    program = buildDir + "/model";
    if (Status s = detail::buildInSharedTree(dir.str().str(), *cmake, options, log, program, shared); !s.ok())
      return s;
    if (shared) {
      seconds = since(start);
      return Status();
    }
    std::vector<std::string> configure = {*cmake, "-S", dir.str().str(), "-B", buildDir, "-G", "Ninja"};
    configure.insert(configure.end(), options.begin(), options.end());
    if (runIn(dir.str().str(), configure, log, error) != 0)
      return Status::error("configuring the bundle for " + target + " failed (log: " + log + ")" +
                           (error.empty() ? "" : ": " + error));
  }
  if (runIn(dir.str().str(), {*cmake, "--build", buildDir}, log, error) != 0)
    return Status::error("building the bundle for " + target + " failed (log: " + log + ")" +
                         (error.empty() ? "" : ": " + error));
  program = buildDir + "/model";
  seconds = since(start);
  return Status();
}

Status tx8be::runBundle(const BundleInfo &bundle, const std::string &target, const std::string &program,
                        const std::vector<Tensor> &inputs, RunResult &result, bool trace) {
  if (inputs.size() != bundle.inputs.size())
    return Status::error(std::to_string(inputs.size()) + " inputs given, the model has " +
                         std::to_string(bundle.inputs.size()));
  SmallString<256> work, prefix;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, prefix);
  llvm::sys::path::append(prefix, "tx8-run");
  if (auto ec = llvm::sys::fs::createUniqueDirectory(prefix, work))
    return Status::error("cannot create a scratch directory: " + ec.message());
  struct Cleanup {
    SmallString<256> &dir;
    ~Cleanup() { llvm::sys::fs::remove_directories(dir); }
  } cleanup{work};
  std::string consts;
  Status s = readFile(bundle.dir + "/consts.bin", consts);
  if (s.ok())
    s = writeFile((work + "/consts.bin").str(), consts);
  for (size_t i = 0; s.ok() && i < inputs.size(); ++i) {
    const BundleInfo::IO &io = bundle.inputs[i];
    const Tensor &t = inputs[i];
    if (tx8::ref::dtypeName(t.dtype) != io.dtype || t.shape != io.shape) {
      std::string want, got;
      for (int64_t d : io.shape)
        want += (want.empty() ? "" : "x") + std::to_string(d);
      for (int64_t d : t.shape)
        got += (got.empty() ? "" : "x") + std::to_string(d);
      return Status::error("input '" + io.name + "' is " + tx8::ref::dtypeName(t.dtype) + " " + got +
                           ", the model wants " + io.dtype + " " + want);
    }
    tx8::codegen::ImageDesc desc;
    s = imageDesc(io, bundle.hw, desc);
    std::vector<uint8_t> image;
    std::string error;
    if (s.ok() && !tx8::codegen::packImage(desc, t.bytes, image, error))
      s = Status::error("input '" + io.name + "': " + error);
    if (s.ok())
      s = writeFile((work + "/" + io.file).str(),
                    llvm::StringRef(reinterpret_cast<const char *>(image.data()), image.size()));
  }
  if (s.ok() && trace)
    s = writeFile((work + "/" TX8_TRACE_FILE).str(), ""); // asks main.c for a trace
  if (!s.ok())
    return s;

  std::vector<std::string> argv = {program};
  if (target == "riscv") {
    SdkPaths sdk;
    if (Status found = findSdk(target, sdk); !found.ok())
      return found;
    argv = {sdk.qemuRun, "--timeout", "600", program};
  }
  std::string log = (work + "/run.log").str(), error;
  auto start = std::chrono::steady_clock::now();
  int rc = runIn(work.str().str(), argv, log, error);
  result.runSeconds = since(start);
  std::string output;
  if (!readFile(log, output).ok())
    output.clear();
  if (rc != 0) {
    llvm::StringRef text = llvm::StringRef(output).trim();
    return Status::error("the bundle failed on " + target + " (exit code " + std::to_string(rc) + ")" +
                         (text.empty() ? "" : ": " + text.str()) + (error.empty() ? "" : " " + error));
  }
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(output).split(lines, '\n');
  for (llvm::StringRef line : lines)
    if (line.starts_with("tx8: group "))
      result.groupCycles.push_back(line.trim().str());
  size_t at = output.rfind("tx8: simulated cycles ");
  if (at == std::string::npos)
    return Status::error("the bundle did not report its simulated cycles: " + output);
  result.cycles = std::strtoull(output.c_str() + at + std::strlen("tx8: simulated cycles "), nullptr, 10);

  result.trace.clear();
  if (trace) {
    s = readFile((work + "/" TX8_TRACE_FILE).str(), result.trace);
    if (!s.ok())
      return Status::error("the bundle wrote no trace: " + s.message());
  }
  result.outputs.clear();
  result.outputNames.clear();
  for (const BundleInfo::IO &io : bundle.outputs) {
    std::string image;
    s = readFile((work + "/" + io.file).str(), image);
    if (!s.ok())
      return Status::error("the bundle wrote no " + io.file + " for output '" + io.name + "'");
    tx8::codegen::ImageDesc desc;
    s = imageDesc(io, bundle.hw, desc);
    if (!s.ok())
      return s;
    Tensor t(*tx8::ref::dtypeFromName(io.dtype), io.shape); // imageDesc checked the name
    std::vector<uint8_t> logical;
    std::string err;
    if (!tx8::codegen::unpackImage(desc, llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(image.data()),
                                                                  image.size()),
                                   logical, err))
      return Status::error("output '" + io.name + "': " + err);
    t.bytes = std::move(logical);
    result.outputs.push_back(std::move(t));
    result.outputNames.push_back(io.name);
  }
  return Status();
}
