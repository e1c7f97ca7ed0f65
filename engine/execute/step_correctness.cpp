// Step: correctness on the visible (or held-out) shapes. Per point x seed: engine-drawn inputs,
// reference outputs (cached on disk), poisoned outputs, one launch, a compare under the task's
// tolerance, and an input-mutation check by digest.
#include <algorithm>
#include <future>
#include <map>
#include <memory>
#include <utility>

#include "engine/execute/job_runner.h"
#include "engine/execute/judge.h"

namespace kta::engine {

namespace {

std::string memo_key(const char* what, const PointSpec& spec, uint64_t seed) {
  return std::string(what) + " " + format_point(spec.point) + " seed " + std::to_string(seed);
}

size_t host_bytes(const HostSet& set) {
  size_t n = 0;
  for (const auto& t : set) n += t.bytes.size();
  return n;
}

}  // namespace

void JobRunner::remember(const std::string& key, const std::shared_ptr<const HostSet>& set) {
  size_t bytes = host_bytes(*set);
  if (memo_bytes_ + bytes > kMemoBytes) return;
  memo_[key] = set;
  memo_bytes_ += bytes;
}

std::shared_ptr<const HostSet> JobRunner::inputs(const PointSpec& spec, uint64_t seed) {
  std::string key = memo_key("inputs", spec, seed);
  if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  auto span = profile_.span("inputs");
  std::shared_ptr<const HostSet> set;
  if (prefetch_.set.valid() && prefetch_.key == key) {
    set = prefetch_.set.get();
  } else {
    set = std::make_shared<const HostSet>(make_inputs(job_.task, spec, seed));
  }
  remember(key, set);
  return set;
}

void JobRunner::prefetch_inputs(const PointSpec& spec, uint64_t seed) {
  std::string key = memo_key("inputs", spec, seed);
  if (memo_.count(key) || (prefetch_.set.valid() && prefetch_.key == key)) return;
  if (prefetch_.set.valid()) prefetch_.set.wait();  // one at a time
  prefetch_.key = key;
  prefetch_.set = std::async(std::launch::async, [this, spec, seed] {
    return std::make_shared<const HostSet>(make_inputs(job_.task, spec, seed));
  });
}

std::shared_ptr<const HostSet> JobRunner::reference(const PointSpec& spec, uint64_t seed,
                                                    const HostSet& inputs, std::string* error) {
  std::string memo = memo_key(impl_role_name(ImplRole::reference), spec, seed);
  if (auto it = memo_.find(memo); it != memo_.end()) return it->second;
  std::string key = ReferenceCache::key(job_.task, spec.point, seed,
                                        device_identity(plan_.device, plan_.warp_size));
  {
    auto span = profile_.span("reference cache");
    std::string note;
    auto hit = cache_.load(key, job_.task, &note);
    if (!note.empty()) cache_notes_.push_back(Note{"reference_cache", note});
    if (hit) {
      auto set = std::make_shared<const HostSet>(std::move(*hit));
      remember(memo, set);
      return set;
    }
  }
  auto out = run_reference(spec, inputs, error);
  if (!out) return nullptr;
  cache_.store(key, *out);
  remember(memo, out);
  return out;
}

std::shared_ptr<const HostSet> JobRunner::run_reference(const PointSpec& spec,
                                                        const HostSet& inputs, std::string* error) {
  const Impl* ref = impl(ImplRole::reference, error);
  if (!ref) {
    *error = "reference does not compile: " + *error;
    return nullptr;
  }
  auto span = profile_.span("reference run");
  auto set = std::make_unique<DeviceSet>(*ref->device, job_.task, spec);
  set->upload_inputs(inputs);
  set->poison_outputs(launches_++);
  LaunchResult lr = set->launch(*ref);
  if (!lr.ok) {
    *error = "reference failed: " + lr.error;
    set.reset();  // its buffers go while their device still exists
    drop_device(DeviceRole::trusted);
    return nullptr;
  }
  return std::make_shared<const HostSet>(set->download_outputs());
}

CheckResult JobRunner::check_launch(const Impl& im, const PointSpec& spec, const HostSet& in,
                                    const HostSet& want, ShapeRecord& rec,
                                    std::unique_ptr<DeviceSet>& set) {
  if (!set) {
    auto span = profile_.span("buffers");
    set = std::make_unique<DeviceSet>(*im.device, job_.task, spec);
  }
  LaunchResult lr;
  {
    auto span = profile_.span("upload");
    set->upload_inputs(in);
    set->poison_outputs(launches_++);
  }
  {
    auto span = profile_.span("launch");
    lr = set->launch(im);
  }
  CheckResult c;
  if (lr.ok) {
    HostSet after_inputs, got;
    {
      auto span = profile_.span("download");
      after_inputs = set->download_inputs();
      got = set->download_outputs();
    }
    auto span = profile_.span("compare");
    c = judge(job_.task, in, after_inputs, got, want, rec);
  } else {
    c.launched = false;
    c.reason = "launch failed: " + lr.error;
    c.blind_reason = "launch failed: " + mask_numbers(lr.error);
  }
  if (!c.launched) {
    // A crashed or hung worker is gone; later launches of this role would only repeat it. Its
    // buffers go first, while their device still exists.
    set.reset();
    drop_device(device_role(im.role));
  }
  return c;
}

std::optional<std::string> JobRunner::check_point(const std::vector<model::ShapePoint>& points,
                                                  size_t i, bool heldout,
                                                  const std::vector<ImplRole>& roles,
                                                  std::map<ImplRole, RoleChecks>& checks,
                                                  std::vector<ShapeRecord>& shapes) {
  PointSpec spec = make_point_spec(job_.task, points[i]);
  // The candidate's buffers serve every seed of the point: inputs are uploaded afresh and
  // outputs poisoned before each launch, so only the allocation carries over (on a GPU an
  // allocation and a free per tensor and seed cost more than the check itself). The trusted
  // device's sets stay per launch: a failing reference launch replaces that device in mid-loop.
  std::map<ImplRole, std::unique_ptr<DeviceSet>> sets;
  for (int seed = 0; seed < job_.seeds; ++seed) {
    std::shared_ptr<const HostSet> in = inputs(spec, static_cast<uint64_t>(seed));
    if (seed + 1 < job_.seeds) {
      prefetch_inputs(spec, static_cast<uint64_t>(seed + 1));
    } else if (i + 1 < points.size()) {
      prefetch_inputs(make_point_spec(job_.task, points[i + 1]), 0);
    }
    std::string error;
    auto want = reference(spec, static_cast<uint64_t>(seed), *in, &error);
    if (!want) return error + " at " + point_label(points, i, heldout);
    for (ImplRole role : roles) {
      RoleChecks& rc = checks[role];
      if (rc.dead || (role == ImplRole::baseline && rc.first_failure)) continue;
      const Impl* im = impl(role, &error);
      if (!im) {
        if (!rc.first_failure) rc.first_failure = error;
        rc.dead = true;
        continue;
      }
      ShapeRecord rec;
      rec.set = heldout ? PointSet::heldout : PointSet::visible;
      rec.point = points[i];
      rec.seed = static_cast<uint64_t>(seed);
      CheckResult c = check_launch(*im, spec, *in, *want, rec, sets[role]);
      rc.dead = !c.launched;
      if (role != ImplRole::candidate) sets[role].reset();
      if (heldout) c.reason = c.blind_reason;
      if (role == ImplRole::candidate) {
        rec.correct = c.correct;
        rec.reason = c.reason;
        shapes.push_back(rec);
      }
      if (!c.correct && !rc.first_failure) {
        rc.first_failure =
            c.reason + " at " + point_label(points, i, heldout) + " seed " + std::to_string(seed);
      }
    }
  }
  return std::nullopt;
}

StepResult JobRunner::correctness(bool heldout) {
  StepResult r;
  const auto& points = heldout ? job_.heldout : job_.visible;
  std::vector<ImplRole> roles = {ImplRole::candidate};
  if (heldout && gates_.baseline_compiled) roles.insert(roles.begin(), ImplRole::baseline);
  std::map<ImplRole, RoleChecks> checks;
  for (size_t i = 0; i < points.size(); ++i) {
    if (auto error = check_point(points, i, heldout, roles, checks, r.shapes)) {
      r.outcome = StepOutcome::error;
      r.reason = *error;
      return r;
    }
  }
  const RoleChecks& cand = checks[ImplRole::candidate];
  CorrectnessReport report;
  report.checked = static_cast<int>(r.shapes.size());
  report.failed = static_cast<int>(std::count_if(r.shapes.begin(), r.shapes.end(),
                                                 [](const ShapeRecord& s) { return !s.correct; }));
  // The reference compiles on first use, within this step: its cache notes are recorded here.
  report.notes = std::exchange(cache_notes_, {});
  for (Note& n : std::exchange(compile_notes_, {})) report.notes.push_back(std::move(n));
  report.candidate_correct = !cand.first_failure;
  if (heldout && std::find(roles.begin(), roles.end(), ImplRole::baseline) != roles.end()) {
    const RoleChecks& base = checks[ImplRole::baseline];
    report.baseline_correct = !base.first_failure;
    if (base.first_failure) report.baseline_reason = *base.first_failure;
  }
  r.payload.report = std::move(report);
  if (cand.first_failure) {
    r.outcome = StepOutcome::fail;
    r.reason = *cand.first_failure;
    if (cand.dead && r.shapes.size() < points.size() * static_cast<size_t>(job_.seeds))
      r.reason += " (remaining points not run)";
  }
  return r;
}

}  // namespace kta::engine
