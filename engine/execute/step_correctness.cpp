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
  std::string memo = memo_key("reference", spec, seed);
  if (auto it = memo_.find(memo); it != memo_.end()) return it->second;
  std::string key = ReferenceCache::key(job_.task, spec.point, seed, plan_.device);
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
  const Impl* ref = impl("reference", error);
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
    drop_device(kTrusted);
    return nullptr;
  }
  return std::make_shared<const HostSet>(set->download_outputs());
}

StepResult JobRunner::correctness(bool heldout) {
  StepResult r;
  const auto& points = heldout ? job_.heldout : job_.visible;
  std::vector<std::string> roles = {"candidate"};
  if (heldout && gates_.baseline_compiled) roles.insert(roles.begin(), "baseline");
  std::map<std::string, std::string> first_failure;
  std::map<std::string, bool> launch_dead;
  int checked = 0, failed = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    PointSpec spec = make_point_spec(job_.task, points[i]);
    // The candidate's buffers serve every seed of the point: inputs are uploaded afresh and
    // outputs poisoned before each launch, so only the allocation carries over (on a GPU an
    // allocation and a free per tensor and seed cost more than the check itself). The trusted
    // device's sets stay per launch: a failing reference launch replaces that device in mid-loop.
    std::map<std::string, std::unique_ptr<DeviceSet>> sets;
    for (int seed = 0; seed < job_.seeds; ++seed) {
      std::shared_ptr<const HostSet> drawn = inputs(spec, static_cast<uint64_t>(seed));
      const HostSet& in = *drawn;
      if (seed + 1 < job_.seeds) {
        prefetch_inputs(spec, static_cast<uint64_t>(seed + 1));
      } else if (i + 1 < points.size()) {
        prefetch_inputs(make_point_spec(job_.task, points[i + 1]), 0);
      }
      std::string error;
      auto want = reference(spec, static_cast<uint64_t>(seed), in, &error);
      if (!want) {
        r.outcome = StepOutcome::error;
        r.reason = error + " at " + point_label(points, i, heldout);
        return r;
      }
      for (const auto& role : roles) {
        if (launch_dead[role]) continue;
        if (role == "baseline" && first_failure.count(role)) continue;
        const Impl* im = impl(role, &error);
        if (!im) {
          first_failure.emplace(role, error);
          launch_dead[role] = true;
          continue;
        }
        ShapeRecord rec;
        rec.set = heldout ? PointSet::heldout : PointSet::visible;
        rec.point = points[i];
        rec.seed = static_cast<uint64_t>(seed);
        CheckResult c;
        std::unique_ptr<DeviceSet>& set = sets[role];
        if (!set) {
          auto span = profile_.span("buffers");
          set = std::make_unique<DeviceSet>(*im->device, job_.task, spec);
        }
        LaunchResult lr;
        {
          auto span = profile_.span("upload");
          set->upload_inputs(in);
          set->poison_outputs(launches_++);
        }
        {
          auto span = profile_.span("launch");
          lr = set->launch(*im);
        }
        if (lr.ok) {
          HostSet after_inputs, got;
          {
            auto span = profile_.span("download");
            after_inputs = set->download_inputs();
            got = set->download_outputs();
          }
          auto span = profile_.span("compare");
          c = judge(job_.task, in, after_inputs, got, *want, rec);
        } else {
          c.launched = false;
          c.reason = "launch failed: " + lr.error;
          c.blind_reason = "launch failed: " + mask_numbers(lr.error);
        }
        if (!c.launched) {
          // A crashed or hung worker is gone; later launches of this role would only repeat it.
          // Its buffers go first, while their device still exists.
          launch_dead[role] = true;
          set.reset();
          drop_device(role == "candidate" ? kCandidate : kTrusted);
        }
        if (role != "candidate") set.reset();
        if (heldout) c.reason = c.blind_reason;
        if (role == "candidate") {
          rec.correct = c.correct;
          rec.reason = c.reason;
          r.shapes.push_back(rec);
          ++checked;
          if (!c.correct) ++failed;
        }
        if (!c.correct && !first_failure.count(role)) {
          first_failure[role] =
              c.reason + " at " + point_label(points, i, heldout) + " seed " + std::to_string(seed);
        }
      }
    }
  }
  bool cand_ok = !first_failure.count("candidate");
  CorrectnessReport report;
  report.checked = checked;
  report.failed = failed;
  // The reference compiles on first use, within this step: its cache notes are recorded here.
  report.notes = std::exchange(cache_notes_, {});
  for (Note& n : std::exchange(compile_notes_, {})) report.notes.push_back(std::move(n));
  report.candidate_correct = cand_ok;
  if (heldout && std::find(roles.begin(), roles.end(), "baseline") != roles.end()) {
    report.baseline_correct = !first_failure.count("baseline");
    if (first_failure.count("baseline")) report.baseline_reason = first_failure["baseline"];
  }
  r.payload.report = std::move(report);
  if (!cand_ok) {
    r.outcome = StepOutcome::fail;
    r.reason = first_failure["candidate"];
    if (launch_dead["candidate"] && checked < static_cast<int>(points.size()) * job_.seeds) {
      r.reason += " (remaining points not run)";
    }
  }
  return r;
}

}  // namespace kta::engine
