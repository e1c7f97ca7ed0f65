// Isolation: candidate code runs in a kta-worker; crashes, hangs, memory exhaustion and
// sanitizer reports come back as failed results with a named reason, and the device keeps
// working with a fresh worker.
#include <unistd.h>

#include "engine/device/remote/remote_device.h"
#include "support/device_test_support.h"
#include "support/time_scale.h"

namespace kta::test {
namespace {

class Isolation : public ::testing::Test {
 protected:
  // Generous: a sanitizer's report or a restarted worker is slow on a busy machine. Only the hang
  // test runs under a short limit, on a device of its own.
  static DeviceOptions options(double launch_timeout_s = scaled_seconds(120)) {
    DeviceOptions o = device_test_options();
    o.launch_timeout_s = launch_timeout_s;
    o.memory_limit = size_t(2) << 30;
    return o;
  }
  engine::remote::RemoteDevice dev{options()};

  // vector_add still works (and sees the buffers' contents) after whatever happened.
  void expect_healthy() { expect_healthy(dev); }
  static void expect_healthy(engine::remote::RemoteDevice& dev) {
    const int n = 300;
    auto a = random_floats(n, 0, 1, 7), b = random_floats(n, 0, 1, 8);
    Buffer ba = upload(dev, a), bb = upload(dev, b), bc = dev.alloc(4 * n);
    uint64_t m = compile_kernel(dev, "vector_add.hip", "vector_add");
    auto r = dev.launch(m, {ptr(ba, "float"), ptr(bb, "float"), ptr(bc, "float"), i64(n)},
                        geometry1(2, 256));
    ASSERT_TRUE(r.ok) << r.error;
    auto c = download<float>(dev, bc, n);
    for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]);
  }
};

TEST_F(Isolation, KernelsRunInTheWorkerOnSharedBuffers) {
  EXPECT_EQ(dev.info().kind, engine::DeviceKind::cpu);
  EXPECT_GT(dev.worker_pid(), 0);
  EXPECT_NE(dev.worker_pid(), getpid());
  expect_healthy();
  EXPECT_EQ(dev.workers_started(), 1);
}

TEST_F(Isolation, SegfaultIsAFailedLaunchAndTheWorkerIsReplaced) {
  Buffer b = dev.alloc(4 * 64);
  std::vector<float> keep(64, 3.0f);
  dev.upload(b, keep.data(), 4 * 64);
  uint64_t m = compile_kernel(dev, "crash_segv.hip", "crash");
  pid_t before = dev.worker_pid();
  auto r = dev.launch(m, {ptr(b, "float")}, geometry1(1, 64));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.device_restarted);
  EXPECT_EQ(r.error.rfind("worker killed by signal 11 (SIGSEGV)", 0), 0u) << r.error;
  // Buffers are shared memory owned by the engine: they survive the worker.
  EXPECT_EQ(download<float>(dev, b, 64)[10], 3.0f);
  expect_healthy();
  EXPECT_NE(dev.worker_pid(), before);
  EXPECT_EQ(dev.workers_started(), 2);
}

TEST_F(Isolation, AbortInLauncherCode) {
  uint64_t m = compile_launcher(dev, "launcher_abort.hip");
  auto r = dev.call(m, LauncherArgs{});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.rfind("worker killed by signal 6 (SIGABRT)", 0), 0u) << r.error;
  expect_healthy();
}

TEST_F(Isolation, HangIsKilledAfterTheTimeLimit) {
  engine::remote::RemoteDevice hung{options(3)};
  std::vector<int> flag = {0};
  Buffer b = upload(hung, flag);
  uint64_t m = compile_kernel(hung, "hang.hip", "hang");
  auto r = hung.launch(m, {ptr(b, "int")}, geometry1(1, 1));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.rfind("timeout after 3 s", 0), 0u) << r.error;  // longer on a busy machine
  expect_healthy(hung);
}

TEST_F(Isolation, MemoryExhaustionNamesTheLimit) {
  uint64_t m = compile_launcher(dev, "launcher_oom.hip");
  LauncherArgs a;
  a.params.push_back(ParamArg{"gib", false, 16, 0});
  auto r = dev.call(m, a);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "out of memory (limit 2 GiB) in 'kta_launch'");
  expect_healthy();
}

TEST_F(Isolation, SanitizerNamesTheOutOfBoundsRead) {
  const int n = 100;
  auto x = random_floats(n, 0, 1);
  Buffer bx = upload(dev, x), by = dev.alloc(4 * n);
  CompileRequest req;
  req.source = kernel_path("oob_read.hip");
  req.entry = "oob_read";
  req.options.sanitize = true;
  CompileResult c = dev.compile(req);
  ASSERT_TRUE(c.ok) << c.error << c.log;
  auto r = dev.launch(c.module, {ptr(bx, "float"), ptr(by, "float"), i32(n)}, geometry1(1, 128));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "out-of-bounds read at oob_read.hip:7 (heap-buffer-overflow, 4 bytes)");
  // In bounds, the same sanitized kernel passes and writes through to the shared buffer.
  r = dev.launch(c.module, {ptr(bx, "float"), ptr(by, "float"), i32(n - 1)}, geometry1(1, 128));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(download<float>(dev, by, n)[5], x[5]);
  expect_healthy();
}

TEST_F(Isolation, SanitizedFiberKernelRunsCleanly) {
  // Barrier kernels switch stacks under AddressSanitizer: no false reports, right results.
  const int n = 20000, blocks = 8;
  auto x = random_floats(n, -1, 1);
  Buffer bx = upload(dev, x), bp = dev.alloc(4 * blocks);
  uint64_t m = compile_kernel(dev, "block_reduce.hip", "block_reduce", {}, 0, true);
  auto r = dev.launch(m, {ptr(bx, "float"), ptr(bp, "float"), i32(n)}, geometry1(blocks, 256));
  ASSERT_TRUE(r.ok) << r.error;
  auto p = download<float>(dev, bp, blocks);
  double got = 0, ref = 0;
  for (float v : p) got += v;
  for (float v : x) ref += v;
  EXPECT_NEAR(got, ref, 1e-2);
}

TEST_F(Isolation, CompileErrorsComeBackFromTheWorker) {
  CompileRequest req;
  req.source = kernel_path("compile_error.hip");
  req.entry = "broken";
  CompileResult c = dev.compile(req);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.error.rfind("compile error: compile_error.hip:6:12: error: ", 0), 0u) << c.error;
}

TEST_F(Isolation, TimedLaunchMeasuresInTheWorker) {
  const int n = 1 << 16;
  auto a = random_floats(n, 0, 1);
  Buffer ba = upload(dev, a), bc = dev.alloc(4 * n);
  uint64_t m = compile_kernel(dev, "vector_add.hip", "vector_add");
  auto t = dev.timed_launch(m, {ptr(ba, "float"), ptr(ba, "float"), ptr(bc, "float"), i64(n)},
                            geometry1(n / 256, 256), true, 3);
  ASSERT_TRUE(t.status.ok) << t.status.error;
  EXPECT_GT(t.seconds, 0);
  EXPECT_LT(t.seconds, 1);
  EXPECT_EQ(download<float>(dev, bc, n)[77], 2 * a[77]);
  // The cpu device has no clocks to read: the round trip keeps them "not readable".
  EXPECT_EQ(t.sm_clock_mhz, 0);
  EXPECT_EQ(t.mem_clock_mhz, 0);
}

TEST(Factory, SpecsResolve) {
  std::string why;
  EXPECT_EQ(engine::resolve_device_spec("cpu", &why), "cpu");
  EXPECT_EQ(why, "");
  if (access("/dev/kfd", F_OK) != 0 && access("/dev/nvidiactl", F_OK) != 0) {
    EXPECT_EQ(engine::resolve_device_spec("auto", &why), "cpu");
    EXPECT_EQ(why, "no GPU found (no /dev/kfd, no /dev/nvidiactl); using the cpu device");
  }
  EXPECT_EQ(engine::resolve_device_spec("hip:1"), "hip:1");
  EXPECT_EQ(engine::resolve_device_spec("hip"), "hip:0");
  EXPECT_THROW(engine::resolve_device_spec("tpu"), std::invalid_argument);
  EXPECT_THROW(engine::resolve_device_spec("hip:x"), std::invalid_argument);
  EXPECT_EQ(engine::resolve_device("cpu"), (engine::DeviceSpec{engine::DeviceKind::cpu, 0}));
  EXPECT_EQ(engine::resolve_device("hip:3"), (engine::DeviceSpec{engine::DeviceKind::hip, 3}));
  EXPECT_EQ(engine::device_spec_name({engine::DeviceKind::hip, 12}), "hip:12");
  EXPECT_EQ(engine::device_spec_name({}), "cpu");
  EXPECT_EQ(engine::parse_device_spec("hip:7"), (engine::DeviceSpec{engine::DeviceKind::hip, 7}));
  EXPECT_EQ(engine::parse_device_spec("auto"), std::nullopt);
  EXPECT_EQ(engine::parse_device_spec("fake"), std::nullopt);
  EXPECT_EQ(engine::parse_device_spec("hip:"), std::nullopt);
  auto d = engine::make_isolated_device("cpu", device_test_options());
  EXPECT_EQ(d->info().kind, engine::DeviceKind::cpu);
  if (access("/dev/kfd", F_OK) != 0 && access("/dev/nvidiactl", F_OK) != 0) {
    try {
      engine::make_isolated_device("hip:0", device_test_options());
      ADD_FAILURE() << "a hip device without a GPU";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("hip device unavailable: no GPU found", 0), 0u)
          << e.what();
    }
  }
}

// A device with memory of its own (a GPU's) is staged from the shared memory: uploads, fills and
// downloads go through the worker, and a restarted worker restages every buffer.
class Staged : public Isolation {
 protected:
  static DeviceOptions staged_options() {
    DeviceOptions o = options();
    o.cpu_own_memory = true;
    return o;
  }
  engine::remote::RemoteDevice staged{staged_options()};
};

TEST_F(Staged, LaunchSeesUploadsAndDownloadSeesResults) {
  EXPECT_EQ(staged.info().kind, engine::DeviceKind::cpu);
  EXPECT_TRUE(staged.info().own_memory);
  const int n = 300;
  auto a = random_floats(n, 0, 1, 7), b = random_floats(n, 0, 1, 8);
  Buffer ba = upload(staged, a), bb = upload(staged, b), bc = staged.alloc(4 * n);
  staged.fill(bc, 0xFF);
  uint64_t m = compile_kernel(staged, "vector_add.hip", "vector_add");
  auto r = staged.launch(m, {ptr(ba, "float"), ptr(bb, "float"), ptr(bc, "float"), i64(n)},
                         geometry1(2, 256));
  ASSERT_TRUE(r.ok) << r.error;
  auto c = download<float>(staged, bc, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]);
  // A fill after the launch reaches the device copy, not only the shared memory.
  staged.fill(bc, 0);
  EXPECT_EQ(download<float>(staged, bc, n)[5], 0.0f);
}

// The uploads and fills of a batch sample's round reach the device in one request: a round of
// 128 launches was 256 round trips to the worker per side before.
TEST_F(Staged, TogetherSendsUploadsAndFillsInOneRequest) {
  const int n = 300;
  auto a = random_floats(n, 0, 1, 17), b = random_floats(n, 0, 1, 18);
  Buffer ba = staged.alloc(4 * n), bb = staged.alloc(4 * n), bc = staged.alloc(4 * n);
  uint64_t m = compile_kernel(staged, "vector_add.hip", "vector_add");  // a worker runs
  int before = staged.requests_sent();
  staged.together([&] {
    staged.upload(ba, a.data(), 4 * n);
    staged.upload(bb, b.data(), 4 * n);
    staged.fill(bc, 0xFF);
  });
  EXPECT_EQ(staged.requests_sent() - before, 1);
  auto r = staged.launch(m, {ptr(ba, "float"), ptr(bb, "float"), ptr(bc, "float"), i64(n)},
                         geometry1(2, 256));
  ASSERT_TRUE(r.ok) << r.error;
  auto c = download<float>(staged, bc, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]);
  // A download inside together() sees the writes queued before it; later ones still arrive.
  staged.together([&] {
    staged.fill(bc, 0);
    EXPECT_EQ(download<float>(staged, bc, n)[5], 0.0f);
    staged.upload(bc, a.data(), 4 * n);
  });
  EXPECT_EQ(download<float>(staged, bc, n)[7], a[7]);
}

// Device::copy inside together(): on a staged device the copies travel with the uploads in one
// request and happen on the device's own memory; the launch sees the rotated input, a download
// reads it back. Without staging the shared memory is the device's: the same result.
TEST_F(Staged, CopiesHappenOnTheDeviceWithTheRoundsUploads) {
  const int n = 300, shift = 77;
  auto a = random_floats(n, 0, 1, 27), b = random_floats(n, 0, 1, 28);
  for (auto* d : {&staged, &dev}) {
    Buffer ba = d->alloc(4 * n), bb = d->alloc(4 * n), rot = d->alloc(4 * n), bc = d->alloc(4 * n);
    uint64_t m = compile_kernel(*d, "vector_add.hip", "vector_add");  // a worker runs
    int before = d->requests_sent();
    d->together([&] {
      d->upload(ba, a.data(), 4 * n);
      d->upload(bb, b.data(), 4 * n);
      const BufferCopy halves[] = {{rot, 0, ba, 4 * shift, 4 * (n - shift)},
                                   {rot, 4 * (n - shift), ba, 0, 4 * shift}};
      d->copy(halves);
      d->fill(bc, 0xFF);
    });
    EXPECT_EQ(d->requests_sent() - before, d == &staged ? 1 : 0);
    auto r = d->launch(m, {ptr(rot, "float"), ptr(bb, "float"), ptr(bc, "float"), i64(n)},
                       geometry1(2, 256));
    ASSERT_TRUE(r.ok) << r.error;
    auto c = download<float>(*d, bc, n);
    for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[(i + shift) % n] + b[i]) << i;
    EXPECT_EQ(download<float>(*d, rot, n)[0], a[shift]);
    const BufferCopy past{rot, 4, ba, 0, 4 * n};
    EXPECT_THROW(d->copy(std::span(&past, 1)), std::invalid_argument);
  }
}

TEST_F(Staged, RestartedWorkerRestagesBuffers) {
  Buffer b = staged.alloc(4 * 64);
  std::vector<float> keep(64, 3.0f);
  staged.upload(b, keep.data(), 4 * 64);
  uint64_t crash = compile_kernel(staged, "crash_segv.hip", "crash");
  auto r = staged.launch(crash, {ptr(b, "float")}, geometry1(1, 64));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.device_restarted);
  const int n = 64;
  auto x = random_floats(n, 0, 1, 9);
  Buffer bx = upload(staged, x), by = staged.alloc(4 * n);
  uint64_t add = compile_kernel(staged, "vector_add.hip", "vector_add");
  r = staged.launch(add, {ptr(b, "float"), ptr(bx, "float"), ptr(by, "float"), i64(n)},
                    geometry1(1, 64));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(staged.workers_started(), 2);
  auto y = download<float>(staged, by, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(y[i], 3.0f + x[i]);
}

}  // namespace
}  // namespace kta::test
