// Reference for the quantize_int8 task: one thread per row. The row's absolute maximum is exact
// (f16 values widen to f32 exactly and max does not round), and the rest is the task's
// definition in f32, operation for operation: scale = amax / 127 and q = rint(x / scale), each a
// correctly rounded IEEE f32 division, so any kernel that follows the definition matches bit
// for bit.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

__global__ void quantize_int8_ref(const __half* __restrict__ x, int8_t* __restrict__ q,
                                  float* __restrict__ scale, int64_t m, int64_t n) {
  const int64_t row = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m) return;
  const __half* xr = x + row * n;
  int8_t* qr = q + row * n;
  float amax = 0.0f;
  for (int64_t k = 0; k < n; ++k) amax = fmaxf(amax, fabsf(__half2float(xr[k])));
  const float s = amax / 127.0f;
  scale[row] = s;
  for (int64_t k = 0; k < n; ++k) {
    float v = s > 0.0f ? rintf(__half2float(xr[k]) / s) : 0.0f;  // rintf: half to even
    v = fminf(fmaxf(v, -127.0f), 127.0f);
    qr[k] = (int8_t)v;
  }
}
