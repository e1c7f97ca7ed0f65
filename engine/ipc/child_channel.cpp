#include "engine/ipc/child_channel.h"

#include <fcntl.h>
#include <sys/mman.h>

#include "engine/ipc/child_status.h"

namespace kta::engine::ipc {

ChildChannel::ChildChannel(std::string who, std::string log_name)
    : who_(std::move(who)), log_name_(std::move(log_name)) {
  describe_ = [this](int status, const std::string& log) {
    std::string why = exit_text(who_, status);
    std::string last = last_line(log);
    return last.empty() ? why : why + ": " + last;
  };
}

std::string ChildChannel::start(SpawnSpec command, const std::function<std::string()>& setup) {
  stop();
  if (!log_) {
    log_.reset(memfd_create(log_name_.c_str(), MFD_CLOEXEC));
    if (log_) fcntl(log_.get(), F_SETFL, O_APPEND);
  }
  clear_log();
  std::string error;
  auto pair = Channel::open_pair(who_, &error);
  if (!pair) return "cannot start the " + who_ + ": " + error;
  UniqueFd child_end = std::move(pair->second);
  command.fds.emplace_back(child_end.get(), 3);
  command.output = log_ ? Output::to_fd(log_.get()) : Output::discard();
  auto failed = child_.spawn(command);
  child_end.reset();  // only the child holds it now: its death closes the channel
  if (failed) {
    if (failed->step == StartFailure::Step::program)
      return "cannot start the " + who_ + " '" + command.argv.at(0) + "': " + failed->reason;
    return "cannot start the " + who_ + ": " + failed->text(command.argv.at(0));
  }
  channel_ = std::move(pair->first);
  ++generation_;
  std::string why = setup ? setup() : std::string();
  if (!why.empty()) stop();
  return why;
}

void ChildChannel::stop() {
  child_.kill();
  channel_.close();
}

std::string ChildChannel::why_ended() {
  // The socket closed: the child died or is dying; give it a moment to finish.
  std::optional<int> status = child_.wait(Clock::now() + std::chrono::seconds(5));
  if (!status) status = child_.kill();
  return describe_(*status, log_tail());
}

Reply ChildChannel::request(const json& message, double timeout_s, int fd) {
  if (!running()) {
    Reply r;
    r.failure = Reply::Failure::closed;
    r.error = "the " + who_ + " is not running";
    return r;
  }
  Reply r = channel_.request(message, Deadline::after(timeout_s), fd);
  if (r) return r;
  if (r.failure == Reply::Failure::closed) r.error = why_ended();
  stop();
  return r;
}

std::string ChildChannel::log_tail() const { return fd_tail(log_.get()); }

void ChildChannel::clear_log() {
  if (log_ && ftruncate(log_.get(), 0) != 0) {
    // A log that keeps its old text only makes failure messages longer.
  }
}

}  // namespace kta::engine::ipc
