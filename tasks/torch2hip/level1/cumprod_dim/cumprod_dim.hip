// Starter for the cumprod_dim task: a direct HIP translation, correct for every size and
// unoptimized. One block of 256 threads per row walks the row in tiles of 256 elements: each
// thread loads one element, the block scans the tile in shared memory (Hillis-Steele, two
// barriers per step, 8 steps), multiplies by the running product of the tiles before it and
// writes; the tile's last product carries into the next tile. All in f32.
// Tensors (declaration order): x f32[M, N], y f32[M, N]; params M, N.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kThreads = 256;

__global__ void cumprod_dim(const float* x, float* y, int64_t M, int64_t N) {
  __shared__ float buf[kThreads];
  const int64_t row = blockIdx.x;
  if (row >= M) return;  // uniform across the block
  const int tid = threadIdx.x;
  const float* xr = x + row * N;
  float* yr = y + row * N;
  float carry = 1.0f;  // the product of the row before this tile
  for (int64_t base = 0; base < N; base += kThreads) {
    const int64_t k = base + tid;
    float v = k < N ? xr[k] : 1.0f;
    buf[tid] = v;
    __syncthreads();
    for (int off = 1; off < kThreads; off <<= 1) {
      const float mul = tid >= off ? buf[tid - off] : 1.0f;
      __syncthreads();
      v *= mul;
      buf[tid] = v;
      __syncthreads();
    }
    if (k < N) yr[k] = carry * v;
    carry *= buf[kThreads - 1];
    __syncthreads();  // buf is rewritten by the next tile
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 2)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* y = (float*)call->tensors[1].data;
  const int64_t M = call->params[0].i, N = call->params[1].i;
  cumprod_dim<<<(unsigned)M, kThreads, 0, (hipStream_t)call->stream>>>(x, y, M, N);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
