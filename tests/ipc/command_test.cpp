// run_command: interleaved output, the output cap, a timeout that kills the helper's whole group
// (a grandchild included), leftovers that do not hold it up, a missing program named.
#include "engine/ipc/command.h"

#include <string>

#include "tests/ipc/ipc_test_support.h"

namespace kta::test {
namespace {

namespace ipc = engine::ipc;

class RunCommand : public IpcTest {};

TEST_F(RunCommand, CapturesInterleavedOutputAndTheExitCode) {
  ipc::CommandResult r =
      ipc::run_command({"sh", "-c", "echo out; echo err >&2; echo more; exit 3"});
  EXPECT_TRUE(r.started) << r.error;
  EXPECT_EQ(r.output, "out\nerr\nmore\n");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.signal, 0);
  EXPECT_FALSE(r.timed_out);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(ipc::run_command({"true"}).ok());
  EXPECT_TRUE(no_children_left());
}

TEST_F(RunCommand, KeepsOutputUpToTheCap) {
  ipc::CommandOptions o;
  o.output_cap = 1000;
  ipc::CommandResult r = ipc::run_command({"head", "-c", "300000", "/dev/zero"}, o);
  EXPECT_TRUE(r.ok()) << r.error << r.output;
  EXPECT_EQ(r.output.size(), 1000u);
  EXPECT_TRUE(r.truncated);
  ipc::CommandResult small = ipc::run_command({"echo", "hi"}, o);
  EXPECT_EQ(small.output, "hi\n");
  EXPECT_FALSE(small.truncated);
}

TEST_F(RunCommand, TimeoutKillsTheGroupWithAGrandchild) {
  // A busy machine may reach the limit before the shell printed the grandchild's pid: then the
  // same run again under a longer one (the kill is what is tested, not how fast sh starts).
  ipc::CommandOptions o;
  ipc::CommandResult r;
  for (o.timeout_s = 0.5; o.timeout_s < 100; o.timeout_s *= 4) {
    r = ipc::run_command({"sh", "-c", "sleep 1000 & echo $!; wait"}, o);
    if (!r.output.empty()) break;
  }
  EXPECT_TRUE(r.started);
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.exit_code, -1);
  EXPECT_EQ(r.signal, SIGKILL);
  pid_t grandchild = std::stoi(r.output);
  ASSERT_GT(grandchild, 0);
  EXPECT_TRUE(gone(grandchild)) << "grandchild " << grandchild << " survived the timeout";
  EXPECT_TRUE(no_children_left());
}

TEST_F(RunCommand, LeftoversDoNotHoldItUpAndAreKilled) {
  ipc::CommandOptions o;
  o.timeout_s = 600;  // far beyond what the test may take: it must not wait for the leftover
  auto t0 = std::chrono::steady_clock::now();
  ipc::CommandResult r = ipc::run_command({"sh", "-c", "sleep 1000 & echo $!; exit 0"}, o);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(r.ok()) << r.error;
  EXPECT_FALSE(r.timed_out);
  EXPECT_LT(took, 120.0);
  pid_t leftover = std::stoi(r.output);
  EXPECT_TRUE(gone(leftover));
  EXPECT_TRUE(no_children_left());
}

TEST_F(RunCommand, MissingProgramIsNamed) {
  ipc::CommandResult r = ipc::run_command({"kta-no-such-program-xyz", "--version"});
  EXPECT_FALSE(r.started);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.error, "cannot run 'kta-no-such-program-xyz': No such file or directory");
  EXPECT_TRUE(no_children_left());
}

}  // namespace
}  // namespace kta::test
