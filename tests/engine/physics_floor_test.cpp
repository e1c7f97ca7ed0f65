// The performance step against the device's measured ceilings: % of peak recorded per shape; a
// candidate "faster than physics" fails its gate by name under the cold protocol and, per launch,
// under the batch protocol (DRAM ceiling, or the cache-resident one when a batch's working set
// fits the cache); a task without `bytes` gets a compute floor from `flops`; a task with neither
// gets a named note. The fake device scripts every time, so each verdict is exact: no test here
// depends on how fast the machine is.
#include "tests/engine/engine_fixture.h"

namespace kta::test {
namespace {

class PhysicsFloorTest : public EngineFixture {
 protected:
  static model::ExprRef times_n(int64_t k) {
    auto e = std::make_shared<ast::Expr>();
    e->node = ast::Binary{ast::BinOp::mul, int_expr(k), name_expr("N")};
    return e;
  }
  model::Plan plan_with_bytes(const std::string& kernel) {
    model::Plan p = replay_plan({{"vadd", kernel}});
    p.tasks[0].bytes = times_n(12);  // 12 N bytes: read x and y, write z (f32)
    return p;
  }
  model::Plan batch_plan_with_bytes(const std::string& kernel) {
    model::Plan p = plan_with_bytes(kernel);
    p.tasks[0].timing.mode = model::Timing::Mode::batch;
    return p;
  }
  const engine::PerformanceReport& report(const engine::StepRecord& perf) {
    return std::get<engine::PerformanceReport>(perf.payload.report);
  }
  static bool has_note(const engine::PerformanceReport& r, const std::string& name) {
    return std::any_of(r.notes.begin(), r.notes.end(),
                       [&](const engine::Note& n) { return n.name == name; });
  }
  const engine::StepRecord* performance() {
    for (const auto& s : steps)
      if (s.step == engine::StepKind::visible_performance) return &s;
    return nullptr;
  }
};

TEST_F(PhysicsFloorTest, PlausibleCandidateRecordsItsShareOfPeak) {
  registry->peak_bandwidth = 1e9;  // 1 GB/s; "add" moves 12 * 64 B in 2 ms: 0.38 MB/s
  auto out = run(plan_with_bytes("add"));
  ASSERT_TRUE(out[0].fast_enough || out[0].speedup > 0) << out[0].failure_reason;
  const auto* perf = performance();
  ASSERT_NE(perf, nullptr);
  EXPECT_EQ(perf->outcome, engine::StepOutcome::ok) << perf->reason;
  const auto& p = std::get<engine::PerformanceReport>(perf->payload.report);
  ASSERT_EQ(p.percent_of_peak.size(), 2u) << engine::payload_json(perf->payload).dump();
  double want = 100.0 * 12 * 64 / 2e-3 / 1e9;  // the fake adds a little per sample
  EXPECT_NEAR(p.percent_of_peak[0], want, 0.01 * want);
}

TEST_F(PhysicsFloorTest, CandidateFasterThanTheCopyPeakFailsByName) {
  registry->kernels["too_fast"] = {add_kernel, 1e-9};  // 768 B in 1 ns: 768 GB/s
  registry->peak_bandwidth = 100e9;
  auto out = run(plan_with_bytes("too_fast"));
  const auto* perf = performance();
  ASSERT_NE(perf, nullptr);
  EXPECT_EQ(perf->outcome, engine::StepOutcome::fail);
  EXPECT_NE(perf->reason.find("physics floor: "), std::string::npos) << perf->reason;
  EXPECT_NE(perf->reason.find("above 1.25x the device's measured copy peak (0.10 TB/s)"),
            std::string::npos)
      << perf->reason;
  EXPECT_FALSE(out[0].fast_enough);
}

TEST_F(PhysicsFloorTest, NoPeakKnownMeansNoFloor) {
  registry->kernels["too_fast"] = {add_kernel, 1e-9};
  auto out = run(plan_with_bytes("too_fast"));  // peak 0: the cpu device, or unknown
  const auto* perf = performance();
  ASSERT_NE(perf, nullptr);
  EXPECT_EQ(perf->outcome, engine::StepOutcome::ok) << perf->reason;
  EXPECT_TRUE(std::get<engine::PerformanceReport>(perf->payload.report).percent_of_peak.empty());
  EXPECT_FALSE(engine::payload_json(perf->payload).contains("percent_of_peak"));
}

// Batch timing: the floor applies to each launch's rate. The candidate claims 768 B in 1 ns per
// launch (768 GB/s, 7.7x the 100 GB/s ceiling); its batch holds 256 launches (the fake's 1 ns
// launches grow it to the cap), so a floor on the batch as a whole (768 B per 256 ns, 3 GB/s) or
// no floor in batch mode at all would let it pass.
TEST_F(PhysicsFloorTest, BatchTimingAppliesTheFloorPerLaunch) {
  registry->kernels["too_fast"] = {add_kernel, 1e-9};
  registry->peak_bandwidth = 100e9;
  auto out = run(batch_plan_with_bytes("too_fast"));
  const auto* perf = performance();
  ASSERT_NE(perf, nullptr);
  EXPECT_EQ(perf->outcome, engine::StepOutcome::fail) << perf->reason;
  EXPECT_NE(perf->reason.find("physics floor: 0.77 TB/s is above 1.25x the device's measured copy "
                              "peak (0.10 TB/s)"),
            std::string::npos)
      << perf->reason;
  EXPECT_FALSE(out[0].fast_enough);
  EXPECT_NE(out[0].failure_reason.find("physics floor: "), std::string::npos)
      << out[0].failure_reason;
  ASSERT_FALSE(report(*perf).timing.empty()) << engine::payload_json(perf->payload).dump();
  EXPECT_GT(report(*perf).timing[0].batch, 100);
}

// A batch whose working set fits the cache moves at the cache's rate: 150 GB/s per launch passes
// against a 200 GB/s cache-resident ceiling in batch timing, and fails against the 100 GB/s DRAM
// ceiling in cold timing (every byte from DRAM after the flush).
TEST_F(PhysicsFloorTest, BatchTimingUsesTheCacheResidentCeilingWhenTheWorkingSetFits) {
  registry->kernels["cache_fast"] = {add_kernel, 768.0 / 150e9};
  registry->peak_bandwidth = 100e9;
  registry->cache_bandwidth = 200e9;
  registry->l2_bytes = size_t(1) << 20;  // 256 launches x 3 x 400 B fit 4x this
  run(batch_plan_with_bytes("cache_fast"));
  const auto* perf = performance();
  ASSERT_NE(perf, nullptr);
  EXPECT_EQ(perf->outcome, engine::StepOutcome::ok) << perf->reason;

  model::Plan cold = plan_with_bytes("cache_fast");
  cold.output = root / "run-cold";
  run(cold);
  perf = performance();
  ASSERT_NE(perf, nullptr);
  EXPECT_EQ(perf->outcome, engine::StepOutcome::fail) << perf->reason;
  EXPECT_NE(perf->reason.find("the device's measured copy peak (0.10 TB/s)"), std::string::npos)
      << perf->reason;
}

TEST_F(PhysicsFloorTest, BatchTimingAboveTheCacheResidentCeilingFailsByName) {
  registry->kernels["too_fast"] = {add_kernel, 1e-9};  // 768 GB/s per launch
  registry->peak_bandwidth = 100e9;
  registry->cache_bandwidth = 200e9;
  registry->l2_bytes = size_t(1) << 20;
  run(batch_plan_with_bytes("too_fast"));
  const auto* perf = performance();
  ASSERT_NE(perf, nullptr);
  EXPECT_EQ(perf->outcome, engine::StepOutcome::fail) << perf->reason;
  EXPECT_NE(perf->reason.find("physics floor: 0.77 TB/s is above 1.25x the device's cache-resident "
                              "ceiling (0.20 TB/s)"),
            std::string::npos)
      << perf->reason;
}

// Without `bytes`, `flops` gives a compute-time floor: 10^6 N flop (64 Mflop at N = 64) in
// 1 us per launch is 64 Tflop/s, far above a 1 Tflop/s device.
TEST_F(PhysicsFloorTest, ComputeFloorFromFlopsWhenBytesAreMissing) {
  registry->kernels["too_fast"] = {add_kernel, 1e-6};
  registry->peak_bandwidth = 100e9;  // no bytes: this ceiling has nothing to judge
  registry->peak_flops = 1e12;
  model::Plan p = replay_plan({{"vadd", "too_fast"}});
  p.tasks[0].flops = times_n(1000000);
  auto out = run(p);
  const auto* perf = performance();
  ASSERT_NE(perf, nullptr);
  EXPECT_EQ(perf->outcome, engine::StepOutcome::fail) << perf->reason;
  EXPECT_EQ(perf->reason.rfind("compute floor: 6.", 0), 0u) << perf->reason;  // 6.4e+04 GFLOP/s
  EXPECT_NE(perf->reason.find("e+04 GFLOP/s per launch is above 1.25x the device's peak (1000 "
                              "GFLOP/s)"),
            std::string::npos)
      << perf->reason;
  EXPECT_FALSE(out[0].fast_enough);
}

TEST_F(PhysicsFloorTest, ComputeFloorAppliesPerLaunchInBatchTiming) {
  registry->kernels["too_fast"] = {add_kernel, 1e-9};  // 64 flop in 1 ns: 64 Gflop/s
  registry->peak_flops = 10e9;
  model::Plan p = replay_plan({{"vadd", "too_fast"}});
  p.tasks[0].flops = times_n(1);
  p.tasks[0].timing.mode = model::Timing::Mode::batch;
  run(p);
  const auto* perf = performance();
  ASSERT_NE(perf, nullptr);
  EXPECT_EQ(perf->outcome, engine::StepOutcome::fail) << perf->reason;
  EXPECT_NE(perf->reason.find("compute floor: "), std::string::npos) << perf->reason;
}

// A plausible flop rate passes, and its rate is recorded.
TEST_F(PhysicsFloorTest, PlausibleFlopRatePassesTheComputeFloor) {
  registry->peak_flops = 1e12;
  model::Plan p = replay_plan({{"vadd", "add"}});  // 64 flop in 2 ms
  p.tasks[0].flops = times_n(1);
  run(p);
  const auto* perf = performance();
  ASSERT_NE(perf, nullptr);
  EXPECT_EQ(perf->outcome, engine::StepOutcome::ok) << perf->reason;
  EXPECT_FALSE(has_note(report(*perf), "physics_floor_skipped"));
}

// Neither `bytes` nor `flops`: nothing to compare with the device's ceilings. The step says so
// in a named note rather than passing silently, even for a candidate no floor would let pass.
TEST_F(PhysicsFloorTest, NeitherBytesNorFlopsSkipsTheFloorWithANote) {
  registry->kernels["too_fast"] = {add_kernel, 1e-9};
  registry->peak_bandwidth = 100e9;
  registry->peak_flops = 1e12;
  run(replay_plan({{"vadd", "too_fast"}}));
  const auto* perf = performance();
  ASSERT_NE(perf, nullptr);
  EXPECT_EQ(perf->outcome, engine::StepOutcome::ok) << perf->reason;
  const auto& notes = report(*perf).notes;
  auto it = std::find_if(notes.begin(), notes.end(),
                         [](const engine::Note& n) { return n.name == "physics_floor_skipped"; });
  ASSERT_NE(it, notes.end()) << engine::payload_json(perf->payload).dump();
  EXPECT_EQ(it->text, "the task declares neither bytes nor flops: no physics floor applies");
  EXPECT_TRUE(engine::payload_json(perf->payload).dump().find("physics_floor_skipped") !=
              std::string::npos);

  // With bytes declared the floor applies and there is no such note.
  model::Plan with_bytes = plan_with_bytes("add");
  with_bytes.output = root / "run-bytes";
  run(with_bytes);
  perf = performance();
  ASSERT_NE(perf, nullptr);
  EXPECT_FALSE(has_note(report(*perf), "physics_floor_skipped"));
}

}  // namespace
}  // namespace kta::test
