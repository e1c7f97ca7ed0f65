// A faster cumsum_dim, general in M and N (any size) and in the warp size. The row is cut into
// tiles of 2048 elements (256 threads x 8 consecutive elements each), and a tile is scanned
// with one barrier-light block scan: a sequential scan of each thread's 8 elements in
// registers, an inclusive warp scan of the thread totals with __shfl_up over warpSize lanes,
// and the warp totals combined through shared memory (2 barriers a tile instead of 16 for a
// 256-wide Hillis-Steele). Tiles go through shared memory so global loads and stores stay
// coalesced.
//  * many rows (M >= 512, or a row of one tile): one block per row walks its tiles with a
//    running carry, one read and one write of x (8 bytes an element);
//  * few long rows: reduce-then-scan over a grid of (tiles, rows) blocks, so a handful of rows
//    still fills the GPU: (1) each block sums its tile, (2) one block per row turns the tile
//    sums into exclusive tile offsets, (3) each block scans its tile again and adds its offset
//    (x is read twice: 12 bytes an element, all of it parallel). No block waits on another
//    (no decoupled look-back spin), so it runs on any scheduler, the cpu device included.
// The tile sums live in a static __device__ buffer (no allocation per call); a problem with
// more tiles than it holds falls back to hipMalloc. All arithmetic is f32.
// Tensors (declaration order): x f32[M, N], y f32[M, N]; params M, N.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int kItems = 8;
constexpr int kTile = kThreads * kItems;  // 2048 elements a tile
constexpr int kMaxWarps = kThreads / 8;   // kThreads / warpSize for any warp size down to 8
constexpr int64_t kManyRows = 512;        // rows that fill a GPU with one block each
constexpr int64_t kStaticSums = 1 << 18;  // tile sums the static buffer holds

__device__ float g_sums[kStaticSums];

// Inclusive scan of the block's kTile values, thread t holding elements t*kItems .. +kItems-1
// in v[]. On return v[] holds the inclusive prefix sums within the tile; returns the tile's
// total. Every thread of the block must call it (shuffles and barriers).
__device__ float block_scan(float (&v)[kItems], float* warp_tot) {
#pragma unroll
  for (int i = 1; i < kItems; ++i) v[i] += v[i - 1];
  const float t = v[kItems - 1];
  const int lane = threadIdx.x % warpSize, w = threadIdx.x / warpSize;
  const int warps = kThreads / warpSize;
  float s = t;
  for (int off = 1; off < warpSize; off <<= 1) {
    const float o = __shfl_up(s, off);
    if (lane >= off) s += o;
  }
  if (lane == warpSize - 1) warp_tot[w] = s;
  __syncthreads();
  float before = 0.0f, total = 0.0f;
  for (int i = 0; i < warps; ++i) {
    const float wt = warp_tot[i];
    if (i < w) before += wt;
    total += wt;
  }
  const float excl = before + (s - t);
#pragma unroll
  for (int i = 0; i < kItems; ++i) v[i] += excl;
  __syncthreads();  // warp_tot is reused by the next call
  return total;
}

// Loads tile [base, base + kTile) of a row (zeros past n) into v[] in thread-major order,
// coalesced through shared memory.
__device__ void load_tile(const float* xr, int64_t base, int64_t n, float* tile,
                          float (&v)[kItems]) {
  for (int i = threadIdx.x; i < kTile; i += kThreads) {
    const int64_t k = base + i;
    tile[i] = k < n ? xr[k] : 0.0f;
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < kItems; ++i) v[i] = tile[threadIdx.x * kItems + i];
  __syncthreads();
}

__device__ void store_tile(float* yr, int64_t base, int64_t n, float* tile,
                           const float (&v)[kItems], float add) {
#pragma unroll
  for (int i = 0; i < kItems; ++i) tile[threadIdx.x * kItems + i] = v[i] + add;
  __syncthreads();
  for (int i = threadIdx.x; i < kTile; i += kThreads) {
    const int64_t k = base + i;
    if (k < n) yr[k] = tile[i];
  }
  __syncthreads();
}

// One block per row, tiles in order with a running carry.
__global__ __launch_bounds__(kThreads) void scan_rows(const float* __restrict__ x,
                                                      float* __restrict__ y, int64_t M,
                                                      int64_t N) {
  __shared__ float tile[kTile];
  __shared__ float warp_tot[kMaxWarps];
  const int64_t row = blockIdx.x;
  if (row >= M) return;  // uniform across the block
  const float* xr = x + row * N;
  float* yr = y + row * N;
  float carry = 0.0f;
  for (int64_t base = 0; base < N; base += kTile) {
    float v[kItems];
    load_tile(xr, base, N, tile, v);
    const float total = block_scan(v, warp_tot);
    store_tile(yr, base, N, tile, v, carry);
    carry += total;
  }
}

// (1) sums[row * T + t] = the sum of tile t of the row. Grid (T, rows).
__global__ __launch_bounds__(kThreads) void tile_sums(const float* __restrict__ x,
                                                      float* sums, int64_t N,
                                                      int64_t T) {
  __shared__ float warp_tot[kMaxWarps];
  if (sums == nullptr) sums = g_sums;
  const int64_t row = blockIdx.y, t = blockIdx.x;
  const float* xr = x + row * N;
  const int64_t base = t * kTile;
  float s = 0.0f;
  for (int i = threadIdx.x; i < kTile; i += kThreads) {
    const int64_t k = base + i;
    if (k < N) s += xr[k];
  }
  for (int off = warpSize / 2; off > 0; off >>= 1) s += __shfl_down(s, off);
  const int lane = threadIdx.x % warpSize, w = threadIdx.x / warpSize;
  if (lane == 0) warp_tot[w] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0.0f;
    for (int i = 0; i < kThreads / warpSize; ++i) total += warp_tot[i];
    sums[row * T + t] = total;
  }
}

// (2) The row's T tile sums become exclusive offsets, in place. One block per row.
__global__ __launch_bounds__(kThreads) void scan_sums(float* sums, int64_t T) {
  __shared__ float tile[kTile];
  __shared__ float warp_tot[kMaxWarps];
  if (sums == nullptr) sums = g_sums;
  float* sr = sums + (int64_t)blockIdx.x * T;
  float carry = 0.0f;
  for (int64_t base = 0; base < T; base += kTile) {
    float v[kItems];
    load_tile(sr, base, T, tile, v);
    float orig[kItems];
#pragma unroll
    for (int i = 0; i < kItems; ++i) orig[i] = v[i];
    const float total = block_scan(v, warp_tot);
    float ex[kItems];
#pragma unroll
    for (int i = 0; i < kItems; ++i) ex[i] = v[i] - orig[i];  // exclusive within the tile
    store_tile(sr, base, T, tile, ex, carry);
    carry += total;
  }
}

// (3) Scan each tile again and add its row offset. Grid (T, rows).
__global__ __launch_bounds__(kThreads) void scan_tiles(const float* __restrict__ x,
                                                       const float* offs,
                                                       float* __restrict__ y, int64_t N,
                                                       int64_t T) {
  __shared__ float tile[kTile];
  __shared__ float warp_tot[kMaxWarps];
  if (offs == nullptr) offs = g_sums;
  const int64_t row = blockIdx.y, t = blockIdx.x;
  const int64_t base = t * kTile;
  float v[kItems];
  load_tile(x + row * N, base, N, tile, v);
  block_scan(v, warp_tot);
  store_tile(y + row * N, base, N, tile, v, offs[row * T + t]);
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 2)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* y = (float*)call->tensors[1].data;
  const int64_t M = call->params[0].i, N = call->params[1].i;
  hipStream_t stream = (hipStream_t)call->stream;
  const int64_t T = (N + kTile - 1) / kTile;
  bool ok = true;
  if (M >= kManyRows || T == 1) {
    scan_rows<<<(unsigned)M, kThreads, 0, stream>>>(x, y, M, N);
    ok = hipGetLastError() == hipSuccess;
  } else {
    float* sums = nullptr;  // nullptr: the kernels use g_sums
    const bool own = M * T > kStaticSums;
    if (own && hipMalloc((void**)&sums, M * T * sizeof(float)) != hipSuccess) return 3;
    const dim3 grid((unsigned)T, (unsigned)M);  // M < kManyRows here: within grid y's limit
    tile_sums<<<grid, kThreads, 0, stream>>>(x, sums, N, T);
    scan_sums<<<(unsigned)M, kThreads, 0, stream>>>(sums, T);
    scan_tiles<<<grid, kThreads, 0, stream>>>(x, sums, y, N, T);
    ok = hipGetLastError() == hipSuccess;
    if (own && hipFree(sums) != hipSuccess) return 4;
  }
  return ok ? 0 : 2;
}
