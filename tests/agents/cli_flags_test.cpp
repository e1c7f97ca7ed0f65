// The real agent CLIs at their pinned versions (tests/agents/clis, installed by cmake/setup.sh):
// each CLI's --help still lists every flag that its agent in stdlib/std/agents.kta passes, and
// each CLI runs and says its pinned version. The agents are read from the stdlib at test time,
// through the front end, so an agent added or changed there is checked as it is. A CLI that is
// not installed (no registry at set-up) is skipped with the reason; an agent the stdlib does not
// declare (yet) is skipped too.
#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <regex>
#include <sstream>
#include <string_view>
#include <vector>

#include "engine/agents/process.h"
#include "engine/settings/settings.h"
#include "lang/module.h"
#include "lang/sema.h"
#include "tests/agents/cli_install.h"

namespace {

namespace fs = std::filesystem;
using namespace kta;

// An agent of std.agents lowered as a plan's use with its defaults would be; nullopt with `why`
// when the stdlib ($KTA_STDLIB as for kta, else the source tree's) does not declare it or it
// does not check.
std::optional<model::AgentDecl> stdlib_agent(const std::string& name, std::string* why) {
  lang::SourceManager sources;
  lang::DiagnosticEngine diags(sources);
  lang::LoadOptions options;
  options.stdlib_dir = engine::settings_from(engine::process_environment()).stdlib_dir;
  lang::ModuleLoader loader(diags, options);
  fs::path stdlib = options.stdlib_dir.empty() ? lang::default_stdlib_dir() : options.stdlib_dir;
  fs::path file = stdlib / "std" / "agents.kta";
  lang::Module* m = loader.load(file);
  if (m == nullptr) {
    *why = "cannot load " + file.string() + ": " + diags.str();
    return std::nullopt;
  }
  auto it = m->decls.find(name);
  const auto* decl = it == m->decls.end() ? nullptr : std::get_if<ast::CallableDecl>(it->second);
  if (decl == nullptr || decl->kind != "agent") {
    *why = file.string() + " declares no agent " + name;
    return std::nullopt;
  }
  lang::Sema sema(loader, options);
  ast::Call call{decl->name, decl->name_where, {}};
  auto args = sema.bind_call(call, *m, *decl, *m);
  auto agent = args ? lang::lower_agent(sema, *m, *decl, *args) : std::nullopt;
  if (!agent || diags.has_errors()) {
    *why = "agent " + name + " does not check: " + diags.str();
    return std::nullopt;
  }
  return agent;
}

struct Flags {
  std::vector<std::string> subcommand;  // leading words after the program: codex's `exec`
  std::vector<std::string> flags;       // -x and --x tokens, without an `=value` part
};

// The flags of a command template: the tokens starting with '-' (placeholders are not flags,
// `--x=value` is --x), and the plain words between the program and the first other token.
Flags flags_of(const std::vector<std::string>& command) {
  Flags out;
  bool leading = true;
  for (size_t i = 1; i < command.size(); ++i) {
    const std::string& t = command[i];
    bool word = !t.empty() && t[0] != '-' && t.find_first_of("{}=/ ") == std::string::npos;
    if (leading && word) {
      out.subcommand.push_back(t);
      continue;
    }
    leading = false;
    if (t.size() > 1 && t[0] == '-' && t != "--" && t.find('{') == std::string::npos)
      out.flags.push_back(t.substr(0, t.find('=')));
  }
  return out;
}

// `flag` as a whole word of `help` (so -c is not found inside --config).
bool listed(const std::string& help, const std::string& flag) {
  std::string escaped;
  for (char c : flag) {
    if (std::string_view(".^$|()[]{}*+?\\").find(c) != std::string_view::npos) escaped += '\\';
    escaped += c;
  }
  std::regex re("(^|[^A-Za-z0-9_-])" + escaped + "($|[^A-Za-z0-9_-])");
  return std::regex_search(help, re);
}

struct CliRun {
  std::string status;  // "exit 0", ...
  bool ok = false;
  std::string output;  // stdout and stderr
};

// Runs `argv` the way kta runs a command agent (run_process, argv[0] looked up on the child's
// PATH) with the install's bin first on PATH and a scratch HOME, so no user configuration is
// read or written.
CliRun run_cli(const std::vector<std::string>& argv) {
  fs::path dir = fs::temp_directory_path() / ("kta-cli-" + std::to_string(std::random_device{}()));
  fs::create_directories(dir / "home");
  engine::ProcessSpec spec;
  spec.argv = argv;
  spec.env = engine::process_environment();
  spec.env["PATH"] = test::agent_clis_path();
  spec.env["HOME"] = (dir / "home").string();
  spec.env["NO_COLOR"] = "1";
  spec.cwd = dir;
  spec.log = dir / "log";
  spec.timeout = std::chrono::seconds(120);
  spec.grace = std::chrono::seconds(5);
  engine::ProcessResult r = engine::run_process(spec);
  std::ifstream in(spec.log, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::error_code ec;
  fs::remove_all(dir, ec);
  return {r.status(), r.exit_code == 0, ss.str()};
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// The agent's command flags against its CLI's --help (of its subcommand, as `codex exec --help`).
void expect_flags_listed(const std::string& agent_name) {
  std::string why;
  auto agent = stdlib_agent(agent_name, &why);
  if (!agent) {
    ASSERT_TRUE(why.find("declares no agent") != std::string::npos) << why;
    GTEST_SKIP() << why;
  }
  ASSERT_FALSE(agent->command.empty()) << agent_name << " has no command";
  const std::string& program = agent->command.front();
  test::AgentCli cli = test::find_agent_cli(program);
  if (cli.exe.empty()) GTEST_SKIP() << cli.missing;

  Flags f = flags_of(agent->command);
  ASSERT_FALSE(f.flags.empty()) << agent_name << "'s command passes no flags";
  std::vector<std::string> help_argv = {program};
  help_argv.insert(help_argv.end(), f.subcommand.begin(), f.subcommand.end());
  help_argv.push_back("--help");
  CliRun help = run_cli(help_argv);
  ASSERT_TRUE(help.ok) << joined(help_argv) << ": " << help.status << "\n" << help.output;

  std::vector<std::string> gone;
  for (const std::string& flag : f.flags)
    if (!listed(help.output, flag)) gone.push_back(flag);
  EXPECT_TRUE(gone.empty()) << "std.agents." << agent_name << " passes " << joined(gone)
                            << ", which `" << joined(help_argv) << "` no longer lists:\n"
                            << help.output;
  std::cout << joined(help_argv) << " lists all of " << joined(f.flags) << "\n";
}

TEST(FlagsFromCommand, ExecSubcommandAndShortFlags) {
  Flags f = flags_of(
      {"codex", "exec", "--json", "--cd", "{workspace}", "-c", "a={effort}", "--x=1", "{prompt}"});
  EXPECT_EQ(f.subcommand, (std::vector<std::string>{"exec"}));
  EXPECT_EQ(f.flags, (std::vector<std::string>{"--json", "--cd", "-c", "--x"}));
  EXPECT_TRUE(listed("  -c, --config <key=value>\n", "-c"));
  EXPECT_TRUE(listed("  --cd <DIR>", "--cd"));
  EXPECT_FALSE(listed("  --config <key=value>\n", "-c"));
  EXPECT_FALSE(listed("  --cdx", "--cd"));
}

TEST(AgentCliFlags, ClaudeCode) { expect_flags_listed("claude_code"); }
TEST(AgentCliFlags, Codex) { expect_flags_listed("codex"); }
TEST(AgentCliFlags, GeminiCli) { expect_flags_listed("gemini_cli"); }

// Each CLI runs (--version) and is the version tests/agents/clis/package.json pins; the node on
// the install's PATH is the pinned one.
TEST(AgentCliVersions, Pinned) {
  std::ifstream in(fs::path(KTA_AGENT_CLIS_SOURCE_DIR) / "package.json");
  nlohmann::json pkg = nlohmann::json::parse(in);
  const std::vector<std::pair<std::string, std::string>> clis = {
      {"claude", "@anthropic-ai/claude-code"},
      {"codex", "@openai/codex"},
      {"gemini", "@google/gemini-cli"}};
  for (const auto& [program, package] : clis) {
    test::AgentCli cli = test::find_agent_cli(program);
    if (cli.exe.empty()) GTEST_SKIP() << cli.missing;
    std::string pinned = pkg["dependencies"][package].get<std::string>();
    CliRun r = run_cli({program, "--version"});
    EXPECT_TRUE(r.ok) << program << " --version: " << r.status << "\n" << r.output;
    EXPECT_TRUE(listed(r.output, pinned))
        << program << " --version does not say " << package << " " << pinned << ":\n"
        << r.output << "(an old install: `bash cmake/setup.sh build` installs the pinned one)";
    std::cout << program << " --version says " << pinned << "\n";
  }
  const nlohmann::json& optional = pkg["optionalDependencies"];
  for (auto it = optional.begin(); it != optional.end(); ++it) {
    if (!it.key().starts_with("node-")) continue;
    if (!fs::exists(test::agent_clis_dir() / "node_modules" / it.key())) continue;  // not this cpu
    CliRun r = run_cli({"node", "--version"});
    EXPECT_EQ(r.output, "v" + it.value().get<std::string>() + "\n") << r.status;
  }
}

}  // namespace
