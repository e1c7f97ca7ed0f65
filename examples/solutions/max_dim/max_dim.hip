// A faster max_dim, general in M and N (any size) and in the warp size: one pass over x that
// carries the value and the index together, reductions by warp shuffles (__shfl_down over
// warpSize lanes), ties resolved to the smaller index at every combine (each thread scans its
// elements in increasing order and keeps the first maximum; a combine takes the other pair
// only when it is greater, or equal with a smaller index). The work split follows the shape:
//  * short rows (N <= 1024): 64 threads per row, 4 rows a block (one or two warps a row);
//  * longer rows: 256 threads per row;
//  * few long rows (fewer rows than it takes to fill the GPU): each row is split into chunks
//    of at least 4096 elements over a (chunks, rows) grid, every block writes its (value,
//    index) pair, and a second kernel combines a row's pairs (no atomics: deterministic).
// Either way a block needs one barrier (its warps' pairs meet in shared memory). The partial
// pairs live in a static __device__ buffer; past its size, hipMalloc.
// Tensors (declaration order): x f32[M, N], values f32[M], indices i64[M]; params M, N.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int kMaxWarps = kThreads / 8;    // kThreads / warpSize for any warp size down to 8
constexpr int kShortGroup = 64;            // threads per row for short rows
constexpr int64_t kNone = INT64_MAX;       // the index of "no element": loses every tie
constexpr int64_t kMinChunk = 4096;        // elements a block takes at least, when splitting
constexpr int64_t kTargetBlocks = 1024;    // blocks that fill a GPU comfortably
constexpr int64_t kStaticParts = 1 << 16;  // (value, index) pairs the static buffer holds

__device__ float g_part_v[kStaticParts];
__device__ int64_t g_part_i[kStaticParts];

__device__ __forceinline__ void take_better(float& v, int64_t& i, float ov, int64_t oi) {
  if (ov > v || (ov == v && oi < i)) {
    v = ov;
    i = oi;
  }
}

// Reduces (v, i) over the warp; lane 0 gets the result.
__device__ __forceinline__ void warp_argmax(float& v, int64_t& i) {
  for (int off = warpSize / 2; off > 0; off >>= 1) {
    const float ov = __shfl_down(v, off);
    const int64_t oi = __shfl_down(i, off);
    take_better(v, i, ov, oi);
  }
}

// GROUP threads reduce x[lo, hi) of one row (GROUP a multiple of warpSize); thread
// tid % GROUP == 0 of the group gets the result. Every thread of the block must call it; sv
// and si are shared arrays of kMaxWarps entries.
template <int GROUP>
__device__ __forceinline__ void group_argmax(const float* __restrict__ xr, int64_t lo,
                                             int64_t hi, float* sv, int64_t* si, float& v,
                                             int64_t& i) {
  v = -INFINITY;
  i = kNone;
  for (int64_t k = lo + threadIdx.x % GROUP; k < hi; k += GROUP) {
    take_better(v, i, xr[k], k);  // increasing k: only a greater value replaces (or -inf)
  }
  warp_argmax(v, i);
  const int lane = threadIdx.x % warpSize, w = threadIdx.x / warpSize;
  if (lane == 0) {
    sv[w] = v;
    si[w] = i;
  }
  __syncthreads();
  if (threadIdx.x % GROUP == 0) {
    for (int k = 1; k < GROUP / warpSize; ++k) take_better(v, i, sv[w + k], si[w + k]);
  }
}

// One row per GROUP threads: rows blockIdx.x * (kThreads / GROUP) + threadIdx.x / GROUP.
template <int GROUP>
__global__ __launch_bounds__(kThreads) void max_rows(const float* __restrict__ x,
                                                     float* __restrict__ values,
                                                     int64_t* __restrict__ indices, int64_t M,
                                                     int64_t N) {
  int64_t row = (int64_t)blockIdx.x * (kThreads / GROUP) + threadIdx.x / GROUP;
  const bool live = row < M;
  if (!live) row = M - 1;  // idle groups still reach the barrier
  __shared__ float sv[kMaxWarps];
  __shared__ int64_t si[kMaxWarps];
  float v;
  int64_t i;
  group_argmax<GROUP>(x + row * N, 0, N, sv, si, v, i);
  if (live && threadIdx.x % GROUP == 0) {
    values[row] = v;
    indices[row] = i;
  }
}

// One block per (chunk, row), grid (P, M): the pair of x[row, chunk * len .. ) goes to
// part[row * P + chunk].
__global__ __launch_bounds__(kThreads) void max_chunks(const float* __restrict__ x,
                                                       float* part_v, int64_t* part_i,
                                                       int64_t N, int64_t P) {
  if (part_v == nullptr) part_v = g_part_v;
  if (part_i == nullptr) part_i = g_part_i;
  const int64_t row = blockIdx.y, chunk = blockIdx.x;
  const int64_t len = (N + P - 1) / P;
  const int64_t lo = chunk * len < N ? chunk * len : N, hi = lo + len < N ? lo + len : N;
  __shared__ float sv[kMaxWarps];
  __shared__ int64_t si[kMaxWarps];
  float v;
  int64_t i;
  group_argmax<kThreads>(x + row * N, lo, hi, sv, si, v, i);
  if (threadIdx.x == 0) {
    part_v[row * P + chunk] = v;
    part_i[row * P + chunk] = i;
  }
}

// Combines the P pairs of each row; one block per row.
__global__ __launch_bounds__(kThreads) void combine_parts(const float* part_v,
                                                          const int64_t* part_i,
                                                          float* __restrict__ values,
                                                          int64_t* __restrict__ indices,
                                                          int64_t P) {
  __shared__ float sv[kMaxWarps];
  __shared__ int64_t si[kMaxWarps];
  if (part_v == nullptr) part_v = g_part_v;
  if (part_i == nullptr) part_i = g_part_i;
  const int64_t row = blockIdx.x;
  float v = -INFINITY;
  int64_t i = kNone;
  for (int64_t p = threadIdx.x; p < P; p += kThreads)
    take_better(v, i, part_v[row * P + p], part_i[row * P + p]);
  warp_argmax(v, i);
  const int lane = threadIdx.x % warpSize, w = threadIdx.x / warpSize;
  if (lane == 0) {
    sv[w] = v;
    si[w] = i;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int k = 1; k < kThreads / warpSize; ++k) take_better(v, i, sv[k], si[k]);
    values[row] = v;
    indices[row] = i;
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 2)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* values = (float*)call->tensors[1].data;
  int64_t* indices = (int64_t*)call->tensors[2].data;
  const int64_t M = call->params[0].i, N = call->params[1].i;
  hipStream_t stream = (hipStream_t)call->stream;
  if (N <= 1024) {
    constexpr int64_t rows = kThreads / kShortGroup;
    const int64_t blocks = (M + rows - 1) / rows;
    max_rows<kShortGroup><<<(unsigned)blocks, kThreads, 0, stream>>>(x, values, indices, M, N);
    return hipGetLastError() == hipSuccess ? 0 : 2;
  }
  // Chunks per row: enough blocks to fill the GPU, each chunk at least kMinChunk long.
  int64_t P = 1;
  if (M < kTargetBlocks) {
    P = (kTargetBlocks + M - 1) / M;
    if (P > N / kMinChunk) P = N / kMinChunk;
    if (P < 1) P = 1;
  }
  if (P == 1) {
    max_rows<kThreads><<<(unsigned)M, kThreads, 0, stream>>>(x, values, indices, M, N);
    return hipGetLastError() == hipSuccess ? 0 : 2;
  }
  float* part_v = nullptr;  // nullptr: the kernels use the static buffers
  int64_t* part_i = nullptr;
  const bool own = M * P > kStaticParts;
  if (own && (hipMalloc((void**)&part_v, M * P * sizeof(float)) != hipSuccess ||
              hipMalloc((void**)&part_i, M * P * sizeof(int64_t)) != hipSuccess))
    return 3;
  max_chunks<<<dim3((unsigned)P, (unsigned)M), kThreads, 0, stream>>>(x, part_v, part_i, N, P);
  combine_parts<<<(unsigned)M, kThreads, 0, stream>>>(part_v, part_i, values, indices, P);
  const bool ok = hipGetLastError() == hipSuccess;
  if (own && (hipFree(part_v) != hipSuccess || hipFree(part_i) != hipSuccess)) return 4;
  return ok ? 0 : 2;
}
