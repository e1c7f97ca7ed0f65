// Golden command lines for claude_code, codex and cursor as stdlib/std/agents.kta declares them,
// placeholders, and the engine's own unknown-placeholder check.
#include "engine/agents/command_line.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/agents/agent.h"
#include "lang/load.h"
#include "lang/placeholders.h"
#include "tests/agents/agents_test_support.h"

namespace {

namespace fs = std::filesystem;
using namespace kta;
using engine::AgentContext;

std::vector<model::AgentUse> cli_agents() {
  lang::SourceManager sources;
  lang::DiagnosticEngine diags(sources);
  auto loaded = lang::load_file(fs::path(KTA_AGENTS_TEST_DIR) / "cases" / "cli_agents.kta", diags);
  EXPECT_TRUE(loaded.has_value());
  if (!loaded || loaded->plans.empty()) return {};
  return loaded->plans.front().agents;
}

AgentContext context() {
  return AgentContext{"Make vadd fast.\nKeep it correct.", "/ws/PROMPT.md", "/ws", "vadd", "/h"};
}

TEST(CommandLine, ClaudeCode) {
  auto agents = cli_agents();
  ASSERT_EQ(agents.size(), 6u);
  std::string error;
  auto cl = engine::build_command(agents[0], context(), &error);
  ASSERT_TRUE(cl) << error;
  EXPECT_EQ(engine::agent_label(agents[0]), "claude_code");
  std::vector<std::string> want = {"claude",
                                   "--print",
                                   "--verbose",
                                   "--output-format",
                                   "stream-json",
                                   "--include-partial-messages",
                                   "--permission-mode",
                                   "bypassPermissions",
                                   "--model",
                                   "claude-opus-4-1",
                                   "--effort",
                                   "medium",
                                   "Make vadd fast.\nKeep it correct."};
  EXPECT_EQ(cl->argv, want);
  // No endpoint: ANTHROPIC_BASE_URL is left out (the user's own, if set, reaches the CLI).
  std::map<std::string, std::string> env = {{"CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1"},
                                            {"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"},
                                            {"DISABLE_AUTOUPDATER", "1"},
                                            {"DISABLE_TELEMETRY", "1"},
                                            {"HOME", "/h"},
                                            {"IS_SANDBOX", "1"}};
  EXPECT_EQ(cl->env, env);
  EXPECT_TRUE(cl->files.empty());
  EXPECT_EQ(agents[0].decl.keys, std::vector<std::string>{"ANTHROPIC_API_KEY"});
  EXPECT_EQ(agents[0].decl.logins,
            (std::vector<std::string>{".claude/.credentials.json", ".claude.json"}));
  EXPECT_EQ(agents[0].decl.timeout_ns, 3600'000'000'000);
  EXPECT_EQ(agents[0].decl.grace_ns, 10'000'000'000);
  auto check = engine::build_check(agents[0], &error);
  ASSERT_TRUE(check);
  EXPECT_EQ(*check, (std::vector<std::string>{"claude", "--version"}));
}

TEST(CommandLine, Codex) {
  auto agents = cli_agents();
  ASSERT_EQ(agents.size(), 6u);
  std::string error;
  auto cl = engine::build_command(agents[1], context(), &error);
  ASSERT_TRUE(cl) << error;
  std::vector<std::string> want = {"codex",
                                   "exec",
                                   "--json",
                                   "--dangerously-bypass-approvals-and-sandbox",
                                   "--skip-git-repo-check",
                                   "--cd",
                                   "/ws",
                                   "--model",
                                   "gpt-5-codex",
                                   "-c",
                                   "model_reasoning_effort=low",
                                   "Make vadd fast.\nKeep it correct."};
  EXPECT_EQ(cl->argv, want);
  EXPECT_EQ(cl->env,
            (std::map<std::string, std::string>{{"CODEX_HOME", "/h/.codex"}, {"HOME", "/h"}}));
  EXPECT_EQ(agents[1].decl.timeout_ns, 1800'000'000'000);
  // Its configuration: no outside lookups; without an endpoint, Codex's own provider.
  ASSERT_EQ(cl->files.size(), 1u);
  const std::string& config = cl->files.at(".codex/config.toml");
  EXPECT_EQ(config.find("model_provider ="), std::string::npos) << config;
  EXPECT_EQ(config.find("model_catalog_json"), std::string::npos) << config;
  for (const char* line : {"[analytics]\nenabled = false", "[feedback]\nenabled = false",
                           "plugins = false", "check_for_update_on_startup = false"})
    EXPECT_NE(config.find(line), std::string::npos) << line << " in\n" << config;

  // With an endpoint: its own provider, the key from the variable the plan names.
  cl = engine::build_command(agents[5], context(), &error);
  ASSERT_TRUE(cl) << error;
  const std::string& local = cl->files.at(".codex/config.toml");
  EXPECT_EQ(local.find("model_provider = \"kta\"\n"), 0u) << local;
  EXPECT_NE(local.find("base_url = \"http://10.0.0.5:8000/v1\""), std::string::npos) << local;
  EXPECT_NE(local.find("env_key = \"MY_KEY\""), std::string::npos) << local;
  EXPECT_EQ(engine::build_keys(agents[5], &error), std::vector<std::string>{"MY_KEY"});
}

TEST(CommandLine, GeminiCli) {
  auto agents = cli_agents();
  ASSERT_EQ(agents.size(), 6u);
  std::string error;
  auto cl = engine::build_command(agents[4], context(), &error);
  ASSERT_TRUE(cl) << error;
  EXPECT_EQ(engine::agent_label(agents[4]), "gemini_cli");
  std::vector<std::string> want = {
      "gemini",           "--output-format", "stream-json", "--model",
      "gemini-2.5-flash", "--yolo",          "--prompt",    "Make vadd fast.\nKeep it correct."};
  EXPECT_EQ(cl->argv, want);
  EXPECT_EQ(cl->env,
            (std::map<std::string, std::string>{{"GEMINI_CLI_HOME", "/h"},
                                                {"GOOGLE_GEMINI_BASE_URL", "http://127.0.0.1:8000"},
                                                {"HOME", "/h"}}));
  const std::string& settings = cl->files.at(".gemini/settings.json");
  auto json = nlohmann::json::parse(settings, nullptr, false);
  ASSERT_FALSE(json.is_discarded()) << settings;
  EXPECT_EQ(json["security"]["auth"]["selectedType"], "gemini-api-key");
  EXPECT_EQ(json["security"]["folderTrust"]["enabled"], false);
  EXPECT_EQ(json["telemetry"]["enabled"], false);
  EXPECT_EQ(json["privacy"]["usageStatisticsEnabled"], false);
}

TEST(CommandLine, PlaceholderFormsAsTheShellSpellsThem) {
  std::map<std::string, std::string> v = {{"set", "x"}, {"empty", ""}, {"port", "80"}};
  std::string error;
  auto fill = [&](const std::string& t) { return engine::fill_placeholders(t, v, &error); };
  EXPECT_EQ(fill("{set:-d}/{empty:-d}"), "x/d");
  EXPECT_EQ(fill("[{set:+on {port}}][{empty:+on {port}}]"), "[on 80][]");
  // Braces that open no placeholder are text: JSON and TOML need no escaping.
  EXPECT_EQ(fill("{\"a\": {\"b\": \"{set}\"}} { } {1} a{b"), "{\"a\": {\"b\": \"x\"}} { } {1} a{b");
  EXPECT_FALSE(fill("{set:+{nope}}"));
  EXPECT_EQ(error, "unknown placeholder '{nope}' in '{nope}'");
  EXPECT_EQ(lang::placeholder_names("{a:-{b}} {c:+{d}x}"),
            (std::vector<std::string>{"a", "b", "c", "d"}));
}

TEST(CommandLine, EmptyEnvIsLeftOutAndFilesStayInTheHome) {
  model::AgentUse a;
  a.decl.name = "mine";
  a.decl.command = {"run"};
  a.decl.env = {{"URL", "{endpoint}"}, {"HOME", "{home}"}};
  a.decl.files = {{"conf/{task}.toml", "url = \"{endpoint:-default}\"\n"}};
  a.args["endpoint"] = std::string();
  std::string error;
  auto cl = engine::build_command(a, context(), &error);
  ASSERT_TRUE(cl) << error;
  EXPECT_EQ(cl->env, (std::map<std::string, std::string>{{"HOME", "/h"}}));
  EXPECT_EQ(cl->files,
            (std::map<std::string, std::string>{{"conf/vadd.toml", "url = \"default\"\n"}}));
  a.decl.files = {{"{endpoint}/../../etc/x", ""}};
  EXPECT_FALSE(engine::build_command(a, context(), &error));
  EXPECT_EQ(error, "file '/../../etc/x' is outside the agent's home");
}

TEST(CommandLine, Cursor) {
  auto agents = cli_agents();
  ASSERT_EQ(agents.size(), 6u);
  std::string error;
  auto cl = engine::build_command(agents[2], context(), &error);
  ASSERT_TRUE(cl) << error;
  std::vector<std::string> want = {
      "cursor-agent",    "--force",     "--print",
      "--output-format", "stream-json", "--stream-partial-output",
      "--model",         "sonnet-4",    "Make vadd fast.\nKeep it correct."};
  EXPECT_EQ(cl->argv, want);
  EXPECT_EQ(engine::shell_quote({"cursor-agent", "--model", "sonnet-4", "it's"}),
            "cursor-agent --model sonnet-4 'it'\\''s'");
}

TEST(CommandLine, BuiltinsAreNotCommands) {
  auto agents = cli_agents();
  ASSERT_EQ(agents.size(), 6u);
  EXPECT_EQ(engine::agent_kind(agents[3]), engine::AgentKind::replay);
  EXPECT_EQ(engine::agent_kind(agents[0]), engine::AgentKind::command);
}

TEST(CommandLine, PlaceholdersAndErrors) {
  model::AgentUse a;
  a.decl.name = "mine";
  a.decl.command = {"run",           "--task={task}", "--in",   "{workspace}/x",
                    "{prompt_file}", "{level}",       "{model}"};
  a.decl.env = {{"WS", "{workspace}"}};
  a.args["level"] = int64_t{3};
  std::string error;
  auto cl = engine::build_command(a, context(), &error);
  ASSERT_TRUE(cl) << error;
  EXPECT_EQ(cl->argv, (std::vector<std::string>{"run", "--task=vadd", "--in", "/ws/x",
                                                "/ws/PROMPT.md", "3", ""}));
  EXPECT_EQ(cl->env.at("WS"), "/ws");
  EXPECT_TRUE(engine::unknown_placeholders(a).empty());

  a.decl.env["BAD"] = "{secret}";
  EXPECT_EQ(engine::unknown_placeholders(a), std::vector<std::string>{"secret"});
  EXPECT_FALSE(engine::build_command(a, context(), &error));
  EXPECT_EQ(error, "unknown placeholder '{secret}' in '{secret}'");
  EXPECT_EQ(engine::fill_placeholders("a{b", {}, &error), "a{b");
}

TEST(CommandLine, UnknownPlaceholderIsAPlanErrorBeforeAnyAgentRuns) {
  // Agents built without sema (C++, tools) get the same check when the plan is compiled.
  model::AgentUse a;
  a.decl.name = "mine";
  a.decl.command = {"run", "{nope}"};
  fs::path dir = kta::test::scratch_dir("kta-placeholder");
  try {
    kta::test::vadd_plan(dir / "run", a);
    ADD_FAILURE() << "no error";
  } catch (const engine::PlanError& e) {
    EXPECT_STREQ(e.what(), "agent 'mine': unknown placeholder '{nope}'");
  }
  EXPECT_FALSE(fs::exists(dir / "run"));
  fs::remove_all(dir);
}

}  // namespace
