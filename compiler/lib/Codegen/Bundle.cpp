//===- Bundle.cpp - The bundle's files and writing them all or nothing ----===//
#include "tx8/Codegen/Bundle.h"

#include "BundleCMakeTemplate.h"
#include "CodegenUtils.h"

#include "tx8/Codegen/DeviceImage.h"
#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"
#include "tx8/Dialect/Tx8be/IR/HwConfig.h"
#include "tx8/Interpreter/ReferenceRunner.h"
#include "tx8/Transforms/ConstContainer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tx8be;
using namespace tx8::codegen;

//===----------------------------------------------------------------------===//
// Helpers shared with EmitMain.cpp (CodegenUtils.h)
//===----------------------------------------------------------------------===//

std::string tx8::codegen::locName(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (std::string n = locName(inner); !n.empty())
        return n;
  return "";
}

std::string tx8::codegen::opSummary(Operation *op) {
  std::string s = op->getName().getStringRef().str();
  std::string name = locName(op->getLoc());
  if (!name.empty())
    s += " \"" + name + "\"";
  if (auto fused = dyn_cast<FusedLoc>(op->getLoc()))
    if (auto source = dyn_cast_or_null<StringAttr>(fused.getMetadata()))
      s += " (" + source.getValue().str() + ")";
  // Keep comments well formed whatever a model calls its nodes.
  size_t pos;
  while ((pos = s.find("*/")) != std::string::npos)
    s.replace(pos, 2, "* /");
  return s;
}

std::optional<std::string> tx8::codegen::formatName(Type type) {
  std::optional<Data_Format> format = tx8be::detail::dataFormatOf(getElementTypeOrSelf(type));
  if (!format)
    return std::nullopt;
  switch (*format) {
  case Fmt_FP32:
    return std::string("Fmt_FP32");
  case Fmt_FP16:
    return std::string("Fmt_FP16");
  case Fmt_BF16:
    return std::string("Fmt_BF16");
  case Fmt_INT8:
    return std::string("Fmt_INT8");
  case Fmt_INT32:
    return std::string("Fmt_INT32");
  default:
    return std::nullopt;
  }
}

FailureOr<uint64_t> tx8::codegen::groupResultAddress(GroupOp group, unsigned index) {
  auto addrs = group->getAttrOfType<DenseI64ArrayAttr>("tx8be.ddr_addrs");
  if (!addrs || index >= static_cast<unsigned>(addrs.size()))
    return group.emitError() << "has no DDR address for result " << index << "; run tx8be-ddr-alloc first";
  return static_cast<uint64_t>(addrs[index]);
}

FailureOr<uint64_t> tx8::codegen::ddrAddressOf(Value value, Operation *user) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
    auto attr = func ? func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), "tx8be.ddr_addr") : IntegerAttr();
    if (!attr)
      return user->emitError() << "reads an input with no DDR address; run tx8be-ddr-alloc first";
    return attr.getValue().getZExtValue();
  }
  if (auto group = value.getDefiningOp<GroupOp>())
    return groupResultAddress(group, cast<OpResult>(value).getResultNumber());
  return user->emitError() << "reads a value that is neither an input nor a Group result";
}

LogicalResult tx8::codegen::constAddressOf(LoadConstOp load, uint64_t &addr) {
  auto module = load->getParentOfType<ModuleOp>();
  auto addrs = module->getAttrOfType<DenseI64ArrayAttr>("tx8be.const_addrs");
  if (!addrs || load.getConstMapId() >= static_cast<uint64_t>(addrs.size()))
    return load.emitError() << "has no DDR address for constant " << load.getConstMapId()
                            << "; run tx8be-ddr-alloc first";
  addr = static_cast<uint64_t>(addrs[load.getConstMapId()]);
  return success();
}

std::string tx8::codegen::hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string tx8::codegen::checksum(StringRef data) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : data)
    h = (h ^ c) * 1099511628211ull;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

//===----------------------------------------------------------------------===//
// Graph inputs and outputs
//===----------------------------------------------------------------------===//

namespace {

struct IOTensor {
  std::string name;
  Type elementType;
  SmallVector<int64_t> shape;
  DeviceLayout layout;
  std::string layoutStr;
  uint64_t ddrAddr = 0, bytes = 0;
  std::string file;
};

std::string dtypeName(Type e) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << e;
  return s;
}

std::string orderName(Value v, const DeviceLayout &layout) {
  int64_t rank = cast<ShapedType>(v.getType()).getRank();
  if (layout.isIdentityOrder())
    return featureMapLayoutName(rank, false);
  if (rank >= 3 && layout.order.back() == 1)
    return featureMapLayoutName(rank, true);
  std::string s = "order(";
  for (auto [i, d] : llvm::enumerate(layout.order))
    s += (i ? "," : "") + std::to_string(d);
  return s + ")";
}

FailureOr<SmallVector<IOTensor>> collectIO(func::FuncOp func, bool inputs) {
  SmallVector<IOTensor> result;
  tx8_hw_config hw = getHwConfig(func);
  unsigned count = inputs ? func.getNumArguments() : func.getNumResults();
  Operation *ret = func.getBody().front().getTerminator();
  for (unsigned i = 0; i < count; ++i) {
    Value v = inputs ? Value(func.getArgument(i)) : ret->getOperand(i);
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape())
      return func.emitError() << (inputs ? "input " : "output ") << i << " has no static shape";
    IOTensor t;
    auto name = inputs ? func.getArgAttrOfType<StringAttr>(i, "tx8be.name")
                       : func.getResultAttrOfType<StringAttr>(i, "tx8be.name");
    t.name = name ? name.getValue().str() : (inputs ? "input_" : "output_") + std::to_string(i);
    t.elementType = type.getElementType();
    t.shape.assign(type.getShape().begin(), type.getShape().end());
    t.layout = getDeviceLayout(v);
    t.layoutStr = orderName(v, t.layout);
    auto addr = inputs ? func.getArgAttrOfType<IntegerAttr>(i, "tx8be.ddr_addr")
                       : func.getResultAttrOfType<IntegerAttr>(i, "tx8be.ddr_addr");
    if (!addr)
      return func.emitError() << (inputs ? "input " : "output ") << i << " has no DDR address; run tx8be-ddr-alloc";
    t.ddrAddr = addr.getValue().getZExtValue();
    t.bytes = deviceImageBytes(toDeviceOrder(t.shape, t.layout.order), t.elementType, t.layout.mode,
                               tx8_hw_batch_align_bytes(&hw))
                  .value_or(0);
    t.file = (inputs ? "input_" : "output_") + std::to_string(i) + ".bin";
    result.push_back(std::move(t));
  }
  return result;
}

std::string cString(StringRef s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", static_cast<unsigned char>(c));
      out += buf;
      continue;
    }
    out += c;
  }
  return out + "\"";
}


//===----------------------------------------------------------------------===//
// consts.bin
//===----------------------------------------------------------------------===//

struct ConstEntry {
  uint32_t id;
  std::string name, layoutStr;
  Type elementType;
  SmallVector<int64_t> shape;
  DeviceLayout layout;
  uint64_t offset = 0, bytes = 0;
  std::string checksum;
};

LogicalResult buildConsts(ModuleOp module, std::string &blob, std::vector<ConstEntry> &entries) {
  ConstContainer container(module);
  auto addrs = module->getAttrOfType<DenseI64ArrayAttr>("tx8be.const_addrs");
  auto total = module->getAttrOfType<IntegerAttr>("tx8be.const_bytes");
  if (container.size() && (!addrs || addrs.size() != static_cast<int64_t>(container.size()) || !total))
    return module.emitError() << "constants have no DDR addresses; run tx8be-ddr-alloc first";
  blob.assign(total ? total.getValue().getZExtValue() : 0, '\0');
  tx8_hw_config hw = getHwConfig(module);
  // Each entry's layout is the one its LoadConsts read it in (ConstNormPass makes them agree).
  DenseMap<uint32_t, LoadConstOp> reader;
  module.walk([&](LoadConstOp load) { reader.try_emplace(load.getConstMapId(), load); });
  for (uint32_t id = 0; id < container.size(); ++id) {
    ElementsAttr value = container.get(id);
    auto type = cast<ShapedType>(value.getType());
    ConstEntry e;
    e.id = id;
    e.elementType = type.getElementType();
    e.shape.assign(type.getShape().begin(), type.getShape().end());
    e.layout.order.clear();
    for (int64_t d = 0; d < type.getRank(); ++d)
      e.layout.order.push_back(d);
    e.layout.mode = defaultCompactLayout(type);
    if (auto load = reader.lookup(id)) {
      e.layout = getDeviceLayout(load.getOutput());
      e.name = locName(load.getLoc());
    }
    e.layoutStr = e.layout.isIdentityOrder() ? "Tensor" : (reader.lookup(id) ? getLayoutStr(reader.lookup(id)) : "");
    e.offset = static_cast<uint64_t>(addrs[id]);
    tx8::ref::Tensor host;
    std::string error;
    if (failed(tensorFromElementsAttr(value, host, error)))
      return module.emitError() << "constant " << id << " (" << e.name << "): " << error;
    ImageDesc desc;
    desc.shape.assign(e.shape.begin(), e.shape.end());
    desc.order.assign(e.layout.order.begin(), e.layout.order.end());
    desc.elementBytes = static_cast<unsigned>(host.bytes.size() / std::max<uint64_t>(1, type.getNumElements()));
    desc.mode = static_cast<LAYOUT_MODE>(e.layout.mode);
    desc.format = tx8be::detail::dataFormatOf(e.elementType);
    desc.batchAlignBytes = tx8_hw_batch_align_bytes(&hw);
    std::vector<uint8_t> image;
    if (!packImage(desc, host.bytes, image, error))
      return module.emitError() << "constant " << id << " (" << e.name << "): " << error;
    e.bytes = image.size();
    if (e.offset + e.bytes > blob.size())
      return module.emitError() << "constant " << id << " does not fit its DDR range";
    std::copy(image.begin(), image.end(), blob.begin() + static_cast<int64_t>(e.offset));
    e.checksum = checksum(StringRef(reinterpret_cast<const char *>(image.data()), image.size()));
    entries.push_back(std::move(e));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// main.c, model.h, manifest.json
//===----------------------------------------------------------------------===//

std::string hwOverrides(const tx8_hw_config &hw) {
  std::string s;
  tx8_hw_config def = tx8_hw_config_default();
#define TX8_HW(type, name, dflt, unit, desc)                                                                    \
  if (hw.name != def.name)                                                                                     \
    s += "    cfg." #name " = " + std::to_string(hw.name) + "; /* " unit " */\n";
#include "tx8/hw_config.def"
#undef TX8_HW
  return s;
}

std::string emitMain(func::FuncOp func, const BundleOptions &options, ArrayRef<IOTensor> inputs,
                     ArrayRef<IOTensor> outputs, uint64_t constBytes, StringRef groupCode, unsigned groups) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "/*\n * main.c: generated by tx8-aot " << options.compilerVersion << " from \"" << options.modelName << "\" ("
     << options.sourceFile << "). Do not edit.\n";
  os << " * " << groups << " groups, run in order on tile 0. DDR: constants [0, " << hex(constBytes)
     << ") from consts.bin, then the tensors (addresses below).\n";
  os << " * Reads input_<i>.bin and writes output_<i>.bin (device images, see model.h / manifest.json) in the\n";
  os << " * working directory, prints the simulated cycles. Exit codes: 0 ok, 1 I/O error, 3 device fault.\n */\n";
  os << "#include <stdint.h>\n\n#include \"tx8/hal.h\"\n#include \"tx8/lsu.h\"\n#include \"tx8/ops.h\"\n"
        "#include \"tx8/tsm.h\"\n\n#include \"model.h\"\n\n";
  os << groupCode;
  os << "/* Reads `path` (exactly `bytes` long) into DDR at `addr`. */\n"
        "static int load_file(const char *path, uint64_t addr, uint64_t bytes) {\n"
        "    int64_t got = tx8_hal_file_to_ddr(path, addr, bytes);\n"
        "    if (got < 0) return -1;\n"
        "    if ((uint64_t)got != bytes) {\n"
        "        tx8_hal_printf(\"tx8: %s has %lld bytes, expected %llu\\n\", path, (long long)got,\n"
        "                       (unsigned long long)bytes);\n"
        "        return -1;\n"
        "    }\n"
        "    return 0;\n}\n\n";
  os << "int main(void) {\n    tx8_hw_config cfg = tx8_hw_config_default();\n" << hwOverrides(options.hw);
  os << "    tx8_hal *hal = tx8_hal_open(&cfg);\n    if (!hal) return 1;\n";
  if (constBytes)
    os << "    if (load_file(\"consts.bin\", 0x0, " << hex(constBytes) << ") != 0) return 1;\n";
  for (const IOTensor &t : inputs)
    os << "    if (load_file(" << cString(t.file) << ", " << hex(t.ddrAddr) << ", " << hex(t.bytes)
       << ") != 0) return 1; /* " << cString(t.name) << " */\n";
  os << "\n    uint64_t cycles = 0;\n";
  for (unsigned g = 0; g < groups; ++g)
    os << "    cycles = ADD_VALID_CYCLE(cycles, group_" << g << "());\n";
  os << "    if (cycles == TX8_CYCLES_INVALID) return 3;\n\n";
  for (const IOTensor &t : outputs)
    os << "    if (tx8_hal_ddr_to_file(" << cString(t.file) << ", " << hex(t.ddrAddr) << ", " << hex(t.bytes)
       << ") != 0) return 1; /* " << cString(t.name) << " */\n";
  os << "    tx8_hal_printf(\"tx8: simulated cycles %llu\\n\", (unsigned long long)tx8_hal_cycles());\n";
  os << "    tx8_hal_close(hal);\n    return 0;\n}\n";
  (void)func;
  return s;
}

std::string emitModelH(const BundleOptions &options, ArrayRef<IOTensor> inputs, ArrayRef<IOTensor> outputs) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "/*\n * model.h: generated by tx8-aot " << options.compilerVersion << " from \"" << options.modelName
     << "\". The inputs and outputs as the device sees them:\n"
        " * each is a device image (dims in `layout` order, outermost first; mem_layout alignment) of `bytes`\n"
        " * bytes at `ddr_addr` in DDR. A host program writes inputs there before main.c's groups run.\n */\n";
  os << "#ifndef TX8_MODEL_H\n#define TX8_MODEL_H\n\n#include <stdint.h>\n\n#include \"tx8/dtype.h\"\n"
        "#include \"tx8/tensor.h\"\n\n";
  os << "typedef struct tx8_model_tensor {\n    const char *name;\n    const char *file;   /* main.c's I/O file */\n"
        "    Data_Format format;\n    int32_t dim;\n    int32_t shape[MAX_SHAPE_DIM]; /* logical (ONNX) order */\n"
        "    const char *layout; /* memory order of the logical dims */\n    LAYOUT_MODE mem_layout;\n"
        "    uint64_t ddr_addr;  /* bytes */\n    uint64_t bytes;\n} tx8_model_tensor;\n\n";
  os << "#define TX8_MODEL_NAME " << cString(options.modelName) << "\n";
  auto table = [&](const char *name, ArrayRef<IOTensor> ts) {
    os << "#define TX8_MODEL_" << name << "_COUNT " << ts.size() << "\n";
    if (ts.empty())
      return;
    std::string lower = StringRef(name).lower();
    os << "static const tx8_model_tensor tx8_model_" << lower << "[" << ts.size() << "] = {\n";
    for (const IOTensor &t : ts) {
      std::string shape;
      for (auto [i, d] : llvm::enumerate(t.shape))
        shape += (i ? ", " : "") + std::to_string(d);
      os << "    {" << cString(t.name) << ", " << cString(t.file) << ", " << formatName(t.elementType).value_or("Fmt_FP32")
         << ", " << t.shape.size() << ", {" << shape << "}, " << cString(t.layoutStr) << ", "
         << tx8be::layoutModeCName(t.layout.mode) << ", " << hex(t.ddrAddr) << ", " << t.bytes << "},\n";
    }
    os << "};\n";
  };
  table("INPUTS", inputs);
  table("OUTPUTS", outputs);
  os << "\n#endif /* TX8_MODEL_H */\n";
  return s;
}

llvm::json::Object ioJson(const IOTensor &t) {
  llvm::json::Array shape, order;
  for (int64_t d : t.shape)
    shape.push_back(d);
  for (int64_t d : t.layout.order)
    order.push_back(d);
  return llvm::json::Object{{"name", t.name},
                            {"dtype", dtypeName(t.elementType)},
                            {"shape", std::move(shape)},
                            {"layout", t.layoutStr},
                            {"order", std::move(order)},
                            {"mem_layout", std::string(tx8_layout_name(static_cast<LAYOUT_MODE>(t.layout.mode)))},
                            {"ddr_offset", static_cast<int64_t>(t.ddrAddr)},
                            {"bytes", static_cast<int64_t>(t.bytes)},
                            {"file", t.file}};
}

std::string emitManifest(ModuleOp module, const BundleOptions &options, ArrayRef<IOTensor> inputs,
                         ArrayRef<IOTensor> outputs, ArrayRef<ConstEntry> consts, const BundleFiles &files) {
  llvm::json::Object hw;
#define TX8_HW(type, name, dflt, unit, desc) hw[#name] = static_cast<int64_t>(options.hw.name);
#include "tx8/hw_config.def"
#undef TX8_HW
  llvm::json::Array ins, outs, table;
  for (const IOTensor &t : inputs)
    ins.push_back(ioJson(t));
  for (const IOTensor &t : outputs)
    outs.push_back(ioJson(t));
  for (const ConstEntry &e : consts) {
    llvm::json::Array shape;
    for (int64_t d : e.shape)
      shape.push_back(d);
    table.push_back(llvm::json::Object{{"id", static_cast<int64_t>(e.id)},
                                       {"name", e.name},
                                       {"dtype", dtypeName(e.elementType)},
                                       {"shape", std::move(shape)},
                                       {"layout", e.layoutStr},
                                       {"mem_layout", std::string(tx8_layout_name(static_cast<LAYOUT_MODE>(e.layout.mode)))},
                                       {"ddr_offset", static_cast<int64_t>(e.offset)},
                                       {"bytes", static_cast<int64_t>(e.bytes)},
                                       {"checksum", e.checksum}});
  }
  llvm::json::Object checksums;
  for (const auto &[name, data] : files)
    checksums[name] = checksum(data);
  auto i64 = [&](StringRef attr) {
    auto a = module->getAttrOfType<IntegerAttr>(attr);
    return a ? a.getValue().getSExtValue() : 0;
  };
  int64_t tiles = 1;
  module.walk([&](GroupOp g) {
    if (auto r = g.getDevRegion())
      tiles = std::max<int64_t>(tiles, static_cast<int64_t>(r->getXDim()) * r->getYDim());
  });
  llvm::json::Object root{{"format", "tx8-bundle"},
                          {"format_version", kBundleFormatVersion},
                          {"compiler", llvm::json::Object{{"name", "tx8-aot"}, {"version", options.compilerVersion}}},
                          {"model", llvm::json::Object{{"name", options.modelName}, {"source", options.sourceFile}}},
                          {"target", options.target},
                          {"tiles", tiles},
                          {"hardware", std::move(hw)},
                          {"ddr", llvm::json::Object{{"bytes", i64("tx8be.ddr_bytes")},
                                                     {"const_bytes", i64("tx8be.const_bytes")}}},
                          {"inputs", std::move(ins)},
                          {"outputs", std::move(outs)},
                          {"consts", llvm::json::Object{{"file", "consts.bin"}, {"entries", std::move(table)}}},
                          {"files", std::move(checksums)}};
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
  return s;
}

} // namespace

LogicalResult tx8::codegen::generateBundle(ModuleOp module, const BundleOptions &options, BundleFiles &files) {
  auto func = module.lookupSymbol<func::FuncOp>("main");
  if (!func)
    return module.emitError() << "has no @main function";
  FailureOr<SmallVector<IOTensor>> inputs = collectIO(func, true);
  FailureOr<SmallVector<IOTensor>> outputs = collectIO(func, false);
  if (failed(inputs) || failed(outputs))
    return failure();
  std::string consts;
  std::vector<ConstEntry> entries;
  if (failed(buildConsts(module, consts, entries)))
    return failure();
  std::string groupCode;
  llvm::raw_string_ostream groupOs(groupCode);
  unsigned groups = 0;
  if (failed(emitGroups(func, groupOs, groups)))
    return failure();

  files.clear();
  files["main.c"] = emitMain(func, options, *inputs, *outputs, consts.size(), groupCode, groups);
  files["model.h"] = emitModelH(options, *inputs, *outputs);
  files["consts.bin"] = std::move(consts);
  std::string cmake = kBundleCMakeTemplate;
  std::string project;
  for (char c : options.modelName)
    project += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  size_t at = cmake.find("@TX8_BUNDLE_NAME@");
  if (at != std::string::npos)
    cmake.replace(at, strlen("@TX8_BUNDLE_NAME@"), "tx8_bundle_" + project);
  files["CMakeLists.txt"] = cmake;
  // The manifest lists the others' checksums, so it comes last.
  files["manifest.json"] = emitManifest(module, options, *inputs, *outputs, entries, files);
  return success();
}

namespace {

/// Renames the directory `dir` to a fresh sibling whose name goes to `aside`. The sibling is created first
/// (a unique name) and then replaced by the rename, which POSIX allows for an empty directory.
std::error_code moveAside(StringRef dir, SmallString<256> &aside) {
  SmallString<256> unique;
  if (auto ec = llvm::sys::fs::createUniqueDirectory(dir + ".old-%%%%%%", unique))
    return ec;
  if (auto ec = llvm::sys::fs::rename(dir, unique)) {
    (void)llvm::sys::fs::remove(unique);
    return ec;
  }
  aside = unique;
  return {};
}

} // namespace

LogicalResult tx8::codegen::writeBundleDir(const BundleFiles &files, StringRef dir, std::string &error) {
  SmallString<256> target(dir);
  // Absolute: LLVM puts a relative unique-directory model under the system temp directory.
  if (auto ec = llvm::sys::fs::make_absolute(target)) {
    error = "cannot resolve '" + dir.str() + "': " + ec.message();
    return failure();
  }
  llvm::sys::path::remove_dots(target, true);
  StringRef parent = llvm::sys::path::parent_path(target);
  if (!parent.empty() && !llvm::sys::fs::is_directory(parent)) {
    error = "output directory's parent '" + parent.str() + "' does not exist";
    return failure();
  }
  // A fresh sibling, so the final rename stays on one file system.
  SmallString<256> temp;
  std::string model = (target + ".tmp-%%%%%%").str();
  if (auto ec = llvm::sys::fs::createUniqueDirectory(model, temp)) {
    error = "cannot create a temporary directory next to '" + target.str().str() + "': " + ec.message();
    return failure();
  }
  auto cleanup = [&] { llvm::sys::fs::remove_directories(temp); };
  for (const auto &[name, data] : files) {
    SmallString<256> path(temp);
    llvm::sys::path::append(path, name);
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    if (!ec) {
      out << data;
      out.close();
      ec = out.error();
    }
    if (ec) {
      error = "cannot write '" + path.str().str() + "': " + ec.message();
      cleanup();
      return failure();
    }
  }
  // Replace an existing bundle only now that the new one is complete, and so that there always is one at
  // `target`: the old one is renamed aside, the new one into place, and only then is the old one removed.
  SmallString<256> aside;
  if (llvm::sys::fs::exists(target)) {
    // Only ever replace an earlier bundle or an empty directory, never anything else the user has there.
    std::error_code ec;
    bool empty = llvm::sys::fs::is_directory(target) &&
                 llvm::sys::fs::directory_iterator(target, ec) == llvm::sys::fs::directory_iterator();
    if (!empty && !llvm::sys::fs::exists(target + "/manifest.json")) {
      error = "'" + target.str().str() + "' exists and is not a tx8 bundle (no manifest.json); not replacing it";
      cleanup();
      return failure();
    }
    if (auto ec = moveAside(target, aside)) {
      error = "cannot replace '" + target.str().str() + "': " + ec.message();
      cleanup();
      return failure();
    }
  }
  if (auto ec = llvm::sys::fs::rename(temp, target)) {
    error = "cannot move the bundle into '" + target.str().str() + "': " + ec.message();
    if (!aside.empty() && llvm::sys::fs::rename(aside, target)) // put the old bundle back
      error += "; the previous bundle is in '" + aside.str().str() + "'";
    cleanup();
    return failure();
  }
  // The new bundle is in place; failing to delete the old one does not make this compile fail.
  if (!aside.empty())
    (void)llvm::sys::fs::remove_directories(aside);
  return success();
}
