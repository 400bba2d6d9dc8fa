//===- Status.h - tx8 API: errors and diagnostics -------------------*- C++ -*-===//
//
// What the public API (tx8/Api/) returns when something goes wrong: a Status with a kind (which front ends map to
// an exit code or an exception class) and one line for the user. Diagnostics of the compiler (MLIR's, with a
// location naming the model file and ONNX node) reach the caller as they are emitted through a DiagnosticHandler,
// already formatted as tx8-aot prints them.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_API_STATUS_H
#define TX8_API_STATUS_H

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tx8::api {

/// What went wrong, as a front end tells it apart: tx8-aot exits 2 on Usage and 1 on the others; the Python
/// module raises tx8.UsageError, ModelImportError, CompileError, BundleError or RunError.
enum class ErrorKind {
  None,
  Usage,   ///< a bad option or argument (whatever the files hold), or input tensors that are not the model's
  Import,  ///< the model cannot be read or imported
  Compile, ///< the backend pipeline, codegen or writing the bundle failed
  Bundle,  ///< a bundle directory cannot be loaded (missing, corrupt, edited, of another version)
  Run,     ///< building or running a bundle failed, or its input files cannot be read
};

class [[nodiscard]] Status {
public:
  Status() = default; ///< success
  static Status error(ErrorKind kind, std::string message, bool reported = false) {
    Status s;
    s.kind_ = kind == ErrorKind::None ? ErrorKind::Compile : kind;
    s.message_ = message.empty() ? std::string("unknown error") : std::move(message);
    s.reported_ = reported;
    return s;
  }
  bool ok() const { return kind_ == ErrorKind::None; }
  ErrorKind kind() const { return kind_; }
  /// One line: what tx8-aot prints after "tx8-aot: error: ".
  const std::string &message() const { return message_; }
  /// Whether the message already went to the DiagnosticHandler (tx8-aot then prints nothing more).
  bool reported() const { return reported_; }

private:
  ErrorKind kind_ = ErrorKind::None;
  std::string message_;
  bool reported_ = false;
};

enum class Severity { Error, Warning, Note };
const char *severityName(Severity severity); ///< "error", "warning", "note"

/// One diagnostic of the compiler, formatted: tx8-aot prints "tx8-aot: <severity>: <line>" and then each of `more`
/// (the message's further lines and its notes, "  note: WHERE: ..."). `line` is "WHERE: message" where WHERE names
/// the file ("model.mlir:3:5") or the model and the ONNX node an op came from ("model.onnx: node 'conv1'
/// (onnx.Conv)"); every line is at most 1,000 characters (a model can put anything in a name).
struct Diagnostic {
  Severity severity = Severity::Error;
  std::string line;
  std::vector<std::string> more;
};
/// Called as each diagnostic is emitted, on the thread that emits it (the compile's, not necessarily the caller's:
/// MLIR's pass manager runs function passes on a thread pool, one diagnostic at a time).
using DiagnosticHandler = std::function<void(const Diagnostic &)>;

/// Progress of a long step ("running the passes", 1.4 seconds), called when the step ends.
using ProgressHandler = std::function<void(const std::string &step, double seconds)>;

} // namespace tx8::api

#endif // TX8_API_STATUS_H
