// The command line of a command agent: its declaration's template with the placeholders filled
// from one task's context and the agent use's arguments.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/plan/agent_use.h"
#include "lang/model.h"

namespace kta::engine {

// What a placeholder can name besides the agent's parameters.
struct AgentContext {
  std::string prompt;                 // {prompt}: the prompt text as one argument
  std::filesystem::path prompt_file;  // {prompt_file}
  std::filesystem::path workspace;    // {workspace}
  std::string task;                   // {task}: the task's name
  std::filesystem::path home;         // {home}: the agent's own home folder for this run
};

struct CommandLine {
  std::vector<std::string> argv;
  // The declaration's env entries, filled; an entry that fills to "" is left out (the agent then
  // inherits the variable, if kta's environment has it).
  std::map<std::string, std::string> env;
  std::map<std::string, std::string> files;  // `file` statements: path in the home -> content
};

// Fills `tmpl`; nullopt (and *error) when a placeholder is unknown or a brace is unclosed.
std::optional<std::string> fill_placeholders(const std::string& tmpl,
                                             const std::map<std::string, std::string>& values,
                                             std::string* error);

// The command line, environment and files for one run; nullopt with *error on an unknown
// placeholder or a file path that fills to one outside the home.
std::optional<CommandLine> build_command(const model::AgentUse& agent, const AgentContext& context,
                                         std::string* error);

// The version-check command (`check`), filled like the command ({prompt} is empty).
std::optional<std::vector<std::string>> build_check(const model::AgentUse& agent,
                                                    std::string* error);

// The key variables (`key`), filled like the command; empty names are left out.
std::optional<std::vector<std::string>> build_keys(const model::AgentUse& agent,
                                                   std::string* error);

// A command line quoted for a POSIX shell, for logs and `kta agents check`.
std::string shell_quote(const std::vector<std::string>& argv);

}  // namespace kta::engine
