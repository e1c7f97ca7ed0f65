// Reference for the leaky_relu task: y = x for x > 0, else slope * x with slope =
// slope_milli / 1000, one thread per element, evaluated in double precision and rounded once
// to f32.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void leaky_relu_ref(const float* __restrict__ x, float* __restrict__ y, int64_t n,
                               int64_t slope_milli) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const double v = x[i];
    const double slope = (double)slope_milli / 1000.0;
    y[i] = (float)(v > 0.0 ? v : slope * v);
  }
}
