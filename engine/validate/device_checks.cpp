#include "engine/validate/device_checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>

#include "engine/check/compare.h"
#include "engine/check/degenerate.h"
#include "engine/execute/bindings.h"
#include "engine/execute/judge.h"
#include "engine/inputs/generate.h"
#include "engine/plan/plan.h"
#include "engine/validate/answers.h"
#include "engine/validate/checks.h"
#include "lang/eval.h"

namespace kta::engine {

namespace fs = std::filesystem;

namespace {

// Seeds the engine never uses for correctness (those count up from 0): a redrawn input.
constexpr uint64_t kRedrawSeed = 0x7a11da7e;
// The share of elements the perturbed reference gets wrong.
constexpr double kPerturbedShare = 0.01;
// Above this share of the bound the baseline's margin is a warning.
constexpr double kMarginWarn = 0.5;

std::string label(const model::ShapePoint& p, bool heldout) {
  return (heldout ? "held-out [" : "[") + format_point(p) + "]";
}

// The task's compiled reference and baseline on trusted devices (one per flavor), launched on
// fresh buffers with poisoned outputs, as the correctness step launches them.
class TaskRunner {
 public:
  TaskRunner(const model::Task& task, const DeviceFactory& make) : task_(task), make_(make) {}

  // Null with *error when the role's entry does not compile; *unavailable when the device
  // cannot run it at all (Triton without a GPU).
  const Impl* impl(ImplRole role, std::string* error, bool* unavailable = nullptr) {
    if (auto it = impls_.find(role); it != impls_.end()) return &it->second;
    if (auto it = errors_.find(role); it != errors_.end()) {
      *error = it->second;
      if (unavailable) *unavailable = unavailable_.count(role) > 0;
      return nullptr;
    }
    const model::Entry& entry = role == ImplRole::baseline ? task_.baseline : task_.reference;
    CompileResult r;
    try {
      r = device(entry.flavor).compile(compile_request(task_, entry));
    } catch (const std::exception& e) {
      r.ok = false;
      r.error = e.what();
    }
    if (!r.ok) {
      std::string e = r.error.empty() ? std::string("compile error") : r.error;
      if (!r.unavailable) e = "does not compile: " + e;
      errors_[role] = e;
      if (r.unavailable) unavailable_.insert(role);
      *error = e;
      if (unavailable) *unavailable = r.unavailable;
      return nullptr;
    }
    Impl im;
    im.role = role;
    im.device = &device(entry.flavor);
    im.module = r.module;
    im.entry = entry;
    return &(impls_[role] = im);
  }

  // One launch of `role` on `in`: its outputs (and inouts), nullopt with *error.
  std::optional<HostSet> run(ImplRole role, const PointSpec& spec, const HostSet& in,
                             std::string* error) {
    const Impl* im = impl(role, error);
    if (!im) return std::nullopt;
    try {
      DeviceSet set(*im->device, task_, spec);
      set.upload_inputs(in);
      set.poison_outputs(launches_++);
      LaunchResult lr = set.launch(*im);
      if (lr.ok) return set.download_outputs();
      *error = "launch failed: " + lr.error;
    } catch (const std::exception& e) {
      *error = e.what();
    }
    // A crashed worker is gone: its flavor's device and what was compiled on it start afresh.
    drop(im->entry.flavor);
    return std::nullopt;
  }

  Device& device(model::Flavor flavor) {
    DeviceFlavor f = flavor == model::Flavor::hip ? DeviceFlavor::native : DeviceFlavor::python;
    std::unique_ptr<Device>& slot = devices_[f];
    if (!slot) slot = make_(DeviceKey{DeviceRole::trusted, f});
    if (!slot) throw std::runtime_error("no trusted device for the task's entries");
    return *slot;
  }

 private:
  void drop(model::Flavor flavor) {
    for (auto it = impls_.begin(); it != impls_.end();)
      it = it->second.entry.flavor == flavor ? impls_.erase(it) : std::next(it);
    devices_.erase(flavor == model::Flavor::hip ? DeviceFlavor::native : DeviceFlavor::python);
  }

  const model::Task& task_;
  const DeviceFactory& make_;
  std::map<DeviceFlavor, std::unique_ptr<Device>> devices_;
  std::map<ImplRole, Impl> impls_;
  std::map<ImplRole, std::string> errors_;
  std::set<ImplRole> unavailable_;
  uint64_t launches_ = 0;
};

// The first finding of a kind, and how many points showed it.
struct Finding {
  std::string first;
  int count = 0;
  void add(const std::string& text) {
    if (count++ == 0) first = text;
  }
  bool any() const { return count > 0; }
};

std::string more(const Finding& f) {
  return f.count > 1 ? fmt::format(" (and {} more)", f.count - 1) : std::string();
}

// The sweep over every point and seed, and what it found.
class Sweep {
 public:
  Sweep(const model::Task& task, int seeds, const DeviceFactory& make)
      : task_(task), seeds_(seeds), runner_(task, make) {
    for (size_t i = 0; i < task.tensors.size(); ++i) {
      if (is_output(task.tensors[i])) outputs_.push_back(i);
      if (is_input(task.tensors[i])) inputs_.push_back(i);
    }
    redraw_ignored_.resize(task.tensors.size());
    redraw_constant_.resize(task.tensors.size());
  }

  DeviceCheckResults run(const std::vector<model::ShapePoint>& visible,
                         const std::vector<model::ShapePoint>& heldout) {
    std::string error;
    bool unavailable = false;
    if (!runner_.impl(ImplRole::reference, &error, &unavailable))
      return everything(unavailable ? CheckLevel::skip : CheckLevel::fail,
                        unavailable ? error : "reference " + error);
    if (!runner_.impl(ImplRole::baseline, &baseline_error_, &unavailable)) {
      // A task this device cannot run at all (Triton on the cpu device): `kta eval` skips it
      // here, and its reference's workload is a GPU's; the checks run where it can.
      if (unavailable)
        return everything(CheckLevel::skip, "the baseline cannot run on this device (" +
                                                baseline_error_ +
                                                "); these checks need a device that runs it");
      baseline_error_ = "baseline " + baseline_error_;
    }
    for (bool held : {false, true}) {
      const auto& points = held ? heldout : visible;
      for (const auto& p : points) {
        if (auto stop = point(p, held)) return everything(CheckLevel::fail, *stop);
        (held ? heldout_points_ : visible_points_)++;
      }
    }
    return results();
  }

 private:
  // Every check ends the same way: the reference could not be run.
  DeviceCheckResults everything(CheckLevel level, const std::string& reason) {
    DeviceCheckResults r;
    for (const char* name : {"reference.meaningful", "reference.inputs", "determinism",
                             "tolerance.margin", "tolerance.cheap", "heldout.baseline"}) {
      bool first = r.checks.empty();
      r.checks.push_back(
          outcome(name, first || level == CheckLevel::skip ? level : CheckLevel::skip,
                  first || level == CheckLevel::skip ? reason : "the reference did not run"));
    }
    return r;
  }

  model::Tolerance tolerance(size_t tensor, const model::ShapePoint& p) {
    return lang::tolerance_at(tolerance_for(task_, task_.tensors[tensor].name), p, task_);
  }

  // One point: every seed through reference and baseline, then the reference's checks. Returns
  // why the sweep cannot go on.
  std::optional<std::string> point(const model::ShapePoint& p, bool held) {
    const std::string where = label(p, held);
    PointSpec spec;
    std::map<size_t, model::Tolerance> tol;
    try {
      spec = make_point_spec(task_, p);
      for (size_t o : outputs_) tol[o] = tolerance(o, p);
    } catch (const std::exception& e) {
      return "the task cannot be bound at " + where + ": " + e.what();
    }
    std::map<size_t, std::vector<HostTensor>> by_seed;
    HostSet in0, ref0;
    for (int seed = 0; seed < seeds_; ++seed) {
      HostSet in;
      try {
        in = make_inputs(task_, spec, static_cast<uint64_t>(seed));
      } catch (const std::exception& e) {
        return "inputs cannot be drawn at " + where + ": " + e.what();
      }
      std::string error;
      auto ref = runner_.run(ImplRole::reference, spec, in, &error);
      if (!ref)
        return "the reference failed at " + where + " seed " + std::to_string(seed) + ": " + error;
      if (seed == 0) {
        auto again = runner_.run(ImplRole::reference, spec, in, &error);
        if (!again) return "the reference failed at " + where + " (run again): " + error;
        determinism(*ref, *again, where);
      }
      baseline(spec, in, *ref, tol, where + " seed " + std::to_string(seed), held);
      for (size_t o : outputs_) by_seed[o].push_back((*ref)[o]);
      if (seed == 0) {
        in0 = std::move(in);
        ref0 = std::move(*ref);
      }
    }
    for (size_t o : outputs_) {
      auto reason = degenerate_reference(by_seed[o], tol[o]);
      if (!reason) continue;
      std::string text = "'" + task_.tensors[o].name + "' at " + where + ": " + *reason;
      (held ? degenerate_heldout_ : degenerate_visible_).add(text);
    }
    cheap(in0, ref0, tol, where, held);
    if (!held) return redraw_inputs(p, spec, in0, ref0, tol, where);
    return std::nullopt;
  }

  void determinism(const HostSet& a, const HostSet& b, const std::string& where) {
    for (size_t o : outputs_) {
      if (a[o].bytes == b[o].bytes) continue;
      size_t differ = 0;
      double most = 0;
      for (size_t i = 0; i < a[o].numel(); ++i) {
        double x = element_as_double(a[o], i), y = element_as_double(b[o], i);
        if (std::memcmp(&x, &y, sizeof x) == 0) continue;
        ++differ;
        if (std::isfinite(x) && std::isfinite(y)) most = std::max(most, std::fabs(x - y));
      }
      nondeterministic_.add(fmt::format("'{}' at {}: {} of {} elements differ (by up to {:.3g})",
                                        task_.tensors[o].name, where, differ, a[o].numel(), most));
      return;
    }
  }

  void baseline(const PointSpec& spec, const HostSet& in, const HostSet& ref,
                std::map<size_t, model::Tolerance>& tol, const std::string& where, bool held) {
    if (!baseline_error_.empty() || baseline_dead_) return;
    std::string error;
    auto got = runner_.run(ImplRole::baseline, spec, in, &error);
    if (!got) {
      baseline_dead_ = true;
      (held ? baseline_wrong_heldout_ : baseline_wrong_visible_)
          .add("the baseline failed at " + where + ": " + error);
      return;
    }
    (held ? baseline_checked_heldout_ : baseline_checked_visible_)++;
    for (size_t o : outputs_) {
      CompareResult c = compare((*got)[o], ref[o], tol[o]);
      if (c.pass) {
        double usage = tolerance_usage((*got)[o], ref[o], tol[o]);
        if (usage > max_usage_ || max_usage_where_.empty()) {
          max_usage_ = usage;
          max_usage_where_ = "'" + task_.tensors[o].name + "' at " + where;
        }
      } else {
        (held ? baseline_wrong_heldout_ : baseline_wrong_visible_)
            .add("'" + task_.tensors[o].name + "' at " + where + ": " + c.reason + " (" +
                 lang::tolerance_text(tol[o]) + ")");
        break;
      }
    }
  }

  // Answers computed without the work, each against the reference under the tolerance.
  void cheap(const HostSet& in, const HostSet& ref, std::map<size_t, model::Tolerance>& tol,
             const std::string& where, bool held) {
    for (size_t o : outputs_) {
      const HostTensor& want = ref[o];
      const model::Tolerance& t = tol[o];
      const std::string& name = task_.tensors[o].name;
      auto admit = [&](const std::string& answer, const HostTensor& got) {
        if (!compare(got, want, t).pass) return;
        std::string key = answer + " as '" + name + "'";
        (held ? cheap_heldout_ : cheap_visible_)[key].add(where);
      };
      if (want.numel() == 0) continue;
      admit("all zeros", HostTensor::zeros(want.dtype, want.shape));
      for (size_t i : inputs_) {
        if (in[i].dtype == want.dtype && in[i].shape == want.shape)
          admit(i == o ? "'" + name + "' left as it was uploaded"
                       : "input '" + task_.tensors[i].name + "' passed through",
                in[i]);
      }
      std::string format;
      if (auto lower = lower_precision(want, &format))
        admit("the reference rounded to " + format, *lower);
      size_t changed = 0;
      HostTensor wrong = perturbed(want, kPerturbedShare, 0x9e3779b97f4a7c15ull, &changed);
      admit(fmt::format("the reference with {} of {} elements wrong", changed, want.numel()),
            wrong);
    }
  }

  // Each input redrawn alone: an output that stays within tolerance names an input the
  // reference ignores (a candidate may too).
  std::optional<std::string> redraw_inputs(const model::ShapePoint& p, const PointSpec& spec,
                                           const HostSet& in, const HostSet& ref,
                                           std::map<size_t, model::Tolerance>& tol,
                                           const std::string& where) {
    for (size_t i : inputs_) {
      const model::Tensor& t = task_.tensors[i];
      model::Distribution dist = t.init ? *t.init : model::Distribution{"normal", {}, {}};
      HostSet changed = in;
      try {
        changed[i] = generate_input(t, spec.shapes[i], dist, task_.name, p, kRedrawSeed);
      } catch (const std::exception& e) {
        return "inputs cannot be drawn at " + where + ": " + e.what();
      }
      if (changed[i].bytes == in[i].bytes) {
        redraw_constant_[i].add(where);
        continue;
      }
      std::string error;
      auto out = runner_.run(ImplRole::reference, spec, changed, &error);
      if (!out)
        return "the reference failed at " + where + " with '" + t.name + "' redrawn: " + error;
      bool same = std::all_of(outputs_.begin(), outputs_.end(),
                              [&](size_t o) { return compare((*out)[o], ref[o], tol[o]).pass; });
      if (same) redraw_ignored_[i].add(where);
    }
    return std::nullopt;
  }

  DeviceCheckResults results() {
    DeviceCheckResults r;
    r.checks.push_back(meaningful());
    r.checks.push_back(inputs_check());
    r.checks.push_back(determinism_check());
    r.checks.push_back(margin());
    r.checks.push_back(cheap_check());
    r.checks.push_back(heldout_baseline());
    if (baseline_error_.empty()) {
      std::string error;
      if (const Impl* b = runner_.impl(ImplRole::baseline, &error))
        r.baseline_device = b->device->info();
    }
    return r;
  }

  std::string points_text() const {
    return fmt::format("{} visible + {} held-out point{} x {} seed{}", visible_points_,
                       heldout_points_, heldout_points_ == 1 ? "" : "s", seeds_,
                       seeds_ == 1 ? "" : "s");
  }

  CheckOutcome meaningful() {
    if (degenerate_visible_.any())
      return outcome("reference.meaningful", CheckLevel::fail,
                     degenerate_visible_.first + more(degenerate_visible_));
    if (degenerate_heldout_.any())
      return outcome("reference.meaningful", CheckLevel::warn,
                     degenerate_heldout_.first + more(degenerate_heldout_) +
                         " (an edge point; every visible point is meaningful)");
    return outcome(
        "reference.meaningful", CheckLevel::pass,
        points_text() + ": depends on the seed, not constant, not zero within tolerance, no NaN");
  }

  CheckOutcome inputs_check() {
    if (inputs_.empty())
      return outcome("reference.inputs", CheckLevel::fail,
                     "the task has no inputs: its outputs depend on nothing the engine draws, so "
                     "a candidate may return them precomputed");
    CheckOutcome c = outcome("reference.inputs", CheckLevel::pass, "");
    std::vector<std::string> fine;
    for (size_t i : inputs_) {
      const std::string& name = task_.tensors[i].name;
      const Finding& ignored = redraw_ignored_[i];
      const Finding& constant = redraw_constant_[i];
      if (ignored.count > 0 && ignored.count + constant.count == visible_points_) {
        c.level = CheckLevel::fail;
        c.details.push_back(fmt::format(
            "the reference ignores input '{}': redrawn, every output stays within tolerance "
            "(at {}{}); a candidate may ignore it too (declare it an output if it is one)",
            name, ignored.first, more(ignored)));
      } else if (ignored.any()) {
        if (c.level == CheckLevel::pass) c.level = CheckLevel::warn;
        c.details.push_back(fmt::format(
            "input '{}' changes no output at {}{}: redrawn, every output stays within tolerance",
            name, ignored.first, more(ignored)));
      } else if (constant.any()) {
        if (c.level == CheckLevel::pass) c.level = CheckLevel::warn;
        c.details.push_back(
            fmt::format("input '{}' does not depend on the seed: its distribution draws the same "
                        "values for every seed ({}), so a candidate may hard-code it",
                        name, task_.tensors[i].init ? task_.tensors[i].init->name : "normal"));
      } else {
        fine.push_back("'" + name + "'");
      }
    }
    if (c.level == CheckLevel::pass) {
      std::string list;
      for (const auto& f : fine) list += (list.empty() ? "" : ", ") + f;
      c.reason = fmt::format(
          "redrawing each input ({}) changes the output beyond tolerance at "
          "every visible point",
          list);
    } else {
      c.reason = c.details.front();
      c.details.erase(c.details.begin());
    }
    return c;
  }

  CheckOutcome determinism_check() {
    std::vector<std::string> atomics;
    if (task_.reference.flavor == model::Flavor::hip) atomics = float_atomics(task_.reference.file);
    std::string named;
    for (const auto& a : atomics) named += (named.empty() ? "" : "; ") + a;
    if (nondeterministic_.any()) {
      CheckOutcome c = outcome(
          "determinism", CheckLevel::fail,
          "the reference is not deterministic: two runs on the same inputs differ, " +
              nondeterministic_.first + more(nondeterministic_) +
              (named.empty() ? std::string() : "; float atomics reorder its sums: " + named));
      return c;
    }
    if (!atomics.empty())
      return outcome("determinism", CheckLevel::fail,
                     "the reference accumulates with float atomics (" + named +
                         "): the order of their additions, and so the reference's bits, vary "
                         "from run to run on a GPU; use a fixed-order reduction");
    return outcome("determinism", CheckLevel::pass,
                   fmt::format("two runs of the reference give identical bytes at {} point{}",
                               visible_points_ + heldout_points_,
                               visible_points_ + heldout_points_ == 1 ? "" : "s"));
  }

  CheckOutcome skipped_baseline(const char* name) {
    return outcome(name, CheckLevel::fail, baseline_error_);
  }

  CheckOutcome margin() {
    if (!baseline_error_.empty()) return skipped_baseline("tolerance.margin");
    if (baseline_wrong_visible_.any())
      return outcome("tolerance.margin", CheckLevel::fail,
                     "the baseline fails the tolerance (too tight, or the baseline is wrong): " +
                         baseline_wrong_visible_.first + more(baseline_wrong_visible_));
    std::string usage = std::isfinite(max_usage_) ? fmt::format("{:.2f}", max_usage_) : "inf";
    if (max_usage_ > kMarginWarn)
      return outcome("tolerance.margin", CheckLevel::warn,
                     fmt::format("the baseline uses {} of the bound at {}: a correct kernel "
                                 "summing in another order may fail (keep it under {})",
                                 usage, max_usage_where_, kMarginWarn));
    return outcome("tolerance.margin", CheckLevel::pass,
                   fmt::format("the baseline passes {} with at most {} of the bound ({})",
                               points_text(), usage, max_usage_where_));
  }

  CheckOutcome cheap_check() {
    CheckOutcome c = outcome("tolerance.cheap", CheckLevel::pass, "");
    for (const auto& [answer, f] : cheap_visible_) {
      c.level = CheckLevel::fail;
      c.details.push_back(
          fmt::format("the tolerance admits {}: it passes at {}{}", answer, f.first, more(f)));
    }
    for (const auto& [answer, f] : cheap_heldout_) {
      if (cheap_visible_.count(answer)) continue;
      if (c.level == CheckLevel::pass) c.level = CheckLevel::warn;
      c.details.push_back(fmt::format("the tolerance admits {} at {}{}", answer, f.first, more(f)));
    }
    if (c.details.empty()) {
      c.reason =
          "all zeros, inputs passed through, the reference one precision step down and with 1% "
          "of its elements wrong: each fails at every point";
    } else {
      c.reason = c.details.front();
      c.details.erase(c.details.begin());
    }
    return c;
  }

  CheckOutcome heldout_baseline() {
    if (!baseline_error_.empty()) return skipped_baseline("heldout.baseline");
    if (heldout_points_ == 0)
      return outcome("heldout.baseline", CheckLevel::skip, "the task has no held-out points");
    if (baseline_wrong_heldout_.any())
      return outcome("heldout.baseline", CheckLevel::fail,
                     "the baseline is wrong on a held-out point, so held-out results mean "
                     "nothing: " +
                         baseline_wrong_heldout_.first + more(baseline_wrong_heldout_));
    return outcome(
        "heldout.baseline", CheckLevel::pass,
        fmt::format("the baseline is correct on {} held-out point{} x {} seed{}", heldout_points_,
                    heldout_points_ == 1 ? "" : "s", seeds_, seeds_ == 1 ? "" : "s"));
  }

  const model::Task& task_;
  int seeds_;
  TaskRunner runner_;
  std::vector<size_t> outputs_, inputs_;
  int visible_points_ = 0, heldout_points_ = 0;
  std::string baseline_error_;
  bool baseline_dead_ = false;
  int baseline_checked_visible_ = 0, baseline_checked_heldout_ = 0;
  Finding baseline_wrong_visible_, baseline_wrong_heldout_;
  double max_usage_ = 0;
  std::string max_usage_where_;
  Finding degenerate_visible_, degenerate_heldout_, nondeterministic_;
  std::map<std::string, Finding> cheap_visible_, cheap_heldout_;
  std::vector<Finding> redraw_ignored_, redraw_constant_;
};

std::string read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

DeviceCheckResults run_device_checks(const model::Task& task,
                                     const std::vector<model::ShapePoint>& visible,
                                     const std::vector<model::ShapePoint>& heldout, int seeds,
                                     const DeviceFactory& make_device) {
  try {
    return Sweep(task, seeds, make_device).run(visible, heldout);
  } catch (const std::exception& e) {
    DeviceCheckResults r;
    r.checks.push_back(outcome("reference.meaningful", CheckLevel::fail,
                               std::string("the device failed: ") + e.what()));
    for (const char* name : {"reference.inputs", "determinism", "tolerance.margin",
                             "tolerance.cheap", "heldout.baseline"})
      r.checks.push_back(outcome(name, CheckLevel::skip, "the device failed"));
    return r;
  }
}

std::vector<std::string> float_atomics(const fs::path& source) {
  // The source and the files it includes by quoted name from its folder, one level deep.
  std::vector<fs::path> files = {source};
  std::string text = read_text(source);
  static const std::regex include(R"re(#\s*include\s*"([^"]+)")re");
  for (std::sregex_iterator it(text.begin(), text.end(), include), end; it != end; ++it) {
    fs::path p = source.parent_path() / (*it)[1].str();
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) files.push_back(p);
  }
  static const std::regex call(
      R"re(\b(atomicAdd|atomicAdd_system|atomicAdd_block|unsafeAtomicAdd|safeAtomicAdd|atomicSub)\s*\(\s*&?\s*([A-Za-z_]\w*))re");
  std::vector<std::string> found;
  for (const fs::path& file : files) {
    std::string src = read_text(file);
    std::vector<std::string> lines;
    std::stringstream ss(src);
    for (std::string line; std::getline(ss, line);) lines.push_back(line);
    for (size_t n = 0; n < lines.size(); ++n) {
      const std::string& line = lines[n];
      for (std::sregex_iterator it(line.begin(), line.end(), call), end; it != end; ++it) {
        std::string fn = (*it)[1].str(), name = (*it)[2].str();
        // The name declared with a floating-point type anywhere in the file: a pointer or
        // array parameter, a __shared__ array, a local.
        std::regex decl(
            R"re(\b(float|double|half|__half|__hip_bfloat16|hip_bfloat16|__nv_bfloat16|bfloat16)\b[\s\w]*[\s\*&]+(__restrict__\s+|const\s+|volatile\s+)*)re" +
            name + R"re(\b)re");
        if (!std::regex_search(src, decl)) continue;
        found.push_back(
            fmt::format("{}:{}: {} on float '{}'", file.filename().string(), n + 1, fn, name));
      }
    }
  }
  return found;
}

}  // namespace kta::engine
