// Baseline for the histogram_u8 task (launcher mode): clear counts, then one kernel in which each
// block builds a private 256-bin histogram in shared memory (a shared atomicAdd per byte, one
// byte loaded per thread per step of a grid-stride loop) and adds its nonzero bins to the global
// counts with one atomicAdd each. Tensors (declaration order): x u8[N], counts i32[256];
// params: N.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;

__global__ void histogram_u8(const uint8_t* x, int32_t* counts, int64_t n) {
  __shared__ int32_t bins[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) bins[b] = 0;
  __syncthreads();
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&bins[x[i]], 1);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    if (bins[b] != 0) atomicAdd(&counts[b], bins[b]);
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 1)
    return 1;
  const uint8_t* x = (const uint8_t*)call->tensors[0].data;
  int32_t* counts = (int32_t*)call->tensors[1].data;
  const int64_t n = call->params[0].i;
  hipStream_t stream = (hipStream_t)call->stream;
  if (hipMemsetAsync(counts, 0, 256 * sizeof(int32_t), stream) != hipSuccess) return 2;
  int64_t blocks = (n + kThreads - 1) / kThreads;
  if (blocks > kMaxBlocks) blocks = kMaxBlocks;
  if (blocks < 1) blocks = 1;
  histogram_u8<<<(unsigned)blocks, kThreads, 0, stream>>>(x, counts, n);
  return hipGetLastError() == hipSuccess ? 0 : 3;
}
