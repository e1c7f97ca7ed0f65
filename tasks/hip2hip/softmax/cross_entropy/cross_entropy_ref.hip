// Reference for the cross_entropy task: one thread per row, in double precision: the row
// maximum, the sum of exp(x - max), then loss = (max - x[label]) + log(sum), rounded once to
// f32; 0 for a row whose label is ignore_index.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

__global__ void cross_entropy_ref(const float* __restrict__ logits,
                                  const int64_t* __restrict__ labels, float* __restrict__ loss,
                                  int64_t b, int64_t c, int64_t ignore_index) {
  const int64_t row = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= b) return;
  const int64_t t = labels[row];
  if (t == ignore_index || t < 0 || t >= c) {  // only ignore_index occurs: labels are < C
    loss[row] = 0.0f;
    return;
  }
  const float* xr = logits + row * c;
  double mx = -INFINITY;
  for (int64_t k = 0; k < c; ++k) mx = fmax(mx, (double)xr[k]);
  double sum = 0.0;
  for (int64_t k = 0; k < c; ++k) sum += exp((double)xr[k] - mx);
  loss[row] = (float)((mx - (double)xr[t]) + log(sum));
}
