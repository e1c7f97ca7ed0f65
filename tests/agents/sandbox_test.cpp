// The bubblewrap sandbox: the command line kta builds (golden), and, where bwrap works here, what
// an agent inside can and cannot do. Skipped with the reason when bwrap is not usable.
#include "engine/agents/sandbox.h"

#include <algorithm>

#include "engine/agents/process.h"
#include "engine/settings/settings.h"
#include "tests/agents/agents_test_support.h"

namespace {

using namespace kta;
using namespace kta::test;

TEST(Sandbox, CommandLine) {
  engine::SandboxSpec s;
  s.workspace = "/w/run/work/t/a/0";
  // Hidden: existing folders only, and none under /tmp (a fresh tmpfs already).
  s.hidden = {"/usr/share", "/tmp/kta-run", "/no/such/folder"};
  s.writable = {"/no/such/home/.claude"};
  s.network = false;
  std::vector<std::string> want = {"bwrap",
                                   "--ro-bind",
                                   "/",
                                   "/",
                                   "--dev",
                                   "/dev",
                                   "--proc",
                                   "/proc",
                                   "--tmpfs",
                                   "/tmp",
                                   "--tmpfs",
                                   "/usr/share",
                                   "--bind",
                                   "/w/run/work/t/a/0",
                                   "/w/run/work/t/a/0",
                                   "--unshare-pid",
                                   "--die-with-parent",
                                   "--unshare-net",
                                   "--chdir",
                                   "/w/run/work/t/a/0",
                                   "--",
                                   "claude",
                                   "-p",
                                   "hi"};
  EXPECT_EQ(engine::bwrap_argv(s, {"claude", "-p", "hi"}), want);
  s.network = true;
  auto with_net = engine::bwrap_argv(s, {"true"});
  EXPECT_EQ(std::find(with_net.begin(), with_net.end(), "--unshare-net"), with_net.end());
}

// A kta tree under /tmp (a clone in a temporary folder): its files are bound back read-only over
// the private /tmp, and a run folder inside it is hidden again.
TEST(Sandbox, ReadablePathsUnderTmpAreShownAndHiddenFoldersInsideThemStayHidden) {
  fs::path root = scratch_dir("kta-sandbox-tree");
  ASSERT_EQ(root.string().rfind("/tmp/", 0), 0u) << root;
  fs::create_directories(root / "repo" / "runs" / "r1");
  engine::SandboxSpec s;
  s.workspace = root / "repo" / "runs" / "r1" / "work";
  s.hidden = {root / "repo" / "runs" / "r1", root / "elsewhere"};
  fs::create_directories(root / "elsewhere");
  s.readable = {root / "repo", "/usr/bin", root / "missing"};
  s.network = true;
  auto a = engine::bwrap_argv(s, {"true"});
  auto at = [&](const std::vector<std::string>& seq) {
    return std::search(a.begin(), a.end(), seq.begin(), seq.end()) - a.begin();
  };
  auto n = static_cast<std::ptrdiff_t>(a.size());
  auto tmp = at({"--tmpfs", "/tmp"});
  auto shown = at({"--ro-bind", (root / "repo").string(), (root / "repo").string()});
  auto hidden = at({"--tmpfs", (root / "repo" / "runs" / "r1").string()});
  auto ws = at({"--bind", s.workspace.string(), s.workspace.string()});
  ASSERT_LT(shown, n);
  ASSERT_LT(hidden, n);
  ASSERT_LT(ws, n);
  EXPECT_LT(tmp, shown);     // bound back after /tmp is made private
  EXPECT_LT(shown, hidden);  // the run folder inside it hidden again
  EXPECT_LT(hidden, ws);     // and the workspace inside that shown last
  // Outside /tmp nothing needs binding back; a folder under /tmp that nothing shows is hidden
  // already; a missing path is left out.
  EXPECT_EQ(at({"--ro-bind", "/usr/bin", "/usr/bin"}), n);
  EXPECT_EQ(at({"--tmpfs", (root / "elsewhere").string()}), n);
  EXPECT_EQ(at({"--ro-bind", (root / "missing").string(), (root / "missing").string()}), n);
  std::error_code ec;
  fs::remove_all(root, ec);
}

class SandboxRun : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!engine::bwrap_usable(&why, engine::process_environment()))
      GTEST_SKIP() << "bwrap not available: " << why;
    ws = scratch_dir("kta-sandbox-ws");
    // A folder outside /tmp standing for the run folder and the cache: next to this test binary.
    hidden = fs::current_path() / ("sandbox-hidden-" + std::to_string(std::random_device{}()));
    write_file(hidden / "results.db", "SECRET-RUN-DATA\n");
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(ws, ec);
    fs::remove_all(hidden, ec);
  }
  engine::ProcessResult run(const std::string& script, bool network,
                            std::vector<fs::path> more_hidden = {},
                            std::vector<fs::path> readonly = {}) {
    more_hidden.insert(more_hidden.begin(), hidden);
    engine::SandboxSpec s{ws, more_hidden, {}, {}, {}, network};
    s.readonly = std::move(readonly);
    engine::ProcessSpec p;
    p.argv = engine::bwrap_argv(s, {"sh", "-c", script});
    p.env = engine::process_environment();
    p.cwd = ws;
    p.log = hidden.parent_path() / (hidden.filename().string() + ".log");
    p.timeout = std::chrono::seconds(20);
    auto r = engine::run_process(p);
    log = slurp(p.log);
    fs::remove(p.log);
    return r;
  }
  fs::path ws, hidden;
  std::string log;
};

TEST_F(SandboxRun, WorkspaceWritableEverythingElseReadOnlyOrHidden) {
  std::string script = "echo made > made.txt; cat '" + (hidden / "results.db").string() +
                       "' && echo LEAK; echo x > '" + (hidden / "planted.txt").string() +
                       "'; touch /usr/kta-probe 2>/dev/null && echo WROTE-USR; pwd";
  auto r = run(script, false);
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_EQ(r.exit_code, 0) << log;
  EXPECT_EQ(slurp(ws / "made.txt"), "made\n");
  EXPECT_EQ(log.find("SECRET-RUN-DATA"), std::string::npos) << log;
  EXPECT_EQ(log.find("LEAK"), std::string::npos) << log;
  EXPECT_EQ(log.find("WROTE-USR"), std::string::npos) << log;
  EXPECT_NE(log.find(ws.string()), std::string::npos) << log;
  EXPECT_FALSE(fs::exists(hidden / "planted.txt"));  // went to the tmpfs, gone with it
  EXPECT_FALSE(fs::exists("/usr/kta-probe"));
}

TEST_F(SandboxRun, NetworkPolicy) {
  // /proc/net/dev lists the interfaces of the agent's network namespace.
  run("cat /proc/net/dev", false);
  EXPECT_EQ(log.find("eth0"), std::string::npos) << log;
  EXPECT_NE(log.find("lo:"), std::string::npos) << log;
  std::string host = slurp("/proc/net/dev");
  int host_ifaces = static_cast<int>(std::count(host.begin(), host.end(), ':'));
  run("cat /proc/net/dev", true);
  EXPECT_EQ(static_cast<int>(std::count(log.begin(), log.end(), ':')), host_ifaces) << log;
}

TEST_F(SandboxRun, TaskFolderIsReadOnlyEvenForRoot) {
  write_file(ws / "task" / "ref.hip", "// the reference\n");
  fs::permissions(ws / "task" / "ref.hip", fs::perms::owner_all, fs::perm_options::add);
  auto r =
      run("echo tampered > task/ref.hip 2>/dev/null && echo WROTE; echo new > task/new.hip "
          "2>/dev/null && echo CREATED; echo fine > mine.txt; id -u",
          false, {}, {ws / "task"});
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_EQ(log.find("WROTE"), std::string::npos) << log;
  EXPECT_EQ(log.find("CREATED"), std::string::npos) << log;
  EXPECT_EQ(slurp(ws / "task" / "ref.hip"), "// the reference\n");
  EXPECT_FALSE(fs::exists(ws / "task" / "new.hip"));
  EXPECT_EQ(slurp(ws / "mine.txt"), "fine\n");  // the rest of the workspace stays writable
}

TEST_F(SandboxRun, EveryKtaCacheFolderIsHidden) {
  // Two cache folders as a machine may have them: the run's ($KTA_CACHE_DIR) and the default one
  // another run used ($XDG_CACHE_HOME/kta); both are in Settings::cache_dirs and both are hidden.
  fs::path xdg = hidden.parent_path() / (hidden.filename().string() + "-xdg");
  write_file(xdg / "kta" / "reference" / "k.bin", "OTHER-RUN-REFERENCE\n");
  auto dirs =
      engine::settings_from({{"KTA_CACHE_DIR", hidden.string()}, {"XDG_CACHE_HOME", xdg.string()}})
          .cache_dirs;
  ASSERT_GE(dirs.size(), 2u);
  EXPECT_EQ(dirs[0], hidden);
  EXPECT_EQ(dirs[1], xdg / "kta");
  auto r = run("cat '" + (xdg / "kta" / "reference" / "k.bin").string() + "'", false, dirs);
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_EQ(log.find("OTHER-RUN-REFERENCE"), std::string::npos) << log;
  std::error_code ec;
  fs::remove_all(xdg, ec);
}

}  // namespace

namespace {

bool contains(const std::vector<fs::path>& list, const fs::path& p) {
  return std::find(list.begin(), list.end(), p) != list.end();
}

void executable(const fs::path& p, const std::string& text) {
  write_file(p, text);
  fs::permissions(p, fs::perms::owner_all);
}

// A command named without a path is found through PATH before the sandbox starts (its private
// /tmp would hide a CLI installed under /tmp); one named with a path is taken as it is.
TEST(AgentCommand, ResolvedThroughPathFirstMatchWinsMissingIsEmpty) {
  fs::path d = scratch_dir("kta-agent-command");
  executable(d / "a" / "cli", "#!/bin/sh\n");
  executable(d / "b" / "cli", "#!/bin/sh\n");
  write_file(d / "c" / "cli", "not executable\n");
  const std::string path = (d / "c").string() + ":" + (d / "a").string() + ":" + (d / "b").string();
  EXPECT_EQ(engine::resolve_command("cli", path, "/"), d / "a" / "cli");
  EXPECT_EQ(engine::resolve_command("no-such-cli", path, "/"), fs::path());
  EXPECT_EQ(engine::resolve_command((d / "b" / "cli").string(), "", "/"), d / "b" / "cli");
  EXPECT_EQ(engine::resolve_command("b/cli", "", d), d / "b" / "cli");
  EXPECT_EQ(engine::resolve_command("", path, "/"), fs::path());
  fs::remove_all(d);
}

// An npm-installed CLI: node_modules/.bin/tool links to the package's script, whose #! line
// asks env for `node`, itself a link into an installation of its own: the sandbox must show the
// link, the package's node_modules (its dependencies) and the interpreter's installation.
TEST(AgentCommand, AnNpmCliNeedsItsNodeModulesAndItsInterpreter) {
  fs::path d = scratch_dir("kta-agent-needs");
  fs::path mods = d / "tree" / "node_modules";
  executable(mods / "@vendor" / "tool" / "cli.js", "#!/usr/bin/env node\nconsole.log(1)\n");
  fs::create_directories(mods / ".bin");
  fs::create_symlink("../@vendor/tool/cli.js", mods / ".bin" / "tool");
  executable(d / "node-v20" / "bin" / "node", "binary\n");
  fs::create_directories(d / "path");
  fs::create_symlink(d / "node-v20" / "bin" / "node", d / "path" / "node");
  auto needs = engine::command_needs(mods / ".bin" / "tool", (d / "path").string());
  EXPECT_TRUE(contains(needs, mods / ".bin" / "tool"));
  EXPECT_TRUE(contains(needs, fs::canonical(mods / "@vendor" / "tool" / "cli.js")));
  EXPECT_TRUE(contains(needs, fs::canonical(mods)));
  EXPECT_TRUE(contains(needs, d / "path" / "node"));
  EXPECT_TRUE(contains(needs, fs::canonical(d / "node-v20")))
      << "the interpreter's installation, above its bin/";
  // A plain script outside any node_modules: its own folder.
  executable(d / "tools" / "agent.sh", "#!/bin/sh\n");
  needs = engine::command_needs(d / "tools" / "agent.sh", "");
  EXPECT_TRUE(contains(needs, fs::canonical(d / "tools")));
  fs::remove_all(d);
}

}  // namespace
