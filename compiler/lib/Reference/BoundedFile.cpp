//===- BoundedFile.cpp - Reading files that may be hostile ---------------===//
#include "tx8/Reference/BoundedFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <sys/stat.h>

namespace tx8::ref {

Status readBoundedFile(const std::string &path, uint64_t maxBytes, const std::string &what, std::string &out) {
  out.clear();
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return Status::error(path + ": cannot read " + what + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    return Status::error(path + ": " + what + " is not a regular file (" +
                         (S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a pipe" : "a device or socket") +
                         ")");
  if (static_cast<uint64_t>(st.st_size) > maxBytes)
    return Status::error(path + ": " + what + " is " + std::to_string(st.st_size) + " bytes, more than the " +
                         std::to_string(maxBytes) + " accepted");
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    return Status::error(path + ": cannot read " + what + ": " + std::strerror(errno));
  out.resize(static_cast<size_t>(st.st_size));
  size_t got = out.empty() ? 0 : std::fread(&out[0], 1, out.size(), f);
  // A file that grew since stat() is read no further than the limit.
  char extra;
  bool grew = std::fread(&extra, 1, 1, f) == 1;
  bool bad = std::ferror(f) != 0;
  std::fclose(f);
  if (bad || got != out.size())
    return Status::error(path + ": read error in " + what);
  if (grew)
    return Status::error(path + ": " + what + " changed while it was read");
  return Status();
}

Status checkJsonDepth(std::string_view json, const std::string &where) {
  unsigned depth = 0;
  bool inString = false;
  for (size_t i = 0; i < json.size(); ++i) {
    char c = json[i];
    if (inString) {
      if (c == '\\')
        ++i; // the escaped character cannot end the string
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        return Status::error(where + ": JSON nested more than " + std::to_string(kMaxJsonDepth) + " levels deep");
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return Status();
}

} // namespace tx8::ref
