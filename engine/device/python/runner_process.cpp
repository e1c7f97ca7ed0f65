#include "engine/device/python/runner_process.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "engine/device/python/find_python.h"
#include "engine/ipc/channel.h"
#include "engine/ipc/child_status.h"
#include "engine/ipc/worker_view.h"

namespace kta::engine {

namespace fs = std::filesystem;
using nlohmann::json;

RunnerOptions runner_options(const Settings& s) {
  RunnerOptions o;
  o.search = {s.python, s.path};
  o.script = s.runner_script;
  o.environment = s.environment;
  if (!s.cache_dir.empty()) o.cache_root = s.cache_dir / "python";
  return o;
}

RunnerProcess::RunnerProcess(RunnerOptions options) : options_(std::move(options)) {
  child_.set_describe([](int status, const std::string& log) {
    std::string why =
        ipc::exit_text("python runner", ipc::worker_status(ipc::worker_isolation(), status)) +
        " during the request";
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
    PythonChoice c = find_python(options_.search);
    if (c.path.empty()) return c.error;
    python = c.path;
  }
  std::filesystem::path script = options_.script.empty() ? find_runner_script() : options_.script;
  if (script.empty())
    return "the python runner script kta_runner.py was not found (set KTA_RUNNER)";
  std::string why = child_.start(command(python, script), [&] { return greet(python); });
  if (why.empty())
    stats_.start_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return why;
}

// The runner in its own view (engine/ipc/worker_view.h): the interpreter and its libraries, the
// script and the staged sources; the engine's environment reduced to what Python and the GPU
// runtime need.
ipc::SpawnSpec RunnerProcess::command(const std::string& python, const fs::path& script) const {
  const ipc::WorkerIsolation& isolation = ipc::worker_isolation();
  ipc::WorkerView view;
  view.gpu = options_.device.kind == DeviceKind::hip;
  std::error_code ec;
  fs::path interpreter = fs::canonical(python, ec);
  // A virtual environment or a Python outside /usr: its whole prefix.
  if (!ec && !interpreter.string().starts_with("/usr/"))
    view.readable.push_back(interpreter.parent_path().parent_path());
  if (fs::path(python).is_absolute() && !fs::path(python).string().starts_with("/usr/"))
    view.readable.push_back(fs::path(python).parent_path().parent_path());
  view.readable.push_back(fs::absolute(script, ec));
  view.readable.push_back(sources_.path());
  std::vector<std::string> names = {
      "PYTHONPATH",           "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES",
      "ROCR_VISIBLE_DEVICES", "OMP_NUM_THREADS", "KTA_WARM_WORKERS"};
  if (!isolation.sandboxed) names.insert(names.end(), {"HOME", "XDG_CACHE_HOME"});
  view.env = ipc::worker_environment(options_.environment, names);
  if (!options_.compile_cache.empty()) {
    view.writable.push_back(options_.compile_cache);
    view.env.push_back("KTA_COMPILE_CACHE=" + options_.compile_cache.string());
  }
  for (const std::string& e : view.env)
    if (e.starts_with("PYTHONPATH="))
      for (size_t b = 11, c; b <= e.size(); b = c + 1) {
        c = std::min(e.find(':', b), e.size());
        if (c > b) view.readable.emplace_back(e.substr(b, c - b));
      }
  ipc::SpawnSpec spec;
  spec.argv = ipc::isolated_argv(isolation, view, {python, script.string(), "--fd", "3"});
  spec.env = ipc::spawn_environment(isolation, view);
  return spec;
}

std::string RunnerProcess::greet(const std::string& python) {
  ++stats_.starts;
  std::string failure;
  auto hello = exchange({{"op", "hello"},
                         {"version", options_.protocol_version},
                         {"device", device_spec_name(options_.device)}},
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
  hello_["isolation"] = ipc::worker_isolation().describe();
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

void RunnerProcess::prestart() {
  std::lock_guard lock(mu_);
  (void)ensure();
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

uint64_t RunnerProcess::compile(const json& q_in, double timeout_s, json* reply) {
  json q = q_in;
  // The module's folder is copied where the runner can see it (sibling imports included).
  if (ipc::worker_isolation().sandboxed && q.contains("file")) {
    std::string error;
    fs::path staged = sources_.stage(q["file"].get<std::string>(), &error);
    if (staged.empty()) {
      *reply = {{"ok", false}, {"error", error}};
      return 0;
    }
    q["file"] = staged.string();
  }
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

bool RunnerProcess::warm(uint64_t id, const json& calls, double timeout_s) {
  std::string error;
  auto child = module_id(id, timeout_s, &error);
  if (!child) return false;
  json r = request({{"op", "warm"}, {"module", *child}, {"calls", calls}}, timeout_s);
  if (!r.value("ok", false) || r.value("workers", 0) == 0) return false;
  modules_[id - 1].warming = child_.generation();
  return true;
}

void RunnerProcess::settle(uint64_t id, double timeout_s) {
  if (id == 0 || id > modules_.size()) return;
  Module& m = modules_[id - 1];
  if (m.warming == 0) return;
  bool same_child = m.warming == child_.generation() && child_.running();
  m.warming = 0;
  if (!same_child) return;
  // The runner stops what is left a little before the engine's deadline would stop the runner.
  request({{"op", "warm_wait"}, {"module", m.child_id}, {"seconds", 0.8 * timeout_s}}, timeout_s);
}

void RunnerProcess::settle_all(double timeout_s) {
  for (uint64_t id = 1; id <= modules_.size(); ++id) settle(id, timeout_s);
}

}  // namespace kta::engine
