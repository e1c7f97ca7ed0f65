// End to end on the cpu device: `kta eval` of a torch2hip task (PyTorch reference and baseline
// in the python runner, a HIP launcher candidate) that passes with a speedup against torch, a
// wrong candidate that fails correctness with numbers, a triton2triton task that is skipped
// with its reason and counted nowhere as passing, and a two-task run that starts the runner once.
#include "tests/runner/runner_eval_fixture.h"

namespace {

using namespace kta::test;
const fs::path kCases = kRunnerCases;

class RunnerE2E : public RunnerEval {
 protected:
  RunnerE2E() : RunnerEval("cpu") {}
};

TEST_F(RunnerE2E, TorchToHipPassesWithASpeedupAgainstTorch) {
  json doc = eval(kCases / "scale_gelu" / "scale_gelu.kta");
  ASSERT_EQ(doc["tasks"].size(), 1u) << err;
  const json& t = doc["tasks"][0];
  EXPECT_TRUE(t["compiled"].get<bool>()) << err;
  EXPECT_TRUE(t["correct"].get<bool>()) << t["failure_reason"] << err;
  EXPECT_GT(t["speedup"].get<double>(), 0) << err;
  EXPECT_EQ(t["skipped"], "");
  EXPECT_EQ(t["heldout"]["correct"], true) << err;
  int timed = 0;
  for (const json& s : t["shapes"]) {
    if (!s.contains("baseline") || s["baseline"].is_null()) continue;
    EXPECT_GE(s["baseline"]["n"].get<int>(), 3) << s.dump();  // torch timed by the protocol
    ++timed;
  }
  EXPECT_GE(timed, 2);
  EXPECT_EQ(doc["score"]["correct"], 1);
  EXPECT_NE(err.find("baseline-compile: ok"), std::string::npos) << err;
}

TEST_F(RunnerE2E, WrongHipCandidateFailsCorrectnessWithNumbers) {
  json doc = eval(kCases / "scale_gelu" / "scale_gelu.kta",
                  "--replay " + (kCases / "solutions" / "wrong").string());
  ASSERT_EQ(doc["tasks"].size(), 1u) << err;
  const json& t = doc["tasks"][0];
  EXPECT_TRUE(t["compiled"].get<bool>()) << err;
  EXPECT_FALSE(t["correct"].get<bool>());
  std::string why = t["failure_reason"];
  EXPECT_NE(why.find("correctness: y: "), std::string::npos) << why;
  EXPECT_NE(why.find("outside tolerance"), std::string::npos) << why;
  EXPECT_NE(why.find("want "), std::string::npos) << why;
  EXPECT_EQ(doc["score"]["correct"], 0);
}

TEST_F(RunnerE2E, TritonTaskIsSkippedWithItsReasonAndNeverPasses) {
  json doc = eval(kCases / "triton_add" / "triton_add.kta");
  ASSERT_EQ(doc["tasks"].size(), 1u) << err;
  const json& t = doc["tasks"][0];
  std::string skipped = t["skipped"];
  EXPECT_EQ(skipped.rfind("triton not available: ", 0), 0u) << skipped;
  EXPECT_FALSE(t["correct"].get<bool>());
  EXPECT_FALSE(t["compiled"].get<bool>());
  EXPECT_EQ(doc["score"]["tasks"], 0);
  EXPECT_EQ(doc["score"]["skipped"], 1);
  EXPECT_EQ(doc["score"]["correct"], 0);
  EXPECT_EQ(doc["score"]["by_kind"]["triton2triton"]["skipped"], 1);
  EXPECT_NE(out.find("SKIP"), std::string::npos) << out;
  EXPECT_NE(out.find("skipped: triton not available"), std::string::npos) << out;
  EXPECT_EQ(out.find("FAIL"), std::string::npos) << out;
  std::string csv = slurp(dir / "run" / "results.csv");
  EXPECT_EQ(csv.find(",pass,"), std::string::npos) << csv;
}

TEST_F(RunnerE2E, TheRunnerStartsOncePerRunNotPerTask) {
  json doc = eval(kCases / "two_torch.kta");
  ASSERT_EQ(doc["tasks"].size(), 2u) << err;
  for (const json& t : doc["tasks"])
    EXPECT_TRUE(t["correct"].get<bool>()) << t["failure_reason"] << err;
  EXPECT_NE(err.find("python runner: 1 start (trusted 1; "), std::string::npos) << err;
}

}  // namespace
