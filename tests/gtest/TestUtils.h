//===- TestUtils.h - Parsing tx8be IR in unit tests -------------*- C++ -*-===//
#ifndef TX8_TESTS_GTEST_TESTUTILS_H
#define TX8_TESTS_GTEST_TESTUTILS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "tx8/Dialect/Tx8be/ComputeModels/ComputeModels.h"
#include "tx8/Dialect/Tx8be/IR/Tx8be.h"

#include <gtest/gtest.h>

#include <string>

namespace tx8test {

/// A context with tx8be (and its ComputeInterface models) and func loaded, a parser, and the diagnostics
/// emitted so far.
class IRTest : public ::testing::Test {
protected:
  IRTest() {
    mlir::DialectRegistry registry;
    tx8be::registerComputeInterfaceExternalModels(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadDialect<tx8be::Tx8beDialect, mlir::func::FuncDialect>();
    handler.emplace(&ctx, [this](mlir::Diagnostic &diag) {
      diagnostics += diag.str() + "\n";
      return mlir::success();
    });
  }

  /// Parses `body` as the body of `func.func @f(args)`, e.g. parse("%x: tensor<2xf32>", "...").
  mlir::ModuleOp parse(const std::string &args, const std::string &body) {
    std::string src = "func.func @f(" + args + ") {\n" + body + "\n  return\n}\n";
    module = mlir::parseSourceString<mlir::ModuleOp>(src, &ctx);
    EXPECT_TRUE(module) << "cannot parse:\n" << src << "\n" << diagnostics;
    return module.get();
  }

  /// The first op of type OpT in the parsed module.
  template <typename OpT> OpT first() {
    OpT found;
    module->walk([&](OpT op) {
      if (!found)
        found = op;
    });
    EXPECT_TRUE(found) << "no " << OpT::getOperationName().str() << " in the module";
    return found;
  }

  mlir::MLIRContext ctx;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string diagnostics;
  std::optional<mlir::ScopedDiagnosticHandler> handler;
};

} // namespace tx8test

#endif // TX8_TESTS_GTEST_TESTUTILS_H
