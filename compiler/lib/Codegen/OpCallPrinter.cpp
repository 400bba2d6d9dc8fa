//===- OpCallPrinter.cpp - An OpLib call (OpCall) as C ---------------------===//
//
// genOpCode describes what an op calls (OpLibInterface's OpCall); this is where that becomes C: a comment
// naming the op, the *_PARAM with designated initialisers, and the call adding its cycles. Everything printed
// is checked here: identifiers must be C identifiers, floats finite, every argument provided by the call site.
//
//===----------------------------------------------------------------------===//
#include "CodegenUtils.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace tx8be;

namespace {

bool isCIdentifier(StringRef s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  return llvm::all_of(s, [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

/// A finite float as a C literal that reads back to the same float ("1e-05f", "1.0f").
std::string floatLiteral(float value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(value));
  std::string s(buf);
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  return s + "f";
}

} // namespace

LogicalResult tx8::codegen::printOpCall(Operation *op, const OpCall &call, const CallSite &site, StringRef indent,
                                        raw_ostream &os) {
  for (StringRef name : {StringRef(call.function), StringRef(call.paramType), StringRef(site.prefix)})
    if (!isCIdentifier(name))
      return op->emitOpError() << "OpLib call with '" << name << "', which is not a C identifier";
  std::string init;
  for (const auto &[name, value] : call.fields) {
    if (!isCIdentifier(name))
      return op->emitOpError() << "OpLib call with member '" << name << "', which is not a C identifier";
    init += (init.empty() ? "." : ", .") + name + " = ";
    switch (value.kind) {
    case OpCallValue::Kind::Int:
      init += std::to_string(value.integer);
      break;
    case OpCallValue::Kind::Float:
      if (!std::isfinite(value.real))
        return op->emitOpError() << "has a non-finite " << name << " (" << value.real
                                 << "), which " << call.function << " cannot take";
      init += floatLiteral(value.real);
      break;
    case OpCallValue::Kind::Enumerator:
      if (!isCIdentifier(value.enumerator))
        return op->emitOpError() << "OpLib call with " << name << " = '" << value.enumerator
                                 << "', which is not a C identifier";
      init += value.enumerator;
      break;
    case OpCallValue::Kind::StepPad:
      if (site.pads.empty() || value.integer < 0 || value.integer > 3)
        return op->emitOpError() << "OpLib call takes this step's pads, which codegen does not provide here";
      init += site.pads + "[" + std::to_string(value.integer) + "]";
      break;
    case OpCallValue::Kind::StepAccumulate:
      init += site.accumulate;
      break;
    case OpCallValue::Kind::IntArray: {
      std::string list;
      for (int64_t v : value.ints)
        list += (list.empty() ? "" : ", ") + std::to_string(v);
      init += "{" + list + "}";
      break;
    }
    }
  }
  std::string args;
  for (const OpCallArg &arg : call.args) {
    if (arg.kind == OpCallArg::Kind::OperandArray) { // a C99 compound literal: (TSR *const[]){&in0, &in1}
      if (site.operands.size() < op->getNumOperands())
        return op->emitOpError() << "OpLib call reads every operand, which codegen does not provide here";
      args += ", (TSR *const[]){" + llvm::join(site.operands, ", ") + "}";
      continue;
    }
    const std::vector<std::string> *names = arg.kind == OpCallArg::Kind::Operand  ? &site.operands
                                            : arg.kind == OpCallArg::Kind::Result ? &site.results
                                                                                  : nullptr;
    if (names && arg.index >= names->size())
      return op->emitOpError() << "OpLib call reads " << (names == &site.operands ? "operand " : "result ")
                               << arg.index << ", which codegen does not provide here";
    args += ", " + (names ? (*names)[arg.index] : arg.kind == OpCallArg::Kind::Imm ? site.imm : std::string("NULL"));
  }
  std::string param = site.prefix + "_param";
  os << indent << "/* " << opSummary(op) << " */\n";
  os << indent << call.paramType << " " << param << " = {" << init << "};\n";
  os << indent << site.cycles << " = ADD_VALID_CYCLE(" << site.cycles << ", " << call.function << "(&" << param << args
     << "));\n";
  return success();
}
