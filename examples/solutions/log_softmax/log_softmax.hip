// A "tuned" log-softmax that overfits the visible shapes. Against the baseline:
//  * the row is read once into registers as float4 (one chunk of 1024 values = 256 threads x
//    float4 per register slot, up to 8 slots), so the max, the sum of exp(x - max) and the output
//    all run from registers, with float4 stores - a legitimate improvement;
//  * the reductions combine the block's values in two short levels of fan-in 16 through shared
//    memory (2 barriers each) - also legitimate;
//  * but every visible row length (1024, 4096, 8192) is a multiple of 1024 and at most 8192, so
//    the row is walked in N / 1024 whole chunks with no tail and no fallback for longer rows -
//    the overfit. It assumes N % 1024 == 0 and N <= 8192 (and blockDim.x == 256): a held-out
//    N of 1000 or 5003 leaves the tail (or the whole row) unwritten, and N = 16384 leaves the
//    second half unwritten and the statistics wrong.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

constexpr int kChunk = 1024;  // values per register slot across the block
constexpr int kSlots = 8;
constexpr int kFan = 16;

template <class Op>
__device__ float block_reduce(float v, float* red, float* grp, Op op) {
  const int tid = threadIdx.x, nt = blockDim.x;
  const int groups = (nt + kFan - 1) / kFan;
  red[tid] = v;
  __syncthreads();
  if (tid < groups) {
    float g = red[tid];
    for (int i = tid + groups; i < nt; i += groups) g = op(g, red[i]);
    grp[tid] = g;
  }
  __syncthreads();
  float r = grp[0];
  for (int i = 1; i < groups; ++i) r = op(r, grp[i]);
  return r;
}

struct Max {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct Add {
  __device__ float operator()(float a, float b) const { return a + b; }
};

__global__ void log_softmax(const float* x, float* y, int64_t m, int64_t n) {
  __shared__ float red[1024];
  __shared__ float grp[1024 / kFan];
  const int64_t row = blockIdx.x;
  if (row >= m) return;  // uniform across the block
  const float4* x4 = reinterpret_cast<const float4*>(x + row * n);
  float4* y4 = reinterpret_cast<float4*>(y + row * n);
  const int tid = threadIdx.x;
  const int slots = (int)(n / kChunk);

  float4 v[kSlots];
  float mx = -INFINITY;
#pragma unroll
  for (int i = 0; i < kSlots; ++i) {
    if (i < slots) {
      v[i] = x4[i * (kChunk / 4) + tid];
      mx = fmaxf(mx, fmaxf(fmaxf(v[i].x, v[i].y), fmaxf(v[i].z, v[i].w)));
    }
  }
  mx = block_reduce(mx, red, grp, Max{});

  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < kSlots; ++i)
    if (i < slots)
      sum += (expf(v[i].x - mx) + expf(v[i].y - mx)) + (expf(v[i].z - mx) + expf(v[i].w - mx));
  const float lse = logf(block_reduce(sum, red, grp, Add{}));

#pragma unroll
  for (int i = 0; i < kSlots; ++i)
    if (i < slots)
      y4[i * (kChunk / 4) + tid] = make_float4((v[i].x - mx) - lse, (v[i].y - mx) - lse,
                                               (v[i].z - mx) - lse, (v[i].w - mx) - lse);
}
