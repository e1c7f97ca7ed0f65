// Starter for the conv1d task: a direct HIP translation, correct for every size and
// unoptimized. One thread per output element loops over the Cin x K window straight from global
// memory, checking the zero padding on every tap; nothing is reused between threads.
// Tensors (declaration order): x f32[N, Cin, L], w f32[Cout, Cin, K], b f32[Cout],
// y f32[N, Cout, Lout] with Lout = (L + 2 padding - K) / stride + 1;
// params N, Cin, L, Cout, K, stride, padding.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

__global__ void conv1d(const float* x, const float* w, const float* b, float* y, int64_t N,
                       int64_t Cin, int64_t L, int64_t Cout, int64_t K, int64_t stride,
                       int64_t padding, int64_t Lout) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= N * Cout * Lout) return;
  const int64_t ol = idx % Lout, o = (idx / Lout) % Cout, n = idx / (Lout * Cout);
  const int64_t start = ol * stride - padding;  // input position of tap 0
  float acc = b[o];
  for (int64_t c = 0; c < Cin; ++c) {
    const float* xc = x + (n * Cin + c) * L;
    const float* wc = w + (o * Cin + c) * K;
    for (int64_t k = 0; k < K; ++k) {
      const int64_t il = start + k;
      if (il < 0 || il >= L) continue;
      acc += xc[il] * wc[k];
    }
  }
  y[idx] = acc;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 7)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* w = (const float*)call->tensors[1].data;
  const float* b = (const float*)call->tensors[2].data;
  float* y = (float*)call->tensors[3].data;
  const int64_t N = call->params[0].i, Cin = call->params[1].i, L = call->params[2].i;
  const int64_t Cout = call->params[3].i, K = call->params[4].i;
  const int64_t stride = call->params[5].i, padding = call->params[6].i;
  const int64_t Lout = (L + 2 * padding - K) / stride + 1;
  const int64_t total = N * Cout * Lout;
  const int threads = 256;
  conv1d<<<(unsigned)((total + threads - 1) / threads), threads, 0, (hipStream_t)call->stream>>>(
      x, w, b, y, N, Cin, L, Cout, K, stride, padding, Lout);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
