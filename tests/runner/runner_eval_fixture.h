// Shared by the runner's end-to-end tests (cpu device, and the gpu label): runs the kta binary's
// `eval` on a case under tests/runner/cases in a scratch folder and reads back results.json.
#pragma once

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace kta::test {

namespace fs = std::filesystem;
using nlohmann::json;

inline const fs::path kRunnerCases = KTA_RUNNER_CASES;

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class RunnerEval : public ::testing::Test {
 protected:
  explicit RunnerEval(std::string device) : device_(std::move(device)) {}
  void SetUp() override {
    dir = fs::temp_directory_path() / ("kta-runner-" + device_ + "-" + std::to_string(std::random_device{}()));
    fs::create_directories(dir);
    setenv("KTA_CACHE_DIR", KTA_RUNNER_TEST_CACHE, 1);
  }
  void TearDown() override {
    std::error_code ec;
    if (!HasFailure()) fs::remove_all(dir, ec);
  }
  // Runs `kta eval FILE --device DEVICE --quick ARGS`; returns results.json (an empty object when
  // there is none, with a failure recorded).
  json eval(const fs::path& file, const std::string& args = "") {
    std::string cmd = std::string(KTA_BINARY) + " eval " + file.string() + " --device " + device_ +
                      " --quick --output " + (dir / "run").string() + " " + args + " >" +
                      (dir / "stdout").string() + " 2>" + (dir / "stderr").string();
    int rc = std::system(cmd.c_str());
    status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    out = slurp(dir / "stdout");
    err = slurp(dir / "stderr");
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
  int status = 0;
  std::string out, err;

 private:
  std::string device_;
};

}  // namespace kta::test
