#include "engine/device/cpu/ceilings.h"

#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <new>
#include <string>
#include <utility>

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
  LargeBuffer buffer(n * sizeof(uint64_t));
  auto* data = reinterpret_cast<uint64_t*>(buffer.data());
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

// The largest cache of cpu0 as the kernel reports it in sysfs ("32768K"). Preferred over
// sysconf(_SC_LEVEL3_CACHE_SIZE), which on some VMs reports ten times the real size (320 MiB for
// a 32 MiB L3 seen here).
size_t sysfs_last_level_cache_bytes() {
  size_t best = 0;
  int best_level = 0;
  for (int index = 0; index < 8; ++index) {
    std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    std::ifstream level_file(dir + "level"), type_file(dir + "type"), size_file(dir + "size");
    int level = 0;
    std::string type, size;
    if (!(level_file >> level) || !(type_file >> type) || !(size_file >> size)) break;
    if (type == "Instruction" || size.empty()) continue;
    size_t bytes = std::strtoull(size.c_str(), nullptr, 10);
    char unit = size.back();
    if (unit == 'K') bytes <<= 10;
    if (unit == 'M') bytes <<= 20;
    if (level > best_level) best_level = level, best = bytes;
  }
  return best;
}

constexpr size_t kHugePage = size_t(2) << 20;

}  // namespace

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

CpuCeilings cpu_ceilings_with(size_t last_level_cache_bytes, double dram_read) {
  CpuCeilings x;
  if (dram_read > 0) {
    x.dram_read = dram_read;
  } else {
    size_t bytes =
        std::clamp<size_t>(4 * last_level_cache_bytes, size_t(64) << 20, kMaxReadBufferBytes);
    x.dram_read = read_rate(bytes, 1);
  }
  x.clock_hz = max_clock_hz();
  double hz = x.clock_hz > 0 ? x.clock_hz : 6e9;
  x.cache_read = 128 * hz;  // two 64-byte loads per cycle
  x.flops = 64 * hz;        // two FMA ports x 16 fp32 lanes x 2 flop
  return x;
}

const CpuCeilings& cpu_ceilings(size_t last_level_cache_bytes) {
  static const CpuCeilings c = cpu_ceilings_with(last_level_cache_bytes, 0);
  return c;
}

size_t last_level_cache_bytes() {
  if (size_t sysfs = sysfs_last_level_cache_bytes(); sysfs > 0) return sysfs;
  long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (l3 > 0) return size_t(l3);
  if (l2 > 0) return size_t(l2);
  return size_t(32) << 20;
}

LargeBuffer::LargeBuffer(size_t bytes) : bytes_(bytes) {
  if (bytes == 0) return;
  mapped_ = bytes + kHugePage;
  mapping_ = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping_ == MAP_FAILED) {
    mapping_ = nullptr;
    throw std::bad_alloc();
  }
  auto start = (reinterpret_cast<uintptr_t>(mapping_) + kHugePage - 1) & ~(kHugePage - 1);
  data_ = reinterpret_cast<char*>(start);
  madvise(data_, bytes, MADV_HUGEPAGE);  // advice: without huge pages it works, only slower
}

LargeBuffer::~LargeBuffer() {
  if (mapping_ != nullptr) munmap(mapping_, mapped_);
}

LargeBuffer::LargeBuffer(LargeBuffer&& other) noexcept
    : mapping_(std::exchange(other.mapping_, nullptr)),
      mapped_(std::exchange(other.mapped_, 0)),
      data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)) {}

LargeBuffer& LargeBuffer::operator=(LargeBuffer&& other) noexcept {
  if (this != &other) {
    if (mapping_ != nullptr) munmap(mapping_, mapped_);
    mapping_ = std::exchange(other.mapping_, nullptr);
    mapped_ = std::exchange(other.mapped_, 0);
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

}  // namespace kta::engine::cpu
