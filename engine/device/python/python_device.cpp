#include "engine/device/python/python_device.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <set>
#include <stdexcept>

#include "engine/ipc/worker_view.h"

namespace kta::engine {

using nlohmann::json;

namespace {

const char* role_name(int32_t role) { return role == 1 ? "output" : role == 2 ? "inout" : "input"; }

LaunchResult failed(std::string why) {
  LaunchResult r;
  r.ok = false;
  r.error = std::move(why);
  return r;
}

json scalars(const std::vector<ParamArg>& list) {
  json out = json::array();
  for (const ParamArg& p : list)
    out.push_back({{"name", p.name}, {"is_float", p.is_float}, {"i", p.i}, {"f", p.f}});
  return out;
}

}  // namespace

PythonDevice::PythonDevice(std::shared_ptr<RunnerProcess> runner, const DeviceOptions& options)
    : runner_(std::move(runner)), options_(options) {}

PythonDevice::~PythonDevice() {
  std::lock_guard lock(runner_->mutex());
  for (auto& [id, s] : buffers_) runner_->free(id);
}

DeviceInfo PythonDevice::info() const {
  DeviceInfo i;
  bool gpu = options_.device.kind == DeviceKind::hip;
  i.kind = DeviceKind::python;
  i.name = std::string("python runner (torch on ") + (gpu ? "cuda)" : "cpu)");
  i.own_memory = gpu;
  i.timer = gpu ? DeviceTimer::events : DeviceTimer::process_cpu;
  i.timer_resolution = gpu ? 1e-6 : 0;
  i.details = "worker isolation: " + ipc::worker_isolation().describe();
  return i;
}

Buffer PythonDevice::alloc(size_t bytes) {
  std::lock_guard lock(runner_->mutex());
  uint64_t id = runner_->alloc(bytes);
  buffers_[id] = State{};
  return Buffer{id, bytes};
}

void PythonDevice::free(Buffer b) {
  std::lock_guard lock(runner_->mutex());
  if (buffers_.erase(b.id)) runner_->free(b.id);
}

void PythonDevice::upload(Buffer dst, const void* src, size_t bytes) {
  std::lock_guard lock(runner_->mutex());
  std::memcpy(runner_->data(dst.id), src, std::min(bytes, runner_->bytes(dst.id)));
  buffers_[dst.id] = State{true, false};
}

void PythonDevice::fill(Buffer dst, uint8_t byte) {
  std::lock_guard lock(runner_->mutex());
  std::memset(runner_->data(dst.id), byte, runner_->bytes(dst.id));
  buffers_[dst.id] = State{true, false};
  // A large buffer is filled on the GPU as well, so that the next call need not stage it in: a
  // timed round poisons every output, and on the byte pattern's rounds a large output crossed to
  // the GPU whole. Where the request fails, the shared memory is staged in as before.
  constexpr size_t kDeviceFill = size_t(1) << 20;
  if (runner_->zero_copy() || runner_->bytes(dst.id) < kDeviceFill) return;
  json r =
      runner_->request({{"op", "fill"}, {"id", dst.id}, {"byte", byte}}, options_.launch_timeout_s);
  if (r.value("ok", false)) buffers_[dst.id] = State{false, false, runner_->generation()};
}

void PythonDevice::copy(std::span<const BufferCopy> copies) {
  std::lock_guard lock(runner_->mutex());
  json list = json::array(), stage = json::array();
  auto stale = [&](uint64_t id) {
    const State& s = buffers_[id];
    return s.host_newer || s.generation != runner_->generation();
  };
  // A destination these copies write whole (and read nothing from) needs no staging: none of
  // its old bytes survive. A timed round's rotations and poison are such copies.
  std::map<uint64_t, std::vector<std::pair<size_t, size_t>>> written;
  std::set<uint64_t> read;
  for (const BufferCopy& c : copies) {
    written[c.dst.id].emplace_back(c.dst_offset, c.dst_offset + c.bytes);
    read.insert(c.src.id);
  }
  auto replaced = [&](uint64_t id) {
    if (read.count(id)) return false;
    auto ranges = written[id];
    std::sort(ranges.begin(), ranges.end());
    size_t end = 0;
    for (auto [from, to] : ranges) {
      if (from > end) return false;
      end = std::max(end, to);
    }
    return end >= runner_->bytes(id);
  };
  for (const BufferCopy& c : copies) {
    check_copy(c, runner_->bytes(c.dst.id), runner_->bytes(c.src.id));
    if (runner_->zero_copy()) {
      std::memmove(runner_->data(c.dst.id) + c.dst_offset, runner_->data(c.src.id) + c.src_offset,
                   c.bytes);
      continue;
    }
    // Device copies must be current first: the source's bytes, and the rest of a destination
    // the copies cover only in part.
    for (uint64_t id : {c.src.id, c.dst.id})
      if (stale(id) && (id == c.src.id || !replaced(id)) &&
          std::find(stage.begin(), stage.end(), id) == stage.end())
        stage.push_back(id);
    list.push_back({c.dst.id, c.dst_offset, c.src.id, c.src_offset, c.bytes});
  }
  if (list.empty()) return;
  json r = runner_->request({{"op", "copy"}, {"copies", list}, {"stage_in", stage}},
                            options_.launch_timeout_s);
  if (!r.value("ok", false))
    throw std::runtime_error("the python runner cannot copy between buffers: " +
                             r.value("error", std::string()));
  for (uint64_t id : stage.get<std::vector<uint64_t>>())
    buffers_[id] = State{false, false, runner_->generation()};
  for (const BufferCopy& c : copies) buffers_[c.dst.id] = State{false, true, runner_->generation()};
}

void PythonDevice::fetch(uint64_t id) {
  State& s = buffers_[id];
  if (!s.device_newer || s.generation != runner_->generation() || runner_->zero_copy()) return;
  json r = runner_->request({{"op", "fetch"}, {"ids", {id}}}, options_.launch_timeout_s);
  if (!r.value("ok", false))
    throw std::runtime_error("cannot read a buffer back from the python runner: " +
                             r.value("error", std::string()));
  s.device_newer = false;
}

void PythonDevice::download(void* dst, Buffer src, size_t bytes) {
  std::lock_guard lock(runner_->mutex());
  fetch(src.id);
  std::memcpy(dst, runner_->data(src.id), std::min(bytes, runner_->bytes(src.id)));
}

CompileResult PythonDevice::compile(const CompileRequest& request) {
  std::lock_guard lock(runner_->mutex());
  CompileResult res;
  json q = {{"op", "compile"},
            {"flavor", request.flavor},
            {"mode", request.mode},
            {"file", request.source.string()},
            {"symbol", request.entry}};
  json reply;
  auto t0 = std::chrono::steady_clock::now();
  uint64_t id = runner_->compile(q, options_.compile_timeout_s, &reply);
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (id == 0) {
    res.error = reply.value("error", std::string("the python runner failed"));
    res.log = reply.value("traceback", std::string());
    if (res.log.empty()) res.log = reply.value("log", std::string());
    res.unavailable = reply.value("unavailable", false);
    return res;
  }
  res.ok = true;
  res.module = id;
  res.log = reply.value("output", std::string());
  return res;
}

// The request body of a call: the tensors with their roles, params and init args. Buffers
// written on this side since the runner's last copy are staged in.
json PythonDevice::call_request(uint64_t module, const LauncherArgs& args, std::string* error) {
  auto child = runner_->module_id(module, options_.compile_timeout_s, error);
  if (!child) return nullptr;
  runner_->settle(module, options_.compile_timeout_s);  // compiles ahead finish first
  json tensors = json::array(), stage = json::array();
  for (const TensorArg& t : args.tensors) {
    tensors.push_back({{"name", t.name},
                       {"buffer", t.buffer.id},
                       {"dtype", t.dtype},
                       {"shape", t.shape},
                       {"role", role_name(t.role)}});
    State& s = buffers_[t.buffer.id];
    bool stale = s.host_newer || s.generation != runner_->generation();
    if (stale && !runner_->zero_copy()) stage.push_back(t.buffer.id);
  }
  return {{"module", *child},
          {"tensors", tensors},
          {"params", scalars(args.params)},
          {"init_args", scalars(args.init_args)},
          {"stage_in", stage}};
}

LaunchResult PythonDevice::result_of(const json& reply) const {
  LaunchResult r;
  r.ok = reply.value("ok", false);
  r.output = reply.value("output", std::string());
  if (!r.ok) {
    r.error = reply.value("error", std::string("the python runner failed"));
    std::string tb = reply.value("traceback", std::string());
    if (!tb.empty()) r.error += "\n" + tb;
    r.device_restarted = reply.value("restarted", false);
  }
  return r;
}

LaunchResult PythonDevice::run(const Invocation& invocation) {
  const LauncherArgs* args = invocation.call();
  if (args == nullptr) return failed("a python entry has no kernel mode");
  std::lock_guard lock(runner_->mutex());
  std::string error;
  json q = call_request(invocation.module, *args, &error);
  if (q.is_null()) return failed(error);
  q["op"] = "call";
  // What the engine reads after a call comes back with it: the outputs, and every tensor when
  // the call's tensors are small (a fetch round trip then costs more than the copy).
  constexpr size_t kSmallCall = size_t(16) << 20;
  size_t total = 0;
  for (const TensorArg& t : args->tensors) total += runner_->bytes(t.buffer.id);
  json out = json::array();
  for (const TensorArg& t : args->tensors)
    if (t.role != 0 || total <= kSmallCall) out.push_back(t.buffer.id);
  if (!runner_->zero_copy()) q["stage_out"] = out;
  json reply = runner_->request(q, options_.launch_timeout_s);
  bool ok = reply.value("ok", false);
  mark_called(*args, ok);
  if (ok && reply.value("staged_out", false))
    for (uint64_t id : out.get<std::vector<uint64_t>>()) buffers_[id].device_newer = false;
  return result_of(reply);
}

// One request for the whole batch: the runner times the calls back to back.
TimedResult PythonDevice::timed(std::span<const Invocation> batch, bool flush) {
  if (batch.empty()) return TimedResult{failed("empty batch"), 0};
  std::lock_guard lock(runner_->mutex());
  json calls = json::array();
  for (const Invocation& inv : batch) {
    if (inv.call() == nullptr) return TimedResult{failed("a python entry has no kernel mode"), 0};
    std::string error;
    json q = call_request(inv.module, *inv.call(), &error);
    if (q.is_null()) return TimedResult{failed(error), 0};
    calls.push_back(std::move(q));
  }
  json q = {{"op", "timed"}, {"flush", flush}, {"batch", calls}};
  double timeout = options_.launch_timeout_s * static_cast<double>(batch.size());
  json reply = runner_->request(q, timeout);
  for (const Invocation& inv : batch) mark_called(*inv.call(), reply.value("ok", false));
  // Clocks stay 0 (not readable): the runner does not sample them (torch.cuda.clock_rate needs
  // pynvml, which the GPU machine's Python may lack), and results then show no clock.
  TimedResult t{result_of(reply), reply.value("seconds", 0.0)};
  t.wall_seconds = reply.value("wall_seconds", 0.0);
  return t;
}

void PythonDevice::warm_up(uint64_t module, std::span<const LauncherArgs> calls) {
  if (calls.empty()) return;
  std::lock_guard lock(runner_->mutex());
  json list = json::array();
  for (const LauncherArgs& a : calls) {
    json tensors = json::array();
    for (const TensorArg& t : a.tensors)
      tensors.push_back(
          {{"name", t.name}, {"dtype", t.dtype}, {"shape", t.shape}, {"role", role_name(t.role)}});
    list.push_back(
        {{"tensors", tensors}, {"params", scalars(a.params)}, {"init_args", scalars(a.init_args)}});
  }
  // The runner starts its workers and answers at once; a failure is the first call's to name.
  runner_->warm(module, list, options_.compile_timeout_s);
}

void PythonDevice::synchronize() {
  std::lock_guard lock(runner_->mutex());
  runner_->settle_all(options_.compile_timeout_s);
}

// After a call the runner's copy is the newest (it may have written any tensor, inputs too);
// after a failure it may be gone with the child, and the host copy is what is left.
void PythonDevice::mark_called(const LauncherArgs& args, bool ok) {
  for (const TensorArg& t : args.tensors) {
    buffers_[t.buffer.id] = ok ? State{false, true, runner_->generation()} : State{true, false, 0};
  }
}

RunnerPool::~RunnerPool() {
  closing_.set_value();
  starts_.clear();  // each waits for its start to finish
}

std::unique_ptr<Device> RunnerPool::device(DeviceRole role, const DeviceOptions& options) {
  std::lock_guard lock(mu_);
  auto& slot = runners_[role];
  if (!slot) {
    RunnerOptions o = options_;
    o.device = options.device;
    // The trusted cache is safe from candidate code only where the candidate's runner is
    // isolated (it then does not see the folder at all); without isolation the trusted runner
    // compiles into its private temporary folder instead.
    bool persistent = role == DeviceRole::candidate || ipc::worker_isolation().sandboxed;
    if (!o.cache_root.empty() && persistent)
      o.compile_cache = o.cache_root / device_role_name(role);
    slot = std::make_shared<RunnerProcess>(o);
    starts_.push_back(std::async(std::launch::async, [runner = slot, closed = closed_] {
      runner->prestart();
      closed.wait();
    }));
  }
  return std::make_unique<PythonDevice>(slot, options);
}

RunnerStats RunnerPool::stats() const {
  std::lock_guard lock(mu_);
  RunnerStats s;
  for (const auto& [role, r] : runners_) {
    std::lock_guard runner_lock(r->mutex());
    RunnerStats x = r->stats();
    s.starts += x.starts;
    s.start_seconds += x.start_seconds;
    s.requests += x.requests;
    if (x.starts > 0)
      s.by_role += (s.by_role.empty() ? "" : ", ") + std::string(device_role_name(role)) + " " +
                   std::to_string(x.starts);
  }
  return s;
}

}  // namespace kta::engine
