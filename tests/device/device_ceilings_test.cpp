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
}

}  // namespace
}  // namespace kta::test
