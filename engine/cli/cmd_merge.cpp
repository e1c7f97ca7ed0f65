// `kta merge RUN_DIR... -o OUT`: joins the folders of one run's shards (`kta eval --shard I/N`)
// into one run folder: their steps in one results.db, their outcomes in one results.json,
// results.csv and summary.md, in the whole plan's order. Refuses shards of different plans,
// secrets or shard counts with a named reason, and names every job no shard finished. Exit
// status: 0 every job of the plan merged, 1 jobs missing (the rest is merged) or a refusal,
// 2 usage.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "engine/cli/commands.h"
#include "engine/compare/run_results.h"
#include "engine/plan/shard.h"
#include "engine/report/export.h"
#include "engine/report/summary.h"
#include "engine/results/store.h"
#include "kta_version.h"

namespace kta::cli {
namespace {

namespace fs = std::filesystem;

struct MergeArgs {
  std::vector<std::string> dirs;
  std::string output;
  bool json = false;
};

struct ShardFolder {
  fs::path dir;
  engine::ShardManifest manifest;
  std::optional<engine::RunResults> results;  // absent: the shard did not finish
  std::string unfinished;                     // why results are absent
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

ShardFolder read_shard(const fs::path& dir) {
  ShardFolder f;
  f.dir = dir;
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw std::runtime_error(fmt::format("no run folder '{}'", dir.string()));
  if (!fs::exists(dir / "shard.json", ec))
    throw std::runtime_error(fmt::format(
        "'{}' is not a shard's run folder (no shard.json): merge joins the folders that `kta "
        "eval --shard I/N` writes",
        dir.string()));
  try {
    f.manifest = engine::parse_shard_manifest(slurp(dir / "shard.json"));
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("'{}': {}", (dir / "shard.json").string(), e.what()));
  }
  if (!f.manifest.complete) {
    f.unfinished = "did not finish (its shard.json is not marked complete)";
    return f;
  }
  try {
    f.results = engine::load_run(dir);
  } catch (const std::exception& e) {
    f.unfinished = e.what();
  }
  return f;
}

std::string job_id(const engine::TaskOutcome& t) {
  return t.task + "/" + t.agent + "/" + std::to_string(t.repeat);
}

// Refuses shards that do not form one run (other secrets, plans or counts; one given twice);
// returns the folders by shard index.
std::map<int, fs::path> check_shards(const std::vector<ShardFolder>& shards) {
  const engine::ShardManifest& first = shards.front().manifest;
  std::map<int, fs::path> seen;
  for (const auto& s : shards) {
    const auto& m = s.manifest;
    // The secret first: held-out points derive from it, so another secret changes the plan too.
    if (m.secret_digest != first.secret_digest)
      throw std::runtime_error(fmt::format(
          "'{}' and '{}' ran with different secrets, so their held-out points differ; give "
          "every shard the same --secret-file",
          shards.front().dir.string(), s.dir.string()));
    if (m.whole_hash != first.whole_hash || m.plan_name != first.plan_name)
      throw std::runtime_error(fmt::format(
          "shards of different plans: '{}' ran plan '{}' (whole-plan hash {}), '{}' ran '{}' "
          "({}); merge the shards of one `kta eval --shard` run",
          shards.front().dir.string(), first.plan_name, first.whole_hash.substr(0, 12),
          s.dir.string(), m.plan_name, m.whole_hash.substr(0, 12)));
    if (m.shard.count != first.shard.count)
      throw std::runtime_error(fmt::format(
          "'{}' is shard {} of {}, '{}' shard {} of {}", shards.front().dir.string(),
          first.shard.index, first.shard.count, s.dir.string(), m.shard.index, m.shard.count));
    if (auto it = seen.find(m.shard.index); it != seen.end())
      throw std::runtime_error(fmt::format("shard {} of {} given twice: '{}' and '{}'",
                                           m.shard.index, m.shard.count, it->second.string(),
                                           s.dir.string()));
    seen[m.shard.index] = s.dir;
  }
  return seen;
}

// The outcomes of the whole plan's jobs in its order, each from the shard it belongs to; the
// ids no finished shard holds go to `missing`.
std::vector<engine::TaskOutcome> collect_outcomes(const std::vector<ShardFolder>& shards,
                                                  std::vector<std::string>& missing) {
  std::map<std::string, engine::TaskOutcome> found;
  for (const auto& s : shards) {
    if (!s.results) continue;
    std::set<std::string> mine(s.manifest.mine.begin(), s.manifest.mine.end());
    for (const auto& t : s.results->tasks)
      if (mine.count(job_id(t))) found.emplace(job_id(t), t);
  }
  std::vector<engine::TaskOutcome> outcomes;
  for (const auto& id : shards.front().manifest.jobs) {
    if (auto it = found.find(id); it != found.end())
      outcomes.push_back(it->second);
    else
      missing.push_back(id);
  }
  return outcomes;
}

// One store in `out`: the run's identity (the whole plan, the shared secret) and every shard's
// steps. Returns the identity with the secret cleared, for the exports.
engine::RunInfo merge_stores(const std::vector<ShardFolder>& shards, const fs::path& out,
                             std::unique_ptr<engine::ResultStore>& store) {
  const engine::ShardManifest& first = shards.front().manifest;
  std::error_code ec;
  for (const char* f : {"results.db", "results.db-wal", "results.db-shm", "results.json",
                        "results.csv", "summary.md"})
    fs::remove(out / f, ec);
  store = engine::ResultStore::open(out);
  engine::RunInfo info;
  info.plan_hash = first.whole_hash;
  info.plan_name = first.plan_name;
  info.kta_version = KTA_VERSION;
  for (const auto& s : shards) {
    auto shard_store = engine::ResultStore::open(s.dir);
    if (auto si = shard_store->run_info()) {
      if (info.secret.empty()) info.secret = si->secret;
      if (info.device.empty()) info.device = si->device;
      if (info.started.empty() || (!si->started.empty() && si->started < info.started))
        info.started = si->started;
      if (info.warp_size == 0) info.warp_size = si->warp_size;
    }
    for (const auto& step : shard_store->steps())
      store->record_step(step, shard_store->shapes(step.key));
  }
  store->set_run_info(info);
  info.secret.clear();
  return info;
}

// What is not in the merged run: unfinished shards, shards not given, missing jobs. Returns the
// exit status.
int report_gaps(const std::vector<ShardFolder>& shards, const std::map<int, fs::path>& seen,
                const std::vector<std::string>& missing) {
  const engine::ShardManifest& first = shards.front().manifest;
  for (const auto& s : shards)
    if (!s.results)
      std::cerr << fmt::format("kta merge: shard {} of {} ('{}') {}\n", s.manifest.shard.index,
                               first.shard.count, s.dir.string(), s.unfinished);
  std::string absent;
  for (int i = 0; i < first.shard.count; ++i)
    if (!seen.count(i)) absent += (absent.empty() ? "" : ", ") + std::to_string(i);
  if (!absent.empty())
    std::cerr << fmt::format("kta merge: shard{} {} of {} not given\n",
                             absent.find(',') == std::string::npos ? "" : "s", absent,
                             first.shard.count);
  if (missing.empty()) {
    std::cerr << fmt::format("kta merge: {} shard{}, all {} jobs of plan '{}'\n", shards.size(),
                             shards.size() == 1 ? "" : "s", first.jobs.size(), first.plan_name);
    return 0;
  }
  std::string list;
  for (const auto& id : missing) list += "\n  " + id;
  std::cerr << fmt::format(
      "kta merge: {} of {} jobs missing (not finished by any shard given; rerun their shards, "
      "`kta eval --shard I/N --resume` keeps what finished):{}\n",
      missing.size(), first.jobs.size(), list);
  return 1;
}

int run_merge(const MergeArgs& a) {
  if (a.output.empty()) {
    std::cerr << "kta merge: name the merged run folder with -o OUT\n";
    return 2;
  }
  fs::path out = fs::absolute(a.output).lexically_normal();
  std::vector<ShardFolder> shards;
  for (const auto& d : a.dirs) {
    fs::path dir = fs::absolute(d).lexically_normal();
    if (dir == out) {
      std::cerr << "kta merge: the output folder " << out.string() << " is one of the shards\n";
      return 2;
    }
    shards.push_back(read_shard(dir));
  }
  std::map<int, fs::path> seen = check_shards(shards);
  std::vector<std::string> missing;
  std::vector<engine::TaskOutcome> outcomes = collect_outcomes(shards, missing);
  std::unique_ptr<engine::ResultStore> store;
  engine::RunInfo info = merge_stores(shards, out, store);
  engine::RunScore score = engine::score(outcomes);
  engine::write_results_json(out / "results.json", info, outcomes, score);
  engine::write_results_csv(out / "results.csv", outcomes);
  engine::write_summary_md(out / "summary.md", info, outcomes, score);
  if (a.json)
    std::cout << engine::results_json_text(info, outcomes, score) << "\n";
  else
    std::cout << engine::format_run_summary(outcomes, store->steps(), score)
              << "results: " << (out / "results.json").string() << "\n";
  return report_gaps(shards, seen, missing);
}

}  // namespace

void add_merge_command(CLI::App& app, CliState& state) {
  auto args = std::make_shared<MergeArgs>();
  auto* cmd = app.add_subcommand("merge", "join the run folders of a sharded run into one");
  cmd->add_option("dirs", args->dirs, "the shards' run folders (kta eval --shard I/N)")->required();
  cmd->add_option("--output,-o", args->output, "the merged run folder")->required();
  cmd->add_flag("--json", args->json, "print results.json to stdout instead of the table");
  cmd->footer(
      "exit status: 0 every job merged, 1 jobs missing (the rest merged) or shards that do not "
      "belong together, 2 usage\nexample: kta merge runs/suite/shard-0-of-3 "
      "runs/suite/shard-1-of-3 runs/suite/shard-2-of-3 -o runs/suite/merged");
  cmd->callback([args, &state] {
    try {
      state.exit_code = run_merge(*args);
    } catch (const std::exception& e) {
      std::cerr << "kta merge: " << e.what() << "\n";
      state.exit_code = 1;
    }
  });
}

}  // namespace kta::cli
