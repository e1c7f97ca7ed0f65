// A faster silu_bf16, general in M and N (any size) and in the warp size. The tensor is flat
// (M * N contiguous bf16 values), so:
//  * each thread moves 8 bf16 values per 16-byte load and store (uint4), in a grid-stride loop
//    over a grid sized to the GPU rather than to the tensor, and a scalar loop takes the last
//    (M * N) % 8 values; if a buffer is not 16-byte aligned, the scalar loop takes everything;
//  * bf16 <-> f32 conversions are bit operations (a bf16 is the top half of an f32; rounding to
//    nearest even adds 0x7fff plus the lowest kept bit), so the vector path needs no bf16 type;
//  * y = x / (1 + exp(-x)) in f32 with the fast __expf (a few ulp of f32, far below a bf16 ulp),
//    rounded once to bf16.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = 4096;

__device__ __forceinline__ float bf16_lo(uint32_t w) { return __uint_as_float(w << 16); }
__device__ __forceinline__ float bf16_hi(uint32_t w) { return __uint_as_float(w & 0xffff0000u); }

// f32 -> bf16 bits, round to nearest even (the inputs and results are finite).
__device__ __forceinline__ uint32_t to_bf16(float f) {
  const uint32_t u = __float_as_uint(f);
  return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
}

__device__ __forceinline__ float silu(float v) { return v / (1.0f + __expf(-v)); }

__device__ __forceinline__ uint32_t silu2(uint32_t w) {
  return to_bf16(silu(bf16_lo(w))) | (to_bf16(silu(bf16_hi(w))) << 16);
}

__global__ __launch_bounds__(kThreads) void silu_bf16(const uint16_t* __restrict__ x,
                                                      uint16_t* __restrict__ y, int64_t n,
                                                      int64_t vec) {
  const int64_t stride = (int64_t)gridDim.x * kThreads;
  const int64_t first = (int64_t)blockIdx.x * kThreads + threadIdx.x;
  const uint4* x8 = reinterpret_cast<const uint4*>(x);
  uint4* y8 = reinterpret_cast<uint4*>(y);
  for (int64_t i = first; i < vec; i += stride) {  // vec groups of 8 values
    const uint4 w = x8[i];
    y8[i] = make_uint4(silu2(w.x), silu2(w.y), silu2(w.z), silu2(w.w));
  }
  for (int64_t i = vec * 8 + first; i < n; i += stride)  // the rest, one value at a time
    y[i] = (uint16_t)to_bf16(silu(__uint_as_float((uint32_t)x[i] << 16)));
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 2)
    return 1;
  const uint16_t* x = (const uint16_t*)call->tensors[0].data;
  uint16_t* y = (uint16_t*)call->tensors[1].data;
  const int64_t M = call->params[0].i, N = call->params[1].i;
  const int64_t n = M * N;
  const bool aligned = ((uintptr_t)x % 16 == 0) && ((uintptr_t)y % 16 == 0);
  const int64_t vec = aligned ? n / 8 : 0;
  const int64_t work = vec > 0 ? vec : n;
  int64_t blocks = (work + kThreads - 1) / kThreads;
  if (blocks > kMaxBlocks) blocks = kMaxBlocks;
  silu_bf16<<<(unsigned)blocks, kThreads, 0, (hipStream_t)call->stream>>>(x, y, n, vec);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
