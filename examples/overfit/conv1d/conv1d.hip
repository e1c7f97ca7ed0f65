// OVERFIT ON PURPOSE (a negative example for kta's held-out shapes and audit): a conv1d tuned
// to the visible shapes the way agents overfit. The batch (4) and the sequence length (1024)
// are compile-time constants, the channel counts are template arguments for the two visible
// pairs only, and the (kernel size, stride, padding) triple is picked from the three visible
// combinations by K alone, with no general fallback. It passes every visible point and is
// wrong (or reads out of bounds) on shapes it was not shown: another L, N, Cin, Cout, or a
// (K, stride, padding) combination outside the visible three.
// Tensors (declaration order): x f32[N, Cin, L], w f32[Cout, Cin, K], b f32[Cout],
// y f32[N, Cout, Lout]; params N, Cin, L, Cout, K, stride, padding.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kBatch = 4;
constexpr int kLen = 1024;
constexpr int kThreads = 256;

// One block per (n, o) output row; the row's CIN x K weights in shared memory, unrolled taps.
template <int CIN, int COUT, int K, int S, int P>
__global__ __launch_bounds__(kThreads) void conv1d_fixed(const float* __restrict__ x,
                                                         const float* __restrict__ w,
                                                         const float* __restrict__ b,
                                                         float* __restrict__ y) {
  constexpr int kLout = (kLen + 2 * P - K) / S + 1;
  __shared__ float ws[CIN * K];
  const int o = blockIdx.x % COUT, n = blockIdx.x / COUT;
  for (int i = threadIdx.x; i < CIN * K; i += kThreads) ws[i] = w[o * CIN * K + i];
  __syncthreads();
  for (int l = threadIdx.x; l < kLout; l += kThreads) {
    float acc = b[o];
#pragma unroll 4
    for (int c = 0; c < CIN; ++c) {
      const float* xc = x + (n * CIN + c) * kLen;
#pragma unroll
      for (int k = 0; k < K; ++k) {
        const int il = l * S + k - P;
        if (il >= 0 && il < kLen) acc += xc[il] * ws[c * K + k];
      }
    }
    y[(n * COUT + o) * kLout + l] = acc;
  }
}

template <int CIN, int COUT>
void launch(const float* x, const float* w, const float* b, float* y, int64_t K,
            hipStream_t stream) {
  const int blocks = kBatch * COUT;
  if (K == 3)
    conv1d_fixed<CIN, COUT, 3, 1, 1><<<blocks, kThreads, 0, stream>>>(x, w, b, y);
  else if (K == 5)
    conv1d_fixed<CIN, COUT, 5, 2, 2><<<blocks, kThreads, 0, stream>>>(x, w, b, y);
  else
    conv1d_fixed<CIN, COUT, 7, 1, 3><<<blocks, kThreads, 0, stream>>>(x, w, b, y);
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 7)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* w = (const float*)call->tensors[1].data;
  const float* b = (const float*)call->tensors[2].data;
  float* y = (float*)call->tensors[3].data;
  const int64_t Cin = call->params[1].i, K = call->params[4].i;
  hipStream_t stream = (hipStream_t)call->stream;
  if (Cin == 16)
    launch<16, 32>(x, w, b, y, K, stream);
  else
    launch<32, 64>(x, w, b, y, K, stream);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
