// The vector kernel runs only when n is a multiple of 4; otherwise a scalar kernel does.
#include <hip/hip_runtime.h>

__global__ void neg4(float2* out, const float4* in, int vecs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < vecs) {
    float4 v = in[i];
    out[2 * i] = make_float2(-v.x, -v.y);
    out[2 * i + 1] = make_float2(-v.z, -v.w);
  }
}

__global__ void neg1(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = -in[i];
}

void launch(const float* in, float* out, int n, hipStream_t s) {
  if (n % 4 == 0) {
    int vecs = n / 4;
    neg4<<<(vecs + 255) / 256, 256, 0, s>>>(reinterpret_cast<float2*>(out),
                                            reinterpret_cast<const float4*>(in), vecs);
  } else {
    neg1<<<(n + 255) / 256, 256, 0, s>>>(in, out, n);
  }
}
