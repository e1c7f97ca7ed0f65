// DevicePool: trusted devices are reused across jobs unless something went wrong on them;
// candidate devices are never reused and are started one job ahead.
#include <atomic>
#include <stdexcept>

#include "engine/execute/device_pool.h"
#include "engine/execute/job_runner.h"
#include "tests/engine/engine_fixture.h"

namespace kta::test {
namespace {

using engine::DevicePool;

// A fake device whose launches report a lost GPU context, or throw.
class BrokenDevice : public FakeDevice {
 public:
  BrokenDevice(std::shared_ptr<FakeRegistry> r, bool throws) : FakeDevice(std::move(r)), throws_(throws) {}
  engine::LaunchResult launch(uint64_t, const std::vector<engine::KernelArg>&,
                              const engine::LaunchConfig&) override {
    if (throws_) throw std::runtime_error("transport broke");
    engine::LaunchResult r{false, "device error: illegal address"};
    r.context_lost = true;
    return r;
  }

 private:
  bool throws_;
};

class DevicePoolTest : public EngineFixture {};

TEST_F(DevicePoolTest, TrustedDeviceServesEveryJobAndCandidatesAreFreshPerJob) {
  auto reg = registry;
  DevicePool pool([reg](const std::string&) { return std::make_unique<FakeDevice>(reg); }, 3);
  factory = pool.factory();
  auto out = run(replay_plan({{"a", "add"}, {"b", "add"}, {"c", "add"}}));
  ASSERT_EQ(out.size(), 3u);
  for (const auto& o : out) {
    EXPECT_TRUE(o.correct) << o.task << ": " << o.failure_reason;
  }
  EXPECT_EQ(pool.opened(engine::kTrusted), 1);
  EXPECT_EQ(pool.opened(engine::kCandidate), 3);  // one per job, none wasted after the last
  EXPECT_EQ(reg->devices_made, 4);
}

TEST_F(DevicePoolTest, ParallelJobsEachGetTheirOwnDevices) {
  auto reg = registry;
  DevicePool pool([reg](const std::string&) { return std::make_unique<FakeDevice>(reg); }, 4);
  factory = pool.factory();
  auto out = run(replay_plan({{"a", "add"}, {"b", "add"}, {"c", "add"}, {"d", "add"}}), 2);
  for (const auto& o : out) EXPECT_TRUE(o.correct) << o.task << ": " << o.failure_reason;
  EXPECT_LE(pool.opened(engine::kTrusted), 2);
  EXPECT_EQ(pool.opened(engine::kCandidate), 4);
}

TEST_F(DevicePoolTest, TrustedDeviceWithALostContextIsClosedNotLent) {
  auto reg = registry;
  int made = 0;
  DevicePool pool(
      [reg, &made](const std::string&) -> std::unique_ptr<engine::Device> {
        if (made++ == 0) return std::make_unique<BrokenDevice>(reg, false);
        return std::make_unique<FakeDevice>(reg);
      },
      0);
  auto make = pool.factory();
  {
    auto d = make(engine::kTrusted);
    auto r = d->launch(1, {}, {});
    EXPECT_TRUE(r.context_lost);
  }
  {
    auto d = make(engine::kTrusted);  // not the broken one
    EXPECT_EQ(pool.opened(engine::kTrusted), 2);
  }
  auto again = make(engine::kTrusted);  // the healthy one comes back
  EXPECT_EQ(pool.opened(engine::kTrusted), 2);
}

TEST_F(DevicePoolTest, TrustedDeviceThatThrewIsClosedNotLent) {
  auto reg = registry;
  int made = 0;
  DevicePool pool(
      [reg, &made](const std::string&) -> std::unique_ptr<engine::Device> {
        if (made++ == 0) return std::make_unique<BrokenDevice>(reg, true);
        return std::make_unique<FakeDevice>(reg);
      },
      0);
  auto make = pool.factory();
  {
    auto d = make(engine::kTrusted);
    EXPECT_THROW(d->launch(1, {}, {}), std::runtime_error);
  }
  auto d = make(engine::kTrusted);
  EXPECT_EQ(pool.opened(engine::kTrusted), 2);
}

TEST_F(DevicePoolTest, CandidateStartThatFailedAheadIsRetriedForTheJob) {
  std::atomic<int> failures{1};  // the first start fails, whichever thread makes it
  auto reg = registry;
  DevicePool pool(
      [reg, &failures](const std::string& role) -> std::unique_ptr<engine::Device> {
        if (role == engine::kCandidate && failures-- > 0) throw std::runtime_error("no worker");
        return std::make_unique<FakeDevice>(reg);
      },
      2);
  auto make = pool.factory();
  auto t = make(engine::kTrusted);  // starts the first candidate ahead of time
  EXPECT_NE(make(engine::kCandidate), nullptr);
  EXPECT_NE(make(engine::kCandidate), nullptr);
  EXPECT_EQ(pool.opened(engine::kCandidate), 3);  // two ahead of time (one failed) + one retry
}

TEST_F(DevicePoolTest, CandidateThatCannotStartFailsTheJobWithTheReason) {
  auto reg = registry;
  DevicePool pool(
      [reg](const std::string& role) -> std::unique_ptr<engine::Device> {
        if (role == engine::kCandidate) throw std::runtime_error("no worker");
        return std::make_unique<FakeDevice>(reg);
      },
      1);
  auto make = pool.factory();
  auto t = make(engine::kTrusted);
  EXPECT_THROW(make(engine::kCandidate), std::runtime_error);
}

}  // namespace
}  // namespace kta::test
