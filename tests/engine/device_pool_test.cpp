// DevicePool: trusted devices are reused across jobs unless something went wrong on them;
// candidate devices are never reused and are started one job ahead.
#include "engine/execute/device_pool.h"

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "engine/execute/job_runner.h"
#include "tests/engine/engine_fixture.h"

namespace kta::test {
namespace {

using engine::DevicePool;
const engine::DeviceKey kTrusted{engine::DeviceRole::trusted};
const engine::DeviceKey kCandidate{engine::DeviceRole::candidate};

// A fake device whose launches report a lost GPU context, or throw.
class BrokenDevice : public FakeDevice {
 public:
  BrokenDevice(std::shared_ptr<FakeRegistry> r, bool throws)
      : FakeDevice(std::move(r)), throws_(throws) {}
  engine::LaunchResult run(const engine::Invocation&) override {
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
  DevicePool pool([reg](engine::DeviceKey) { return std::make_unique<FakeDevice>(reg); }, 3);
  factory = pool.factory();
  auto out = run(replay_plan({{"a", "add"}, {"b", "add"}, {"c", "add"}}));
  ASSERT_EQ(out.size(), 3u);
  for (const auto& o : out) {
    EXPECT_TRUE(o.correct) << o.task << ": " << o.failure_reason;
  }
  EXPECT_EQ(pool.opened(kTrusted), 1);
  EXPECT_EQ(pool.opened(kCandidate), 3);  // one per job, none wasted after the last
  EXPECT_EQ(reg->devices_made, 4);
}

// prestart(): the first trusted and candidate devices start at once, on their own threads, and
// the first job takes them instead of opening others; a failed prestart is retried by the job.
TEST_F(DevicePoolTest, PrestartedDevicesServeTheFirstJob) {
  auto reg = registry;
  std::atomic<int> trusted_opens{0};
  DevicePool pool(
      [reg, &trusted_opens](engine::DeviceKey key) -> std::unique_ptr<engine::Device> {
        if (key == kTrusted && trusted_opens++ == 0) {
          // Both start before any job asks: the candidate's start runs alongside this one.
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return std::make_unique<FakeDevice>(reg);
      },
      2);
  pool.prestart();
  pool.prestart();  // a second call does nothing
  factory = pool.factory();
  auto out = run(replay_plan({{"a", "add"}, {"b", "add"}}));
  ASSERT_EQ(out.size(), 2u);
  for (const auto& o : out) EXPECT_TRUE(o.correct) << o.task << ": " << o.failure_reason;
  EXPECT_EQ(pool.opened(kTrusted), 1);
  EXPECT_EQ(pool.opened(kCandidate), 2);
  EXPECT_EQ(reg->devices_made, 3);
}

TEST_F(DevicePoolTest, AFailedPrestartIsRetriedByTheJob) {
  auto reg = registry;
  std::atomic<int> trusted_opens{0};
  DevicePool pool(
      [reg, &trusted_opens](engine::DeviceKey key) -> std::unique_ptr<engine::Device> {
        if (key == kTrusted && trusted_opens++ == 0)
          throw std::runtime_error("worker did not start");
        return std::make_unique<FakeDevice>(reg);
      },
      1);
  pool.prestart();
  factory = pool.factory();
  auto out = run(replay_plan({{"a", "add"}}));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].correct) << out[0].failure_reason;
  EXPECT_EQ(pool.opened(kTrusted), 2);
}

// A pool closed right after prestart() waits for the trusted device that was starting and
// closes it (a candidate start still queued is dropped), without hanging.
TEST_F(DevicePoolTest, PrestartedDevicesNeverClaimedCloseWithThePool) {
  auto reg = registry;
  int trusted = 0;
  {
    DevicePool pool([reg](engine::DeviceKey) { return std::make_unique<FakeDevice>(reg); }, 1);
    pool.prestart();
    trusted = pool.opened(kTrusted);
  }
  EXPECT_LE(trusted, 1);
  EXPECT_GE(reg->devices_made, 1);  // the trusted start always runs on its own thread
  EXPECT_LE(reg->devices_made, 2);
}

TEST_F(DevicePoolTest, ParallelJobsEachGetTheirOwnDevices) {
  auto reg = registry;
  DevicePool pool([reg](engine::DeviceKey) { return std::make_unique<FakeDevice>(reg); }, 4);
  factory = pool.factory();
  auto out = run(replay_plan({{"a", "add"}, {"b", "add"}, {"c", "add"}, {"d", "add"}}), 2);
  for (const auto& o : out) EXPECT_TRUE(o.correct) << o.task << ": " << o.failure_reason;
  EXPECT_LE(pool.opened(kTrusted), 2);
  EXPECT_EQ(pool.opened(kCandidate), 4);
}

// Python runner devices are neither pooled nor started ahead: every ask reaches the factory
// with its key, and is counted apart from the native devices of its role.
TEST_F(DevicePoolTest, PythonDevicesPassThroughAndAreCountedApart) {
  auto reg = registry;
  std::vector<engine::DeviceKey> asked;
  DevicePool pool(
      [reg, &asked](engine::DeviceKey key) {
        asked.push_back(key);
        return std::make_unique<FakeDevice>(reg);
      },
      0);
  auto make = pool.factory();
  const engine::DeviceKey trusted_python{engine::DeviceRole::trusted, engine::DeviceFlavor::python};
  { auto first = make(trusted_python); }  // let go: not kept for the next ask
  auto second = make(trusted_python);
  EXPECT_EQ(pool.opened(trusted_python), 2);
  EXPECT_EQ(pool.opened(kTrusted), 0);
  EXPECT_EQ(asked, (std::vector<engine::DeviceKey>{trusted_python, trusted_python}));
}

// Each implementation runs under its role's device: the reference and the baseline on the
// trusted one, the candidate on its own.
TEST_F(DevicePoolTest, EachRoleAsksForItsOwnDevice) {
  auto reg = registry;
  std::vector<engine::DeviceKey> asked;
  factory = [reg, &asked](engine::DeviceKey key) {
    asked.push_back(key);
    return std::make_unique<FakeDevice>(reg);
  };
  auto out = run(replay_plan({{"a", "add"}}));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].correct) << out[0].failure_reason;
  EXPECT_EQ(asked, (std::vector<engine::DeviceKey>{kTrusted, kCandidate}));
}

TEST(DeviceKeys, NamesAreTheTextMessagesCarry) {
  using engine::DeviceFlavor;
  using engine::DeviceRole;
  using engine::ImplRole;
  EXPECT_EQ(engine::device_key_name({DeviceRole::trusted}), "trusted");
  EXPECT_EQ(engine::device_key_name({DeviceRole::candidate}), "candidate");
  EXPECT_EQ(engine::device_key_name({DeviceRole::trusted, DeviceFlavor::python}), "trusted-python");
  EXPECT_EQ(engine::device_key_name({DeviceRole::candidate, DeviceFlavor::python}),
            "candidate-python");
  EXPECT_STREQ(engine::impl_role_name(ImplRole::reference), "reference");
  EXPECT_STREQ(engine::impl_role_name(ImplRole::baseline), "baseline");
  EXPECT_STREQ(engine::impl_role_name(ImplRole::candidate), "candidate");
  EXPECT_EQ(engine::device_role(ImplRole::reference), DeviceRole::trusted);
  EXPECT_EQ(engine::device_role(ImplRole::baseline), DeviceRole::trusted);
  EXPECT_EQ(engine::device_role(ImplRole::candidate), DeviceRole::candidate);
}

TEST_F(DevicePoolTest, TrustedDeviceWithALostContextIsClosedNotLent) {
  auto reg = registry;
  int made = 0;
  DevicePool pool(
      [reg, &made](engine::DeviceKey) -> std::unique_ptr<engine::Device> {
        if (made++ == 0) return std::make_unique<BrokenDevice>(reg, false);
        return std::make_unique<FakeDevice>(reg);
      },
      0);
  auto make = pool.factory();
  {
    auto d = make(kTrusted);
    auto r = d->launch(1, {}, {});
    EXPECT_TRUE(r.context_lost);
  }
  {
    auto d = make(kTrusted);  // not the broken one
    EXPECT_EQ(pool.opened(kTrusted), 2);
  }
  auto again = make(kTrusted);  // the healthy one comes back
  EXPECT_EQ(pool.opened(kTrusted), 2);
}

TEST_F(DevicePoolTest, TrustedDeviceThatThrewIsClosedNotLent) {
  auto reg = registry;
  int made = 0;
  DevicePool pool(
      [reg, &made](engine::DeviceKey) -> std::unique_ptr<engine::Device> {
        if (made++ == 0) return std::make_unique<BrokenDevice>(reg, true);
        return std::make_unique<FakeDevice>(reg);
      },
      0);
  auto make = pool.factory();
  {
    auto d = make(kTrusted);
    EXPECT_THROW(d->launch(1, {}, {}), std::runtime_error);
  }
  auto d = make(kTrusted);
  EXPECT_EQ(pool.opened(kTrusted), 2);
}

TEST_F(DevicePoolTest, CandidateStartThatFailedAheadIsRetriedForTheJob) {
  std::atomic<int> failures{1};  // the first start fails, whichever thread makes it
  auto reg = registry;
  DevicePool pool(
      [reg, &failures](engine::DeviceKey key) -> std::unique_ptr<engine::Device> {
        if (key == kCandidate && failures-- > 0) throw std::runtime_error("no worker");
        return std::make_unique<FakeDevice>(reg);
      },
      2);
  auto make = pool.factory();
  auto t = make(kTrusted);  // starts the first candidate ahead of time
  EXPECT_NE(make(kCandidate), nullptr);
  EXPECT_NE(make(kCandidate), nullptr);
  EXPECT_EQ(pool.opened(kCandidate), 3);  // two ahead of time (one failed) + one retry
}

TEST_F(DevicePoolTest, CandidateThatCannotStartFailsTheJobWithTheReason) {
  auto reg = registry;
  DevicePool pool(
      [reg](engine::DeviceKey key) -> std::unique_ptr<engine::Device> {
        if (key == kCandidate) throw std::runtime_error("no worker");
        return std::make_unique<FakeDevice>(reg);
      },
      1);
  auto make = pool.factory();
  auto t = make(kTrusted);
  EXPECT_THROW(make(kCandidate), std::runtime_error);
}

}  // namespace
}  // namespace kta::test
