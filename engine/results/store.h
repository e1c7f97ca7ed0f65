// The results store: one SQLite database per run folder (WAL, busy timeout), one transaction
// per finished step, so a run killed at any instant resumes with every finished step intact and
// nothing half-written. Safe to share between threads (calls are serialized).
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/results/records.h"

struct sqlite3;

namespace kta::engine {

// Thrown for a store that cannot be opened or written (I/O, corruption, schema too new).
struct StoreError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ResultStore {
 public:
  // Opens (creating when absent) `run_dir/results.db`; creates `run_dir` if needed.
  static std::unique_ptr<ResultStore> open(const std::filesystem::path& run_dir);
  ~ResultStore();
  ResultStore(const ResultStore&) = delete;
  ResultStore& operator=(const ResultStore&) = delete;

  std::filesystem::path path() const { return path_; }

  // The run row: written once at start; a resumed run reads it back (and must match plan_hash).
  std::optional<RunInfo> run_info() const;
  void set_run_info(const RunInfo& info);

  // True (and fills *out when non-null) when a step with this key finished in this run folder.
  bool step_done(const std::string& key, StepRecord* out = nullptr) const;
  // Records the step and its per-shape results (with raw samples) in ONE transaction. Recording
  // a key again replaces the earlier record.
  void record_step(const StepRecord& step, const std::vector<ShapeRecord>& shapes = {});

  std::vector<StepRecord> steps() const;                               // in the order recorded
  std::vector<ShapeRecord> shapes(const std::string& step_key) const;  // samples restored

  // PRAGMA integrity_check == "ok".
  bool integrity_ok() const;

 private:
  ResultStore(sqlite3* db, std::filesystem::path path);
  void exec(const char* sql) const;

  mutable std::mutex mutex_;  // one transaction at a time on the shared connection
  sqlite3* db_ = nullptr;
  std::filesystem::path path_;
};

}  // namespace kta::engine
