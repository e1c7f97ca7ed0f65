// A faster softmax_dim1, general in B, C and L (any size) and in the warp size. Coalesced along
// L, reduced along C:
//  * a block is a TL x TC grid of threads (TL along l, TC along c): the TL threads of a c-row
//    read TL consecutive floats (TL = 32, or the next power of two of a short L), and the TC
//    rows split the C values of each column, so a column of C = 5003 or a single column (L = 1)
//    still gets many threads;
//  * one pass over x computes each thread's running (max, sum of exp) pair online, the TC pairs
//    of a column are merged by a shared-memory tree, and a second pass writes the outputs: x is
//    read twice instead of three times, with one exp per element per pass;
//  * when B * ceil(L / TL) gives few blocks and C is long, blocks grow to 512 or 1024 threads
//    (more threads along C), so small batches still fill more of the GPU.
// No warp shuffles: any warp size.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kMaxThreads = 1024;

// (m, s) <- the merge of two (max, sum of exp(x - max)) pairs; an empty pair is (-inf, 0).
__device__ __forceinline__ void merge(float& m, float& s, float m2, float s2) {
  if (m2 == -INFINITY) return;
  if (m == -INFINITY) {
    m = m2;
    s = s2;
  } else if (m2 > m) {
    s = s * __expf(m - m2) + s2;
    m = m2;
  } else {
    s += s2 * __expf(m2 - m);
  }
}

__global__ __launch_bounds__(kMaxThreads) void softmax_dim1(const float* __restrict__ x,
                                                            float* __restrict__ y, int64_t C,
                                                            int64_t L, int64_t l_tiles) {
  __shared__ float sm[kMaxThreads];
  __shared__ float ss[kMaxThreads];
  const int TL = blockDim.x, TC = blockDim.y;
  const int tl = threadIdx.x, tc = threadIdx.y;
  const int64_t b = blockIdx.x / l_tiles;
  const int64_t l = (blockIdx.x - b * l_tiles) * TL + tl;
  const bool active = l < L;
  const int64_t base = b * C * L + l;

  float m = -INFINITY, s = 0.0f;
  if (active) {
    for (int64_t c = tc; c < C; c += TC) {
      const float v = x[base + c * L];
      if (v > m) {
        s = s * __expf(m - v) + 1.0f;  // exp(-inf) = 0 on the first element
        m = v;
      } else {
        s += __expf(v - m);
      }
    }
  }
  const int me = tc * TL + tl;
  sm[me] = m;
  ss[me] = s;
  __syncthreads();
  for (int stride = TC / 2; stride > 0; stride >>= 1) {  // TC is a power of two
    if (tc < stride) {
      merge(m, s, sm[me + stride * TL], ss[me + stride * TL]);
      sm[me] = m;
      ss[me] = s;
    }
    __syncthreads();
  }
  if (!active) return;
  const float mx = sm[tl];
  const float inv = 1.0f / ss[tl];
  for (int64_t c = tc; c < C; c += TC) {
    const int64_t i = base + c * L;
    y[i] = __expf(x[i] - mx) * inv;
  }
}

static int pow2_at_least(int64_t v, int cap) {
  int p = 1;
  while (p < cap && p < v) p <<= 1;
  return p;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* y = (float*)call->tensors[1].data;
  const int64_t B = call->params[0].i, C = call->params[1].i, L = call->params[2].i;
  const int TL = pow2_at_least(L, 32);
  const int64_t l_tiles = (L + TL - 1) / TL;
  const int64_t blocks = B * l_tiles;
  // Few blocks and long columns: more threads per block, along C.
  const int threads = blocks >= 256 ? 256 : (C >= 2048 ? 1024 : (C >= 512 ? 512 : 256));
  int TC = threads / TL;
  TC = pow2_at_least(C, TC);  // no more rows of threads than values along C
  softmax_dim1<<<(unsigned)blocks, dim3(TL, TC), 0, (hipStream_t)call->stream>>>(x, y, C, L,
                                                                                 l_tiles);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
