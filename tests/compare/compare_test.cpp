// kta compare on synthetic results.json documents: pairing (same tasks, different tasks, changed
// tasks, repeats, several agents), run-level figures and tests with known values, the loader's
// input errors, and the three output formats.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>

#include "engine/compare/compare_report.h"

namespace kta::engine {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// One task entry of a synthetic results.json.
struct Entry {
  std::string task;
  std::string agent = "x";
  bool correct = true;
  double speedup = 1;  // written as null when the task is incorrect, as kta eval does
  std::optional<bool> heldout = std::nullopt;
  std::string hash = "h-";  // "h-" + task unless set; "" leaves the field out
  int repeat = 0;
  bool compiled = true;
  std::string reason = "";
  std::string skipped = "";  // why the device could not evaluate the task at all
};

std::string results_json(const std::vector<Entry>& entries, const std::string& device = "cpu") {
  Json tasks = Json::array();
  for (const Entry& e : entries) {
    Json t{
        {"task", e.task},
        {"kind", "hip2hip"},
        {"agent", e.agent},
        {"repeat", e.repeat},
        {"compiled", e.compiled},
        {"correct", e.correct},
        {"speedup", e.correct ? Json(e.speedup) : Json(nullptr)},
        {"failure_reason", e.correct ? "" : (e.reason.empty() ? "correctness: wrong" : e.reason)},
        {"heldout", nullptr}};
    if (!e.hash.empty()) t["task_hash"] = e.hash == "h-" ? "h-" + e.task : e.hash;
    if (!e.skipped.empty()) {
      t["skipped"] = e.skipped;
      t["correct"] = false;
      t["speedup"] = nullptr;
    }
    if (e.heldout)
      t["heldout"] = Json{{"baseline_correct", true},
                          {"correct", *e.heldout},
                          {"quadrant", *e.heldout ? "both pass" : "candidate regresses"}};
    tasks.push_back(t);
  }
  Json doc{{"kta_version", "0.1.0"},
           {"run", {{"plan", "p"}, {"plan_hash", "ph"}, {"device", device}, {"started", "t"}}},
           {"tasks", tasks}};
  return doc.dump();
}

RunResults run(const std::vector<Entry>& entries, const std::string& name,
               const std::string& device = "cpu") {
  return parse_run(results_json(entries, device), name);
}

Comparison compare(const std::vector<Entry>& a, const std::vector<Entry>& b,
                   CompareOptions o = {}) {
  return compare_runs(run(a, "a/results.json"), run(b, "b/results.json"), o);
}

TEST(ComparePairing, SingleAgentsWithDifferentNamesPairByTask) {
  Comparison c = compare({{"t1"}, {"t2"}, {"t3"}}, {{"t1", "y"}, {"t2", "y"}, {"t3", "y", false}});
  EXPECT_FALSE(c.pairing.by_agent);
  ASSERT_EQ(c.pairing.paired.size(), 3u);
  EXPECT_EQ(c.pairing.paired[2].task, "t3");
  EXPECT_TRUE(c.pairing.paired[2].a.passes());
  EXPECT_FALSE(c.pairing.paired[2].b.passes());
  EXPECT_EQ(c.pairing.paired[2].b.reason, "correctness: wrong");
  EXPECT_TRUE(c.pairing.only_a.empty());
  EXPECT_TRUE(c.pairing.only_b.empty());
}

TEST(ComparePairing, TasksInOneRunOnlyAreListedNotDropped) {
  Comparison c = compare({{"t1"}, {"t2"}}, {{"t2"}, {"t3"}});
  ASSERT_EQ(c.pairing.paired.size(), 1u);
  EXPECT_EQ(c.pairing.paired[0].task, "t2");
  ASSERT_EQ(c.pairing.only_a.size(), 1u);
  EXPECT_EQ(c.pairing.only_a[0].task, "t1");
  ASSERT_EQ(c.pairing.only_b.size(), 1u);
  EXPECT_EQ(c.pairing.only_b[0].task, "t3");
  std::string text = format_comparison_text(c);
  EXPECT_NE(text.find("only in A (unpaired): t1 (x)"), std::string::npos) << text;
  EXPECT_NE(text.find("only in B (unpaired): t3 (x)"), std::string::npos) << text;
  EXPECT_NE(text.find("1 paired, 1 only in A, 1 only in B"), std::string::npos) << text;
}

TEST(ComparePairing, NoSharedTaskIsAnInputError) {
  try {
    compare({{"t1"}}, {{"t2"}});
    FAIL() << "expected RunInputError";
  } catch (const RunInputError& e) {
    EXPECT_STREQ(
        e.what(),
        "the runs share no evaluated task and agent (1 only in A, 1 only in B, 0 skipped): "
        "nothing to compare");
  }
}

TEST(ComparePairing, ChangedTaskHashIsFlagged) {
  Comparison c = compare({{"t1"}, {"t2"}}, {{.task = "t1", .hash = "other"}, {"t2"}});
  EXPECT_TRUE(c.pairing.paired[0].changed());
  EXPECT_FALSE(c.pairing.paired[1].changed());
  EXPECT_TRUE(c.pairing.hashes_known);
  std::string text = format_comparison_text(c);
  EXPECT_NE(text.find("t1 *"), std::string::npos) << text;
  EXPECT_NE(text.find("note: * 1 task changed between the runs (content hash differs)"),
            std::string::npos)
      << text;
  Json j = Json::parse(comparison_json_text(c));
  EXPECT_TRUE(j["tasks"][0]["changed"].get<bool>());
}

TEST(ComparePairing, MissingTaskHashIsUnknownNotChanged) {
  Comparison c = compare({{.task = "t1", .hash = ""}}, {{"t1"}});
  EXPECT_FALSE(c.pairing.paired[0].changed());
  EXPECT_FALSE(c.pairing.hashes_known);
  EXPECT_NE(format_comparison_text(c).find("changed tasks cannot be flagged"), std::string::npos);
}

TEST(ComparePairing, RepeatsAreSummarizedPerTask) {
  // A: t1 correct twice (speedups 2 and 8) and incorrect once; B: one incorrect repeat.
  Comparison c = compare({{.task = "t1", .speedup = 2, .repeat = 0},
                          {.task = "t1", .speedup = 8, .repeat = 1},
                          {.task = "t1", .correct = false, .repeat = 2}},
                         {{.task = "t1", .correct = false}});
  ASSERT_EQ(c.pairing.paired.size(), 1u);
  const PairedTask& t = c.pairing.paired[0];
  EXPECT_EQ(t.a.repeats, 3);
  EXPECT_EQ(t.a.correct, 2);
  EXPECT_NEAR(t.a.correctness(), 2.0 / 3, 1e-12);
  EXPECT_TRUE(t.a.passes());
  EXPECT_NEAR(*t.a.speedup(), 4.0, 1e-12);  // geomean over the correct repeats
  EXPECT_FALSE(t.b.speedup());
  EXPECT_FALSE(c.single_repeat);
  std::string text = format_comparison_text(c);
  EXPECT_NE(text.find("2/3 correct"), std::string::npos) << text;
  EXPECT_NE(text.find("broken"), std::string::npos) << text;
  EXPECT_NE(text.find("correct in most repeats"), std::string::npos) << text;
}

TEST(ComparePairing, SkippedTasksAreListedAndEnterNoFigure) {
  Comparison c = compare({{"t1"},
                          {"t2"},
                          {.task = "t3", .skipped = "triton not available"},
                          {.task = "t4", .correct = false, .repeat = 0},
                          {.task = "t4", .repeat = 1, .skipped = "triton not available"}},
                         {{"t1"},
                          {.task = "t2", .skipped = "triton not available: no GPU"},
                          {.task = "t3", .skipped = "triton not available"},
                          {"t4"}});
  ASSERT_EQ(c.pairing.paired.size(), 2u);
  EXPECT_EQ(c.pairing.paired[1].task, "t4");
  EXPECT_EQ(c.pairing.paired[1].a.repeats, 1);  // the skipped repeat is left out
  ASSERT_EQ(c.pairing.skipped.size(), 2u);
  EXPECT_EQ(c.pairing.skipped[0].why, "skipped in B: triton not available: no GPU");
  EXPECT_EQ(c.pairing.skipped[1].why, "skipped in both: triton not available");
  EXPECT_TRUE(c.pairing.only_a.empty());
  EXPECT_TRUE(c.pairing.only_b.empty());
  EXPECT_EQ(c.correctness.n, 2);
  EXPECT_DOUBLE_EQ(*c.correctness.a, 0.5);
  std::string text = format_comparison_text(c);
  EXPECT_NE(
      text.find("not compared (skipped):\n  t2  skipped in B: triton not available: no GPU\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("2 paired, 0 only in A, 0 only in B, 2 skipped"), std::string::npos) << text;
}

TEST(ComparePairing, SameAgentsPairByTaskAndAgent) {
  std::vector<Entry> a = {{"t1", "x"}, {"t1", "y"}, {"t2", "x"}, {"t2", "y"}};
  std::vector<Entry> b = {{"t1", "x", false}, {"t1", "y"}, {"t2", "x"}, {"t2", "y", true, 2}};
  Comparison c = compare(a, b);
  EXPECT_TRUE(c.pairing.by_agent);
  ASSERT_EQ(c.pairing.paired.size(), 4u);
  EXPECT_EQ(c.pairing.paired[0].agent, "x");
  EXPECT_FALSE(c.pairing.paired[0].b.passes());
  EXPECT_NEAR(*c.pairing.paired[3].b.speedup(), 2, 1e-12);
  std::string text = format_comparison_text(c);
  EXPECT_NE(text.find("agent"), std::string::npos);
  EXPECT_NE(text.find("paired by task and agent: 4 paired"), std::string::npos) << text;
}

TEST(ComparePairing, DifferentAgentSetsNeedASelection) {
  std::vector<Entry> a = {{"t1", "x"}, {"t1", "y"}};
  std::vector<Entry> b = {{"t1", "z"}, {"t1", "w"}};
  try {
    compare(a, b);
    FAIL() << "expected RunInputError";
  } catch (const RunInputError& e) {
    EXPECT_STREQ(e.what(),
                 "the runs have different agents (A: x, y; B: w, z): pick one from each with "
                 "--agent-a and --agent-b");
  }
  CompareOptions o;
  o.agent_a = "y";
  o.agent_b = "z";
  Comparison c = compare(a, b, o);
  EXPECT_FALSE(c.pairing.by_agent);
  ASSERT_EQ(c.pairing.paired.size(), 1u);
  EXPECT_EQ(c.pairing.paired[0].a.agent, "y");
  EXPECT_EQ(c.pairing.paired[0].b.agent, "z");
}

TEST(ComparePairing, UnknownAgentNamesTheAgents) {
  CompareOptions o;
  o.agent_a = "q";
  try {
    compare({{"t1", "x"}, {"t1", "y"}}, {{"t1", "x"}}, o);
    FAIL() << "expected RunInputError";
  } catch (const RunInputError& e) {
    EXPECT_STREQ(e.what(), "run A has no agent 'q' (it has: x, y)");
  }
}

// Ten tasks: A correct at speedup 1 everywhere, held-out all retained; B correct at speedup 2
// on nine, incorrect on t9, held-out lost on three of its nine.
Comparison ten_tasks() {
  std::vector<Entry> a, b;
  for (int i = 0; i < 10; ++i) {
    std::string t = "t" + std::to_string(i);
    a.push_back({.task = t, .speedup = 1, .heldout = true});
    if (i == 9)
      b.push_back({.task = t, .agent = "y", .correct = false});
    else
      b.push_back({.task = t, .agent = "y", .speedup = 2, .heldout = i >= 3});
  }
  return compare(a, b);
}

TEST(CompareFigures, CorrectnessRateAndMcNemar) {
  Comparison c = ten_tasks();
  EXPECT_DOUBLE_EQ(*c.correctness.a, 1.0);
  EXPECT_DOUBLE_EQ(*c.correctness.b, 0.9);
  EXPECT_NEAR(c.correctness.diff.estimate, -0.1, 1e-12);
  EXPECT_LE(c.correctness.diff.lo, -0.1);
  EXPECT_GE(c.correctness.diff.lo, -0.4);
  EXPECT_NEAR(c.correctness.diff.hi, 0, 1e-12);  // no resample can gain correctness
  EXPECT_EQ(c.correctness_test.both, 9);
  EXPECT_EQ(c.correctness_test.a_only, 1);
  EXPECT_EQ(c.correctness_test.b_only, 0);
  EXPECT_EQ(c.correctness_test.p, 1.0);
}

TEST(CompareFigures, SpeedupRatioAndSignTestOverTasksCorrectInBoth) {
  Comparison c = ten_tasks();
  EXPECT_DOUBLE_EQ(*c.speedup.a, 1.0);
  EXPECT_NEAR(*c.speedup.b, 2.0, 1e-12);
  EXPECT_EQ(c.speedup.n_a, 10);
  EXPECT_EQ(c.speedup.n_b, 9);
  EXPECT_EQ(c.speedup.n, 9);
  EXPECT_NEAR(c.speedup.diff.estimate, 2.0, 1e-12);
  EXPECT_NEAR(c.speedup.diff.lo, 2.0, 1e-12);
  EXPECT_NEAR(c.speedup.diff.hi, 2.0, 1e-12);
  EXPECT_EQ(c.speedup_test.plus, 9);
  EXPECT_EQ(c.speedup_test.minus, 0);
  EXPECT_DOUBLE_EQ(c.speedup_test.p, 2.0 / 512);
}

TEST(CompareFigures, HeldOutRetentionAndAkaScore) {
  Comparison c = ten_tasks();
  EXPECT_DOUBLE_EQ(*c.retention.a, 1.0);
  EXPECT_NEAR(*c.retention.b, 6.0 / 9, 1e-12);
  EXPECT_EQ(c.retention.n, 9);
  EXPECT_NEAR(c.retention.diff.estimate, -1.0 / 3, 1e-12);
  EXPECT_LT(c.retention.diff.lo, -1.0 / 3);
  EXPECT_GT(c.retention.diff.hi, -1.0 / 3);
  EXPECT_LE(c.retention.diff.hi, 0);
  // AgentKernelArena: A 120 + 100 * 1 = 220 per task; B nine at 320 and one incorrect at 20.
  EXPECT_DOUBLE_EQ(*c.aka_score.a, 220);
  EXPECT_DOUBLE_EQ(*c.aka_score.b, 290);
  EXPECT_NEAR(c.aka_score.diff.estimate, 70, 1e-9);
}

TEST(CompareFigures, SameRunComparesEqual) {
  std::vector<Entry> a = {{.task = "t1", .speedup = 1.3},
                          {.task = "t2", .speedup = 0.7},
                          {.task = "t3", .correct = false}};
  Comparison c = compare(a, a);
  EXPECT_EQ(c.correctness.diff.estimate, 0);
  EXPECT_DOUBLE_EQ(c.speedup.diff.estimate, 1);
  EXPECT_EQ(c.speedup_test.ties, 2);
  EXPECT_EQ(c.speedup_test.p, 1.0);
  EXPECT_EQ(c.correctness_test.a_only + c.correctness_test.b_only, 0);
}

TEST(CompareReport, OutputIsDeterministicAndStatesTheBootstrap) {
  std::string x = comparison_json_text(ten_tasks()), y = comparison_json_text(ten_tasks());
  EXPECT_EQ(x, y);
  Json j = Json::parse(x);
  EXPECT_EQ(j["paired_by"], "task");
  EXPECT_EQ(j["bootstrap"]["resamples"], 10000);
  EXPECT_EQ(j["tasks"].size(), 10u);
  EXPECT_EQ(j["tasks"][9]["b"]["failure_reason"], "correctness: wrong");
  EXPECT_NEAR(j["overall"]["geomean_speedup"]["ratio"].get<double>(), 2.0, 1e-12);
  EXPECT_EQ(j["overall"]["correctness_mcnemar"]["a_only"], 1);
  EXPECT_EQ(j["overall"]["speedup_sign_test"]["b_faster"], 9);
  std::string text = format_comparison_text(ten_tasks());
  EXPECT_NE(
      text.find("(paired bootstrap: 10000 resamples of the tasks, seed 0x6b746163; 95% intervals)"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("t9  B: correctness: wrong"), std::string::npos) << text;
  EXPECT_NE(text.find("B faster 9, A faster 0, ties 0; p = 0.003906"), std::string::npos) << text;
  std::string md = format_comparison_md(ten_tasks());
  EXPECT_NE(md.find("| task | A | B | change |"), std::string::npos) << md;
  EXPECT_NE(md.find("| t9 | correct | incorrect | broken |"), std::string::npos) << md;
}

TEST(CompareReport, DifferentDevicesAreNoted) {
  Comparison c = compare_runs(run({{"t1"}}, "a", "cpu"), run({{"t1"}}, "b", "hip:0"), {});
  EXPECT_NE(format_comparison_text(c).find("different devices (cpu and hip:0)"), std::string::npos);
}

class RunLoading : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("kta-compare-" + std::to_string(std::random_device{}()));
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  std::string error_of(const fs::path& p) {
    try {
      load_run(p);
    } catch (const RunInputError& e) {
      return e.what();
    }
    return "";
  }
  fs::path dir;
};

TEST_F(RunLoading, FolderOrFileBothWork) {
  write(dir / "run" / "results.json", results_json({{"t1"}, {"t2", "x", false}}));
  RunResults by_folder = load_run(dir / "run");
  RunResults by_file = load_run(dir / "run" / "results.json");
  EXPECT_EQ(by_folder.tasks.size(), 2u);
  EXPECT_EQ(by_file.file, by_folder.file);
  EXPECT_EQ(by_folder.device, "cpu");
  EXPECT_FALSE(by_folder.tasks[1].correct);
}

TEST_F(RunLoading, InputErrorsNameThePath) {
  EXPECT_EQ(error_of(dir / "nope"),
            "no run folder or results file '" + (dir / "nope").string() + "'");
  fs::create_directories(dir / "empty");
  EXPECT_EQ(error_of(dir / "empty"),
            "'" + (dir / "empty").string() + "' is not a kta run folder (no results.json)");
  write(dir / "unfinished" / "results.db", "");
  EXPECT_NE(error_of(dir / "unfinished").find("has results.db but no results.json"),
            std::string::npos);
  write(dir / "bad.json", "{ not json");
  EXPECT_EQ(error_of(dir / "bad.json"), "'" + (dir / "bad.json").string() + "' is not valid JSON");
  write(dir / "other.json", "{\"name\": 1}");
  EXPECT_NE(error_of(dir / "other.json").find("is not a kta results.json (no \"tasks\" list)"),
            std::string::npos);
  write(dir / "malformed.json", "{\"tasks\": [{\"task\": 3, \"correct\": true}]}");
  EXPECT_NE(error_of(dir / "malformed.json").find("task entry 0 is malformed"), std::string::npos);
}

}  // namespace
}  // namespace kta::engine
