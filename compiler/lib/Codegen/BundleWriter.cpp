//===- BundleWriter.cpp - Writing a bundle directory all or nothing ------===//
#include "tx8/Codegen/Bundle.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

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

/// The entries of the bundle directory `dir` that a bundle does not consist of (its files and the
/// build-<target> directories and logs `tx8-aot run` adds), comma-separated; "" if none. Replacing the bundle
/// would delete them.
std::string foreignEntries(StringRef dir, const BundleFiles &files) {
  std::string foreign;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    StringRef name = llvm::sys::path::filename(it->path());
    // groups_<k>.c: a C source of a longer model compiled into this directory before.
    StringRef k = name;
    bool source = k.consume_front("groups_") && k.consume_back(".c") && !k.empty() &&
                  llvm::all_of(k, [](char c) { return llvm::isDigit(c); });
    bool ours = files.count(name.str()) || name.starts_with("build-") || source;
    if (!ours)
      foreign += (foreign.empty() ? "" : ", ") + name.str();
  }
  return foreign;
}

/// An exclusive flock on a directory while in scope (nothing if it cannot be opened: then there is no
/// directory to race in either, and the renames report the problem).
class ParentLock {
public:
  explicit ParentLock(StringRef dir) {
    fd = ::open(dir.empty() ? "." : dir.str().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0)
      while (::flock(fd, LOCK_EX) != 0 && errno == EINTR) {
      }
  }
  ~ParentLock() {
    if (fd >= 0)
      ::close(fd); // releases the lock
  }
  ParentLock(const ParentLock &) = delete;
  ParentLock &operator=(const ParentLock &) = delete;

private:
  int fd = -1;
};

} // namespace

LogicalResult tx8::codegen::writeBundleDir(const BundleFiles &files, StringRef dir, std::string &error) {
  SmallString<256> target(dir);
  // Absolute: LLVM puts a relative unique-directory model under the system temp directory.
  if (auto ec = llvm::sys::fs::make_absolute(target)) {
    error = "cannot resolve '" + dir.str() + "': " + ec.message();
    return failure();
  }
  llvm::sys::path::remove_dots(target, true);
  // -o at a symbolic link means the directory it points to (renaming would replace the link itself).
  if (bool link = false; !llvm::sys::fs::is_symlink_file(target, link) && link) {
    SmallString<256> real;
    if (auto ec = llvm::sys::fs::real_path(target, real)) {
      error = "'" + target.str().str() + "' is a symbolic link that does not resolve: " + ec.message();
      return failure();
    }
    target = real;
  }
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
  // Compiles into the same directory take turns (a lock on the parent directory, held for these renames), so
  // each sees the bundle the one before it left.
  ParentLock lock(parent);
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
    std::string foreign = foreignEntries(target, files);
    if (!foreign.empty()) {
      error = "'" + target.str().str() + "' holds files that are not part of a bundle (" + foreign +
              "); not replacing it: move them out first";
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
