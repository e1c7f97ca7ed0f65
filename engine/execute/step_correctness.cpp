// Step: correctness on the visible (or held-out) shapes. Per point x seed: engine-drawn inputs,
// reference outputs (cached on disk), poisoned outputs, one launch, a compare under the task's
// tolerance, and an input-mutation check by digest.
#include <algorithm>
#include <map>
#include <memory>

#include "engine/execute/job_runner.h"
#include "engine/execute/judge.h"

namespace kta::engine {


std::optional<HostSet> JobRunner::reference(const PointSpec& spec, uint64_t seed,
                                            const HostSet& inputs, std::string* error) {
  std::string key = ReferenceCache::key(job_.task, spec.point, seed, plan_.device);
  if (auto hit = cache_.load(key, job_.task)) return hit;
  const Impl* ref = impl("reference", error);
  if (!ref) {
    *error = "reference does not compile: " + *error;
    return std::nullopt;
  }
  DeviceSet set(*ref->device, job_.task, spec);
  set.upload_inputs(inputs);
  set.poison_outputs(launches_++);
  LaunchResult lr = set.launch(*ref);
  if (!lr.ok) {
    *error = "reference failed: " + lr.error;
    drop_device(kTrusted);
    return std::nullopt;
  }
  HostSet out = set.download_outputs();
  cache_.store(key, out);
  return out;
}

StepResult JobRunner::correctness(bool heldout) {
  StepResult r;
  const auto& points = heldout ? job_.heldout : job_.visible;
  std::vector<std::string> roles = {"candidate"};
  if (heldout && baseline_ok_) roles.insert(roles.begin(), "baseline");
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
      HostSet inputs = make_inputs(job_.task, spec, static_cast<uint64_t>(seed));
      std::string error;
      auto want = reference(spec, static_cast<uint64_t>(seed), inputs, &error);
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
        rec.set = heldout ? "heldout" : "visible";
        rec.point = points[i];
        rec.seed = static_cast<uint64_t>(seed);
        CheckResult c;
        std::unique_ptr<DeviceSet>& set = sets[role];
        if (!set) set = std::make_unique<DeviceSet>(*im->device, job_.task, spec);
        set->upload_inputs(inputs);
        set->poison_outputs(launches_++);
        LaunchResult lr = set->launch(*im);
        if (lr.ok) {
          c = judge(job_.task, inputs, set->download_inputs(), set->download_outputs(), *want, rec);
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
          first_failure[role] = c.reason + " at " + point_label(points, i, heldout) + " seed " +
                                std::to_string(seed);
        }
      }
    }
  }
  bool cand_ok = !first_failure.count("candidate");
  r.payload["checked"] = checked;
  r.payload["failed"] = failed;
  if (heldout) {
    r.payload["candidate_correct"] = cand_ok;
    if (std::find(roles.begin(), roles.end(), "baseline") != roles.end()) {
      r.payload["baseline_correct"] = !first_failure.count("baseline");
      if (first_failure.count("baseline")) r.payload["baseline_reason"] = first_failure["baseline"];
    }
  } else {
    r.payload["correct"] = cand_ok;
  }
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
