// ChildProcess: a whole process group killed (a grandchild included), reaping with exit status
// and signal names, a wait that times out, TERM before KILL, the destructor's kill and reap,
// forked functions, descriptors and output passed on, start failures named.
#include "engine/ipc/child_process.h"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "engine/ipc/child_status.h"
#include "tests/ipc/ipc_test_support.h"

namespace kta::test {
namespace {

namespace fs = std::filesystem;
namespace ipc = engine::ipc;
using namespace std::chrono_literals;

ipc::SpawnSpec shell(const std::string& script, ipc::Output output = ipc::Output::discard()) {
  ipc::SpawnSpec s;
  s.argv = {"sh", "-c", script};
  s.output = std::move(output);
  return s;
}

// The first line the child wrote to its output pipe (waits for it, patiently).
std::string first_line(const ipc::ChildProcess& c) {
  std::string text;
  auto until = ipc::Clock::now() + 20s;
  while (text.find('\n') == std::string::npos && ipc::Clock::now() < until) {
    if (!ipc::read_available(c.output_fd(), &text, 4096)) break;
  }
  return text.substr(0, text.find('\n'));
}

class ChildProcess : public IpcTest {};

TEST_F(ChildProcess, KillTakesTheWholeGroupWithAGrandchild) {
  ipc::ChildProcess c;
  ASSERT_FALSE(c.spawn(shell("sleep 1000 & echo $!; wait", ipc::Output::to_pipe())));
  EXPECT_EQ(getpgid(c.pid()), c.pid());  // a group of its own
  pid_t grandchild = std::stoi(first_line(c));
  ASSERT_GT(grandchild, 0);
  EXPECT_EQ(getpgid(grandchild), c.pid());
  int status = c.kill();
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
  EXPECT_FALSE(c.running());
  EXPECT_TRUE(reaped(c.pid()));
  EXPECT_TRUE(gone(grandchild)) << "grandchild " << grandchild << " survived the kill";
  EXPECT_TRUE(no_children_left());
}

TEST_F(ChildProcess, ReapsWithTheExitStatusAndNamesSignals) {
  ipc::ChildProcess exits;
  ASSERT_FALSE(exits.spawn(shell("exit 3")));
  int status = exits.wait();
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3);
  EXPECT_EQ(exits.status(), status);
  EXPECT_EQ(exits.ended("helper"), "helper exited with status 3");

  ipc::ChildProcess crashes;
  ASSERT_FALSE(crashes.spawn(shell("kill -SEGV $$")));
  crashes.wait();
  EXPECT_EQ(crashes.ended("worker"), "worker killed by signal 11 (SIGSEGV)");
  EXPECT_EQ(ipc::signal_name(SIGKILL), "SIGKILL");
  EXPECT_TRUE(reaped(exits.pid()));
  EXPECT_TRUE(reaped(crashes.pid()));
  EXPECT_TRUE(no_children_left());
}

TEST_F(ChildProcess, WaitUntilADeadlineThatPasses) {
  ipc::ChildProcess c;
  ASSERT_FALSE(c.spawn(shell("exec sleep 1000")));
  EXPECT_FALSE(c.wait(ipc::Clock::now() + 500ms).has_value());
  EXPECT_FALSE(c.try_wait().has_value());
  EXPECT_TRUE(c.running());
  EXPECT_EQ(c.ended("sleeper"), "sleeper is running");
  c.kill();
  EXPECT_EQ(c.ended("sleeper"), "sleeper killed by signal 9 (SIGKILL)");
  EXPECT_TRUE(reaped(c.pid()));
  EXPECT_TRUE(no_children_left());
}

TEST_F(ChildProcess, TerminateSendsTermFirstAndKillsWhatIgnoresIt) {
  ipc::ChildProcess cooperative;
  ASSERT_FALSE(cooperative.spawn(shell("exec sleep 1000")));
  int status = cooperative.terminate(60s);
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);

  ipc::ChildProcess stubborn;
  ASSERT_FALSE(stubborn.spawn(shell("trap '' TERM; sleep 1000 & echo $!; while :; do sleep 1; done",
                                    ipc::Output::to_pipe())));
  pid_t grandchild = std::stoi(first_line(stubborn));
  status = stubborn.terminate(300ms);
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
  EXPECT_TRUE(gone(grandchild));
  EXPECT_TRUE(reaped(cooperative.pid()));
  EXPECT_TRUE(reaped(stubborn.pid()));
  EXPECT_TRUE(no_children_left());
}

TEST_F(ChildProcess, DestructorKillsAndReaps) {
  pid_t pid = -1, grandchild = -1;
  {
    ipc::ChildProcess c;
    ASSERT_FALSE(c.spawn(shell("sleep 1000 & echo $!; wait", ipc::Output::to_pipe())));
    pid = c.pid();
    grandchild = std::stoi(first_line(c));
  }
  EXPECT_TRUE(reaped(pid));
  EXPECT_TRUE(gone(pid));
  EXPECT_TRUE(gone(grandchild));
  EXPECT_TRUE(no_children_left());
}

TEST_F(ChildProcess, ForkRunsAFunctionInAGroupOfItsOwn) {
  ipc::ChildProcess c;
  ASSERT_FALSE(c.fork([](int out_fd) {
    std::string text = getpgid(0) == getpid() ? "own group" : "shared group";
    return write(out_fd, text.data(), text.size()) == ssize_t(text.size()) ? 5 : 1;
  }));
  std::string out;
  while (ipc::read_available(c.output_fd(), &out, 1000)) {
  }
  int status = c.wait();
  EXPECT_EQ(out, "own group");
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 5);

  ipc::ChildProcess crashes;
  ASSERT_FALSE(crashes.fork([](int) { return raise(SIGSEGV), 0; }));
  crashes.wait();
  EXPECT_EQ(crashes.ended("analyzer"), "analyzer killed by signal 11 (SIGSEGV)");
  EXPECT_TRUE(reaped(c.pid()));
  EXPECT_TRUE(reaped(crashes.pid()));
  EXPECT_TRUE(no_children_left());
}

TEST_F(ChildProcess, PassesDescriptorsTheFolderAndTheOutputFile) {
  fs::path dir = fs::temp_directory_path() / ("kta-ipc-" + std::to_string(std::random_device{}()));
  fs::create_directories(dir);
  int p[2];
  ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
  ipc::SpawnSpec s =
      shell("echo through-3 >&3; echo out; echo err >&2; pwd", ipc::Output::to_file(dir / "log"));
  s.fds = {{p[1], 3}};
  s.cwd = dir;
  s.env = {"PATH=/usr/bin:/bin", "KTA_IPC_TEST=1"};
  ipc::ChildProcess c;
  ASSERT_FALSE(c.spawn(s));
  close(p[1]);
  std::string piped;
  while (ipc::read_available(p[0], &piped, 1000)) {
  }
  close(p[0]);
  EXPECT_EQ(WEXITSTATUS(c.wait()), 0);
  EXPECT_EQ(piped, "through-3\n");
  std::ifstream in(dir / "log");
  std::stringstream log;
  log << in.rdbuf();
  EXPECT_EQ(log.str(), "out\nerr\n" + fs::canonical(dir).string() + "\n");
  fs::remove_all(dir);
}

TEST_F(ChildProcess, StartFailuresNameTheStep) {
  ipc::ChildProcess c;
  auto missing = c.spawn(shell("true"));
  EXPECT_FALSE(missing);
  ipc::SpawnSpec s;
  s.argv = {"kta-no-such-program-xyz"};
  missing = c.spawn(s);
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->step, ipc::StartFailure::Step::program);
  EXPECT_EQ(missing->text("kta-no-such-program-xyz"),
            "cannot run 'kta-no-such-program-xyz': No such file or directory");
  s.env = std::vector<std::string>{"PATH=/usr/bin:/bin"};  // looked up on the child's PATH
  missing = c.spawn(s);
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->step, ipc::StartFailure::Step::program);
  ipc::SpawnSpec nowhere = shell("true");
  nowhere.cwd = "/nonexistent/kta-ipc";
  auto cwd = c.spawn(nowhere);
  ASSERT_TRUE(cwd);
  EXPECT_EQ(cwd->step, ipc::StartFailure::Step::cwd);
  EXPECT_NE(cwd->reason.find("cannot enter /nonexistent/kta-ipc"), std::string::npos)
      << cwd->reason;
  EXPECT_FALSE(c.running());
  EXPECT_TRUE(no_children_left());
}

}  // namespace
}  // namespace kta::test
