//===- Introspection.cpp - What tx8-aot compile shows of its pipeline ----===//
#include "tx8/Driver/Introspection.h"

#include "tx8/Transforms/PassStatistics.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using tx8::ref::Status;

namespace {

/// The length of the "{...}" at the start of `text` (nested braces included; all of `text` if unbalanced).
size_t bracedLength(llvm::StringRef text) {
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    depth += text[i] == '{' ? 1 : text[i] == '}' ? -1 : 0;
    if (depth == 0)
      return i + 1;
  }
  return text.size();
}

/// Whether `name` is what a --dump-dir run writes: digits, '_', anything, ".mlir".
bool isDumpFileName(llvm::StringRef name) {
  llvm::StringRef digits = name.take_while(llvm::isDigit);
  return !digits.empty() && name.drop_front(digits.size()).starts_with("_") && name.ends_with(".mlir");
}

/// --dump-dir: the module after each pass into DIR/NN_<pass argument>.mlir, NN counting the passes in the order
/// they run, so that `ls` lists the pipeline. Each file starts with MLIR's "IR Dump After" comment line and
/// parses as it is (tx8-opt runs the next passes on it).
class DumpDirPrinterConfig : public PassManager::IRPrinterConfig {
public:
  DumpDirPrinterConfig(std::string dir, bool &failed)
      : IRPrinterConfig(/*printModuleScope=*/true), dir(std::move(dir)), failed(failed) {}

  void printAfterIfEnabled(Pass *pass, Operation *op, PrintCallbackFn print) override {
    std::string name;
    llvm::raw_string_ostream(name) << llvm::format("%02u_", ++count) << pass->getArgument() << ".mlir";
    SmallString<256> path(dir);
    llvm::sys::path::append(path, name);
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
    if (!ec) {
      print(os);
      os.close();
      if (os.has_error()) {
        ec = os.error();
        os.clear_error();
      }
    }
    if (ec && !failed) { // one error, not one per pass
      emitError(UnknownLoc::get(op->getContext())) << "--dump-dir: cannot write " << path << ": " << ec.message();
      failed = true;
    }
  }

private:
  std::string dir;
  bool &failed;
  unsigned count = 0; // IR printing at module scope runs single-threaded
};

} // namespace

std::vector<std::string> tx8be::pipelinePassArguments(const OpPassManager &pm) {
  // The textual pipeline is the one public view of a nested pipeline's passes: "anchor(pass{options},
  // anchor(pass,pass),pass)", where a name followed by '(' anchors a nested pipeline.
  std::string text;
  llvm::raw_string_ostream os(text);
  pm.printAsTextualPipeline(os);
  std::vector<std::string> arguments;
  llvm::StringRef rest(text);
  while (!rest.empty()) {
    if (rest.front() == '{') {
      rest = rest.drop_front(bracedLength(rest));
      continue;
    }
    if (llvm::StringRef("(),").contains(rest.front()) || llvm::isSpace(rest.front())) {
      rest = rest.drop_front();
      continue;
    }
    llvm::StringRef name =
        rest.take_until([](char c) { return llvm::StringRef("(){},").contains(c) || llvm::isSpace(c); });
    rest = rest.drop_front(name.size());
    if (!rest.starts_with("("))
      arguments.push_back(name.str());
  }
  return arguments;
}

Status tx8be::checkPassArguments(const std::vector<std::string> &requested, const std::vector<std::string> &pipeline) {
  for (const std::string &name : requested)
    if (!llvm::is_contained(pipeline, name))
      return Status::error("--mlir-print-ir-after=" + name + ": no pass '" + name +
                           "' in the compile pipeline; its passes are " + llvm::join(pipeline, ", "));
  return Status();
}

Status tx8be::prepareDumpDir(const std::string &dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return Status::error("--dump-dir " + dir + ": cannot create the directory: " + ec.message());
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    if (!isDumpFileName(llvm::sys::path::filename(it->path())))
      continue;
    if (std::error_code removed = llvm::sys::fs::remove(it->path()))
      return Status::error("--dump-dir " + dir + ": cannot remove the earlier dump " + it->path() + ": " +
                           removed.message());
  }
  if (ec)
    return Status::error("--dump-dir " + dir + ": cannot list the directory: " + ec.message());
  return Status();
}

void tx8be::instrumentPipeline(PassManager &pm, const PipelineIntrospection &introspection, bool &dumpFailed) {
  if (introspection.printIRAfterAll || !introspection.printIRAfter.empty()) {
    llvm::StringSet<> after;
    for (const std::string &name : introspection.printIRAfter)
      after.insert(name);
    bool all = introspection.printIRAfterAll;
    pm.enableIRPrinting(
        /*shouldPrintBeforePass=*/[](Pass *, Operation *) { return false; },
        /*shouldPrintAfterPass=*/
        [all, after](Pass *pass, Operation *) { return all || after.contains(pass->getArgument()); },
        /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false, /*printAfterOnlyOnFailure=*/false, llvm::errs());
  }
  if (!introspection.dumpDir.empty())
    pm.enableIRPrinting(std::make_unique<DumpDirPrinterConfig>(introspection.dumpDir, dumpFailed));
  if (introspection.statistics)
    enablePassStatisticsReport(pm);
  if (introspection.timing)
    pm.enableTiming(*introspection.timing);
}
