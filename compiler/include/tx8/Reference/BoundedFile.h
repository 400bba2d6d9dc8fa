//===- BoundedFile.h - Reading files that may be hostile ---------*- C++ -*-===//
//
// Every file the tools read (models, --hw files, tensors, a bundle's manifest and consts.bin) comes through
// here: only regular files (a FIFO, a device such as /dev/zero or a directory is refused before it is opened,
// so nothing blocks or fills memory), no larger than a limit the caller states, and JSON no deeper than
// llvm::json::parse can recurse through safely.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_REFERENCE_BOUNDEDFILE_H
#define TX8_REFERENCE_BOUNDEDFILE_H

#include "tx8/Reference/Status.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace tx8::ref {

/// Size limits (bytes) by kind of file.
constexpr uint64_t kMaxTextFileBytes = uint64_t{16} << 20;  ///< JSON: --hw files, manifest.json
constexpr uint64_t kMaxModelFileBytes = uint64_t{2} << 30;  ///< .onnx / .mlir (protobuf's own limit is 2 GiB)
constexpr uint64_t kMaxDataFileBytes = uint64_t{16} << 30;  ///< tensors, consts.bin, device images
/// Nesting of JSON arrays and objects the tools accept (their files nest 3 deep).
constexpr unsigned kMaxJsonDepth = 64;

/// Reads the regular file `path` of at most `maxBytes` bytes into `out`. `what` names its role in errors
/// ("the hardware config", "the manifest").
Status readBoundedFile(const std::string &path, uint64_t maxBytes, const std::string &what, std::string &out);

/// Fails if `json` nests arrays/objects deeper than kMaxJsonDepth (strings are skipped; the text need not be
/// valid JSON: the parser says what else is wrong). `where` prefixes the error.
Status checkJsonDepth(std::string_view json, const std::string &where);

} // namespace tx8::ref

#endif // TX8_REFERENCE_BOUNDEDFILE_H
