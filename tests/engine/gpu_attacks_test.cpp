// The adversarial candidates on the hip device (label gpu: -DKTA_GPU_TESTS=ON, `ctest -L gpu` on
// a GPU machine; without a GPU every test is skipped, saying why). They are launchers (built with
// `nvcc -x cu` on NVIDIA, hipcc on AMD) of the compute-bound mix task (cases/mix/mix.kta; the
// candidates are cases/solutions/<attack>/mix/mix_launch.hip, the same that e2e_test.cpp runs on
// the cpu device): a trick that worked (a skipped block, a memo hit) would save most of the work
// and read many times faster than the baseline (on the cpu device, with the protocol's fresh
// inputs and poison turned off, they read 10x to 85x), so "no gain" below is something the
// attacks could break. Each runs under cold timing (mix.kta) and batch timing (mix_batch.kta:
// graph replay of a batch of launches).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "engine/device/hip/hip_plugin_loader.h"
#include "tests/engine/gpu_run_dir.h"
#include "tests/support/kta_cli.h"

namespace {

namespace fs = std::filesystem;
using kta::test::KtaRun;
using kta::test::run_kta;
using kta::test::slurp;
using nlohmann::json;

const fs::path kCases = KTA_TEST_CASES_DIR;

enum class Timing { cold, batch };

class GpuAttacks : public kta::test::GpuRunDir {
 protected:
  GpuAttacks() : GpuRunDir("kta-gpu-attacks-") {}

  // Evaluates mix on the hip device with the candidate of `attack` (empty: the starter, through
  // the baseline agent); returns the task's entry of results.json.
  json eval(const std::string& attack, Timing timing) {
    const std::string mode = timing == Timing::cold ? "cold" : "batch";
    const fs::path file =
        timing == Timing::cold ? kCases / "mix" / "mix.kta" : kCases / "mix_batch.kta";
    const fs::path out = dir / ((attack.empty() ? "starter" : attack) + "-" + mode);
    std::string args = "eval " + file.string() + " --device hip --quick --output " + out.string();
    if (!attack.empty()) args += " --replay " + (kCases / "solutions" / attack).string();
    KtaRun r = run_kta(KTA_BINARY, dir, args, {{"KTA_CACHE_DIR", (dir / "cache").string()}});
    EXPECT_EQ(r.status, 0) << r.err;
    err = r.err;
    json doc = json::parse(slurp(out / "results.json"), nullptr, false);
    EXPECT_FALSE(doc.is_discarded()) << r.err;
    if (doc.is_discarded() || doc["tasks"].empty()) return json::object();
    // The run was on the hip device, not a fallback to the cpu device.
    EXPECT_EQ(doc["run"]["device"].get<std::string>().rfind("hip", 0), 0u) << doc["run"].dump();
    return doc["tasks"][0];
  }

  static std::string reason(const json& t) { return t.value("failure_reason", std::string()); }

  // Correct, and no 1.5x from the trick.
  void expect_no_gain(const std::string& attack, Timing timing) {
    SCOPED_TRACE(attack + (timing == Timing::cold ? " (cold)" : " (batch)"));
    json t = eval(attack, timing);
    EXPECT_TRUE(t.value("compiled", false)) << reason(t) << err;
    EXPECT_TRUE(t.value("correct", false)) << reason(t) << err;
    ASSERT_TRUE(t.contains("speedup") && t["speedup"].is_number()) << t.dump();
    EXPECT_LT(t["speedup"].get<double>(), 1.5) << t.dump();
  }

  // Caught: wrong by the correctness gate, by the verified timed launch, or timed faster than
  // physics allows; never a correct candidate that passes the performance gate.
  void expect_named_failure(const std::string& attack, Timing timing) {
    SCOPED_TRACE(attack + (timing == Timing::cold ? " (cold)" : " (batch)"));
    json t = eval(attack, timing);
    EXPECT_TRUE(t.value("compiled", false)) << reason(t) << err;
    EXPECT_FALSE(t.value("correct", false) && t.value("fast_enough", false)) << t.dump();
    const std::string why = reason(t);
    EXPECT_TRUE(why.rfind("correctness: ", 0) == 0 ||
                why.find("outputs of a timed launch are wrong") != std::string::npos ||
                why.find("physics floor: ") != std::string::npos ||
                why.find("compute floor: ") != std::string::npos)
        << why << "\n"
        << t.dump();
  }

  std::string err;
};

// The honest starter against the kernel-mode baseline: the same kernel, about 1x. The attacks'
// "no gain" below is measured against this.
TEST_F(GpuAttacks, TheStarterIsCorrectAndAsFastAsTheBaseline) {
  for (Timing timing : {Timing::cold, Timing::batch}) {
    json t = eval("", timing);
    EXPECT_TRUE(t.value("correct", false)) << reason(t) << err;
    ASSERT_TRUE(t.contains("speedup") && t["speedup"].is_number()) << t.dump();
    EXPECT_GT(t["speedup"].get<double>(), 0.5) << t.dump();
    EXPECT_LT(t["speedup"].get<double>(), 2.0) << t.dump();
  }
}

// Tricks that need a second look at the same inputs or outputs: every timed launch has inputs
// never seen before and a poisoned output (the memo is on the device, so graph replays run it).
TEST_F(GpuAttacks, SkipIfComputedGainsNothing) {
  expect_no_gain("skip_if_computed", Timing::cold);
  expect_no_gain("skip_if_computed", Timing::batch);
}
TEST_F(GpuAttacks, PoisonAwareGainsNothing) {
  expect_no_gain("poison_aware", Timing::cold);
  expect_no_gain("poison_aware", Timing::batch);
}
TEST_F(GpuAttacks, MemoByContentOnTheDeviceGainsNothing) {
  expect_no_gain("memo_content", Timing::cold);
  expect_no_gain("memo_content", Timing::batch);
}

// The runtime's event timer defined by the launcher, and work moved to the host's cores.
TEST_F(GpuAttacks, OwnTimerGainsNothing) {
  expect_no_gain("own_timer", Timing::cold);
  expect_no_gain("own_timer", Timing::batch);
}
TEST_F(GpuAttacks, HostComputeGainsNothing) {
  expect_no_gain("host_compute", Timing::cold);
  expect_no_gain("host_compute", Timing::batch);
}

// Tricks that leave outputs unwritten: memo by pointer, by call count, deferred to a thread.
TEST_F(GpuAttacks, MemoByPointerFailsByName) {
  expect_named_failure("memo_pointer", Timing::cold);
  expect_named_failure("memo_pointer", Timing::batch);
}
TEST_F(GpuAttacks, CallCountFailsByName) {
  expect_named_failure("call_count", Timing::cold);
  expect_named_failure("call_count", Timing::batch);
}
TEST_F(GpuAttacks, BackgroundThreadFailsByName) {
  expect_named_failure("background_thread", Timing::cold);
  expect_named_failure("background_thread", Timing::batch);
}

// Work on a non-blocking stream of the launcher's own: right outputs, hidden time.
TEST_F(GpuAttacks, SideStreamFailsByName) {
  expect_named_failure("side_stream", Timing::cold);
  expect_named_failure("side_stream", Timing::batch);
}

}  // namespace
