//===- CodegenUtils.h - Shared by the bundle writers (private) -----*- C++ -*-===//
#ifndef TX8_LIB_CODEGEN_CODEGENUTILS_H
#define TX8_LIB_CODEGEN_CODEGENUTILS_H

#include "tx8/Dialect/Tx8be/IR/Tx8be.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace tx8::codegen {

/// `text` made safe inside a C block comment: "*/" and "/*" broken up, control characters (newlines too) as spaces. Every
/// string from a model (graph, node and file names, layout strings) goes through it before reaching a comment.
std::string commentText(llvm::StringRef text);
/// "tx8be.Conv \"conv1\" (onnx.Conv)": the op and where it came from, for comments (commentText-safe).
std::string opSummary(mlir::Operation *op);
/// The name part of a location (NameLoc / FusedLoc names, "" if none).
std::string locName(mlir::Location loc);
/// "Fmt_FP32", ... for a tensor type's element type.
std::optional<std::string> formatName(mlir::Type type);

/// "0x1f40": addresses and sizes in generated C.
std::string hex(uint64_t v);

/// DDR address of a value at function level: an @main argument (tx8be.ddr_addr) or a Group result
/// (tx8be.ddr_addrs). `user` is the op to report an error at.
mlir::FailureOr<uint64_t> ddrAddressOf(mlir::Value value, mlir::Operation *user);
mlir::FailureOr<uint64_t> groupResultAddress(tx8be::GroupOp group, unsigned index);
/// DDR address of a LoadConst's container entry (module attribute tx8be.const_addrs).
mlir::LogicalResult constAddressOf(tx8be::LoadConstOp load, uint64_t &addr);

/// The C names one OpLib call takes in main.c.
struct CallSite {
  std::vector<std::string> operands, results; ///< TSR* expressions of the op's operands / results
  std::string imm = "NULL";                   ///< TSR* of the op's scratch
  std::string pads; ///< `const int32_t *` to this step's {top, left, bottom, right}, for calls that take them
  std::string accumulate = "0"; ///< int expression: 1 when this step adds to a partial sum (split reduction)
  std::string prefix = "op";      ///< C identifier prefix of the locals the call declares
  std::string cycles = "cycles";  ///< uint64_t lvalue that accumulates the call's cycles
};

/// Prints `call` for `op`: a comment naming the op, its *_PARAM and the call adding its cycles, each line
/// starting with `indent`. Fails with an error on `op` for what cannot be printed (a name that is not a C
/// identifier, a non-finite float, an argument the call site does not provide).
mlir::LogicalResult printOpCall(mlir::Operation *op, const tx8be::OpCall &call, const CallSite &site,
                                llvm::StringRef indent, llvm::raw_ostream &os);

/// The functions group_0, group_1 ... , one text per group; those before `staticGroups` are static (main.c
/// holds them), the others are called from main.c.
mlir::LogicalResult emitGroups(mlir::func::FuncOp func, unsigned staticGroups, std::vector<std::string> &texts);

} // namespace tx8::codegen

#endif // TX8_LIB_CODEGEN_CODEGENUTILS_H
