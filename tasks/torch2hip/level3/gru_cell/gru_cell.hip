// Starter for the gru_cell task: a direct HIP translation of the PyTorch module, one simple
// kernel per step, correct for every size and unoptimized. Scratch buffers (hipMalloc) hold the
// two projections gi = x @ w_ih^T + b_ih and gh = h @ w_hh^T + b_hh ([B, 3H] each, gates in the
// order r, z, n):
//   1. input projection: one thread per output, the dot product straight from global memory;
//   2. hidden projection: the same kernel over h and w_hh;
//   3. gates: one thread per (b, j): r, z, n and h' = (1 - z) n + z h.
// Tensors (declaration order): x f32[B, I], h f32[B, H], w_ih f32[3H, I], w_hh f32[3H, H],
// b_ih f32[3H], b_hh f32[3H], h_new f32[B, H]; params B, I, H.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

// out[r, j] = bias[j] + sum_k a[r, k] * w[j, k]; a [R, K], w [N, K] (nn.Linear's layout).
__global__ void linear(const float* a, const float* w, const float* bias, float* out, int64_t R,
                       int64_t K, int64_t N) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= R * N) return;
  const int64_t r = idx / N, j = idx % N;
  const float* ar = a + r * K;
  const float* wj = w + j * K;
  float acc = 0.0f;
  for (int64_t k = 0; k < K; ++k) acc += ar[k] * wj[k];
  out[idx] = acc + bias[j];
}

__global__ void gates(const float* gi, const float* gh, const float* h, float* h_new, int64_t B,
                      int64_t H) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= B * H) return;
  const int64_t b = idx / H, j = idx % H;
  const float* gib = gi + b * 3 * H;
  const float* ghb = gh + b * 3 * H;
  const float r = 1.0f / (1.0f + expf(-(gib[j] + ghb[j])));
  const float z = 1.0f / (1.0f + expf(-(gib[H + j] + ghb[H + j])));
  const float n = tanhf(gib[2 * H + j] + r * ghb[2 * H + j]);
  h_new[idx] = (1.0f - z) * n + z * h[idx];
}

static unsigned blocks_for(int64_t n) { return (unsigned)((n + kThreads - 1) / kThreads); }

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
  hipStream_t stream = (hipStream_t)call->stream;

  float* gi = nullptr;
  float* gh = nullptr;
  if (hipMalloc((void**)&gi, B * 3 * H * sizeof(float)) != hipSuccess) return 3;
  if (hipMalloc((void**)&gh, B * 3 * H * sizeof(float)) != hipSuccess) {
    hipFree(gi);
    return 3;
  }
  linear<<<blocks_for(B * 3 * H), kThreads, 0, stream>>>(x, w_ih, b_ih, gi, B, I, 3 * H);
  linear<<<blocks_for(B * 3 * H), kThreads, 0, stream>>>(h, w_hh, b_hh, gh, B, H, 3 * H);
  gates<<<blocks_for(B * H), kThreads, 0, stream>>>(gi, gh, h, h_new, B, H);
  const bool launched = hipGetLastError() == hipSuccess;
  const bool freed_gi = hipFree(gi) == hipSuccess;
  const bool freed_gh = hipFree(gh) == hipSuccess;
  return launched && freed_gi && freed_gh ? 0 : 2;
}
