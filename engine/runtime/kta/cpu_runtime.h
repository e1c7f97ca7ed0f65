// The interface between kernels compiled for the cpu device and kta's prebuilt cpu runtime
// library (libkta_cpu_runtime.so): per-thread builtin state, the block scheduler, barriers and
// warp exchanges, device printf, launch errors. Kernel objects include this through
// <hip/hip_runtime.h>; the cpu device and the runtime library include it directly.
#pragma once

#include <cstddef>
#include <cstdint>

#ifndef KTA_RT_API
#define KTA_RT_API __attribute__((visibility("default")))
#endif

// Bumped whenever a structure below changes; part of the kernel cache key.
#define KTA_CPU_RUNTIME_ABI 3

struct dim3 {
  uint32_t x, y, z;
  constexpr dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) : x(vx), y(vy), z(vz) {}
};

namespace kta_rt {

struct Index3 {
  uint32_t x, y, z;
};

// Builtin variables of the running GPU thread. One per OS thread; the fiber scheduler rewrites
// threadIdx/lane when it switches threads of a block.
struct ThreadState {
  Index3 thread_idx;
  Index3 block_idx;
  dim3 block_dim;
  dim3 grid_dim;
  void* dynamic_shared;
  uint32_t linear_tid;  // thread_idx.x + block_dim.x * (thread_idx.y + block_dim.y * thread_idx.z)
  uint32_t warp_size;
  void* scheduler;     // the fiber scheduler of the running block; null in loop mode
  const char* kernel;  // the running launch's kernel, as the launch named it
};

extern KTA_RT_API constinit thread_local ThreadState tls __attribute__((tls_model("initial-exec")));

// One kernel launch as the runtime sees it. `block` runs every thread of one block (a plain loop
// or the fiber scheduler, chosen by the kernel's compiled form); `closure` holds the arguments.
struct LaunchDesc {
  dim3 grid;
  dim3 block;
  size_t dynamic_shared_bytes;
  uint32_t warp_size;  // the kernel's, fixed when it was compiled
  void (*run_block)(void* closure);
  void* closure;
  const char* kernel;  // the kernel's name, for messages
};

// Where a warp shuffle is in the source, for the lane check (KTA_CHECK_LANES): a shuffle that
// reads an inactive or nonexistent lane fails the launch with this place in the message.
struct ShuffleSite {
  const char* what;  // "__shfl_xor", ...
  const char* file;
  int line;
  const char* function;
};

// Per-process settings, set by the device before any launch.
struct RuntimeConfig {
  uint32_t threads;  // OS threads that run blocks; 0: all cores
  uint32_t warp_size;
  size_t shared_mem_limit;
  uint32_t max_threads_per_block;
  size_t fiber_stack_bytes;
};

}  // namespace kta_rt

extern "C" {
// Runs a launch to completion. Returns 0, or nonzero with a message for kta_rt_last_error().
KTA_RT_API int kta_rt_launch(const kta_rt::LaunchDesc* desc);
// Runs thread_fn(closure) for every thread of the current block as fibers (barrier-capable).
KTA_RT_API void kta_rt_run_fibers(void (*thread_fn)(void*), void* closure);
KTA_RT_API void kta_rt_syncthreads();
KTA_RT_API void kta_rt_syncwarp();
// Deposits `value` for this lane and returns the value lane `src_lane` of the warp deposited.
// A lane that is inactive at the exchange (it exited, or the block's last warp is partial and
// has no such thread) reads 0 at warp size 64 (AMD's ds_bpermute) and all bits set at 32 (CUDA
// leaves it undefined). With a `site` such a read fails the launch instead, naming the site.
KTA_RT_API uint64_t kta_rt_warp_exchange(uint64_t value, uint32_t src_lane,
                                         const kta_rt::ShuffleSite* site);
// Returns the ballot of `predicate` over the lanes of this warp; inactive lanes vote 0.
KTA_RT_API uint64_t kta_rt_warp_ballot(int predicate);
KTA_RT_API int kta_rt_printf(const char* format, ...) __attribute__((format(printf, 1, 2)));
// Records a device-side failure (assert, trap) and unwinds the current GPU thread.
[[noreturn]] KTA_RT_API void kta_rt_fail(const char* what, const char* file, int line);

// Device-side API used by the cpu device.
KTA_RT_API void kta_rt_configure(const kta_rt::RuntimeConfig* config);
KTA_RT_API const char* kta_rt_last_error();
KTA_RT_API void kta_rt_clear_error();
// Device printf output collected since the last kta_rt_clear_output().
KTA_RT_API const char* kta_rt_output(size_t* length);
KTA_RT_API void kta_rt_clear_output();
// The first kernel launch failure since the last kta_rt_clear_error(), "" if none.
KTA_RT_API const char* kta_rt_sticky_error();
}
