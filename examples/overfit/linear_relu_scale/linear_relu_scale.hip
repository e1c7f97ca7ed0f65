// An OVERFIT linear_relu_scale, written the way agents overfit (a negative example for the audit
// and the held-out run; not a solution): the tiled GEMM of the replay solution, specialized to
// the visible shapes. The output width is baked in (kH = 768: the grid, the row stride of y and
// the tile bounds), the reduction length is a template parameter with only the visible values
// instantiated (384 and 512, the loop fully unrolled and unguarded since both are multiples of
// the slice width), and any other D returns "success" without computing anything. It passes
// every visible point and fails held-out points whose D or H is not visible.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kH = 768;  // the output features of every visible point
constexpr int T = 16;
constexpr int TILE = 64;
constexpr int BK = 16;
constexpr int R = TILE / T;

template <int D>
__global__ __launch_bounds__(T* T) void linear_relu_scale(const float* __restrict__ x,
                                                          const float* __restrict__ w,
                                                          const float* __restrict__ b,
                                                          float* __restrict__ y, int64_t B,
                                                          float scale) {
  __shared__ float xs[BK][TILE + 1];
  __shared__ float ws[BK][TILE + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * T + tx;
  const int h0 = blockIdx.x * TILE;  // 768 / 64 = 12 tiles, all full
  const int64_t r0 = (int64_t)blockIdx.y * TILE;

  float acc[R][R] = {};
#pragma unroll 4
  for (int k0 = 0; k0 < D; k0 += BK) {  // D % 16 == 0 for both visible values
    for (int l = tid; l < TILE * BK; l += T * T) {
      const int row = l / BK, kk = l % BK;
      xs[kk][row] = (r0 + row < B) ? x[(r0 + row) * D + k0 + kk] : 0.0f;
      ws[kk][row] = w[(h0 + row) * D + k0 + kk];
    }
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk) {
      float xv[R], wv[R];
      for (int i = 0; i < R; ++i) xv[i] = xs[kk][ty + i * T];
      for (int j = 0; j < R; ++j) wv[j] = ws[kk][tx + j * T];
      for (int i = 0; i < R; ++i)
        for (int j = 0; j < R; ++j) acc[i][j] += xv[i] * wv[j];
    }
    __syncthreads();
  }

  for (int i = 0; i < R; ++i) {
    const int64_t r = r0 + ty + i * T;
    if (r >= B) break;
    for (int j = 0; j < R; ++j) {
      const int h = h0 + tx + j * T;
      y[r * kH + h] = fmaxf(acc[i][j] + b[h], 0.0f) * scale;
    }
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 4)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* w = (const float*)call->tensors[1].data;
  const float* b = (const float*)call->tensors[2].data;
  float* y = (float*)call->tensors[3].data;
  const int64_t B = call->params[0].i, D = call->params[1].i;
  const float scale = (float)call->params[3].f;
  hipStream_t stream = (hipStream_t)call->stream;
  dim3 grid(kH / TILE, (unsigned)((B + TILE - 1) / TILE));
  if (D == 384)
    linear_relu_scale<384><<<grid, dim3(T, T), 0, stream>>>(x, w, b, y, B, scale);
  else if (D == 512)
    linear_relu_scale<512><<<grid, dim3(T, T), 0, stream>>>(x, w, b, y, B, scale);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
