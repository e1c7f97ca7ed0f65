// The cpu device's physics ceilings (engine/device/cpu/ceilings.h): a read rate measured once
// per process on CPU time, a cache-resident ceiling and a compute bound from the core clock. The
// bounds below are sanity bounds, orders of magnitude wide, never a wall-clock margin: CPU time
// does not grow when other processes keep the cores busy.
#include "engine/device/cpu/ceilings.h"
#include "engine/device/cpu/cpu_device.h"
#include "support/device_test_support.h"

namespace kta::test {
namespace {

TEST(CpuCeilings, TheDeviceReportsAMeasuredReadRateAndAComputeBound) {
  cpu::CpuDevice dev{device_test_options()};
  DeviceInfo i = dev.info();
  EXPECT_EQ(i.timer, DeviceTimer::process_cpu);
  // One thread summing a buffer of at least 64 MiB: between 0.1 GB and 1 TB per CPU-second on
  // any machine this runs on (a DDR3 laptop reads a few GB/s, an HBM socket no core reads 1 TB/s).
  EXPECT_GT(i.peak_bandwidth, 1e8);
  EXPECT_LT(i.peak_bandwidth, 1e12);
  // Data in the cache moves faster than from DRAM: the batch protocol's ceiling is above the
  // cold one.
  EXPECT_GE(i.cache_bandwidth, i.peak_bandwidth);
  // 64 flop per cycle at a clock between 0.5 and 9 GHz.
  EXPECT_GE(i.peak_flops, 64 * 0.5e9);
  EXPECT_LE(i.peak_flops, 64 * 9e9);
  EXPECT_GE(i.physics_margin, 1.0);
  EXPECT_GT(i.l2_bytes, 0u);
}

TEST(CpuCeilings, MeasuredOncePerProcess) {
  const cpu::CpuCeilings& a = cpu::cpu_ceilings(size_t(8) << 20);
  const cpu::CpuCeilings& b = cpu::cpu_ceilings(size_t(8) << 20);
  EXPECT_EQ(&a, &b);
  EXPECT_EQ(a.dram_read, b.dram_read);
  EXPECT_GT(a.dram_read, 0);
  EXPECT_GT(a.flops, 0);
  EXPECT_GT(a.cache_read, 0);
}

// What the engine sees: the ceilings cross the worker protocol intact.
TEST(CpuCeilings, TheIsolatedDeviceReportsThemToo) {
  auto dev = make_isolated_device("cpu", device_test_options());
  DeviceInfo i = dev->info();
  EXPECT_GT(i.peak_bandwidth, 1e8);
  EXPECT_GE(i.cache_bandwidth, i.peak_bandwidth);
  EXPECT_GE(i.peak_flops, 64 * 0.5e9);
  EXPECT_EQ(i.physics_margin, 1.5);
  // The engine measured the read rate once, in this process; the worker reports that figure
  // rather than measuring again at its start.
  EXPECT_EQ(i.peak_bandwidth, cpu::cpu_ceilings(cpu::last_level_cache_bytes()).dram_read);
  DeviceOptions given = device_test_options();
  given.cpu_dram_read = 3.25e9;
  DeviceInfo g = make_isolated_device("cpu", given)->info();
  EXPECT_EQ(g.peak_bandwidth, 3.25e9);
  EXPECT_EQ(g.peak_flops, i.peak_flops);
}

// The scratch memory of the read measurement: huge-page aligned, movable, empty
// when asked for nothing.
TEST(CpuCeilings, LargeBuffersAreAlignedAndMove) {
  cpu::LargeBuffer a(size_t(3) << 20);
  ASSERT_NE(a.data(), nullptr);
  EXPECT_EQ(a.size(), size_t(3) << 20);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a.data()) % (size_t(2) << 20), 0u);
  a.data()[a.size() - 1] = 42;
  cpu::LargeBuffer b = std::move(a);
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(b.data()[b.size() - 1], 42);
  b = cpu::LargeBuffer();
  EXPECT_EQ(b.data(), nullptr);
  EXPECT_EQ(cpu::LargeBuffer(0).data(), nullptr);
  EXPECT_THROW(cpu::LargeBuffer(~size_t(0) >> 1), std::bad_alloc);
}

// A timed cold launch computes the right result after the flush (the flush writes only its own
// buffer, never the device's).
TEST(CpuCeilings, ColdFlushKeepsBuffersIntact) {
  cpu::CpuDevice dev{device_test_options()};
  const int n = 1 << 12;
  auto a = random_floats(n, 0, 1, 3);
  Buffer ba = upload(dev, a), bc = dev.alloc(4 * n);
  uint64_t m = compile_kernel(dev, "vector_add.hip", "vector_add");
  auto t = dev.timed_launch(m, {ptr(ba, "float"), ptr(ba, "float"), ptr(bc, "float"), i64(n)},
                            geometry1(n / 256, 256), true, 2);
  ASSERT_TRUE(t.status.ok) << t.status.error;
  auto c = download<float>(dev, bc, n);
  EXPECT_EQ(download<float>(dev, ba, n), a);
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], 2 * a[i]);
}

}  // namespace
}  // namespace kta::test
