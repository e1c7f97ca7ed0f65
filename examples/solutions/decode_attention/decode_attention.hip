// A faster decode attention (flash-decoding), general in B, H and S (any S, 1 included); D is
// 64 or 128 as the task states. Compared with the baseline:
//  * S is split over many blocks: each (batch, head) row gets ceil(S / chunk) blocks, the chunk
//    chosen so that the whole grid has about 512 blocks (at least 32 keys each), so a row count
//    of 8 or 12 no longer leaves almost every multiprocessor idle;
//  * K and V are read once, coalesced and 16 bytes at a time: a group of D / 8 lanes owns one
//    key/value row, each lane 8 halves (one uint4 load); the score is the group's xor-shuffle
//    sum, and the value row is folded into the group's running output with the online-softmax
//    rule (running max, rescaled sum and accumulator), so the scores never touch memory and
//    there is one pass over the cache instead of two;
//  * the groups of a block merge their (max, sum, accumulator) triples through shared memory
//    once; a second small kernel merges the blocks of a row and rounds to f16 once.
// Everything is f32 after the f16 loads; exponentials use exp2f on scores pre-scaled by log2(e).
// The partial triples live in a static __device__ array (a null pointer in the kernels means
// it); a grid that needs more falls back to hipMalloc.
// Tensors (declaration order): q f16[B, H, D], k, v f16[B, H, S, D], o f16[B, H, D];
// params: B, H, S, D.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 128;
constexpr int kVec = 8;  // halves per lane: one 16-byte load
constexpr int64_t kTargetBlocks = 512;
constexpr int64_t kMinChunk = 32;
constexpr int64_t kMaxPartFloats = 1 << 18;

__device__ float g_parts[kMaxPartFloats];  // per (row, split): D accumulators, max, sum

__device__ void load8(const __half* p, float* f) {
  const uint4 raw = *(const uint4*)p;  // 16 bytes, split into halves by shifts (no type punning)
  const unsigned w[4] = {raw.x, raw.y, raw.z, raw.w};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    f[2 * i] = __half2float(__ushort_as_half((unsigned short)(w[i] & 0xffffu)));
    f[2 * i + 1] = __half2float(__ushort_as_half((unsigned short)(w[i] >> 16)));
  }
}

template <int D>
__global__ void __launch_bounds__(kThreads)
    attn_partial(const __half* __restrict__ q, const __half* __restrict__ k,
                 const __half* __restrict__ v, float* parts, int64_t S, int64_t chunk, int splits,
                 float qscale) {
  constexpr int G = D / kVec;            // lanes per key row (8 or 16: inside any warp)
  constexpr int kGroups = kThreads / G;  // key rows per pass
  __shared__ float sm_m[kGroups], sm_l[kGroups];
  __shared__ float sm_acc[kGroups][D];
  if (parts == nullptr) parts = g_parts;
  const int64_t row = blockIdx.y;
  const int split = blockIdx.x;
  const int tid = threadIdx.x;
  const int grp = tid / G, gl = tid % G;
  const int64_t j0 = (int64_t)split * chunk;
  const int64_t j1 = j0 + chunk < S ? j0 + chunk : S;

  float qf[kVec];
  load8(q + row * D + gl * kVec, qf);
#pragma unroll
  for (int i = 0; i < kVec; ++i) qf[i] *= qscale;  // 1 / sqrt(D) * log2(e)

  const __half* kr = k + row * S * D + gl * kVec;
  const __half* vr = v + row * S * D + gl * kVec;
  float m = -INFINITY, l = 0.0f, acc[kVec];
#pragma unroll
  for (int i = 0; i < kVec; ++i) acc[i] = 0.0f;

  // Uniform trip count across the block, so every shuffle has its whole warp.
  for (int64_t base = j0; base < j1; base += kGroups) {
    const int64_t j = base + grp;
    const bool valid = j < j1;
    float kf[kVec], vf[kVec];
    if (valid) {
      load8(kr + j * D, kf);
      load8(vr + j * D, vf);
    } else {
#pragma unroll
      for (int i = 0; i < kVec; ++i) kf[i] = vf[i] = 0.0f;
    }
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < kVec; ++i) s = fmaf(qf[i], kf[i], s);
#pragma unroll
    for (int off = G / 2; off > 0; off >>= 1) s += __shfl_xor(s, off);
    if (valid) {
      const float mn = fmaxf(m, s);
      const float corr = exp2f(m - mn);  // 0 on the first key (m = -inf)
      const float p = exp2f(s - mn);
      l = l * corr + p;
#pragma unroll
      for (int i = 0; i < kVec; ++i) acc[i] = fmaf(p, vf[i], acc[i] * corr);
      m = mn;
    }
  }

#pragma unroll
  for (int i = 0; i < kVec; ++i) sm_acc[grp][gl * kVec + i] = acc[i];
  if (gl == 0) {
    sm_m[grp] = m;
    sm_l[grp] = l;
  }
  __syncthreads();
  if (tid < D) {
    float mm = -INFINITY;
    for (int g = 0; g < kGroups; ++g) mm = fmaxf(mm, sm_m[g]);
    float ll = 0.0f, a = 0.0f;
    for (int g = 0; g < kGroups; ++g) {
      const float w = sm_m[g] == -INFINITY ? 0.0f : exp2f(sm_m[g] - mm);
      ll = fmaf(sm_l[g], w, ll);
      a = fmaf(sm_acc[g][tid], w, a);
    }
    float* pr = parts + (row * splits + split) * (D + 2);
    pr[tid] = a;
    if (tid == 0) {
      pr[D] = mm;
      pr[D + 1] = ll;
    }
  }
}

// One block of D threads per row: merge the row's split triples, normalize, round to f16.
__global__ void attn_combine(const float* parts, __half* __restrict__ o, int splits, int d) {
  if (parts == nullptr) parts = g_parts;
  const int64_t row = blockIdx.x;
  const int tid = threadIdx.x;
  const float* pr = parts + row * splits * (d + 2);
  float mm = -INFINITY;
  for (int s = 0; s < splits; ++s) mm = fmaxf(mm, pr[s * (d + 2) + d]);
  float ll = 0.0f, a = 0.0f;
  for (int s = 0; s < splits; ++s) {
    const float* ps = pr + s * (d + 2);
    const float w = ps[d] == -INFINITY ? 0.0f : exp2f(ps[d] - mm);
    ll = fmaf(ps[d + 1], w, ll);
    a = fmaf(ps[tid], w, a);
  }
  o[row * d + tid] = __float2half(a / ll);
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 4)
    return 1;
  const __half* q = (const __half*)call->tensors[0].data;
  const __half* k = (const __half*)call->tensors[1].data;
  const __half* v = (const __half*)call->tensors[2].data;
  __half* o = (__half*)call->tensors[3].data;
  const int64_t B = call->params[0].i, H = call->params[1].i;
  const int64_t S = call->params[2].i, D = call->params[3].i;
  hipStream_t stream = (hipStream_t)call->stream;
  if (D != 64 && D != 128) return 4;
  const int64_t rows = B * H;
  if (rows <= 0 || S <= 0) return 0;
  if (rows > 65535) return 5;  // rows go to gridDim.y

  int64_t want = (kTargetBlocks + rows - 1) / rows;  // splits per row wanted
  int64_t chunk = (S + want - 1) / want;
  if (chunk < kMinChunk) chunk = kMinChunk;
  const int64_t splits = (S + chunk - 1) / chunk;  // every split holds at least one key
  const int64_t floats = rows * splits * (D + 2);
  float* parts = nullptr;  // g_parts
  if (floats > kMaxPartFloats && hipMalloc((void**)&parts, floats * sizeof(float)) != hipSuccess)
    return 2;
  const float qscale = 1.4426950408889634f / sqrtf((float)D);
  const dim3 grid((unsigned)splits, (unsigned)rows);
  if (D == 64)
    attn_partial<64><<<grid, kThreads, 0, stream>>>(q, k, v, parts, S, chunk, (int)splits, qscale);
  else
    attn_partial<128><<<grid, kThreads, 0, stream>>>(q, k, v, parts, S, chunk, (int)splits, qscale);
  attn_combine<<<(unsigned)rows, (unsigned)D, 0, stream>>>(parts, o, (int)splits, (int)D);
  const bool ok = hipGetLastError() == hipSuccess;
  const bool freed = floats <= kMaxPartFloats || hipFree(parts) == hipSuccess;
  return ok && freed ? 0 : 3;
}
