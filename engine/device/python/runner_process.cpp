#include "engine/device/python/runner_process.h"

#include <chrono>
#include <stdexcept>

#include "engine/device/python/find_python.h"
#include "engine/ipc/channel.h"
#include "engine/ipc/child_status.h"

namespace kta::engine {

using nlohmann::json;

RunnerProcess::RunnerProcess(RunnerOptions options) : options_(std::move(options)) {
  child_.set_describe([](int status, const std::string& log) {
    std::string why = ipc::exit_text("python runner", status) + " during the request";
    std::string last = ipc::last_line(log);
    return last.empty() ? why : why + ": " + last;
  });
}

RunnerProcess::~RunnerProcess() {
  stop();
  for (auto& [id, s] : buffers_) ipc::release_shared_buffer(s);
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
  ipc::SpawnSpec spec;
  spec.argv = {python, script.string(), "--fd", "3"};
  std::string why = child_.start(spec, [&] { return greet(python); });
  if (why.empty())
    stats_.start_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return why;
}

std::string RunnerProcess::greet(const std::string& python) {
  ++stats_.starts;
  std::string failure;
  auto hello = exchange(
      {{"op", "hello"}, {"version", options_.protocol_version}, {"device", options_.device}},
      options_.start_timeout_s, -1, &failure);
  if (!hello || !hello->value("ok", false))
    return "the python runner did not start: " +
           (hello ? hello->value("error", std::string("no reply")) : failure);
  if (hello->value("version", 0) != options_.protocol_version) {
    return "protocol version mismatch: engine " + std::to_string(options_.protocol_version) +
           ", runner " + std::to_string(hello->value("version", 0));
  }
  hello_ = *hello;
  hello_["python_path"] = python;
  zero_copy_ = hello->value("zero_copy", true);
  for (auto& [id, s] : buffers_) {
    auto r = exchange({{"op", "alloc"}, {"id", id}, {"bytes", s.bytes}}, 30, s.fd, &failure);
    if (!r || !r->value("ok", false)) {
      return "the python runner cannot map buffer memory: " +
             (r ? r->value("error", std::string()) : failure);
    }
    s.mapped = child_.generation();
  }
  return {};
}

std::string RunnerProcess::ensure() {
  if (child_.running()) return {};
  return start();
}

std::string RunnerProcess::log_tail() const { return child_.log_tail(); }

json RunnerProcess::lost(const std::string& why) {
  stop();
  return {{"ok", false}, {"error", why}, {"restarted", true}, {"log", ipc::clip(log_tail())}};
}

// Sends one message and waits for its reply; nullopt with *failure when the child is gone.
std::optional<json> RunnerProcess::exchange(const json& q, double timeout_s, int fd,
                                            std::string* failure) {
  ++stats_.requests;
  ipc::Reply r = child_.request(q, timeout_s, fd);
  if (!r) *failure = r.error;
  return std::move(r.message);
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
  if (child_.running()) {
    std::string failure;
    auto r = exchange({{"op", "alloc"}, {"id", id}, {"bytes", bytes}}, 30, s.fd, &failure);
    if (r && r->value("ok", false))
      s.mapped = child_.generation();
    else
      stop();  // the next request starts a child that maps every buffer
  }
  buffers_[id] = s;
  return id;
}

void RunnerProcess::free(uint64_t id) {
  auto it = buffers_.find(id);
  if (it == buffers_.end()) return;
  if (child_.running() && it->second.mapped == child_.generation()) {
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
  modules_.push_back(Module{q, reply->value("module", int64_t(0)), child_.generation()});
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
  if (m.generation == child_.generation()) return m.child_id;
  json r = request(m.request, timeout_s);
  if (!r.value("ok", false)) {
    *error =
        "cannot reload the module in a fresh python runner: " + r.value("error", std::string());
    return std::nullopt;
  }
  m.child_id = r.value("module", int64_t(0));
  m.generation = child_.generation();
  return m.child_id;
}

}  // namespace kta::engine
