// Shared by the runner's end-to-end tests (cpu device, and the gpu label): runs the kta binary's
// `eval` on a case under tests/runner/cases in a scratch folder and reads back results.json.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>

#include "tests/support/kta_cli.h"

namespace kta::test {

namespace fs = std::filesystem;
using nlohmann::json;

inline const fs::path kRunnerCases = KTA_RUNNER_CASES;

class RunnerEval : public ::testing::Test {
 protected:
  explicit RunnerEval(std::string device) : device_(std::move(device)) {}
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("kta-runner-" + device_ + "-" + std::to_string(std::random_device{}()));
    fs::create_directories(dir);
  }
  void TearDown() override {
    std::error_code ec;
    if (!HasFailure()) fs::remove_all(dir, ec);
  }
  // Runs `kta eval FILE --device DEVICE --quick ARGS`; returns results.json (an empty object when
  // there is none, with a failure recorded).
  json eval(const fs::path& file, const std::string& args = "") {
    KtaRun r = run_kta(KTA_BINARY, dir,
                       "eval " + file.string() + " --device " + device_ + " --quick --output " +
                           (dir / "run").string() + " " + args,
                       env_with({{"KTA_CACHE_DIR", cache_dir.string()}}));
    status = r.status;
    out = r.out;
    err = r.err;
    json doc = json::parse(slurp(dir / "run" / "results.json"), nullptr, false);
    EXPECT_FALSE(doc.is_discarded()) << err;
    return doc.is_discarded() ? json::object() : doc;
  }
  // The first task's entry of eval(...).
  json eval_task(const fs::path& file, const std::string& args = "") {
    json doc = eval(file, args);
    return doc.contains("tasks") && !doc["tasks"].empty() ? doc["tasks"][0] : json::object();
  }

  fs::path dir;
  fs::path cache_dir = KTA_RUNNER_TEST_CACHE;  // KTA_CACHE_DIR of the runs
  Env env;                                     // more variables for the runs
  Env env_with(Env base) const {
    base.insert(env.begin(), env.end());
    return base;
  }
  int status = 0;
  std::string out, err;

 private:
  std::string device_;
};

}  // namespace kta::test
