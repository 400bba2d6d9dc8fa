//===- Spawn.cpp - Run a program in a directory with its output to a log -===//
//
// posix_spawn with a chdir file action, because llvm::sys::ExecuteAndWait has no working-directory option.
//
//===----------------------------------------------------------------------===//
#include "Spawn.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

int tx8be::detail::runIn(const std::string &cwd, const std::vector<std::string> &argv, const std::string &log,
                         std::string &error) {
  std::vector<char *> args;
  for (const std::string &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // Opened before the chdir, so a relative log path means what it meant to the caller.
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  pid_t pid;
  int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    error = "cannot run " + argv[0] + " in " + cwd + ": " + std::strerror(rc);
    return -1;
  }
  int status;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      error = "cannot wait for " + argv[0] + ": " + std::strerror(errno);
      return -1;
    }
  }
  if (WIFSIGNALED(status)) {
    error = "killed by signal " + std::to_string(WTERMSIG(status));
    return -2;
  }
  return WEXITSTATUS(status);
}

