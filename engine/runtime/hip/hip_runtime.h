// kta's HIP device model for the cpu device: lets a HIP translation unit compile with the host
// compiler and run on kta's cpu runtime (engine/runtime/cpu). Each GPU thread is a call of the
// kernel function with the builtin variables (threadIdx, ...) set in thread-local state. Kept
// small on purpose: everything that need not be inline lives in the prebuilt runtime library,
// so a kernel compiles in well under a second.
#ifndef KTA_HIP_RUNTIME_H
#define KTA_HIP_RUNTIME_H

#include <atomic>
#include <cassert>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>

#include "kta/cpu_runtime.h"

// Both halves of the model: the barrier-capable (fiber) form of the launch is compiled in only
// when the source synchronizes; the cpu device decides that from the source and defines this.
#ifndef KTA_FIBERS
#define KTA_FIBERS 1
#endif
#ifndef KTA_WARP_SIZE
#define KTA_WARP_SIZE 64
#endif

#define __HIP_PLATFORM_KTA_CPU__ 1
#define __HIPCC__ 1
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __constant__
#define __managed__
// Static shared memory: one copy per running block. A block's threads all run on one OS thread,
// and an OS thread runs one block at a time, so a thread-local variable is exactly that.
#define __shared__ static thread_local
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_DYNAMIC_SHARED(type, var) type* var = static_cast<type*>(::kta_rt::tls.dynamic_shared);
#define HIP_DYNAMIC_SHARED_ATTRIBUTE

#define threadIdx (::kta_rt::tls.thread_idx)
#define blockIdx (::kta_rt::tls.block_idx)
#define blockDim (::kta_rt::tls.block_dim)
#define gridDim (::kta_rt::tls.grid_dim)
#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)

static constexpr int warpSize = KTA_WARP_SIZE;

namespace kta_rt {
// The thread's index within its block, x fastest (as lanes are numbered into warps).
inline uint32_t linear_tid() {
  const ThreadState& t = tls;
  return t.thread_idx.x + t.block_dim.x * (t.thread_idx.y + t.block_dim.y * t.thread_idx.z);
}
}  // namespace kta_rt

// Device printf goes to the launch's collected output, like a GPU's printf buffer.
#define printf kta_rt_printf
namespace std {
using ::kta_rt_printf;
}

#include "kta/cpu_assert.h"
inline void __trap() { kta_rt_fail("__trap() called", "", 0); }
inline void abort_device() { kta_rt_fail("abort() called", "", 0); }

// ---- synchronization ------------------------------------------------------------------------
// The barrier is also a compiler barrier: __shared__ variables are function-local statics whose
// address never escapes, so without it the compiler may keep them in registers across the call.
#define KTA_COMPILER_BARRIER() asm volatile("" ::: "memory")
inline void __syncthreads() {
  KTA_COMPILER_BARRIER();
  kta_rt_syncthreads();
  KTA_COMPILER_BARRIER();
}
inline int __syncthreads_count(int p) {
  static thread_local int count;  // per block
  __syncthreads();
  if (::kta_rt::linear_tid() == 0) count = 0;
  __syncthreads();
  __atomic_fetch_add(&count, p ? 1 : 0, __ATOMIC_RELAXED);
  __syncthreads();
  int r = count;
  __syncthreads();
  return r;
}
inline int __syncthreads_or(int p) { return __syncthreads_count(p) != 0; }
inline int __syncthreads_and(int p) {
  return __syncthreads_count(p) == static_cast<int>(blockDim.x * blockDim.y * blockDim.z);
}
inline void __syncwarp(unsigned long long = 0) {
  KTA_COMPILER_BARRIER();
  kta_rt_syncwarp();
  KTA_COMPILER_BARRIER();
}
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }

// ---- warp functions -------------------------------------------------------------------------
inline unsigned __lane_id() { return ::kta_rt::linear_tid() % KTA_WARP_SIZE; }
// Each shuffle computes its source lane as HIP's amd_warp_functions.h does (CUDA documents the
// same lanes), then reads it through the runtime. A source lane outside the warp's active lanes
// reads 0 at warp size 64 (AMD) and all bits set at 32 (undefined on NVIDIA); with
// KTA_CHECK_LANES such a read fails the launch, naming the shuffle's file and line, which the
// trailing default arguments carry in from the caller.
#ifndef KTA_CHECK_LANES
#define KTA_CHECK_LANES 0
#endif
#define KTA_SHUFFLE_SITE_PARAMS                                             \
  const char *kta_file = __builtin_FILE(), int kta_line = __builtin_LINE(), \
             const char *kta_function = __builtin_FUNCTION()
#define KTA_SHUFFLE_SITE_ARGS kta_file, kta_line, kta_function
namespace kta_rt {
template <class T>
inline T warp_shuffle(T v, int src, const char* what, const char* file, int line,
                      const char* function) {
  static_assert(sizeof(T) <= 8, "warp shuffles move values of at most 8 bytes");
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
#if KTA_CHECK_LANES
  const ShuffleSite site{what, file, line, function};
  const ShuffleSite* at = &site;
#else
  (void)what, (void)file, (void)line, (void)function;
  const ShuffleSite* at = nullptr;
#endif
  KTA_COMPILER_BARRIER();
  bits = kta_rt_warp_exchange(bits, static_cast<uint32_t>(src), at);
  KTA_COMPILER_BARRIER();
  T r;
  std::memcpy(&r, &bits, sizeof(T));
  return r;
}
template <class T>
inline T shfl(T v, int src, int width, const char* what, const char* file, int line,
              const char* function) {
  int self = static_cast<int>(__lane_id());
  int index = (src & (width - 1)) + (self & ~(width - 1));
  return warp_shuffle(v, index, what, file, line, function);
}
template <class T>
inline T shfl_up(T v, unsigned delta, int width, const char* what, const char* file, int line,
                 const char* function) {
  int self = static_cast<int>(__lane_id());
  int index = self - static_cast<int>(delta);
  index = index < (self & ~(width - 1)) ? self : index;
  return warp_shuffle(v, index, what, file, line, function);
}
template <class T>
inline T shfl_down(T v, unsigned delta, int width, const char* what, const char* file, int line,
                   const char* function) {
  int self = static_cast<int>(__lane_id());
  int index = self + static_cast<int>(delta);
  index = static_cast<int>((self & (width - 1)) + delta) >= width ? self : index;
  return warp_shuffle(v, index, what, file, line, function);
}
template <class T>
inline T shfl_xor(T v, int mask, int width, const char* what, const char* file, int line,
                  const char* function) {
  int self = static_cast<int>(__lane_id());
  int index = self ^ mask;
  index = index >= ((self + width) & ~(width - 1)) ? self : index;
  return warp_shuffle(v, index, what, file, line, function);
}
}  // namespace kta_rt
template <class T>
inline T __shfl(T v, int src, int width = warpSize, KTA_SHUFFLE_SITE_PARAMS) {
  return ::kta_rt::shfl(v, src, width, "__shfl", KTA_SHUFFLE_SITE_ARGS);
}
template <class T>
inline T __shfl_up(T v, unsigned delta, int width = warpSize, KTA_SHUFFLE_SITE_PARAMS) {
  return ::kta_rt::shfl_up(v, delta, width, "__shfl_up", KTA_SHUFFLE_SITE_ARGS);
}
template <class T>
inline T __shfl_down(T v, unsigned delta, int width = warpSize, KTA_SHUFFLE_SITE_PARAMS) {
  return ::kta_rt::shfl_down(v, delta, width, "__shfl_down", KTA_SHUFFLE_SITE_ARGS);
}
template <class T>
inline T __shfl_xor(T v, int mask, int width = warpSize, KTA_SHUFFLE_SITE_PARAMS) {
  return ::kta_rt::shfl_xor(v, mask, width, "__shfl_xor", KTA_SHUFFLE_SITE_ARGS);
}
template <class T>
inline T __shfl_sync(unsigned long long, T v, int src, int width = warpSize,
                     KTA_SHUFFLE_SITE_PARAMS) {
  return ::kta_rt::shfl(v, src, width, "__shfl_sync", KTA_SHUFFLE_SITE_ARGS);
}
template <class T>
inline T __shfl_up_sync(unsigned long long, T v, unsigned d, int width = warpSize,
                        KTA_SHUFFLE_SITE_PARAMS) {
  return ::kta_rt::shfl_up(v, d, width, "__shfl_up_sync", KTA_SHUFFLE_SITE_ARGS);
}
template <class T>
inline T __shfl_down_sync(unsigned long long, T v, unsigned d, int width = warpSize,
                          KTA_SHUFFLE_SITE_PARAMS) {
  return ::kta_rt::shfl_down(v, d, width, "__shfl_down_sync", KTA_SHUFFLE_SITE_ARGS);
}
template <class T>
inline T __shfl_xor_sync(unsigned long long, T v, int m, int width = warpSize,
                         KTA_SHUFFLE_SITE_PARAMS) {
  return ::kta_rt::shfl_xor(v, m, width, "__shfl_xor_sync", KTA_SHUFFLE_SITE_ARGS);
}
inline unsigned long long __ballot(int p) {
  KTA_COMPILER_BARRIER();
  unsigned long long r = kta_rt_warp_ballot(p);
  KTA_COMPILER_BARRIER();
  return r;
}
inline unsigned long long __ballot_sync(unsigned long long, int p) { return __ballot(p); }
inline int __any(int p) { return __ballot(p) != 0; }
inline int __all(int p) { return __ballot(!p) == 0; }
inline int __any_sync(unsigned long long, int p) { return __any(p); }
inline int __all_sync(unsigned long long, int p) { return __all(p); }
inline unsigned long long __activemask() {
  unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  unsigned first = ::kta_rt::linear_tid() - __lane_id();
  unsigned n = threads - first < KTA_WARP_SIZE ? threads - first : KTA_WARP_SIZE;
  return n >= 64 ? ~0ull : ((1ull << n) - 1);
}

// ---- integer intrinsics ---------------------------------------------------------------------
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
  return __builtin_bswap32(x);
}
inline int __mul24(int a, int b) { return a * b; }
inline unsigned __umul24(unsigned a, unsigned b) { return a * b; }
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) {
  return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
}
inline long long clock64() { return static_cast<long long>(__builtin_ia32_rdtsc()); }
inline long long wall_clock64() { return clock64(); }

// ---- min/max as HIP defines them ------------------------------------------------------------
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
inline long min(long a, long b) { return a < b ? a : b; }
inline long max(long a, long b) { return a > b ? a : b; }
inline unsigned long min(unsigned long a, unsigned long b) { return a < b ? a : b; }
inline unsigned long max(unsigned long a, unsigned long b) { return a > b ? a : b; }
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }

// The rest of the model, in dependency order (the launch code names vector and half types).
// clang-format off
#include "kta/cpu_math.h"
#include "kta/cpu_vector_types.h"
#include "kta/cpu_atomics.h"
#include "hip/hip_fp16.h"
#include "hip/hip_bf16.h"
#include "kta/cpu_host_api.h"
#include "kta/cpu_launch.h"
// clang-format on

#endif  // KTA_HIP_RUNTIME_H
