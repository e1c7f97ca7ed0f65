// A faster byte histogram, general in N. Compared with the baseline:
//  * each thread loads 16 bytes at a time (one uint4) instead of one, with a scalar tail for the
//    last N % 16 bytes; the grid gives each thread one uint4 up to 528 blocks (4 per SM of an
//    H200), beyond which threads stride over several;
//  * the block keeps 8 copies of its 256 bins in shared memory and lane l adds into copy l % 8:
//    the skewed input (a third of the bytes are 0) makes many lanes of a warp hit the same bin
//    in one atomic instruction, which the hardware serializes; with 8 copies at most 4 lanes of
//    a 32-wide warp share an address. Copies are 257 ints apart, so the 8 copies of one bin sit
//    in 8 different banks;
//  * the copies are summed once at the end of the block, and each block merges its 256 totals
//    into counts with one global atomicAdd per nonzero bin (after the memset, as the baseline).
// Tensors (declaration order): x u8[N], counts i32[256]; params: N.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int kCopies = 8;
constexpr int kStride = 257;
constexpr int kVecPerThread = 1;  // uint4s per thread until the grid is capped
constexpr int kMaxBlocks = 528;

__device__ __forceinline__ void add_word(int32_t* h, uint32_t v) {
  atomicAdd(&h[v & 255u], 1);
  atomicAdd(&h[(v >> 8) & 255u], 1);
  atomicAdd(&h[(v >> 16) & 255u], 1);
  atomicAdd(&h[v >> 24], 1);
}

__global__ void histogram_u8(const uint8_t* x, int32_t* counts, int64_t n) {
  __shared__ int32_t bins[kCopies * kStride];
  const int tid = threadIdx.x;
  for (int i = tid; i < kCopies * kStride; i += blockDim.x) bins[i] = 0;
  __syncthreads();

  int32_t* h = bins + (tid % kCopies) * kStride;
  const int64_t nv = n >> 4;
  const uint4* xv = reinterpret_cast<const uint4*>(x);
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  const int64_t gid = (int64_t)blockIdx.x * blockDim.x + tid;
  for (int64_t i = gid; i < nv; i += stride) {
    const uint4 v = xv[i];
    add_word(h, v.x);
    add_word(h, v.y);
    add_word(h, v.z);
    add_word(h, v.w);
  }
  const int64_t tail = (nv << 4) + gid;  // the last n % 16 bytes, one per thread
  if (tail < n) atomicAdd(&h[x[tail]], 1);
  __syncthreads();

  for (int b = tid; b < 256; b += blockDim.x) {
    int32_t s = 0;
#pragma unroll
    for (int k = 0; k < kCopies; ++k) s += bins[k * kStride + b];
    if (s != 0) atomicAdd(&counts[b], s);
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 1)
    return 1;
  const uint8_t* x = (const uint8_t*)call->tensors[0].data;
  int32_t* counts = (int32_t*)call->tensors[1].data;
  const int64_t n = call->params[0].i;
  hipStream_t stream = (hipStream_t)call->stream;
  if (hipMemsetAsync(counts, 0, 256 * sizeof(int32_t), stream) != hipSuccess) return 2;
  const int64_t per_block = (int64_t)kThreads * 16 * kVecPerThread;
  int64_t blocks = (n + per_block - 1) / per_block;
  if (blocks > kMaxBlocks) blocks = kMaxBlocks;
  if (blocks < 1) blocks = 1;
  histogram_u8<<<(unsigned)blocks, kThreads, 0, stream>>>(x, counts, n);
  return hipGetLastError() == hipSuccess ? 0 : 3;
}
