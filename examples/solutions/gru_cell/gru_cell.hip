// A faster gru_cell, general in B, I and H (any size, no alignment assumed): one kernel computes
// all six products of a hidden unit (x against W_ir, W_iz, W_in and h against W_hr, W_hz, W_hn)
// and applies the gates in its epilogue, so the [B, 3H] projections never reach memory and the
// PyTorch module's two GEMMs and six elementwise kernels become one launch. A block of 16 x 16
// threads owns 16 batch rows x 16 hidden units; r and z need only the sum of their input and
// hidden products (one accumulator each), n keeps the two apart (r scales the hidden one), so a
// thread carries 4 accumulators. The reduction dimension advances in slices of BK: the
// activations' 16 x BK slice and the three gates' 16 x BK weight slices are staged in shared
// memory (transposed, zero-filled past the edges, loaded with consecutive threads reading
// consecutive k), so every weight value is used by 16 batch rows and every activation by 48
// weight rows. First the I slices of x and w_ih, then the H slices of h and w_hh.
// Tensors (declaration order): x f32[B, I], h f32[B, H], w_ih f32[3H, I], w_hh f32[3H, H],
// b_ih f32[3H], b_hh f32[3H], h_new f32[B, H]; params B, I, H.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int TB = 16;  // batch rows per block (threadIdx.y)
constexpr int TJ = 16;  // hidden units per block (threadIdx.x)
constexpr int BK = 32;  // reduction slice

// acc[0] += a . W_r[j], acc[1] += a . W_z[j], acc[2] += a . W_n[j] over k < K, where a is row
// b0 + ty of act [B, K] and W_g[j] is row g * H + j0 + tx of w [3H, K].
__device__ void accumulate(const float* __restrict__ act, const float* __restrict__ w, int64_t B,
                           int64_t K, int64_t H, int64_t b0, int64_t j0, float (*as)[TB + 1],
                           float (*ws)[BK][TJ + 1], float acc[3]) {
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * TJ + tx;
  for (int64_t k0 = 0; k0 < K; k0 += BK) {
    for (int l = tid; l < TB * BK; l += TB * TJ) {
      const int row = l / BK, kk = l % BK;
      const int64_t k = k0 + kk, b = b0 + row;
      as[kk][row] = (b < B && k < K) ? act[b * K + k] : 0.0f;
    }
    for (int l = tid; l < 3 * TJ * BK; l += TB * TJ) {
      const int g = l / (TJ * BK), row = (l / BK) % TJ, kk = l % BK;
      const int64_t k = k0 + kk, j = j0 + row;
      ws[g][kk][row] = (j < H && k < K) ? w[(g * H + j) * K + k] : 0.0f;
    }
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk) {
      const float a = as[kk][ty];
      acc[0] += a * ws[0][kk][tx];
      acc[1] += a * ws[1][kk][tx];
      acc[2] += a * ws[2][kk][tx];
    }
    __syncthreads();
  }
}

__global__ __launch_bounds__(TB* TJ) void gru_cell(
    const float* __restrict__ x, const float* __restrict__ h, const float* __restrict__ w_ih,
    const float* __restrict__ w_hh, const float* __restrict__ b_ih, const float* __restrict__ b_hh,
    float* __restrict__ h_new, int64_t B, int64_t I, int64_t H) {
  __shared__ float as[BK][TB + 1];
  __shared__ float ws[3][BK][TJ + 1];
  // A flat grid (no 65535 limit): hidden tiles turn fastest, so neighbouring blocks share x.
  const int64_t tiles_j = (H + TJ - 1) / TJ;
  const int64_t j0 = ((int64_t)blockIdx.x % tiles_j) * TJ,
                b0 = ((int64_t)blockIdx.x / tiles_j) * TB;
  float gi[3] = {0.0f, 0.0f, 0.0f};
  float gh[3] = {0.0f, 0.0f, 0.0f};
  accumulate(x, w_ih, B, I, H, b0, j0, as, ws, gi);
  accumulate(h, w_hh, B, H, H, b0, j0, as, ws, gh);

  const int64_t j = j0 + threadIdx.x, b = b0 + threadIdx.y;
  if (j >= H || b >= B) return;
  const float r = 1.0f / (1.0f + expf(-(gi[0] + b_ih[j] + gh[0] + b_hh[j])));
  const float z = 1.0f / (1.0f + expf(-(gi[1] + b_ih[H + j] + gh[1] + b_hh[H + j])));
  const float n = tanhf(gi[2] + b_ih[2 * H + j] + r * (gh[2] + b_hh[2 * H + j]));
  h_new[b * H + j] = (1.0f - z) * n + z * h[b * H + j];
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 7 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* h = (const float*)call->tensors[1].data;
  const float* w_ih = (const float*)call->tensors[2].data;
  const float* w_hh = (const float*)call->tensors[3].data;
  const float* b_ih = (const float*)call->tensors[4].data;
  const float* b_hh = (const float*)call->tensors[5].data;
  float* h_new = (float*)call->tensors[6].data;
  const int64_t B = call->params[0].i, I = call->params[1].i, H = call->params[2].i;
  const unsigned grid = (unsigned)(((H + TJ - 1) / TJ) * ((B + TB - 1) / TB));
  gru_cell<<<grid, dim3(TJ, TB), 0, (hipStream_t)call->stream>>>(x, h, w_ih, w_hh, b_ih, b_hh,
                                                                 h_new, B, I, H);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
