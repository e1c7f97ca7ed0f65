// A faster sum_dim, general in B, R and C (any size) and in the warp size. A block of 256
// threads covers 64 consecutive columns of one batch with 4 row lanes: thread (ty, tx) sums
// rows ty, ty + 4, ... of column c0 + tx, so each row of the tile is one coalesced 256-byte
// read, and each thread keeps 4 independent accumulators (4 rows in flight) to hide latency.
// The 4 row lanes meet in shared memory (one barrier). When B * ceil(C / 64) tiles cannot
// fill the GPU (few outputs, a long R), R is also split into S chunks (at least 40 rows each)
// over more blocks: each writes a partial tile to a scratch [S, B, C] array and a second
// kernel adds the S partials of each output in a fixed order (deterministic, no atomics).
// All arithmetic is f32. Scratch is a static __device__ buffer; past its size, hipMalloc.
// Tensors (declaration order): x f32[B, R, C], y f32[B, C]; params B, R, C.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int kTileC = 64;                   // columns a block covers
constexpr int kLanes = kThreads / kTileC;    // row lanes a block covers (4)
constexpr int kInFlight = kLanes;            // independent accumulators a thread keeps (4)
constexpr int64_t kMinRows = 10 * kLanes;    // rows a chunk takes at least, when splitting R
constexpr int64_t kTargetBlocks = 1024;      // blocks that fill a GPU comfortably
constexpr int64_t kStaticPartials = 1 << 20;  // partial sums the static buffer holds

__device__ float g_partials[kStaticPartials];

// Block (tile, b, s) sums x[b, r, c0 .. c0 + 64) over rows r of chunk s; with S == 1 it writes
// y, else out[(s * B + b) * C + c]. Blocks are numbered ((s * B) + b) * tiles + tile.
__global__ __launch_bounds__(kThreads) void sum_tiles(const float* __restrict__ x, float* out,
                                                      int64_t B, int64_t R, int64_t C,
                                                      int64_t tiles, int64_t S) {
  __shared__ float part[kLanes][kTileC];
  if (out == nullptr) out = g_partials;
  const int64_t blk = blockIdx.x;
  const int64_t tile = blk % tiles, bs = blk / tiles;
  const int64_t b = bs % B, s = bs / B;
  const int tx = threadIdx.x % kTileC, ty = threadIdx.x / kTileC;
  const int64_t c = tile * kTileC + tx;
  const int64_t len = (R + S - 1) / S;
  const int64_t r0 = s * len, r1 = r0 + len < R ? r0 + len : R;
  float acc[kInFlight];
#pragma unroll
  for (int u = 0; u < kInFlight; ++u) acc[u] = 0.0f;
  if (c < C) {
    const float* col = x + b * R * C + c;
    int64_t r = r0 + ty;
    const int64_t step = kLanes;
    for (; r + (kInFlight - 1) * step < r1; r += kInFlight * step) {  // kInFlight rows in flight
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) acc[u] += col[(r + u * step) * C];
    }
    for (; r < r1; r += step) acc[0] += col[r * C];
  }
  float mine = 0.0f;
#pragma unroll
  for (int u = 0; u < kInFlight; ++u) mine += acc[u];
  part[ty][tx] = mine;
  __syncthreads();
  if (ty == 0 && c < C) {
    float sum = part[0][tx];
    for (int l = 1; l < kLanes; ++l) sum += part[l][tx];
    out[(s * B + b) * C + c] = sum;
  }
}

// y[i] = sum over s of partials[s * B * C + i], in order.
__global__ __launch_bounds__(kThreads) void add_partials(const float* partials,
                                                         float* __restrict__ y, int64_t BC,
                                                         int64_t S) {
  if (partials == nullptr) partials = g_partials;
  const int64_t i = (int64_t)blockIdx.x * kThreads + threadIdx.x;
  if (i >= BC) return;
  float sum = 0.0f;
  for (int64_t s = 0; s < S; ++s) sum += partials[s * BC + i];
  y[i] = sum;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* y = (float*)call->tensors[1].data;
  const int64_t B = call->params[0].i, R = call->params[1].i, C = call->params[2].i;
  hipStream_t stream = (hipStream_t)call->stream;
  const int64_t tiles = (C + kTileC - 1) / kTileC;
  // Chunks of R: enough blocks to fill the GPU, each chunk at least kMinRows long.
  int64_t S = (kTargetBlocks + B * tiles - 1) / (B * tiles);
  if (S > R / kMinRows) S = R / kMinRows;
  if (S < 1) S = 1;
  bool ok = true;
  if (S == 1) {
    sum_tiles<<<(unsigned)(B * tiles), kThreads, 0, stream>>>(x, y, B, R, C, tiles, 1);
    ok = hipGetLastError() == hipSuccess;
  } else {
    const int64_t BC = B * C;
    float* partials = nullptr;  // nullptr: the kernels use g_partials
    const bool own = S * BC > kStaticPartials;
    if (own && hipMalloc((void**)&partials, S * BC * sizeof(float)) != hipSuccess) return 3;
    sum_tiles<<<(unsigned)(S * B * tiles), kThreads, 0, stream>>>(x, partials, B, R, C, tiles,
                                                                  S);
    add_partials<<<(unsigned)((BC + kThreads - 1) / kThreads), kThreads, 0, stream>>>(partials, y,
                                                                                     BC, S);
    ok = hipGetLastError() == hipSuccess;
    if (own && hipFree(partials) != hipSuccess) return 4;
  }
  return ok ? 0 : 2;
}
