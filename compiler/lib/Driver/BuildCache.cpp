//===- BuildCache.cpp - Configured build trees shared by bundles ----------===//
#include "BuildCache.h"
#include "Spawn.h"

#include "tx8/Codegen/Bundle.h"
#include "tx8/Reference/BoundedFile.h"
#include "tx8/Reference/TensorIO.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <optional>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using tx8::ref::Status;
using llvm::SmallString;
using llvm::StringRef;

namespace {

/// Slots per configuration: more than the runs a machine makes at once (ctest -j, xargs -P).
constexpr unsigned kSlots = 16;

/// `path` as a directory of this user's that no one else may write (made if missing, 0700), else false: a
/// directory someone else could write or replace would let them put code into the programs built there.
bool privateDirectory(const std::string &path) {
  if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST)
    return false;
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid())
    return false;
  return (st.st_mode & 022) == 0 || ::chmod(path.c_str(), st.st_mode & 0755) == 0;
}

/// <tmp>/tx8-aot-<uid>/builds, when it is a private directory.
std::optional<std::string> cacheRoot() {
  SmallString<256> dir;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, dir);
  llvm::sys::path::append(dir, "tx8-aot-" + std::to_string(::getuid()));
  if (!privateDirectory(dir.str().str()))
    return std::nullopt;
  llvm::sys::path::append(dir, "builds");
  if (!privateDirectory(dir.str().str()))
    return std::nullopt;
  return dir.str().str();
}

/// What decides a configured tree: cmake, its options and the environment its compiler checks read.
std::string configurationKey(const std::string &cmake, const std::vector<std::string> &options) {
  std::string key = cmake;
  for (const std::string &o : options)
    key += "\n" + o;
  for (const char *name : {"CC", "CFLAGS", "LDFLAGS", "PATH", "CMAKE_GENERATOR", "CMAKE_BUILD_TYPE"}) {
    const char *value = std::getenv(name);
    key += std::string("\n") + name + "=" + (value ? value : "");
  }
  return tx8::codegen::checksum(key);
}

/// An flock on a slot's lock file, released when destroyed.
class SlotLock {
public:
  explicit SlotLock(const std::string &path) {
    fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd);
      fd = -1;
    }
  }
  ~SlotLock() {
    if (fd >= 0)
      ::close(fd);
  }
  SlotLock(const SlotLock &) = delete;
  SlotLock &operator=(const SlotLock &) = delete;
  bool held() const { return fd >= 0; }

private:
  int fd = -1;
};

bool isBuildSource(StringRef name) {
  return name == "CMakeLists.txt" || name.ends_with(".c") || name.ends_with(".h");
}

/// Makes `to`'s build sources those of `from`: a file is written only when its bytes differ (ninja then
/// rebuilds exactly what changed), sources `from` lacks are removed.
Status syncSources(const std::string &from, const std::string &to) {
  if (auto ec = llvm::sys::fs::create_directories(to))
    return Status::error("cannot create " + to + ": " + ec.message());
  llvm::StringSet<> names;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(from, ec), end; it != end && !ec; it.increment(ec)) {
    StringRef name = llvm::sys::path::filename(it->path());
    if (!isBuildSource(name) || it->type() != llvm::sys::fs::file_type::regular_file)
      continue;
    names.insert(name);
    std::string data, old;
    if (Status s = tx8::ref::readBoundedFile(it->path(), tx8::ref::kMaxModelFileBytes, "the bundle's " + name.str(),
                                             data);
        !s.ok())
      return s;
    std::string target = to + "/" + name.str();
    if (llvm::sys::fs::exists(target) &&
        tx8::ref::readBoundedFile(target, tx8::ref::kMaxModelFileBytes, "a cached source", old).ok() && old == data)
      continue;
    if (Status s = tx8::ref::writeFileBytes(target, data.data(), data.size()); !s.ok())
      return s;
  }
  if (ec)
    return Status::error("cannot list " + from + ": " + ec.message());
  for (llvm::sys::fs::directory_iterator it(to, ec), end; it != end && !ec; it.increment(ec)) {
    StringRef name = llvm::sys::path::filename(it->path());
    if (isBuildSource(name) && !names.contains(name))
      llvm::sys::fs::remove(it->path());
  }
  return Status();
}

Status copyProgram(const std::string &built, const std::string &program) {
  std::string part = program + ".part";
  if (auto ec = llvm::sys::fs::create_directories(llvm::sys::path::parent_path(program)))
    return Status::error("cannot create the directory of " + program + ": " + ec.message());
  if (auto ec = llvm::sys::fs::copy_file(built, part))
    return Status::error("cannot copy " + built + " to " + part + ": " + ec.message());
  llvm::sys::fs::setPermissions(part, llvm::sys::fs::perms(0755));
  if (auto ec = llvm::sys::fs::rename(part, program))
    return Status::error("cannot rename " + part + " to " + program + ": " + ec.message());
  return Status();
}

} // namespace

Status tx8be::detail::buildInSharedTree(const std::string &bundleDir, const std::string &cmake,
                                        const std::vector<std::string> &configureOptions, const std::string &log,
                                        const std::string &program, bool &used) {
  used = false;
  if (const char *env = std::getenv("TX8_BUILD_CACHE"); env && std::string(env) == "0")
    return Status();
  std::optional<std::string> root = cacheRoot();
  if (!root)
    return Status();
  std::string key = configurationKey(cmake, configureOptions);
  for (unsigned slot = 0; slot < kSlots; ++slot) {
    std::string dir = *root + "/" + key + "-" + std::to_string(slot);
    SlotLock lock(dir + ".lock");
    if (!lock.held())
      continue;
    used = true;
    std::string src = dir + "/src", build = dir + "/build", error;
    if (Status s = syncSources(bundleDir, src); !s.ok())
      return s;
    auto configure = [&]() {
      std::vector<std::string> argv = {cmake, "-S", src, "-B", build, "-G", "Ninja"};
      argv.insert(argv.end(), configureOptions.begin(), configureOptions.end());
      return runIn(src, argv, log, error) == 0;
    };
    auto compile = [&]() { return runIn(src, {cmake, "--build", build}, log, error) == 0; };
    bool fresh = !llvm::sys::fs::exists(build + "/CMakeCache.txt");
    bool ok = (!fresh || configure()) && compile();
    // A tree another run left broken (killed mid-build, an SDK moved away) is configured afresh once.
    if (!ok && !fresh) {
      llvm::sys::fs::remove_directories(build);
      error.clear();
      ok = configure() && compile();
    }
    if (!ok)
      return Status::error("building the bundle " + bundleDir + " failed (log: " + log + ")" +
                           (error.empty() ? "" : ": " + error));
    return copyProgram(build + "/model", program);
  }
  return Status();
}
