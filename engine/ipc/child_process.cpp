#include "engine/ipc/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <thread>

#include "engine/ipc/child_status.h"

extern char** environ;

namespace kta::engine::ipc {
namespace {

StartFailure failure(StartFailure::Step step, const std::string& reason) {
  return StartFailure{step, reason};
}

std::string errno_text(int e) { return std::strerror(e); }

// argv[0] on `env`'s PATH (execvpe's rule: the child's PATH, else /bin:/usr/bin); empty when
// no executable file of that name is there.
std::string find_on_path(const std::string& name, const std::vector<std::string>& env) {
  if (name.find('/') != std::string::npos) return name;
  std::string path = "/bin:/usr/bin";
  for (const std::string& e : env)
    if (e.rfind("PATH=", 0) == 0) path = e.substr(5);
  for (size_t begin = 0; begin <= path.size();) {
    size_t end = path.find(':', begin);
    if (end == std::string::npos) end = path.size();
    std::string dir = path.substr(begin, end - begin);
    std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
    struct stat st {};
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        access(candidate.c_str(), X_OK) == 0)
      return candidate;
    begin = end + 1;
  }
  return {};
}

// posix_spawn's file actions, attributes and the descriptors they refer to: every descriptor
// handed to the child is first duplicated above the standard ones (close-on-exec), so that no
// dup2 of one can clobber another and none leaks into other children started meanwhile.
class SpawnSetup {
 public:
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions_);
    posix_spawnattr_init(&attr_);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions_);
    posix_spawnattr_destroy(&attr_);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;

  std::optional<StartFailure> prepare(const SpawnSpec& spec) {
    posix_spawn_file_actions_addopen(&actions_, 0, "/dev/null", O_RDONLY, 0);
    if (auto f = route_output(spec.output)) return f;
    for (auto [here, there] : spec.fds) {
      int fd = hold(here);
      if (fd < 0)
        return failure(StartFailure::Step::system,
                       "cannot pass a descriptor: " + errno_text(errno));
      posix_spawn_file_actions_adddup2(&actions_, fd, there);
    }
    if (!spec.cwd.empty()) {
      struct stat st {};
      int e = stat(spec.cwd.c_str(), &st) != 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
      if (e != 0)
        return failure(StartFailure::Step::cwd,
                       "cannot enter " + spec.cwd.string() + ": " + errno_text(e));
      posix_spawn_file_actions_addchdir_np(&actions_, spec.cwd.c_str());
    }
    // Its own group, and for agents its own session: a kill of -pid reaches all it started.
    short flags = spec.new_session ? POSIX_SPAWN_SETSID : POSIX_SPAWN_SETPGROUP;
    posix_spawnattr_setflags(&attr_, flags);
    posix_spawnattr_setpgroup(&attr_, 0);
    return std::nullopt;
  }

  const posix_spawn_file_actions_t* actions() const { return &actions_; }
  const posix_spawnattr_t* attr() const { return &attr_; }
  UniqueFd take_pipe() { return std::move(pipe_read_); }

 private:
  int hold(int fd) {
    int copy = fcntl(fd, F_DUPFD_CLOEXEC, 10);
    if (copy >= 0) held_.emplace_back(copy);
    return copy;
  }

  void output_to(int fd) {
    posix_spawn_file_actions_adddup2(&actions_, fd, 1);
    posix_spawn_file_actions_adddup2(&actions_, fd, 2);
  }

  std::optional<StartFailure> route_output(const Output& o) {
    switch (o.to) {
      case Output::To::inherit:
        return std::nullopt;
      case Output::To::discard:
        posix_spawn_file_actions_addopen(&actions_, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_adddup2(&actions_, 1, 2);
        return std::nullopt;
      case Output::To::fd: {
        int fd = hold(o.fd);
        if (fd < 0)
          return failure(StartFailure::Step::output, "bad output descriptor: " + errno_text(errno));
        output_to(fd);
        return std::nullopt;
      }
      case Output::To::file: {
        int fd = ::open(o.path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (fd < 0)
          return failure(StartFailure::Step::output,
                         "cannot open log " + o.path.string() + ": " + errno_text(errno));
        held_.emplace_back(fd);
        output_to(fd);
        return std::nullopt;
      }
      case Output::To::pipe: {
        int p[2];
        if (pipe2(p, O_CLOEXEC) != 0)
          return failure(StartFailure::Step::output, "cannot create a pipe: " + errno_text(errno));
        pipe_read_.reset(p[0]);
        held_.emplace_back(p[1]);
        output_to(p[1]);
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

  posix_spawn_file_actions_t actions_;
  posix_spawnattr_t attr_;
  std::vector<UniqueFd> held_;  // closed here once the child has its copies
  UniqueFd pipe_read_;
};

}  // namespace

std::string StartFailure::text(const std::string& program) const {
  switch (step) {
    case Step::program:
      return "cannot run '" + program + "': " + reason;
    case Step::output:
    case Step::cwd:
    case Step::system:
      return reason;
  }
  return reason;
}

ChildProcess::ChildProcess(ChildProcess&& o) noexcept
    : pid_(std::exchange(o.pid_, -1)),
      status_(std::exchange(o.status_, std::nullopt)),
      output_(std::move(o.output_)) {}

ChildProcess& ChildProcess::operator=(ChildProcess&& o) noexcept {
  if (this != &o) {
    reset();
    pid_ = std::exchange(o.pid_, -1);
    status_ = std::exchange(o.status_, std::nullopt);
    output_ = std::move(o.output_);
  }
  return *this;
}

void ChildProcess::adopt(pid_t pid, UniqueFd output) {
  pid_ = pid;
  status_.reset();
  output_ = std::move(output);
}

void ChildProcess::reset() {
  kill();
  pid_ = -1;
  status_.reset();
  output_.reset();
}

std::optional<StartFailure> ChildProcess::spawn(const SpawnSpec& spec) {
  reset();
  if (spec.argv.empty()) return failure(StartFailure::Step::program, "empty command");
  SpawnSetup setup;
  if (auto f = setup.prepare(spec)) return f;
  std::vector<char*> argv;
  for (const std::string& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  int rc = 0;
  if (spec.env) {
    std::vector<char*> envp;
    for (const std::string& e : *spec.env) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    std::string program = find_on_path(spec.argv[0], *spec.env);
    rc = program.empty() ? ENOENT
                         : posix_spawn(&pid, program.c_str(), setup.actions(), setup.attr(),
                                       argv.data(), envp.data());
  } else {
    rc = posix_spawnp(&pid, argv[0], setup.actions(), setup.attr(), argv.data(), environ);
  }
  if (rc != 0) return failure(StartFailure::Step::program, errno_text(rc));
  adopt(pid, setup.take_pipe());
  return std::nullopt;
}

std::optional<StartFailure> ChildProcess::fork(const std::function<int(int out_fd)>& body) {
  reset();
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0)
    return failure(StartFailure::Step::output, "cannot create a pipe: " + errno_text(errno));
  std::fflush(nullptr);  // or buffered output would be written twice
  pid_t pid = ::fork();
  if (pid < 0) {
    int e = errno;
    ::close(p[0]);
    ::close(p[1]);
    return failure(StartFailure::Step::system, "fork failed: " + errno_text(e));
  }
  if (pid == 0) {
    setpgid(0, 0);
    ::close(p[0]);
    int rc = 0;
    try {
      rc = body(p[1]);
    } catch (...) {
      std::terminate();  // as an uncaught exception would: it must not unwind into our caller
    }
    ::_exit(rc);
  }
  setpgid(pid, pid);  // both sides set it, so it holds before either goes on
  ::close(p[1]);
  adopt(pid, UniqueFd(p[0]));
  return std::nullopt;
}

std::optional<int> ChildProcess::try_wait() {
  if (status_ || pid_ <= 0) return status_;
  int status = 0;
  pid_t r;
  do {
    r = waitpid(pid_, &status, WNOHANG);
  } while (r < 0 && errno == EINTR);
  if (r == pid_) status_ = status;
  if (r < 0) status_ = 0;  // not our child any more: nothing left to reap
  return status_;
}

std::optional<int> ChildProcess::wait(Clock::time_point until) {
  auto nap = std::chrono::milliseconds(1);
  while (!try_wait() && pid_ > 0) {
    auto now = Clock::now();
    if (now >= until) return std::nullopt;
    std::this_thread::sleep_for(std::min<Clock::duration>(nap, until - now));
    nap = std::min(nap * 2, std::chrono::milliseconds(20));
  }
  return status_;
}

int ChildProcess::wait() {
  if (pid_ <= 0) return 0;
  while (!status_) {
    int status = 0;
    pid_t r = waitpid(pid_, &status, 0);
    if (r == pid_) status_ = status;
    if (r < 0 && errno != EINTR) status_ = 0;
  }
  return *status_;
}

int ChildProcess::kill() {
  if (pid_ <= 0) return 0;
  ::kill(-pid_, SIGKILL);
  if (!status_) {
    ::kill(pid_, SIGKILL);
    wait();
  }
  return *status_;
}

int ChildProcess::terminate(std::chrono::nanoseconds grace) {
  if (pid_ <= 0) return 0;
  ::kill(-pid_, SIGTERM);
  auto until = Clock::now() + grace;
  while (Clock::now() < until) {
    if (try_wait() && !group_alive()) return *status_;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return kill();
}

bool ChildProcess::group_alive() const { return pid_ > 0 && ::kill(-pid_, 0) == 0; }

std::string ChildProcess::ended(const std::string& who) const {
  return status_ ? exit_text(who, *status_) : who + " is running";
}

bool read_available(int fd, std::string* out, size_t cap, bool* truncated) {
  char buf[65536];
  ssize_t n;
  do {
    n = ::read(fd, buf, sizeof buf);
  } while (n < 0 && errno == EINTR);
  if (n < 0 && errno == EAGAIN) return true;
  if (n <= 0) return false;
  size_t keep = out->size() < cap ? std::min(cap - out->size(), size_t(n)) : 0;
  out->append(buf, keep);
  if (keep < size_t(n) && truncated != nullptr) *truncated = true;
  return true;
}

}  // namespace kta::engine::ipc
