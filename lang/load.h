// Loading: parse, import, check and lower a task or plan file to the checked model.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <vector>

#include "lang/diagnostics.h"
#include "lang/model.h"

namespace kta::lang {

class ModuleCache;  // lang/module.h

struct LoadOptions {
  // Module folders, searched after the importing file's folder and before the stdlib (the CLI
  // passes Settings::module_path, from $KTA_PATH).
  std::vector<std::filesystem::path> search_path;
  size_t max_grid_points = 10000;
  // The stdlib folder; empty: the one kta was built with (default_stdlib_dir()).
  std::filesystem::path stdlib_dir;
  // Parsed imported modules kept across load_file calls (not owned; null: none). Imports found
  // there with the same absolute path, size and modification time are not read or parsed again;
  // they are still checked for each load. The file given to load_file is always read and parsed.
  ModuleCache* module_cache = nullptr;
};

struct Loaded {
  std::vector<model::Task> tasks;
  std::vector<model::Plan> plans;
};

// Parse, import, check FILE (a task file, a plan file, or a folder holding one .kta file).
// Plans come with their tasks loaded and checked. nullopt when any error was reported.
std::optional<Loaded> load_file(const std::filesystem::path&, DiagnosticEngine&,
                                const LoadOptions& = {});

// Loads several files sharing one set of imported modules (each parsed and checked once): what
// `kta check DIR` does. An error in a shared module is reported once, with the first file that
// imports it. One result per path, nullopt where that path reported an error.
std::vector<std::optional<Loaded>> load_files(const std::vector<std::filesystem::path>& paths,
                                              DiagnosticEngine&, const LoadOptions& = {});

}  // namespace kta::lang
