// The plan compiler: passes, keys, --only, and the privacy of held-out points in printouts.
#include <set>
#include <sstream>

#include "engine/plan/shard.h"
#include "tests/engine/engine_fixture.h"

namespace kta::test {
namespace {

class PlanTest : public EngineFixture {
 protected:
  engine::Plan compile(const model::Plan& p, engine::PlanOptions po = {}) {
    if (po.secret.empty()) po.secret = "secret";
    return engine::compile_plan(p, po);
  }
};

TEST_F(PlanTest, OneJobPerTaskAgentRepeatWithOrderedSteps) {
  auto source = replay_plan({{"a", "add_fast"}, {"b", ""}});
  source.repeat = 2;
  auto p = compile(source);
  ASSERT_EQ(p.jobs.size(), 4u);
  EXPECT_EQ(p.jobs[0].id(), "a/replay(solutions)/0");
  EXPECT_EQ(p.jobs[1].id(), "a/replay(solutions)/1");
  const auto& st = p.jobs[0].steps;
  ASSERT_EQ(st.size(), 8u);
  EXPECT_EQ(engine::step_name(st.front().kind), "prepare");
  EXPECT_EQ(engine::step_name(st.back().kind), "heldout-performance");
  EXPECT_TRUE(p.jobs[0].candidate[0].found);
  EXPECT_FALSE(p.jobs[2].candidate[0].found);
}

TEST_F(PlanTest, KeysAreStableAndChangeWithTheCandidate) {
  auto source = replay_plan({{"a", "add_fast"}});
  auto p1 = compile(source);
  auto p2 = compile(source);
  EXPECT_EQ(p1.hash, p2.hash);
  EXPECT_EQ(p1.jobs[0].steps[3].key, p2.jobs[0].steps[3].key);
  write(root / "solutions" / "a" / "add.fake", "fake: add_slow\n");
  auto p3 = compile(source);
  EXPECT_NE(p1.jobs[0].steps[3].key, p3.jobs[0].steps[3].key);
  // The baseline's compile does not depend on the candidate.
  EXPECT_EQ(p1.jobs[0].steps[1].key, p3.jobs[0].steps[1].key);
  engine::PlanOptions other_device;
  other_device.device = "hip:0";
  EXPECT_NE(compile(source, other_device).hash, p1.hash);
}

// Shards: every job in exactly one shard, sizes within one of each other, the same split on
// every compilation of the same plan (another secret or device included: the split follows the
// jobs' identity), and a manifest naming the whole plan.
TEST_F(PlanTest, ShardsSplitTheJobsDeterministicallyAndEvenly) {
  std::vector<std::pair<std::string, std::string>> tasks;
  for (int i = 0; i < 7; ++i) tasks.push_back({"t" + std::to_string(i), "add_fast"});
  auto source = replay_plan(tasks);
  source.repeat = 2;  // 14 jobs
  std::multiset<std::string> seen;
  std::vector<std::string> all;
  for (int i = 0; i < 3; ++i) {
    auto p = compile(source);
    all.clear();
    for (const auto& j : p.jobs) all.push_back(j.id());
    std::string whole = p.hash;
    auto m = engine::select_shard(p, engine::ShardSpec{i, 3});
    EXPECT_EQ(m.whole_hash, whole);
    EXPECT_EQ(m.jobs, all);
    EXPECT_NE(p.hash, whole);
    ASSERT_EQ(m.mine.size(), p.jobs.size());
    EXPECT_TRUE(p.jobs.size() == 4u || p.jobs.size() == 5u) << p.jobs.size();
    for (size_t k = 0; k < p.jobs.size(); ++k) {
      EXPECT_EQ(m.mine[k], p.jobs[k].id());
      seen.insert(p.jobs[k].id());
    }
    engine::PlanOptions other;
    other.secret = "another secret";
    other.device = "hip:1";
    auto q = compile(source, other);
    EXPECT_EQ(engine::select_shard(q, engine::ShardSpec{i, 3}).mine, m.mine);
    auto back = engine::parse_shard_manifest(engine::shard_manifest_json(m));
    EXPECT_EQ(back.mine, m.mine);
    EXPECT_EQ(back.jobs, m.jobs);
    EXPECT_EQ(back.shard.index, i);
  }
  EXPECT_EQ(seen.size(), all.size());
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), all.size());
  // More shards than jobs: the last shards are empty, never an error.
  auto p = compile(replay_plan({{"a", "add_fast"}}));
  EXPECT_EQ(engine::select_shard(p, engine::ShardSpec{1, 2}).mine.size(), 0u);
}

TEST_F(PlanTest, ShardSpecsAreParsedWithNamedErrors) {
  EXPECT_EQ(engine::parse_shard("2/5").index, 2);
  EXPECT_EQ(engine::parse_shard("2/5").count, 5);
  auto error = [](const char* text) {
    try {
      engine::parse_shard(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("3"), "--shard must be I/N (shard I of N, from 0), found '3'");
  EXPECT_EQ(error("a/3"), "--shard must be I/N with whole numbers, found 'a/3'");
  EXPECT_EQ(error("3/3"), "--shard 3/3: I must be 0 to 2 (shards count from 0)");
  EXPECT_EQ(error("0/0"), "--shard 0/0: N must be 1 to 100000");
  EXPECT_EQ(error("-1/2"), "--shard -1/2: I must be 0 to 1 (shards count from 0)");
}

TEST_F(PlanTest, OnlySelectsTasksAndRejectsUnknownNames) {
  auto source = replay_plan({{"a", "add_fast"}, {"b", "add_fast"}});
  engine::PlanOptions po;
  po.only = {"b"};
  auto p = compile(source, po);
  ASSERT_EQ(p.jobs.size(), 1u);
  EXPECT_EQ(p.jobs[0].task.name, "b");
  po.only = {"nope"};
  try {
    compile(source, po);
    FAIL() << "expected a PlanError";
  } catch (const engine::PlanError& e) {
    EXPECT_EQ(std::string(e.what()), "--only names unknown task 'nope' (the plan has: a, b)");
  }
}

TEST_F(PlanTest, SeedsAndQuickOverridesApply) {
  auto source = replay_plan({{"a", "add_fast"}});
  engine::PlanOptions po;
  po.seeds = 5;
  po.quick = true;
  auto p = compile(source, po);
  EXPECT_EQ(p.jobs[0].seeds, 5);
  EXPECT_LT(p.jobs[0].task.timing.budget_ns, source.tasks[0].timing.budget_ns);
  po.seeds = 0;
  EXPECT_THROW(compile(source, po), engine::PlanError);
}

TEST_F(PlanTest, ExplainAndDebugDumpNeverShowHeldOutValues) {
  auto source = replay_plan({{"a", "add_fast"}});
  source.tasks[0].heldout = {{{"N", 77777}}, {{"N", 31337}}};
  std::ostringstream debug;
  engine::PlanOptions po;
  po.debug = &debug;
  auto p = compile(source, po);
  ASSERT_EQ(p.jobs[0].heldout.size(), 2u);
  std::ostringstream text;
  engine::explain(p, text);
  for (const std::string& s : {text.str(), debug.str()}) {
    EXPECT_EQ(s.find("77777"), std::string::npos) << s;
    EXPECT_EQ(s.find("31337"), std::string::npos) << s;
  }
  EXPECT_NE(text.str().find("held-out points: 2"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("[N=64] [N=100]"), std::string::npos) << text.str();
  EXPECT_NE(debug.str().find("--- plan after hash_steps ---"), std::string::npos);
}

TEST_F(PlanTest, HeldOutOffDropsTheHeldOutSteps) {
  auto source = replay_plan({{"a", "add_fast"}});
  source.heldout = false;
  auto p = compile(source);
  EXPECT_EQ(p.jobs[0].steps.size(), 6u);
  EXPECT_TRUE(p.jobs[0].heldout.empty());
}

}  // namespace
}  // namespace kta::test
