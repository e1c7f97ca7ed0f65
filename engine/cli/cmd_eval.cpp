// `kta eval FILE`: load a plan (or a task: its baseline is the candidate), compile the plan,
// run it on a device through isolated workers, store every finished step, export and print
// the results. Exit status: 0 when the evaluation ran to the end (whatever the verdicts),
// 1 when it could not run (diagnostics, device, store), 2 for usage errors.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "engine/agents/agent.h"
#include "engine/cli/commands.h"
#include "engine/cli/run_devices.h"
#include "engine/device/python/python_device.h"
#include "engine/device/remote/device_settings.h"
#include "engine/execute/device_pool.h"
#include "engine/execute/executor.h"
#include "engine/execute/reference_cache.h"
#include "engine/ipc/cache_key.h"
#include "engine/plan/compile.h"
#include "engine/plan/shard.h"
#include "engine/report/export.h"
#include "engine/report/summary.h"
#include "kta_version.h"
#include "lang/load.h"
#if KTA_HAVE_ANALYZERS
#include "analyzers/audit.h"
#endif

namespace kta::cli {
namespace {

namespace fs = std::filesystem;

struct EvalArgs {
  std::string file;
  std::string device;
  int warp_size = 0;  // --warp-size; 0: the plan's
  int jobs = 1;
  std::string output;
  bool resume = false;
  std::vector<std::string> only;
  bool json = false;
  int seeds = 0;
  bool quick = false;
  bool explain = false;
  bool debug_passes = false;
  std::string replay;
  double timeout = 0;
  bool check_lanes = false;
  std::string shard;        // --shard I/N
  std::string secret_file;  // --secret-file F
};

std::string now_iso() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::string new_secret() {
  std::random_device rd;
  std::string s;
  for (int i = 0; i < 4; ++i) s += fmt::format("{:08x}", rd());
  return s;
}

#if KTA_HAVE_ANALYZERS
// "k.hip:12:5: use of undeclared identifier 'x' (and 3 more errors)" from the first file with
// parse errors: Clang's first error with its folder and "error: " left out; empty when all parsed.
std::string first_parse_error(const std::vector<analyzers::FileAudit>& audits) {
  for (const auto& a : audits) {
    if (a.parse_errors.empty()) continue;
    std::string e = a.parse_errors.front();
    if (auto at = e.find(": error: "); at != std::string::npos) e.erase(at, 7);
    if (auto at = e.find(": fatal error: "); at != std::string::npos) e.erase(at + 2, 13);
    std::string folder = a.file.parent_path().string() + "/";
    if (e.starts_with(folder)) e = e.substr(folder.size());
    size_t more = a.parse_errors.size() - 1;
    if (more > 0) e += fmt::format(" (and {} more error{})", more, more == 1 ? "" : "s");
    return e;
  }
  return {};
}

// The verdict on a candidate's files from their audits.
engine::AuditVerdict audit_verdict(const std::vector<analyzers::FileAudit>& audits,
                                   const std::optional<std::string>& fail_on) {
  engine::AuditVerdict r;
  r.ran = true;
  std::map<std::string, int> by_check;
  for (const auto& a : audits) {
    if (!a.failure.empty()) {
      r.ran = false;
      r.summary = "audit failed on " + a.file.filename().string() + ": " + a.failure;
    }
    for (const auto& f : a.findings) ++by_check[f.check];
    r.findings += static_cast<int>(a.findings.size());
  }
  r.parse_error = first_parse_error(audits);
  if (r.ran && r.findings > 0) {
    std::string checks;
    for (const auto& [c, n] : by_check) checks += (checks.empty() ? "" : ", ") + c;
    r.summary = fmt::format("{} finding{} ({})", r.findings, r.findings == 1 ? "" : "s", checks);
  }
  r.details = engine::Json::parse(analyzers::format_json(audits), nullptr, false);
  if (fail_on) r.gate_failed = analyzers::reaches(audits, *fail_on);
  return r;
}
#endif

engine::AuditHook audit_hook() {
#if KTA_HAVE_ANALYZERS
  return [](const engine::TaskJob& job, const std::vector<fs::path>& files) {
    analyzers::AuditOptions o;
    for (const auto& point : job.visible) {
      for (const auto& [name, v] : point) o.shapes[name].push_back(v);
    }
    // Findings already in the task's own HIP are not the agent's: hip2hip compares against the
    // baseline, torch2hip against the candidate's starter file (its baseline is PyTorch).
    o.baseline = job.task.kind == model::TaskKind::torch2hip ? job.task.candidate.file
                                                             : job.task.baseline.file;
    o.include_dirs.push_back(job.task.dir);
    o.jobs = 1;
    std::vector<fs::path> hip;
    for (const auto& f : files) {
      if (f.extension() == ".hip" || f.extension() == ".cu" || f.extension() == ".h")
        hip.push_back(f);
    }
    return audit_verdict(analyzers::audit_files(hip, o), job.task.gates.audit_fail_on);
  };
#else
  return {};
#endif
}

// The run secret kept in `path` (--secret-file), shared by the shards of one run: created with a
// fresh secret, readable by its owner only, when absent (link(2) makes the creation atomic, so
// shards that start together agree); refused when others may read it or it is not a secret.
std::string read_secret_file(const fs::path& path) {
  std::string p = path.string();
  struct stat st {};
  if (::stat(p.c_str(), &st) != 0) {
    fs::path tmp = path;
    tmp += fmt::format(".{}.tmp", ::getpid());
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0)
      throw std::runtime_error(
          fmt::format("--secret-file {}: cannot create it: {}", p, std::strerror(errno)));
    std::string fresh = new_secret() + "\n";
    bool wrote = ::write(fd, fresh.data(), fresh.size()) == static_cast<ssize_t>(fresh.size());
    ::close(fd);
    if (!wrote || (::link(tmp.c_str(), p.c_str()) != 0 && errno != EEXIST)) {
      ::unlink(tmp.c_str());
      throw std::runtime_error(fmt::format("--secret-file {}: cannot create it", p));
    }
    ::unlink(tmp.c_str());
    if (::stat(p.c_str(), &st) != 0)
      throw std::runtime_error(fmt::format("--secret-file {}: cannot read it", p));
  }
  if (!S_ISREG(st.st_mode))
    throw std::runtime_error(fmt::format("--secret-file {}: not a regular file", p));
  if (st.st_uid != ::getuid() || (st.st_mode & 077) != 0)
    throw std::runtime_error(fmt::format(
        "--secret-file {}: must belong to you and be readable by you alone (chmod 600): "
        "held-out points derive from it",
        p));
  std::string text;
  {
    std::ifstream in(path);
    std::getline(in, text);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  bool hex = text.size() >= 16 && text.size() <= 128 &&
             std::all_of(text.begin(), text.end(),
                         [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
  if (!hex)
    throw std::runtime_error(fmt::format(
        "--secret-file {}: must hold one line of 16 to 128 hex digits (kta writes one when the "
        "file is absent)",
        p));
  return text;
}

// Loads FILE into a plan: the file's plan, or its tasks under the baseline agent.
std::optional<model::Plan> load_plan(const EvalArgs& a, const CliState& state) {
  lang::SourceManager sources;
  lang::DiagnosticEngine diags(sources);
  auto loaded = lang::load_file(a.file, diags, state.load_options());
  diags.print(std::cerr, state.color_stderr());
  if (!loaded) return std::nullopt;
  if (loaded->plans.size() > 1) {
    std::cerr << "kta eval: " << a.file << " holds " << loaded->plans.size()
              << " plans; put one plan per file\n";
    return std::nullopt;
  }
  model::Plan plan;
  if (!loaded->plans.empty()) {
    plan = loaded->plans.front();
  } else if (!loaded->tasks.empty()) {
    plan = engine::plan_for_task(loaded->tasks.front(),
                                 fs::absolute("runs") / loaded->tasks.front().name);
    for (size_t i = 1; i < loaded->tasks.size(); ++i) plan.tasks.push_back(loaded->tasks[i]);
  } else {
    std::cerr << "kta eval: " << a.file << " holds no task and no plan\n";
    return std::nullopt;
  }
  if (!a.replay.empty()) plan.agents = {engine::replay_agent(fs::absolute(a.replay).string())};
  if (!a.output.empty()) plan.output = fs::absolute(a.output);
  if (plan.output.empty()) plan.output = fs::absolute("runs") / plan.name;
  return plan;
}

// Without --resume a run folder starts fresh; its earlier results are replaced, not mixed in.
void clear_previous(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir / "results.db", ec)) return;
  std::cerr << "kta eval: replacing the previous results in " << dir.string()
            << " (use --resume to continue them)\n";
  for (const char* f : {"results.db", "results.db-wal", "results.db-shm", "results.json",
                        "results.csv", "summary.md", "shard.json"}) {
    fs::remove(dir / f, ec);
  }
  // Agent workspaces (task/ in each is read-only: writable again first), taken-back candidates,
  // agent logs and prompts belong to the replaced run too.
  for (auto it = fs::recursive_directory_iterator(dir / "work", ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_directory())
      fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
  ec.clear();
  for (const char* d : {"work", "candidates", "logs", "prompts"}) fs::remove_all(dir / d, ec);
}

// The concrete device the run uses ("cpu", "hip:0"), printing why for `auto`; empty on a bad spec.
std::string resolve_device(const EvalArgs& a, const model::Plan& source, const CliState& state) {
  std::string why;
  std::string spec;
  try {
    spec = engine::resolve_device_spec(a.device.empty() ? source.device : a.device, &why,
                                       state.settings.hip_plugin);
  } catch (const std::exception& e) {
    std::cerr << "kta eval: " << e.what() << "\n";
    return {};
  }
  if (!why.empty()) std::cerr << "kta eval: device " << spec << ": " << why << "\n";
  return spec;
}

// The run's warp size: --warp-size, else the plan's `device cpu(warp: N)`, else the cpu device's
// 64 (as on AMD); 0 on the hip device when none was asked for (the hardware's own).
int resolve_warp(const EvalArgs& a, const model::Plan& source, const std::string& device) {
  int warp = a.warp_size != 0 ? a.warp_size : source.warp_size;
  if (warp == 0 && device == "cpu") warp = 64;
  return warp;
}

// A warp size the hip device cannot honour fails the run before anything runs: a GPU's warp
// size is its hardware's.
void check_hip_warp(const std::string& device, int warp, const CliState& state) {
  if (warp == 0 || !device.starts_with("hip")) return;
  auto d = engine::make_isolated_device(device, engine::device_options(state.settings));
  int have = d->info().warp_size;
  if (have != warp)
    throw std::runtime_error(fmt::format(
        "device {} has warp size {}, not the {} asked for; a GPU runs at its hardware's warp "
        "size (drop --warp-size and the plan's warp, or use the cpu device)",
        device, have, warp));
}

engine::PlanOptions plan_options(const EvalArgs& a, const std::string& device) {
  engine::PlanOptions po;
  po.only = a.only;
  if (a.seeds > 0) po.seeds = a.seeds;
  po.quick = a.quick;
  po.device = device;
  po.debug = a.debug_passes ? &std::cerr : nullptr;
  return po;
}

// A compiled plan and its run folder's store, with the run's identity recorded (a resumed run
// keeps its secret and start time).
struct OpenRun {
  std::unique_ptr<engine::ResultStore> store;
  engine::Plan plan;
  engine::RunInfo info;
  std::optional<engine::ShardManifest> shard;  // --shard: what the shard knows of the whole
};

void write_shard_manifest(const OpenRun& run) {
  if (!run.shard) return;
  fs::path file = run.plan.output / "shard.json";
  fs::path tmp = file;
  tmp += ".tmp";
  {
    std::ofstream out(tmp);
    out << engine::shard_manifest_json(*run.shard);
    if (!out) throw std::runtime_error("cannot write " + file.string());
  }
  fs::rename(tmp, file);
}

OpenRun open_run(const EvalArgs& a, const model::Plan& source, engine::PlanOptions po,
                 std::optional<engine::ShardSpec> shard) {
  // Read before anything is cleared: a bad secret file leaves the folder as it was.
  std::string given = a.secret_file.empty() ? std::string() : read_secret_file(a.secret_file);
  if (!a.resume) clear_previous(source.output);
  OpenRun run;
  run.store = engine::ResultStore::open(source.output);
  auto previous = run.store->run_info();
  // The secret is drawn once per run and kept only in the run's database (and, for the shards
  // of one run, in the file they share).
  if (previous && !previous->secret.empty() && !given.empty() && previous->secret != given)
    throw std::runtime_error(fmt::format(
        "the run in {} was started with another secret than --secret-file {}: its held-out "
        "points would change (start it afresh without --resume)",
        source.output.string(), a.secret_file));
  po.secret = previous && !previous->secret.empty() ? previous->secret
              : !given.empty()                      ? given
                                                    : new_secret();
  run.plan = engine::compile_plan(source, po);
  if (shard) {
    run.shard = engine::select_shard(run.plan, *shard);
    run.shard->secret_digest = engine::ipc::sha256_hex(po.secret);
  }
  if (previous && previous->plan_hash != run.plan.hash) {
    std::cerr << "kta eval: the plan changed since this run started; steps whose inputs are "
                 "unchanged are kept, the others run\n";
  }
  run.info.plan_hash = run.plan.hash;
  run.info.plan_name = run.plan.name;
  run.info.device = po.device;
  run.info.warp_size = po.warp_size;
  run.info.kta_version = KTA_VERSION;
  run.info.started = previous ? previous->started : now_iso();
  run.info.secret = po.secret;
  run.store->set_run_info(run.info);
  write_shard_manifest(run);
  return run;
}

// Runs every job on devices opened once per run: workers (and GPU contexts) shared by the jobs,
// python runners (torch references, Triton kernels) one per role for the whole run.
std::vector<engine::TaskOutcome> execute_plan(const EvalArgs& a, const CliState& state,
                                              OpenRun& run) {
  size_t total = 0;
  for (const auto& j : run.plan.jobs) total += j.steps.size();
  auto progress = engine::make_progress(stderr, isatty(2) != 0, total);
  engine::ExecuteOptions eo;
  eo.jobs = a.jobs;
  eo.cache_dir = state.settings.cache_dir;
  eo.progress = progress.get();
  eo.audit = audit_hook();
  eo.agents = agent_defaults(state.settings);
  engine::DeviceOptions device_options = engine::device_options(state.settings);
  if (a.timeout > 0) device_options.launch_timeout_s = a.timeout;
  device_options.check_lanes = a.check_lanes;
  if (run.plan.warp_size != 0) device_options.warp_size = run.plan.warp_size;
  RunDevices devices(state.settings, run.info.device, device_options,
                     static_cast<int>(run.plan.jobs.size()));
  eo.make_device = devices.factory();
  if (!run.plan.jobs.empty()) devices.prestart();
  auto outcomes = engine::execute(run.plan, *run.store, eo);
  if (run.info.warp_size == 0) run.info.warp_size = devices.seen_warp();
  if (engine::RunnerStats rs = devices.runner_stats(); rs.starts > 0) {
    std::cerr << fmt::format("python runner: {} start{} ({}; {:.2f} s start-up), {} requests\n",
                             rs.starts, rs.starts == 1 ? "" : "s", rs.by_role, rs.start_seconds,
                             rs.requests);
  }
  return outcomes;
}

// results.json, results.csv and summary.md in the run folder; the table (or the JSON) on stdout.
void write_outputs(const EvalArgs& a, OpenRun& run,
                   const std::vector<engine::TaskOutcome>& outcomes) {
  engine::RunScore score = engine::score(outcomes);
  run.info.secret.clear();
  const fs::path& out = run.plan.output;
  engine::write_results_json(out / "results.json", run.info, outcomes, score);
  engine::write_results_csv(out / "results.csv", outcomes);
  engine::write_summary_md(out / "summary.md", run.info, outcomes, score);
  if (a.json) {
    std::cout << engine::results_json_text(run.info, outcomes, score) << "\n";
  } else {
    std::cout << engine::format_run_summary(outcomes, run.store->steps(), score);
    std::cout << "results: " << (out / "results.json").string() << "\n";
  }
}

int run_eval(const EvalArgs& a, const CliState& state) {
  std::optional<engine::ShardSpec> shard;
  if (!a.shard.empty()) {
    try {
      shard = engine::parse_shard(a.shard);
    } catch (const std::invalid_argument& e) {
      std::cerr << "kta eval: " << e.what() << "\n";
      return 2;
    }
    // Shards that drew secrets of their own would hold different held-out points: kta merge
    // refuses them, after the work is done. Refused before it starts instead.
    if (shard->count > 1 && a.secret_file.empty()) {
      std::cerr << "kta eval: --shard " << a.shard
                << " needs --secret-file F: the shards of one run share its secret (held-out "
                   "points derive from it); kta creates F when absent\n";
      return 2;
    }
  }
  auto source = load_plan(a, state);
  if (!source) return 1;
  // Each shard writes a folder of its own beside the others (unless --output names one).
  if (shard && a.output.empty())
    source->output /= fmt::format("shard-{}-of-{}", shard->index, shard->count);
  std::string device = resolve_device(a, *source, state);
  if (device.empty()) return 2;
  engine::PlanOptions po = plan_options(a, device);
  po.warp_size = resolve_warp(a, *source, device);
  if (!a.explain) check_hip_warp(device, po.warp_size, state);
  if (a.explain) {
    po.secret = new_secret();
    engine::explain(engine::compile_plan(*source, po), std::cout);
    return 0;
  }
  OpenRun run = open_run(a, *source, po, shard);
  auto outcomes = execute_plan(a, state, run);
  write_outputs(a, run, outcomes);
  if (run.shard) {  // the completion mark `kta merge` and `kta slurm resubmit` go by
    run.shard->complete = true;
    write_shard_manifest(run);
  }
  return 0;
}

}  // namespace

void add_eval_command(CLI::App& app, CliState& state) {
  auto args = std::make_shared<EvalArgs>();
  auto* cmd = app.add_subcommand("eval", "evaluate a plan (or a task's baseline) end to end");
  cmd->add_option("file", args->file, "a plan or task .kta file (or a folder holding one)")
      ->required();
  cmd->add_option("--device", args->device, "cpu | hip | hip:N | auto (default: the plan's)");
  cmd->add_option("--warp-size", args->warp_size,
                  "warp size of the cpu device, 32 or 64 (default: the plan's device warp, else 64 "
                  "as on AMD); on the hip device it must be the GPU's")
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            return v == "32" || v == "64" ? "" : "warp size must be 32 or 64, found " + v;
          },
          "32|64"));
  cmd->add_option("--jobs,-j", args->jobs, "tasks evaluated in parallel")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--output,-o", args->output, "run folder (default: the plan's output)");
  cmd->add_flag("--resume", args->resume,
                "continue the run in the output folder; finished steps are kept");
  cmd->add_option("--only", args->only, "evaluate only this task (repeatable)");
  cmd->add_option("--shard", args->shard,
                  "evaluate shard I of N (I/N, from 0): a deterministic share of the plan's jobs, "
                  "into OUTPUT/shard-I-of-N; `kta merge` joins the shards (docs/scale.md)");
  cmd->add_option("--secret-file", args->secret_file,
                  "the run secret (held-out points) from this file, created (mode 600) when "
                  "absent; the shards of one run share it");
  cmd->add_flag("--json", args->json, "print results.json to stdout instead of the table");
  cmd->add_option("--seeds", args->seeds, "input seeds per shape point (overrides the tasks')")
      ->check(CLI::Range(1, 1000));
  cmd->add_flag("--quick", args->quick,
                "short timing (3-7 samples, 150 ms budget per shape), for CI");
  cmd->add_option(
      "--replay", args->replay,
      "candidates from DIR/<task>/<file> (the replay agent) instead of the plan's agents");
  cmd->add_option(
         "--timeout", args->timeout,
         "wall-time limit of one launch in seconds before the worker is killed (default 10)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--check-lanes", args->check_lanes,
                "cpu device: fail a launch whose warp shuffle reads an inactive or missing lane");
  cmd->add_flag("--explain", args->explain, "print the compiled plan and exit without running");
  cmd->add_flag("--debug-passes", args->debug_passes,
                "dump the plan after each compiler pass to stderr");
  cmd->callback([args, &state] {
    try {
      state.exit_code = run_eval(*args, state);
    } catch (const engine::PlanError& e) {
      std::cerr << "kta eval: " << e.what() << "\n";
      state.exit_code = 2;
    } catch (const std::exception& e) {
      std::cerr << "kta eval: " << e.what() << "\n";
      state.exit_code = 1;
    }
  });
}

}  // namespace kta::cli
