#include <hip/hip_runtime.h>

// Row softmax, one block per row; the row lives in dynamic shared memory (cols floats) and a
// second region (blockDim floats) holds the reduction.
__global__ void softmax(const float* x, float* y, int cols) {
  extern __shared__ float smem[];
  float* row = smem;
  float* red = smem + cols;
  const float* in = x + (long)blockIdx.x * cols;
  int t = threadIdx.x;
  float m = -INFINITY;
  for (int c = t; c < cols; c += blockDim.x) {
    row[c] = in[c];
    m = fmaxf(m, row[c]);
  }
  red[t] = m;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) red[t] = fmaxf(red[t], red[t + k]);
    __syncthreads();
  }
  float mx = red[0];
  __syncthreads();
  float s = 0;
  for (int c = t; c < cols; c += blockDim.x) {
    row[c] = expf(row[c] - mx);
    s += row[c];
  }
  red[t] = s;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) red[t] += red[t + k];
    __syncthreads();
  }
  float total = red[0];
  for (int c = t; c < cols; c += blockDim.x) y[(long)blockIdx.x * cols + c] = row[c] / total;
}
