// End-to-end: `kta eval` twice on the cpu device (the baseline agent, then a replay agent whose
// vadd is wrong), then `kta compare` on the two run folders in all three formats.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "tests/support/kta_cli.h"

namespace {

namespace fs = std::filesystem;
using kta::test::KtaRun;
using kta::test::run_kta;
using kta::test::slurp;
using nlohmann::json;

const fs::path kCases = KTA_TEST_CASES_DIR;

// The two runs are evaluated once for the whole suite: they are the slow part.
class CompareE2E : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir = fs::temp_directory_path() / ("kta-compare-e2e-" + std::to_string(std::random_device{}()));
    fs::create_directories(dir);
    std::string plan = (kCases / "two_tasks.kta").string();
    eval_a = kta("eval " + plan + " --device cpu --quick --output " + (dir / "a").string());
    eval_b = kta("eval " + plan + " --device cpu --quick --replay " +
                 (kCases / "solutions" / "wrong").string() + " --output " + (dir / "b").string());
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }

  static KtaRun kta(const std::string& args) {
    return run_kta(KTA_BINARY, dir, args, {{"KTA_CACHE_DIR", KTA_TEST_CACHE_DIR}});
  }

  void SetUp() override {
    ASSERT_EQ(eval_a.status, 0) << eval_a.err;
    ASSERT_EQ(eval_b.status, 0) << eval_b.err;
  }

  static fs::path dir;
  static KtaRun eval_a, eval_b;
};

fs::path CompareE2E::dir;
KtaRun CompareE2E::eval_a, CompareE2E::eval_b;

// The row of `task` in the text table: the line that starts with the task's name.
std::string row(const std::string& text, const std::string& task) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(task + " ", 0) == 0) return line;
  return "";
}

TEST_F(CompareE2E, TextTablePairsTasksAndShowsTheBrokenOne) {
  KtaRun r = kta("compare " + (dir / "a").string() + " " + (dir / "b").string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(
      r.out.find("paired by task (each run has one agent): 2 paired, 0 only in A, 0 only in B"),
      std::string::npos)
      << r.out;
  std::string vadd = row(r.out, "vadd"), saxpy = row(r.out, "saxpy");
  EXPECT_NE(vadd.find("correct  incorrect  broken"), std::string::npos) << r.out;
  EXPECT_NE(saxpy.find("correct  correct"), std::string::npos) << r.out;
  EXPECT_EQ(saxpy.find("broken"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("vadd  B: correctness"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("both 1, A only 1, B only 0, neither 0; p = 1"), std::string::npos) << r.out;
  EXPECT_NE(row(r.out, "correctness rate").find("100.0%   50.0%"), std::string::npos) << r.out;
}

TEST_F(CompareE2E, JsonCarriesPerTaskSidesAndTests) {
  KtaRun r = kta("compare " + (dir / "a" / "results.json").string() + " " + (dir / "b").string() +
                 " --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  json j = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  ASSERT_EQ(j["tasks"].size(), 2u);
  EXPECT_EQ(j["paired_by"], "task");
  const json& saxpy = j["tasks"][0];
  const json& vadd = j["tasks"][1];
  EXPECT_EQ(saxpy["task"], "saxpy");
  EXPECT_EQ(vadd["task"], "vadd");
  EXPECT_FALSE(vadd["changed"].get<bool>());  // same task files in both runs
  EXPECT_TRUE(vadd["a"]["passes"].get<bool>());
  EXPECT_FALSE(vadd["b"]["passes"].get<bool>());
  EXPECT_TRUE(vadd["speedup_ratio"].is_null());
  EXPECT_TRUE(saxpy["speedup_ratio"].is_number());
  EXPECT_FALSE(vadd["a"]["task_hash"].is_null());
  EXPECT_EQ(j["overall"]["correctness_mcnemar"]["a_only"], 1);
  EXPECT_DOUBLE_EQ(j["overall"]["correctness_rate"]["difference"].get<double>(), -0.5);
  EXPECT_EQ(j["overall"]["geomean_speedup"]["n"], 1);
}

TEST_F(CompareE2E, MarkdownHasTheTaskTable) {
  KtaRun r = kta("compare " + (dir / "a").string() + " " + (dir / "b").string() + " --format md");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("| vadd | correct | incorrect | broken |"), std::string::npos) << r.out;
}

TEST_F(CompareE2E, ARunAgainstItselfShowsNoChange) {
  KtaRun r = kta("compare " + (dir / "a").string() + " " + (dir / "a").string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(row(r.out, "vadd").find("1.00x"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("B faster 0, A faster 0, ties 2; p = 1"), std::string::npos) << r.out;
}

TEST_F(CompareE2E, UnfinishedRunIsAnInputError) {
  fs::create_directories(dir / "unfinished");
  fs::copy_file(dir / "a" / "results.db", dir / "unfinished" / "results.db");
  KtaRun r = kta("compare " + (dir / "a").string() + " " + (dir / "unfinished").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("kta compare: '" + (dir / "unfinished").string() +
                       "' has results.db but no results.json"),
            std::string::npos)
      << r.err;
}

}  // namespace
