//===- Status.h - Error reporting for the reference library -----*- C++ -*-===//
//
// Every fallible function of the reference library (tensor I/O, kernels) returns a Status: either
// success or a one-line human-readable message. Nothing throws across the library boundary, so the
// compiler can turn a Status straight into a diagnostic.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_REFERENCE_STATUS_H
#define TX8_REFERENCE_STATUS_H

#include <string>
#include <utility>

namespace tx8::ref {

class [[nodiscard]] Status {
public:
  /// Success.
  Status() = default;
  /// Failure with a message; an empty message is replaced so that failure is never mistaken for success.
  static Status error(std::string message) {
    Status s;
    s.message_ = message.empty() ? std::string("unknown error") : std::move(message);
    return s;
  }

  bool ok() const { return message_.empty(); }
  /// The error message; empty on success.
  const std::string &message() const { return message_; }

private:
  std::string message_;
};

} // namespace tx8::ref

#endif // TX8_REFERENCE_STATUS_H
