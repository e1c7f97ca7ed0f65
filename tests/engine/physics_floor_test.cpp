// The performance step against the device's measured copy peak: % of peak recorded per shape,
// and a candidate "faster than physics" under the cold protocol fails its gate by name.
#include "tests/engine/engine_fixture.h"

namespace kta::test {
namespace {

class PhysicsFloorTest : public EngineFixture {
 protected:
  model::Plan plan_with_bytes(const std::string& kernel) {
    model::Plan p = replay_plan({{"vadd", kernel}});
    // 12 N bytes: read x and y, write z (f32).
    auto bytes = std::make_shared<ast::Expr>();
    bytes->node = ast::Binary{ast::BinOp::mul, int_expr(12), name_expr("N")};
    p.tasks[0].bytes = bytes;
    return p;
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

}  // namespace
}  // namespace kta::test
