// Exports of a finished run: results.json (machine-readable), results.csv (one row per task),
// summary.md (for humans), and the fixed-width terminal table.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "engine/results/records.h"
#include "engine/score/score.h"

namespace kta::engine {

// Throws std::runtime_error naming the path when a file cannot be written.
void write_results_json(const std::filesystem::path& path, const RunInfo& run,
                        std::span<const TaskOutcome> outcomes, const RunScore& score);
void write_results_csv(const std::filesystem::path& path, std::span<const TaskOutcome> outcomes);
void write_summary_md(const std::filesystem::path& path, const RunInfo& run,
                      std::span<const TaskOutcome> outcomes, const RunScore& score);

// The JSON document write_results_json writes (nlohmann::json text, 2-space indent); `secret`
// is never included.
std::string results_json_text(const RunInfo& run, std::span<const TaskOutcome> outcomes,
                              const RunScore& score);

// The run-level figures as (figure, value) rows: tasks, skipped, compiled, correct, fast_p,
// geomean speedup, held-out retention, speedup transfer, AgentKernelArena score.
std::vector<std::vector<std::string>> figure_rows(const ScoreSummary& s);

// A fixed-width, left/right-aligned text table: numeric-looking cells align right.
std::string format_table(const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows);

// One table per agent (and what each command agent's runs did), when the run had several
// agents or a command agent; empty otherwise.
std::string format_agent_tables(std::span<const TaskOutcome> outcomes);

// The same as a GitHub-flavoured Markdown table ('|' in cells escaped).
std::string format_markdown_table(const std::vector<std::string>& header,
                                  const std::vector<std::vector<std::string>>& rows);

}  // namespace kta::engine
