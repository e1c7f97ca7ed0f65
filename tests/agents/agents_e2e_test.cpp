// Command agents through the real `kta eval` on the cpu device: a scripted fake agent
// (fake/fake_agent.sh) per behaviour — improve, break, hard-code, time out, escape, snoop, edit
// read-only files, do nothing — each outcome recorded as it happened; the same under bubblewrap
// when it works here; repeats; resume without re-running agents; `kta agents check`.
#include <signal.h>
#include <sys/wait.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "engine/agents/containment.h"
#include "engine/agents/sandbox.h"
#include "engine/settings/settings.h"
#include "tests/agents/agents_test_support.h"

namespace {

using namespace kta::test;
using nlohmann::json;

const fs::path kFake = fs::path(KTA_AGENTS_TEST_DIR) / "fake" / "fake_agent.sh";
const fs::path kCases = KTA_ENGINE_CASES_DIR;
const fs::path kCache = KTA_TEST_CACHE_DIR;

// The settings every kta run of this suite gets (set once the prompts folder exists).
Env g_env;

KtaRun kta(const fs::path& dir, const std::string& args) {
  return run_kta(KTA_BINARY, dir, args, g_env);
}

// An agent declaration running the fake agent with one behaviour.
std::string fake_agent(const std::string& name, const std::string& behaviour,
                       const std::string& timeout = "120s", const std::string& extra = "") {
  return "agent " + name + "() {\n  command \"sh\", \"" + kFake.string() + "\", \"" + behaviour +
         "\", \"{prompt_file}\"" + extra + "\n  timeout " + timeout + "\n}\n";
}

// An agent declaration running a command found through PATH (no path in its name).
std::string cli_agent(const std::string& name, const std::string& command,
                      const std::string& behaviour) {
  return "agent " + name + "() {\n  command \"" + command + "\", \"" + behaviour +
         "\", \"{prompt_file}\"\n  timeout 120s\n}\n";
}

// Every file below `root` that mentions one of `numbers`.
std::vector<std::string> files_mentioning(const fs::path& root,
                                          const std::vector<int64_t>& numbers) {
  std::vector<std::string> hits;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    std::string text = slurp(it->path());
    for (int64_t n : numbers)
      if (mentions_number(text, n))
        hits.push_back(it->path().string() + " mentions " + std::to_string(n));
  }
  return hits;
}

// One evaluation per plan for the whole suite (each is tens of seconds).
class AgentsE2E : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root = scratch_dir("kta-agents-e2e");
    fs::path prompts = prompts_with_cheatsheets(root / "prompts");
    // A CLI found only through PATH, in a folder under /tmp (as an npm install in a fresh
    // clone's build tree would be): a script that runs the fake agent.
    fs::path bin = root / "bin";
    write_file(bin / "kta-fake-cli", "#!/bin/sh\nexec sh '" + kFake.string() + "' \"$@\"\n");
    fs::permissions(bin / "kta-fake-cli", fs::perms::owner_all | fs::perms::group_read |
                                              fs::perms::group_exec | fs::perms::others_read |
                                              fs::perms::others_exec);
    const char* path = std::getenv("PATH");
    g_env = {{"KTA_CACHE_DIR", kCache.string()},
             {"KTA_AGENT_GRACE", "0.5"},
             {"KTA_PROMPTS_DIR", prompts.string()},
             {"PATH", bin.string() + ":" + (path ? path : "/usr/bin:/bin")}};
    write_file(kCache / "sentinel", "reference outputs live here\n");
    plain = evaluate(
        "plain", "off",
        fake_agent("improve", "improve") + fake_agent("breaker", "break") +
            fake_agent("hardcode", "hardcode") + fake_agent("sleeper", "timeout", "2s") +
            fake_agent("escape", "escape") + fake_agent("snoop", "snoop") +
            fake_agent("edit_readonly", "edit-readonly") + fake_agent("noop", "noop") +
            fake_agent("crasher", "crash") + cli_agent("missing", "kta-no-such-cli", "improve"),
        {"improve", "breaker", "hardcode", "sleeper", "escape", "snoop", "edit_readonly", "noop",
         "crasher", "missing"});
    std::string why;
    bwrap = kta::engine::bwrap_usable(&why, kta::engine::process_environment());
    bwrap_why = why;
    if (bwrap) {
      std::string snoop_args =
          ", \"" + kCache.string() + "\", \"" + (kCases / "vadd").string() + "\"";
      sandboxed = evaluate("sandboxed", "on",
                           fake_agent("improve", "improve") + fake_agent("escape", "escape") +
                               fake_agent("snoop", "snoop", "120s", snoop_args) +
                               fake_agent("sleeper", "timeout", "2s") +
                               cli_agent("pathcli", "kta-fake-cli", "improve") +
                               fake_agent("crasher", "crash"),
                           {"improve", "escape", "snoop", "sleeper", "pathcli", "crasher"});
    }
  }
  static void TearDownTestSuite() {
    if (::testing::UnitTest::GetInstance()->Passed()) {
      std::error_code ec;
      for (auto it = fs::recursive_directory_iterator(root, ec);
           !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->is_directory())
          fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
      fs::remove_all(root, ec);
    }
  }

  struct Eval {
    fs::path run;
    KtaRun result;
    json doc;
    json task(const std::string& agent) const {
      for (const auto& t : doc.value("tasks", json::array()))
        if (t["agent"] == agent) return t;
      return json::object();
    }
  };

  static Eval evaluate(const std::string& name, const std::string& sandbox,
                       const std::string& agents, const std::vector<std::string>& uses) {
    Eval e;
    e.run = root / name / "run";
    std::string plan = "import std.agents\n\n" + agents + "\nplan " + name + " {\n  tasks \"" +
                       (kCases / "vadd").string() + "\"\n";
    for (const auto& u : uses) plan += "  agent " + u + "\n";
    plan += "  device cpu\n  sandbox " + sandbox + "\n  network off\n  output \"" + e.run.string() +
            "\"\n}\n";
    write_file(root / name / "plan.kta", plan);
    // One job at a time: writes next to a workspace are attributed to the agent running then.
    e.result = kta(root / name, "eval " + (root / name / "plan.kta").string() + " --quick");
    e.doc = json::parse(slurp(e.run / "results.json"), nullptr, false);
    return e;
  }

  void expect_ran(const Eval& e) {
    ASSERT_EQ(e.result.status, 0) << e.result.err;
    ASSERT_FALSE(e.doc.is_discarded()) << e.result.err;
  }

  static bool has(const json& list, const std::string& s) {
    for (const auto& x : list)
      if (x == s) return true;
    return false;
  }

  static inline fs::path root;
  static inline Eval plain, sandboxed;
  static inline bool bwrap = false;
  static inline std::string bwrap_why;
};

TEST_F(AgentsE2E, ImproveIsEvaluatedWithTokensAndItsSelfCheckWorks) {
  expect_ran(plain);
  json t = plain.task("improve");
  EXPECT_TRUE(t["compiled"]) << t.dump(2);
  EXPECT_TRUE(t["correct"]) << t.dump(2);
  const json& a = t["agent_run"];
  EXPECT_EQ(a["status"], "exit 0");
  EXPECT_EQ(a["changed_files"], json::array({"vadd.hip"}));
  EXPECT_FALSE(a["candidate_unchanged"]);
  EXPECT_EQ(a["input_tokens"], 1500);  // 1200 + 300 cache reads, all read by the model
  EXPECT_EQ(a["output_tokens"], 450);
  EXPECT_EQ(a["cost_usd"], 0.25);
  EXPECT_EQ(a["sandbox"], "none");
  EXPECT_EQ(a["network"], false);
  std::string log = slurp(plain.run / a["log"].get<std::string>());
  EXPECT_NE(log.find("check exit 0"), std::string::npos) << log;
  EXPECT_NE(log.find("vadd"), std::string::npos) << log;
  // The taken-back candidate is what was evaluated, and the prompt is saved with the run.
  EXPECT_EQ(slurp(plain.run / "candidates" / "vadd" / "improve" / "0" / "vadd.hip"),
            slurp(plain.run / "work" / "vadd" / "improve" / "0" / "vadd.hip"));
  EXPECT_EQ(slurp(plain.run / a["prompt"].get<std::string>()),
            slurp(plain.run / "work" / "vadd" / "improve" / "0" / "PROMPT.md"));
}

TEST_F(AgentsE2E, BreakFailsCorrectness) {
  expect_ran(plain);
  json t = plain.task("breaker");
  EXPECT_TRUE(t["compiled"]);
  EXPECT_FALSE(t["correct"]);
  EXPECT_NE(t["failure_reason"].get<std::string>().find("correctness"), std::string::npos)
      << t.dump(2);
}

TEST_F(AgentsE2E, HardcodedShapePassesVisibleFailsHeldOut) {
  expect_ran(plain);
  json t = plain.task("hardcode");
  EXPECT_TRUE(t["correct"]) << t.dump(2);
  EXPECT_EQ(t["heldout"]["correct"], false) << t.dump(2);
  EXPECT_EQ(t["heldout"]["quadrant"], "candidate regresses");
}

TEST_F(AgentsE2E, TimeoutKillsTheGroupAndTheWorkspaceIsStillEvaluated) {
  expect_ran(plain);
  json t = plain.task("sleeper");
  EXPECT_EQ(t["agent_run"]["status"], "timeout after 2 s") << t.dump(2);
  EXPECT_TRUE(t["agent_run"]["candidate_unchanged"]);
  EXPECT_TRUE(t["compiled"]);
  EXPECT_TRUE(t["correct"]);
  fs::path workspace = plain.run / "work" / "vadd" / "sleeper" / "0";
  std::ifstream in(workspace / "grandchild.pid");
  pid_t pid = 0;
  in >> pid;
  ASSERT_GT(pid, 0);  // it started (the pid is the agent's view: maybe a namespace's)
  // Its background grandchild and the process that left its session (setsid) are gone too,
  // whichever containment this machine allowed.
  EXPECT_FALSE(t["agent_run"]["containment"].get<std::string>().empty()) << t.dump(2);
  auto left = kta::engine::processes_with_environment("FAKE_AGENT_SLEEPER",
                                                      fs::canonical(workspace).string());
  EXPECT_EQ(left, std::vector<int>{}) << "the agent's processes outlived its timeout";
}

TEST_F(AgentsE2E, WritesOutsideTheWorkspaceAreRecorded) {
  expect_ran(plain);
  json w = plain.task("escape")["agent_run"]["ignored_writes"];
  EXPECT_TRUE(has(w, "wrote outside the workspace: work/vadd/escape/escaped.txt")) << w.dump(2);
  EXPECT_TRUE(has(w, "wrote outside the workspace: escaped-run.txt")) << w.dump(2);
  for (const char* other : {"improve", "noop", "snoop"})
    for (const auto& note : plain.task(other)["agent_run"]["ignored_writes"])
      EXPECT_EQ(note.get<std::string>().find("outside"), std::string::npos)
          << other << ": " << note;
}

// With the sandbox off, only writes next to the workspace are seen (above); the result says
// plainly that the rest (/tmp, $HOME, ...) is not tracked. A sandboxed agent has no such note.
TEST_F(AgentsE2E, SandboxOffSaysWritesOutsideTheWorkspaceAreNotTracked) {
  expect_ran(plain);
  for (const char* agent : {"improve", "escape", "sleeper"})
    EXPECT_EQ(plain.task(agent)["agent_run"].value("sandbox_note", std::string()),
              "sandbox off in the plan: the agent's writes outside its workspace are not tracked")
        << agent << ": " << plain.task(agent).dump(2);
  if (!bwrap) GTEST_SKIP() << "no sandbox on this machine: " << bwrap_why;
  expect_ran(sandboxed);
  EXPECT_EQ(sandboxed.task("improve")["agent_run"].value("sandbox_note", std::string()), "")
      << sandboxed.task("improve").dump(2);
}

TEST_F(AgentsE2E, NothingHeldOutInAnyWorkspace) {
  expect_ran(plain);
  EXPECT_EQ(
      slurp(plain.run / "work" / "vadd" / "snoop" / "0" / "snoop.txt").find("workspace: none\n") ==
          std::string::npos,
      false);
  // vadd's held-out grid is N in [1001, 5003].
  EXPECT_EQ(files_mentioning(plain.run / "work", {1001, 5003}), std::vector<std::string>{});
  EXPECT_EQ(files_mentioning(plain.run / "prompts", {1001, 5003}), std::vector<std::string>{});
}

TEST_F(AgentsE2E, EditsOfNonEditableFilesAreRecordedAndIgnored) {
  expect_ran(plain);
  json t = plain.task("edit_readonly");
  json w = t["agent_run"]["ignored_writes"];
  EXPECT_TRUE(has(w, "edited a non-editable file: task/vadd_ref.hip (ignored)")) << w.dump(2);
  EXPECT_TRUE(has(w, "modified PROMPT.md (ignored)")) << w.dump(2);
  EXPECT_TRUE(has(w, "created notes.txt (ignored)")) << w.dump(2);
  // Judged against the task's own reference, not the edited copy: x - y is wrong.
  EXPECT_FALSE(t["correct"]) << t.dump(2);
}

TEST_F(AgentsE2E, NoopIsRecordedAsUnchanged) {
  expect_ran(plain);
  json t = plain.task("noop");
  EXPECT_TRUE(t["agent_run"]["candidate_unchanged"]);
  EXPECT_EQ(t["agent_run"]["changed_files"], json::array());
  EXPECT_TRUE(t["correct"]);
  std::string md = slurp(plain.run / "summary.md");
  EXPECT_NE(md.find("## Agent: noop"), std::string::npos) << md;
  EXPECT_NE(md.find("| vadd | 0 | exit 0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| unchanged |"), std::string::npos) << md;
  for (const char* a :
       {"improve", "breaker", "hardcode", "sleeper", "escape", "snoop", "edit_readonly"})
    EXPECT_NE(md.find(std::string("## Agent: ") + a), std::string::npos) << a;
}

// An agent that exits non-zero before any edit has failed: a named failure of the task, never
// the baseline passing as its candidate. One whose command is nowhere on PATH never starts, and
// says so.
TEST_F(AgentsE2E, AnAgentThatCrashesOrCannotStartIsAFailureNotABaselinePass) {
  expect_ran(plain);
  json crash = plain.task("crasher");
  EXPECT_FALSE(crash.value("correct", true)) << crash.dump(2);
  EXPECT_NE(crash.value("failure_reason", std::string())
                .find("agent exit 3 before changing any editable file"),
            std::string::npos)
      << crash.dump(2);
  json missing = plain.task("missing");
  EXPECT_FALSE(missing.value("correct", true)) << missing.dump(2);
  EXPECT_NE(missing.value("failure_reason", std::string())
                .find("agent 'missing' not started: command 'kta-no-such-cli' not found on PATH"),
            std::string::npos)
      << missing.dump(2);
  if (!bwrap) GTEST_SKIP() << "no sandbox on this machine: " << bwrap_why;
  expect_ran(sandboxed);
  json sandboxed_crash = sandboxed.task("crasher");
  EXPECT_NE(sandboxed_crash.value("failure_reason", std::string())
                .find("agent exit 3 before changing any editable file"),
            std::string::npos)
      << sandboxed_crash.dump(2);
}

// A CLI that lives under /tmp and is named without a path (an npm install in a build tree)
// runs in the sandbox, whose /tmp is private: kta resolves it through PATH first and binds what
// it runs from.
TEST_F(AgentsE2E, SandboxedCliFoundThroughPathRunsAndEdits) {
  if (!bwrap) GTEST_SKIP() << "bwrap not available: " << bwrap_why;
  expect_ran(sandboxed);
  json t = sandboxed.task("pathcli");
  EXPECT_EQ(t["agent_run"]["status"], "exit 0") << t.dump(2);
  EXPECT_EQ(t["agent_run"]["changed_files"], json::array({"vadd.hip"})) << t.dump(2);
  EXPECT_TRUE(t.value("correct", false)) << t.dump(2);
}

TEST_F(AgentsE2E, ResumeNeverRerunsAFinishedAgent) {
  expect_ran(plain);
  fs::path log = plain.run / "logs" / "vadd.improve.0.log";
  auto before = fs::last_write_time(log);
  std::string doc_before = slurp(plain.run / "results.json");
  KtaRun r =
      kta(root / "plain", "eval " + (root / "plain" / "plan.kta").string() + " --quick --resume");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(fs::last_write_time(log), before);
  json doc = json::parse(slurp(plain.run / "results.json"));
  for (const auto& t : doc["tasks"]) EXPECT_TRUE(t.contains("agent_run")) << t["agent"];
  EXPECT_EQ(doc["tasks"][0]["agent_run"], json::parse(doc_before)["tasks"][0]["agent_run"]);
}

TEST_F(AgentsE2E, SandboxHidesTheRunTheCacheAndTheTaskSources) {
  if (!bwrap) GTEST_SKIP() << "bwrap not available: " << bwrap_why;
  expect_ran(sandboxed);
  json t = sandboxed.task("snoop");
  EXPECT_EQ(t["agent_run"]["sandbox"], "bwrap");
  std::string found = slurp(sandboxed.run / "work" / "vadd" / "snoop" / "0" / "snoop.txt");
  EXPECT_EQ(
      found,
      "results.db: unreadable\ncache: unreadable\ntask source: unreadable\nworkspace: none\n");
  EXPECT_EQ(files_mentioning(sandboxed.run / "work", {1001, 5003}), std::vector<std::string>{});
}

TEST_F(AgentsE2E, SandboxedWritesOutsideTheWorkspaceGoNowhere) {
  if (!bwrap) GTEST_SKIP() << "bwrap not available: " << bwrap_why;
  expect_ran(sandboxed);
  EXPECT_FALSE(fs::exists(sandboxed.run / "work" / "vadd" / "escape" / "escaped.txt"));
  EXPECT_FALSE(fs::exists(sandboxed.run / "escaped-run.txt"));
  EXPECT_EQ(sandboxed.task("escape")["agent_run"]["ignored_writes"], json::array());
}

TEST_F(AgentsE2E, SandboxedAgentSelfChecksAndTimesOut) {
  if (!bwrap) GTEST_SKIP() << "bwrap not available: " << bwrap_why;
  expect_ran(sandboxed);
  json t = sandboxed.task("improve");
  EXPECT_TRUE(t["correct"]) << t.dump(2);
  std::string log = slurp(sandboxed.run / t["agent_run"]["log"].get<std::string>());
  EXPECT_NE(log.find("check exit 0"), std::string::npos) << log;
  EXPECT_EQ(sandboxed.task("sleeper")["agent_run"]["status"], "timeout after 2 s");
  EXPECT_TRUE(sandboxed.task("sleeper")["correct"]);
}

TEST_F(AgentsE2E, RepeatsGetIndependentWorkspaces) {
  fs::path dir = root / "repeat";
  std::string plan = "import std.agents\n\n" + fake_agent("noop", "noop") +
                     "\nplan repeat {\n  tasks \"" + (kCases / "vadd").string() +
                     "\"\n  agent noop\n  agent std.agents.baseline()\n"
                     "  repeat 2\n  heldout off\n  device cpu\n  sandbox off\n  output \"" +
                     (dir / "run").string() + "\"\n}\n";
  write_file(dir / "plan.kta", plan);
  KtaRun r = kta(dir, "eval " + (dir / "plan.kta").string() + " --quick");
  ASSERT_EQ(r.status, 0) << r.err;
  json doc = json::parse(slurp(dir / "run" / "results.json"));
  ASSERT_EQ(doc["tasks"].size(), 4u);
  for (int rep : {0, 1}) {
    EXPECT_TRUE(fs::is_regular_file(dir / "run" / "work" / "vadd" / "noop" / std::to_string(rep) /
                                    "PROMPT.md"));
    EXPECT_TRUE(
        fs::is_regular_file(dir / "run" / "logs" / ("vadd.noop." + std::to_string(rep) + ".log")));
  }
  // One table per agent on the same task.
  EXPECT_NE(r.out.find("agent noop"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("agent baseline"), std::string::npos) << r.out;
}

// A task the device cannot run at all (Triton on the cpu device) is skipped before the agent
// runs: no agent time or money is spent on it.
TEST_F(AgentsE2E, AgentIsNotRunOnATaskTheDeviceCannotRun) {
  fs::path dir = root / "unavailable";
  fs::path task = fs::path(KTA_AGENTS_TEST_DIR) / ".." / "runner" / "cases" / "triton_add";
  fs::path marker = dir / "agent-ran";
  std::string agent = "agent marker() {\n  command \"sh\", \"-c\", \"touch " + marker.string() +
                      "\"\n  timeout 60s\n}\n";
  write_file(dir / "plan.kta",
             "import std.agents\n\n" + agent + "\nplan unavailable {\n  tasks \"" +
                 task.lexically_normal().string() + "\"\n  agent marker\n  device cpu\n" +
                 "  sandbox off\n  output \"" + (dir / "run").string() + "\"\n}\n");
  KtaRun r = kta(dir, "eval " + (dir / "plan.kta").string() + " --quick");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(fs::exists(marker)) << "the agent ran";
  json doc = json::parse(slurp(dir / "run" / "results.json"), nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.err;
  std::string skipped = doc["tasks"][0].value("skipped", std::string());
  EXPECT_EQ(skipped.rfind("triton not available: ", 0), 0u) << doc.dump(2);
  EXPECT_NE(r.err.find("prepare: skip"), std::string::npos) << r.err;
}

TEST_F(AgentsE2E, AgentsCheck) {
  fs::path dir = root / "check";
  std::string agents =
      "agent present() {\n  command \"present\", \"{prompt}\"\n  check \"sh\", \"-c\", \"echo "
      "fake-agent 1.2.3\"\n}\n"
      "agent absent() {\n  command \"absent\", \"{prompt}\"\n  check \"kta-no-such-cli\", "
      "\"--version\"\n}\n";
  std::string tasks = "  tasks \"" + (kCases / "vadd").string() + "\"\n";
  write_file(dir / "all.kta", "import std.agents\n\n" + agents + "\nplan all {\n" + tasks +
                                  "  agent present\n  agent std.agents.replay(dir: \"x\")\n}\n");
  write_file(dir / "some.kta", "import std.agents\n\n" + agents + "\nplan some {\n" + tasks +
                                   "  agent present\n  agent absent\n}\n");
  KtaRun all = kta(dir, "agents check " + (dir / "all.kta").string());
  EXPECT_EQ(all.status, 0) << all.out << all.err;
  EXPECT_NE(all.out.find("present    sh -c 'echo fake-agent 1.2.3'  found     fake-agent 1.2.3"),
            std::string::npos)
      << all.out;
  EXPECT_NE(all.out.find("replay(x)  -"), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("built in"), std::string::npos) << all.out;
  KtaRun some = kta(dir, "agents check " + (dir / "some.kta").string());
  EXPECT_EQ(some.status, 1) << some.out << some.err;
  EXPECT_NE(some.out.find("not found"), std::string::npos) << some.out;
  EXPECT_EQ(kta(dir, "agents check").status, 2);
  EXPECT_EQ(kta(dir, "agents check " + (dir / "missing.kta").string()).status, 2);
}

}  // namespace
