// The passes of a multi-block inclusive scan, included by launcher_scan.hip: a templated block
// scan (warp scans, then a scan of the warp totals) and the host function that launches the
// pass adding each block's offset with <<<>>>.
#pragma once

#include "warp_scan.h"

template <class T, int BLOCK>
__global__ void block_scan(const T* in, T* out, T* block_totals, long n) {
  __shared__ T warp_totals[BLOCK / 32];
  const long i = blockIdx.x * (long)BLOCK + threadIdx.x;
  T v = i < n ? in[i] : T(0);
  v = warp_inclusive_scan(v);
  const int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
  if (lane == warpSize - 1) warp_totals[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < BLOCK / warpSize; ++w) warp_totals[w] += warp_totals[w - 1];
  }
  __syncthreads();
  if (warp > 0) v += warp_totals[warp - 1];
  if (i < n) out[i] = v;
  if (block_totals != nullptr && threadIdx.x == BLOCK - 1) block_totals[blockIdx.x] = v;
}

template <class T>
__global__ void add_offsets(T* out, const T* scanned_totals, long n) {
  const long i = (blockIdx.x + 1) * (long)blockDim.x + threadIdx.x;  // block 0 needs none
  if (i < n) out[i] += scanned_totals[blockIdx.x];
}

template <class T>
hipError_t launch_add_offsets(T* out, const T* scanned_totals, long n, int block, int blocks,
                              hipStream_t stream) {
  if (blocks <= 1) return hipSuccess;
  add_offsets<T><<<blocks - 1, block, 0, stream>>>(out, scanned_totals, n);
  return hipGetLastError();
}
