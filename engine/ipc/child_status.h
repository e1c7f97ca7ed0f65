// How a child process of the engine (a kta-worker, a python runner) ended, in words: the shared
// pieces of their failure messages, so both name signals and last words the same way.
#pragma once

#include <string>

namespace kta::engine::ipc {

// "SIGSEGV", "SIGKILL", ... ("unknown" when the system has no name for it).
std::string signal_name(int sig);

// "<who> killed by signal 11 (SIGSEGV)", "<who> exited with status 3" or "<who> ended", from a
// waitpid status.
std::string exit_text(const std::string& who, int status);

// The last `max_bytes` written to a log file descriptor (a memfd the child writes to).
std::string fd_tail(int fd, size_t max_bytes = 65536);

// The last non-empty line of a text, clipped to 300 characters: an abort message, a C++
// exception or the exception line that ends a Python traceback.
std::string last_line(const std::string& text);

// "%g" seconds, as messages print them ("timeout after 10 s").
std::string seconds_text(double s);

}  // namespace kta::engine::ipc
