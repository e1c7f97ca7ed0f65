// A faster matvec, general in M, K and the block size (any multiple of warpSize up to 1024).
// Compared with the baseline:
//  * A is streamed with 16-byte (float4) loads: a scalar head brings each row pointer to a
//    16-byte boundary (a row is aligned only when K is a multiple of 4), a scalar tail takes
//    the last K % 4 elements; x is read as float4 where its matching slice is aligned too
//    (always when K % 4 == 0) and as four scalars otherwise (it stays in the cache);
//  * the main loop keeps four independent float4 loads of A in flight per thread (two where x
//    is misaligned), into separate accumulators, so long rows with few blocks (K = 32768 on
//    128 blocks) still keep the memory system busy;
//  * __restrict__ pointers let the compiler use the read-only path for A and x.
#include <hip/hip_runtime.h>
#include <stdint.h>

__device__ float warp_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset >>= 1) v += __shfl_down(v, offset);
  return v;
}

// Four consecutive floats from an address that need not be 16-byte aligned.
__device__ float4 load4u(const float* p) { return make_float4(p[0], p[1], p[2], p[3]); }

__device__ float dot4(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }

__global__ void matvec(const float* __restrict__ a, const float* __restrict__ x,
                       float* __restrict__ y, int64_t m, int64_t k) {
  __shared__ float partial[32];  // one per warp: 1024 threads / warps of at least 32
  const int64_t row = blockIdx.x;
  if (row >= m) return;  // uniform across the block
  const float* ar = a + row * k;
  const int tid = threadIdx.x;
  const int nt = blockDim.x;
  const int lane = tid % warpSize;
  const int warp = tid / warpSize;
  const int warps = nt / warpSize;

  // Head: elements before the first 16-byte boundary of the row (0 to 3 of them).
  int64_t head = (int64_t)(((16 - ((uintptr_t)ar & 15)) & 15) >> 2);
  if (head > k) head = k;
  float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
  if (tid < head) s0 = ar[tid] * x[tid];

  const int64_t nv = (k - head) >> 2;  // whole float4s of the row after the head
  const float4* av = (const float4*)(ar + head);
  const float* xh = x + head;
  if (((uintptr_t)xh & 15) == 0) {
    const float4* xv = (const float4*)xh;
    int64_t i = tid;
    for (; i + 3 * nt < nv; i += 4 * (int64_t)nt) {
      const float4 a0 = av[i], a1 = av[i + nt], a2 = av[i + 2 * nt], a3 = av[i + 3 * nt];
      const float4 x0 = xv[i], x1 = xv[i + nt], x2 = xv[i + 2 * nt], x3 = xv[i + 3 * nt];
      s0 += dot4(a0, x0);
      s1 += dot4(a1, x1);
      s2 += dot4(a2, x2);
      s3 += dot4(a3, x3);
    }
    for (; i < nv; i += nt) s0 += dot4(av[i], xv[i]);
  } else {
    int64_t i = tid;
    for (; i + nt < nv; i += 2 * (int64_t)nt) {
      const float4 a0 = av[i], a1 = av[i + nt];
      s0 += dot4(a0, load4u(xh + 4 * i));
      s1 += dot4(a1, load4u(xh + 4 * (i + nt)));
    }
    if (i < nv) s0 += dot4(av[i], load4u(xh + 4 * i));
  }
  // Tail: the last (k - head) % 4 elements.
  const int64_t j = head + 4 * nv + tid;
  if (j < k) s1 += ar[j] * x[j];

  float sum = warp_sum((s0 + s1) + (s2 + s3));
  if (lane == 0) partial[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < warps ? partial[lane] : 0.0f;
    sum = warp_sum(sum);
    if (lane == 0) y[row] = sum;
  }
}
