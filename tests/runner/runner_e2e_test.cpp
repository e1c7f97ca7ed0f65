// End to end on the cpu device: `kta eval` of a torch2hip task (PyTorch reference and baseline
// in the python runner, a HIP launcher candidate) that passes with a speedup against torch, a
// wrong candidate that fails correctness with numbers, a triton2triton task that is skipped
// with its reason and counted nowhere as passing, and a two-task run that starts the runner once.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <fstream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kCases = KTA_RUNNER_CASES;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class RunnerE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("kta-runner-e2e-" + std::to_string(std::random_device{}()));
    fs::create_directories(dir);
    setenv("KTA_CACHE_DIR", KTA_RUNNER_TEST_CACHE, 1);
  }
  void TearDown() override {
    std::error_code ec;
    if (!HasFailure()) fs::remove_all(dir, ec);
  }
  // Runs `kta eval FILE --device cpu --quick ARGS`; returns results.json.
  json eval(const fs::path& file, const std::string& args = "") {
    std::string cmd = std::string(KTA_BINARY) + " eval " + file.string() + " --device cpu --quick --output " +
                      (dir / "run").string() + " " + args + " >" + (dir / "stdout").string() + " 2>" +
                      (dir / "stderr").string();
    int rc = std::system(cmd.c_str());
    status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    out = slurp(dir / "stdout");
    err = slurp(dir / "stderr");
    json doc = json::parse(slurp(dir / "run" / "results.json"), nullptr, false);
    EXPECT_FALSE(doc.is_discarded()) << err;
    return doc.is_discarded() ? json::object() : doc;
  }
  fs::path dir;
  int status = 0;
  std::string out, err;
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
  json doc = eval(kCases / "scale_gelu" / "scale_gelu.kta", "--replay " + (kCases / "solutions" / "wrong").string());
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
  for (const json& t : doc["tasks"]) EXPECT_TRUE(t["correct"].get<bool>()) << t["failure_reason"] << err;
  EXPECT_NE(err.find("python runner: 1 start ("), std::string::npos) << err;
}

}  // namespace
