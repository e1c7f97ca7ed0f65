// Device-buffer memory shared with a child process (a kta-worker, a python runner): a memfd,
// mapped here and passed to the child as a descriptor, so tensor bytes never cross a socket.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/ipc/unique_fd.h"

namespace kta::engine::ipc {

struct SharedBuffer {
  int fd = -1;
  uint8_t* data = nullptr;
  size_t bytes = 0;   // what was asked for
  size_t length = 0;  // mapped: whole pages, at least one
};

// A fresh zeroed buffer; throws std::runtime_error naming what failed. `name` labels the memfd
// (it shows in /proc/PID/fd).
SharedBuffer create_shared_buffer(size_t bytes, const char* name);

// Unmaps and closes; the buffer is empty afterwards.
void release_shared_buffer(SharedBuffer& b);

// A memfd holding `bytes` (compiled code handed to or taken from a worker; empty for one the
// worker fills); throws std::runtime_error naming what failed.
UniqueFd memfd_with(std::string_view bytes, const char* name);
// The whole content of the file behind `fd`, read from offset 0; false when it cannot be read.
bool read_fd(int fd, std::string* out);
// Replaces the content of the file behind `fd` with `bytes`; false when it cannot be written.
bool write_fd(int fd, std::string_view bytes);

}  // namespace kta::engine::ipc
