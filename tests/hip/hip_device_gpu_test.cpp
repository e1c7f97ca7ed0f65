// The hip device on a real GPU (opt-in: -DKTA_GPU_TESTS=ON, ctest label `gpu`). Each test runs in
// its own process under ctest, so the illegal-address test poisons no other test's context; run
// by hand, the binary runs that test last for the same reason.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <numeric>

#include "engine/device/hip/hip_plugin_loader.h"

namespace kta::engine {
namespace {
namespace fs = std::filesystem;

KernelArg ptr(Buffer b, const std::string& pointee = "float") {
  KernelArg a;
  a.type = ArgType::ptr;
  a.pointee = pointee;
  a.buffer = b;
  return a;
}
KernelArg f64(double v) {
  KernelArg a;
  a.type = ArgType::f64;
  a.scalar.f = v;
  return a;
}
KernelArg i64(int64_t v) {
  KernelArg a;
  a.type = ArgType::i64;
  a.scalar.i = v;
  return a;
}
KernelArg i32(int64_t v) {
  KernelArg a;
  a.type = ArgType::i32;
  a.scalar.i = v;
  return a;
}

class HipGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    cache_ = fs::temp_directory_path() / ("kta-hip-gpu-" + std::to_string(::getpid()));
    DeviceOptions o;
    o.cache_dir = cache_;
    hip::HipLoad l = hip::load_hip_device(o, 0, KTA_HIP_PLUGIN_FILE);
    ASSERT_NE(l.device, nullptr) << l.error;
    dev_ = std::move(l.device);
  }
  void TearDown() override {
    dev_.reset();
    fs::remove_all(cache_);
  }
  CompileResult compile(const std::string& file, const std::string& entry,
                        std::vector<KernelArg> sig, bool launcher = false) {
    CompileRequest r;
    r.source = fs::path(KTA_HIP_TEST_KERNELS) / file;
    r.entry = entry;
    r.signature = std::move(sig);
    r.launcher = launcher;
    return dev_->compile(r);
  }
  fs::path cache_;
  std::unique_ptr<Device> dev_;
};

TEST_F(HipGpu, InfoDescribesTheGpu) {
  std::string why;
  EXPECT_GE(hip::hip_device_count(&why, KTA_HIP_PLUGIN_FILE), 1) << why;
  DeviceInfo i = dev_->info();
  EXPECT_EQ(i.kind, engine::DeviceKind::hip);
  EXPECT_EQ(i.timer, engine::DeviceTimer::events);
  EXPECT_TRUE(i.own_memory);
  EXPECT_GT(i.peak_flops, 0);
  EXPECT_EQ(i.warp_size, 32);
  EXPECT_GT(i.l2_bytes, size_t(1) << 20);
  EXPECT_GT(i.peak_bandwidth, 5e11);
  EXPECT_NE(i.details.find("sm_"), std::string::npos) << i.details;
  // The event timer's tick is measured when the device opens (torch events on an H200 read
  // multiples of 32 ns); CUDA documents "about half a microsecond" as the coarse end.
  EXPECT_NE(i.details.find("event timer tick"), std::string::npos) << i.details;
  EXPECT_NE(i.details.find("(measured)"), std::string::npos) << i.details;
  EXPECT_GT(i.timer_resolution, 0);
  EXPECT_LE(i.timer_resolution, 1e-6);
  std::printf("device: %s | %s | copy peak %.3f TB/s\n", i.name.c_str(), i.details.c_str(),
              i.peak_bandwidth / 1e12);
}

TEST_F(HipGpu, SaxpyRunsWithScalarsConvertedToTheKernelsTypes) {
  const int64_t n = 1000003;
  std::vector<float> x(n), y(n);
  for (int64_t i = 0; i < n; ++i) x[i] = float(i % 97) * 0.5f, y[i] = float(i % 13);
  Buffer bx = dev_->alloc(n * 4), by = dev_->alloc(n * 4);
  dev_->upload(bx, x.data(), n * 4);
  dev_->upload(by, y.data(), n * 4);
  std::vector<KernelArg> args = {f64(3.0), ptr(bx), ptr(by), i64(n)};
  CompileResult c = compile("saxpy.hip", "saxpy", args);
  ASSERT_TRUE(c.ok) << c.error << c.log;
  LaunchConfig cfg{{unsigned((n + 255) / 256), 1, 1}, {256, 1, 1}, 0};
  LaunchResult r = dev_->launch(c.module, args, cfg);
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<float> out(n);
  dev_->download(out.data(), by, n * 4);
  for (int64_t i = 0; i < n; i += 9973) ASSERT_EQ(out[i], 3.0f * x[i] + y[i]) << i;
  ASSERT_EQ(out[n - 1], 3.0f * x[n - 1] + y[n - 1]);
  // The second compile is a hit in kta's cache and loads in milliseconds.
  CompileResult again = compile("saxpy.hip", "saxpy", args);
  ASSERT_TRUE(again.ok);
  EXPECT_TRUE(again.cache_hit);
  EXPECT_LT(again.seconds, 0.005) << again.seconds;
  std::printf("saxpy compile+load %.1f ms, cache hit %.2f ms\n", c.seconds * 1e3,
              again.seconds * 1e3);
}

TEST_F(HipGpu, WarpBallotMatchesTheFullWarp) {
  Buffer out = dev_->alloc(8);
  std::vector<KernelArg> args = {ptr(out, "uint64_t")};
  CompileResult c = compile("faults.hip", "ballot_count", args);
  ASSERT_TRUE(c.ok) << c.error << c.log;
  ASSERT_TRUE(dev_->launch(c.module, args, {{1, 1, 1}, {32, 1, 1}, 0}).ok);
  uint64_t b = 0;
  dev_->download(&b, out, 8);
  uint64_t want = 0;
  for (int t = 0; t < 32; t += 3) want |= 1ull << t;
  EXPECT_EQ(b, want);
}

TEST_F(HipGpu, DynamicSharedMemoryAbove48KiB) {
  const int n = 16384;  // 64 KiB of floats
  Buffer y = dev_->alloc(n * 4);
  std::vector<KernelArg> args = {ptr(y), i32(n)};
  CompileResult c = compile("faults.hip", "big_shared", args);
  ASSERT_TRUE(c.ok) << c.error << c.log;
  LaunchResult r = dev_->launch(c.module, args, {{1, 1, 1}, {256, 1, 1}, n * 4});
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<float> out(n);
  dev_->download(out.data(), y, n * 4);
  EXPECT_EQ(out[0], float(n - 1));
  EXPECT_EQ(out[n - 1], 0.0f);
}

TEST_F(HipGpu, PrintfIsCapturedInTheResult) {
  std::vector<KernelArg> args = {i32(42)};
  CompileResult c = compile("faults.hip", "say_hello", args);
  ASSERT_TRUE(c.ok) << c.error << c.log;
  LaunchResult r = dev_->launch(c.module, args, {{2, 1, 1}, {64, 1, 1}, 0});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.output, "hello from the gpu 42\n");
}

TEST_F(HipGpu, InvalidGeometryIsAFailedLaunch) {
  std::vector<KernelArg> args = {i32(1)};
  CompileResult c = compile("faults.hip", "say_hello", args);
  ASSERT_TRUE(c.ok);
  LaunchResult r = dev_->launch(c.module, args, {{1, 1, 1}, {2048, 1, 1}, 0});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "invalid geometry: block (2048,1,1) has 2048 threads, the limit is 1024");
  EXPECT_FALSE(r.context_lost);
  EXPECT_TRUE(dev_->launch(c.module, args, {{1, 1, 1}, {32, 1, 1}, 0}).ok);
}

TEST_F(HipGpu, TimedLaunchColdAndBatch) {
  const int64_t n = int64_t(1) << 24;
  Buffer bx = dev_->alloc(n * 4), by = dev_->alloc(n * 4);
  dev_->fill(bx, 0);
  dev_->fill(by, 0);
  std::vector<KernelArg> args = {f64(2.0), ptr(bx), ptr(by), i64(n)};
  CompileResult c = compile("saxpy.hip", "saxpy", args);
  ASSERT_TRUE(c.ok);
  LaunchConfig cfg{{unsigned(n / 256), 1, 1}, {256, 1, 1}, 0};
  TimedResult cold = dev_->timed_launch(c.module, args, cfg, true, 1);
  ASSERT_TRUE(cold.status.ok) << cold.status.error;
  TimedResult batch = dev_->timed_launch(c.module, args, cfg, false, 50);
  ASSERT_TRUE(batch.status.ok) << batch.status.error;
  double bw = 12.0 * double(n) / cold.seconds;
  std::printf("saxpy 2^24 cold %.2f us (%.2f TB/s), batch %.2f us\n", cold.seconds * 1e6, bw / 1e12,
              batch.seconds * 1e6);
  EXPECT_GT(cold.seconds, 1e-6);
  EXPECT_LT(bw, dev_->info().peak_bandwidth * 1.1);  // no faster than the copy peak
  EXPECT_GT(batch.seconds, 1e-6);
}

// NVIDIA exposes clocks through NVML (libnvidia-ml.so.1, part of the driver): every timed sample
// carries the SM and memory clocks it ran at.
TEST_F(HipGpu, TimedSamplesCarryPlausibleClocksOnNvidia) {
  DeviceInfo i = dev_->info();
  if (i.details.rfind("sm_", 0) != 0) GTEST_SKIP() << "not an NVIDIA GPU: " << i.details;
  EXPECT_NE(i.details.find("clocks: readable via NVML"), std::string::npos) << i.details;
  const int64_t n = int64_t(1) << 20;
  Buffer bx = dev_->alloc(n * 4), by = dev_->alloc(n * 4);
  dev_->fill(bx, 0);
  dev_->fill(by, 0);
  std::vector<KernelArg> args = {f64(2.0), ptr(bx), ptr(by), i64(n)};
  CompileResult c = compile("saxpy.hip", "saxpy", args);
  ASSERT_TRUE(c.ok) << c.log;
  LaunchConfig cfg{{unsigned(n / 256), 1, 1}, {256, 1, 1}, 0};
  for (bool cold : {true, false}) {
    TimedResult t = dev_->timed_launch(c.module, args, cfg, cold, cold ? 1 : 20);
    ASSERT_TRUE(t.status.ok) << t.status.error;
    std::printf("%s sample: %.2f us at SM %.0f MHz, memory %.0f MHz\n", cold ? "cold" : "batch",
                t.seconds * 1e6, t.sm_clock_mhz, t.mem_clock_mhz);
    EXPECT_GE(t.sm_clock_mhz, 100);
    EXPECT_LE(t.sm_clock_mhz, 5000);
    EXPECT_GE(t.mem_clock_mhz, 100);
    EXPECT_LE(t.mem_clock_mhz, 5000);
  }
}

TEST_F(HipGpu, LauncherModeBuildsCallsAndTimes) {
  const int64_t n = 100000;
  std::vector<float> x(n, 2.0f), y(n, 1.0f);
  Buffer bx = dev_->alloc(n * 4), by = dev_->alloc(n * 4);
  dev_->upload(bx, x.data(), n * 4);
  dev_->upload(by, y.data(), n * 4);
  CompileResult c = compile("launcher_saxpy.hip", "kta_launch", {}, true);
  ASSERT_TRUE(c.ok) << c.error << c.log;
  std::printf("launcher nvcc build %.0f ms\n", c.seconds * 1e3);
  LauncherArgs la;
  la.tensors = {{"x", bx, KTA_F32, {n}}, {"y", by, KTA_F32, {n}}};
  la.params = {{"a", true, 0, 0.5}, {"n", false, n, 0}};
  LaunchResult r = dev_->call(c.module, la);
  ASSERT_TRUE(r.ok) << r.error;
  dev_->download(y.data(), by, n * 4);
  EXPECT_EQ(y[0], 2.0f);
  EXPECT_EQ(y[n - 1], 2.0f);
  TimedResult t1 = dev_->timed_call(c.module, la, true, 1);
  ASSERT_TRUE(t1.status.ok) << t1.status.error;
  TimedResult t2 = dev_->timed_call(c.module, la, false, 20);
  ASSERT_TRUE(t2.status.ok) << t2.status.error;
  EXPECT_GT(t1.seconds, 0);
  EXPECT_GT(t2.seconds, 0);
  la.params.pop_back();  // the launcher refuses: a failed call, not a crash
  LaunchResult bad = dev_->call(c.module, la);
  EXPECT_FALSE(bad.ok);
  EXPECT_EQ(bad.error, "the launcher returned 1");
}

TEST_F(HipGpu, SignatureMismatchFailsTheCompileGate) {
  Buffer y = dev_->alloc(64);
  CompileResult c = compile("faults.hip", "big_shared", {ptr(y, "double"), i32(1)});
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.error,
            "signature mismatch: parameter 1 of 'big_shared' is float*, the task passes a double* "
            "buffer");
}

// Last in the file: it poisons the process's GPU context by design, so the binary run by hand
// (not under ctest, which gives each test its own process) still runs every other test first.
TEST_F(HipGpu, IllegalAddressLosesTheContextAndSaysSo) {
  Buffer y = dev_->alloc(64);
  std::vector<KernelArg> args = {ptr(y), i64(int64_t(1) << 40)};
  CompileResult c = compile("faults.hip", "wild_write", args);
  ASSERT_TRUE(c.ok) << c.error << c.log;
  LaunchResult r = dev_->launch(c.module, args, {{1, 1, 1}, {32, 1, 1}, 0});
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.context_lost);
  EXPECT_NE(r.error.find("illegal"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("worker must be restarted"), std::string::npos) << r.error;
  std::printf("illegal address -> %s\n", r.error.c_str());
  LaunchResult next = dev_->launch(c.module, args, {{1, 1, 1}, {32, 1, 1}, 0});
  EXPECT_FALSE(next.ok);
  EXPECT_TRUE(next.context_lost);
}

}  // namespace
}  // namespace kta::engine
