#include "engine/ipc/shared_buffer.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace kta::engine::ipc {

SharedBuffer create_shared_buffer(size_t bytes, const char* name) {
  SharedBuffer s;
  s.bytes = bytes;
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  s.length = std::max(page, (bytes + page - 1) / page * page);
  s.fd = memfd_create(name, MFD_CLOEXEC);
  if (s.fd < 0) throw std::runtime_error(std::string("memfd_create: ") + std::strerror(errno));
  if (ftruncate(s.fd, off_t(s.length)) != 0) {
    int e = errno;
    close(s.fd);
    throw std::runtime_error(std::string("cannot size buffer memory: ") + std::strerror(e));
  }
  void* p = mmap(nullptr, s.length, PROT_READ | PROT_WRITE, MAP_SHARED, s.fd, 0);
  if (p == MAP_FAILED) {
    int e = errno;
    close(s.fd);
    throw std::runtime_error(std::string("cannot map buffer memory: ") + std::strerror(e));
  }
  s.data = static_cast<uint8_t*>(p);
  return s;
}

void release_shared_buffer(SharedBuffer& b) {
  if (b.data != nullptr) munmap(b.data, b.length);
  if (b.fd >= 0) close(b.fd);
  b = SharedBuffer{};
}

UniqueFd memfd_with(std::string_view bytes, const char* name) {
  UniqueFd fd(memfd_create(name, MFD_CLOEXEC));
  if (!fd) throw std::runtime_error(std::string("memfd_create: ") + std::strerror(errno));
  if (!write_fd(fd.get(), bytes))
    throw std::runtime_error(std::string("cannot write ") + name + ": " + std::strerror(errno));
  return fd;
}

bool read_fd(int fd, std::string* out) {
  out->clear();
  char buf[1 << 16];
  for (off_t at = 0;;) {
    ssize_t n = pread(fd, buf, sizeof buf, at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) return true;
    out->append(buf, size_t(n));
    at += n;
  }
}

bool write_fd(int fd, std::string_view bytes) {
  if (ftruncate(fd, 0) != 0) return false;
  for (size_t at = 0; at < bytes.size();) {
    ssize_t n = pwrite(fd, bytes.data() + at, bytes.size() - at, off_t(at));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    at += size_t(n);
  }
  return true;
}

}  // namespace kta::engine::ipc
