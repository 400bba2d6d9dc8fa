//===- fuzz_tx8be_parser.cpp - libFuzzer: MLIR text -> parse + verify -----===//
//
// A .mlir model (`tx8-aot compile model.mlir`, tx8-opt) is hostile input: the tx8be dialect's custom attribute,
// type and op parsers and its verifiers (shape rules, schedule ops) run on it. The dialects are those
// registerModelDialects loads (tx8be, func, arith, tensor, tosa). A module that parses and verifies must also print
// (the custom printers) and parse back from what it printed. Fresh single-threaded context per input, diagnostics
// swallowed.
//
//===----------------------------------------------------------------------===//
#include "tx8/Driver/Model.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::DialectRegistry registry;
  tx8be::registerModelDialects(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.getDiagEngine().registerHandler([](mlir::Diagnostic &) { return mlir::success(); });
  // As loadModel has it: in a std::string. MLIR's lexer relies on a NUL after the text (it reads one character
  // past the end), which libFuzzer's buffer does not have.
  std::string text(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module = tx8be::parseModelText(text, context, "fuzz.mlir", /*verifyAfterParse=*/false);
  if (!module || mlir::failed(mlir::verify(*module)))
    return 0;
  std::string printed;
  {
    llvm::raw_string_ostream os(printed);
    module->print(os);
  }
  mlir::OwningOpRef<mlir::ModuleOp> again =
      mlir::parseSourceString<mlir::ModuleOp>(printed, mlir::ParserConfig(&context), "printed.mlir");
  if (!again) {
    std::fprintf(stderr, "fuzz_tx8be_parser: a verified module does not parse back from its printed form:\n%s\n",
                 printed.c_str());
    std::abort();
  }
  return 0;
}
