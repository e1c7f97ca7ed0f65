// Placeholders in an agent's command, env, check and files, as the shell spells them:
//   {name}         the value
//   {name:-text}   the value, or `text` when the value is empty
//   {name:+text}   `text` when the value is not empty, else nothing
// `text` may hold placeholders itself but no other braces. A name is an identifier; any other
// brace is literal, so JSON and TOML file contents need no escaping. One scanner for `kta check`
// (lang/sema_agents.cpp) and the engine that fills them (engine/agents/command_line.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kta::lang {

struct Placeholder {
  size_t begin = 0, end = 0;  // [begin, end) in the text, the braces included
  std::string name;
  char op = 0;       // 0, '-' or '+'
  std::string text;  // after ":-" or ":+"
};

// Every placeholder of `text`, in order (not those nested in another's text).
std::vector<Placeholder> placeholders_in(const std::string& text);

// Every name `text` uses, nested ones included.
std::vector<std::string> placeholder_names(const std::string& text);

// The names every command agent can use besides its parameters: the prompt as text and as a file,
// the workspace, the task's name, the model (empty when the agent has no such parameter) and the
// agent's own home folder for this run (see docs/agents.md).
const std::vector<std::string>& builtin_placeholders();

}  // namespace kta::lang
