#include "engine/report/export.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/report/summary.h"

namespace kta::engine {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Fixture {
  RunInfo run{
      "hash42", "quickstart", "cpu (2 threads)", "0.1.0", "2026-01-02T03:04:05Z", "TOPSECRET", 32};
  std::vector<TaskOutcome> tasks;
  RunScore s;

  Fixture() {
    TaskOutcome a;
    a.task = "gelu";
    a.kind = "hip2hip";
    a.agent = "replay";
    a.compiled = a.correct = a.fast_enough = true;
    a.speedup = 2.0;
    a.speedup_lo = 1.9;
    a.speedup_hi = 2.1;
    a.baseline_heldout_correct = true;
    a.heldout_correct = false;
    a.quadrant = heldout_quadrant(true, false);
    ShapeRecord r;
    r.point = {{"N", 4096}};
    r.baseline = summarize(std::vector<double>{2e-3, 2e-3});
    r.candidate = summarize(std::vector<double>{1e-3, 1e-3});
    r.speedup = 2.0;
    r.throughput = std::numeric_limits<double>::quiet_NaN();
    a.shapes.push_back(r);
    TaskOutcome b;
    b.task = "softmax";
    b.kind = "hip2hip";
    b.agent = "replay";
    b.compiled = true;
    b.failure_reason = "NaN at index 3 where the reference is 0.75, \"really\"";
    tasks = {a, b};
    s = score(tasks);
  }
};

class ExportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / fmt::format("kta-export-test-{}", getpid());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(ExportTest, JsonHoldsRunScoreTasksAndNoSecret) {
  Fixture f;
  write_results_json(dir_ / "results.json", f.run, f.tasks, f.s);
  std::string text = slurp(dir_ / "results.json");
  EXPECT_EQ(text.find("TOPSECRET"), std::string::npos);
  auto j = nlohmann::json::parse(text);
  EXPECT_EQ(j["run"]["plan"], "quickstart");
  EXPECT_EQ(j["run"]["plan_hash"], "hash42");
  EXPECT_EQ(j["run"]["warp_size"], 32);
  EXPECT_EQ(j["score"]["tasks"], 2);
  EXPECT_EQ(j["score"]["correct"], 1);
  EXPECT_EQ(j["score"]["fast_p"]["1.5"], 0.5);
  EXPECT_EQ(j["score"]["geomean_speedup"], 2.0);
  EXPECT_EQ(j["score"]["geomean_speedup_over"], "correct tasks");
  EXPECT_EQ(j["score"]["heldout_retention"], 0.0);
  EXPECT_TRUE(j["score"]["speedup_transfer"].is_null());
  EXPECT_EQ(j["score"]["aka_score"], (320 + 20) / 2.0);
  EXPECT_EQ(j["score"]["by_kind"]["hip2hip"]["tasks"], 2);
  ASSERT_EQ(j["tasks"].size(), 2u);
  const auto& a = j["tasks"][0];
  EXPECT_EQ(a["task"], "gelu");
  EXPECT_EQ(a["speedup_ci"], nlohmann::json::array({1.9, 2.1}));
  EXPECT_EQ(a["heldout"]["quadrant"], "candidate regresses");
  EXPECT_EQ(a["heldout"]["correct"], false);
  EXPECT_EQ(a["shapes"][0]["point"]["N"], 4096);
  EXPECT_EQ(a["shapes"][0]["candidate"]["median"], 1e-3);
  EXPECT_TRUE(a["shapes"][0]["bytes_per_second"].is_null());  // NaN never leaks into JSON
  EXPECT_TRUE(j["tasks"][1]["heldout"].is_null());
  EXPECT_EQ(j["tasks"][1]["failure_reason"], f.tasks[1].failure_reason);
}

TEST_F(ExportTest, CsvOneRowPerTaskWithQuoting) {
  Fixture f;
  write_results_csv(dir_ / "results.csv", f.tasks);
  std::string text = slurp(dir_ / "results.csv");
  std::vector<std::string> lines;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].substr(0, 40), "task,kind,agent,repeat,compiled,correct,");
  EXPECT_EQ(lines[1],
            "gelu,hip2hip,replay,0,true,true,true,2,1.9,2.1,true,false,,candidate "
            "regresses,320,0,0,,,,,0,,");
  EXPECT_EQ(lines[2],
            "softmax,hip2hip,replay,0,true,false,false,0,0,0,,,,,20,0,0,,,,,0,,"
            "\"NaN at index 3 where the reference is 0.75, \"\"really\"\"\"");
}

TEST_F(ExportTest, CsvCarriesTheAgentRunAndTheSkipReason) {
  Fixture f;
  f.tasks[0].agent_status = "timeout after 3600 s";
  f.tasks[0].input_tokens = 1200;
  f.tasks[0].output_tokens = 340;
  f.tasks[0].cost_usd = 0.25;
  f.tasks[1].skipped = "triton not available: the cpu device has no GPU";
  write_results_csv(dir_ / "results.csv", f.tasks);
  std::string text = slurp(dir_ / "results.csv");
  EXPECT_NE(text.find(",0,timeout after 3600 s,1200,340,0.25,0,,"), std::string::npos) << text;
  EXPECT_NE(text.find(",0,,,,,0,triton not available: the cpu device has no GPU,"),
            std::string::npos)
      << text;
}

TEST_F(ExportTest, SummaryMarkdown) {
  Fixture f;
  write_summary_md(dir_ / "summary.md", f.run, f.tasks, f.s);
  std::string md = slurp(dir_ / "summary.md");
  EXPECT_NE(md.find("# kta run: quickstart"), std::string::npos);
  EXPECT_NE(md.find("- device: cpu (2 threads) (warp 32)\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| gelu | replay | 0 | pass | 2.00x | [1.90, 2.10] | candidate regresses |  |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| softmax | replay | 0 | incorrect | - | - | - |"), std::string::npos) << md;
  EXPECT_NE(md.find("| fast_1.5 | 50.0% |"), std::string::npos) << md;
  EXPECT_NE(md.find("| AgentKernelArena score | 170.0 |"), std::string::npos) << md;
  EXPECT_EQ(md.find("TOPSECRET"), std::string::npos);
}

TEST_F(ExportTest, UnwritablePathIsANamedError) {
  Fixture f;
  try {
    write_results_csv(dir_ / "no" / "such" / "dir.csv", f.tasks);
    ADD_FAILURE();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("dir.csv"), std::string::npos);
  }
}

TEST(FormatTable, AlignsTextLeftAndNumbersRight) {
  std::string t =
      format_table({"task", "speedup", "note"},
                   {{"gelu", "2.00x", "ok"}, {"softmax", "12.50x", "µs-scale"}, {"x", "-", ""}});
  EXPECT_EQ(t,
            "task     speedup  note\n"
            "-------  -------  --------\n"
            "gelu       2.00x  ok\n"
            "softmax   12.50x  µs-scale\n"
            "x              -\n");
}

TEST(FormatTable, RunSummaryHasTasksAndFigures) {
  Fixture f;
  std::string out = format_run_summary(f.tasks, {}, f.s);
  EXPECT_NE(out.find("gelu"), std::string::npos);
  EXPECT_NE(out.find("geomean speedup (correct tasks)"), std::string::npos);
  EXPECT_NE(out.find("held-out retention               0.0% (0 of 1)"), std::string::npos) << out;
}

// Issue 14: an audit gate that failed because the analyzer could not parse the candidate read
// "clean (gate)"; it is a parse error, and a clean audit is still "clean".
TEST(FormatTable, AuditCellNamesAParseError) {
  Fixture f;
  auto audit_step = [](const std::string& task, StepOutcome outcome, AuditReport report) {
    StepRecord r;
    r.task = task;
    r.agent = "replay";
    r.step = StepKind::audit;
    r.outcome = outcome;
    r.payload.report = std::move(report);
    return r;
  };
  std::vector<StepRecord> steps = {
      audit_step("gelu", StepOutcome::fail,
                 AuditReport{0, "", nullptr, "k.hip:3:1: unknown type name 'consteval'"}),
      audit_step("softmax", StepOutcome::ok, AuditReport{0, "", nullptr}),
  };
  std::string out = format_run_summary(f.tasks, steps, f.s);
  EXPECT_NE(out.find("parse error (gate)"), std::string::npos) << out;
  EXPECT_EQ(out.find("clean (gate)"), std::string::npos) << out;
  EXPECT_NE(out.find("clean "), std::string::npos) << out;

  steps[0].outcome = StepOutcome::error;  // no gate: an error, still named as a parse error
  out = format_run_summary(f.tasks, steps, f.s);
  EXPECT_NE(out.find("parse error "), std::string::npos) << out;
  EXPECT_EQ(out.find("(gate)"), std::string::npos) << out;
}

}  // namespace
}  // namespace kta::engine
