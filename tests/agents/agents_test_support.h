// Helpers shared by the agent tests: the vadd task of the engine e2e cases compiled into one job,
// a scratch folder, a prompts folder with placeholder cheatsheets when the stdlib has none.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>

#include "engine/agents/prompt.h"
#include "engine/plan/compile.h"
#include "lang/load.h"
#include "tests/support/kta_cli.h"

namespace kta::test {

namespace fs = std::filesystem;

inline void write_file(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

inline fs::path scratch_dir(const std::string& stem) {
  fs::path d = fs::temp_directory_path() / (stem + "-" + std::to_string(std::random_device{}()));
  fs::create_directories(d);
  return d;
}

// True when `text` holds `number` as a whole number (not inside a longer number, a hash or a
// decimal), so timings and hashes do not trip held-out checks.
inline bool mentions_number(const std::string& text, int64_t number) {
  std::regex re("(^|[^0-9A-Za-z_.])" + std::to_string(number) + "($|[^0-9A-Za-z_.])");
  return std::regex_search(text, re);
}

inline model::Task vadd_task() {
  lang::SourceManager sources;
  lang::DiagnosticEngine diags(sources);
  auto loaded = lang::load_file(fs::path(KTA_ENGINE_CASES_DIR) / "vadd" / "vadd.kta", diags);
  EXPECT_TRUE(loaded && !loaded->tasks.empty());
  return loaded->tasks.front();
}

// One job of vadd for `agent` (the baseline agent when unset), on the cpu device.
inline engine::Plan vadd_plan(const fs::path& run,
                              std::optional<model::AgentUse> agent = std::nullopt) {
  model::Plan p = engine::plan_for_task(vadd_task(), run);
  if (agent) p.agents = {*agent};
  engine::PlanOptions po;
  po.device = "cpu";
  po.secret = "test-secret";
  return engine::compile_plan(p, po);
}

// The stdlib prompts folder when its cheatsheets exist; else `dir` with the stdlib template and
// one-line placeholder cheatsheets (the real ones are written separately).
inline fs::path prompts_with_cheatsheets(const fs::path& dir) {
  fs::path real = engine::prompts_dir();
  bool complete = true;
  for (const char* c : {"amd-cdna3", "nvidia-hopper", "hip", "triton"})
    complete = complete && fs::exists(real / "cheatsheets" / (std::string(c) + ".md"));
  if (complete) return real;
  fs::create_directories(dir / "cheatsheets");
  fs::copy_file(real / "optimize.md", dir / "optimize.md", fs::copy_options::overwrite_existing);
  for (const char* c : {"amd-cdna3", "nvidia-hopper", "hip", "triton"})
    write_file(dir / "cheatsheets" / (std::string(c) + ".md"),
               std::string("(placeholder ") + c + " notes)\n");
  return dir;
}

}  // namespace kta::test
