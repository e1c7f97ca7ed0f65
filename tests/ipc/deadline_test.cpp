// Deadline: a limit that waiting for a CPU does not use up, within kMaxStretch of its length. The
// stall clock is scripted, so nothing here depends on how busy the machine is.
#include "engine/ipc/deadline.h"

#include <gtest/gtest.h>

#include <memory>
#include <thread>

namespace kta::engine {
namespace {

using namespace std::chrono_literals;

// A stall clock the test advances by hand.
struct ScriptedStall {
  std::shared_ptr<double> seconds = std::make_shared<double>(100.0);
  ipc::StallClock clock() const {
    return [s = seconds] { return std::optional<double>(*s); };
  }
};

void sleep_past(const ipc::Deadline& d) { std::this_thread::sleep_until(d.at() + 1ms); }

TEST(Deadline, WithoutStallItPassesAtItsLength) {
  ScriptedStall stall;
  auto d = ipc::Deadline::after(0.05, stall.clock());
  EXPECT_FALSE(d.passed());
  sleep_past(d);
  EXPECT_TRUE(d.passed());
  EXPECT_EQ(d.timeout_text(), "timeout after 0.05 s");
}

TEST(Deadline, TimeWaitingForACpuStretchesIt) {
  ScriptedStall stall;
  auto d = ipc::Deadline::after(0.05, stall.clock());
  auto first = d.at();
  *stall.seconds += 0.2;  // the machine was busy: 0.2 s of stall since the limit was set
  sleep_past(d);
  EXPECT_FALSE(d.passed()) << "stall time counted against the limit";
  EXPECT_GT(d.at(), first + 150ms);
  sleep_past(d);
  EXPECT_TRUE(d.passed());
  EXPECT_EQ(d.timeout_text(),
            "timeout after 0.05 s (0.25 s in all: the machine's CPUs were busy for 0.2 s of it)");
}

// A candidate that keeps every CPU busy on purpose (so the stall clock runs as fast as the wall
// clock) is still stopped: at kMaxStretch times the limit.
TEST(Deadline, TheStretchIsCapped) {
  ScriptedStall stall;
  auto d = ipc::Deadline::after(0.02, stall.clock());
  *stall.seconds += 1000;
  sleep_past(d);
  EXPECT_FALSE(d.passed());
  sleep_past(d);
  EXPECT_TRUE(d.passed());
  EXPECT_NE(d.timeout_text().find("0.2 s in all"), std::string::npos) << d.timeout_text();
}

TEST(Deadline, WithoutPressureInformationItIsWallTime) {
  auto d = ipc::Deadline::after(0.02, [] { return std::optional<double>(); });
  sleep_past(d);
  EXPECT_TRUE(d.passed());
}

TEST(Deadline, NoLimitNeverPasses) {
  auto d = ipc::Deadline::after(0);
  EXPECT_FALSE(d.passed());
  EXPECT_EQ(d.left(5ms), 5ms);
}

// Where the kernel has PSI (Linux 4.20+ with it enabled), the reading is a plausible count.
TEST(Deadline, PressureStallIsReadWhereTheKernelHasIt) {
  auto s = ipc::cpu_stall_seconds();
  if (!s) GTEST_SKIP() << "no /proc/pressure/cpu on this kernel: limits are wall time here";
  EXPECT_GE(*s, 0.0);
  auto later = ipc::cpu_stall_seconds();
  ASSERT_TRUE(later);
  EXPECT_GE(*later, *s);
}

}  // namespace
}  // namespace kta::engine
