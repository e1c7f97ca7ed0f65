// Sharding a plan for many machines (`kta eval --shard I/N`, Slurm array tasks, a Kubernetes
// Indexed Job): every shard compiles the same whole plan and keeps a deterministic share of its
// jobs. Jobs are ordered by a hash of their identity (task, task content, agent, repeat) and
// dealt round-robin, so shards differ in size by at most one job, and the split is the same on
// every machine for as long as the plan is unchanged. docs/scale.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/plan/plan.h"

namespace kta::engine {

struct ShardSpec {
  int index = 0;  // 0-based
  int count = 1;
};

// "I/N" with 0 <= I < N <= 100000. Throws std::invalid_argument naming what is wrong.
ShardSpec parse_shard(std::string_view text);

// What a shard knows of the whole plan, written beside its results (shard.json) so that
// `kta merge` can tell shards of one run from others and name the jobs none of them finished.
struct ShardManifest {
  std::string plan_name;
  std::string whole_hash;  // the whole plan's hash (every step key of every job)
  ShardSpec shard;
  std::vector<std::string> jobs;  // every job id of the whole plan, in plan order
  std::vector<std::string> mine;  // this shard's job ids, in plan order
  std::string secret_digest;      // sha256 of the run secret: shards must share the secret
  bool complete = false;          // every job of the shard ran to its end and was exported
};

// Keeps this shard's jobs of `plan` (compiled whole) and returns what the shard knows of the
// whole; plan.hash becomes the hash of the shard's steps.
ShardManifest select_shard(Plan& plan, ShardSpec shard);

std::string shard_manifest_json(const ShardManifest& m);
// Throws std::runtime_error naming what is missing or malformed.
ShardManifest parse_shard_manifest(const std::string& text);

}  // namespace kta::engine
