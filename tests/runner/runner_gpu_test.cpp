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

TEST_F(RunnerGpu, TorchOnCudaAgainstAHipCandidate) {
  expect_timed_and_correct(eval_task(kCases / "scale_gelu" / "scale_gelu.kta"), err);
}

}  // namespace
