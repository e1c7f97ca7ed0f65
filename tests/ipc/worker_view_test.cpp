// The worker's view: without isolation the command is unchanged; with it (where bubblewrap works
// here) the process sees the system's folders and what it was shown, not this test's files, not
// its parent's /proc entry, and only the environment it was given.
#include "engine/ipc/worker_view.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "engine/ipc/command.h"

namespace {

namespace fs = std::filesystem;
using namespace kta::engine::ipc;

TEST(WorkerView, WithoutIsolationTheCommandIsUnchanged) {
  WorkerIsolation none;
  none.why = "bwrap is not installed";
  std::vector<std::string> argv = {"/bin/worker", "--serve"};
  EXPECT_EQ(isolated_argv(none, {}, argv), argv);
  EXPECT_EQ(none.describe(), "none (bwrap is not installed)");
}

TEST(WorkerView, TheEnvironmentIsMinimal) {
  std::vector<std::string> env =
      worker_environment({{"KTA_SECRET", "x"}}, {"KTA_SURELY_UNSET_VARIABLE"});
  for (const std::string& e : env) {
    std::string name = e.substr(0, e.find('='));
    EXPECT_TRUE(name == "PATH" || name == "HOME" || name == "TMPDIR" || name == "LANG") << e;
  }
  EXPECT_NE(std::find(env.begin(), env.end(), "LANG=C.UTF-8"), env.end());
}

TEST(WorkerView, NamedVariablesComeFromTheEngineEnvironmentItIsGiven) {
  std::map<std::string, std::string> engine = {
      {"LANG", "de_DE.UTF-8"}, {"CUDA_VISIBLE_DEVICES", "1"}, {"KTA_SECRET", "x"}, {"EMPTY", ""}};
  std::vector<std::string> env =
      worker_environment(engine, {"CUDA_VISIBLE_DEVICES", "EMPTY", "KTA_SURELY_UNSET_VARIABLE"});
  std::vector<std::string> want = {
      "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/tmp",
      "TMPDIR=/tmp", "LANG=de_DE.UTF-8", "CUDA_VISIBLE_DEVICES=1"};
  EXPECT_EQ(env, want);
}

class Sandboxed : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!worker_isolation().sandboxed) GTEST_SKIP() << worker_isolation().why;
    dir = fs::temp_directory_path() / ("kta-view-" + std::to_string(std::random_device{}()));
    fs::create_directories(dir / "shown");
    fs::create_directories(dir / "hidden");
    std::ofstream(dir / "shown" / "a.txt") << "visible";
    std::ofstream(dir / "hidden" / "secret.txt") << "hush-hush";
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  // Runs a shell line in the view; its output.
  std::string in_view(const std::string& line, const WorkerView& view) {
    CommandOptions o;
    o.env = view.env;
    CommandResult r = run_command(isolated_argv(worker_isolation(), view, {"sh", "-c", line}), o);
    EXPECT_TRUE(r.started) << r.error;
    return r.output;
  }
  fs::path dir;
};

TEST_F(Sandboxed, SeesWhatItIsShownAndNothingElse) {
  WorkerView view;
  view.readable = {dir / "shown"};
  view.env = worker_environment({}, {});
  std::string out = in_view("cat " + (dir / "shown" / "a.txt").string() + "; cat " +
                                (dir / "hidden" / "secret.txt").string() +
                                " 2>&1; ls /usr >/dev/null && echo usr-ok",
                            view);
  EXPECT_NE(out.find("visible"), std::string::npos) << out;
  EXPECT_EQ(out.find("hush-hush"), std::string::npos) << out;
  EXPECT_NE(out.find("usr-ok"), std::string::npos) << out;
  // Shown read-only.
  out = in_view("echo x > " + (dir / "shown" / "b.txt").string() + " 2>&1; echo done", view);
  EXPECT_FALSE(fs::exists(dir / "shown" / "b.txt")) << out;
}

TEST_F(Sandboxed, HasNoParentInItsProcAndOnlyItsEnvironment) {
  WorkerView view;
  view.env = worker_environment({}, {});
  std::string out =
      in_view("test -e /proc/" + std::to_string(getpid()) + " && echo parent-visible; env", view);
  EXPECT_EQ(out.find("parent-visible"), std::string::npos) << out;
  EXPECT_NE(out.find("HOME=/tmp"), std::string::npos) << out;
  EXPECT_EQ(out.find("KTA_CACHE_DIR"), std::string::npos) << out;
}

}  // namespace
