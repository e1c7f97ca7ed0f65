// The python runner on a GPU (label gpu; `ctest -L gpu` on the GPU machine with KTA_GPU_TESTS=ON
// and a Python that has torch with CUDA and triton, e.g. KTA_PYTHON=...): triton2triton tasks
// evaluated for real under the cold and the batch protocol, a wrong Triton candidate failing
// correctness, and a torch2hip task with torch on cuda against a HIP candidate.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <fstream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kCases = KTA_RUNNER_CASES;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class RunnerGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("kta-runner-gpu-" + std::to_string(std::random_device{}()));
    fs::create_directories(dir);
    setenv("KTA_CACHE_DIR", KTA_RUNNER_TEST_CACHE, 1);
  }
  void TearDown() override {
    std::error_code ec;
    if (!HasFailure()) fs::remove_all(dir, ec);
  }
  json eval(const fs::path& file, const std::string& args = "") {
    std::string cmd = std::string(KTA_BINARY) + " eval " + file.string() + " --device hip --quick --output " +
                      (dir / "run").string() + " " + args + " >" + (dir / "stdout").string() + " 2>" +
                      (dir / "stderr").string();
    EXPECT_EQ(std::system(cmd.c_str()) == -1, false);
    err = slurp(dir / "stderr");
    json doc = json::parse(slurp(dir / "run" / "results.json"), nullptr, false);
    EXPECT_FALSE(doc.is_discarded()) << err;
    return doc.is_discarded() || doc["tasks"].empty() ? json::object() : doc["tasks"][0];
  }
  fs::path dir;
  std::string err;
};

void expect_timed_and_correct(const json& t, const std::string& err) {
  EXPECT_EQ(t["skipped"], "") << err;
  EXPECT_TRUE(t["compiled"].get<bool>()) << t["failure_reason"] << err;
  EXPECT_TRUE(t["correct"].get<bool>()) << t["failure_reason"] << err;
  EXPECT_GT(t["speedup"].get<double>(), 0) << err;
  EXPECT_EQ(t["heldout"]["correct"], true) << err;
}

TEST_F(RunnerGpu, TritonTaskRunsForRealUnderTheColdProtocol) {
  json t = eval(kCases / "triton_add" / "triton_add.kta");
  expect_timed_and_correct(t, err);
  // Baseline and candidate are the same kernel: on the shape that is not launch-bound the
  // interleaved measurement must find them equal.
  for (const json& s : t["shapes"]) {
    if (s.contains("speedup") && s["speedup"].is_number() && s["point"].contains("N") &&
        s["point"]["N"] == 65536) {
      EXPECT_NEAR(s["speedup"].get<double>(), 1.0, 0.15) << s.dump();
    }
  }
}

TEST_F(RunnerGpu, TritonTaskRunsUnderTheBatchProtocol) {
  json t = eval(kCases / "triton_add_batch" / "triton_add_batch.kta");
  expect_timed_and_correct(t, err);
  // The same kernel on both sides, both replayed from CUDA graphs: equal within noise.
  for (const json& s : t["shapes"]) {
    if (s.contains("speedup") && s["speedup"].is_number()) {
      EXPECT_NEAR(s["speedup"].get<double>(), 1.0, 0.15) << s.dump();
    }
  }
}

TEST_F(RunnerGpu, WrongTritonCandidateFailsCorrectness) {
  json t = eval(kCases / "triton_add" / "triton_add.kta", "--replay " + (kCases / "solutions" / "wrong").string());
  EXPECT_TRUE(t["compiled"].get<bool>()) << err;
  EXPECT_FALSE(t["correct"].get<bool>());
  EXPECT_NE(t["failure_reason"].get<std::string>().find("z: "), std::string::npos) << t["failure_reason"];
}

TEST_F(RunnerGpu, TorchOnCudaAgainstAHipCandidate) {
  expect_timed_and_correct(eval(kCases / "scale_gelu" / "scale_gelu.kta"), err);
}

}  // namespace
