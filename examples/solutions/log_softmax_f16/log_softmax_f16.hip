// A faster log_softmax_f16, general in M and N (any size) and in the warp size:
//  * one pass over x for both statistics: each thread keeps a running (max, sum of exp(x - max))
//    pair, updated online with one exp per element, so x is read twice (statistics, output)
//    instead of three times;
//  * x and y move as __half2 pairs. A row starts on a 4-byte boundary only when its offset
//    r * N is even, so each row takes its first element alone when it does not, then aligned
//    pairs, then a last element alone when one is left: any N, odd rows included;
//  * the pairs are merged with warp shuffles (over warpSize lanes) and, for a whole block,
//    through shared memory with one barrier, not a tree with a barrier per level;
//  * short rows (N <= 1024) get one warp each, 8 rows per block of 256 threads (warps take the
//    block's rows in turn, so any warp size covers all 8); long rows get a block of 256 threads.
// Arithmetic in f32, rounded once to f16; y = (x - max) - log(sum) stays in the log domain.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int kRowsPerBlock = 8;  // short rows: rows per block of kThreads threads
constexpr int kShortRow = 1024;   // rows up to this length take one warp each

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

// Adds one value to a running pair (m may be -inf: exp(-inf) = 0).
__device__ __forceinline__ void push(float& m, float& s, float v) {
  if (v > m) {
    s = s * __expf(m - v) + 1.0f;
    m = v;
  } else {
    s += __expf(v - m);
  }
}

__device__ __forceinline__ void warp_merge(float& m, float& s) {
  for (int off = warpSize / 2; off > 0; off >>= 1) {
    const float m2 = __shfl_xor(m, off), s2 = __shfl_xor(s, off);
    merge(m, s, m2, s2);
  }
}

// The statistics of one row over `lanes` cooperating threads (this one is `lane`): head element,
// aligned __half2 pairs, tail element. Returns the thread's partial pair.
__device__ __forceinline__ void row_partial(const __half* xr, int64_t N, int lane, int lanes,
                                            float& m, float& s) {
  const int64_t head = ((uintptr_t)xr & 2) ? 1 : 0;  // a row starting mid-pair
  const int64_t pairs = (N - head) / 2;
  const __half2* x2 = reinterpret_cast<const __half2*>(xr + head);
  m = -INFINITY;
  s = 0.0f;
  for (int64_t p = lane; p < pairs; p += lanes) {
    const __half2 v = x2[p];
    push(m, s, __half2float(v.x));
    push(m, s, __half2float(v.y));
  }
  if (lane == 0 && head) push(m, s, __half2float(xr[0]));
  if (lane == lanes - 1 && head + 2 * pairs < N) push(m, s, __half2float(xr[N - 1]));
}

__device__ __forceinline__ void row_write(const __half* xr, __half* yr, int64_t N, int lane,
                                          int lanes, float m, float lse) {
  const int64_t head = ((uintptr_t)xr & 2) ? 1 : 0;  // y has the same offset as x
  const int64_t pairs = (N - head) / 2;
  const __half2* x2 = reinterpret_cast<const __half2*>(xr + head);
  __half2* y2 = reinterpret_cast<__half2*>(yr + head);
  for (int64_t p = lane; p < pairs; p += lanes) {
    const __half2 v = x2[p];
    y2[p] = __floats2half2_rn((__half2float(v.x) - m) - lse, (__half2float(v.y) - m) - lse);
  }
  if (lane == 0 && head) yr[0] = __float2half((__half2float(xr[0]) - m) - lse);
  if (lane == lanes - 1 && head + 2 * pairs < N)
    yr[N - 1] = __float2half((__half2float(xr[N - 1]) - m) - lse);
}

// Long rows: one block of kThreads threads per row.
__global__ __launch_bounds__(kThreads) void log_softmax_rows(const __half* __restrict__ x,
                                                             __half* __restrict__ y, int64_t M,
                                                             int64_t N) {
  __shared__ float wm[kThreads], ws[kThreads];  // one pair per warp (any warp size)
  const int64_t row = blockIdx.x;
  if (row >= M) return;  // uniform across the block
  const __half* xr = x + row * N;
  __half* yr = y + row * N;
  float m, s;
  row_partial(xr, N, threadIdx.x, kThreads, m, s);
  warp_merge(m, s);
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  const int nwarps = (kThreads + warpSize - 1) / warpSize;
  if (lane == 0) {
    wm[warp] = m;
    ws[warp] = s;
  }
  __syncthreads();
  m = wm[0];
  s = ws[0];
  for (int w = 1; w < nwarps; ++w) merge(m, s, wm[w], ws[w]);
  row_write(xr, yr, N, threadIdx.x, kThreads, m, logf(s));
}

// Short rows: one warp per row, kRowsPerBlock rows per block.
__global__ __launch_bounds__(kThreads) void log_softmax_short(const __half* __restrict__ x,
                                                              __half* __restrict__ y, int64_t M,
                                                              int64_t N) {
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  const int nwarps = (kThreads + warpSize - 1) / warpSize;
  for (int r = warp; r < kRowsPerBlock; r += nwarps) {  // uniform within a warp
    const int64_t row = (int64_t)blockIdx.x * kRowsPerBlock + r;
    if (row >= M) break;
    const __half* xr = x + row * N;
    __half* yr = y + row * N;
    float m, s;
    row_partial(xr, N, lane, warpSize, m, s);
    warp_merge(m, s);
    row_write(xr, yr, N, lane, warpSize, m, logf(s));
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 2)
    return 1;
  const __half* x = (const __half*)call->tensors[0].data;
  __half* y = (__half*)call->tensors[1].data;
  const int64_t M = call->params[0].i, N = call->params[1].i;
  hipStream_t stream = (hipStream_t)call->stream;
  if (N <= kShortRow) {
    const int64_t blocks = (M + kRowsPerBlock - 1) / kRowsPerBlock;
    log_softmax_short<<<(unsigned)blocks, kThreads, 0, stream>>>(x, y, M, N);
  } else {
    log_softmax_rows<<<(unsigned)M, kThreads, 0, stream>>>(x, y, M, N);
  }
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
