#include <hip/hip_runtime.h>

// Inclusive Hillis-Steele scan of each block's chunk (double-buffered in shared memory).
__global__ void scan(const int* in, int* out) {
  __shared__ int buf[2][512];
  int t = threadIdx.x, base = blockIdx.x * blockDim.x;
  int cur = 0;
  buf[cur][t] = in[base + t];
  __syncthreads();
  for (int off = 1; off < (int)blockDim.x; off *= 2) {
    int nxt = 1 - cur;
    buf[nxt][t] = buf[cur][t] + (t >= off ? buf[cur][t - off] : 0);
    __syncthreads();
    cur = nxt;
  }
  out[base + t] = buf[cur][t];
}
