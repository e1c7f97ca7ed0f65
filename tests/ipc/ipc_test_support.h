// What the ipc tests share: the test process as the subreaper of its descendants (so that a
// grandchild whose parent died is reaped here, and kill(pid, 0) then tells whether it is gone),
// and patient checks that suit a loaded machine.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <thread>

namespace kta::test {

class IpcTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1), 0); }

  // True once `pid` no longer exists (reaping it when it was handed to this process); waits up
  // to 20 s, since a kill takes effect asynchronously.
  static bool gone(pid_t pid) {
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < until) {
      waitpid(pid, nullptr, WNOHANG);
      if (kill(pid, 0) != 0 && errno == ESRCH) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

  // True when `pid`, a child of this process, was reaped: no zombie of it is left.
  static bool reaped(pid_t pid) { return waitpid(pid, nullptr, WNOHANG) < 0 && errno == ECHILD; }

  // True when no child of this process is left running (waits up to 20 s for killed ones to
  // go). Orphans handed to this process that died are reaped on the way: a zombie of a
  // ChildProcess's own child is what reaped() checks.
  static bool no_children_left() {
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    for (;;) {
      pid_t r = waitpid(-1, nullptr, WNOHANG);
      if (r < 0 && errno == ECHILD) return true;
      if (r == 0) {
        if (std::chrono::steady_clock::now() > until) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
  }
};

}  // namespace kta::test
