// Baseline for the dequant_int8_matmul task (launcher mode): y = x @ (W * scale[:, None])^T with
// x f16 [M, K], W int8 [N, K], scale f32 [N], y f16 [M, N]. One kernel, a classic shared-memory
// tiled GEMM: a block of 16 x 16 threads per 16 x 16 tile of y (threadIdx.x the output column n,
// threadIdx.y the row m). For each 16-wide slice of K the block stages the x tile and the W tile
// in shared memory as f32 (zero-filled past the edges), synchronizes, and each thread adds 16
// products to its f32 accumulator; the scale is applied once at the end and the result rounded
// to f16. One output per thread, one element per load.
// Tensors (declaration order): x f16[M, K], w i8[N, K], scale f32[N], y f16[M, N];
// params (declaration order): M, N, K.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kTile = 16;

__global__ void dequant_int8_matmul(const __half* x, const int8_t* w, const float* scale,
                                    __half* y, int64_t m, int64_t n, int64_t k) {
  __shared__ float xs[kTile][kTile + 1];  // xs[row m][k], padded against bank conflicts
  __shared__ float ws[kTile][kTile + 1];  // ws[col n][k]
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t row = (int64_t)blockIdx.y * kTile + ty;
  const int64_t col = (int64_t)blockIdx.x * kTile + tx;
  const int64_t wrow = (int64_t)blockIdx.x * kTile + ty;  // the W row this thread stages
  float acc = 0.0f;
  for (int64_t k0 = 0; k0 < k; k0 += kTile) {
    const int64_t kk = k0 + tx;
    xs[ty][tx] = (row < m && kk < k) ? __half2float(x[row * k + kk]) : 0.0f;
    ws[ty][tx] = (wrow < n && kk < k) ? (float)w[wrow * k + kk] : 0.0f;
    __syncthreads();
    for (int i = 0; i < kTile; ++i) acc += xs[ty][i] * ws[tx][i];
    __syncthreads();
  }
  if (row < m && col < n) y[row * n + col] = __float2half(acc * scale[col]);
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 3)
    return 1;
  const __half* x = (const __half*)call->tensors[0].data;
  const int8_t* w = (const int8_t*)call->tensors[1].data;
  const float* scale = (const float*)call->tensors[2].data;
  __half* y = (__half*)call->tensors[3].data;
  const int64_t m = call->params[0].i, n = call->params[1].i, k = call->params[2].i;
  const dim3 grid((unsigned)((n + kTile - 1) / kTile), (unsigned)((m + kTile - 1) / kTile));
  const dim3 block(kTile, kTile);
  dequant_int8_matmul<<<grid, block, 0, (hipStream_t)call->stream>>>(x, w, scale, y, m, n, k);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
