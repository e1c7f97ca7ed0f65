// The cpu device's physics ceilings: the highest rates real work reaches per second of the
// device's timer, which is CPU time summed over its threads. A kernel's bytes or flops per
// CPU-second can exceed what one core moves or computes only if it skipped work (or did it in
// another process), so these are per-core figures, and measured on CPU time they do not move
// when another process keeps the cores busy.
#pragma once

#include <cstddef>

namespace kta::engine::cpu {

struct CpuCeilings {
  double dram_read = 0;   // bytes per CPU-second, one thread summing a buffer 4x the LLC
  double cache_read = 0;  // bytes per CPU-second an L1-resident load stream could reach at best
  double flops = 0;       // fp32 flop per CPU-second at best (two 16-lane FMA ports per cycle)
  double clock_hz = 0;    // the fastest core clock found (0: unknown, a default was assumed)
};

// Measured once per process (a ~100 ms read of a large buffer), then remembered.
const CpuCeilings& cpu_ceilings(size_t last_level_cache_bytes);

// CPU time of this process over all its threads, seconds.
double process_cpu_seconds();

}  // namespace kta::engine::cpu
