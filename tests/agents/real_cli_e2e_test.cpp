// The real agent CLIs (Claude Code, Codex, Gemini CLI, as cmake/setup.sh installs them from the
// npm registry) through the real `kta eval` on the cpu device, each pointed by its std.agents
// declaration's `endpoint` at the scripted model server (model_server/): the model reads the
// task's kernel and writes an improved one with the CLI's own tools; other scripts make tool
// calls that fail and edit nothing, loop until the timeout, write a broken kernel, hard-code the
// visible shapes, or read what the sandbox hides. Plain and under bubblewrap.
// Checked: the candidate is the CLI's edit, tokens and cost recorded (the CLI's own or computed
// from the declaration's prices, marked), failed tool calls counted, nothing held out in any
// request the model received, the timeout ends the CLI's whole tree, the CLI's home and logs in
// the run folder and none of it in the user's home, the user's login copied in and removed after.
// Skipped, with the reason, where the CLIs are not installed.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <thread>

#include "engine/agents/sandbox.h"
#include "engine/settings/settings.h"
#include "tests/agents/agents_test_support.h"
#include "tests/agents/cli_install.h"
#include "tests/support/time_scale.h"

extern char** environ;

namespace {

using namespace kta::test;
using nlohmann::json;

const fs::path kAgents = KTA_AGENTS_TEST_DIR;
const fs::path kCases = KTA_ENGINE_CASES_DIR;
const fs::path kCache = KTA_TEST_CACHE_DIR;

const char* const kClis[] = {"claude", "codex", "gemini"};

// vadd with `body` (i is the element), as the scripted model writes it.
std::string vadd_kernel(const std::string& body) {
  return "// written by the scripted model\n#include <hip/hip_runtime.h>\n#include <stdint.h>\n\n"
         "__global__ void vadd(const float* x, const float* y, float* z, int64_t n) {\n"
         "  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;\n  " +
         body + "\n}\n";
}
const std::string kImproved = vadd_kernel("if (i < n) z[i] = y[i] + x[i];");
const std::string kBroken = vadd_kernel("if (i < n) z[i] = x[i] - y[i];");
// Right on the visible sizes (1024, 4096) only: the held-out ones catch it.
const std::string kHardcoded =
    vadd_kernel("if (n != 1024 && n != 4096) return;\n  if (i < n) z[i] = x[i] + y[i];");

// A model server on a free loopback port, serving one script, logging every request.
class ModelServer {
 public:
  ModelServer(const fs::path& dir, const json& script) : dir_(dir) {
    write_file(dir / "script.json", script.dump(2));
    std::string server = (kAgents / "model_server" / "model_server.py").string();
    std::vector<std::string> args = {
        "python3", server,         "--script",    (dir / "script.json").string(),
        "--log",   log().string(), "--port-file", (dir / "port").string()};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawnp(&pid_, "python3", nullptr, nullptr, argv.data(), environ) != 0) pid_ = 0;
    // Until it listens (it writes the port then); bounded far past any loaded machine's start.
    auto bound =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(scaled_seconds(120));
    while (pid_ > 0 && !fs::exists(dir / "port") && std::chrono::steady_clock::now() < bound)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    port_ = std::atoi(slurp(dir / "port").c_str());
  }
  ~ModelServer() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  bool up() const { return port_ > 0; }
  fs::path log() const { return dir_ / "requests.jsonl"; }

 private:
  fs::path dir_;
  pid_t pid_ = 0;
  int port_ = 0;
};

json turn(json action, int input = 1000, int output = 100) {
  action["usage"] = {{"input", input}, {"output", output}};
  return action;
}

// Processes whose working folder is under `root` (a CLI or a child it left behind).
std::vector<std::string> processes_in(const fs::path& root) {
  std::vector<std::string> found;
  std::string prefix = fs::weakly_canonical(root).string();
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    fs::path cwd = fs::read_symlink(e.path() / "cwd", ec);
    if (!ec && cwd.string().starts_with(prefix))
      found.push_back(name + " in " + cwd.string() + ": " + slurp(e.path() / "comm"));
  }
  return found;
}

class RealCli : public ::testing::Test {
 protected:
  // The agent uses of one plan: per CLI, the improve, the failing and the looping script.
  struct Eval {
    fs::path run;
    KtaRun result;
    json doc;
    json task(const std::string& label) const {
      for (const auto& t : doc.value("tasks", json::array()))
        if (t["agent"] == label) return t;
      return json::object();
    }
  };

  static void SetUpTestSuite() {
    for (const char* cli : kClis) {
      AgentCli found = find_agent_cli(cli);
      if (!found.missing.empty()) {
        missing = found.missing;
        return;
      }
    }
    root = scratch_dir("kta-real-cli");
    fs::path prompts = prompts_with_cheatsheets(root / "prompts");
    user_home = root / "user-home";
    fs::create_directories(user_home);
    write_file(user_home / ".codex" / "auth.json", "{\"OPENAI_API_KEY\": \"login-secret\"}\n");
    env = {{"KTA_CACHE_DIR", kCache.string()},    {"KTA_AGENT_GRACE", "2"},
           {"KTA_PROMPTS_DIR", prompts.string()}, {"PATH", agent_clis_path()},
           {"HOME", user_home.string()},          {"ANTHROPIC_API_KEY", "test-anthropic-key"},
           {"OPENAI_API_KEY", "test-openai-key"}, {"GEMINI_API_KEY", "test-gemini-key"}};
    json improve = {
        {"turns",
         {turn({{"read", "vadd.hip"}}), turn({{"write", "vadd.hip"}, {"content", kImproved}}),
          turn({{"text", "vadd.hip is improved."}})}}};
    json failing = {{"turns",
                     {turn({{"shell", "echo failing on purpose; exit 3"}}),
                      turn({{"read", "does_not_exist.txt"}}), turn({{"text", "I could not."}})}}};
    json loop = {{"turns", {turn({{"repeat", {{"shell", "sleep 2"}}}})}}};
    auto writes = [](const std::string& kernel) {
      return json{
          {"turns",
           {turn({{"read", "vadd.hip"}}), turn({{"write", "vadd.hip"}, {"content", kernel}}),
            turn({{"text", "Done."}})}}};
    };
    // Reads what the sandbox hides (the task's sources with the reference, kta's cache), sends it
    // to the model, and keeps a copy in the workspace.
    std::string snoop = "cat " + (kCases / "vadd" / "vadd_ref.hip").string() + " " +
                        (kCache / "sentinel").string() + " > snooped.txt 2>&1; cat snooped.txt";
    json escape = {{"turns", {turn({{"shell", snoop}}), turn({{"text", "Done."}})}}};
    write_file(kCache / "sentinel", "reference outputs live here\n");
    servers.emplace_back(std::make_unique<ModelServer>(root / "server-improve", improve));
    servers.emplace_back(std::make_unique<ModelServer>(root / "server-failing", failing));
    servers.emplace_back(std::make_unique<ModelServer>(root / "server-loop", loop));
    servers.emplace_back(std::make_unique<ModelServer>(root / "server-broken", writes(kBroken)));
    servers.emplace_back(
        std::make_unique<ModelServer>(root / "server-hardcode", writes(kHardcoded)));
    servers.emplace_back(std::make_unique<ModelServer>(root / "server-escape", escape));
    for (const auto& s : servers)
      if (!s->up()) {
        missing = "the model server did not start";
        return;
      }
    plain = evaluate("plain", "off", true);
    std::string why;
    bwrap = kta::engine::bwrap_usable(&why, kta::engine::process_environment());
    bwrap_why = why;
    if (bwrap) sandboxed = evaluate("sandboxed", "on", false);
  }
  static void TearDownTestSuite() {
    servers.clear();
    if (!root.empty() && ::testing::UnitTest::GetInstance()->Passed()) {
      std::error_code ec;
      fs::remove_all(root, ec);
    }
  }
  void SetUp() override {
    if (!missing.empty()) GTEST_SKIP() << missing;
  }

  // One `agent` line per CLI and script: the labels are claude_code, claude_code-2, ... in order.
  static std::string use(const std::string& cli, const ModelServer& server,
                         const std::string& timeout = "600s") {
    std::string endpoint = "endpoint: \"" + server.url() + "\", timeout: " + timeout;
    if (cli == "claude")
      return "std.agents.claude_code(model: \"claude-opus-4-5\", " + endpoint + ")";
    if (cli == "codex")
      return "std.agents.codex(model: \"kta-model\", model_catalog: \"" +
             (kAgents / "model_server" / "codex_model_catalog.json").string() + "\", " + endpoint +
             ")";
    return "std.agents.gemini_cli(model: \"gemini-2.5-pro\", " + endpoint + ")";
  }
  static std::string label(const std::string& cli, int nth) {
    std::string base = cli == "claude" ? "claude_code" : cli == "codex" ? "codex" : "gemini_cli";
    return nth == 0 ? base : base + "-" + std::to_string(nth + 1);
  }

  static Eval evaluate(const std::string& name, const std::string& sandbox, bool all_scripts) {
    Eval e;
    e.run = root / name / "run";
    std::string plan = "import std.agents\n\nplan " + name + " {\n  tasks \"" +
                       (kCases / "vadd").string() + "\"\n";
    for (const char* cli : kClis) {
      plan += "  agent " + use(cli, *servers[0]) + "\n";
      if (all_scripts) plan += "  agent " + use(cli, *servers[1]) + "\n";
      if (all_scripts || std::string(cli) == "claude")
        plan += "  agent " + use(cli, *servers[2], "8s") + "\n";
    }
    // One CLI each: a broken kernel (codex-2 / -3), a hard-coded shape (gemini_cli-4 plain), a
    // look at what the sandbox hides (claude_code-3 sandboxed).
    if (all_scripts) {
      plan += "  agent " + use("codex", *servers[3]) + "\n";
      plan += "  agent " + use("gemini", *servers[4]) + "\n";
    } else {
      plan += "  agent " + use("claude", *servers[5]) + "\n";
    }
    // The model server is on this machine's loopback: the agent needs the network namespace.
    plan += "  device cpu\n  sandbox " + sandbox + "\n  network on\n  output \"" + e.run.string() +
            "\"\n}\n";
    write_file(root / name / "plan.kta", plan);
    e.result = run_kta(KTA_BINARY, root / name,
                       "eval " + (root / name / "plan.kta").string() + " --quick", env);
    e.doc = json::parse(slurp(e.run / "results.json"), nullptr, false);
    return e;
  }

  static void expect_ran(const Eval& e) {
    ASSERT_EQ(e.result.status, 0) << e.result.err;
    ASSERT_FALSE(e.doc.is_discarded()) << e.result.err;
  }

  // The improve runs of `e`: the candidate is the CLI's edit, tokens and cost recorded, the CLI's
  // home in the run folder.
  static void expect_improved(const Eval& e, const std::string& cli, const std::string& label) {
    SCOPED_TRACE(cli);
    json t = e.task(label);
    const json& a = t["agent_run"];
    EXPECT_EQ(a["status"], "exit 0") << t.dump(2);
    EXPECT_EQ(slurp(e.run / "candidates" / "vadd" / label / "0" / "vadd.hip"), kImproved);
    EXPECT_EQ(a["changed_files"], json::array({"vadd.hip"})) << a.dump(2);
    EXPECT_TRUE(t["correct"]) << t.dump(2);
    // Three turns of 1000 input and 100 output tokens each, as the script reported them.
    EXPECT_EQ(a["input_tokens"], 3000) << a.dump(2);
    EXPECT_EQ(a["output_tokens"], 300) << a.dump(2);
    ASSERT_TRUE(a["cost_usd"].is_number()) << a.dump(2);
    if (cli == "claude") {
      EXPECT_FALSE(a["cost_computed"]) << "Claude Code reports its own cost";
      EXPECT_GT(a["cost_usd"].get<double>(), 0);
    } else {
      // The declaration's prices: codex 1.25 / 10, gemini_cli 1.25 / 10 dollars per Mtok.
      EXPECT_TRUE(a["cost_computed"]) << a.dump(2);
      EXPECT_NEAR(a["cost_usd"].get<double>(), (3000 * 1.25 + 300 * 10.0) / 1e6, 1e-12);
    }
    EXPECT_EQ(a["failed_tool_calls"], 0) << a.dump(2);
    fs::path home = e.run / "homes" / "vadd" / label / "0";
    const char* kept = cli == "claude" ? ".claude" : cli == "codex" ? ".codex/sessions" : ".gemini";
    EXPECT_TRUE(fs::exists(home / kept)) << home / kept;
    EXPECT_FALSE(fs::exists(home / ".codex" / "auth.json")) << "the copied login stays behind";
  }

  static inline fs::path root, user_home;
  static inline std::string missing;
  static inline Env env;
  static inline std::vector<std::unique_ptr<ModelServer>> servers;
  static inline Eval plain, sandboxed;
  static inline bool bwrap = false;
  static inline std::string bwrap_why;
};

TEST_F(RealCli, EachCliEditsTheKernelWithItsOwnToolsAndIsJudged) {
  expect_ran(plain);
  for (const char* cli : kClis) expect_improved(plain, cli, label(cli, 0));
}

TEST_F(RealCli, FailedToolCallsAndNoEditAreRecordedNotASuccessfulEdit) {
  expect_ran(plain);
  for (const char* cli : kClis) {
    SCOPED_TRACE(cli);
    json t = plain.task(label(cli, 1));
    const json& a = t["agent_run"];
    EXPECT_EQ(a["status"], "exit 0") << t.dump(2);
    EXPECT_TRUE(a["candidate_unchanged"]) << a.dump(2);
    EXPECT_EQ(a["changed_files"], json::array()) << a.dump(2);
    // Gemini CLI marks only the failed read as failed (a shell's exit status is the model's to
    // read); Claude Code and Codex mark both.
    ASSERT_TRUE(a["failed_tool_calls"].is_number()) << a.dump(2);
    EXPECT_GE(a["failed_tool_calls"].get<int>(), std::string(cli) == "gemini" ? 1 : 2) << a.dump(2);
    EXPECT_GE(a["tool_calls"].get<int>(), 2) << a.dump(2);
    // The run's summary says so, plainly.
    std::string summary = a.value("summary", "");
    EXPECT_NE(summary.find("candidate unchanged from the baseline"), std::string::npos) << summary;
    EXPECT_NE(summary.find("tool calls failed"), std::string::npos) << summary;
  }
}

TEST_F(RealCli, TheTimeoutEndsTheCliAndEverythingItStarted) {
  expect_ran(plain);
  for (const char* cli : kClis) {
    SCOPED_TRACE(cli);
    json t = plain.task(label(cli, 2));
    EXPECT_EQ(t["agent_run"]["status"], "timeout after 8 s") << t.dump(2);
    EXPECT_TRUE(t["agent_run"]["candidate_unchanged"]) << t.dump(2);
  }
  EXPECT_EQ(processes_in(plain.run), std::vector<std::string>{});
}

TEST_F(RealCli, NothingHeldOutReachesTheModel) {
  expect_ran(plain);
  // vadd's held-out grid is N in [1001, 5003]: in no request of any CLI (its prompt, the files it
  // read, the tool output it sent back). The visible sizes are there: the check can see.
  bool visible_seen = false;
  for (const auto& s : servers) {
    std::string requests = slurp(s->log());
    EXPECT_FALSE(mentions_number(requests, 1001)) << s->log();
    EXPECT_FALSE(mentions_number(requests, 5003)) << s->log();
    visible_seen = visible_seen || mentions_number(requests, 4096);
  }
  EXPECT_TRUE(visible_seen) << "the prompt's visible shapes never reached the model server";
}

TEST_F(RealCli, ABrokenKernelFailsAndAHardcodedShapeFailsHeldOut) {
  expect_ran(plain);
  json broken = plain.task(label("codex", 3));
  EXPECT_EQ(slurp(plain.run / "candidates" / "vadd" / label("codex", 3) / "0" / "vadd.hip"),
            kBroken);
  EXPECT_TRUE(broken["compiled"]) << broken.dump(2);
  EXPECT_FALSE(broken["correct"]) << broken.dump(2);
  json hardcoded = plain.task(label("gemini", 3));
  EXPECT_EQ(slurp(plain.run / "candidates" / "vadd" / label("gemini", 3) / "0" / "vadd.hip"),
            kHardcoded);
  EXPECT_TRUE(hardcoded["correct"]) << hardcoded.dump(2);
  EXPECT_EQ(hardcoded["heldout"]["correct"], false) << hardcoded.dump(2);
}

TEST_F(RealCli, TheClisHomesAreInTheRunFolderNotTheUsers) {
  expect_ran(plain);
  for (const char* dir : {".claude", ".claude.json", ".codex/sessions", ".gemini"})
    EXPECT_FALSE(fs::exists(user_home / dir)) << user_home / dir << " written by a CLI";
  // The login kta copied in for the run is gone from it; the user's own is untouched.
  EXPECT_EQ(slurp(user_home / ".codex" / "auth.json"), "{\"OPENAI_API_KEY\": \"login-secret\"}\n");
}

TEST_F(RealCli, UnderTheSandboxEachCliEditsAndTimesOut) {
  if (!bwrap) GTEST_SKIP() << "no sandbox on this machine: " << bwrap_why;
  expect_ran(sandboxed);
  for (const char* cli : kClis) {
    expect_improved(sandboxed, cli, label(cli, 0));
    EXPECT_EQ(sandboxed.task(label(cli, 0))["agent_run"]["sandbox"], "bwrap");
  }
  EXPECT_EQ(sandboxed.task(label("claude", 1))["agent_run"]["status"], "timeout after 8 s");
  EXPECT_EQ(processes_in(sandboxed.run), std::vector<std::string>{});
  // The CLI's shell found neither the task's reference nor kta's cache; neither reached the model.
  std::string snooped =
      slurp(sandboxed.run / "work" / "vadd" / label("claude", 2) / "0" / "snooped.txt");
  EXPECT_NE(snooped.find("No such file"), std::string::npos) << snooped;
  for (const char* secret : {"(double)x[i]", "reference outputs live here"}) {
    EXPECT_EQ(snooped.find(secret), std::string::npos) << snooped;
    EXPECT_EQ(slurp(servers[5]->log()).find(secret), std::string::npos) << secret;
  }
  EXPECT_NE(slurp(servers[5]->log()).find("No such file"), std::string::npos)
      << "the shell's output never reached the model: the check would see nothing";
}

}  // namespace
