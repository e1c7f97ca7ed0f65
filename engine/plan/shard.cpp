#include "engine/plan/shard.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <numeric>
#include <stdexcept>

#include "lang/hash.h"

namespace kta::engine {

namespace {

std::optional<int> parse_int(std::string_view s) {
  int v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// The job's identity, not its results' inputs: the same job keeps its shard when only the
// device or the secret differs.
std::string identity_hash(const TaskJob& job) {
  lang::ContentHasher h;
  h.field("task", job.task.name).field("task-hash", job.task.content_hash);
  h.field("agent", job.agent_label).add(static_cast<int64_t>(job.repeat));
  return h.hex();
}

}  // namespace

ShardSpec parse_shard(std::string_view text) {
  auto slash = text.find('/');
  if (slash == std::string_view::npos)
    throw std::invalid_argument(
        fmt::format("--shard must be I/N (shard I of N, from 0), found '{}'", text));
  auto i = parse_int(text.substr(0, slash));
  auto n = parse_int(text.substr(slash + 1));
  if (!i || !n)
    throw std::invalid_argument(
        fmt::format("--shard must be I/N with whole numbers, found '{}'", text));
  if (*n < 1 || *n > 100000)
    throw std::invalid_argument(fmt::format("--shard {}: N must be 1 to 100000", text));
  if (*i < 0 || *i >= *n)
    throw std::invalid_argument(
        fmt::format("--shard {}: I must be 0 to {} (shards count from 0)", text, *n - 1));
  return ShardSpec{*i, *n};
}

ShardManifest select_shard(Plan& plan, ShardSpec shard) {
  ShardManifest m;
  m.plan_name = plan.name;
  m.whole_hash = plan.hash;
  m.shard = shard;
  std::vector<size_t> order(plan.jobs.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::vector<std::string> keys;
  for (const auto& j : plan.jobs) {
    m.jobs.push_back(j.id());
    keys.push_back(identity_hash(j) + j.id());
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  std::vector<bool> keep(plan.jobs.size(), false);
  for (size_t k = 0; k < order.size(); ++k)
    keep[order[k]] = static_cast<int>(k % static_cast<size_t>(shard.count)) == shard.index;
  std::vector<TaskJob> kept;
  lang::ContentHasher whole;
  for (size_t j = 0; j < plan.jobs.size(); ++j) {
    if (!keep[j]) continue;
    m.mine.push_back(plan.jobs[j].id());
    for (const auto& s : plan.jobs[j].steps) whole.field("key", s.key);
    kept.push_back(std::move(plan.jobs[j]));
  }
  plan.jobs = std::move(kept);
  plan.hash = whole.hex();
  return m;
}

std::string shard_manifest_json(const ShardManifest& m) {
  nlohmann::ordered_json j;
  j["kind"] = "kta-shard";
  j["plan"] = m.plan_name;
  j["whole_plan_hash"] = m.whole_hash;
  j["shard"] = m.shard.index;
  j["shards"] = m.shard.count;
  j["secret_sha256"] = m.secret_digest;
  j["complete"] = m.complete;
  j["jobs"] = m.jobs;
  j["mine"] = m.mine;
  return j.dump(2) + "\n";
}

ShardManifest parse_shard_manifest(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.value("kind", "") != "kta-shard")
    throw std::runtime_error("not a kta shard manifest");
  ShardManifest m;
  try {
    m.plan_name = j.at("plan").get<std::string>();
    m.whole_hash = j.at("whole_plan_hash").get<std::string>();
    m.shard = ShardSpec{j.at("shard").get<int>(), j.at("shards").get<int>()};
    m.secret_digest = j.at("secret_sha256").get<std::string>();
    m.complete = j.at("complete").get<bool>();
    m.jobs = j.at("jobs").get<std::vector<std::string>>();
    m.mine = j.at("mine").get<std::vector<std::string>>();
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("malformed shard manifest: ") + e.what());
  }
  if (m.shard.count < 1 || m.shard.index < 0 || m.shard.index >= m.shard.count)
    throw std::runtime_error(
        fmt::format("malformed shard manifest: shard {} of {}", m.shard.index, m.shard.count));
  return m;
}

}  // namespace kta::engine
