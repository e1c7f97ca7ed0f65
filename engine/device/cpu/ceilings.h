// The cpu device's physics ceilings: the highest rates real work reaches per second of the
// device's timer, which is CPU time summed over its threads. A kernel's bytes or flops per
// CPU-second can exceed what one core moves or computes only if it skipped work (or did it in
// another process), so these are per-core figures, and measured on CPU time they do not move
// when another process keeps the cores busy.
#pragma once

#include <cstddef>

namespace kta::engine::cpu {

struct CpuCeilings {
  double dram_read = 0;   // bytes per CPU-second, one thread summing a buffer beyond the LLC
  double cache_read = 0;  // bytes per CPU-second an L1-resident load stream could reach at best
  double flops = 0;       // fp32 flop per CPU-second at best (two 16-lane FMA ports per cycle)
  double clock_hz = 0;    // the fastest core clock found (0: unknown, a default was assumed)
};

// The largest read buffer the DRAM measurement uses: 4x the LLC, at most this. Virtual
// machines report the host's whole L3 (hundreds of MiB) and first touching gigabytes costs
// seconds there; a buffer that still fits a truly larger LLC reads faster, which only raises
// the ceiling (a looser floor, never a false failure).
inline constexpr size_t kMaxReadBufferBytes = size_t(256) << 20;

// Measured once per process (a ~100 ms read of a large buffer), then remembered. The engine
// measures and hands the rate to its workers (DeviceOptions::cpu_dram_read), so a worker's
// start does not repeat it.
const CpuCeilings& cpu_ceilings(size_t last_level_cache_bytes);
// The ceilings with a DRAM read rate measured elsewhere (`dram_read` > 0), else measured here.
CpuCeilings cpu_ceilings_with(size_t last_level_cache_bytes, double dram_read);

// The last-level cache of core 0: sysfs, else sysconf, else 32 MiB.
size_t last_level_cache_bytes();

// CPU time of this process over all its threads, seconds.
double process_cpu_seconds();

// Anonymous memory for large scratch buffers (the read measurement): mapped on
// 2 MiB boundaries and asking for transparent huge pages, so first touching it costs 512x fewer
// page faults than a std::vector's.
class LargeBuffer {
 public:
  LargeBuffer() = default;
  explicit LargeBuffer(size_t bytes);
  ~LargeBuffer();
  LargeBuffer(LargeBuffer&& other) noexcept;
  LargeBuffer& operator=(LargeBuffer&& other) noexcept;
  LargeBuffer(const LargeBuffer&) = delete;
  LargeBuffer& operator=(const LargeBuffer&) = delete;

  char* data() const { return data_; }
  size_t size() const { return bytes_; }

 private:
  void* mapping_ = nullptr;
  size_t mapped_ = 0;
  char* data_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace kta::engine::cpu
