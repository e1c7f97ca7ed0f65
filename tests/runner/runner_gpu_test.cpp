// The python runner on a GPU (label gpu; `ctest -L gpu` on the GPU machine with KTA_GPU_TESTS=ON
// and a Python that has torch with CUDA and triton, e.g. KTA_PYTHON=...): triton2triton tasks
// evaluated for real under the cold and the batch protocol, a wrong Triton candidate failing
// correctness, and a torch2hip task with torch on cuda against a HIP candidate.
#include "tests/runner/runner_eval_fixture.h"

namespace {

using namespace kta::test;
const fs::path kCases = kRunnerCases;

class RunnerGpu : public RunnerEval {
 protected:
  RunnerGpu() : RunnerEval("hip") {}
};

void expect_timed_and_correct(const json& t, const std::string& err) {
  EXPECT_EQ(t["skipped"], "") << err;
  EXPECT_TRUE(t["compiled"].get<bool>()) << t["failure_reason"] << err;
  EXPECT_TRUE(t["correct"].get<bool>()) << t["failure_reason"] << err;
  EXPECT_GT(t["speedup"].get<double>(), 0) << err;
  EXPECT_EQ(t["heldout"]["correct"], true) << err;
}

TEST_F(RunnerGpu, TritonTaskRunsForRealUnderTheColdProtocol) {
  json t = eval_task(kCases / "triton_add" / "triton_add.kta");
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
  json t = eval_task(kCases / "triton_add_batch" / "triton_add_batch.kta");
  expect_timed_and_correct(t, err);
  // The same kernel on both sides, both replayed from CUDA graphs: equal within noise.
  for (const json& s : t["shapes"]) {
    if (s.contains("speedup") && s["speedup"].is_number()) {
      EXPECT_NEAR(s["speedup"].get<double>(), 1.0, 0.15) << s.dump();
    }
  }
}

TEST_F(RunnerGpu, WrongTritonCandidateFailsCorrectness) {
  json t = eval_task(kCases / "triton_add" / "triton_add.kta",
                     "--replay " + (kCases / "solutions" / "wrong").string());
  EXPECT_TRUE(t["compiled"].get<bool>()) << err;
  EXPECT_FALSE(t["correct"].get<bool>());
  EXPECT_NE(t["failure_reason"].get<std::string>().find("z: "), std::string::npos)
      << t["failure_reason"];
}

// Files under `root` whose name starts with `prefix`.
int files_named(const fs::path& root, const std::string& prefix) {
  int n = 0;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return 0;
  for (const auto& e : fs::recursive_directory_iterator(root, ec))
    if (e.is_regular_file() && e.path().filename().string().rfind(prefix, 0) == 0) ++n;
  return n;
}

// Each role's Triton kernels land in its own persistent folder, every point's specialization
// compiled ahead by warm-up workers when they are asked for (each role's marker says its warm-up
// finished in full); a second run over the same caches starts no workers and reads the same
// verdicts.
TEST_F(RunnerGpu, TritonCompilesAreCachedPerRoleAndWarmedAhead) {
  cache_dir = dir / "cache";
  env["KTA_WARM_WORKERS"] = "4";
  json first = eval_task(kCases / "triton_add" / "triton_add.kta");
  expect_timed_and_correct(first, err);
  for (const char* role : {"trusted", "candidate"}) {
    fs::path root = cache_dir / "python" / role;
    EXPECT_GE(files_named(root, "kta-warm-"), 1) << role;
    EXPECT_GE(files_named(root, "add_kernel"), 1) << role << ": no compiled kernel under " << root;
  }
  json second = eval_task(kCases / "triton_add" / "triton_add.kta");
  expect_timed_and_correct(second, err);
  EXPECT_EQ(first["correct"], second["correct"]);
}

TEST_F(RunnerGpu, TorchOnCudaAgainstAHipCandidate) {
  expect_timed_and_correct(eval_task(kCases / "scale_gelu" / "scale_gelu.kta"), err);
}

}  // namespace
