#include "engine/validate/validate.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

#include "engine/ipc/cache_key.h"
#include "engine/plan/compile.h"
#include "engine/validate/checks.h"
#include "engine/validate/device_checks.h"

namespace kta::engine {

namespace fs = std::filesystem;

namespace {

// Bumped when a check changes what it decides: cached validations of older checks are not used.
constexpr int kValidatorVersion = 2;
// Run secrets whose held-out points heldout.points inspects (a generator draws per secret).
constexpr int kSecrets = 4;

// Everything under `dir`, by relative path and content: a solution's identity.
std::string folder_digest(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return "none";
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file(ec)) files.push_back(it->path());
  std::sort(files.begin(), files.end());
  std::string all;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    all += fs::relative(f, dir, ec).string() + '\0' + ipc::sha256_hex(s.str()) + '\n';
  }
  return ipc::sha256_hex(all);
}

}  // namespace

const char* check_level_name(CheckLevel level) {
  switch (level) {
    case CheckLevel::pass:
      return "pass";
    case CheckLevel::warn:
      return "warn";
    case CheckLevel::fail:
      return "fail";
    case CheckLevel::skip:
      return "skip";
  }
  return "?";
}

int TaskValidation::count(CheckLevel level) const {
  return static_cast<int>(std::count_if(checks.begin(), checks.end(),
                                        [&](const CheckOutcome& c) { return c.level == level; }));
}

const CheckOutcome* TaskValidation::check(const std::string& name) const {
  for (const auto& c : checks)
    if (c.name == name) return &c;
  return nullptr;
}

const std::vector<std::pair<std::string, std::string>>& validation_checks() {
  static const std::vector<std::pair<std::string, std::string>> checks = {
      {"reference.meaningful",
       "a reference whose output is constant, all zeros within tolerance, the same for every "
       "seed, or NaN the tolerance cannot match: a candidate passes without computing"},
      {"reference.inputs", "a reference that ignores an input: a candidate may ignore it too"},
      {"determinism",
       "a reference whose bits change from run to run (float atomics): its verdicts are noise"},
      {"tolerance.margin",
       "a tolerance the baseline fails or nearly exhausts: correct kernels fail"},
      {"tolerance.cheap",
       "a tolerance that admits zeros, an input passed through, a lower precision or 1% wrong "
       "elements"},
      {"heldout.baseline", "held-out points the baseline itself gets wrong"},
      {"heldout.points",
       "held-out points that are visible ones, or never leave multiples of 32 and large sizes"},
      {"timing.self", "a measurement that reads identical code as faster or slower"},
      {"timing.floor", "kernel times lost in the timer's tick"},
      {"timing.physics", "a `bytes` or `flops` annotation that is too large"},
      {"timing.shapes", "a speedup over other shapes than were checked"},
      {"starter",
       "a torch2hip starter (what the agent starts from, and what the baseline agent hands in) "
       "that is wrong on visible or held-out points"},
      {"solutions", "a reference solution that is wrong, or slower than the baseline"},
      {"prompt", "a prompt that does not build, misses a file, or leaks a held-out value"},
  };
  return checks;
}

TaskValidation validate_task(const model::Task& task, const ValidateOptions& options) {
  auto t0 = std::chrono::steady_clock::now();
  TaskValidation v;
  v.task = task.name;
  v.file = task.file.string();
  v.kind = kind_name(task.kind);
  v.hash = task.content_hash;
  v.device = device_identity(options.device, options.warp_size);
  auto finish = [&](std::vector<CheckOutcome> checks) {
    v.checks = std::move(checks);
    v.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return v;
  };

  // The job as `kta eval` would plan it, with held-out points from fixed secrets.
  std::vector<TaskJob> jobs;
  std::vector<std::vector<model::ShapePoint>> heldout;
  try {
    for (int s = 1; s <= kSecrets; ++s) {
      PlanOptions po;
      po.device = options.device;
      po.warp_size = options.warp_size;
      po.secret = validation_secret(s);
      Plan plan = compile_plan(plan_for_task(task, options.scratch / "plan"), po);
      if (plan.jobs.empty()) throw std::runtime_error("the plan has no job");
      heldout.push_back(plan.jobs.front().heldout);
      jobs.push_back(std::move(plan.jobs.front()));
      if (!task.heldout_generator) break;
    }
  } catch (const std::exception& e) {
    std::vector<CheckOutcome> checks;
    for (const auto& [name, what] : validation_checks())
      checks.push_back(outcome(name, checks.empty() ? CheckLevel::fail : CheckLevel::skip,
                               checks.empty()
                                   ? std::string("the task cannot be planned: ") + e.what()
                                   : "the task cannot be planned"));
    return finish(std::move(checks));
  }
  const TaskJob& job = jobs.front();
  int seeds = options.seeds > 0 ? options.seeds : std::max(2, task.gates.correctness_seeds);

  DeviceCheckResults device =
      run_device_checks(task, job.visible, job.heldout, seeds, options.make_device);
  std::vector<CheckOutcome> checks = device.checks;
  // Explicit held-out points as the task wrote them: planning leaves out those that are visible
  // ones (with a warning), which is the mistake heldout.points names.
  checks.push_back(heldout_points_check(
      task, job.visible,
      task.heldout_generator ? heldout
                             : std::vector<std::vector<model::ShapePoint>>{task.heldout}));

  std::vector<model::ShapePoint> every = job.visible;
  for (const auto& points : heldout) every.insert(every.end(), points.begin(), points.end());
  std::optional<std::string> bytes_problem = bytes_above_tensors(task, every);
  const CheckOutcome& reference = checks.front();
  const CheckOutcome& margin = checks[3];
  bool reference_ran =
      !(reference.level == CheckLevel::fail && checks[1].level == CheckLevel::skip &&
        checks[2].level == CheckLevel::skip);
  if (!reference_ran || margin.level == CheckLevel::skip ||
      (margin.level == CheckLevel::fail && !device.baseline_device)) {
    // Nothing to time: the reference or the baseline does not run here (the reason says why).
    std::string why = !reference_ran ? "the reference did not run" : margin.reason;
    CheckLevel level =
        !reference_ran || margin.level == CheckLevel::fail ? CheckLevel::skip : margin.level;
    for (const char* name :
         {"timing.self", "timing.floor", "timing.physics", "timing.shapes", "starter"})
      checks.push_back(std::string(name) == "timing.physics" && bytes_problem
                           ? outcome(name, CheckLevel::fail, *bytes_problem)
                           : outcome(name, level, why));
    checks.push_back(options.solutions.empty() ? solutions_check(task, options)
                                               : outcome("solutions", level, why));
  } else {
    for (auto& c : timing_checks(task, options, device.baseline_device, bytes_problem))
      checks.push_back(std::move(c));
    checks.push_back(solutions_check(task, options));
  }
  checks.push_back(prompt_check(job, heldout, options));
  return finish(std::move(checks));
}

std::string validation_key(const model::Task& task, const ValidateOptions& options) {
  std::string solutions =
      options.solutions.empty() ? "none" : folder_digest(options.solutions / task.name);
  return ipc::sha256_hex(fmt::format(
      "kta validate {}\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n", kValidatorVersion, options.version,
      task.content_hash, task.file.string(), device_identity(options.device, options.warp_size),
      options.seeds, options.quick, solutions));
}

std::optional<TaskValidation> load_cached_validation(const ValidateOptions& options,
                                                     const std::string& key) {
  if (options.cache_dir.empty()) return std::nullopt;
  std::ifstream in(options.cache_dir / "validate" / (key + ".json"));
  if (!in) return std::nullopt;
  try {
    TaskValidation v = validation_from_json(Json::parse(in));
    v.cached = true;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

void store_cached_validation(const ValidateOptions& options, const std::string& key,
                             const TaskValidation& v) {
  if (options.cache_dir.empty()) return;
  std::error_code ec;
  fs::path dir = options.cache_dir / "validate";
  fs::create_directories(dir, ec);
  // Written aside and renamed: a reader never sees half an entry.
  fs::path tmp = dir / (key + ".json.tmp" + std::to_string(::getpid()));
  {
    std::ofstream out(tmp);
    out << to_json(v).dump(2) << '\n';
    if (!out) return;
  }
  fs::rename(tmp, dir / (key + ".json"), ec);
}

Json to_json(const TaskValidation& v) {
  Json checks = Json::array();
  for (const auto& c : v.checks) {
    Json j = {{"check", c.name}, {"outcome", check_level_name(c.level)}, {"reason", c.reason}};
    if (!c.details.empty()) j["details"] = c.details;
    checks.push_back(std::move(j));
  }
  return Json{{"task", v.task},
              {"file", v.file},
              {"kind", v.kind},
              {"hash", v.hash},
              {"device", v.device},
              {"sound", !v.failed()},
              {"pass", v.count(CheckLevel::pass)},
              {"warn", v.count(CheckLevel::warn)},
              {"fail", v.count(CheckLevel::fail)},
              {"skip", v.count(CheckLevel::skip)},
              {"seconds", v.seconds},
              {"cached", v.cached},
              {"checks", std::move(checks)}};
}

TaskValidation validation_from_json(const Json& j) {
  TaskValidation v;
  v.task = j.at("task").get<std::string>();
  v.file = j.at("file").get<std::string>();
  v.kind = j.at("kind").get<std::string>();
  v.hash = j.at("hash").get<std::string>();
  v.device = j.at("device").get<std::string>();
  v.seconds = j.at("seconds").get<double>();
  for (const auto& c : j.at("checks")) {
    CheckOutcome o;
    o.name = c.at("check").get<std::string>();
    std::string level = c.at("outcome").get<std::string>();
    o.level = level == "pass"   ? CheckLevel::pass
              : level == "warn" ? CheckLevel::warn
              : level == "fail" ? CheckLevel::fail
                                : CheckLevel::skip;
    o.reason = c.at("reason").get<std::string>();
    if (c.contains("details")) o.details = c.at("details").get<std::vector<std::string>>();
    v.checks.push_back(std::move(o));
  }
  return v;
}

CheckOutcome outcome(std::string name, CheckLevel level, std::string reason) {
  CheckOutcome c;
  c.name = std::move(name);
  c.level = level;
  c.reason = std::move(reason);
  return c;
}

}  // namespace kta::engine
