//===- Spawn.h - Run a program in a directory with its output to a log ----*- C++ -*-===//
#ifndef TX8_DRIVER_SPAWN_H
#define TX8_DRIVER_SPAWN_H

#include <string>
#include <vector>

namespace tx8be::detail {

/// Runs `argv` (argv[0] a path to the program) in `cwd`, stdin from /dev/null, stdout+stderr to `log`.
/// Returns the exit code, or -1 (could not start) / -2 (killed by a signal) with `error` set.
int runIn(const std::string &cwd, const std::vector<std::string> &argv, const std::string &log, std::string &error);

} // namespace tx8be::detail

#endif // TX8_DRIVER_SPAWN_H
