#include "engine/device/cpu/ceilings.h"

#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace kta::engine::cpu {
namespace {

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// The fastest clock a core may run at: cpufreq's maximum, else the highest "cpu MHz" of
// /proc/cpuinfo with room for turbo, else 6 GHz (no x86 core runs faster).
double max_clock_hz() {
  std::ifstream f("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  double khz = 0;
  if (f >> khz && khz > 0) return khz * 1e3;
  std::ifstream info("/proc/cpuinfo");
  double best = 0;
  for (std::string line; std::getline(info, line);) {
    if (line.rfind("cpu MHz", 0) != 0) continue;
    auto colon = line.find(':');
    if (colon != std::string::npos)
      best = std::max(best, std::strtod(line.c_str() + colon + 1, nullptr));
  }
  if (best > 0) return best * 1e6 * 1.5;
  return 0;
}

// Bytes per CPU-second of one thread reading `bytes` `passes` times; the best of three.
double read_rate(size_t bytes, int passes) {
  size_t n = bytes / sizeof(uint64_t);
  std::vector<uint64_t> data(n);
  for (size_t i = 0; i < n; ++i) data[i] = i * 0x9e3779b97f4a7c15ull;
  double best = 0;
  volatile uint64_t sink = 0;
  for (int attempt = 0; attempt < 3; ++attempt) {
    double t0 = thread_cpu_seconds();
    uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (int p = 0; p < passes; ++p) {
      for (size_t i = 0; i + 4 <= n; i += 4) {
        s0 += data[i];
        s1 += data[i + 1];
        s2 += data[i + 2];
        s3 += data[i + 3];
      }
    }
    double t = thread_cpu_seconds() - t0;
    sink = sink + s0 + s1 + s2 + s3;
    if (t > 0) best = std::max(best, double(bytes) * passes / t);
  }
  return best;
}

}  // namespace

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

const CpuCeilings& cpu_ceilings(size_t last_level_cache_bytes) {
  static const CpuCeilings c = [&] {
    CpuCeilings x;
    size_t bytes = std::max<size_t>(4 * last_level_cache_bytes, size_t(64) << 20);
    x.dram_read = read_rate(bytes, 1);
    x.clock_hz = max_clock_hz();
    double hz = x.clock_hz > 0 ? x.clock_hz : 6e9;
    x.cache_read = 128 * hz;  // two 64-byte loads per cycle
    x.flops = 64 * hz;        // two FMA ports x 16 fp32 lanes x 2 flop
    return x;
  }();
  return c;
}

}  // namespace kta::engine::cpu
