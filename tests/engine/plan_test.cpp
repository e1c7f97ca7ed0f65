// The plan compiler: passes, keys, --only, and the privacy of held-out points in printouts.
#include <sstream>

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
