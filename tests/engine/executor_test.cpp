// The executor's gates, one pass and one fail each, on the fake device.
#include <cmath>
#include <limits>

#include "tests/engine/engine_fixture.h"

namespace kta::test {
namespace {

using engine::StepOutcome;

class ExecutorTest : public EngineFixture {
 protected:
  void SetUp() override {
    EngineFixture::SetUp();
    auto& k = registry->kernels;
    k["add_fast"] = {add_kernel, 1e-3};
    k["add_slow"] = {add_kernel, 6e-3};
    k["add_wrong"] = {[](const FakeLaunch& l) {
                        add_kernel(l);
                        l.ptr<float>(2)[5] += 1.0f;
                        return std::string();
                      },
                      1e-3};
    k["add_nan"] = {[](const FakeLaunch& l) {
                      add_kernel(l);
                      l.ptr<float>(2)[7] = std::numeric_limits<float>::quiet_NaN();
                      return std::string();
                    },
                    1e-3};
    k["add_mutate"] = {[](const FakeLaunch& l) {
                         add_kernel(l);
                         l.ptr<float>(0)[0] = 42.0f;
                         return std::string();
                       },
                       1e-3};
    // Correct for the 4 correctness launches (2 points x 2 seeds), then writes nothing.
    k["corrupt_after"] = {[](const FakeLaunch& l) {
                            if (l.call_index < 4) add_kernel(l);
                            return std::string();
                          },
                          1e-3};
    k["crash"] = {
        [](const FakeLaunch&) { return std::string("worker killed by signal 11 (SIGSEGV)"); },
        1e-3};
    // Correct for the correctness launches, then the worker dies under timing.
    k["crash_when_timed"] = {[](const FakeLaunch& l) {
                               if (l.call_index >= 4)
                                 return std::string("worker killed by signal 11 (SIGSEGV)");
                               return add_kernel(l);
                             },
                             1e-3};
    k["hang"] = {[](const FakeLaunch&) { return std::string("timeout after 10 s"); }, 1e-3};
    // Right only at the visible sizes: the tail beyond a multiple of 64 is never written.
    k["hardcoded"] = {[](const FakeLaunch& l) {
                        int64_t n = l.scalar(3);
                        int64_t m = (n == 64 || n == 100) ? n : n / 64 * 64;
                        for (int64_t i = 0; i < m; ++i)
                          l.ptr<float>(2)[i] = l.ptr<float>(0)[i] + l.ptr<float>(1)[i];
                        return std::string();
                      },
                      1e-3};
  }

  const engine::StepRecord* step_of(const std::string& task, const std::string& name) {
    for (const auto& s : steps) {
      if (s.task == task && engine::step_name(s.step) == name) return &s;
    }
    return nullptr;
  }
};

TEST_F(ExecutorTest, FasterGeneralCandidatePassesEveryGate) {
  auto out = run(replay_plan({{"t", "add_fast"}}));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].compiled);
  EXPECT_TRUE(out[0].correct);
  EXPECT_NEAR(out[0].speedup, 2.0, 0.05);
  EXPECT_LE(out[0].speedup_lo, out[0].speedup);
  EXPECT_GE(out[0].speedup_hi, out[0].speedup);
  EXPECT_EQ(out[0].heldout_correct, std::optional<bool>(true));
  EXPECT_EQ(out[0].quadrant, "both pass");
  EXPECT_TRUE(out[0].failure_reason.empty()) << out[0].failure_reason;
  EXPECT_EQ(steps.size(), 8u);
}

TEST_F(ExecutorTest, CompileErrorFailsTheCompileGateAndSkipsTheRest) {
  auto out = run(replay_plan({{"t", "compile-error"}}));
  EXPECT_FALSE(out[0].compiled);
  EXPECT_FALSE(out[0].correct);
  auto* s = step_of("t", "candidate-compile");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->outcome, StepOutcome::fail);
  EXPECT_NE(s->reason.find("undeclared identifier"), std::string::npos) << s->reason;
  const auto* report = std::get_if<engine::CompileReport>(&s->payload.report);
  ASSERT_NE(report, nullptr);
  EXPECT_NE(report->log.find("undeclared identifier 'oops'"), std::string::npos) << report->log;
  EXPECT_EQ(step_of("t", "correctness")->outcome, StepOutcome::skip);
  EXPECT_EQ(step_of("t", "performance")->outcome, StepOutcome::skip);
}

TEST_F(ExecutorTest, WrongResultIsNamedWithIndexAndError) {
  auto out = run(replay_plan({{"t", "add_wrong"}}));
  EXPECT_TRUE(out[0].compiled);
  EXPECT_FALSE(out[0].correct);
  EXPECT_NE(out[0].failure_reason.find("outside tolerance"), std::string::npos)
      << out[0].failure_reason;
  EXPECT_NE(out[0].failure_reason.find("[N=64]"), std::string::npos) << out[0].failure_reason;
  bool found = false;
  for (const auto& s : out[0].shapes) {
    if (s.set == engine::PointSet::visible && s.correct == std::optional<bool>(false)) {
      EXPECT_EQ(s.first_bad_index, 5);
      EXPECT_NEAR(s.max_abs_error, 1.0, 1e-5);
      EXPECT_EQ(s.mismatches, 1u);
      found = true;
    }
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(step_of("t", "performance")->outcome, StepOutcome::skip);
}

// A tolerance over params holds at each point as evaluated there: atol (N - 50) / 20 is 0.7 at
// N=64 (an error of 1 fails) and 2.5 at N=100 (it passes); the failing reason says what it was.
TEST_F(ExecutorTest, ToleranceOverParamsIsEvaluatedAtEachPoint) {
  model::Plan p = replay_plan({{"t", "add_wrong"}});
  auto sub = std::make_shared<ast::Expr>();
  sub->node = ast::Binary{ast::BinOp::sub, name_expr("N"), int_expr(50)};
  auto twenty = std::make_shared<ast::Expr>();
  twenty->node = ast::FloatLit{20.0, "20.0"};
  auto atol = std::make_shared<ast::Expr>();
  atol->node = ast::Binary{ast::BinOp::div, sub, twenty};
  p.tasks[0].tolerances["z"].atol_expr = atol;
  auto out = run(p);
  EXPECT_FALSE(out[0].correct);
  EXPECT_NE(out[0].failure_reason.find("; tolerance here atol 0.7, rtol 1e-06"), std::string::npos)
      << out[0].failure_reason;
  int failed64 = 0, passed100 = 0;
  for (const auto& s : out[0].shapes) {
    if (s.set != engine::PointSet::visible) continue;
    if (s.point == model::ShapePoint{{"N", 64}} && s.correct == std::optional<bool>(false))
      ++failed64;
    if (s.point == model::ShapePoint{{"N", 100}} && s.correct == std::optional<bool>(true))
      ++passed100;
  }
  EXPECT_EQ(failed64, 2);  // both seeds
  EXPECT_EQ(passed100, 2);
}

TEST_F(ExecutorTest, NanIsNeverAWildcard) {
  auto out = run(replay_plan({{"t", "add_nan"}}));
  EXPECT_FALSE(out[0].correct);
  EXPECT_NE(out[0].failure_reason.find("NaN"), std::string::npos) << out[0].failure_reason;
}

TEST_F(ExecutorTest, InputMutationIsDetected) {
  auto out = run(replay_plan({{"t", "add_mutate"}}));
  EXPECT_FALSE(out[0].correct);
  EXPECT_NE(out[0].failure_reason.find("input 'x' was modified"), std::string::npos)
      << out[0].failure_reason;
}

TEST_F(ExecutorTest, CorrectThenCorruptIsCaughtByTheTimedRecheck) {
  auto out = run(replay_plan({{"t", "corrupt_after"}}));
  EXPECT_EQ(step_of("t", "correctness")->outcome, StepOutcome::ok);
  auto* perf = step_of("t", "performance");
  ASSERT_NE(perf, nullptr);
  EXPECT_EQ(perf->outcome, StepOutcome::fail);
  EXPECT_NE(perf->reason.find("outputs of a timed launch are wrong"), std::string::npos)
      << perf->reason;
  EXPECT_FALSE(out[0].correct);
}

// Batch timing hands every launch of every sample fresh inputs and a poisoned output, and a
// random timed launch is re-checked: a kernel that goes wrong after the correctness gate when it
// finds its outputs poisoned is caught, and every counted sample is a timed one.
TEST_F(ExecutorTest, BatchTimingRechecksARandomTimedLaunch) {
  // Right through the correctness gate; after that wrong whenever it finds its outputs poisoned,
  // which every timed launch does.
  registry->kernels["garbage_after"] = {[](const FakeLaunch& l) {
                                          bool poisoned = std::isnan(l.ptr<float>(2)[0]);
                                          if (l.call_index < 4 || !poisoned) return add_kernel(l);
                                          int64_t n = l.scalar(3);
                                          for (int64_t i = 0; i < n; ++i) l.ptr<float>(2)[i] = 7.0f;
                                          return std::string();
                                        },
                                        1e-3};
  auto source = replay_plan({{"t", "garbage_after"}, {"u", "add"}});
  for (auto& t : source.tasks) t.timing.mode = model::Timing::Mode::batch;
  auto out = run(source);
  ASSERT_EQ(out.size(), 2u);
  auto* perf = step_of("t", "performance");
  ASSERT_NE(perf, nullptr);
  EXPECT_EQ(perf->outcome, StepOutcome::fail);
  EXPECT_NE(perf->reason.find("outputs of a timed launch are wrong"), std::string::npos)
      << perf->reason;
  EXPECT_FALSE(out[0].correct);
  // A correct kernel passes, and A and B have one counted sample per round each (the fake times
  // each call alike, so only the count can tell).
  EXPECT_TRUE(out[1].correct) << out[1].failure_reason;
  EXPECT_EQ(step_of("u", "performance")->outcome, StepOutcome::ok);
  for (const auto& shape : out[1].shapes) {
    if (!shape.candidate) continue;
    EXPECT_EQ(shape.candidate->n, shape.baseline->n);
  }
}

TEST_F(ExecutorTest, CrashAndHangFailWithANamedReasonAndTheRunGoesOn) {
  auto out = run(replay_plan({{"a", "crash"}, {"b", "hang"}, {"c", "add_fast"}}));
  ASSERT_EQ(out.size(), 3u);
  EXPECT_FALSE(out[0].correct);
  EXPECT_NE(out[0].failure_reason.find("SIGSEGV"), std::string::npos) << out[0].failure_reason;
  EXPECT_NE(out[0].failure_reason.find("remaining points not run"), std::string::npos);
  EXPECT_FALSE(out[1].correct);
  EXPECT_NE(out[1].failure_reason.find("timeout"), std::string::npos) << out[1].failure_reason;
  // A crashing candidate is launched once per step (visible, held-out), not per point and seed.
  EXPECT_EQ(registry->launches["crash"], 2);
  EXPECT_TRUE(out[2].correct);
  EXPECT_EQ(out[2].quadrant, "both pass");
}

TEST_F(ExecutorTest, SlowerThanBaselineFailsThePerformanceGate) {
  auto source = replay_plan({{"t", "add_slow"}});
  source.tasks[0].gates.min_speedup = 1.0;
  auto out = run(source);
  EXPECT_TRUE(out[0].correct);
  EXPECT_FALSE(out[0].fast_enough);
  EXPECT_NEAR(out[0].speedup, 1.0 / 3.0, 0.02);
  EXPECT_NE(out[0].failure_reason.find("slower than required"), std::string::npos)
      << out[0].failure_reason;
}

// No slack beyond what the measurement reports: 0.95x measured to +-0.2% is below 1.0x.
TEST_F(ExecutorTest, SlightlySlowerThanTheTargetBeyondItsIntervalFails) {
  registry->kernels["add_par"] = {add_kernel, 2.1e-3};  // 0.95x
  auto source = replay_plan({{"t", "add_par"}});
  source.tasks[0].gates.min_speedup = 1.0;
  auto out = run(source);
  EXPECT_FALSE(out[0].fast_enough);
  EXPECT_NEAR(out[0].speedup, 2.0 / 2.1, 0.01);
  EXPECT_LT(out[0].speedup_hi, 1.0);
  EXPECT_NE(out[0].failure_reason.find("slower than required"), std::string::npos)
      << out[0].failure_reason;
}

// A target inside the measured interval is met: the candidate is indistinguishable from it.
TEST_F(ExecutorTest, ATargetInsideTheIntervalPasses) {
  registry->kernels["add_par"] = {add_kernel, 2.0e-3};  // 1.0x, the baseline's own time
  auto source = replay_plan({{"t", "add_par"}});
  source.tasks[0].gates.min_speedup = 1.0;
  auto out = run(source);
  EXPECT_TRUE(out[0].fast_enough) << out[0].failure_reason;
  EXPECT_LE(out[0].speedup_lo, 1.0);
  EXPECT_GE(out[0].speedup_hi, 1.0 - 1e-9);
}

// The reported case: one shape at 0.3x, one at 1.0x. Resampling over shapes spanned [0.3, 1.0]
// and let it pass; the per-shape intervals from paired rounds are tight, so it fails.
TEST_F(ExecutorTest, HeterogeneousShapesAtHalfSpeedFail) {
  FakeKernel het{add_kernel, 0};
  het.seconds_at = [](int64_t n) { return n == 64 ? 2e-3 / 0.3 : 2e-3; };
  registry->kernels["add_het"] = het;
  auto source = replay_plan({{"t", "add_het"}});
  source.tasks[0].gates.min_speedup = 1.0;
  auto out = run(source);
  EXPECT_NEAR(out[0].speedup, std::sqrt(0.3), 0.01);
  EXPECT_FALSE(out[0].fast_enough);
  EXPECT_NE(out[0].failure_reason.find("slower than required"), std::string::npos)
      << out[0].failure_reason;
  const auto* perf = step_of("t", "performance");
  ASSERT_NE(perf, nullptr);
  const auto& p = std::get<engine::PerformanceReport>(perf->payload.report);
  EXPECT_EQ(p.verdict, engine::GateVerdict::fail);
  ASSERT_TRUE(p.shape_min && p.shape_max);  // the spread is reported, not used
  EXPECT_NEAR(*p.shape_min, 0.3, 0.01);
  EXPECT_NEAR(*p.shape_max, 1.0, 0.01);
}

// A shape that never reaches its noise target, with an interval that straddles the target, makes
// the gate inconclusive: neither pass nor fail, and the speedup is marked noisy.
TEST_F(ExecutorTest, AnUnreliableMeasurementIsInconclusive) {
  FakeKernel noisy{add_kernel, 1e-3};
  noisy.jitter = 0.5;  // 2/0.5 and 2/1.5 alternate: 2.31x, far from its 5% noise target
  registry->kernels["add_noisy"] = noisy;
  auto source = replay_plan({{"t", "add_noisy"}});
  source.tasks[0].gates.min_speedup = 2.3;
  auto out = run(source);
  EXPECT_TRUE(out[0].correct);
  EXPECT_TRUE(out[0].inconclusive);
  EXPECT_TRUE(out[0].speedup_noisy);
  EXPECT_FALSE(out[0].fast_enough);
  EXPECT_TRUE(out[0].failure_reason.empty()) << out[0].failure_reason;
  const auto* perf = step_of("t", "performance");
  ASSERT_NE(perf, nullptr);
  EXPECT_EQ(perf->outcome, StepOutcome::ok);
  EXPECT_NE(perf->reason.find("inconclusive"), std::string::npos) << perf->reason;
  const auto& p = std::get<engine::PerformanceReport>(perf->payload.report);
  EXPECT_EQ(p.verdict, engine::GateVerdict::inconclusive);
  EXPECT_GE(p.unreliable, 1);
  ASSERT_FALSE(p.timing.empty());
  EXPECT_FALSE(p.timing[0].reliable);
  EXPECT_NE(p.timing[0].unreliable.find("noise target not reached"), std::string::npos);
  // A clear verdict stands however noisy: the same kernel against 1.0x passes.
  source.tasks[0].gates.min_speedup = 1.0;
  source.output = root / "run2";
  auto clear = run(source);
  EXPECT_TRUE(clear[0].fast_enough) << clear[0].failure_reason;
  EXPECT_FALSE(clear[0].inconclusive);
  EXPECT_TRUE(clear[0].speedup_noisy);
}

// A worker that dies under timing fails the step by name; its buffers go before its device (they
// used to outlive it, and freeing them was a use after free that crashed kta now and then).
TEST_F(ExecutorTest, AWorkerThatDiesUnderTimingFailsThePerformanceStepByName) {
  auto out = run(replay_plan({{"t", "crash_when_timed"}}));
  EXPECT_TRUE(out[0].compiled);
  EXPECT_FALSE(out[0].fast_enough);
  const auto* perf = step_of("t", "performance");
  ASSERT_NE(perf, nullptr);
  EXPECT_EQ(perf->outcome, StepOutcome::fail);
  EXPECT_NE(perf->reason.find("timed launch failed"), std::string::npos) << perf->reason;
  EXPECT_NE(perf->reason.find("SIGSEGV"), std::string::npos) << perf->reason;
}

// The baseline against itself on a busy machine, simulated: every worker runs the code
// exp(N(0, 5%)) times slower, every sample reads exp(N(0, 2%)) times its time (what the cpu
// device showed: tight per-run intervals, a few percent between workers). Over 20 runs with fixed
// seeds the interval holds 1.0 and the gate `min_speedup 1.0` does not fail in at least 19
// (issue 15's bar; bench/engine/self_speedup.py measures the same on the real device). Without
// the calibration's widening the same runs held 1.0 in 6 of 20 and failed the gate in 5.
TEST_F(ExecutorTest, TheBaselineAgainstItselfHoldsOneOnANoisyMachine) {
  registry->worker_noise = 0.05;
  registry->sample_noise = 0.02;
  int contains = 0, failed = 0, passed = 0, inconclusive = 0;
  for (int i = 0; i < 20; ++i) {
    registry->noise_seed = uint64_t(1000 + i);
    auto source = replay_plan({{"t", "add"}});
    source.tasks[0].gates.min_speedup = 1.0;
    source.output = root / ("noisy-" + std::to_string(i));
    auto out = run(source);
    ASSERT_TRUE(out[0].correct) << out[0].failure_reason;
    contains += out[0].speedup_lo <= 1.0 && out[0].speedup_hi >= 1.0;
    passed += out[0].fast_enough;
    inconclusive += out[0].inconclusive;
    failed += !out[0].fast_enough && !out[0].inconclusive;
  }
  EXPECT_GE(contains, 19);
  EXPECT_LE(failed, 1) << contains << " contain, " << passed << " passed, " << inconclusive
                       << " inconclusive";
  EXPECT_EQ(passed + inconclusive + failed, 20);
}

// Factories whose candidate-side devices time everything `factor` times slower than the trusted
// ones: two workers that run the same code differently.
engine::DeviceFactory skewed_workers(std::shared_ptr<FakeRegistry> reg, double factor) {
  return [reg, factor](engine::DeviceKey key) {
    auto d = std::make_unique<FakeDevice>(reg);
    if (key.role == engine::DeviceRole::candidate) d->time_factor = factor;
    return d;
  };
}

// The baseline against itself, with the candidate's worker 10% slower: the paired rounds alone
// read 0.91x with a tight interval (a false "slower than required"). The calibration runs the
// baseline on the candidate's device too (rounds A B C), reads the same 0.91x there, and widens
// the interval by it: it contains 1, is wider than +-5%, and the gate is inconclusive.
TEST_F(ExecutorTest, TheCalibrationSeesAWorkerThatRunsSlower) {
  factory = skewed_workers(registry, 1.1);
  auto source = replay_plan({{"t", "add"}});
  source.tasks[0].gates.min_speedup = 1.0;
  auto out = run(source);
  EXPECT_TRUE(out[0].correct);
  EXPECT_NEAR(out[0].speedup, 1 / 1.1, 0.01);
  EXPECT_LE(out[0].speedup_lo, 1.0);
  EXPECT_GE(out[0].speedup_hi, 1.0);
  EXPECT_TRUE(out[0].inconclusive) << out[0].failure_reason;
  EXPECT_TRUE(out[0].speedup_noisy);
  const auto* perf = step_of("t", "performance");
  ASSERT_NE(perf, nullptr);
  EXPECT_NE(perf->reason.find("against itself on the candidate's device"), std::string::npos)
      << perf->reason;
  const auto& p = std::get<engine::PerformanceReport>(perf->payload.report);
  ASSERT_TRUE(p.calibration);
  EXPECT_TRUE(p.calibration->on_candidate_device);
  EXPECT_EQ(p.calibration->shapes, p.shapes);
  EXPECT_NEAR(p.calibration->offset, 1 / 1.1, 0.01);
  ASSERT_FALSE(p.timing.empty());
  ASSERT_TRUE(p.timing[0].calibration);
  EXPECT_NEAR(*p.timing[0].calibration, 1 / 1.1, 0.01);
  EXPECT_LE(p.timing[0].lo, 1.0);
  EXPECT_FALSE(p.reliable);
  // The held-out points are calibrated the same way.
  const auto* held = step_of("t", "heldout-performance");
  ASSERT_NE(held, nullptr);
  const auto& h = std::get<engine::PerformanceReport>(held->payload.report);
  ASSERT_TRUE(h.calibration);
  ASSERT_TRUE(h.speedup);
  EXPECT_LE(h.speedup->lo, 1.0);
  EXPECT_GE(h.speedup->hi, 1.0);
}

// A worker offset within +-5% widens the interval and keeps it reliable: the baseline against
// itself passes min_speedup 1.0 with 1.0 inside its interval.
TEST_F(ExecutorTest, ASmallWorkerOffsetWidensTheIntervalAndPasses) {
  factory = skewed_workers(registry, 1.03);
  auto source = replay_plan({{"t", "add"}});
  source.tasks[0].gates.min_speedup = 1.0;
  auto out = run(source);
  EXPECT_TRUE(out[0].fast_enough) << out[0].failure_reason;
  EXPECT_FALSE(out[0].inconclusive);
  EXPECT_FALSE(out[0].speedup_noisy);
  EXPECT_LE(out[0].speedup_lo, 1.0);
  EXPECT_GE(out[0].speedup_hi, 1.0);
  // Without the calibration's widening the interval would exclude 1: the paired rounds are tight.
  const auto* perf = step_of("t", "performance");
  ASSERT_NE(perf, nullptr);
  const auto& p = std::get<engine::PerformanceReport>(perf->payload.report);
  ASSERT_TRUE(p.calibration);
  EXPECT_NEAR(p.calibration->offset, 1 / 1.03, 0.005);
  EXPECT_TRUE(p.reliable);
}

TEST_F(ExecutorTest, HeldOutGateOffLetsAHeldOutFailurePassTheTask) {
  auto source = replay_plan({{"t", "hardcoded"}});
  source.tasks[0].gates.heldout_require_correct = false;  // gate heldout { require none }
  auto out = run(source);
  EXPECT_TRUE(out[0].correct);
  EXPECT_EQ(out[0].heldout_correct, std::optional<bool>(false));
  EXPECT_TRUE(out[0].heldout_passed);
}

TEST_F(ExecutorTest, HeldOutGatePassesACorrectCandidate) {
  auto out = run(replay_plan({{"t", "add_fast"}}));
  EXPECT_TRUE(out[0].heldout_passed);
  EXPECT_EQ(engine::correct_on_both(out[0]), std::optional<bool>(true));
}

TEST_F(ExecutorTest, HardCodedShapesPassVisibleAndFailHeldOut) {
  auto out = run(replay_plan({{"t", "hardcoded"}}));
  EXPECT_TRUE(out[0].correct);
  EXPECT_EQ(out[0].heldout_correct, std::optional<bool>(false));
  EXPECT_EQ(out[0].baseline_heldout_correct, std::optional<bool>(true));
  EXPECT_EQ(out[0].quadrant, "candidate regresses");
  // The held-out gate (required by default) fails the task: wrong on unseen shapes is wrong.
  EXPECT_FALSE(out[0].heldout_passed);
  EXPECT_EQ(engine::correct_on_both(out[0]), std::optional<bool>(false));
  auto* s = step_of("t", "heldout-correctness");
  ASSERT_NE(s, nullptr);
  // Held-out values never appear in messages: only the point's index.
  EXPECT_NE(s->reason.find("held-out point 1 of 2"), std::string::npos) << s->reason;
  EXPECT_EQ(s->reason.find("37"), std::string::npos) << s->reason;
  EXPECT_NE(s->reason.find("z: NaN in the output"), std::string::npos) << s->reason;
  for (const auto& sh : out[0].shapes) {
    if (sh.set == engine::PointSet::heldout) {
      ASSERT_EQ(sh.point.size(), 1u);
      EXPECT_EQ(sh.point[0].first, "heldout");
    }
  }
  EXPECT_EQ(step_of("t", "heldout-performance")->outcome, StepOutcome::skip);
}

TEST_F(ExecutorTest, MissingSolutionMeansBaselineUsed) {
  auto out = run(replay_plan({{"t", ""}}));
  auto* s = step_of("t", "prepare");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->outcome, StepOutcome::ok);
  EXPECT_EQ(s->reason, "no solution, baseline used");
  EXPECT_TRUE(out[0].correct);
  EXPECT_NEAR(out[0].speedup, 1.0, 0.01);
}

TEST_F(ExecutorTest, ResumeRunsNothingTwiceAndGivesTheSameOutcomes) {
  auto source = replay_plan({{"a", "add_fast"}, {"b", "add_wrong"}});
  auto first = run(source);
  int compiles = registry->compiles;
  auto launches = registry->launches;
  auto second = run(source);
  EXPECT_EQ(registry->compiles, compiles);
  EXPECT_EQ(registry->launches, launches);
  EXPECT_EQ(steps.size(), 16u);
  ASSERT_EQ(second.size(), first.size());
  for (size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(second[i].correct, first[i].correct);
    EXPECT_EQ(second[i].speedup, first[i].speedup);
    EXPECT_EQ(second[i].quadrant, first[i].quadrant);
    EXPECT_EQ(second[i].failure_reason, first[i].failure_reason);
    EXPECT_EQ(second[i].shapes.size(), first[i].shapes.size());
  }
}

TEST_F(ExecutorTest, ReferenceOutputsAreCachedAcrossRuns) {
  auto source = replay_plan({{"t", "add_fast"}});
  run(source);
  int ref_launches = registry->launches["ref"];
  // Once per (point, seed) for visible and held-out: 2 x 2 + 2 x 2, cached; and once per timed
  // shape (visible 2, held-out 2) for the verified launch, whose inputs are fresh: never cached.
  EXPECT_EQ(ref_launches, 8 + 4);
  source.output = root / "run2";
  auto out = run(source);
  EXPECT_EQ(registry->launches["ref"], ref_launches + 4);
  EXPECT_TRUE(out[0].correct);
}

TEST_F(ExecutorTest, ParallelJobsGiveTheSameVerdicts) {
  auto source =
      replay_plan({{"a", "add_fast"}, {"b", "add_wrong"}, {"c", "crash"}, {"d", "hardcoded"}});
  auto out = run(source, 3);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_TRUE(out[0].correct);
  EXPECT_FALSE(out[1].correct);
  EXPECT_FALSE(out[2].correct);
  EXPECT_EQ(out[3].quadrant, "candidate regresses");
  EXPECT_EQ(steps.size(), 4u * 8u);
}

}  // namespace
}  // namespace kta::test
