// Scaffolds: the files of a new task folder, as text, before anything is written. `kta new KIND
// NAME` writes a skeleton (skeletons.cpp): a complete task for a placeholder operation, y = x *
// scale, that checks and evaluates as written, with every decision left to the author marked by
// a `// TODO(author):` (or `# TODO(author):`) comment. `--from model.py` writes the task made
// from a probed PyTorch module instead (from_module.h).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "lang/model.h"

namespace kta::engine {

// The marker of a hole the author fills: grep for it.
inline constexpr const char* kAuthorTodo = "TODO(author):";

struct ScaffoldFile {
  std::filesystem::path path;  // relative to the task folder
  std::string text;
};

// A task folder's files; the first is the task's .kta file.
struct Scaffold {
  std::vector<ScaffoldFile> files;
  std::string error;  // why no scaffold could be made (from_module); empty on success
};

// Why `name` cannot name a task, its folder and its kernels (empty when it can): an identifier
// of the .kta language, C++ and Python alike.
std::string task_name_problem(const std::string& name);

// Whether `name` is a reserved word of .kta, C++ or Python, or a name the scaffolds' sources use.
bool reserved_name(const std::string& name);

// The skeleton of a task of `kind` named `name` (a valid name: task_name_problem).
Scaffold skeleton_task(model::TaskKind kind, const std::string& name);

// The replay solution stub for an editable file: `text` (the baseline or starter) under a
// comment that says how the replay agent reads it, at solutions/<name>/<file>.
ScaffoldFile solution_stub(const std::string& name, const std::filesystem::path& editable,
                           const std::string& text);

// The .kta text in canonical form (lang/format.h); `text` itself if it does not parse, which the
// check that follows reports.
std::string formatted_kta(const std::string& text, const std::string& file_name);

}  // namespace kta::engine
