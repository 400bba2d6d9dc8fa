//===- BundleWriter.cpp - Writing a bundle directory all or nothing ------===//
#include "tx8/Codegen/Bundle.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tx8::codegen;
using llvm::SmallString;
using llvm::StringRef;

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
