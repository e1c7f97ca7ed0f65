#include "engine/device/python/runner_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "engine/device/python/find_python.h"
#include "engine/device/remote/protocol.h"
#include "engine/ipc/child_status.h"

extern char** environ;

namespace kta::engine {

using nlohmann::json;

RunnerProcess::RunnerProcess(RunnerOptions options) : options_(std::move(options)) {}

RunnerProcess::~RunnerProcess() {
  stop();
  for (auto& [id, s] : buffers_) ipc::release_shared_buffer(s);
  if (log_fd_ >= 0) close(log_fd_);
}

std::string RunnerProcess::start() {
  auto t0 = std::chrono::steady_clock::now();
  std::string python = options_.python;
  if (python.empty()) {
    PythonChoice c = find_python();
    if (c.path.empty()) return c.error;
    python = c.path;
  }
  std::filesystem::path script = options_.script.empty() ? find_runner_script() : options_.script;
  if (script.empty())
    return "the python runner script kta_runner.py was not found (set KTA_RUNNER)";
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    return std::string("cannot create the runner socket: ") + std::strerror(errno);
  if (log_fd_ < 0) {
    log_fd_ = memfd_create("kta-runner-log", MFD_CLOEXEC);
    if (log_fd_ >= 0) fcntl(log_fd_, F_SETFL, O_APPEND);
  }
  if (log_fd_ >= 0 && ftruncate(log_fd_, 0) != 0) {
    // A log that keeps its old text only makes failure messages longer.
  }
  std::string script_text = script.string();
  std::vector<char*> argv = {python.data(), script_text.data(), const_cast<char*>("--fd"),
                             const_cast<char*>("3"), nullptr};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, sv[1], 3);
  if (log_fd_ >= 0) {
    posix_spawn_file_actions_adddup2(&fa, log_fd_, 1);
    posix_spawn_file_actions_adddup2(&fa, log_fd_, 2);
  }
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Its own process group: a kill on timeout takes whatever the module started with it.
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, python.c_str(), &fa, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  close(sv[1]);
  if (rc != 0) {
    close(sv[0]);
    return "cannot start the python runner '" + python + "': " + std::strerror(rc);
  }
  pid_ = pid;
  socket_ = sv[0];
  ++generation_;
  ++stats_.starts;
  std::string failure;
  auto hello = exchange(
      {{"op", "hello"}, {"version", options_.protocol_version}, {"device", options_.device}},
      options_.start_timeout_s, -1, &failure);
  if (!hello || !hello->value("ok", false)) {
    std::string why = hello ? hello->value("error", std::string("no reply")) : failure;
    stop();
    return "the python runner did not start: " + why;
  }
  if (hello->value("version", 0) != options_.protocol_version) {
    stop();
    return "protocol version mismatch: engine " + std::to_string(options_.protocol_version) +
           ", runner " + std::to_string(hello->value("version", 0));
  }
  hello_ = *hello;
  hello_["python_path"] = python;
  zero_copy_ = hello->value("zero_copy", true);
  for (auto& [id, s] : buffers_) {
    auto r = exchange({{"op", "alloc"}, {"id", id}, {"bytes", s.bytes}}, 30, s.fd, &failure);
    if (!r || !r->value("ok", false)) {
      stop();
      return "the python runner cannot map buffer memory: " +
             (r ? r->value("error", std::string()) : failure);
    }
    s.mapped = generation_;
  }
  stats_.start_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return {};
}

void RunnerProcess::stop() {
  if (pid_ > 0) {
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
    while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
  if (socket_ >= 0) close(socket_);
  pid_ = -1;
  socket_ = -1;
}

std::string RunnerProcess::ensure() {
  if (pid_ > 0) return {};
  stop();
  return start();
}

std::string RunnerProcess::log_tail() const { return ipc::fd_tail(log_fd_); }

std::string RunnerProcess::why_ended(int status) const {
  std::string why = ipc::exit_text("python runner", status);
  why += " during the request";
  std::string last = ipc::last_line(log_tail());
  if (!last.empty()) why += ": " + last;
  return why;
}

json RunnerProcess::lost(const std::string& why) {
  stop();
  return {{"ok", false}, {"error", why}, {"restarted", true}, {"log", remote::clip(log_tail())}};
}

// Sends one message and waits for its reply; nullopt with *failure when the child is gone.
std::optional<json> RunnerProcess::exchange(const json& q, double timeout_s, int fd,
                                            std::string* failure) {
  ++stats_.requests;
  auto gone = [&](const std::string& why) -> std::optional<json> {
    *failure = why;
    stop();
    return std::nullopt;
  };
  auto reap = [&]() {
    int status = 0;
    pid_t got = 0;
    for (int i = 0; i < 300 && (got = waitpid(pid_, &status, WNOHANG)) == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (got == 0) {
      kill(-pid_, SIGKILL);
      waitpid(pid_, &status, 0);
    }
    pid_ = -1;
    return why_ended(status);
  };
  if (!remote::send_message(socket_, q, fd)) return gone(reap());
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return gone("timeout after " + ipc::seconds_text(timeout_s) + " s");
    pollfd p{socket_, POLLIN, 0};
    int n = poll(&p, 1, int(std::min<long>(left.count(), 1000)));
    if (n < 0 && errno != EINTR) return gone(std::string("poll failed: ") + std::strerror(errno));
    if (n <= 0) continue;
    std::optional<json> reply = remote::receive_message(socket_);
    if (reply) return reply;
    // Nothing readable: the child closed the socket (it died), or it sent something that is not
    // a protocol message.
    if (waitpid(pid_, nullptr, WNOHANG) == 0 && (p.revents & POLLHUP) == 0) {
      char probe;
      if (recv(socket_, &probe, 1, MSG_PEEK | MSG_DONTWAIT) != 0)
        return gone("protocol error: the python runner sent a message that is not JSON");
    }
    return gone(reap());
  }
}

json RunnerProcess::request(const json& q, double timeout_s) {
  if (std::string why = ensure(); !why.empty())
    return {{"ok", false}, {"error", why}, {"start_failed", true}};
  std::string failure;
  auto r = exchange(q, timeout_s, -1, &failure);
  if (!r) return lost(failure);
  return *r;
}

uint64_t RunnerProcess::alloc(size_t bytes) {
  Shared s;
  static_cast<ipc::SharedBuffer&>(s) = ipc::create_shared_buffer(bytes, "kta-runner-buffer");
  uint64_t id = next_buffer_++;
  if (pid_ > 0) {
    std::string failure;
    auto r = exchange({{"op", "alloc"}, {"id", id}, {"bytes", bytes}}, 30, s.fd, &failure);
    if (r && r->value("ok", false))
      s.mapped = generation_;
    else
      stop();  // the next request starts a child that maps every buffer
  }
  buffers_[id] = s;
  return id;
}

void RunnerProcess::free(uint64_t id) {
  auto it = buffers_.find(id);
  if (it == buffers_.end()) return;
  if (pid_ > 0 && it->second.mapped == generation_) {
    std::string failure;
    if (!exchange({{"op", "free"}, {"id", id}}, 30, -1, &failure)) stop();
  }
  ipc::release_shared_buffer(it->second);
  buffers_.erase(it);
}

uint8_t* RunnerProcess::data(uint64_t id) {
  auto it = buffers_.find(id);
  if (it == buffers_.end()) throw std::runtime_error("unknown runner buffer " + std::to_string(id));
  return it->second.data;
}

size_t RunnerProcess::bytes(uint64_t id) const {
  auto it = buffers_.find(id);
  return it == buffers_.end() ? 0 : it->second.bytes;
}

uint64_t RunnerProcess::compile(const json& q, double timeout_s, json* reply) {
  *reply = request(q, timeout_s);
  if (!reply->value("ok", false)) return 0;
  modules_.push_back(Module{q, reply->value("module", int64_t(0)), generation_});
  return modules_.size();
}

std::optional<int64_t> RunnerProcess::module_id(uint64_t id, double timeout_s, std::string* error) {
  if (id == 0 || id > modules_.size()) {
    *error = "unknown module " + std::to_string(id);
    return std::nullopt;
  }
  if (std::string why = ensure(); !why.empty()) {
    *error = why;
    return std::nullopt;
  }
  Module& m = modules_[id - 1];
  if (m.generation == generation_) return m.child_id;
  json r = request(m.request, timeout_s);
  if (!r.value("ok", false)) {
    *error =
        "cannot reload the module in a fresh python runner: " + r.value("error", std::string());
    return std::nullopt;
  }
  m.child_id = r.value("module", int64_t(0));
  m.generation = generation_;
  return m.child_id;
}

}  // namespace kta::engine
