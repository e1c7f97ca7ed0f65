// Step: compile (baseline, candidate).
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/execute/job_runner.h"

namespace kta::engine {

namespace {

// The notes a device put in a compile log, one per "kta note: " line (the cpu device's compile
// cache, engine/device/cpu/kernel_build.h).
void take_notes(const std::string& log, std::vector<Note>* notes) {
  const std::string prefix = "kta note: ";
  for (size_t at = log.find(prefix); at != std::string::npos; at = log.find(prefix, at + 1)) {
    if (at != 0 && log[at - 1] != '\n') continue;
    size_t end = log.find('\n', at);
    notes->push_back(
        Note{"compile_cache", log.substr(at + prefix.size(), end - at - prefix.size())});
  }
}

}  // namespace

CompileResult JobRunner::compile_on(ImplRole role, const model::Entry& entry) {
  CompileRequest req = compile_request(job_.task, entry);
  if (entry.flavor != model::Flavor::hip) {
    Device& d = device(device_role(role), entry.flavor);
    CompileResult res;
    {
      auto span = profile_.span("compile");
      res = d.compile(req);
    }
    if (res.ok && entry.flavor == model::Flavor::triton) warm_up(d, res.module, entry);
    return res;
  }
  // The run's warp size: the cpu device builds for it (and keys its compile cache by it); the
  // hip device refuses one its hardware does not have.
  req.options.warp_size = plan_.warp_size;
  Device& d = device(device_role(role));
  CompileResult res;
  {
    auto span = profile_.span("compile");
    res = d.compile(req);
  }
  // The device's own figure: the rest of "compile" is the trip to the worker and back.
  profile_.add(res.cache_hit ? "compile in device (cache hit)" : "compile in device", res.seconds);
  take_notes(res.log, &compile_notes_);
  return res;
}

// A Triton launcher compiles a kernel per specialization (shapes, strides, constexpr block
// sizes): every point the job may check or time is compiled ahead, in parallel, while the job
// goes on (Device::warm_up). Points are taken once each by their call's shapes and params, up to
// kMaxWarmCalls.
void JobRunner::warm_up(Device& d, uint64_t module, const model::Entry& entry) {
  constexpr size_t kMaxWarmCalls = 256;
  auto span = profile_.span("warm-up start");
  std::vector<LauncherArgs> calls;
  std::set<std::string> seen;
  for (const auto* points : {&job_.visible, &job_.heldout}) {
    if (points == &job_.heldout && !job_.heldout_enabled) break;
    for (const model::ShapePoint& point : *points) {
      if (calls.size() >= kMaxWarmCalls) break;
      LauncherArgs a;
      try {
        a = call_shape(job_.task, entry, make_point_spec(job_.task, point));
      } catch (const std::exception&) {
        continue;  // the check at this point names the error
      }
      std::string key;
      for (const TensorArg& t : a.tensors)
        for (int64_t n : t.shape) key += std::to_string(n) + ",";
      for (const auto* list : {&a.params, &a.init_args})
        for (const ParamArg& p : *list)
          key += ";" + (p.is_float ? std::to_string(p.f) : std::to_string(p.i));
      if (seen.insert(key).second) calls.push_back(std::move(a));
    }
  }
  d.warm_up(module, calls);
}

StepResult JobRunner::compile(ImplRole role) {
  StepResult r;
  std::string error;
  const Impl* done = impl(role, &error);
  if (!done && !unavailable_.empty()) {
    r.outcome = StepOutcome::skip;
    r.reason = unavailable_;
    r.payload.unavailable = true;
    return r;
  }
  CompileReport report;
  report.notes = std::exchange(compile_notes_, {});
  if (done) {
    // What the role runs on: name, architecture, clocks, versions, and (hip) what opening took.
    DeviceInfo info = done->device->info();
    report.device = DeviceRecord{info.name, device_kind_name(info.kind), info.details,
                                 plan_.warp_size != 0 ? plan_.warp_size : info.warp_size};
  } else {
    r.outcome = StepOutcome::fail;
    r.reason = error;
    report.log = compile_log_;
    if (report.log.size() > 20000)
      report.log = report.log.substr(0, 20000) + "\n... (log truncated)";
  }
  r.payload.report = std::move(report);
  return r;
}

// Compiles on first use; a resumed run recompiles silently (the device's compile cache makes it
// cheap) without recording the compile step again.
std::optional<Impl>& JobRunner::impl_slot(ImplRole role) {
  switch (role) {
    case ImplRole::baseline:
      return baseline_;
    case ImplRole::candidate:
      return candidate_impl_;
    case ImplRole::reference:
      break;
  }
  return reference_;
}

const Impl* JobRunner::impl(ImplRole role, std::string* error) {
  std::optional<Impl>& slot = impl_slot(role);
  if (slot) return &*slot;
  model::Entry entry = role == ImplRole::baseline ? job_.task.baseline : job_.task.reference;
  if (role == ImplRole::candidate) {
    if (!prepared_) prepared_ = prepare_candidate(job_, workspace_);
    if (!prepared_->ok) {
      *error = prepared_->reason;
      return nullptr;
    }
    entry = prepared_->entry;
  }
  CompileResult res = compile_on(role, entry);
  if (!res.ok && res.unavailable) {
    unavailable_ = res.error;
    *error = res.error;
    return nullptr;
  }
  if (!res.ok) {
    compile_log_ = res.log;
    *error = res.error.empty() ? std::string("compile error") : res.error;
    // The first error line of the log names the problem; the whole log goes to the payload.
    size_t at = res.log.find("error");
    if (at != std::string::npos && error->find('\n') == std::string::npos) {
      size_t b = res.log.rfind('\n', at);
      b = b == std::string::npos ? 0 : b + 1;
      std::string line = res.log.substr(b, res.log.find('\n', at) - b);
      if (line.size() > 300) line = line.substr(0, 300) + "...";
      if (error->find(line) == std::string::npos) *error += ": " + line;
    }
    return nullptr;
  }
  Impl i;
  i.role = role;
  i.device = &device(device_role(role), entry.flavor);
  i.module = res.module;
  i.entry = entry;
  slot = i;
  // The baseline on the candidate's runner (calibration rounds) is compiled now, so that its
  // Triton kernels are compiled ahead with the candidate's rather than while timing starts.
  if (role == ImplRole::candidate && entry.flavor == model::Flavor::triton)
    baseline_on_candidate_device();
  return &*slot;
}

// The same code in both workers tells the workers' own difference (two processes, two loads of
// the code, two sets of buffers) apart from the code's: the baseline compiled on the candidate's
// device. Null when the baseline runs on another kind of device than the candidate (torch2hip:
// torch on the python runner, the candidate in HIP) or does not build there; calibration rounds
// then repeat the baseline on its own device.
const Impl* JobRunner::baseline_on_candidate_device() {
  if (baseline_cross_ || cross_tried_) return baseline_cross_ ? &*baseline_cross_ : nullptr;
  cross_tried_ = true;
  std::string error;
  const Impl* cand = impl(ImplRole::candidate, &error);
  if (cand == nullptr || cand->entry.flavor != job_.task.baseline.flavor) return nullptr;
  CompileResult res = compile_on(ImplRole::candidate, job_.task.baseline);
  if (!res.ok) return nullptr;
  Impl i;
  i.role = ImplRole::baseline;
  i.device = &device(DeviceRole::candidate, job_.task.baseline.flavor);
  i.module = res.module;
  i.entry = job_.task.baseline;
  baseline_cross_ = i;
  return &*baseline_cross_;
}

}  // namespace kta::engine
