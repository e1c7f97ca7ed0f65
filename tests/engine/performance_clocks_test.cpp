// The performance step's record of GPU clocks: per shape and role the median/min/max SM clock
// of the timed samples when the device reads them, a named note when the roles ran at clocks
// more than 2% apart, and nothing at all (never a 0 MHz "clock") when the device cannot read them.
#include "tests/engine/engine_fixture.h"

namespace kta::test {
namespace {

class PerformanceClocksTest : public EngineFixture {
 protected:
  // The performance step's report, as the store keeps it (its JSON form).
  engine::Json performance_payload() {
    for (const auto& s : steps)
      if (s.step == engine::StepKind::visible_performance) {
        EXPECT_EQ(s.outcome, engine::StepOutcome::ok) << s.reason;
        EXPECT_TRUE(std::holds_alternative<engine::PerformanceReport>(s.payload.report));
        return engine::payload_json(s.payload);
      }
    ADD_FAILURE() << "no performance step";
    return engine::Json::object();
  }
  // The payload's notes of one name (others, such as physics_floor_skipped, are not about clocks).
  static engine::Json notes_named(const engine::Json& p, const std::string& name) {
    engine::Json out = engine::Json::array();
    if (p.contains("notes"))
      for (const auto& n : p["notes"])
        if (n["name"] == name) out.push_back(n);
    return out;
  }
};

TEST_F(PerformanceClocksTest, DeviceWithoutClocksRecordsNone) {
  run(replay_plan({{"vadd", "add"}}));  // the fake reports 0 MHz, as the cpu device does
  auto p = performance_payload();
  EXPECT_TRUE(p.contains("speedup")) << p;
  EXPECT_FALSE(p.contains("clocks")) << p;
  EXPECT_TRUE(notes_named(p, "clock_mismatch").empty()) << p;
}

TEST_F(PerformanceClocksTest, ReadableClocksAreSummarizedPerShapeAndRole) {
  registry->kernels["add"].sm_clock_mhz = 1980;
  registry->kernels["add"].mem_clock_mhz = 2619;
  registry->kernels["same_clock"] = {add_kernel, 1e-3, 1975, 2619};
  run(replay_plan({{"vadd", "same_clock"}}));
  auto p = performance_payload();
  ASSERT_TRUE(p.contains("clocks")) << p;
  ASSERT_EQ(p["clocks"].size(), 2u) << p;  // one entry per timed shape, like the shapes
  for (const auto& c : p["clocks"]) {
    const auto& b = c["baseline"];
    EXPECT_EQ(b["sm_max"].get<double>(), 1980) << c;
    EXPECT_EQ(b["sm_min"].get<double>(), 1970) << c;  // the fake's every-third-sample dip
    EXPECT_EQ(b["sm_median"].get<double>(), 1980) << c;
    EXPECT_EQ(b["mem_median"].get<double>(), 2619) << c;
    EXPECT_GE(b["samples"].get<int>(), 3) << c;
    EXPECT_EQ(c["candidate"]["sm_max"].get<double>(), 1975) << c;
    EXPECT_EQ(c["candidate"]["sm_median"].get<double>(), 1975) << c;
  }
  EXPECT_TRUE(notes_named(p, "clock_mismatch").empty()) << p;  // 0.25% apart: within 2%
}

TEST_F(PerformanceClocksTest, RolesAtDifferentClocksGetANamedNote) {
  registry->kernels["add"].sm_clock_mhz = 1980;
  registry->kernels["throttled"] = {add_kernel, 1e-3, 1755, 0};
  run(replay_plan({{"vadd", "throttled"}}));
  auto p = performance_payload();
  engine::Json notes = notes_named(p, "clock_mismatch");
  ASSERT_EQ(notes.size(), 2u) << p;  // both shapes
  const auto& n = notes[0];
  EXPECT_EQ(n["name"], "clock_mismatch");
  std::string text = n["text"];
  EXPECT_NE(text.find("1980 MHz (baseline) vs 1755 MHz (candidate)"), std::string::npos) << text;
  EXPECT_NE(text.find("11.4% apart: the comparison is suspect"), std::string::npos) << text;
  EXPECT_FALSE(p["clocks"][0]["candidate"].contains("mem_median")) << p;  // memory unreadable
}

}  // namespace
}  // namespace kta::test
