// Baseline for the prefix_sum task (launcher mode): a reduce-then-scan in three kernels over
// tiles of 2048 elements (256 threads, 8 elements each).
//  1. tile_sums: each block sums its tile (coalesced loads, then a shared-memory tree with a
//     __syncthreads per level) into sums[tile].
//  2. scan_sums: one block of 1024 threads turns sums[] into exclusive prefix sums in place,
//     1024 tile sums at a time, carrying the running total from chunk to chunk.
//  3. scan_tiles: each block reads its tile again, each thread scans its 8 consecutive
//     elements in registers, the block scans the 256 thread totals (Hillis-Steele in shared
//     memory, two barriers per step), and adds the tile's offset from sums[].
// x is read twice (12 bytes of traffic per element where 8 suffice) and three launches are
// serialized. The tile sums live in a static __device__ array (no allocation, so the launcher
// can be captured in a graph; a null pointer means it); longer inputs fall back to hipMalloc.
// Tensors (declaration order): x i32[N], y i32[N]; params: N.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int kItems = 8;
constexpr int64_t kTile = kThreads * kItems;
constexpr int kScanThreads = 1024;
constexpr int64_t kMaxTiles = 1 << 16;  // N up to 128M elements without an allocation

__device__ int32_t g_sums[kMaxTiles];

__global__ void tile_sums(const int32_t* x, int32_t* sums, int64_t n) {
  __shared__ int32_t red[kThreads];
  if (sums == nullptr) sums = g_sums;
  const int64_t base = (int64_t)blockIdx.x * kTile;
  const int tid = threadIdx.x;
  int32_t v = 0;
  for (int j = 0; j < kItems; ++j) {
    const int64_t i = base + j * kThreads + tid;
    if (i < n) v += x[i];
  }
  red[tid] = v;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  if (tid == 0) sums[blockIdx.x] = red[0];
}

// Inclusive scan of one value per thread across the block (Hillis-Steele); every thread calls it.
template <int T>
__device__ int32_t block_inclusive_scan(int32_t v, int32_t* s) {
  const int tid = threadIdx.x;
  s[tid] = v;
  __syncthreads();
  for (int off = 1; off < T; off <<= 1) {
    const int32_t add = tid >= off ? s[tid - off] : 0;
    __syncthreads();
    s[tid] += add;
    __syncthreads();
  }
  const int32_t r = s[tid];
  __syncthreads();  // s is reused by the next call
  return r;
}

__global__ void scan_sums(int32_t* sums, int64_t tiles) {
  __shared__ int32_t s[kScanThreads];
  __shared__ int32_t total;
  if (sums == nullptr) sums = g_sums;
  const int tid = threadIdx.x;
  int32_t carry = 0;
  for (int64_t c = 0; c < tiles; c += kScanThreads) {
    const int64_t i = c + tid;
    const int32_t v = i < tiles ? sums[i] : 0;
    const int32_t inc = block_inclusive_scan<kScanThreads>(v, s);
    if (i < tiles) sums[i] = carry + inc - v;  // exclusive
    if (tid == kScanThreads - 1) total = inc;
    __syncthreads();
    carry += total;
    __syncthreads();
  }
}

__global__ void scan_tiles(const int32_t* x, int32_t* y, const int32_t* sums, int64_t n) {
  __shared__ int32_t s[kThreads];
  if (sums == nullptr) sums = g_sums;
  const int64_t first = (int64_t)blockIdx.x * kTile + (int64_t)threadIdx.x * kItems;
  int32_t v[kItems];
  int32_t run = 0;
  for (int j = 0; j < kItems; ++j) {
    const int64_t i = first + j;
    run += i < n ? x[i] : 0;
    v[j] = run;
  }
  const int32_t inc = block_inclusive_scan<kThreads>(run, s);
  const int32_t offset = sums[blockIdx.x] + inc - run;
  for (int j = 0; j < kItems; ++j) {
    const int64_t i = first + j;
    if (i < n) y[i] = offset + v[j];
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 1)
    return 1;
  const int32_t* x = (const int32_t*)call->tensors[0].data;
  int32_t* y = (int32_t*)call->tensors[1].data;
  const int64_t n = call->params[0].i;
  hipStream_t stream = (hipStream_t)call->stream;
  const int64_t tiles = (n + kTile - 1) / kTile;

  int32_t* sums = nullptr;  // g_sums
  if (tiles > kMaxTiles && hipMalloc((void**)&sums, tiles * sizeof(int32_t)) != hipSuccess)
    return 2;
  tile_sums<<<(unsigned)tiles, kThreads, 0, stream>>>(x, sums, n);
  scan_sums<<<1, kScanThreads, 0, stream>>>(sums, tiles);
  scan_tiles<<<(unsigned)tiles, kThreads, 0, stream>>>(x, y, sums, n);
  const bool ok = hipGetLastError() == hipSuccess;
  const bool freed = tiles <= kMaxTiles || hipFree(sums) == hipSuccess;
  return ok && freed ? 0 : 3;
}
