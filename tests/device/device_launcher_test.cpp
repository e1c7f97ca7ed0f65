// Launcher-mode candidates: host code with hipMalloc, events, streams, hipLaunchKernelGGL and
// triple-chevron launches, called through the kta launch ABI.
#include <cmath>

#include "engine/device/cpu/cpu_device.h"
#include "support/device_test_support.h"

namespace kta::test {
namespace {

class Launcher : public ::testing::Test {
 protected:
  cpu::CpuDevice dev{device_test_options()};

  LauncherArgs args(Buffer x, Buffer y, int64_t n, int32_t dtype = KTA_F32) {
    LauncherArgs a;
    a.tensors.push_back(TensorArg{"x", x, dtype, {n}});
    a.tensors.push_back(TensorArg{"y", y, dtype, {n}});
    a.params.push_back(ParamArg{"N", false, n, 0});
    return a;
  }
};

TEST_F(Launcher, TwoKernelsAndAWorkspace) {
  const int n = 3001;
  auto x = random_floats(n, -3, 3);
  Buffer bx = upload(dev, x), by = dev.alloc(4 * n);
  uint64_t m = compile_launcher(dev, "launcher_two_kernels.hip");
  auto r = dev.call(m, args(bx, by, n));
  ASSERT_TRUE(r.ok) << r.error;
  auto y = download<float>(dev, by, n);
  double total = 0;
  for (float v : x) total += std::log1p(std::exp(double(v)));
  for (int i = 0; i < n; ++i)
    ASSERT_NEAR(y[i], std::log1p(std::exp(double(x[i]))) / total, 1e-7) << i;
}

TEST_F(Launcher, TripleChevronForms) {
  const int n = 1000;
  auto x = random_floats(n, -1, 1);
  Buffer bx = upload(dev, x), by = dev.alloc(4 * n);
  uint64_t m = compile_launcher(dev, "launcher_chevron.hip");
  auto r = dev.call(m, args(bx, by, n));
  ASSERT_TRUE(r.ok) << r.error;
  auto y = download<float>(dev, by, n);
  for (int i = 0; i < n; ++i) ASSERT_FLOAT_EQ(y[i], 2 * (1 + 3 * x[i])) << i;
}

TEST_F(Launcher, DeviceApiAndWarpSizeBothWays) {
  for (int ws : {32, 64}) {
    const int n = 700;
    std::vector<int> x(n);
    for (int i = 0; i < n; ++i) x[i] = i * 3;
    Buffer bx = upload(dev, x), by = dev.alloc(4 * n);
    cpu::CpuDevice d2([&] {
      DeviceOptions o = device_test_options();
      o.warp_size = ws;
      return o;
    }());
    Buffer dx = upload(d2, x), dy = d2.alloc(4 * n);
    uint64_t m = compile_launcher(d2, "launcher_device_api.hip");
    auto r = d2.call(m, args(dx, dy, n, KTA_I32));
    ASSERT_TRUE(r.ok) << "warp " << ws << ": " << r.error;
    auto y = download<int>(d2, dy, n);
    for (int i = 0; i < n; ++i) ASSERT_EQ(y[i], x[i] + ws) << i;
    dev.free(bx);
    dev.free(by);
  }
}

TEST_F(Launcher, IgnoredLaunchErrorStillFailsTheCall) {
  Buffer by = dev.alloc(4 * 2048);
  uint64_t m = compile_launcher(dev, "launcher_bad_geometry.hip");
  LauncherArgs a;
  a.tensors.push_back(TensorArg{"y", by, KTA_F32, {2048}});
  auto r = dev.call(m, a);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error,
            "kernel launch failed: invalid geometry: block (2048,1,1) has 2048 threads, the limit "
            "is 1024");
}

TEST_F(Launcher, KernelEntryRejectsLauncherUse) {
  uint64_t m = compile_kernel(dev, "vector_add.hip", "vector_add");
  auto r = dev.call(m, LauncherArgs{});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "module 'vector_add' is a kernel; use launch()");
}

}  // namespace
}  // namespace kta::test
