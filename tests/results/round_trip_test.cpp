// Every typed result survives its one to_json/from_json pair: what the store, the exports and
// `kta compare` write is what they read back. Each value below sets every field away from its
// default, so a field the writer forgets or the reader drops fails the comparison.
#include <gtest/gtest.h>

#include "engine/report/run_document.h"
#include "engine/results/records.h"
#include "engine/results/task_outcome.h"
#include "engine/score/score.h"

namespace kta::engine {
namespace {

template <class T>
T round_trip(const T& value) {
  Json j = value;
  // Through text, as the store and results.json hold it.
  return Json::parse(j.dump()).get<T>();
}

AgentRecord agent_record() {
  AgentRecord a;
  a.status = "timeout after 3600 s";
  a.wall_seconds = 3600.5;
  a.exit_code = 3;
  a.signal = 9;
  a.timed_out = true;
  a.tokens = {1200, 340, 50, 7, 0.25, true, 5, 2};
  a.summary = "agent finished; candidate unchanged from the baseline; 2 of 5 tool calls failed";
  a.home = "homes/gelu/claude/0";
  a.changed_files = {"gelu.hip"};
  a.unchanged = true;
  a.ignored_writes = {"edited a non-editable file: task/gelu_ref.hip (ignored)"};
  a.sandbox = "bwrap";
  a.sandbox_note = "network off";
  a.containment = "pid namespace";
  a.swept = 2;
  a.network = false;
  a.log = "logs/gelu.claude.0.log";
  a.prompt = "prompts/gelu.claude.0.md";
  return a;
}

PerformanceReport performance_report() {
  PerformanceReport r;
  r.speedup = SpeedupEstimate{1.5, 1.25, 1.75};
  r.shapes = 2;
  r.min_speedup = 1.0;
  r.recheck_failed = true;
  r.clocks = {ShapeClocks{{1980, 1970, 1985, 12, 2619}, {1975, 1960, 1980, 11, std::nullopt}},
              std::nullopt};
  r.notes = {{"clock_mismatch", "median SM clock 1980 MHz (baseline) vs 1755 MHz (candidate)"}};
  r.peak_bandwidth = 4.24e12;
  r.percent_of_peak = {81.5, 12.25};
  r.reliable = false;
  r.unreliable = 1;
  r.calibration = TaskCalibration{0.96875, 2, true};
  ShapeTiming t;
  t.lo = 1.25;
  t.hi = 1.75;
  t.rounds = 12;
  t.calibration = 0.96875;
  t.reliable = false;
  t.unreliable = "calibration: the baseline read 0.969x against itself on the candidate's device";
  r.timing = {t, ShapeTiming{}};
  return r;
}

ShapeRecord shape_record() {
  ShapeRecord s;
  s.set = PointSet::heldout;
  s.point = {{"N", 4096}, {"M", 3}};
  s.seed = 2;
  s.correct = false;
  s.max_abs_error = 0.5;
  s.max_rel_error = 0.25;
  s.mismatches = 12;
  s.first_bad_index = 7;
  s.reason = "12 of 4096 elements outside tolerance";
  s.baseline = summarize(std::vector<double>{2e-3, 2.5e-3, 3e-3});
  s.candidate = summarize(std::vector<double>{1e-3, 1.5e-3});
  s.speedup = 2.0;
  s.throughput = 3.5e12;
  s.flop_rate = 1.25e14;
  // results.json keeps the summary of the samples, not the samples (results.db does).
  s.baseline->samples.clear();
  s.candidate->samples.clear();
  return s;
}

TaskOutcome task_outcome() {
  TaskOutcome t;
  t.task = "gelu";
  t.task_hash = "0123abcd";
  t.kind = "hip2hip";
  t.agent = "claude_code(model: opus)";
  t.repeat = 2;
  t.compiled = t.correct = t.fast_enough = true;
  t.speedup = 1.5;
  t.speedup_lo = 1.25;
  t.speedup_hi = 1.75;
  t.baseline_heldout_correct = true;
  t.heldout_correct = false;
  t.heldout_speedup = 1.25;
  t.quadrant = heldout_quadrant(true, false);
  t.heldout_passed = false;
  t.failure_reason = "heldout-correctness: NaN in the output";
  t.skipped = "triton not available";
  t.agent_seconds = 12.5;
  t.agent_exit = 3;
  t.agent_status = "exit 3";
  t.input_tokens = 1200;
  t.output_tokens = 340;
  t.cost_usd = 0.25;
  t.cost_computed = true;
  t.tool_calls = 5;
  t.failed_tool_calls = 2;
  t.agent_summary = "agent finished; 2 of 5 tool calls failed";
  t.candidate_unchanged = true;
  t.changed_files = {"gelu.hip"};
  t.ignored_writes = {"wrote outside the workspace: /tmp/x"};
  t.sandbox = "bwrap";
  t.sandbox_note = "bwrap is not installed";
  t.containment = "cgroup";
  t.agent_network = false;
  t.agent_log = "logs/gelu.log";
  t.agent_prompt = "prompts/gelu.md";
  t.audit_findings = 2;
  t.audit_passed = false;
  t.shapes = {shape_record()};
  return t;
}

TEST(RoundTrip, AgentUsageAndRecord) {
  EXPECT_EQ(round_trip(agent_record()), agent_record());
  AgentUsage unknown;
  EXPECT_EQ(round_trip(unknown), unknown);  // unset stays unset, never 0
}

TEST(RoundTrip, PrepareReport) {
  PrepareReport r{agent_record(), {{"gelu.hip", false}, {"helper.h", true}}, "cafe"};
  EXPECT_EQ(round_trip(r), r);
}

TEST(RoundTrip, CompileReport) {
  CompileReport ok{DeviceRecord{"NVIDIA H200", "hip", "sm_90, CUDA 13.0", 32}, ""};
  EXPECT_EQ(round_trip(ok), ok);
  CompileReport failed{std::nullopt, "gelu.hip:3:7: error: use of undeclared identifier 'oops'"};
  EXPECT_EQ(round_trip(failed), failed);
}

TEST(RoundTrip, CorrectnessReport) {
  CorrectnessReport r{24, 3, false, true, "baseline NaN at held-out point 1 of 2"};
  EXPECT_EQ(round_trip(r), r);
}

TEST(RoundTrip, PerformanceReport) {
  EXPECT_EQ(round_trip(performance_report()), performance_report());
  // Calibrated on the trusted device (torch2hip) reads back as such.
  PerformanceReport own = performance_report();
  own.calibration->on_candidate_device = false;
  EXPECT_EQ(round_trip(own), own);
}

TEST(RoundTrip, AuditReport) {
  AuditReport r{2, "2 findings (kta-shape-literal)", Json{{"files", Json::array({"gelu.hip"})}}};
  EXPECT_EQ(round_trip(r), r);
  r.parse_error = "gelu.hip:5:1: unknown type name 'consteval'";
  EXPECT_EQ(round_trip(r), r);
}

TEST(RoundTrip, StepPayloadOfEveryStepKind) {
  struct Case {
    StepKind kind;
    StepPayload payload;
  };
  std::vector<Case> cases = {
      {StepKind::prepare, {PrepareReport{agent_record(), {{"gelu.hip", true}}, "cafe"}, {}, false}},
      {StepKind::baseline_compile,
       {CompileReport{std::nullopt, "log"}, {{"compile", 0.25}}, false}},
      {StepKind::candidate_compile, {CompileReport{DeviceRecord{"cpu", "cpu", ""}, ""}, {}, false}},
      {StepKind::visible_correctness, {CorrectnessReport{6, 0, true, std::nullopt, ""}, {}, false}},
      {StepKind::heldout_correctness, {CorrectnessReport{4, 4, false, false, "x"}, {}, false}},
      {StepKind::visible_performance, {performance_report(), {{"sampling", 1.5}}, false}},
      {StepKind::heldout_performance, {PerformanceReport{}, {}, false}},
      {StepKind::audit, {AuditReport{0, "", nullptr}, {}, false}},
      // A step that stopped before it had a report (skipped: this device cannot run the task).
      {StepKind::baseline_compile, {std::monostate{}, {}, true}},
      {StepKind::heldout_correctness, {std::monostate{}, {{"inputs", 0.5}}, false}},
  };
  for (const Case& c : cases) {
    Json j = payload_json(c.payload);
    StepPayload back = payload_from_json(Json::parse(j.dump()), c.kind);
    EXPECT_TRUE(back == c.payload) << step_name(c.kind) << ": " << j.dump();
  }
}

TEST(RoundTrip, StepKindsAndPointSetsByName) {
  for (StepKind k : {StepKind::prepare, StepKind::baseline_compile, StepKind::candidate_compile,
                     StepKind::visible_correctness, StepKind::visible_performance, StepKind::audit,
                     StepKind::heldout_correctness, StepKind::heldout_performance})
    EXPECT_EQ(parse_step_kind(step_name(k)), k) << step_name(k);
  EXPECT_FALSE(parse_step_kind("compile-baseline"));
  EXPECT_EQ(parse_point_set(point_set_name(PointSet::heldout)), PointSet::heldout);
  EXPECT_FALSE(parse_point_set("hidden"));
}

TEST(RoundTrip, ShapeRecord) { EXPECT_EQ(round_trip(shape_record()), shape_record()); }

TEST(RoundTrip, TaskOutcome) {
  EXPECT_EQ(round_trip(task_outcome()), task_outcome());
  TaskOutcome built_in;  // no command agent: no "agent_run" object
  built_in.task = "softmax";
  Json j = built_in;
  EXPECT_FALSE(j.contains("agent_run"));
  EXPECT_EQ(round_trip(built_in), built_in);
}

TEST(RoundTrip, RunScoreWithKinds) {
  std::vector<TaskOutcome> tasks = {task_outcome(), task_outcome()};
  tasks[0].skipped.clear();
  tasks[1].skipped.clear();
  tasks[1].kind = "torch2hip";
  tasks[1].heldout_correct = true;
  RunScore s = score(tasks);
  ASSERT_TRUE(s.geomean_speedup);
  ASSERT_EQ(s.by_kind.size(), 2u);
  EXPECT_EQ(round_trip(s), s);
}

TEST(RoundTrip, RunDocumentAsResultsJson) {
  RunInfo run{"hash", "quickstart", "cpu", "0.1.0", "2026-12-01T00:00:00Z", "SECRET"};
  std::vector<TaskOutcome> tasks = {task_outcome()};
  RunDocument d = make_run_document(run, tasks, score(tasks));
  Json j = d;
  EXPECT_EQ(j.dump().find("SECRET"), std::string::npos);
  EXPECT_EQ(parse_run_document(j.dump(2), "results.json"), d);
}

TEST(RoundTrip, MalformedTaskEntryIsNamed) {
  try {
    parse_run_document(R"({"tasks": [{"task": "a", "correct": true}, {"correct": 1}]})", "r.json");
    ADD_FAILURE() << "accepted a task without a name";
  } catch (const RunDocumentError& e) {
    EXPECT_NE(std::string(e.what()).find("'r.json': task entry 1 is malformed"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace kta::engine
