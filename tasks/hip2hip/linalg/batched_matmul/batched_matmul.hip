// Baseline for the batched_matmul task (launcher mode): C[z] = A[z] @ B[z] for every matrix z of
// the batch, f32. The textbook shared-memory tiling, one matrix per blockIdx.z: a block of
// 16 x 16 threads per 16 x 16 tile of C[z], one output per thread. The K dimension is walked in
// steps of 16; each thread loads one element of the A tile and one of the B tile into shared
// memory (zero past the edges), and after a barrier accumulates 16 products in an f32 register.
// Small matrices leave most of a block idle: an 8 x 8 C uses 64 of its 256 threads.
// Tensors (declaration order): A f32[BATCH, M, K], B f32[BATCH, K, N], C f32[BATCH, M, N];
// params: BATCH, M, N, K. The batch goes to gridDim.z: at most 65535 matrices.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kTile = 16;

__global__ void batched_matmul(const float* a, const float* b, float* c, int64_t m, int64_t n,
                               int64_t k) {
  __shared__ float as[kTile][kTile];
  __shared__ float bs[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t z = blockIdx.z;
  const float* az = a + z * m * k;
  const float* bz = b + z * k * n;
  const int64_t row = (int64_t)blockIdx.y * kTile + ty;
  const int64_t col = (int64_t)blockIdx.x * kTile + tx;
  float acc = 0.0f;

  for (int64_t k0 = 0; k0 < k; k0 += kTile) {
    const int64_t ak = k0 + tx, bk = k0 + ty;
    as[ty][tx] = (row < m && ak < k) ? az[row * k + ak] : 0.0f;
    bs[ty][tx] = (bk < k && col < n) ? bz[bk * n + col] : 0.0f;
    __syncthreads();
    for (int p = 0; p < kTile; ++p) acc += as[ty][p] * bs[p][tx];
    __syncthreads();
  }
  if (row < m && col < n) c[z * m * n + row * n + col] = acc;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 4)
    return 1;
  const float* a = (const float*)call->tensors[0].data;
  const float* b = (const float*)call->tensors[1].data;
  float* c = (float*)call->tensors[2].data;
  const int64_t batch = call->params[0].i, m = call->params[1].i;
  const int64_t n = call->params[2].i, k = call->params[3].i;
  if (batch > 65535) return 3;  // gridDim.z limit
  const dim3 grid((unsigned)((n + kTile - 1) / kTile), (unsigned)((m + kTile - 1) / kTile),
                  (unsigned)batch);
  batched_matmul<<<grid, dim3(kTile, kTile), 0, (hipStream_t)call->stream>>>(a, b, c, m, n, k);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
