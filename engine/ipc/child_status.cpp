#include "engine/ipc/child_status.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace kta::engine::ipc {

std::string signal_name(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev != nullptr ? std::string("SIG") + abbrev : "unknown";
}

std::string exit_text(const std::string& who, int status) {
  if (WIFSIGNALED(status)) {
    return who + " killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
           signal_name(WTERMSIG(status)) + ")";
  }
  if (WIFEXITED(status)) return who + " exited with status " + std::to_string(WEXITSTATUS(status));
  return who + " ended";
}

std::string fd_tail(int fd, size_t max_bytes) {
  if (fd < 0) return {};
  off_t size = lseek(fd, 0, SEEK_END);
  if (size <= 0) return {};
  off_t from = size > off_t(max_bytes) ? size - off_t(max_bytes) : 0;
  std::string s(size_t(size - from), '\0');
  ssize_t n = pread(fd, s.data(), s.size(), from);
  s.resize(n > 0 ? size_t(n) : 0);
  return s;
}

std::string last_line(const std::string& text) {
  size_t end = text.find_last_not_of("\n ");
  if (end == std::string::npos) return {};
  size_t begin = text.rfind('\n', end);
  begin = begin == std::string::npos ? 0 : begin + 1;
  std::string line = text.substr(begin, end + 1 - begin);
  return line.size() > 300 ? line.substr(0, 300) + "..." : line;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

}  // namespace kta::engine::ipc
