// The prompt a command agent gets: a template under stdlib/prompts/ (`<kind>.md` when present,
// else `optimize.md`) filled from the task — kind, summary, files, entry signature, visible
// shapes, gates, tolerances — plus an architecture cheatsheet for the target device and a
// language cheatsheet for the kind. Held-out shapes are never part of it.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "engine/plan/plan.h"

namespace kta::engine {

// Where the prompt templates are: `configured` (Settings::prompts_dir) when set, else the
// prompts/ of `stdlib` (Settings::stdlib_dir), else of the stdlib kta was built with.
std::filesystem::path prompts_dir(const std::filesystem::path& configured = {},
                                  const std::filesystem::path& stdlib = {});

// Which cheatsheets a job gets: "amd-cdna3" or "nvidia-hopper", "hip" or "triton".
std::string arch_cheatsheet(const std::string& device);
std::string language_cheatsheet(model::TaskKind kind);

// The filled prompt; nullopt with *error naming the missing template or cheatsheet. `warp_size`:
// the run's (0: the device's own, not stated).
std::optional<std::string> build_prompt(const TaskJob& job, const std::string& device,
                                        const std::filesystem::path& dir, std::string* error,
                                        int warp_size = 0);

// Fills `{{name}}` in `tmpl`; unknown names are left as they are and reported in *unknown.
std::string fill_template(const std::string& tmpl, const std::map<std::string, std::string>& values,
                          std::string* unknown);

}  // namespace kta::engine
