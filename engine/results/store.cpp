#include "engine/results/store.h"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <sqlite3.h>

#include <chrono>
#include <nlohmann/json.hpp>

namespace kta::engine {

namespace {

constexpr int kSchemaVersion = 1;

// The schema. `secret` (held-out point derivation) is kept here in clear: the database lives in
// the run folder, which is never inside or visible from an agent's workspace.
constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS run (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  plan_hash TEXT NOT NULL, plan_name TEXT NOT NULL, device TEXT NOT NULL,
  kta_version TEXT NOT NULL, started TEXT NOT NULL, secret TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS step (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  key TEXT NOT NULL UNIQUE, task TEXT NOT NULL, agent TEXT NOT NULL, repeat INTEGER NOT NULL,
  step TEXT NOT NULL, outcome TEXT NOT NULL CHECK (outcome IN ('ok','fail','skip','error')),
  reason TEXT NOT NULL, wall_seconds REAL NOT NULL, payload TEXT NOT NULL, finished TEXT NOT NULL,
  shape_count INTEGER NOT NULL, task_hash TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS shape_result (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  step_key TEXT NOT NULL REFERENCES step(key) ON DELETE CASCADE,
  ord INTEGER NOT NULL, shape_set TEXT NOT NULL, point TEXT NOT NULL, point_json TEXT NOT NULL,
  seed INTEGER, correct INTEGER, max_abs_error REAL NOT NULL, max_rel_error REAL NOT NULL,
  mismatches INTEGER NOT NULL, first_bad_index INTEGER NOT NULL, reason TEXT NOT NULL,
  speedup REAL, throughput REAL, flop_rate REAL,
  base_stats TEXT, cand_stats TEXT);
CREATE INDEX IF NOT EXISTS shape_result_step ON shape_result(step_key, ord);
CREATE TABLE IF NOT EXISTS sample (
  shape_id INTEGER NOT NULL REFERENCES shape_result(id) ON DELETE CASCADE,
  side TEXT NOT NULL CHECK (side IN ('baseline','candidate')),
  ord INTEGER NOT NULL, seconds REAL NOT NULL,
  PRIMARY KEY (shape_id, side, ord)) WITHOUT ROWID;
)sql";

std::string now_iso() {
  return fmt::format(
      "{:%Y-%m-%dT%H:%M:%SZ}",
      fmt::gmtime(std::chrono::system_clock::to_time_t(std::chrono::system_clock::now())));
}

// A prepared statement with bind helpers; finalizes itself.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) != SQLITE_OK)
      throw StoreError(fmt::format("results store: {} (in: {})", sqlite3_errmsg(db), sql));
  }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  Stmt& bind(int i, const std::string& v) {
    check(sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
    return *this;
  }
  Stmt& bind(int i, int64_t v) {
    check(sqlite3_bind_int64(s_, i, v));
    return *this;
  }
  Stmt& bind(int i, double v) {
    check(sqlite3_bind_double(s_, i, v));
    return *this;
  }
  Stmt& bind_null(int i) {
    check(sqlite3_bind_null(s_, i));
    return *this;
  }
  template <class T>
  Stmt& bind_opt(int i, const std::optional<T>& v) {
    return v ? bind(i,
                    static_cast<std::conditional_t<std::is_floating_point_v<T>, double, int64_t>>(
                        *v))
             : bind_null(i);
  }

  bool step() {  // true: a row is available
    int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw StoreError(fmt::format("results store: {}", sqlite3_errmsg(db_)));
  }
  void reset() {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
  }

  std::string text(int c) const {
    auto* p = sqlite3_column_text(s_, c);
    return p ? std::string(reinterpret_cast<const char*>(p),
                           static_cast<size_t>(sqlite3_column_bytes(s_, c)))
             : "";
  }
  int64_t i64(int c) const { return sqlite3_column_int64(s_, c); }
  double real(int c) const { return sqlite3_column_double(s_, c); }
  bool null(int c) const { return sqlite3_column_type(s_, c) == SQLITE_NULL; }

 private:
  void check(int rc) {
    if (rc != SQLITE_OK) throw StoreError(fmt::format("results store: {}", sqlite3_errmsg(db_)));
  }
  sqlite3* db_;
  sqlite3_stmt* s_ = nullptr;
};

// Stats without samples as JSON (samples go to the sample table).
std::string stats_json(const Stats& s) { return Json(s).dump(); }
Stats stats_from_json(const std::string& text) { return Json::parse(text).get<Stats>(); }

// Stores written before a column existed get it added (with its default) on open.
void add_column_if_missing(sqlite3* db, const char* table, const char* column, const char* decl) {
  Stmt info(db,
            fmt::format("SELECT 1 FROM pragma_table_info('{}') WHERE name = '{}'", table, column)
                .c_str());
  if (info.step()) return;
  Stmt alter(db, fmt::format("ALTER TABLE {} ADD COLUMN {} {}", table, column, decl).c_str());
  alter.step();
}

StepRecord read_step(const Stmt& q) {
  StepRecord r;
  r.key = q.text(0);
  r.task = q.text(1);
  r.agent = q.text(2);
  r.repeat = static_cast<int>(q.i64(3));
  std::string step = q.text(4);
  std::optional<StepKind> kind = parse_step_kind(step);
  if (!kind)
    throw StoreError(fmt::format("results store: unknown step '{}' in record {}", step, r.key));
  r.step = *kind;
  r.outcome = parse_outcome(q.text(5)).value_or(StepOutcome::error);
  r.reason = q.text(6);
  r.wall_seconds = q.real(7);
  r.payload = payload_from_json(Json::parse(q.text(8), nullptr, false), r.step);
  r.finished = q.text(9);
  r.task_hash = q.text(10);
  return r;
}

constexpr const char* kStepColumns =
    "key, task, agent, repeat, step, outcome, reason, wall_seconds, payload, finished, task_hash";

}  // namespace

ResultStore::ResultStore(sqlite3* db, std::filesystem::path path)
    : db_(db), path_(std::move(path)) {}

ResultStore::~ResultStore() { sqlite3_close_v2(db_); }

void ResultStore::exec(const char* sql) const {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    throw StoreError(fmt::format("results store {}: {}", path_.string(), msg));
  }
}

std::unique_ptr<ResultStore> ResultStore::open(const std::filesystem::path& run_dir) {
  std::error_code ec;
  std::filesystem::create_directories(run_dir, ec);
  if (ec)
    throw StoreError(
        fmt::format("cannot create run folder {}: {}", run_dir.string(), ec.message()));
  auto path = run_dir / "results.db";
  sqlite3* db = nullptr;
  int rc =
      sqlite3_open_v2(path.c_str(), &db,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close_v2(db);
    throw StoreError(fmt::format("cannot open results store {}: {}", path.string(), msg));
  }
  std::unique_ptr<ResultStore> store(new ResultStore(db, path));
  sqlite3_busy_timeout(db, 10'000);
  // WAL: readers never block the writer; a commit is one append to the log, so a process killed
  // at any instant leaves either the whole transaction or none of it. synchronous=NORMAL is
  // durable against process death (the case --resume serves); only an OS crash may lose the
  // last commits, never consistency.
  store->exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;");
  store->exec("BEGIN IMMEDIATE");
  try {
    store->exec(kSchema);
    add_column_if_missing(db, "step", "task_hash", "TEXT NOT NULL DEFAULT ''");
    Stmt get(db, "SELECT value FROM meta WHERE key = 'schema_version'");
    if (get.step()) {
      int version = 0;
      try {
        version = std::stoi(get.text(0));
      } catch (const std::exception&) {
        throw StoreError(fmt::format("results store {} has a malformed schema version '{}'",
                                     path.string(), get.text(0)));
      }
      if (version > kSchemaVersion)
        throw StoreError(
            fmt::format("results store {} has schema version {}, newer than this kta ({})",
                        path.string(), version, kSchemaVersion));
    } else {
      Stmt put(db, "INSERT INTO meta(key, value) VALUES ('schema_version', ?)");
      put.bind(1, std::to_string(kSchemaVersion)).step();
    }
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  store->exec("COMMIT");
  return store;
}

std::optional<RunInfo> ResultStore::run_info() const {
  std::lock_guard lock(mutex_);
  Stmt q(db_,
         "SELECT plan_hash, plan_name, device, kta_version, started, secret FROM run WHERE id = 1");
  if (!q.step()) return std::nullopt;
  return RunInfo{q.text(0), q.text(1), q.text(2), q.text(3), q.text(4), q.text(5)};
}

void ResultStore::set_run_info(const RunInfo& info) {
  std::lock_guard lock(mutex_);
  Stmt q(
      db_,
      "INSERT OR REPLACE INTO run(id, plan_hash, plan_name, device, kta_version, started, secret) "
      "VALUES (1, ?, ?, ?, ?, ?, ?)");
  q.bind(1, info.plan_hash).bind(2, info.plan_name).bind(3, info.device).bind(4, info.kta_version);
  q.bind(5, info.started.empty() ? now_iso() : info.started).bind(6, info.secret);
  q.step();
}

bool ResultStore::step_done(const std::string& key, StepRecord* out) const {
  std::lock_guard lock(mutex_);
  Stmt q(db_, fmt::format("SELECT {} FROM step WHERE key = ?", kStepColumns).c_str());
  q.bind(1, key);
  if (!q.step()) return false;
  if (out) *out = read_step(q);
  return true;
}

namespace {

void insert_step(sqlite3* db, const StepRecord& step, size_t shape_count) {
  Stmt del(db, "DELETE FROM step WHERE key = ?");  // cascades to shapes and samples
  del.bind(1, step.key).step();
  Stmt ins(db, fmt::format("INSERT INTO step({}, shape_count) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                           kStepColumns)
                   .c_str());
  ins.bind(1, step.key).bind(2, step.task).bind(3, step.agent).bind(4, int64_t{step.repeat});
  ins.bind(5, std::string(step_name(step.step)))
      .bind(6, std::string(outcome_name(step.outcome)))
      .bind(7, step.reason);
  ins.bind(8, step.wall_seconds).bind(9, payload_json(step.payload).dump());
  ins.bind(10, step.finished.empty() ? now_iso() : step.finished);
  ins.bind(11, step.task_hash).bind(12, static_cast<int64_t>(shape_count));
  ins.step();
}

// One shape result of `step_key` at position `ord`; returns its row id (its samples refer to it).
int64_t insert_shape(sqlite3* db, Stmt& shape, const std::string& step_key, size_t ord,
                     const ShapeRecord& s) {
  shape.reset();
  shape.bind(1, step_key)
      .bind(2, static_cast<int64_t>(ord))
      .bind(3, std::string(point_set_name(s.set)))
      .bind(4, shape_text(s.point));
  shape.bind(5, nlohmann::json(s.point).dump());
  if (s.seed)
    shape.bind(6, static_cast<int64_t>(*s.seed));
  else
    shape.bind_null(6);
  shape.bind_opt(7, s.correct);
  shape.bind(8, s.max_abs_error).bind(9, s.max_rel_error);
  shape.bind(10, static_cast<int64_t>(s.mismatches)).bind(11, s.first_bad_index).bind(12, s.reason);
  shape.bind_opt(13, s.speedup).bind_opt(14, s.throughput).bind_opt(15, s.flop_rate);
  if (s.baseline)
    shape.bind(16, stats_json(*s.baseline));
  else
    shape.bind_null(16);
  if (s.candidate)
    shape.bind(17, stats_json(*s.candidate));
  else
    shape.bind_null(17);
  shape.step();
  return sqlite3_last_insert_rowid(db);
}

void insert_samples(Stmt& sample, int64_t shape_id, const std::optional<Stats>& st,
                    const std::string& side) {
  if (!st) return;
  for (size_t k = 0; k < st->samples.size(); ++k) {
    sample.reset();
    sample.bind(1, shape_id).bind(2, side).bind(3, static_cast<int64_t>(k)).bind(4, st->samples[k]);
    sample.step();
  }
}

}  // namespace

void ResultStore::record_step(const StepRecord& step, const std::vector<ShapeRecord>& shapes) {
  std::lock_guard lock(mutex_);
  exec("BEGIN IMMEDIATE");
  try {
    insert_step(db_, step, shapes.size());
    Stmt shape(
        db_,
        "INSERT INTO shape_result(step_key, ord, shape_set, point, point_json, seed, correct, "
        "max_abs_error, max_rel_error, mismatches, first_bad_index, reason, speedup, "
        "throughput, flop_rate, base_stats, cand_stats) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    Stmt sample(db_, "INSERT INTO sample(shape_id, side, ord, seconds) VALUES (?,?,?,?)");
    for (size_t i = 0; i < shapes.size(); ++i) {
      int64_t id = insert_shape(db_, shape, step.key, i, shapes[i]);
      insert_samples(sample, id, shapes[i].baseline, "baseline");
      insert_samples(sample, id, shapes[i].candidate, "candidate");
    }
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

std::vector<StepRecord> ResultStore::steps() const {
  std::lock_guard lock(mutex_);
  Stmt q(db_, fmt::format("SELECT {} FROM step ORDER BY seq", kStepColumns).c_str());
  std::vector<StepRecord> out;
  while (q.step()) out.push_back(read_step(q));
  return out;
}

std::vector<ShapeRecord> ResultStore::shapes(const std::string& step_key) const {
  std::lock_guard lock(mutex_);
  Stmt q(
      db_,
      "SELECT id, shape_set, point_json, seed, correct, max_abs_error, max_rel_error, mismatches, "
      "first_bad_index, reason, speedup, throughput, flop_rate, base_stats, cand_stats "
      "FROM shape_result WHERE step_key = ? ORDER BY ord");
  q.bind(1, step_key);
  Stmt samples(db_, "SELECT seconds FROM sample WHERE shape_id = ? AND side = ? ORDER BY ord");
  auto load_samples = [&](int64_t id, const std::string& side) {
    samples.reset();
    samples.bind(1, id).bind(2, side);
    std::vector<double> v;
    while (samples.step()) v.push_back(samples.real(0));
    return v;
  };
  std::vector<ShapeRecord> out;
  while (q.step()) {
    ShapeRecord s;
    int64_t id = q.i64(0);
    s.set = parse_point_set(q.text(1)).value_or(PointSet::visible);
    s.point = nlohmann::json::parse(q.text(2)).get<model::ShapePoint>();
    if (!q.null(3)) s.seed = static_cast<uint64_t>(q.i64(3));
    if (!q.null(4)) s.correct = q.i64(4) != 0;
    s.max_abs_error = q.real(5);
    s.max_rel_error = q.real(6);
    s.mismatches = static_cast<uint64_t>(q.i64(7));
    s.first_bad_index = q.i64(8);
    s.reason = q.text(9);
    if (!q.null(10)) s.speedup = q.real(10);
    if (!q.null(11)) s.throughput = q.real(11);
    if (!q.null(12)) s.flop_rate = q.real(12);
    if (!q.null(13)) {
      s.baseline = stats_from_json(q.text(13));
      s.baseline->samples = load_samples(id, "baseline");
    }
    if (!q.null(14)) {
      s.candidate = stats_from_json(q.text(14));
      s.candidate->samples = load_samples(id, "candidate");
    }
    out.push_back(std::move(s));
  }
  return out;
}

bool ResultStore::integrity_ok() const {
  std::lock_guard lock(mutex_);
  Stmt q(db_, "PRAGMA integrity_check");
  if (!q.step() || q.text(0) != "ok") return false;
  // Our own invariant: every step holds exactly the shapes it was recorded with.
  Stmt c(db_,
         "SELECT COUNT(*) FROM step s WHERE s.shape_count != "
         "(SELECT COUNT(*) FROM shape_result r WHERE r.step_key = s.key)");
  c.step();
  if (c.i64(0) != 0) return false;
  Stmt fk(db_, "PRAGMA foreign_key_check");
  return !fk.step();
}

}  // namespace kta::engine
