// The workspace of one command-agent job: a fresh folder holding the task's editable files
// (writable, at top level) and task/ (read-only): a visible-only view of the task, the baseline
// and reference sources, and `./check`, which evaluates the editable files on the visible
// shapes. Nothing held out: no held-out grid, no seeds, no reference outputs, no other results.
// Before/after snapshots tell what the agent changed. Layout: docs/agents.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/plan/plan.h"

namespace kta::engine {

struct WorkspaceSpec {
  std::filesystem::path kta_binary;  // what ./check runs; empty: this process's executable
  std::string device = "cpu";        // the device ./check evaluates on
};

// Makes `dir` afresh (an existing folder is removed first); nullopt on success, else the error.
std::optional<std::string> make_workspace(const TaskJob& job, const std::filesystem::path& dir,
                                          const WorkspaceSpec& spec);

// The task's .kta text with every held-out grid, every other task and plan, and every comment
// removed, in canonical layout. nullopt with *error when the file does not parse.
std::optional<std::string> visible_task_text(const model::Task& task, std::string* error);

struct FileState {
  uintmax_t size = 0;
  std::string hash;
  bool operator==(const FileState&) const = default;
};
// Relative path -> state of every regular file below `root` (the ./check scratch folder
// `.check/` excluded).
using Snapshot = std::map<std::string, FileState>;
Snapshot snapshot(const std::filesystem::path& root);

// Regular files directly in each folder from the workspace's parent up to the run folder,
// named relative to the run folder: where an agent without a sandbox might write next door.
Snapshot outside_snapshot(const std::filesystem::path& run_dir,
                          const std::filesystem::path& workspace);

struct WorkspaceChanges {
  std::vector<std::string> editable_changed;  // editable files the agent changed
  bool unchanged = true;                      // every editable file still equals the baseline
  std::vector<std::string> readonly_edited;   // task/... files changed or deleted (ignored)
  std::vector<std::string> other;             // "created x", "modified y", "deleted z" (ignored)
  std::vector<std::string> outside;           // files written outside the workspace
};

// What differs between two snapshots; `editable` are top-level file names, `baseline` the
// baseline file of each (to tell "unchanged from the baseline").
WorkspaceChanges compare_snapshots(const Snapshot& before, const Snapshot& after,
                                   const std::map<std::string, std::filesystem::path>& baseline);

// Files of task/ back to read-only after a run, and the name of the visible task file there.
inline constexpr const char* kTaskDir = "task";
inline constexpr const char* kTaskFile = "task.kta";

}  // namespace kta::engine
