// An OVERFIT gru_cell, written the way an agent tunes to the shapes it was shown (do not use
// as a reference solution): the visible batches are 16 and 64 and every visible I and H (256,
// 512, 1024) is a multiple of 128, so the kernel drops every bounds check and tail: a
// block owns exactly 16 batch rows and 16 hidden units, the grid is B / 16 x H / 16 blocks, and
// the reduction runs in whole 128-wide slices. Fast and correct on the visible shapes; on a
// batch of 1 or 37, or I or H of 100, 127, 300 or 1000 it reads past the rows, drops the last
// rows and units, or launches an empty grid.
// Tensors (declaration order): x f32[B, I], h f32[B, H], w_ih f32[3H, I], w_hh f32[3H, H],
// b_ih f32[3H], b_hh f32[3H], h_new f32[B, H]; params B, I, H.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kBatchRows = 16;  // B is 16 or 64
constexpr int kUnits = 16;
constexpr int kSlice = 128;  // I and H are multiples of 128

__device__ void accumulate(const float* act, const float* w, int K, int H, int b, int j,
                           float (*as)[kBatchRows], float (*ws)[kSlice][kUnits], float acc[3]) {
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int j0 = blockIdx.x * kUnits;
  for (int k0 = 0; k0 < K; k0 += kSlice) {
    for (int kk = tx; kk < kSlice; kk += kUnits) as[kk][ty] = act[b * K + k0 + kk];
    for (int g = 0; g < 3; ++g)
      for (int kk = ty; kk < kSlice; kk += kBatchRows)
        ws[g][kk][tx] = w[(g * H + j0 + tx) * K + k0 + kk];
    __syncthreads();
    for (int kk = 0; kk < kSlice; ++kk) {
      const float a = as[kk][ty];
      acc[0] += a * ws[0][kk][tx];
      acc[1] += a * ws[1][kk][tx];
      acc[2] += a * ws[2][kk][tx];
    }
    __syncthreads();
  }
}

__global__ void gru_cell(const float* x, const float* h, const float* w_ih, const float* w_hh,
                         const float* b_ih, const float* b_hh, float* h_new, int I, int H) {
  __shared__ float as[kSlice][kBatchRows];
  __shared__ float ws[3][kSlice][kUnits];
  const int j = blockIdx.x * kUnits + threadIdx.x;
  const int b = blockIdx.y * kBatchRows + threadIdx.y;
  float gi[3] = {0.0f, 0.0f, 0.0f};
  float gh[3] = {0.0f, 0.0f, 0.0f};
  accumulate(x, w_ih, I, H, b, j, as, ws, gi);
  accumulate(h, w_hh, H, H, b, j, as, ws, gh);
  const float r = 1.0f / (1.0f + __expf(-(gi[0] + b_ih[j] + gh[0] + b_hh[j])));
  const float z = 1.0f / (1.0f + __expf(-(gi[1] + b_ih[H + j] + gh[1] + b_hh[H + j])));
  const float n = tanhf(gi[2] + b_ih[2 * H + j] + r * (gh[2] + b_hh[2 * H + j]));
  h_new[b * H + j] = (1.0f - z) * n + z * h[b * H + j];
}

extern "C" int kta_launch(const kta_call* call) {
  const float* x = (const float*)call->tensors[0].data;
  const float* h = (const float*)call->tensors[1].data;
  const float* w_ih = (const float*)call->tensors[2].data;
  const float* w_hh = (const float*)call->tensors[3].data;
  const float* b_ih = (const float*)call->tensors[4].data;
  const float* b_hh = (const float*)call->tensors[5].data;
  float* h_new = (float*)call->tensors[6].data;
  const int B = (int)call->params[0].i, I = (int)call->params[1].i, H = (int)call->params[2].i;
  dim3 grid(H / kUnits, B / kBatchRows);
  gru_cell<<<grid, dim3(kUnits, kBatchRows), 0, (hipStream_t)call->stream>>>(x, h, w_ih, w_hh, b_ih,
                                                                             b_hh, h_new, I, H);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
