#include "engine/results/store.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

namespace kta::engine {
namespace {

namespace fs = std::filesystem;

// A fresh folder per test, removed afterwards.
class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           fmt::format("kta-store-test-{}-{}", getpid(),
                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

Stats stats_of(std::vector<double> v) { return summarize(v); }

StepRecord step(const std::string& key, StepOutcome outcome = StepOutcome::ok) {
  StepRecord s;
  s.key = key;
  s.task = "gelu";
  s.task_hash = "th-" + key;
  s.agent = "replay";
  s.repeat = 1;
  s.step = StepKind::visible_performance;
  s.outcome = outcome;
  s.reason = outcome == StepOutcome::ok ? "" : "slower than baseline";
  s.wall_seconds = 1.25;
  PerformanceReport report;
  report.speedup = SpeedupEstimate{2.0, 1.9, 2.1};
  report.shapes = 1;
  report.notes.push_back({"note", "x"});
  s.payload.report = report;
  s.payload.profile = {{"sampling", 0.5}};
  return s;
}

ShapeRecord perf_shape(int64_t n, int samples) {
  ShapeRecord r;
  r.set = PointSet::visible;
  r.point = {{"N", n}, {"M", 3}};
  std::vector<double> a, b;
  for (int i = 0; i < samples; ++i) {
    a.push_back(2e-3 + i * 1e-7);
    b.push_back(1e-3 + i * 1e-7);
  }
  r.baseline = stats_of(a);
  r.candidate = stats_of(b);
  r.speedup = r.baseline->median / r.candidate->median;
  r.throughput = 3.5e12;
  return r;
}

TEST_F(StoreTest, RoundTripsStepsShapesAndSamples) {
  auto store = ResultStore::open(dir_);
  EXPECT_TRUE(fs::exists(dir_ / "results.db"));
  EXPECT_FALSE(store->step_done("k1"));

  ShapeRecord corr;
  corr.set = PointSet::heldout;
  corr.point = {{"N", 1000}};
  corr.seed = 2;
  corr.correct = false;
  corr.max_abs_error = 0.5;
  corr.max_rel_error = 0.25;
  corr.mismatches = 12;
  corr.first_bad_index = 7;
  corr.reason = "12 of 4096 elements outside tolerance";
  store->record_step(step("k1"), {perf_shape(4096, 12), corr});
  store->record_step(step("k2", StepOutcome::fail));

  StepRecord got;
  ASSERT_TRUE(store->step_done("k1", &got));
  EXPECT_EQ(got.task, "gelu");
  EXPECT_EQ(got.task_hash, "th-k1");
  EXPECT_EQ(got.agent, "replay");
  EXPECT_EQ(got.repeat, 1);
  EXPECT_EQ(got.step, StepKind::visible_performance);
  EXPECT_EQ(got.outcome, StepOutcome::ok);
  EXPECT_EQ(got.wall_seconds, 1.25);
  EXPECT_TRUE(got.payload == step("k1").payload) << payload_json(got.payload).dump();
  EXPECT_FALSE(got.finished.empty());

  auto steps = store->steps();
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[1].key, "k2");
  EXPECT_EQ(steps[1].outcome, StepOutcome::fail);
  EXPECT_EQ(steps[1].reason, "slower than baseline");

  auto shapes = store->shapes("k1");
  ASSERT_EQ(shapes.size(), 2u);
  ShapeRecord want = perf_shape(4096, 12);
  EXPECT_EQ(shapes[0].point, want.point);
  ASSERT_TRUE(shapes[0].baseline && shapes[0].candidate);
  EXPECT_EQ(shapes[0].baseline->samples, want.baseline->samples);
  EXPECT_EQ(shapes[0].candidate->samples, want.candidate->samples);
  EXPECT_EQ(shapes[0].candidate->median, want.candidate->median);
  EXPECT_EQ(shapes[0].candidate->noise, want.candidate->noise);
  EXPECT_EQ(shapes[0].speedup, want.speedup);
  EXPECT_EQ(shapes[0].throughput, 3.5e12);
  EXPECT_FALSE(shapes[0].correct.has_value());
  EXPECT_FALSE(shapes[0].seed.has_value());
  EXPECT_EQ(shapes[1].set, PointSet::heldout);
  EXPECT_EQ(shapes[1].seed, 2u);
  EXPECT_EQ(shapes[1].correct, false);
  EXPECT_EQ(shapes[1].mismatches, 12u);
  EXPECT_EQ(shapes[1].first_bad_index, 7);
  EXPECT_EQ(shapes[1].reason, corr.reason);
  EXPECT_FALSE(shapes[1].baseline.has_value());
  EXPECT_TRUE(store->integrity_ok());
}

TEST_F(StoreTest, RunInfoAndReopen) {
  {
    auto store = ResultStore::open(dir_);
    EXPECT_FALSE(store->run_info().has_value());
    store->set_run_info({"abc123", "quickstart", "cpu (2 threads)", "0.1.0", "", "s3cret"});
    store->record_step(step("k1"), {perf_shape(16, 3)});
  }
  auto store = ResultStore::open(dir_);
  auto info = store->run_info();
  ASSERT_TRUE(info);
  EXPECT_EQ(info->plan_hash, "abc123");
  EXPECT_EQ(info->plan_name, "quickstart");
  EXPECT_EQ(info->secret, "s3cret");
  EXPECT_EQ(info->started.size(), 20u);  // filled in: 2026-01-01T00:00:00Z
  EXPECT_TRUE(store->step_done("k1"));
  EXPECT_EQ(store->shapes("k1").size(), 1u);
}

TEST_F(StoreTest, RecordingAKeyAgainReplacesIt) {
  auto store = ResultStore::open(dir_);
  store->record_step(step("k1", StepOutcome::error), {perf_shape(1, 5), perf_shape(2, 5)});
  store->record_step(step("k1"), {perf_shape(3, 4)});
  auto steps = store->steps();
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].outcome, StepOutcome::ok);
  auto shapes = store->shapes("k1");
  ASSERT_EQ(shapes.size(), 1u);
  EXPECT_EQ(shapes[0].baseline->samples.size(), 4u);
  EXPECT_TRUE(store->integrity_ok());
}

TEST_F(StoreTest, UsesWalMode) {
  auto store = ResultStore::open(dir_);
  store->record_step(step("k1"));
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir_ / "results.db").c_str(), &db), SQLITE_OK);
  sqlite3_stmt* q = nullptr;
  sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &q, nullptr);
  ASSERT_EQ(sqlite3_step(q), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(q, 0)), "wal");
  sqlite3_finalize(q);
  sqlite3_close(db);
  EXPECT_TRUE(fs::exists(dir_ / "results.db-wal"));
}

TEST_F(StoreTest, OpensAStoreWrittenBeforeTheTaskHashColumn) {
  ResultStore::open(dir_)->record_step(step("k1"), {perf_shape(1, 2)});
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir_ / "results.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "ALTER TABLE step DROP COLUMN task_hash", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  auto store = ResultStore::open(dir_);
  StepRecord got;
  ASSERT_TRUE(store->step_done("k1", &got));
  EXPECT_EQ(got.task_hash, "");
  store->record_step(step("k2"));
  ASSERT_TRUE(store->step_done("k2", &got));
  EXPECT_EQ(got.task_hash, "th-k2");
  EXPECT_TRUE(store->integrity_ok());
}

TEST_F(StoreTest, BadFolderOrFileIsANamedError) {
  fs::create_directories(dir_);
  std::ofstream(dir_ / "file") << "x";
  EXPECT_THROW(ResultStore::open(dir_ / "file" / "sub"), StoreError);
  fs::create_directories(dir_ / "junk");
  std::ofstream(dir_ / "junk" / "results.db") << std::string(8192, 'j');
  try {
    ResultStore::open(dir_ / "junk");
    ADD_FAILURE() << "opened a garbage database";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("results.db"), std::string::npos) << e.what();
  }
}

TEST(StepOutcomeNames, ParseRoundTrip) {
  for (StepOutcome o : {StepOutcome::ok, StepOutcome::fail, StepOutcome::skip, StepOutcome::error})
    EXPECT_EQ(parse_outcome(outcome_name(o)), o);
  EXPECT_EQ(parse_outcome("skip"), StepOutcome::skip);
  EXPECT_FALSE(parse_outcome("maybe").has_value());
}

// Content of step i, so a reader can verify every surviving step byte for byte.
std::vector<ShapeRecord> shapes_of(int i) {
  std::vector<ShapeRecord> v;
  for (int k = 0; k < 4; ++k) v.push_back(perf_shape(i * 10 + k, 40));
  return v;
}

// kill -9 in the middle of writing: the reopened store holds every step whose commit returned,
// each complete, and nothing half-written.
TEST_F(StoreTest, SurvivesSigkillMidWrite) {
  for (int round = 0; round < 3; ++round) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(fds[0]);
      try {
        auto store = ResultStore::open(dir_);
        int first = static_cast<int>(store->steps().size());
        for (int i = first;; ++i) {
          store->record_step(step(fmt::format("step-{}", i)), shapes_of(i));
          if (write(fds[1], &i, sizeof i) != sizeof i) _exit(3);
        }
      } catch (...) {
        _exit(2);
      }
    }
    // Whatever happens below, the child does not outlive the test.
    struct Reaper {
      pid_t pid;
      ~Reaper() {
        if (pid > 0) {
          kill(pid, SIGKILL);
          waitpid(pid, nullptr, 0);
        }
      }
    } reaper{pid};
    close(fds[1]);
    int last = -1, got = 0;
    // Let the child commit a few steps (more each round), then kill it while it writes.
    for (int seen = 0; seen < 5 + 7 * round; ++seen)
      ASSERT_EQ(read(fds[0], &got, sizeof got), static_cast<ssize_t>(sizeof got));
    last = got;
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    reaper.pid = -1;
    EXPECT_TRUE(WIFSIGNALED(status));
    close(fds[0]);

    auto store = ResultStore::open(dir_);
    ASSERT_TRUE(store->integrity_ok()) << "round " << round;
    auto steps = store->steps();
    ASSERT_GE(static_cast<int>(steps.size()), last + 1) << "a committed step was lost";
    for (size_t i = 0; i < steps.size(); ++i) {
      ASSERT_EQ(steps[i].key, fmt::format("step-{}", i));
      auto shapes = store->shapes(steps[i].key);
      auto want = shapes_of(static_cast<int>(i));
      ASSERT_EQ(shapes.size(), want.size());
      for (size_t k = 0; k < shapes.size(); ++k) {
        ASSERT_EQ(shapes[k].point, want[k].point);
        ASSERT_EQ(shapes[k].baseline->samples, want[k].baseline->samples);
        ASSERT_EQ(shapes[k].candidate->samples, want[k].candidate->samples);
      }
    }
  }
}

}  // namespace
}  // namespace kta::engine
