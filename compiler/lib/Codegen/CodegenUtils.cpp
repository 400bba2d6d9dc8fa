//===- CodegenUtils.cpp - Helpers shared by the bundle writers -----------===//
#include "CodegenUtils.h"

#include "tx8/Codegen/Bundle.h"
#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"
#include "tx8/Interfaces/ComputeInterface.h"
#include "tx8/Reference/DeviceFormat.h"

#include "mlir/IR/TypeUtilities.h"

#include <cstdio>

using namespace mlir;
using namespace tx8be;
using namespace tx8::codegen;

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
  return commentText(s);
}

std::string tx8::codegen::commentText(StringRef text) {
  std::string s;
  for (char c : text) {
    if ((c == '/' && !s.empty() && s.back() == '*') || (c == '*' && !s.empty() && s.back() == '/'))
      s += ' '; // "*/" would end the comment, "/*" would nest one
    s += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? ' ' : c;
  }
  return s;
}

std::optional<std::string> tx8::codegen::formatName(Type type) {
  std::optional<tx8::ref::DType> dtype = tx8be::detail::refDTypeOf(type);
  const char *name = dtype ? tx8::ref::deviceFormatName(*dtype) : nullptr;
  return name ? std::optional<std::string>(name) : std::nullopt;
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

std::vector<std::string> tx8::codegen::bundleSources(unsigned groups) {
  std::vector<std::string> sources = {"main.c"};
  for (unsigned k = 1; k * kGroupsPerSource < groups; ++k)
    sources.push_back("groups_" + std::to_string(k) + ".c");
  return sources;
}

std::string tx8::codegen::manifestDigest(const llvm::json::Object &manifest) {
  llvm::json::Object description = manifest; // a copy without the checksums
  description.erase("files");
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(description)); // llvm::json prints object keys sorted
  return checksum(text);
}
