//===- BuildCache.h - Configured build trees shared by bundles ------------*- C++ -*-===//
//
// cmake's configure step (compiler identification, ABI and thread checks) is most of a small bundle's build
// time. A bundle without a build tree of its own is built in a shared tree already configured for the same SDK,
// target and compiler environment: its sources are copied in (only the files that changed, so ninja recompiles
// only those; another CMakeLists.txt re-runs cmake's generate step, not the checks), ninja builds, and the
// program is copied out. Trees live in the temporary directory, one per slot, each locked (flock) while used:
// parallel runs take different slots. TX8_BUILD_CACHE=0 turns this off.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_DRIVER_BUILDCACHE_H
#define TX8_DRIVER_BUILDCACHE_H

#include "tx8/Reference/Status.h"

#include <string>
#include <vector>

namespace tx8be::detail {

/// Builds the bundle in `bundleDir` with `cmake` in a shared tree configured with `configureOptions` (the
/// -D options; the same options, cmake and compiler environment share trees) and copies the program to
/// `program` (its directory created). `used` is false when no shared tree could be had (turned off, an unsafe
/// cache directory, every slot busy): nothing was done and the caller builds in a tree of its own. Output of
/// cmake and ninja goes to `log`.
tx8::ref::Status buildInSharedTree(const std::string &bundleDir, const std::string &cmake,
                                   const std::vector<std::string> &configureOptions, const std::string &log,
                                   const std::string &program, bool &used);

} // namespace tx8be::detail

#endif // TX8_DRIVER_BUILDCACHE_H
