// Golden command lines for claude_code, codex and cursor as stdlib/std/agents.kta declares them,
// placeholders, and the engine's own unknown-placeholder check.
#include "engine/agents/command_line.h"

#include <gtest/gtest.h>

#include "engine/agents/agent.h"
#include "lang/load.h"
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
  return AgentContext{"Make vadd fast.\nKeep it correct.", "/ws/PROMPT.md", "/ws", "vadd"};
}

TEST(CommandLine, ClaudeCode) {
  auto agents = cli_agents();
  ASSERT_EQ(agents.size(), 4u);
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
  std::map<std::string, std::string> env = {{"CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1"},
                                            {"IS_SANDBOX", "1"}};
  EXPECT_EQ(cl->env, env);
  EXPECT_EQ(agents[0].decl.timeout_ns, 3600'000'000'000);
  EXPECT_EQ(agents[0].decl.grace_ns, 10'000'000'000);
  auto check = engine::build_check(agents[0], &error);
  ASSERT_TRUE(check);
  EXPECT_EQ(*check, (std::vector<std::string>{"claude", "--version"}));
}

TEST(CommandLine, Codex) {
  auto agents = cli_agents();
  ASSERT_EQ(agents.size(), 4u);
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
  EXPECT_TRUE(cl->env.empty());
  EXPECT_EQ(agents[1].decl.timeout_ns, 1800'000'000'000);
}

TEST(CommandLine, Cursor) {
  auto agents = cli_agents();
  ASSERT_EQ(agents.size(), 4u);
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
  ASSERT_EQ(agents.size(), 4u);
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
  EXPECT_FALSE(engine::fill_placeholders("a{b", {}, &error));
  EXPECT_EQ(error, "unclosed '{' in 'a{b'");
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
